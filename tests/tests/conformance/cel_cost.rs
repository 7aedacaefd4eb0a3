//! Runner for `cel-cost.json`: the estimated costs of CEL rules, the sizes
//! they are estimated from, how often a node can occur, and the cost total
//! of a schema's rules.

use crd_schema::cel::{decl_size, estimate_rule_costs};
use crd_schema::field::Path;
use crd_schema::validation::{TotalCost, max_cardinality};
use crd_schema::wire::JSONSchemaProps;
use serde_json::Value;

use crate::pruning;

/// Runs one case of `cel-cost.json` by its `check`.
pub fn run(case: &Value) -> Result<(), String> {
    match case["check"].as_str() {
        Some("rule-cost") => rule_cost(case),
        Some("decl-max-elements") => decl_max_elements(case),
        Some("resource-root-metadata") => resource_root_metadata(case),
        Some("cardinality") => cardinality(case),
        Some("crd-total-cost") => total_cost(case),
        other => Err(format!("  unknown check {other:?}")),
    }
}

// The one rule of the schema's root compiles, and its estimated cost of
// one evaluation meets the bounds. The environment (`new` or `stored`)
// decides which functions exist; every function here exists in both.
fn rule_cost(case: &Value) -> Result<(), String> {
    let schema = pruning::optional_structural(&case["schema"])?.ok_or("  case without a schema")?;
    let resource_root = case["isResourceRoot"].as_bool().unwrap_or(false);
    match case["expressionsEnv"].as_str() {
        Some("new" | "stored") => {}
        other => return Err(format!("  unknown expressionsEnv {other:?}")),
    }
    let costs = estimate_rule_costs(&schema, resource_root).ok_or("  the schema has no CEL type")?;
    let [cost] = costs.as_slice() else { return Err(format!("  expected one rule, got {}", costs.len())) };
    if case["compiles"].as_bool() == Some(true)
        && let Some(error) = &cost.error
    {
        return Err(format!("  does not compile: {error}"));
    }
    let actual = cost.max_cost;
    let bound = |key: &str| case.get(key).and_then(Value::as_u64);
    let within = bound("expectedMaxCost").is_none_or(|e| actual == e)
        && bound("expectedMaxCostAtLeast").is_none_or(|e| actual >= e)
        && bound("expectedMaxCostAtMost").is_none_or(|e| actual <= e);
    if within {
        Ok(())
    } else {
        let expected: Vec<String> = ["expectedMaxCost", "expectedMaxCostAtLeast", "expectedMaxCostAtMost"]
            .iter()
            .filter_map(|k| bound(k).map(|v| format!("{k}={v}")))
            .collect();
        Err(format!("  {}: expected {}, estimated {actual}", case["rule"], expected.join(" ")))
    }
}

// `maxElements` of the schema's CEL type, or no type at all.
fn decl_max_elements(case: &Value) -> Result<(), String> {
    let schema = pruning::optional_structural(&case["schema"])?.ok_or("  case without a schema")?;
    let resource_root = case["isResourceRoot"].as_bool().unwrap_or(false);
    let size = decl_size(&schema, resource_root, &[]);
    match (case["expectNilType"].as_bool() == Some(true), size) {
        (true, None) => Ok(()),
        (true, Some(size)) => Err(format!("  expected no CEL type, got {size:?}")),
        (false, None) => Err("  expected a CEL type, got none".to_owned()),
        (false, Some(size)) if Some(size.max_elements) == case["expectedMaxElements"].as_u64() => Ok(()),
        (false, Some(size)) => {
            Err(format!("  expected maxElements {}, got {}", case["expectedMaxElements"], size.max_elements))
        }
    }
}

// `metadata.name` and `metadata.generateName` of a resource root: their
// `maxLength` after the type and object meta are put in, and their
// `maxElements`, which stay below a request.
fn resource_root_metadata(case: &Value) -> Result<(), String> {
    let schema = pruning::optional_structural(&case["schema"])?.ok_or("  case without a schema")?;
    for (field, length_key, elements_key) in [
        ("name", "expectedNameMaxLength", "expectedNameMaxElements"),
        ("generateName", "expectedGenerateNameMaxLength", "expectedGenerateNameMaxElements"),
    ] {
        let size = decl_size(&schema, true, &["metadata", field]).ok_or(format!("  no metadata.{field}"))?;
        let length = size.max_length.and_then(|l| u64::try_from(l).ok());
        if length != case[length_key].as_u64() || Some(size.max_elements) != case[elements_key].as_u64() {
            return Err(format!(
                "  metadata.{field}: expected maxLength {} and maxElements {}, got {size:?}",
                case[length_key], case[elements_key]
            ));
        }
        if size.max_elements >= 3 * 1024 * 1024 - 2 {
            return Err(format!("  metadata.{field}: maxElements {} is not below a request", size.max_elements));
        }
    }
    Ok(())
}

// How often the last schema of the chain can occur, each schema the child
// of the one before it; `null` is unbounded.
fn cardinality(case: &Value) -> Result<(), String> {
    let chain = case["schemas"].as_array().ok_or("  no schemas")?;
    let schemas = chain
        .iter()
        .map(|s| JSONSchemaProps::from_value(s).map_err(|e| format!("  schema does not decode: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    let (_, ancestors) = schemas.split_last().ok_or("  empty chain")?;
    let actual = max_cardinality(ancestors);
    let expected = case["expectedMaxCardinality"].as_u64();
    if actual == expected { Ok(()) } else { Err(format!("  expected {expected:?}, got {actual:?}")) }
}

// The total and the most expensive costs kept, after observing `costs`.
fn total_cost(case: &Value) -> Result<(), String> {
    let costs = case["costs"].as_array().ok_or("  no costs")?;
    let mut total = TotalCost::default();
    for (i, cost) in costs.iter().enumerate() {
        let cost = cost.as_u64().ok_or(format!("  cost {cost} is not a u64"))?;
        total.observe(Path::new("rules").index(i), cost);
    }
    let kept: Vec<u64> = total.most_expensive().iter().map(|e| e.cost).collect();
    let expected: Vec<u64> = case["expectedMostExpensive"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_u64).collect())
        .unwrap_or_default();
    if Some(total.total()) == case["expectedTotal"].as_u64() && kept == expected {
        Ok(())
    } else {
        Err(format!("  expected total {} and {expected:?}, got {} and {kept:?}", case["expectedTotal"], total.total()))
    }
}
