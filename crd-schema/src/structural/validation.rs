//! The structural invariants, as `validateStructuralInvariants` and its
//! helpers in `validation.go`.
//!
//! Every node of the structural tree is checked with its [`Level`]; the
//! schemas under junctors are checked for keywords a structural schema
//! forbids there. Errors come in Kubernetes' walk order (properties in the
//! author's order); [`super::validate_structural`] sorts them.

use super::{Extensions, Level, NestedValueValidation, Structural, ValidationOptions, ValueValidation};
use crate::field::{ErrorList, FieldError, Path};

const METADATA_DETAIL: &str =
    "must not specify anything other than name and generateName, but metadata is implicitly specified";

/// The invariants of `s` and everything below it (not completeness), in
/// walk order, for a node at `level` under `path`.
pub fn validate_structural_invariants(
    path: &Path,
    s: &Structural,
    level: Level,
    options: &ValidationOptions,
) -> ErrorList {
    let mut errors = ErrorList::new();
    check_children(path, s, level, options, &mut errors);
    check_extensions(path, &s.extensions, &mut errors);
    let vv = &s.value_validation;
    let skip_any_of = is_int_or_string_any_of(&vv.any_of);
    let skip_first_all_of_any_of =
        vv.all_of.first().is_some_and(|x| is_int_or_string_any_of(&x.value_validation.any_of));
    check_value_validation(path, vv, skip_any_of, skip_first_all_of_any_of, options, &mut errors);
    check_type(path, s, level, &mut errors);
    check_meta_context(path, s, level, &mut errors);
    // An embedded resource must say what it holds: properties, or
    // x-kubernetes-preserve-unknown-fields.
    if s.extensions.x_embedded_resource && !s.extensions.x_preserve_unknown_fields && s.properties.is_empty() {
        errors.push(FieldError::required(
            &path.child("properties"),
            "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields",
        ));
    }
    errors
}

// An array needs `items`. The recursion visits `items` (item level), each
// property and the `additionalProperties` schema (field level).
// `additionalProperties` (any value, also `false`) is forbidden at the root.
fn check_children(path: &Path, s: &Structural, level: Level, options: &ValidationOptions, errors: &mut ErrorList) {
    if s.generic.type_ == "array" && s.items.is_none() {
        errors.push(FieldError::required(&path.child("items"), "must be specified"));
    }
    if let Some(items) = &s.items {
        errors.extend(validate_structural_invariants(&path.child("items"), items, Level::Item, options));
    }
    for (name, property) in &s.properties {
        let p = path.child("properties").key(name.as_str());
        errors.extend(validate_structural_invariants(&p, property, Level::Field, options));
    }
    if s.additional_properties.is_some() && level == Level::Root {
        errors.push(FieldError::forbidden(&path.child("additionalProperties"), "must not be used at the root"));
    }
    if let Some(schema) = s.additional_properties_schema() {
        let p = path.child("additionalProperties");
        errors.extend(validate_structural_invariants(&p, schema, Level::Field, options));
    }
}

// x-kubernetes-int-or-string excludes x-kubernetes-preserve-unknown-fields
// and x-kubernetes-embedded-resource.
fn check_extensions(path: &Path, x: &Extensions, errors: &mut ErrorList) {
    const DETAIL: &str = "must be false if x-kubernetes-int-or-string is true";
    if x.x_int_or_string && x.x_preserve_unknown_fields {
        errors.push(FieldError::invalid(&path.child("x-kubernetes-preserve-unknown-fields"), true, DETAIL));
    }
    if x.x_int_or_string && x.x_embedded_resource {
        errors.push(FieldError::invalid(&path.child("x-kubernetes-embedded-resource"), true, DETAIL));
    }
}

// Whether a junctor list is exactly `[{type: integer}, {type: string}]`
// (branches holding nothing else). Such an `anyOf` is exempt from the
// junctor checks, whether or not x-kubernetes-int-or-string is set.
pub(crate) fn is_int_or_string_any_of(any_of: &[NestedValueValidation]) -> bool {
    let only_type = |v: &NestedValueValidation, t: &str| {
        let mut expected = NestedValueValidation::default();
        expected.forbidden_generics.type_ = t.to_owned();
        *v == expected
    };
    matches!(any_of, [a, b] if only_type(a, "integer") && only_type(b, "string"))
}

// The junctors of a node: every schema under `anyOf`, `allOf`, `oneOf` and
// `not` is checked for forbidden keywords. x-kubernetes-validations may
// appear (with the option) only under `allOf`. The int-or-string `anyOf`
// of the node, or of its first `allOf` entry, is skipped. A `pattern` must
// be a valid Go (RE2) regular expression.
fn check_value_validation(
    path: &Path,
    v: &ValueValidation,
    skip_any_of: bool,
    skip_first_all_of_any_of: bool,
    options: &ValidationOptions,
    errors: &mut ErrorList,
) {
    let no_cel = ValidationOptions { allow_nested_x_validations: false, ..*options };
    if !skip_any_of {
        for (i, x) in v.any_of.iter().enumerate() {
            check_nested(&path.child("anyOf").index(i), x, false, false, &no_cel, errors);
        }
    }
    for (i, x) in v.all_of.iter().enumerate() {
        let skip = skip_first_all_of_any_of && i == 0;
        check_nested(&path.child("allOf").index(i), x, skip, false, options, errors);
    }
    for (i, x) in v.one_of.iter().enumerate() {
        check_nested(&path.child("oneOf").index(i), x, false, false, &no_cel, errors);
    }
    if let Some(not) = &v.not {
        check_nested(&path.child("not"), not, false, false, &no_cel, errors);
    }
    if !v.pattern.is_empty()
        && let Err(e) = crate::goregexp::check(&v.pattern)
    {
        let detail = format!("must be a valid regular expression, but isn't: {e}");
        errors.push(FieldError::invalid(&path.child("pattern"), v.pattern.as_str(), detail));
    }
}

/// The checks of one schema found under a junctor (`nested`, at `path`),
/// including everything below it: forbidden generics and extensions,
/// `metadata` properties, nested junctors and patterns.
pub fn validate_nested_value_validation(
    path: &Path,
    nested: &NestedValueValidation,
    options: &ValidationOptions,
) -> ErrorList {
    let mut errors = ErrorList::new();
    check_nested(path, nested, false, false, options, &mut errors);
    errors
}

// A schema under a junctor: its own junctors, then `items` and
// `properties`, then the keywords it may not hold. `additionalProperties`
// is forbidden unless allowed by the options (then it is recursed into).
fn check_nested(
    path: &Path,
    v: &NestedValueValidation,
    skip_any_of: bool,
    skip_all_of_any_of: bool,
    options: &ValidationOptions,
    errors: &mut ErrorList,
) {
    check_value_validation(path, &v.value_validation, skip_any_of, skip_all_of_any_of, options, errors);
    if let Some(items) = &v.items {
        check_nested(&path.child("items"), items, false, false, options, errors);
    }
    for (name, property) in v.properties() {
        check_nested(&path.child("properties").key(name.as_str()), property, false, false, options, errors);
    }
    if !v.forbidden_generics.type_.is_empty() {
        errors.push(FieldError::forbidden(&path.child("type"), "must be empty to be structural"));
    }
    if let Some(additional) = &v.additional_properties {
        let p = path.child("additionalProperties");
        if options.allow_nested_additional_properties {
            check_nested(&p, additional, false, false, options, errors);
        } else {
            errors.push(FieldError::forbidden(&p, "must be undefined to be structural"));
        }
    }
    check_forbidden_generics(path, v, errors);
    check_forbidden_extensions(path, &v.forbidden_extensions, errors);
    if v.validation_extensions.x_validations.as_ref().is_some_and(|r| !r.is_empty())
        && !options.allow_nested_x_validations
    {
        errors.push(FieldError::forbidden(&path.child("x-kubernetes-validations"), "must be empty to be structural"));
    }
    // Reasoning about metadata inside junctors could restrict it in ways the
    // API server does not want; a property named metadata is forbidden at
    // any depth.
    if v.properties().iter().any(|(name, _)| name == "metadata") {
        let p = path.child("properties").key("metadata");
        errors.push(FieldError::forbidden(&p, "must not be specified in a nested context"));
    }
}

// Under a junctor `default`, `title`, `description` and `nullable` are
// forbidden (`type` is checked by the caller); `externalDocs` and
// `example` are allowed.
fn check_forbidden_generics(path: &Path, v: &NestedValueValidation, errors: &mut ErrorList) {
    let g = &v.forbidden_generics;
    if g.default.is_some() {
        errors.push(FieldError::forbidden(&path.child("default"), "must be undefined to be structural"));
    }
    if !g.title.is_empty() {
        errors.push(FieldError::forbidden(&path.child("title"), "must be empty to be structural"));
    }
    if !g.description.is_empty() {
        errors.push(FieldError::forbidden(&path.child("description"), "must be empty to be structural"));
    }
    if g.nullable {
        errors.push(FieldError::forbidden(&path.child("nullable"), "must be false to be structural"));
    }
}

// Under a junctor every x-kubernetes-* extension that shapes values is
// forbidden: booleans must be false, map keys empty, list and map types
// undefined.
fn check_forbidden_extensions(path: &Path, x: &Extensions, errors: &mut ErrorList) {
    let flags = [
        ("x-kubernetes-preserve-unknown-fields", x.x_preserve_unknown_fields),
        ("x-kubernetes-embedded-resource", x.x_embedded_resource),
        ("x-kubernetes-int-or-string", x.x_int_or_string),
    ];
    for (name, set) in flags {
        if set {
            errors.push(FieldError::forbidden(&path.child(name), "must be false to be structural"));
        }
    }
    if x.x_list_map_keys.as_ref().is_some_and(|k| !k.is_empty()) {
        errors.push(FieldError::forbidden(&path.child("x-kubernetes-list-map-keys"), "must be empty to be structural"));
    }
    if x.x_list_type.is_some() {
        errors.push(FieldError::forbidden(&path.child("x-kubernetes-list-type"), "must be undefined to be structural"));
    }
    if x.x_map_type.is_some() {
        errors.push(FieldError::forbidden(&path.child("x-kubernetes-map-type"), "must be undefined to be structural"));
    }
}

// The type of a node. An embedded resource must be an object. Otherwise a
// type is required unless x-kubernetes-int-or-string or
// x-kubernetes-preserve-unknown-fields stands in for it; the detail names
// the level. An embedded resource may not have additionalProperties, and
// the root must be an object.
fn check_type(path: &Path, s: &Structural, level: Level, errors: &mut ErrorList) {
    let t = s.generic.type_.as_str();
    let x = &s.extensions;
    let type_path = path.child("type");
    if x.x_embedded_resource && t != "object" {
        const DETAIL: &str = "must be object if x-kubernetes-embedded-resource is true";
        errors.push(if t.is_empty() {
            FieldError::required(&type_path, DETAIL)
        } else {
            FieldError::invalid(&type_path, t, DETAIL)
        });
    } else if t.is_empty() && !x.x_int_or_string && !x.x_preserve_unknown_fields {
        let detail = match level {
            Level::Root => "must not be empty at the root",
            Level::Item => "must not be empty for specified array items",
            Level::Field => "must not be empty for specified object fields",
        };
        errors.push(FieldError::required(&type_path, detail));
    }
    if x.x_embedded_resource && s.additional_properties.is_some() {
        let p = path.child("additionalProperties");
        errors.push(FieldError::forbidden(&p, "must not be used if x-kubernetes-embedded-resource is set"));
    }
    if level == Level::Root && !t.is_empty() && t != "object" {
        errors.push(FieldError::invalid(&type_path, t, "must be object at the root"));
    }
}

// At the root and directly inside an embedded resource ("meta context"),
// `kind` and `apiVersion` must be strings. A `metadata` property is checked
// by `validate_metadata_invariants` wherever it appears (it only restricts
// anything in meta context).
fn check_meta_context(path: &Path, s: &Structural, level: Level, errors: &mut ErrorList) {
    let check_metadata = level == Level::Root || s.extensions.x_embedded_resource;
    if check_metadata {
        for name in ["kind", "apiVersion"] {
            if let Some(p) = s.property(name)
                && p.generic.type_ != "string"
            {
                let at = path.child("properties").key(name).child("type");
                errors.push(FieldError::invalid(&at, p.generic.type_.as_str(), "must be string"));
            }
        }
    }
    if let Some(metadata) = s.property("metadata") {
        let p = path.child("properties").key("metadata");
        errors.extend(validate_metadata_invariants(&p, metadata, check_metadata, level));
    }
}

/// The checks of a `metadata` property's schema (`metadata`, at `path`)
/// whose parent node is at `level`. With `check_metadata` (the parent is
/// the root or an embedded resource) its type must be `object`. Under the
/// root it may moreover hold nothing but `type`, `default` and properties
/// `name` and/or `generateName`.
pub fn validate_metadata_invariants(
    path: &Path,
    metadata: &Structural,
    check_metadata: bool,
    level: Level,
) -> ErrorList {
    let mut errors = ErrorList::new();
    let t = metadata.generic.type_.as_str();
    if check_metadata && t != "object" {
        errors.push(FieldError::invalid(&path.child("type"), t, "must be object"));
    }
    if level == Level::Root && !only_name_and_generate_name(metadata) {
        errors.push(FieldError::forbidden(path, METADATA_DETAIL));
    }
    errors
}

// Whether a root metadata schema restricts nothing but `name` and
// `generateName`: with `type`, `default` (validated elsewhere) and a
// property set of exactly {name}, {generateName} or {name, generateName}
// removed, nothing else may remain.
fn only_name_and_generate_name(metadata: &Structural) -> bool {
    let names: Vec<&str> = metadata.properties.iter().map(|(k, _)| k.as_str()).collect();
    let allowed =
        matches!(names.as_slice(), ["name"] | ["generateName"] | ["name", "generateName"] | ["generateName", "name"]);
    let rest = Structural {
        properties: Vec::new(),
        items: metadata.items.clone(),
        additional_properties: metadata.additional_properties.clone(),
        generic: super::Generic { type_: String::new(), default: None, ..metadata.generic.clone() },
        extensions: metadata.extensions.clone(),
        validation_extensions: metadata.validation_extensions.clone(),
        value_validation: metadata.value_validation.clone(),
        derived: super::Derived::default(),
    };
    (allowed || metadata.properties.is_empty()) && rest == Structural::default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::structural::new_nested_value_validation;
    use crate::wire::JSONSchemaProps;
    use serde_json::{Value, json};

    fn structural(v: Value) -> Structural {
        Structural::from_json(&v).unwrap()
    }

    fn invariants(v: Value) -> Vec<String> {
        let s = structural(v);
        let mut got: Vec<String> = validate_structural_invariants(&Path::root(), &s, Level::Root, &Default::default())
            .iter()
            .map(ToString::to_string)
            .collect();
        got.sort();
        got
    }

    fn nested(v: Value, options: ValidationOptions) -> Vec<String> {
        let n = new_nested_value_validation(&JSONSchemaProps::from_value(&v).unwrap()).unwrap();
        validate_nested_value_validation(&Path::root(), &n, &options).iter().map(ToString::to_string).collect()
    }

    fn metadata(v: Value) -> Vec<String> {
        validate_metadata_invariants(&Path::root(), &structural(v), true, Level::Root)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn type_rules_by_level() {
        assert_eq!(invariants(json!({})), vec!["type: Required value: must not be empty at the root"]);
        assert_eq!(
            invariants(json!({"type": "array"})),
            vec![
                "items: Required value: must be specified",
                "type: Invalid value: \"array\": must be object at the root"
            ]
        );
        assert_eq!(
            invariants(json!({"type": "object", "properties": {"a": {"type": "array", "items": {}}}})),
            vec!["properties[a].items.type: Required value: must not be empty for specified array items"]
        );
        assert!(
            invariants(json!({"type": "object", "properties": {"a": {"x-kubernetes-int-or-string": true}}})).is_empty()
        );
    }

    #[test]
    fn additional_properties_at_root_and_in_embedded_resources() {
        assert_eq!(
            invariants(json!({"type": "object", "additionalProperties": false})),
            vec!["additionalProperties: Forbidden: must not be used at the root"]
        );
        let got = invariants(json!({"type": "object", "properties": {"e": {"type": "object",
            "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true,
            "additionalProperties": {"type": "string"}}}}));
        assert_eq!(
            got,
            vec![
                "properties[e].additionalProperties: Forbidden: must not be used if x-kubernetes-embedded-resource is set"
            ]
        );
    }

    #[test]
    fn embedded_resources() {
        let got = invariants(json!({"type": "object", "properties": {"a": {"x-kubernetes-int-or-string": true,
            "x-kubernetes-embedded-resource": true}}}));
        assert_eq!(
            got,
            vec![
                "properties[a].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields",
                "properties[a].type: Required value: must be object if x-kubernetes-embedded-resource is true",
                "properties[a].x-kubernetes-embedded-resource: Invalid value: true: must be false if x-kubernetes-int-or-string is true",
            ]
        );
    }

    #[test]
    fn meta_context_only_at_root_and_in_embedded_resources() {
        assert_eq!(
            invariants(
                json!({"type": "object", "properties": {"kind": {"x-kubernetes-preserve-unknown-fields": true}}})
            ),
            vec!["properties[kind].type: Invalid value: \"\": must be string"]
        );
        assert!(
            invariants(json!({"type": "object", "properties": {"a": {"type": "object", "properties": {
                "metadata": {"type": "string"}, "kind": {"type": "integer"}}}}}))
            .is_empty()
        );
    }

    #[test]
    fn int_or_string_exception_by_shape() {
        let ok = json!({"type": "object", "properties": {"a": {"type": "string", "anyOf": [{"type": "integer"}, {"type": "string"}]}}});
        assert!(invariants(ok).is_empty());
        let all_of = json!({"type": "object", "properties": {"a": {"x-kubernetes-int-or-string": true,
            "allOf": [{"anyOf": [{"type": "integer"}, {"type": "string"}]}]}}});
        assert!(invariants(all_of).is_empty());
        let extra = json!({"type": "object", "properties": {"a": {"x-kubernetes-int-or-string": true,
            "anyOf": [{"type": "integer", "minimum": 0}, {"type": "string"}]}}});
        assert_eq!(invariants(extra).len(), 2);
    }

    #[test]
    fn patterns_must_be_go_regular_expressions() {
        let got = invariants(json!({"type": "object", "properties": {"a": {"type": "string", "pattern": "+",
            "allOf": [{"pattern": "["}]}}}));
        assert_eq!(
            got,
            vec![
                "properties[a].allOf[0].pattern: Invalid value: \"[\": must be a valid regular expression, but isn't: error parsing regexp: missing closing ]: `[`",
                "properties[a].pattern: Invalid value: \"+\": must be a valid regular expression, but isn't: error parsing regexp: missing argument to repetition operator: `+`",
            ]
        );
        assert!(
            invariants(json!({"type": "object", "properties": {"a": {"type": "string", "pattern": "^[a-z]+$"}}}))
                .is_empty()
        );
    }

    #[test]
    fn nested_forbidden_keywords() {
        assert_eq!(
            nested(json!({"description": "x"}), Default::default()),
            vec!["description: Forbidden: must be empty to be structural"]
        );
        assert!(nested(json!({"externalDocs": {"url": "u"}, "example": 1}), Default::default()).is_empty());
        assert_eq!(
            nested(json!({"properties": {"metadata": {}}}), Default::default()),
            vec!["properties[metadata]: Forbidden: must not be specified in a nested context"]
        );
        let with_options = ValidationOptions {
            allow_nested_additional_properties: true,
            allow_nested_x_validations: true,
            ..Default::default()
        };
        assert!(
            nested(
                json!({"additionalProperties": {"minLength": 1}, "x-kubernetes-validations": [{"rule": "x"}]}),
                with_options
            )
            .is_empty()
        );
    }

    #[test]
    fn x_validations_only_under_all_of() {
        let options = ValidationOptions { allow_nested_x_validations: true, ..Default::default() };
        let s = structural(json!({"type": "object", "allOf": [{"x-kubernetes-validations": [{"rule": "x"}]}],
            "anyOf": [{"x-kubernetes-validations": [{"rule": "x"}]}]}));
        let got: Vec<String> = validate_structural_invariants(&Path::root(), &s, Level::Root, &options)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(got, vec!["anyOf[0].x-kubernetes-validations: Forbidden: must be empty to be structural"]);
    }

    #[test]
    fn root_metadata_may_only_restrict_name_and_generate_name() {
        assert!(
            metadata(json!({"type": "object", "properties": {"name": {"type": "string"}, "generateName": {}}}))
                .is_empty()
        );
        assert!(metadata(json!({"type": "object", "default": {"name": "x"}, "properties": {}, "enum": []})).is_empty());
        let forbidden = "<nil>: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified";
        assert_eq!(metadata(json!({"type": "object", "properties": {"namespace": {}}})), vec![forbidden]);
        assert_eq!(metadata(json!({"type": "object", "required": []})), vec![forbidden]);
        assert_eq!(metadata(json!({"type": "object", "example": {}})), vec![forbidden]);
        assert_eq!(metadata(json!({})), vec!["type: Invalid value: \"\": must be object"]);
    }
}
