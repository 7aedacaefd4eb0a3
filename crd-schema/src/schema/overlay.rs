//! Keywords written in attributes, applied over a type's own schema.

use serde_json::Value;

use super::Schema;

/// Applies `overlay` (a JSON object of keywords) over `schema`: keys
/// replace, except that `items` and `additionalProperties` objects merge
/// recursively and `x-kubernetes-validations` entries are appended, so a
/// field's attributes refine the schema its type gives.
///
/// A keyword's empty value removes it ([`crd_vocabulary::Unset`]): in the
/// API server's types an empty `description`, a `false` flag or an empty
/// list is the same as none, so stating it removes what the type gives
/// (the `anyOf` of `IntOrString` on an int-or-string node without one; a
/// doc comment that documents the Rust item only). So does
/// `x-kubernetes-preserve-unknown-fields: false`, which the API server
/// refuses ("must be true or undefined"): the items of a preserving array
/// hold `serde_json::Value`s, which preserve.
pub fn merge(schema: &mut Schema, overlay: &Schema) {
    for (key, value) in overlay {
        match (key.as_str(), schema.get_mut(key), value) {
            ("items" | "additionalProperties", Some(Value::Object(inner)), Value::Object(more)) => merge(inner, more),
            ("x-kubernetes-validations", Some(Value::Array(rules)), Value::Array(more)) => {
                rules.extend(more.iter().cloned());
            }
            _ if removes(key, value) => {
                schema.shift_remove(key);
            }
            _ => {
                schema.insert(key.clone(), value.clone());
            }
        }
    }
}

/// Whether `value` is the empty value of keyword `key`, which removes it.
fn removes(key: &str, value: &Value) -> bool {
    use crd_vocabulary::Unset;
    match (crd_vocabulary::unset(key), value) {
        (Unset::EmptyText, Value::String(text)) => text.is_empty(),
        (Unset::False | Unset::RefusedFalse, Value::Bool(flag)) => !flag,
        (Unset::EmptyList, Value::Array(items)) => items.is_empty(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn object(value: Value) -> Schema {
        match value {
            Value::Object(map) => map,
            _ => unreachable!("test literals are objects"),
        }
    }

    #[test]
    fn overlay_refines_items_and_appends_rules() {
        let mut schema = object(json!({
            "type": "array",
            "items": {"type": "string", "format": "byte"},
            "x-kubernetes-validations": [{"rule": "a"}],
        }));
        let overlay = object(json!({
            "maxItems": 3,
            "items": {"maxLength": 5},
            "x-kubernetes-validations": [{"rule": "b"}],
        }));
        merge(&mut schema, &overlay);
        assert_eq!(
            Value::Object(schema),
            json!({
                "type": "array",
                "items": {"type": "string", "format": "byte", "maxLength": 5},
                "x-kubernetes-validations": [{"rule": "a"}, {"rule": "b"}],
                "maxItems": 3,
            })
        );
    }

    #[test]
    fn an_empty_description_removes_it() {
        let mut schema = object(json!({"type": "string", "description": "From the type."}));
        merge(&mut schema, &object(json!({"description": ""})));
        assert_eq!(Value::Object(schema), json!({"type": "string"}));
    }

    #[test]
    fn empty_values_remove_what_the_type_gives() {
        let mut schema = object(json!({
            "x-kubernetes-int-or-string": true,
            "anyOf": [{"type": "integer"}, {"type": "string"}],
            "nullable": true,
            "format": "int-or-string",
            "minimum": 1,
        }));
        let overlay = json!({"anyOf": [], "nullable": false, "format": "", "minimum": 0});
        merge(&mut schema, &object(overlay));
        assert_eq!(Value::Object(schema), json!({"x-kubernetes-int-or-string": true, "minimum": 0}));
    }

    #[test]
    fn preserve_false_removes_the_flag() {
        let mut schema = object(json!({"type": "array", "items": {"x-kubernetes-preserve-unknown-fields": true}}));
        let overlay = json!({"items": {"type": "object", "x-kubernetes-preserve-unknown-fields": false}});
        merge(&mut schema, &object(overlay));
        assert_eq!(Value::Object(schema), json!({"type": "array", "items": {"type": "object"}}));
    }
}
