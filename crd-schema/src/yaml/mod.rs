//! Reading YAML and JSON documents the way Kubernetes reads them.
//!
//! Entry points: [`parse_documents`] (one source text, possibly several
//! `---`-separated documents) giving [`Document`]s, each a
//! `serde_json::Value` plus a [`Spans`] table that maps JSON paths back to
//! line and column (read from the text when first asked).
//!
//! The reader is serde-saphyr configured like Kubernetes' YAML 1.1 reader
//! (`sigs.k8s.io/yaml` over go-yaml v2): `yes`/`no`/`on`/`off` are booleans,
//! `0777` is octal, duplicate keys are errors, non-string keys become their
//! string form (`true`, `1`), and aliases, nesting depth and document size
//! are bounded ([`Limits`]) so hostile input fails fast with a clear error. JSON is read
//! by the same reader, since JSON is YAML; this keeps line and column
//! information for JSON files too.

use serde_json::Value;
use serde_saphyr::budget::Budget;

use crate::error::{Error, Result};
use crate::limits::{Limit, Limits};

mod read;
mod spans;

pub use spans::Spans;

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

/// One parsed document.
#[derive(Clone, Debug)]
pub struct Document {
    /// 0-based index among the non-empty documents of the source.
    pub index: usize,
    /// Where the document's content starts.
    pub start: Position,
    /// Whether it is nested at most [`Limits::SHALLOW_DEPTH`] deep, so that
    /// processing it fits in any thread's stack
    /// ([`with_stack_for`](crate::limits::with_stack_for)).
    pub shallow: bool,
    /// The document as JSON.
    pub value: Value,
    /// Positions of its values.
    pub spans: Spans,
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

/// Parses every document of `text` within the default [`Limits`]. Empty
/// documents are skipped. `file` names the source in errors.
pub fn parse_documents(file: &str, text: &str) -> Result<Vec<Document>> {
    parse_documents_with(file, text, &Limits::default())
}

/// Parses every document of `text` within `limits`. Empty documents are
/// skipped. `file` names the source in errors. The reader recurses once per
/// level of nesting: it reads on the calling thread within a depth of
/// [`Limits::SHALLOW_DEPTH`], and a text that does not read so (deeper, or
/// refused for any reason, so that errors are those of `limits`) again
/// with a stack of its own ([`with_deep_stack`](crate::limits::with_deep_stack)).
///
/// The documents keep a copy of `text`, from which the positions of
/// their values are read when asked ([`Spans`]); [`parse_shared_with`]
/// shares a text the caller keeps anyway.
pub fn parse_documents_with(file: &str, text: &str, limits: &Limits) -> Result<Vec<Document>> {
    within_size(file, text, limits)?;
    parse_shared_with(file, &std::sync::Arc::from(text), limits)
}

/// [`parse_documents_with`], the documents sharing `text` rather than
/// keeping a copy.
pub fn parse_shared_with(file: &str, text: &std::sync::Arc<str>, limits: &Limits) -> Result<Vec<Document>> {
    within_size(file, text, limits)?;
    if read::shallow(limits) || crate::limits::on_deep_stack() {
        return read::read(file, text, limits);
    }
    let shallow = Limits { max_depth: Limits::SHALLOW_DEPTH, ..*limits };
    if let Ok(documents) = read::read(file, text, &shallow) {
        return Ok(documents);
    }
    crate::limits::with_deep_stack(|| read::read(file, text, limits))
}

/// An error if `text` is larger than `limits` allow.
pub(crate) fn within_size(file: &str, text: &str, limits: &Limits) -> Result<()> {
    if text.len() > limits.max_input_bytes {
        return Err(limits.breach(Limit::InputBytes, file, None, format!("input is {} bytes", text.len())));
    }
    Ok(())
}

/// A position the reader has not said (yet): 0:0.
const UNPLACED: Position = Position { line: 0, column: 0 };

/// Where the reader's `location` is.
fn position_of(location: serde_saphyr::Location) -> Position {
    Position { line: location.line(), column: location.column() }
}

fn syntax_error(file: &str, e: &serde_saphyr::Error, limits: &Limits) -> Error {
    let position = e.location().map(position_of);
    let Position { line, column } = position.unwrap_or(UNPLACED);
    if let Some((limit, what)) = budget_breach(e) {
        return limits.breach(limit, file, position, what);
    }
    if let Some(message) = own_words(e) {
        return Error::Syntax { file: file.to_owned(), line, column, message };
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

/// Our words for the reader's errors that speak of its own workings (its
/// float policy, Rust's integer types, its recursion types) rather than
/// of the input.
fn own_words(e: &serde_saphyr::Error) -> Option<String> {
    match e {
        serde_saphyr::Error::AliasError { error, .. } | serde_saphyr::Error::WithSnippet { error, .. } => {
            own_words(error)
        }
        serde_saphyr::Error::NonFiniteFloat { value, .. } => Some(format!(
            "`{value}` is not a number JSON can hold (Kubernetes' YAML-to-JSON conversion refuses it too); \
             quote it to mean the text"
        )),
        serde_saphyr::Error::InvalidScalar { .. } => Some(
            "the scalar's tag names a type its text is not (such as `!!int twelve`); drop the tag or fix the text"
                .to_owned(),
        ),
        serde_saphyr::Error::RecursiveReferencesRequireWeakTypes { .. } => {
            Some("an alias refers to a node that contains it: a cycle, which JSON cannot hold".to_owned())
        }
        _ => None,
    }
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
            one("a: yes\nb: off\nc: 0777\nd: 1.5\ne: 1\nf: \"yes\"\ng: =\n"),
            json!({"a": true, "b": false, "c": 511, "d": 1.5, "e": 1, "f": "yes", "g": "="})
        );
        assert!(one("d: 1.5\n")["d"].is_f64());
        assert!(one("d: 1\n")["d"].is_i64());
    }

    #[test]
    fn numbers_arrive_as_go_encoding_json_leaves_them() {
        // kubectl sends a file as JSON written by Go, which writes the float
        // 2.0 as `2`; the API server reads that back as an int64. So a
        // whole number within int64 is an integer, whatever its spelling.
        let read = one("a: 2.0\nb: 1e3\nc: -0.0\nd: 2.5\ne: 1e19\nf: 9223372036854775807\ng: 18446744073709551615\n");
        assert_eq!(
            read,
            json!({"a": 2, "b": 1000, "c": 0, "d": 2.5, "e": 1e19, "f": i64::MAX, "g": 18446744073709551615.0})
        );
        for key in ["a", "b", "c", "f"] {
            assert!(read[key].is_i64(), "{key}: {}", read[key]);
        }
        for key in ["d", "e", "g"] {
            assert!(read[key].is_f64(), "{key}: {}", read[key]);
        }
        // JSON files too, and at any depth.
        assert_eq!(one("{\"a\": [3.0, {\"b\": 4.00}]}"), json!({"a": [3, {"b": 4}]}));
    }

    #[test]
    fn non_string_keys_become_strings() {
        assert_eq!(one("1: a\ntrue: b\n"), json!({"1": "a", "true": "b"}));
        // A float key keeps Go's `%v` of the float, not a value's integer form.
        assert_eq!(
            one("1.0: a\n1e6: b\n2.5: c\n0.123456789: d\n"),
            json!({"1": "a", "1e+06": "b", "2.5": "c", "0.12345679": "d"})
        );
        // Keys sigs.k8s.io/yaml has no JSON form for refuse the file.
        for text in ["~: a\n", "null: a\n", "? \n: a\n", "18446744073709551615: a\n"] {
            let err = parse_documents("t.yaml", text).unwrap_err().to_string();
            assert!(err.contains("is not a key Kubernetes' YAML reader can turn into JSON"), "{text:?}: {err}");
        }
        assert_eq!(one("\"null\": a\n"), json!({"null": "a"}));
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
    fn quoted_scalars_continue_at_any_indentation() {
        // go-yaml (libyaml's scanner) does not check the indentation of a
        // quoted scalar's continuation lines, and controller-gen before 0.3
        // wrapped single-quoted descriptions at their key's column: the
        // API server and kubectl read such files, so this reader does too.
        let text = "a:\n  b: 'one\n  two'\n  c: \"three\nfour\"\n  d: 'five\n\tsix'\n  e: \"seven\n\n eight\"\n";
        assert_eq!(one(text), json!({"a": {"b": "one two", "c": "three four", "d": "five six", "e": "seven\neight"}}));
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
