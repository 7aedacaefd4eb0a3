use crd_schema::CustomResourceSchema;

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize, CustomResourceSchema)]
#[crd(group = "example.com", version = "v1", kind = "Database", namespaced, scope = "Cluster")]
pub struct DatabaseSpec {
    pub engine: String,
}

fn main() {}
