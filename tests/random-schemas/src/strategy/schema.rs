//! Random structural schemas, as the JSON of an `openAPIV3Schema`.
//!
//! Entry point: [`root`]. Every node is drawn in three steps: a kind
//! (string, integer, number, boolean, int-or-string, preserved value,
//! struct, embedded resource, map, array, empty object), its shape (the
//! keywords of that kind, children drawn recursively), then the keywords
//! any node may carry (`nullable`, `description`, `title`, `default`,
//! `x-kubernetes-validations`). Defaults are drawn from the finished node
//! with [`value::value`] in [`Mode::Default`], so they are valid for it,
//! nested defaults and embedded resources included.
//!
//! Every schema drawn must pass `crd check`: the strategy only writes what
//! the API server accepts (the tests assert it). The rules it follows:
//!
//! - `set` lists have scalar or atomic items, never nullable; `map` lists
//!   have struct items whose keys are scalar properties that are required
//!   or defaulted and never nullable;
//! - `x-kubernetes-validations` only where no array or map is above (their
//!   cost is multiplied by the container's unbounded size), with rules
//!   that hold for every value the value strategy draws;
//! - no `default` inside `apiVersion`, `kind` or `metadata` of a resource;
//! - properties and `additionalProperties` are never on one node.

use proptest::prelude::*;
use proptest::sample::{select, subsequence};
use proptest::strategy::Union;
use serde_json::{Map, Value, json};

use super::value::{self, FORMATS, Mode, PATTERNS};

/// Where a node sits in its parent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    /// A property of a struct.
    Field,
    /// The `items` of an array.
    Item,
    /// The `additionalProperties` of a map.
    Value,
}

/// What the parent allows for a node.
#[derive(Clone, Copy, Debug)]
struct Ctx {
    /// Levels of structs, maps and arrays still allowed below the node.
    depth: u32,
    /// An item of a `set` list: scalar or atomic, not nullable.
    set_item: bool,
    /// An array or map is above the node (no CEL rules).
    in_container: bool,
}

impl Ctx {
    fn child(self, slot: Slot) -> Self {
        let in_container = self.in_container || slot != Slot::Field;
        Self { depth: self.depth.saturating_sub(1), set_item: false, in_container }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    String,
    Integer,
    Number,
    Boolean,
    IntOrString,
    /// `x-kubernetes-preserve-unknown-fields` without a type: any value.
    Any,
    /// `type: object` without properties (empty struct, or a preserved value).
    Empty,
    Struct,
    Embedded,
    Map,
    Array,
}

/// Property names: ordinary ones, ones that collide once converted to
/// Rust (`fooBar`, `foo_bar`, `foo-bar`, `foo.bar`), keywords, and names
/// that are not identifiers at all.
#[rustfmt::skip]
const NAMES: &[&str] = &[
    "name", "size", "replicas", "image", "enabled", "ports", "config", "selector", "template", "mode", "timeout",
    "items", "labels", "value", "ratio", "tags", "nested", "options", "fooBar", "foo_bar", "foo-bar", "foo.bar",
    "FooBar", "type", "self", "Self", "crate", "super", "fn", "match", "async", "in", "default", "9lives",
    "ünïcode", "-", "_", "additionalProperties", "x", "X", "a b", "$ref", "kind", "apiVersion", "metadata",
];

/// Names of map-list keys.
const KEY_NAMES: &[&str] = &["name", "port", "protocol", "id", "key"];

/// Names CEL rules may use unescaped (identifiers that are not reserved).
fn cel_safe(name: &str) -> bool {
    #[rustfmt::skip]
    const RESERVED: &[&str] = &[
        "in", "as", "break", "const", "continue", "else", "false", "for", "function", "if", "import", "let", "loop",
        "package", "namespace", "null", "return", "true", "var", "void", "while", "self",
    ];
    name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && name.chars().all(|c| c.is_ascii_alphanumeric())
        && !RESERVED.contains(&name)
}

/// Shapes the strategy does not draw because of a known, reported bug, so
/// that the tests keep checking everything else. Printed by the tests;
/// remove an entry when its bug is fixed.
pub const RESTRICTIONS: &[&str] = &[
    // `additionalProperties: true` generates `BTreeMap<String, Value>`,
    // whose values keep everything, where the API server prunes them as
    // values without a schema (objects in them lose every key: I2); and the
    // derive rebuilds it as `{x-kubernetes-preserve-unknown-fields: true}`
    // (I3).
    "no additionalProperties: true (I2: nested objects are not pruned; I3: rebuilt as a preserving schema)",
];

/// CEL rule messages: one line each, as the API server requires.
const MESSAGES: &[&str] =
    &["must hold", "Ends a comment */ and has `code`, \"quotes\" and ünïcödé ✓", "{braces} and %s and [link]"];

/// Descriptions, most of them hostile to doc comments and rustdoc.
const DESCRIPTIONS: &[&str] = &[
    "A plain description.",
    "Ends a comment */ and opens /* another.",
    "Code `x` and an unclosed `tick.",
    "Quotes \"double\" and 'single', a \\ backslash and a #[attr].",
    "Unicode: ünïcödé ✓ 日本語 🚀.",
    "Brackets [link] and [text](https://example.com), <html> & <https://example.com>.",
    "Line one\nline two\n\n- list item\n# heading\n> quote",
    "```\nfenced code { not rust\n```",
    "\ttabbed  and trailing space ",
    "    indented like code\nthen not",
    "r#\"raw\"# and {braces} and %s and {}",
    "See https://example.com/bare-url for more.",
    "Odd backticks ` here.",
];

fn kinds(ctx: Ctx) -> BoxedStrategy<Kind> {
    use Kind::*;
    let mut weighted: Vec<(u32, Kind)> = vec![(6, String), (4, Integer), (2, Number), (2, Boolean), (2, IntOrString)];
    if !ctx.set_item {
        weighted.extend([(1, Any), (1, Empty)]);
    }
    if ctx.depth > 0 {
        weighted.extend([(6, Struct), (2, Map), (4, Array)]);
        if !ctx.set_item {
            weighted.push((2, Embedded));
        }
    }
    Union::new_weighted(weighted.into_iter().map(|(w, k)| (w, Just(k))).collect()).boxed()
}

/// A random node for `ctx`.
fn node(ctx: Ctx) -> BoxedStrategy<Value> {
    kinds(ctx).prop_flat_map(move |kind| shape(kind, ctx)).prop_flat_map(move |node| decorate(node, ctx)).boxed()
}

fn object(entries: &[(&str, Value)]) -> Map<String, Value> {
    entries.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect()
}

fn shape(kind: Kind, ctx: Ctx) -> BoxedStrategy<Value> {
    match kind {
        Kind::String => string(),
        Kind::Integer => integer(),
        Kind::Number => number(),
        Kind::Boolean => Just(json!({"type": "boolean"})).boxed(),
        Kind::IntOrString => {
            // With controller-gen's `anyOf`, or without (the API server then
            // does not check the value's type).
            prop_oneof![
                3 => Just(json!({"x-kubernetes-int-or-string": true, "anyOf": [{"type": "integer"}, {"type": "string"}]})),
                1 => Just(json!({"x-kubernetes-int-or-string": true})),
            ]
                .boxed()
        }
        Kind::Any => Just(json!({"x-kubernetes-preserve-unknown-fields": true})).boxed(),
        Kind::Empty => prop_oneof![
            Just(json!({"type": "object"})),
            Just(json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true})),
        ]
        .boxed(),
        Kind::Struct => structure(ctx, false),
        Kind::Embedded => structure(ctx, true),
        Kind::Map => map(ctx),
        Kind::Array => array(ctx),
    }
}

fn string() -> BoxedStrategy<Value> {
    const ENUM: &[&str] =
        &["red", "green", "Blue", "dark-red", "x.y", "1.0", "Unknown", "Other", "self", "ünï", "a b", "", "RED"];
    let formats: Vec<&str> = FORMATS.iter().map(|(f, _)| *f).collect();
    let patterns: Vec<&str> = PATTERNS.iter().map(|(p, _)| *p).collect();
    prop_oneof![
        3 => Just(json!({"type": "string"})),
        3 => subsequence(ENUM, 1..5).prop_shuffle().prop_map(|e| json!({"type": "string", "enum": e})),
        1 => select(formats).prop_map(|f| json!({"type": "string", "format": f})),
        2 => (proptest::option::of(select(patterns)), 0u32..3, proptest::option::of(0u32..10)).prop_map(
            |(pattern, min, extra)| {
                let mut s = object(&[("type", json!("string"))]);
                if let Some(p) = pattern {
                    s.insert("pattern".into(), json!(p));
                }
                if min > 0 {
                    s.insert("minLength".into(), json!(min));
                }
                if let Some(extra) = extra {
                    s.insert("maxLength".into(), json!(min + extra));
                }
                Value::Object(s)
            }
        ),
    ]
    .boxed()
}

fn integer() -> BoxedStrategy<Value> {
    prop_oneof![
        3 => Just(json!({"type": "integer"})),
        2 => select(&["int32", "int64"][..]).prop_map(|f| json!({"type": "integer", "format": f})),
        1 => subsequence(&[1, 2, 3, 10, -5][..], 1..4).prop_map(|e| json!({"type": "integer", "enum": e})),
        2 => (-20i64..20, 0i64..100, any::<(bool, bool)>(), proptest::option::of(select(&[2i64, 5][..]))).prop_map(
            |(min, width, (exclusive_min, exclusive_max), multiple)| {
                // Wide enough for a multiple strictly inside the bounds.
                let max = min + width + 12;
                let mut s = object(&[("type", json!("integer")), ("minimum", json!(min)), ("maximum", json!(max))]);
                if exclusive_min {
                    s.insert("exclusiveMinimum".into(), json!(true));
                }
                if exclusive_max {
                    s.insert("exclusiveMaximum".into(), json!(true));
                }
                if let Some(m) = multiple {
                    s.insert("multipleOf".into(), json!(m));
                }
                Value::Object(s)
            }
        ),
    ]
    .boxed()
}

fn number() -> BoxedStrategy<Value> {
    prop_oneof![
        3 => Just(json!({"type": "number"})),
        1 => select(&["float", "double"][..]).prop_map(|f| json!({"type": "number", "format": f})),
        2 => (-20i64..20, 1i64..100, proptest::option::of(select(&[0.5, 0.25][..]))).prop_map(|(min, width, multiple)| {
            let mut s = object(&[
                ("type", json!("number")),
                ("minimum", json!(min as f64 / 2.0)),
                ("maximum", json!((min + width) as f64 / 2.0 + 1.0)),
            ]);
            if let Some(m) = multiple {
                s.insert("multipleOf".into(), json!(m));
            }
            Value::Object(s)
        }),
    ]
    .boxed()
}

/// A struct (`properties`), or an embedded resource (`properties` and/or
/// preserved unknown fields, sometimes listing `apiVersion`, `kind` and
/// `metadata` as the server allows).
fn structure(ctx: Ctx, embedded: bool) -> BoxedStrategy<Value> {
    let child = ctx.child(Slot::Field);
    let names: Vec<&'static str> =
        NAMES.iter().copied().filter(|n| !embedded || !["apiVersion", "kind", "metadata"].contains(n)).collect();
    let most = 1 + ctx.depth as usize;
    let least = usize::from(!embedded);
    (
        subsequence(names, least..=most).prop_shuffle(),
        proptest::bool::weighted(0.15),
        proptest::option::weighted(0.15, select(&["atomic", "granular"][..])),
        super::maybe(if embedded { 0.5 } else { 0.0 }, meta_properties()),
    )
        .prop_flat_map(move |(names, preserve, map_type, meta)| {
            let properties: Vec<_> = names.iter().map(|n| (Just(*n), node(child))).collect();
            let required = proptest::collection::vec(proptest::bool::weighted(0.3), names.len());
            (properties, required).prop_map(move |(properties, required)| {
                let mut s = object(&[("type", json!("object"))]);
                let mut props: Map<String, Value> =
                    properties.iter().map(|(n, v)| ((*n).to_owned(), v.clone())).collect();
                if let Some(meta) = &meta {
                    props.extend(meta.clone());
                }
                let required: Vec<&str> =
                    properties.iter().zip(&required).filter(|(_, r)| **r).map(|((n, _), _)| *n).collect();
                if !props.is_empty() {
                    s.insert("properties".into(), Value::Object(props));
                }
                if !required.is_empty() {
                    s.insert("required".into(), json!(required));
                }
                if preserve || (embedded && properties.is_empty()) {
                    s.insert("x-kubernetes-preserve-unknown-fields".into(), json!(true));
                }
                if embedded {
                    s.insert("x-kubernetes-embedded-resource".into(), json!(true));
                }
                if ctx.set_item {
                    s.insert("x-kubernetes-map-type".into(), json!("atomic"));
                } else if let Some(t) = map_type {
                    s.insert("x-kubernetes-map-type".into(), json!(t));
                }
                Value::Object(s)
            })
        })
        .boxed()
}

/// `apiVersion`, `kind` and `metadata` listed in an embedded resource.
fn meta_properties() -> BoxedStrategy<Map<String, Value>> {
    (any::<bool>(), any::<bool>(), proptest::option::of(select(DESCRIPTIONS)))
        .prop_map(|(type_meta, metadata, description)| {
            let mut out = Map::new();
            if type_meta {
                out.insert("apiVersion".into(), json!({"type": "string"}));
                out.insert("kind".into(), json!({"type": "string"}));
            }
            if metadata || !type_meta {
                let mut m = object(&[("type", json!("object"))]);
                if let Some(d) = description {
                    m.insert("description".into(), json!(d));
                }
                out.insert("metadata".into(), Value::Object(m));
            }
            out
        })
        .boxed()
}

/// A map: `additionalProperties` with a schema (rarely `true`).
fn map(ctx: Ctx) -> BoxedStrategy<Value> {
    // Never `additionalProperties: true`: see RESTRICTIONS.
    (
        node(ctx.child(Slot::Value)),
        proptest::option::weighted(0.2, 0u32..2),
        proptest::option::weighted(0.2, 1u32..4),
        proptest::option::weighted(0.2, select(&["atomic", "granular"][..])),
    )
        .prop_map(move |(values, min, extra, map_type)| {
            let mut s = object(&[("type", json!("object")), ("additionalProperties", values)]);
            if let Some(min) = min {
                s.insert("minProperties".into(), json!(min));
            }
            if let Some(extra) = extra {
                s.insert("maxProperties".into(), json!(min.unwrap_or(0) + extra));
            }
            if ctx.set_item {
                s.insert("x-kubernetes-map-type".into(), json!("atomic"));
            } else if let Some(t) = map_type {
                s.insert("x-kubernetes-map-type".into(), json!(t));
            }
            Value::Object(s)
        })
        .boxed()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ListType {
    Unset,
    Atomic,
    Set,
    Map,
}

fn array(ctx: Ctx) -> BoxedStrategy<Value> {
    let list_type = if ctx.set_item {
        Just(ListType::Atomic).boxed()
    } else {
        prop_oneof![
            4 => Just(ListType::Unset),
            2 => Just(ListType::Atomic),
            2 => Just(ListType::Set),
            2 => Just(ListType::Map),
        ]
        .boxed()
    };
    list_type
        .prop_flat_map(move |list_type| {
            let items = match list_type {
                ListType::Set => {
                    node(Ctx { set_item: true, ..ctx.child(Slot::Item) }).prop_map(|i| (i, vec![])).boxed()
                }
                ListType::Map => map_list_items(ctx.child(Slot::Item)),
                _ => node(ctx.child(Slot::Item)).prop_map(|i| (i, vec![])).boxed(),
            };
            // Set and map lists hold few distinct items.
            let most_min = if matches!(list_type, ListType::Set | ListType::Map) { 2 } else { 3 };
            (
                Just(list_type),
                items,
                proptest::option::weighted(0.2, 0u32..most_min),
                proptest::option::weighted(0.2, 1u32..5),
                proptest::bool::weighted(if list_type == ListType::Unset { 0.1 } else { 0.0 }),
            )
        })
        .prop_map(|(list_type, (items, keys), min, extra, preserve)| {
            let mut s = object(&[("type", json!("array")), ("items", items)]);
            if let Some(min) = min {
                s.insert("minItems".into(), json!(min));
            }
            if let Some(extra) = extra {
                s.insert("maxItems".into(), json!(min.unwrap_or(0) + extra));
            }
            let name = match list_type {
                ListType::Unset => None,
                ListType::Atomic => Some("atomic"),
                ListType::Set => Some("set"),
                ListType::Map => Some("map"),
            };
            if let Some(name) = name {
                s.insert("x-kubernetes-list-type".into(), json!(name));
            }
            if list_type == ListType::Map {
                s.insert("x-kubernetes-list-map-keys".into(), json!(keys));
            }
            if preserve {
                s.insert("x-kubernetes-preserve-unknown-fields".into(), json!(true));
            }
            Value::Object(s)
        })
        .boxed()
}

/// A scalar key of a map list, with a description or default sometimes.
fn map_key() -> BoxedStrategy<Value> {
    let key = prop_oneof![
        Just(json!({"type": "string"})),
        Just(json!({"type": "integer"})),
        Just(json!({"type": "integer", "format": "int32"})),
        Just(json!({"type": "boolean"})),
        subsequence(&["TCP", "UDP", "SCTP"][..], 1..4).prop_map(|e| json!({"type": "string", "enum": e})),
    ];
    (key, proptest::bool::weighted(0.4), proptest::option::of(select(DESCRIPTIONS)))
        .prop_flat_map(|(key, defaulted, description)| {
            let default =
                if defaulted { value::value(&key, Mode::Default).prop_map(Some).boxed() } else { Just(None).boxed() };
            default.prop_map(move |default| {
                let mut key = key.clone();
                if let Some(d) = description {
                    key["description"] = json!(d);
                }
                if let Some(d) = default {
                    key["default"] = d;
                }
                key
            })
        })
        .boxed()
}

/// Items of a `map` list and their keys: a struct with one or two scalar
/// keys (required, or defaulted) and a few other properties.
fn map_list_items(ctx: Ctx) -> BoxedStrategy<(Value, Vec<String>)> {
    let child = ctx.child(Slot::Field);
    let others: Vec<&str> = NAMES.iter().copied().filter(|n| !KEY_NAMES.contains(n)).collect();
    (
        subsequence(KEY_NAMES, 1..=2),
        proptest::collection::vec(map_key(), 2),
        subsequence(others, 0..=(ctx.depth as usize).min(3)),
    )
        .prop_flat_map(move |(key_names, keys, others)| {
            let others: Vec<_> = others.iter().map(|n| (Just(*n), node(child))).collect();
            (Just(key_names), Just(keys), others, proptest::collection::vec(any::<bool>(), 8))
        })
        .prop_map(|(key_names, keys, others, required)| {
            let mut properties = Map::new();
            let mut required_names = Vec::new();
            for (i, (name, key)) in key_names.iter().zip(keys).enumerate() {
                if key.get("default").is_none() || required[i] {
                    required_names.push(*name);
                }
                properties.insert((*name).to_owned(), key);
            }
            for (i, (name, schema)) in others.into_iter().enumerate() {
                if required[i + 2] {
                    required_names.push(name);
                }
                properties.insert(name.to_owned(), schema);
            }
            let keys = key_names.iter().map(|k| (*k).to_owned()).collect();
            let mut items = json!({"type": "object", "properties": properties});
            // Never an empty list (the API server drops it, the derive never writes it).
            if !required_names.is_empty() {
                items["required"] = json!(required_names);
            }
            (items, keys)
        })
        .boxed()
}

/// The keywords any node may carry, drawn for the finished node.
fn decorate(node: Value, ctx: Ctx) -> BoxedStrategy<Value> {
    let nullable_allowed = !ctx.set_item;
    let rules = match rules(&node) {
        Some(rules) if !ctx.in_container => proptest::option::weighted(0.12, rules).boxed(),
        _ => Just(None).boxed(),
    };
    let default = if !ctx.set_item {
        proptest::option::weighted(0.2, value::value(&node, Mode::Default)).boxed()
    } else {
        Just(None).boxed()
    };
    (
        proptest::bool::weighted(if nullable_allowed { 0.15 } else { 0.0 }),
        proptest::option::weighted(0.4, select(DESCRIPTIONS)),
        proptest::option::weighted(0.05, select(&["A title", "Title with `code` and */"][..])),
        default,
        rules,
        any::<bool>(),
        extras(&node),
    )
        .prop_map(move |(nullable, description, title, default, rules, null_in_enum, extras)| {
            let mut node = node.clone();
            let Value::Object(s) = &mut node else { return node };
            s.extend(extras);
            if nullable {
                s.insert("nullable".into(), json!(true));
                if let Some(Value::Array(values)) = s.get_mut("enum")
                    && null_in_enum
                {
                    values.push(Value::Null);
                }
            }
            if let Some(d) = description {
                s.insert("description".into(), json!(d));
            }
            if let Some(t) = title {
                s.insert("title".into(), json!(t));
            }
            if let Some(d) = default {
                s.insert("default".into(), d);
            }
            if let Some(r) = rules {
                s.insert("x-kubernetes-validations".into(), r);
            }
            node
        })
        .boxed()
}

/// Whether CEL can type a value of `schema`: it has a type, and so do its
/// array items and map values, all the way down.
fn cel_typed(schema: &Value) -> bool {
    match schema.get("type").and_then(Value::as_str) {
        None => false,
        Some("array") => schema.get("items").is_some_and(cel_typed),
        Some("object") => schema.get("additionalProperties").is_none_or(cel_typed),
        Some(_) => true,
    }
}

/// Keywords that only document or only validate: `externalDocs`,
/// `example`, a value-only junctor that every value the value strategy
/// draws satisfies, and a keyword that is legal where it has no effect
/// ([`odd`]).
fn extras(node: &Value) -> BoxedStrategy<Map<String, Value>> {
    let type_ = node.get("type").and_then(Value::as_str).unwrap_or_default();
    let required = node.get("required").and_then(|r| r.get(0)).cloned();
    let junctor = match type_ {
        "string" => Some(("allOf", json!([{"minLength": 0}]))),
        "array" => Some(("anyOf", json!([{"minItems": 0}, {"maxItems": 0}]))),
        "object" => required.map(|name| ("oneOf", json!([{"required": [name]}]))),
        _ => None,
    };
    let docs = json!({"url": "https://example.com/docs", "description": "More */ docs"});
    (
        proptest::option::weighted(0.05, Just(docs)),
        proptest::option::weighted(0.05, value::value(node, Mode::Default)),
        super::maybe(if junctor.is_some() { 0.1 } else { 0.0 }, Just(junctor)),
        proptest::option::weighted(0.05, Just(odd(node))),
    )
        .prop_map(|(docs, example, junctor, odd)| {
            let mut out = Map::new();
            out.extend(docs.map(|d| ("externalDocs".to_owned(), d)));
            out.extend(example.map(|e| ("example".to_owned(), e)));
            out.extend(junctor.flatten().map(|(k, v)| (k.to_owned(), v)));
            out.extend(odd.flatten().map(|(k, v)| (k.to_owned(), v)));
            out
        })
        .boxed()
}

/// A keyword the API server accepts where it has no effect, or a value
/// that needs care to write back: `required` on an array, `items` on an
/// object, a float64 `maximum` beyond 2^53 on an integer without one.
fn odd(node: &Value) -> Option<(&'static str, Value)> {
    match node.get("type").and_then(Value::as_str) {
        Some("array") => Some(("required", json!(["authority", "weight"]))),
        Some("object") => Some(("items", json!({"type": "string"}))),
        Some("integer") if node.get("maximum").is_none() && node.get("format").is_none() => {
            Some(("maximum", json!(9_223_372_036_854_775_000_u64)))
        }
        _ => None,
    }
}

/// One or two CEL rules that hold for every value the value strategy draws
/// for `node` (so also for its default).
fn rules(node: &Value) -> Option<BoxedStrategy<Value>> {
    // CEL types strings with a format as timestamps, durations or bytes.
    let formatted = node.get("format").is_some();
    let candidates: &[&str] = match node.get("type").and_then(Value::as_str).unwrap_or_default() {
        "string" if formatted => &["self == self"],
        "string" => &["self.size() >= 0", "self == self"],
        "integer" => &["self == self", "self + 0 == self"],
        "number" => &["self == self"],
        "boolean" => &["self || !self"],
        // Items without a type (preserved values) have no CEL type either.
        "array" if node.get("items").is_some_and(cel_typed) => &["self.size() >= 0"],
        // Only structs: the API server cannot type a map whose values have
        // no type ("failed to retrieve type information").
        "object" if node.get("properties").is_some() && node.get("x-kubernetes-embedded-resource").is_none() => {
            &["true"]
        }
        // int-or-string and preserved values: no static type to write a
        // rule against.
        _ => return None,
    };
    let mut rules: Vec<String> = candidates.iter().map(|r| (*r).to_owned()).collect();
    // A rule on a required scalar property of a struct: `has(self.p)`
    // (CEL has no type for some other properties, such as objects without
    // properties).
    let scalar = |name: &str| {
        let type_ = node.get("properties").and_then(|p| p.get(name)).and_then(|p| p.get("type"));
        matches!(type_.and_then(Value::as_str), Some("string" | "integer" | "number" | "boolean"))
    };
    if let Some(Value::Array(required)) = node.get("required") {
        let names = required.iter().filter_map(Value::as_str).filter(|n| cel_safe(n) && scalar(n));
        rules.extend(names.map(|n| format!("has(self.{n})")));
    }
    let rule = (
        select(rules),
        proptest::option::of(select(MESSAGES)),
        proptest::option::weighted(0.3, Just("'rule failed: ' + 'message expression'")),
        proptest::option::weighted(
            0.3,
            select(&["FieldValueInvalid", "FieldValueForbidden", "FieldValueRequired", "FieldValueDuplicate"][..]),
        ),
    )
        .prop_map(|(rule, message, expression, reason)| {
            let mut r = object(&[("rule", json!(rule))]);
            if let Some(m) = message {
                r.insert("message".into(), json!(m));
            }
            if let Some(e) = expression {
                r.insert("messageExpression".into(), json!(e));
            }
            if let Some(reason) = reason {
                r.insert("reason".into(), json!(reason));
            }
            Value::Object(r)
        });
    Some(proptest::collection::vec(rule, 1..=2).prop_map(Value::from).boxed())
}

/// A random root schema: `spec` (usually), `status` (sometimes) and a few
/// other properties; `description`, `required`, preservation and rules.
pub fn root(depth: u32) -> BoxedStrategy<Value> {
    let top = Ctx { depth, set_item: false, in_container: false };
    let names: Vec<&'static str> =
        NAMES.iter().copied().filter(|n| !["apiVersion", "kind", "metadata", "spec", "status"].contains(n)).collect();
    (
        proptest::option::weighted(0.9, structure(top, false).prop_flat_map(move |s| decorate(s, top))),
        proptest::option::weighted(0.5, structure(top, false).prop_flat_map(move |s| decorate(s, top))),
        subsequence(names, 0..=2),
        proptest::option::of(select(DESCRIPTIONS)),
        proptest::bool::weighted(0.1),
        proptest::bool::weighted(0.3),
    )
        .prop_flat_map(move |(spec, status, others, description, preserve, spec_required)| {
            let others: Vec<_> = others.iter().map(|n| (Just(*n), node(Ctx { depth: 2, ..top }))).collect();
            (Just((spec, status, description, preserve, spec_required)), others)
        })
        .prop_flat_map(|((spec, status, description, preserve, spec_required), others)| {
            let mut properties = Map::new();
            let has_spec = spec.is_some();
            properties.extend(spec.map(|s| ("spec".to_owned(), s)));
            properties.extend(status.map(|s| ("status".to_owned(), s)));
            properties.extend(others.into_iter().map(|(n, s)| (n.to_owned(), s)));
            let mut s = object(&[("type", json!("object"))]);
            if !properties.is_empty() {
                s.insert("properties".into(), Value::Object(properties));
            }
            if let Some(d) = description {
                s.insert("description".into(), json!(d));
            }
            if has_spec && spec_required {
                s.insert("required".into(), json!(["spec"]));
            }
            if preserve {
                s.insert("x-kubernetes-preserve-unknown-fields".into(), json!(true));
            }
            let node = Value::Object(s);
            let rules = rules(&node).map_or_else(|| Just(None).boxed(), |r| proptest::option::weighted(0.1, r).boxed());
            (Just(node), rules)
        })
        .prop_map(|(mut node, rules)| {
            if let Some(r) = rules {
                node["x-kubernetes-validations"] = r;
            }
            node
        })
        .boxed()
}
