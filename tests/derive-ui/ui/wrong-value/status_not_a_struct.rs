use crd_schema::CustomResourceSchema;

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize, CustomResourceSchema)]
#[crd(group = "example.com", version = "v1", kind = "Database", namespaced, status = "Phase")]
pub struct DatabaseSpec {
    pub engine: String,
}

/// A string enum: its schema is a string, not the object a status is.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize, CustomResourceSchema)]
pub enum Phase {
    Pending,
    Ready,
}

fn main() {}
