use crd_schema::CustomResourceSchema;

#[derive(CustomResourceSchema)]
struct Port {
    name: String,
}

#[derive(CustomResourceSchema)]
struct Spec {
    #[schema(list_map_keys = ["name"])]
    ports: Vec<Port>,
    #[schema(list_type = "set", list_map_keys = ["name"])]
    more_ports: Vec<Port>,
}

fn main() {}
