//! Runner for `pruning.json`: pruning with and without path tracking, and
//! its idempotence.

use crd_schema::pruning;
use crd_schema::structural::{Structural, new_structural};
use crd_schema::wire::JSONSchemaProps;
use serde_json::Value;

use crate::compare;

/// Runs one case of `pruning.json`.
pub fn run(case: &Value) -> Result<(), String> {
    let schema = optional_structural(&case["schema"])?;
    let is_resource_root = case["isResourceRoot"].as_bool().unwrap_or(false);
    let expected = &case["expected"];

    let mut tracked = case["input"].clone();
    let pruned = pruning::prune(&mut tracked, schema.as_ref(), is_resource_root);
    json_values("tracked", &tracked, expected)?;
    let expected_pruned = compare::strings(&case["expectedPruned"]);
    compare::texts(&pruned, &expected_pruned, "as-listed").map_err(|e| format!("  pruned paths:\n{e}"))?;

    let mut untracked = case["input"].clone();
    pruning::prune_untracked(&mut untracked, schema.as_ref(), is_resource_root);
    json_values("untracked", &untracked, expected)?;

    let mut again = expected.clone();
    let repruned = pruning::prune(&mut again, schema.as_ref(), is_resource_root);
    json_values("re-pruned", &again, expected)?;
    if repruned.is_empty() { Ok(()) } else { Err(format!("  re-pruning reported {repruned:?}")) }
}

/// The schema of a case: `null` means no schema at all. The conformance
/// schemas (missing `type`, nested `additionalProperties: false`) all
/// convert with the ordinary structural conversion.
pub fn optional_structural(v: &Value) -> Result<Option<Structural>, String> {
    if v.is_null() {
        return Ok(None);
    }
    let props = JSONSchemaProps::from_value(v).map_err(|e| format!("schema does not decode: {e}"))?;
    new_structural(&props).map(Some).map_err(|e| format!("NewStructural failed: {e}"))
}

/// Compares `actual` with `expected`, numbers by value (`1` equals `1.0`).
pub fn json_values(what: &str, actual: &Value, expected: &Value) -> Result<(), String> {
    if crd_tests::json_eq(actual, expected) {
        Ok(())
    } else {
        Err(format!("  {what}: expected {expected}\n  actual:   {actual}"))
    }
}
