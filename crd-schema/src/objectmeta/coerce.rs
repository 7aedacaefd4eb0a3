//! Coercion of `apiVersion`, `kind` and `metadata` of embedded resources, as
//! `objectmeta.CoerceWithOptions`.
//!
//! Entry point: [`coerce`]. It changes nothing but those three keys of
//! objects whose schema is an embedded resource (or the root, with
//! `is_resource_root`), and returns the first problem as a [`FieldError`]
//! (boxed, as Go returns a `*field.Error`) or, on success, the sorted
//! unknown metadata field paths.

use serde_json::{Map, Value};

use super::decode::{ObjectMetaOptions, get_object_meta};
use crate::field::{FieldError, Path};
use crate::json_map;
use crate::structural::{Structural, StructuralOrBool};

/// Options of [`coerce`], as Go's `CoerceOptions`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CoerceOptions {
    /// Drop `apiVersion`/`kind` that are not strings and metadata fields
    /// that do not decode, instead of failing.
    pub drop_invalid_fields: bool,
    /// Report the metadata fields ObjectMeta does not know.
    pub return_unknown_field_paths: bool,
}

/// Coerces `value` against `schema` under `path` (the root when empty).
///
/// At every embedded resource: `apiVersion` and `kind` must be strings
/// (`<path>.kind: Invalid value: 42: must be a string`); `metadata` is
/// decoded as ObjectMeta and written back in canonical form, a zero
/// `creationTimestamp` removed. The walk follows `properties`,
/// `additionalProperties` schemas and `items`; it stops at the first error,
/// as upstream does.
pub fn coerce(
    path: &Path,
    value: &mut Value,
    schema: Option<&Structural>,
    is_resource_root: bool,
    options: CoerceOptions,
) -> Result<Vec<String>, Box<FieldError>> {
    // At the resource root the schema acts as an embedded resource.
    let schema = Structural::at_resource_root(schema, is_resource_root);
    let mut coercer = Coercer { options, unknown: Vec::new() };
    coercer.walk(path, value, schema, is_resource_root)?;
    coercer.unknown.sort();
    Ok(coercer.unknown)
}

struct Coercer {
    options: CoerceOptions,
    unknown: Vec<String>,
}

/// The path and schema of the value under `key` of an object with schema
/// `s`, if the schema covers the key: a property, else any key when
/// `additionalProperties` is set (with no schema when it is a boolean).
fn child<'s>(path: &Path, s: &'s Structural, key: &str) -> Option<(Path, Option<&'s Structural>)> {
    if let Some(property) = s.property(key) {
        return Some((path.child(key), Some(property)));
    }
    let additional = s.additional_properties.as_ref()?;
    let schema = match additional {
        StructuralOrBool::Structural(schema) => Some(&**schema),
        StructuralOrBool::Bool(_) => None,
    };
    Some((path.key(key), schema))
}

impl Coercer {
    // No schema ends the walk; scalars are left alone.
    fn walk(
        &mut self,
        path: &Path,
        value: &mut Value,
        schema: Option<&Structural>,
        root: bool,
    ) -> Result<(), Box<FieldError>> {
        // Only embedded resources (and the root) are coerced: a subtree
        // without one is passed over.
        let Some(s) = schema.filter(|s| root || s.holds().embedded_resource) else {
            return Ok(());
        };
        match value {
            Value::Object(map) => self.object(path, map, s, root || s.extensions.x_embedded_resource),
            Value::Array(items) => {
                for (i, item) in items.iter_mut().enumerate() {
                    self.walk(&path.index(i), item, s.items.as_deref(), false)?;
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    // Each key is first coerced (embedded resources only), then walked with
    // its schema. A key that was removed or replaced is walked in its old
    // value, which no longer belongs to the object.
    fn object(
        &mut self,
        path: &Path,
        map: &mut Map<String, Value>,
        s: &Structural,
        embedded: bool,
    ) -> Result<(), Box<FieldError>> {
        if !embedded {
            // Nothing is removed or replaced here: walk the values in place.
            // Scalars have nothing to coerce below them.
            for (key, value) in map.iter_mut().filter(|(_, v)| json_map::is_container(v)) {
                if let Some((child_path, child_schema)) = child(path, s, key) {
                    self.walk(&child_path, value, child_schema, false)?;
                }
            }
            return Ok(());
        }
        let keys: Vec<String> = map.keys().cloned().collect();
        for key in keys {
            let detached = self.embedded_field(path, map, &key)?;
            let Some((child_path, child_schema)) = child(path, s, &key) else {
                continue;
            };
            match detached {
                Some(mut old) => self.walk(&child_path, &mut old, child_schema, false)?,
                None => {
                    if let Some(v) = map.get_mut(&key) {
                        self.walk(&child_path, v, child_schema, false)?;
                    }
                }
            }
        }
        Ok(())
    }

    // `apiVersion` and `kind` must be strings: a non-string is removed when
    // invalid fields are dropped, else it fails the coercion. `metadata` is
    // replaced by its canonical form. Returns the old value when the key
    // was removed or replaced.
    fn embedded_field(
        &mut self,
        path: &Path,
        map: &mut Map<String, Value>,
        key: &str,
    ) -> Result<Option<Value>, Box<FieldError>> {
        match key {
            "apiVersion" | "kind" => match map.get(key) {
                Some(Value::String(_)) | None => Ok(None),
                Some(_) if self.options.drop_invalid_fields => Ok(map.shift_remove(key)),
                Some(v) => Err(Box::new(FieldError::invalid(&path.child(key), v.clone(), "must be a string"))),
            },
            "metadata" => self.metadata(path, map),
            _ => Ok(None),
        }
    }

    // A metadata that does not decode fails the coercion, or is left as it
    // is when invalid fields are dropped (only a non-object metadata gets
    // that far).
    fn metadata(&mut self, path: &Path, map: &mut Map<String, Value>) -> Result<Option<Value>, Box<FieldError>> {
        let options = ObjectMetaOptions {
            drop_malformed_fields: self.options.drop_invalid_fields,
            return_unknown_field_paths: self.options.return_unknown_field_paths,
            parent_path: path.clone(),
        };
        match get_object_meta(map, &options) {
            Ok(Some(decoded)) => {
                self.unknown.extend(decoded.unknown_field_paths);
                Ok(map.insert("metadata".to_owned(), decoded.meta.to_value()))
            }
            Ok(None) => Ok(None),
            Err(_) if self.options.drop_invalid_fields => Ok(None),
            Err(e) => {
                let bad = map.get("metadata").cloned().unwrap_or(Value::Null);
                Err(Box::new(FieldError::invalid(&path.child("metadata"), bad, e.0)))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use serde_json::json;

    fn schema(v: Value) -> Structural {
        Structural::from_json(&v).unwrap()
    }

    const KEEP: CoerceOptions = CoerceOptions { drop_invalid_fields: false, return_unknown_field_paths: true };
    const DROP: CoerceOptions = CoerceOptions { drop_invalid_fields: true, return_unknown_field_paths: true };

    #[test]
    fn embedded_metadata_is_canonical_and_unknowns_are_reported() {
        let s = schema(json!({"type": "object", "properties": {"m": {"type": "object",
            "additionalProperties": {"type": "object", "x-kubernetes-embedded-resource": true}}}}));
        let mut v = json!({"m": {"k": {"apiVersion": "v1", "kind": "K", "metadata": {"name": "a", "x": 1,
            "creationTimestamp": null}}}, "metadata": {"y": 1}});
        let unknown = coerce(&Path::root(), &mut v, Some(&s), false, KEEP).unwrap();
        assert_eq!(unknown, ["m[k].metadata.x"]);
        assert_eq!(
            v,
            json!({"m": {"k": {"apiVersion": "v1", "kind": "K", "metadata": {"name": "a"}}},
            "metadata": {"y": 1}})
        );
    }

    #[test]
    fn non_strings_fail_or_are_dropped() {
        let mut v = json!({"apiVersion": 1, "kind": "K", "metadata": "m"});
        let err = coerce(&Path::root(), &mut v.clone(), None, true, KEEP).unwrap_err();
        assert_eq!(err.to_string(), "apiVersion: Invalid value: 1: must be a string");
        assert!(coerce(&Path::root(), &mut v, None, true, DROP).unwrap().is_empty());
        assert_eq!(v, json!({"kind": "K", "metadata": "m"}));
        let err = coerce(&Path::new("e"), &mut v, None, true, KEEP).unwrap_err();
        assert_eq!(
            err.to_string(),
            "e.metadata: Invalid value: \"m\": json: cannot unmarshal string into Go value of type v1.ObjectMeta"
        );
    }

    #[test]
    fn null_metadata_becomes_empty() {
        let mut v = json!({"metadata": null});
        coerce(&Path::root(), &mut v, None, true, KEEP).unwrap();
        assert_eq!(v, json!({"metadata": {}}));
    }
}
