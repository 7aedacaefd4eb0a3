use crd_schema::CustomResourceSchema;

#[derive(CustomResourceSchema)]
struct Spec {
    #[schema(min_length = "5", pattern = 5, nullable = "yes")]
    name: String,
    #[schema(list_type = "list", max_items = -1, minimum = "0", enum_values = "a")]
    tags: Vec<String>,
    #[schema(required = true, description)]
    other: String,
}

fn main() {}
