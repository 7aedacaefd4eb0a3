//! `crd check`: what the API server would say about CRDs, without a cluster.
//!
//! For each CRD: decoding problems (wrong types, unknown fields, as strict
//! field validation reports them), then everything the API server's CRD
//! validation says about a create (v1) — for v1beta1, which no current
//! server serves, the rules that applied to it (those of an update from
//! itself) — as errors; the NonStructuralSchema condition and whether
//! pruning is off as warnings. A bare schema (`--schema`) gets the schema
//! checks only.

use std::io::Write;
use std::path::PathBuf;
use std::rc::Rc;

use crd_schema::crd::{self, CustomResourceDefinition, Loaded};
use crd_schema::field::FieldError;
use crd_schema::wire::JSONSchemaProps;
use crd_schema::yaml::{Document, Position, Step};
use crd_schema::{structural, validation};
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

/// One finding with its position in the source.
#[derive(Debug)]
pub struct Finding {
    /// What is wrong, in Kubernetes' words.
    pub text: String,
    /// Where, when known.
    pub at: Option<Position>,
}

/// Everything said about one CRD or bare schema.
#[derive(Debug)]
pub struct Report {
    /// The file it is in.
    pub file: String,
    /// The CRD's name; empty for a bare schema.
    pub name: String,
    /// The CRD's `apiVersion`; empty for a bare schema.
    pub api_version: String,
    /// What the API server rejects.
    pub errors: Vec<Finding>,
    /// What it records without rejecting.
    pub warnings: Vec<Finding>,
}

const V1: &str = "apiextensions.k8s.io/v1";

fn field_findings(errors: Vec<FieldError>, doc: &Document, hoisted: bool) -> Vec<Finding> {
    errors
        .into_iter()
        .map(|e| {
            let steps = diag::document_steps(&e.path, hoisted);
            Finding { text: e.to_string(), at: diag::locate(&doc.spans, &steps) }
        })
        .collect()
}

/// Checks one CRD of a document.
pub fn check_crd(file: &str, doc: &Document, crd: &CustomResourceDefinition) -> Report {
    let v1 = crd.api_version == V1;
    let mut errors: Vec<Finding> = crd
        .decode_issues
        .iter()
        .map(|issue| Finding { text: issue.message(""), at: doc.spans.nearest(&issue.path) })
        .collect();
    errors.extend(field_findings(validate(crd), doc, v1));
    Report {
        file: file.to_owned(),
        name: crd.metadata.name.clone(),
        api_version: crd.api_version.clone(),
        errors,
        warnings: warnings(doc, crd),
    }
}

/// What the API server says about `crd`: for v1 a create, for v1beta1 an
/// update from itself (the rules that applied when it was served). The
/// server's own preparation comes first: a create clears the status and
/// records the storage version; an update keeps the stored status, and the
/// stored object has a `resourceVersion` that an unconditional update
/// takes.
fn validate(crd: &CustomResourceDefinition) -> Vec<FieldError> {
    let mut new = crd.clone();
    if crd.api_version == V1 {
        new.prepare_for_create();
        return validation::validate_crd_create(&new);
    }
    let mut stored = crd.clone();
    if stored.metadata.resource_version.is_empty() {
        "1".clone_into(&mut stored.metadata.resource_version);
    }
    new.prepare_for_update(&stored);
    validation::validate_crd_update(&new, &stored)
}

/// The NonStructuralSchema condition, pruning, and the v1beta1 note.
fn warnings(doc: &Document, crd: &CustomResourceDefinition) -> Vec<Finding> {
    let spec = &crd.spec;
    let mut out = Vec::new();
    let start = Some(doc.start);
    if crd.api_version != V1 {
        out.push(Finding {
            text: format!(
                "{} is not served since Kubernetes 1.22; checked with the rules that applied to it",
                crd.api_version
            ),
            at: start,
        });
    }
    let schemas: Vec<Option<&JSONSchemaProps>> = (0..spec.versions.len()).map(|i| spec.version_schema(i)).collect();
    let condition = structural::nonstructural_condition(spec.preserve_unknown_fields, &schemas);
    if !condition.is_empty() {
        let steps = [Step::Key("spec".into())];
        let at = doc.spans.nearest(&steps);
        out.push(Finding { text: format!("NonStructuralSchema: {}", crd_schema::field::aggregate(&condition)), at });
    }
    if spec.preserve_unknown_fields == Some(true) {
        out.push(Finding {
            text: "pruning is off (spec.preserveUnknownFields: true): unknown fields are stored as sent".to_owned(),
            at: doc.spans.nearest(&[Step::Key("spec".into()), Step::Key("preserveUnknownFields".into())]).or(start),
        });
    }
    for (i, version) in spec.versions.iter().enumerate() {
        if version.served && spec.version_schema(i).is_none() && spec.preserve_unknown_fields != Some(true) {
            out.push(Finding { text: format!("version {} has no schema", version.name), at: start });
        }
    }
    out
}

/// Checks a bare `openAPIV3Schema` as the only version of a CRD.
pub fn check_schema(file: &str, doc: &Document) -> Report {
    let (schema, issues) = JSONSchemaProps::decode(&doc.value);
    let mut errors: Vec<Finding> = issues
        .iter()
        .map(|issue| Finding { text: issue.message("openAPIV3Schema"), at: doc.spans.nearest(&issue.path) })
        .collect();
    let spec = crd::CrdSpec {
        group: "example.com".to_owned(),
        validation: Some(crd::CustomResourceValidation { open_api_v3_schema: Some(schema) }),
        versions: vec![crd::CrdVersion { name: "v1".to_owned(), served: true, storage: true, ..Default::default() }],
        preserve_unknown_fields: Some(false),
        ..Default::default()
    };
    let prefix = crd_schema::field::Path::new("spec").child("validation");
    for e in validation::validate_crd_schemas_create(&spec) {
        let e = FieldError { path: e.path.strip_prefix(&prefix).unwrap_or_else(|| e.path.clone()), ..e };
        let mut steps = diag::document_steps(&e.path, false);
        if steps.first() == Some(&Step::Key("openAPIV3Schema".into())) {
            steps.remove(0);
        }
        errors.push(Finding { text: e.to_string(), at: doc.spans.nearest(&steps) });
    }
    Report { file: file.to_owned(), name: String::new(), api_version: String::new(), errors, warnings: Vec::new() }
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

fn check_loaded(loaded: Loaded, explicit: bool, outcome: &mut Outcome) {
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
    } else if outcome.reports.iter().any(|(r, _)| !r.errors.is_empty()) {
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
    let valid = outcome.reports.iter().filter(|(r, _)| r.errors.is_empty()).count();
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
        let dir = std::env::temp_dir().join(format!("crd-check-source-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("crds.yaml");
        std::fs::write(&file, format!("{one}---\n{one}---\n{one}")).unwrap();
        let outcome = run_paths(std::slice::from_ref(&file), false);
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(outcome.reports.len(), 3);
        let first = &outcome.reports[0].1;
        assert!(outcome.reports.iter().all(|(_, source)| Rc::ptr_eq(source, first)));
    }
}
