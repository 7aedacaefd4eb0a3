//! The number validator (kube-openapi's `numberValidator`): the range of
//! the value and of each bound for the node's type and format, then
//! `multipleOf`, `minimum` and `maximum`, compared natively (as integers
//! for integer values) when the bound fits the type.

use super::walk::At;
use serde_json::{Number, Value};

use super::outcome::{Code, Message, Outcome};
use super::schema::Node;
use crate::gofmt;

/// A decoded JSON number as Kubernetes holds it: `int64` or `float64`.
/// Integers beyond the signed 64-bit range are floats.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Num {
    Int(i64),
    Float(f64),
}

impl Num {
    /// The number as Kubernetes decodes it.
    pub fn of(n: &Number) -> Num {
        match n.as_i64() {
            Some(i) => Num::Int(i),
            None => Num::Float(n.as_f64().unwrap_or(0.0)),
        }
    }

    /// `float64(x)`.
    pub fn as_f64(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Float(f) => f,
        }
    }

    /// The number as a JSON value of the same kind.
    pub fn to_value(self) -> Value {
        match self {
            Num::Int(i) => Value::from(i),
            Num::Float(f) => Value::from(f),
        }
    }

    /// Go's `%v`.
    pub fn go_v(self) -> String {
        match self {
            Num::Int(i) => i.to_string(),
            Num::Float(f) => gofmt::float_v(f),
        }
    }

    // The decimal text kube-openapi range-checks: integers in decimal,
    // floats in plain notation with the shortest digits
    // (`strconv.FormatFloat(f, 'f', -1, 64)`).
    fn plain(self) -> String {
        match self {
            Num::Int(i) => i.to_string(),
            Num::Float(f) => format!("{f}"),
        }
    }
}

/// Go's `int64(f)` on amd64: truncation, and the minimum for values out of
/// range.
pub(crate) fn go_f64_to_i64(f: f64) -> i64 {
    if (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&f) { f as i64 } else { i64::MIN }
}

/// swag's `IsFloat64AJSONInteger`: within ±(2^53−1) and integral, or (for
/// positive values) within a relative 1e-9 of the integer below.
pub(crate) fn is_json_integer(f: f64) -> bool {
    const MAX: f64 = 9_007_199_254_740_991.0;
    if !f.is_finite() || !(-MAX..=MAX).contains(&f) {
        return false;
    }
    if f == f.trunc() {
        return true;
    }
    // Go computes `float64(uint64(f))`; for negative values that is far off
    // (amd64) or zero, so only positive values get the tolerance.
    let g = f.trunc();
    if f < 0.0 || g == 0.0 {
        return false;
    }
    (f - g).abs() / (f.abs() + g.abs()).min(f64::MAX) < 1e-9
}

// Go's `strconv.ParseInt(s, 10, bits)` succeeding.
fn parses_as_int(s: &str, bits: u32) -> bool {
    let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    let trimmed = digits.trim_start_matches('0');
    if trimmed.len() > 20 {
        return false;
    }
    let magnitude: u128 = trimmed.parse().unwrap_or(0);
    let limit: u128 = 1 << (bits - 1);
    if s.starts_with('-') { magnitude <= limit } else { magnitude < limit }
}

/// kube-openapi's `IsValueValidAgainstRange`: whether `n` fits the type and
/// format; the error text names `prefix` (`Checked`, `Maximum boundary`,
/// ...) and the value path.
fn range_error(n: Num, type_name: &str, format: &str, prefix: &str, path: &At<'_>) -> Option<Message> {
    let rep = n.plain();
    let fits = match (type_name, format) {
        ("integer", "int32") => parses_as_int(&rep, 32),
        ("integer", _) => parses_as_int(&rep, 64),
        (_, "float" | "float32") => rep.parse::<f32>().is_ok_and(f32::is_finite),
        _ => true,
    };
    if fits {
        return None;
    }
    let text = if format.is_empty() {
        format!("{prefix} value must be of type {type_name} (default format) in {path}")
    } else {
        format!("{prefix} value must be of type {type_name} with format {format} in {path}")
    };
    Some(Message::plain(text))
}

/// Validates a number against the node's numeric keywords.
pub(crate) fn check(node: &Node, path: &At<'_>, n: Num, out: &mut Outcome) {
    let (type_name, format) = (node.single_type(), node.format.as_str());
    if let Some(m) = range_error(n, type_name, format, "Checked", path) {
        out.report(|| m);
    }
    let bound = |value: f64, prefix: &str| range_error(Num::Float(value), type_name, format, prefix, path);
    if let Some(factor) = node.multiple_of {
        checked_bound(bound(factor, "MultipleOf"), n, |n| multiple_of(path, n, factor), out);
    }
    if let Some(min) = node.minimum {
        let exclusive = node.exclusive_minimum;
        checked_bound(bound(min, "Minimum boundary"), n, |n| minimum(path, n, min, exclusive), out);
    }
    if let Some(max) = node.maximum {
        let exclusive = node.exclusive_maximum;
        checked_bound(bound(max, "Maximum boundary"), n, |n| maximum(path, n, max, exclusive), out);
    }
    out.inc();
}

// A bound that does not fit the type is reported, and the comparison is
// then made on floats: the value is converted with `float64(x)`.
fn checked_bound(bound_error: Option<Message>, n: Num, compare: impl Fn(Num) -> Option<Message>, out: &mut Outcome) {
    let failure = match bound_error {
        None => compare(n),
        Some(m) => {
            out.report(|| m);
            compare(Num::Float(n.as_f64()))
        }
    };
    if let Some(m) = failure {
        out.report(|| m);
    }
}

// `multipleOf`: integers against the factor truncated to an integer,
// floats by the quotient being an integer (within swag's tolerance). A
// factor that is not positive is reported as such.
fn multiple_of(path: &At<'_>, n: Num, factor: f64) -> Option<Message> {
    match n {
        Num::Int(i) => {
            let f = go_f64_to_i64(factor);
            if f <= 0 {
                return Some(not_positive(path, Num::Int(f)));
            }
            (i.wrapping_div(f).wrapping_mul(f) != i).then(|| not_multiple(path, Num::Int(f), n))
        }
        Num::Float(x) => {
            if factor <= 0.0 {
                return Some(not_positive(path, Num::Float(factor)));
            }
            let mult = if factor < 1.0 { 1.0 / factor * x } else { x / factor };
            (!is_json_integer(mult)).then(|| not_multiple(path, Num::Float(factor), n))
        }
    }
}

fn not_positive(path: &At<'_>, factor: Num) -> Message {
    let text = format!("factor MultipleOf declared for {path} must be positive: {}", factor.go_v());
    Message::new(Code::Field, path, Some(factor.to_value()), text)
}

fn not_multiple(path: &At<'_>, factor: Num, n: Num) -> Message {
    let text = format!("{path} in body should be a multiple of {}", factor.go_v());
    Message::new(Code::Field, path, Some(n.to_value()), text)
}

// `minimum` / `maximum`: integers against the bound truncated to an
// integer, floats against the bound.
fn minimum(path: &At<'_>, n: Num, min: f64, exclusive: bool) -> Option<Message> {
    let (fails, bound) = match n {
        Num::Int(i) => {
            let b = go_f64_to_i64(min);
            (if exclusive { i <= b } else { i < b }, Num::Int(b))
        }
        Num::Float(x) => (if exclusive { x <= min } else { x < min }, Num::Float(min)),
    };
    let relation = if exclusive { "greater than" } else { "greater than or equal to" };
    fails.then(|| bound_message(path, n, relation, bound))
}

fn maximum(path: &At<'_>, n: Num, max: f64, exclusive: bool) -> Option<Message> {
    let (fails, bound) = match n {
        Num::Int(i) => {
            let b = go_f64_to_i64(max);
            (if exclusive { i >= b } else { i > b }, Num::Int(b))
        }
        Num::Float(x) => (if exclusive { x >= max } else { x > max }, Num::Float(max)),
    };
    let relation = if exclusive { "less than" } else { "less than or equal to" };
    fails.then(|| bound_message(path, n, relation, bound))
}

fn bound_message(path: &At<'_>, n: Num, relation: &str, bound: Num) -> Message {
    let text = format!("{path} in body should be {relation} {}", bound.go_v());
    Message::new(Code::Field, path, Some(n.to_value()), text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value_validation::schema::Types;

    /// The path `f` of the tests' messages.
    const F: At<'static> = At::Property(&At::Root, "f");

    fn node(types: &[&str], format: &str) -> Node {
        let types = Types::new(types.iter().map(|t| (*t).to_owned()).collect());
        Node { types, format: format.to_owned(), ..Node::default() }
    }

    fn texts(node: &Node, n: Num) -> Vec<String> {
        Outcome::of(|o| check(node, &F, n, o)).messages.into_iter().map(|m| m.text).collect()
    }

    #[test]
    fn integral_floats() {
        assert!(is_json_integer(3.0));
        assert!(!is_json_integer(3.5));
        assert!(is_json_integer(1e8 + 0.01));
        assert!(!is_json_integer(-1e8 - 0.01));
        assert!(!is_json_integer(0.5));
        assert!(!is_json_integer(1e16));
    }

    #[test]
    fn ranges() {
        assert!(parses_as_int("2147483647", 32) && !parses_as_int("2147483648", 32));
        assert!(parses_as_int("-2147483648", 32) && !parses_as_int("-2147483649", 32));
        assert!(parses_as_int("-9223372036854775808", 64) && !parses_as_int("9223372036854775808", 64));
        assert!(!parses_as_int("1.5", 64) && !parses_as_int("", 64));
        assert_eq!(
            texts(&node(&["integer"], "int32"), Num::Int(2_147_483_648)),
            vec!["Checked value must be of type integer with format int32 in f"]
        );
        assert!(texts(&node(&["number"], "float"), Num::Float(3.4028234663852886e38)).is_empty());
        assert_eq!(
            texts(&node(&["number"], "float"), Num::Float(3.7431058130238175e38)),
            vec!["Checked value must be of type number with format float in f"]
        );
        assert!(texts(&node(&["integer", "string"], ""), Num::Float(1.5)).is_empty());
    }

    #[test]
    fn bounds() {
        let mut n = node(&["number"], "");
        n.minimum = Some(2.5);
        assert!(texts(&n, Num::Int(2)).is_empty());
        assert_eq!(texts(&n, Num::Float(2.0)), vec!["f in body should be greater than or equal to 2.5"]);
        let mut n = node(&["integer"], "");
        n.minimum = Some(2.5);
        assert_eq!(
            texts(&n, Num::Int(2)),
            vec![
                "Minimum boundary value must be of type integer (default format) in f",
                "f in body should be greater than or equal to 2.5"
            ]
        );
        let mut n = node(&["number"], "");
        n.maximum = Some(1e300);
        assert_eq!(texts(&n, Num::Int(5)), vec!["f in body should be less than or equal to -9223372036854775808"]);
        n.maximum = Some(1.5);
        n.exclusive_maximum = true;
        assert_eq!(texts(&n, Num::Float(1.5)), vec!["f in body should be less than 1.5"]);
    }

    #[test]
    fn multiples() {
        let mut n = node(&["number"], "");
        n.multiple_of = Some(2.5);
        assert!(texts(&n, Num::Int(4)).is_empty());
        n.multiple_of = Some(0.5);
        assert_eq!(texts(&n, Num::Float(1.25)), vec!["f in body should be a multiple of 0.5"]);
        assert_eq!(texts(&n, Num::Int(3)), vec!["factor MultipleOf declared for f must be positive: 0"]);
        n.multiple_of = Some(-1.0);
        assert_eq!(texts(&n, Num::Float(3.0)), vec!["factor MultipleOf declared for f must be positive: -1"]);
        assert_eq!(Outcome::of(|o| check(&n, &F, Num::Int(1), o)).count, 1);
    }
}
