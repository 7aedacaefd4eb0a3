use crd_schema::CustomResourceSchema;

#[derive(CustomResourceSchema)]
struct Spec {
    #[schema(enum_values = ["a"], enum_values_json = "[[\"b\"]]")]
    mode: String,
}

fn main() {}
