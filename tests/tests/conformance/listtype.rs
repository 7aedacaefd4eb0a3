//! Runner for `listtype.json`: duplicate detection in `set` and `map`
//! lists.

use crd_schema::field::Path;
use crd_schema::listtype::validate_list_set_and_map;
use serde_json::Value;

use crate::{compare, pruning};

/// Runs one case of `listtype.json`: the complete error texts, and every
/// pinned `{field, type}` pair among the errors.
pub fn run(case: &Value) -> Result<(), String> {
    let path = match case["path"].as_str() {
        Some(p) if !p.is_empty() => Path::new(p),
        _ => Path::root(),
    };
    let errors = match pruning::optional_structural(&case["schema"])? {
        Some(schema) => validate_list_set_and_map(&path, &schema, &case["object"]),
        None => Vec::new(),
    };
    let texts: Vec<String> = errors.iter().map(ToString::to_string).collect();
    let order = case["errorsOrder"].as_str().unwrap_or("unordered");
    compare::texts(&texts, &compare::strings(&case["errors"]), order)?;
    for pinned in case["pinned"].as_array().map(Vec::as_slice).unwrap_or_default() {
        let (field, kind) = (pinned["field"].as_str().unwrap_or_default(), pinned["type"].as_str().unwrap_or_default());
        if !errors.iter().any(|e| e.path.to_string() == field && e.kind.go_name() == kind) {
            return Err(format!("  no error {kind} at {field}\n  actual:\n{}", compare::bullet(&texts)));
        }
    }
    Ok(())
}
