//! Runner for `default-validation.json`: the default-value check alone
//! (`validateDefaults`), inside a whole CRD create or update
//! (`crdValidation`), and inside the check of one `validation` block
//! (`crdSchemaValidation`).
//!
//! Expectations: `expectedErrors` (a multiset of type, field and — where
//! given — the complete message), `expectedErrorsContaining` (per type and
//! substring, the exact number of errors) and `expectedErrorSubstrings`
//! (every error matches some string and every string some error).

use crd_schema::cel;
use crd_schema::crd::{CrdSpec, CrdVersion, CustomResourceValidation, Names};
use crd_schema::field::{FieldError, Path};
use crd_schema::structural::new_structural;
use crd_schema::validation::{self, ValidationOptions};
use crd_schema::wire::JSONSchemaProps;
use serde_json::Value;

use crate::compare;

/// Runs one case of `default-validation.json`, chosen by its `scope`,
/// within its `celCostBudget` (the API server's per-request budget when
/// absent). `featureGates` only ever switches on `CRDValidationRatcheting`,
/// which is on by default.
pub fn run(case: &Value) -> Result<(), String> {
    let budget = case["celCostBudget"].as_i64().unwrap_or(cel::RUNTIME_COST_BUDGET);
    let errors = cel::with_cost_budget(budget, || match case["scope"].as_str() {
        Some("validateDefaults") => validate_defaults(case),
        Some("crdValidation") => crd_validation(case),
        Some("crdSchemaValidation") => crd_schema_validation(case),
        other => Err(format!("  unknown scope {other:?}")),
    })?;
    let problems = if case.get("expectedErrors").is_some() {
        expected_errors(&case["expectedErrors"], &errors)
    } else if case.get("expectedErrorsContaining").is_some() {
        expected_containing(&case["expectedErrorsContaining"], &errors)
    } else if case.get("expectedErrorSubstrings").is_some() {
        expected_substrings(&compare::strings(&case["expectedErrorSubstrings"]), &errors)
    } else {
        vec!["  no expectation".to_owned()]
    };
    if problems.is_empty() {
        return Ok(());
    }
    let actual: Vec<String> = errors.iter().map(|e| format!("{e}  [{}]", e.kind.go_name())).collect();
    Err(format!("{}\n  actual:\n{}", problems.join("\n"), compare::bullet(&actual)))
}

fn flag(case: &Value, name: &str) -> bool {
    case[name].as_bool().unwrap_or(false)
}

fn validate_defaults(case: &Value) -> Result<Vec<FieldError>, String> {
    let schema = schema(&case["schema"])?;
    let structural = new_structural(&schema).map_err(|e| format!("  schema is not structural: {e}"))?;
    let path = field_path(case)?;
    Ok(validation::validate_defaults(
        &path,
        &structural,
        flag(case, "isResourceRoot"),
        flag(case, "requirePrunedDefaults"),
    ))
}

// The block's path is `fieldPath` without its last step
// (`openAPIV3Schema`); structural schemas are required and defaults
// allowed, as in the upstream test.
fn crd_schema_validation(case: &Value) -> Result<Vec<FieldError>, String> {
    let text = case["fieldPath"].as_str().ok_or("  no fieldPath")?;
    let block = text.strip_suffix(".openAPIV3Schema").ok_or("  fieldPath does not end in openAPIV3Schema")?;
    let validation = CustomResourceValidation { open_api_v3_schema: Some(schema(&case["schema"])?) };
    let options = ValidationOptions {
        allow_defaults: true,
        require_structural_schema: true,
        require_pruned_defaults: flag(case, "requirePrunedDefaults"),
        ..ValidationOptions::default()
    };
    Ok(validation::validate_custom_resource_validation(&parse_path(block)?, Some(&validation), false, &options))
}

fn crd_validation(case: &Value) -> Result<Vec<FieldError>, String> {
    let path = case["fieldPath"].as_str().ok_or("  no fieldPath")?;
    let new = crd_spec(path, schema(&case["schema"])?, case["preserveUnknownFields"].as_bool())?;
    match case["operation"].as_str() {
        Some("create") => Ok(validation::validate_crd_schemas_create(&new)),
        Some("update") => {
            let old = crd_spec(path, schema(&case["oldSchema"])?, case["oldPreserveUnknownFields"].as_bool())?;
            Ok(validation::validate_crd_schemas_update(&new, &old))
        }
        other => Err(format!("  unknown operation {other:?}")),
    }
}

// The CRD of the upstream tests: group `group.com`, namespaced, names
// `plural`/`singular`/`Plural`/`PluralList`. The schema is the top-level
// one for `spec.validation...`; for `spec.versions[i]...` version `i`
// carries it and the versions before it carry a plain object schema, so
// that only version `i` can report anything.
fn crd_spec(path: &str, schema: JSONSchemaProps, preserve_unknown_fields: Option<bool>) -> Result<CrdSpec, String> {
    let names = Names {
        plural: "plural".to_owned(),
        singular: "singular".to_owned(),
        kind: "Plural".to_owned(),
        list_kind: "PluralList".to_owned(),
        ..Names::default()
    };
    let version = |i: usize, schema: Option<JSONSchemaProps>| CrdVersion {
        name: format!("v{}", i + 1),
        served: true,
        storage: i == 0,
        schema: schema.map(|s| CustomResourceValidation { open_api_v3_schema: Some(s) }),
        ..CrdVersion::default()
    };
    let mut spec = CrdSpec {
        group: "group.com".to_owned(),
        names,
        scope: "Namespaced".to_owned(),
        preserve_unknown_fields,
        ..CrdSpec::default()
    };
    if path == "spec.validation.openAPIV3Schema" {
        spec.validation = Some(CustomResourceValidation { open_api_v3_schema: Some(schema) });
        spec.versions = vec![version(0, None)];
        return Ok(spec);
    }
    let index = path
        .strip_prefix("spec.versions[")
        .and_then(|rest| rest.strip_suffix("].schema.openAPIV3Schema"))
        .and_then(|i| i.parse::<usize>().ok())
        .ok_or_else(|| format!("  unsupported fieldPath {path:?}"))?;
    let plain = serde_json::json!({"type": "object"});
    for i in 0..index {
        spec.versions.push(version(i, Some(self::schema(&plain)?)));
    }
    spec.versions.push(version(index, Some(schema)));
    Ok(spec)
}

fn schema(v: &Value) -> Result<JSONSchemaProps, String> {
    JSONSchemaProps::from_value(v).map_err(|e| format!("  schema does not decode: {e}"))
}

fn field_path(case: &Value) -> Result<Path, String> {
    parse_path(case["fieldPath"].as_str().ok_or("  no fieldPath")?)
}

/// A Kubernetes field path of names and indices
/// (`spec.versions[2].schema.openAPIV3Schema`).
fn parse_path(text: &str) -> Result<Path, String> {
    let mut path = Path::root();
    for part in text.split('.') {
        let (name, mut rest) = part.split_once('[').map_or((part, ""), |(n, r)| (n, r));
        path = path.child(name);
        while !rest.is_empty() {
            let (index, after) = rest.split_once(']').ok_or_else(|| format!("  bad path {text:?}"))?;
            path = path.index(index.parse().map_err(|_| format!("  bad index in {text:?}"))?);
            rest = after.strip_prefix('[').unwrap_or(after);
        }
    }
    Ok(path)
}

/// Matches every expected `{type, field, message?}` to a distinct actual
/// error (fully pinned ones first) and reports what is missing or left over.
fn expected_errors(expected: &Value, actual: &[FieldError]) -> Vec<String> {
    let mut order: Vec<&Value> = expected.as_array().map(|a| a.iter().collect()).unwrap_or_default();
    order.sort_by_key(|e| e["message"].is_null());
    let mut free = vec![true; actual.len()];
    let mut problems = Vec::new();
    for e in order {
        match (0..actual.len()).find(|&i| free[i] && matches(e, &actual[i])) {
            Some(i) => free[i] = false,
            None => problems.push(format!("  expected not found: {e}")),
        }
    }
    for (error, _) in actual.iter().zip(&free).filter(|(_, f)| **f) {
        problems.push(format!("  unexpected: {error}"));
    }
    problems
}

fn matches(expected: &Value, actual: &FieldError) -> bool {
    expected["type"].as_str() == Some(actual.kind.go_name())
        && expected["field"].as_str() == Some(actual.path.to_string().as_str())
        && expected["message"].as_str().is_none_or(|m| m == actual.to_string())
}

/// For each `{type, contains, count}`: exactly `count` errors of that type
/// contain the text.
fn expected_containing(expected: &Value, actual: &[FieldError]) -> Vec<String> {
    let mut problems = Vec::new();
    for e in expected.as_array().map(Vec::as_slice).unwrap_or_default() {
        let (kind, contains) = (e["type"].as_str(), e["contains"].as_str().unwrap_or_default());
        let count =
            actual.iter().filter(|a| Some(a.kind.go_name()) == kind && a.to_string().contains(contains)).count();
        if Some(count as u64) != e["count"].as_u64() {
            problems.push(format!("  expected {} errors of {kind:?} containing {contains:?}, got {count}", e["count"]));
        }
    }
    problems
}

/// Every error contains one of `strings`, and every string is in some error.
fn expected_substrings(strings: &[String], actual: &[FieldError]) -> Vec<String> {
    let texts: Vec<String> = actual.iter().map(ToString::to_string).collect();
    let mut problems: Vec<String> = texts
        .iter()
        .filter(|t| !strings.iter().any(|s| t.contains(s.as_str())))
        .map(|t| format!("  unexpected: {t}"))
        .collect();
    for s in strings {
        if !texts.iter().any(|t| t.contains(s.as_str())) {
            problems.push(format!("  no error contains {s:?}"));
        }
    }
    problems
}

#[test]
fn paths_parse() {
    assert_eq!(
        parse_path("spec.versions[2].schema.openAPIV3Schema").map(|p| p.to_string()),
        Ok("spec.versions[2].schema.openAPIV3Schema".to_owned())
    );
    assert_eq!(parse_path("test").map(|p| p.to_string()), Ok("test".to_owned()));
}
