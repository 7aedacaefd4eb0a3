//! Decoding `metadata` into an [`ObjectMeta`] the way the API server does:
//! Go's `encoding/json` (as forked by `sigs.k8s.io/json`: case-sensitive
//! keys, optional strict mode) over the marshalled metadata, and
//! `GetObjectMetaWithOptions` on top of it.
//!
//! Entry points: [`get_object_meta`] (the `metadata` of an object, with the
//! options of the coercion) and [`decode_object_meta`] (a plain decode).
//!
//! Error policy: a decoding failure is a [`DecodeError`] holding the Go
//! decoder's text (`json: cannot unmarshal number into Go struct field
//! ObjectMeta.annotations of type map[string]string`). As in Go, a value of
//! the wrong type is remembered and decoding goes on (the first such error
//! is reported), while a bad timestamp stops decoding at once and wins.
//! Object keys are visited in sorted order, because Go re-encodes the
//! metadata map (sorting its keys) before decoding it.

use std::collections::BTreeMap;
use std::fmt;

use serde_json::{Map, Number, Value};

use super::meta::{ManagedFieldsEntry, ObjectMeta, OwnerReference};
use super::time::Time;
use crate::field::Path;
use crate::gofmt;
use crate::json_map;

/// Upstream's cap on the strict errors of one decode.
const MAX_STRICT_ERRORS: usize = 100;

/// Options of [`get_object_meta`], as Go's `ObjectMetaOptions`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ObjectMetaOptions {
    /// Decode field by field and drop each top-level field that does not
    /// decode, instead of failing.
    pub drop_malformed_fields: bool,
    /// Report the fields ObjectMeta does not know (strict decoding).
    pub return_unknown_field_paths: bool,
    /// Where the object holding `metadata` is (the root when empty); unknown
    /// field paths start with `<parent>.metadata.`.
    pub parent_path: Path,
}

/// A decoded `metadata` and the paths of the unknown fields dropped from it
/// (empty unless asked for).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DecodedObjectMeta {
    /// The decoded metadata.
    pub meta: ObjectMeta,
    /// `metadata.unknownField`, `spec.x.metadata.ownerReferences[0].junk`.
    pub unknown_field_paths: Vec<String>,
}

/// Why `metadata` did not decode: the Go error text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError(pub String);

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DecodeError {}

/// Go's `GetObjectMetaWithOptions`: `Ok(None)` when `object` has no
/// `metadata`.
///
/// The whole metadata is decoded first. If that fails and malformed fields
/// are to be dropped, a non-object metadata is an error
/// (`invalid metadata: expected object, got <Go type>`), and otherwise each
/// top-level field is decoded on its own and kept only if it decodes.
pub fn get_object_meta(
    object: &Map<String, Value>,
    options: &ObjectMetaOptions,
) -> Result<Option<DecodedObjectMeta>, DecodeError> {
    let Some(metadata) = json_map::get(object, "metadata") else {
        return Ok(None);
    };
    let strict = options.return_unknown_field_paths;
    // Unknown fields are rare: their prefix is rendered only for them.
    let prefixed = |paths: Vec<String>| -> Vec<String> {
        if paths.is_empty() {
            return paths;
        }
        let prefix = options.parent_path.child("metadata").to_string();
        paths.into_iter().map(|p| format!("{prefix}.{p}")).collect()
    };
    let error = match decode(metadata, strict) {
        Ok((meta, unknown)) => return Ok(Some(DecodedObjectMeta { meta, unknown_field_paths: prefixed(unknown) })),
        Err(error) => error,
    };
    if !options.drop_malformed_fields {
        return Err(error);
    }
    let Value::Object(fields) = metadata else {
        return Err(DecodeError(format!("invalid metadata: expected object, got {}", crate::gofmt::go_type(metadata))));
    };
    let mut meta = ObjectMeta::default();
    let mut unknown = Vec::new();
    for (key, value) in sorted(fields) {
        let mut test = Decoder::new(false);
        if test.single_field(key, value, &mut ObjectMeta::default()).is_ok() && test.saved.is_none() {
            let mut real = Decoder::new(strict);
            // The test decode succeeded, so this one does too.
            let _ = real.single_field(key, value, &mut meta);
            unknown.extend(real.unknown);
        }
    }
    Ok(Some(DecodedObjectMeta { meta, unknown_field_paths: prefixed(unknown) }))
}

/// A plain decode of a `metadata` value (Go's `json.Unmarshal` into an
/// ObjectMeta), unknown fields ignored.
pub fn decode_object_meta(metadata: &Value) -> Result<ObjectMeta, DecodeError> {
    decode(metadata, false).map(|(meta, _)| meta)
}

fn decode(metadata: &Value, strict: bool) -> Result<(ObjectMeta, Vec<String>), DecodeError> {
    let mut decoder = Decoder::new(strict);
    let mut meta = ObjectMeta::default();
    decoder.object_meta(metadata, &mut meta).map_err(|Fatal(text)| DecodeError(text))?;
    match decoder.saved {
        Some(text) => Err(DecodeError(text)),
        None => Ok((meta, decoder.unknown)),
    }
}

/// An error that stops decoding at once (a timestamp's `UnmarshalJSON`).
struct Fatal(String);

type Step = Result<(), Fatal>;

/// The state of one Go decode: the first type error, the strict errors, and
/// the context Go puts into type errors (the innermost struct and the names
/// of the fields on the way there).
struct Decoder {
    strict: bool,
    unknown: Vec<String>,
    saved: Option<String>,
    struct_name: Option<&'static str>,
    fields: Vec<&'static str>,
    strict_path: String,
}

/// The kind of a JSON value as Go's type errors name it.
fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// The keys of an object in Go's encoding order.
fn sorted(map: &Map<String, Value>) -> Vec<(&String, &Value)> {
    let mut entries: Vec<_> = map.iter().collect();
    entries.sort_by(|a, b| a.0.cmp(b.0));
    entries
}

// The literal Go's encoder writes for a number of a decoded object:
// integers as such, anything else (floats, and integers beyond int64, which
// Go decodes as float64) in float form.
fn number_literal(n: &Number) -> String {
    match n.as_i64() {
        Some(i) => i.to_string(),
        None => gofmt::float_json(n.as_f64().unwrap_or(f64::NAN)),
    }
}

impl Decoder {
    fn new(strict: bool) -> Self {
        Self {
            strict,
            unknown: Vec::new(),
            saved: None,
            struct_name: None,
            fields: Vec::new(),
            strict_path: String::new(),
        }
    }

    // Go's `UnmarshalTypeError` text, with the struct and field context
    // when inside a struct field.
    fn type_error_text(&self, value_kind: &str, go_type: &str) -> String {
        match self.struct_name {
            Some(name) => format!(
                "json: cannot unmarshal {value_kind} into Go struct field {name}.{} of type {go_type}",
                self.fields.join(".")
            ),
            None => format!("json: cannot unmarshal {value_kind} into Go value of type {go_type}"),
        }
    }

    // Only the first type error is kept; decoding goes on.
    fn type_error(&mut self, value_kind: &str, go_type: &str) {
        if self.saved.is_none() {
            self.saved = Some(self.type_error_text(value_kind, go_type));
        }
    }

    // In strict mode an unknown key is recorded once, at most 100 of them.
    fn unknown_field(&mut self, key: &str) {
        if !self.strict || self.unknown.len() >= MAX_STRICT_ERRORS {
            return;
        }
        let path = if self.strict_path.is_empty() { key.to_owned() } else { format!("{}.{key}", self.strict_path) };
        if !self.unknown.contains(&path) {
            self.unknown.push(path);
        }
    }

    // Decodes a known struct field with its name on the context stacks.
    fn field(&mut self, owner: &'static str, name: &'static str, f: impl FnOnce(&mut Self) -> Step) -> Step {
        let outer = self.struct_name.replace(owner);
        self.fields.push(name);
        let path_len = self.strict_path.len();
        if !self.strict_path.is_empty() {
            self.strict_path.push('.');
        }
        self.strict_path.push_str(name);
        let result = f(self);
        self.strict_path.truncate(path_len);
        self.fields.pop();
        self.struct_name = outer;
        result
    }

    // Decodes each element of an array with its index on the strict path.
    fn elements<T: Default>(
        &mut self,
        items: &[Value],
        mut f: impl FnMut(&mut Self, &Value, &mut T) -> Step,
    ) -> Result<Vec<T>, Fatal> {
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let path_len = self.strict_path.len();
            self.strict_path.push_str(&format!("[{i}]"));
            let mut element = T::default();
            let result = f(self, item, &mut element);
            self.strict_path.truncate(path_len);
            result?;
            out.push(element);
        }
        Ok(out)
    }

    // A string (or a named string type): `null` leaves it unchanged.
    fn string(&mut self, v: &Value, go_type: &str, out: &mut String) {
        match v {
            Value::Null => {}
            Value::String(s) => s.clone_into(out),
            other => self.type_error(kind(other), go_type),
        }
    }

    // An int64: the number's literal must parse as one, else the error
    // names the literal (`number 1.5`).
    fn int64(&mut self, v: &Value, out: &mut i64) {
        match v {
            Value::Null => {}
            Value::Number(n) => {
                let literal = number_literal(n);
                match literal.parse::<i64>() {
                    Ok(i) => *out = i,
                    Err(_) => self.type_error(&format!("number {literal}"), "int64"),
                }
            }
            other => self.type_error(kind(other), "int64"),
        }
    }

    // A pointer: `null` makes it nil; anything else allocates it first.
    fn optional<T: Default>(&mut self, v: &Value, out: &mut Option<T>, f: impl FnOnce(&mut Self, &Value, &mut T)) {
        if v.is_null() {
            *out = None;
        } else {
            f(self, v, out.get_or_insert_with(T::default));
        }
    }

    fn boolean(&mut self, v: &Value, out: &mut bool) {
        match v {
            Value::Null => {}
            Value::Bool(b) => *out = *b,
            other => self.type_error(kind(other), "bool"),
        }
    }

    // `metav1.Time.UnmarshalJSON`: `null` is the zero time; anything but a
    // string fails the inner string decode, which Go reports with the
    // context of the field; a string must parse as RFC 3339. Both failures
    // stop decoding.
    fn time(&mut self, v: &Value) -> Result<Time, Fatal> {
        match v {
            Value::Null => Ok(Time::ZERO),
            Value::String(s) => Time::parse_rfc3339(s).map_err(|e| Fatal(e.to_string())),
            other => Err(Fatal(self.type_error_text(kind(other), "string"))),
        }
    }

    fn optional_time(&mut self, v: &Value, out: &mut Option<Time>) -> Step {
        *out = if v.is_null() { None } else { Some(self.time(v)?) };
        Ok(())
    }

    // `map[string]string`: `null` makes it nil; a `null` value is `""`.
    fn string_map(&mut self, v: &Value, out: &mut BTreeMap<String, String>) {
        match v {
            Value::Null => out.clear(),
            Value::Object(map) => {
                for (key, value) in sorted(map) {
                    let mut s = String::new();
                    self.string(value, "string", &mut s);
                    out.insert(key.clone(), s);
                }
            }
            other => self.type_error(kind(other), "map[string]string"),
        }
    }

    // `[]string`: `null` makes it nil; a `null` element is `""`.
    fn string_list(&mut self, v: &Value, out: &mut Vec<String>) -> Step {
        match v {
            Value::Null => out.clear(),
            Value::Array(items) => {
                *out = self.elements(items, |d, item, s: &mut String| {
                    d.string(item, "string", s);
                    Ok(())
                })?;
            }
            other => self.type_error(kind(other), "[]string"),
        }
        Ok(())
    }

    // A struct: `null` leaves it unchanged, an object is decoded key by key
    // (unknown keys are ignored, or recorded when strict), anything else is
    // a type error naming the struct type.
    fn structure<T>(
        &mut self,
        v: &Value,
        out: &mut T,
        go_type: &str,
        mut known: impl FnMut(&mut Self, &str, &Value, &mut T) -> Result<bool, Fatal>,
    ) -> Step {
        match v {
            Value::Null => {}
            Value::Object(map) => {
                for (key, value) in sorted(map) {
                    if !known(self, key, value, out)? {
                        self.unknown_field(key);
                    }
                }
            }
            other => self.type_error(kind(other), go_type),
        }
        Ok(())
    }

    // `[]T` of structs: `null` makes it nil, `null` elements are zero.
    fn struct_list<T: Default>(
        &mut self,
        v: &Value,
        out: &mut Vec<T>,
        go_type: &str,
        element: fn(&mut Self, &Value, &mut T) -> Step,
    ) -> Step {
        match v {
            Value::Null => out.clear(),
            Value::Array(items) => *out = self.elements(items, element)?,
            other => self.type_error(kind(other), &format!("[]{go_type}")),
        }
        Ok(())
    }

    fn object_meta(&mut self, v: &Value, meta: &mut ObjectMeta) -> Step {
        self.structure(v, meta, "v1.ObjectMeta", Self::meta_field)
    }

    // Decodes `{key: value}` into `meta`.
    fn single_field(&mut self, key: &str, value: &Value, meta: &mut ObjectMeta) -> Step {
        if !self.meta_field(key, value, meta)? {
            self.unknown_field(key);
        }
        Ok(())
    }

    // One key of ObjectMeta; `false` when ObjectMeta has no such field
    // (keys match case-sensitively).
    fn meta_field(&mut self, key: &str, v: &Value, m: &mut ObjectMeta) -> Result<bool, Fatal> {
        const OM: &str = "ObjectMeta";
        let simple = |d: &mut Self, name: &'static str, go_type: &'static str, out: &mut String| {
            d.field(OM, name, |d| {
                d.string(v, go_type, out);
                Ok(())
            })
        };
        match key {
            "name" => simple(self, "name", "string", &mut m.name)?,
            "generateName" => simple(self, "generateName", "string", &mut m.generate_name)?,
            "namespace" => simple(self, "namespace", "string", &mut m.namespace)?,
            "selfLink" => simple(self, "selfLink", "string", &mut m.self_link)?,
            "uid" => simple(self, "uid", "types.UID", &mut m.uid)?,
            "resourceVersion" => simple(self, "resourceVersion", "string", &mut m.resource_version)?,
            "generation" => self.field(OM, "generation", |d| {
                d.int64(v, &mut m.generation);
                Ok(())
            })?,
            "creationTimestamp" => self.field(OM, "creationTimestamp", |d| {
                m.creation_timestamp = d.time(v)?;
                Ok(())
            })?,
            "deletionTimestamp" => {
                self.field(OM, "deletionTimestamp", |d| d.optional_time(v, &mut m.deletion_timestamp))?
            }
            "deletionGracePeriodSeconds" => self.field(OM, "deletionGracePeriodSeconds", |d| {
                d.optional(v, &mut m.deletion_grace_period_seconds, Self::int64);
                Ok(())
            })?,
            _ => return self.meta_collection_field(key, v, m),
        }
        Ok(true)
    }

    // The map and list fields of ObjectMeta.
    fn meta_collection_field(&mut self, key: &str, v: &Value, m: &mut ObjectMeta) -> Result<bool, Fatal> {
        const OM: &str = "ObjectMeta";
        match key {
            "labels" => self.field(OM, "labels", |d| {
                d.string_map(v, &mut m.labels);
                Ok(())
            })?,
            "annotations" => self.field(OM, "annotations", |d| {
                d.string_map(v, &mut m.annotations);
                Ok(())
            })?,
            "ownerReferences" => self.field(OM, "ownerReferences", |d| {
                d.struct_list(v, &mut m.owner_references, "v1.OwnerReference", Self::owner_reference)
            })?,
            "finalizers" => self.field(OM, "finalizers", |d| d.string_list(v, &mut m.finalizers))?,
            "managedFields" => self.field(OM, "managedFields", |d| {
                d.struct_list(v, &mut m.managed_fields, "v1.ManagedFieldsEntry", Self::managed_fields_entry)
            })?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn owner_reference(&mut self, v: &Value, r: &mut OwnerReference) -> Step {
        const OR: &str = "OwnerReference";
        self.structure(v, r, "v1.OwnerReference", |d, key, v, r| {
            let (name, text, go_type, flag) = match key {
                "apiVersion" => ("apiVersion", Some(&mut r.api_version), "string", None),
                "kind" => ("kind", Some(&mut r.kind), "string", None),
                "name" => ("name", Some(&mut r.name), "string", None),
                "uid" => ("uid", Some(&mut r.uid), "types.UID", None),
                "controller" => ("controller", None, "bool", Some(&mut r.controller)),
                "blockOwnerDeletion" => ("blockOwnerDeletion", None, "bool", Some(&mut r.block_owner_deletion)),
                _ => return Ok(false),
            };
            d.field(OR, name, |d| {
                if let Some(out) = text {
                    d.string(v, go_type, out);
                }
                if let Some(out) = flag {
                    d.optional(v, out, Self::boolean);
                }
                Ok(())
            })?;
            Ok(true)
        })
    }

    fn managed_fields_entry(&mut self, v: &Value, e: &mut ManagedFieldsEntry) -> Step {
        const MF: &str = "ManagedFieldsEntry";
        self.structure(v, e, "v1.ManagedFieldsEntry", |d, key, v, e| {
            let (name, out, go_type) = match key {
                "manager" => ("manager", &mut e.manager, "string"),
                "operation" => ("operation", &mut e.operation, "v1.ManagedFieldsOperationType"),
                "apiVersion" => ("apiVersion", &mut e.api_version, "string"),
                "fieldsType" => ("fieldsType", &mut e.fields_type, "string"),
                "subresource" => ("subresource", &mut e.subresource, "string"),
                // `FieldsV1` keeps any JSON but `null` as raw bytes.
                "fieldsV1" => {
                    e.fields_v1 = (!v.is_null()).then(|| v.clone());
                    return Ok(true);
                }
                "time" => {
                    d.field(MF, "time", |d| d.optional_time(v, &mut e.time))?;
                    return Ok(true);
                }
                _ => return Ok(false),
            };
            d.field(MF, name, |d| {
                d.string(v, go_type, out);
                Ok(())
            })?;
            Ok(true)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn error(metadata: Value) -> String {
        decode_object_meta(&metadata).map(|m| format!("{m:?}")).unwrap_or_else(|e| e.0)
    }

    fn options(drop: bool, unknown: bool) -> ObjectMetaOptions {
        ObjectMetaOptions {
            drop_malformed_fields: drop,
            return_unknown_field_paths: unknown,
            parent_path: Path::root(),
        }
    }

    #[test]
    fn type_errors_name_the_go_field() {
        assert_eq!(
            error(json!({"annotations": 11})),
            "json: cannot unmarshal number into Go struct field ObjectMeta.annotations of type map[string]string"
        );
        assert_eq!(
            error(json!({"labels": {"a": 1}})),
            "json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string"
        );
        assert_eq!(error(json!([42])), "json: cannot unmarshal array into Go value of type v1.ObjectMeta");
        assert_eq!(
            error(json!({"generation": 1.5})),
            "json: cannot unmarshal number 1.5 into Go struct field ObjectMeta.generation of type int64"
        );
        assert_eq!(
            error(json!({"ownerReferences": [{"uid": 1}]})),
            "json: cannot unmarshal number into Go struct field OwnerReference.ownerReferences.uid of type types.UID"
        );
        assert_eq!(
            error(json!({"ownerReferences": ["x"]})),
            "json: cannot unmarshal string into Go struct field ObjectMeta.ownerReferences of type v1.OwnerReference"
        );
        assert_eq!(
            error(json!({"finalizers": "x"})),
            "json: cannot unmarshal string into Go struct field ObjectMeta.finalizers of type []string"
        );
    }

    #[test]
    fn the_first_type_error_wins_but_a_bad_timestamp_wins_over_all() {
        assert_eq!(
            error(json!({"uid": 1, "annotations": 2})),
            "json: cannot unmarshal number into Go struct field ObjectMeta.annotations of type map[string]string"
        );
        assert_eq!(
            error(json!({"annotations": 2, "creationTimestamp": 5})),
            "json: cannot unmarshal number into Go struct field ObjectMeta.creationTimestamp of type string"
        );
        assert_eq!(
            error(json!({"managedFields": [{"time": true}]})),
            "json: cannot unmarshal bool into Go struct field ManagedFieldsEntry.managedFields.time of type string"
        );
        assert!(error(json!({"creationTimestamp": "a"})).starts_with("parsing time \"a\""));
    }

    #[test]
    fn nulls_and_integral_floats_decode() {
        let meta = decode_object_meta(&json!({"name": null, "generation": 2.0, "labels": {"a": null},
            "finalizers": [null, "f"], "ownerReferences": [null], "deletionGracePeriodSeconds": null}))
        .unwrap();
        assert_eq!(meta.generation, 2);
        assert_eq!(meta.labels["a"], "");
        assert_eq!(meta.finalizers, ["", "f"]);
        assert_eq!(meta.owner_references, [OwnerReference::default()]);
        assert_eq!(decode_object_meta(&Value::Null).unwrap(), ObjectMeta::default());
        assert!(decode_object_meta(&json!({"generation": 1e21})).is_err());
    }

    #[test]
    fn strict_paths_and_case_sensitivity() {
        let obj = json!({"metadata": {"Name": "x", "name": "n", "ownerReferences": [{"junk": 1}],
            "managedFields": [{"fieldsV1": {"f:a": {}}, "x": 1}]}});
        let got = get_object_meta(obj.as_object().unwrap(), &options(false, true)).unwrap().unwrap();
        assert_eq!(got.meta.name, "n");
        assert_eq!(
            got.unknown_field_paths,
            ["metadata.Name", "metadata.managedFields[0].x", "metadata.ownerReferences[0].junk"]
        );
        let nested = ObjectMetaOptions { parent_path: Path::new("spec").key("k"), ..options(false, true) };
        let got = get_object_meta(obj.as_object().unwrap(), &nested).unwrap().unwrap();
        assert_eq!(got.unknown_field_paths[0], "spec[k].metadata.Name");
    }

    #[test]
    fn malformed_fields_are_dropped_whole() {
        let obj = json!({"metadata": {"name": "n", "labels": {"a": "1", "b": ["x"]}, "junk": 1, "uid": 5}});
        let got = get_object_meta(obj.as_object().unwrap(), &options(true, true)).unwrap().unwrap();
        assert_eq!(got.meta.to_value(), json!({"name": "n"}));
        assert_eq!(got.unknown_field_paths, ["metadata.junk"]);
        let err = get_object_meta(obj.as_object().unwrap(), &options(false, false)).unwrap_err();
        assert!(err.0.starts_with("json: cannot unmarshal array"));
        let bad = json!({"metadata": [42]});
        assert_eq!(
            get_object_meta(bad.as_object().unwrap(), &options(true, false)).unwrap_err().0,
            "invalid metadata: expected object, got []interface {}"
        );
        assert_eq!(get_object_meta(&Map::new(), &options(true, false)), Ok(None));
    }
}
