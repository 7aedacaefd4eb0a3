//! Defaulting and null pruning of custom resource values, as
//! `k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting`.
//!
//! Entry points:
//! - [`default`]: applies the `default` values of a structural schema in
//!   place (`Default` upstream);
//! - [`prune_nulls`]: removes `null` object values whose schema is neither
//!   `nullable` nor defaulted (`PruneNonNullableNullsWithoutDefaults`).
//!
//! Both walk the value top-down with the schema node that applies to it and
//! do nothing where that node is absent; neither can fail. Types are never
//! checked: `0`, `""`, `[]` and `{}` are present values.

use serde_json::{Map, Value};

use crate::structural::Structural;

/// Applies the defaults of `schema` to `value` in place. Only a parent
/// applies a child's default, so the root's own `default` never applies.
pub fn default(value: &mut Value, schema: Option<&Structural>) {
    let Some(schema) = schema else { return };
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
        match map.get_mut(name) {
            None => {
                map.insert(name.clone(), default.clone());
            }
            Some(v) if v.is_null() && !property.generic.nullable => *v = default.clone(),
            Some(_) => {}
        }
    }
    let additional = schema.additional_properties_schema();
    for (key, value) in map.iter_mut() {
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
    map.retain(|key, value| {
        let child = schema.property(key).or_else(|| schema.additional_properties_schema());
        if value.is_null() {
            return !child.is_some_and(|s| !s.generic.nullable && s.generic.default.is_none());
        }
        prune_nulls(value, child);
        true
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::structural::new_structural;
    use crate::wire::JSONSchemaProps;
    use serde_json::json;

    fn schema(v: Value) -> Structural {
        new_structural(&JSONSchemaProps::from_value(&v).unwrap()).unwrap()
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
}
