//! The type validator (kube-openapi's `typeValidator`): the value's kind
//! against `type`, `nullable` and `format`.

use super::walk::At;
use serde_json::Value;

use super::numbers::{Num, is_json_integer};
use super::outcome::{Code, Message, Outcome};
use super::schema::{JsonType, Node};
use crate::gofmt;

/// The JSON type of a non-null value and the format Go infers for it
/// (`int64` for integers, `float64` for floats, none otherwise).
fn kind_of(value: &Value) -> (JsonType, &'static str) {
    match value {
        Value::Null => (JsonType::Null, ""),
        Value::Bool(_) => (JsonType::Boolean, ""),
        Value::String(_) => (JsonType::String, ""),
        Value::Array(_) => (JsonType::Array, ""),
        Value::Object(_) => (JsonType::Object, ""),
        Value::Number(n) => match Num::of(n) {
            Num::Int(_) => (JsonType::Integer, "int64"),
            Num::Float(_) => (JsonType::Number, "float64"),
        },
    }
}

/// `<path> in body must be of type <expected>: "<found>"`, carrying
/// `found` as its value.
pub(crate) fn invalid_type(path: &At<'_>, expected: &str, found: &str) -> Message {
    let text = format!("{path} in body must be of type {expected}: {}", gofmt::quote(found));
    Message::new(Code::InvalidType, path, Some(Value::String(found.to_owned())), text)
}

/// Whether the type validator runs for a non-null value.
pub(crate) fn applies(node: &Node) -> bool {
    !node.types.is_empty() || !node.format.is_empty()
}

/// Validates the value's kind; a passing check counts one match.
pub(crate) fn check(node: &Node, path: &At<'_>, value: &Value, out: &mut Outcome) {
    // `null` passes without a type, with `null` among the types, or when
    // nullable.
    if value.is_null() {
        if !node.types.is_empty() && !node.types.has(JsonType::Null) && !node.nullable {
            out.report(|| invalid_type(path, &node.types.names().join(","), "null"));
            return;
        }
        out.inc();
        return;
    }
    let (kind, kind_format) = kind_of(value);
    let float_int = matches!(value, Value::Number(n) if matches!(Num::of(n), Num::Float(f) if is_json_integer(f)))
        && node.types.has(JsonType::Integer);
    let int_float = kind == JsonType::Integer && node.types.has(JsonType::Number);
    let compatible = node.types.has(kind) || float_int || int_float;
    let string_or_array = matches!(value, Value::String(_) | Value::Array(_));
    let format = node.format.as_str();
    // Under a format, other kinds must match the type or the format.
    if !(string_or_array || format.is_empty() || compatible || kind_format == format) {
        out.report(|| invalid_type(path, format, kind_format));
        return;
    }
    // Strings and arrays under a format pass unless the type is numeric.
    let numeric = node.types.has(JsonType::Number) || node.types.has(JsonType::Integer);
    let type_checked = !string_or_array || format.is_empty() || numeric;
    if type_checked && !compatible {
        out.report(|| invalid_type(path, &node.types.names().join(","), kind.name()));
        return;
    }
    out.inc();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value_validation::schema::Types;

    /// The path `f` of the tests' messages.
    const F: At<'static> = At::Property(&At::Root, "f");
    use serde_json::json;

    fn node(types: &[&str], format: &str, nullable: bool) -> Node {
        Node {
            types: Types::new(types.iter().map(|t| (*t).to_owned()).collect()),
            format: format.to_owned(),
            nullable,
            ..Node::default()
        }
    }

    fn text(node: &Node, value: Value) -> Option<String> {
        Outcome::of(|o| check(node, &F, &value, o)).messages.first().map(|m| m.text.clone())
    }

    #[test]
    fn kinds() {
        let object = node(&["object"], "", false);
        assert_eq!(text(&object, json!("x")).unwrap(), "f in body must be of type object: \"string\"");
        assert_eq!(text(&object, json!(1.5)).unwrap(), "f in body must be of type object: \"number\"");
        assert_eq!(text(&object, json!(null)).unwrap(), "f in body must be of type object: \"null\"");
        assert_eq!(text(&node(&["object"], "", true), json!(null)), None);
        assert_eq!(text(&node(&[], "", false), json!(null)), None);
        assert_eq!(Outcome::of(|o| check(&object, &F, &json!({}), o)).count, 1);
    }

    #[test]
    fn numbers_cross_over() {
        assert_eq!(text(&node(&["integer"], "", false), json!(3.0)), None);
        assert_eq!(
            text(&node(&["integer"], "", false), json!(3.5)).unwrap(),
            "f in body must be of type integer: \"number\""
        );
        assert_eq!(text(&node(&["number"], "", false), json!(3)), None);
        assert_eq!(
            text(&node(&["integer"], "int64", false), json!(1.0145709240540254e19)).unwrap(),
            "f in body must be of type int64: \"float64\""
        );
    }

    #[test]
    fn formats() {
        assert_eq!(
            text(&node(&["string"], "date", false), json!(5)).unwrap(),
            "f in body must be of type date: \"int64\""
        );
        assert_eq!(
            text(&node(&["string"], "date", false), json!(true)).unwrap(),
            "f in body must be of type date: \"\""
        );
        assert_eq!(text(&node(&["object"], "date", false), json!("x")), None);
        assert_eq!(
            text(&node(&["integer"], "int32", false), json!("x")).unwrap(),
            "f in body must be of type integer: \"string\""
        );
        assert_eq!(text(&node(&["integer", "string"], "date", false), json!(5)), None);
    }
}
