use crd_schema::CustomResourceSchema;

#[derive(CustomResourceSchema)]
#[crd(group = "example.com", version = "v1", shortnames = ["w"])]
#[crd(printer_column(name = "Age", type_ = "date", jsonpath = ".metadata.creationTimestamp"))]
#[schema(validation(rul = "self.a > 0"))]
struct Widget {
    metadata: k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta,
    a: i32,
}

fn main() {}
