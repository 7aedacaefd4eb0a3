//! The default-value check of CRD schemas
//! (`structuraldefaulting.ValidateDefaults`) and the pruned-defaults
//! question asked about stored CRDs on update.
//!
//! Entry points:
//! - [`validate_defaults`]: every `default` of a structural schema checked
//!   the way the API server checks it when a CRD is created or updated
//!   (step 3 of the CRD schema checks, after the structural invariants);
//! - [`schema_has_unpruned_defaults`]: whether a stored schema holds a
//!   default that serving-time pruning
//!   ([`prune_defaults`](crate::defaulting::prune_defaults)) would change,
//!   which relaxes `requirePrunedDefaults` on update.
//!
//! Error policy: problems in defaults are [`FieldError`]s under
//! `<path>...default`, rendered exactly as Kubernetes renders them. Nothing
//! here fails or panics; a schema the checks cannot make sense of (a stored
//! schema that is not structural, a root default that is not an object)
//! simply does not count as having unpruned defaults.
//!
//! The walk visits a node's `default`, then its `items`, then its
//! `properties` — never `additionalProperties`, whose defaults are not
//! checked at all. Which check a default gets depends on whether it sits
//! inside `apiVersion`, `kind` or `metadata` of a resource (the root, or an
//! `x-kubernetes-embedded-resource` node): see `Walk::meta_default` and
//! `Walk::plain_default`.
//!
//! The last step of both checks runs the node's `x-kubernetes-validations`
//! on the default (within the CEL cost budget, and with
//! `CRDValidationRatcheting` also as a create); `cel_errors` does it with
//! feature `cel` and reports nothing without.

use serde_json::Value;

use super::schema_has;
use crate::defaulting::{self, Step};
use crate::field::{self, ErrorList, FieldError, Path};
use crate::objectmeta::{self, CoerceOptions};
use crate::pruning;
use crate::structural::{self, NestedValueValidation, Structural, StructuralOrBool, ValueValidation};
use crate::value_validation;
use crate::wire::JSONSchemaProps;

/// The properties of a resource that hold its type and object meta.
const META_FIELDS: [&str; 3] = ["metadata", "apiVersion", "kind"];

/// The type meta filled into the synthetic object of a default inside
/// resource meta, where the object does not set it.
const VALIDATION_API_VERSION: &str = "validation/v1";
const VALIDATION_KIND: &str = "Validation";

/// Checks every `default` of the structural `schema`, which sits at `path`
/// (`spec.validation.openAPIV3Schema`). With `is_resource_root` the schema
/// is a resource root and behaves as an embedded resource (CRD validation
/// always passes `true`). With `require_pruned_defaults` a default that
/// pruning would change is rejected (`must not have unknown fields`).
///
/// The errors come in walk order: a node's own errors, then those of its
/// `items`, then those of each property in the schema's order (upstream's
/// order of properties is random).
pub fn validate_defaults(
    path: &Path,
    schema: &Structural,
    is_resource_root: bool,
    require_pruned_defaults: bool,
) -> ErrorList {
    let walk = Walk { require_pruned_defaults };
    let place = Place { resource: schema, steps: Vec::new(), inside_meta: false };
    let mut errors = ErrorList::new();
    walk.node(path, schema, is_resource_root || schema.extensions.x_embedded_resource, place, &mut errors);
    errors
}

/// Whether a stored `schema` holds a default that pruning would change
/// (which relaxes `requirePrunedDefaults` on update). Schemas without
/// defaults, or that are not structural, never count.
pub(super) fn schema_has_unpruned_defaults(schema: &JSONSchemaProps) -> bool {
    if !schema_has(schema, &|s| s.default.is_some()) {
        return false;
    }
    let Ok(ss) = structural::new_structural(schema) else { return false };
    if !structural::validate_structural(&Path::root(), &ss, &structural::ValidationOptions::default()).is_empty() {
        return false;
    }
    pruning_changes_defaults(&ss)
}

// Serving-time pruning of the defaults changes at least one of them. A
// schema whose defaults cannot be pruned at all (a root default that is
// not an object) does not count, as upstream ignores the error.
fn pruning_changes_defaults(schema: &Structural) -> bool {
    let mut pruned = schema.clone();
    matches!(defaulting::prune_defaults(&mut pruned), Ok(true))
}

/// Where a node sits: the nearest resource at or above it (the root or an
/// embedded resource), the steps from that resource down to the node, and
/// whether the node is inside the resource's `apiVersion`, `kind` or
/// `metadata`.
#[derive(Clone, Debug)]
struct Place<'s> {
    resource: &'s Structural,
    steps: Vec<Step>,
    inside_meta: bool,
}

impl<'s> Place<'s> {
    fn child(&self, step: Step, inside_meta: bool) -> Self {
        let mut steps = self.steps.clone();
        steps.push(step);
        Self { resource: self.resource, steps, inside_meta }
    }
}

/// The options of one run of the check.
#[derive(Clone, Copy, Debug)]
struct Walk {
    require_pruned_defaults: bool,
}

impl Walk {
    // A resource (the root when it is a resource root, or an embedded
    // resource) starts a new place: nothing is inside meta at its own level.
    // Its `metadata`, `apiVersion` and `kind` properties, and everything
    // below them, are inside meta. `additionalProperties` are not followed.
    fn node<'s>(&self, p: &Path, s: &'s Structural, resource: bool, place: Place<'s>, errors: &mut ErrorList) {
        let place = if resource { Place { resource: s, steps: Vec::new(), inside_meta: false } } else { place };
        if let Some(default) = &s.generic.default {
            let found = if place.inside_meta {
                self.meta_default(p, s, default, &place)
            } else {
                self.plain_default(p, s, default, resource)
            };
            errors.extend(found);
        }
        if let Some(items) = &s.items {
            let child = place.child(Step::Index, place.inside_meta);
            self.node(&p.child("items"), items, items.extensions.x_embedded_resource, child, errors);
        }
        for (name, property) in &s.properties {
            let inside_meta = place.inside_meta || (resource && META_FIELDS.contains(&name.as_str()));
            let child = place.child(Step::Child(name.clone()), inside_meta);
            let path = p.child("properties").key(name.as_str());
            self.node(&path, property, property.extensions.x_embedded_resource, child, errors);
        }
    }

    // A default outside resource meta. With pruned defaults required, a
    // copy pruned against the node's own schema (as a resource root when the
    // node is a resource) must equal the default:
    // `<p>.default: Invalid value: <default>: must not have unknown fields`.
    // Preservation on an ancestor does not count. The remaining checks run
    // independently of that one (see `first_failing`).
    fn plain_default(&self, p: &Path, s: &Structural, default: &Value, resource: bool) -> ErrorList {
        let at = p.child("default");
        let mut errors = ErrorList::new();
        if self.require_pruned_defaults {
            let mut pruned = default.clone();
            pruning::prune_untracked(&mut pruned, Some(s), resource);
            if pruned != *default {
                errors.push(FieldError::invalid(&at, default.clone(), "must not have unknown fields"));
            }
        }
        errors.extend(first_failing(&at, s, default, resource));
        errors
    }

    // A default inside `apiVersion`, `kind` or `metadata` of a resource is
    // not checked for pruning (unknown metadata fields are dropped when the
    // schema is served). It is placed into a synthetic object along its
    // path from the nearest resource, with `apiVersion: validation/v1` and
    // `kind: Validation` where the object does not set them; that object is
    // coerced and its resource meta validated, and a failure gives one error
    // `<p>.default: Invalid value: <default>: must result in valid metadata: <errors>`.
    // Otherwise the default is checked against the node's schema, then by
    // its CEL rules; only the first failing step reports.
    fn meta_default(&self, p: &Path, s: &Structural, default: &Value, place: &Place<'_>) -> ErrorList {
        let at = p.child("default");
        // Inside meta there is always a step below the resource, and the
        // first one names a property, so the object exists; were it
        // missing, there would be nothing to check it against.
        let Some(mut object) = defaulting::surround(default.clone(), &place.steps) else {
            return ErrorList::new();
        };
        for (key, value) in [("kind", VALIDATION_KIND), ("apiVersion", VALIDATION_API_VERSION)] {
            object.entry(key).or_insert_with(|| Value::from(value));
        }
        let mut object = Value::Object(object);
        let invalid = |detail: String| {
            vec![FieldError::invalid(&at, default.clone(), format!("must result in valid metadata: {detail}"))]
        };
        if let Err(e) = objectmeta::coerce(&Path::root(), &mut object, Some(place.resource), true, no_dropping()) {
            return invalid(e.to_string());
        }
        let errors = objectmeta::validate(&Path::root(), &object, Some(place.resource), true);
        if !errors.is_empty() {
            return invalid(field::aggregate(&errors));
        }
        let errors = schema_errors(&at, s, default);
        if !errors.is_empty() {
            return errors;
        }
        cel_errors(&at, s, default)
    }
}

// The checks of a default outside resource meta, of which only the first
// that fails reports: coercion of the resource meta of embedded resources
// in the default (its first error, e.g.
// `<p>.default.kind: Invalid value: 42: must be a string`); validation of
// that meta (`<p>.default.apiVersion: Required value`, names, labels, ...);
// validation against the node's schema; the node's CEL rules. The later
// steps see the coerced default (canonical metadata).
fn first_failing(at: &Path, s: &Structural, default: &Value, resource: bool) -> ErrorList {
    let mut coerced = default.clone();
    if let Err(e) = objectmeta::coerce(at, &mut coerced, Some(s), resource, no_dropping()) {
        return vec![*e];
    }
    let errors = objectmeta::validate(at, &coerced, Some(s), resource);
    if !errors.is_empty() {
        return errors;
    }
    let errors = schema_errors(at, s, &coerced);
    if !errors.is_empty() {
        return errors;
    }
    cel_errors(at, s, &coerced)
}

/// Coercion that fails on malformed meta instead of dropping it, without
/// collecting unknown metadata fields.
fn no_dropping() -> CoerceOptions {
    CoerceOptions { drop_invalid_fields: false, return_unknown_field_paths: false }
}

// The default is validated as a standalone document against the node's
// schema (messages name the path inside the default, empty at its top),
// errors under `<p>.default`. Kubernetes builds this validator from the
// structural schema as it is, so `x-kubernetes-int-or-string` adds no
// type: such a node accepts a default of any type.
fn schema_errors(at: &Path, s: &Structural, value: &Value) -> ErrorList {
    let mut schema = s.clone();
    clear_int_or_string(&mut schema);
    value_validation::validate(value, &schema, at)
}

/// The CEL step of the default check: the node's `x-kubernetes-validations`
/// (and those below it) run on the default as an update from itself and,
/// with `CRDValidationRatcheting` (on by default), as a create, so that
/// rules with `optionalOldSelf` see the default as a new value too. Both
/// runs start from the same budget, and what is left afterwards is the
/// lower of the two remainders (see [`crate::cel::with_cost_budget`]). The
/// node's rules see resource meta when the node is an embedded resource.
///
/// Without the `cel` feature no rule is run and nothing is reported.
#[cfg(feature = "cel")]
fn cel_errors(at: &Path, s: &Structural, default: &Value) -> ErrorList {
    let validator = crate::cel::CelValidator::with_root(s, false);
    if validator.is_empty() {
        return ErrorList::new();
    }
    crate::cel::with_scoped_budget(|budget| {
        let start = *budget;
        let mut errors = validator.validate(at, default, Some(default), budget);
        if errors.is_empty() {
            let mut as_create = start;
            errors = validator.validate(at, default, None, &mut as_create);
            *budget = (*budget).min(as_create);
        }
        errors
    })
}

#[cfg(not(feature = "cel"))]
fn cel_errors(_at: &Path, _s: &Structural, _default: &Value) -> ErrorList {
    ErrorList::new()
}

/// Removes `x-kubernetes-int-or-string` from `s` and everything below it.
fn clear_int_or_string(s: &mut Structural) {
    s.extensions.x_int_or_string = false;
    if let Some(items) = &mut s.items {
        clear_int_or_string(items);
    }
    for (_, property) in &mut s.properties {
        clear_int_or_string(property);
    }
    if let Some(StructuralOrBool::Structural(additional)) = &mut s.additional_properties {
        clear_int_or_string(additional);
    }
    clear_nested_int_or_string(&mut s.value_validation);
}

/// The same for the junctors of `v` and the schemas under them.
fn clear_nested_int_or_string(v: &mut ValueValidation) {
    let nested = v.all_of.iter_mut().chain(v.one_of.iter_mut()).chain(v.any_of.iter_mut());
    nested.chain(v.not.as_deref_mut()).for_each(clear_nested_node);
}

fn clear_nested_node(n: &mut NestedValueValidation) {
    n.forbidden_extensions.x_int_or_string = false;
    clear_nested_int_or_string(&mut n.value_validation);
    let properties = n.properties.iter_mut().flatten().map(|(_, p)| p);
    properties.chain(n.items.as_deref_mut()).chain(n.additional_properties.as_deref_mut()).for_each(clear_nested_node);
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn structural(v: Value) -> Structural {
        structural::Structural::from_json(&v).unwrap()
    }

    fn check(v: Value, require_pruned: bool) -> Vec<String> {
        let path = Path::new("spec").child("validation").child("openAPIV3Schema");
        validate_defaults(&path, &structural(v), true, require_pruned).iter().map(ToString::to_string).collect()
    }

    #[test]
    fn unknown_fields_need_pruned_defaults_required() {
        let schema = json!({"type": "object", "properties": {"a": {"type": "object",
            "properties": {"x": {"type": "string"}}, "default": {"x": "a", "y": 1}}}});
        assert_eq!(
            check(schema.clone(), true),
            vec![
                "spec.validation.openAPIV3Schema.properties[a].default: Invalid value: {\"x\":\"a\",\"y\":1}: must not have unknown fields"
            ]
        );
        assert!(check(schema, false).is_empty());
    }

    #[test]
    fn pruning_and_schema_errors_both_report() {
        let schema = json!({"type": "object", "properties": {"a": {"type": "object",
            "properties": {"x": {"type": "string"}}, "default": {"x": 1, "y": 1}}}});
        let got = check(schema, true);
        assert_eq!(got.len(), 2, "{got:?}");
        assert_eq!(
            got[1],
            "spec.validation.openAPIV3Schema.properties[a].default.x: Invalid value: \"integer\": x in body must be of type string: \"integer\""
        );
    }

    #[test]
    fn defaults_are_standalone_documents() {
        let schema = json!({"type": "object", "properties": {"a": {"type": "array",
            "items": {"type": "string", "default": 1}}, "i": {"x-kubernetes-int-or-string": true, "default": true},
            "m": {"type": "object", "additionalProperties": {"type": "string", "default": 1}}}});
        assert_eq!(
            check(schema, true),
            vec![
                "spec.validation.openAPIV3Schema.properties[a].items.default: Invalid value: \"integer\":  in body must be of type string: \"integer\""
            ]
        );
    }

    #[test]
    fn embedded_resources_stop_at_the_first_failing_step() {
        let schema = json!({"type": "object", "properties": {"e": {"type": "object",
            "x-kubernetes-embedded-resource": true, "properties": {"spec": {"type": "string"}},
            "default": {"kind": 42, "spec": 1}},
            "f": {"type": "object", "x-kubernetes-embedded-resource": true, "default": {"spec": 1},
            "x-kubernetes-preserve-unknown-fields": true}}});
        assert_eq!(
            check(schema, true),
            vec![
                "spec.validation.openAPIV3Schema.properties[e].default.kind: Invalid value: 42: must be a string",
                "spec.validation.openAPIV3Schema.properties[f].default.apiVersion: Required value",
                "spec.validation.openAPIV3Schema.properties[f].default.kind: Required value",
            ]
        );
    }

    #[test]
    fn meta_defaults_are_checked_in_a_synthetic_object() {
        let schema = json!({"type": "object", "properties": {"e": {"type": "object",
            "x-kubernetes-embedded-resource": true, "properties": {
                "kind": {"type": "string", "default": "%"},
                "apiVersion": {"type": "string", "enum": ["a/v1"], "default": "b/v1"},
                "metadata": {"type": "object", "default": {"unknown": 1}, "properties": {
                    "name": {"type": "string", "default": "a/b"},
                    "labels": {"type": "object", "default": {"a": 1}}}}}}}});
        let got = check(schema, true);
        let p = "spec.validation.openAPIV3Schema.properties[e].properties";
        assert_eq!(got.len(), 4, "{got:?}");
        assert!(got[0].starts_with(&format!("{p}[kind].default: Invalid value: \"%\": must result in valid metadata: kind: Invalid value: \"%\": may have mixed case")), "{got:?}");
        assert_eq!(got[1], format!("{p}[apiVersion].default: Unsupported value: \"b/v1\": supported values: \"a/v1\""));
        assert_eq!(
            got[2],
            format!(
                "{p}[metadata].properties[name].default: Invalid value: \"a/b\": must result in valid metadata: metadata.name: Invalid value: \"a/b\": may not contain '/'"
            )
        );
        assert!(got[3].starts_with(&format!("{p}[metadata].properties[labels].default: Invalid value: {{\"a\":1}}: must result in valid metadata: metadata: Invalid value: ")), "{got:?}");
    }

    #[test]
    fn several_meta_errors_are_aggregated() {
        let schema = json!({"type": "object", "properties": {"e": {"type": "object",
            "x-kubernetes-embedded-resource": true, "properties": {
                "metadata": {"type": "object", "default": {"name": "a/b", "namespace": "A"}}}}}});
        let got = check(schema, true);
        assert_eq!(got.len(), 1);
        assert!(got[0].contains(": must result in valid metadata: [metadata.na"), "{got:?}");
    }

    #[test]
    fn unpruned_defaults_of_stored_schemas() {
        let props = |v: Value| JSONSchemaProps::from_value(&v).unwrap();
        let unpruned = props(json!({"type": "object", "properties": {"a": {"type": "object", "default": {"x": 1}}}}));
        assert!(schema_has_unpruned_defaults(&unpruned));
        let pruned = props(json!({"type": "object", "properties": {"a": {"type": "object",
            "x-kubernetes-preserve-unknown-fields": true, "default": {"x": 1}}}}));
        assert!(!schema_has_unpruned_defaults(&pruned));
        let non_structural = props(json!({"properties": {"a": {"type": "object", "default": {"x": 1}}}}));
        assert!(!schema_has_unpruned_defaults(&non_structural));
    }
}
