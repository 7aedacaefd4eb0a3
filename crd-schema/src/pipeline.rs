//! The API server's decode pipeline for one custom resource: what happens
//! to an object between the request body (or storage) and the stored form.
//!
//! Entry point: [`decode`]. It runs the steps in the server's order:
//!
//! 1. root `apiVersion`/`kind` must be strings, root `metadata` is decoded
//!    as ObjectMeta (unknown fields dropped and reported);
//! 2. unless the CRD preserves unknown fields: pruning with the version's
//!    schema as a resource root, then null pruning;
//! 3. ObjectMeta coercion of embedded resources;
//! 4. root `apiVersion`, `kind` and `metadata` written back in canonical
//!    form;
//! 5. defaulting.
//!
//! Error policy: an object the server would refuse to decode (not an
//! object, non-string `apiVersion`/`kind`, malformed metadata) is an `Err`
//! holding the Kubernetes error (boxed: it is the rare path); unknown fields are not errors but
//! warnings, as the server returns them for `fieldValidation=Warn`.
//!
//! ```
//! use crd_schema::pipeline::{self, Options};
//! use crd_schema::structural::Structural;
//! use serde_json::json;
//!
//! let schema = Structural::from_json(&json!({
//!     "type": "object",
//!     "properties": {"spec": {"type": "object", "properties": {
//!         "replicas": {"type": "integer", "default": 1}}}}
//! })).unwrap();
//! let object = json!({"apiVersion": "example.com/v1", "kind": "Foo",
//!     "metadata": {"name": "a", "junk": 1}, "spec": {"extra": true}});
//! let decoded = pipeline::decode(object, Some(&schema), &Options::default()).unwrap();
//! assert_eq!(decoded.object, json!({"apiVersion": "example.com/v1", "kind": "Foo",
//!     "metadata": {"name": "a"}, "spec": {"replicas": 1}}));
//! assert_eq!(decoded.unknown_fields, ["metadata.junk", "spec.extra"]);
//! ```

use serde_json::{Map, Value};

use crate::field::{FieldError, Path};
use crate::json_map;
use crate::objectmeta::{self, CoerceOptions, ObjectMeta, ObjectMetaOptions};
use crate::structural::Structural;
use crate::{defaulting, pruning};

/// How to run the pipeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// The CRD's `spec.preserveUnknownFields`: no pruning at all.
    pub preserve_unknown_fields: bool,
    /// Apply the schema's defaults (step 5).
    pub apply_defaults: bool,
    /// The object is a whole resource (steps 1 and 4 apply, pruning keeps
    /// root `apiVersion`/`kind`/`metadata`); `false` for a value checked
    /// against a bare schema.
    pub resource_root: bool,
}

impl Default for Options {
    fn default() -> Self {
        Self { preserve_unknown_fields: false, apply_defaults: true, resource_root: true }
    }
}

/// Whether `schema` has an `x-kubernetes-embedded-resource` node, whose
/// type meta and metadata can fail [`decode`] after pruning.
pub(crate) fn has_embedded_resource(schema: &Structural) -> bool {
    schema.extensions.x_embedded_resource
        || schema.properties.iter().any(|(_, s)| has_embedded_resource(s))
        || schema.items.as_deref().is_some_and(has_embedded_resource)
        || schema.additional_properties_schema().is_some_and(has_embedded_resource)
}

/// The result of [`decode`].
#[derive(Clone, Debug, PartialEq)]
pub struct Decoded {
    /// The object as the API server would store it.
    pub object: Value,
    /// Paths of the fields dropped as unknown (kubectl prints each as
    /// `Warning: unknown field "<path>"`): root metadata first, then pruned
    /// fields, then fields of embedded metadata.
    pub unknown_fields: Vec<String>,
}

/// Runs the decode pipeline on `object` with the version's `schema`.
pub fn decode(object: Value, schema: Option<&Structural>, options: &Options) -> Result<Decoded, Box<FieldError>> {
    decode_or_return(object, schema, options).map(|(decoded, _)| decoded).map_err(|(error, _)| error)
}

/// A failed [`decode_or_return`]: the error, and the object when it was
/// not changed yet.
pub(crate) type Failure = (Box<FieldError>, Option<Value>);

/// As [`decode`], but a failure found before the object was changed gives
/// the object back. Only the embedded resources of `schema` can fail
/// later, so without them the caller never needs a copy of its own.
///
/// A resource's root metadata comes back too, as decoded and written back
/// (empty when absent), when it is still the stored object's: not when
/// defaults under `metadata` were applied after it ([`defaults_metadata`]).
pub(crate) fn decode_or_return(
    mut object: Value,
    schema: Option<&Structural>,
    options: &Options,
) -> Result<(Decoded, Option<ObjectMeta>), Failure> {
    let mut root_meta = match options.resource_root.then(|| read_root(&object)).transpose() {
        Ok(meta) => meta,
        Err(error) => return Err((error, Some(object))),
    };
    let mut unknown_fields =
        root_meta.iter_mut().flatten().flat_map(|m| std::mem::take(&mut m.unknown_field_paths)).collect::<Vec<_>>();

    if !options.preserve_unknown_fields {
        unknown_fields.extend(pruning::prune_with_nulls(&mut object, schema, options.resource_root));
    }
    let coerce = CoerceOptions { drop_invalid_fields: false, return_unknown_field_paths: true };
    unknown_fields
        .extend(objectmeta::coerce(&Path::root(), &mut object, schema, false, coerce).map_err(|e| (e, None))?);

    if let (Some(root_meta), Value::Object(map)) = (&root_meta, &mut object) {
        objectmeta::set_object_meta(map, root_meta.as_ref().map(|m| &m.meta));
    }
    let mut stored_meta = root_meta.map(|meta| meta.map(|m| m.meta).unwrap_or_default());
    if options.apply_defaults {
        if defaults_metadata(schema) {
            stored_meta = None;
        }
        defaulting::default(&mut object, schema);
    }
    Ok((Decoded { object, unknown_fields }, stored_meta))
}

/// Whether defaulting can change a resource's root `metadata`: the schema
/// that applies to it (its property, else `additionalProperties`) holds a
/// default.
pub(crate) fn defaults_metadata(schema: Option<&Structural>) -> bool {
    schema
        .and_then(|s| s.property("metadata").or_else(|| s.additional_properties_schema()))
        .is_some_and(|m| m.holds().default)
}

// Step 1: the root must be an object with string type meta, and its
// metadata must decode as ObjectMeta.
fn read_root(object: &Value) -> Result<Option<objectmeta::DecodedObjectMeta>, Box<FieldError>> {
    let Value::Object(map) = object else {
        return Err(Box::new(FieldError::invalid(&Path::root(), kind_of(object), "the object must be a JSON object")));
    };
    check_type_meta(map)?;
    let options =
        ObjectMetaOptions { drop_malformed_fields: false, return_unknown_field_paths: true, parent_path: Path::root() };
    objectmeta::get_object_meta(map, &options).map_err(|e| {
        let metadata = map.get("metadata").cloned().unwrap_or(Value::Null);
        Box::new(FieldError::invalid(&Path::new("metadata"), metadata, e.0))
    })
}

// The root `apiVersion` and `kind` are read as strings before anything
// else; the server cannot decode an object whose type meta is missing or
// not a string.
fn check_type_meta(map: &Map<String, Value>) -> Result<(), Box<FieldError>> {
    type_meta_errors(map).into_iter().next().map_or(Ok(()), |(_, error)| Err(Box::new(error)))
}

/// What is wrong with an object's `apiVersion` and `kind`, which must be
/// non-empty strings, each error with the key it is about. [`decode`]
/// fails with the first.
pub fn type_meta_errors(map: &Map<String, Value>) -> Vec<(&'static str, FieldError)> {
    let mut errors = Vec::new();
    for key in ["apiVersion", "kind"] {
        let error = match json_map::get(map, key) {
            Some(Value::String(s)) if !s.is_empty() => continue,
            Some(Value::String(_) | Value::Null) | None => FieldError::required(&Path::new(key), ""),
            Some(other) => FieldError::invalid(&Path::new(key), other.clone(), "must be a string"),
        };
        errors.push((key, error));
    }
    errors
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use serde_json::json;

    fn schema(v: Value) -> Structural {
        Structural::from_json(&v).unwrap()
    }

    #[test]
    fn defaults_are_applied_after_pruning_and_not_pruned() {
        let s = schema(json!({"type": "object", "properties": {"spec": {"type": "object",
            "properties": {"a": {"type": "object", "default": {"x": 1}}}}}}));
        let obj = json!({"apiVersion": "g/v1", "kind": "K", "spec": {"b": null}});
        let out = decode(obj, Some(&s), &Options::default()).unwrap();
        assert_eq!(out.object["spec"], json!({"a": {"x": 1}}));
        assert_eq!(out.unknown_fields, ["spec.b"]);
    }

    #[test]
    fn preserve_unknown_fields_skips_pruning_and_null_pruning() {
        let s = schema(json!({"type": "object", "properties": {"spec": {"type": "object"}}}));
        let obj = json!({"apiVersion": "g/v1", "kind": "K", "x": null});
        let options = Options { preserve_unknown_fields: true, ..Options::default() };
        let out = decode(obj.clone(), Some(&s), &options).unwrap();
        assert_eq!(out.object, obj);
    }

    #[test]
    fn malformed_type_meta_and_metadata_are_errors() {
        let err = decode(json!({"apiVersion": "g/v1", "kind": 42}), None, &Options::default()).unwrap_err();
        assert_eq!(err.to_string(), "kind: Invalid value: 42: must be a string");
        let err = decode(json!({"kind": "K"}), None, &Options::default()).unwrap_err();
        assert_eq!(err.to_string(), "apiVersion: Required value");
        let obj = json!({"apiVersion": "g/v1", "kind": "K", "metadata": {"labels": {"a": 1}}});
        let err = decode(obj, None, &Options::default()).unwrap_err();
        assert!(
            err.to_string().starts_with("metadata: Invalid value: {\"labels\":{\"a\":1}}: json: cannot unmarshal"),
            "{err}"
        );
        assert!(decode(json!([1]), None, &Options::default()).is_err());
    }

    #[test]
    fn a_bare_value_is_pruned_without_resource_rules() {
        let s = schema(json!({"type": "object", "properties": {"a": {"type": "string", "default": "x"}}}));
        let options = Options { resource_root: false, ..Options::default() };
        let out = decode(json!({"kind": 1, "b": 2}), Some(&s), &options).unwrap();
        assert_eq!(out.object, json!({"a": "x"}));
        // Top-level type meta of a non-root value is dropped silently, as upstream does.
        assert_eq!(out.unknown_fields, ["b"]);
    }

    #[test]
    fn root_metadata_is_canonical() {
        let obj = json!({"apiVersion": "g/v1", "kind": "K",
            "metadata": {"name": "a", "creationTimestamp": null, "labels": {}}});
        let out = decode(obj, None, &Options::default()).unwrap();
        assert_eq!(out.object["metadata"], json!({"name": "a"}));
    }
}
