use crd_schema::CustomResourceSchema;

#[derive(CustomResourceSchema)]
struct Spec {
    #[schema(minlen = 1)]
    name: String,
    #[schema(maximun = 3, colour = "red")]
    size: u32,
}

fn main() {}
