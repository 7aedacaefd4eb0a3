use crd_schema::CustomResourceSchema;

#[derive(CustomResourceSchema)]
#[crd(group = "example.com", version = "v1", group = "example.org")]
struct Widget {
    metadata: k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta,
    #[schema(minimum = 1, minimum = 2)]
    #[schema(maximum = 5)]
    #[schema(maximum = 6)]
    size: i32,
    #[schema(validation(rule = "true", rule = "false"))]
    name: String,
}

fn main() {}
