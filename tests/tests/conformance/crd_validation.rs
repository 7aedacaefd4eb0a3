//! Runner for `crd-schema-validation.json`.
//!
//! Checks: `crd-validation` (one validation block under explicit options),
//! `crd-create` / `crd-update` (the schema-related errors of a CRD spec in
//! the internal layout), `field-path` (the `fieldPath` resolver). Error
//! objects compare as a multiset of (field, type, message); where the case
//! gives no `message` (CEL, default-check and Go-struct-dump errors) only
//! field, type and — when present — detail or a `contains` substring are
//! compared.

use crd_schema::crd::{CrdSpec, CustomResourceValidation};
use crd_schema::field::{FieldError, Path};
use crd_schema::validation::{self, ValidationOptions, fieldpath};
use crd_schema::wire::JSONSchemaProps;
use serde_json::Value;

use crate::compare;

pub fn run(case: &Value) -> Result<(), String> {
    match case["check"].as_str() {
        Some("crd-validation") => crd_validation(case),
        Some("crd-create") => {
            let spec = spec(&case["crd"]["spec"])?;
            compare_errors(case, &validation::validate_crd_schemas_create(&spec))
        }
        Some("crd-update") => {
            let spec = spec(&case["crd"]["spec"])?;
            let old = spec_of(&case["oldCrd"]["spec"], "oldCrd.spec")?;
            compare_errors(case, &validation::validate_crd_schemas_update(&spec, &old))
        }
        Some("field-path") => field_path(case),
        other => Err(format!("  unknown check {other:?}")),
    }
}

fn crd_validation(case: &Value) -> Result<(), String> {
    let block = &case["validation"];
    let schema = match &block["openAPIV3Schema"] {
        Value::Null => None,
        v => Some(schema(v)?),
    };
    let validation = (!block.is_null()).then_some(CustomResourceValidation { open_api_v3_schema: schema });
    let path = dotted_path(case["path"].as_str().unwrap_or("spec.validation"));
    let status = case["statusSubresource"].as_bool().unwrap_or(false);
    let options = options(&case["options"]);
    let errors = validation::validate_custom_resource_validation(&path, validation.as_ref(), status, &options);
    compare_errors(case, &errors)
}

fn field_path(case: &Value) -> Result<(), String> {
    let schema = schema(&case["schema"])?;
    let fp = case["fieldPath"].as_str().ok_or("  no fieldPath")?;
    let resolved = fieldpath::resolve(&schema, fp).map_err(|e| e.to_string());
    let valid = fieldpath::is_valid(&schema, fp);
    if case["valid"].as_bool() != Some(valid) {
        return Err(format!("  {fp:?}: expected valid={}, got {valid} ({resolved:?})", case["valid"]));
    }
    match (resolved, case["resolvedPath"].as_str(), case["error"].as_str()) {
        (Ok(p), Some(expected), _) if p.to_string() == expected => Ok(()),
        (Err(e), _, Some(expected)) if e == expected => {
            let pinned = case["pinnedContains"].as_str().unwrap_or_default();
            if e.contains(pinned) { Ok(()) } else { Err(format!("  {e:?} does not contain {pinned:?}")) }
        }
        (got, path, error) => Err(format!(
            "  {fp:?}: expected resolvedPath {path:?} / error {error:?}, got {:?}",
            got.map(|p| p.to_string())
        )),
    }
}

/// Compares the actual errors with `errors` (multiset), `valid`, and the
/// integration cases' `pinnedContained` / `pinnedNotContained` texts.
/// Shared with the runner of `crd-validation.json`.
pub fn compare_errors(case: &Value, actual: &[FieldError]) -> Result<(), String> {
    let expected = case["errors"].as_array().map(Vec::as_slice).unwrap_or_default();
    let texts: Vec<String> = actual.iter().map(ToString::to_string).collect();
    let mut problems = Vec::new();
    if case["valid"].as_bool() != Some(actual.is_empty()) {
        problems.push(format!("  expected valid={}", case["valid"]));
    }
    if let Some(unmatched) = match_errors(expected, actual) {
        problems.push(unmatched);
    }
    for pinned in compare::strings(&case["pinnedContained"]) {
        if !texts.contains(&pinned) {
            problems.push(format!("  pinned text missing: {pinned}"));
        }
    }
    for pinned in compare::strings(&case["pinnedNotContained"]) {
        if texts.iter().any(|t| t.contains(&pinned)) {
            problems.push(format!("  forbidden text present: {pinned}"));
        }
    }
    if problems.is_empty() {
        return Ok(());
    }
    let wanted: Vec<String> = expected.iter().map(describe).collect();
    let got: Vec<String> = actual.iter().map(|e| format!("{e}  [{}]", e.kind.go_name())).collect();
    Err(format!(
        "{}\n  expected (unordered):\n{}\n  actual:\n{}",
        problems.join("\n"),
        compare::bullet(&wanted),
        compare::bullet(&got)
    ))
}

/// Matches every expected error object to a distinct actual error, the
/// fully pinned ones (with `message`) first. `None` when all match and
/// nothing is left over.
fn match_errors(expected: &[Value], actual: &[FieldError]) -> Option<String> {
    let mut free: Vec<bool> = vec![true; actual.len()];
    let mut order: Vec<&Value> = expected.iter().collect();
    order.sort_by_key(|e| e["message"].is_null());
    let mut missing = Vec::new();
    for e in order {
        match (0..actual.len()).find(|&i| free[i] && matches(e, &actual[i])) {
            Some(i) => free[i] = false,
            None => missing.push(describe(e)),
        }
    }
    let extra = free.iter().filter(|f| **f).count();
    (!missing.is_empty() || extra > 0)
        .then(|| format!("  {} expected not found ({}), {extra} unexpected", missing.len(), missing.join("; ")))
}

fn matches(expected: &Value, actual: &FieldError) -> bool {
    let same_place = expected["field"].as_str() == Some(actual.path.to_string().as_str())
        && expected["type"].as_str() == Some(actual.kind.go_name());
    if !same_place {
        return false;
    }
    let contained = expected["contains"].as_str().is_none_or(|part| actual.to_string().contains(part));
    contained
        && match (expected["message"].as_str(), expected["detail"].as_str()) {
            (Some(message), _) => actual.to_string() == message,
            (None, Some(detail)) => actual.detail == detail,
            (None, None) => true,
        }
}

fn describe(e: &Value) -> String {
    match e["message"].as_str() {
        Some(m) => format!("{m}  [{}]", e["type"].as_str().unwrap_or_default()),
        None => format!(
            "{} {} {}{}",
            e["field"].as_str().unwrap_or_default(),
            e["type"].as_str().unwrap_or_default(),
            e["detail"].as_str().map(|d| format!("detail {d:?}")).unwrap_or_default(),
            e["contains"].as_str().map(|c| format!("containing {c:?}")).unwrap_or_default()
        ),
    }
}

fn options(v: &Value) -> ValidationOptions {
    let flag = |k: &str| v[k].as_bool().unwrap_or(false);
    ValidationOptions {
        allow_defaults: flag("allowDefaults"),
        disallow_defaults_reason: v["disallowDefaultsReason"].as_str().unwrap_or_default().to_owned(),
        require_open_api_schema: false,
        require_valid_property_type: flag("requireValidPropertyType"),
        require_structural_schema: flag("requireStructuralSchema"),
        require_pruned_defaults: flag("requirePrunedDefaults"),
        require_atomic_set_type: flag("requireAtomicSetType"),
        require_map_list_keys_map_set_validation: flag("requireMapListKeysMapSetValidation"),
        ..ValidationOptions::default()
    }
}

/// A path written with dots only (`spec.validation`).
fn dotted_path(s: &str) -> Path {
    s.split('.').fold(Path::root(), |p, name| p.child(name))
}

fn schema(v: &Value) -> Result<JSONSchemaProps, String> {
    JSONSchemaProps::from_value(v).map_err(|e| format!("  schema does not decode: {e}"))
}

fn spec(v: &Value) -> Result<CrdSpec, String> {
    spec_of(v, "crd.spec")
}

fn spec_of(v: &Value, what: &str) -> Result<CrdSpec, String> {
    let (spec, issues) = CrdSpec::from_internal(v);
    match issues.first() {
        None => Ok(spec),
        Some(issue) => Err(format!("  {what} does not decode: {}", issue.message(""))),
    }
}
