//! Validation of `apiVersion`, `kind` and `metadata` of embedded resources
//! (`objectmeta.Validate`), and the create-time ObjectMeta validation of
//! `k8s.io/apimachinery/pkg/api/validation` it runs.
//!
//! Entry points: [`validate`] (the walk over an object and its schema) and
//! [`validate_object_meta`] (`ValidateObjectMetaAccessor`). Both return
//! every problem as a field error with Kubernetes' exact text; the order is
//! that of the checks, map keys in order (upstream's order is random).

use serde_json::{Map, Value};

use super::decode::decode_object_meta;
use super::meta::{ManagedFieldsEntry, ObjectMeta, OwnerReference};
use super::names::{
    go_to_lower, is_dns1035_label, is_qualified_name, is_valid_label_value, parse_group_version,
    validate_namespace_name, validate_path_segment_name,
};
use crate::field::{BadValue, ErrorList, ErrorType, FieldError, Path};
use crate::gofmt;
use crate::structural::{Structural, StructuralOrBool};

/// The limit on the total size of annotation keys and values, in bytes.
pub const TOTAL_ANNOTATION_SIZE_LIMIT: usize = 256 * 1024;

/// The longest field manager name, in bytes.
const FIELD_MANAGER_MAX_LENGTH: usize = 128;

/// The longest subresource name of a managed fields entry, in bytes.
const MAX_SUBRESOURCE_NAME_LENGTH: usize = 256;

/// Checks a name or generated name prefix (`true` for a prefix) and
/// returns Kubernetes' messages, as Go's `ValidateNameFunc`.
pub type NameFn<'a> = &'a dyn Fn(&str, bool) -> Vec<String>;

/// Validates the embedded resources of `value` under `path` (the root when
/// empty); with `is_resource_root` the root object counts as one.
pub fn validate(path: &Path, value: &Value, schema: Option<&Structural>, is_resource_root: bool) -> ErrorList {
    let schema = Structural::at_resource_root(schema, is_resource_root);
    let mut errors = ErrorList::new();
    walk(path, value, schema, is_resource_root, &mut errors);
    errors
}

// The walk follows `properties`, `additionalProperties` schemas and
// `items`, below embedded resources too; no schema ends it.
fn walk(path: &Path, value: &Value, schema: Option<&Structural>, root: bool, errors: &mut ErrorList) {
    // Only embedded resources (and the root) are checked: a subtree
    // without one is passed over.
    let Some(s) = schema.filter(|s| root || s.holds().embedded_resource) else {
        return;
    };
    match value {
        Value::Object(map) => {
            if root || s.extensions.x_embedded_resource {
                errors.extend(validate_embedded_resource(path, map));
            }
            for (key, child) in map {
                if let Some(property) = s.property(key) {
                    walk(&path.child(key.as_str()), child, Some(property), false, errors);
                } else if let Some(additional) = &s.additional_properties {
                    let child_schema = match additional {
                        StructuralOrBool::Structural(schema) => Some(&**schema),
                        StructuralOrBool::Bool(_) => None,
                    };
                    walk(&path.key(key.as_str()), child, child_schema, false, errors);
                }
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                walk(&path.index(i), item, s.items.as_deref(), false, errors);
            }
        }
        _ => {}
    }
}

/// The checks of one embedded resource: `apiVersion` and `kind` are
/// required (`metadata` is not), and each of the three is checked when
/// present.
pub fn validate_embedded_resource(path: &Path, map: &Map<String, Value>) -> ErrorList {
    let mut errors = ErrorList::new();
    for key in ["apiVersion", "kind"] {
        if !map.contains_key(key) {
            errors.push(FieldError::required(&path.child(key), ""));
        }
    }
    for (key, value) in map {
        match key.as_str() {
            "apiVersion" => errors.extend(validate_api_version(&path.child("apiVersion"), value)),
            "kind" => errors.extend(validate_kind(&path.child("kind"), value)),
            "metadata" => errors.extend(validate_embedded_metadata(&path.child("metadata"), value)),
            _ => {}
        }
    }
    errors
}

// `apiVersion` must be a non-empty string with at most one `/` (`/` alone
// and `group/` pass).
fn validate_api_version(path: &Path, value: &Value) -> Option<FieldError> {
    let Value::String(api_version) = value else {
        return Some(FieldError::invalid(path, value.clone(), "must be a string"));
    };
    if api_version.is_empty() {
        return Some(FieldError::invalid(path, api_version.as_str(), "must not be empty"));
    }
    parse_group_version(api_version).err().map(|e| FieldError::invalid(path, api_version.as_str(), e.to_string()))
}

// `kind` must be a non-empty string whose lower-cased form is a DNS-1035
// label.
fn validate_kind(path: &Path, value: &Value) -> Option<FieldError> {
    let Value::String(kind) = value else {
        return Some(FieldError::invalid(path, value.clone(), "must be a string"));
    };
    if kind.is_empty() {
        return Some(FieldError::invalid(path, kind.as_str(), "must not be empty"));
    }
    let errs = is_dns1035_label(&go_to_lower(kind));
    (!errs.is_empty()).then(|| {
        FieldError::invalid(
            path,
            kind.as_str(),
            format!("may have mixed case, but should otherwise match: {}", errs.join(",")),
        )
    })
}

// `metadata` must decode as ObjectMeta; an empty name is replaced by a
// placeholder (so it is never required), names are only path segments, and
// the namespace is checked only when set.
fn validate_embedded_metadata(path: &Path, value: &Value) -> ErrorList {
    match decode_object_meta(value) {
        Err(e) => vec![FieldError::invalid(path, value.clone(), e.0)],
        Ok(mut meta) => {
            if meta.name.is_empty() {
                "fakename".clone_into(&mut meta.name);
            }
            let requires_namespace = !meta.namespace.is_empty();
            validate_object_meta(&meta, requires_namespace, &validate_path_segment_name, path)
        }
    }
}

/// `ValidateObjectMetaAccessor`: the create-time checks of an ObjectMeta
/// at `path`. `name_fn` checks the name and the generated name prefix.
pub fn validate_object_meta(
    meta: &ObjectMeta,
    requires_namespace: bool,
    name_fn: NameFn<'_>,
    path: &Path,
) -> ErrorList {
    let mut errors = ErrorList::new();
    if !meta.generate_name.is_empty() {
        errors.extend(
            name_fn(&meta.generate_name, true)
                .into_iter()
                .map(|m| FieldError::invalid(&path.child("generateName"), meta.generate_name.as_str(), m)),
        );
    }
    // A name is required unless a generated one is pending.
    if meta.name.is_empty() {
        errors.push(FieldError::required(&path.child("name"), "name or generateName is required"));
    } else {
        errors.extend(
            name_fn(&meta.name, false)
                .into_iter()
                .map(|m| FieldError::invalid(&path.child("name"), meta.name.as_str(), m)),
        );
    }
    errors.extend(validate_namespace(meta, requires_namespace, path));
    if meta.generation < 0 {
        errors.push(FieldError::invalid(
            &path.child("generation"),
            meta.generation,
            "must be greater than or equal to 0",
        ));
    }
    errors.extend(validate_labels(meta, path));
    errors.extend(validate_annotations(meta, path));
    errors.extend(validate_owner_references(&meta.owner_references, path));
    errors.extend(validate_finalizers(&meta.finalizers, path));
    for (i, entry) in meta.managed_fields.iter().enumerate() {
        errors.extend(validate_managed_fields_entry(entry, &path.child("managedFields").index(i)));
    }
    errors
}

/// `ValidateObjectMetaAccessorUpdate`: the checks of an ObjectMeta at
/// `path` updated from the stored `old`. Name, namespace, uid and the
/// timestamps are immutable; labels, annotations, owner references and
/// managed fields are checked as on create; the name itself is not.
pub fn validate_object_meta_update(new: &ObjectMeta, old: &ObjectMeta, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    // No finalizer may be added to an object being deleted.
    if old.deletion_timestamp.is_some() {
        let mut added: Vec<&String> = new.finalizers.iter().filter(|f| !old.finalizers.contains(f)).collect();
        added.sort();
        added.dedup();
        if !added.is_empty() {
            let list: Vec<String> = added.iter().map(|f| gofmt::quote(f)).collect();
            let detail = format!(
                "no new finalizers can be added if the object is being deleted, found new finalizers []string{{{}}}",
                list.join(", ")
            );
            errors.push(FieldError::forbidden(&path.child("finalizers"), detail));
        }
    }
    if new.resource_version.is_empty() {
        errors.push(FieldError::invalid(&path.child("resourceVersion"), "", "must be specified for an update"));
    }
    if new.generation < old.generation {
        errors.push(FieldError::invalid(&path.child("generation"), new.generation, "must not be decremented"));
    }
    let immutable = |key: &str, changed: bool, value: BadValue| {
        changed.then(|| FieldError::new(&path.child(key), ErrorType::Invalid, value, "field is immutable"))
    };
    let text = |s: &str| BadValue::Json(Value::String(s.to_owned()));
    // Times show as Go's `String()`, unquoted; an absent one as `null`.
    let time = |t: Option<&super::Time>| BadValue::Rendered(t.map_or_else(|| "null".to_owned(), go_time_string));
    errors.extend(immutable("name", new.name != old.name, text(&new.name)));
    errors.extend(immutable("namespace", new.namespace != old.namespace, text(&new.namespace)));
    errors.extend(immutable("uid", new.uid != old.uid, text(&new.uid)));
    let created = new.creation_timestamp != old.creation_timestamp;
    errors.extend(immutable("creationTimestamp", created, time(Some(&new.creation_timestamp))));
    let deleted = new.deletion_timestamp != old.deletion_timestamp;
    errors.extend(immutable("deletionTimestamp", deleted, time(new.deletion_timestamp.as_ref())));
    let grace = new.deletion_grace_period_seconds;
    let grace_changed = grace != old.deletion_grace_period_seconds;
    errors.extend(immutable(
        "deletionGracePeriodSeconds",
        grace_changed,
        BadValue::Json(grace.map_or(Value::Null, Value::from)),
    ));
    errors.extend(validate_labels(new, path));
    errors.extend(validate_annotations(new, path));
    errors.extend(validate_owner_references(&new.owner_references, path));
    for (i, entry) in new.managed_fields.iter().enumerate() {
        errors.extend(validate_managed_fields_entry(entry, &path.child("managedFields").index(i)));
    }
    errors
}

// Go's `time.Time.String()` of a UTC time, as an immutable timestamp's
// error shows it (`2006-01-02 15:04:05 +0000 UTC`).
fn go_time_string(t: &super::Time) -> String {
    let rfc = t.to_rfc3339();
    let text = rfc.strip_suffix('Z').unwrap_or(&rfc).replacen('T', " ", 1);
    format!("{text} +0000 UTC")
}

// The checks below take the path of the metadata and name their field
// only in an error: a valid object builds no paths.

// A namespaced object needs a namespace that is a DNS-1123 label; a
// cluster-scoped one may not have one.
fn validate_namespace(meta: &ObjectMeta, requires_namespace: bool, metadata: &Path) -> ErrorList {
    let path = || metadata.child("namespace");
    match (requires_namespace, meta.namespace.is_empty()) {
        (true, true) => vec![FieldError::required(&path(), "")],
        (true, false) => validate_namespace_name(&meta.namespace)
            .into_iter()
            .map(|m| FieldError::invalid(&path(), meta.namespace.as_str(), m))
            .collect(),
        (false, true) => Vec::new(),
        (false, false) => vec![FieldError::forbidden(&path(), "not allowed on this type")],
    }
}

// Label keys are qualified names and values label values; every error is
// reported at `labels` with the key or value as the bad value.
fn validate_labels(meta: &ObjectMeta, metadata: &Path) -> ErrorList {
    let path = || metadata.child("labels");
    let mut errors = ErrorList::new();
    for (key, value) in &meta.labels {
        errors.extend(is_qualified_name(key).into_iter().map(|m| FieldError::invalid(&path(), key.as_str(), m)));
        errors.extend(is_valid_label_value(value).into_iter().map(|m| FieldError::invalid(&path(), value.as_str(), m)));
    }
    errors
}

// Annotation keys are qualified names once lower-cased; keys and values
// together may not exceed 256 KiB.
fn validate_annotations(meta: &ObjectMeta, metadata: &Path) -> ErrorList {
    let path = || metadata.child("annotations");
    let mut errors = ErrorList::new();
    let mut total = 0usize;
    for (key, value) in &meta.annotations {
        errors.extend(
            is_qualified_name(&go_to_lower(key)).into_iter().map(|m| FieldError::invalid(&path(), key.as_str(), m)),
        );
        total = total.saturating_add(key.len()).saturating_add(value.len());
    }
    if total > TOTAL_ANNOTATION_SIZE_LIMIT {
        errors.push(too_long(&path(), TOTAL_ANNOTATION_SIZE_LIMIT));
    }
    errors
}

/// `field.TooLong`: `<path>: Too long: may not be more than <n> bytes`.
fn too_long(path: &Path, max: usize) -> FieldError {
    let unit = if max == 1 { "byte" } else { "bytes" };
    FieldError::new(path, ErrorType::TooLong, BadValue::None, format!("may not be more than {max} {unit}"))
}

// Each reference needs a version, kind, name and uid (errors at
// `ownerReferences.<field>`, without index); an Event may not own; at most
// one reference may be the controller.
fn validate_owner_references(references: &[OwnerReference], metadata: &Path) -> ErrorList {
    if references.is_empty() {
        return ErrorList::new();
    }
    let path = &metadata.child("ownerReferences");
    let mut errors = ErrorList::new();
    let mut first_controller: Option<String> = None;
    for r in references {
        errors.extend(validate_owner_reference(r, path));
        if r.controller == Some(true) {
            let current = format!("{}/{}", r.kind, r.name);
            match &first_controller {
                Some(first) => {
                    let list: Vec<String> = references.iter().map(OwnerReference::to_go_json).collect();
                    errors.push(FieldError::invalid_rendered(
                        path,
                        format!("[{}]", list.join(",")),
                        format!(
                            "Only one reference can have Controller set to true. Found \"true\" in references \
                             for {first} and {current}"
                        ),
                    ));
                }
                None => first_controller = Some(current),
            }
        }
    }
    errors
}

fn validate_owner_reference(r: &OwnerReference, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    // An apiVersion that does not parse leaves group and version empty.
    let (group, version) = parse_group_version(&r.api_version).unwrap_or_default();
    if version.is_empty() {
        errors.push(FieldError::invalid(
            &path.child("apiVersion"),
            r.api_version.as_str(),
            "version must not be empty",
        ));
    }
    if r.kind.is_empty() {
        errors.push(FieldError::invalid(&path.child("kind"), r.kind.as_str(), "kind must not be empty"));
    }
    if r.name.is_empty() {
        errors.push(FieldError::invalid(&path.child("name"), r.name.as_str(), "name must not be empty"));
    }
    if r.uid.is_empty() {
        errors.push(FieldError::invalid(&path.child("uid"), r.uid.as_str(), "uid must not be empty"));
    }
    if group.is_empty() && version == "v1" && r.kind == "Event" {
        errors.push(FieldError::invalid_rendered(
            path,
            r.to_go_json(),
            "/v1, Kind=Event is disallowed from being an owner",
        ));
    }
    errors
}

// Finalizers are qualified names, and `orphan` excludes
// `foregroundDeletion`.
fn validate_finalizers(finalizers: &[String], metadata: &Path) -> ErrorList {
    let path = || metadata.child("finalizers");
    let mut errors = ErrorList::new();
    for f in finalizers {
        errors.extend(is_qualified_name(f).into_iter().map(|m| FieldError::invalid(&path(), f.as_str(), m)));
    }
    let has = |name: &str| finalizers.iter().any(|f| f == name);
    if has("orphan") && has("foregroundDeletion") {
        let list = Value::Array(finalizers.iter().map(|f| Value::String(f.clone())).collect());
        errors.push(FieldError::invalid(&path(), list, "finalizer orphan and foregroundDeletion cannot be both set"));
    }
    errors
}

// The operation must be `Apply` or `Update` (shown as JSON, being a named
// string type), the fields type empty or `FieldsV1`, the manager at most
// 128 printable characters, the subresource at most 256 bytes.
fn validate_managed_fields_entry(entry: &ManagedFieldsEntry, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    if !matches!(entry.operation.as_str(), "Apply" | "Update") {
        let rendered = gofmt::json(&Value::String(entry.operation.clone()));
        errors.push(FieldError::invalid_rendered(&path.child("operation"), rendered, "must be `Apply` or `Update`"));
    }
    if !entry.fields_type.is_empty() && entry.fields_type != "FieldsV1" {
        errors.push(FieldError::invalid(&path.child("fieldsType"), entry.fields_type.as_str(), "must be `FieldsV1`"));
    }
    errors.extend(validate_field_manager(&entry.manager, &path.child("manager")));
    if entry.subresource.len() > MAX_SUBRESOURCE_NAME_LENGTH {
        errors.push(too_long(&path.child("subresource"), MAX_SUBRESOURCE_NAME_LENGTH));
    }
    errors
}

// `ValidateFieldManager`: at most 128 bytes, and one error per character
// Go does not consider printable, at its byte position.
fn validate_field_manager(manager: &str, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    if manager.len() > FIELD_MANAGER_MAX_LENGTH {
        errors.push(too_long(path, FIELD_MANAGER_MAX_LENGTH));
    }
    for (i, c) in manager.char_indices() {
        if !gofmt::is_go_printable(c) {
            let detail = format!("invalid character U+{:04X} (at position {i})", u32::from(c));
            errors.push(FieldError::invalid(path, manager, detail));
        }
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn texts(value: Value) -> Vec<String> {
        validate(&Path::root(), &value, None, true).iter().map(ToString::to_string).collect()
    }

    #[test]
    fn api_version_and_kind() {
        assert_eq!(texts(json!({})), ["apiVersion: Required value", "kind: Required value"]);
        assert_eq!(
            texts(json!({"apiVersion": "a/b/c", "kind": 1})),
            [
                "apiVersion: Invalid value: \"a/b/c\": unexpected GroupVersion string: a/b/c",
                "kind: Invalid value: 1: must be a string"
            ]
        );
        assert!(texts(json!({"apiVersion": "group/", "kind": "MixedCase"})).is_empty());
    }

    #[test]
    fn metadata_checks() {
        let got = texts(json!({"apiVersion": "v1", "kind": "K", "metadata": {"name": "..", "namespace": "$$$",
            "generateName": "a%", "generation": -1, "labels": {"#": "#"}, "annotations": {"A_/B": "x"},
            "finalizers": ["orphan", "foregroundDeletion"]}}));
        assert_eq!(got.len(), 8, "{got:#?}");
        assert_eq!(got[0], "metadata.generateName: Invalid value: \"a%\": may not contain '%'");
        assert_eq!(got[1], "metadata.name: Invalid value: \"..\": may not be '..'");
        assert!(got[2].starts_with("metadata.namespace: Invalid value: \"$$$\": a lowercase RFC 1123 label"));
        assert_eq!(got[3], "metadata.generation: Invalid value: -1: must be greater than or equal to 0");
        assert!(got[6].starts_with("metadata.annotations: Invalid value: \"A_/B\": prefix part a lowercase RFC 1123"));
        assert_eq!(
            got[7],
            "metadata.finalizers: Invalid value: [\"orphan\",\"foregroundDeletion\"]: finalizer orphan and \
             foregroundDeletion cannot be both set"
        );
        assert_eq!(
            texts(json!({"apiVersion": "v1", "kind": "K", "metadata": 5})),
            ["metadata: Invalid value: 5: json: cannot unmarshal number into Go value of type v1.ObjectMeta"]
        );
    }

    #[test]
    fn owner_references_and_managed_fields() {
        let meta = ObjectMeta {
            name: "n".into(),
            owner_references: vec![
                OwnerReference {
                    api_version: "v1".into(),
                    kind: "Event".into(),
                    name: "e".into(),
                    uid: "u".into(),
                    controller: Some(true),
                    ..OwnerReference::default()
                },
                OwnerReference {
                    api_version: "a/b/c".into(),
                    kind: "K".into(),
                    name: "k".into(),
                    uid: "u".into(),
                    controller: Some(true),
                    ..OwnerReference::default()
                },
            ],
            managed_fields: vec![ManagedFieldsEntry {
                operation: "X".into(),
                manager: "m\u{7}".into(),
                ..ManagedFieldsEntry::default()
            }],
            annotations: [("a".to_owned(), "x".repeat(TOTAL_ANNOTATION_SIZE_LIMIT))].into(),
            ..ObjectMeta::default()
        };
        let got: Vec<String> = validate_object_meta(&meta, false, &validate_path_segment_name, &Path::new("metadata"))
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            got,
            [
                "metadata.annotations: Too long: may not be more than 262144 bytes",
                "metadata.ownerReferences: Invalid value: {\"apiVersion\":\"v1\",\"kind\":\"Event\",\"name\":\"e\",\
                 \"uid\":\"u\",\"controller\":true}: /v1, Kind=Event is disallowed from being an owner",
                "metadata.ownerReferences.apiVersion: Invalid value: \"a/b/c\": version must not be empty",
                "metadata.ownerReferences: Invalid value: [{\"apiVersion\":\"v1\",\"kind\":\"Event\",\"name\":\"e\",\
                 \"uid\":\"u\",\"controller\":true},{\"apiVersion\":\"a/b/c\",\"kind\":\"K\",\"name\":\"k\",\
                 \"uid\":\"u\",\"controller\":true}]: Only one reference can have Controller set to true. Found \
                 \"true\" in references for Event/e and K/k",
                "metadata.managedFields[0].operation: Invalid value: \"X\": must be `Apply` or `Update`",
                "metadata.managedFields[0].manager: Invalid value: \"m\\a\": invalid character U+0007 (at position 1)",
            ]
        );
    }

    #[test]
    fn name_and_namespace_requirements() {
        let meta = ObjectMeta { namespace: "ns".into(), ..ObjectMeta::default() };
        let got: Vec<String> = validate_object_meta(&meta, false, &validate_path_segment_name, &Path::root())
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            got,
            [
                "name: Required value: name or generateName is required",
                "namespace: Forbidden: not allowed on this type"
            ]
        );
    }
}
