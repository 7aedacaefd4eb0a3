//! `crd openapi` and the documents behind it.
//!
//! - Every CRD of the public corpus, in every served version, and every
//!   group-version of the corpus as a whole: the OpenAPI 3.0 document
//!   passes the official OpenAPI 3.0 JSON Schema (2021-09-28) and the
//!   Swagger 2.0 document the Swagger 2.0 JSON Schema (both checked in
//!   under `tests/data/openapi-schemas/`), every `$ref` resolves, and each
//!   CRD's kind and list definitions are there. The validators are shown
//!   to reject broken documents, so these checks can fail.
//! - The command line: routes and verbs of namespaced and cluster-scoped
//!   resources, `--v2`, `-o`, `--group`, errors with exit code 2, and
//!   byte-identical output for identical input.

#![allow(clippy::unwrap_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crd_schema::crd::{self, CrdSpec};
use crd_schema::openapi::{Format, collect_refs, definition_name, document};
use jsonschema::Validator;
use serde_json::{Value, json};

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A meta-schema from `tests/data/openapi-schemas/`; missing is a failure.
/// `format: regex` means what the API server accepted: Go's RE2 syntax
/// (OpenAPI suggests ECMA-262, which rejects e.g. `[^[:punct:]\s]` from
/// the controller-tools CRD).
fn validator(file: &str) -> Validator {
    let path = manifest_dir().join("tests/data/openapi-schemas").join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let schema: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    jsonschema::draft4::options()
        .with_format("regex", |pattern: &str| crd_schema::goregexp::check(pattern).is_ok())
        .build(&schema)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn v3_validator() -> Validator {
    validator("openapi-3.0-2021-09-28.json")
}

fn v2_validator() -> Validator {
    validator("swagger-2.0.json")
}

/// Every problem of `doc`: meta-schema violations, references that do not
/// resolve inside the document, and missing kind or list definitions.
fn problems(doc: &Value, format: Format, validator: &Validator, expected: &[String]) -> Vec<String> {
    let mut out: Vec<String> = validator
        .iter_errors(doc)
        .take(5)
        .map(|e| {
            // The message quotes the whole failing instance: keep its end.
            let message = e.to_string();
            let tail: String = message.chars().rev().take(160).collect::<Vec<_>>().into_iter().rev().collect();
            format!("{}: ...{tail}", e.instance_path())
        })
        .collect();
    let (prefix, definitions) = match format {
        Format::V3 => ("#/components/schemas/", &doc["components"]["schemas"]),
        Format::V2 => ("#/definitions/", &doc["definitions"]),
    };
    let mut refs = Vec::new();
    collect_refs(doc, &mut refs);
    for r in refs {
        let resolved = if let Some(name) = r.strip_prefix(prefix) {
            definitions.get(name).is_some()
        } else if let (Format::V2, Some(name)) = (format, r.strip_prefix("#/parameters/")) {
            doc["parameters"].get(name).is_some()
        } else {
            false
        };
        if !resolved {
            out.push(format!("dangling $ref {r}"));
        }
    }
    for name in expected {
        if definitions.get(name).is_none() {
            out.push(format!("no definition {name}"));
        }
    }
    out
}

/// The kind and list definition names of `spec` in `version`.
fn expected_definitions(spec: &CrdSpec, version: &str) -> Vec<String> {
    vec![
        definition_name(&spec.group, version, &spec.names.kind),
        definition_name(&spec.group, version, &spec.names.list_kind),
    ]
}

/// Every CRD of the corpus, with its file.
fn corpus_crds() -> Vec<(String, crd::CustomResourceDefinition)> {
    let dir = manifest_dir().join("../../shared/corpus/crds");
    assert!(dir.is_dir(), "corpus missing: {}", dir.display());
    let mut out = Vec::new();
    for loaded in crd::load(&dir) {
        let loaded = loaded.unwrap_or_else(|e| panic!("{e}"));
        out.extend(loaded.crds.into_iter().map(|(_, c)| (loaded.file.clone(), c)));
    }
    out
}

#[test]
fn corpus_documents_are_valid_openapi() {
    let crds = corpus_crds();
    assert_eq!(crds.len(), 122, "the corpus has 122 CRDs");
    let (v3, v2) = (v3_validator(), v2_validator());
    let mut failures = Vec::new();
    let mut counts = BTreeMap::new();
    let mut check = |label: &str, specs: &[CrdSpec], version: &str, kind: &str| {
        let expected: Vec<String> = specs
            .iter()
            .filter(|s| s.versions.iter().any(|v| v.served && v.name == version))
            .flat_map(|s| expected_definitions(s, version))
            .collect();
        for (format, validator) in [(Format::V3, &v3), (Format::V2, &v2)] {
            let found = match document(specs, version, format) {
                Ok(doc) => problems(&doc, format, validator, &expected),
                Err(e) => vec![e.to_string()],
            };
            *counts.entry((kind.to_owned(), format!("{format:?}"))).or_insert(0) += 1;
            if !found.is_empty() {
                failures.push(format!("{label} {version} {format:?}:\n  {}", found.join("\n  ")));
            }
        }
    };
    let mut groups: BTreeMap<String, Vec<CrdSpec>> = BTreeMap::new();
    for (file, c) in &crds {
        for v in c.spec.versions.iter().filter(|v| v.served) {
            check(&format!("{file} ({})", c.metadata.name), std::slice::from_ref(&c.spec), &v.name, "per CRD");
        }
        groups.entry(c.spec.group.clone()).or_default().push(c.spec.clone());
    }
    for (group, specs) in &groups {
        let versions: BTreeSet<&str> =
            specs.iter().flat_map(|s| &s.versions).filter(|v| v.served).map(|v| v.name.as_str()).collect();
        for version in versions {
            check(&format!("group {group}"), specs, version, "per group");
        }
    }
    for ((kind, format), n) in &counts {
        println!("validated {n} {format} documents ({kind})");
    }
    let total: usize = counts.values().sum();
    println!("validated {total} documents in all, from {} CRDs in {} groups", crds.len(), groups.len());
    assert!(failures.is_empty(), "{} invalid documents:\n{}", failures.len(), failures.join("\n"));
    let served: usize = crds.iter().map(|(_, c)| c.spec.versions.iter().filter(|v| v.served).count()).sum();
    assert!(served >= crds.len(), "every CRD serves a version");
    for format in ["V3", "V2"] {
        assert_eq!(counts.get(&("per CRD".to_owned(), format.to_owned())), Some(&served));
        assert!(counts.get(&("per group".to_owned(), format.to_owned())) >= Some(&groups.len()));
    }
}

/// A small namespaced CRD with status and scale, defaults, an
/// int-or-string field and a nullable one.
const WIDGETS: &str = r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  versions:
    - name: v1beta1
      served: true
      storage: false
      schema:
        openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
    - name: v1
      served: true
      storage: true
      subresources:
        status: {}
        scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas}
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              default: {}
              properties:
                replicas: {type: integer, default: 1}
                port: {x-kubernetes-int-or-string: true, default: http}
                note: {type: string, nullable: true}
            status:
              type: object
              properties:
                replicas: {type: integer}
    - name: v2alpha1
      served: false
      storage: false
"#;

/// A cluster-scoped CRD of the same group.
const GADGETS: &str = r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.example.com
spec:
  group: example.com
  scope: Cluster
  names: {plural: gadgets, singular: gadget, kind: Gadget, listKind: GadgetList}
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec: {type: object, properties: {size: {type: integer, default: 3}}}
"#;

/// A CRD of another group.
const THINGS: &str = r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: things.other.io
spec:
  group: other.io
  scope: Cluster
  names: {plural: things, singular: thing, kind: Thing, listKind: ThingList}
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema: {type: object}
"#;

/// A fresh temporary directory holding `files`, removed when dropped.
fn temp_dir(name: &str, files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::Builder::new().prefix(&format!("crd-openapi-test-{name}-")).tempdir().unwrap();
    for (file, text) in files {
        std::fs::write(dir.path().join(file), text).unwrap();
    }
    dir
}

/// Runs `crd openapi ARGS`; exit code, stdout, stderr.
fn run(args: &[&str]) -> (i32, String, String) {
    let args: Vec<String> = std::iter::once("openapi").chain(args.iter().copied()).map(str::to_owned).collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = crd_cli::run(&args, &mut out, &mut err);
    (code, String::from_utf8(out).unwrap(), String::from_utf8(err).unwrap())
}

fn run_json(args: &[&str]) -> Value {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Path → its methods, with the `x-kubernetes-action` of each.
fn routes(doc: &Value) -> BTreeMap<String, Vec<(String, String)>> {
    let paths = doc["paths"].as_object().unwrap();
    paths
        .iter()
        .map(|(path, item)| {
            let ops = item
                .as_object()
                .unwrap()
                .iter()
                .filter(|(k, _)| *k != "parameters")
                .map(|(k, op)| (k.clone(), op["x-kubernetes-action"].as_str().unwrap_or("").to_owned()))
                .collect();
            (path.clone(), ops)
        })
        .collect()
}

fn pairs(items: &[(&str, &str)]) -> Vec<(String, String)> {
    items.iter().map(|(a, b)| ((*a).to_owned(), (*b).to_owned())).collect()
}

#[test]
fn namespaced_crd_with_status_and_scale() {
    let dir = temp_dir("namespaced", &[("widgets.yaml", WIDGETS)]);
    let file = dir.path().join("widgets.yaml");
    let doc = run_json(&["--crd", path_str(&file)]);
    assert!(problems(&doc, Format::V3, &v3_validator(), &["com.example.v1.Widget".to_owned()]).is_empty());
    assert_eq!(doc["openapi"], "3.0.0");
    assert_eq!(doc["info"], json!({"title": "Kubernetes CRD Swagger", "version": "v0.1.0"}));
    let root = "/apis/example.com/v1/namespaces/{namespace}/widgets";
    let expected: BTreeMap<String, Vec<(String, String)>> = [
        ("/apis/example.com/v1/widgets".to_owned(), pairs(&[("get", "list")])),
        (root.to_owned(), pairs(&[("delete", "deletecollection"), ("get", "list"), ("post", "post")])),
        (
            format!("{root}/{{name}}"),
            pairs(&[("delete", "delete"), ("get", "get"), ("patch", "patch"), ("put", "put")]),
        ),
        (format!("{root}/{{name}}/scale"), pairs(&[("get", "get"), ("patch", "patch"), ("put", "put")])),
        (format!("{root}/{{name}}/status"), pairs(&[("get", "get"), ("patch", "patch"), ("put", "put")])),
    ]
    .into_iter()
    .collect();
    assert_eq!(routes(&doc), expected);

    let paths = &doc["paths"];
    assert_eq!(paths["/apis/example.com/v1/widgets"]["get"]["operationId"], "listExampleComV1WidgetForAllNamespaces");
    let status = &paths[format!("{root}/{{name}}/status")];
    assert_eq!(status["patch"]["operationId"], "patchExampleComV1NamespacedWidgetStatus");
    assert_eq!(status["patch"]["description"], "partially update status of the specified Widget");
    assert_eq!(status["put"]["tags"], json!(["exampleCom_v1"]));
    assert_eq!(
        status["get"]["x-kubernetes-group-version-kind"],
        json!({"group": "example.com", "kind": "Widget", "version": "v1"})
    );
    let common: Vec<&str> =
        status["parameters"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(common, ["name", "namespace", "pretty"]);
    let patch_types: Vec<&String> = status["patch"]["requestBody"]["content"].as_object().unwrap().keys().collect();
    assert_eq!(
        patch_types,
        ["application/apply-patch+yaml", "application/json-patch+json", "application/merge-patch+json"]
    );
    let scale = &paths[format!("{root}/{{name}}/scale")];
    assert_eq!(
        scale["get"]["responses"]["200"]["content"]["application/json"]["schema"]["$ref"],
        "#/components/schemas/io.k8s.api.autoscaling.v1.Scale"
    );
    let post = &paths[root]["post"];
    let codes: Vec<&String> = post["responses"].as_object().unwrap().keys().collect();
    assert_eq!(codes, ["200", "201", "202", "401"]);
    assert_eq!(post["description"], "create a Widget");
    let delete = &paths[format!("{root}/{{name}}")]["delete"];
    assert_eq!(delete["requestBody"].get("required"), None, "the delete body is optional");
    assert_eq!(
        delete["responses"]["200"]["content"]["application/json"]["schema"]["$ref"],
        "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Status"
    );

    // v3 keeps defaults, nullable and the int-or-string anyOf.
    let spec = &doc["components"]["schemas"]["com.example.v1.Widget"]["properties"]["spec"];
    assert_eq!(spec["properties"]["replicas"]["default"], 1);
    assert_eq!(spec["properties"]["note"]["nullable"], true);
    assert!(spec["properties"]["port"]["anyOf"].is_array());

    // The preferred version is v1; v1beta1 is served too, v2alpha1 is not.
    let beta = run_json(&["--crd", path_str(&file), "--version", "v1beta1"]);
    assert!(beta["paths"]["/apis/example.com/v1beta1/widgets"].is_object());
    assert!(beta["paths"].get("/apis/example.com/v1beta1/namespaces/{namespace}/widgets/{name}/status").is_none());
}

#[test]
fn cluster_scoped_crd() {
    let dir = temp_dir("cluster", &[("gadgets.yaml", GADGETS)]);
    let doc = run_json(&["--crd", path_str(&dir.path().join("gadgets.yaml"))]);
    let expected: BTreeMap<String, Vec<(String, String)>> = [
        (
            "/apis/example.com/v1/gadgets".to_owned(),
            pairs(&[("delete", "deletecollection"), ("get", "list"), ("post", "post")]),
        ),
        (
            "/apis/example.com/v1/gadgets/{name}".to_owned(),
            pairs(&[("delete", "delete"), ("get", "get"), ("patch", "patch"), ("put", "put")]),
        ),
    ]
    .into_iter()
    .collect();
    assert_eq!(routes(&doc), expected);
    let text = serde_json::to_string(&doc).unwrap();
    assert!(!text.contains("{namespace}"), "no namespaced path");
    let mut names = Vec::new();
    for item in doc["paths"].as_object().unwrap().values() {
        for (key, value) in item.as_object().unwrap() {
            let params = if key == "parameters" { value } else { &value["parameters"] };
            names.extend(params.as_array().into_iter().flatten().map(|p| p["name"].clone()));
        }
    }
    assert!(!names.is_empty() && !names.contains(&json!("namespace")), "no namespace parameter: {names:?}");
    assert_eq!(doc["paths"]["/apis/example.com/v1/gadgets/{name}"]["get"]["operationId"], "readExampleComV1Gadget");
}

/// Every key of `value`, at any depth.
fn keys(value: &Value, out: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                out.insert(k.clone());
                keys(v, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| keys(v, out)),
        _ => {}
    }
}

#[test]
fn v2_has_no_defaults_and_no_junctors() {
    let dir = temp_dir("v2", &[("crds.yaml", &format!("{WIDGETS}---{GADGETS}"))]);
    let file = dir.path().join("crds.yaml");
    let v3 = run_json(&["--crd", path_str(&file)]);
    let mut v3_keys = BTreeSet::new();
    keys(&v3, &mut v3_keys);
    assert!(v3_keys.contains("default") && v3_keys.contains("anyOf") && v3_keys.contains("nullable"));

    let doc = run_json(&["--crd", path_str(&file), "--v2"]);
    let expected = ["com.example.v1.Widget".to_owned(), "com.example.v1.GadgetList".to_owned()];
    let found = problems(&doc, Format::V2, &v2_validator(), &expected);
    assert!(found.is_empty(), "{found:?}");
    assert_eq!(doc["swagger"], "2.0");
    let mut all = BTreeSet::new();
    keys(&doc, &mut all);
    for absent in ["default", "anyOf", "oneOf", "nullable", "components", "requestBody"] {
        assert!(!all.contains(absent), "{absent} in the v2 document");
    }
    // Shared parameters carry kube-openapi's names.
    let shared: Vec<&String> = doc["parameters"].as_object().unwrap().keys().collect();
    assert!(shared.iter().any(|n| *n == "pretty-tJGM1-ng"), "{shared:?}");
    assert!(shared.iter().any(|n| *n == "namespace-vgWSWtn3"), "{shared:?}");
    let put = &doc["paths"]["/apis/example.com/v1/gadgets/{name}"]["put"];
    assert_eq!(put["consumes"], json!(["application/json", "application/yaml"]));
    assert_eq!(put["schemes"], json!(["https"]));
    assert_eq!(
        put["parameters"][0],
        json!({"in": "body", "name": "body", "required": true, "schema": {"$ref": "#/definitions/com.example.v1.Gadget"}})
    );
}

#[test]
fn output_file_and_determinism() {
    let dir = temp_dir("output", &[("widgets.yaml", WIDGETS), ("gadgets.yaml", GADGETS)]);
    let (code, first, err) = run(&["--crd", path_str(dir.path())]);
    assert_eq!((code, err.as_str()), (0, ""));
    let (_, second, _) = run(&["--crd", path_str(dir.path())]);
    assert_eq!(first, second, "same input, same bytes");
    assert!(first.ends_with("}\n"));
    let out = dir.path().join("out.json");
    let (code, stdout, err) = run(&["--crd", path_str(dir.path()), "-o", path_str(&out)]);
    assert_eq!((code, stdout.as_str(), err.as_str()), (0, "", ""));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), first);
    let (_, v2a, _) = run(&["--crd", path_str(dir.path()), "--v2"]);
    let (_, v2b, _) = run(&["--crd", path_str(dir.path()), "--v2"]);
    assert_eq!(v2a, v2b);
    // Both CRDs are in the document, whatever the order of the inputs.
    let reversed = run(&[
        "--crd",
        path_str(&dir.path().join("widgets.yaml")),
        "--crd",
        path_str(&dir.path().join("gadgets.yaml")),
    ]);
    let forward = run(&[
        "--crd",
        path_str(&dir.path().join("gadgets.yaml")),
        "--crd",
        path_str(&dir.path().join("widgets.yaml")),
    ]);
    assert_eq!(reversed.1, forward.1);
    assert_eq!(reversed.1, first);
}

#[test]
fn groups_are_chosen_with_group() {
    let dir = temp_dir("groups", &[("widgets.yaml", WIDGETS), ("things.yaml", THINGS)]);
    let (code, out, err) = run(&["--crd", path_str(dir.path())]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(err, "error: the CRDs span several groups (other.io, example.com); choose one with --group\n");
    let doc = run_json(&["--crd", path_str(dir.path()), "--group", "other.io"]);
    assert_eq!(routes(&doc).len(), 2);
    assert!(doc["components"]["schemas"]["io.other.v1.Thing"].is_object());
    let (code, _, err) = run(&["--crd", path_str(dir.path()), "--group", "nope.io"]);
    assert_eq!(code, 2);
    assert!(err.contains("no CRD of group nope.io among the given CRDs (groups: other.io, example.com)"), "{err}");
}

#[test]
fn failures_exit_2_with_a_message() {
    let dir = temp_dir(
        "errors",
        &[
            ("widgets.yaml", WIDGETS),
            ("broken.yaml", "apiVersion: v1\nkind: [\n"),
            ("configmap.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n"),
        ],
    );
    let widgets = dir.path().join("widgets.yaml");
    let cases: Vec<(Vec<String>, String)> = vec![
        (vec!["--crd".into(), path_str(&dir.path().join("missing.yaml")).into()], "missing.yaml: cannot read".into()),
        (vec!["--crd".into(), path_str(&dir.path().join("broken.yaml")).into()], "broken.yaml:2:7:".into()),
        (
            vec!["--crd".into(), path_str(&dir.path().join("configmap.yaml")).into()],
            "no CustomResourceDefinition in the --crd files: ".to_owned()
                + path_str(&dir.path().join("configmap.yaml"))
                + ":1:1: ConfigMap (v1) is not a CustomResourceDefinition",
        ),
        (
            vec!["--crd".into(), path_str(&widgets).into(), "--version".into(), "v3".into()],
            "error: no CRD of group example.com has version v3 (served versions: v1, v1beta1)\n".into(),
        ),
        (
            vec!["--crd".into(), path_str(&widgets).into(), "--version".into(), "v2alpha1".into()],
            "error: version v2alpha1 of group example.com is not served (served versions: v1, v1beta1)\n".into(),
        ),
    ];
    for (args, message) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, out, err) = run(&args);
        assert_eq!((code, out.as_str()), (2, ""), "{args:?}: {err}");
        assert!(err.starts_with("error: ") && err.contains(&message), "{args:?}: {err}");
        assert!(!err.contains("Usage:"), "a runtime failure is not a usage mistake: {err}");
    }
    // Usage mistakes print the usage.
    for args in [&[][..], &["--crd"][..], &["--frobnicate", "x"][..]] {
        let (code, _, err) = run(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.starts_with("error: ") && err.contains("Usage:"), "{args:?}: {err}");
    }
    let (code, out, _) = run(&["--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("crd openapi --crd PATH"), "{out}");
}

#[test]
fn validators_reject_broken_documents() {
    let dir = temp_dir("broken", &[("widgets.yaml", WIDGETS)]);
    let file = dir.path().join("widgets.yaml");
    let expected = ["com.example.v1.Widget".to_owned()];
    let (v3_check, v2_check) = (v3_validator(), v2_validator());
    let v3 = run_json(&["--crd", path_str(&file)]);
    let v2 = run_json(&["--crd", path_str(&file), "--v2"]);
    assert!(problems(&v3, Format::V3, &v3_check, &expected).is_empty());
    assert!(problems(&v2, Format::V2, &v2_check, &expected).is_empty());

    let mut no_info = v3.clone();
    no_info.as_object_mut().unwrap().remove("info");
    assert!(!problems(&no_info, Format::V3, &v3_check, &expected).is_empty(), "missing info");

    let mut nullable = v2.clone();
    nullable["definitions"]["com.example.v1.Widget"]["properties"]["spec"]["nullable"] = json!(true);
    let found = problems(&nullable, Format::V2, &v2_check, &expected);
    assert!(!found.is_empty(), "nullable in a v2 schema");

    let mut any_of = v2.clone();
    any_of["definitions"]["com.example.v1.Widget"]["anyOf"] = json!([{"type": "object"}]);
    assert!(!problems(&any_of, Format::V2, &v2_check, &expected).is_empty(), "anyOf in a v2 schema");

    let mut dangling = v3.clone();
    dangling["components"]["schemas"]["com.example.v1.Widget"]["properties"]["x"] =
        json!({"$ref": "#/components/schemas/io.example.Missing"});
    let found = problems(&dangling, Format::V3, &v3_check, &expected);
    assert_eq!(found, ["dangling $ref #/components/schemas/io.example.Missing"]);

    let mut bad_parameter = v2.clone();
    bad_parameter["parameters"].as_object_mut().unwrap().remove("pretty-tJGM1-ng");
    assert!(problems(&bad_parameter, Format::V2, &v2_check, &expected).iter().any(|p| p.contains("pretty-tJGM1-ng")));

    let mut missing_kind = v3.clone();
    missing_kind["components"]["schemas"].as_object_mut().unwrap().remove("com.example.v1.Widget");
    assert!(!problems(&missing_kind, Format::V3, &v3_check, &expected).is_empty(), "kind definition missing");

    let mut bad_v3 = v3;
    bad_v3["paths"]["/apis/example.com/v1/widgets"]["get"]["responses"] = json!({"200": {"content": {}}});
    assert!(!problems(&bad_v3, Format::V3, &v3_check, &expected).is_empty(), "response without description");
}
