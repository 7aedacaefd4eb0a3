//! The versions of a CRD, as the version checks of Go's
//! `validateCustomResourceDefinitionSpec`, `validateDeprecationWarning` and
//! `ValidateCustomResourceDefinitionStoredVersions`: version names,
//! deprecation warnings, top-level against per-version fields, unique
//! names, the one storage version, `spec.version`, and
//! `status.storedVersions`.
//!
//! Errors on `spec.versions` show the whole list as their value; Kubernetes
//! prints its internal structs there, the versions' JSON stands in.

use serde_json::Value;

use crate::crd::{CrdSpec, CrdVersion};
use crate::field::{ErrorList, FieldError, Path};
use crate::objectmeta::names::is_dns1035_label;

/// The longest deprecation warning, in bytes.
const MAX_DEPRECATION_WARNING: usize = 256;

// A version's name is a DNS-1035 label (messages joined with `,`); so is a
// non-empty `spec.version`.
pub(super) fn version_name(name: &str, path: &Path) -> Option<FieldError> {
    let errs = is_dns1035_label(name);
    (!errs.is_empty()).then(|| FieldError::invalid(path, name, errs.join(",")))
}

/// The problems of one version's deprecation warning (`None` when
/// absent), in order, as Go's `validateDeprecationWarning`: a warning on a
/// version that is not deprecated is only that; otherwise more than 256
/// bytes, empty, and the first character Go does not consider printable
/// (at its byte index). Go also rejects invalid UTF-8, which a `&str`
/// cannot hold.
pub fn validate_deprecation_warning(deprecated: bool, warning: Option<&str>) -> Vec<String> {
    let Some(warning) = warning else { return Vec::new() };
    if !deprecated {
        return vec!["can only be set for deprecated versions".to_owned()];
    }
    let mut details = Vec::new();
    if warning.len() > MAX_DEPRECATION_WARNING {
        details.push(format!("must be <= {MAX_DEPRECATION_WARNING} characters long"));
    }
    if warning.is_empty() {
        details.push("must not be an empty string".to_owned());
    }
    if let Some((i, _)) = warning.char_indices().find(|(_, c)| !crate::gofmt::is_go_printable(*c)) {
        details
            .push(format!("must only contain printable UTF-8 characters; non-printable character found at index {i}"));
    }
    details
}

// Each problem of the warning is an error of its own at
// `<version>.deprecationWarning`.
pub(super) fn deprecation_errors(version: &CrdVersion, path: &Path) -> ErrorList {
    let warning = version.deprecation_warning.as_deref();
    let value = warning.map_or(Value::Null, |w| Value::String(w.to_owned()));
    validate_deprecation_warning(version.deprecated, warning)
        .into_iter()
        .map(|detail| FieldError::invalid(&path.child("deprecationWarning"), value.clone(), detail))
        .collect()
}

// A top-level field excludes the per-version ones: a schema or
// subresources (even empty) on any version, non-empty columns on any
// version when the top-level columns are non-empty.
pub(super) fn top_level_exclusive(spec: &CrdSpec) -> ErrorList {
    let spec_path = Path::new("spec");
    let forbidden = |key: &str| {
        let detail = format!("top-level and per-version {key} are mutually exclusive");
        FieldError::forbidden(&spec_path.child(key), detail)
    };
    let mut errors = ErrorList::new();
    if spec.validation.is_some() && spec.versions.iter().any(|v| v.schema.is_some()) {
        errors.push(FieldError::forbidden(
            &spec_path.child("validation"),
            "top-level and per-version schemas are mutually exclusive",
        ));
    }
    if spec.subresources.is_some() && spec.versions.iter().any(|v| v.subresources.is_some()) {
        errors.push(forbidden("subresources"));
    }
    if !spec.additional_printer_columns.is_empty()
        && spec.versions.iter().any(|v| !v.additional_printer_columns.is_empty())
    {
        errors.push(forbidden("additionalPrinterColumns"));
    }
    errors
}

// A per-version field that every version sets to the same value belongs
// at the top level: one error per field (schemas, subresources, columns).
pub(super) fn identical_per_version(spec: &CrdSpec) -> ErrorList {
    let versions = &spec.versions;
    let identical = |set: &dyn Fn(&CrdVersion) -> bool, same: &dyn Fn(&CrdVersion, &CrdVersion) -> bool| {
        versions.first().is_some_and(|first| versions.iter().all(|v| set(v) && same(v, first)))
    };
    let checks: [(bool, &str, &str); 3] = [
        (identical(&|v| v.schema.is_some(), &|a, b| a.schema == b.schema), "schemas", "validation"),
        (
            identical(&|v| v.subresources.is_some(), &|a, b| a.subresources == b.subresources),
            "subresources",
            "subresources",
        ),
        (
            identical(&|v| !v.additional_printer_columns.is_empty(), &|a, b| {
                a.additional_printer_columns == b.additional_printer_columns
            }),
            "additionalPrinterColumns",
            "additionalPrinterColumns",
        ),
    ];
    checks
        .into_iter()
        .filter(|(identical, _, _)| *identical)
        .map(|(_, what, top)| {
            let detail = format!(
                "per-version {what} may not all be set to identical values (top-level {top} should be used instead)"
            );
            versions_error(spec, detail)
        })
        .collect()
}

// Version names are unique, and exactly one version is the storage
// version (also when there are none).
pub(super) fn unique_and_storage(spec: &CrdSpec) -> ErrorList {
    let mut errors = ErrorList::new();
    let names: Vec<&str> = spec.versions.iter().map(|v| v.name.as_str()).collect();
    if names.iter().enumerate().any(|(i, name)| names[..i].contains(name)) {
        errors.push(versions_error(spec, "must contain unique version names"));
    }
    if spec.versions.iter().filter(|v| v.storage).count() != 1 {
        errors.push(versions_error(spec, "must have exactly one version marked as storage version"));
    }
    errors
}

// A non-empty `spec.version` is a DNS-1035 label and names the first
// version.
pub(super) fn spec_version(spec: &CrdSpec) -> ErrorList {
    if spec.version.is_empty() {
        return ErrorList::new();
    }
    let path = Path::new("spec").child("version");
    let mut errors: ErrorList = version_name(&spec.version, &path).into_iter().collect();
    if spec.versions.first().is_some_and(|first| first.name != spec.version) {
        let detail = "must match the first version in spec.versions";
        errors.push(FieldError::invalid(&path, spec.version.as_str(), detail));
    }
    errors
}

fn versions_error(spec: &CrdSpec, detail: impl Into<String>) -> FieldError {
    let value = Value::Array(spec.versions.iter().map(CrdVersion::to_value).collect());
    FieldError::invalid(&Path::new("spec").child("versions"), value, detail)
}

/// `status.storedVersions` against `spec.versions`, at `path`: an absent or
/// empty list is one error; otherwise every storage version must be listed
/// and every listed version must still be in `spec.versions` (reported at
/// its last index, in list order).
pub fn validate_stored_versions(stored: Option<&[String]>, versions: &[CrdVersion], path: &Path) -> ErrorList {
    let list = stored.map_or(Value::Null, |s| Value::Array(s.iter().cloned().map(Value::String).collect()));
    let Some(stored) = stored.filter(|s| !s.is_empty()) else {
        return vec![FieldError::invalid(path, list, "must have at least one stored version")];
    };
    let mut errors = ErrorList::new();
    for version in versions.iter().filter(|v| v.storage && !stored.contains(&v.name)) {
        errors.push(FieldError::invalid(path, list.clone(), format!("must have the storage version {}", version.name)));
    }
    for (i, name) in stored.iter().enumerate() {
        let last = !stored[i + 1..].contains(name);
        if last && !versions.iter().any(|v| &v.name == name) {
            let detail = format!(
                "missing from spec.versions; {name} was previously a storage version, and must remain in \
                 spec.versions until a storage migration ensures no data remains persisted in {name} and removes \
                 {name} from status.storedVersions"
            );
            errors.push(FieldError::invalid(&path.index(i), name.as_str(), detail));
        }
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    fn version(name: &str, storage: bool) -> CrdVersion {
        CrdVersion { name: name.into(), storage, ..CrdVersion::default() }
    }

    #[test]
    fn deprecation_warning_details_come_in_order() {
        assert!(validate_deprecation_warning(false, None).is_empty());
        assert_eq!(validate_deprecation_warning(false, Some("")), ["can only be set for deprecated versions"]);
        assert_eq!(validate_deprecation_warning(true, Some("")), ["must not be an empty string"]);
        let long = format!("{}\u{7f}", "é".repeat(128));
        assert_eq!(
            validate_deprecation_warning(true, Some(&long)),
            [
                "must be <= 256 characters long",
                "must only contain printable UTF-8 characters; non-printable character found at index 256"
            ]
        );
    }

    #[test]
    fn stored_versions_report_each_stale_entry_once() {
        let versions = [version("v1", true)];
        let stored = ["v0".to_owned(), "v1".to_owned(), "v0".to_owned()];
        let errors = validate_stored_versions(Some(&stored), &versions, &Path::new("s"));
        assert_eq!(errors.len(), 1);
        assert!(errors[0].to_string().starts_with("s[2]: Invalid value: \"v0\": missing from spec.versions; v0 was"));
        let none = validate_stored_versions(None, &versions, &Path::new("s"));
        assert_eq!(none[0].to_string(), "s: Invalid value: null: must have at least one stored version");
    }

    #[test]
    fn spec_version_must_name_the_first_version() {
        let spec = CrdSpec { version: "v2".into(), versions: vec![version("v1", true)], ..CrdSpec::default() };
        let errors = spec_version(&spec);
        assert_eq!(
            errors[0].to_string(),
            "spec.version: Invalid value: \"v2\": must match the first version in spec.versions"
        );
    }
}
