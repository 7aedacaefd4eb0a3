//! The position table of a parsed document ([`Spans`]): where each value
//! starts in its source, found by JSON path.

use std::sync::{Arc, OnceLock};

use super::{Position, Step};
use crate::limits::Limits;

/// Where each value of a document starts in its source.
///
/// Positions are wanted for errors, which are usually few, so a document
/// read without an error has none yet: its table is built on the first
/// lookup, by reading the source text again (which it shares with
/// whoever holds it), once for all the documents of that text.
/// Reading a value's position as serde-saphyr reads it costs about a
/// twentieth of reading a CRD.
#[derive(Clone, Debug, Default)]
pub struct Spans {
    found: Found,
    /// The path, in the table's document, of the value these spans are
    /// of ([`Spans::under`]); empty for the whole document.
    under: Vec<Step>,
}

#[derive(Clone, Debug)]
enum Found {
    /// Shared by the spans of a list's items ([`Spans::under`]).
    Table(Arc<Table>),
    /// The `index`th document of `source`, whose table is read when asked.
    Deferred { source: Arc<Source>, index: usize },
}

impl Default for Found {
    fn default() -> Self {
        Found::Table(Arc::default())
    }
}

/// A source text whose documents' tables are read on first use.
pub(super) struct Source {
    text: Arc<str>,
    limits: Limits,
    tables: OnceLock<Vec<Table>>,
}

impl std::fmt::Debug for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Source").field("bytes", &self.text.len()).field("read", &self.tables.get().is_some()).finish()
    }
}

impl Source {
    /// `text`, as read within `limits`.
    pub(super) fn new(text: &Arc<str>, limits: Limits) -> Arc<Source> {
        Arc::new(Source { text: Arc::clone(text), limits, tables: OnceLock::new() })
    }
}

impl Spans {
    /// The table of the `index`th document of `source`, read when asked.
    pub(super) fn deferred(source: &Arc<Source>, index: usize) -> Spans {
        Spans { found: Found::Deferred { source: Arc::clone(source), index }, under: Vec::new() }
    }

    /// The spans of the value at `path`: its own paths are looked up below
    /// `path` (an item of a list, read as an object of its own).
    pub fn under(&self, path: &[Step]) -> Spans {
        Spans { found: self.found.clone(), under: [&self.under[..], path].concat() }
    }

    /// The position of the value at `path`, if known.
    pub fn get(&self, path: &[Step]) -> Option<Position> {
        self.table()?.get(&self.full(path))
    }

    /// The position of the value at `path`, or of its nearest known
    /// ancestor (within the value these spans are of).
    pub fn nearest(&self, path: &[Step]) -> Option<Position> {
        let table = self.table()?;
        let full = self.full(path);
        (self.under.len()..=full.len()).rev().find_map(|n| table.get(&full[..n]))
    }

    fn full<'a>(&self, path: &'a [Step]) -> std::borrow::Cow<'a, [Step]> {
        if self.under.is_empty() { path.into() } else { [&self.under[..], path].concat().into() }
    }

    /// Whether the table is there (built, or read since it was deferred).
    #[cfg(test)]
    pub(super) fn is_read(&self) -> bool {
        match &self.found {
            Found::Table(_) => true,
            Found::Deferred { source, .. } => source.tables.get().is_some(),
        }
    }

    /// The table, read now if it was deferred; `None` if the text no
    /// longer reads (it read once, so it does).
    pub(super) fn table(&self) -> Option<&Table> {
        match &self.found {
            Found::Table(table) => Some(table.as_ref()),
            Found::Deferred { source, index } => {
                let tables = source.tables.get_or_init(|| super::read::tables(&source.text, &source.limits));
                tables.get(*index)
            }
        }
    }
}

impl From<Table> for Spans {
    fn from(table: Table) -> Spans {
        Spans { found: Found::Table(Arc::new(table)), under: Vec::new() }
    }
}

/// The positions of one document's values.
///
/// The values are kept in document order, each before its children, with
/// the index just past its last descendant and, inside a mapping, its
/// key; the keys are stored end to end in one string. Building the table
/// costs one entry per value, and a lookup walks only the children along
/// its path. A lookup that walks past the first `SCANNED_CHILDREN`
/// children of a collection indexes them all, so that many errors in a
/// wide mapping or a long sequence cost one pass over it, not one each.
#[derive(Clone, Debug, Default)]
pub(super) struct Table {
    pub(super) nodes: Vec<SpanNode>,
    pub(super) keys: String,
    indexes: ChildIndexes,
}

/// Children a lookup walks before the collection is indexed.
const SCANNED_CHILDREN: usize = 16;

/// The children of each indexed collection of a [`Table`], by node index.
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

/// One value of a [`Table`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct SpanNode {
    pub(super) at: Position,
    /// Index just past the value's last descendant.
    pub(super) end: usize,
    /// The key's range in [`Table::keys`]; `None` for an item of a
    /// sequence and for the document itself.
    pub(super) key: Option<(usize, usize)>,
}

impl Table {
    /// The position of the value at `path`, if known.
    fn get(&self, path: &[Step]) -> Option<Position> {
        let mut node = (!self.nodes.is_empty()).then_some(0)?;
        for step in path {
            node = self.child(node, step)?;
        }
        Some(self.nodes[node].at)
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
    pub(super) fn open(&mut self, at: Position, key: Option<&str>) -> usize {
        let key = key.map(|key| {
            self.keys.push_str(key);
            (self.keys.len() - key.len(), self.keys.len())
        });
        self.nodes.push(SpanNode { at, end: 0, key });
        self.nodes.len() - 1
    }

    /// Ends the value `node` opened, after its children.
    pub(super) fn close(&mut self, node: usize) {
        self.nodes[node].end = self.nodes.len();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::parse_documents;

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
}
