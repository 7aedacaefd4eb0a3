//! Reading YAML and JSON documents the way Kubernetes reads them.
//!
//! Entry points: [`parse_documents`] (one source text, possibly several
//! `---`-separated documents) giving [`Document`]s, each a
//! `serde_json::Value` plus a [`Spans`] table that maps JSON paths back to
//! line and column.
//!
//! The reader is serde-saphyr configured like Kubernetes' YAML 1.1 reader
//! (`sigs.k8s.io/yaml` over go-yaml v2): `yes`/`no`/`on`/`off` are booleans,
//! `0777` is octal, duplicate keys are errors, non-string keys become their
//! string form (`true`, `1`), and aliases, nesting depth and document size
//! are budgeted so hostile input fails fast with a clear error. JSON is read
//! by the same reader, since JSON is YAML; this keeps line and column
//! information for JSON files too.

use std::collections::HashMap;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use serde_saphyr::{Spanned, budget::Budget};

use crate::error::{Error, Result};
use crate::gofmt;

/// Deepest nesting of collections accepted. Real CRDs stay below 40; the
/// limit keeps every recursive algorithm far from the stack's end.
pub const MAX_DEPTH: usize = 256;

/// A 1-based line and column in a source text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    /// 1-based line.
    pub line: u64,
    /// 1-based column, in characters.
    pub column: u64,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// One step of a path inside a JSON document.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// An object key.
    Key(String),
    /// An array index.
    Index(usize),
}

/// Where each value of a document starts in its source.
#[derive(Clone, Debug, Default)]
pub struct Spans {
    values: HashMap<Vec<Step>, Position>,
}

impl Spans {
    /// The position of the value at `path`, if known.
    pub fn get(&self, path: &[Step]) -> Option<Position> {
        self.values.get(path).copied()
    }

    /// The position of the value at `path`, or of its nearest known ancestor.
    pub fn nearest(&self, path: &[Step]) -> Option<Position> {
        (0..=path.len()).rev().find_map(|n| self.get(&path[..n]))
    }
}

/// One parsed document.
#[derive(Clone, Debug)]
pub struct Document {
    /// 0-based index among the non-empty documents of the source.
    pub index: usize,
    /// Where the document's content starts.
    pub start: Position,
    /// The document as JSON.
    pub value: Value,
    /// Positions of its values.
    pub spans: Spans,
}

/// A YAML node with its position, as read from the source.
#[derive(Debug)]
enum Node {
    Null,
    Bool(bool),
    Number(Number),
    String(String),
    Seq(Vec<Spanned<Node>>),
    Map(Vec<(Spanned<Key>, Spanned<Node>)>),
}

/// A mapping key in its Kubernetes string form.
#[derive(Debug)]
struct Key(String);

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        d.deserialize_any(NodeVisitor)
    }
}

struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any YAML value")
    }
    fn visit_unit<E>(self) -> std::result::Result<Node, E> {
        Ok(Node::Null)
    }
    fn visit_none<E>(self) -> std::result::Result<Node, E> {
        Ok(Node::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> std::result::Result<Node, D::Error> {
        Node::deserialize(d)
    }
    fn visit_bool<E>(self, v: bool) -> std::result::Result<Node, E> {
        Ok(Node::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> std::result::Result<Node, E> {
        Ok(Node::Number(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> std::result::Result<Node, E> {
        Ok(Node::Number(v.into()))
    }
    fn visit_i128<E: de::Error>(self, v: i128) -> std::result::Result<Node, E> {
        // Too large for 64 bits: Kubernetes' reader falls back to a float.
        self.visit_f64(v as f64)
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> std::result::Result<Node, E> {
        self.visit_f64(v as f64)
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> std::result::Result<Node, E> {
        Number::from_f64(v).map(Node::Number).ok_or_else(|| E::custom(format!("{v} cannot be represented in JSON")))
    }
    fn visit_str<E>(self, v: &str) -> std::result::Result<Node, E> {
        Ok(Node::String(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> std::result::Result<Node, E> {
        Ok(Node::String(v))
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> std::result::Result<Node, E> {
        String::from_utf8(v.to_vec()).map(Node::String).map_err(|_| E::custom("binary value is not valid UTF-8"))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Node, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Node::Seq(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Node, A::Error> {
        let mut entries = Vec::new();
        while let Some(key) = map.next_key::<Spanned<Key>>()? {
            let value = map.next_value()?;
            entries.push((key, value));
        }
        Ok(Node::Map(entries))
    }
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let node = Node::deserialize(d)?;
        // sigs.k8s.io/yaml turns scalar keys into their string form.
        let text = match node {
            Node::Null => "null".to_owned(),
            Node::Bool(b) => b.to_string(),
            Node::Number(n) if n.is_f64() => gofmt::float_v(n.as_f64().unwrap_or(0.0)),
            Node::Number(n) => n.to_string(),
            Node::String(s) => s,
            Node::Seq(_) | Node::Map(_) => {
                return Err(de::Error::custom("mapping keys must be scalars, not collections"));
            }
        };
        Ok(Key(text))
    }
}

fn options() -> serde_saphyr::Options {
    let mut options = serde_saphyr::Options::default();
    let mut budget = Budget::default();
    budget.max_depth = MAX_DEPTH;
    budget.max_nodes = 4_000_000;
    budget.max_events = 8_000_000;
    options.budget = Some(budget);
    options.duplicate_keys = serde_saphyr::DuplicateKeyPolicy::Error;
    options.legacy_octal_numbers = true;
    options.strict_booleans = false;
    options.with_snippet = false;
    options
}

fn position(span: &Spanned<impl Sized>) -> Position {
    let location = span.referenced;
    Position { line: location.line(), column: location.column() }
}

/// Converts a node to JSON, recording positions. Depth is bounded by the
/// reader's budget, so the recursion is bounded too.
fn convert(node: Spanned<Node>, path: &mut Vec<Step>, spans: &mut Spans) -> Value {
    spans.values.insert(path.clone(), position(&node));
    match node.value {
        Node::Null => Value::Null,
        Node::Bool(b) => Value::Bool(b),
        Node::Number(n) => Value::Number(n),
        Node::String(s) => Value::String(s),
        Node::Seq(items) => {
            let mut out = Vec::with_capacity(items.len());
            for (i, item) in items.into_iter().enumerate() {
                path.push(Step::Index(i));
                out.push(convert(item, path, spans));
                path.pop();
            }
            Value::Array(out)
        }
        Node::Map(entries) => {
            let mut out = Map::with_capacity(entries.len());
            for (key, value) in entries {
                path.push(Step::Key(key.value.0.clone()));
                out.insert(key.value.0, convert(value, path, spans));
                path.pop();
            }
            Value::Object(out)
        }
    }
}

/// Parses every document of `text`. Empty documents are skipped. `file`
/// names the source in errors.
pub fn parse_documents(file: &str, text: &str) -> Result<Vec<Document>> {
    let nodes: Vec<Option<Spanned<Node>>> =
        serde_saphyr::from_multiple_with_options(text, options()).map_err(|e| syntax_error(file, &e))?;
    let mut documents = Vec::new();
    for node in nodes.into_iter().flatten() {
        if matches!(node.value, Node::Null) {
            continue;
        }
        let start = position(&node);
        let mut spans = Spans::default();
        let value = convert(node, &mut Vec::new(), &mut spans);
        documents.push(Document { index: documents.len(), start, value, spans });
    }
    Ok(documents)
}

fn syntax_error(file: &str, e: &serde_saphyr::Error) -> Error {
    let location = e.location();
    let (line, column) = location.map(|l| (l.line(), l.column())).unwrap_or((0, 0));
    let message = e.without_snippet().to_string();
    // The rendered message may repeat the position; keep the first line.
    let mut message = message.lines().next().unwrap_or("invalid YAML").to_owned();
    if message.contains("recursion limit exceeded") || message.contains("max_depth") {
        message = format!("document nested more than {MAX_DEPTH} levels deep ({message})");
    }
    Error::Syntax { file: file.to_owned(), line, column, message }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn one(text: &str) -> Value {
        let mut docs = parse_documents("t.yaml", text).unwrap();
        assert_eq!(docs.len(), 1);
        docs.remove(0).value
    }

    #[test]
    fn yaml_1_1_scalars() {
        assert_eq!(
            one("a: yes\nb: off\nc: 0777\nd: 1.0\ne: 1\nf: \"yes\"\ng: =\n"),
            json!({"a": true, "b": false, "c": 511, "d": 1.0, "e": 1, "f": "yes", "g": "="})
        );
        assert!(one("d: 1.0\n")["d"].is_f64());
        assert!(one("d: 1\n")["d"].is_i64());
    }

    #[test]
    fn non_string_keys_become_strings() {
        assert_eq!(one("1: a\ntrue: b\n"), json!({"1": "a", "true": "b"}));
    }

    #[test]
    fn duplicate_keys_are_errors() {
        let err = parse_documents("t.yaml", "a: 1\na: 2\n").unwrap_err();
        let Error::Syntax { line, .. } = err else { panic!("{err}") };
        assert_eq!(line, 2);
    }

    #[test]
    fn documents_and_spans() {
        let docs = parse_documents("t.yaml", "---\na:\n  b: [1, 2]\n---\n---\nc: d\n").unwrap();
        assert_eq!(docs.len(), 2);
        assert_eq!(docs[1].index, 1);
        assert_eq!(docs[1].start.line, 6);
        let p = docs[0].spans.get(&[Step::Key("a".into()), Step::Key("b".into()), Step::Index(1)]).unwrap();
        assert_eq!((p.line, p.column), (3, 10));
    }

    #[test]
    fn json_is_read_too() {
        assert_eq!(one("{\"a\": [1, 2.5, \"x\"], \"b\": null}"), json!({"a": [1, 2.5, "x"], "b": null}));
    }

    #[test]
    fn deep_nesting_is_rejected_without_overflow() {
        let text = "[".repeat(10_000) + &"]".repeat(10_000);
        assert!(parse_documents("t.yaml", &text).is_err());
        let mut block = String::new();
        for i in 0..10_000 {
            block.push_str(&" ".repeat(i));
            block.push_str("a:\n");
        }
        assert!(parse_documents("t.yaml", &block).is_err());
    }
}
