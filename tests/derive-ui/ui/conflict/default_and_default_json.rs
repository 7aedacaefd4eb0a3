use crd_schema::CustomResourceSchema;

#[derive(CustomResourceSchema)]
struct Spec {
    #[schema(default = 1, default_json = "2")]
    size: i32,
    #[schema(default = "a", no_default)]
    name: String,
}

fn main() {}
