use crd_schema::CustomResourceSchema;

// `root` names the generated root: an identifier.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize, CustomResourceSchema)]
#[crd(group = "example.com", version = "v1", kind = "First", root = "First Root", namespaced)]
pub struct FirstSpec {
    pub engine: String,
}

// `root` names the spec struct itself.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize, CustomResourceSchema)]
#[crd(group = "example.com", version = "v1", kind = "Second", root = "SecondSpec", namespaced)]
pub struct SecondSpec {
    pub engine: String,
}

// A root (it has `metadata`) is named by its own declaration.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize, CustomResourceSchema)]
#[crd(group = "example.com", version = "v1", root = "Other")]
pub struct Third {
    pub metadata: k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta,
}

// `attr` holds the inside of an attribute the derive does not write itself.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize, CustomResourceSchema)]
#[crd(group = "example.com", version = "v1", kind = "Fourth", namespaced, attr = "allow(", attr = "derive(Eq)")]
pub struct FourthSpec {
    pub engine: String,
}

fn main() {}
