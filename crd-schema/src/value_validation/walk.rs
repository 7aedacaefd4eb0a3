//! One schema node against one value (kube-openapi's
//! `SchemaValidator.Validate`), with the array and object validators that
//! recurse into items and properties.

use std::collections::HashSet;
use std::fmt;

use serde_json::{Map, Value};
use smallvec::SmallVec;

use super::numbers::Num;
use super::outcome::{Code, Message, Outcome};
use super::schema::{Additional, Node};
use super::{enums, formats, junctors, numbers, strings, types};
use crate::json_map;

/// Where a value sits, as kube-openapi names it in messages
/// (`spec.ports[0].name`): a chain of steps on the stack, rendered only
/// when a message needs it, so a valid object costs no path text.
#[derive(Clone, Copy, Debug)]
pub(crate) enum At<'a> {
    /// The value validated (rendered empty).
    Root,
    /// A declared property: `<parent>.<name>`, or `<name>` under the root.
    Property(&'a At<'a>, &'a str),
    /// A key under `additionalProperties`: `<parent>.<key>`, even under the
    /// root (`.key`), as kube-openapi writes it.
    Key(&'a At<'a>, &'a str),
    /// An array item: `<parent>[<i>]`.
    Index(&'a At<'a>, usize),
}

impl fmt::Display for At<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            At::Root => Ok(()),
            At::Property(At::Root, name) => f.write_str(name),
            At::Property(parent, name) | At::Key(parent, name) => write!(f, "{parent}.{name}"),
            At::Index(parent, i) => write!(f, "{parent}[{i}]"),
        }
    }
}

/// Validates `value` at the Go path `path` (empty at the top) against
/// `node`. Every validator that applies runs, in kube-openapi's order, and
/// counts one match besides its own; the node counts one more.
pub(crate) fn validate_node(node: &Node, path: &At<'_>, value: &Value) -> Outcome {
    let mut out = Outcome::default();
    validate_into(node, path, value, &mut out);
    out
}

/// As [`validate_node`], into a [quiet](Outcome::quiet) outcome: whether
/// the value passes and its match count, without messages.
pub(crate) fn try_node(node: &Node, path: &At<'_>, value: &Value) -> Outcome {
    let mut out = Outcome::quiet();
    validate_into(node, path, value, &mut out);
    out
}

// `validate_node`, adding its messages and matches to `out`: what merging
// its own outcome would add, without building one per node.
fn validate_into(node: &Node, path: &At<'_>, value: &Value, out: &mut Outcome) {
    // `null` is only checked for its type and against `enum`, without the
    // node's own match.
    if value.is_null() {
        types::check(node, path, value, out);
        enums::check(node, path, value, out);
        return;
    }
    // Each check adds its messages and matches to `out`, as merging an
    // outcome of its own would, and the validator counts one match.
    if types::applies(node) {
        types::check(node, path, value, out);
        out.inc();
    }
    junctors::check(node, path, value, out);
    out.inc();
    if let Value::String(s) = value {
        strings::check(node, path, s, out);
        out.inc();
        if formats::check(&node.format, path, s, out) {
            out.inc();
        }
    }
    if let Value::Number(n) = value {
        numbers::check(node, path, Num::of(n), out);
        out.inc();
    }
    if let Value::Array(items) = value {
        check_array(node, path, items, out);
        out.inc();
    }
    enums::check(node, path, value, out);
    out.inc();
    if let Value::Object(map) = value {
        check_object(node, path, map, out);
        out.inc();
    }
    out.inc();
}

// Arrays: every item against `items` at `<path>[i]`, then `minItems`,
// `maxItems` and `uniqueItems`. Counts one match.
fn check_array(node: &Node, path: &At<'_>, items: &[Value], out: &mut Outcome) {
    if let Some(schema) = &node.items {
        for (i, item) in items.iter().enumerate() {
            validate_into(schema, &At::Index(path, i), item, out);
        }
    }
    let size = i64::try_from(items.len()).unwrap_or(i64::MAX);
    if let Some(min) = node.min_items
        && size < min
    {
        out.report(|| {
            let text = format!("{path} in body should have at least {min} items");
            Message::new(Code::Field, path, Some(Value::from(size)), text)
        });
    }
    if let Some(max) = node.max_items
        && size > max
    {
        out.report(|| {
            let text = format!("{path} in body should have at most {max} items");
            Message::new(Code::MaxItems, path, Some(Value::from(size)), text).with_limit(max)
        });
    }
    if node.unique_items && has_duplicates(items) {
        out.report(|| Message::new(Code::Field, path, None, format!("{path} in body shouldn't contain duplicates")));
    }
    out.inc();
}

// Duplicates as Go's `reflect.DeepEqual` sees them: integers and floats
// differ, objects compare regardless of key order.
fn has_duplicates(items: &[Value]) -> bool {
    let mut seen = HashSet::with_capacity(items.len());
    items.iter().any(|item| {
        let mut key = String::new();
        deep_key(item, &mut key);
        !seen.insert(key)
    })
}

// A text that is equal for two values exactly when Go's
// `reflect.DeepEqual` holds for them.
fn deep_key(v: &Value, out: &mut String) {
    match v {
        Value::Null => out.push('n'),
        Value::Bool(b) => out.push(if *b { 't' } else { 'f' }),
        Value::Number(n) => match Num::of(n) {
            Num::Int(i) => out.push_str(&format!("i{i};")),
            Num::Float(f) => out.push_str(&format!("d{};", if f == 0.0 { 0.0 } else { f })),
        },
        Value::String(s) => out.push_str(&format!("s{}:{s}", s.len())),
        Value::Array(items) => {
            out.push_str(&format!("a{}[", items.len()));
            items.iter().for_each(|x| deep_key(x, out));
            out.push(']');
        }
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push_str(&format!("o{}{{", map.len()));
            for k in keys {
                out.push_str(&format!("{}:{k}", k.len()));
                if let Some(x) = map.get(k) {
                    deep_key(x, out);
                }
            }
            out.push('}');
        }
    }
}

// Objects: `minProperties` and `maxProperties` end the check; then unknown
// keys (`additionalProperties: false`) or their schema, the declared
// properties, and `required`.
fn check_object(node: &Node, path: &At<'_>, map: &Map<String, Value>, out: &mut Outcome) {
    let count = i64::try_from(map.len()).unwrap_or(i64::MAX);
    if let Some(min) = node.min_properties
        && count < min
    {
        out.report(|| {
            let text = format!("{path} in body should have at least {min} properties");
            Message::new(Code::Field, path, Some(Value::from(count)), text)
        });
        return;
    }
    if let Some(max) = node.max_properties
        && count > max
    {
        out.report(|| {
            let text = format!("{path} in body should have at most {max} properties");
            Message::new(Code::TooManyProperties, path, Some(Value::from(count)), text).with_limit(max)
        });
        return;
    }
    // Unknown keys matter only under `additionalProperties: false` or a
    // schema; otherwise they are not even looked up.
    let unknown_keys_matter = matches!(node.additional, Some(Additional::Allows(false) | Additional::Schema(_)));
    for (key, value) in map.iter().filter(|(k, _)| unknown_keys_matter && !node.has_property(k)) {
        match &node.additional {
            Some(Additional::Allows(false)) => {
                out.report(|| {
                    let text = format!("{path}.{key} in body is a forbidden property");
                    Message::new(Code::Field, path, Some(Value::String(key.clone())), text)
                });
            }
            Some(Additional::Schema(schema)) => validate_into(schema, &At::Key(path, key), value, out),
            _ => {}
        }
    }
    if map.len() < node.properties.len() {
        // Fewer keys than properties: each key is found among the
        // properties (a cheaper hash than the object's), and the ones found
        // are visited in the schema's order, as below.
        let mut found: SmallVec<[(usize, &Value); 16]> =
            map.iter().filter_map(|(key, value)| Some((node.property_position(key)?, value))).collect();
        found.sort_unstable_by_key(|(position, _)| *position);
        for (position, value) in found {
            let (name, schema) = &node.properties[position];
            validate_into(schema, &At::Property(path, name), value, out);
        }
    } else {
        for (name, schema) in &node.properties {
            if let Some(value) = json_map::get(map, name) {
                validate_into(schema, &At::Property(path, name), value, out);
            }
        }
    }
    for key in node.required.iter().filter(|k| !json_map::contains_key(map, k)) {
        out.report(|| {
            let name = At::Key(path, key);
            Message::new(Code::Required, name, None, format!("{name} in body is required"))
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value_validation::schema::Types;
    use serde_json::json;

    fn texts(node: &Node, value: Value) -> Vec<String> {
        validate_node(node, &At::Root, &value).messages.into_iter().map(|m| m.text).collect()
    }

    #[test]
    fn deep_keys_follow_deep_equal() {
        assert!(has_duplicates(&[json!({"a": 1, "b": [2.5]}), json!({"b": [2.5], "a": 1})]));
        assert!(!has_duplicates(&[json!(1), json!(1.0)]));
        assert!(has_duplicates(&[json!(0.0), json!(-0.0)]));
        assert!(!has_duplicates(&[json!("a:"), json!(["a"])]));
    }

    #[test]
    fn object_paths() {
        let node = Node {
            types: Types::new(vec!["object".to_owned()]),
            additional: Some(Additional::Allows(false)),
            required: vec!["r".to_owned()],
            ..Node::default()
        };
        assert_eq!(texts(&node, json!({"k": 1})), vec![".k in body is a forbidden property", ".r in body is required"]);
        let node = Node { min_properties: Some(2), required: vec!["r".to_owned()], ..Node::default() };
        assert_eq!(texts(&node, json!({})), vec![" in body should have at least 2 properties"]);
    }

    #[test]
    fn null_counts_only_its_type_check() {
        let node = Node { types: Types::new(vec!["string".to_owned()]), nullable: true, ..Node::default() };
        assert_eq!(validate_node(&node, &At::Property(&At::Root, "f"), &json!(null)).count, 1);
        assert!(validate_node(&node, &At::Property(&At::Root, "f"), &json!("x")).count > 1);
    }

    #[test]
    fn arrays() {
        let node = Node {
            items: Some(Box::new(Node { types: Types::new(vec!["string".to_owned()]), ..Node::default() })),
            max_items: Some(1),
            unique_items: true,
            ..Node::default()
        };
        assert_eq!(
            texts(&node, json!([1, 1])),
            vec![
                "[0] in body must be of type string: \"integer\"",
                "[1] in body must be of type string: \"integer\"",
                " in body should have at most 1 items",
                " in body shouldn't contain duplicates"
            ]
        );
    }
}
