//! The readers behind [`parse_documents_with`](super::parse_documents_with):
//! the one-pass reader ([`Plain`]), which builds each document's JSON as
//! serde-saphyr reads it; the same with each value's position ([`Located`],
//! behind [`tables`]), which [`Spans`] reads when an error asks for a
//! position; and the checked reader ([`read_checked`]), which also keeps
//! every key's position and says what is wrong with a text the first one
//! refused.

use std::fmt;
use std::sync::Arc;

use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use serde_saphyr::Spanned;

use super::spans::{Source, Table};
use super::{Document, Position, Spans, UNPLACED, options, position_of, syntax_error};
use crate::error::{Error, Result};
use crate::gofmt;
use crate::limits::Limits;

/// The scalar visits of a reader whose values are built from JSON
/// scalars: one statement of how YAML scalars become JSON values (keys
/// have their own, [`Key`]). Numbers take the form the API server holds
/// them in ([`gofmt::json_number`]): every file reaches it through Go's
/// `encoding/json` (kubectl's YAML-to-JSON, or its decoding and encoding of
/// a JSON file), which writes `2.0` as `2`.
macro_rules! scalar_visits {
    () => {
        fn visit_unit<E>(self) -> std::result::Result<Self::Value, E> {
            Ok(Value::Null.into())
        }
        fn visit_none<E>(self) -> std::result::Result<Self::Value, E> {
            Ok(Value::Null.into())
        }
        fn visit_bool<E>(self, v: bool) -> std::result::Result<Self::Value, E> {
            Ok(Value::Bool(v).into())
        }
        fn visit_i64<E>(self, v: i64) -> std::result::Result<Self::Value, E> {
            Ok(Value::Number(v.into()).into())
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<Self::Value, E> {
            match i64::try_from(v) {
                Ok(v) => self.visit_i64(v),
                // Beyond int64: Kubernetes' reader falls back to a float.
                Err(_) => self.visit_f64(v as f64),
            }
        }
        fn visit_i128<E: de::Error>(self, v: i128) -> std::result::Result<Self::Value, E> {
            self.visit_f64(v as f64)
        }
        fn visit_u128<E: de::Error>(self, v: u128) -> std::result::Result<Self::Value, E> {
            self.visit_f64(v as f64)
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> std::result::Result<Self::Value, E> {
            gofmt::json_number(v)
                .map(|n| Value::Number(n).into())
                .ok_or_else(|| E::custom(format!("{v} cannot be represented in JSON")))
        }
        fn visit_str<E>(self, v: &str) -> std::result::Result<Self::Value, E> {
            Ok(Value::String(v.to_owned()).into())
        }
        fn visit_string<E>(self, v: String) -> std::result::Result<Self::Value, E> {
            Ok(Value::String(v).into())
        }
        fn visit_bytes<E: de::Error>(self, v: &[u8]) -> std::result::Result<Self::Value, E> {
            String::from_utf8(v.to_vec())
                .map(|s| Value::String(s).into())
                .map_err(|_| E::custom("binary value is not valid UTF-8"))
        }
    };
}

/// A YAML node with its position and its keys' positions, as read by the
/// checked reader ([`read_checked`]).
#[derive(Debug)]
enum Node {
    /// A scalar, already JSON.
    Scalar(Value),
    Seq(Vec<Spanned<Node>>),
    Map(Vec<(Spanned<Key>, Spanned<Node>)>),
}

impl From<Value> for Node {
    fn from(value: Value) -> Node {
        Node::Scalar(value)
    }
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
    scalar_visits!();
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> std::result::Result<Node, D::Error> {
        Node::deserialize(d)
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
        d.deserialize_any(KeyVisitor).map(Key)
    }
}

/// sigs.k8s.io/yaml turns scalar keys into their string form; a float key
/// keeps its own digits (`1.0` is `1`, `1e6` is `1e+06`, as a float32),
/// not a value's. A null key, or an integer beyond int64, it has no form
/// for: the file is refused.
struct KeyVisitor;

/// A sequence or mapping used as a key.
const COLLECTION_KEY: &str = "mapping keys must be scalars, not collections";

/// Why a key has no JSON form.
fn keyless(what: &str) -> String {
    format!("{what} is not a key Kubernetes' YAML reader can turn into JSON; quote it to mean the text")
}

impl<'de> Visitor<'de> for KeyVisitor {
    type Value = String;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a scalar mapping key")
    }
    fn visit_unit<E: de::Error>(self) -> std::result::Result<String, E> {
        Err(E::custom(keyless("a null mapping key (`~`, `null` or nothing)")))
    }
    fn visit_none<E: de::Error>(self) -> std::result::Result<String, E> {
        self.visit_unit()
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> std::result::Result<String, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_bool<E>(self, v: bool) -> std::result::Result<String, E> {
        Ok(v.to_string())
    }
    fn visit_i64<E>(self, v: i64) -> std::result::Result<String, E> {
        Ok(v.to_string())
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<String, E> {
        match i64::try_from(v) {
            Ok(v) => self.visit_i64(v),
            Err(_) => Err(E::custom(keyless(&format!("the mapping key {v}, beyond int64,")))),
        }
    }
    fn visit_i128<E: de::Error>(self, v: i128) -> std::result::Result<String, E> {
        // Beyond 64 bits, go-yaml reads a float.
        self.visit_f64(v as f64)
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> std::result::Result<String, E> {
        self.visit_f64(v as f64)
    }
    fn visit_f64<E>(self, v: f64) -> std::result::Result<String, E> {
        Ok(match gofmt::float_g32(v).as_str() {
            "+Inf" => ".inf".to_owned(),
            "-Inf" => "-.inf".to_owned(),
            "NaN" => ".nan".to_owned(),
            text => text.to_owned(),
        })
    }
    fn visit_str<E>(self, v: &str) -> std::result::Result<String, E> {
        Ok(v.to_owned())
    }
    fn visit_string<E>(self, v: String) -> std::result::Result<String, E> {
        Ok(v)
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> std::result::Result<String, E> {
        String::from_utf8(v.to_vec()).map_err(|_| E::custom("binary key is not valid UTF-8"))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> std::result::Result<String, A::Error> {
        Err(de::Error::custom(COLLECTION_KEY))
    }
    fn visit_map<A: MapAccess<'de>>(self, _: A) -> std::result::Result<String, A::Error> {
        Err(de::Error::custom(COLLECTION_KEY))
    }
}

fn position(span: &Spanned<impl Sized>) -> Position {
    position_of(span.referenced)
}

/// Two keys of one mapping that are the same key once read.
#[derive(Debug)]
struct DuplicateKey {
    key: String,
    at: Position,
    first: Position,
}

/// Converts a node to JSON, recording positions; a key that a mapping
/// already holds is an error, never a silently dropped value. Depth is
/// bounded by the reader's budget, so the recursion is bounded too.
fn convert(node: Node, at: Position, key: Option<&str>, spans: &mut Table) -> std::result::Result<Value, DuplicateKey> {
    let me = spans.open(at, key);
    let value = match node {
        Node::Scalar(value) => value,
        Node::Seq(items) => {
            let mut out = Vec::with_capacity(items.len());
            for item in items {
                let at = position(&item);
                out.push(convert(item.value, at, None, spans)?);
            }
            Value::Array(out)
        }
        Node::Map(mut entries) => {
            let mut out = Map::with_capacity(entries.len());
            for i in 0..entries.len() {
                let (key, value) = &mut entries[i];
                let (name, node) =
                    (std::mem::take(&mut key.value.0), std::mem::replace(&mut value.value, Node::Scalar(Value::Null)));
                match out.entry(name) {
                    serde_json::map::Entry::Vacant(slot) => {
                        let converted = convert(node, position(value), Some(slot.key()), spans)?;
                        slot.insert(converted);
                    }
                    serde_json::map::Entry::Occupied(slot) => {
                        let name = slot.key().clone();
                        return Err(first_of(spans, me, &entries[..i], name, position(&entries[i].0)));
                    }
                }
            }
            Value::Object(out)
        }
    };
    spans.close(me);
    Ok(value)
}

/// The duplicate `key` of a mapping at `at`, with where the mapping
/// (`map` in `spans`, its `entries` up to the duplicate) holds it first.
fn first_of(
    spans: &Table,
    map: usize,
    entries: &[(Spanned<Key>, Spanned<Node>)],
    key: String,
    at: Position,
) -> DuplicateKey {
    // The mapping's children in `spans` are its entries so far, in order.
    let mut child = map + 1;
    let mut index = 0;
    while child < spans.nodes.len() && spans.nodes[child].key.is_some_and(|(from, to)| spans.keys[from..to] != key) {
        child = spans.nodes[child].end.max(child + 1);
        index += 1;
    }
    let first = entries.get(index).map_or(at, |(key, _)| position(key));
    DuplicateKey { key, at, first }
}

/// The documents of a parsed source as JSON with positions.
fn documents(nodes: Vec<Option<Spanned<Node>>>, shallow: bool) -> std::result::Result<Vec<Document>, DuplicateKey> {
    let mut documents = Vec::new();
    for node in nodes.into_iter().flatten() {
        if matches!(node.value, Node::Scalar(Value::Null)) {
            continue;
        }
        let start = position(&node);
        let mut spans = Table::default();
        let value = convert(node.value, start, None, &mut spans)?;
        documents.push(Document { index: documents.len(), start, shallow, value, spans: spans.into() });
    }
    Ok(documents)
}

/// Whether documents read within `limits` are shallow
/// ([`Document::shallow`]).
pub(super) fn shallow(limits: &Limits) -> bool {
    limits.max_depth <= Limits::SHALLOW_DEPTH
}

/// Reads every document of `text`: in one pass without positions
/// ([`Plain`]; [`Spans`] reads them when asked, with [`tables`]), or, when
/// that fails, with the checked reader, which says what is wrong.
pub(super) fn read(file: &str, text: &Arc<str>, limits: &Limits) -> Result<Vec<Document>> {
    let options = options(limits, serde_saphyr::DuplicateKeyPolicy::Error);
    match serde_saphyr::from_multiple_with_options::<Plain>(text, options) {
        Ok(read) => {
            let source = Source::new(text, *limits);
            let read = read.into_iter().filter(|doc| !doc.value.is_null());
            Ok(read
                .enumerate()
                .map(|(index, Plain { value, start })| Document {
                    index,
                    start,
                    shallow: shallow(limits),
                    value,
                    spans: Spans::deferred(&source, index),
                })
                .collect())
        }
        // Every error is said by the checked reader, which knows where
        // each key is.
        Err(_) => read_checked(file, text, limits),
    }
}

/// The position tables of the documents of `text`, which [`read`] read
/// without an error, in the same order; none if it no longer reads.
pub(super) fn tables(text: &str, limits: &Limits) -> Vec<Table> {
    crate::limits::with_stack_for(shallow(limits), || {
        let options = options(limits, serde_saphyr::DuplicateKeyPolicy::Error);
        let read = serde_saphyr::from_multiple_with_options::<Located>(text, options).unwrap_or_default();
        read.into_iter().filter(|doc| !doc.value.is_null()).map(|doc| doc.spans).collect()
    })
}

/// Reads `text` with the position of every key as well as every value:
/// slower, and used to say what is wrong with a text the one-pass reader
/// ([`Located`]) refused.
fn read_checked(file: &str, text: &str, limits: &Limits) -> Result<Vec<Document>> {
    let parse = |policy| serde_saphyr::from_multiple_with_options(text, options(limits, policy));
    match parse(serde_saphyr::DuplicateKeyPolicy::Error) {
        // Keys spelt alike are caught by the reader, keys spelt apart that
        // read the same (`on` and `yes` are both `true` in YAML 1.1) here.
        Ok(nodes) => documents(nodes, shallow(limits)).map_err(|d| duplicate_key_error(file, &d, true)),
        Err(e) => match duplicate_mapping_key(&e) {
            // The reader names only the second key: read again keeping
            // both, to say where the first one is.
            Some((key, at)) => {
                let kept = parse(serde_saphyr::DuplicateKeyPolicy::LastWins).ok().map(|nodes| documents(nodes, false));
                let duplicate = match kept {
                    Some(Err(duplicate)) => duplicate,
                    _ => DuplicateKey { key, first: at, at },
                };
                Err(duplicate_key_error(file, &duplicate, false))
            }
            None => Err(syntax_error(file, &e, limits)),
        },
    }
}

/// One document read in one pass: the JSON value and where it starts,
/// without the position of each value in it, which only errors need
/// ([`Spans`] reads the text again for them). A key that a mapping
/// already holds stops the reading.
struct Plain {
    value: Value,
    start: Position,
}

impl<'de> Deserialize<'de> for Plain {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let mut start = UNPLACED;
        let value = NodeSeed { keep: Keep::Start(&mut start) }.deserialize(d)?;
        Ok(Plain { value, start })
    }
}

/// One document read in one pass: the JSON value and the position of every
/// value in it, built as the reader goes. Keys' positions, which only the
/// duplicate-key error needs, are left to [`read_checked`]; a key that a
/// mapping already holds stops the reading.
///
/// The reader says where a value is through the protocol of its own
/// `Spanned` type: a newtype named `__yaml_spanned` that reads as a struct
/// of a marker, the value, and the locations where it is used and defined.
/// Reading that protocol with seeds builds the document directly, where
/// `Spanned<T>` would need a tree of its own first. Should the reader stop
/// offering it, every read fails over to [`read_checked`]: slower, never
/// wrong.
struct Located {
    value: Value,
    spans: Table,
}

impl<'de> Deserialize<'de> for Located {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let mut spans = Table::default();
        let value = NodeSeed { keep: Keep::Table { spans: &mut spans, key: None } }.deserialize(d)?;
        Ok(Located { value, spans })
    }
}

/// The newtype name and fields of the reader's `Spanned` protocol.
const SPANNED: &str = "__yaml_spanned";
const SPANNED_FIELDS: &[&str] = &["__serde_saphyr_private_spanned", "value", "referenced", "defined"];

/// What a reading keeps of a value's position.
enum Keep<'s> {
    /// Its entry in `spans` (under `key` in a mapping), and its children's.
    Table { spans: &'s mut Table, key: Option<&'s str> },
    /// Only where it starts (a document's root), not its children's.
    Start(&'s mut Position),
    /// Nothing.
    Nothing,
}

/// Reads one value and keeps what `keep` says of its position.
struct NodeSeed<'s> {
    keep: Keep<'s>,
}

impl<'de> DeserializeSeed<'de> for NodeSeed<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> std::result::Result<Value, D::Error> {
        match self.keep {
            Keep::Nothing => d.deserialize_any(ValueSeed { spans: None }),
            Keep::Table { .. } | Keep::Start(_) => d.deserialize_newtype_struct(SPANNED, self),
        }
    }
}

impl<'de> Visitor<'de> for NodeSeed<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a value with its position")
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> std::result::Result<Value, D::Error> {
        d.deserialize_struct(SPANNED, SPANNED_FIELDS, self)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut fields: A) -> std::result::Result<Value, A::Error> {
        // The position comes after the value, so the value's entry is
        // opened first and placed once the position is known.
        let (mut spans, mut start) = match self.keep {
            Keep::Table { spans, key } => {
                let node = spans.open(UNPLACED, key);
                (Some((spans, node)), None)
            }
            Keep::Start(start) => (None, Some(start)),
            Keep::Nothing => (None, None),
        };
        let mut value = None;
        while let Some(field) = fields.next_key::<SpannedField>()? {
            match field {
                SpannedField::Value => {
                    let spans = spans.as_mut().map(|(spans, _)| &mut **spans);
                    value = Some(fields.next_value_seed(ValueSeed { spans })?);
                }
                SpannedField::Referenced => {
                    let at = position_of(fields.next_value::<serde_saphyr::Location>()?);
                    match (&mut spans, &mut start) {
                        (Some((spans, node)), _) => spans.nodes[*node].at = at,
                        (None, Some(start)) => **start = at,
                        (None, None) => {}
                    }
                }
                SpannedField::Marker => fields.next_value::<de::IgnoredAny>().map(drop)?,
                SpannedField::Defined => fields.next_value::<serde_saphyr::Location>().map(drop)?,
            }
        }
        if let Some((spans, node)) = spans {
            spans.close(node);
        }
        value.ok_or_else(|| de::Error::custom("the reader gave a position without a value"))
    }
}

/// A field of the reader's `Spanned` protocol.
enum SpannedField {
    Marker,
    Value,
    Referenced,
    Defined,
}

impl<'de> Deserialize<'de> for SpannedField {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct FieldVisitor;
        impl Visitor<'_> for FieldVisitor {
            type Value = SpannedField;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a field of a value with its position")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<SpannedField, E> {
                match SPANNED_FIELDS.iter().position(|field| *field == v) {
                    Some(0) => Ok(SpannedField::Marker),
                    Some(1) => Ok(SpannedField::Value),
                    Some(2) => Ok(SpannedField::Referenced),
                    Some(3) => Ok(SpannedField::Defined),
                    _ => Err(E::unknown_field(v, SPANNED_FIELDS)),
                }
            }
        }
        d.deserialize_identifier(FieldVisitor)
    }
}

/// Reads one value as JSON, its children with their positions when given
/// `spans`.
struct ValueSeed<'s> {
    spans: Option<&'s mut Table>,
}

impl ValueSeed<'_> {
    /// The reading of a child under `key` (`None` for an item).
    fn child<'c>(&'c mut self, key: Option<&'c str>) -> NodeSeed<'c> {
        NodeSeed {
            keep: match self.spans.as_deref_mut() {
                Some(spans) => Keep::Table { spans, key },
                None => Keep::Nothing,
            },
        }
    }
}

impl<'de> DeserializeSeed<'de> for ValueSeed<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> std::result::Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ValueSeed<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any YAML value")
    }
    scalar_visits!();
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> std::result::Result<Value, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> std::result::Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(self.child(None))? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> std::result::Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(Key(key)) = map.next_key::<Key>()? {
            match out.entry(key) {
                serde_json::map::Entry::Vacant(slot) => {
                    let value = map.next_value_seed(self.child(Some(slot.key())))?;
                    slot.insert(value);
                }
                serde_json::map::Entry::Occupied(_) => return Err(de::Error::custom("duplicate key")),
            }
        }
        Ok(Value::Object(out))
    }
}

/// The key and position of the reader's duplicate-key error, if `e` is one.
fn duplicate_mapping_key(e: &serde_saphyr::Error) -> Option<(String, Position)> {
    match e {
        serde_saphyr::Error::DuplicateMappingKey { key, location } => {
            Some((key.clone().unwrap_or_else(|| "?".to_owned()), position_of(*location)))
        }
        serde_saphyr::Error::WithSnippet { error, .. } | serde_saphyr::Error::AliasError { error, .. } => {
            duplicate_mapping_key(error)
        }
        _ => None,
    }
}

// What the API server's reader refuses too (`sigs.k8s.io/yaml` rejects
// duplicate keys after resolving them to strings), with what to do.
fn duplicate_key_error(file: &str, d: &DuplicateKey, spelt_apart: bool) -> Error {
    let DuplicateKey { key, at, first } = d;
    let first = if first == at { String::new() } else { format!(", first at {first}") };
    let advice = if spelt_apart {
        let example = match key.as_str() {
            "true" | "false" => " (`on`, `yes` and `true` are one key, as are `off`, `no` and `false`)",
            _ => "",
        };
        format!(
            "the two keys are written differently but YAML 1.1 reads both as {key:?}{example}; quote them to keep \
             them apart"
        )
    } else {
        "a mapping holds each key once; remove or rename one".to_owned()
    };
    Error::Syntax {
        file: file.to_owned(),
        line: at.line,
        column: at.column,
        message: format!("duplicate key {key:?} at {at}{first}: {advice}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_pass_reader_reads_what_the_checked_reader_reads() {
        let texts = [
            "---\na:\n  b: [1, 2.5, yes, ~, \"x\"]\n---\n---\nc: d\n",
            "a: &x {p: [1, {q: 2}], r: 0777}\nb: *x\n1: one\ntrue: t\n1.5: f\n",
            "{\"a\": [1, {\"b\": null}], \"\": \"e\", \"c\": {}}",
            "- |\n  block\n- >-\n  folded\n- [[], [[]]]\n",
            "~\n---\nplain\n---\n- 1\n",
            "\"on\": push\n\"yes\": pull\n",
        ];
        let limits = Limits::default();
        for text in texts {
            let one_pass = read("t.yaml", &Arc::from(text), &limits).unwrap_or_else(|e| panic!("{text:?}: {e}"));
            // Read without positions; the tables are read when asked.
            assert!(one_pass.iter().all(|doc| !doc.spans.is_read()), "{text:?}");
            let checked = read_checked("t.yaml", text, &limits).unwrap();
            assert_eq!(one_pass.len(), checked.len(), "{text:?}");
            for (read, doc) in one_pass.iter().zip(&checked) {
                assert_eq!((read.index, &read.value, read.start), (doc.index, &doc.value, doc.start), "{text:?}");
                let (read, doc) = (read.spans.table().expect("a table"), doc.spans.table().expect("a table"));
                assert_eq!(read.keys, doc.keys, "{text:?}");
                assert_eq!(read.nodes, doc.nodes, "{text:?}");
            }
            assert!(one_pass.iter().all(|doc| doc.spans.is_read()), "{text:?}");
        }
    }

    #[test]
    fn keys_that_read_the_same_stop_the_one_pass_reader() {
        let options = || options(&Limits::default(), serde_saphyr::DuplicateKeyPolicy::Error);
        assert!(serde_saphyr::from_multiple_with_options::<Plain>("on: push\nyes: pull\n", options()).is_err());
        assert!(serde_saphyr::from_multiple_with_options::<Located>("on: push\nyes: pull\n", options()).is_err());
    }
}
