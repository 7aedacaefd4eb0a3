//! Restrictions on the root of an `openAPIV3Schema`: the keywords allowed
//! when the status subresource is enabled, and `nullable`.

use crate::field::{FieldError, Path};
use crate::gofmt;
use crate::wire::JSONSchemaProps;

/// The Go field names allowed at the root with the status subresource, as
/// Kubernetes prints them.
const ALLOWED_AT_ROOT: [&str; 22] = [
    "Description",
    "Type",
    "Format",
    "Title",
    "Maximum",
    "ExclusiveMaximum",
    "Minimum",
    "ExclusiveMinimum",
    "MaxLength",
    "MinLength",
    "Pattern",
    "MaxItems",
    "MinItems",
    "UniqueItems",
    "MultipleOf",
    "Required",
    "Items",
    "Properties",
    "ExternalDocs",
    "Example",
    "XPreserveUnknownFields",
    "XValidations",
];

// With the status subresource enabled, the root's keywords are visited in
// the field order of Kubernetes' internal JSONSchemaProps, skipping zero
// values (`""`, `false`, absent; an explicitly empty list or map and an
// explicit `false` pointer are not zero). The first offending keyword gives
// one error and stops: a `type` other than `object`, or any keyword outside
// ALLOWED_AT_ROOT (reported on the whole schema).
pub(super) fn status_restriction(block: &Path, schema: &JSONSchemaProps) -> Option<FieldError> {
    for (name, set) in set_fields(schema) {
        if !set {
            continue;
        }
        if name == "Type" {
            if schema.type_ != "object" {
                let detail = "only \"object\" is allowed as the type at the root of the schema if the status subresource is enabled";
                return Some(FieldError::invalid(&block.child("openAPIV3Schema.type"), schema.type_.as_str(), detail));
            }
            continue;
        }
        if !ALLOWED_AT_ROOT.contains(&name) {
            let detail = format!(
                "only [{}] fields are allowed at the root of the schema if the status subresource is enabled",
                ALLOWED_AT_ROOT.join(" ")
            );
            // Kubernetes dumps its internal Go structure here (with pointer
            // addresses); the schema's JSON is the reproducible stand-in.
            let shown = gofmt::json(&schema.to_value());
            return Some(FieldError::invalid_rendered(&block.child("openAPIV3Schema"), shown, detail));
        }
    }
    None
}

// `nullable: true` is forbidden at the root.
pub(super) fn nullable_at_root(block: &Path, schema: &JSONSchemaProps) -> Option<FieldError> {
    schema
        .nullable
        .then(|| FieldError::forbidden(&block.child("openAPIV3Schema.nullable"), "nullable cannot be true at the root"))
}

/// Every field of the internal JSONSchemaProps in declaration order, with
/// whether it holds a non-zero value.
fn set_fields(s: &JSONSchemaProps) -> [(&'static str, bool); 44] {
    [
        ("ID", !s.id.is_empty()),
        ("Schema", !s.schema.is_empty()),
        ("Ref", s.ref_.is_some()),
        ("Description", !s.description.is_empty()),
        ("Type", !s.type_.is_empty()),
        ("Nullable", s.nullable),
        ("Format", !s.format.is_empty()),
        ("Title", !s.title.is_empty()),
        ("Default", s.default.is_some()),
        ("Maximum", s.maximum.is_some()),
        ("ExclusiveMaximum", s.exclusive_maximum),
        ("Minimum", s.minimum.is_some()),
        ("ExclusiveMinimum", s.exclusive_minimum),
        ("MaxLength", s.max_length.is_some()),
        ("MinLength", s.min_length.is_some()),
        ("Pattern", !s.pattern.is_empty()),
        ("MaxItems", s.max_items.is_some()),
        ("MinItems", s.min_items.is_some()),
        ("UniqueItems", s.unique_items),
        ("MultipleOf", s.multiple_of.is_some()),
        ("Enum", s.enum_.is_some()),
        ("MaxProperties", s.max_properties.is_some()),
        ("MinProperties", s.min_properties.is_some()),
        ("Required", s.required.is_some()),
        ("Items", s.items.is_some()),
        ("AllOf", s.all_of.is_some()),
        ("OneOf", s.one_of.is_some()),
        ("AnyOf", s.any_of.is_some()),
        ("Not", s.not.is_some()),
        ("Properties", s.properties.is_some()),
        ("AdditionalProperties", s.additional_properties.is_some()),
        ("PatternProperties", s.pattern_properties.is_some()),
        ("Dependencies", s.dependencies.is_some()),
        ("AdditionalItems", s.additional_items.is_some()),
        ("Definitions", s.definitions.is_some()),
        ("ExternalDocs", s.external_docs.is_some()),
        ("Example", s.example.is_some()),
        ("XPreserveUnknownFields", s.x_preserve_unknown_fields.is_some()),
        ("XEmbeddedResource", s.x_embedded_resource),
        ("XIntOrString", s.x_int_or_string),
        ("XListMapKeys", s.x_list_map_keys.is_some()),
        ("XListType", s.x_list_type.is_some()),
        ("XMapType", s.x_map_type.is_some()),
        ("XValidations", s.x_validations.is_some()),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(v: serde_json::Value) -> Option<String> {
        let schema = JSONSchemaProps::from_value(&v).unwrap();
        status_restriction(&Path::new("spec").child("validation"), &schema).map(|e| e.to_string())
    }

    #[test]
    fn first_offending_keyword_wins() {
        assert_eq!(
            check(json!({"type": "array", "enum": []})).as_deref(),
            Some(
                "spec.validation.openAPIV3Schema.type: Invalid value: \"array\": only \"object\" is allowed as the type at the root of the schema if the status subresource is enabled"
            )
        );
        let e = check(json!({"type": "object", "enum": []})).unwrap();
        assert!(e.starts_with("spec.validation.openAPIV3Schema: Invalid value: "), "{e}");
        assert!(e.ends_with(": only [Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations] fields are allowed at the root of the schema if the status subresource is enabled"), "{e}");
        // `id` comes before `type`, so the dump error wins over the type error.
        assert!(check(json!({"id": "x", "type": "array"})).unwrap().starts_with("spec.validation.openAPIV3Schema: "));
    }

    #[test]
    fn allowed_and_zero_keywords_pass() {
        let v = json!({"type": "object", "description": "d", "required": [], "properties": {},
            "x-kubernetes-preserve-unknown-fields": false, "x-kubernetes-validations": [], "nullable": false, "format": ""});
        assert_eq!(check(v), None);
        assert_eq!(check(json!({"type": ""})), None);
    }
}
