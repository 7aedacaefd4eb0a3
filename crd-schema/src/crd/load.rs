//! Reading CRDs from files and directories.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::CustomResourceDefinition;
use crate::error::{Error, Result};
use crate::limits::{Limit, Limits};
use crate::yaml::{self, Document, Position, Step};

/// A document of a source that is not a CRD, with the reason it was skipped.
#[derive(Clone, Debug)]
pub struct Skipped {
    /// Where the document starts.
    pub start: Position,
    /// Why it was skipped, e.g. `kind ConfigMap is not a CustomResourceDefinition`.
    pub reason: String,
}

/// One source file, parsed.
#[derive(Debug)]
pub struct Loaded {
    /// The file as given (or found in a directory).
    pub file: String,
    /// Its text, shared with its documents ([`crate::yaml::Spans`]).
    pub text: std::sync::Arc<str>,
    /// The CRDs it holds, each with its document.
    pub crds: Vec<(Document, CustomResourceDefinition)>,
    /// The documents that are not CRDs.
    pub skipped: Vec<Skipped>,
}

fn describe(doc: &Document) -> String {
    let field = |k: &str| doc.value.get(k).and_then(Value::as_str);
    match (field("apiVersion"), field("kind")) {
        (Some(api), Some("CustomResourceDefinition")) => {
            format!("apiVersion {api} is not apiextensions.k8s.io/v1 or v1beta1")
        }
        (Some(api), Some(kind)) => format!("{kind} ({api}) is not a CustomResourceDefinition"),
        _ if !doc.value.is_object() => "not a Kubernetes object (not a mapping)".to_owned(),
        _ => "not a Kubernetes object (no apiVersion and kind)".to_owned(),
    }
}

/// The text of a source: UTF-8 (a byte order mark is dropped).
pub fn source_text<'a>(file: &str, bytes: &'a [u8]) -> Result<&'a str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Ok(text.strip_prefix('\u{feff}').unwrap_or(text)),
        Err(e) => Err(Error::NotUtf8 { file: file.to_owned(), offset: e.valid_up_to() }),
    }
}

/// [`source_text`] of bytes that are given up: the text in their
/// allocation, not a copy.
pub fn source_string(file: &str, bytes: Vec<u8>) -> Result<String> {
    let mut text = String::from_utf8(bytes)
        .map_err(|e| Error::NotUtf8 { file: file.to_owned(), offset: e.utf8_error().valid_up_to() })?;
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
    Ok(text)
}

/// Parses every document of a source; an empty source is an error.
pub fn source_documents(file: &str, text: &str) -> Result<Vec<Document>> {
    source_documents_with(file, text, &Limits::default())
}

/// [`source_documents`] within `limits`. A list stands for its items
/// ([`flatten_lists`]).
pub fn source_documents_with(file: &str, text: &str, limits: &Limits) -> Result<Vec<Document>> {
    non_empty(file, yaml::parse_documents_with(file, text, limits)?).map(flatten_lists)
}

/// Whether `value` is a list of objects, as kubectl reads one: a `kind`
/// ending in `List` (`List`, which `kubectl get -o yaml` writes, or a
/// resource's own list kind, which the API server returns) with an `items`
/// array.
pub fn is_list(value: &Value) -> bool {
    value.get("kind").and_then(Value::as_str).is_some_and(|kind| kind.ends_with("List"))
        && value.get("items").is_some_and(Value::is_array)
}

/// The objects of `documents`, as kubectl reads a file: a list
/// ([`is_list`], at any depth) stands for its items, each placed where it
/// is in the list. An item with neither `apiVersion` nor `kind` (the API
/// server writes its lists' items without them) takes the list's
/// `apiVersion` and the kind its list kind names (`IssuerList`: `Issuer`),
/// as apimachinery's unstructured decoding of a list does.
pub fn flatten_lists(documents: Vec<Document>) -> Vec<Document> {
    if !documents.iter().any(|doc| is_list(&doc.value)) {
        return documents;
    }
    let mut out = Vec::with_capacity(documents.len());
    for doc in documents {
        flatten_into(doc, &mut out);
    }
    out
}

fn flatten_into(mut doc: Document, out: &mut Vec<Document>) {
    if !is_list(&doc.value) {
        out.push(doc);
        return;
    }
    let text = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or_default().to_owned();
    let api_version = text(doc.value.get("apiVersion"));
    let kind = text(doc.value.get("kind"));
    let item_kind = kind.strip_suffix("List").unwrap_or(&kind);
    let Some(Value::Array(items)) = doc.value.get_mut("items").map(Value::take) else { return };
    for (i, mut item) in items.into_iter().enumerate() {
        if let Value::Object(fields) = &mut item
            && text(fields.get("kind")).is_empty()
            && text(fields.get("apiVersion")).is_empty()
        {
            fields.insert("apiVersion".to_owned(), Value::String(api_version.clone()));
            fields.insert("kind".to_owned(), Value::String(item_kind.to_owned()));
        }
        let place = [Step::key("items"), Step::Index(i)];
        let start = doc.spans.get(&place).unwrap_or(doc.start);
        let spans = doc.spans.under(&place);
        flatten_into(Document { index: doc.index, start, shallow: doc.shallow, value: item, spans }, out);
    }
}

/// An error for a source without documents.
fn non_empty(file: &str, documents: Vec<Document>) -> Result<Vec<Document>> {
    if documents.is_empty() {
        return Err(Error::Input { file: file.to_owned(), message: "empty: no YAML or JSON document".to_owned() });
    }
    Ok(documents)
}

/// Reads a file's bytes.
pub fn read_file(path: &Path) -> Result<Vec<u8>> {
    read_file_with(path, &Limits::default())
}

/// Reads a file's bytes, at most `limits.max_input_bytes` of them (a
/// larger file is an error, found before it is read when it is a regular
/// file).
pub fn read_file_with(path: &Path, limits: &Limits) -> Result<Vec<u8>> {
    use std::io::Read as _;
    let io = |source| Error::Io { path: path.to_owned(), source };
    let too_big = |what: String| limits.breach(Limit::InputBytes, &path.display().to_string(), None, what);
    let file = std::fs::File::open(path).map_err(io)?;
    let max = limits.max_input_bytes as u64;
    let size = file.metadata().ok().filter(std::fs::Metadata::is_file).map(|metadata| metadata.len());
    if let Some(size) = size.filter(|&size| size > max) {
        return Err(too_big(format!("input is {size} bytes")));
    }
    // A regular file is read into a buffer of its size (growing one by
    // doubling would leave up to half of it unused while the file is
    // parsed). Not a regular file (a pipe, say): read one byte past the
    // limit to tell whether there is more.
    let mut bytes = Vec::with_capacity(size.map_or(0, |size| size as usize + 1));
    file.take(max.saturating_add(1)).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > max {
        return Err(too_big(format!("input is more than {max} bytes")));
    }
    Ok(bytes)
}

/// Parses one source text. `file` names it in errors and results.
pub fn parse_source(file: &str, bytes: &[u8]) -> Result<Loaded> {
    parse_source_with(file, bytes, &Limits::default())
}

/// [`parse_source`] within `limits`; the schemas of every CRD are held to
/// the schema limits too ([`Limits::check_schema`]).
pub fn parse_source_with(file: &str, bytes: &[u8], limits: &Limits) -> Result<Loaded> {
    parse_shared_source(file, shared_text(file, source_text(file, bytes)?, limits)?, limits)
}

/// `text` within the reader's size limit, in the one allocation that the
/// results share (`Loaded::text` and the documents' positions).
fn shared_text(file: &str, text: &str, limits: &Limits) -> Result<std::sync::Arc<str>> {
    yaml::within_size(file, text, limits)?;
    Ok(text.into())
}

/// [`parse_source_with`] of the text [`shared_text`] gives.
/// Decoding a manifest recurses once per level of nesting: shallow
/// documents are decoded on the calling thread, deeper ones with a deep
/// stack ([`with_stack_for`](crate::limits::with_stack_for)).
fn parse_shared_source(file: &str, text: std::sync::Arc<str>, limits: &Limits) -> Result<Loaded> {
    let documents = flatten_lists(non_empty(file, yaml::parse_shared_with(file, &text, limits)?)?);
    let shallow = documents.iter().all(|doc| doc.shallow);
    crate::limits::with_stack_for(shallow, || {
        let mut crds = Vec::new();
        let mut skipped = Vec::new();
        for doc in documents {
            match CustomResourceDefinition::from_manifest(&doc.value) {
                Some(crd) => {
                    for path in schema_paths(&doc.value) {
                        limits.check_schema(file, &doc, &path)?;
                    }
                    crds.push((doc, crd));
                }
                None => skipped.push(Skipped { start: doc.start, reason: describe(&doc) }),
            }
        }
        Ok(Loaded { file: file.to_owned(), text, crds, skipped })
    })
}

/// Where a CRD manifest holds schemas: every version's, and v1beta1's
/// top-level `spec.validation`.
fn schema_paths(manifest: &Value) -> Vec<Vec<Step>> {
    let key = Step::key;
    let mut paths = vec![vec![key("spec"), key("validation"), key("openAPIV3Schema")]];
    let versions = manifest.pointer("/spec/versions").and_then(Value::as_array).map_or(0, Vec::len);
    paths.extend(
        (0..versions)
            .map(|i| vec![key("spec"), key("versions"), Step::Index(i), key("schema"), key("openAPIV3Schema")]),
    );
    paths
}

fn is_manifest(path: &Path) -> bool {
    matches!(path.extension().and_then(|e| e.to_str()), Some("yaml" | "yml" | "json"))
}

/// Every manifest file under `dir`, recursively, in sorted order.
fn walk(dir: &Path, out: &mut Vec<Result<PathBuf>>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(source) => return out.push(Err(Error::Io { path: dir.to_owned(), source })),
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            walk(&path, out);
        } else if is_manifest(&path) {
            out.push(Ok(path));
        }
    }
}

/// The files `path` stands for: itself, or for a directory every `.yaml`,
/// `.yml` and `.json` file below it, in sorted order.
pub fn manifest_files(path: &Path) -> Vec<Result<PathBuf>> {
    if path.is_dir() {
        let mut files = Vec::new();
        walk(path, &mut files);
        files
    } else {
        vec![Ok(path.to_owned())]
    }
}

/// Reads a file into its documents: (the file's name, its text, its
/// non-empty documents).
pub fn read_documents(path: &Path) -> Result<(String, String, Vec<Document>)> {
    read_documents_with(path, &Limits::default())
}

/// [`read_documents`] within `limits`.
pub fn read_documents_with(path: &Path, limits: &Limits) -> Result<(String, String, Vec<Document>)> {
    let file = path.display().to_string();
    let text = source_string(&file, read_file_with(path, limits)?)?;
    let documents = source_documents_with(&file, &text, limits)?;
    Ok((file, text, documents))
}

/// Reads `path`: a file, or a directory searched recursively for `.yaml`,
/// `.yml` and `.json` files. One result per file.
pub fn load(path: &Path) -> Vec<Result<Loaded>> {
    load_with(path, &Limits::default())
}

/// [`load`] within `limits`.
pub fn load_with(path: &Path, limits: &Limits) -> Vec<Result<Loaded>> {
    manifest_files(path)
        .into_iter()
        .map(|file| {
            let file = file?;
            let name = file.display().to_string();
            // The file's bytes go before it is parsed.
            let text = shared_text(&name, source_text(&name, &read_file_with(&file, limits)?)?, limits)?;
            parse_shared_source(&name, text, limits)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_stand_for_their_items() {
        let text = "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\n\
                    - kind: List\n  apiVersion: v1\n  items: [{apiVersion: v1, kind: Secret}]\n---\n\
                    apiVersion: example.com/v1\nkind: FooList\nitems:\n- metadata: {name: b}\n- {kind: Bar}\n---\n\
                    apiVersion: example.com/v1\nkind: Foo\nitems: [1]\n";
        let docs = source_documents("x.yaml", text).unwrap();
        let text = |d: &Document, k: &str| d.value[k].as_str().unwrap_or("-").to_owned();
        let kinds: Vec<(String, String)> = docs.iter().map(|d| (text(d, "apiVersion"), text(d, "kind"))).collect();
        let kind = |a: &str, k: &str| (a.to_owned(), k.to_owned());
        assert_eq!(
            kinds,
            [
                kind("v1", "ConfigMap"),
                kind("v1", "Secret"),
                kind("example.com/v1", "Foo"),
                kind("-", "Bar"),
                kind("example.com/v1", "Foo")
            ]
        );
        // Each item's positions are its own, nested lists' too.
        assert_eq!(docs[0].start.line, 4);
        assert_eq!(docs[1].spans.get(&[Step::key("kind")]).map(|p| p.line), Some(9));
        assert_eq!(docs[2].spans.get(&[Step::key("metadata"), Step::key("name")]).map(|p| p.line), Some(14));
        assert_eq!(docs[2].spans.nearest(&[Step::key("spec"), Step::key("x")]).map(|p| p.line), Some(14));
        // A kind that is no list kind keeps its `items` field.
        assert_eq!(docs[4].value["items"], serde_json::json!([1]));
    }

    #[test]
    fn non_crds_are_skipped_with_a_reason() {
        let text = "apiVersion: v1\nkind: ConfigMap\n---\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: a}\n";
        let loaded = parse_source("x.yaml", text.as_bytes()).unwrap();
        assert_eq!(loaded.crds.len(), 1);
        assert_eq!(loaded.skipped.len(), 1);
        assert_eq!(loaded.skipped[0].reason, "ConfigMap (v1) is not a CustomResourceDefinition");
    }

    #[test]
    fn empty_and_binary_files_are_errors() {
        let err = parse_source("e.yaml", b"").unwrap_err();
        assert_eq!(err.to_string(), "e.yaml: empty: no YAML or JSON document");
        let err = parse_source("b.yaml", b"a: \xff\xfe").unwrap_err();
        assert_eq!(err.to_string(), "b.yaml: not UTF-8 text: invalid byte at offset 3");
        let err = source_string("b.yaml", b"a: \xff\xfe".to_vec()).unwrap_err();
        assert_eq!(err.to_string(), "b.yaml: not UTF-8 text: invalid byte at offset 3");
    }

    #[test]
    fn given_up_bytes_are_read_as_borrowed_ones() {
        for bytes in [&b"\xef\xbb\xbfa: 1"[..], b"a: 1", b"", b"\xef\xbb\xbf", b"a: \xef\xbb\xbf"] {
            assert_eq!(source_string("f", bytes.to_vec()).unwrap(), source_text("f", bytes).unwrap());
        }
    }
}
