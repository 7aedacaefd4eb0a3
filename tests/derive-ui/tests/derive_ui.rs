//! Compile errors of `#[derive(CustomResourceSchema)]` and of
//! `merge_crds!`, one folder per kind of mistake (`ui/`); the `.stderr`
//! files are the reviewed messages. Refresh them with `TRYBUILD=overwrite
//! cargo test -p crd-derive-ui`, then read the diff.

#[test]
fn derive_ui() {
    let cases = trybuild::TestCases::new();
    for folder in ["unknown-attribute", "wrong-value", "conflict", "not-structural"] {
        cases.compile_fail(format!("ui/{folder}/*.rs"));
    }
}
