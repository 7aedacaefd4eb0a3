//! Runner for `crd-validation.json`: CRD validation outside the schema.
//!
//! Checks: `crd-create` and `crd-update` (the whole validation of CRD
//! objects read without defaulting, as the upstream tests build them),
//! `crd-stored-versions` (that rule alone, at `status.storedVersions`),
//! `deprecation-warning` (the details for one version's warning, compared
//! in order). Errors match as in `crd-schema-validation.json`: a multiset
//! of (type, field) with the `contains` substrings.

use crd_schema::crd::CustomResourceDefinition;
use crd_schema::field::Path;
use crd_schema::validation;
use serde_json::Value;

use crate::{compare, crd_validation};

pub fn run(case: &Value) -> Result<(), String> {
    match case["check"].as_str() {
        Some("crd-create") => {
            let crd = crd(&case["crd"], "crd")?;
            crd_validation::compare_errors(case, &validation::validate_crd_create(&crd))
        }
        Some("crd-update") => {
            let (crd, old) = (crd(&case["crd"], "crd")?, crd(&case["old"], "old")?);
            crd_validation::compare_errors(case, &validation::validate_crd_update(&crd, &old))
        }
        Some("crd-stored-versions") => {
            let crd = crd(&case["crd"], "crd")?;
            let path = Path::new("status").child("storedVersions");
            let stored = crd.status.stored_versions.as_deref();
            crd_validation::compare_errors(
                case,
                &validation::validate_stored_versions(stored, &crd.spec.versions, &path),
            )
        }
        Some("deprecation-warning") => deprecation_warning(case),
        other => Err(format!("  unknown check {other:?}")),
    }
}

fn deprecation_warning(case: &Value) -> Result<(), String> {
    let deprecated = case["deprecated"].as_bool().ok_or("  no deprecated")?;
    let details = validation::validate_deprecation_warning(deprecated, case["deprecationWarning"].as_str());
    compare::texts(&details, &compare::strings(&case["expectedDetails"]), "as-listed")
}

fn crd(v: &Value, what: &str) -> Result<CustomResourceDefinition, String> {
    let crd = CustomResourceDefinition::from_object(v).ok_or_else(|| format!("  {what} is not a CRD object"))?;
    match crd.decode_issues.first() {
        None => Ok(crd),
        Some(issue) => Err(format!("  {what} does not decode: {}", issue.message(""))),
    }
}
