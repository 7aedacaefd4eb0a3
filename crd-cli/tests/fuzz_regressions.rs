//! Inputs the fuzz targets of `fuzz/` found, replayed on stable through the
//! targets' own code (`fuzz/src/lib.rs`, included below): each test is a
//! minimised crasher, hang or OOM, with a comment saying what it caught.
//! A test passes when the target returns; the harness panics on a finding.
//!
//! To add one: minimise the artifact with
//! `cargo +nightly fuzz tmin -s none -a <target> fuzz/artifacts/<target>/<file>`,
//! fix the cause, and paste the minimised bytes here as a literal.

// The fuzz crate's library is the harness; not every target has a
// regression yet, so some of its functions go unused here.
#[allow(dead_code)]
#[path = "../../fuzz/src/lib.rs"]
mod harness;

/// Every target on one input (the two-part targets read NUL-joined parts).
fn all_targets(data: &[u8]) {
    harness::yaml(data);
    let _ = harness::check(data);
    let _ = harness::decode(data);
    let _ = harness::validate(data);
    let _ = harness::generate(data);
}

#[test]
fn the_harness_reaches_the_code_under_test() {
    // Not a finding: keeps the harness compiling on stable, and shows that
    // each target gets past its input parsing on a well-formed input.
    let crd = r#"{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced", "names": {"kind": "Widget", "plural": "widgets"},
        "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema":
            {"type": "object", "properties": {"spec": {"type": "object", "properties": {
                "size": {"type": "integer", "default": 3, "x-kubernetes-validations": [{"rule": "self > 0"}]}}}}}}}]}}"#;
    let object = "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: a}\nspec: {size: -1, junk: 1}\n";
    let pair = format!("{crd}\0{object}");
    let update = format!("{crd}\0{object}\0{object}");
    assert!(harness::generate(crd.as_bytes()));
    assert_eq!(harness::check(crd.as_bytes()), "");
    assert!(harness::decode(pair.as_bytes()));
    assert!(harness::validate(pair.as_bytes()));
    assert!(harness::validate(update.as_bytes()));
    let bare = b"type: object\nproperties: {a: {type: string, default: x}}\n---\n{b: 1}\n";
    assert!(harness::decode(bare));
    assert!(harness::check(bare).contains("error: unknown field \"openAPIV3Schema.b\""), "{}", harness::check(bare));
    all_targets(crd.as_bytes());
    all_targets(update.as_bytes());
}
