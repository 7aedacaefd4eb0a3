//! Reading a CRD field by field from JSON in one of three layouts (v1,
//! v1beta1, internal), as Go's decoder fills the structs: wrong types and
//! unknown fields are collected as [`DecodeIssue`]s with absolute paths and
//! leave the zero value behind. Nothing is defaulted or moved here except
//! the webhook service port, which the model cannot tell absent once read
//! (see [`Reader::default_port`]).

use serde_json::{Map, Value};

use super::{
    Conversion, CrdCondition, CrdSpec, CrdStatus, CrdVersion, CustomResourceValidation, Names, PrinterColumn, Scale,
    SelectableField, ServiceReference, Subresources, WebhookClientConfig,
};
use crate::objectmeta::{ObjectMeta, decode_object_meta};
use crate::wire::{DecodeIssue, DecodeIssueKind, Decoder, JSONSchemaProps, decode_bytes};
use crate::yaml::Step;

/// Which layout a CRD is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Layout {
    V1,
    V1beta1,
    Internal,
}

impl Layout {
    /// The key of a printer column's path: v1 spells it `jsonPath`.
    fn column_path_key(self) -> &'static str {
        if self == Layout::V1 { "jsonPath" } else { "JSONPath" }
    }
}

/// Walks a CRD, collecting issues with absolute paths.
pub(super) struct Reader {
    pub(super) issues: Vec<DecodeIssue>,
    /// Gives an absent webhook service port v1's and v1beta1's default,
    /// 443 (the internal port is a plain integer, so absence is lost once
    /// read).
    pub(super) default_port: bool,
}

pub(super) fn with(path: &[Step], step: Step) -> Vec<Step> {
    let mut out = path.to_vec();
    out.push(step);
    out
}

fn key(path: &[Step], k: &str) -> Vec<Step> {
    with(path, Step::key(k))
}

impl Reader {
    pub(super) fn new(default_port: bool) -> Self {
        Self { issues: Vec::new(), default_port }
    }

    fn issue(&mut self, path: &[Step], kind: DecodeIssueKind) {
        self.issues.push(DecodeIssue { path: path.to_vec(), kind });
    }

    fn wrong(&mut self, path: &[Step], expected: &str) {
        self.issue(path, DecodeIssueKind::WrongType(expected.to_owned()));
    }

    pub(super) fn object<'a>(&mut self, v: &'a Value, path: &[Step]) -> Option<&'a Map<String, Value>> {
        match v {
            Value::Object(m) => Some(m),
            Value::Null => None,
            _ => {
                self.wrong(path, "an object");
                None
            }
        }
    }

    /// Reports keys of `m` not in `known`.
    pub(super) fn known(&mut self, m: &Map<String, Value>, path: &[Step], known: &[&str]) {
        for k in m.keys() {
            if !known.contains(&k.as_str()) {
                self.issue(&key(path, k), DecodeIssueKind::UnknownField);
            }
        }
    }

    fn scalar<'v, T>(
        &mut self,
        m: &'v Map<String, Value>,
        k: &str,
        path: &[Step],
        f: impl FnOnce(&mut Decoder<'v>, &'v Value) -> T,
    ) -> T {
        let mut d = Decoder::default();
        let out = f(&mut d, m.get(k).unwrap_or(&Value::Null));
        self.absorb(d, &key(path, k));
        out
    }

    fn string(&mut self, m: &Map<String, Value>, k: &str, path: &[Step]) -> String {
        self.scalar(m, k, path, |d, v| d.string(v))
    }

    /// A `*string`: `None` when absent or `null`.
    fn opt_string(&mut self, m: &Map<String, Value>, k: &str, path: &[Step]) -> Option<String> {
        m.get(k).filter(|v| !v.is_null()).map(|_| self.string(m, k, path))
    }

    fn bool(&mut self, m: &Map<String, Value>, k: &str, path: &[Step]) -> bool {
        self.scalar(m, k, path, |d, v| d.bool(v))
    }

    /// An `int32`: `None` when absent or `null` (or not one, with an issue).
    fn int32(&mut self, m: &Map<String, Value>, k: &str, path: &[Step]) -> Option<i32> {
        match m.get(k)? {
            Value::Null => None,
            Value::Number(n) => match n.as_i64().and_then(|i| i32::try_from(i).ok()) {
                Some(i) => Some(i),
                None => {
                    self.wrong(&key(path, k), "a 32-bit integer");
                    None
                }
            },
            _ => {
                self.wrong(&key(path, k), "a 32-bit integer");
                None
            }
        }
    }

    /// A list of strings; `None` when absent or `null`.
    fn opt_strings(&mut self, m: &Map<String, Value>, k: &str, path: &[Step]) -> Option<Vec<String>> {
        self.list(m, k, path, |reader, item, at| {
            let mut d = Decoder::default();
            let s = d.string(item);
            reader.absorb(d, at);
            s
        })
    }

    fn strings(&mut self, m: &Map<String, Value>, k: &str, path: &[Step]) -> Vec<String> {
        self.opt_strings(m, k, path).unwrap_or_default()
    }

    /// A list read item by item with `item(reader, value, path)`; `None` when
    /// absent or `null`.
    fn list<T>(
        &mut self,
        m: &Map<String, Value>,
        k: &str,
        path: &[Step],
        mut item: impl FnMut(&mut Self, &Value, &[Step]) -> T,
    ) -> Option<Vec<T>> {
        let path = key(path, k);
        match m.get(k)? {
            Value::Null => None,
            Value::Array(items) => {
                Some(items.iter().enumerate().map(|(i, x)| item(self, x, &with(&path, Step::Index(i)))).collect())
            }
            _ => {
                self.wrong(&path, "a list");
                None
            }
        }
    }

    fn absorb(&mut self, d: Decoder<'_>, prefix: &[Step]) {
        for mut issue in d.issues {
            let mut path = prefix.to_vec();
            path.append(&mut issue.path);
            issue.path = path;
            self.issues.push(issue);
        }
    }

    /// `metadata`, decoded as Go decodes an ObjectMeta (unknown fields
    /// ignored); one that does not decode leaves only its name, and the
    /// issue quotes Go's decoder.
    pub(super) fn metadata(&mut self, v: Option<&Value>) -> ObjectMeta {
        let path = [Step::Key("metadata".into())];
        let Some(v) = v else { return ObjectMeta::default() };
        let Some(m) = self.object(v, &path) else { return ObjectMeta::default() };
        match decode_object_meta(v) {
            Ok(meta) => meta,
            Err(e) => {
                self.wrong(&path, &format!("object metadata ({})", e.0));
                let name = m.get("name").and_then(Value::as_str).unwrap_or_default().to_owned();
                ObjectMeta { name, ..ObjectMeta::default() }
            }
        }
    }

    fn validation(&mut self, v: &Value, path: &[Step]) -> Option<CustomResourceValidation> {
        let m = self.object(v, path)?;
        self.known(m, path, &["openAPIV3Schema"]);
        let schema =
            m.get("openAPIV3Schema").filter(|s| !s.is_null()).map(|s| self.schema(s, &key(path, "openAPIV3Schema")));
        Some(CustomResourceValidation { open_api_v3_schema: schema })
    }

    /// The schema `v` at `path`, its decoding issues under that path.
    pub(super) fn schema(&mut self, v: &Value, path: &[Step]) -> JSONSchemaProps {
        let mut d = Decoder::default();
        let schema = d.schema(v);
        self.absorb(d, path);
        schema
    }

    fn subresources(&mut self, v: &Value, path: &[Step]) -> Option<Subresources> {
        let m = self.object(v, path)?;
        self.known(m, path, &["status", "scale"]);
        let scale = m.get("scale").and_then(|s| self.scale(s, &key(path, "scale")));
        Some(Subresources { status: m.get("status").is_some_and(|s| !s.is_null()), scale })
    }

    fn scale(&mut self, v: &Value, path: &[Step]) -> Option<Scale> {
        let m = self.object(v, path)?;
        self.known(m, path, &["specReplicasPath", "statusReplicasPath", "labelSelectorPath"]);
        Some(Scale {
            spec_replicas_path: self.string(m, "specReplicasPath", path),
            status_replicas_path: self.string(m, "statusReplicasPath", path),
            label_selector_path: self.opt_string(m, "labelSelectorPath", path),
        })
    }

    fn columns(&mut self, m: &Map<String, Value>, path: &[Step], layout: Layout) -> Vec<PrinterColumn> {
        let path_key = layout.column_path_key();
        self.list(m, "additionalPrinterColumns", path, |reader, v, at| {
            let Some(c) = reader.object(v, at) else { return PrinterColumn::default() };
            reader.known(c, at, &["name", "type", "format", "description", "priority", path_key]);
            PrinterColumn {
                name: reader.string(c, "name", at),
                type_: reader.string(c, "type", at),
                format: reader.string(c, "format", at),
                description: reader.string(c, "description", at),
                priority: reader.int32(c, "priority", at).unwrap_or_default(),
                json_path: reader.string(c, path_key, at),
            }
        })
        .unwrap_or_default()
    }

    fn selectable_fields(&mut self, m: &Map<String, Value>, path: &[Step]) -> Vec<SelectableField> {
        self.list(m, "selectableFields", path, |reader, v, at| {
            let Some(f) = reader.object(v, at) else { return SelectableField::default() };
            reader.known(f, at, &["jsonPath"]);
            SelectableField { json_path: reader.string(f, "jsonPath", at) }
        })
        .unwrap_or_default()
    }

    pub(super) fn names(&mut self, v: Option<&Value>, path: &[Step]) -> Names {
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

    fn version(&mut self, v: &Value, path: &[Step], layout: Layout) -> CrdVersion {
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
        CrdVersion {
            name: self.string(m, "name", path),
            served: self.bool(m, "served", path),
            storage: self.bool(m, "storage", path),
            deprecated: self.bool(m, "deprecated", path),
            deprecation_warning: self.opt_string(m, "deprecationWarning", path),
            schema: m.get("schema").and_then(|s| self.validation(s, &key(path, "schema"))),
            subresources: m.get("subresources").and_then(|s| self.subresources(s, &key(path, "subresources"))),
            additional_printer_columns: self.columns(m, path, layout),
            selectable_fields: self.selectable_fields(m, path),
        }
    }

    // v1 nests the client config and the review versions in `webhook`; the
    // other layouts have them beside `strategy`.
    fn conversion(&mut self, v: &Value, path: &[Step], layout: Layout) -> Option<Conversion> {
        let m = self.object(v, path)?;
        let mut conversion = Conversion { strategy: String::new(), ..Conversion::default() };
        if layout == Layout::V1 {
            self.known(m, path, &["strategy", "webhook"]);
            let webhook_path = key(path, "webhook");
            if let Some(w) = m.get("webhook").and_then(|w| self.object(w, &webhook_path)) {
                self.known(w, &webhook_path, &["clientConfig", "conversionReviewVersions"]);
                conversion.webhook_client_config =
                    w.get("clientConfig").and_then(|c| self.client_config(c, &key(&webhook_path, "clientConfig")));
                conversion.conversion_review_versions = self.strings(w, "conversionReviewVersions", &webhook_path);
            }
        } else {
            self.known(m, path, &["strategy", "webhookClientConfig", "conversionReviewVersions"]);
            conversion.webhook_client_config =
                m.get("webhookClientConfig").and_then(|c| self.client_config(c, &key(path, "webhookClientConfig")));
            conversion.conversion_review_versions = self.strings(m, "conversionReviewVersions", path);
        }
        conversion.strategy = self.string(m, "strategy", path);
        Some(conversion)
    }

    fn client_config(&mut self, v: &Value, path: &[Step]) -> Option<WebhookClientConfig> {
        let m = self.object(v, path)?;
        self.known(m, path, &["url", "service", "caBundle"]);
        let service = m.get("service").and_then(|s| self.service(s, &key(path, "service")));
        let ca_bundle = match m.get("caBundle") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::String(text)) => decode_bytes(text).unwrap_or_else(|| {
                self.wrong(&key(path, "caBundle"), "base64 data");
                Vec::new()
            }),
            Some(_) => {
                self.wrong(&key(path, "caBundle"), "a string");
                Vec::new()
            }
        };
        Some(WebhookClientConfig { url: self.opt_string(m, "url", path), service, ca_bundle })
    }

    fn service(&mut self, v: &Value, path: &[Step]) -> Option<ServiceReference> {
        let m = self.object(v, path)?;
        self.known(m, path, &["namespace", "name", "path", "port"]);
        let port = self.int32(m, "port", path).unwrap_or(if self.default_port { 443 } else { 0 });
        Some(ServiceReference {
            namespace: self.string(m, "namespace", path),
            name: self.string(m, "name", path),
            path: self.opt_string(m, "path", path),
            port,
        })
    }

    pub(super) fn spec(&mut self, v: &Value, path: &[Step], layout: Layout) -> CrdSpec {
        let Some(m) = self.object(v, path) else { return CrdSpec::default() };
        let mut known = vec!["group", "names", "scope", "versions", "conversion", "preserveUnknownFields"];
        if layout != Layout::V1 {
            known.extend(["version", "validation", "subresources", "additionalPrinterColumns", "selectableFields"]);
        }
        self.known(m, path, &known);
        let versions =
            self.list(m, "versions", path, |reader, x, at| reader.version(x, at, layout)).unwrap_or_default();
        let preserve = match m.get("preserveUnknownFields") {
            None | Some(Value::Null) => None,
            Some(_) => Some(self.bool(m, "preserveUnknownFields", path)),
        };
        let mut spec = CrdSpec {
            group: self.string(m, "group", path),
            names: self.names(m.get("names"), &key(path, "names")),
            scope: self.string(m, "scope", path),
            versions,
            conversion: m.get("conversion").and_then(|c| self.conversion(c, &key(path, "conversion"), layout)),
            preserve_unknown_fields: preserve,
            ..CrdSpec::default()
        };
        if layout != Layout::V1 {
            spec.version = self.string(m, "version", path);
            spec.validation = m.get("validation").and_then(|s| self.validation(s, &key(path, "validation")));
            spec.subresources = m.get("subresources").and_then(|s| self.subresources(s, &key(path, "subresources")));
            spec.additional_printer_columns = self.columns(m, path, layout);
            spec.selectable_fields = self.selectable_fields(m, path);
        }
        spec
    }

    pub(super) fn status(&mut self, v: Option<&Value>, path: &[Step]) -> CrdStatus {
        let Some(m) = v.and_then(|v| self.object(v, path)) else { return CrdStatus::default() };
        self.known(m, path, &["conditions", "acceptedNames", "storedVersions"]);
        let conditions = self
            .list(m, "conditions", path, |reader, v, at| {
                let Some(c) = reader.object(v, at) else { return CrdCondition::default() };
                reader.known(c, at, &["type", "status", "lastTransitionTime", "reason", "message"]);
                CrdCondition {
                    type_: reader.string(c, "type", at),
                    status: reader.string(c, "status", at),
                    reason: reader.string(c, "reason", at),
                    message: reader.string(c, "message", at),
                }
            })
            .unwrap_or_default();
        CrdStatus {
            conditions,
            accepted_names: self.names(m.get("acceptedNames"), &key(path, "acceptedNames")),
            stored_versions: self.opt_strings(m, "storedVersions", path),
        }
    }
}
