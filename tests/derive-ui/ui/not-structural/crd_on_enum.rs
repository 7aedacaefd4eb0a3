use crd_schema::CustomResourceSchema;

#[derive(CustomResourceSchema)]
#[crd(group = "example.com", version = "v1")]
enum Widget {
    Small,
    Large,
}

fn main() {}
