//! Inputs that crashed, hung or exhausted memory in the code the fuzz
//! targets of `fuzz/` drive, replayed on stable through the targets' own
//! code (`fuzz/src/lib.rs`, included below), each with a comment saying
//! what it caught and where it was found (the fuzzers need nightly, which
//! this project's machines lack; so far the findings came from the hostile
//! suite, `crd-cli/tests/hostile.rs`). A test passes when every target
//! returns; the harness panics on a finding.
//!
//! To add a fuzzer's finding: minimise the artifact with
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

#[test]
fn documents_nested_ten_thousand_deep() {
    // Caught a stack overflow in the YAML reader's serde layers (about
    // 31 KiB of stack a level in a debug build); now refused at level
    // 1,025 with a `max-depth` error (hostile suite, `deep-object-10000`).
    let lists = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let objects = format!("{}1{}", "{a: ".repeat(10_000), "}".repeat(10_000));
    for document in [lists, objects] {
        all_targets(document.as_bytes());
        let refused = crd_schema::crd::parse_source("deep.yaml", document.as_bytes()).err().map(|e| e.to_string());
        assert!(refused.as_deref().is_some_and(|e| e.contains("1024 levels deep")), "{refused:?}");
    }
}

#[test]
fn a_megabyte_description_on_one_line() {
    // Caught quadratic work in the doc-comment writer (minutes for a 10 MB
    // description: the rest of the line was counted for every piece).
    let description = "word ".repeat(200_000);
    let crd = format!(
        r#"{{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {{"name": "widgets.example.com"}},
        "spec": {{"group": "example.com", "scope": "Namespaced", "names": {{"kind": "Widget", "plural": "widgets"}},
        "versions": [{{"name": "v1", "served": true, "storage": true, "schema": {{"openAPIV3Schema":
            {{"type": "object", "description": "{description}"}}}}}}]}}}}"#
    );
    assert!(harness::generate(crd.as_bytes()));
    all_targets(crd.as_bytes());
}
