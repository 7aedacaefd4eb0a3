//! `crd explain`: every field of every corpus CRD renders, the output of
//! representative cases is pinned by the snapshots in
//! `tests/snapshots/explain/` (`CRD_BLESS=1 cargo test -p crd-cli
//! --test explain` rewrites them), and the command line behaves like
//! `kubectl explain` (resource names, versions, errors).

use std::path::{Path, PathBuf};

use crd_schema::crd::{self, CustomResourceDefinition};
use crd_schema::explain::{self, ExplainError};
use crd_schema::openapi::{self, Format};
use serde_json::{Value, json};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/crds")
}

fn certificates() -> String {
    corpus().join("cert-manager__cert-manager/certificates.cert-manager.io.yaml").display().to_string()
}

fn cronjobs() -> String {
    corpus().join("kubernetes-sigs__controller-tools/cronjobs.testdata.kubebuilder.io.yaml").display().to_string()
}

/// Runs `crd explain ARGS...`; returns the exit code, stdout and stderr.
fn crd_explain(args: &[&str]) -> (i32, String, String) {
    let args: Vec<String> = std::iter::once("explain").chain(args.iter().copied()).map(str::to_owned).collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = crd_cli::run(&args, &mut out, &mut err);
    (code, String::from_utf8(out).expect("UTF-8 stdout"), String::from_utf8(err).expect("UTF-8 stderr"))
}

fn path(text: &str) -> Vec<String> {
    text.split('.').filter(|s| !s.is_empty()).map(str::to_owned).collect()
}

// ---------------------------------------------------------------------------
// Every field of the corpus.

/// `#/components/schemas/NAME` in `document`.
fn resolve<'a>(document: &'a Value, schema: &'a Value) -> (&'a Value, Option<&'a str>) {
    let reference = schema.get("$ref").and_then(Value::as_str);
    let target = reference.and_then(|r| r.strip_prefix('#')).and_then(|p| document.pointer(p));
    (target.filter(|t| t.as_object().is_some_and(|o| !o.is_empty())).unwrap_or(schema), reference)
}

fn sub_schema<'a>(schema: &'a Value, key: &str) -> Option<&'a Value> {
    schema.get(key).filter(|v| v.as_object().is_some_and(|o| !o.is_empty()))
}

/// The field names kubectl can reach from `schema` with one more path
/// element: its properties, else (as its template prefers) those of its
/// array items, else those of its map values, else those of every `allOf`
/// alternative. `chain` holds the `$ref`s entered on the way, so that a
/// cycle is walked once.
fn reachable<'a>(document: &'a Value, schema: &'a Value, chain: &mut Vec<&'a str>) -> Vec<(&'a str, &'a Value)> {
    let (resolved, reference) = resolve(document, schema);
    if reference.is_some_and(|r| chain.contains(&r)) {
        return Vec::new();
    }
    chain.extend(reference);
    let mut fields: Vec<(&str, &Value)> = resolved
        .get("properties")
        .and_then(Value::as_object)
        .map(|p| p.iter().filter(|(_, v)| v.as_object().is_some_and(|o| !o.is_empty())))
        .into_iter()
        .flatten()
        .map(|(k, v)| (k.as_str(), v))
        .collect();
    if let Some(items) = sub_schema(resolved, "items") {
        fields.extend(reachable(document, items, chain));
    } else if let Some(values) = sub_schema(resolved, "additionalProperties") {
        fields.extend(reachable(document, values, chain));
    } else {
        for alternative in resolved.get("allOf").and_then(Value::as_array).into_iter().flatten() {
            fields.extend(reachable(document, alternative, chain));
        }
    }
    if reference.is_some() {
        chain.pop();
    }
    fields
}

/// Every field path below `schema`, depth first. Names with a dot cannot
/// be written in kubectl's dotted path and are skipped.
fn field_paths<'a>(
    document: &'a Value,
    schema: &'a Value,
    prefix: &mut Vec<String>,
    chain: &mut Vec<&'a str>,
    out: &mut Vec<Vec<String>>,
) {
    let mut seen = std::collections::BTreeSet::new();
    for (name, field) in reachable(document, schema, chain) {
        if name.is_empty() || name.contains('.') || !seen.insert(name) {
            continue;
        }
        prefix.push(name.to_owned());
        out.push(prefix.clone());
        let (_, reference) = resolve(document, field);
        if !reference.is_some_and(|r| chain.contains(&r)) {
            chain.extend(reference);
            field_paths(document, field, prefix, chain, out);
            if reference.is_some() {
                chain.pop();
            }
        }
        prefix.pop();
    }
}

/// The kind schema of `document`, as `render` finds it.
fn kind_schema<'a>(document: &'a Value, gvk: &Value) -> &'a Value {
    let schemas = document["components"]["schemas"].as_object().expect("components.schemas");
    schemas
        .values()
        .find(|s| s["x-kubernetes-group-version-kind"].as_array().is_some_and(|l| l.contains(gvk)))
        .unwrap_or_else(|| panic!("no schema for {gvk}"))
}

/// A type kubectl's `typeGuess` can print for a CRD field.
fn plausible_type(text: &str) -> bool {
    let mut rest = text;
    while let Some(inner) = rest.strip_prefix("[]").or_else(|| rest.strip_prefix("map[string]")) {
        rest = inner;
    }
    matches!(rest, "string" | "integer" | "number" | "boolean" | "array" | "Object")
        || rest.chars().next().is_some_and(|c| c.is_ascii_uppercase())
            && rest.chars().all(|c| c.is_ascii_alphanumeric())
}

fn all_crds() -> Vec<CustomResourceDefinition> {
    let mut crds = Vec::new();
    for loaded in crd::load(&corpus()) {
        crds.extend(loaded.expect("corpus CRDs load").crds.into_iter().map(|(_, c)| c));
    }
    crds
}

#[test]
fn every_field_of_every_corpus_crd_renders() {
    let crds = all_crds();
    assert_eq!(crds.len(), 122, "the corpus has 122 CRDs");
    let (mut versions, mut bare_versions, mut rendered, mut recursive_lines) = (0, 0, 0, 0);
    for crd in &crds {
        let spec = &crd.spec;
        for version in spec.versions.iter().filter(|v| v.served) {
            let v = version.name.as_str();
            let document = openapi::document(std::slice::from_ref(spec), v, Format::V3)
                .unwrap_or_else(|e| panic!("{} {v}: {e}", crd.metadata.name));
            let gvk = (spec.group.as_str(), v, spec.names.kind.as_str());
            let root = kind_schema(&document, &json!({"group": gvk.0, "version": v, "kind": gvk.2}));
            let mut paths = Vec::new();
            field_paths(&document, root, &mut Vec::new(), &mut Vec::new(), &mut paths);
            // Without a schema the API server publishes a bare object (kubectl
            // would otherwise reject every field but apiVersion, kind, metadata).
            let bare = root.get("properties").is_none();
            assert!(
                bare || paths.iter().any(|p| p.len() == 2 && p[0] == "metadata"),
                "{} {v}: no ObjectMeta fields",
                crd.metadata.name
            );
            for path in &paths {
                let text = explain::render(&document, gvk, path, false)
                    .unwrap_or_else(|e| panic!("{} {v} {}: {e}", crd.metadata.name, path.join(".")));
                let name = path.last().unwrap();
                let line = text.lines().find(|l| l.starts_with("FIELD: ")).unwrap_or_default();
                let kind = line.strip_prefix(&format!("FIELD: {name} <")).and_then(|t| t.strip_suffix('>'));
                assert!(
                    kind.is_some_and(plausible_type),
                    "{} {v} {}: bad FIELD line {line:?}",
                    crd.metadata.name,
                    path.join(".")
                );
                assert!(text.contains("\nDESCRIPTION:\n"), "{} {v} {}", crd.metadata.name, path.join("."));
            }
            let tree =
                explain::render(&document, gvk, &[], true).unwrap_or_else(|e| panic!("{} {v}: {e}", crd.metadata.name));
            if bare {
                assert!(tree.ends_with("\nDESCRIPTION:\n    <empty>\n\n"), "{} {v}:\n{tree}", crd.metadata.name);
                bare_versions += 1;
                continue;
            }
            assert!(
                tree.contains("\nFIELDS:\n") && tree.contains("\n  apiVersion\t<string>\n"),
                "{} {v}:\n{tree}",
                crd.metadata.name
            );
            assert!(
                ["", " -required-"].iter().any(|r| tree
                    .contains(&format!("\n  metadata\t<ObjectMeta>{r}\n    annotations\t<map[string]string>\n"))),
                "{} {v}",
                crd.metadata.name
            );
            versions += 1;
            rendered += paths.len();
            recursive_lines += tree.lines().count();
        }
    }
    println!(
        "crd explain: {rendered} field paths of {versions} CRD versions rendered, and {bare_versions} versions \
         without a schema; --recursive at the root: {recursive_lines} lines"
    );
    assert!(rendered > 10_000, "only {rendered} field paths");
}

// ---------------------------------------------------------------------------
// Snapshots.

/// The CRDs of the snapshots.
#[derive(Clone, Copy, Debug)]
enum Crd {
    Certificates,
    CronJobs,
}

/// (snapshot name, CRD, arguments after `--crd CRD`).
const SNAPSHOTS: &[(&str, Crd, &[&str])] = &[
    ("certificates", Crd::Certificates, &["certificates"]),
    ("certificates.spec", Crd::Certificates, &["certificates.spec"]),
    ("certificates.spec.privateKey", Crd::Certificates, &["certificates.spec.privateKey"]),
    ("certificates.spec.keystores--recursive", Crd::Certificates, &["--recursive", "certificates.spec.keystores"]),
    ("certificates.status.conditions", Crd::Certificates, &["cert.status.conditions"]),
    ("cronjobs.spec", Crd::CronJobs, &["cronjobs.spec"]),
    ("cronjobs.spec.intOrStringWithEnum", Crd::CronJobs, &["cronjobs.spec.intOrStringWithEnum"]),
    ("cronjobs.spec.embeddedResource", Crd::CronJobs, &["cronjobs.spec.embeddedResource"]),
    ("cronjobs.spec.defaultedObject--recursive", Crd::CronJobs, &["cronjob.spec.defaultedObject", "--recursive"]),
    (
        "cronjobs.spec.jobTemplate.spec.template.spec.containers.ports.protocol",
        Crd::CronJobs,
        &["CronJob.spec.jobTemplate.spec.template.spec.containers.ports.protocol"],
    ),
    ("cronjobs.v1beta2", Crd::CronJobs, &["--version", "v1beta2", "cronjobs"]),
];

#[test]
fn output_matches_snapshots() {
    let bless = std::env::var_os("CRD_BLESS").is_some_and(|v| v == "1");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/explain");
    let mut stale = Vec::new();
    for &(name, crd, args) in SNAPSHOTS {
        let crd = match crd {
            Crd::Certificates => certificates(),
            Crd::CronJobs => cronjobs(),
        };
        let mut full = vec!["--crd", crd.as_str()];
        full.extend_from_slice(args);
        let (code, out, err) = crd_explain(&full);
        assert_eq!((code, err.as_str()), (0, ""), "{name}");
        let file = dir.join(format!("{name}.txt"));
        if std::fs::read_to_string(&file).ok().as_deref() == Some(out.as_str()) {
            continue;
        }
        if bless {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&file, &out).unwrap();
        } else {
            stale.push(file.display().to_string());
        }
    }
    assert!(stale.is_empty(), "snapshots differ (rerun with CRD_BLESS=1 to update):\n{}", stale.join("\n"));
}

// ---------------------------------------------------------------------------
// The command line.

const CERT_HEADER: &str = "GROUP:      cert-manager.io\nKIND:       Certificate\nVERSION:    v1\n\n";

#[test]
fn resource_by_plural_singular_kind_short_name_and_plural_dot_group() {
    let crd = certificates();
    for resource in
        ["certificates", "certificate", "Certificate", "CERTS", "cert", "certificates.cert-manager.io", "certificates."]
    {
        let (code, out, err) = crd_explain(&["--crd", &crd, resource]);
        assert_eq!((code, err.as_str()), (0, ""), "{resource}");
        assert!(
            out.starts_with(&format!("{CERT_HEADER}DESCRIPTION:\n    A Certificate resource")),
            "{resource}:\n{out}"
        );
    }
    let (code, out, _) = crd_explain(&["--crd", &crd, "certificates.cert-manager.io.spec.secretName"]);
    assert_eq!(code, 0);
    assert!(out.starts_with(&format!("{CERT_HEADER}FIELD: secretName <string>\n\n\nDESCRIPTION:\n")), "{out}");
}

#[test]
fn crd_directories_and_several_files() {
    let dir = corpus().join("cert-manager__cert-manager").display().to_string();
    let (code, out, err) = crd_explain(&["--crd", &dir, "--crd", &cronjobs(), "issuers.spec.acme.server"]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(
        out.starts_with("GROUP:      cert-manager.io\nKIND:       Issuer\nVERSION:    v1\n\nFIELD: server <string>\n"),
        "{out}"
    );
    let (code, out, _) = crd_explain(&["--crd", &dir, "--crd", &cronjobs(), "cronjob.spec.schedule"]);
    assert_eq!(code, 0);
    assert!(out.contains("KIND:       CronJob\n") && out.contains("FIELD: schedule <string>\n"), "{out}");
}

#[test]
fn version_flag_picks_a_served_version() {
    let (code, out, err) = crd_explain(&["--crd", &cronjobs(), "--version", "v1beta2", "cronjobs.metadata"]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(
        out.starts_with("GROUP:      testdata.kubebuilder.io\nKIND:       CronJob\nVERSION:    v1beta2\n\n"),
        "{out}"
    );
    let (_, preferred, _) = crd_explain(&["--crd", &cronjobs(), "cronjobs"]);
    assert!(preferred.contains("\nVERSION:    v1\n"), "{preferred}");
    // Not served: kubectl's message for a group-version without the resource.
    let (code, out, err) = crd_explain(&["--crd", &cronjobs(), "--version", "v1beta1", "cronjobs"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(err, "error: couldn't find resource for \"testdata.kubebuilder.io/v1beta1, Resource=cronjobs\"\n");
}

#[test]
fn unknown_resource_is_kubectls_error() {
    let (code, out, err) = crd_explain(&["--crd", &certificates(), "Widgets.spec"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(err, "error: the server doesn't have a resource type \"widgets\"\n");
    // kubectl quotes the name with Go's %q.
    let (_, _, err) = crd_explain(&["--crd", &certificates(), "wi\"dg\tet"]);
    assert_eq!(err, "error: the server doesn't have a resource type \"wi\\\"dg\\tet\"\n");
}

#[test]
fn unknown_field_names_the_last_path_element_after_the_header() {
    // kubectl streams the header before its template fails.
    let (code, out, err) = crd_explain(&["--crd", &certificates(), "certificates.spec.nope.deeper"]);
    assert_eq!((code, out.as_str()), (2, CERT_HEADER));
    assert_eq!(err, "error: field \"deeper\" does not exist\n");
    let (code, _, err) = crd_explain(&["--crd", &certificates(), "certificates.spec.secretName.x"]);
    assert_eq!((code, err.as_str()), (2, "error: field \"x\" does not exist\n"));
}

#[test]
fn field_paths_walk_through_arrays_and_maps() {
    let crd = certificates();
    let (code, out, _) = crd_explain(&["--crd", &crd, "certificates.spec.additionalOutputFormats.type"]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with(&format!("{CERT_HEADER}FIELD: type <string>\nENUM:\n    DER\n    CombinedPEM\n\n")),
        "{out}"
    );
    let (code, out, _) = crd_explain(&["--crd", &crd, "certificates.status.conditions.observedGeneration"]);
    assert_eq!(code, 0);
    assert!(out.contains("FIELD: observedGeneration <integer>\n"), "{out}");
    let (code, out, _) = crd_explain(&["--crd", &crd, "certificates.metadata.ownerReferences.uid"]);
    assert_eq!(code, 0);
    assert!(out.contains("FIELD: uid <string>\n"), "{out}");
    let (code, out, _) =
        crd_explain(&["--crd", &cronjobs(), "cronjobs.spec.jobTemplate.spec.template.spec.nodeSelector"]);
    assert_eq!(code, 0);
    assert!(out.contains("FIELD: nodeSelector <map[string]string>\n"), "{out}");
}

#[test]
fn recursive_prints_the_tree_without_descriptions() {
    let (code, out, _) = crd_explain(&["--crd", &certificates(), "--recursive", "certificates.spec.privateKey"]);
    assert_eq!(code, 0);
    let fields = out.split_once("FIELDS:\n").map(|(_, f)| f).unwrap_or_default();
    assert_eq!(
        fields,
        "  algorithm\t<string>\n  enum: RSA, ECDSA, Ed25519\n  encoding\t<string>\n  enum: PKCS1, PKCS8\n  \
         rotationPolicy\t<string>\n  enum: Never, Always\n  size\t<integer>\n\n"
    );
}

#[test]
fn usage_mistakes_print_the_usage() {
    for args in [&["certificates"][..], &["--crd", "x.yaml"], &["--crd", "x.yaml", "a", "b"], &["--crd"], &["--bogus"]]
    {
        let (code, out, err) = crd_explain(args);
        assert_eq!((code, out.as_str()), (2, ""), "{args:?}");
        assert!(err.starts_with("error: ") && err.contains("Usage: crd explain"), "{args:?}: {err}");
    }
    let (code, _, err) = crd_explain(&["--crd", "/nonexistent/crds.yaml", "widgets"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: ") && !err.contains("Usage:"), "{err}");
}

// ---------------------------------------------------------------------------
// The renderer on hand-written documents.

const GVK: (&str, &str, &str) = ("example.com", "v1", "Widget");

fn document(kind: Value, extra: Value) -> Value {
    let mut schemas = Value::Object(serde_json::Map::from_iter([("com.example.v1.Widget".to_owned(), kind)]));
    schemas["com.example.v1.Widget"]["x-kubernetes-group-version-kind"] =
        json!([{"group": "example.com", "version": "v1", "kind": "Widget"}]);
    for (k, v) in extra.as_object().into_iter().flatten() {
        schemas[k] = v.clone();
    }
    let components = serde_json::Map::from_iter([("schemas".to_owned(), schemas)]);
    Value::Object(serde_json::Map::from_iter([("components".to_owned(), Value::Object(components))]))
}

fn render(document: &Value, field_path: &str, recursive: bool) -> Result<String, ExplainError> {
    explain::render(document, GVK, &path(field_path), recursive)
}

#[test]
fn type_names_follow_kubectls_type_guess() {
    let doc = document(
        json!({"type": "object", "properties": {
            "a": {"type": "array", "items": {"type": "object", "allOf": [{"$ref": "#/components/schemas/x.Thing"}]}},
            "b": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"}}},
            "c": {"allOf": [{"$ref": "#/components/schemas/x.Time"}], "description": "when"},
            "d": {"$ref": "#/components/schemas/x.Thing"},
            "e": {"x-kubernetes-int-or-string": true, "anyOf": [{"type": "integer"}, {"type": "string"}]},
            "f": {"type": "array"},
            "g": {"$ref": "#/components/schemas/missing.Gone"},
            "h": {"type": "object", "additionalProperties": true},
        }}),
        json!({"x.Thing": {"type": "object", "properties": {"n": {"type": "string"}}}, "x.Time": {"type": "string"}}),
    );
    let fields = render(&doc, "", true).unwrap();
    let fields = fields.split_once("FIELDS:\n").unwrap().1;
    let expected = "  a\t<[]Thing>\n    n\t<string>\n  b\t<map[string][]string>\n  c\t<string>\n  d\t<Thing>\n    n\t<string>\n  \
                    e\t<Object>\n  f\t<array>\n  g\t<Gone>\n  h\t<Object>\n\n";
    assert_eq!(fields, expected);
}

#[test]
fn descriptions_join_the_referenced_ones_and_wrap_at_76() {
    let long = "word ".repeat(30);
    let doc = document(
        json!({"type": "object", "description": "", "properties": {
            "m": {"allOf": [{"$ref": "#/components/schemas/x.Meta"}], "description": "Own."},
        }}),
        json!({"x.Meta": {"type": "object", "description": long.trim_end(), "properties": {}}}),
    );
    let out = render(&doc, "m", false).unwrap();
    let line = "word ".repeat(15);
    let expected = format!(
        "GROUP:      example.com\nKIND:       Widget\nVERSION:    v1\n\nFIELD: m <Meta>\n\n\nDESCRIPTION:\n    Own.\n    {}\n    {}\n    \n\n",
        line.trim_end(),
        line.trim_end()
    );
    assert_eq!(out, expected);
    let root = render(&doc, "", false).unwrap();
    assert!(root.contains("DESCRIPTION:\n    <empty>\nFIELDS:\n  m\t<Meta>\n    Own.\n\n"), "{root}");
}

#[test]
fn defaults_and_external_docs() {
    let doc = document(
        json!({"type": "object", "properties": {
            "s": {"type": "string", "default": "fast", "enum": ["fast", "slow"], "description": "Speed."},
            "o": {"type": "object", "default": {"a": 1}, "externalDocs": {"description": "Read.", "url": "https://x.io"}},
            "e": {"type": "string", "default": ""},
        }}),
        json!({}),
    );
    let fields = render(&doc, "", false).unwrap();
    let fields = fields.split_once("FIELDS:\n").unwrap().1;
    assert_eq!(
        fields,
        "  e\t<string>\n  default: \"\"\n    <no description>\n\n  o\t<Object>\n  default: {\"a\":1}\n    <no description>\n\n    \
         EXTERNAL DOCS:\n      Read.\n      URL: https://x.io\n\n  s\t<string>\n  enum: fast, slow\n  default: fast\n    Speed.\n\n\n"
    );
    let field = render(&doc, "s", false).unwrap();
    assert!(
        field.contains("FIELD: s <string>\nENUM:\n    fast\n    slow\nDEFAULT:\n    fast\n\nDESCRIPTION:\n"),
        "{field}"
    );
    let field = render(&doc, "o", false).unwrap();
    assert!(
        field.contains("FIELD: o <Object>\nDEFAULT:\n    {\"a\":1}\n\nDESCRIPTION:\n    <empty>\n\nEXTERNAL DOCS:\n    Read.\n    URL: https://x.io\n"),
        "{field}"
    );
}

#[test]
fn enums_required_and_missing_descriptions_in_the_field_list() {
    let doc = document(
        json!({"type": "object", "required": ["b"], "properties": {
            "a": {"type": "string", "enum": ["x", "", "y", "z", "w"], "description": "Pick."},
            "b": {"type": "integer", "enum": [1, 2]},
        }}),
        json!({}),
    );
    let out = render(&doc, "", false).unwrap();
    let fields = out.split_once("FIELDS:\n").unwrap().1;
    assert_eq!(
        fields,
        "  a\t<string>\n  enum: x, \"\", y, z, ....\n    Pick.\n\n  b\t<integer> -required-\n  enum: 1, 2\n    <no description>\n\n\n"
    );
    let field = render(&doc, "a", false).unwrap();
    assert!(
        field.contains(
            "FIELD: a <string>\nENUM:\n    x\n    \"\"\n    y\n    z\n    w\n\nDESCRIPTION:\n    Pick.\n    \n"
        ),
        "{field}"
    );
}

#[test]
fn missing_kind_and_fields_are_errors_with_the_header_printed() {
    let doc = document(json!({"type": "object", "properties": {"spec": {"type": "object"}}}), json!({}));
    let err = explain::render(&doc, ("example.com", "v2", "Widget"), &[], false).unwrap_err();
    assert_eq!(err.message, "GVK map[group:example.com kind:Widget version:v2] not found in OpenAPI schema");
    assert_eq!(err.printed, "GROUP:      example.com\nKIND:       Widget\nVERSION:    v2\n\n");
    let err = render(&doc, "spec.a\"b", false).unwrap_err();
    assert_eq!(err.to_string(), "field \"a\"b\" does not exist");
    let core = explain::render(&json!({}), ("", "v1", "Pod"), &[], false).unwrap_err();
    assert_eq!(core.printed, "KIND:       Pod\nVERSION:    v1\n\n");
}

#[test]
fn cyclic_references_stop() {
    // A → items → B → allOf → A, and A.self → A: kubectl's history stops
    // the walks; its description template has none, ours stops at a repeat.
    let doc = document(
        json!({"$ref": "#/components/schemas/x.A"}),
        json!({
            "x.A": {"type": "object", "description": "A.", "properties": {"self": {"$ref": "#/components/schemas/x.A"}},
                    "items": {"$ref": "#/components/schemas/x.B"}},
            "x.B": {"description": "B.", "allOf": [{"$ref": "#/components/schemas/x.A"}]},
        }),
    );
    let tree = render(&doc, "", true).unwrap();
    assert!(tree.contains("FIELDS:\n  self\t<A>\n"), "{tree}");
    assert!(render(&doc, "self.self.self.self", false).unwrap().contains("FIELD: self <A>\n"));
    assert_eq!(render(&doc, "nope", false).unwrap_err().message, "field \"nope\" does not exist");
}

#[test]
fn deep_or_hostile_documents_do_not_panic() {
    // Built by hand: `json!` would serialize the inner value recursively.
    let mut deep = json!({"type": "string"});
    for _ in 0..2000 {
        let mut properties = serde_json::Map::new();
        properties.insert("a".to_owned(), deep);
        let mut object = serde_json::Map::new();
        object.insert("type".to_owned(), json!("object"));
        object.insert("properties".to_owned(), Value::Object(properties));
        deep = Value::Object(object);
    }
    let doc = document(deep, json!({}));
    let err = render(&doc, "", true).unwrap_err();
    assert!(err.message.contains("nesting"), "{err}");
    let long = vec!["a".to_owned(); 5000];
    assert!(explain::render(&doc, GVK, &long, false).is_err());
    assert!(render(&doc, "a.a.a", false).unwrap().contains("FIELD: a <Object>"));

    let odd = document(
        json!({"type": "object", "properties": {
            "e": {}, "n": {"type": 5, "description": 7, "enum": [null, {"k": [1.5e300]}]},
            "r": {"$ref": "#/%zz"}, "s": {"$ref": 3}, "\u{1F600}\n": {"type": "string"},
        }, "items": [1], "allOf": "x", "required": "e"}),
        json!({}),
    );
    for path in ["", "n", "r", "s", "\u{1F600}\n", "zz"] {
        let _ = render(&odd, path, false);
        let _ = render(&odd, path, true);
    }
    let n = render(&odd, "n", false).unwrap();
    assert!(n.contains("FIELD: n <5>\nENUM:\n    <nil>\n    map[k:[1.5e+300]]\n"), "{n}");
}
