//! The attribute vocabulary walked exhaustively (crd-vocabulary's table):
//! every schema keyword, with sample values of its kind, on every kind of
//! node, at every position the generator writes attributes for — the root
//! type, a field, array items and map values (`items(...)`,
//! `values(...)`), and a junctor's value-only schema.
//!
//! Most candidates are nonsense the API server refuses (`format` on the
//! root, `nullable` under `allOf`); the build script keeps those it
//! accepts, by the engine's own CRD validation, and gathers them into one
//! CRD per key. Keywords that have no effect where they stand (`required`
//! on an array, `enum` on an object, bounds on the wrong type) are kept:
//! the generator must write them and the derive must take them (I3).

use crd_vocabulary::{KEYS, Key, Place, Value as Kind};
use serde_json::{Map, Value, json};

use super::GROUP;

/// The positions walked: where the generator writes `#[schema(...)]`
/// keywords. (Variants carry no keywords in generated code.)
pub const PLACES: [Place; 4] = [Place::Type, Place::Field, Place::Element, Place::Value];

/// The nodes a keyword is tried on: one of each type, an int-or-string
/// node without `anyOf`, an untyped preserving node, and a map list.
fn bases() -> Vec<(&'static str, Value)> {
    vec![
        ("object", json!({"type": "object", "properties": {"a": {"type": "string"}}})),
        ("array", json!({"type": "array", "items": {"type": "string"}})),
        ("string", json!({"type": "string"})),
        ("integer", json!({"type": "integer"})),
        ("number", json!({"type": "number"})),
        ("boolean", json!({"type": "boolean"})),
        ("intOrString", json!({"x-kubernetes-int-or-string": true})),
        ("preserved", json!({"x-kubernetes-preserve-unknown-fields": true})),
        (
            "mapList",
            json!({"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["b"],
                "items": {"type": "object", "required": ["a", "b"],
                    "properties": {"a": {"type": "string"}, "b": {"type": "string"}}}}),
        ),
    ]
}

/// Sample values for `key`: each a value the derive parses for its kind.
fn samples(key: &Key) -> Vec<Value> {
    match key.value {
        Kind::Text if key.json == Some("pattern") => vec![json!("^a")],
        Kind::Text => vec![json!("date")],
        Kind::Choice(options) => options.iter().map(|o| json!(o)).collect(),
        Kind::Number => vec![json!(2), json!(1.5)],
        Kind::Count => vec![json!(1)],
        Kind::Flag => vec![json!(true), json!(false)],
        Kind::Literal => vec![json!("a"), json!(1), json!(1.5), json!(true)],
        Kind::Literals => vec![json!(["a", "b"]), json!([1, 2]), json!([true]), json!([1.5, null])],
        Kind::Strings => vec![json!(["a"])],
        Kind::Json => vec![json!({"a": "x"}), json!(["a"]), json!(3.0), json!("b")],
        Kind::JsonList => vec![json!([{"a": "x"}]), json!([["a"]])],
        Kind::Keywords if key.json == Some("not") => vec![json!({"minLength": 5})],
        Kind::Keywords => vec![json!({"type": "string"}), json!({"maxLength": 3})],
        Kind::Schemas => vec![json!([{"minLength": 0}]), json!([{"required": ["a"]}])],
        // Under a junctor without a type, elsewhere with one.
        Kind::Property => vec![json!({"a": {"minLength": 1}}), json!({"a": {"type": "string", "minLength": 1}})],
        Kind::Rule => vec![json!([{"rule": "self == self", "message": "m"}])],
        Kind::ExternalDocs => vec![json!({"description": "d", "url": "https://example.com"})],
        Kind::Path | Kind::Bare => Vec::new(),
    }
}

/// One keyword with one value on one node at one position.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// The attribute key (crd-vocabulary's `Key::attr`).
    pub attr: &'static str,
    /// Where the keyword stands.
    pub place: Place,
    /// The name of the node it stands on (one of `bases()`).
    pub base: &'static str,
    /// For [`Place::Type`], the root schema; otherwise the schema of a
    /// property of `spec`.
    pub schema: Value,
}

/// Every candidate, key by key in the table's order.
pub fn candidates() -> Vec<Candidate> {
    let mut out = Vec::new();
    for key in KEYS {
        let Some(json) = key.json else { continue };
        for value in samples(key) {
            for place in PLACES.into_iter().filter(|p| key.places.contains(*p)) {
                for (base, node) in bases() {
                    for schema in place_keyword(place, &node, json, &value) {
                        out.push(Candidate { attr: key.attr, place, base, schema });
                    }
                }
            }
        }
    }
    out
}

/// `node` with `json: value` at `place` (none when that adds nothing):
/// for [`Place::Element`], as array items and as map values.
fn place_keyword(place: Place, node: &Value, json: &str, value: &Value) -> Vec<Value> {
    let with = |node: &Value| {
        let mut node = node.clone();
        (node.get(json) != Some(value)).then(|| {
            node[json] = value.clone();
            node
        })
    };
    match place {
        Place::Type if node["type"] == "object" => {
            with(&json!({"type": "object", "properties": {"spec": node}})).into_iter().collect()
        }
        Place::Field => with(node).into_iter().collect(),
        Place::Element => with(node)
            .map(|inner| {
                vec![
                    json!({"type": "array", "items": inner.clone()}),
                    json!({"type": "object", "additionalProperties": inner}),
                ]
            })
            .unwrap_or_default(),
        Place::Value => {
            let mut out = node.clone();
            out["allOf"] = json!([{json: value}]);
            vec![out]
        }
        Place::Type | Place::Variant => Vec::new(),
    }
}

/// The root schema of a CRD holding `properties` under `spec`, with
/// `root` (a root candidate's schema) as its root when given.
pub fn root(root: Option<&Value>, properties: Map<String, Value>) -> Value {
    let mut out = root.cloned().unwrap_or_else(|| json!({"type": "object", "properties": {}}));
    let spec = json!({"type": "object", "properties": properties});
    out["properties"]["spec"] = spec;
    out
}

/// A v1 CRD of kind `kind` with `schema` as its only version's.
pub fn crd(kind: &str, schema: Value) -> Value {
    let plural = format!("{}s", kind.to_lowercase());
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": format!("{plural}.{GROUP}")},
        "spec": {
            "group": GROUP,
            "names": {"kind": kind, "plural": plural, "singular": kind.to_lowercase(), "listKind": format!("{kind}List")},
            "scope": "Namespaced",
            "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": schema}}],
        },
    })
}

/// A candidate alone in a CRD, as the build script checks it.
pub fn alone(candidate: &Candidate) -> Value {
    let schema = match candidate.place {
        Place::Type => candidate.schema.clone(),
        _ => root(None, Map::from_iter([("f".to_owned(), candidate.schema.clone())])),
    };
    crd("VocabularyCandidate", schema)
}

/// The kind of the CRD gathering the candidates of attribute `attr`:
/// `Vocabulary` and the key in upper camel case (`VocabularyMinLength`).
pub fn kind(attr: &str) -> String {
    let words = attr.split('_').filter(|w| !w.is_empty());
    let camel: String = words
        .map(|w| {
            let mut chars = w.chars();
            chars.next().map(|c| c.to_ascii_uppercase().to_string() + chars.as_str()).unwrap_or_default()
        })
        .collect();
    format!("Vocabulary{camel}")
}

/// The property name of the `index`-th kept candidate of a key.
pub fn property(candidate: &Candidate, index: usize) -> String {
    let place = match candidate.place {
        Place::Type => "Root",
        Place::Field => "Field",
        Place::Element => "Items",
        Place::Value => "AllOf",
        Place::Variant => "Variant",
    };
    format!("{}{place}{index}", candidate.base)
}

/// How a place is named in the coverage table.
pub fn place_name(place: Place) -> &'static str {
    match place {
        Place::Type => "type",
        Place::Field => "field",
        Place::Element => "element",
        Place::Value => "value",
        Place::Variant => "variant",
    }
}
