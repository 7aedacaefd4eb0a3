//! The conformance runner: every case of `../shared/conformance/*.json`,
//! read at run time, checked against the library.
//!
//! Prints one line per file, `conformance <file>: <passed>/<total> passed,
//! <skipped> skipped`, and every entry of the skip list it used. A case in
//! the skip list that passes fails the run, so the list stays honest; so
//! does a skip entry that matches nothing.

mod cel_cost;
mod compare;
mod crd_spec_validation;
mod crd_validation;
mod default_validation;
mod defaulting;
mod listtype;
mod objectmeta;
mod openapi;
mod pruning;
mod skip;
mod structural;
mod value_validation;

use std::path::PathBuf;

use serde_json::Value;

/// The folder holding the conformance data (`CRD_CONFORMANCE_DIR` overrides).
fn conformance_dir() -> PathBuf {
    match std::env::var_os("CRD_CONFORMANCE_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => crd_tests::shared_dir("conformance"),
    }
}

/// Runs one case; `None` when no runner exists for the file.
fn run_case(file: &str, case: &Value) -> Option<Result<(), String>> {
    match file {
        "structural.json" => Some(structural::run(case)),
        "crd-schema-validation.json" => Some(crd_validation::run(case)),
        "crd-validation.json" => Some(crd_spec_validation::run(case)),
        "pruning.json" => Some(pruning::run(case)),
        "prune-nulls.json" => Some(defaulting::run_prune_nulls(case)),
        "defaulting.json" => Some(defaulting::run(case)),
        "listtype.json" => Some(listtype::run(case)),
        "value-validation.json" => Some(value_validation::run(case)),
        "objectmeta.json" => Some(objectmeta::run(case)),
        "default-validation.json" => Some(default_validation::run(case)),
        "openapi.json" => Some(openapi::run(case)),
        "cel-cost.json" => Some(cel_cost::run(case)),
        _ => None,
    }
}

#[test]
fn conformance() {
    let dir = conformance_dir();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no conformance files in {}", dir.display());

    let mut failures = Vec::new();
    let mut used_skips = std::collections::BTreeSet::new();
    for path in &files {
        let file = path.file_name().and_then(|n| n.to_str()).expect("file name").to_owned();
        let text = std::fs::read_to_string(path).expect("read conformance file");
        let data: Value = serde_json::from_str(&text).expect("conformance file is JSON");
        let cases = data["cases"].as_array().expect("cases");
        let (mut passed, mut skipped) = (0, 0);
        for case in cases {
            let name = case["name"].as_str().expect("case name");
            let skip = skip::lookup(&file, name);
            let result = run_case(&file, case);
            match (skip, result) {
                (Some(entry), None) => {
                    used_skips.insert(entry);
                    skipped += 1;
                }
                (Some(entry), Some(Ok(()))) => {
                    used_skips.insert(entry);
                    failures
                        .push(format!("{file}: {name}: passes but is in the skip list ({})", skip::REASONS[entry].2));
                }
                (Some(entry), Some(Err(_))) => {
                    used_skips.insert(entry);
                    skipped += 1;
                }
                (None, Some(Ok(()))) => passed += 1,
                (None, Some(Err(e))) => failures.push(format!("{file}: {name}:\n{e}")),
                (None, None) => failures.push(format!("{file}: {name}: no runner and not in the skip list")),
            }
        }
        println!("conformance {file}: {passed}/{} passed, {skipped} skipped", cases.len());
    }
    println!("skip list entries used:");
    for (i, (file, name, reason)) in skip::REASONS.iter().enumerate() {
        if used_skips.contains(&i) {
            println!("  skip {file}: {name}: {reason}");
        } else {
            failures.push(format!("skip entry matches no case: {file}: {name}"));
        }
    }
    if !failures.is_empty() {
        for f in failures.iter().take(40) {
            println!("FAIL {f}\n");
        }
        panic!("{} conformance failures", failures.len());
    }
}
