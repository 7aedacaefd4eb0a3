//! CEL's standard functions and operators with cel-go's semantics and
//! error texts (`integer overflow`, `division by zero`, `no such overload`,
//! ...), and their runtime costs (`interpreter/runtimecost.go`).
//!
//! Functions of the Kubernetes libraries are not here: `bridge` calls
//! them in `kube-cel`.

use std::cell::RefCell;
use std::cmp::Ordering;
use std::collections::HashMap;
use std::rc::Rc;

use chrono::TimeDelta;

use super::time;
use super::value::{Error, Map, Result, Val, equals};

/// cel-go's `common.StringTraversalCostFactor`.
pub(crate) const STRING_TRAVERSAL_COST_FACTOR: f64 = 0.1;
/// cel-go's `common.RegexStringLengthCostFactor`.
pub(crate) const REGEX_STRING_LENGTH_COST_FACTOR: f64 = 0.25;

fn overflow() -> Error {
    Error::new("integer overflow")
}

fn uint_overflow() -> Error {
    Error::new("unsigned integer overflow")
}

/// Orders two numbers of any numeric type by value; `None` when either is
/// NaN or a value is not a number.
pub(crate) fn compare_numbers(a: &Val<'_>, b: &Val<'_>) -> Option<Ordering> {
    match (a, b) {
        (Val::Int(x), Val::Int(y)) => Some(x.cmp(y)),
        (Val::Uint(x), Val::Uint(y)) => Some(x.cmp(y)),
        (Val::Int(x), Val::Uint(y)) => Some(if *x < 0 { Ordering::Less } else { (*x as u64).cmp(y) }),
        (Val::Uint(_), Val::Int(_)) => compare_numbers(b, a).map(Ordering::reverse),
        (Val::Double(x), _) => x.partial_cmp(&as_f64(b)?),
        (_, Val::Double(y)) => as_f64(a)?.partial_cmp(y),
        _ => None,
    }
}

fn as_f64(v: &Val<'_>) -> Option<f64> {
    match v {
        Val::Int(i) => Some(*i as f64),
        Val::Uint(u) => Some(*u as f64),
        Val::Double(d) => Some(*d),
        _ => None,
    }
}

/// `<`, `<=`, `>`, `>=`: `None` means the comparison is false either way
/// (NaN).
pub(crate) fn compare(a: &Val<'_>, b: &Val<'_>) -> Result<Option<Ordering>> {
    Ok(match (a, b) {
        (Val::Int(_) | Val::Uint(_) | Val::Double(_), Val::Int(_) | Val::Uint(_) | Val::Double(_)) => {
            compare_numbers(a, b)
        }
        (Val::String(x), Val::String(y)) => Some(x.as_bytes().cmp(y.as_bytes())),
        (Val::Bytes(x), Val::Bytes(y)) => Some(x.cmp(y)),
        (Val::Bool(x), Val::Bool(y)) => Some(x.cmp(y)),
        (Val::Timestamp(x), Val::Timestamp(y)) => Some(x.cmp(y)),
        (Val::Duration(x), Val::Duration(y)) => Some(x.cmp(y)),
        _ => return Err(Error::no_such_overload()),
    })
}

/// `_+_`.
pub(crate) fn add<'a>(a: &Val<'a>, b: &Val<'a>) -> Result<Val<'a>> {
    Ok(match (a, b) {
        (Val::Int(x), Val::Int(y)) => Val::Int(x.checked_add(*y).ok_or_else(overflow)?),
        (Val::Uint(x), Val::Uint(y)) => Val::Uint(x.checked_add(*y).ok_or_else(uint_overflow)?),
        (Val::Double(x), Val::Double(y)) => Val::Double(x + y),
        (Val::String(x), Val::String(y)) => Val::String(Rc::from(format!("{x}{y}"))),
        (Val::Bytes(x), Val::Bytes(y)) => Val::Bytes(Rc::from([&x[..], &y[..]].concat())),
        (Val::List(x), Val::List(y)) => x.concat(y)?,
        (Val::Duration(x), Val::Duration(y)) => duration(x.checked_add(y))?,
        (Val::Timestamp(t), Val::Duration(d)) | (Val::Duration(d), Val::Timestamp(t)) => {
            timestamp(t.checked_add_signed(*d))?
        }
        _ => return Err(Error::no_such_overload()),
    })
}

/// `_-_`.
pub(crate) fn sub<'a>(a: &Val<'a>, b: &Val<'a>) -> Result<Val<'a>> {
    Ok(match (a, b) {
        (Val::Int(x), Val::Int(y)) => Val::Int(x.checked_sub(*y).ok_or_else(overflow)?),
        (Val::Uint(x), Val::Uint(y)) => Val::Uint(x.checked_sub(*y).ok_or_else(uint_overflow)?),
        (Val::Double(x), Val::Double(y)) => Val::Double(x - y),
        (Val::Duration(x), Val::Duration(y)) => duration(x.checked_sub(y))?,
        (Val::Timestamp(x), Val::Timestamp(y)) => duration(Some(x.signed_duration_since(*y)))?,
        (Val::Timestamp(t), Val::Duration(d)) => timestamp(t.checked_sub_signed(*d))?,
        _ => return Err(Error::no_such_overload()),
    })
}

fn duration<'a>(d: Option<TimeDelta>) -> Result<Val<'a>> {
    match d {
        Some(d) if d.num_nanoseconds().is_some() => Ok(Val::Duration(d)),
        _ => Err(Error::new("duration overflow")),
    }
}

fn timestamp<'a>(t: Option<chrono::DateTime<chrono::FixedOffset>>) -> Result<Val<'a>> {
    match t {
        Some(t) if time::timestamp_in_range(&t) => Ok(Val::Timestamp(t)),
        _ => Err(Error::new("timestamp overflow")),
    }
}

/// `cel.@mapInsert` of the two-variable comprehensions: `map` with the
/// entry `key: value`, or with the entries of another map (`args`); a key already
/// there is an error (cel-go's `types.InsertMapKeyValue`).
fn map_insert<'a>(map: &Map<'a>, args: &[&Val<'a>]) -> Result<Val<'a>> {
    let added = match args {
        [Val::Map(update)] => {
            let mut added = Vec::with_capacity(update.len());
            for key in update.keys() {
                let value = update.get(&key)?.ok_or_else(|| Error::new("no such key"))?;
                added.push((key, value));
            }
            added
        }
        [key, value] => vec![((*key).clone(), (*value).clone())],
        _ => return Err(Error::no_such_overload()),
    };
    let mut entries = Vec::with_capacity(map.len() + added.len());
    for key in map.keys() {
        let value = map.get(&key)?.ok_or_else(|| Error::new("no such key"))?;
        entries.push((key, value));
    }
    for (key, value) in added {
        for (k, _) in &entries {
            if equals(k, &key)? {
                return Err(Error::new(format!("insert failed: key {} already exists", display(&key))));
            }
        }
        entries.push((key, value));
    }
    Ok(Val::Map(Map::Owned(Rc::new(entries))))
}

/// `_*_`, `_/_`, `_%_`.
pub(crate) fn arithmetic<'a>(op: &str, a: &Val<'a>, b: &Val<'a>) -> Result<Val<'a>> {
    Ok(match (op, a, b) {
        ("*", Val::Int(x), Val::Int(y)) => Val::Int(x.checked_mul(*y).ok_or_else(overflow)?),
        ("*", Val::Uint(x), Val::Uint(y)) => Val::Uint(x.checked_mul(*y).ok_or_else(uint_overflow)?),
        ("*", Val::Double(x), Val::Double(y)) => Val::Double(x * y),
        ("/", Val::Int(_), Val::Int(0)) | ("/", Val::Uint(_), Val::Uint(0)) => {
            return Err(Error::new("division by zero"));
        }
        ("/", Val::Int(x), Val::Int(y)) => Val::Int(x.checked_div(*y).ok_or_else(overflow)?),
        ("/", Val::Uint(x), Val::Uint(y)) => Val::Uint(x / y),
        ("/", Val::Double(x), Val::Double(y)) => Val::Double(x / y),
        ("%", Val::Int(_), Val::Int(0)) | ("%", Val::Uint(_), Val::Uint(0)) => {
            return Err(Error::new("modulus by zero"));
        }
        ("%", Val::Int(x), Val::Int(y)) => Val::Int(x.checked_rem(*y).ok_or_else(overflow)?),
        ("%", Val::Uint(x), Val::Uint(y)) => Val::Uint(x % y),
        _ => return Err(Error::no_such_overload()),
    })
}

/// `-_`.
pub(crate) fn negate<'a>(a: &Val<'a>) -> Result<Val<'a>> {
    match a {
        Val::Int(x) => Ok(Val::Int(x.checked_neg().ok_or_else(overflow)?)),
        Val::Double(x) => Ok(Val::Double(-x)),
        Val::Duration(d) => duration(Some(-*d)),
        _ => Err(Error::no_such_overload()),
    }
}

/// `e in list` and `key in map`.
pub(crate) fn in_<'a>(e: &Val<'a>, container: &Val<'a>) -> Result<bool> {
    match container {
        Val::List(l) => {
            for v in l.elements() {
                if equals(&v?, e)? {
                    return Ok(true);
                }
            }
            Ok(false)
        }
        Val::Map(m) => Ok(m.get(e)?.is_some()),
        _ => Err(Error::no_such_overload()),
    }
}

/// The standard functions other than operators and optionals: `None` when
/// `name` is not one of them (or not for these argument types, where a
/// Kubernetes library may still define it).
pub(crate) fn call<'a>(name: &str, target: Option<&Val<'a>>, args: &[Val<'a>]) -> Option<Result<Val<'a>>> {
    let all: Vec<&Val<'a>> = target.into_iter().chain(args).collect();
    Some(match (name, all.as_slice()) {
        ("size", [v]) => match v.size() {
            Some(n) => Ok(Val::Int(n as i64)),
            None => Err(Error::no_such_overload()),
        },
        ("contains", [Val::String(s), Val::String(sub)]) => Ok(Val::Bool(s.contains(&**sub))),
        ("startsWith", [Val::String(s), Val::String(p)]) => Ok(Val::Bool(s.starts_with(&**p))),
        ("endsWith", [Val::String(s), Val::String(p)]) => Ok(Val::Bool(s.ends_with(&**p))),
        ("matches", [Val::String(s), Val::String(re)]) => matches(s, re).map(Val::Bool),
        ("int", [v]) => to_int(v),
        ("uint", [v]) => to_uint(v),
        ("double", [v]) => to_double(v),
        ("string", [v]) if !matches!(v, Val::Ext(_)) => to_string(v).map(|s| Val::String(Rc::from(s))),
        ("bytes", [Val::String(s)]) => Ok(Val::Bytes(Rc::from(s.as_bytes()))),
        ("bytes", [Val::Bytes(b)]) => Ok(Val::Bytes(b.clone())),
        ("bool", [v]) => to_bool(v),
        ("dyn", [v]) => Ok((*v).clone()),
        ("type", [v]) => Ok(Val::Type(v.type_name())),
        ("duration", [Val::String(s)]) => time::parse_go_duration(s)
            .map(Val::Duration)
            .ok_or_else(|| Error::new(format!("time: invalid duration {}", crate::gofmt::quote(s)))),
        ("duration", [Val::Duration(d)]) => Ok(Val::Duration(*d)),
        ("timestamp", [Val::String(s)]) => time::parse_timestamp(s)
            .filter(time::timestamp_in_range)
            .map(Val::Timestamp)
            .ok_or_else(|| Error::new(format!("cannot parse {} as a timestamp", crate::gofmt::quote(s)))),
        ("timestamp", [Val::Timestamp(t)]) => Ok(Val::Timestamp(*t)),
        (super::macros::MAP_INSERT, [Val::Map(map), rest @ ..]) => map_insert(map, rest),
        // Seconds since the epoch, within years 1 to 9999.
        ("timestamp", [Val::Int(seconds)]) => {
            timestamp(chrono::DateTime::from_timestamp(*seconds, 0).map(|t| t.fixed_offset()))
        }
        _ => return None,
    })
}

fn to_int<'a>(v: &Val<'a>) -> Result<Val<'a>> {
    Ok(Val::Int(match v {
        Val::Int(i) => *i,
        Val::Uint(u) => i64::try_from(*u).map_err(|_| overflow())?,
        Val::Double(d) if *d >= -9.223_372_036_854_776e18 && *d < 9.223_372_036_854_776e18 => *d as i64,
        Val::Double(_) => return Err(overflow()),
        Val::String(s) => s.parse().map_err(|e| int_parse_error("ParseInt", s, &e))?,
        Val::Timestamp(t) => t.timestamp(),
        _ => return Err(Error::no_such_overload()),
    }))
}

fn to_uint<'a>(v: &Val<'a>) -> Result<Val<'a>> {
    Ok(Val::Uint(match v {
        Val::Uint(u) => *u,
        Val::Int(i) => u64::try_from(*i).map_err(|_| uint_overflow())?,
        Val::Double(d) if *d >= 0.0 && *d < 1.844_674_407_370_955_2e19 => *d as u64,
        Val::Double(_) => return Err(uint_overflow()),
        Val::String(s) => s.parse().map_err(|e| int_parse_error("ParseUint", s, &e))?,
        _ => return Err(Error::no_such_overload()),
    }))
}

fn to_double<'a>(v: &Val<'a>) -> Result<Val<'a>> {
    Ok(Val::Double(match v {
        Val::Double(d) => *d,
        Val::Int(i) => *i as f64,
        Val::Uint(u) => *u as f64,
        Val::String(s) => parse_float(s)?,
        _ => return Err(Error::no_such_overload()),
    }))
}

fn to_bool<'a>(v: &Val<'a>) -> Result<Val<'a>> {
    match v {
        Val::Bool(b) => Ok(Val::Bool(*b)),
        Val::String(s) => match &**s {
            "1" | "t" | "T" | "TRUE" | "true" | "True" => Ok(Val::Bool(true)),
            "0" | "f" | "F" | "FALSE" | "false" | "False" => Ok(Val::Bool(false)),
            _ => Err(parse_error("ParseBool", s)),
        },
        _ => Err(Error::no_such_overload()),
    }
}

fn parse_error(function: &str, s: &str) -> Error {
    Error::new(format!("strconv.{function}: parsing {}: invalid syntax", crate::gofmt::quote(s)))
}

fn range_error(function: &str, s: &str) -> Error {
    Error::new(format!("strconv.{function}: parsing {}: value out of range", crate::gofmt::quote(s)))
}

// Go's `strconv` tells a number too large for 64 bits from one that is no
// number at all.
fn int_parse_error(function: &str, s: &str, e: &std::num::ParseIntError) -> Error {
    match e.kind() {
        std::num::IntErrorKind::PosOverflow | std::num::IntErrorKind::NegOverflow => range_error(function, s),
        _ => parse_error(function, s),
    }
}

// Go's `ParseFloat` fails on a finite number beyond float64, where Rust's
// `parse` gives an infinity; an infinity spelled out is fine in both.
fn parse_float(s: &str) -> Result<f64> {
    let value: f64 = s.parse().map_err(|_| parse_error("ParseFloat", s))?;
    let spelled = s.trim_start_matches(['+', '-']).get(..3).is_some_and(|head| head.eq_ignore_ascii_case("inf"));
    if value.is_infinite() && !spelled {
        return Err(range_error("ParseFloat", s));
    }
    Ok(value)
}

/// A value as cel-go prints it inside error texts (`%v`): its `string()`
/// form, or its type's name.
pub(crate) fn display(v: &Val<'_>) -> String {
    to_string(v).unwrap_or_else(|_| v.type_name().to_string())
}

/// `string(v)`.
pub(crate) fn to_string(v: &Val<'_>) -> Result<String> {
    Ok(match v {
        Val::String(s) => s.to_string(),
        Val::Int(i) => i.to_string(),
        Val::Uint(u) => u.to_string(),
        Val::Double(d) => crate::gofmt::float_v(*d),
        Val::Bool(b) => b.to_string(),
        Val::Bytes(b) => {
            String::from_utf8(b.to_vec()).map_err(|_| Error::new("invalid UTF-8 in bytes, cannot convert to string"))?
        }
        Val::Timestamp(t) => time::format_timestamp(t),
        Val::Duration(d) => time::format_duration(d),
        Val::Type(t) => t.to_string(),
        _ => return Err(Error::no_such_overload()),
    })
}

thread_local! {
    /// Compiled patterns of `matches`, so a rule run over many elements
    /// compiles each pattern once.
    static REGEXES: RefCell<HashMap<String, std::result::Result<regex::Regex, String>>> = RefCell::new(HashMap::new());
}

/// `s.matches(re)`: an unanchored RE2 search.
pub(crate) fn matches(s: &str, re: &str) -> Result<bool> {
    REGEXES.with(|cache| {
        let mut cache = cache.borrow_mut();
        if cache.len() > 256 {
            cache.clear();
        }
        let compiled = cache.entry(re.to_owned()).or_insert_with(|| {
            regex::RegexBuilder::new(re)
                .size_limit(1 << 20)
                .build()
                .map_err(|e| format!("error parsing regexp: {}", e.to_string().lines().last().unwrap_or_default()))
        });
        match compiled {
            Ok(r) => Ok(r.is_match(s)),
            Err(e) => Err(Error::new(e.clone())),
        }
    })
}

/// The runtime cost of a call of a standard function or operator, as
/// cel-go's `CostTracker.costCall`; `args` includes the receiver of a
/// method call first.
pub(crate) fn call_cost(name: &str, args: &[Val<'_>]) -> u64 {
    let size = |i: usize| args.get(i).map_or(1, Val::cost_size) as f64;
    let traversal = |n: f64| (n * STRING_TRAVERSAL_COST_FACTOR).ceil() as u64;
    let strings_or_bytes = |v: &Val<'_>| matches!(v, Val::String(_) | Val::Bytes(_));
    match name {
        "startsWith" | "endsWith" if args.first().is_some_and(strings_or_bytes) => traversal(size(0)),
        "bytes" if args.first().is_some_and(|v| matches!(v, Val::String(_))) => traversal(size(0)),
        "string" if args.first().is_some_and(|v| matches!(v, Val::Bytes(_))) => traversal(size(0)),
        "@in" if matches!(args.get(1), Some(Val::List(_))) => size(1) as u64,
        "_==_" | "_!=_" => traversal(size(0).min(size(1))),
        "_<_" | "_<=_" | "_>_" | "_>=_" if args.first().is_some_and(strings_or_bytes) => {
            traversal(size(0).min(size(1)))
        }
        "_+_" if args.first().is_some_and(strings_or_bytes) => traversal(size(0) + size(1)),
        "matches" if args.first().is_some_and(strings_or_bytes) => {
            let string_cost = ((1.0 + size(0)) * STRING_TRAVERSAL_COST_FACTOR).ceil() as u64;
            let regex_cost = (size(1) * REGEX_STRING_LENGTH_COST_FACTOR).ceil() as u64;
            string_cost.saturating_mul(regex_cost)
        }
        "contains" if args.first().is_some_and(strings_or_bytes) => {
            traversal(size(0)).saturating_mul(traversal(size(1)))
        }
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_arithmetic_checks_overflow() {
        assert_eq!(add(&Val::Int(i64::MAX), &Val::Int(1)).unwrap_err(), overflow());
        assert_eq!(arithmetic("/", &Val::Int(1), &Val::Int(0)).unwrap_err(), Error::new("division by zero"));
        assert_eq!(arithmetic("%", &Val::Int(1), &Val::Int(0)).unwrap_err(), Error::new("modulus by zero"));
        assert!(matches!(arithmetic("/", &Val::Double(1.0), &Val::Double(0.0)), Ok(Val::Double(f)) if f.is_infinite()));
        assert_eq!(add(&Val::Int(1), &Val::Double(1.0)).unwrap_err(), Error::no_such_overload());
    }

    #[test]
    fn numbers_compare_across_types() {
        assert_eq!(compare(&Val::Int(1), &Val::Double(1.5)).unwrap(), Some(Ordering::Less));
        assert_eq!(compare(&Val::Uint(3), &Val::Int(-1)).unwrap(), Some(Ordering::Greater));
        assert_eq!(compare(&Val::Double(f64::NAN), &Val::Int(1)).unwrap(), None);
        assert!(compare(&Val::string("a"), &Val::Int(1)).is_err());
    }

    #[test]
    fn conversions_and_strings() {
        assert!(matches!(to_int(&Val::string("12")), Ok(Val::Int(12))));
        assert_eq!(
            to_int(&Val::string("x")).unwrap_err(),
            Error::new("strconv.ParseInt: parsing \"x\": invalid syntax")
        );
        assert_eq!(to_string(&Val::Double(2.0)).unwrap(), "2");
        assert!(matches("abc", "b+").unwrap());
    }

    #[test]
    fn conversions_beyond_64_bits_are_out_of_range() {
        let out_of_range = |f: &str, s: &str| Error::new(format!("strconv.{f}: parsing \"{s}\": value out of range"));
        assert_eq!(
            to_int(&Val::string("9223372036854775808")).unwrap_err(),
            out_of_range("ParseInt", "9223372036854775808")
        );
        assert!(matches!(to_int(&Val::string("-9223372036854775808")), Ok(Val::Int(i64::MIN))));
        assert_eq!(
            to_uint(&Val::string("18446744073709551616")).unwrap_err(),
            out_of_range("ParseUint", "18446744073709551616")
        );
        assert_eq!(to_double(&Val::string("1e309")).unwrap_err(), out_of_range("ParseFloat", "1e309"));
        assert!(matches!(to_double(&Val::string("-Inf")), Ok(Val::Double(d)) if d == f64::NEG_INFINITY));
        assert!(matches!(to_double(&Val::string("1e-400")), Ok(Val::Double(d)) if d == 0.0));
        assert_eq!(
            to_double(&Val::string("1e")).unwrap_err(),
            Error::new("strconv.ParseFloat: parsing \"1e\": invalid syntax")
        );
        assert!(matches("abc", "(").is_err());
    }

    #[test]
    fn costs_follow_cel_go() {
        assert_eq!(call_cost("_==_", &[Val::string("singleton"), Val::string("singleton")]), 1);
        assert_eq!(call_cost("startsWith", &[Val::string("kube-everything"), Val::string("kube-everyt")]), 2);
        assert_eq!(call_cost("_<_", &[Val::Int(1), Val::Int(2)]), 1);
        assert_eq!(call_cost("contains", &[Val::string(&"a".repeat(100)), Val::string(&"b".repeat(20))]), 20);
    }
}
