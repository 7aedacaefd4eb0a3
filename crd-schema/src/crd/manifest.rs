//! Decoding CRD manifests (v1, v1beta1) and the internal layout, with the
//! API server's defaulting and v1 → internal hoisting.

use serde_json::{Map, Value};

use super::{CrdSpec, CrdVersion, CustomResourceDefinition, CustomResourceValidation, Names, Subresources};
use crate::wire::{DecodeIssue, DecodeIssueKind, Decoder};
use crate::yaml::Step;

/// Which layout a spec is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layout {
    V1,
    V1beta1,
    Internal,
}

/// Walks a manifest, collecting issues with absolute paths.
struct Reader {
    issues: Vec<DecodeIssue>,
}

impl Reader {
    fn issue(&mut self, path: &[Step], kind: DecodeIssueKind) {
        self.issues.push(DecodeIssue { path: path.to_vec(), kind });
    }

    fn object<'a>(&mut self, v: &'a Value, path: &[Step]) -> Option<&'a Map<String, Value>> {
        match v {
            Value::Object(m) => Some(m),
            Value::Null => None,
            _ => {
                self.issue(path, DecodeIssueKind::WrongType("an object".into()));
                None
            }
        }
    }

    /// Reports keys of `m` not in `known`.
    fn known(&mut self, m: &Map<String, Value>, path: &[Step], known: &[&str]) {
        for key in m.keys() {
            if !known.contains(&key.as_str()) {
                self.issue(&with(path, Step::Key(key.clone())), DecodeIssueKind::UnknownField);
            }
        }
    }

    fn scalar<T>(
        &mut self,
        m: &Map<String, Value>,
        key: &str,
        path: &[Step],
        f: impl FnOnce(&mut Decoder, &Value) -> T,
    ) -> T {
        let mut d = Decoder::default();
        let out = f(&mut d, m.get(key).unwrap_or(&Value::Null));
        self.absorb(d, &with(path, Step::Key(key.to_owned())));
        out
    }

    fn string(&mut self, m: &Map<String, Value>, key: &str, path: &[Step]) -> String {
        self.scalar(m, key, path, |d, v| d.string(v))
    }

    fn bool(&mut self, m: &Map<String, Value>, key: &str, path: &[Step]) -> bool {
        self.scalar(m, key, path, |d, v| d.bool(v))
    }

    fn strings(&mut self, m: &Map<String, Value>, key: &str, path: &[Step]) -> Vec<String> {
        let path = with(path, Step::Key(key.to_owned()));
        match m.get(key) {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(items)) => items
                .iter()
                .enumerate()
                .map(|(i, x)| {
                    let mut d = Decoder::default();
                    let s = d.string(x);
                    self.absorb(d, &with(&path, Step::Index(i)));
                    s
                })
                .collect(),
            Some(_) => {
                self.issue(&path, DecodeIssueKind::WrongType("a list".into()));
                Vec::new()
            }
        }
    }

    fn absorb(&mut self, d: Decoder, prefix: &[Step]) {
        for mut issue in d.issues {
            let mut path = prefix.to_vec();
            path.append(&mut issue.path);
            issue.path = path;
            self.issues.push(issue);
        }
    }

    fn validation(&mut self, v: &Value, path: &[Step]) -> Option<CustomResourceValidation> {
        let m = self.object(v, path)?;
        self.known(m, path, &["openAPIV3Schema"]);
        let schema = m.get("openAPIV3Schema").filter(|s| !s.is_null()).map(|s| {
            let mut d = Decoder::default();
            let schema = d.schema(s);
            self.absorb(d, &with(path, Step::Key("openAPIV3Schema".into())));
            schema
        });
        Some(CustomResourceValidation { open_api_v3_schema: schema })
    }

    fn subresources(&mut self, v: &Value, path: &[Step]) -> Option<Subresources> {
        let m = self.object(v, path)?;
        self.known(m, path, &["status", "scale"]);
        Some(Subresources {
            status: m.get("status").is_some_and(|s| !s.is_null()),
            scale: m.get("scale").filter(|s| !s.is_null()).cloned(),
        })
    }

    fn names(&mut self, v: Option<&Value>, path: &[Step]) -> Names {
        let Some(m) = v.and_then(|v| self.object(v, path)) else { return Names::default() };
        self.known(m, path, &["plural", "singular", "kind", "listKind", "shortNames", "categories"]);
        Names {
            plural: self.string(m, "plural", path),
            singular: self.string(m, "singular", path),
            kind: self.string(m, "kind", path),
            list_kind: self.string(m, "listKind", path),
            short_names: self.strings(m, "shortNames", path),
            categories: self.strings(m, "categories", path),
        }
    }

    fn version(&mut self, v: &Value, path: &[Step]) -> CrdVersion {
        let Some(m) = self.object(v, path) else { return CrdVersion::default() };
        self.known(
            m,
            path,
            &[
                "name",
                "served",
                "storage",
                "deprecated",
                "deprecationWarning",
                "schema",
                "subresources",
                "additionalPrinterColumns",
                "selectableFields",
            ],
        );
        let key = |k: &str| with(path, Step::Key(k.to_owned()));
        CrdVersion {
            name: self.string(m, "name", path),
            served: self.bool(m, "served", path),
            storage: self.bool(m, "storage", path),
            deprecated: self.bool(m, "deprecated", path),
            deprecation_warning: match m.get("deprecationWarning") {
                None | Some(Value::Null) => None,
                Some(_) => Some(self.string(m, "deprecationWarning", path)),
            },
            schema: m.get("schema").and_then(|s| self.validation(s, &key("schema"))),
            subresources: m.get("subresources").and_then(|s| self.subresources(s, &key("subresources"))),
            selectable_fields: m.get("selectableFields").filter(|s| !s.is_null()).cloned(),
            additional_printer_columns: m.get("additionalPrinterColumns").filter(|s| !s.is_null()).cloned(),
        }
    }

    fn spec(&mut self, v: &Value, path: &[Step], layout: Layout) -> CrdSpec {
        let Some(m) = self.object(v, path) else { return CrdSpec::default() };
        let mut known = vec!["group", "names", "scope", "versions", "conversion", "preserveUnknownFields"];
        if layout != Layout::V1 {
            known.extend(["version", "validation", "subresources", "additionalPrinterColumns", "selectableFields"]);
        }
        self.known(m, path, &known);
        let key = |k: &str| with(path, Step::Key(k.to_owned()));
        let versions = match m.get("versions") {
            Some(Value::Array(items)) => {
                let vpath = key("versions");
                items.iter().enumerate().map(|(i, x)| self.version(x, &with(&vpath, Step::Index(i)))).collect()
            }
            None | Some(Value::Null) => Vec::new(),
            Some(_) => {
                self.issue(&key("versions"), DecodeIssueKind::WrongType("a list".into()));
                Vec::new()
            }
        };
        let preserve = match m.get("preserveUnknownFields") {
            None | Some(Value::Null) => None,
            Some(_) => Some(self.bool(m, "preserveUnknownFields", path)),
        };
        let mut spec = CrdSpec {
            group: self.string(m, "group", path),
            names: self.names(m.get("names"), &key("names")),
            scope: self.string(m, "scope", path),
            validation: None,
            subresources: None,
            versions,
            preserve_unknown_fields: preserve,
        };
        if layout != Layout::V1 {
            spec.validation = m.get("validation").and_then(|s| self.validation(s, &key("validation")));
            spec.subresources = m.get("subresources").and_then(|s| self.subresources(s, &key("subresources")));
            let version = self.string(m, "version", path);
            if layout == Layout::V1beta1 && spec.versions.is_empty() && !version.is_empty() {
                spec.versions.push(CrdVersion { name: version, served: true, storage: true, ..CrdVersion::default() });
            }
        }
        spec
    }
}

fn with(path: &[Step], step: Step) -> Vec<Step> {
    let mut out = path.to_vec();
    out.push(step);
    out
}

/// Applies the API server's defaulting for the served API version.
fn default_spec(spec: &mut CrdSpec, layout: Layout) {
    // v1's `preserveUnknownFields` is a plain bool: absent means false.
    if layout == Layout::V1 && spec.preserve_unknown_fields.is_none() {
        spec.preserve_unknown_fields = Some(false);
    }
    if layout == Layout::V1beta1 {
        if spec.preserve_unknown_fields.is_none() {
            spec.preserve_unknown_fields = Some(true);
        }
        if spec.scope.is_empty() {
            spec.scope = "Namespaced".to_owned();
        }
    }
    if spec.names.singular.is_empty() {
        spec.names.singular = spec.names.kind.to_lowercase();
    }
    if spec.names.list_kind.is_empty() && !spec.names.kind.is_empty() {
        spec.names.list_kind = format!("{}List", spec.names.kind);
    }
}

/// Moves per-version schemas and subresources to the top level when every
/// version carries an identical one, as the v1 → internal conversion does.
fn hoist(spec: &mut CrdSpec) {
    let first = spec.versions.first().and_then(|v| v.schema.clone());
    if first.is_some() && spec.versions.iter().all(|v| v.schema == first) {
        spec.validation = first;
        spec.versions.iter_mut().for_each(|v| v.schema = None);
    }
    let first = spec.versions.first().and_then(|v| v.subresources.clone());
    if first.is_some() && spec.versions.iter().all(|v| v.subresources == first) {
        spec.subresources = first;
        spec.versions.iter_mut().for_each(|v| v.subresources = None);
    }
}

pub(super) fn internal_spec(v: &Value) -> (CrdSpec, Vec<DecodeIssue>) {
    let mut reader = Reader { issues: Vec::new() };
    let spec = reader.spec(v, &[], Layout::Internal);
    (spec, reader.issues)
}

pub(super) fn from_manifest(doc: &Value) -> Option<CustomResourceDefinition> {
    let m = doc.as_object()?;
    if m.get("kind").and_then(Value::as_str) != Some("CustomResourceDefinition") {
        return None;
    }
    let api_version = m.get("apiVersion").and_then(Value::as_str)?.to_owned();
    let layout = match api_version.as_str() {
        "apiextensions.k8s.io/v1" => Layout::V1,
        "apiextensions.k8s.io/v1beta1" => Layout::V1beta1,
        _ => return None,
    };
    let mut reader = Reader { issues: Vec::new() };
    reader.known(m, &[], &["apiVersion", "kind", "metadata", "spec", "status"]);
    let name = m.get("metadata").and_then(|x| x.get("name")).and_then(Value::as_str).unwrap_or_default().to_owned();
    let spec_value = m.get("spec").unwrap_or(&Value::Null);
    let mut spec = reader.spec(spec_value, &[Step::Key("spec".into())], layout);
    default_spec(&mut spec, layout);
    if layout == Layout::V1 {
        hoist(&mut spec);
    }
    Some(CustomResourceDefinition { api_version, name, spec, decode_issues: reader.issues })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn v1_identical_schemas_are_hoisted() {
        let doc = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "foos.example.com"},
            "spec": {"group": "example.com", "scope": "Namespaced", "names": {"plural": "foos", "kind": "Foo"},
              "versions": [
                {"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {"type": "object"}}},
                {"name": "v2", "served": true, "storage": false, "schema": {"openAPIV3Schema": {"type": "object"}}}]}});
        let crd = CustomResourceDefinition::from_manifest(&doc).unwrap();
        assert!(crd.decode_issues.is_empty());
        assert!(crd.spec.validation.is_some());
        assert!(crd.spec.versions.iter().all(|v| v.schema.is_none()));
        assert_eq!(crd.spec.version_schema(1).unwrap().type_, "object");
        assert_eq!(crd.spec.names.list_kind, "FooList");
        assert_eq!(crd.spec.preserve_unknown_fields, Some(false));
    }

    #[test]
    fn v1beta1_defaults() {
        let doc = json!({"apiVersion": "apiextensions.k8s.io/v1beta1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "foos.example.com"},
            "spec": {"group": "example.com", "version": "v1", "names": {"plural": "foos", "kind": "Foo"}, "bogus": 1}});
        let crd = CustomResourceDefinition::from_manifest(&doc).unwrap();
        assert_eq!(crd.spec.preserve_unknown_fields, Some(true));
        assert_eq!(crd.spec.versions.len(), 1);
        assert_eq!(crd.spec.scope, "Namespaced");
        assert_eq!(crd.decode_issues.len(), 1);
        assert_eq!(crd.decode_issues[0].message(""), "unknown field \"spec.bogus\"");
    }

    #[test]
    fn other_documents_are_not_crds() {
        assert!(CustomResourceDefinition::from_manifest(&json!({"apiVersion": "v1", "kind": "ConfigMap"})).is_none());
    }
}
