//! The fuzz targets' bodies, one function each: [`yaml`], [`check`],
//! [`decode`], [`validate`] and [`generate`], each taking the raw input.
//! `crd-codegen/tests/fuzz_regressions.rs` includes this file, so a
//! minimised crasher replays on stable through exactly the code that found
//! it.
//!
//! Error policy: every `Err` of the code under test is a fine outcome; only
//! panics, hangs and running out of memory are findings (and, for the
//! generator, output that does not parse). Inputs a target cannot use are
//! skipped.

use crd_codegen::cli::diag;
use crd_schema::crd::{self, CustomResourceDefinition};
use crd_schema::field::{FieldError, Path};
use crd_schema::limits::Limits;
use crd_schema::pipeline::{self, Options};
use crd_schema::resource::{ResourceValidator, serving_schema};
use crd_schema::structural::{self, Structural, ValidationOptions};
use crd_schema::wire::JSONSchemaProps;
use crd_schema::yaml::{self, Document, Step};
use crd_schema::{field, validation};
use serde_json::Value;

/// The `yaml` target: the reader alone.
pub fn yaml(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = yaml::parse_documents("fuzz.yaml", text);
    }
}

/// The `crd_check` target: `crd check` on one source, in memory. Every
/// CRD document is checked as a CRD; when there are other documents, each
/// is checked as a bare `openAPIV3Schema` (`--schema`). Every finding is
/// rendered with its snippet. Returns the rendered diagnostics.
pub fn check(bytes: &[u8]) -> String {
    let file = "fuzz.yaml";
    let Ok(loaded) = crd::parse_source(file, bytes) else { return String::new() };
    let source = diag::Source::new(loaded.text.clone());
    let mut out = String::new();
    let mut render = |findings: Vec<Finding>, notes: &[String]| {
        for (message, at) in findings {
            out.push_str(&diag::render("error", &message, file, &source, at, notes));
        }
    };
    for (doc, crd) in &loaded.crds {
        render(check_crd(doc, crd), std::slice::from_ref(&crd.name));
    }
    if !loaded.skipped.is_empty() {
        let limits = Limits::default();
        for doc in crd::source_documents(file, &loaded.text).unwrap_or_default() {
            if CustomResourceDefinition::from_manifest(&doc.value).is_none()
                && limits.check_schema(file, &doc, &[]).is_ok()
            {
                render(check_schema(&doc), &[]);
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

const V1: &str = "apiextensions.k8s.io/v1";

type Finding = (String, Option<yaml::Position>);

fn field_findings(errors: Vec<FieldError>, doc: &Document, hoisted: bool) -> Vec<Finding> {
    errors
        .into_iter()
        .map(|e| {
            let steps = diag::document_steps(&e.path, hoisted);
            (e.to_string(), diag::locate(&doc.spans, &steps))
        })
        .collect()
}

// `check::check_crd` and `check::warnings`.
fn check_crd(doc: &Document, crd: &CustomResourceDefinition) -> Vec<Finding> {
    let v1 = crd.api_version == V1;
    let mut out: Vec<Finding> =
        crd.decode_issues.iter().map(|issue| (issue.message(""), doc.spans.nearest(&issue.path))).collect();
    let spec = &crd.spec;
    let errors = if v1 { validation::validate_crd_create(spec) } else { validation::validate_crd_update(spec, spec) };
    out.extend(field_findings(errors, doc, v1));
    let schemas: Vec<Option<&JSONSchemaProps>> = (0..spec.versions.len()).map(|i| spec.version_schema(i)).collect();
    let condition = structural::nonstructural_condition(spec.preserve_unknown_fields, &schemas);
    if !condition.is_empty() {
        let at = doc.spans.nearest(&[Step::Key("spec".into())]);
        out.push((format!("NonStructuralSchema: {}", field::aggregate(&condition)), at));
    }
    out
}

// `check::check_schema`.
fn check_schema(doc: &Document) -> Vec<Finding> {
    let (schema, issues) = JSONSchemaProps::decode(&doc.value);
    let mut out: Vec<Finding> =
        issues.iter().map(|issue| (issue.message("openAPIV3Schema"), doc.spans.nearest(&issue.path))).collect();
    let spec = crd::CrdSpec {
        group: "example.com".to_owned(),
        validation: Some(crd::CustomResourceValidation { open_api_v3_schema: Some(schema) }),
        versions: vec![crd::CrdVersion { name: "v1".to_owned(), served: true, storage: true, ..Default::default() }],
        preserve_unknown_fields: Some(false),
        ..Default::default()
    };
    let prefix = Path::new("spec").child("validation");
    for e in validation::validate_crd_create(&spec) {
        let path = e.path.strip_prefix(&prefix).unwrap_or_else(|| e.path.clone());
        let mut steps = diag::document_steps(&path, false);
        if steps.first() == Some(&Step::Key("openAPIV3Schema".into())) {
            steps.remove(0);
        }
        out.push((FieldError { path, ..e }.to_string(), doc.spans.nearest(&steps)));
    }
    out
}
