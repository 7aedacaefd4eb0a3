use crd_schema::CustomResourceSchema;

#[derive(CustomResourceSchema)]
#[schema(skip)]
struct Spec {
    #[schema(crate = "crd_schema")]
    name: String,
    #[schema(all_of(schema(description = "no", property("a", default = 1))), items(no_default))]
    list: Vec<String>,
    #[schema(any_of(required = ["a"]))]
    map: std::collections::BTreeMap<String, String>,
}

fn main() {}
