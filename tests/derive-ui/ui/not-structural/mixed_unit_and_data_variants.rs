use crd_schema::CustomResourceSchema;

#[derive(serde::Deserialize, CustomResourceSchema)]
enum Source {
    None,
    Git(String),
    Pair(String, u32),
}

fn main() {}
