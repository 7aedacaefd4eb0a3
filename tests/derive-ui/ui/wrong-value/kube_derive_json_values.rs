use crd_schema::CustomResourceSchema;

// kube-derive's JSON-string values are checked at compile time: a key the
// API does not have, a column type it does not know, a missing path.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize, CustomResourceSchema)]
#[crd(group = "example.com", version = "v1", kind = "First", namespaced)]
#[crd(printcolumn = r#"{"name": "Size", "type": "integer", "jsonpath": ".spec.size"}"#)]
pub struct FirstSpec {
    pub size: i32,
}

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize, CustomResourceSchema)]
#[crd(group = "example.com", version = "v1", kind = "Second", namespaced)]
#[crd(printcolumn = r#"{"name": "Size", "type": "int", "jsonPath": ".spec.size"}"#)]
pub struct SecondSpec {
    pub size: i32,
}

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize, CustomResourceSchema)]
#[crd(group = "example.com", version = "v1", kind = "Third", namespaced)]
#[crd(scale = r#"{"specReplicasPath": ".spec.size"}"#)]
pub struct ThirdSpec {
    pub size: i32,
}

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize, CustomResourceSchema)]
#[crd(group = "example.com", version = "v1", kind = "Fourth", namespaced)]
#[crd(printcolumn = r#"{"name": "Size""#)]
pub struct FourthSpec {
    pub size: i32,
}

fn main() {}
