//! Keywords written in attributes, applied over a type's own schema.

use serde_json::Value;

use super::Schema;

/// Applies `overlay` (a JSON object of keywords) over `schema`: keys
/// replace, except that `items` and `additionalProperties` objects merge
/// recursively and `x-kubernetes-validations` entries are appended, so a
/// field's attributes refine the schema its type gives. An empty
/// `description` removes it: the doc comment then documents the Rust item
/// only (generated code notes a schema that is not structural so).
/// `x-kubernetes-preserve-unknown-fields: false`, which the API server
/// refuses ("must be true or undefined"), removes the flag the type gives
/// (the items of a preserving array hold `serde_json::Value`s).
pub fn merge(schema: &mut Schema, overlay: &Schema) {
    for (key, value) in overlay {
        match (key.as_str(), schema.get_mut(key), value) {
            ("items" | "additionalProperties", Some(Value::Object(inner)), Value::Object(more)) => merge(inner, more),
            ("x-kubernetes-validations", Some(Value::Array(rules)), Value::Array(more)) => {
                rules.extend(more.iter().cloned());
            }
            ("description", _, Value::String(text)) if text.is_empty() => {
                schema.shift_remove(key);
            }
            ("x-kubernetes-preserve-unknown-fields", _, Value::Bool(false)) => {
                schema.shift_remove(key);
            }
            _ => {
                schema.insert(key.clone(), value.clone());
            }
        }
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
    fn preserve_false_removes_the_flag() {
        let mut schema = object(json!({"type": "array", "items": {"x-kubernetes-preserve-unknown-fields": true}}));
        let overlay = json!({"items": {"type": "object", "x-kubernetes-preserve-unknown-fields": false}});
        merge(&mut schema, &object(overlay));
        assert_eq!(Value::Object(schema), json!({"type": "array", "items": {"type": "object"}}));
    }
}
