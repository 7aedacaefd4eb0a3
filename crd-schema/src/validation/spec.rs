//! The spec of a CRD, as Go's `validateCustomResourceDefinitionSpec` and
//! `validateCustomResourceDefinitionSpecUpdate`, in their order: group,
//! scope, the spec-level schema rules, each version (name, deprecation
//! warning, schema, subresources, printer columns, selectable fields), the
//! version rules, names, the top-level schema, subresources, columns and
//! selectable fields, and the conversion.

use super::conversion::{self, ConversionOptions};
use super::crd::SchemaChecks;
use super::printer_columns::validate_column;
use super::selectable_fields::{MAX_SELECTABLE_FIELDS, validate_selectable_fields};
use super::subresources::validate_subresources;
use super::{ValidationOptions, names, versions};
use crate::crd::{CrdSpec, CrdVersion, SelectableField};
use crate::field::{ErrorList, FieldError, Path};
use crate::objectmeta::names::is_dns1123_subdomain;
use crate::structural;
use crate::wire::JSONSchemaProps;

/// The options of the spec checks for a create or an update.
#[derive(Clone, Debug)]
pub(super) struct SpecOptions<'a> {
    /// The schema options.
    pub(super) schema: ValidationOptions,
    /// The conversion options.
    pub(super) conversion: ConversionOptions,
    /// `scope` and `names.kind` may not change (the stored CRD is
    /// established).
    pub(super) require_immutable_names: bool,
    /// The stored spec of an update, whose selectable fields may be kept.
    pub(super) old: Option<&'a CrdSpec>,
}

/// The errors of `spec`, in upstream's order.
pub(super) fn validate_spec(spec: &CrdSpec, options: &SpecOptions<'_>) -> ErrorList {
    let path = Path::new("spec");
    let mut errors: ErrorList = group(&spec.group, &path.child("group")).into_iter().collect();
    errors.extend(scope(&spec.scope, &path.child("scope")));
    let schemas = SchemaChecks::new(spec, options.schema.clone());
    errors.extend(schemas.spec_level());
    for (i, version) in spec.versions.iter().enumerate() {
        let at = path.child("versions").index(i);
        errors.extend(versions::version_name(&version.name, &at.child("name")));
        errors.extend(versions::deprecation_errors(version, &at));
        errors.extend(schemas.version(i));
        errors.extend(validate_subresources(version.subresources.as_ref(), &at.child("subresources")));
        for (j, column) in version.additional_printer_columns.iter().enumerate() {
            errors.extend(validate_column(column, &at.child("additionalPrinterColumns").index(j)));
        }
        errors.extend(version_selectable_fields(version, &at, options.old));
    }
    errors.extend(versions::top_level_exclusive(spec));
    errors.extend(versions::identical_per_version(spec));
    errors.extend(versions::unique_and_storage(spec));
    errors.extend(versions::spec_version(spec));
    errors.extend(names::required_names(&spec.names, &path.child("names")));
    errors.extend(names::validate_names(&spec.names, &path.child("names")));
    errors.extend(schemas.top_level());
    errors.extend(validate_subresources(spec.subresources.as_ref(), &path.child("subresources")));
    for (j, column) in spec.additional_printer_columns.iter().enumerate() {
        errors.extend(validate_column(column, &path.child("additionalPrinterColumns").index(j)));
    }
    errors.extend(top_level_selectable_fields(spec, options.old));
    errors.extend(strategy_needs_pruning(spec));
    errors.extend(conversion::validate_conversion(
        spec.conversion.as_ref(),
        options.conversion,
        &path.child("conversion"),
    ));
    errors
}

/// [`validate_spec`] for an update from `old`: the group and the plural
/// never change; the scope and the kind do not once the CRD is
/// established.
pub(super) fn validate_spec_update(spec: &CrdSpec, old: &CrdSpec, options: &SpecOptions<'_>) -> ErrorList {
    let path = Path::new("spec");
    let mut errors = validate_spec(spec, options);
    let mut immutable = |at: Path, new: &str, old: &str| {
        if new != old {
            errors.push(FieldError::invalid(&at, new, "field is immutable"));
        }
    };
    if options.require_immutable_names {
        immutable(path.child("scope"), &spec.scope, &old.scope);
        immutable(path.child("names").child("kind"), &spec.names.kind, &old.names.kind);
    }
    immutable(path.child("group"), &spec.group, &old.group);
    immutable(path.child("names").child("plural"), &spec.names.plural, &old.names.plural);
    errors
}

// The group is required, a DNS-1123 subdomain, and has at least one dot.
fn group(group: &str, path: &Path) -> Option<FieldError> {
    if group.is_empty() {
        return Some(FieldError::required(path, ""));
    }
    let errs = is_dns1123_subdomain(group);
    if !errs.is_empty() {
        return Some(FieldError::invalid(path, group, errs.join(",")));
    }
    (!group.contains('.')).then(|| FieldError::invalid(path, group, "should be a domain with at least one dot"))
}

// The scope is required and `Cluster` or `Namespaced`.
fn scope(scope: &str, path: &Path) -> Option<FieldError> {
    match scope {
        "" => Some(FieldError::required(path, "")),
        "Cluster" | "Namespaced" => None,
        other => Some(FieldError::not_supported(path, other, &["Cluster", "Namespaced"])),
    }
}

// A version's selectable fields need the version's own schema (the
// message's "not included" is Kubernetes'); they are resolved in its
// structural form, whose conversion error is reported instead when it
// fails.
fn version_selectable_fields(version: &CrdVersion, at: &Path, old: Option<&CrdSpec>) -> ErrorList {
    if version.selectable_fields.is_empty() {
        return ErrorList::new();
    }
    let path = at.child("selectableFields");
    let Some(schema) = version.schema.as_ref().and_then(|s| s.open_api_v3_schema.as_ref()) else {
        let detail = "may only be set when `version.schema.openAPIV3Schema` is not included";
        return vec![FieldError::invalid(&path, "", detail)];
    };
    let old_fields = old.map(|old| old.selectable_fields_for_version(&version.name));
    let allow_too_many = keeps_too_many(&version.selectable_fields, old_fields);
    selectable_fields(&version.selectable_fields, schema, &at.child("schema.openAPIV3Schema"), &path, allow_too_many)
}

// Top-level selectable fields need the top-level schema.
fn top_level_selectable_fields(spec: &CrdSpec, old: Option<&CrdSpec>) -> ErrorList {
    if spec.selectable_fields.is_empty() {
        return ErrorList::new();
    }
    let path = Path::new("spec").child("selectableFields");
    let Some(schema) = spec.validation.as_ref().and_then(|v| v.open_api_v3_schema.as_ref()) else {
        return vec![FieldError::invalid(&path, "", "may only be set when validations.schema is included")];
    };
    let allow_too_many = keeps_too_many(&spec.selectable_fields, old.map(|o| o.selectable_fields.as_slice()));
    // Kubernetes names the schema `spec.schema.openAPIV3Schema` here.
    let schema_path = Path::new("spec").child("schema.openAPIV3Schema");
    selectable_fields(&spec.selectable_fields, schema, &schema_path, &path, allow_too_many)
}

fn selectable_fields(
    fields: &[SelectableField],
    schema: &JSONSchemaProps,
    schema_path: &Path,
    path: &Path,
    allow_too_many: bool,
) -> ErrorList {
    match structural::new_structural(schema) {
        Err(e) => vec![FieldError::invalid(schema_path, "", e.to_string())],
        Ok(_) => validate_selectable_fields(fields, schema, path, allow_too_many),
    }
}

// More than the maximum is kept when the stored CRD already had more and
// the list is unchanged.
fn keeps_too_many(fields: &[SelectableField], old: Option<&[SelectableField]>) -> bool {
    old.is_some_and(|old| old.len() > MAX_SELECTABLE_FIELDS && old == fields)
}

// A conversion other than `None` needs pruning (`preserveUnknownFields`
// false; unset counts as true).
fn strategy_needs_pruning(spec: &CrdSpec) -> Option<FieldError> {
    let conversion = spec.conversion.as_ref()?;
    (conversion.strategy != "None" && spec.preserve_unknown_fields != Some(false)).then(|| {
        let path = Path::new("spec").child("conversion").child("strategy");
        FieldError::invalid(&path, conversion.strategy.as_str(), "must be None if spec.preserveUnknownFields is true")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn create() -> SpecOptions<'static> {
        SpecOptions {
            schema: ValidationOptions::for_create(),
            conversion: ConversionOptions::CREATE,
            require_immutable_names: false,
            old: None,
        }
    }

    #[test]
    fn group_and_scope() {
        let texts = |g: &str, s: &str| -> Vec<String> {
            group(g, &Path::new("g")).into_iter().chain(scope(s, &Path::new("s"))).map(|e| e.to_string()).collect()
        };
        assert_eq!(texts("", ""), ["g: Required value", "s: Required value"]);
        assert_eq!(
            texts("group", "cluster"),
            [
                "g: Invalid value: \"group\": should be a domain with at least one dot",
                "s: Unsupported value: \"cluster\": supported values: \"Cluster\", \"Namespaced\"",
            ]
        );
        assert!(texts("Group.com", "Cluster")[0].starts_with("g: Invalid value: \"Group.com\": a lowercase RFC 1123"));
    }

    #[test]
    fn immutable_fields_of_an_update() {
        let old = CrdSpec { group: "a.io".into(), scope: "Cluster".into(), ..CrdSpec::default() };
        let new = CrdSpec { group: "b.io".into(), scope: "Namespaced".into(), ..CrdSpec::default() };
        let established = SpecOptions { require_immutable_names: true, ..create() };
        let immutable = |options: &SpecOptions<'_>| -> Vec<String> {
            validate_spec_update(&new, &old, options)
                .iter()
                .map(ToString::to_string)
                .filter(|e| e.ends_with("field is immutable"))
                .collect()
        };
        assert_eq!(immutable(&create()), ["spec.group: Invalid value: \"b.io\": field is immutable"]);
        assert_eq!(immutable(&established).len(), 2);
    }
}
