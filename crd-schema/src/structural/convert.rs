//! Conversion of a wire schema to the structural form, as `NewStructural`
//! in `convert.go`.
//!
//! The first failure wins; the order per node is: the unsupported keywords
//! (`id`, `$schema`, `$ref`, `patternProperties`, `dependencies`,
//! `additionalItems`, `definitions`), the junctors (`not`, `allOf`, `anyOf`,
//! `oneOf`, recursively), `x-kubernetes-preserve-unknown-fields`, then
//! `items`, `properties` and `additionalProperties`.

use super::{
    Extensions, Generic, NestedValueValidation, Structural, StructuralOrBool, ValidationExtensions, ValueValidation,
};
use crate::wire::{DecodeIssue, JSONSchemaProps, SchemaOrArray, SchemaOrBool};

/// Why a schema has no structural form: the errors of `NewStructural`,
/// displayed with Kubernetes' text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConversionError {
    /// A keyword CRD schemas may not use (`id`, `schema`, `$ref`,
    /// `patternProperties`, `dependencies`, `additionalItems`,
    /// `definitions`).
    #[error("OpenAPIV3Schema '{keyword}' is not supported")]
    Unsupported {
        /// The keyword, as Kubernetes names it (`schema` for `$schema`).
        keyword: &'static str,
    },
    /// `items` holds an array of schemas (the tuple form).
    #[error("OpenAPIV3Schema 'items' must be a schema, but is an array")]
    ItemsArray,
    /// `x-kubernetes-preserve-unknown-fields: false`, which a validated CRD
    /// never holds.
    #[error("internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined")]
    PreserveUnknownFieldsFalse,
    /// The JSON does not decode as a schema ([`Structural::from_json`]
    /// only): the first decoding problem.
    #[error(transparent)]
    Decode(#[from] DecodeIssue),
}

/// Converts a schema to the structural form. Fails with Kubernetes' text
/// (`OpenAPIV3Schema 'id' is not supported`, ...).
pub fn new_structural(schema: &JSONSchemaProps) -> Result<Structural, ConversionError> {
    check_unsupported(schema)?;
    let value_validation = new_value_validation(schema)?;
    let extensions = new_extensions(schema)?;
    let mut s = Structural {
        generic: new_generic(schema),
        extensions,
        validation_extensions: new_validation_extensions(schema),
        value_validation,
        ..Structural::default()
    };
    if let Some(items) = &schema.items {
        s.items = Some(Box::new(new_structural(single_schema(items)?)?));
    }
    // An empty properties map is dropped at the structural level.
    s.properties.reserve_exact(schema.properties.as_ref().map_or(0, Vec::len));
    for (name, property) in schema.properties.iter().flatten() {
        s.properties.push((name.clone(), new_structural(property)?));
    }
    s.additional_properties = match &schema.additional_properties {
        None => None,
        Some(SchemaOrBool::Bool(b)) => Some(StructuralOrBool::Bool(*b)),
        Some(SchemaOrBool::Schema(x)) => Some(StructuralOrBool::Structural(Box::new(new_structural(x)?))),
    };
    Ok(s)
}

/// Converts a schema found under a junctor, keeping the keywords that are
/// forbidden there so they can be reported. Inside junctors
/// `additionalProperties: false` is dropped and `true` becomes an empty
/// schema.
pub fn new_nested_value_validation(schema: &JSONSchemaProps) -> Result<NestedValueValidation, ConversionError> {
    check_unsupported(schema)?;
    let value_validation = new_value_validation(schema)?;
    let forbidden_extensions = new_extensions(schema)?;
    let mut v = NestedValueValidation {
        value_validation,
        validation_extensions: new_validation_extensions(schema),
        forbidden_generics: new_generic(schema),
        forbidden_extensions,
        ..NestedValueValidation::default()
    };
    if let Some(items) = &schema.items {
        v.items = Some(Box::new(new_nested_value_validation(single_schema(items)?)?));
    }
    // Unlike the structural level, an explicitly empty map is kept here.
    if let Some(properties) = &schema.properties {
        let converted: Result<Vec<_>, ConversionError> = properties
            .iter()
            .map(|(name, property)| Ok((name.clone(), new_nested_value_validation(property)?)))
            .collect();
        v.properties = Some(converted?);
    }
    v.additional_properties = match &schema.additional_properties {
        None | Some(SchemaOrBool::Bool(false)) => None,
        Some(SchemaOrBool::Bool(true)) => Some(Box::default()),
        Some(SchemaOrBool::Schema(x)) => Some(Box::new(new_nested_value_validation(x)?)),
    };
    Ok(v)
}

// The keywords a CRD schema may not use at all. API validation rejects
// them earlier; the conversion fails on them so that no schema holding
// them is ever treated as structural. Empty strings and maps count as
// absent; `additionalItems` counts whenever present.
fn check_unsupported(s: &JSONSchemaProps) -> Result<(), ConversionError> {
    let non_empty_map = |m: Option<usize>| m.is_some_and(|n| n > 0);
    let unsupported = [
        ("id", !s.id.is_empty()),
        ("schema", !s.schema.is_empty()),
        ("$ref", s.ref_.as_ref().is_some_and(|r| !r.is_empty())),
        ("patternProperties", non_empty_map(s.pattern_properties.as_ref().map(Vec::len))),
        ("dependencies", non_empty_map(s.dependencies.as_ref().map(Vec::len))),
        ("additionalItems", s.additional_items.is_some()),
        ("definitions", non_empty_map(s.definitions.as_ref().map(Vec::len))),
    ];
    match unsupported.iter().find(|(_, present)| *present) {
        Some((keyword, _)) => Err(ConversionError::Unsupported { keyword }),
        None => Ok(()),
    }
}

// `items` must hold one schema; the tuple form (an array) is rejected.
fn single_schema(items: &SchemaOrArray) -> Result<&JSONSchemaProps, ConversionError> {
    match items {
        SchemaOrArray::Schema(s) => Ok(s),
        SchemaOrArray::Array(_) => Err(ConversionError::ItemsArray),
    }
}

// The value validations of a node. The junctors are converted in the order
// `not`, `allOf`, `anyOf`, `oneOf`; empty `enum` and junctor lists vanish.
fn new_value_validation(s: &JSONSchemaProps) -> Result<ValueValidation, ConversionError> {
    let not = match &s.not {
        Some(x) => Some(Box::new(new_nested_value_validation(x)?)),
        None => None,
    };
    let all_of = new_junctor(s.all_of.as_deref())?;
    let any_of = new_junctor(s.any_of.as_deref())?;
    let one_of = new_junctor(s.one_of.as_deref())?;
    Ok(ValueValidation {
        format: s.format.clone(),
        maximum: s.maximum,
        exclusive_maximum: s.exclusive_maximum,
        minimum: s.minimum,
        exclusive_minimum: s.exclusive_minimum,
        max_length: s.max_length,
        min_length: s.min_length,
        pattern: s.pattern.clone(),
        max_items: s.max_items,
        min_items: s.min_items,
        unique_items: s.unique_items,
        multiple_of: s.multiple_of,
        enum_: s.enum_.clone().unwrap_or_default(),
        max_properties: s.max_properties,
        min_properties: s.min_properties,
        required: s.required.clone(),
        all_of,
        one_of,
        any_of,
        not,
    })
}

fn new_junctor(schemas: Option<&[JSONSchemaProps]>) -> Result<Vec<NestedValueValidation>, ConversionError> {
    schemas.unwrap_or_default().iter().map(new_nested_value_validation).collect()
}

fn new_generic(s: &JSONSchemaProps) -> Generic {
    Generic {
        description: s.description.clone(),
        type_: s.type_.clone(),
        title: s.title.clone(),
        default: s.default.clone(),
        nullable: s.nullable,
        external_docs: s.external_docs.clone(),
        example: s.example.clone(),
    }
}

// `x-kubernetes-preserve-unknown-fields` is either `true` or absent in a
// validated CRD; an explicit `false` is an internal error.
fn new_extensions(s: &JSONSchemaProps) -> Result<Extensions, ConversionError> {
    if s.x_preserve_unknown_fields == Some(false) {
        return Err(ConversionError::PreserveUnknownFieldsFalse);
    }
    Ok(Extensions {
        x_preserve_unknown_fields: s.x_preserve_unknown_fields == Some(true),
        x_embedded_resource: s.x_embedded_resource,
        x_int_or_string: s.x_int_or_string,
        x_list_map_keys: s.x_list_map_keys.clone(),
        x_list_type: s.x_list_type.clone(),
        x_map_type: s.x_map_type.clone(),
    })
}

fn new_validation_extensions(s: &JSONSchemaProps) -> ValidationExtensions {
    ValidationExtensions { x_validations: s.x_validations.clone() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn convert(v: Value) -> Result<Structural, String> {
        new_structural(&JSONSchemaProps::from_value(&v).unwrap()).map_err(|e| e.to_string())
    }

    #[test]
    fn conversion_error_display_is_kubernetes_text() {
        let unsupported = new_structural(&JSONSchemaProps::from_value(&json!({"id": "x"})).unwrap()).unwrap_err();
        assert_eq!(unsupported, ConversionError::Unsupported { keyword: "id" });
        assert_eq!(unsupported.to_string(), "OpenAPIV3Schema 'id' is not supported");
        assert_eq!(
            ConversionError::ItemsArray.to_string(),
            "OpenAPIV3Schema 'items' must be a schema, but is an array"
        );
        let decode = Structural::from_json(&json!({"type": 1})).unwrap_err();
        assert!(matches!(decode, ConversionError::Decode(_)));
        assert_eq!(decode.to_string(), ".type: cannot decode: expected a string");
    }

    #[test]
    fn unsupported_keywords_in_order() {
        let err = convert(json!({"id": "x", "$ref": "#/a", "definitions": {"a": {}}})).unwrap_err();
        assert_eq!(err, "OpenAPIV3Schema 'id' is not supported");
        assert_eq!(convert(json!({"$schema": "s"})).unwrap_err(), "OpenAPIV3Schema 'schema' is not supported");
        assert_eq!(
            convert(json!({"additionalItems": true})).unwrap_err(),
            "OpenAPIV3Schema 'additionalItems' is not supported"
        );
        assert!(convert(json!({"$ref": "", "patternProperties": {}, "dependencies": {}, "definitions": {}})).is_ok());
    }

    #[test]
    fn nested_failures_surface() {
        let err = convert(json!({"properties": {"a": {"items": [{}]}}})).unwrap_err();
        assert_eq!(err, "OpenAPIV3Schema 'items' must be a schema, but is an array");
        let err = convert(json!({"anyOf": [{"x-kubernetes-preserve-unknown-fields": false}]})).unwrap_err();
        assert_eq!(err, "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined");
    }

    #[test]
    fn junctors_come_before_items() {
        let err = convert(json!({"items": [{}], "not": {"id": "x"}})).unwrap_err();
        assert_eq!(err, "OpenAPIV3Schema 'id' is not supported");
    }

    #[test]
    fn empties_are_normalised_like_kubernetes() {
        let s = convert(json!({"type": "object", "properties": {}, "enum": [], "allOf": [], "required": []})).unwrap();
        assert!(s.properties.is_empty());
        assert!(s.value_validation.enum_.is_empty());
        assert!(s.value_validation.all_of.is_empty());
        assert_eq!(s.value_validation.required, Some(vec![]));
    }

    #[test]
    fn nested_additional_properties() {
        let s = convert(json!({"allOf": [{"additionalProperties": false}, {"additionalProperties": true},
            {"additionalProperties": {"minLength": 1}, "properties": {}}]}))
        .unwrap();
        let all_of = &s.value_validation.all_of;
        assert_eq!(all_of[0].additional_properties, None);
        assert_eq!(all_of[1].additional_properties, Some(Box::default()));
        assert_eq!(all_of[2].additional_properties.as_ref().unwrap().value_validation.min_length, Some(1));
        assert_eq!(all_of[2].properties, Some(vec![]));
    }

    #[test]
    fn structure_is_kept_in_order() {
        let s = convert(json!({"type": "object", "properties": {"z": {"type": "string"}, "a": {"type": "array",
            "items": {"type": "integer"}}}, "x-kubernetes-preserve-unknown-fields": true}))
        .unwrap();
        assert_eq!(s.properties[0].0, "z");
        assert_eq!(s.properties[1].1.items.as_ref().unwrap().generic.type_, "integer");
        assert!(s.extensions.x_preserve_unknown_fields);
    }
}
