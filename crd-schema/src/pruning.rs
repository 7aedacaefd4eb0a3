//! Pruning: removal of the fields a structural schema does not specify, as
//! `k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning`.
//!
//! Entry points:
//! - [`prune`]: prunes a value in place and returns the sorted paths of the
//!   removed fields (`spec.a`, `items[0].x`, `spec.map.someKey.x`);
//! - [`prune_untracked`]: the same walk without path tracking;
//! - [`prune_with_nulls`]: [`prune`] followed by null pruning
//!   ([`defaulting::prune_nulls`]), as the decode pipeline runs them, in
//!   one walk.
//!
//! Pruning never fails and never touches scalars or `null`: it only deletes
//! object keys. There are two walks, a *pruning* walk and a *preserving*
//! walk (under `x-kubernetes-preserve-unknown-fields: true`); both take the
//! value and the schema node that applies to it, possibly none.
//!
//! ```
//! use crd_schema::{pruning, structural::Structural};
//! use serde_json::json;
//!
//! let schema = Structural::from_json(&json!({"type": "object", "properties": {
//!     "spec": {"type": "object", "properties": {"size": {"type": "integer"}}}}})).unwrap();
//! let mut object = json!({"apiVersion": "g/v1", "kind": "K", "spec": {"size": 1, "colour": "red"}});
//! let removed = pruning::prune(&mut object, Some(&schema), true);
//! assert_eq!(removed, ["spec.colour"]);
//! assert_eq!(object, json!({"apiVersion": "g/v1", "kind": "K", "spec": {"size": 1}}));
//! ```

use serde_json::{Map, Value};

use crate::structural::Structural;
use crate::{defaulting, json_map};

/// Prunes `value` against `schema` and returns the sorted paths of the
/// removed fields. `is_resource_root` makes the root schema behave as an
/// embedded resource (an absent root schema becomes `{}` first).
pub fn prune(value: &mut Value, schema: Option<&Structural>, is_resource_root: bool) -> Vec<String> {
    Walk::new(true, false).run(value, schema, is_resource_root)
}

/// Prunes `value` like [`prune`] without building any paths.
pub fn prune_untracked(value: &mut Value, schema: Option<&Structural>, is_resource_root: bool) {
    Walk::new(false, false).run(value, schema, is_resource_root);
}

/// [`prune`], then [`defaulting::prune_nulls`] with the same schema, in one
/// walk: each key the pruning keeps is also checked for a `null` to drop.
/// Returns the pruned paths, as [`prune`] does.
pub fn prune_with_nulls(value: &mut Value, schema: Option<&Structural>, is_resource_root: bool) -> Vec<String> {
    Walk::new(true, true).run(value, schema, is_resource_root)
}

/// The state of one pruning run: the current path (built only when
/// tracking), the nesting depth and the removed paths found so far, and
/// whether `null`s are pruned too.
struct Walk {
    track: bool,
    nulls: bool,
    path: String,
    depth: usize,
    pruned: Vec<String>,
}

/// How an object's keys are handled: the walk kind and whether the object's
/// schema acts as an embedded resource.
#[derive(Clone, Copy)]
struct ObjectMode {
    preserving: bool,
    embedded: bool,
}

const META_FIELDS: [&str; 3] = ["apiVersion", "kind", "metadata"];

impl Walk {
    fn new(track: bool, nulls: bool) -> Self {
        Self { track, nulls, path: String::new(), depth: 0, pruned: Vec::new() }
    }

    fn run(mut self, value: &mut Value, schema: Option<&Structural>, is_resource_root: bool) -> Vec<String> {
        self.root(value, schema, is_resource_root);
        self.pruned.sort();
        self.pruned
    }

    // At a resource root the schema behaves as if it had
    // `x-kubernetes-embedded-resource: true`; an absent schema becomes the
    // empty schema first. The flag applies to the top-level object only.
    fn root(&mut self, value: &mut Value, schema: Option<&Structural>, is_resource_root: bool) {
        let schema = Structural::at_resource_root(schema, is_resource_root);
        self.pruning(value, schema, is_resource_root);
    }

    // The pruning walk. A preserving schema switches to the preserving walk
    // for this value. An object without a schema loses every key; an array
    // has every element walked with the `items` schema (none if the array's
    // schema is absent or has no `items`). Scalars and `null` are kept.
    fn pruning(&mut self, value: &mut Value, schema: Option<&Structural>, root_embedded: bool) {
        if let Some(s) = schema
            && s.extensions.x_preserve_unknown_fields
        {
            self.preserving(value, s, root_embedded);
            return;
        }
        match value {
            Value::Object(map) => match schema {
                None => self.remove_all(map),
                Some(s) => {
                    let mode =
                        ObjectMode { preserving: false, embedded: root_embedded || s.extensions.x_embedded_resource };
                    self.object(map, s, mode);
                }
            },
            Value::Array(elements) => {
                let items = schema.and_then(|s| s.items.as_deref());
                for (i, element) in elements.iter_mut().enumerate().filter(|(_, e)| json_map::is_container(e)) {
                    let saved = self.enter_index(i);
                    self.pruning(element, items, false);
                    self.leave(saved);
                }
            }
            _ => {}
        }
    }

    // The preserving walk. Objects keep the keys not covered by the schema,
    // untouched. Array elements get a preserving walk with the `items`
    // schema, so preservation is inherited through arrays; without `items`
    // the elements are left alone.
    fn preserving(&mut self, value: &mut Value, schema: &Structural, root_embedded: bool) {
        match value {
            Value::Object(map) => {
                let mode =
                    ObjectMode { preserving: true, embedded: root_embedded || schema.extensions.x_embedded_resource };
                self.object(map, schema, mode);
            }
            Value::Array(elements) => {
                let Some(items) = schema.items.as_deref() else { return };
                for (i, element) in elements.iter_mut().enumerate().filter(|(_, e)| json_map::is_container(e)) {
                    let saved = self.enter_index(i);
                    self.preserving(element, items, false);
                    self.leave(saved);
                }
            }
            _ => {}
        }
    }

    // An object without a schema in a pruning walk: every key is deleted
    // and reported, `apiVersion`, `kind` and `metadata` included.
    fn remove_all(&mut self, map: &mut Map<String, Value>) {
        if self.track {
            for key in map.keys() {
                let path = self.child_path(key);
                self.pruned.push(path);
            }
        }
        map.clear();
    }

    // Each key of an object with a schema, in order:
    // 1. `apiVersion`, `kind`, `metadata` of an embedded resource are kept
    //    and not looked into, even when listed under `properties`;
    // 2. a key in `properties` gets a pruning walk with that schema;
    // 3. a key covered by `additionalProperties` gets a pruning walk with
    //    its schema, or with none for `true`/`false`;
    // 4. any other key is kept untouched by the preserving walk and deleted
    //    by the pruning walk (see `unknown_key`).
    // When `null`s are pruned too, a kept key under a schema of 1. to 3. is
    // then null-pruned with that schema, as `defaulting::prune_nulls` does
    // after the pruning.
    fn object(&mut self, map: &mut Map<String, Value>, schema: &Structural, mode: ObjectMode) {
        map.retain(|key, value| {
            if mode.embedded && META_FIELDS.contains(&key.as_str()) {
                return !self.nulls || defaulting::prune_nulls_at(schema, key, value);
            }
            let child = match (schema.property(key), &schema.additional_properties) {
                (Some(property), _) => Some(property),
                (None, Some(_)) => schema.additional_properties_schema(),
                (None, None) => return mode.preserving || self.unknown_key(key),
            };
            if self.nulls && value.is_null() {
                return !defaulting::drops_null(child);
            }
            if !json_map::is_container(value) {
                return true;
            }
            let saved = self.enter_key(key);
            self.pruning(value, child, false);
            self.leave(saved);
            true
        });
    }

    // A key the schema does not cover in a pruning walk is deleted. It is
    // reported, except `apiVersion`, `kind` and `metadata` of the top-level
    // object itself, which are deleted silently. Returns `false` (drop).
    fn unknown_key(&mut self, key: &str) -> bool {
        if self.track && (self.depth > 0 || !META_FIELDS.contains(&key)) {
            let path = self.child_path(key);
            self.pruned.push(path);
        }
        false
    }

    // Paths: keys joined with `.`, indices appended as `[i]`, nothing
    // escaped. `enter_*` return what `leave` needs to restore the path.
    fn child_path(&self, key: &str) -> String {
        if self.path.is_empty() { key.to_owned() } else { format!("{}.{key}", self.path) }
    }

    fn enter_key(&mut self, key: &str) -> usize {
        let saved = self.path.len();
        self.depth += 1;
        if self.track {
            if !self.path.is_empty() {
                self.path.push('.');
            }
            self.path.push_str(key);
        }
        saved
    }

    fn enter_index(&mut self, index: usize) -> usize {
        let saved = self.path.len();
        self.depth += 1;
        if self.track {
            self.path.push('[');
            self.path.push_str(itoa::Buffer::new().format(index));
            self.path.push(']');
        }
        saved
    }

    fn leave(&mut self, saved: usize) {
        self.depth -= 1;
        self.path.truncate(saved);
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
    fn unknown_fields_are_removed_and_reported() {
        let s = schema(json!({"type": "object", "properties": {"spec": {"type": "object",
            "properties": {"a": {"type": "string"}}}}}));
        let mut v = json!({"spec": {"a": "x", "b": 1}, "c": {"d": 2}});
        assert_eq!(prune(&mut v, Some(&s), false), vec!["c", "spec.b"]);
        assert_eq!(v, json!({"spec": {"a": "x"}}));
    }

    #[test]
    fn resource_root_keeps_meta_fields() {
        let mut v = json!({"apiVersion": 1, "kind": "K", "metadata": {"x": 1}, "spec": 2});
        assert_eq!(prune(&mut v, None, true), vec!["spec"]);
        assert_eq!(v, json!({"apiVersion": 1, "kind": "K", "metadata": {"x": 1}}));
    }

    #[test]
    fn top_level_meta_fields_vanish_silently() {
        let s = schema(json!({"type": "object", "properties": {"a": {"type": "object"}}}));
        let mut v = json!({"kind": "K", "a": {"kind": "K"}});
        assert_eq!(prune(&mut v, Some(&s), false), vec!["a.kind"]);
        assert_eq!(v, json!({"a": {}}));
    }

    #[test]
    fn preservation_is_inherited_by_items_only() {
        let s = schema(json!({"x-kubernetes-preserve-unknown-fields": true, "items": {"properties": {
            "a": {"type": "object"}}}}));
        let mut v = json!([{"a": {"b": 1}, "c": {"d": 1}}]);
        assert_eq!(prune(&mut v, Some(&s), false), vec!["[0].a.b"]);
        assert_eq!(v, json!([{"a": {}, "c": {"d": 1}}]));
    }

    #[test]
    fn untracked_gives_the_same_value() {
        let s = schema(json!({"additionalProperties": true}));
        let mut v = json!({"m": {"x": {"y": 1}, "z": 2}});
        prune_untracked(&mut v, Some(&s), false);
        assert_eq!(v, json!({"m": {}}));
    }
}
