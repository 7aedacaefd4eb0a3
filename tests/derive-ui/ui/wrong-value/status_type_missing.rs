use crd_schema::CustomResourceSchema;

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize, CustomResourceSchema)]
#[crd(group = "example.com", version = "v1", kind = "Database", namespaced, status = "DatabaseStatu")]
pub struct DatabaseSpec {
    pub engine: String,
}

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize, CustomResourceSchema)]
pub struct DatabaseStatus {
    pub ready: bool,
}

fn main() {}
