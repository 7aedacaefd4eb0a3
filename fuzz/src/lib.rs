//! The fuzz targets' bodies, one function each: [`yaml`], [`check`],
//! [`decode`], [`validate`] and [`generate`], each taking the raw input.
//! `crd-cli/tests/fuzz_regressions.rs` includes this file, so a
//! minimised crasher replays on stable through exactly the code that found
//! it.
//!
//! Error policy: every `Err` of the code under test is a fine outcome; only
//! panics, hangs and running out of memory are findings (and, for the
//! generator, output that does not parse). Inputs a target cannot use are
//! skipped.

use crd_cli::diag;
use crd_schema::check;
use crd_schema::crd::{self, CustomResourceDefinition};
use crd_schema::field::Path;
use crd_schema::limits::Limits;
use crd_schema::pipeline::{self, Options};
use crd_schema::resource::{ResourceValidator, serving_schema};
use crd_schema::structural::{self, Structural, ValidationOptions};
use crd_schema::wire::JSONSchemaProps;
use crd_schema::yaml;
use serde_json::Value;

/// The `yaml` target: the reader alone.
pub fn yaml(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = yaml::parse_documents("fuzz.yaml", text);
    }
}

/// The `crd_check` target: `crd check` on one source, in memory: the
/// library's checks (`crd_schema::check`), rendered by the CLI's
/// diagnostics. Every CRD document is checked as a CRD; when there are
/// other documents, each is checked as a bare `openAPIV3Schema`
/// (`--schema`). Every finding is rendered with its snippet. Returns the
/// rendered diagnostics.
pub fn check(bytes: &[u8]) -> String {
    let file = "fuzz.yaml";
    let Ok(loaded) = crd::parse_source(file, bytes) else { return String::new() };
    let source = diag::Source::new(loaded.text.clone());
    let mut out = String::new();
    let mut render = |report: check::Report, notes: &[String]| {
        for (level, findings) in [("error", report.errors), ("warning", report.warnings)] {
            for finding in findings {
                out.push_str(&diag::render(level, &finding.text, file, &source, finding.at, notes));
            }
        }
    };
    for (doc, crd) in &loaded.crds {
        render(check::check_crd(file, doc, crd), std::slice::from_ref(&crd.metadata.name));
    }
    if !loaded.skipped.is_empty() {
        let limits = Limits::default();
        for doc in crd::source_documents(file, &loaded.text).unwrap_or_default() {
            if CustomResourceDefinition::from_manifest(&doc.value).is_none()
                && limits.check_schema(file, &doc, &[]).is_ok()
            {
                render(check::check_schema(file, &doc), &[]);
            }
        }
    }
    out
}

/// The `decode` target: a schema part and an object, through the decode
/// pipeline, twice (the second pass on the first one's output). A bare
/// schema decodes its object as a resource root when the object has an
/// `apiVersion` and a `kind`. Returns whether the input got that far.
pub fn decode(data: &[u8]) -> bool {
    let [schema_part, object_part] = split(data, 2)[..] else { return false };
    let Some(object) = object(object_part) else { return false };
    let Some(schema) = schema(schema_part, &object) else { return false };
    let options = match &schema.crd {
        Some((crd, _)) => {
            Options { preserve_unknown_fields: crd.spec.preserve_unknown_fields == Some(true), ..Options::default() }
        }
        None => Options {
            resource_root: object.get("apiVersion").is_some() && object.get("kind").is_some(),
            ..Options::default()
        },
    };
    if let Ok(decoded) = pipeline::decode(object, Some(&schema.structural), &options) {
        let _ = pipeline::decode(decoded.object, Some(&schema.structural), &options);
    }
    true
}

/// The `value_validation` target: a schema part, an object and optionally
/// an old object, through `ResourceValidator::validate` (values, metadata,
/// list types, CEL rules; ratcheting against the old object). Returns
/// whether the input got that far.
pub fn validate(data: &[u8]) -> bool {
    let parts = split(data, 3);
    let [schema_part, object_part, ..] = parts[..] else { return false };
    let Some(object) = object(object_part) else { return false };
    let old = parts.get(2).and_then(|old| self::object(old));
    let Some(schema) = schema(schema_part, &object) else { return false };
    let validator = match &schema.crd {
        Some((crd, version)) => match ResourceValidator::from_crd(crd, version) {
            Ok(validator) => validator,
            Err(_) => return false,
        },
        None => ResourceValidator::for_schema(schema.structural),
    };
    let _ = validator.validate(&object, old.as_ref());
    true
}

/// The `generate` target: the generator on one source. Output that does
/// not parse as a Rust file, and an internal emit error (tokens that do
/// not parse), panic. Returns whether code was generated.
pub fn generate(data: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(data) else { return false };
    match crd_codegen::Builder::new().crd_source("fuzz.yaml", text).generate() {
        Ok(code) => {
            if let Err(e) = syn::parse_file(&code) {
                panic!("generated code does not parse: {e}\n{code}");
            }
            true
        }
        Err(e @ crd_codegen::Error::Emit { .. }) => panic!("generator emitted tokens that do not parse: {e}"),
        Err(_) => false,
    }
}

/// Splits `data` into at most `n` parts: at NUL bytes when there is one
/// (what `cargo xtask fuzz-seeds` writes), else at `\n---\n`.
fn split(data: &[u8], n: usize) -> Vec<&[u8]> {
    if data.contains(&0) {
        return data.splitn(n, |b| *b == 0).collect();
    }
    let mut parts = Vec::new();
    let mut rest = data;
    while parts.len() + 1 < n {
        let Some(at) = rest.windows(5).position(|w| w == b"\n---\n") else { break };
        parts.push(&rest[..at + 1]);
        rest = &rest[at + 5..];
    }
    parts.push(rest);
    parts
}

/// The first document of an object part, as the CLI reads input objects.
fn object(bytes: &[u8]) -> Option<Value> {
    let text = std::str::from_utf8(bytes).ok()?;
    yaml::parse_documents("object.yaml", text).ok()?.into_iter().next().map(|d| d.value)
}

/// A schema part, resolved for one object.
#[derive(Debug)]
struct Schema {
    /// The schema in serving form; it passed the structural check.
    structural: Structural,
    /// The CRD and version it came from; `None` for a bare schema.
    crd: Option<(CustomResourceDefinition, String)>,
}

/// Reads a schema part: the first CRD of the source (the version named by
/// the object's `apiVersion`, else the first), or else its first document
/// as a bare `openAPIV3Schema`. `None` when the schema does not decode or
/// is not structural: the pipeline is only defined for structural schemas.
fn schema(bytes: &[u8], object: &Value) -> Option<Schema> {
    let loaded = crd::parse_source("schema.yaml", bytes).ok()?;
    if let Some((_, crd)) = loaded.crds.into_iter().next() {
        let wanted = object.get("apiVersion").and_then(Value::as_str).and_then(|a| a.rsplit('/').next());
        let versions = &crd.spec.versions;
        let index = versions.iter().position(|v| Some(v.name.as_str()) == wanted).unwrap_or(0);
        let version = versions.get(index)?.name.clone();
        let structural = structural_form(crd.spec.version_schema(index)?)?;
        return Some(Schema { structural, crd: Some((crd, version)) });
    }
    let text = std::str::from_utf8(bytes).ok()?;
    let doc = yaml::parse_documents("schema.yaml", text).ok()?.into_iter().next()?;
    let (props, issues) = JSONSchemaProps::decode(&doc.value);
    if !issues.is_empty() {
        return None;
    }
    Some(Schema { structural: structural_form(&props)?, crd: None })
}

fn structural_form(props: &JSONSchemaProps) -> Option<Structural> {
    let structural = serving_schema(props, "schema.yaml").ok()?;
    let errors = structural::validate_structural(&Path::root(), &structural, &ValidationOptions::default());
    errors.is_empty().then_some(structural)
}
