use crd_schema::CustomResourceSchema;

mod v1 {
    #[derive(Clone, Debug, serde::Serialize, serde::Deserialize, crd_schema::CustomResourceSchema)]
    #[crd(group = "example.com", version = "v1", kind = "Database", namespaced, storage)]
    pub struct DatabaseSpec {
        pub engine: String,
    }
}

mod v2 {
    use super::*;

    #[derive(Clone, Debug, serde::Serialize, serde::Deserialize, CustomResourceSchema)]
    #[crd(group = "example.com", version = "v2", kind = "Database", namespaced, storage = true)]
    pub struct DatabaseSpec {
        pub engine: String,
    }
}

fn main() {
    let _ = crd_schema::merge_crds!(v1::Database, v2::Database);
}
