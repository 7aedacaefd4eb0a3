use crd_schema::CustomResourceSchema;

#[derive(CustomResourceSchema)]
#[crd(group = "example.com", version = "v1")]
struct Widget(String, u32);

fn main() {}
