//! Runner for `openapi.json`: published definitions of a CRD version, the
//! v2 filter, int-or-string unfolding, `required` filtering and the
//! conversion of the structural form back to OpenAPI.

use crd_schema::crd::CustomResourceDefinition;
use crd_schema::openapi::{self, Options};
use crd_schema::structural::Structural;
use serde_json::{Value, json};

use crate::pruning::json_values;

/// Runs one case of `openapi.json`.
pub fn run(case: &Value) -> Result<(), String> {
    match case["check"].as_str().unwrap_or_default() {
        "crd-definition" => crd_definition(case),
        "to-v2" => match Structural::from_json(&case["schema"]) {
            Err(e) => match case["newStructuralError"].as_str() {
                Some(expected) if expected == e.to_string() => Ok(()),
                expected => Err(format!("  conversion error {:?}, expected {expected:?}", e.to_string())),
            },
            Ok(s) => match case.get("newStructuralError") {
                Some(expected) => Err(format!("  converted, expected the error {expected}")),
                None => json_values("v2", &openapi::to_openapi(&openapi::to_v2(&s)), &case["expected"]),
            },
        },
        "unfold" => {
            let s = structural(&case["schema"])?;
            json_values("unfolded", &openapi::to_openapi(&openapi::unfold(&s)), &case["expected"])
        }
        "to-kube-openapi" => {
            json_values("openapi", &openapi::to_openapi(&structural(&case["schema"])?), &case["expected"])
        }
        "filter-required" => {
            let input: Option<Vec<String>> =
                serde_json::from_value(case["input"].clone()).map_err(|e| e.to_string())?;
            let remove = case["remove"].as_str().unwrap_or_default();
            let (list, changed) = openapi::filter_required(input.as_deref(), remove);
            json_values("required", &json!(list), &case["expected"])?;
            if Some(changed) == case["changed"].as_bool() {
                Ok(())
            } else {
                Err(format!("  changed: {changed}, expected {}", case["changed"]))
            }
        }
        other => Err(format!("unknown check {other:?}")),
    }
}

fn structural(schema: &Value) -> Result<Structural, String> {
    Structural::from_json(schema).map_err(|e| format!("  NewStructural failed: {e}"))
}

fn crd_definition(case: &Value) -> Result<(), String> {
    let manifest = json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "foos.bar.k8s.io"},
        "spec": case["crd"],
    });
    let crd = CustomResourceDefinition::from_manifest(&manifest).ok_or("not a CRD")?;
    if !crd.decode_issues.is_empty() {
        return Err(format!("  CRD does not decode: {:?}", crd.decode_issues));
    }
    let options = Options {
        v2: case["options"]["v2"].as_bool().unwrap_or(false),
        include_selectable_fields: case["options"]["includeSelectableFields"].as_bool().unwrap_or(false),
    };
    let version = case["version"].as_str().unwrap_or_default();
    let defs = openapi::definitions(&crd.spec, version, options).map_err(|e| e.to_string())?;
    json_values("definition", &defs.kind, &case["expectedDefinitionWithDescriptions"])?;
    let mut without = defs.kind.clone();
    for path in case["descriptionsNotCompared"].as_array().into_iter().flatten() {
        let steps: Vec<&str> = path.as_str().unwrap_or_default().split('.').collect();
        if let Some((last, parents)) = steps.split_last() {
            let parent = parents.iter().try_fold(&mut without, |v, k| v.get_mut(*k));
            if let Some(Value::Object(m)) = parent {
                m.remove(*last);
            }
        }
    }
    json_values("definition without descriptions", &without, &case["expectedDefinition"])?;
    json_values("list definition", &defs.list, &case["expectedListDefinition"])?;
    let group = &case["crd"]["group"];
    let names = &case["crd"]["names"];
    let expected_name = |kind: &Value| {
        format!(
            "{}.{version}.{}",
            group.as_str().unwrap_or_default().split('.').rev().collect::<Vec<_>>().join("."),
            kind.as_str().unwrap_or_default()
        )
    };
    if defs.kind_name != expected_name(&names["kind"]) || defs.list_name != expected_name(&names["listKind"]) {
        return Err(format!("  names {} / {}", defs.kind_name, defs.list_name));
    }
    Ok(())
}
