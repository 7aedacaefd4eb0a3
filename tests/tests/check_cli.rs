//! `crd check` end to end: exit codes, diagnostics, JSON output, hostile
//! input and the real-world corpus.

use std::path::{Path, PathBuf};

use crd_tests::crd;
use serde_json::Value;

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn corpus() -> PathBuf {
    workspace().join("../shared/corpus/crds")
}

fn scratch(name: &str) -> crd_tests::Scratch {
    crd_tests::scratch("check-cli", name)
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("write scratch file");
    path.display().to_string()
}

/// A v1 CRD around `schema` (indented YAML lines of the openAPIV3Schema).
fn crd_yaml(schema: &str) -> String {
    format!(
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: foos.example.com\n\
         spec:\n  group: example.com\n  names: {{plural: foos, kind: Foo}}\n  scope: Namespaced\n  versions:\n\
         \x20 - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n{schema}"
    )
}

#[test]
fn bundled_example_is_valid() {
    let example = workspace().join("examples/crds");
    let (code, out, err) = crd(&["check", example.to_str().expect("path")]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("checked 1 CRD: 1 valid, 0 invalid"), "{out}");
}

#[test]
fn every_v1_corpus_crd_is_valid() {
    let (code, out, err) = crd(&["check", "--format", "json", corpus().to_str().expect("path")]);
    assert_eq!(code, 0, "{err}");
    let reports: Vec<Value> = serde_json::from_str(&out).expect("JSON output");
    assert_eq!(reports.len(), 122);
    let v1: Vec<&Value> = reports.iter().filter(|r| r["version"] == "apiextensions.k8s.io/v1").collect();
    assert_eq!(v1.len(), 114);
    for report in &v1 {
        assert_eq!(report["errors"], Value::Array(vec![]), "{}", report["name"]);
        assert_eq!(report["warnings"], Value::Array(vec![]), "{}", report["name"]);
    }
}

#[test]
fn schemaless_v1beta1_crds_are_not_structural_and_not_pruned() {
    let names =
        ["clusterworkflowtemplates", "cronworkflows", "workfloweventbindings", "workflows", "workflowtemplates"];
    for name in names {
        let file = corpus().join(format!("argoproj__argo-cd/{name}.argoproj.io.yaml"));
        let (code, out, _) = crd(&["check", "--format", "json", file.to_str().expect("path")]);
        assert_eq!(code, 0, "{out}");
        let reports: Vec<Value> = serde_json::from_str(&out).expect("JSON output");
        assert_eq!(reports[0]["version"], "apiextensions.k8s.io/v1beta1");
        assert_eq!(reports[0]["errors"], Value::Array(vec![]), "{name}");
        let warnings: Vec<&str> =
            reports[0]["warnings"].as_array().expect("warnings").iter().filter_map(Value::as_str).collect();
        assert!(
            warnings.contains(&"NonStructuralSchema: spec.preserveUnknownFields: Invalid value: true: must be false"),
            "{name}: {warnings:?}"
        );
        assert!(warnings.iter().any(|w| w.starts_with("pruning is off")), "{name}: {warnings:?}");
    }
}

#[test]
fn invalid_schema_reports_kubernetes_text_with_position() {
    let dir = scratch("invalid");
    let schema = "        type: object\n        properties:\n          foo:\n            type: bogus\n";
    let file = write(&dir, "foo.yaml", crd_yaml(schema).as_bytes());
    let (code, out, _) = crd(&["check", &file]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains(
        "error: spec.validation.openAPIV3Schema.properties[foo].type: Unsupported value: \"bogus\": supported values: \
         \"array\", \"boolean\", \"integer\", \"number\", \"object\", \"string\""
    ));
    assert!(out.contains(&format!("--> {file}:18:19")), "{out}");
    assert!(out.contains("18 |             type: bogus"), "{out}");

    let (code, out, _) = crd(&["check", "--format", "json", &file]);
    assert_eq!(code, 1);
    let reports: Vec<Value> = serde_json::from_str(&out).expect("JSON output");
    assert_eq!(reports[0]["name"], "foos.example.com");
    assert_eq!(reports[0]["errors"].as_array().map(Vec::len), Some(1));
}

#[test]
fn defaults_must_be_pruned_and_valid() {
    let dir = scratch("defaults");
    let schema = "        type: object\n        properties:\n          a:\n            type: object\n\
                  \x20           properties: {x: {type: integer, maximum: 3}}\n\
                  \x20           default: {x: 5, junk: 1}\n";
    let file = write(&dir, "foo.yaml", crd_yaml(schema).as_bytes());
    let (code, out, _) = crd(&["check", "--format", "json", &file]);
    assert_eq!(code, 1, "{out}");
    let reports: Vec<Value> = serde_json::from_str(&out).expect("JSON output");
    let errors: Vec<&str> = reports[0]["errors"].as_array().expect("errors").iter().filter_map(Value::as_str).collect();
    assert_eq!(
        errors,
        [
            "spec.validation.openAPIV3Schema.properties[a].default: Invalid value: {\"junk\":1,\"x\":5}: must not have unknown fields",
            "spec.validation.openAPIV3Schema.properties[a].default.x: Invalid value: 5: x in body should be less than or equal to 3",
        ]
    );
}

#[test]
fn bare_schema_mode() {
    let dir = scratch("schema");
    let file = write(
        &dir,
        "schema.yaml",
        b"type: object\nproperties:\n  a:\n    uniqueItems: true\n    type: array\n    items: {type: string}\n",
    );
    let (code, out, _) = crd(&["check", "--schema", &file]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("error: openAPIV3Schema.properties[a].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic"), "{out}");
    assert!(out.contains(&format!("--> {file}:4:18")), "{out}");
}

#[test]
fn yaml_syntax_error_exits_2_with_position() {
    let dir = scratch("syntax");
    let file = write(&dir, "bad.yaml", b"apiVersion: v1\nkind: [unclosed\n");
    let (code, _, err) = crd(&["check", &file]);
    assert_eq!(code, 2);
    assert!(err.starts_with(&format!("error: {file}:")), "{err}");
    let position = err.trim_start_matches(&format!("error: {file}:"));
    let mut parts = position.splitn(3, ':');
    let line: u64 = parts.next().and_then(|l| l.parse().ok()).expect("line number");
    let column: u64 = parts.next().and_then(|c| c.parse().ok()).expect("column number");
    assert!(line >= 2 && column >= 1, "{err}");
}

#[test]
fn non_crd_documents_are_skipped_but_a_file_without_crds_fails() {
    let dir = scratch("nocrd");
    let mixed =
        format!("apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: x}}\n---\n{}", crd_yaml("        type: object\n"));
    let file = write(&dir, "mixed.yaml", mixed.as_bytes());
    let (code, out, err) = crd(&["check", &file]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        err.contains(&format!("note: {file}:1:1: skipped: ConfigMap (v1) is not a CustomResourceDefinition")),
        "{err}"
    );

    let only = write(&dir, "cm.yaml", b"apiVersion: v1\nkind: ConfigMap\n");
    let (code, _, err) = crd(&["check", &only]);
    assert_eq!(code, 2);
    assert!(err.contains("no CustomResourceDefinition in this file"), "{err}");
}

#[test]
fn a_list_of_crds_stands_for_its_items() {
    // What `kubectl get crds -o yaml` writes: a `List` of CRDs as the
    // cluster holds them; an error points into its item.
    let dir = scratch("list");
    let item = |schema: &str| crd_yaml(schema).lines().map(|l| format!("  {l}\n")).collect::<String>();
    let good = item("        type: object\n").replacen("  apiVersion", "- apiVersion", 1);
    let bad = item("        type: object\n        properties: {a: {type: strin}}\n")
        .replacen("  apiVersion", "- apiVersion", 1)
        .replace("foos", "bars")
        .replace("Foo", "Bar");
    let list = write(&dir, "list.yaml", format!("apiVersion: v1\nkind: List\nitems:\n{good}{bad}").as_bytes());
    let (code, out, err) = crd(&["check", &list]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("checked 2 CRDs: 1 valid, 1 invalid"), "{out}");
    // The bad item's `type: strin` is on its 16th line, after the list's 3
    // and the good item's.
    let line = 3 + good.lines().count() + 16;
    assert!(out.contains(&format!("--> {list}:{line}:34")), "{out}");
}

#[test]
fn empty_and_non_utf8_files_are_clear_errors() {
    let dir = scratch("encoding");
    let empty = write(&dir, "empty.yaml", b"");
    let (code, _, err) = crd(&["check", &empty]);
    assert_eq!(code, 2);
    assert!(err.contains(&format!("{empty}: empty: no YAML or JSON document")), "{err}");

    let binary = write(&dir, "binary.yaml", b"kind: \xff\xfe\x00");
    let (code, _, err) = crd(&["check", &binary]);
    assert_eq!(code, 2);
    assert!(err.contains(&format!("{binary}: not UTF-8 text: invalid byte at offset 6")), "{err}");
}

#[test]
fn alias_bomb_is_refused_quickly() {
    let dir = scratch("bomb");
    let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..10 {
        let refs = vec![format!("*a{}", i - 1); 10].join(", ");
        text.push_str(&format!("a{i}: &a{i} [{refs}]\n"));
    }
    let file = write(&dir, "bomb.yaml", text.as_bytes());
    let (code, _, err) = crd(&["check", &file]);
    assert_eq!(code, 2);
    assert!(err.contains(&format!("error: {file}:")) && err.contains("(max-alias-nodes)"), "{err}");
}

#[test]
fn ten_thousand_deep_schema_is_refused_without_overflow() {
    let dir = scratch("deep");
    // JSON keeps the nesting compact: properties.a.properties.a...
    let mut schema = String::from("{\"type\": \"object\"}");
    for _ in 0..10_000 {
        schema = format!("{{\"type\": \"object\", \"properties\": {{\"a\": {schema}}}}}");
    }
    let text = format!(
        "{{\"apiVersion\": \"apiextensions.k8s.io/v1\", \"kind\": \"CustomResourceDefinition\", \
         \"metadata\": {{\"name\": \"foos.example.com\"}}, \"spec\": {{\"versions\": [{{\"name\": \"v1\", \
         \"schema\": {{\"openAPIV3Schema\": {schema}}}}}]}}}}"
    );
    let file = write(&dir, "deep.json", text.as_bytes());
    let (code, _, err) = crd(&["check", &file]);
    assert_eq!(code, 2);
    assert!(err.contains(&format!("error: {file}:1:")) && err.contains("nested more than 1024 levels deep"), "{err}");
}

#[test]
fn fifty_megabyte_document_is_checked() {
    let dir = scratch("huge");
    let description = "x".repeat(50 * 1024 * 1024);
    let schema = format!("        type: object\n        description: {description}\n");
    let file = write(&dir, "huge.yaml", crd_yaml(&schema).as_bytes());
    let (code, out, err) = crd(&["check", &file]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("checked 1 CRD: 1 valid"), "{out}");
}

#[test]
fn bad_arguments_exit_2() {
    assert_eq!(crd(&[]).0, 2);
    assert_eq!(crd(&["check"]).0, 2);
    assert_eq!(crd(&["check", "--format", "xml", "x"]).0, 2);
    let (code, _, err) = crd(&["check", "/nonexistent/crd.yaml"]);
    assert_eq!(code, 2);
    assert!(err.contains("/nonexistent/crd.yaml: cannot read"), "{err}");
}
