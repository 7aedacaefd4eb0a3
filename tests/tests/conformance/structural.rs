//! Runner for `structural.json`.

use serde_json::Value;

pub fn run(_case: &Value) -> Result<(), String> {
    Err("runner not written yet".to_owned())
}
