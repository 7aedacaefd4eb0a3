use crd_schema::CustomResourceSchema;

#[derive(CustomResourceSchema)]
#[crd(version = "v1", scope = "Global")]
struct Widget {
    #[serde(rename = "apiVersion")]
    api_version: String,
    kind: String,
    metadata: k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta,
}

fn main() {
    // No second wave of errors: the stub impls keep this compiling.
    let _ = Widget::crd_manifest();
}
