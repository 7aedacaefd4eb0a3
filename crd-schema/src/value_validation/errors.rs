//! The mapping of kube-openapi messages to field errors
//! (`kubeOpenAPIResultToFieldErrors`), and Go's `%v` of decoded values.

use serde_json::{Map, Value};

use super::outcome::{Code, Message};
use crate::field::{BadValue, ErrorType, FieldError, Path};
use crate::gofmt;

// The error path: the prefix, followed by the message's value path as one
// name (leading `.` removed). An empty name, or `.`, is the prefix itself.
fn error_path(message: &Message, prefix: &Path) -> Path {
    let name = message.name.as_str();
    if name.is_empty() || name == "." {
        return prefix.clone();
    }
    prefix.child(name.strip_prefix('.').unwrap_or(name))
}

/// The field error Kubernetes reports for `message` under `prefix`.
pub(crate) fn to_field_error(message: &Message, prefix: &Path) -> FieldError {
    // Plain errors are not tied to a field: the prefix, an empty string.
    if message.code == Code::Plain {
        return FieldError::invalid(prefix, "", message.text.clone());
    }
    let path = error_path(message, prefix);
    let value = || message.value.clone().unwrap_or_else(|| Value::String(String::new()));
    match message.code {
        Code::Required => FieldError::required(&path, ""),
        Code::Enum => {
            let supported: Vec<String> = message
                .values
                .iter()
                .map(|v| match v {
                    Value::String(s) => s.clone(),
                    other => gofmt::json(other),
                })
                .collect();
            let refs: Vec<&str> = supported.iter().map(String::as_str).collect();
            FieldError::not_supported(&path, message.value.clone().unwrap_or(Value::Null), &refs)
        }
        Code::TooLong => {
            let unit = if message.limit == 1 { "byte" } else { "bytes" };
            let detail = format!("may not be more than {} {unit}", message.limit);
            FieldError::new(&path, ErrorType::TooLong, BadValue::None, detail)
        }
        Code::MaxItems | Code::TooManyProperties => {
            let unit = if message.limit == 1 { "item" } else { "items" };
            let detail = format!("must have at most {} {unit}", message.limit);
            FieldError::new(&path, ErrorType::TooMany, BadValue::Json(value()), detail)
        }
        Code::InvalidType => {
            FieldError::new(&path, ErrorType::TypeInvalid, BadValue::Json(value()), message.text.clone())
        }
        Code::Field | Code::Plain => FieldError::invalid(&path, value(), message.text.clone()),
    }
}

/// Go's `%v` of a value the API server decoded.
pub(crate) fn go_v(v: &Value) -> String {
    crate::gofmt::v(v, crate::gofmt::Numbers::Int64OrFloat64)
}

/// The value as Kubernetes decodes it: integers beyond the 64-bit signed
/// range are floating point numbers.
pub(crate) fn go_decoded(v: &Value) -> Value {
    match v {
        Value::Number(n) if n.as_i64().is_none() => super::numbers::Num::of(n).to_value(),
        Value::Array(items) => Value::Array(items.iter().map(go_decoded).collect()),
        Value::Object(map) => Value::Object(map.iter().map(|(k, x)| (k.clone(), go_decoded(x))).collect::<Map<_, _>>()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn msg(code: Code, name: &str, value: Option<Value>) -> Message {
        Message::new(code, name, value, "m".to_owned())
    }

    #[test]
    fn paths_follow_kubernetes() {
        let root = Path::root();
        assert_eq!(
            to_field_error(&msg(Code::Field, "a.b", Some(json!(1))), &root).to_string(),
            "a.b: Invalid value: 1: m"
        );
        assert_eq!(to_field_error(&msg(Code::Field, ".k", None), &root).to_string(), "k: Invalid value: \"\": m");
        assert_eq!(to_field_error(&msg(Code::Field, "", None), &root).to_string(), "<nil>: Invalid value: \"\": m");
        let status = Path::new("status");
        assert_eq!(to_field_error(&msg(Code::Required, ".a", None), &status).to_string(), "status.a: Required value");
        assert_eq!(
            to_field_error(&Message::plain("p".to_owned()), &status).to_string(),
            "status: Invalid value: \"\": p"
        );
    }

    #[test]
    fn limits_and_enums() {
        let root = Path::root();
        let m = msg(Code::TooLong, "f", Some(json!("abc"))).with_limit(1);
        assert_eq!(to_field_error(&m, &root).to_string(), "f: Too long: may not be more than 1 byte");
        let m = msg(Code::MaxItems, "f", Some(json!(3))).with_limit(2);
        assert_eq!(to_field_error(&m, &root).to_string(), "f: Too many: 3: must have at most 2 items");
        let mut m = msg(Code::Enum, "f", Some(json!(1.5)));
        m.values = vec![json!("a"), json!(1), json!(null), json!({"b": [1]})];
        assert_eq!(
            to_field_error(&m, &root).to_string(),
            "f: Unsupported value: 1.5: supported values: \"a\", \"1\", \"null\", \"{\\\"b\\\":[1]}\""
        );
    }

    #[test]
    fn go_v_forms() {
        assert_eq!(go_v(&json!(["a", 1, 2.5, null, {"b": true, "a": [1]}])), "[a 1 2.5 <nil> map[a:[1] b:true]]");
        assert_eq!(go_v(&json!(1e21)), "1e+21");
    }

    #[test]
    fn big_integers_decode_as_floats() {
        assert_eq!(go_decoded(&json!([18446744073709551615u64])), json!([1.8446744073709552e19]));
        assert_eq!(go_decoded(&json!({"a": 1})), json!({"a": 1}));
    }
}
