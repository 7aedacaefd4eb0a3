//! Uniqueness in lists of `x-kubernetes-list-type: set` and `map`, as
//! `ValidateListSetsAndMaps` in
//! `k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype`.
//!
//! Entry point: [`validate_list_set_and_map`], which walks an object with
//! its structural schema and reports duplicate set elements and map keys.
//!
//! Error policy: duplicates and malformed map lists are
//! [`FieldError`]s (`Duplicate value`, `Invalid value`), rendered as
//! Kubernetes renders them; values that do not have the schema's shape are
//! skipped, not reported (other validation reports them). Nothing panics.

use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::field::{ErrorList, FieldError, Path};
use crate::structural::Structural;
use crate::value_validation::go_decoded;
use crate::{gofmt, json_map};

/// Validates the `set` and `map` lists in `value` (an object; anything else
/// has no such lists) against `schema`, under `path`.
pub fn validate_list_set_and_map(path: &Path, schema: &Structural, value: &Value) -> ErrorList {
    match value {
        Value::Object(map) if holds_lists(schema) => object(path, schema, map),
        _ => Vec::new(),
    }
}

// An object: values of unlisted keys under `additionalProperties` at
// `<p>[<key>]`, values of declared properties at `<p>.<key>`.
fn object(path: &Path, schema: &Structural, map: &Map<String, Value>) -> ErrorList {
    let mut errors = Vec::new();
    // Scalars hold no lists, nor does a subtree whose schema declares
    // none: no path is made for them.
    let containers = || map.iter().filter(|(_, v)| json_map::is_container(v));
    if let Some(additional) = schema.additional_properties_schema().filter(|s| holds_lists(s)) {
        for (key, value) in containers() {
            errors.extend(walk(&path.key(key.as_str()), additional, value));
        }
    }
    if !schema.properties.is_empty() {
        for (key, value) in containers() {
            if let Some(sub) = schema.property(key).filter(|s| holds_lists(s)) {
                errors.extend(walk(&path.child(key.as_str()), sub, value));
            }
        }
    }
    errors
}

fn holds_lists(schema: &Structural) -> bool {
    schema.holds().set_or_map_list
}

// Arrays and objects are walked (their callers pass only schemas that
// hold lists).
fn walk(path: &Path, schema: &Structural, value: &Value) -> ErrorList {
    match value {
        Value::Array(items) => array(path, schema, items),
        Value::Object(map) => object(path, schema, map),
        _ => Vec::new(),
    }
}

// An array: its own list-type check, then every element under `items` at
// `<p>[<i>]`.
fn array(path: &Path, schema: &Structural, items: &[Value]) -> ErrorList {
    let mut errors = match schema.extensions.x_list_type.as_deref() {
        Some("set") => set_duplicates(items.iter().map(key_of))
            .into_iter()
            .map(|i| FieldError::duplicate(&path.index(i), go_decoded(&items[i])))
            .collect(),
        Some("map") => map_list(path, schema, items),
        _ => Vec::new(),
    };
    if let Some(item_schema) = schema.items.as_deref().filter(|s| holds_lists(s)) {
        for (i, item) in items.iter().enumerate().filter(|(_, v)| json_map::is_container(v)) {
            errors.extend(walk(&path.index(i), item_schema, item));
        }
    }
    errors
}

// The identity of a set element: scalars by Go type and value (the
// integer `1` and the float `1.0` differ, `0.0` equals `-0.0`), objects and
// arrays by their Go JSON encoding (where `1.0` encodes as `1`).
fn key_of(value: &Value) -> String {
    match value {
        Value::Null => "n".to_owned(),
        Value::Bool(b) => format!("b{b}"),
        Value::String(s) => format!("s{s}"),
        Value::Number(n) => match n.as_i64() {
            Some(i) => format!("i{i}"),
            None => format!("f{}", gofmt::float_v(n.as_f64().unwrap_or(0.0) + 0.0)),
        },
        Value::Array(_) | Value::Object(_) => format!("j{}", gofmt::json(&go_decoded(value))),
    }
}

// The indices of the second occurrences of repeated keys (third and later
// occurrences are not reported); lists of one element have none.
fn set_duplicates(keys: impl ExactSizeIterator<Item = String>) -> Vec<usize> {
    if keys.len() <= 1 {
        return Vec::new();
    }
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut duplicates = Vec::new();
    for (i, key) in keys.enumerate() {
        let times = seen.entry(key).or_insert(0);
        *times += 1;
        if *times == 2 {
            duplicates.push(i);
        }
    }
    duplicates
}

// A `map` list: the first element that is neither an object nor `null` is
// the only error; otherwise duplicate keys. With one key field the key is
// its value (absent, or a `null` element: a distinct "unspecified" key),
// shown as `{"<field>": <value>}` or `{}`; with several, the object of the
// key fields present.
fn map_list(path: &Path, schema: &Structural, items: &[Value]) -> ErrorList {
    if let Some(i) = items.iter().position(|x| !x.is_null() && !x.is_object()) {
        return vec![FieldError::invalid(
            &path.index(i),
            go_decoded(&items[i]),
            "must be an object for an array of list-type map",
        )];
    }
    let fields = schema.extensions.x_list_map_keys.as_deref().unwrap_or_default();
    if let [field] = fields {
        let keys: Vec<Option<&Value>> = items.iter().map(|x| x.get(field.as_str())).collect();
        let identities = keys.iter().map(|k| k.map_or_else(|| "u".to_owned(), key_of));
        return set_duplicates(identities.collect::<Vec<_>>().into_iter())
            .into_iter()
            .map(|i| {
                let mut shown = Map::new();
                if let Some(k) = keys[i] {
                    shown.insert(field.clone(), go_decoded(k));
                }
                FieldError::duplicate(&path.index(i), Value::Object(shown))
            })
            .collect();
    }
    let keys: Vec<Value> = items
        .iter()
        .map(|x| {
            let present = fields.iter().filter_map(|f| x.get(f.as_str()).map(|v| (f.clone(), go_decoded(v))));
            Value::Object(present.collect())
        })
        .collect();
    set_duplicates(keys.iter().map(key_of).collect::<Vec<_>>().into_iter())
        .into_iter()
        .map(|i| FieldError::duplicate(&path.index(i), keys[i].clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::structural::new_structural;
    use crate::wire::JSONSchemaProps;
    use serde_json::json;

    fn texts(schema: Value, value: Value) -> Vec<String> {
        let s = new_structural(&JSONSchemaProps::from_value(&schema).unwrap()).unwrap();
        validate_list_set_and_map(&Path::new("root"), &s, &value).iter().map(ToString::to_string).collect()
    }

    fn list(list_type: &str, keys: Value) -> Value {
        json!({"type": "object", "properties": {"a": {"type": "array", "x-kubernetes-list-type": list_type,
            "x-kubernetes-list-map-keys": keys, "items": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}})
    }

    #[test]
    fn sets_report_second_occurrences() {
        let schema = json!({"type": "object", "properties": {"a": {"type": "array", "x-kubernetes-list-type": "set"}}});
        assert_eq!(
            texts(schema.clone(), json!({"a": ["x", "x", "x", 1, 1.0]})),
            vec!["root.a[1]: Duplicate value: \"x\""]
        );
        assert_eq!(texts(schema.clone(), json!({"a": [[1.0], [1]]})), vec!["root.a[1]: Duplicate value: [1]"]);
        assert_eq!(texts(schema, json!({"a": [null, null]})), vec!["root.a[1]: Duplicate value: null"]);
    }

    #[test]
    fn maps_by_keys() {
        assert_eq!(
            texts(list("map", json!(["k"])), json!({"a": [{"k": 1}, {"k": 1}, {}, null]})),
            vec!["root.a[1]: Duplicate value: {\"k\":1}", "root.a[3]: Duplicate value: {}"]
        );
        assert_eq!(
            texts(list("map", json!(["k", "l"])), json!({"a": [{"k": 1, "x": 1}, {"k": 1, "x": 2}]})),
            vec!["root.a[1]: Duplicate value: {\"k\":1}"]
        );
        assert_eq!(
            texts(list("map", json!(["k"])), json!({"a": [{"k": 1}, 2, "x"]})),
            vec!["root.a[1]: Invalid value: 2: must be an object for an array of list-type map"]
        );
    }

    #[test]
    fn atomic_and_non_objects() {
        assert!(texts(list("atomic", json!(["k"])), json!({"a": [{"k": 1}, {"k": 1}]})).is_empty());
        assert!(texts(list("set", json!(["k"])), json!("x")).is_empty());
        assert!(texts(list("set", json!(["k"])), json!({"a": "x"})).is_empty());
    }

    #[test]
    fn deep_values_do_not_exhaust_the_stack() {
        let (mut schema, mut value) = (json!({"type": "array", "x-kubernetes-list-type": "set"}), json!([1, 1]));
        for _ in 0..256 {
            schema = json!({"type": "array", "items": schema});
            value = json!([value]);
        }
        let got = texts(json!({"type": "object", "properties": {"a": schema}}), json!({"a": value}));
        assert_eq!(got.len(), 1);
        assert!(got[0].ends_with("[0][1]: Duplicate value: 1"), "{got:?}");
    }

    #[test]
    fn additional_properties_use_keys() {
        let schema = json!({"type": "object", "additionalProperties": {"type": "array", "x-kubernetes-list-type": "set",
            "items": {"type": "string"}}});
        assert_eq!(texts(schema, json!({"m": ["a", "a"]})), vec!["root[m][1]: Duplicate value: \"a\""]);
    }
}
