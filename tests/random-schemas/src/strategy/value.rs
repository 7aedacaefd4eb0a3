//! Random values for a schema, read from its JSON (the CRD's
//! `openAPIV3Schema` or one of its nodes).
//!
//! Entry points: [`value`] in [`Mode::Default`] gives a value the API
//! server accepts as a `default` (valid for every keyword the schema
//! strategy writes, no unknown fields, embedded resources with type meta);
//! [`resource`] gives a whole object as a client may send it
//! ([`Mode::Object`]): well-typed, with unknown fields at every level (kept
//! under `x-kubernetes-preserve-unknown-fields`), explicit `null`s, absent
//! defaulted fields, and embedded resources with `apiVersion`, `kind` and
//! `metadata` (unknown metadata fields included).
//!
//! Three shapes are never generated, because docs/generated-code.md lists
//! them as known differences of the generated types ([`KNOWN_DIFFERENCES`]).

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::{select, subsequence};
use serde_json::{Map, Value, json};

/// The documented differences between generated types and the API server
/// (docs/generated-code.md, "Known differences") that objects avoid, so a
/// failure is always a new one. Printed by the tests.
pub const KNOWN_DIFFERENCES: &[&str] = &[
    "no null items or values in arrays/maps nested directly in arrays/maps, unless the items are nullable \
     (known differences 1 and 2)",
    "no null for a non-nullable field without a default inside a default (known difference 4)",
    "root metadata always present and labels never empty (known differences 5 and 6)",
];

/// What the value is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A `default`: valid, no unknown fields where pruning would drop them.
    Default,
    /// An object as a client sends it.
    Object,
}

/// Where a value is generated.
#[derive(Clone, Copy, Debug)]
struct Ctx {
    mode: Mode,
    /// Unknown fields are kept here: the node preserves them, or an
    /// ancestor array does (inherited through `items` only).
    preserving: bool,
    /// The node is an item or value of an array or map (a container that
    /// is itself an item or value holds no `null`s: known differences 1, 2).
    in_container: bool,
}

/// A random value for `schema`.
pub fn value(schema: &Value, mode: Mode) -> BoxedStrategy<Value> {
    node(schema, Ctx { mode, preserving: false, in_container: false })
}

/// A random resource for a version's `schema` with the given type meta.
pub fn resource(schema: &Value, api_version: &str, kind: &str) -> BoxedStrategy<Value> {
    let (api_version, kind) = (api_version.to_owned(), kind.to_owned());
    (node(schema, Ctx { mode: Mode::Object, preserving: false, in_container: false }), metadata(Mode::Object))
        .prop_map(move |(mut object, meta)| {
            if let Value::Object(map) = &mut object {
                map.insert("apiVersion".into(), json!(api_version));
                map.insert("kind".into(), json!(kind));
                map.insert("metadata".into(), meta);
            }
            object
        })
        .boxed()
}

fn keyword<'a>(schema: &'a Value, key: &str) -> Option<&'a Value> {
    schema.get(key)
}

fn flag(schema: &Value, key: &str) -> bool {
    keyword(schema, key) == Some(&Value::Bool(true))
}

fn number(schema: &Value, key: &str) -> Option<f64> {
    keyword(schema, key).and_then(Value::as_f64)
}

fn node(schema: &Value, ctx: Ctx) -> BoxedStrategy<Value> {
    if flag(schema, "x-kubernetes-int-or-string") {
        return prop_oneof![(0i64..70_000).prop_map(Value::from), select(INT_OR_STRING).prop_map(Value::from)].boxed();
    }
    if let Some(Value::Array(values)) = keyword(schema, "enum")
        && !values.is_empty()
    {
        let values: Vec<Value> = values.iter().filter(|v| !v.is_null() || ctx.mode == Mode::Object).cloned().collect();
        return select(values).boxed();
    }
    let ctx = Ctx { preserving: ctx.preserving || flag(schema, "x-kubernetes-preserve-unknown-fields"), ..ctx };
    match keyword(schema, "type").and_then(Value::as_str).unwrap_or_default() {
        "string" => string(schema),
        "integer" => integer(schema),
        "number" => float(schema, ctx.mode),
        "boolean" => any::<bool>().prop_map(Value::Bool).boxed(),
        "array" => array(schema, ctx),
        "object" => object(schema, ctx),
        _ => arbitrary(),
    }
}

/// Values of `x-kubernetes-int-or-string` nodes that are strings.
const INT_OR_STRING: &[&str] = &["80", "http", "25%", "1Gi"];

/// Example values of every string format the schema strategy writes.
pub const FORMATS: &[(&str, &[&str])] = &[
    ("date-time", &["2024-05-06T07:08:09Z", "1999-12-31T23:59:59.5+01:00"]),
    ("date", &["2024-05-06", "2000-02-29"]),
    ("byte", &["aGVsbG8=", "YQ=="]),
    ("password", &["hunter2", "*/ */"]),
    ("uuid", &["123e4567-e89b-12d3-a456-426614174000"]),
    ("hostname", &["example.com", "a-b.example"]),
    ("ipv4", &["10.0.0.1", "255.255.255.255"]),
    ("cidr", &["10.0.0.0/8"]),
    ("duration", &["1h2m3s", "5s"]),
];

/// Patterns the schema strategy writes, with the alphabet of strings that
/// match them (the length keywords decide how many characters).
pub const PATTERNS: &[(&str, &str)] =
    &[("^[a-z]*$", "abcxyz"), ("^[a-z0-9]*$", "ab09"), ("^[0-9]*$", "0179"), ("^[a-zA-Z_. -]*$", "aZ_. -")];

/// Strings for plain `string` nodes and map keys: hostile ones included.
const STRINGS: &[&str] = &[
    "",
    "plain",
    "two words",
    "ünïcödé ✓ 日本",
    "*/ /*",
    "\"quoted\"",
    "back\\slash",
    "new\nline",
    "null",
    "42",
    "true",
];

fn string(schema: &Value) -> BoxedStrategy<Value> {
    let format = keyword(schema, "format").and_then(Value::as_str).unwrap_or_default();
    if let Some((_, examples)) = FORMATS.iter().find(|(f, _)| *f == format) {
        return select(*examples).prop_map(Value::from).boxed();
    }
    let pattern = keyword(schema, "pattern").and_then(Value::as_str);
    let (min, max) = (number(schema, "minLength"), number(schema, "maxLength"));
    if pattern.is_none() && min.is_none() && max.is_none() {
        return prop_oneof![select(STRINGS).prop_map(Value::from), "[a-z]{0,6}".prop_map(Value::from)].boxed();
    }
    let alphabet = pattern.and_then(|p| PATTERNS.iter().find(|(q, _)| *q == p)).map_or("abc", |(_, a)| *a);
    let alphabet: Vec<char> = alphabet.chars().collect();
    let min = min.unwrap_or(0.0) as usize;
    let max = max.map_or(min + 8, |m| (m as usize).min(min + 8));
    vec(select(alphabet), min..=max).prop_map(|chars| Value::from(chars.into_iter().collect::<String>())).boxed()
}

/// The inclusive range of multiples of `step` (a whole number for
/// integers) allowed by the bounds, as factors of `step`.
fn factors(schema: &Value, step: f64, lo: f64, hi: f64) -> (i64, i64) {
    let lo = number(schema, "minimum").unwrap_or(lo);
    let hi = number(schema, "maximum").unwrap_or(hi);
    let mut first = (lo / step).ceil() as i64;
    let mut last = (hi / step).floor() as i64;
    if flag(schema, "exclusiveMinimum") && first as f64 * step <= lo {
        first += 1;
    }
    if flag(schema, "exclusiveMaximum") && last as f64 * step >= hi {
        last -= 1;
    }
    (first, last.max(first))
}

fn integer(schema: &Value) -> BoxedStrategy<Value> {
    let bounded = ["minimum", "maximum", "multipleOf"].iter().any(|k| keyword(schema, k).is_some());
    let int32 = keyword(schema, "format").and_then(Value::as_str) == Some("int32");
    if !bounded && !int32 {
        return prop_oneof![-1000i64..1000, Just(1i64 << 40), Just(-(1i64 << 53))].prop_map(Value::from).boxed();
    }
    let step = number(schema, "multipleOf").unwrap_or(1.0);
    let (lo, hi) = if int32 { (f64::from(i32::MIN), f64::from(i32::MAX)) } else { (-1e6, 1e6) };
    let (first, last) = factors(schema, step, lo, hi);
    let step = step as i64;
    (first..=last).prop_map(move |k| Value::from(k * step)).boxed()
}

fn float(schema: &Value, mode: Mode) -> BoxedStrategy<Value> {
    // Eighths are exact in binary, so values survive every round trip.
    let step = number(schema, "multipleOf").unwrap_or(0.125);
    let (first, last) = factors(schema, step, -1000.0, 1000.0);
    // A default is read from the CRD's file as the API server receives it:
    // a whole number as an integer, which the API server checks against a
    // fractional `multipleOf` as an integer, against the factor cut to an
    // integer (zero, an error). So such defaults are not whole.
    let whole_fails = mode == Mode::Default && keyword(schema, "multipleOf").is_some() && step.fract() != 0.0;
    (first..=last, any::<bool>())
        .prop_filter("a whole default against a fractional multipleOf", move |(k, _)| {
            !(whole_fails && (*k as f64 * step).fract() == 0.0)
        })
        .prop_map(move |(k, as_integer)| {
            let x = k as f64 * step;
            // A whole number may come as an integer (`3`); the typed path
            // encodes it as `3.0`, equal by value.
            if as_integer && mode == Mode::Object && x.fract() == 0.0 { Value::from(x as i64) } else { Value::from(x) }
        })
        .boxed()
}

fn array(schema: &Value, ctx: Ctx) -> BoxedStrategy<Value> {
    let Some(items) = keyword(schema, "items") else { return Just(json!([])).boxed() };
    let min = number(schema, "minItems").unwrap_or(0.0) as usize;
    let max = number(schema, "maxItems").map_or(min + 3, |m| (m as usize).min(min + 3));
    let list_type = keyword(schema, "x-kubernetes-list-type").and_then(Value::as_str).unwrap_or("atomic").to_owned();
    let child = Ctx { in_container: true, ..ctx };
    let item = node(items, child);
    // A `null` item is replaced by the items' default (only in a field's
    // own array) or kept when nullable; other nulls are ill-typed.
    let nulls = ctx.mode == Mode::Object
        && list_type == "atomic"
        && (flag(items, "nullable") || (items.get("default").is_some() && !ctx.in_container));
    let item = if nulls { prop_oneof![6 => item, 1 => Just(Value::Null)].boxed() } else { item };
    let keys: Vec<String> = keyword(schema, "x-kubernetes-list-map-keys")
        .and_then(Value::as_array)
        .map(|k| k.iter().filter_map(Value::as_str).map(str::to_owned).collect())
        .unwrap_or_default();
    let items = items.clone();
    vec(item, min..=max)
        .prop_map(move |values| match list_type.as_str() {
            "set" => Value::Array(unique_by(values, Clone::clone)),
            "map" => Value::Array(unique_by(values, |v| map_key(v, &items, &keys))),
            _ => Value::Array(values),
        })
        .boxed()
}

/// `values` without later duplicates under `key`.
fn unique_by(values: Vec<Value>, key: impl Fn(&Value) -> Value) -> Vec<Value> {
    let mut seen = Vec::new();
    values
        .into_iter()
        .filter(|v| {
            let k = key(v);
            let new = !seen.contains(&k);
            seen.push(k);
            new
        })
        .collect()
}

/// The key of a map-list item: its key fields, defaulted when absent.
fn map_key(item: &Value, items: &Value, keys: &[String]) -> Value {
    let key = |k: &String| {
        let given = item.get(k).filter(|v| !v.is_null());
        given.or_else(|| items.get("properties")?.get(k)?.get("default")).cloned().unwrap_or(Value::Null)
    };
    Value::Array(keys.iter().map(key).collect())
}

fn object(schema: &Value, ctx: Ctx) -> BoxedStrategy<Value> {
    match keyword(schema, "additionalProperties") {
        Some(values @ Value::Object(_)) => map(schema, values, ctx),
        // Values of `additionalProperties: true` are pruned as if they had
        // no schema (objects in them lose every key); the schema strategy
        // does not write it, but the value strategy stays correct for it.
        Some(Value::Bool(true)) => map(schema, &json!({"type": "string"}), ctx),
        _ => fields(schema, ctx),
    }
}

/// Map keys: hostile ones included.
const KEYS: &[&str] = &["a", "b", "key.with.dots", "ünï", "", "with space", "zz", "0", "-"];

fn map(schema: &Value, values: &Value, ctx: Ctx) -> BoxedStrategy<Value> {
    let min = number(schema, "minProperties").unwrap_or(0.0) as usize;
    let max = number(schema, "maxProperties").map_or(min + 3, |m| (m as usize).min(min + 3)).min(KEYS.len());
    // Preservation is inherited through `items` only: values are pruned.
    let value = node(values, Ctx { in_container: true, preserving: false, ..ctx });
    // A `null` value is dropped (non-nullable, no default), replaced by the
    // default, or kept (nullable); in a nested map only the last holds.
    let nulls = ctx.mode == Mode::Object && (flag(values, "nullable") || !ctx.in_container);
    let value = if nulls { prop_oneof![6 => value, 1 => Just(Value::Null)].boxed() } else { value };
    subsequence(KEYS, min..=max)
        .prop_flat_map(move |keys| {
            let entries: Vec<_> = keys.iter().map(|k| (Just((*k).to_owned()), value.clone())).collect();
            entries
        })
        .prop_map(|entries| Value::Object(entries.into_iter().collect()))
        .boxed()
}

/// The fields of a resource that hold its type and object meta.
const META: [&str; 3] = ["apiVersion", "kind", "metadata"];

/// How a property of a struct appears.
#[derive(Clone, Copy, Debug)]
enum Presence {
    Absent,
    Null,
    Present,
}

fn fields(schema: &Value, ctx: Ctx) -> BoxedStrategy<Value> {
    let embedded = flag(schema, "x-kubernetes-embedded-resource");
    let required: Vec<&str> = keyword(schema, "required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let properties = keyword(schema, "properties").and_then(Value::as_object).cloned().unwrap_or_default();
    let mut parts: Vec<BoxedStrategy<Vec<(String, Value)>>> = Vec::new();
    for (name, property) in &properties {
        if embedded && META.contains(&name.as_str()) {
            continue;
        }
        let presence = presence(property, required.contains(&name.as_str()), ctx.mode);
        let name = name.clone();
        let value = node(property, Ctx { in_container: false, preserving: false, ..ctx });
        parts.push(
            (presence, value)
                .prop_map(move |(presence, value)| match presence {
                    Presence::Absent => vec![],
                    Presence::Null => vec![(name.clone(), Value::Null)],
                    Presence::Present => vec![(name.clone(), value)],
                })
                .boxed(),
        );
    }
    if embedded {
        parts.push(type_meta(ctx.mode));
    }
    if ctx.mode == Mode::Object || ctx.preserving {
        parts.push(unknown_fields(&properties, ctx));
    }
    parts.prop_map(|parts| Value::Object(parts.into_iter().flatten().collect::<Map<_, _>>())).boxed()
}

/// Whether `null` is a valid value of `schema`: it is nullable and has no
/// `enum` (the API server's enum check never matches `null`, even when the
/// enum lists it).
fn null_valid(schema: &Value) -> bool {
    flag(schema, "nullable") && keyword(schema, "enum").is_none()
}

fn presence(property: &Value, required: bool, mode: Mode) -> BoxedStrategy<Presence> {
    let nullable = flag(property, "nullable");
    let null_valid = null_valid(property);
    match (mode, required) {
        (Mode::Default, true) => Just(Presence::Present).boxed(),
        // A null in a default is kept only where the field is nullable.
        (Mode::Default, false) if null_valid => {
            prop_oneof![Just(Presence::Absent), Just(Presence::Present), Just(Presence::Null)].boxed()
        }
        (Mode::Default, false) => prop_oneof![Just(Presence::Absent), Just(Presence::Present)].boxed(),
        (Mode::Object, true) if nullable => {
            prop_oneof![5 => Just(Presence::Present), 1 => Just(Presence::Null)].boxed()
        }
        (Mode::Object, true) => Just(Presence::Present).boxed(),
        (Mode::Object, false) => {
            prop_oneof![4 => Just(Presence::Absent), 2 => Just(Presence::Null), 7 => Just(Presence::Present)].boxed()
        }
    }
}

/// `apiVersion`, `kind` and `metadata` of an embedded resource: always in a
/// default (the server validates its type meta), usually in an object.
fn type_meta(mode: Mode) -> BoxedStrategy<Vec<(String, Value)>> {
    let each = if mode == Mode::Default { 1.0 } else { 0.8 };
    (
        super::maybe(each, select(&["example.com/v1", "v1"][..])),
        super::maybe(each, select(&["Thing", "ConfigMap"][..])),
        super::maybe(each, metadata(mode)),
    )
        .prop_map(|(api_version, kind, meta)| {
            let mut out = Vec::new();
            out.extend(api_version.map(|v| ("apiVersion".to_owned(), Value::from(v))));
            out.extend(kind.map(|v| ("kind".to_owned(), Value::from(v))));
            out.extend(meta.map(|v| ("metadata".to_owned(), v)));
            out
        })
        .boxed()
}

/// ObjectMeta: a valid name, sometimes a namespace, labels, annotations and
/// (in objects) an unknown field, which the server drops.
fn metadata(mode: Mode) -> BoxedStrategy<Value> {
    let unknown = if mode == Mode::Object { 0.3 } else { 0.0 };
    (
        select(&["obj-a", "thing-1", "x"][..]),
        proptest::option::of(Just("default")),
        proptest::option::of(Just(json!({"app": "demo", "example.com/tier": "web"}))),
        proptest::option::of(select(&["*/ note", "ünï", "\"q\""][..])),
        super::maybe(unknown, Just(json!({"nested": [1, null]}))),
    )
        .prop_map(|(name, namespace, labels, annotation, unknown)| {
            let mut meta = Map::new();
            meta.insert("name".into(), json!(name));
            meta.extend(namespace.map(|n| ("namespace".to_owned(), json!(n))));
            meta.extend(labels.map(|l| ("labels".to_owned(), l)));
            meta.extend(annotation.map(|a| ("annotations".to_owned(), json!({"note": a}))));
            meta.extend(unknown.map(|u| ("zzUnknownMetadataField".to_owned(), u)));
            Value::Object(meta)
        })
        .boxed()
}

/// A field no schema lists: kept (with whatever it holds) where unknown
/// fields are preserved, pruned elsewhere.
fn unknown_fields(properties: &Map<String, Value>, ctx: Ctx) -> BoxedStrategy<Vec<(String, Value)>> {
    let name = ["zzUnknown", "zzUnknown2"].into_iter().find(|n| !properties.contains_key(*n)).unwrap_or("zzUnknown");
    let chance = if ctx.mode == Mode::Object { 0.35 } else { 0.2 };
    proptest::option::weighted(chance, arbitrary_or_null())
        .prop_map(move |v| v.map(|v| (name.to_owned(), v)).into_iter().collect())
        .boxed()
}

/// Any JSON value except a top-level `null` (a field's `null` is chosen
/// by its parent).
pub fn arbitrary() -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        any::<bool>().prop_map(Value::Bool),
        (-100i64..100).prop_map(Value::from),
        (-800i64..800).prop_map(|k| Value::from(k as f64 / 8.0)),
        select(STRINGS).prop_map(Value::from),
    ];
    let nested = arbitrary_or_null();
    prop_oneof![
        3 => leaf,
        1 => vec(nested.clone(), 0..3).prop_map(Value::Array),
        1 => vec((select(KEYS), nested), 0..3)
            .prop_map(|e| Value::Object(e.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())),
    ]
    .boxed()
}

/// Any JSON value of at most two levels, `null` included.
fn arbitrary_or_null() -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-100i64..100).prop_map(Value::from),
        select(STRINGS).prop_map(Value::from),
    ];
    leaf.prop_recursive(2, 6, 3, |inner| {
        prop_oneof![
            vec(inner.clone(), 0..3).prop_map(Value::Array),
            vec((select(KEYS), inner), 0..3)
                .prop_map(|e| Value::Object(e.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())),
        ]
    })
    .boxed()
}
