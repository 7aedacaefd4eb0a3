//! Calls of the Kubernetes CEL libraries, implemented by `kube-cel` on
//! `cel` crate values.
//!
//! The interpreter evaluates arguments itself (it has to count their cost);
//! a library function is then called through the `cel` crate by binding the
//! argument values to variables and evaluating a call of those variables.
//! Values cross the boundary in both directions: JSON views become `cel`
//! lists and maps, library values (quantities, IPs, URLs, ...) come back
//! opaque and are passed back as they are.

use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use kube_cel::KubeCelExt as _;
use kube_cel::cel::common::ast::{CallExpr, Expr, IdedExpr};
use kube_cel::cel::objects::{Key, Map as CelMap, OptionalValue};
use kube_cel::cel::{Context, ExecutionError, Value};

use super::value::{Error, List, Map, Result, Val};

/// How deep values may nest when they are copied for a library call.
const MAX_DEPTH: usize = 64;

thread_local! {
    /// The `cel` context with every Kubernetes library function, built
    /// once per thread.
    static CONTEXT: Context<'static> = Context::default().with_all();
}

/// The functions of the Kubernetes libraries (and the `cel` crate's
/// timestamp accessors) that [`call`] can reach. Qualified names
/// (`sets.contains`) are called without a receiver.
pub(crate) const FUNCTIONS: &[&str] = &[
    "add",
    "asApproximateFloat",
    "asInteger",
    "charAt",
    "cidr",
    "compareTo",
    "containsCIDR",
    "containsIP",
    "distinct",
    "family",
    "find",
    "findAll",
    "first",
    "flatten",
    "format",
    "format.byte",
    "format.date",
    "format.datetime",
    "format.dns1035Label",
    "format.dns1035LabelPrefix",
    "format.dns1123Label",
    "format.dns1123LabelPrefix",
    "format.dns1123Subdomain",
    "format.dns1123SubdomainPrefix",
    "format.labelValue",
    "format.named",
    "format.qualifiedName",
    "format.uri",
    "format.uuid",
    "getEscapedPath",
    "getHost",
    "getHostname",
    "getPort",
    "getQuery",
    "getScheme",
    "indexOf",
    "ip",
    "ip.isCanonical",
    "isCIDR",
    "isCIDRv4",
    "isCIDRv6",
    "isGlobalUnicast",
    "isGreaterThan",
    "isIP",
    "isIPv4",
    "isIPv6",
    "isInteger",
    "isLessThan",
    "isLinkLocalMulticast",
    "isLinkLocalUnicast",
    "isLoopback",
    "isQuantity",
    "isSemver",
    "isSorted",
    "isURL",
    "isUnspecified",
    "join",
    "last",
    "lastIndexOf",
    "lists.range",
    "lowerAscii",
    "major",
    "masked",
    "max",
    "min",
    "minor",
    "patch",
    "prefixLength",
    "quantity",
    "replace",
    "reverse",
    "semver",
    "sets.contains",
    "sets.equivalent",
    "sets.intersects",
    "sign",
    "slice",
    "sort",
    "split",
    "string",
    "strings.quote",
    "sub",
    "substring",
    "sum",
    "trim",
    "upperAscii",
    "url",
    "validate",
    "getFullYear",
    "getMonth",
    "getDayOfYear",
    "getDayOfMonth",
    "getDate",
    "getDayOfWeek",
    "getHours",
    "getMinutes",
    "getSeconds",
    "getMilliseconds",
];

/// Calls library function `name` on `target` (for method calls) and
/// `args`.
pub(crate) fn call<'a>(name: &str, target: Option<&Val<'a>>, args: &[Val<'a>]) -> Result<Val<'a>> {
    // The library reads a timestamp in the offset it was written with and
    // takes no time zone; cel-go reads it in UTC (Kubernetes'
    // `DefaultUTCTimeZone`) or in the zone given.
    if name.starts_with("get")
        && let Some(Val::Timestamp(t)) = target
    {
        let offset = match args {
            [] => time_zone("UTC")?,
            [Val::String(zone)] => time_zone(zone)?,
            _ => return Err(Error::no_such_overload()),
        };
        return call_library(name, Some(&Val::Timestamp(t.with_timezone(&offset))), &[]);
    }
    // The library writes durations and timestamps in `%s` as Rust debug
    // output; cel-go writes them as their string conversions (`60s`,
    // `2000-01-01T00:00:00Z`), which is what the library gets instead.
    if name == "format"
        && let [Val::List(list)] = args
        && list.elements().iter().any(|v| matches!(v, Ok(Val::Duration(_) | Val::Timestamp(_))))
    {
        let mut items = Vec::with_capacity(list.len());
        for v in list.elements() {
            items.push(match v? {
                v @ (Val::Duration(_) | Val::Timestamp(_)) => Val::String(super::functions::to_string(&v)?.into()),
                v => v,
            });
        }
        return call_library(name, target, &[Val::list(items)]);
    }
    if name == "sum"
        && let (Some(Val::List(list)), []) = (target, args)
        && let Some(total) = duration_sum(list)
    {
        return total;
    }
    // Kubernetes' `format.named` gives an optional format; the library
    // gives the format, or null for a name it does not know.
    if name == "format.named" {
        return call_library(name, target, args).map(|v| match v {
            Val::Null => Val::Optional(None),
            v => Val::Optional(Some(std::rc::Rc::new(v))),
        });
    }
    call_library(name, target, args)
}

/// `sum()` of a list of durations (the lists library's
/// `list_duration_sum`), which the library behind the bridge does not
/// have; `None` for other lists. An empty list is a list of durations when
/// its schema says so.
fn duration_sum<'a>(list: &List<'a>) -> Option<Result<Val<'a>>> {
    let durations = match list {
        List::Json { node, .. } => matches!(super::schema::decl(*node), Some(super::schema::Ty::Duration)),
        List::Owned { items, .. } => matches!(items.first(), Some(Val::Duration(_))),
    };
    if !durations {
        return None;
    }
    let mut total = chrono::TimeDelta::zero();
    for v in list.elements() {
        match v {
            Ok(Val::Duration(d)) => match total.checked_add(&d).filter(|t| t.num_nanoseconds().is_some()) {
                Some(t) => total = t,
                None => return Some(Err(Error::new("duration overflow"))),
            },
            Ok(_) => return Some(Err(Error::no_such_overload())),
            Err(e) => return Some(Err(e)),
        }
    }
    Some(Ok(Val::Duration(total)))
}

/// [`call`], the library's function as it is.
fn call_library<'a>(name: &str, target: Option<&Val<'a>>, args: &[Val<'a>]) -> Result<Val<'a>> {
    let ident = |id: u64, name: &str| IdedExpr { id, expr: Expr::Ident(name.to_owned()) };
    let arg_names: Vec<String> = (0..args.len()).map(|i| format!("@arg{i}")).collect();
    let expr = IdedExpr {
        id: 1,
        expr: Expr::Call(CallExpr {
            func_name: name.to_owned(),
            target: target.map(|_| Box::new(ident(2, "@target"))),
            args: arg_names.iter().enumerate().map(|(i, n)| ident(3 + i as u64, n)).collect(),
        }),
    };
    let target = target.map(|t| to_cel(t, 0)).transpose()?;
    let args: Vec<Value> = args.iter().map(|a| to_cel(a, 0)).collect::<Result<_>>()?;
    let result = CONTEXT.with(|root| {
        let mut scope = root.new_inner_scope();
        if let Some(t) = target {
            scope.add_variable_from_value("@target", t);
        }
        for (n, a) in arg_names.iter().zip(args) {
            scope.add_variable_from_value(n.as_str(), a);
        }
        // A library function that panics on odd input must not take the
        // validation down with it.
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| Value::resolve(&expr, &scope)))
    });
    match result {
        Ok(Ok(v)) => from_cel(v),
        Ok(Err(e)) => Err(Error::new(message(&e))),
        Err(_) => Err(Error::new(format!("internal error evaluating {name}"))),
    }
}

/// The offset a timestamp getter's time zone argument names, as cel-go
/// reads it: `[+-]HH:MM` (or `HH:MM`) east of UTC, or a zone name. Names
/// other than `UTC` would need the time zone database, which is not
/// carried: they read the time in UTC.
fn time_zone(zone: &str) -> Result<chrono::FixedOffset> {
    let invalid = || Error::new(format!("invalid time zone: {zone}"));
    let minutes = match zone.split_once(':') {
        None => 0,
        Some((hours, minutes)) => {
            let hours: i32 = hours.parse().map_err(|_| invalid())?;
            let minutes: i32 = minutes.parse().map_err(|_| invalid())?;
            if zone.starts_with('-') { hours * 60 - minutes } else { hours * 60 + minutes }
        }
    };
    minutes.checked_mul(60).and_then(chrono::FixedOffset::east_opt).ok_or_else(invalid)
}

/// The runtime cost Kubernetes' library cost estimator
/// (`k8s.io/apiserver/pkg/cel/library.CostEstimator.CallCost`) assigns to a
/// call, `None` where it leaves the cost to cel-go. `args` includes the
/// receiver first.
pub(crate) fn library_cost(name: &str, args: &[Val<'_>], result: &Val<'_>) -> Option<u64> {
    use super::functions::{REGEX_STRING_LENGTH_COST_FACTOR as REGEX, STRING_TRAVERSAL_COST_FACTOR as F};
    let size = |i: usize| args.get(i).map_or(1, Val::cost_size) as f64;
    let ceil = |x: f64| x.ceil() as u64;
    Some(match name {
        "isSorted" | "sum" | "max" | "min" | "indexOf" | "lastIndexOf" => args.first().map_or(0, traversal_cost),
        "url" | "lowerAscii" | "upperAscii" | "substring" | "trim" if !args.is_empty() => ceil(size(0) * F),
        "replace" | "split" if !args.is_empty() => ceil(size(0) * 2.0 * F),
        "join" if !args.is_empty() => ceil(result.cost_size() as f64 * 2.0 * F),
        "find" | "findAll" if args.len() >= 2 => ceil((1.0 + size(0)) * F).saturating_mul(ceil(size(1) * REGEX)),
        "cidr" | "isIP" | "isCIDR" | "quantity" | "isQuantity" if !args.is_empty() => ceil(size(0) * F),
        "ip" if matches!(args.first(), Some(Val::Ext(_))) => 1,
        "ip" if !args.is_empty() => ceil(size(0) * F),
        "ip.isCanonical" if !args.is_empty() => ceil(size(0) * 2.0 * F),
        "masked"
        | "prefixLength"
        | "family"
        | "isUnspecified"
        | "isLoopback"
        | "isLinkLocalMulticast"
        | "isLinkLocalUnicast" => 1,
        "containsIP" if args.len() >= 2 => {
            let base = ceil((size(0) + size(0)) * F);
            if matches!(args[1], Val::String(_)) { base + ceil(size(1) * F) } else { base }
        }
        "containsCIDR" if args.len() >= 2 => {
            let base = ceil((size(0) + size(0)) * F) + ceil(size(0) * F) + 1;
            if matches!(args[1], Val::String(_)) { base + ceil(size(1) * F) } else { base }
        }
        "sign" | "asInteger" | "isInteger" | "asApproximateFloat" | "isGreaterThan" | "isLessThan" | "compareTo"
        | "add" | "sub" => 1,
        _ => return None,
    })
}

/// The cost of traversing a value as a data tree (Kubernetes'
/// `traversalCost`): a tenth of each string's bytes, truncated, summed
/// over lists and maps; 1 for anything else.
fn traversal_cost(v: &Val<'_>) -> u64 {
    match v {
        Val::String(s) => (s.len() as f64 * super::functions::STRING_TRAVERSAL_COST_FACTOR) as u64,
        Val::Bytes(b) => (b.len() as f64 * super::functions::STRING_TRAVERSAL_COST_FACTOR) as u64,
        Val::List(l) => l.elements().iter().map(|e| e.as_ref().map_or(1, traversal_cost)).sum(),
        Val::Map(m) => m
            .keys()
            .iter()
            .map(|k| traversal_cost(k) + m.get(k).ok().flatten().as_ref().map_or(1, traversal_cost))
            .sum(),
        _ => 1,
    }
}

/// The text of a `cel` crate error, close to cel-go's where they differ.
fn message(e: &ExecutionError) -> String {
    match e {
        // Kubernetes' lists library words this one its own way.
        ExecutionError::FunctionError { message, .. } => match message.strip_prefix("cannot call ") {
            Some(rest) if rest.ends_with(" on empty list") => {
                format!("{} called on empty list", rest.trim_end_matches(" on empty list"))
            }
            _ => message.clone(),
        },
        ExecutionError::NoSuchOverload
        | ExecutionError::UnsupportedTargetType { .. }
        | ExecutionError::NotSupportedAsMethod { .. }
        | ExecutionError::UnexpectedType { .. }
        | ExecutionError::InvalidArgumentCount { .. } => "no such overload".to_owned(),
        ExecutionError::NoSuchKey(k) => format!("no such key: {k}"),
        ExecutionError::IndexOutOfBounds(i) => format!("index out of bounds: {i:?}"),
        other => other.to_string(),
    }
}

/// Copies a value for the `cel` crate.
pub(crate) fn to_cel(v: &Val<'_>, depth: usize) -> Result<Value> {
    if depth > MAX_DEPTH {
        return Err(Error::new("value nested too deeply"));
    }
    Ok(match v {
        Val::Null => Value::Null,
        Val::Bool(b) => Value::Bool(*b),
        Val::Int(i) => Value::Int(*i),
        Val::Uint(u) => Value::UInt(*u),
        Val::Double(d) => Value::Float(*d),
        Val::String(s) => Value::String(Arc::new(s.to_string())),
        Val::Bytes(b) => Value::Bytes(Arc::new(b.to_vec())),
        Val::Duration(d) => Value::Duration(*d),
        Val::Timestamp(t) => Value::Timestamp(*t),
        Val::List(l) => {
            let items: Vec<Value> = l.elements().into_iter().map(|e| to_cel(&e?, depth + 1)).collect::<Result<_>>()?;
            Value::List(Arc::new(items))
        }
        Val::Map(m) => {
            let mut map = HashMap::with_capacity(m.len());
            for k in m.keys() {
                let Some(value) = m.get(&k)? else { continue };
                map.insert(key(&k)?, to_cel(&value, depth + 1)?);
            }
            Value::Map(CelMap { map: Arc::new(map) })
        }
        Val::Optional(o) => Value::Opaque(Arc::new(match o {
            Some(inner) => OptionalValue::of(to_cel(inner, depth + 1)?),
            None => OptionalValue::none(),
        })),
        Val::Unknown(json) => json_to_cel(json, depth)?,
        Val::Ext(v) => v.clone(),
        Val::Type(_) => return Err(Error::no_such_overload()),
    })
}

fn key(k: &Val<'_>) -> Result<Key> {
    Ok(match k {
        Val::String(s) => Key::String(Arc::new(s.to_string())),
        Val::Int(i) => Key::Int(*i),
        Val::Uint(u) => Key::Uint(*u),
        Val::Bool(b) => Key::Bool(*b),
        _ => return Err(Error::new("unsupported map key type")),
    })
}

fn json_to_cel(json: &serde_json::Value, depth: usize) -> Result<Value> {
    if depth > MAX_DEPTH {
        return Err(Error::new("value nested too deeply"));
    }
    Ok(match json {
        serde_json::Value::Null => Value::Null,
        serde_json::Value::Bool(b) => Value::Bool(*b),
        serde_json::Value::Number(n) => match n.as_i64() {
            Some(i) => Value::Int(i),
            None => Value::Float(n.as_f64().unwrap_or_default()),
        },
        serde_json::Value::String(s) => Value::String(Arc::new(s.clone())),
        serde_json::Value::Array(items) => {
            Value::List(Arc::new(items.iter().map(|i| json_to_cel(i, depth + 1)).collect::<Result<_>>()?))
        }
        serde_json::Value::Object(obj) => {
            let mut map = HashMap::with_capacity(obj.len());
            for (k, v) in obj {
                map.insert(Key::String(Arc::new(k.clone())), json_to_cel(v, depth + 1)?);
            }
            Value::Map(CelMap { map: Arc::new(map) })
        }
    })
}

/// Takes a result back from the `cel` crate.
pub(crate) fn from_cel<'a>(v: Value) -> Result<Val<'a>> {
    Ok(match v {
        Value::Null => Val::Null,
        Value::Bool(b) => Val::Bool(b),
        Value::Int(i) => Val::Int(i),
        Value::UInt(u) => Val::Uint(u),
        Value::Float(f) => Val::Double(f),
        Value::String(s) => Val::string(&s),
        Value::Bytes(b) => Val::Bytes(Rc::from(b.as_slice())),
        Value::Duration(d) => Val::Duration(d),
        Value::Timestamp(t) => Val::Timestamp(t),
        Value::List(items) => Val::list(items.iter().cloned().map(from_cel).collect::<Result<_>>()?),
        Value::Map(m) => {
            let mut entries = Vec::with_capacity(m.map.len());
            for (k, v) in m.map.iter() {
                let k = match k {
                    Key::Int(i) => Val::Int(*i),
                    Key::Uint(u) => Val::Uint(*u),
                    Key::Bool(b) => Val::Bool(*b),
                    Key::String(s) => Val::string(s),
                };
                entries.push((k, from_cel(v.clone())?));
            }
            Val::Map(Map::Owned(Rc::new(entries)))
        }
        Value::Opaque(o) => match o.downcast_ref::<OptionalValue>() {
            Some(opt) => Val::Optional(opt.value().cloned().map(from_cel).transpose()?.map(Rc::new)),
            None => Val::Ext(Value::Opaque(o)),
        },
        Value::Function(..) => return Err(Error::no_such_overload()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn library_functions_are_reachable() {
        assert!(matches!(call("lowerAscii", Some(&Val::string("AbC")), &[]), Ok(Val::String(s)) if &*s == "abc"));
        let q = call("quantity", None, &[Val::string("1Gi")]).unwrap();
        assert!(matches!(q, Val::Ext(_)));
        let bigger = call("quantity", None, &[Val::string("2Gi")]).unwrap();
        assert!(matches!(call("isGreaterThan", Some(&bigger), &[q]), Ok(Val::Bool(true))));
        let list = Val::list(vec![Val::Int(1), Val::Int(2)]);
        assert!(matches!(call("sets.contains", None, &[list.clone(), list]), Ok(Val::Bool(true))));
        assert!(call("noSuchFunction", None, &[]).is_err());
    }
}
