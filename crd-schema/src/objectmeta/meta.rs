//! The ObjectMeta model (`metav1.ObjectMeta` and the types it holds) and its
//! canonical JSON form, as `runtime.DefaultUnstructuredConverter` writes it
//! back into an object.
//!
//! Entry points: [`ObjectMeta`] and [`ObjectMeta::to_value`]. Empty strings,
//! zero numbers, empty maps and lists are omitted; keys come out sorted, as
//! Go's encoder writes a map.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::time::Time;
use crate::json_map;

/// `metav1.ObjectMeta`. Go's `nil` and empty maps and lists are the same
/// here: both are omitted when written.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ObjectMeta {
    /// `name`
    pub name: String,
    /// `generateName`
    pub generate_name: String,
    /// `namespace`
    pub namespace: String,
    /// `selfLink`
    pub self_link: String,
    /// `uid`
    pub uid: String,
    /// `resourceVersion`
    pub resource_version: String,
    /// `generation`
    pub generation: i64,
    /// `creationTimestamp` (zero when absent).
    pub creation_timestamp: Time,
    /// `deletionTimestamp`
    pub deletion_timestamp: Option<Time>,
    /// `deletionGracePeriodSeconds`
    pub deletion_grace_period_seconds: Option<i64>,
    /// `labels`
    pub labels: BTreeMap<String, String>,
    /// `annotations`
    pub annotations: BTreeMap<String, String>,
    /// `ownerReferences`
    pub owner_references: Vec<OwnerReference>,
    /// `finalizers`
    pub finalizers: Vec<String>,
    /// `managedFields`
    pub managed_fields: Vec<ManagedFieldsEntry>,
}

/// `metav1.OwnerReference`. Its four strings are always written, even
/// empty.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnerReference {
    /// `apiVersion`
    pub api_version: String,
    /// `kind`
    pub kind: String,
    /// `name`
    pub name: String,
    /// `uid`
    pub uid: String,
    /// `controller`
    pub controller: Option<bool>,
    /// `blockOwnerDeletion`
    pub block_owner_deletion: Option<bool>,
}

/// `metav1.ManagedFieldsEntry`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ManagedFieldsEntry {
    /// `manager`
    pub manager: String,
    /// `operation`
    pub operation: String,
    /// `apiVersion`
    pub api_version: String,
    /// `time`
    pub time: Option<Time>,
    /// `fieldsType`
    pub fields_type: String,
    /// `fieldsV1`: any JSON value but `null`, kept as given.
    pub fields_v1: Option<Value>,
    /// `subresource`
    pub subresource: String,
}

/// A JSON object filled with the non-empty fields, which are written in
/// sorted key order (Go's encoder sorts a map's keys).
#[derive(Default)]
struct Sorted(Map<String, Value>);

impl Sorted {
    fn string(&mut self, key: &'static str, value: &str) {
        if !value.is_empty() {
            self.insert(key, Value::String(value.to_owned()));
        }
    }

    fn value(&mut self, key: &'static str, value: Option<Value>) {
        if let Some(value) = value {
            self.insert(key, value);
        }
    }

    fn insert(&mut self, key: &'static str, value: Value) {
        debug_assert!(self.0.keys().next_back().is_none_or(|last| last.as_str() < key), "{key} is out of order");
        self.0.insert(key.to_owned(), value);
    }

    fn into_value(self) -> Value {
        Value::Object(self.0)
    }
}

// `metav1.Time` writes the zero time as `null`, which a present pointer
// field keeps.
fn time_value(time: &Time) -> Value {
    if time.is_zero() { Value::Null } else { Value::String(time.to_rfc3339()) }
}

fn string_map(map: &BTreeMap<String, String>) -> Option<Value> {
    (!map.is_empty()).then(|| Value::Object(map.iter().map(|(k, v)| (k.clone(), Value::String(v.clone()))).collect()))
}

fn list<T>(items: &[T], f: fn(&T) -> Value) -> Option<Value> {
    (!items.is_empty()).then(|| Value::Array(items.iter().map(f).collect()))
}

impl ObjectMeta {
    /// The canonical JSON form: what the API server writes back as
    /// `metadata`. A zero `creationTimestamp` is omitted (the coercion
    /// removes the `null` the converter writes).
    pub fn to_value(&self) -> Value {
        let mut m = Sorted::default();
        m.value("annotations", string_map(&self.annotations));
        m.value(
            "creationTimestamp",
            (!self.creation_timestamp.is_zero()).then(|| time_value(&self.creation_timestamp)),
        );
        m.value("deletionGracePeriodSeconds", self.deletion_grace_period_seconds.map(Value::from));
        m.value("deletionTimestamp", self.deletion_timestamp.as_ref().map(time_value));
        m.value("finalizers", list(&self.finalizers, |f| Value::String(f.clone())));
        m.string("generateName", &self.generate_name);
        m.value("generation", (self.generation != 0).then(|| Value::from(self.generation)));
        m.value("labels", string_map(&self.labels));
        m.value("managedFields", list(&self.managed_fields, ManagedFieldsEntry::to_value));
        m.string("name", &self.name);
        m.string("namespace", &self.namespace);
        m.value("ownerReferences", list(&self.owner_references, OwnerReference::to_value));
        m.string("resourceVersion", &self.resource_version);
        m.string("selfLink", &self.self_link);
        m.string("uid", &self.uid);
        m.into_value()
    }
}

impl OwnerReference {
    /// The JSON form, keys sorted.
    pub fn to_value(&self) -> Value {
        let mut m = Sorted::default();
        m.insert("apiVersion", Value::String(self.api_version.clone()));
        m.value("blockOwnerDeletion", self.block_owner_deletion.map(Value::Bool));
        m.value("controller", self.controller.map(Value::Bool));
        m.insert("kind", Value::String(self.kind.clone()));
        m.insert("name", Value::String(self.name.clone()));
        m.insert("uid", Value::String(self.uid.clone()));
        m.into_value()
    }

    /// Go's `json.Marshal` of the struct: fields in declaration order, as
    /// field errors show an owner reference.
    pub fn to_go_json(&self) -> String {
        let mut out = String::from("{");
        for (i, (key, value)) in
            [("apiVersion", &self.api_version), ("kind", &self.kind), ("name", &self.name), ("uid", &self.uid)]
                .into_iter()
                .enumerate()
        {
            if i > 0 {
                out.push(',');
            }
            out.push_str(&format!("\"{key}\":"));
            crate::gofmt::write_json_string(value, &mut out);
        }
        for (key, value) in [("controller", self.controller), ("blockOwnerDeletion", self.block_owner_deletion)] {
            if let Some(b) = value {
                out.push_str(&format!(",\"{key}\":{b}"));
            }
        }
        out.push('}');
        out
    }
}

impl ManagedFieldsEntry {
    /// The JSON form, keys sorted.
    pub fn to_value(&self) -> Value {
        let mut m = Sorted::default();
        m.string("apiVersion", &self.api_version);
        m.string("fieldsType", &self.fields_type);
        m.value("fieldsV1", self.fields_v1.clone());
        m.string("manager", &self.manager);
        m.string("operation", &self.operation);
        m.string("subresource", &self.subresource);
        m.value("time", self.time.as_ref().map(time_value));
        m.into_value()
    }
}

/// Writes `meta` into `object` as `metadata` (Go's `SetObjectMeta`), or
/// removes `metadata` when `meta` is `None`. An existing key keeps its
/// position.
pub fn set_object_meta(object: &mut Map<String, Value>, meta: Option<&ObjectMeta>) {
    match meta {
        Some(meta) => match json_map::get_mut(object, "metadata") {
            Some(slot) => *slot = meta.to_value(),
            None => {
                object.insert("metadata".to_owned(), meta.to_value());
            }
        },
        None => {
            object.shift_remove("metadata");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn empty_fields_are_omitted() {
        assert_eq!(ObjectMeta::default().to_value(), json!({}));
        let meta = ObjectMeta {
            name: "n".into(),
            generation: 2,
            deletion_grace_period_seconds: Some(0),
            deletion_timestamp: Some(Time::ZERO),
            labels: [("a".to_owned(), String::new())].into(),
            ..ObjectMeta::default()
        };
        assert_eq!(
            meta.to_value(),
            json!({"name": "n", "generation": 2, "deletionGracePeriodSeconds": 0, "deletionTimestamp": null,
                "labels": {"a": ""}})
        );
    }

    #[test]
    fn owner_references_keep_their_strings() {
        let r = OwnerReference { kind: "K".into(), controller: Some(false), ..OwnerReference::default() };
        assert_eq!(r.to_value(), json!({"apiVersion": "", "kind": "K", "name": "", "uid": "", "controller": false}));
        assert_eq!(r.to_go_json(), r#"{"apiVersion":"","kind":"K","name":"","uid":"","controller":false}"#);
    }

    #[test]
    fn keys_are_sorted_and_position_is_kept() {
        let meta = ObjectMeta { uid: "u".into(), name: "n".into(), ..ObjectMeta::default() };
        let text = serde_json::to_string(&meta.to_value()).unwrap();
        assert_eq!(text, r#"{"name":"n","uid":"u"}"#);
        let mut obj = json!({"a": 1, "metadata": 2, "b": 3}).as_object().unwrap().clone();
        set_object_meta(&mut obj, Some(&meta));
        assert_eq!(obj.keys().collect::<Vec<_>>(), ["a", "metadata", "b"]);
        set_object_meta(&mut obj, None);
        assert_eq!(obj.keys().collect::<Vec<_>>(), ["a", "b"]);
    }

    #[test]
    fn every_field_is_written_in_sorted_order() {
        let time = Time::parse_rfc3339("2024-01-02T03:04:05Z").unwrap();
        let entry = ManagedFieldsEntry {
            manager: "m".into(),
            operation: "Apply".into(),
            api_version: "v1".into(),
            time: Some(time),
            fields_type: "FieldsV1".into(),
            fields_v1: Some(json!({})),
            subresource: "status".into(),
        };
        let reference =
            OwnerReference { controller: Some(true), block_owner_deletion: Some(true), ..Default::default() };
        let meta = ObjectMeta {
            name: "n".into(),
            generate_name: "g".into(),
            namespace: "ns".into(),
            self_link: "s".into(),
            uid: "u".into(),
            resource_version: "1".into(),
            generation: 1,
            creation_timestamp: time,
            deletion_timestamp: Some(time),
            deletion_grace_period_seconds: Some(1),
            labels: [("l".to_owned(), "v".to_owned())].into(),
            annotations: [("a".to_owned(), "v".to_owned())].into(),
            owner_references: vec![reference],
            finalizers: vec!["f".into()],
            managed_fields: vec![entry],
        };
        let value = meta.to_value();
        let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
        for object in [&value, &value["ownerReferences"][0], &value["managedFields"][0]] {
            let mut sorted = keys(object);
            sorted.sort();
            assert_eq!(keys(object), sorted);
        }
        assert_eq!(keys(&value).len(), 15);
    }
}
