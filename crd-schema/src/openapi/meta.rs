//! The `meta/v1` (and `autoscaling/v1`) definitions the published documents refer to.
//!
//! They are data, not code: `meta-definitions.json` holds k8s-openapi's
//! schemas of ObjectMeta, ListMeta, Status, DeleteOptions, Patch and
//! autoscaling/v1 Scale and of everything they refer to, in one canonical
//! form (v2 references `#/definitions/<name>`, siblings kept beside a
//! reference). `crd-tests`' `openapi_meta` test regenerates the file and
//! fails when it drifts. [`closure`] converts the definitions a document
//! needs to the form of its format.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use serde_json::{Map, Value};

use super::OpenApiError;

/// Definition name of Status (what deletes return).
pub(crate) const STATUS: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.Status";
/// Definition name of DeleteOptions (the body of a delete).
pub(crate) const DELETE_OPTIONS: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions";
/// Definition name of Patch (the body of a patch).
pub(crate) const PATCH: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.Patch";
/// Definition name of autoscaling/v1 Scale (the scale subresource).
pub(crate) const SCALE: &str = "io.k8s.api.autoscaling.v1.Scale";

/// The prefix of references in the canonical (v2) form.
pub(crate) const V2_PREFIX: &str = "#/definitions/";
/// The prefix of references in OpenAPI v3.
pub(crate) const V3_PREFIX: &str = "#/components/schemas/";

const DATA: &str = include_str!("meta-definitions.json");

/// The embedded definitions, parsed once. A broken file is an error, not a
/// panic: it can only come from a bad edit, which the tests catch.
fn embedded() -> Result<&'static Map<String, Value>, OpenApiError> {
    static PARSED: OnceLock<Result<Map<String, Value>, OpenApiError>> = OnceLock::new();
    PARSED
        .get_or_init(|| {
            serde_json::from_str(DATA).map_err(|e| OpenApiError::EmbeddedDefinitions { message: e.to_string() })
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// The embedded definitions named in `roots` and every embedded
/// definition they refer to, directly or not, sorted by name; in the v2
/// form when `v2`, else in the v3 form. Names that are not embedded
/// definitions are ignored (the caller's own definitions).
pub(crate) fn closure<'a>(
    roots: impl IntoIterator<Item = &'a str>,
    v2: bool,
) -> Result<Vec<(String, Value)>, OpenApiError> {
    let all = embedded()?;
    let mut wanted: BTreeSet<String> = BTreeSet::new();
    let mut queue: Vec<String> = roots.into_iter().filter(|n| all.contains_key(*n)).map(str::to_owned).collect();
    while let Some(name) = queue.pop() {
        if !wanted.insert(name.clone()) {
            continue;
        }
        if let Some(schema) = all.get(&name) {
            let mut refs = Vec::new();
            collect_refs(schema, &mut refs);
            for r in refs {
                let target = r.strip_prefix(V2_PREFIX).unwrap_or(&r);
                if all.contains_key(target) && !wanted.contains(target) {
                    queue.push(target.to_owned());
                }
            }
        }
    }
    Ok(wanted
        .into_iter()
        .filter_map(|name| {
            let schema = all.get(&name)?.clone();
            let schema = if v2 { schema } else { to_v3(schema) };
            Some((name, schema))
        })
        .collect())
}

/// Every `$ref` in `value`, in document order.
pub fn collect_refs(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(r)) = map.get("$ref") {
                out.push(r.clone());
            }
            map.values().for_each(|v| collect_refs(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_refs(v, out)),
        _ => {}
    }
}

/// The v3 form of a canonical schema: references point into
/// `#/components/schemas/`, and a reference with siblings becomes
/// `{"allOf": [{"$ref": ..}], ..siblings}` (kube-openapi's `WrapRefs`:
/// in OpenAPI 3.0 the siblings of a `$ref` are ignored).
pub(crate) fn to_v3(mut schema: Value) -> Value {
    walk_schemas(&mut schema, &mut |node| {
        let Some(Value::String(r)) = node.get("$ref") else { return };
        let r = match r.strip_prefix(V2_PREFIX) {
            Some(name) => format!("{V3_PREFIX}{name}"),
            None => r.clone(),
        };
        if node.len() == 1 {
            node.insert("$ref".to_owned(), Value::String(r));
            return;
        }
        node.remove("$ref");
        let reference = Value::Object(Map::from_iter([("$ref".to_owned(), Value::String(r))]));
        match node.get_mut("allOf") {
            Some(Value::Array(all)) => all.insert(0, reference),
            _ => {
                node.insert("allOf".to_owned(), Value::Array(vec![reference]));
            }
        }
    });
    schema
}

/// Calls `f` on every schema object of `schema`, parents before their
/// subschemas: the values under `properties`, `patternProperties` and
/// `definitions`, `items` (one schema or a list), `additionalProperties`,
/// `additionalItems`, `not` and the junctors. Values of other keywords
/// (`enum`, `default`, `example`, extensions) are data and are left alone,
/// so a property named `default` or `$ref` is not mistaken for a keyword.
pub(crate) fn walk_schemas(schema: &mut Value, f: &mut dyn FnMut(&mut Map<String, Value>)) {
    let Value::Object(node) = schema else { return };
    f(node);
    for (key, value) in node.iter_mut() {
        match (key.as_str(), value) {
            ("properties" | "patternProperties" | "definitions", Value::Object(children)) => {
                children.values_mut().for_each(|child| walk_schemas(child, f));
            }
            ("items" | "allOf" | "anyOf" | "oneOf", Value::Array(children)) => {
                children.iter_mut().for_each(|child| walk_schemas(child, f));
            }
            ("items" | "additionalProperties" | "additionalItems" | "not", child @ Value::Object(_)) => {
                walk_schemas(child, f);
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    const OBJECT_META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
    const LIST_META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta";

    #[test]
    fn embedded_definitions_parse_and_close() {
        let roots = [OBJECT_META, LIST_META, STATUS, DELETE_OPTIONS, PATCH, SCALE];
        let defs = closure(roots, true).expect("embedded definitions");
        let names: BTreeSet<&str> = defs.iter().map(|(n, _)| n.as_str()).collect();
        for root in roots {
            assert!(names.contains(root), "{root}");
        }
        for (_, schema) in &defs {
            let mut refs = Vec::new();
            collect_refs(schema, &mut refs);
            for r in refs {
                let target = r.strip_prefix(V2_PREFIX).unwrap_or(&r);
                assert!(names.contains(target), "dangling {r}");
            }
        }
        assert!(names.contains("io.k8s.apimachinery.pkg.apis.meta.v1.Time"));
        assert!(closure(["io.k8s.bar.v1.Foo"], true).expect("parsed").is_empty());
    }

    #[test]
    fn v3_wraps_references_with_siblings() {
        let canonical = json!({
            "properties": {
                "a": {"$ref": "#/definitions/X", "description": "d"},
                "b": {"$ref": "#/definitions/Y"},
                "c": {"type": "array", "items": {"$ref": "#/definitions/Z", "default": {}}},
                "default": {"$ref": "#/definitions/Y", "enum": [{"$ref": "#/definitions/Y"}]},
            },
            "required": ["$ref"],
        });
        assert_eq!(
            to_v3(canonical),
            json!({
                "properties": {
                    "a": {"allOf": [{"$ref": "#/components/schemas/X"}], "description": "d"},
                    "b": {"$ref": "#/components/schemas/Y"},
                    "c": {"type": "array", "items": {"allOf": [{"$ref": "#/components/schemas/Z"}], "default": {}}},
                    "default": {"allOf": [{"$ref": "#/components/schemas/Y"}], "enum": [{"$ref": "#/definitions/Y"}]},
                },
                "required": ["$ref"],
            })
        );
    }

    #[test]
    fn closure_follows_references_and_converts() {
        let defs = closure([STATUS], false).expect("embedded definitions");
        let names: Vec<&str> = defs.iter().map(|(n, _)| n.as_str()).collect();
        assert!(names.contains(&"io.k8s.apimachinery.pkg.apis.meta.v1.StatusDetails"), "{names:?}");
        assert!(names.contains(&LIST_META), "{names:?}");
        let text = serde_json::to_string(&defs.iter().map(|(_, s)| s).collect::<Vec<_>>()).unwrap_or_default();
        assert!(!text.contains(V2_PREFIX) && text.contains(V3_PREFIX), "{text}");
    }
}
