//! `crd prune` end to end: every corpus sample through its CRD, warnings,
//! defaults, bare schemas and exit codes.

use std::path::{Path, PathBuf};

use crd_tests::{corpus_dir as corpus, crd, write_file as write};

use serde_json::{Value, json};

fn scratch(name: &str) -> crd_tests::Scratch {
    crd_tests::scratch("prune-cli", name)
}

fn sorted_entries(dir: &Path) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> =
        std::fs::read_dir(dir).expect("read dir").map(|e| e.expect("entry").path()).collect();
    entries.sort();
    entries
}

#[test]
fn every_corpus_sample_goes_through_its_crd() {
    let mut objects = 0;
    for project in sorted_entries(&corpus().join("samples")) {
        for sample_dir in sorted_entries(&project) {
            let crd_file = corpus()
                .join("crds")
                .join(project.file_name().expect("name"))
                .join(format!("{}.yaml", sample_dir.file_name().and_then(|n| n.to_str()).expect("name")));
            let samples: Vec<String> = sorted_entries(&sample_dir).iter().map(|p| p.display().to_string()).collect();
            let mut args = vec!["prune", "--format", "json", "--crd", crd_file.to_str().expect("path")];
            args.extend(samples.iter().map(String::as_str));
            let (code, out, err) = crd(&args);
            // One sample is of a version its CRD no longer serves: the
            // API server refuses it, and so does prune (the others go on).
            if sample_dir.ends_with("clusterexternalsecrets.external-secrets.io") {
                assert_eq!(code, 1, "{err}");
                assert!(err.contains("2.yaml:1:1: ClusterExternalSecret/?: CRD clusterexternalsecrets.external-secrets.io does not serve version \"v1beta1\" (served: v1)"), "{err}");
            } else {
                assert_eq!(code, 0, "{}: {err}", sample_dir.display());
            }
            for line in out.lines() {
                let object: Value = serde_json::from_str(line).expect("one JSON object per line");
                assert!(object["apiVersion"].is_string() && object["kind"].is_string(), "{line}");
                objects += 1;
            }
        }
    }
    assert_eq!(objects, 418);
}

const CRD: &str = "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: foos.example.com}
spec:
  group: example.com
  names: {plural: foos, kind: Foo}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              replicas: {type: integer, default: 1}
              template:
                type: object
                x-kubernetes-embedded-resource: true
                x-kubernetes-preserve-unknown-fields: true
";

#[test]
fn prunes_defaults_and_warns_like_kubectl() {
    let dir = scratch("basic");
    let crd_file = write(&dir, "crd.yaml", CRD);
    let input = write(
        &dir,
        "foo.yaml",
        "apiVersion: example.com/v1\nkind: Foo\nmetadata: {name: a, bogus: 1}\nspec:\n  foo: 1\n  \
         template: {apiVersion: v1, kind: Pod, metadata: {name: p, junk: 2}, spec: {x: 1}}\n",
    );
    let (code, out, err) = crd(&["prune", "--format", "json", "--crd", &crd_file, &input]);
    assert_eq!(code, 0, "{err}");
    let object: Value = serde_json::from_str(out.trim()).expect("JSON");
    assert_eq!(
        object,
        json!({"apiVersion": "example.com/v1", "kind": "Foo", "metadata": {"name": "a"},
            "spec": {"template": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {"x": 1}},
                "replicas": 1}})
    );
    assert_eq!(
        err,
        "Warning: unknown field \"metadata.bogus\"\nWarning: unknown field \"spec.foo\"\n\
         Warning: unknown field \"spec.template.metadata.junk\"\n"
    );

    let (code, out, _) = crd(&["prune", "--no-default", "--crd", &crd_file, &input]);
    assert_eq!(code, 0);
    assert!(out.starts_with("---\napiVersion: example.com/v1\n") && !out.contains("replicas"), "{out}");
}

#[test]
fn defaults_are_pruned_as_the_server_loads_them() {
    let dir = scratch("serving");
    // Such a default is refused on create, but old CRDs may carry one.
    let schema = write(
        &dir,
        "schema.yaml",
        "type: object\nproperties:\n  a:\n    type: object\n    default: {x: 1, junk: 2}\n    properties:\n      x: {type: integer}\n",
    );
    let input = write(&dir, "v.json", "{}");
    let (code, out, err) = crd(&["prune", "--format", "json", "--schema", &schema, &input]);
    assert_eq!((code, out.as_str(), err.as_str()), (0, "{\"a\":{\"x\":1}}\n", ""));
}

#[test]
fn objects_of_other_kinds_or_versions_fail_with_exit_1() {
    let dir = scratch("kinds");
    let crd_file = write(&dir, "crd.yaml", CRD);
    let input = write(&dir, "bar.yaml", "apiVersion: example.com/v1\nkind: Bar\nmetadata: {name: b}\n");
    let (code, _, err) = crd(&["prune", "--crd", &crd_file, &input]);
    assert_eq!(code, 1);
    assert!(err.contains("no CRD given for kind \"Bar\" in group \"example.com\""), "{err}");

    let input = write(&dir, "v2.yaml", "apiVersion: example.com/v2\nkind: Foo\nmetadata: {name: b}\n");
    let (code, _, err) = crd(&["prune", "--crd", &crd_file, &input]);
    assert_eq!(code, 1);
    assert!(err.contains("CRD foos.example.com has no version \"v2\""), "{err}");
    let (code, _, err) = crd(&["prune", "--version", "v1", "--crd", &crd_file, &input]);
    assert_eq!(code, 0, "{err}");

    let input = write(&dir, "meta.yaml", "apiVersion: example.com/v1\nkind: Foo\nmetadata: {labels: {a: 1}}\n");
    let (code, _, err) = crd(&["prune", "--crd", &crd_file, &input]);
    assert_eq!(code, 1);
    assert!(err.contains("metadata: Invalid value: {\"labels\":{\"a\":1}}: json: cannot unmarshal number"), "{err}");
}

#[test]
fn bare_schema_with_and_without_root() {
    let dir = scratch("schema");
    let schema = write(&dir, "schema.yaml", "type: object\nproperties:\n  a: {type: string, default: x}\n");
    let input = write(&dir, "v.json", "{\"b\": 1, \"kind\": \"K\", \"apiVersion\": \"v1\"}");
    let (code, out, err) = crd(&["prune", "--format", "json", "--schema", &schema, &input]);
    assert_eq!((code, out.as_str(), err.as_str()), (0, "{\"a\":\"x\"}\n", "Warning: unknown field \"b\"\n"));
    let (code, out, _) = crd(&["prune", "--format", "json", "--root", "--schema", &schema, &input]);
    assert_eq!((code, out.as_str()), (0, "{\"kind\":\"K\",\"apiVersion\":\"v1\",\"a\":\"x\"}\n"));
}

#[test]
fn bad_invocations_exit_2() {
    assert_eq!(crd(&["prune"]).0, 2);
    assert_eq!(crd(&["prune", "--crd", "x.yaml"]).0, 2);
    assert_eq!(crd(&["prune", "--format", "toml", "--crd", "x.yaml", "y.yaml"]).0, 2);
    let (code, _, err) = crd(&["prune", "--crd", "/nonexistent/crd.yaml", "/nonexistent/in.yaml"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read") && !err.contains("Usage:"), "{err}");
    let dir = scratch("nonstructural");
    let schema = write(&dir, "schema.yaml", "type: object\nproperties:\n  a: {$ref: '#/x'}\n");
    let input = write(&dir, "v.json", "{}");
    let (code, _, err) = crd(&["prune", "--schema", &schema, &input]);
    assert_eq!(code, 2);
    assert!(err.contains("schema is not structural: OpenAPIV3Schema '$ref' is not supported"), "{err}");
}
