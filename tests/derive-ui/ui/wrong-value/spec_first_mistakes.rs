use crd_schema::CustomResourceSchema;

// No kind: the spec-first form cannot name the root it generates.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize, CustomResourceSchema)]
#[crd(group = "example.com", version = "v1", namespaced)]
pub struct FirstSpec {
    pub engine: String,
}

// No scope: kube-derive's default (Cluster) and ours (Namespaced) differ.
// `status` alone: the root needs the status type.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize, CustomResourceSchema)]
#[crd(group = "example.com", version = "v1", kind = "Second", status)]
pub struct SecondSpec {
    pub engine: String,
}

// `kind` names the struct itself, which has no `metadata`.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize, CustomResourceSchema)]
#[crd(group = "example.com", version = "v1", kind = "Third", namespaced)]
pub struct Third {
    pub engine: String,
}

// On a root (it has `metadata`), `status` is a flag and derives are its own.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize, CustomResourceSchema)]
#[crd(group = "example.com", version = "v1", status = "String", derive = "PartialEq")]
pub struct Fourth {
    pub metadata: k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta,
}

fn main() {}
