use serde_json::{Map, Value, json};

use super::structuralize;
use crate::field::Path;
use crate::structural::{ValidationOptions, new_structural, validate_structural};
use crate::wire::JSONSchemaProps;

fn rewrite_with(schema: Value, definitions: Value) -> Value {
    let definitions = match definitions {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    let rewritten = structuralize(&schema, "Root", &definitions).unwrap_or_else(|e| panic!("{e}"));
    assert_structural(&Value::Object(rewritten.clone()));
    Value::Object(rewritten)
}

fn rewrite(schema: Value) -> Value {
    rewrite_with(schema, json!({}))
}

/// The API server's structural checks find nothing wrong with `schema` as
/// a field of a root object (the root itself must be an object).
pub(crate) fn assert_structural(schema: &Value) {
    let schema = &json!({"type": "object", "properties": {"field": schema}});
    let (props, issues) = JSONSchemaProps::decode(schema);
    assert!(
        issues.is_empty(),
        "decode issues: {:?}\n{schema:#}",
        issues.iter().map(|i| i.message("")).collect::<Vec<_>>()
    );
    let structural = new_structural(&props).unwrap_or_else(|e| panic!("not structural: {e}\n{schema:#}"));
    let errors = validate_structural(&Path::root(), &structural, &ValidationOptions::default());
    assert!(errors.is_empty(), "structural errors: {errors:?}\n{schema:#}");
}

#[test]
fn references_are_inlined_with_their_siblings_on_top() {
    let schema = json!({
        "type": "object",
        "properties": {
            "inner": {"$ref": "#/$defs/Inner", "description": "The field."},
            "again": {"$ref": "#/$defs/Inner"},
        },
    });
    let definitions = json!({
        "Inner": {"description": "The type.", "type": "object", "properties": {"a": {"type": "string"}}},
    });
    let inner = json!({"description": "The type.", "type": "object", "properties": {"a": {"type": "string"}}});
    assert_eq!(
        rewrite_with(schema, definitions),
        json!({"type": "object", "properties": {
            "inner": {"description": "The field.", "type": "object", "properties": {"a": {"type": "string"}}},
            "again": inner,
        }})
    );
}

#[test]
fn encoded_reference_names_are_decoded() {
    let schema = json!({"$ref": "#/$defs/a~1b%20c"});
    let definitions = json!({"a/b c": {"type": "string"}});
    assert_eq!(rewrite_with(schema, definitions), json!({"type": "string"}));
}

#[test]
fn recursion_is_refused_with_the_chain() {
    let schema = json!({"$ref": "#/$defs/Node"});
    let definitions = json!({
        "Node": {"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/Children"}}}},
        "Children": {"type": "object", "properties": {"node": {"$ref": "#/$defs/Node"}}},
    });
    let Value::Object(definitions) = definitions else { unreachable!() };
    let error = structuralize(&schema, "Root", &definitions).expect_err("recursive");
    assert_eq!(
        error,
        "`Node` contains itself (Node → Children → Node); a structural schema cannot describe a recursive type"
    );
    let error =
        structuralize(&json!({"properties": {"me": {"$ref": "#"}}}), "Root", &Map::new()).expect_err("recursive");
    assert!(error.starts_with("`Root` contains itself (Root → Root)"), "{error}");
}

#[test]
fn null_alternatives_vanish() {
    assert_eq!(rewrite(json!({"type": ["string", "null"], "maxLength": 3})), json!({"type": "string", "maxLength": 3}));
    let schema = json!({
        "type": "object",
        "properties": {"inner": {"anyOf": [{"$ref": "#/$defs/Inner"}, {"type": "null"}], "description": "Maybe."}},
    });
    let definitions = json!({"Inner": {"type": "object", "properties": {"a": {"type": "integer", "format": "int32"}}}});
    assert_eq!(
        rewrite_with(schema, definitions),
        json!({"type": "object", "properties": {"inner": {
            "description": "Maybe.", "type": "object", "properties": {"a": {"type": "integer", "format": "int32"}},
        }}})
    );
    assert_eq!(
        rewrite(json!({"type": "string", "enum": ["a", null], "nullable": true})),
        json!({"type": "string", "enum": ["a"]})
    );
    assert_eq!(rewrite(json!({"oneOf": [{"const": null}, {"type": "boolean"}]})), json!({"type": "boolean"}));
}

#[test]
fn forbidden_keywords_are_dropped_or_rewritten() {
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "x",
        "title": "Thing",
        "type": "object",
        "readOnly": true,
        "writeOnly": false,
        "deprecated": true,
        "examples": [{}],
        "properties": {
            "c": {"const": "x"},
            "n": {"type": "number", "exclusiveMinimum": 0, "format": "double"},
            "u": {"type": "integer", "format": "uint32", "minimum": 0},
            "s": {"type": "integer", "format": "int16"},
            "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true},
            "objects": {"type": "array", "items": {"type": "object"}, "uniqueItems": true},
            "names": {"type": "object", "propertyNames": {"pattern": "^a"}, "additionalProperties": {"type": "string"}},
        },
        "$defs": {"Unused": {"type": "string"}},
    });
    assert_eq!(
        rewrite(schema),
        json!({"title": "Thing", "type": "object", "properties": {
            "c": {"type": "string", "enum": ["x"]},
            "n": {"type": "number", "minimum": 0, "exclusiveMinimum": true, "format": "double"},
            "u": {"type": "integer", "minimum": 0},
            "s": {"type": "integer", "format": "int32"},
            "tags": {"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "set"},
            "objects": {"type": "array", "items": {"type": "object"}},
            "names": {"type": "object", "additionalProperties": {"type": "string"}},
        }})
    );
}

#[test]
fn open_schemas_keep_unknown_fields() {
    assert_eq!(rewrite(json!({})), json!({"x-kubernetes-preserve-unknown-fields": true}));
    assert_eq!(rewrite(json!(true)), json!({"x-kubernetes-preserve-unknown-fields": true}));
    assert_eq!(
        rewrite(json!({"description": "Anything."})),
        json!({"description": "Anything.", "x-kubernetes-preserve-unknown-fields": true})
    );
    assert_eq!(
        rewrite(json!({"type": "object", "additionalProperties": true})),
        json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true})
    );
    assert_eq!(rewrite(json!({"type": "object", "additionalProperties": false})), json!({"type": "object"}));
    assert_eq!(
        rewrite(
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "string"}})
        ),
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "x-kubernetes-preserve-unknown-fields": true})
    );
}

#[test]
fn types_are_filled_in() {
    assert_eq!(
        rewrite(json!({"properties": {"a": {"enum": ["x", "y"]}}, "required": ["a"]})),
        json!({"type": "object", "properties": {"a": {"type": "string", "enum": ["x", "y"]}}, "required": ["a"]})
    );
    assert_eq!(rewrite(json!({"items": {"type": "boolean"}})), json!({"type": "array", "items": {"type": "boolean"}}));
}

#[test]
fn integers_or_strings_are_int_or_string() {
    let int_or_string = json!({"x-kubernetes-int-or-string": true, "anyOf": [{"type": "integer"}, {"type": "string"}]});
    assert_eq!(rewrite(json!({"anyOf": [{"type": "integer", "format": "int32"}, {"type": "string"}]})), int_or_string);
    assert_eq!(rewrite(json!({"oneOf": [{"type": "string"}, {"type": "integer"}]})), int_or_string);
    assert_eq!(rewrite(json!({"type": ["integer", "string", "null"]})), int_or_string);
    let k8s = json!({"description": "IntOrString.", "x-kubernetes-int-or-string": true});
    assert_eq!(rewrite(k8s.clone()), k8s);
}

#[test]
fn object_alternatives_are_hoisted() {
    // serde's external tagging, as schemars writes it.
    let schema = json!({
        "description": "A shape.",
        "oneOf": [
            {"type": "object", "properties": {"circle": {"type": "object", "properties": {"r": {"type": "number"}}}},
             "required": ["circle"], "additionalProperties": false},
            {"type": "object", "properties": {"square": {"type": "object", "properties": {"side": {"type": "number"}}}},
             "required": ["square"], "additionalProperties": false},
        ],
    });
    assert_eq!(
        rewrite(schema),
        json!({
            "description": "A shape.",
            "type": "object",
            "properties": {
                "circle": {"type": "object", "properties": {"r": {"type": "number"}}},
                "square": {"type": "object", "properties": {"side": {"type": "number"}}},
            },
            "anyOf": [{"required": ["circle"]}, {"required": ["square"]}],
        })
    );
    // Internal tagging: the tag's values unite.
    let schema = json!({"oneOf": [
        {"type": "object", "properties": {"kind": {"type": "string", "const": "A"}, "a": {"type": "string"}}, "required": ["kind"]},
        {"type": "object", "properties": {"kind": {"type": "string", "const": "B"}}, "required": ["kind"]},
    ]});
    assert_eq!(
        rewrite(schema),
        json!({"type": "object", "properties": {
            "kind": {"type": "string", "enum": ["A", "B"]},
            "a": {"type": "string"},
        }, "required": ["kind"]})
    );
    // Mixed shapes have no one structure: anything goes.
    let schema = json!({"oneOf": [{"type": "string", "enum": ["unit"]}, {"type": "object", "required": ["data"]}]});
    assert_eq!(rewrite(schema), json!({"x-kubernetes-preserve-unknown-fields": true}));
}

#[test]
fn all_of_adds_up_and_tuples_become_lists() {
    let schema = json!({"allOf": [
        {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
        {"properties": {"b": {"type": "boolean"}}, "required": ["b"]},
    ]});
    assert_eq!(
        rewrite(schema),
        json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "boolean"}}, "required": ["a", "b"]})
    );
    let tuple = json!({"type": "array", "prefixItems": [{"type": "integer"}, {"type": "integer"}], "items": false,
        "minItems": 2, "maxItems": 2});
    assert_eq!(rewrite(tuple), json!({"type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "integer"}}));
    let mixed = json!({"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}]});
    assert_eq!(
        rewrite(mixed),
        json!({"type": "array", "items": {"x-kubernetes-int-or-string": true, "anyOf": [{"type": "integer"}, {"type": "string"}]}})
    );
}

#[test]
fn defaults_lose_their_nulls() {
    let schema = json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
        "default": {"a": "x", "b": null}});
    assert_eq!(
        rewrite(schema),
        json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "default": {"a": "x"}})
    );
    assert_eq!(rewrite(json!({"type": "string", "default": null})), json!({"type": "string"}));
}
