//! The spec level of CRD schema validation: the options of a create or an
//! update, schema presence, `spec.preserveUnknownFields`, and which
//! `validation` block is checked with which status subresource.
//!
//! [`SchemaChecks`] holds these for one spec so that the whole CRD
//! validation (`spec.rs`) can run them at their places in upstream's order;
//! [`validate_crd_schemas_create`] and [`validate_crd_schemas_update`] run
//! them alone.

use super::{ValidationOptions, defaults, listtype, schema_has, validate_custom_resource_validation};
use crate::crd::{CrdSpec, Subresources};
use crate::field::{ErrorList, FieldError, Path};
use crate::structural;
use crate::wire::JSONSchemaProps;

/// The schema-related errors of creating a CRD with `spec` (the internal
/// layout): schema presence, defaults and `preserveUnknownFields`, every
/// version's schema, the top-level schema.
pub fn validate_crd_schemas_create(spec: &CrdSpec) -> ErrorList {
    let mut errors = SchemaChecks::new(spec, ValidationOptions::for_create()).all();
    errors.extend(preserve_unknown_fields_true(spec, None));
    errors
}

/// The schema-related errors of updating the stored `old` spec to `spec`.
pub fn validate_crd_schemas_update(spec: &CrdSpec, old: &CrdSpec) -> ErrorList {
    let mut errors = SchemaChecks::new(spec, ValidationOptions::for_update(spec, old)).all();
    errors.extend(preserve_unknown_fields_true(spec, Some(old)));
    errors
}

impl ValidationOptions {
    /// The options of an update from the stored `old` spec to `spec`: each
    /// `require*` option is relaxed when the stored CRD already violates it,
    /// so that persisted data never becomes invalid, and the versions whose
    /// schema stays the same are exempt from the per-expression cost limit.
    pub fn for_update(spec: &CrdSpec, old: &CrdSpec) -> Self {
        Self {
            allow_defaults: true,
            disallow_defaults_reason: String::new(),
            require_open_api_schema: all_versions_have_schema(old),
            require_valid_property_type: !schemas(old).any(super::schema_has_invalid_types),
            require_structural_schema: !schemas(old).any(is_non_structural),
            require_pruned_defaults: !schemas(old).any(defaults::schema_has_unpruned_defaults),
            require_atomic_set_type: !has_schema_with(old, &listtype::has_non_atomic_set_items),
            require_map_list_keys_map_set_validation: !has_schema_with(old, &|s| {
                !listtype::map_list_keys_map_set(s, &Path::root()).is_empty()
            }),
            versions_with_unchanged_schemas: versions_with_unchanged_schemas(spec, old),
            suppress_per_expression_cost: false,
        }
    }
}

/// The versions of `spec` whose schema (per-version or top-level) is the
/// one `old` has for the version of that name (Go's
/// `findVersionsWithUnchangedSchemas`; a version with no schema on either
/// side counts as unchanged, one missing from `old` or from a malformed
/// spec as changed).
fn versions_with_unchanged_schemas(spec: &CrdSpec, old: &CrdSpec) -> std::collections::BTreeSet<String> {
    let unchanged = |name: &str| match (spec.validation_for_version(name), old.validation_for_version(name)) {
        (Some(new), Some(old)) => new == old,
        _ => false,
    };
    spec.versions.iter().filter(|v| unchanged(&v.name)).map(|v| v.name.clone()).collect()
}

/// The schema checks of one spec, with the options it implies.
pub(super) struct SchemaChecks<'a> {
    spec: &'a CrdSpec,
    opts: ValidationOptions,
    prunes: bool,
}

impl<'a> SchemaChecks<'a> {
    // Structural schemas are also required when `preserveUnknownFields` is
    // unset or false, when any schema has a default, and when any schema
    // uses a Kubernetes extension.
    pub(super) fn new(spec: &'a CrdSpec, mut opts: ValidationOptions) -> Self {
        let prunes = spec.preserve_unknown_fields != Some(true);
        let has_defaults = opts.allow_defaults && has_schema_with(spec, &|s| s.default.is_some());
        if prunes || has_defaults || has_schema_with(spec, &uses_kubernetes_extensions) {
            opts.require_structural_schema = true;
        }
        Self { spec, opts, prunes }
    }

    /// Everything in upstream's order.
    fn all(&self) -> ErrorList {
        let mut errors = self.spec_level();
        for i in 0..self.spec.versions.len() {
            errors.extend(self.version(i));
        }
        errors.extend(self.top_level());
        errors
    }

    /// Schema presence, then: defaults need `preserveUnknownFields: false`.
    pub(super) fn spec_level(&self) -> ErrorList {
        let mut errors = schema_presence(self.spec, &self.opts, self.prunes);
        if self.opts.allow_defaults
            && has_schema_with(self.spec, &|s| s.default.is_some())
            && self.spec.preserve_unknown_fields != Some(false)
        {
            let detail = "must be false in order to use defaults in the schema";
            errors.push(FieldError::invalid(&Path::new("spec").child("preserveUnknownFields"), true, detail));
        }
        errors
    }

    /// Version `i`'s schema, checked with that version's status
    /// subresource.
    pub(super) fn version(&self, i: usize) -> ErrorList {
        let Some(version) = self.spec.versions.get(i) else { return ErrorList::new() };
        let status = has_status(self.spec.subresources_for_version(&version.name));
        let path = Path::new("spec").child("versions").index(i).child("schema");
        let opts = if self.opts.versions_with_unchanged_schemas.contains(&version.name) {
            &ValidationOptions { suppress_per_expression_cost: true, ..self.opts.clone() }
        } else {
            &self.opts
        };
        validate_custom_resource_validation(&path, version.schema.as_ref(), status, opts)
    }

    /// The top-level schema, checked with "any version has status".
    pub(super) fn top_level(&self) -> ErrorList {
        let spec = self.spec;
        let any_status =
            has_status(spec.subresources.as_ref()) || spec.versions.iter().any(|v| has_status(v.subresources.as_ref()));
        let path = Path::new("spec").child("validation");
        validate_custom_resource_validation(&path, spec.validation.as_ref(), any_status, &self.opts)
    }
}

// Without a top-level schema: when schemas are required every version
// without one gets `Required value`; otherwise, when pruning is on, every
// served version without one gets `Required value: because otherwise all
// fields are pruned`.
fn schema_presence(spec: &CrdSpec, opts: &ValidationOptions, prunes: bool) -> ErrorList {
    if top_level_schema(spec).is_some() {
        return ErrorList::new();
    }
    let versions = Path::new("spec").child("versions");
    let missing = |i: usize| spec.versions[i].schema.as_ref().and_then(|v| v.open_api_v3_schema.as_ref()).is_none();
    let at = |i: usize| versions.index(i).child("schema").child("openAPIV3Schema");
    (0..spec.versions.len())
        .filter_map(|i| {
            if opts.require_open_api_schema {
                missing(i).then(|| FieldError::required(&at(i), ""))
            } else if prunes {
                (spec.versions[i].served && missing(i))
                    .then(|| FieldError::required(&at(i), "because otherwise all fields are pruned"))
            } else {
                None
            }
        })
        .collect()
}

// `preserveUnknownFields: true` is rejected unless the stored CRD already
// had it.
pub(super) fn preserve_unknown_fields_true(spec: &CrdSpec, old: Option<&CrdSpec>) -> Option<FieldError> {
    if old.is_some_and(|o| o.preserve_unknown_fields == Some(true)) || spec.preserve_unknown_fields != Some(true) {
        return None;
    }
    let detail =
        "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead";
    Some(FieldError::invalid(&Path::new("spec").child("preserveUnknownFields"), true, detail))
}

fn has_status(subresources: Option<&Subresources>) -> bool {
    subresources.is_some_and(|s| s.status)
}

fn top_level_schema(spec: &CrdSpec) -> Option<&JSONSchemaProps> {
    spec.validation.as_ref().and_then(|v| v.open_api_v3_schema.as_ref())
}

/// Every schema of `spec`: the top-level one, then the versions' own.
fn schemas(spec: &CrdSpec) -> impl Iterator<Item = &JSONSchemaProps> {
    let versions = spec.versions.iter().filter_map(|v| v.schema.as_ref().and_then(|s| s.open_api_v3_schema.as_ref()));
    top_level_schema(spec).into_iter().chain(versions)
}

/// Whether `pred` holds anywhere in any schema of `spec`.
fn has_schema_with(spec: &CrdSpec, pred: &dyn Fn(&JSONSchemaProps) -> bool) -> bool {
    schemas(spec).any(|s| schema_has(s, pred))
}

/// Whether the stored schemas specify a schema for every version (a
/// top-level schema counts for all).
fn all_versions_have_schema(spec: &CrdSpec) -> bool {
    top_level_schema(spec).is_some()
        || spec.versions.iter().all(|v| v.schema.as_ref().is_some_and(|s| s.open_api_v3_schema.is_some()))
}

/// Whether `schema` fails the conversion or the structural invariants.
fn is_non_structural(schema: &JSONSchemaProps) -> bool {
    match structural::new_structural(schema) {
        Err(_) => true,
        Ok(ss) => {
            !structural::validate_structural(&Path::root(), &ss, &structural::ValidationOptions::default()).is_empty()
        }
    }
}

/// The Kubernetes extensions that require structural schemas (not
/// `x-kubernetes-map-type`).
fn uses_kubernetes_extensions(s: &JSONSchemaProps) -> bool {
    s.x_embedded_resource
        || s.x_preserve_unknown_fields.is_some()
        || s.x_int_or_string
        || s.x_list_map_keys.as_ref().is_some_and(|k| !k.is_empty())
        || s.x_list_type.is_some()
        || s.x_validations.as_ref().is_some_and(|r| !r.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn spec(v: serde_json::Value) -> CrdSpec {
        let (spec, issues) = CrdSpec::from_internal(&v);
        assert!(issues.is_empty(), "{issues:?}");
        spec
    }

    fn texts(errors: &ErrorList) -> Vec<String> {
        let mut out: Vec<String> = errors.iter().map(ToString::to_string).collect();
        out.sort();
        out
    }

    #[test]
    fn create_requires_schemas_and_pruning_for_defaults() {
        let s =
            spec(json!({"preserveUnknownFields": true, "versions": [{"name": "v1", "served": true, "storage": true},
            {"name": "v2", "served": false, "storage": false, "schema": {"openAPIV3Schema": {"type": "object",
            "properties": {"a": {"type": "string", "default": "x"}}}}}]}));
        assert_eq!(
            texts(&validate_crd_schemas_create(&s)),
            vec![
                "spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead",
                "spec.preserveUnknownFields: Invalid value: true: must be false in order to use defaults in the schema",
                "spec.versions[0].schema.openAPIV3Schema: Required value",
            ]
        );
    }

    #[test]
    fn update_relaxes_what_the_stored_crd_violates() {
        let new =
            spec(json!({"preserveUnknownFields": true, "versions": [{"name": "v1", "served": true, "storage": true}],
            "validation": {"openAPIV3Schema": {"type": "object", "properties": {"a": {"type": "bogus2"}}}}}));
        let old =
            spec(json!({"preserveUnknownFields": true, "versions": [{"name": "v1", "served": true, "storage": true}],
            "validation": {"openAPIV3Schema": {"type": "object", "properties": {"a": {"type": "bogus"}}}}}));
        assert!(validate_crd_schemas_update(&new, &old).is_empty());
        let opts = ValidationOptions::for_update(&new, &old);
        assert!(!opts.require_valid_property_type && opts.require_open_api_schema && opts.require_atomic_set_type);
        let unset =
            spec(json!({"preserveUnknownFields": true, "versions": [{"name": "v1", "served": true, "storage": true}]}));
        assert!(validate_crd_schemas_update(&unset, &unset).is_empty());
        assert_eq!(
            texts(&validate_crd_schemas_update(&unset, &old)),
            vec!["spec.versions[0].schema.openAPIV3Schema: Required value"]
        );
    }

    #[test]
    fn unchanged_versions_are_found_through_the_top_level_schema() {
        let schema = json!({"openAPIV3Schema": {"type": "object"}});
        let other = json!({"openAPIV3Schema": {"type": "object", "properties": {"a": {"type": "string"}}}});
        let old = spec(json!({"versions": [{"name": "v1"}, {"name": "v2"}], "validation": schema}));
        let new = spec(json!({"versions": [{"name": "v1", "schema": schema}, {"name": "v2", "schema": other},
            {"name": "v3", "schema": schema}]}));
        let unchanged: Vec<String> =
            ValidationOptions::for_update(&new, &old).versions_with_unchanged_schemas.into_iter().collect();
        assert_eq!(unchanged, ["v1", "v3"], "the top-level schema applies to every version name");
        let per_version = spec(json!({"versions": [{"name": "v1", "schema": schema}]}));
        let unchanged = ValidationOptions::for_update(&new, &per_version).versions_with_unchanged_schemas;
        assert_eq!(unchanged.into_iter().collect::<Vec<_>>(), ["v1"], "a version the stored CRD lacks is new");
        assert!(ValidationOptions::for_create().versions_with_unchanged_schemas.is_empty());
    }

    #[test]
    fn served_versions_need_a_schema_when_pruning() {
        let new = spec(json!({"preserveUnknownFields": false, "versions": [
            {"name": "v1", "served": true, "storage": true}, {"name": "v2", "served": false, "storage": false}]}));
        let old =
            spec(json!({"preserveUnknownFields": true, "versions": [{"name": "v1", "served": true, "storage": true}]}));
        assert_eq!(
            texts(&validate_crd_schemas_update(&new, &old)),
            vec!["spec.versions[0].schema.openAPIV3Schema: Required value: because otherwise all fields are pruned"]
        );
    }

    #[test]
    fn per_version_status() {
        let s = spec(json!({"preserveUnknownFields": false, "versions": [
            {"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {"type": "array", "items": {"type": "string"}}},
             "subresources": {"status": {}}},
            {"name": "v2", "served": true, "storage": false, "schema": {"openAPIV3Schema": {"type": "array", "items": {"type": "integer"}}}}]}));
        let errors = texts(&validate_crd_schemas_create(&s));
        assert!(errors.iter().any(|e| {
            e.starts_with("spec.versions[0].schema.openAPIV3Schema.type: Invalid value: \"array\": only \"object\"")
        }));
        assert!(
            !errors
                .iter()
                .any(|e| e.starts_with("spec.versions[1].schema.openAPIV3Schema.type: Invalid value: \"array\": only"))
        );
    }
}
