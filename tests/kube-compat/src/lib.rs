//! Nothing to use: this crate's tests show derived and generated roots
//! working with kube-rs, and its documentation is `docs/migrating.md`, so
//! that every example of the migration guide compiles and runs as a doc
//! test.
#![doc = include_str!("../../../docs/migrating.md")]

/// The types `crd generate` makes from `examples/derive-operator/crd.yaml`
/// (the derived CRD generated back), checked in and refreshed by
/// `cargo xtask gen`.
#[allow(missing_docs)]
pub mod generated {
    include!("generated.rs");
}
