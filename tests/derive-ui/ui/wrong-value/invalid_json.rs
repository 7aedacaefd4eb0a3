use crd_schema::CustomResourceSchema;

#[derive(CustomResourceSchema)]
struct Spec {
    #[schema(default_json = "{a: 1}")]
    config: serde_json::Value,
    #[schema(example_json = "[1, 2,]")]
    list: Vec<i32>,
}

fn main() {}
