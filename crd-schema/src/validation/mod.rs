//! What the API server checks about a CRD, as
//! `k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation`.
//!
//! Entry points:
//! - [`validate_crd_create`] and [`validate_crd_update`]: everything a CRD
//!   create or update is refused for ([`validate_crd_create_request`]: of
//!   a CRD as the server prepares it), in the API server's order and in the
//!   internal layout (paths `spec.validation.openAPIV3Schema...`,
//!   `spec.versions[i].schema.openAPIV3Schema...`,
//!   `spec.conversion.webhookClientConfig...`);
//! - [`validate_crd_schemas_create`] and [`validate_crd_schemas_update`]:
//!   only the schema-related errors of a spec;
//! - [`validate_custom_resource_validation`]: the check of one
//!   `validation` block under explicit [`ValidationOptions`];
//! - [`validate_defaults`]: the default-value check of a structural schema;
//! - [`max_cardinality`] and [`TotalCost`]: how often a schema node can
//!   occur, which scales the estimated cost of its rules, and the cost
//!   total of a schema's rules;
//! - [`validate_deprecation_warning`] and [`validate_stored_versions`]: two
//!   version rules on their own;
//! - [`fieldpath`]: the `fieldPath` syntax of `x-kubernetes-validations`.
//!
//! Every problem is a [`FieldError`] with Kubernetes' text; nothing here
//! panics on any input.
//!
//! Modules of the schema part: `crd` (spec level: options on create and
//! update, schema presence, `preserveUnknownFields`), `root` (root
//! restrictions), `schema_walk` (the per-node rules), `listtype` (list and
//! map types), `rules` (`x-kubernetes-validations` placement), `defaults`
//! (the default-value check), `cel` (CEL compilation, cost estimates and
//! the `oldSelf` rules; with feature `cel`, else nothing is compiled).
//! Outside the schema: `definition` (the whole CRD), `spec` (the spec in
//! order), `names`, `versions`, `subresources`, `printer_columns`,
//! `selectable_fields`, `conversion`, `webhook` (with `url` and `pem`),
//! `approval`.

mod approval;
mod cel;
mod conversion;
mod crd;
mod defaults;
mod definition;
pub mod fieldpath;
mod listtype;
mod names;
mod pem;
mod printer_columns;
mod root;
mod rules;
mod schema_walk;
mod selectable_fields;
mod spec;
mod subresources;
mod versions;
mod webhook;

pub use approval::API_APPROVAL_ANNOTATION;
pub use cel::{ExpressionCost, TotalCost, max_cardinality};
pub use crd::{validate_crd_schemas_create, validate_crd_schemas_update};
pub use defaults::validate_defaults;
pub use definition::{validate_crd_create, validate_crd_create_request, validate_crd_update};
pub use printer_columns::{PRINTER_COLUMN_FORMATS, PRINTER_COLUMN_TYPES};
pub use versions::{validate_deprecation_warning, validate_stored_versions};

use crate::crd::CustomResourceValidation;
use crate::field::{ErrorList, FieldError, Path};
use crate::structural;
use crate::wire::{JSONSchemaProps, SchemaOrArray, SchemaOrBool, SchemaOrStringArray};

/// The options of CRD schema validation, as Go's `validationOptions`
/// (only the schema-related ones). Creation sets everything but the reason
/// (see [`ValidationOptions::for_create`]); updates relax the `require*`
/// options that the stored CRD already violates
/// ([`ValidationOptions::for_update`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ValidationOptions {
    /// Schemas may contain `default`.
    pub allow_defaults: bool,
    /// Why defaults are not allowed, appended to the error when non-empty.
    pub disallow_defaults_reason: String,
    /// Every version needs a schema (spec level only).
    pub require_open_api_schema: bool,
    /// `type` must be one of the six OpenAPI v3 types.
    pub require_valid_property_type: bool,
    /// Schemas must be structural.
    pub require_structural_schema: bool,
    /// Defaults must already be pruned.
    pub require_pruned_defaults: bool,
    /// Items of `x-kubernetes-list-type: set` lists must be atomic.
    pub require_atomic_set_type: bool,
    /// `set`/`map` items are not nullable; `map` keys are required or
    /// defaulted and not nullable.
    pub require_map_list_keys_map_set_validation: bool,
    /// On an update, the versions whose schema the update leaves unchanged
    /// (Go's `versionsWithUnchangedSchemas`): their rules are exempt from
    /// the per-expression cost limit, so that a CRD the server once
    /// accepted stays updatable when the estimates change.
    pub versions_with_unchanged_schemas: std::collections::BTreeSet<String>,
    /// Whether the per-expression cost limit is lifted for the schema being
    /// checked (set per version from
    /// [`versions_with_unchanged_schemas`](Self::versions_with_unchanged_schemas)).
    /// The cost total of a schema is still limited.
    pub suppress_per_expression_cost: bool,
}

impl ValidationOptions {
    /// The options of a CRD creation: everything required, defaults
    /// allowed.
    pub fn for_create() -> Self {
        Self {
            allow_defaults: true,
            disallow_defaults_reason: String::new(),
            require_open_api_schema: true,
            require_valid_property_type: true,
            require_structural_schema: true,
            require_pruned_defaults: true,
            require_atomic_set_type: true,
            require_map_list_keys_map_set_validation: true,
            versions_with_unchanged_schemas: Default::default(),
            suppress_per_expression_cost: false,
        }
    }
}

/// Validates one `validation` block (`spec.validation` or
/// `spec.versions[i].schema`, at `path`) whose status subresource is
/// `status_subresource`. An absent block or schema has no errors.
///
/// The order of the checks, for the schema at `<path>.openAPIV3Schema`:
/// 1. with the status subresource, the root keyword restriction;
/// 2. `nullable` at the root;
/// 3. with `require_structural_schema`: conversion to the structural form
///    (its error is remembered), else the structural invariants, else the
///    default-value check; CEL checks apply only if all three passed;
/// 4. the schema walk (schema errors, then CEL errors);
/// 5. the remembered conversion error, only if nothing else was reported.
///
/// Kubernetes ends with building a value validator from the schema ("error
/// building validator"); that conversion cannot fail for a schema that got
/// this far, so it is not reproduced.
pub fn validate_custom_resource_validation(
    path: &Path,
    validation: Option<&CustomResourceValidation>,
    status_subresource: bool,
    options: &ValidationOptions,
) -> ErrorList {
    let Some(schema) = validation.and_then(|v| v.open_api_v3_schema.as_ref()) else { return ErrorList::new() };
    let schema_path = path.child("openAPIV3Schema");
    let mut errors = ErrorList::new();
    if status_subresource {
        errors.extend(root::status_restriction(path, schema));
    }
    errors.extend(root::nullable_at_root(path, schema));
    let structural = if options.require_structural_schema {
        structural_step(&schema_path, schema, options)
    } else {
        StructuralStep::default()
    };
    errors.extend(structural.errors);
    errors.extend(schema_walk::validate(schema, &schema_path, options, structural.cel));
    if errors.is_empty() {
        errors.extend(structural.conversion_error);
    }
    errors
}

/// The outcome of step 3 of [`validate_custom_resource_validation`].
#[derive(Debug, Default)]
struct StructuralStep {
    /// Structural or default errors, reported at once.
    errors: ErrorList,
    /// The conversion error, reported only when nothing else is.
    conversion_error: Option<FieldError>,
    /// Whether CEL checks apply.
    cel: bool,
}

// Conversion failure is remembered as `<P>: Invalid value: "": <error>`;
// otherwise the structural invariants, and only if they hold the
// default-value check; CEL checks apply when both report nothing.
fn structural_step(schema_path: &Path, schema: &JSONSchemaProps, options: &ValidationOptions) -> StructuralStep {
    let ss = match structural::new_structural(schema) {
        Ok(ss) => ss,
        Err(e) => {
            let conversion_error = Some(FieldError::invalid(schema_path, "", e.to_string()));
            return StructuralStep { conversion_error, ..StructuralStep::default() };
        }
    };
    let errors = structural::validate_structural(schema_path, &ss, &structural::ValidationOptions::default());
    if !errors.is_empty() {
        return StructuralStep { errors, ..StructuralStep::default() };
    }
    // One runtime cost budget for the CEL rules of all defaults, as the
    // server gives one request.
    #[cfg(feature = "cel")]
    let errors = crate::cel::with_cost_budget(crate::cel::RUNTIME_COST_BUDGET, || {
        defaults::validate_defaults(schema_path, &ss, true, options.require_pruned_defaults)
    });
    #[cfg(not(feature = "cel"))]
    let errors = defaults::validate_defaults(schema_path, &ss, true, options.require_pruned_defaults);
    let cel = errors.is_empty();
    StructuralStep { errors, conversion_error: None, cel }
}

/// The types a CRD schema may name (`requireValidPropertyType`).
pub(crate) const OPENAPI_V3_TYPES: [&str; 6] = ["array", "boolean", "integer", "number", "object", "string"];

/// Whether `schema` or any schema inside it names a type outside
/// [`OPENAPI_V3_TYPES`] (Go's `SchemaHasInvalidTypes`).
pub(crate) fn schema_has_invalid_types(schema: &JSONSchemaProps) -> bool {
    schema_has(schema, &|s| !s.type_.is_empty() && !OPENAPI_V3_TYPES.contains(&s.type_.as_str()))
}

/// Whether `pred` holds for `schema` or any schema inside it (items, junctors,
/// properties, `additionalProperties`, `patternProperties`,
/// `additionalItems`, `definitions`, schema-valued `dependencies`), as Go's
/// `SchemaHas`.
fn schema_has(schema: &JSONSchemaProps, pred: &dyn Fn(&JSONSchemaProps) -> bool) -> bool {
    if pred(schema) {
        return true;
    }
    let any = |list: &[JSONSchemaProps]| list.iter().any(|s| schema_has(s, pred));
    let any_map = |map: &Option<Vec<(String, JSONSchemaProps)>>| map.iter().flatten().any(|(_, s)| schema_has(s, pred));
    let bool_or = |x: &Option<SchemaOrBool>| matches!(x, Some(SchemaOrBool::Schema(s)) if schema_has(s, pred));
    let items = match &schema.items {
        Some(SchemaOrArray::Schema(s)) => schema_has(s, pred),
        Some(SchemaOrArray::Array(list)) => any(list),
        None => false,
    };
    items
        || [&schema.all_of, &schema.any_of, &schema.one_of].into_iter().any(|l| any(l.as_deref().unwrap_or_default()))
        || schema.not.as_ref().is_some_and(|s| schema_has(s, pred))
        || any_map(&schema.properties)
        || bool_or(&schema.additional_properties)
        || any_map(&schema.pattern_properties)
        || bool_or(&schema.additional_items)
        || any_map(&schema.definitions)
        || schema
            .dependencies
            .iter()
            .flatten()
            .any(|(_, d)| matches!(d, SchemaOrStringArray::Schema(s) if schema_has(s, pred)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(v: serde_json::Value, status: bool, options: &ValidationOptions) -> Vec<String> {
        let schema = JSONSchemaProps::from_value(&v).unwrap();
        let validation = CustomResourceValidation { open_api_v3_schema: Some(schema) };
        let path = Path::new("spec").child("validation");
        let mut out: Vec<String> = validate_custom_resource_validation(&path, Some(&validation), status, options)
            .iter()
            .map(ToString::to_string)
            .collect();
        out.sort();
        out
    }

    #[test]
    fn absent_schema_has_no_errors() {
        let path = Path::new("spec").child("validation");
        let empty = CustomResourceValidation::default();
        assert!(validate_custom_resource_validation(&path, None, true, &ValidationOptions::for_create()).is_empty());
        assert!(
            validate_custom_resource_validation(&path, Some(&empty), true, &ValidationOptions::for_create()).is_empty()
        );
    }

    #[test]
    fn status_and_nullable_at_the_root() {
        assert_eq!(
            check(json!({"type": "object", "nullable": true}), false, &ValidationOptions::default()),
            vec!["spec.validation.openAPIV3Schema.nullable: Forbidden: nullable cannot be true at the root"]
        );
        let e = check(json!({"type": "object", "nullable": true}), true, &ValidationOptions::default());
        assert_eq!(e.len(), 2);
        assert!(e[1].starts_with("spec.validation.openAPIV3Schema: Invalid value: {"), "{e:?}");
    }

    #[test]
    fn schema_has_looks_everywhere() {
        let schema =
            JSONSchemaProps::from_value(&json!({"dependencies": {"a": ["b"], "c": {"not": {"default": 1}}}})).unwrap();
        assert!(schema_has(&schema, &|s| s.default.is_some()));
        let schema = JSONSchemaProps::from_value(&json!({"additionalItems": true, "items": [{}]})).unwrap();
        assert!(!schema_has(&schema, &|s| s.default.is_some()));
    }
}
