//! Runner for `value-validation.json`: validation of objects against their
//! schema, and format recognition per Kubernetes version.

use crd_schema::cel::{CelValidator, RUNTIME_COST_BUDGET};
use crd_schema::field::Path;
use crd_schema::value_validation::{CompatibilityVersion, Validator, unrecognized_formats};
use serde_json::Value;

use crate::{compare, pruning};

/// Runs one case of `value-validation.json` by its `check`.
pub fn run(case: &Value) -> Result<(), String> {
    match case["check"].as_str() {
        None => validate(case),
        Some("unrecognized-formats") => unrecognized(case),
        Some(other) => Err(format!("unknown check {other:?}")),
    }
}

// `object` against `schema`: the complete error texts, and `valid`. The
// schema's `x-kubernetes-validations` run too, as an update from
// `oldObject` when the case has one.
fn validate(case: &Value) -> Result<(), String> {
    let schema = pruning::optional_structural(&case["schema"])?.ok_or("case without a schema")?;
    let validator = Validator::for_version(&schema, version(case)?);
    let mut errors = validator.validate(&case["object"], &Path::root());
    let old = case.get("oldObject");
    let mut budget = RUNTIME_COST_BUDGET;
    errors.extend(CelValidator::new(&schema).validate(&Path::root(), &case["object"], old, &mut budget));
    let texts: Vec<String> = errors.iter().map(ToString::to_string).collect();
    if let Some(valid) = case["valid"].as_bool()
        && valid != errors.is_empty()
    {
        return Err(format!("  expected valid={valid}, got:\n{}", compare::bullet(&texts)));
    }
    let order = case["errorsOrder"].as_str().unwrap_or("unordered");
    compare::texts(&texts, &compare::strings(&case["errors"]), order)
}

// Whether `format` is recognised for `type` (a name, a list or `null`).
fn unrecognized(case: &Value) -> Result<(), String> {
    let types: Vec<String> = match &case["type"] {
        Value::String(t) => vec![t.clone()],
        Value::Array(_) => compare::strings(&case["type"]),
        _ => Vec::new(),
    };
    let format = case["format"].as_str().unwrap_or_default();
    let actual = unrecognized_formats(&types, format, version(case)?);
    compare::texts(&actual, &compare::strings(&case["unrecognized"]), "as-listed")
}

// `compatibilityVersion`, the latest when absent.
fn version(case: &Value) -> Result<CompatibilityVersion, String> {
    match case["compatibilityVersion"].as_str() {
        None => Ok(CompatibilityVersion::LATEST),
        Some(text) => CompatibilityVersion::parse(text).ok_or_else(|| format!("bad compatibilityVersion {text:?}")),
    }
}
