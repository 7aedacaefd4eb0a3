//! The NonStructuralSchema condition of a stored v1 CRD, as the
//! `nonstructuralschema` controller of apiextensions-apiserver computes it.

use super::{ValidationOptions, new_structural, validate_structural};
use crate::field::{ErrorList, FieldError, Path, aggregate};
use crate::wire::JSONSchemaProps;

/// The NonStructuralSchema condition as the API server sets it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NonStructuralCondition {
    /// `"True"` for violations; `"Unknown"` when a schema could not be
    /// converted.
    pub status: &'static str,
    /// `"Violations"` or `"StructuralError"`.
    pub reason: &'static str,
    /// The aggregated violations (`e` or `[e1, e2, ...]`), or the
    /// conversion failure.
    pub message: String,
}

/// The errors behind a stored v1 CRD's NonStructuralSchema condition:
/// `preserveUnknownFields: true` first, then each version's structural
/// errors (sorted) under `spec.versions[<i>].schema.openAPIV3Schema`.
/// Versions without a schema are skipped.
///
/// A schema that cannot be converted at all (see [`new_structural`]) is
/// reported as an `Internal error` at its path; Kubernetes reports a
/// condition with reason `StructuralError` instead, which
/// [`nonstructural_condition_status`] reproduces.
pub fn nonstructural_condition(
    preserve_unknown_fields: Option<bool>,
    versions: &[Option<&JSONSchemaProps>],
) -> ErrorList {
    let mut errors = preserve_unknown_fields_error(preserve_unknown_fields);
    for (i, schema) in versions.iter().enumerate() {
        let Some(schema) = schema else { continue };
        let path = version_path(i);
        match new_structural(schema) {
            Ok(s) => errors.extend(validate_structural(&path, &s, &ValidationOptions::default())),
            Err(e) => errors.push(FieldError::internal(&path, e.to_string())),
        }
    }
    errors
}

/// The NonStructuralSchema condition of a stored v1 CRD whose versions are
/// `(name, schema)`; `None` when the CRD is structural. The first schema
/// that cannot be converted gives reason `StructuralError` with message
/// `failed to check validation schema for version <name>: <error>`.
pub fn nonstructural_condition_status(
    preserve_unknown_fields: Option<bool>,
    versions: &[(&str, Option<&JSONSchemaProps>)],
) -> Option<NonStructuralCondition> {
    let mut errors = preserve_unknown_fields_error(preserve_unknown_fields);
    for (i, (name, schema)) in versions.iter().enumerate() {
        let Some(schema) = schema else { continue };
        match new_structural(schema) {
            Ok(s) => errors.extend(validate_structural(&version_path(i), &s, &ValidationOptions::default())),
            Err(e) => {
                let message = format!("failed to check validation schema for version {name}: {e}");
                return Some(NonStructuralCondition { status: "Unknown", reason: "StructuralError", message });
            }
        }
    }
    (!errors.is_empty()).then(|| NonStructuralCondition {
        status: "True",
        reason: "Violations",
        message: aggregate(&errors),
    })
}

// Pruning must be on for a structural CRD.
fn preserve_unknown_fields_error(preserve_unknown_fields: Option<bool>) -> ErrorList {
    let mut errors = ErrorList::new();
    if preserve_unknown_fields == Some(true) {
        errors.push(FieldError::invalid(&Path::new("spec").child("preserveUnknownFields"), true, "must be false"));
    }
    errors
}

fn version_path(i: usize) -> Path {
    Path::new("spec").child("versions").index(i).child("schema").child("openAPIV3Schema")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn preserve_unknown_fields_then_versions() {
        let bad = JSONSchemaProps::from_value(&json!({"type": "integer"})).unwrap();
        let good = JSONSchemaProps::from_value(&json!({"type": "object"})).unwrap();
        let got: Vec<String> = nonstructural_condition(Some(true), &[Some(&good), None, Some(&bad)])
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            got,
            vec![
                "spec.preserveUnknownFields: Invalid value: true: must be false",
                "spec.versions[2].schema.openAPIV3Schema.type: Invalid value: \"integer\": must be object at the root",
            ]
        );
        assert!(nonstructural_condition(Some(false), &[Some(&good)]).is_empty());
    }

    #[test]
    fn status_for_violations_and_conversion_errors() {
        let bad = JSONSchemaProps::from_value(&json!({"type": ""})).unwrap();
        let c = nonstructural_condition_status(None, &[("v1", Some(&bad))]).unwrap();
        assert_eq!(c.reason, "Violations");
        assert_eq!(
            c.message,
            "spec.versions[0].schema.openAPIV3Schema.type: Required value: must not be empty at the root"
        );
        let broken = JSONSchemaProps::from_value(&json!({"type": "object", "id": "x"})).unwrap();
        let c = nonstructural_condition_status(Some(true), &[("v1", Some(&broken))]).unwrap();
        assert_eq!((c.status, c.reason), ("Unknown", "StructuralError"));
        assert_eq!(
            c.message,
            "failed to check validation schema for version v1: OpenAPIV3Schema 'id' is not supported"
        );
        let good = JSONSchemaProps::from_value(&json!({"type": "object"})).unwrap();
        assert_eq!(nonstructural_condition_status(Some(false), &[("v1", Some(&good))]), None);
    }
}
