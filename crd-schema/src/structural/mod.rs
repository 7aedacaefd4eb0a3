//! The structural form of a schema (KEP-2335) and its invariants, as
//! `k8s.io/apiextensions-apiserver/pkg/apiserver/schema`.
//!
//! Entry points: [`new_structural`] (conversion, failing on keywords a
//! structural schema cannot hold), [`validate_structural`] (every invariant,
//! errors sorted), and [`nonstructural_condition`] (the NonStructuralSchema
//! condition of a stored CRD).

use crate::field::{ErrorList, Path};
use crate::wire::JSONSchemaProps;

/// Options of the structural checks; all `false` for CRDs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ValidationOptions {
    /// Allow `additionalProperties` inside junctors.
    pub allow_nested_additional_properties: bool,
    /// Allow `x-kubernetes-validations` inside `allOf`.
    pub allow_nested_x_validations: bool,
    /// Allow junctor properties that exist only through `additionalProperties`.
    pub allow_validation_properties_with_additional_properties: bool,
}

/// A schema in structural form.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Structural {}

/// Converts a schema to the structural form. Fails with Kubernetes' text
/// (`OpenAPIV3Schema 'id' is not supported`, ...).
pub fn new_structural(_schema: &JSONSchemaProps) -> Result<Structural, String> {
    Ok(Structural {})
}

/// Every structural invariant of `schema`, under the path `path`, sorted by
/// their text.
pub fn validate_structural(_path: &Path, _schema: &Structural, _options: &ValidationOptions) -> ErrorList {
    ErrorList::new()
}

/// The errors behind a stored v1 CRD's NonStructuralSchema condition:
/// `preserveUnknownFields: true` first, then each version's structural
/// errors under `spec.versions[<i>].schema.openAPIV3Schema`.
pub fn nonstructural_condition(
    _preserve_unknown_fields: Option<bool>,
    _versions: &[Option<&JSONSchemaProps>],
) -> ErrorList {
    ErrorList::new()
}
