use crd_schema::CustomResourceSchema;
use crd_schema::schema::{Schema, SchemaGenerator};

fn any(_: &mut SchemaGenerator) -> Schema {
    Schema::new()
}

#[derive(CustomResourceSchema)]
#[crd(group = "example.com", version = "v1", deprecation_warning = "use v2")]
struct Widget {
    metadata: k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta,
    #[schema(schema_with = "any", schemars)]
    spec: String,
}

fn main() {}
