//! Runner for `structural.json`: structural invariants, completeness,
//! conversion errors and the NonStructuralSchema condition.

use crd_schema::field::{ErrorList, Path, aggregate};
use crd_schema::structural::{self, Level, ValidationOptions};
use crd_schema::wire::JSONSchemaProps;
use serde_json::Value;

use crate::compare;

/// Runs one case of `structural.json` by its `check`.
pub fn run(case: &Value) -> Result<(), String> {
    match case["check"].as_str().unwrap_or_default() {
        "ValidateStructural" => validate_structural(case),
        "NewStructural" => new_structural(case),
        "metadata-invariants" => metadata_invariants(case),
        "completeness" => completeness(case),
        "nested-value-validation" => nested_value_validation(case),
        "nonstructural-condition" => nonstructural_condition(case),
        other => Err(format!("unknown check {other:?}")),
    }
}

fn validate_structural(case: &Value) -> Result<(), String> {
    let s = structural_of(&case["schema"])?;
    let path = match case["path"].as_str() {
        Some(p) if !p.is_empty() => Path::new(p),
        _ => Path::root(),
    };
    let errors = structural::validate_structural(&path, &s, &options(&case["options"]));
    expect_errors(case, &errors)
}

fn new_structural(case: &Value) -> Result<(), String> {
    let schema = schema_of(&case["schema"])?;
    let actual = structural::new_structural(&schema).err().map(|e| e.to_string());
    let expected = case["newStructuralError"].as_str().map(str::to_owned);
    if actual == expected {
        Ok(())
    } else {
        Err(format!("  expected error: {expected:?}\n  actual error:   {actual:?}"))
    }
}

fn metadata_invariants(case: &Value) -> Result<(), String> {
    let s = structural_of(&case["metadata"])?;
    let level = match case["level"].as_str() {
        Some("root") => Level::Root,
        Some("item") => Level::Item,
        Some("field") => Level::Field,
        other => return Err(format!("unknown level {other:?}")),
    };
    let check_metadata = case["checkMetadata"].as_bool().unwrap_or(false);
    let errors = structural::validate_metadata_invariants(&Path::root(), &s, check_metadata, level);
    if let Some(valid) = case["valid"].as_bool()
        && valid != errors.is_empty()
    {
        return Err(format!("  expected valid={valid}, got {} errors", errors.len()));
    }
    expect_errors(case, &errors)
}

fn completeness(case: &Value) -> Result<(), String> {
    let s = structural_of(&case["schema"])?;
    let errors = structural::validate_structural_completeness(&Path::root(), &s, &options(&case["options"]));
    let texts = texts(&errors);
    if let Some(pinned) = case["pinnedContains"].as_str()
        && !texts.iter().any(|t| t.contains(pinned))
    {
        return Err(format!("  no error contains {pinned:?}\n  actual:\n{}", compare::bullet(&texts)));
    }
    expect_errors(case, &errors)
}

fn nested_value_validation(case: &Value) -> Result<(), String> {
    let schema = schema_of(&case["nested"])?;
    let nested = structural::new_nested_value_validation(&schema).map_err(|e| format!("conversion failed: {e}"))?;
    let errors = structural::validate_nested_value_validation(&Path::root(), &nested, &options(&case["options"]));
    expect_errors(case, &errors)
}

fn nonstructural_condition(case: &Value) -> Result<(), String> {
    let spec = &case["crd"]["spec"];
    let preserve = spec["preserveUnknownFields"].as_bool();
    let mut schemas = Vec::new();
    for version in spec["versions"].as_array().map(Vec::as_slice).unwrap_or_default() {
        let schema = &version["schema"]["openAPIV3Schema"];
        schemas.push(if schema.is_null() { None } else { Some(schema_of(schema)?) });
    }
    let refs: Vec<Option<&JSONSchemaProps>> = schemas.iter().map(Option::as_ref).collect();
    let errors = structural::nonstructural_condition(preserve, &refs);
    let message = if errors.is_empty() { String::new() } else { aggregate(&errors) };
    for pinned in compare::strings(&case["pinnedContained"]) {
        if !message.contains(&pinned) {
            return Err(format!("  condition message lacks {pinned:?}\n  message: {message}"));
        }
    }
    for pinned in compare::strings(&case["pinnedNotContained"]) {
        if message.contains(&pinned) {
            return Err(format!("  condition message contains {pinned:?}\n  message: {message}"));
        }
    }
    expect_errors(case, &errors)
}

/// Compares the rendered errors with the case's `errors` and `errorsOrder`.
fn expect_errors(case: &Value, errors: &ErrorList) -> Result<(), String> {
    let order = case["errorsOrder"].as_str().unwrap_or("as-listed");
    compare::texts(&texts(errors), &compare::strings(&case["errors"]), order)
}

fn texts(errors: &ErrorList) -> Vec<String> {
    errors.iter().map(ToString::to_string).collect()
}

fn schema_of(v: &Value) -> Result<JSONSchemaProps, String> {
    JSONSchemaProps::from_value(v).map_err(|e| format!("schema does not decode: {e}"))
}

fn structural_of(v: &Value) -> Result<structural::Structural, String> {
    structural::new_structural(&schema_of(v)?).map_err(|e| format!("NewStructural failed: {e}"))
}

fn options(v: &Value) -> ValidationOptions {
    let flag = |name: &str| v[name].as_bool().unwrap_or(false);
    ValidationOptions {
        allow_nested_additional_properties: flag("allowNestedAdditionalProperties"),
        allow_nested_x_validations: flag("allowNestedXValidations"),
        allow_validation_properties_with_additional_properties: flag(
            "allowValidationPropertiesWithAdditionalProperties",
        ),
    }
}
