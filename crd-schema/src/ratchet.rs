//! Ratcheting of updates: which errors of an updated object the API server
//! drops because the value they are about is as the stored object had it
//! (KEP-4008, `k8s.io/apiserver/pkg/cel/common`'s `CorrelatedObject` and
//! `apiextensions-apiserver`'s ratcheting validator).
//!
//! Old and new values are correlated from the root down the error's path:
//! object properties and map entries by key, items of
//! `x-kubernetes-list-type: map` lists by their `x-kubernetes-list-map-keys`
//! (so a reordered list still correlates), and items of any other list not
//! at all. An error is dropped when the deepest correlated value on its
//! path is unchanged: an error inside an item of an atomic list is dropped
//! only when the whole list is unchanged, and a required field missing from
//! an unchanged object stays ratcheted.

use std::collections::HashMap;

use serde_json::Value;

use crate::field::Path;
use crate::structural::Structural;
use crate::yaml::Step;

/// Whether the server ratchets an error at `path` of `object`, updated from
/// `old`, under `schema` (`None`: no schema, values correlate by position
/// of keys only and lists not at all).
pub fn unchanged(schema: Option<&Structural>, path: &Path, object: &Value, old: &Value) -> bool {
    let (mut new, mut old, mut schema) = (object, old, schema);
    for step in &path.steps() {
        let next = match (step, new) {
            (Step::Index(index), Value::Array(items)) => {
                let keys = schema.and_then(map_keys);
                match (items.get(*index), keys) {
                    (Some(item), Some(keys)) => MapList::new(keys, old).get(item).map(|o| (item, o)),
                    _ => None,
                }
            }
            (Step::Index(index), _) => child(new, old, &index.to_string()),
            (Step::Key(key), _) => child(new, old, key),
        };
        let Some((next_new, next_old)) = next else { break };
        schema = schema.and_then(|s| child_schema(s, step));
        (new, old) = (next_new, next_old);
    }
    new == old
}

// The values of entry `key` in both objects, when both have it.
fn child<'a>(new: &'a Value, old: &'a Value, key: &str) -> Option<(&'a Value, &'a Value)> {
    new.get(key).zip(old.get(key))
}

// The schema of a child: an item, a property, or a map value.
fn child_schema<'s>(schema: &'s Structural, step: &Step) -> Option<&'s Structural> {
    match step {
        Step::Index(_) => schema.items.as_deref(),
        Step::Key(key) => schema.property(key).or_else(|| schema.additional_properties_schema()),
    }
}

/// The key fields of a `map` list's items; `None` for other lists, whose
/// items do not correlate.
pub fn map_keys(schema: &Structural) -> Option<&[String]> {
    match schema.extensions.x_list_type.as_deref() {
        Some("map") => schema.extensions.x_list_map_keys.as_deref().filter(|keys| !keys.is_empty()),
        _ => None,
    }
}

/// The items of an old `map` list by their key values, to find the old
/// item of a new one whatever its index.
#[derive(Debug)]
pub struct MapList<'a> {
    keys: &'a [String],
    by_key: HashMap<String, &'a Value>,
}

impl<'a> MapList<'a> {
    /// Indexes `old` (when it is a list) by `keys`.
    pub fn new(keys: &'a [String], old: &'a Value) -> Self {
        let items = old.as_array().map(Vec::as_slice).unwrap_or_default();
        let by_key = items.iter().filter_map(|item| Some((key_of(keys, item)?, item))).collect();
        Self { keys, by_key }
    }

    /// The old item with the key values of `item`.
    pub fn get(&self, item: &Value) -> Option<&'a Value> {
        key_of(self.keys, item).and_then(|k| self.by_key.get(&k).copied())
    }
}

// An item's key values as one string (absent keys count as null).
fn key_of(keys: &[String], item: &Value) -> Option<String> {
    let object = item.as_object()?;
    let values: Vec<&Value> = keys.iter().map(|k| object.get(k).unwrap_or(&Value::Null)).collect();
    serde_json::to_string(&values).ok()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn schema() -> Structural {
        Structural::from_json(&json!({"type": "object", "properties": {
            "ports": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
                "items": {"type": "object", "required": ["name"], "properties": {
                    "name": {"type": "string"}, "port": {"type": "integer", "maximum": 10}}}},
            "tags": {"type": "array", "items": {"type": "string", "maxLength": 1}}}}))
        .expect("a structural schema")
    }

    fn path(steps: &[&str]) -> Path {
        steps.iter().fold(Path::root(), |p, s| match s.parse::<usize>() {
            Ok(i) => p.index(i),
            Err(_) => p.child(*s),
        })
    }

    #[test]
    fn map_list_items_correlate_by_key_whatever_their_index() {
        let schema = schema();
        let old = json!({"ports": [{"name": "a", "port": 99}, {"name": "b", "port": 1}]});
        let reordered =
            json!({"ports": [{"name": "c", "port": 1}, {"name": "b", "port": 1}, {"name": "a", "port": 99}]});
        // `a` moved from 0 to 2 and is unchanged: its error stays ratcheted.
        assert!(unchanged(Some(&schema), &path(&["ports", "2", "port"]), &reordered, &old));
        // At index 0 now stands `c`, which the old list did not have.
        assert!(!unchanged(Some(&schema), &path(&["ports", "0", "port"]), &reordered, &old));
        let changed = json!({"ports": [{"name": "b", "port": 1}, {"name": "a", "port": 98}]});
        assert!(!unchanged(Some(&schema), &path(&["ports", "1", "port"]), &changed, &old));
    }

    #[test]
    fn items_of_other_lists_ratchet_only_with_the_whole_list() {
        let schema = schema();
        let old = json!({"tags": ["xx"]});
        assert!(unchanged(Some(&schema), &path(&["tags", "0"]), &old, &old));
        let appended = json!({"tags": ["xx", "y"]});
        assert!(!unchanged(Some(&schema), &path(&["tags", "0"]), &appended, &old));
    }

    #[test]
    fn a_missing_field_of_an_unchanged_object_stays_ratcheted() {
        let schema = schema();
        let old = json!({"ports": [{"port": 1}]});
        assert!(unchanged(Some(&schema), &path(&["ports", "0", "name"]), &old, &old));
        let object = json!({"ports": [{"name": "a"}], "other": {}});
        let old = json!({"ports": [{"name": "a"}], "other": {}});
        assert!(unchanged(Some(&schema), &path(&["other", "required"]), &object, &old));
    }
}
