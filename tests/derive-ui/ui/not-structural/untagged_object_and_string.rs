use crd_schema::CustomResourceSchema;

#[derive(serde::Deserialize, CustomResourceSchema)]
struct Port {
    number: i32,
}

#[derive(serde::Deserialize, CustomResourceSchema)]
#[serde(untagged)]
enum PortOrName {
    Port(Port),
    Name(String),
}

fn main() {}
