//! Go's textual forms of values, as they appear inside Kubernetes messages:
//! `%q` for strings, `%v` for numbers and booleans, and `encoding/json` for
//! everything else (object keys sorted, `<`, `>`, `&` escaped).
//!
//! Entry points: [`value`] (a field error's bad value), [`quote`] (`%q`),
//! [`float_v`] (`%v` of a float64) and [`json`] (Go's `json.Marshal`).

use serde_json::{Number, Value};

/// Go's `%T` of a decoded JSON value: integers that fit are `int64`, every
/// other number `float64`, as the API server decodes them.
pub fn go_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "<nil>",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.as_i64().is_some() => "int64",
        Value::Number(_) => "float64",
        Value::String(_) => "string",
        Value::Array(_) => "[]interface {}",
        Value::Object(_) => "map[string]interface {}",
    }
}

/// Renders a bad value as `field.Error` does: strings quoted, numbers and
/// booleans plain, `null` as `null`, anything else as compact JSON.
pub fn value(v: &Value) -> String {
    match v {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => number_v(n),
        Value::String(s) => quote(s),
        Value::Array(_) | Value::Object(_) => json(v),
    }
}

/// Go's `%v` of a JSON number: integers in decimal, floats shortest.
pub fn number_v(n: &Number) -> String {
    if let Some(i) = n.as_i64() {
        i.to_string()
    } else if let Some(u) = n.as_u64() {
        u.to_string()
    } else {
        float_v(n.as_f64().unwrap_or(f64::NAN))
    }
}

/// How a JSON number was decoded in Go before `%v` printed it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Numbers {
    /// By the API server's decoder (unstructured objects): integers that
    /// fit are `int64`, every other number `float64`.
    Int64OrFloat64,
    /// By `encoding/json` into `interface{}`: every number a `float64`.
    Float64,
}

/// Go's `%v` of a decoded JSON value: strings bare, `<nil>`, slices as
/// `[a b]`, maps as `map[k:v]` with sorted keys, numbers as `numbers`
/// says they were decoded.
pub fn v(value: &Value, numbers: Numbers) -> String {
    let mut out = String::new();
    write_v(value, numbers, &mut out);
    out
}

fn write_v(value: &Value, numbers: Numbers, out: &mut String) {
    match value {
        Value::Null => out.push_str("<nil>"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => match (numbers, n.as_i64()) {
            (Numbers::Int64OrFloat64, Some(i)) => out.push_str(&i.to_string()),
            _ => out.push_str(&float_v(n.as_f64().unwrap_or(f64::NAN))),
        },
        Value::String(s) => out.push_str(s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                write_v(item, numbers, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push_str("map[");
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                out.push_str(key);
                out.push(':');
                write_v(&map[key], numbers, out);
            }
            out.push(']');
        }
    }
}

/// Go's `strconv.Quote` (`%q`).
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if is_go_printable(c) => out.push(c),
            c if (c as u32) < 0x80 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push('"');
    out
}

/// An approximation of Go's `strconv.IsPrint` (and `unicode.IsPrint`):
/// letters, marks, numbers, punctuation, symbols and the ASCII space; not
/// other spaces, controls or format characters.
pub fn is_go_printable(c: char) -> bool {
    if c == ' ' {
        return true;
    }
    if c.is_control() || c.is_whitespace() {
        return false;
    }
    !matches!(c as u32,
        0xad | 0x600..=0x605 | 0x61c | 0x6dd | 0x70f | 0x180e | 0x200b..=0x200f
        | 0x202a..=0x202e | 0x2060..=0x206f | 0xfeff | 0xfff9..=0xfffb
        | 0xd800..=0xdfff | 0xe000..=0xf8ff | 0xfffe | 0xffff)
}

/// Splits a finite, non-zero float into its shortest decimal digits and the
/// decimal exponent `e` such that the value is `0.d1d2... × 10^e`.
fn shortest_digits(f: f64) -> (String, i32) {
    // `{:e}` is the shortest round-trip representation: `d.ddde±x`.
    digits_of(&format!("{:e}", f.abs()))
}

/// [`shortest_digits`] of `f` rounded to a float32, as Go's
/// `strconv.FormatFloat(f, 'g', -1, 32)` takes them.
fn shortest_digits32(f: f64) -> (String, i32) {
    digits_of(&format!("{:e}", (f as f32).abs()))
}

/// The digits and exponent of Rust's `{:e}` form.
fn digits_of(s: &str) -> (String, i32) {
    let (mantissa, exp) = s.split_once('e').unwrap_or((s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    (digits, exp + 1)
}

/// Go's `%v` of a float64 (`strconv.FormatFloat(f, 'g', -1, 64)`: exponent
/// form when the exponent is below -4 or at least 6): `1.5`, `2`, `1e+21`,
/// `1e-07`, `1.234567e+06`.
pub fn float_v(f: f64) -> String {
    float_g(f, shortest_digits)
}

/// Go's `strconv.FormatFloat(f, 'g', -1, 32)`: [`float_v`] of `f` rounded
/// to a float32 (`0.1` stays `0.1`, `0.123456789` is `0.12345679`), the
/// form sigs.k8s.io/yaml gives a float mapping key.
pub fn float_g32(f: f64) -> String {
    let rounded = f as f32;
    if rounded.is_infinite() {
        return float_v(f64::from(rounded));
    }
    float_g(f, shortest_digits32)
}

fn float_g(f: f64, shortest: fn(f64) -> (String, i32)) -> String {
    if f.is_nan() {
        return "NaN".to_owned();
    }
    if f.is_infinite() {
        return if f > 0.0 { "+Inf" } else { "-Inf" }.to_owned();
    }
    if f == 0.0 {
        return if f.is_sign_negative() { "-0" } else { "0" }.to_owned();
    }
    let (digits, point) = shortest(f);
    let exp = point - 1;
    let sign = if f < 0.0 { "-" } else { "" };
    if !(-4..6).contains(&exp) {
        format!("{sign}{}", exponent_form(&digits, exp, 2))
    } else {
        format!("{sign}{}", plain_form(&digits, point))
    }
}

/// `d.ddd` followed by `e±XX` with at least `min_exp_digits` exponent digits.
fn exponent_form(digits: &str, exp: i32, min_exp_digits: usize) -> String {
    let mut out = String::new();
    out.push_str(&digits[..1]);
    if digits.len() > 1 {
        out.push('.');
        out.push_str(&digits[1..]);
    }
    out.push('e');
    out.push(if exp < 0 { '-' } else { '+' });
    out.push_str(&format!("{:0width$}", exp.unsigned_abs(), width = min_exp_digits));
    out
}

/// Plain decimal notation of `0.digits × 10^point`.
fn plain_form(digits: &str, point: i32) -> String {
    if point <= 0 {
        format!("0.{}{}", "0".repeat(point.unsigned_abs() as usize), digits)
    } else if point as usize >= digits.len() {
        format!("{}{}", digits, "0".repeat(point as usize - digits.len()))
    } else {
        format!("{}.{}", &digits[..point as usize], &digits[point as usize..])
    }
}

/// A float64 as the API server holds it after a trip through JSON: Go's
/// `encoding/json` writes a whole float64 below 1e21 without a fraction
/// (`2.0` as `2`, [`float_json`]), and Kubernetes' decoder reads a literal
/// without a fraction or an exponent back as an int64 when it fits. So a
/// whole value within int64 is an integer (beyond 2^53, the one Go's
/// shortest digits spell), any other a float; `None` for NaN and the
/// infinities, which JSON cannot hold.
pub fn json_number(f: f64) -> Option<Number> {
    const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
    if f.fract() != 0.0 || !f.is_finite() {
        return Number::from_f64(f);
    }
    if f.abs() <= EXACT {
        return Some(Number::from(f as i64));
    }
    match float_json(f).parse::<i64>() {
        Ok(i) => Some(Number::from(i)),
        Err(_) => Number::from_f64(f),
    }
}

/// Go's `encoding/json` form of a float64: plain unless `< 1e-6` or
/// `>= 1e21`, then exponent form without zero padding (`1e-7`, `1e+21`).
pub fn float_json(f: f64) -> String {
    if !f.is_finite() {
        return float_v(f);
    }
    if f == 0.0 {
        return if f.is_sign_negative() { "-0" } else { "0" }.to_owned();
    }
    let abs = f.abs();
    let (digits, point) = shortest_digits(f);
    let sign = if f < 0.0 { "-" } else { "" };
    if !(1e-6..1e21).contains(&abs) {
        format!("{sign}{}", exponent_form(&digits, point - 1, 1))
    } else {
        format!("{sign}{}", plain_form(&digits, point))
    }
}

/// Go's `json.Marshal` of a decoded JSON value: compact, object keys sorted,
/// HTML-sensitive characters escaped.
pub fn json(v: &Value) -> String {
    let mut out = String::new();
    write_json(v, &mut out);
    out
}

fn write_json(v: &Value, out: &mut String) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => {
            if n.is_f64() {
                out.push_str(&float_json(n.as_f64().unwrap_or(0.0)));
            } else {
                out.push_str(&n.to_string());
            }
        }
        Value::String(s) => write_json_string(s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json_string(key, out);
                out.push(':');
                write_json(&map[key], out);
            }
            out.push('}');
        }
    }
}

/// Sorts object keys at every depth, as Go's `encoding/json` writes maps
/// (bytewise key order).
pub fn sort_keys(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.sort_keys();
            map.values_mut().for_each(sort_keys);
        }
        Value::Array(items) => items.iter_mut().for_each(sort_keys),
        _ => {}
    }
}

/// A JSON string as Go's encoder writes it.
pub fn write_json_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => out.push_str(&format!("\\u{:04x}", c as u32)),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn values_like_go_v() {
        let value = serde_json::json!(["a", 1, 2.5, null, {"b": true, "a": [1]}, 12345678901234567_i64]);
        assert_eq!(v(&value, Numbers::Int64OrFloat64), "[a 1 2.5 <nil> map[a:[1] b:true] 12345678901234567]");
        assert_eq!(v(&value, Numbers::Float64), "[a 1 2.5 <nil> map[a:[1] b:true] 1.2345678901234568e+16]");
        assert_eq!(v(&serde_json::json!(1e21), Numbers::Int64OrFloat64), "1e+21");
    }

    #[test]
    fn floats_like_go_v() {
        assert_eq!(float_v(1.5), "1.5");
        assert_eq!(float_v(2.0), "2");
        assert_eq!(float_v(1e21), "1e+21");
        assert_eq!(float_v(1e20), "1e+20");
        assert_eq!(float_v(123456.0), "123456");
        assert_eq!(float_v(1234567.0), "1.234567e+06");
        assert_eq!(float_v(1e-7), "1e-07");
        assert_eq!(float_v(0.0001), "0.0001");
        assert_eq!(float_v(1.0145709240540254e19), "1.0145709240540254e+19");
        assert_eq!(float_v(-2.5e-5), "-2.5e-05");
    }

    #[test]
    fn floats_like_go_json() {
        assert_eq!(float_json(1e-7), "1e-7");
        assert_eq!(float_json(1e21), "1e+21");
        assert_eq!(float_json(1.5), "1.5");
        assert_eq!(float_json(1.0), "1");
        assert_eq!(float_json(0.000001), "0.000001");
    }

    #[test]
    fn quoting_like_go() {
        assert_eq!(quote("a\"b\\c\n"), "\"a\\\"b\\\\c\\n\"");
        assert_eq!(quote("\u{1}é"), "\"\\x01é\"");
        assert_eq!(quote("\u{a0}"), "\"\\u00a0\"");
    }

    #[test]
    fn json_sorted_and_escaped() {
        assert_eq!(json(&json!({"b": [1, 1.5], "a": "<&>"})), "{\"a\":\"\\u003c\\u0026\\u003e\",\"b\":[1,1.5]}");
    }

    #[test]
    fn json_numbers_are_what_the_api_server_reads_back() {
        let n = |f: f64| json_number(f).map(|n| n.to_string());
        assert_eq!(n(2.0).as_deref(), Some("2"));
        assert_eq!(n(-0.0).as_deref(), Some("0"));
        assert_eq!(n(2.5).as_deref(), Some("2.5"));
        // Go writes the shortest digits, padded with zeros.
        assert_eq!(n(9_223_372_036_854_775_000.0).as_deref(), Some("9223372036854775000"));
        assert!(json_number(1e19).is_some_and(|n| n.is_f64()), "beyond int64: a float");
        assert_eq!(n(f64::NAN), None);
        assert!(json_number(2.0).is_some_and(|n| n.is_i64()));
    }

    #[test]
    fn float32_g_form() {
        assert_eq!(float_g32(0.1), "0.1");
        assert_eq!(float_g32(0.123456789), "0.12345679");
        assert_eq!(float_g32(1e6), "1e+06");
        assert_eq!(float_g32(2.0), "2");
        assert_eq!(float_g32(1e300), "+Inf", "beyond float32");
    }
}
