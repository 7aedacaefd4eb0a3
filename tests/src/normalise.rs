//! The normalisation under which design.md I3 compares a corpus CRD with
//! the CRD the derive rebuilds from its generated types. Every difference
//! it ignores, and why:
//!
//! - `metadata` other than `name` and the annotations the generated roots
//!   state again (`crd_codegen::typespace::CARRIED_ANNOTATIONS`: the API
//!   approval), and `status`: deployment facts, not facts of the types;
//! - `spec.conversion`: how a cluster converts between versions (a webhook
//!   address), not part of any version's types;
//! - `spec.preserveUnknownFields: false`: the v1 default, which the rebuilt
//!   CRD leaves out;
//! - `spec.names.singular` and `listKind` as the API server defaults them
//!   (lowercase kind, kind + `List`) when absent, and empty `shortNames` /
//!   `categories` lists;
//! - a version's `deprecated: false`, the default, and `subresources: {}`,
//!   which enables none;
//! - the order of `required` lists, which are sets (the derive lists
//!   fields in declaration order);
//! - schema keywords holding their empty value where the API server's Go
//!   types omit it (`nullable: false`, `format: ""`, `enum: []`; see
//!   `crd_vocabulary::Unset`): the API server stores them as absent;
//! - numbers compare by value (`1` equals `1.0`), by [`crate::json_eq`].

use serde_json::{Map, Value};

/// `crd` (a CRD manifest as JSON) with every ignored difference removed.
pub fn normalise_crd(crd: &Value) -> Value {
    let mut out = Map::new();
    for key in ["apiVersion", "kind"] {
        if let Some(v) = crd.get(key) {
            out.insert(key.to_owned(), v.clone());
        }
    }
    let name = crd.pointer("/metadata/name").cloned().unwrap_or(Value::Null);
    let mut metadata = serde_json::json!({ "name": name });
    let annotations: Map<String, Value> = crd_codegen::typespace::CARRIED_ANNOTATIONS
        .iter()
        .filter_map(|key| Some(((*key).to_owned(), crd.pointer("/metadata/annotations")?.get(*key)?.clone())))
        .collect();
    if !annotations.is_empty() {
        metadata["annotations"] = Value::Object(annotations);
    }
    out.insert("metadata".to_owned(), metadata);
    let mut spec = crd.get("spec").and_then(Value::as_object).cloned().unwrap_or_default();
    spec.remove("conversion");
    if spec.get("preserveUnknownFields") == Some(&Value::Bool(false)) {
        spec.remove("preserveUnknownFields");
    }
    if let Some(Value::Object(names)) = spec.get_mut("names") {
        normalise_names(names);
    }
    if let Some(Value::Array(versions)) = spec.get_mut("versions") {
        for version in versions.iter_mut().filter_map(Value::as_object_mut) {
            if version.get("deprecated") == Some(&Value::Bool(false)) {
                version.remove("deprecated");
            }
            if version.get("subresources").and_then(Value::as_object).is_some_and(Map::is_empty) {
                version.remove("subresources");
            }
            if let Some(schema) = version.get_mut("schema").and_then(|s| s.get_mut("openAPIV3Schema")) {
                sort_required(schema);
                drop_empty_keywords(schema);
            }
        }
    }
    out.insert("spec".to_owned(), Value::Object(spec));
    Value::Object(out)
}

fn normalise_names(names: &mut Map<String, Value>) {
    let kind = names.get("kind").and_then(Value::as_str).unwrap_or_default().to_owned();
    names.entry("singular").or_insert_with(|| Value::String(kind.to_lowercase()));
    names.entry("listKind").or_insert_with(|| Value::String(format!("{kind}List")));
    for key in ["shortNames", "categories"] {
        if names.get(key).and_then(Value::as_array).is_some_and(Vec::is_empty) {
            names.remove(key);
        }
    }
}

/// Removes the keywords of schema node `schema` and its subschemas that
/// hold the value the API server's types omit ([`crd_vocabulary::unset`]).
fn drop_empty_keywords(schema: &mut Value) {
    use crd_vocabulary::Unset;
    let Value::Object(node) = schema else { return };
    node.retain(|key, value| match (crd_vocabulary::unset(key), &*value) {
        (Unset::EmptyText, Value::String(text)) => !text.is_empty(),
        (Unset::False, Value::Bool(flag)) => *flag,
        (Unset::EmptyList, Value::Array(items)) => !items.is_empty(),
        _ => true,
    });
    for (key, value) in node.iter_mut() {
        match (key.as_str(), value) {
            ("properties", Value::Object(properties)) => properties.values_mut().for_each(drop_empty_keywords),
            ("items" | "additionalProperties" | "not", inner) => drop_empty_keywords(inner),
            ("allOf" | "anyOf" | "oneOf", Value::Array(schemas)) => schemas.iter_mut().for_each(drop_empty_keywords),
            _ => {}
        }
    }
}

/// Sorts every `required` list of a schema, wherever it is.
fn sort_required(schema: &mut Value) {
    match schema {
        Value::Object(map) => {
            for (key, value) in map.iter_mut() {
                if key == "required"
                    && let Value::Array(items) = value
                {
                    items.sort_by_key(ToString::to_string);
                    continue;
                }
                sort_required(value);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(sort_required),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn ignored_differences_are_removed_and_nothing_else() {
        let original = json!({
            "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "ws.example.com", "annotations": {"a": "b", "api-approved.kubernetes.io": "unapproved"},
                "labels": {"c": "d"}},
            "spec": {"group": "example.com", "conversion": {"strategy": "None"}, "preserveUnknownFields": false,
                "names": {"kind": "W", "plural": "ws", "shortNames": []},
                "versions": [{"name": "v1", "deprecated": false, "subresources": {}, "schema": {"openAPIV3Schema": {
                    "type": "object", "required": ["b", "a"], "nullable": false,
                    "properties": {"a": {"type": "object", "required": ["y", "x"], "allOf": [{"enum": []}]}}}}}]}
        });
        let expected = json!({
            "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "ws.example.com", "annotations": {"api-approved.kubernetes.io": "unapproved"}},
            "spec": {"group": "example.com",
                "names": {"kind": "W", "plural": "ws", "singular": "w", "listKind": "WList"},
                "versions": [{"name": "v1", "schema": {"openAPIV3Schema": {
                    "type": "object", "required": ["a", "b"],
                    "properties": {"a": {"type": "object", "required": ["x", "y"], "allOf": [{}]}}}}}]}
        });
        assert_eq!(normalise_crd(&original), expected);
        // A real difference survives.
        let mut other = original.clone();
        other["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["a"]["type"] = json!("string");
        assert_ne!(normalise_crd(&other), expected);
    }
}
