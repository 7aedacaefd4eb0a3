//! `crd validate`: whether the API server would accept each object.
//!
//! Every input object (a document, or an item of a list, as kubectl reads
//! `kubectl get -o yaml`) is matched to a CRD by the group of its
//! `apiVersion` and its `kind` (the version is the one `apiVersion` names)
//! and goes the whole server path ([`ResourceValidator`]): decode (pruning,
//! defaulting), then every check of the CRD's strategy, CEL rules
//! included. With `--old`, an object whose previous state is in the old
//! files (same apiVersion, kind, namespace and name) is validated as an
//! update, so transition rules run; the others as creates.
//!
//! Documents of built-in kinds (the core group and the `*.k8s.io` groups,
//! CRDs themselves included) are listed as not validated; a CRD found among
//! the inputs also counts as given with `--crd`. A document of any other
//! kind that no given CRD defines is reported as unknown, which fails the
//! run: it was not validated.
//!
//! Exit codes: 0 when every object is valid (built-ins aside), 1 when one
//! is invalid or unknown, 2 when the tool could not run (bad arguments,
//! unreadable file, YAML syntax error, a CRD version that is not
//! structural).

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;

use crd_schema::crd::{CustomResourceDefinition, MatchError, find_served};
use crd_schema::field::{ErrorList, FieldError, Path};
use crd_schema::pipeline;
use crd_schema::resource::{Outcome, ResourceValidator};
use crd_schema::yaml::{Document, Position, Step};
use serde_json::{Value, json};

use super::check::Format;
use super::diag;
use super::load_crds;
use super::prune::{load_inputs, load_schema};

/// What to validate against.
#[derive(Debug)]
pub enum Target {
    /// CRD files or directories.
    Crd(Vec<PathBuf>),
    /// A bare `openAPIV3Schema`.
    Schema(PathBuf),
}

/// The parsed command line of `crd validate`.
#[derive(Debug)]
pub struct Args {
    /// What to validate against.
    pub target: Target,
    /// `--old`: files with the objects' previous state.
    pub old: Vec<PathBuf>,
    /// `--format`
    pub format: Format,
    /// The objects.
    pub inputs: Vec<PathBuf>,
}

/// What became of one input document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    Valid,
    Invalid,
    /// No CRD given for its kind.
    Unknown,
    /// A built-in kind: not validated.
    BuiltIn,
}

impl Status {
    fn name(self) -> &'static str {
        match self {
            Status::Valid => "valid",
            Status::Invalid => "invalid",
            Status::Unknown => "unknown",
            Status::BuiltIn => "not validated (built-in kind)",
        }
    }
}

/// One input document's report.
struct Report {
    file: String,
    index: usize,
    start: Position,
    api_version: String,
    kind: String,
    namespace: String,
    name: String,
    status: Status,
    /// Each error with the position of its field, where it can be found.
    errors: Vec<(String, Option<Position>)>,
    unknown_fields: Vec<String>,
    update: bool,
}

/// Runs `crd validate`; returns the exit code.
pub fn run(args: &Args, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, String> {
    let inputs = load_inputs(&args.inputs)?;
    let old = load_inputs(&args.old)?;
    let reports = match &args.target {
        Target::Crd(paths) => {
            let mut crds = load_crds(paths)?;
            crds.extend(inputs.iter().filter_map(|(_, d)| CustomResourceDefinition::from_manifest(&d.value)));
            let mut validators = Validators::new(crds);
            let olds = index_old(&old);
            let mut reports = Vec::new();
            for (file, doc) in &inputs {
                reports.push(validators.report(file, doc, &olds)?);
            }
            reports
        }
        Target::Schema(path) => {
            let validator = ResourceValidator::for_schema(load_schema(path)?);
            let mut reports = Vec::new();
            for (i, (file, doc)) in inputs.iter().enumerate() {
                let previous = old.get(i).map(|(_, d)| d.value.clone());
                reports.push(finish(file, doc, &validator, previous));
            }
            reports
        }
    };
    let io = |e: std::io::Error| e.to_string();
    match args.format {
        Format::Text => print_text(&reports, out, err).map_err(io)?,
        Format::Json => print_json(&reports, out).map_err(io)?,
    }
    let failed = reports.iter().any(|r| matches!(r.status, Status::Invalid | Status::Unknown));
    Ok(i32::from(failed))
}

/// `(apiVersion, kind, namespace, name)` of an object.
type Key = (String, String, String, String);

fn key_of(value: &Value) -> Key {
    let text = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or_default().to_owned();
    let meta = value.get("metadata");
    (
        text(value.get("apiVersion")),
        text(value.get("kind")),
        text(meta.and_then(|m| m.get("namespace"))),
        text(meta.and_then(|m| m.get("name"))),
    )
}

fn index_old(old: &[(String, Document)]) -> HashMap<Key, Value> {
    old.iter().map(|(_, d)| (key_of(&d.value), d.value.clone())).collect()
}

/// Whether `group` is one the API server serves itself.
fn is_built_in(group: &str) -> bool {
    group.is_empty()
        || group == "k8s.io"
        || group.ends_with(".k8s.io")
        || matches!(group, "apps" | "batch" | "autoscaling" | "policy")
}

/// The CRDs, with a validator per version prepared on first use.
struct Validators {
    crds: Vec<CustomResourceDefinition>,
    prepared: HashMap<(usize, String), ResourceValidator>,
}

impl Validators {
    fn new(crds: Vec<CustomResourceDefinition>) -> Self {
        Self { crds, prepared: HashMap::new() }
    }

    fn report(&mut self, file: &str, doc: &Document, olds: &HashMap<Key, Value>) -> Result<Report, String> {
        let type_meta = type_meta_errors(doc);
        if !type_meta.is_empty() {
            let mut report = blank(file, doc, Status::Invalid);
            report.errors = type_meta;
            return Ok(report);
        }
        let (api_version, kind, _, _) = key_of(&doc.value);
        let served = match find_served(&self.crds, &api_version, &kind) {
            Ok(served) => served,
            Err(MatchError::NoCrd { group, .. }) if is_built_in(&group) => {
                return Ok(blank(file, doc, Status::BuiltIn));
            }
            Err(e @ MatchError::NoCrd { .. }) => {
                let mut report = blank(file, doc, Status::Unknown);
                report.errors.push((e.to_string(), None));
                return Ok(report);
            }
            Err(e) => {
                let mut report = blank(file, doc, Status::Invalid);
                report.errors.push((format!("apiVersion: {e}"), doc.spans.nearest(&[Step::Key("apiVersion".into())])));
                return Ok(report);
            }
        };
        let crd = &self.crds[served.crd];
        let version = &crd.spec.versions[served.version].name;
        let key = (served.crd, version.clone());
        if !self.prepared.contains_key(&key) {
            let validator = ResourceValidator::from_crd(crd, version).map_err(|e| e.to_string())?;
            self.prepared.insert(key.clone(), validator);
        }
        let validator = &self.prepared[&key];
        Ok(finish(file, doc, validator, olds.get(&key_of(&doc.value)).cloned()))
    }
}

// A document without string `apiVersion` and `kind` is no object of any
// kind, built-in or not: neither kubectl nor the API server can decode it.
// The errors are the decode pipeline's (`crd_schema::pipeline`).
fn type_meta_errors(doc: &Document) -> Vec<(String, Option<Position>)> {
    let Value::Object(map) = &doc.value else {
        let message = "the document must be a JSON object with apiVersion and kind".to_owned();
        return vec![(FieldError::invalid(&Path::root(), doc.value.clone(), message).to_string(), Some(doc.start))];
    };
    pipeline::type_meta_errors(map)
        .into_iter()
        .map(|(key, error)| (error.to_string(), doc.spans.get(&[Step::Key(key.into())]).or(Some(doc.start))))
        .collect()
}

fn blank(file: &str, doc: &Document, status: Status) -> Report {
    let (api_version, kind, namespace, name) = key_of(&doc.value);
    Report {
        file: file.to_owned(),
        index: doc.index,
        start: doc.start,
        api_version,
        kind,
        namespace,
        name,
        status,
        errors: Vec::new(),
        unknown_fields: Vec::new(),
        update: false,
    }
}

fn finish(file: &str, doc: &Document, validator: &ResourceValidator, old: Option<Value>) -> Report {
    let update = old.is_some();
    let outcome: Outcome = match old {
        Some(old) => validator.update(doc.value.clone(), old),
        None => validator.create(doc.value.clone()),
    };
    let status = if outcome.is_valid() { Status::Valid } else { Status::Invalid };
    let mut report = blank(file, doc, status);
    report.errors = located(&outcome.errors, doc);
    report.unknown_fields = outcome.unknown_fields;
    report.update = update;
    report
}

fn located(errors: &ErrorList, doc: &Document) -> Vec<(String, Option<Position>)> {
    errors.iter().map(|e| (e.to_string(), diag::locate(&doc.spans, &e.path.steps()))).collect()
}

fn object_name(r: &Report) -> String {
    let name = if r.name.is_empty() { "<no name>" } else { r.name.as_str() };
    let kind = if r.kind.is_empty() { "<no kind>" } else { r.kind.as_str() };
    if r.namespace.is_empty() { format!("{kind}/{name}") } else { format!("{kind} {}/{name}", r.namespace) }
}

fn print_text(reports: &[Report], out: &mut dyn Write, err: &mut dyn Write) -> std::io::Result<()> {
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for r in reports {
        *counts.entry(r.status.name()).or_default() += 1;
        let at = format!("{}:{}", r.file, r.start);
        for path in &r.unknown_fields {
            writeln!(err, "warning: {at}: {}: unknown field \"{path}\"", object_name(r))?;
        }
        let action = if r.update { " (update)" } else { "" };
        match r.status {
            Status::Valid | Status::BuiltIn => writeln!(out, "{at}: {}{action}: {}", object_name(r), r.status.name())?,
            Status::Invalid | Status::Unknown => {
                writeln!(out, "{at}: {}{action}: {}", object_name(r), r.status.name())?;
                for (message, position) in &r.errors {
                    match position {
                        Some(p) => writeln!(out, "  {}:{p}: {message}", r.file)?,
                        None => writeln!(out, "  {message}")?,
                    }
                }
            }
        }
    }
    let mut summary: Vec<String> = [Status::Valid, Status::Invalid, Status::Unknown, Status::BuiltIn]
        .iter()
        .filter_map(|s| counts.get(s.name()).map(|n| format!("{n} {}", s.name())))
        .collect();
    if summary.is_empty() {
        summary.push("no objects".to_owned());
    }
    writeln!(out, "{} object(s): {}", reports.len(), summary.join(", "))
}

fn print_json(reports: &[Report], out: &mut dyn Write) -> std::io::Result<()> {
    let entries: Vec<Value> = reports
        .iter()
        .map(|r| {
            json!({
                "file": r.file, "index": r.index, "line": r.start.line,
                "apiVersion": r.api_version, "kind": r.kind, "namespace": r.namespace, "name": r.name,
                "status": match r.status { Status::BuiltIn => "not-validated", s => s.name() },
                "operation": if r.update { "update" } else { "create" },
                "errors": r.errors.iter().map(|(m, _)| m.clone()).collect::<Vec<_>>(),
                "unknownFields": r.unknown_fields,
            })
        })
        .collect();
    let text = serde_json::to_string_pretty(&entries).map_err(std::io::Error::other)?;
    writeln!(out, "{text}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_without_type_meta_are_invalid() {
        let docs = crd_schema::yaml::parse_documents(
            "t.yaml",
            "metadata: {name: a}\n---\napiVersion: \"\"\nkind: 7\n---\n[a]\n---\napiVersion: v1\nkind: ConfigMap\n",
        )
        .unwrap();
        let errors: Vec<Vec<(String, Option<Position>)>> = docs.iter().map(type_meta_errors).collect();
        let at = |line, column| Some(Position { line, column });
        assert_eq!(
            errors[0],
            [("apiVersion: Required value".to_owned(), at(1, 1)), ("kind: Required value".to_owned(), at(1, 1))]
        );
        assert_eq!(
            errors[1],
            [
                ("apiVersion: Required value".to_owned(), at(3, 13)),
                ("kind: Invalid value: 7: must be a string".to_owned(), at(4, 7))
            ]
        );
        assert_eq!(
            errors[2][0].0,
            "<nil>: Invalid value: [\"a\"]: the document must be a JSON object with apiVersion and kind"
        );
        assert!(errors[3].is_empty());
    }

    #[test]
    fn built_in_groups() {
        for group in ["", "apps", "batch", "networking.k8s.io", "apiextensions.k8s.io"] {
            assert!(is_built_in(group), "{group}");
        }
        for group in ["example.com", "cert-manager.io", "k8s.io.example.com"] {
            assert!(!is_built_in(group), "{group}");
        }
    }
}
