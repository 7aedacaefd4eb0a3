//! `crd prune`: what the API server stores for each custom resource.
//!
//! Objects are matched to a CRD by the group of their `apiVersion` and
//! their `kind` (a list's items each on their own, as kubectl reads
//! `kubectl get -o yaml`); the version comes from `apiVersion` unless `--version`
//! names one. Each object goes through the decode pipeline
//! (`crd_schema::pipeline`) with that version's schema. Results go to
//! stdout, kubectl-style warnings (`Warning: unknown field "spec.foo"`) to
//! stderr. Exit 0 on success, 1 when an object fits no CRD version or cannot
//! be decoded, 2 when the tool could not run.

use std::io::Write;
use std::path::PathBuf;

use crd_schema::crd::{self, CustomResourceDefinition, find_served};
use crd_schema::pipeline::{self, Options};
use crd_schema::resource::serving_schema;
use crd_schema::structural::Structural;
use crd_schema::wire::JSONSchemaProps;
use crd_schema::yaml::Document;
use serde_json::Value;

/// Output format of the pruned objects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// A multi-document YAML stream.
    Yaml,
    /// One compact JSON document per line.
    Json,
}

/// What to prune against.
#[derive(Debug)]
pub enum Target {
    /// CRD files or directories, with an optional version override.
    Crd {
        /// The CRD files or directories.
        paths: Vec<PathBuf>,
        /// `--version`
        version: Option<String>,
    },
    /// A bare `openAPIV3Schema`; `root` says the objects are resources.
    Schema {
        /// The schema file.
        path: PathBuf,
        /// `--root`
        root: bool,
    },
}

/// The parsed command line of `crd prune`.
#[derive(Debug)]
pub struct Args {
    /// What to prune against.
    pub target: Target,
    /// `--no-default`
    pub no_default: bool,
    /// `--format`
    pub format: Format,
    /// The objects.
    pub inputs: Vec<PathBuf>,
}

/// A schema ready for the pipeline.
struct Resolved {
    schema: Option<Structural>,
    preserve_unknown_fields: bool,
}

/// Finds the CRD version an object belongs to: `Ok(Err(_))` when the
/// object fits no given CRD version (the object's fault), `Err(_)` when the
/// version it fits cannot be served, its schema not being structural (the
/// CRD's fault: the run stops, as `crd validate`'s does).
fn resolve(
    crds: &[CustomResourceDefinition],
    object: &Value,
    version: Option<&str>,
) -> Result<Result<Resolved, String>, String> {
    let api_version = object.get("apiVersion").and_then(Value::as_str).unwrap_or_default();
    let kind = object.get("kind").and_then(Value::as_str).unwrap_or_default();
    // `--version` replaces the object's version.
    let wanted = match (version, api_version.rsplit_once('/')) {
        (Some(v), Some((group, _))) => format!("{group}/{v}"),
        (Some(v), None) => v.to_owned(),
        (None, _) => api_version.to_owned(),
    };
    let (crd, index) = match find_served(crds, &wanted, kind) {
        Ok(served) => (&crds[served.crd], served.version),
        Err(e) => return Ok(Err(e.to_string())),
    };
    Ok(Ok(Resolved {
        schema: crd
            .spec
            .version_schema(index)
            .map(|s| serving_schema(s, &crd.metadata.name))
            .transpose()
            .map_err(|e| e.to_string())?,
        preserve_unknown_fields: crd.spec.preserve_unknown_fields == Some(true),
    }))
}

/// A bare `openAPIV3Schema` file, in serving form.
pub(super) fn load_schema(path: &std::path::Path) -> Result<Structural, String> {
    let (file, _, docs) = crd::read_documents_with(path, &super::limits()).map_err(|e| e.to_string())?;
    let [doc] = docs.as_slice() else {
        return Err(format!("{file}: expected one schema document, found {}", docs.len()));
    };
    super::limits().check_schema(&file, doc, &[]).map_err(|e| e.to_string())?;
    let (schema, issues) = JSONSchemaProps::decode(&doc.value);
    if let Some(issue) = issues.first() {
        return Err(format!("{file}: {}", issue.message("openAPIV3Schema")));
    }
    serving_schema(&schema, &file).map_err(|e| e.to_string())
}

/// The input objects, each with its file and document.
pub(super) fn load_inputs(paths: &[PathBuf]) -> Result<Vec<(String, Document)>, String> {
    let mut out = Vec::new();
    for path in paths {
        let (file, _, docs) = crd::read_documents_with(path, &super::limits()).map_err(|e| e.to_string())?;
        out.extend(docs.into_iter().map(|d| (file.clone(), d)));
    }
    Ok(out)
}

fn render(value: &Value, format: Format) -> Result<String, String> {
    match format {
        Format::Json => serde_json::to_string(value).map(|s| s + "\n").map_err(|e| e.to_string()),
        Format::Yaml => serde_saphyr::to_string(value).map(|s| format!("---\n{s}")).map_err(|e| e.to_string()),
    }
}

fn describe(value: &Value) -> String {
    let kind = value.get("kind").and_then(Value::as_str).unwrap_or("?");
    let name = value.get("metadata").and_then(|m| m.get("name")).and_then(Value::as_str).unwrap_or("?");
    format!("{kind}/{name}")
}

/// Runs `crd prune`; returns the exit code.
pub fn run(args: &Args, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, String> {
    let inputs = load_inputs(&args.inputs)?;
    let (crds, bare) = match &args.target {
        Target::Crd { paths, .. } => (super::load_crds(paths)?, None),
        Target::Schema { path, root } => (Vec::new(), Some((load_schema(path)?, *root))),
    };
    let version = match &args.target {
        Target::Crd { version, .. } => version.as_deref(),
        Target::Schema { .. } => None,
    };
    let mut code = 0;
    let several = inputs.len() > 1;
    for (file, doc) in inputs {
        let (resolved, resource_root) = match &bare {
            Some((schema, root)) => {
                (Ok(Resolved { schema: Some(schema.clone()), preserve_unknown_fields: false }), *root)
            }
            None => (resolve(&crds, &doc.value, version)?, true),
        };
        let at = format!("{file}:{}", doc.start);
        let outcome = resolved.and_then(|r| {
            let options = Options {
                preserve_unknown_fields: r.preserve_unknown_fields,
                apply_defaults: !args.no_default,
                resource_root,
            };
            pipeline::decode(doc.value.clone(), r.schema.as_ref(), &options).map_err(|e| e.to_string())
        });
        let io = |e: std::io::Error| e.to_string();
        match outcome {
            Ok(decoded) => {
                if several && !decoded.unknown_fields.is_empty() {
                    writeln!(err, "{at}: {}:", describe(&decoded.object)).map_err(io)?;
                }
                for path in &decoded.unknown_fields {
                    writeln!(err, "Warning: unknown field \"{path}\"").map_err(io)?;
                }
                out.write_all(render(&decoded.object, args.format)?.as_bytes()).map_err(io)?;
            }
            Err(message) => {
                writeln!(err, "error: {at}: {}: {message}", describe(&doc.value)).map_err(io)?;
                code = 1;
            }
        }
    }
    Ok(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_version_that_cannot_be_served_stops_the_run() {
        let manifest = serde_json::json!({
            "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "widgets.example.com"},
            "spec": {"group": "example.com", "scope": "Namespaced", "names": {"plural": "widgets", "kind": "Widget"},
                "versions": [{"name": "v1", "served": true, "storage": true,
                    "schema": {"openAPIV3Schema": {"type": "object", "properties": {"a": {"$ref": "#/x"}}}}}]}
        });
        let crds = [CustomResourceDefinition::from_manifest(&manifest).unwrap()];
        let object = |api_version: &str| serde_json::json!({"apiVersion": api_version, "kind": "Widget"});
        let err = resolve(&crds, &object("example.com/v1"), None).err().unwrap();
        assert!(err.starts_with("widgets.example.com: schema is not structural"), "{err}");
        let fits_none = resolve(&crds, &object("example.com/v2"), None).unwrap().err().unwrap();
        assert_eq!(fits_none, "CRD widgets.example.com has no version \"v2\" (served: v1)");
    }
}
