//! Completeness of the root junctors, as `validateStructuralCompleteness`
//! in `complete.go`: every property, `items` and (with the option)
//! `additionalProperties` named under a junctor of the root schema must
//! exist in the structural part, so that every value validation applies to
//! a value with a known schema.

use super::{NestedValueValidation, Structural, ValidationOptions, ValueValidation};
use crate::field::{ErrorList, FieldError, Path};

/// The completeness errors of the junctors of the root `schema` (at
/// `path`), in walk order. Junctors of non-root nodes are not checked (a
/// quirk of Kubernetes). A junctor nested in a junctor schema is compared
/// with the same structural node as the schema containing it.
pub fn validate_structural_completeness(path: &Path, schema: &Structural, options: &ValidationOptions) -> ErrorList {
    let mut walk = Walk { options, errors: ErrorList::new() };
    walk.value_validation(&schema.value_validation, schema, path, path);
    walk.errors
}

/// One completeness walk: `s_path` is the path of the structural node,
/// `v_path` the path of the junctor schema compared with it.
struct Walk<'a> {
    options: &'a ValidationOptions,
    errors: ErrorList,
}

impl Walk<'_> {
    // Every junctor schema of a node is compared with that same node.
    fn value_validation(&mut self, v: &ValueValidation, s: &Structural, s_path: &Path, v_path: &Path) {
        if let Some(not) = &v.not {
            self.nested(not, Some(s), s_path, &v_path.child("not"));
        }
        let junctors = [("allOf", &v.all_of), ("anyOf", &v.any_of), ("oneOf", &v.one_of)];
        for (name, list) in junctors {
            for (i, x) in list.iter().enumerate() {
                self.nested(x, Some(s), s_path, &v_path.child(name).index(i));
            }
        }
    }

    // A junctor schema needs a structural counterpart. Its `items` are
    // compared with the node's `items`, its properties with the node's
    // properties; a property missing there may fall back to the node's
    // `additionalProperties` schema only with the option.
    // `additionalProperties` under a junctor is compared (with the option
    // that allows it) with the node's `additionalProperties` schema.
    fn nested(&mut self, v: &NestedValueValidation, s: Option<&Structural>, s_path: &Path, v_path: &Path) {
        let Some(s) = s else {
            self.errors.push(FieldError::required(s_path, format!("because it is defined in {v_path}")));
            return;
        };
        self.value_validation(&v.value_validation, s, s_path, v_path);
        if let Some(items) = &v.items {
            self.nested(items, s.items.as_deref(), &s_path.child("items"), &v_path.child("items"));
        }
        let additional = s.additional_properties_schema();
        for (name, property) in v.properties() {
            let v_prop = v_path.child("properties").key(name.as_str());
            let s_prop = s_path.child("properties").key(name.as_str());
            match (s.property(name), additional) {
                (Some(field), _) => self.nested(property, Some(field), &s_prop, &v_prop),
                (None, Some(ap)) if self.options.allow_validation_properties_with_additional_properties => {
                    self.nested(property, Some(ap), &s_path.child("additionalProperties"), &v_prop);
                }
                (None, _) => self.nested(property, None, &s_prop, &v_prop),
            }
        }
        if let Some(ap) = &v.additional_properties
            && self.options.allow_nested_additional_properties
        {
            let (sp, vp) = (s_path.child("additionalProperties"), v_path.child("additionalProperties"));
            self.nested(ap, additional, &sp, &vp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use serde_json::{Value, json};

    fn completeness(v: Value, options: ValidationOptions) -> Vec<String> {
        let s = Structural::from_json(&v).unwrap();
        validate_structural_completeness(&Path::root(), &s, &options).iter().map(ToString::to_string).collect()
    }

    #[test]
    fn missing_property_and_items() {
        let got = completeness(
            json!({"type": "object", "properties": {"foo": {"type": "string"}}, "allOf": [{"properties": {"notfoo": {}}, "items": {}}]}),
            Default::default(),
        );
        assert_eq!(
            got,
            vec![
                "items: Required value: because it is defined in allOf[0].items",
                "properties[notfoo]: Required value: because it is defined in allOf[0].properties[notfoo]",
            ]
        );
    }

    #[test]
    fn nested_junctors_compare_with_the_same_node() {
        let got = completeness(
            json!({"type": "object", "properties": {"a": {"type": "object", "properties": {"x": {"type": "string"}}}},
                "oneOf": [{"properties": {"a": {"anyOf": [{"properties": {"y": {}}}]}}}]}),
            Default::default(),
        );
        assert_eq!(
            got,
            vec![
                "properties[a].properties[y]: Required value: because it is defined in oneOf[0].properties[a].anyOf[0].properties[y]"
            ]
        );
    }

    #[test]
    fn additional_properties_fallback_needs_the_option() {
        let schema = json!({"additionalProperties": {"type": "object", "properties": {"bar": {"type": "string"}}},
            "allOf": [{"properties": {"foo": {"minLength": 2}}}]});
        let allowed =
            ValidationOptions { allow_validation_properties_with_additional_properties: true, ..Default::default() };
        assert!(completeness(schema.clone(), allowed).is_empty());
        assert_eq!(
            completeness(schema, Default::default()),
            vec!["properties[foo]: Required value: because it is defined in allOf[0].properties[foo]"]
        );
    }

    #[test]
    fn nested_additional_properties_need_a_counterpart() {
        let options = ValidationOptions { allow_nested_additional_properties: true, ..Default::default() };
        let got = completeness(
            json!({"properties": {"bar": {"type": "string"}}, "allOf": [{"additionalProperties": {"minLength": 2}}]}),
            options,
        );
        assert_eq!(
            got,
            vec!["additionalProperties: Required value: because it is defined in allOf[0].additionalProperties"]
        );
    }

    #[test]
    fn junctors_of_non_root_nodes_are_not_checked() {
        let got = completeness(
            json!({"type": "object", "properties": {"a": {"type": "object", "anyOf": [{"properties": {"y": {}}}]}}}),
            Default::default(),
        );
        assert!(got.is_empty());
    }
}
