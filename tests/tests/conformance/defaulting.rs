//! Runner for `defaulting.json` and `prune-nulls.json`.

use crd_schema::defaulting;
use serde_json::Value;

use crate::pruning;

/// Runs one case of `defaulting.json`.
pub fn run(case: &Value) -> Result<(), String> {
    let schema = pruning::optional_structural(&case["schema"])?;
    let mut value = case["input"].clone();
    defaulting::default(&mut value, schema.as_ref());
    pruning::json_values("defaulted", &value, &case["expected"])
}

/// Runs one case of `prune-nulls.json`.
pub fn run_prune_nulls(case: &Value) -> Result<(), String> {
    let schema = pruning::optional_structural(&case["schema"])?;
    let mut value = case["input"].clone();
    defaulting::prune_nulls(&mut value, schema.as_ref());
    pruning::json_values("null-pruned", &value, &case["expected"])
}
