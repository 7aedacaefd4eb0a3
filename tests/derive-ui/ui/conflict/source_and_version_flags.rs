use crd_schema::CustomResourceSchema;
use crd_schema::schema::{Schema, SchemaGenerator};

fn any(_: &mut SchemaGenerator) -> Schema {
    Schema::new()
}

#[derive(CustomResourceSchema)]
#[crd(group = "example.com", version = "v1", deprecation_warning = "use v2")]
struct Widget {
    #[schema(schema_with = "any", schemars)]
    spec: String,
}

fn main() {}
