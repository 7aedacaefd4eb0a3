//! Placement rules of `x-kubernetes-map-type`, `x-kubernetes-list-type` and
//! `x-kubernetes-list-map-keys` on one schema node, and the stricter
//! `set`/`map` item rules (`requireAtomicSetType`,
//! `requireMapListKeysMapSetValidation`).

use serde_json::Value;

use super::ValidationOptions;
use crate::field::{ErrorList, FieldError, Path};
use crate::gofmt;
use crate::wire::{self, JSONSchemaProps, SchemaOrArray};

/// Every list-type and map-type error of `schema` itself (not of its
/// children), at path `p`.
pub(super) fn validate(schema: &JSONSchemaProps, p: &Path, opts: &ValidationOptions) -> ErrorList {
    let mut errors = map_type(schema, p);
    errors.extend(list_type(schema, p, opts));
    errors.extend(list_map_keys_need_map(schema, p));
    errors.extend(map_list(schema, p));
    if opts.require_map_list_keys_map_set_validation {
        errors.extend(map_list_keys_map_set(schema, p));
    }
    errors
}

// `x-kubernetes-map-type` needs `type: object` (Required when the type is
// empty, Invalid otherwise) and must be `atomic` or `granular`.
fn map_type(schema: &JSONSchemaProps, p: &Path) -> ErrorList {
    let Some(map_type) = &schema.x_map_type else { return ErrorList::new() };
    let mut errors = ErrorList::new();
    const NEED: &str = "must be object if x-kubernetes-map-type is specified";
    if schema.type_.is_empty() {
        errors.push(FieldError::required(&p.child("type"), NEED));
    } else if schema.type_ != "object" {
        errors.push(FieldError::invalid(&p.child("type"), schema.type_.as_str(), NEED));
    }
    if map_type != "atomic" && map_type != "granular" {
        errors.push(FieldError::not_supported(
            &p.child("x-kubernetes-map-type"),
            map_type.as_str(),
            &["atomic", "granular"],
        ));
    }
    errors
}

// `x-kubernetes-list-type` needs `type: array` and must be `atomic`, `set`
// or `map`. Only on an array (or a node without list type) and with
// `requireAtomicSetType`, the items of a `set` must be atomic: array items
// must not have a list type other than `atomic`, object items must have
// map type `atomic` (the error of the latter shows the items' *list* type,
// normally `null`, as Kubernetes does).
fn list_type(schema: &JSONSchemaProps, p: &Path, opts: &ValidationOptions) -> ErrorList {
    let mut errors = ErrorList::new();
    const NEED: &str = "must be array if x-kubernetes-list-type is specified";
    let list_type = schema.x_list_type.as_deref();
    if list_type.is_some() && schema.type_ != "array" {
        if schema.type_.is_empty() {
            errors.push(FieldError::required(&p.child("type"), NEED));
        } else {
            errors.push(FieldError::invalid(&p.child("type"), schema.type_.as_str(), NEED));
        }
    } else if opts.require_atomic_set_type
        && list_type == Some("set")
        && let Some(SchemaOrArray::Schema(items)) = &schema.items
    {
        errors.extend(atomic_set_items(items, &p.child("items")));
    }
    if let Some(t) = list_type.filter(|t| !matches!(*t, "atomic" | "set" | "map")) {
        errors.push(FieldError::not_supported(&p.child("x-kubernetes-list-type"), t, &["atomic", "set", "map"]));
    }
    errors
}

/// The items rule of a `set` list (see [`list_type`]); `items` is at `ip`.
fn atomic_set_items(items: &JSONSchemaProps, ip: &Path) -> Option<FieldError> {
    const DETAIL: &str = "must be atomic as item of a list with x-kubernetes-list-type=set";
    let shown = optional_string(items.x_list_type.as_deref());
    match items.type_.as_str() {
        "array" if items.x_list_type.as_deref().is_some_and(|t| t != "atomic") => {
            Some(FieldError::invalid(&ip.child("x-kubernetes-list-type"), shown, DETAIL))
        }
        "object" if items.x_map_type.as_deref() != Some("atomic") => {
            Some(FieldError::invalid(&ip.child("x-kubernetes-map-type"), shown, DETAIL))
        }
        _ => None,
    }
}

// Non-empty `x-kubernetes-list-map-keys` need list type `map` (Required
// when the list type is unset, Invalid otherwise).
fn list_map_keys_need_map(schema: &JSONSchemaProps, p: &Path) -> Option<FieldError> {
    if schema.x_list_map_keys.as_ref().is_none_or(Vec::is_empty) {
        return None;
    }
    const NEED: &str = "must be map if x-kubernetes-list-map-keys is non-empty";
    let at = p.child("x-kubernetes-list-type");
    match schema.x_list_type.as_deref() {
        None => Some(FieldError::required(&at, NEED)),
        Some("map") => None,
        Some(t) => Some(FieldError::invalid(&at, t, NEED)),
    }
}

// List type `map`: the keys must be non-empty; there must be a single items
// schema of type object; every key must be a property of the items that is
// not an array or object (the error shows the *items'* type); keys must
// not repeat (one error per repetition).
fn map_list(schema: &JSONSchemaProps, p: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    if schema.x_list_type.as_deref() != Some("map") {
        return errors;
    }
    let keys = schema.x_list_map_keys.as_deref().unwrap_or_default();
    if keys.is_empty() {
        let detail = "must not be empty if x-kubernetes-list-type is map";
        errors.push(FieldError::required(&p.child("x-kubernetes-list-map-keys"), detail));
    }
    match &schema.items {
        None => {
            errors.push(FieldError::required(&p.child("items"), "must have a schema if x-kubernetes-list-type is map"))
        }
        Some(SchemaOrArray::Array(items)) => {
            // Kubernetes shows its internal Go structure here; the JSON form
            // of the items is the closest reproducible rendering.
            let shown = gofmt::json(&Value::Array(items.iter().map(JSONSchemaProps::to_value).collect()));
            let detail = "must only have a single schema if x-kubernetes-list-type is map";
            errors.push(FieldError::invalid_rendered(&p.child("items"), shown, detail));
        }
        Some(SchemaOrArray::Schema(items)) if items.type_ != "object" => {
            let detail = "must be object if parent array's x-kubernetes-list-type is map";
            errors.push(FieldError::invalid(&p.child("items").child("type"), items.type_.as_str(), detail));
        }
        Some(SchemaOrArray::Schema(items)) => errors.extend(map_keys(items, keys, p)),
    }
    errors
}

/// The per-key rules of a `map` list whose items are objects.
fn map_keys(items: &JSONSchemaProps, keys: &[String], p: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let keys_path = p.child("x-kubernetes-list-map-keys");
    let keys_value = || Value::Array(keys.iter().cloned().map(Value::String).collect());
    for (i, k) in keys.iter().enumerate() {
        match items.properties.as_ref().and_then(|props| wire::get(props, k)) {
            Some(key) if key.type_ == "array" || key.type_ == "object" => {
                let at = p.child("items").child("properties").key(k.as_str()).child("type");
                let detail = "must be a scalar type if parent array's x-kubernetes-list-type is map";
                errors.push(FieldError::invalid(&at, items.type_.as_str(), detail));
            }
            Some(_) => {}
            None => {
                let detail = "entries must all be names of item properties";
                errors.push(FieldError::invalid(&keys_path, keys_value(), detail));
            }
        }
        if keys[..i].contains(k) {
            errors.push(FieldError::invalid(&keys_path, keys_value(), "must not contain duplicate entries"));
        }
    }
    errors
}

// `requireMapListKeysMapSetValidation`, for `set` and `map` lists with an
// items schema: the items must not be nullable; for `map` lists each key
// that is a property must be required or defaulted, and not nullable.
pub(super) fn map_list_keys_map_set(schema: &JSONSchemaProps, p: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let (Some(SchemaOrArray::Schema(items)), Some(list_type)) = (&schema.items, schema.x_list_type.as_deref()) else {
        return errors;
    };
    if list_type != "set" && list_type != "map" {
        return errors;
    }
    let ip = p.child("items");
    if items.nullable {
        errors.push(FieldError::forbidden(
            &ip.child("nullable"),
            format!("cannot be nullable when x-kubernetes-list-type is {list_type}"),
        ));
    }
    if list_type != "map" {
        return errors;
    }
    let required = items.required.as_deref().unwrap_or_default();
    for k in schema.x_list_map_keys.as_deref().unwrap_or_default() {
        let Some(key) = items.properties.as_ref().and_then(|props| wire::get(props, k)) else { continue };
        let kp = ip.child("properties").key(k.as_str());
        if !required.contains(k) && key.default.is_none() {
            let detail =
                "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property";
            errors.push(FieldError::required(&kp.child("default"), detail));
        }
        if key.nullable {
            let detail = "this property is in x-kubernetes-list-map-keys, so it cannot be nullable";
            errors.push(FieldError::forbidden(&kp.child("nullable"), detail));
        }
    }
    errors
}

/// A Go `*string` as a bad value: `null` when unset.
fn optional_string(s: Option<&str>) -> Value {
    s.map_or(Value::Null, |s| Value::String(s.to_owned()))
}

// Whether a `set` list somewhere in `schema` has items that are not atomic
// (the update rule relaxing `requireAtomicSetType`); `schema` is one node.
pub(super) fn has_non_atomic_set_items(schema: &JSONSchemaProps) -> bool {
    match (&schema.items, schema.x_list_type.as_deref()) {
        (Some(SchemaOrArray::Schema(items)), Some("set")) => atomic_set_items(items, &Path::root()).is_some(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn errors(v: Value, opts: &ValidationOptions) -> Vec<String> {
        let schema = JSONSchemaProps::from_value(&v).unwrap();
        validate(&schema, &Path::new("s"), opts).iter().map(ToString::to_string).collect()
    }

    #[test]
    fn map_type_placement() {
        let e = errors(json!({"x-kubernetes-map-type": "bad"}), &ValidationOptions::default());
        assert_eq!(
            e,
            vec![
                "s.type: Required value: must be object if x-kubernetes-map-type is specified",
                "s.x-kubernetes-map-type: Unsupported value: \"bad\": supported values: \"atomic\", \"granular\""
            ]
        );
    }

    #[test]
    fn set_items_must_be_atomic() {
        let opts = ValidationOptions { require_atomic_set_type: true, ..ValidationOptions::default() };
        let v = json!({"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "object"}});
        assert_eq!(
            errors(v.clone(), &opts),
            vec![
                "s.items.x-kubernetes-map-type: Invalid value: null: must be atomic as item of a list with x-kubernetes-list-type=set"
            ]
        );
        assert!(errors(v, &ValidationOptions::default()).is_empty());
        let v = json!({"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "array", "x-kubernetes-list-type": "set"}});
        assert_eq!(
            errors(v, &opts),
            vec![
                "s.items.x-kubernetes-list-type: Invalid value: \"set\": must be atomic as item of a list with x-kubernetes-list-type=set"
            ]
        );
    }

    #[test]
    fn map_lists() {
        let v = json!({"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k", "m", "k"],
            "items": {"type": "object", "properties": {"k": {"type": "object"}}}});
        assert_eq!(
            errors(v, &ValidationOptions::default()),
            vec![
                "s.items.properties[k].type: Invalid value: \"object\": must be a scalar type if parent array's x-kubernetes-list-type is map",
                "s.x-kubernetes-list-map-keys: Invalid value: [\"k\",\"m\",\"k\"]: entries must all be names of item properties",
                "s.items.properties[k].type: Invalid value: \"object\": must be a scalar type if parent array's x-kubernetes-list-type is map",
                "s.x-kubernetes-list-map-keys: Invalid value: [\"k\",\"m\",\"k\"]: must not contain duplicate entries",
            ]
        );
        let v = json!({"x-kubernetes-list-map-keys": ["k"], "x-kubernetes-list-type": "set", "type": "array"});
        assert_eq!(
            errors(v, &ValidationOptions::default()),
            vec![
                "s.x-kubernetes-list-type: Invalid value: \"set\": must be map if x-kubernetes-list-map-keys is non-empty"
            ]
        );
    }

    #[test]
    fn map_list_keys_need_required_or_default() {
        let opts = ValidationOptions { require_map_list_keys_map_set_validation: true, ..ValidationOptions::default() };
        let v = json!({"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"],
            "items": {"type": "object", "nullable": true, "properties": {"k": {"type": "string", "nullable": true}}}});
        assert_eq!(
            errors(v, &opts),
            vec![
                "s.items.nullable: Forbidden: cannot be nullable when x-kubernetes-list-type is map",
                "s.items.properties[k].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property",
                "s.items.properties[k].nullable: Forbidden: this property is in x-kubernetes-list-map-keys, so it cannot be nullable",
            ]
        );
    }
}
