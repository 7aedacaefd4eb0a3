use crd_schema::CustomResourceSchema;

#[derive(CustomResourceSchema)]
struct Spec {
    #[schema(unique_items)]
    tags: Vec<String>,
}

fn main() {}
