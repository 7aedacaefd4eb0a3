use crd_schema::CustomResourceSchema;

#[derive(serde::Deserialize, CustomResourceSchema)]
struct Spec {
    #[schema(skip, min_length = 1)]
    name: String,
    #[serde(skip)]
    #[schema(max_length = 3)]
    cache: String,
    #[serde(flatten)]
    #[schema(description = "flattened")]
    rest: std::collections::BTreeMap<String, String>,
}

fn main() {}
