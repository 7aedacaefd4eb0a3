use crd_schema::CustomResourceSchema;

#[derive(CustomResourceSchema)]
enum Colour {
    #[schema(description = "red")]
    Red,
    #[schema(skip)]
    Green,
}

#[derive(CustomResourceSchema)]
enum Empty {}

fn main() {}
