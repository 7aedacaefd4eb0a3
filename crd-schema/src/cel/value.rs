//! CEL values over JSON data (`k8s.io/apiserver/pkg/cel/common.UnstructuredToVal`).
//!
//! Data is converted lazily, as Kubernetes does: a list or an object is a
//! view of the JSON with its schema [`Node`], and elements are converted
//! when a rule reaches them. The schema decides the CEL type: `number`
//! values are doubles even when written as integers, `integer` values must
//! be integers, `int-or-string` values are either, strings with format
//! `byte`, `duration`, `date` or `date-time` become bytes, durations and
//! timestamps. Values the schema does not describe
//! (`x-kubernetes-preserve-unknown-fields`) only support equality.

use std::rc::Rc;

use chrono::{DateTime, FixedOffset, TimeDelta};
use serde_json::{Map as JsonMap, Value as Json};

use super::schema::Node;
use super::time;

/// An evaluation error: a CEL error value (absorbed by `&&`, `||` and the
/// `all`/`exists` macros as the language defines), or the cancellation of
/// the evaluation when its cost exceeds the limit.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Error {
    Eval(Rc<str>),
    Cancelled,
}

impl Error {
    pub fn new(message: impl Into<String>) -> Self {
        Error::Eval(Rc::from(message.into()))
    }

    pub fn no_such_overload() -> Self {
        Error::new("no such overload")
    }
}

pub(crate) type Result<T, E = Error> = std::result::Result<T, E>;

/// How a JSON list compares: `set` and `map` lists ignore element order.
#[derive(Clone, Copy, Debug)]
pub(crate) enum ListKind<'a> {
    Atomic,
    Set,
    Map(&'a [String]),
}

/// A CEL list.
#[derive(Clone, Debug)]
pub(crate) enum List<'a> {
    /// A JSON array; `node` is the schema of its items.
    Json { items: &'a [Json], node: Node<'a>, kind: ListKind<'a> },
    /// Built by the rule: a literal, a result; `kind` is a `set` or `map`
    /// list's when it is the concatenation of one with another list.
    Owned { items: Rc<Vec<Val<'a>>>, kind: ListKind<'a> },
}

/// A CEL map.
#[derive(Clone, Debug)]
pub(crate) enum Map<'a> {
    /// A JSON object whose schema declares properties: keys are the
    /// properties' CEL field names.
    Object {
        obj: &'a JsonMap<String, Json>,
        node: Node<'a>,
    },
    /// A JSON object under `additionalProperties` (`values` is its schema),
    /// or an object preserving unknown fields (`values` is `None`).
    Json {
        obj: &'a JsonMap<String, Json>,
        values: Option<Node<'a>>,
    },
    Owned(Rc<Vec<(Val<'a>, Val<'a>)>>),
}

/// A CEL value.
#[derive(Clone, Debug)]
pub(crate) enum Val<'a> {
    Null,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Double(f64),
    String(Rc<str>),
    Bytes(Rc<[u8]>),
    Duration(TimeDelta),
    Timestamp(DateTime<FixedOffset>),
    List(List<'a>),
    Map(Map<'a>),
    Optional(Option<Rc<Val<'a>>>),
    /// A type value, by its CEL name.
    Type(Rc<str>),
    /// Data the schema does not describe; only equality is defined.
    Unknown(&'a Json),
    /// A value of a Kubernetes library type, computed by `kube-cel`.
    Ext(kube_cel::cel::Value),
}

impl<'a> Val<'a> {
    pub fn string(s: &str) -> Self {
        Val::String(Rc::from(s))
    }

    pub fn list(items: Vec<Val<'a>>) -> Self {
        Val::List(List::Owned { items: Rc::new(items), kind: ListKind::Atomic })
    }

    /// The CEL type name of this value (`type(x)`).
    pub fn type_name(&self) -> Rc<str> {
        Rc::from(match self {
            Val::Null => "null_type",
            Val::Bool(_) => "bool",
            Val::Int(_) => "int",
            Val::Uint(_) => "uint",
            Val::Double(_) => "double",
            Val::String(_) => "string",
            Val::Bytes(_) => "bytes",
            Val::Duration(_) => "google.protobuf.Duration",
            Val::Timestamp(_) => "google.protobuf.Timestamp",
            Val::List(_) => "list",
            Val::Map(Map::Object { .. }) => "object",
            Val::Map(_) => "map",
            Val::Optional(_) => "optional_type",
            Val::Type(_) => "type",
            Val::Unknown(_) => "unknown",
            Val::Ext(v) => return Rc::from(ext_type_name(v)),
        })
    }

    /// `size()` of strings (code points), bytes, lists and maps; cel-go's
    /// cost model counts 1 for everything else.
    pub fn size(&self) -> Option<usize> {
        match self {
            Val::String(s) => Some(s.chars().count()),
            Val::Bytes(b) => Some(b.len()),
            Val::List(l) => Some(l.len()),
            Val::Map(m) => Some(m.len()),
            _ => None,
        }
    }

    /// The size used by the cost model.
    pub fn cost_size(&self) -> u64 {
        self.size().map_or(1, |n| n as u64)
    }
}

/// The name of a `kube-cel` value's type, as Kubernetes calls it.
pub(crate) fn ext_type_name(v: &kube_cel::cel::Value) -> String {
    match v {
        kube_cel::cel::Value::Opaque(o) => {
            let name = o.runtime_type_name();
            name.rsplit('.').next().unwrap_or(name).to_ascii_lowercase()
        }
        other => format!("{}", other.type_of()),
    }
}

impl<'a> List<'a> {
    pub fn len(&self) -> usize {
        match self {
            List::Json { items, .. } => items.len(),
            List::Owned { items, .. } => items.len(),
        }
    }

    /// Element `i`; out-of-range indices are cel-go's error.
    pub fn get(&self, i: i64) -> Result<Val<'a>> {
        let index = usize::try_from(i).ok().filter(|&i| i < self.len());
        let Some(index) = index else { return Err(Error::new(format!("index out of bounds: {i}"))) };
        match self {
            List::Json { items, node, .. } => from_json(&items[index], *node),
            List::Owned { items, .. } => Ok(items[index].clone()),
        }
    }

    /// Every element, converted (errors stay per element).
    pub fn elements(&self) -> Vec<Result<Val<'a>>> {
        match self {
            List::Json { items, node, .. } => items.iter().map(|v| from_json(v, *node)).collect(),
            List::Owned { items, .. } => items.iter().cloned().map(Ok).collect(),
        }
    }

    /// How the list compares and concatenates.
    pub fn kind(&self) -> ListKind<'a> {
        match self {
            List::Json { kind, .. } | List::Owned { kind, .. } => *kind,
        }
    }

    /// `_+_`: a `set` list takes the other list's elements it does not
    /// hold yet; a `map` list's element is replaced by the other list's
    /// element with the same keys, the rest appended (Kubernetes'
    /// `unstructuredSetList` and `unstructuredMapList`). The result keeps
    /// the list type; any other list concatenates.
    pub fn concat(&self, other: &List<'a>) -> Result<Val<'a>> {
        let mut items: Vec<Val<'a>> = Vec::with_capacity(self.len() + other.len());
        for v in self.elements() {
            items.push(v?);
        }
        let kind = self.kind();
        for v in other.elements() {
            let v = v?;
            match kind {
                ListKind::Atomic => items.push(v),
                ListKind::Set => {
                    if position(&items, |item| equals(item, &v))?.is_none() {
                        items.push(v);
                    }
                }
                ListKind::Map(keys) => match position_by_key(&items, keys, &v)? {
                    Some(i) => items[i] = v,
                    None => items.push(v),
                },
            }
        }
        Ok(Val::List(List::Owned { items: Rc::new(items), kind }))
    }
}

/// The index of the first of `items` that `matches`.
fn position<'a>(items: &[Val<'a>], mut matches: impl FnMut(&Val<'a>) -> Result<bool>) -> Result<Option<usize>> {
    for (i, item) in items.iter().enumerate() {
        if matches(item)? {
            return Ok(Some(i));
        }
    }
    Ok(None)
}

/// The index of the element of a map list's `items` with `element`'s keys.
fn position_by_key<'a>(items: &[Val<'a>], keys: &[String], element: &Val<'a>) -> Result<Option<usize>> {
    let key = map_key(element, keys)?;
    position(items, |item| keys_equal(&map_key(item, keys)?, &key))
}

/// The values of a map list element's key fields (`None` where absent).
fn map_key<'a>(element: &Val<'a>, keys: &[String]) -> Result<Vec<Option<Val<'a>>>> {
    let Val::Map(m) = element else { return Ok(vec![None; keys.len()]) };
    keys.iter().map(|k| m.get(&Val::string(&super::escape::escape(k).unwrap_or_else(|| k.clone())))).collect()
}

fn keys_equal<'a>(a: &[Option<Val<'a>>], b: &[Option<Val<'a>>]) -> Result<bool> {
    for (x, y) in a.iter().zip(b) {
        let same = match (x, y) {
            (None, None) => true,
            (Some(x), Some(y)) => equals(x, y)?,
            _ => false,
        };
        if !same {
            return Ok(false);
        }
    }
    Ok(true)
}

impl<'a> Map<'a> {
    pub fn len(&self) -> usize {
        match self {
            Map::Object { obj, .. } | Map::Json { obj, .. } => obj.len(),
            Map::Owned(entries) => entries.len(),
        }
    }

    /// The value under `key`, `None` when absent. In objects a `null`
    /// field counts as absent, as Kubernetes treats it like an unset
    /// optional field.
    pub fn get(&self, key: &Val<'a>) -> Result<Option<Val<'a>>> {
        match self {
            Map::Object { obj, node } => {
                let Val::String(name) = key else { return Ok(None) };
                let found = if super::escape::is_plain(name) {
                    node.property(name).map(|child| (&**name, child))
                } else {
                    node.find_property(|k| super::escape::designates(name, k))
                };
                let Some((json_key, child)) = found else { return Ok(None) };
                match obj.get(json_key) {
                    None | Some(Json::Null) => Ok(None),
                    Some(v) => from_json(v, child).map(Some),
                }
            }
            Map::Json { obj, values } => {
                let Val::String(name) = key else { return Ok(None) };
                match (obj.get(&**name), values) {
                    (Some(v), Some(node)) => from_json(v, *node).map(Some),
                    _ => Ok(None),
                }
            }
            Map::Owned(entries) => {
                for (k, v) in entries.iter() {
                    if equals(k, key)? {
                        return Ok(Some(v.clone()));
                    }
                }
                Ok(None)
            }
        }
    }

    /// The keys, in order.
    pub fn keys(&self) -> Vec<Val<'a>> {
        match self {
            Map::Object { obj, node } => node
                .properties()
                .into_iter()
                .filter(|(k, _)| obj.get(*k).is_some_and(|v| !v.is_null()))
                .filter_map(|(k, _)| super::escape::escape(k).map(|e| Val::string(&e)))
                .collect(),
            Map::Json { obj, .. } => obj.keys().map(|k| Val::string(k)).collect(),
            Map::Owned(entries) => entries.iter().map(|(k, _)| k.clone()).collect(),
        }
    }
}

/// Converts `json` under the schema `node`.
pub(crate) fn from_json<'a>(json: &'a Json, node: Node<'a>) -> Result<Val<'a>> {
    let s = node.schema;
    if json.is_null() {
        return if s.generic.nullable {
            Ok(Val::Null)
        } else {
            Err(Error::new("invalid data, got null for schema with nullable=false"))
        };
    }
    if s.extensions.x_int_or_string {
        return match json {
            Json::String(v) => Ok(Val::string(v)),
            Json::Number(n) if n.is_i64() => Ok(Val::Int(n.as_i64().unwrap_or_default())),
            _ => Err(Error::new("invalid data, expected XIntOrString value to be either a string or integer")),
        };
    }
    match node.type_() {
        "object" => object(json, node),
        "array" => array(json, node),
        "string" => string(json, node.format()),
        "number" => match json.as_f64() {
            Some(f) if json.is_number() => Ok(Val::Double(f)),
            _ => Err(Error::new(format!("invalid data, expected float, got {}", crate::gofmt::go_type(json)))),
        },
        "integer" => match json.as_i64() {
            Some(i) => Ok(Val::Int(i)),
            None => Err(Error::new(format!("invalid data, expected int, got {}", crate::gofmt::go_type(json)))),
        },
        "boolean" => match json {
            Json::Bool(b) => Ok(Val::Bool(*b)),
            _ => Err(Error::new(format!("invalid data, expected bool, got {}", crate::gofmt::go_type(json)))),
        },
        _ if s.extensions.x_preserve_unknown_fields => Ok(Val::Unknown(json)),
        t => Err(Error::new(format!(
            "invalid type, expected object, array, number, integer, boolean or string, or no type with \
             x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields is true, got {t}"
        ))),
    }
}

fn object<'a>(json: &'a Json, node: Node<'a>) -> Result<Val<'a>> {
    let Json::Object(obj) = json else {
        return Err(Error::new("invalid data, expected a map for the provided schema with type=object"));
    };
    if node.has_properties() {
        return Ok(Val::Map(Map::Object { obj, node }));
    }
    if let Some(values) = node.additional_properties() {
        return Ok(Val::Map(Map::Json { obj, values: Some(values) }));
    }
    if node.schema.extensions.x_preserve_unknown_fields {
        return Ok(Val::Map(Map::Json { obj, values: None }));
    }
    Err(Error::new(
        "invalid object type, expected either Properties or AdditionalProperties with Allows=true and non-empty Schema",
    ))
}

fn array<'a>(json: &'a Json, node: Node<'a>) -> Result<Val<'a>> {
    let Json::Array(items) = json else {
        return Err(Error::new("invalid data, expected an array for the provided schema with type=array"));
    };
    let Some(items_node) = node.items() else {
        return Err(Error::new("invalid array type, expected Items with a non-empty Schema"));
    };
    let kind = match node.schema.extensions.x_list_type.as_deref() {
        None | Some("atomic") => ListKind::Atomic,
        Some("set") => ListKind::Set,
        Some("map") => ListKind::Map(node.schema.extensions.x_list_map_keys.as_deref().unwrap_or_default()),
        Some(other) => {
            return Err(Error::new(format!(
                "invalid x-kubernetes-list-type, expected 'map', 'set' or 'atomic' but got {other}"
            )));
        }
    };
    Ok(Val::List(List::Json { items, node: items_node, kind }))
}

fn string<'a>(json: &'a Json, format: &str) -> Result<Val<'a>> {
    let Json::String(s) = json else {
        return Err(Error::new(format!("invalid data, expected string, got {}", crate::gofmt::go_type(json))));
    };
    match format {
        "duration" => time::parse_schema_duration(s)
            .map(Val::Duration)
            .ok_or_else(|| Error::new(format!("Invalid duration {s}: time: invalid duration {}", go_quote(s)))),
        "date" => time::parse_date(s)
            .map(Val::Timestamp)
            .ok_or_else(|| Error::new(format!("Invalid date formatted string {s}"))),
        "date-time" => time::parse_date_time(s)
            .map(Val::Timestamp)
            .ok_or_else(|| Error::new(format!("Invalid date-time formatted string {s}"))),
        "byte" => {
            use base64::Engine as _;
            base64::engine::general_purpose::STANDARD
                .decode(s)
                .map(|b| Val::Bytes(Rc::from(b)))
                .map_err(|e| Error::new(format!("Invalid byte formatted string {s}: {e}")))
        }
        _ => Ok(Val::string(s)),
    }
}

fn go_quote(s: &str) -> String {
    crate::gofmt::quote(s)
}

/// CEL equality (heterogeneous: values of different types are unequal,
/// numbers compare by value). Lists with `x-kubernetes-list-type: set` or
/// `map` compare regardless of order.
pub(crate) fn equals<'a>(a: &Val<'a>, b: &Val<'a>) -> Result<bool> {
    Ok(match (a, b) {
        (Val::Null, Val::Null) => true,
        (Val::Bool(x), Val::Bool(y)) => x == y,
        (Val::String(x), Val::String(y)) => x == y,
        (Val::Bytes(x), Val::Bytes(y)) => x == y,
        (Val::Duration(x), Val::Duration(y)) => x == y,
        (Val::Timestamp(x), Val::Timestamp(y)) => x == y,
        (Val::Type(x), Val::Type(y)) => x == y,
        (Val::Int(_) | Val::Uint(_) | Val::Double(_), Val::Int(_) | Val::Uint(_) | Val::Double(_)) => {
            super::functions::compare_numbers(a, b) == Some(std::cmp::Ordering::Equal)
        }
        (Val::List(x), Val::List(y)) => lists_equal(x, y)?,
        (Val::Map(x), Val::Map(y)) => maps_equal(x, y)?,
        (Val::Optional(x), Val::Optional(y)) => match (x, y) {
            (None, None) => true,
            (Some(x), Some(y)) => equals(x, y)?,
            _ => false,
        },
        (Val::Unknown(x), Val::Unknown(y)) => x == y,
        (Val::Ext(x), Val::Ext(y)) => x == y,
        _ => false,
    })
}

fn lists_equal<'a>(x: &List<'a>, y: &List<'a>) -> Result<bool> {
    if x.len() != y.len() {
        return Ok(false);
    }
    let ys = y.elements();
    match x {
        List::Json { kind: ListKind::Set, .. } | List::Owned { kind: ListKind::Set, .. } => {
            for a in x.elements() {
                let a = a?;
                if !contains(&ys, &a)? {
                    return Ok(false);
                }
            }
            Ok(true)
        }
        List::Json { items, kind: ListKind::Map(keys), node } => map_lists_equal(items, keys, *node, &ys),
        List::Owned { items, kind: ListKind::Map(keys) } => {
            for y in &ys {
                let y = y.as_ref().map_err(Clone::clone)?;
                match position_by_key(items, keys, y)? {
                    Some(i) if equals(&items[i], y)? => {}
                    _ => return Ok(false),
                }
            }
            Ok(true)
        }
        _ => {
            for (a, b) in x.elements().into_iter().zip(ys) {
                if !equals(&a?, &b?)? {
                    return Ok(false);
                }
            }
            Ok(true)
        }
    }
}

fn contains<'a>(haystack: &[Result<Val<'a>>], needle: &Val<'a>) -> Result<bool> {
    for v in haystack {
        if equals(v.as_ref().map_err(Clone::clone)?, needle)? {
            return Ok(true);
        }
    }
    Ok(false)
}

// Elements of a map list are matched by their key fields.
fn map_lists_equal<'a>(items: &'a [Json], keys: &[String], node: Node<'a>, ys: &[Result<Val<'a>>]) -> Result<bool> {
    let key_of = |v: &Json| keys.iter().map(|k| v.get(k).cloned().unwrap_or(Json::Null)).collect::<Vec<_>>();
    for y in ys {
        let y = y.as_ref().map_err(Clone::clone)?;
        let y_key = match y {
            Val::Map(Map::Object { obj, .. }) => {
                keys.iter().map(|k| obj.get(k).cloned().unwrap_or(Json::Null)).collect::<Vec<_>>()
            }
            _ => return Ok(false),
        };
        let Some(x) = items.iter().find(|x| key_of(x) == y_key) else { return Ok(false) };
        if !equals(&from_json(x, node)?, y)? {
            return Ok(false);
        }
    }
    Ok(true)
}

fn maps_equal<'a>(x: &Map<'a>, y: &Map<'a>) -> Result<bool> {
    if x.len() != y.len() {
        return Ok(false);
    }
    if let (Map::Json { obj: a, values: None }, Map::Json { obj: b, values: None }) = (x, y) {
        return Ok(a == b);
    }
    // Fields an object keeps beyond its properties (it preserves unknown
    // fields) are compared as data, as Kubernetes' `unstructuredMap` does:
    // the other side must hold the same under the same key.
    if let Map::Object { obj, node } = x {
        for (key, value) in obj.iter().filter(|(key, _)| node.property(key).is_none()) {
            let other = match y {
                Map::Object { obj, .. } | Map::Json { obj, .. } => obj.get(key),
                Map::Owned(_) => None,
            };
            if other != Some(value) {
                return Ok(false);
            }
        }
    }
    for key in x.keys() {
        let Some(a) = x.get(&key)? else { continue };
        match y.get(&key)? {
            Some(b) if equals(&a, &b)? => {}
            _ => return Ok(false),
        }
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::structural::Structural;
    use serde_json::json;

    fn schema(v: Json) -> Structural {
        Structural::from_json(&v).unwrap()
    }

    #[test]
    fn numbers_follow_the_schema() {
        let s = schema(json!({"type": "number"}));
        assert!(matches!(from_json(&json!(1), Node::new(&s, false)), Ok(Val::Double(f)) if f == 1.0));
        let s = schema(json!({"type": "integer"}));
        let e = from_json(&json!(1.5), Node::new(&s, false)).unwrap_err();
        assert_eq!(e, Error::new("invalid data, expected int, got float64"));
        let s = schema(json!({"x-kubernetes-int-or-string": true}));
        assert!(matches!(from_json(&json!("5%"), Node::new(&s, false)), Ok(Val::String(_))));
    }

    #[test]
    fn null_fields_are_absent_in_objects() {
        let s = schema(json!({"type": "object", "properties": {"a": {"type": "string", "nullable": true}}}));
        let v = json!({"a": null});
        let Ok(Val::Map(m)) = from_json(&v, Node::new(&s, false)) else { panic!() };
        assert!(m.get(&Val::string("a")).unwrap().is_none());
    }

    #[test]
    fn set_lists_ignore_order() {
        let s = schema(json!({"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}}));
        let (a, b) = (json!(["x", "y"]), json!(["y", "x"]));
        let va = from_json(&a, Node::new(&s, false)).unwrap();
        let vb = from_json(&b, Node::new(&s, false)).unwrap();
        assert!(equals(&va, &vb).unwrap());
        let atomic = schema(json!({"type": "array", "items": {"type": "string"}}));
        let vb = from_json(&b, Node::new(&atomic, false)).unwrap();
        let va = from_json(&a, Node::new(&atomic, false)).unwrap();
        assert!(!equals(&va, &vb).unwrap());
    }
}
