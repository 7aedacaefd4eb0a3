use crd_schema::CustomResourceSchema;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

mod v1 {
    use super::*;

    #[derive(serde::Serialize, serde::Deserialize, CustomResourceSchema)]
    #[crd(group = "example.com", version = "v1", kind = "Widget", annotation("owner", "team-a"))]
    pub struct Widget {
        #[serde(rename = "apiVersion")]
        pub api_version: String,
        pub kind: String,
        pub metadata: ObjectMeta,
    }
}

mod v2 {
    use super::*;

    #[derive(serde::Serialize, serde::Deserialize, CustomResourceSchema)]
    #[crd(group = "example.com", version = "v2", kind = "Widget", storage = false, annotation("owner", "team-b"))]
    pub struct Widget {
        #[serde(rename = "apiVersion")]
        pub api_version: String,
        pub kind: String,
        pub metadata: ObjectMeta,
    }
}

fn main() {
    let _ = crd_schema::merge_crds!(v1::Widget, v2::Widget);
}
