use crd_schema::CustomResourceSchema;

// kube-derive's spelling misspelt: the closest known key is suggested.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize, CustomResourceSchema)]
#[crd(group = "example.com", version = "v1", kind = "Database", namespace, shortnames = "db")]
pub struct DatabaseSpec {
    pub engine: String,
}

fn main() {}
