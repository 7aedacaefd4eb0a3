use crd_schema::CustomResourceSchema;

#[derive(CustomResourceSchema)]
#[serde(untagged)]
enum Name {
    Short(String),
    Long(Box<str>),
}

#[derive(CustomResourceSchema)]
#[serde(untagged)]
enum Only {
    Number(i64),
}

fn main() {}
