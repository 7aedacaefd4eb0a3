//! Defaulting and null pruning of custom resource values, as
//! `k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting`.
//!
//! Entry points:
//! - [`default`]: applies the `default` values of a structural schema in
//!   place (`Default` upstream);
//! - [`prune_nulls`]: removes `null` object values whose schema is neither
//!   `nullable` nor defaulted (`PruneNonNullableNullsWithoutDefaults`);
//! - [`prune_defaults`]: prunes the `default` values of a schema itself, as
//!   the API server does when it loads a CRD's schema for serving
//!   (`PruneDefaults`).
//!
//! The first two walk the value top-down with the schema node that applies
//! to it and do nothing where that node is absent; neither can fail. Types
//! are never checked: `0`, `""`, `[]` and `{}` are present values.
//! [`prune_defaults`] fails only on a root `default` that is not an object
//! (a [`PruneDefaultsError`], which Kubernetes reports as the CRD failing
//! to load).
//!
//! ```
//! use crd_schema::{defaulting, structural::Structural};
//! use serde_json::json;
//!
//! let schema = Structural::from_json(&json!({"type": "object", "properties": {
//!     "size": {"type": "integer", "default": 3},
//!     "colour": {"type": "string"}}})).unwrap();
//! let mut value = json!({"colour": null});
//! defaulting::prune_nulls(&mut value, Some(&schema));
//! defaulting::default(&mut value, Some(&schema));
//! assert_eq!(value, json!({"size": 3}));
//! ```

use serde_json::{Map, Value};

use crate::field::Path;
use crate::json_map;
use crate::objectmeta::{self, CoerceOptions};
use crate::pruning;
use crate::structural::{Structural, StructuralOrBool};

/// Applies the defaults of `schema` to `value` in place. Only a parent
/// applies a child's default, so the root's own `default` never applies.
pub fn default(value: &mut Value, schema: Option<&Structural>) {
    // A subtree without defaults has nothing to apply.
    let Some(schema) = schema.filter(|s| s.holds().default) else { return };
    match value {
        Value::Object(map) => default_object(map, schema),
        Value::Array(elements) => {
            let items = schema.items.as_deref();
            for element in elements.iter_mut() {
                replace_null(element, items);
                default(element, items);
            }
        }
        _ => {}
    }
}

// An object is defaulted in two passes. First every property with a
// default is set to a copy of it when the key is missing, or when its value
// is `null` and the property is not `nullable`. Then every key present now
// (inserted defaults included, so nested defaults fill them further) is
// walked: a listed property with its schema; otherwise, when
// `additionalProperties` is a schema, a non-nullable `null` is first
// replaced by that schema's default. Keys covered by
// `additionalProperties: true/false` and unknown keys are left alone.
fn default_object(map: &mut Map<String, Value>, schema: &Structural) {
    for (name, property) in &schema.properties {
        let Some(default) = &property.generic.default else { continue };
        match json_map::get_mut(map, name) {
            None => {
                map.insert(name.clone(), default.clone());
            }
            Some(v) if v.is_null() && !property.generic.nullable => *v = default.clone(),
            Some(_) => {}
        }
    }
    let additional = schema.additional_properties_schema();
    // A scalar has nothing below it to default; of the scalars, only a
    // `null` under `additionalProperties` is replaced.
    let walked = |value: &Value| json_map::is_container(value) || (additional.is_some() && value.is_null());
    for (key, value) in map.iter_mut().filter(|(_, value)| walked(value)) {
        match schema.property(key) {
            Some(property) => default(value, Some(property)),
            None if additional.is_some() => {
                replace_null(value, additional);
                default(value, additional);
            }
            None => {}
        }
    }
}

// A `null` map value or array element under a present, non-nullable schema
// becomes a copy of that schema's default; without a default it stays
// `null`. Defaults never add map keys or array elements.
fn replace_null(value: &mut Value, schema: Option<&Structural>) {
    if let Some(s) = schema
        && value.is_null()
        && !s.generic.nullable
        && let Some(default) = &s.generic.default
    {
        *value = default.clone();
    }
}

/// Removes, in place, every object value that is `null` while its schema is
/// present, not `nullable` and has no `default`. Array elements are never
/// removed; `null`s under unknown keys are left alone.
pub fn prune_nulls(value: &mut Value, schema: Option<&Structural>) {
    let Some(schema) = schema else { return };
    match value {
        Value::Object(map) => prune_nulls_object(map, schema),
        Value::Array(elements) => {
            let items = schema.items.as_deref();
            for element in elements.iter_mut() {
                prune_nulls(element, items);
            }
        }
        _ => {}
    }
}

// Each key's schema is its property schema, else the `additionalProperties`
// schema (none for `true`/`false`), else none. A `null` under a present,
// non-nullable schema without a default is deleted (a defaulted `null` is
// left for defaulting to replace); any other value is walked with that
// schema. `x-kubernetes-preserve-unknown-fields` does not make a field
// nullable.
fn prune_nulls_object(map: &mut Map<String, Value>, schema: &Structural) {
    map.retain(|key, value| prune_nulls_at(schema, key, value));
}

/// Null pruning of the value under `key` of an object with `schema`:
/// whether the key stays (`false` for a `null` to delete), the value's
/// own `null`s pruned.
pub(crate) fn prune_nulls_at(schema: &Structural, key: &str, value: &mut Value) -> bool {
    let child = schema.property(key).or_else(|| schema.additional_properties_schema());
    if value.is_null() {
        return !drops_null(child);
    }
    prune_nulls(value, child);
    true
}

/// Whether a `null` under the key schema `child` is deleted: the schema is
/// present, not `nullable` and has no `default`.
pub(crate) fn drops_null(child: Option<&Structural>) -> bool {
    child.is_some_and(|s| !s.generic.nullable && s.generic.default.is_none())
}

/// Why [`prune_defaults`] failed: Go's error text after
/// `failed to prune default value: `.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("failed to prune default value: {0}")]
pub struct PruneDefaultsError(pub String);

/// Prunes every `default` of `schema` in place, as the API server does when
/// it loads a CRD version's schema for serving, and returns whether any
/// default changed.
///
/// Each default is placed into a synthetic object along its path from the
/// root (a map value under `additionalProperties` sits under the
/// placeholder key `*`). That object's embedded `metadata` is coerced with
/// malformed fields dropped, the object is pruned against the whole root
/// schema as a resource root, and the default is read back. A default
/// whose key was dropped on the way (a non-string `apiVersion`, a malformed
/// metadata field) is removed. Defaults accepted with unknown fields (old
/// CRDs, metadata defaults) are thereby served pruned.
pub fn prune_defaults(schema: &mut Structural) -> Result<bool, PruneDefaultsError> {
    // Pruning and coercion never read defaults, so the root as it was
    // before any default changed serves every node.
    let root = schema.clone();
    let mut steps = Vec::new();
    prune_node_defaults(schema, &root, &mut steps)
}

// One node's default, then its `additionalProperties` schema (placeholder
// key `*`), its `items` and its properties, in Kubernetes' order.
fn prune_node_defaults(
    s: &mut Structural,
    root: &Structural,
    steps: &mut Vec<Step>,
) -> Result<bool, PruneDefaultsError> {
    let mut changed = false;
    if let Some(default) = &s.generic.default {
        let pruned = pruned_default(default, root, steps)?;
        changed = pruned.as_ref() != Some(default);
        s.generic.default = pruned;
    }
    if let Some(StructuralOrBool::Structural(additional)) = &mut s.additional_properties {
        changed |= prune_child_defaults(additional, root, steps, Step::Child("*".to_owned()))?;
    }
    if let Some(items) = &mut s.items {
        changed |= prune_child_defaults(items, root, steps, Step::Index)?;
    }
    for (name, property) in &mut s.properties {
        changed |= prune_child_defaults(property, root, steps, Step::Child(name.clone()))?;
    }
    Ok(changed)
}

fn prune_child_defaults(
    s: &mut Structural,
    root: &Structural,
    steps: &mut Vec<Step>,
    step: Step,
) -> Result<bool, PruneDefaultsError> {
    steps.push(step);
    let result = prune_node_defaults(s, root, steps);
    steps.pop();
    result
}

// The synthetic object must be an object at its top (a root default that
// is not one fails). Coercion with malformed fields dropped cannot fail.
// A `null` read back counts as no default.
fn pruned_default(default: &Value, root: &Structural, steps: &[Step]) -> Result<Option<Value>, PruneDefaultsError> {
    let object = surround(default.clone(), steps)
        .ok_or_else(|| PruneDefaultsError("object root default value must be of object type".to_owned()))?;
    let mut object = Value::Object(object);
    let options = CoerceOptions { drop_invalid_fields: true, return_unknown_field_paths: false };
    objectmeta::coerce(&Path::root(), &mut object, Some(root), true, options)
        .map_err(|e| PruneDefaultsError(e.to_string()))?;
    pruning::prune_untracked(&mut object, Some(root), true);
    let focus = focus(&object, steps).map_err(PruneDefaultsError)?;
    Ok(focus.filter(|v| !v.is_null()))
}

/// One step from an object down to a nested value, as Go's
/// `SurroundingObjectFunc`: into the value of a key, or into the single
/// element of an array.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// `{key: value}`
    Child(String),
    /// `[value]`
    Index,
}

/// Places `focus` at the end of `steps`, innermost step first: `Child(k)`
/// wraps it in `{k: ...}`, `Index` in `[...]`. `None` when the outermost
/// value is not an object.
pub(crate) fn surround(focus: Value, steps: &[Step]) -> Option<Map<String, Value>> {
    let wrapped = steps.iter().rev().fold(focus, |value, step| match step {
        Step::Child(key) => Value::Object(Map::from_iter([(key.clone(), value)])),
        Step::Index => Value::Array(vec![value]),
    });
    match wrapped {
        Value::Object(map) => Some(map),
        _ => None,
    }
}

// Reads back the value at `steps` of `object`: `None` when a key is missing
// or an array is empty. A value of the wrong kind on the way is an error
// worded as Go's accessors word it: the failing step's message
// (`.k must be of object type`, `[] must be of array type`) behind the
// prefixes (`.k`, `[]`) of the steps after it, the last one outermost.
fn focus(object: &Value, steps: &[Step]) -> Result<Option<Value>, String> {
    let mut current = object;
    for (i, step) in steps.iter().enumerate() {
        let next = match (step, current) {
            (Step::Child(key), Value::Object(map)) => map.get(key),
            (Step::Index, Value::Array(items)) => items.first(),
            (Step::Child(key), _) => {
                return Err(accessor_error(format!(".{key} must be of object type"), &steps[i + 1..]));
            }
            (Step::Index, _) => return Err(accessor_error("[] must be of array type".to_owned(), &steps[i + 1..])),
        };
        match next {
            Some(v) => current = v,
            None => return Ok(None),
        }
    }
    Ok(Some(current.clone()))
}

fn accessor_error(message: String, later: &[Step]) -> String {
    later.iter().fold(message, |message, step| match step {
        Step::Child(key) => format!(".{key}{message}"),
        Step::Index => format!("[]{message}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    use serde_json::json;

    fn schema(v: Value) -> Structural {
        Structural::from_json(&v).unwrap()
    }

    #[test]
    fn defaults_fill_missing_and_non_nullable_nulls() {
        let s = schema(json!({"properties": {"a": {"default": 1}, "b": {"default": 2},
            "c": {"default": 3, "nullable": true}, "d": {"default": 4}}}));
        let mut v = json!({"b": null, "c": null, "d": 0});
        default(&mut v, Some(&s));
        assert_eq!(v, json!({"b": 2, "c": null, "d": 0, "a": 1}));
    }

    #[test]
    fn defaults_apply_inside_defaults_but_never_create_parents() {
        let s = schema(json!({"properties": {"x": {"default": {}, "properties": {"y": {"default": "y"}}},
            "p": {"properties": {"q": {"default": "q"}}}}}));
        let mut v = json!({});
        default(&mut v, Some(&s));
        assert_eq!(v, json!({"x": {"y": "y"}}));
    }

    #[test]
    fn map_and_item_defaults_replace_nulls_only() {
        let s = schema(json!({"additionalProperties": {"items": {"default": 7}, "default": []}}));
        let mut v = json!({"a": null, "b": [null, 1]});
        default(&mut v, Some(&s));
        assert_eq!(v, json!({"a": [], "b": [7, 1]}));
    }

    #[test]
    fn root_default_is_never_applied() {
        let s = schema(json!({"default": "foo"}));
        let mut v = Value::Null;
        default(&mut v, Some(&s));
        assert_eq!(v, Value::Null);
    }

    #[test]
    fn nulls_are_pruned_unless_nullable_defaulted_or_unknown() {
        let s = schema(json!({"properties": {"a": {}, "b": {"nullable": true}, "c": {"default": 1},
            "d": {"x-kubernetes-preserve-unknown-fields": true}, "e": {"items": {}}}}));
        let mut v = json!({"a": null, "b": null, "c": null, "d": null, "e": [null], "f": null});
        prune_nulls(&mut v, Some(&s));
        assert_eq!(v, json!({"b": null, "c": null, "e": [null], "f": null}));
    }

    fn pruned(v: Value) -> (Result<bool, PruneDefaultsError>, Value) {
        let mut s = schema(v);
        let result = prune_defaults(&mut s);
        (result, defaults_of(&s))
    }

    /// Every default of `s` by its dotted schema path.
    fn defaults_of(s: &Structural) -> Value {
        fn walk(s: &Structural, path: &str, out: &mut Map<String, Value>) {
            if let Some(d) = &s.generic.default {
                out.insert(path.to_owned(), d.clone());
            }
            if let Some(a) = s.additional_properties_schema() {
                walk(a, &format!("{path}/*"), out);
            }
            if let Some(i) = &s.items {
                walk(i, &format!("{path}/[]"), out);
            }
            for (k, p) in &s.properties {
                walk(p, &format!("{path}/{k}"), out);
            }
        }
        let mut out = Map::new();
        walk(s, "", &mut out);
        Value::Object(out)
    }

    #[test]
    fn defaults_lose_unknown_fields_against_the_whole_root() {
        let (result, defaults) = pruned(json!({"type": "object", "properties": {
            "a": {"type": "object", "properties": {"x": {"type": "integer"}}, "default": {"x": 1, "y": 2}},
            "l": {"type": "array", "items": {"type": "object", "properties": {"x": {"type": "integer"}},
                "default": {"x": 1, "z": 3}}},
            "m": {"type": "object", "additionalProperties": {"type": "object", "default": {"k": 1}}},
            "p": {"type": "object", "x-kubernetes-preserve-unknown-fields": true, "default": {"k": 1}}}}));
        assert_eq!(result, Ok(true));
        assert_eq!(defaults, json!({"/a": {"x": 1}, "/l/[]": {"x": 1}, "/m/*": {}, "/p": {"k": 1}}));
    }

    #[test]
    fn pruned_defaults_are_unchanged() {
        let (result, defaults) = pruned(json!({"type": "object", "properties": {
            "a": {"type": "object", "properties": {"x": {"type": "integer", "default": 2}}, "default": {"x": 1}},
            "s": {"type": "string", "default": "v"}}}));
        assert_eq!(result, Ok(false));
        assert_eq!(defaults, json!({"/a": {"x": 1}, "/a/x": 2, "/s": "v"}));
    }

    #[test]
    fn embedded_metadata_defaults_are_coerced() {
        let (result, defaults) = pruned(json!({"type": "object", "properties": {"e": {"type": "object",
            "x-kubernetes-embedded-resource": true, "properties": {
                "apiVersion": {"type": "string", "default": 42},
                "kind": {"type": "string", "default": "K"},
                "metadata": {"type": "object", "default": {"name": "n", "junk": 1}, "properties": {
                    "labels": {"type": "object", "default": {"a": 1}}}}}}}}));
        assert_eq!(result, Ok(true));
        assert_eq!(defaults, json!({"/e/kind": "K", "/e/metadata": {"name": "n"}}));
    }

    #[test]
    fn root_default_must_be_an_object() {
        let mut s = schema(json!({"type": "object", "default": "x"}));
        let err = prune_defaults(&mut s).unwrap_err();
        assert_eq!(err.to_string(), "failed to prune default value: object root default value must be of object type");
        let mut s = schema(json!({"type": "object", "default": {"a": 1, "apiVersion": "v1"}}));
        assert_eq!(prune_defaults(&mut s), Ok(true));
        assert_eq!(s.generic.default, Some(json!({"apiVersion": "v1"})));
    }

    #[test]
    fn surrounding_objects_and_their_accessors() {
        let steps = [Step::Child("a".to_owned()), Step::Index, Step::Child("b".to_owned())];
        let object = Value::Object(surround(json!(1), &steps).unwrap());
        assert_eq!(object, json!({"a": [{"b": 1}]}));
        assert_eq!(focus(&object, &steps), Ok(Some(json!(1))));
        assert_eq!(focus(&json!({"a": []}), &steps), Ok(None));
        assert_eq!(focus(&json!({"a": {}}), &steps), Err(".b[] must be of array type".to_owned()));
        assert_eq!(focus(&json!({"a": [2]}), &steps), Err(".b must be of object type".to_owned()));
        assert_eq!(surround(json!(1), &[Step::Index]), None);
    }
}
