//! The enum validator (kube-openapi's `basicCommonValidator`): the value,
//! converted to the Go type of each entry, must deep-equal one of them.

use super::walk::At;
use serde_json::Value;

use super::errors::{go_decoded, go_v};
use super::numbers::{Num, go_f64_to_i64};
use super::outcome::{Code, Message, Outcome};
use super::schema::Node;

/// Validates the value against a non-empty `enum`. Counts no match.
pub(crate) fn check(node: &Node, path: &At<'_>, value: &Value, out: &mut Outcome) {
    if node.enum_.is_empty() || node.enum_.iter().any(|entry| matches_entry(value, entry)) {
        return;
    }
    out.report(|| {
        let values: Vec<Value> = node.enum_.iter().map(go_decoded).collect();
        let listed: Vec<String> = values.iter().map(go_v).collect();
        let text = format!("{path} in body should be one of [{}]", listed.join(" "));
        let mut message = Message::new(Code::Enum, path, Some(go_decoded(value)), text);
        message.values = values;
        message
    });
}

// Go converts the value to the entry's type when the types are
// convertible: numbers into each other (a float into an integer by
// truncation), an integer into a string (the string of that code point,
// U+FFFD when it is none). `null` never matches, not even a `null` entry.
fn matches_entry(value: &Value, entry: &Value) -> bool {
    match (value, entry) {
        (Value::Null, _) | (_, Value::Null) => false,
        (Value::Number(v), Value::Number(e)) => match (Num::of(v), Num::of(e)) {
            (Num::Int(a), Num::Int(b)) => a == b,
            (Num::Float(a), Num::Float(b)) => a == b,
            (Num::Int(a), Num::Float(b)) => a as f64 == b,
            (Num::Float(a), Num::Int(b)) => go_f64_to_i64(a) == b,
        },
        (Value::Number(v), Value::String(e)) => match Num::of(v) {
            Num::Int(i) => code_point_string(i) == *e,
            Num::Float(_) => false,
        },
        (Value::String(a), Value::String(b)) => a == b,
        (Value::Bool(a), Value::Bool(b)) => a == b,
        (Value::Array(_), Value::Array(_)) | (Value::Object(_), Value::Object(_)) => deep_equal(value, entry),
        _ => false,
    }
}

// Go's `string(rune(x))` as `reflect` converts an integer.
fn code_point_string(i: i64) -> String {
    u32::try_from(i).ok().and_then(char::from_u32).unwrap_or('\u{FFFD}').to_string()
}

// Go's `reflect.DeepEqual` on decoded JSON: integers and floats never
// equal each other.
fn deep_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (Num::of(x), Num::of(y)) {
            (Num::Int(p), Num::Int(q)) => p == q,
            (Num::Float(p), Num::Float(q)) => p == q,
            _ => false,
        },
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| deep_equal(p, q)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| deep_equal(v, w)))
        }
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The path `f` of the tests' messages.
    const F: At<'static> = At::Property(&At::Root, "f");
    use serde_json::json;

    fn ok(value: Value, entries: Value) -> bool {
        let node = Node { enum_: entries.as_array().unwrap().clone(), ..Node::default() };
        Outcome::of(|o| check(&node, &F, &value, o)).is_valid()
    }

    #[test]
    fn conversions() {
        assert!(ok(json!(1.0), json!([1, 2])));
        assert!(ok(json!(1.5), json!([1])));
        assert!(ok(json!(2), json!([1.5, 2.0])));
        assert!(ok(json!(65), json!(["A"])));
        assert!(ok(json!(-1), json!(["\u{FFFD}"])));
        assert!(!ok(json!(65.0), json!(["A"])));
        assert!(!ok(json!("1"), json!([1])));
        assert!(!ok(json!(null), json!([null, "a"])));
        assert!(ok(json!({"a": [1]}), json!([{"a": [1]}])));
        assert!(!ok(json!({"a": [1]}), json!([{"a": [1.0]}])));
    }

    #[test]
    fn message_lists_entries() {
        let node = Node { enum_: vec![json!("a"), json!(1), json!(null)], ..Node::default() };
        let out = Outcome::of(|o| check(&node, &F, &json!(true), o));
        assert_eq!(out.messages[0].text, "f in body should be one of [a 1 <nil>]");
        assert_eq!(out.count, 0);
    }
}
