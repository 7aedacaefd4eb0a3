//! Prints the Database CRD as YAML, ready for `kubectl apply -f -`.

fn main() {
    print!("{}", example_derive_operator::Database::crd_manifest().to_yaml());
}
