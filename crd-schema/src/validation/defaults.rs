//! The default-value check of CRD schemas
//! (`structuraldefaulting.ValidateDefaults`) and the pruned-defaults
//! question asked about stored CRDs on update.
//!
//! Both need pruning, ObjectMeta coercion and value validation of custom
//! resource values, which land with the decode pipeline (issue 3). The
//! functions here are the hooks where that work plugs in; until then they
//! report nothing.

use super::schema_has;
use crate::field::{ErrorList, Path};
use crate::structural::{self, Structural};
use crate::wire::JSONSchemaProps;

/// The default-value check of a structural `schema` at `path` (a resource
/// root): pruned defaults when `require_pruned`, ObjectMeta of embedded
/// resources, defaults validated against their schema and their CEL rules.
///
/// Hook: lands with the decode pipeline (issue 3). Until then it reports
/// nothing, so CRD validation goes on as if every default were valid.
pub(super) fn validate_defaults(_path: &Path, _schema: &Structural, _require_pruned: bool) -> ErrorList {
    ErrorList::new()
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

/// Whether pruning the defaults of `schema` changes any of them.
///
/// Hook: lands with pruning in the decode pipeline (issue 3). Until then no
/// default counts as unpruned, so pruned defaults stay required on update.
fn pruning_changes_defaults(_schema: &Structural) -> bool {
    false
}
