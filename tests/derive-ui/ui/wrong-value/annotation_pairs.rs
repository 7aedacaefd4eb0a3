use crd_schema::CustomResourceSchema;

#[derive(CustomResourceSchema)]
#[crd(group = "example.com", version = "v1", annotation("a", "1"), annotation("a", "2"))]
#[crd(label("only-a-key"), label = "x", annotation("k", "v", "extra"))]
struct Widget {
    metadata: k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta,
}

fn main() {}
