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
//! are bounded ([`Limits`]) so hostile input fails fast with a clear error. JSON is read
//! by the same reader, since JSON is YAML; this keeps line and column
//! information for JSON files too.

use std::fmt;

use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use serde_saphyr::{Spanned, budget::Budget};

use crate::error::{Error, Result};
use crate::gofmt;
use crate::limits::{Limit, Limits};

/// Deepest nesting of collections accepted by default
/// ([`Limits::max_depth`]). Real CRDs stay below 40; the limit bounds the
/// stack and the memory that deep documents take (see [`crate::limits`]).
pub const MAX_DEPTH: usize = Limits::DEFAULT.max_depth;

pub use crate::source::Position;

/// One step of a path inside a JSON document.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// An object key.
    Key(String),
    /// An array index.
    Index(usize),
}

impl Step {
    /// The step into object key `name`.
    pub fn key(name: &str) -> Step {
        Step::Key(name.to_owned())
    }
}

/// Where each value of a document starts in its source.
///
/// The values are kept in document order, each before its children, with
/// the index just past its last descendant and, inside a mapping, its
/// key; the keys are stored end to end in one string. Building the table
/// costs one entry per value, and a lookup walks only the children along
/// its path: positions are wanted for errors, which are usually few. A
/// lookup that walks past the first `SCANNED_CHILDREN` children of a
/// collection indexes them all, so that many errors in a wide mapping or
/// a long sequence cost one pass over it, not one each.
#[derive(Clone, Debug, Default)]
pub struct Spans {
    nodes: Vec<SpanNode>,
    keys: String,
    indexes: ChildIndexes,
}

/// Children a lookup walks before the collection is indexed.
const SCANNED_CHILDREN: usize = 16;

/// The children of each indexed collection of [`Spans`], by node index.
/// A clone starts empty: the indexes are built again when needed.
#[derive(Default)]
struct ChildIndexes(std::sync::Mutex<foldhash::HashMap<usize, std::sync::Arc<ChildIndex>>>);

crate::structural::derived_on_first_use!(ChildIndexes);

/// One collection's children: in order, and a mapping's by key.
#[derive(Debug)]
struct ChildIndex {
    items: Vec<usize>,
    keys: foldhash::HashMap<Box<str>, usize>,
}

/// One value of [`Spans`].
#[derive(Clone, Copy, Debug)]
struct SpanNode {
    at: Position,
    /// Index just past the value's last descendant.
    end: usize,
    /// The key's range in [`Spans::keys`]; `None` for an item of a
    /// sequence and for the document itself.
    key: Option<(usize, usize)>,
}

impl Spans {
    /// The position of the value at `path`, if known.
    pub fn get(&self, path: &[Step]) -> Option<Position> {
        let mut node = (!self.nodes.is_empty()).then_some(0)?;
        for step in path {
            node = self.child(node, step)?;
        }
        Some(self.nodes[node].at)
    }

    /// The position of the value at `path`, or of its nearest known ancestor.
    pub fn nearest(&self, path: &[Step]) -> Option<Position> {
        (0..=path.len()).rev().find_map(|n| self.get(&path[..n]))
    }

    /// The index of `parent`'s child at `step`.
    fn child(&self, parent: usize, step: &Step) -> Option<usize> {
        let end = self.nodes[parent].end;
        let mut child = parent + 1;
        let mut index = 0;
        while child < end {
            if index == SCANNED_CHILDREN {
                return self.indexed_child(parent, step);
            }
            let node = &self.nodes[child];
            let found = match (step, node.key) {
                (Step::Key(key), Some((from, to))) => self.keys[from..to] == *key,
                (Step::Index(i), None) => *i == index,
                _ => return None,
            };
            if found {
                return Some(child);
            }
            index += 1;
            child = node.end;
        }
        None
    }

    /// [`Self::child`] through the index of `parent`'s children, built on
    /// first use.
    fn indexed_child(&self, parent: usize, step: &Step) -> Option<usize> {
        let index = {
            let mut indexes = self.indexes.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            let index = indexes.entry(parent).or_insert_with(|| std::sync::Arc::new(self.index_children(parent)));
            std::sync::Arc::clone(index)
        };
        match step {
            Step::Key(key) => index.keys.get(key.as_str()).copied(),
            Step::Index(i) => index.items.get(*i).copied().filter(|&c| self.nodes[c].key.is_none()),
        }
    }

    fn index_children(&self, parent: usize) -> ChildIndex {
        let mut index = ChildIndex { items: Vec::new(), keys: foldhash::HashMap::default() };
        let end = self.nodes[parent].end;
        let mut child = parent + 1;
        while child < end {
            let node = &self.nodes[child];
            index.items.push(child);
            if let Some((from, to)) = node.key {
                // The first of repeated keys, as a scan finds it.
                index.keys.entry(self.keys[from..to].into()).or_insert(child);
            }
            child = node.end;
        }
        index
    }

    /// Records a value that starts at `at` (under `key` in a mapping); its
    /// children follow until [`Self::close`].
    fn open(&mut self, at: Position, key: Option<&str>) -> usize {
        let key = key.map(|key| {
            self.keys.push_str(key);
            (self.keys.len() - key.len(), self.keys.len())
        });
        self.nodes.push(SpanNode { at, end: 0, key });
        self.nodes.len() - 1
    }

    /// Ends the value `node` opened, after its children.
    fn close(&mut self, node: usize) {
        self.nodes[node].end = self.nodes.len();
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

/// The scalar visits of a reader whose values are built from JSON
/// scalars: one statement of how YAML scalars become JSON.
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
        fn visit_u64<E>(self, v: u64) -> std::result::Result<Self::Value, E> {
            Ok(Value::Number(v.into()).into())
        }
        fn visit_i128<E: de::Error>(self, v: i128) -> std::result::Result<Self::Value, E> {
            // Too large for 64 bits: Kubernetes' reader falls back to a float.
            self.visit_f64(v as f64)
        }
        fn visit_u128<E: de::Error>(self, v: u128) -> std::result::Result<Self::Value, E> {
            self.visit_f64(v as f64)
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> std::result::Result<Self::Value, E> {
            Number::from_f64(v)
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
        let node = Node::deserialize(d)?;
        // sigs.k8s.io/yaml turns scalar keys into their string form.
        let text = match node {
            Node::Scalar(Value::Null) => "null".to_owned(),
            Node::Scalar(Value::Bool(b)) => b.to_string(),
            Node::Scalar(Value::Number(n)) if n.is_f64() => gofmt::float_v(n.as_f64().unwrap_or(0.0)),
            Node::Scalar(Value::Number(n)) => n.to_string(),
            Node::Scalar(Value::String(s)) => s,
            Node::Scalar(Value::Array(_) | Value::Object(_)) | Node::Seq(_) | Node::Map(_) => {
                return Err(de::Error::custom("mapping keys must be scalars, not collections"));
            }
        };
        Ok(Key(text))
    }
}

fn options(limits: &Limits, duplicate_keys: serde_saphyr::DuplicateKeyPolicy) -> serde_saphyr::Options {
    let mut options = serde_saphyr::Options::default();
    let mut budget = Budget::default();
    budget.max_depth = limits.max_depth;
    budget.flow_nesting_limit = limits.max_depth;
    budget.max_nodes = limits.max_nodes;
    // Every node is at most two events (start and end); the rest are
    // document and stream markers, one per document.
    budget.max_events = limits.max_nodes.saturating_mul(2).saturating_add(1024);
    budget.max_documents = limits.max_nodes;
    budget.max_aliases = limits.max_aliases;
    budget.max_anchors = limits.max_aliases;
    budget.max_total_scalar_bytes = limits.max_input_bytes;
    budget.max_recorded_anchor_bytes = limits.max_input_bytes;
    budget.max_recorded_anchor_events = limits.max_alias_nodes;
    options.budget = Some(budget);
    options.alias_limits.max_total_replayed_events = limits.max_alias_nodes;
    options.duplicate_keys = duplicate_keys;
    options.legacy_octal_numbers = true;
    options.strict_booleans = false;
    options.with_snippet = false;
    options
}

fn position(span: &Spanned<impl Sized>) -> Position {
    let location = span.referenced;
    Position { line: location.line(), column: location.column() }
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
fn convert(node: Node, at: Position, key: Option<&str>, spans: &mut Spans) -> std::result::Result<Value, DuplicateKey> {
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
    spans: &Spans,
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
fn documents(nodes: Vec<Option<Spanned<Node>>>) -> std::result::Result<Vec<Document>, DuplicateKey> {
    let mut documents = Vec::new();
    for node in nodes.into_iter().flatten() {
        if matches!(node.value, Node::Scalar(Value::Null)) {
            continue;
        }
        let start = position(&node);
        let mut spans = Spans::default();
        let value = convert(node.value, start, None, &mut spans)?;
        documents.push(Document { index: documents.len(), start, value, spans });
    }
    Ok(documents)
}

/// Parses every document of `text` within the default [`Limits`]. Empty
/// documents are skipped. `file` names the source in errors.
pub fn parse_documents(file: &str, text: &str) -> Result<Vec<Document>> {
    parse_documents_with(file, text, &Limits::default())
}

/// Parses every document of `text` within `limits`. Empty documents are
/// skipped. `file` names the source in errors. The reader recurses once per
/// level of nesting, so it runs with a stack of its own
/// ([`with_deep_stack`](crate::limits::with_deep_stack)).
pub fn parse_documents_with(file: &str, text: &str, limits: &Limits) -> Result<Vec<Document>> {
    crate::limits::with_deep_stack(|| parse_within_limits(file, text, limits))
}

fn parse_within_limits(file: &str, text: &str, limits: &Limits) -> Result<Vec<Document>> {
    if text.len() > limits.max_input_bytes {
        return Err(limits.breach(Limit::InputBytes, file, None, format!("input is {} bytes", text.len())));
    }
    let options = options(limits, serde_saphyr::DuplicateKeyPolicy::Error);
    match serde_saphyr::from_multiple_with_options::<Located>(text, options) {
        Ok(read) => {
            let read = read.into_iter().filter(|doc| !doc.value.is_null());
            Ok(read
                .enumerate()
                .map(|(index, Located { value, spans, start })| Document { index, start, value, spans })
                .collect())
        }
        // Every error is said by the checked reader, which knows where
        // each key is.
        Err(_) => read_checked(file, text, limits),
    }
}

/// Reads `text` with the position of every key as well as every value:
/// slower, and used to say what is wrong with a text the one-pass reader
/// ([`Located`]) refused.
fn read_checked(file: &str, text: &str, limits: &Limits) -> Result<Vec<Document>> {
    let parse = |policy| serde_saphyr::from_multiple_with_options(text, options(limits, policy));
    match parse(serde_saphyr::DuplicateKeyPolicy::Error) {
        // Keys spelt alike are caught by the reader, keys spelt apart that
        // read the same (`on` and `yes` are both `true` in YAML 1.1) here.
        Ok(nodes) => documents(nodes).map_err(|d| duplicate_key_error(file, &d, true)),
        Err(e) => match duplicate_mapping_key(&e) {
            // The reader names only the second key: read again keeping
            // both, to say where the first one is.
            Some((key, at)) => {
                let kept = parse(serde_saphyr::DuplicateKeyPolicy::LastWins).ok().map(documents);
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
    spans: Spans,
    start: Position,
}

impl<'de> Deserialize<'de> for Located {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let mut spans = Spans::default();
        let value = LocatedSeed { spans: &mut spans, key: None }.deserialize(d)?;
        let start = spans.nodes.first().map_or(UNPLACED, |node| node.at);
        Ok(Located { value, spans, start })
    }
}

/// The position of a value before the reader has said it.
const UNPLACED: Position = Position { line: 0, column: 0 };

/// The newtype name and fields of the reader's `Spanned` protocol.
const SPANNED: &str = "__yaml_spanned";
const SPANNED_FIELDS: &[&str] = &["__serde_saphyr_private_spanned", "value", "referenced", "defined"];

/// Reads one value (under `key` in a mapping) with its position into
/// `spans`.
struct LocatedSeed<'s> {
    spans: &'s mut Spans,
    key: Option<&'s str>,
}

impl<'de> DeserializeSeed<'de> for LocatedSeed<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> std::result::Result<Value, D::Error> {
        d.deserialize_newtype_struct(SPANNED, self)
    }
}

impl<'de> Visitor<'de> for LocatedSeed<'_> {
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
        let node = self.spans.open(UNPLACED, self.key);
        let mut value = None;
        while let Some(field) = fields.next_key::<SpannedField>()? {
            match field {
                SpannedField::Value => {
                    value = Some(fields.next_value_seed(ValueSeed { spans: &mut *self.spans })?);
                }
                SpannedField::Referenced => {
                    let at = fields.next_value::<serde_saphyr::Location>()?;
                    self.spans.nodes[node].at = Position { line: at.line(), column: at.column() };
                }
                SpannedField::Marker => fields.next_value::<de::IgnoredAny>().map(drop)?,
                SpannedField::Defined => fields.next_value::<serde_saphyr::Location>().map(drop)?,
            }
        }
        self.spans.close(node);
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

/// Reads one value as JSON, its children with their positions.
struct ValueSeed<'s> {
    spans: &'s mut Spans,
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
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(LocatedSeed { spans: &mut *self.spans, key: None })? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(Key(key)) = map.next_key::<Key>()? {
            match out.entry(key) {
                serde_json::map::Entry::Vacant(slot) => {
                    let value = map.next_value_seed(LocatedSeed { spans: &mut *self.spans, key: Some(slot.key()) })?;
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
        serde_saphyr::Error::DuplicateMappingKey { key, location } => Some((
            key.clone().unwrap_or_else(|| "?".to_owned()),
            Position { line: location.line(), column: location.column() },
        )),
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
            "null" => " (`~`, `null` and `Null` are one key)",
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

fn syntax_error(file: &str, e: &serde_saphyr::Error, limits: &Limits) -> Error {
    let location = e.location();
    let (line, column) = location.map(|l| (l.line(), l.column())).unwrap_or((0, 0));
    let position = location.map(|_| Position { line, column });
    if let Some((limit, what)) = budget_breach(e) {
        return limits.breach(limit, file, position, what);
    }
    let message = e.without_snippet().to_string();
    // The rendered message may repeat the position; keep the first line.
    let mut message = message.lines().next().unwrap_or("invalid YAML").to_owned();
    if message.contains("recursion limit exceeded") {
        return limits.breach(Limit::Depth, file, position, message);
    }
    if message.is_empty() {
        message = "invalid YAML".to_owned();
    }
    Error::Syntax { file: file.to_owned(), line, column, message }
}

/// The limit a budget breach of the reader stands for, and what exceeded it.
fn budget_breach(e: &serde_saphyr::Error) -> Option<(Limit, String)> {
    use serde_saphyr::budget::BudgetBreach as B;
    let breach = match e {
        serde_saphyr::Error::Budget { breach, .. } => breach,
        serde_saphyr::Error::AliasError { error, .. } | serde_saphyr::Error::WithSnippet { error, .. } => {
            return budget_breach(error);
        }
        serde_saphyr::Error::AliasReplayLimitExceeded { total_replayed_events, .. } => {
            return Some((Limit::AliasNodes, format!("{total_replayed_events} nodes from alias expansion")));
        }
        serde_saphyr::Error::AliasExpansionLimitExceeded { expansions, .. } => {
            return Some((Limit::Aliases, format!("{expansions} expansions of one anchor")));
        }
        serde_saphyr::Error::AliasReplayStackDepthExceeded { depth, .. } => {
            return Some((Limit::Depth, format!("aliases nested {depth} deep")));
        }
        _ => return None,
    };
    Some(match breach {
        B::Depth { depth } => (Limit::Depth, format!("depth {depth}")),
        B::Aliases { aliases } => (Limit::Aliases, format!("{aliases} alias uses")),
        B::Anchors { anchors } => (Limit::Aliases, format!("{anchors} anchors")),
        B::AliasAnchorRatio { .. } => {
            (Limit::Aliases, "aliases far outnumber anchors (alias expansion bomb)".to_owned())
        }
        B::Nodes { nodes } => (Limit::Nodes, format!("{nodes} nodes after alias expansion")),
        B::RecordedAnchorEvents { recorded_anchor_events } => {
            (Limit::AliasNodes, format!("{recorded_anchor_events} nodes recorded for alias expansion"))
        }
        B::Events { events } => (Limit::Nodes, format!("{events} parser events after alias expansion")),
        B::Documents { documents } => (Limit::Nodes, format!("{documents} documents")),
        B::ScalarBytes { total_scalar_bytes } => {
            (Limit::InputBytes, format!("{total_scalar_bytes} bytes of scalars after alias expansion"))
        }
        other => (Limit::Nodes, format!("{other:?}")),
    })
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
    fn duplicate_keys_are_errors_naming_both() {
        let err = parse_documents("t.yaml", "spec:\n  versions: []\n  group: g\n  versions: [v1]\n").unwrap_err();
        let Error::Syntax { line, column, message, .. } = &err else { panic!("{err}") };
        assert_eq!((*line, *column), (4, 3));
        assert_eq!(
            message,
            "duplicate key \"versions\" at 4:3, first at 2:3: a mapping holds each key once; remove or rename one"
        );
        let err = parse_documents("t.json", "{\"a\": 1, \"a\": 2}").unwrap_err();
        assert!(err.to_string().contains("duplicate key \"a\" at 1:10, first at 1:2"), "{err}");
    }

    #[test]
    fn keys_that_read_the_same_are_duplicates_too() {
        // YAML 1.1: `on` and `yes` are both `true`, so the second would
        // silently replace the first.
        let err = parse_documents("t.yaml", "on: push\nyes: pull\n").unwrap_err();
        let Error::Syntax { line, message, .. } = &err else { panic!("{err}") };
        assert_eq!(*line, 2);
        assert!(
            message.starts_with("duplicate key \"true\" at 2:1, first at 1:1: the two keys are written"),
            "{message}"
        );
        // Integer keys the reader compares by value; it names the second.
        let err = parse_documents("t.yaml", "a:\n  1: x\n  0x1: y\n").unwrap_err();
        assert!(err.to_string().contains("duplicate key \"0x1\" at 3:3: a mapping holds"), "{err}");
        // Quoted, they stay apart.
        assert_eq!(one("\"on\": push\n\"yes\": pull\n"), json!({"on": "push", "yes": "pull"}));
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
    fn spans_follow_keys_and_indexes_only_where_they_apply() {
        let docs = parse_documents("t.yaml", "a:\n  - p: 1\n    q: [2, {z: 3}]\n  - 4\nb: {}\n\"\": 5\n").unwrap();
        let spans = &docs[0].spans;
        let key = |k: &str| Step::Key(k.to_owned());
        let at = |path: &[Step]| spans.get(path).map(|p| (p.line, p.column));
        assert_eq!(at(&[]), Some((1, 1)));
        assert_eq!(at(&[key("a"), Step::Index(0), key("q"), Step::Index(1), key("z")]), Some((3, 16)));
        assert_eq!(at(&[key("a"), Step::Index(1)]), Some((4, 5)));
        assert_eq!(at(&[key("b")]), Some((5, 4)));
        assert_eq!(at(&[key("")]), Some((6, 5)));
        // A key into a sequence, an index into a mapping, a missing key.
        assert_eq!(at(&[key("a"), key("0")]), None);
        assert_eq!(at(&[Step::Index(0)]), None);
        assert_eq!(at(&[key("a"), Step::Index(2)]), None);
        let nearest = spans.nearest(&[key("b"), key("missing"), Step::Index(3)]).unwrap();
        assert_eq!((nearest.line, nearest.column), (5, 4));
    }

    #[test]
    fn wide_collections_are_indexed_and_found_as_by_a_scan() {
        let n = SCANNED_CHILDREN * 4;
        let keys: Vec<String> = (0..n).map(|i| format!("\"k{i}\": [{}]", vec!["1"; i % 3 + 1].join(", "))).collect();
        let items: Vec<String> = (0..n).map(|i| format!("{{\"i\": {i}}}")).collect();
        let text = format!("{{\"m\": {{{}}}, \"s\": [{}]}}", keys.join(", "), items.join(", "));
        let docs = parse_documents("t.json", &text).unwrap();
        let spans = &docs[0].spans;
        let key = |k: &str| Step::Key(k.to_owned());
        let column = |path: &[Step]| spans.get(path).and_then(|p| usize::try_from(p.column).ok());
        // Positions from the text itself, for keys past the scanned ones.
        for i in [0, SCANNED_CHILDREN - 1, SCANNED_CHILDREN, n - 1] {
            let value = text.find(&format!("\"k{i}\": [")).unwrap() + format!("\"k{i}\": ").len();
            assert_eq!(column(&[key("m"), key(&format!("k{i}"))]), Some(value + 1), "k{i}");
            let item = text.find(&format!("{{\"i\": {i}}}")).unwrap();
            assert_eq!(column(&[key("s"), Step::Index(i)]), Some(item + 1), "item {i}");
            assert_eq!(column(&[key("s"), Step::Index(i), key("i")]), Some(item + 7), "item {i}'s key");
        }
        // Misses stay misses once the collections are indexed.
        assert_eq!(column(&[key("m"), key("absent")]), None);
        assert_eq!(column(&[key("m"), Step::Index(n - 1)]), None);
        assert_eq!(column(&[key("s"), Step::Index(n)]), None);
        assert_eq!(column(&[key("s"), key("k1")]), None);
    }

    #[test]
    fn one_pass_reader_reads_what_the_checked_reader_reads() {
        let texts = [
            "---\na:\n  b: [1, 2.5, yes, ~, \"x\"]\n---\n---\nc: d\n",
            "a: &x {p: [1, {q: 2}], r: 0777}\nb: *x\n1: one\ntrue: t\nnull: n\n1.5: f\n",
            "{\"a\": [1, {\"b\": null}], \"\": \"e\", \"c\": {}}",
            "- |\n  block\n- >-\n  folded\n- [[], [[]]]\n",
            "~\n---\nplain\n---\n- 1\n",
            "\"on\": push\n\"yes\": pull\n",
        ];
        let limits = Limits::default();
        for text in texts {
            let options = options(&limits, serde_saphyr::DuplicateKeyPolicy::Error);
            let one_pass = serde_saphyr::from_multiple_with_options::<Located>(text, options)
                .unwrap_or_else(|e| panic!("{text:?}: the one-pass reader failed: {e}"));
            let one_pass: Vec<_> = one_pass.into_iter().filter(|doc| !doc.value.is_null()).collect();
            let checked = read_checked("t.yaml", text, &limits).unwrap();
            assert_eq!(one_pass.len(), checked.len(), "{text:?}");
            for (read, doc) in one_pass.iter().zip(&checked) {
                assert_eq!(read.value, doc.value, "{text:?}");
                assert_eq!(read.start, doc.start, "{text:?}");
                assert_eq!(read.spans.keys, doc.spans.keys, "{text:?}");
                assert_eq!(format!("{:?}", read.spans.nodes), format!("{:?}", doc.spans.nodes), "{text:?}");
            }
        }
    }

    #[test]
    fn keys_that_read_the_same_stop_the_one_pass_reader() {
        let options = options(&Limits::default(), serde_saphyr::DuplicateKeyPolicy::Error);
        assert!(serde_saphyr::from_multiple_with_options::<Located>("on: push\nyes: pull\n", options).is_err());
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

    fn limit_error(text: &str, limits: &Limits) -> (Limit, String) {
        match parse_documents_with("t.yaml", text, limits) {
            Err(e @ Error::Limit { limit, .. }) => (limit, e.to_string()),
            other => panic!("expected a limit error, got {other:?}"),
        }
    }

    #[test]
    fn documents_as_deep_as_the_limit_parse_on_any_thread() {
        // About 30 KiB of stack per level in a debug build: far more than
        // the 2 MiB of a test thread, which the reader does not rely on.
        let depth = Limits::default().max_depth;
        let json = r#"{"a":"#.repeat(depth - 1) + "{}" + &"}".repeat(depth - 1);
        let block: String = (0..depth - 1).map(|i| format!("{}a:\n", " ".repeat(i))).collect::<String>()
            + &" ".repeat(depth - 1)
            + "{}\n";
        for text in [json, block] {
            let documents = parse_documents("t.yaml", &text).unwrap();
            let mut value = &documents[0].value;
            let mut levels = 1;
            while let Some(inner) = value.get("a") {
                value = inner;
                levels += 1;
            }
            assert_eq!(levels, depth);
        }
    }

    #[test]
    fn every_reader_limit_is_enforced_with_its_name() {
        let defaults = Limits::default();
        let nested = |n: usize| "[".repeat(n) + &"]".repeat(n);
        parse_documents("t.yaml", &nested(defaults.max_depth)).unwrap();
        let (limit, message) = limit_error(&nested(defaults.max_depth + 1), &defaults);
        assert_eq!(limit, Limit::Depth);
        assert!(message.starts_with("t.yaml:1:"), "{message}");
        assert!(message.ends_with("document nested more than 1024 levels deep (max-depth)"), "{message}");
        let shallow = Limits { max_depth: 3, ..defaults };
        parse_documents_with("t.yaml", "a: {b: [1]}", &shallow).unwrap();
        assert_eq!(limit_error("a: {b: [[1]]}", &shallow).0, Limit::Depth);

        let small = Limits { max_input_bytes: 10, ..defaults };
        let (limit, message) = limit_error("a: 12345678", &small);
        assert_eq!(limit, Limit::InputBytes);
        assert_eq!(message, "t.yaml: input is 11 bytes, more than the limit of 10 (max-input-bytes)");

        let aliases = "a: &x [1, 2]\nb: *x\nc: *x\nd: *x\n";
        assert_eq!(one(aliases)["d"], json!([1, 2]));
        let (limit, message) = limit_error(aliases, &Limits { max_aliases: 2, ..defaults });
        assert_eq!(limit, Limit::Aliases);
        assert!(
            message.contains("more than the limit of 2 (max-aliases)") && message.starts_with("t.yaml:"),
            "{message}"
        );

        let (limit, message) = limit_error("[1, 2, 3, 4, 5, 6]", &Limits { max_nodes: 5, ..defaults });
        assert_eq!(limit, Limit::Nodes);
        assert!(message.contains("(max-nodes)"), "{message}");

        // Two aliases of a six-node anchor replay twelve nodes.
        let replayed = "a: &x [1, 2, 3, 4, 5]
b: *x
c: *x
";
        parse_documents_with("t.yaml", replayed, &Limits { max_alias_nodes: 16, ..defaults }).unwrap();
        let (limit, message) = limit_error(replayed, &Limits { max_alias_nodes: 8, ..defaults });
        assert_eq!(limit, Limit::AliasNodes);
        assert!(message.contains("more than the limit of 8 (max-alias-nodes)"), "{message}");
    }

    #[test]
    fn alias_bombs_stop_at_the_alias_node_limit() {
        // "Billion laughs": nine levels of ten aliases each expand to 10^9
        // nodes.
        let mut text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n".to_owned();
        for i in 1..10 {
            let refs = vec![format!("*a{}", i - 1); 10].join(", ");
            text.push_str(&format!("a{i}: &a{i} [{refs}]\n"));
        }
        let err = parse_documents("t.yaml", &text).unwrap_err();
        let Error::Limit { limit, .. } = err else { panic!("{err}") };
        assert!(matches!(limit, Limit::AliasNodes | Limit::Aliases), "{err}");
        assert!(err.to_string().starts_with("t.yaml:"), "{err}");
    }
}
