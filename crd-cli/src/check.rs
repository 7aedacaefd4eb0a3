//! `crd check`: what the API server would say about CRDs, without a cluster.
//!
//! The checks are the library's ([`crd_schema::check`]): for each CRD,
//! [`check_crd`] (decoding problems and the API server's CRD validation as
//! errors; the NonStructuralSchema condition, pruning being off and the
//! v1beta1 note as warnings); a bare schema (`--schema`) gets
//! [`check_schema`], the schema checks only. This module walks the files,
//! prints the reports (rustc-like diagnostics, or JSON) and picks the exit
//! code.

use std::io::Write;
use std::path::PathBuf;
use std::rc::Rc;

use crd_schema::check::{Finding, Report, check_crd, check_schema};
use crd_schema::crd::{self, Loaded};
use serde_json::{Value, json};

use super::diag;

/// Output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// rustc-like diagnostics.
    Text,
    /// `[{"file", "name", "version", "errors", "warnings"}]`.
    Json,
}

/// What a run found, and whether it could run at all.
#[derive(Debug, Default)]
struct Outcome {
    /// Each report with the source it is about, shared by the reports of
    /// one file.
    reports: Vec<(Report, Rc<diag::Source>)>,
    failures: Vec<String>,
    notes: Vec<String>,
}

fn check_loaded(mut loaded: Loaded, explicit: bool, outcome: &mut Outcome) {
    // `check_crd` reads a document's positions, not its JSON, which is as
    // large as the model of the CRD: the JSON goes before the checks run,
    // and their working memory takes its place.
    for (doc, _) in &mut loaded.crds {
        doc.value = Value::Null;
    }
    let source = Rc::new(diag::Source::new(loaded.text));
    for (doc, crd) in &loaded.crds {
        outcome.reports.push((check_crd(&loaded.file, doc, crd), Rc::clone(&source)));
    }
    for skipped in &loaded.skipped {
        outcome.notes.push(format!("{}:{}: skipped: {}", loaded.file, skipped.start, skipped.reason));
    }
    if loaded.crds.is_empty() && explicit {
        outcome.failures.push(format!("{}: no CustomResourceDefinition in this file", loaded.file));
    }
}

fn run_paths(paths: &[PathBuf], schema: bool) -> Outcome {
    let mut outcome = Outcome::default();
    for path in paths {
        if schema {
            match crd::read_documents_with(path, &super::limits()) {
                Ok((file, text, docs)) => {
                    let source = Rc::new(diag::Source::new(text));
                    for doc in &docs {
                        match super::limits().check_schema(&file, doc, &[]) {
                            Ok(()) => outcome.reports.push((check_schema(&file, doc), Rc::clone(&source))),
                            Err(e) => outcome.failures.push(e.to_string()),
                        }
                    }
                }
                Err(e) => outcome.failures.push(e.to_string()),
            }
            continue;
        }
        let explicit = !path.is_dir();
        for result in crd::load_with(path, &super::limits()) {
            match result {
                Err(e) => outcome.failures.push(e.to_string()),
                Ok(loaded) => check_loaded(loaded, explicit, &mut outcome),
            }
        }
    }
    outcome
}

/// Runs `crd check`; returns the exit code (0 valid, 1 invalid, 2 could not run).
pub fn run(paths: &[PathBuf], schema: bool, format: Format, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let outcome = run_paths(paths, schema);
    let io = match format {
        Format::Text => print_text(&outcome, out, err),
        Format::Json => print_json(&outcome, out, err),
    };
    if io.is_err() {
        return 2;
    }
    if !outcome.failures.is_empty() {
        2
    } else if outcome.reports.iter().any(|(r, _)| !r.is_valid()) {
        1
    } else {
        0
    }
}

fn print_text(outcome: &Outcome, out: &mut dyn Write, err: &mut dyn Write) -> std::io::Result<()> {
    let (mut errors, mut warnings) = (0, 0);
    for (report, text) in &outcome.reports {
        // A bare schema has no apiVersion; a CRD may lack a name.
        let subject = if report.api_version.is_empty() {
            "schema".to_owned()
        } else {
            format!("crd: {} ({})", report.name, report.api_version)
        };
        let notes = [subject];
        for f in &report.errors {
            write!(out, "{}", diag::render("error", &f.text, &report.file, text, f.at, &notes))?;
            errors += 1;
        }
        for f in &report.warnings {
            write!(out, "{}", diag::render("warning", &f.text, &report.file, text, f.at, &notes))?;
            warnings += 1;
        }
    }
    for note in &outcome.notes {
        writeln!(err, "note: {note}")?;
    }
    for failure in &outcome.failures {
        writeln!(err, "error: {failure}")?;
    }
    let valid = outcome.reports.iter().filter(|(r, _)| r.is_valid()).count();
    let schemas = outcome.reports.iter().all(|(r, _)| r.api_version.is_empty()) && !outcome.reports.is_empty();
    let noun = match (schemas, outcome.reports.len()) {
        (true, 1) => "schema",
        (true, _) => "schemas",
        (false, 1) => "CRD",
        (false, _) => "CRDs",
    };
    writeln!(
        out,
        "checked {} {noun}: {valid} valid, {} invalid; {errors} errors, {warnings} warnings",
        outcome.reports.len(),
        outcome.reports.len() - valid
    )
}

fn print_json(outcome: &Outcome, out: &mut dyn Write, err: &mut dyn Write) -> std::io::Result<()> {
    let texts = |v: &[Finding]| v.iter().map(|f| f.text.clone()).collect::<Vec<_>>();
    let entries: Vec<Value> = outcome
        .reports
        .iter()
        .map(|(r, _)| {
            json!({"file": r.file, "name": r.name, "version": r.api_version,
                "errors": texts(&r.errors), "warnings": texts(&r.warnings)})
        })
        .collect();
    let text = serde_json::to_string_pretty(&entries).map_err(std::io::Error::other)?;
    writeln!(out, "{text}")?;
    for note in &outcome.notes {
        writeln!(err, "note: {note}")?;
    }
    for failure in &outcome.failures {
        writeln!(err, "error: {failure}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_crds_of_a_file_share_its_source() {
        // A copy of the text per CRD made a file of 3 000 small CRDs take
        // 11 GB and most of a minute.
        let one = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: a.b.c}\n";
        let scratch = tempfile::Builder::new().prefix("crd-check-source-").tempdir().unwrap();
        let file = scratch.path().join("crds.yaml");
        std::fs::write(&file, format!("{one}---\n{one}---\n{one}")).unwrap();
        let outcome = run_paths(std::slice::from_ref(&file), false);
        assert_eq!(outcome.reports.len(), 3);
        let first = &outcome.reports[0].1;
        assert!(outcome.reports.iter().all(|(_, source)| Rc::ptr_eq(source, first)));
    }
}
