//! Explaining: what `kubectl explain` prints for a resource or one of its
//! fields, as `k8s.io/kubectl/pkg/explain/v2` (its `plaintext` template)
//! over the OpenAPI v3 document of a group-version, for CRDs that are on
//! no cluster.
//!
//! Entry points:
//! - [`explain`]: from CRDs and a resource argument (`widgets.spec.size`)
//!   to the text, as `kubectl explain [--api-version] [--recursive]` does:
//!   [`find_resource`], the version, the document of
//!   [`openapi::document`], then [`render`];
//! - [`find_resource`]: the CRD a resource argument names and the field
//!   path after it;
//! - [`render`]: the template over any OpenAPI v3 document (the one
//!   [`openapi::document`] builds, or one
//!   fetched from `/openapi/v3/apis/<group>/<version>`).
//!
//! [`render`] reproduces kubectl's template
//! (`k8s.io/kubectl/pkg/explain/v2/templates/plaintext.tmpl`) step by step
//! (`template.rs`), including the Go template semantics its output depends
//! on (`gotemplate.rs`): empty maps, lists and strings are false, map keys
//! come in sorted order, descriptions are wrapped by go-wordwrap (v1.0.1)
//! and numbers print as Go's `%v` of a float64. Unlike kubectl it also
//! prints default values.
//!
//! Error policy: everything that stops an explanation (no such resource,
//! version or field, a document nested too deep) is an [`ExplainError`]
//! with kubectl's wording, and with what kubectl would already have
//! printed. Nothing panics on any document: cyclic `$ref`s stop as
//! kubectl's history stops them (or, where kubectl has none, at the first
//! repeat), nesting deeper than [`MAX_DEPTH`] is an error, and so is output
//! past 64 MiB.
//!
//! ```
//! use crd_schema::crd::CustomResourceDefinition;
//! use crd_schema::explain;
//! use serde_json::json;
//!
//! let crd = CustomResourceDefinition::from_manifest(&json!({
//!     "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
//!     "metadata": {"name": "widgets.example.com"},
//!     "spec": {"group": "example.com", "scope": "Namespaced",
//!         "names": {"plural": "widgets", "singular": "widget", "kind": "Widget"},
//!         "versions": [{"name": "v1", "served": true, "storage": true,
//!             "schema": {"openAPIV3Schema": {"type": "object", "properties": {
//!                 "spec": {"type": "object", "properties": {
//!                     "size": {"type": "integer", "description": "How big."}}}}}}}]}
//! }))
//! .unwrap();
//! let text = explain::explain(&[crd], "widget.spec.size", None, false).unwrap();
//! assert_eq!(
//!     text,
//!     "GROUP:      example.com\nKIND:       Widget\nVERSION:    v1\n\n\
//!      FIELD: size <integer>\n\n\nDESCRIPTION:\n    How big.\n    \n\n"
//! );
//! let unknown = explain::explain(&[], "gadgets", None, false).unwrap_err();
//! assert_eq!(unknown.to_string(), "the server doesn't have a resource type \"gadgets\"");
//! ```

mod gotemplate;
mod template;

use serde_json::Value;

use crate::crd::CustomResourceDefinition;
use crate::gofmt;
use crate::openapi::{self, Format};

/// The deepest nesting of schemas (properties, items, map values, `allOf`
/// and `$ref`s) that [`render`] follows before giving up.
pub const MAX_DEPTH: usize = 256;

/// Why an explanation failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ExplainError {
    /// kubectl's message, without the `error: ` that kubectl prefixes.
    pub message: String,
    /// What kubectl has already written to stdout when it fails: the
    /// GROUP/KIND/VERSION header once the kind is known, since its
    /// template streams its output; empty before.
    pub printed: String,
}

impl ExplainError {
    /// A failure before anything is printed.
    fn plain(message: String) -> Self {
        Self { message, printed: String::new() }
    }
}

/// Explains `resource` as `kubectl explain` does against a cluster that
/// serves `crds`: the resource argument is resolved by [`find_resource`],
/// the version is `version` (kubectl's `--api-version`, which the CRD must
/// serve) or else the CRD's preferred one (kubectl's discovery preference,
/// [`CrdSpec::preferred_version`](crate::crd::CrdSpec::preferred_version)),
/// and the OpenAPI v3 document of that group-version is rendered by
/// [`render`]; `recursive` is `--recursive`.
pub fn explain(
    crds: &[CustomResourceDefinition],
    resource: &str,
    version: Option<&str>,
    recursive: bool,
) -> Result<String, ExplainError> {
    let (crd, fields) = find_resource(crds, resource)?;
    let spec = &crd.spec;
    let version = match version {
        Some(v) if spec.served_version(v).is_ok() => v,
        Some(v) => {
            let (group, plural) = (&spec.group, &spec.names.plural);
            return Err(ExplainError::plain(format!("couldn't find resource for \"{group}/{v}, Resource={plural}\"")));
        }
        None => spec
            .preferred_version()
            .ok_or_else(|| ExplainError::plain(format!("CRD {} serves no version", crd.metadata.name)))?,
    };
    let document = openapi::document(std::slice::from_ref(spec), version, Format::V3)
        .map_err(|e| ExplainError::plain(e.to_string()))?;
    render(&document, (&spec.group, version, &spec.names.kind), &fields, recursive)
}

/// The CRD that `input`'s first dotted segment names (plural, singular,
/// short name or kind, case-insensitively; CRDs that serve no version are
/// not discoverable), and the field path after it. As kubectl's
/// `SplitAndParseResourceRequestWithMatchingPrefix`, `plural.group` is
/// recognised when the input starts with it; otherwise the first match
/// wins and the field path is everything after the first dot.
pub fn find_resource<'c>(
    crds: &'c [CustomResourceDefinition],
    input: &str,
) -> Result<(&'c CustomResourceDefinition, Vec<String>), ExplainError> {
    let input = input.strip_suffix('.').unwrap_or(input);
    let mut parts = input.split('.');
    let name = parts.next().unwrap_or_default().to_lowercase();
    let names = |crd: &CustomResourceDefinition| {
        let n = &crd.spec.names;
        [&n.plural, &n.singular, &n.kind].into_iter().chain(&n.short_names).any(|s| s.to_lowercase() == name)
    };
    let found: Vec<&CustomResourceDefinition> =
        crds.iter().filter(|c| c.spec.served_versions().next().is_some() && names(c)).collect();
    for crd in &found {
        let group_resource = match crd.spec.group.as_str() {
            "" => crd.spec.names.plural.clone(),
            group => format!("{}.{group}", crd.spec.names.plural),
        };
        if let Some(rest) = input.strip_prefix(&group_resource) {
            // kubectl drops the character after the prefix, whatever it is.
            let mut chars = rest.chars();
            let fields = match chars.next() {
                None => Vec::new(),
                Some(_) => chars.as_str().split('.').map(str::to_owned).collect(),
            };
            return Ok((crd, fields));
        }
    }
    match found.first() {
        Some(crd) => Ok((crd, parts.map(str::to_owned).collect())),
        None => Err(ExplainError::plain(format!("the server doesn't have a resource type {}", gofmt::quote(&name)))),
    }
}

/// Explains the kind `gvk` (group, version, kind) of `document`, an OpenAPI
/// v3 document, or the field at `path` below it, as `kubectl explain`
/// prints it; `recursive` is `--recursive`. The kind is the schema of
/// `components.schemas` whose `x-kubernetes-group-version-kind` names it.
///
/// A `path` that names no field fails with kubectl's message, which names
/// the path's last element (`field "foo" does not exist`).
pub fn render(
    document: &Value,
    gvk: (&str, &str, &str),
    path: &[String],
    recursive: bool,
) -> Result<String, ExplainError> {
    let (group, version, kind) = gvk;
    let mut out = String::new();
    if !group.is_empty() {
        out.push_str(&format!("GROUP:      {group}\n"));
    }
    out.push_str(&format!("KIND:       {kind}\nVERSION:    {version}\n\n"));
    let fail = |message: String, printed: &str| ExplainError { message, printed: printed.to_owned() };
    let Some(schema) = kind_schema(document, gvk) else {
        return Err(fail(
            format!("GVK map[group:{group} kind:{kind} version:{version}] not found in OpenAPI schema"),
            &out,
        ));
    };
    let renderer = template::Renderer::new(document, recursive);
    let text = renderer.output(schema, &[], path, 0).map_err(|message| fail(message, &out))?;
    if text.is_empty() {
        // `%v` between literal quotes: nothing in the name is escaped.
        let last = path.last().map(String::as_str).unwrap_or_default();
        return Err(fail(format!("field \"{last}\" does not exist"), &out));
    }
    out.push_str(&text);
    out.push('\n');
    Ok(out)
}

/// The first schema, in key order, of `components.schemas` whose
/// `x-kubernetes-group-version-kind` list holds exactly `gvk`.
fn kind_schema<'a>(document: &'a Value, (group, version, kind): (&str, &str, &str)) -> Option<&'a Value> {
    let schemas = document.get("components")?.get("schemas")?.as_object()?;
    let matches = |entry: &Value| {
        entry.as_object().is_some_and(|e| {
            e.len() == 3
                && e.get("group").and_then(Value::as_str) == Some(group)
                && e.get("version").and_then(Value::as_str) == Some(version)
                && e.get("kind").and_then(Value::as_str) == Some(kind)
        })
    };
    gotemplate::sorted(schemas).into_iter().map(|(_, schema)| schema).find(|schema| {
        schema.get("x-kubernetes-group-version-kind").and_then(Value::as_array).is_some_and(|l| l.iter().any(matches))
    })
}
