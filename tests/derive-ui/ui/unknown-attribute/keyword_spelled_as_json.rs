use crd_schema::CustomResourceSchema;

#[derive(CustomResourceSchema)]
struct Spec {
    #[schema(type = "string", enum = ["a"])]
    name: String,
}

fn main() {}
