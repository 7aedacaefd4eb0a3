//! The `meta/v1` and `autoscaling/v1` definitions that `crd openapi`
//! documents embed (`crd-schema/src/openapi/meta-definitions.json`) are
//! k8s-openapi's (feature `v1_34`) schemars schemas of the types the routes
//! refer to, and of everything those refer to. This test regenerates them
//! and fails with a diff when the embedded file has drifted;
//! `CRD_BLESS=1 cargo test -p crd-tests --test openapi_meta` rewrites it.
//!
//! The file's form is canonical: references are `#/definitions/<name>`
//! with their siblings (such as a description) beside them, object keys are
//! sorted, and the whole file is pretty-printed JSON with a final newline.
//! crd-schema converts it to the v3 form (`#/components/schemas/`, a
//! reference with siblings wrapped in `allOf`) when it builds a document.

use std::path::PathBuf;

use crd_schema::openapi::collect_refs;
use k8s_openapi::api::autoscaling::v1::Scale;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{DeleteOptions, ListMeta, ObjectMeta, Patch, Status};
use k8s_openapi::schemars::generate::SchemaSettings;
use serde_json::{Map, Value};

/// The embedded file, relative to this crate.
const FILE: &str = "../crd-schema/src/openapi/meta-definitions.json";

/// Object keys sorted at every depth, so the file does not depend on
/// k8s-openapi's key order.
fn sorted(value: Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(String, Value)> = map.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(entries.into_iter().map(|(k, v)| (k, sorted(v))).collect::<Map<_, _>>())
        }
        Value::Array(items) => Value::Array(items.into_iter().map(sorted).collect()),
        other => other,
    }
}

/// The definitions, in the file's canonical form.
pub fn generate() -> String {
    // Draft-07 settings put definitions under `#/definitions/`; without
    // transforms a reference keeps its siblings, as the Kubernetes v2
    // definitions have them.
    let mut generator = SchemaSettings::draft07().with(|s| s.transforms.clear()).into_generator();
    let _ = generator.subschema_for::<ObjectMeta>();
    let _ = generator.subschema_for::<ListMeta>();
    let _ = generator.subschema_for::<Status>();
    let _ = generator.subschema_for::<DeleteOptions>();
    let _ = generator.subschema_for::<Patch>();
    let _ = generator.subschema_for::<Scale>();
    let definitions = generator.take_definitions(false);
    let mut text = serde_json::to_string_pretty(&sorted(Value::Object(definitions))).unwrap_or_default();
    text.push('\n');
    text
}

/// A line diff of the first differences, enough to see what drifted.
fn diff(old: &str, new: &str) -> String {
    let (old, new): (Vec<&str>, Vec<&str>) = (old.lines().collect(), new.lines().collect());
    let mut out = String::new();
    let mut shown = 0;
    for i in 0..old.len().max(new.len()) {
        let (a, b) = (old.get(i), new.get(i));
        if a != b {
            if let Some(a) = a {
                out.push_str(&format!("{:>6} - {a}\n", i + 1));
            }
            if let Some(b) = b {
                out.push_str(&format!("{:>6} + {b}\n", i + 1));
            }
            shown += 1;
            if shown == 40 {
                out.push_str("...\n");
                break;
            }
        }
    }
    out
}

#[test]
fn embedded_meta_definitions_match_k8s_openapi() {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(FILE);
    let new = generate();
    let old = std::fs::read_to_string(&file).unwrap_or_default();
    if old == new {
        return;
    }
    if std::env::var_os("CRD_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&file, &new).expect("write meta-definitions.json");
        return;
    }
    panic!(
        "{} differs from k8s-openapi's definitions (rerun with CRD_BLESS=1 to update):\n{}",
        file.display(),
        diff(&old, &new)
    );
}

#[test]
fn every_reference_of_the_embedded_definitions_resolves() {
    let definitions: Value = serde_json::from_str(&generate()).expect("generated JSON");
    let mut refs = Vec::new();
    collect_refs(&definitions, &mut refs);
    assert!(!refs.is_empty());
    for r in refs {
        let name = r.strip_prefix("#/definitions/").unwrap_or(&r);
        assert!(definitions.get(name).is_some(), "dangling reference {r}");
    }
}
