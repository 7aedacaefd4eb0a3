//! Runner for `objectmeta.json`: coercion, ObjectMeta decoding and
//! validation of `apiVersion`/`kind`/`metadata`.

use crd_schema::field::Path;
use crd_schema::objectmeta::{self, CoerceOptions, ObjectMetaOptions};
use serde_json::Value;

use crate::{compare, pruning};

/// Runs one case of `objectmeta.json`, chosen by its `function`.
pub fn run(case: &Value) -> Result<(), String> {
    match case["function"].as_str() {
        Some("coerce") => run_coerce(case),
        Some("getObjectMeta") => run_get_object_meta(case),
        Some("validate") => run_validate(case),
        other => Err(format!("  unknown function {other:?}")),
    }
}

fn flag(case: &Value, name: &str) -> bool {
    case[name].as_bool().unwrap_or(false)
}

fn run_coerce(case: &Value) -> Result<(), String> {
    let schema = pruning::optional_structural(&case["schema"])?;
    let options = CoerceOptions {
        drop_invalid_fields: flag(case, "dropInvalidFields"),
        return_unknown_field_paths: flag(case, "returnUnknownFieldPaths"),
    };
    let mut value = case["input"].clone();
    let result = objectmeta::coerce(&Path::root(), &mut value, schema.as_ref(), flag(case, "isResourceRoot"), options);
    match (result, flag(case, "expectError")) {
        (Ok(unknown), false) => {
            pruning::json_values("coerced", &value, &case["expected"])?;
            let expected = compare::strings(&case["expectedUnknownFieldPaths"]);
            compare::texts(&unknown, &expected, "as-listed").map_err(|e| format!("  unknown field paths:\n{e}"))
        }
        (Ok(_), true) => Err(format!("  expected an error, got {value}")),
        (Err(e), false) => Err(format!("  unexpected error: {e}")),
        (Err(e), true) => match case["expectedErrorMessage"].as_str() {
            Some(expected) if expected != e.to_string() => Err(format!("  expected error {expected:?}\n  actual: {e}")),
            _ => Ok(()),
        },
    }
}

fn run_get_object_meta(case: &Value) -> Result<(), String> {
    let input = case["input"].as_object().ok_or("  input is not an object")?;
    let options = ObjectMetaOptions {
        drop_malformed_fields: flag(case, "dropMalformedFields"),
        return_unknown_field_paths: flag(case, "returnUnknownFieldPaths"),
        parent_path: Path::root(),
    };
    let (meta, mut unknown, error) = match objectmeta::get_object_meta(input, &options) {
        Ok(Some(decoded)) => (decoded.meta.to_value(), decoded.unknown_field_paths, Value::Null),
        Ok(None) => (Value::Null, Vec::new(), Value::Null),
        Err(e) => (Value::Null, Vec::new(), Value::String(e.0)),
    };
    pruning::json_values("object meta", &meta, &case["expectedObjectMeta"])?;
    pruning::json_values("error", &error, &case["expectedError"])?;
    // Upstream collects these in map order when dropping fields.
    unknown.sort();
    let expected = compare::strings(&case["expectedUnknownFieldPaths"]);
    compare::texts(&unknown, &expected, "unordered").map_err(|e| format!("  unknown field paths:\n{e}"))
}

fn run_validate(case: &Value) -> Result<(), String> {
    let schema = pruning::optional_structural(&case["schema"])?;
    let errors = objectmeta::validate(&Path::root(), &case["input"], schema.as_ref(), flag(case, "isResourceRoot"));
    let mut actual: Vec<(String, String, String)> =
        errors.iter().map(|e| (e.kind.go_name().to_owned(), e.path.to_string(), e.to_string())).collect();
    let expected = case["expectedErrors"].as_array().cloned().unwrap_or_default();
    let mut missing = Vec::new();
    for e in &expected {
        let (kind, field, message) = (e["type"].as_str(), e["field"].as_str(), e["message"].as_str());
        let found = actual.iter().position(|(k, f, m)| {
            Some(k.as_str()) == kind && Some(f.as_str()) == field && message.is_none_or(|msg| msg == m)
        });
        match found {
            Some(i) => {
                actual.remove(i);
            }
            None => missing.push(e.to_string()),
        }
    }
    if missing.is_empty() && actual.is_empty() {
        return Ok(());
    }
    let extra: Vec<String> = actual.into_iter().map(|(_, _, m)| m).collect();
    Err(format!("  missing:\n{}\n  unexpected:\n{}", compare::bullet(&missing), compare::bullet(&extra)))
}
