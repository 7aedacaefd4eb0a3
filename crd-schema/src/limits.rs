//! Bounds on what the readers accept, so that hostile input fails fast with
//! a clear error instead of exhausting memory, stack or time.
//!
//! [`Limits`] is passed to the `*_with` readers of feature `engine`
//! (`yaml::parse_documents_with`, `crd::load_with`, ...); the plain readers use
//! [`Limits::default()`]. A breach is an [`Error::Limit`] naming the file,
//! the position where known, the limit and its value.
//!
//! | limit | default | what it bounds |
//! |---|---|---|
//! | `max_input_bytes` | 64 MiB | size of one file or source text |
//! | `max_depth` | 1,024 | nesting of collections in a document (at most [`Limits::MAX_DEPTH_CEILING`]) |
//! | `max_aliases` | 10,000 | YAML alias uses (`*name`), and anchors, in one source |
//! | `max_nodes` | 4,000,000 | YAML nodes in one source, counted after alias expansion |
//! | `max_alias_nodes` | 250,000 | YAML nodes that alias expansion adds to one source |
//! | `max_properties` | 100,000 | `properties` entries in one schema, over all levels |
//! | `max_pattern_bytes` | 16 KiB | length of one `pattern` |
//!
//! The largest CRD of the corpus is 1.6 MB, has 7,965 properties in one
//! version, nests 36 levels and has a 221-byte pattern.
//!
//! Depth: the API server reads request bodies nested up to 10,000 levels,
//! and accepts schemas nested a few hundred levels deep (every schema
//! level is two levels of document: the schema and its `properties`).
//! 1,024 levels hold a schema 500 levels deep. The bound stays below the
//! server's because the cost of a level is not constant: positions and
//! error paths name every ancestor, so memory grows with the square of the
//! depth (a document 1,015 levels deep takes 0.2 s and under 100 MB in
//! every command, one 10,000 levels deep 20 s and 5 GB), and the recursive
//! algorithms need about 30 KiB of stack per level in a debug build. Deep
//! documents therefore run on a thread with a stack of their own
//! ([`with_deep_stack`]): the readers do so by themselves, and the `crd`
//! tool and the generator run everything on one.
//!
//! Nodes made by alias expansion have a bound of their own, far below
//! `max_nodes`: the reader keeps every node an anchor may replay, at a few
//! hundred bytes each, so an alias bomb of a few hundred bytes would
//! otherwise grow to a gigabyte before reaching `max_nodes`. No real
//! manifest comes near it (the corpus has no aliases at all), and 250,000
//! replayed nodes stay within about 100 MB.

#[cfg(feature = "engine")]
use serde_json::Value;

use crate::error::{Error, Result};
#[cfg(feature = "engine")]
use crate::yaml::{Document, Step};

/// Bounds on input size and shape. See the [module documentation](self).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Largest accepted file or source text, in bytes.
    pub max_input_bytes: usize,
    /// Deepest accepted nesting of collections.
    pub max_depth: usize,
    /// Most YAML alias uses (`*name`) in one source, and most anchors.
    pub max_aliases: usize,
    /// Most YAML nodes in one source, aliases expanded.
    pub max_nodes: usize,
    /// Most YAML nodes that alias expansion may add to one source.
    pub max_alias_nodes: usize,
    /// Most `properties` entries in one schema, over all levels.
    pub max_properties: usize,
    /// Longest accepted `pattern`, in bytes.
    pub max_pattern_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self::DEFAULT
    }
}

thread_local! {
    /// Whether this thread has [`Limits::STACK_BYTES`] of stack.
    static DEEP_STACK: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` with [`Limits::STACK_BYTES`] of stack: on a thread of its own,
/// unless the caller already runs on one. Documents nested deeper than
/// [`Limits::SHALLOW_DEPTH`] need it for every recursive step (the readers,
/// validation, pruning, defaulting, generation); the readers use it by
/// themselves for such documents (`yaml::Document::shallow`
/// says which), the `crd` tool runs all its commands but `generate` in it,
/// `crd_codegen::Builder` runs its work for deep documents in it, and
/// library users who process deep documents further should do the same
/// ([`with_stack_for`]). If the system refuses a new thread, `f` runs on
/// the calling thread.
///
/// ```
/// let depth = crd_schema::limits::with_deep_stack(|| 1 + 1);
/// assert_eq!(depth, 2);
/// ```
pub fn with_deep_stack<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    if on_deep_stack() {
        return f();
    }
    let mut f = Some(f);
    let spawned = std::thread::scope(|scope| {
        let slot = &mut f;
        let worker = std::thread::Builder::new().name("deep-stack".to_owned()).stack_size(Limits::STACK_BYTES);
        let handle = worker
            .spawn_scoped(scope, move || {
                DEEP_STACK.with(|d| d.set(true));
                slot.take().map(|f| f())
            })
            .ok()?;
        // A panic of `f` goes on in the caller.
        Some(handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
    });
    match (spawned.flatten(), f) {
        (Some(result), _) => result,
        // The system refused a thread; `f` has not run.
        (None, Some(f)) => f(),
        (None, None) => unreachable!("the worker took `f` and returned its result"),
    }
}

/// Runs `f` on the calling thread for documents that are `shallow` (nested
/// at most [`Limits::SHALLOW_DEPTH`] deep, which any thread's stack holds),
/// else with [`with_deep_stack`]. A new thread costs more than its start:
/// the C allocator grows its heap a step at a time (15% of generating
/// cert-manager's Certificate).
pub fn with_stack_for<R: Send>(shallow: bool, f: impl FnOnce() -> R + Send) -> R {
    if shallow { f() } else { with_deep_stack(f) }
}

/// Whether the calling thread runs in [`with_deep_stack`].
pub(crate) fn on_deep_stack() -> bool {
    DEEP_STACK.with(std::cell::Cell::get)
}

/// A named limit, for messages and for setting one by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// [`Limits::max_input_bytes`].
    InputBytes,
    /// [`Limits::max_depth`].
    Depth,
    /// [`Limits::max_aliases`].
    Aliases,
    /// [`Limits::max_nodes`].
    Nodes,
    /// [`Limits::max_alias_nodes`].
    AliasNodes,
    /// [`Limits::max_properties`].
    Properties,
    /// [`Limits::max_pattern_bytes`].
    PatternBytes,
}

impl Limit {
    /// Every limit.
    pub const ALL: [Limit; 7] = [
        Limit::InputBytes,
        Limit::Depth,
        Limit::Aliases,
        Limit::Nodes,
        Limit::AliasNodes,
        Limit::Properties,
        Limit::PatternBytes,
    ];

    /// The limit's name in kebab case, as the `crd` tool's `--<name>` flag
    /// spells it: `max-input-bytes`, `max-depth`, ...
    pub fn name(self) -> &'static str {
        match self {
            Limit::InputBytes => "max-input-bytes",
            Limit::Depth => "max-depth",
            Limit::Aliases => "max-aliases",
            Limit::Nodes => "max-nodes",
            Limit::AliasNodes => "max-alias-nodes",
            Limit::Properties => "max-properties",
            Limit::PatternBytes => "max-pattern-bytes",
        }
    }

    /// The limit named `name` (see [`Limit::name`]).
    pub fn from_name(name: &str) -> Option<Limit> {
        Limit::ALL.into_iter().find(|l| l.name() == name)
    }
}

/// Why [`Limits::set`] refused a value; the text names the limit as its
/// flag does (`max-nodes must be at least 1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LimitError {
    /// Every limit must be at least 1.
    #[error("{} must be at least 1", .limit.name())]
    Zero {
        /// The limit.
        limit: Limit,
    },
    /// The value is above the highest one the limit accepts
    /// ([`Limits::MAX_DEPTH_CEILING`] for `max-depth`).
    #[error("{} must be at most {ceiling}", .limit.name())]
    AboveCeiling {
        /// The limit.
        limit: Limit,
        /// The highest value accepted.
        ceiling: usize,
    },
}

impl Limits {
    /// The defaults (see the [module documentation](self)).
    pub const DEFAULT: Limits = Limits {
        max_input_bytes: 64 << 20,
        max_depth: 1024,
        max_aliases: 10_000,
        max_nodes: 4_000_000,
        max_alias_nodes: 250_000,
        max_properties: 100_000,
        max_pattern_bytes: 16 << 10,
    };

    /// The highest `max_depth` accepted: the recursive algorithms of this
    /// crate rely on the depth bound, and at this depth they stay within
    /// [`Limits::STACK_BYTES`] of stack ([`with_deep_stack`]).
    pub const MAX_DEPTH_CEILING: usize = 1024;

    /// The stack that processing a document as deep as
    /// [`Limits::MAX_DEPTH_CEILING`] needs: measured at 2,000 levels in a
    /// debug build, every command fits in 64 MiB; this is twice that for
    /// half the depth. The memory is reserved, and used only by deep
    /// documents.
    pub const STACK_BYTES: usize = 128 << 20;

    /// The nesting depth that any thread's stack holds: at about 32 KiB a
    /// level in a debug build (see [`Limits::STACK_BYTES`]), every
    /// recursive step fits in the 2 MiB Rust gives a new thread, and a test
    /// generates a CRD this deep on such a thread; real CRDs stay below
    /// 40. Documents this shallow are processed on the calling thread
    /// ([`with_stack_for`]).
    pub const SHALLOW_DEPTH: usize = 48;

    /// The value of `limit`.
    pub fn get(&self, limit: Limit) -> usize {
        match limit {
            Limit::InputBytes => self.max_input_bytes,
            Limit::Depth => self.max_depth,
            Limit::Aliases => self.max_aliases,
            Limit::Nodes => self.max_nodes,
            Limit::AliasNodes => self.max_alias_nodes,
            Limit::Properties => self.max_properties,
            Limit::PatternBytes => self.max_pattern_bytes,
        }
    }

    /// Sets `limit` to `value`. Every limit must be at least 1, and
    /// `max_depth` at most [`Limits::MAX_DEPTH_CEILING`].
    pub fn set(&mut self, limit: Limit, value: usize) -> Result<(), LimitError> {
        if value == 0 {
            return Err(LimitError::Zero { limit });
        }
        if limit == Limit::Depth && value > Self::MAX_DEPTH_CEILING {
            return Err(LimitError::AboveCeiling { limit, ceiling: Self::MAX_DEPTH_CEILING });
        }
        match limit {
            Limit::InputBytes => self.max_input_bytes = value,
            Limit::Depth => self.max_depth = value,
            Limit::Aliases => self.max_aliases = value,
            Limit::Nodes => self.max_nodes = value,
            Limit::AliasNodes => self.max_alias_nodes = value,
            Limit::Properties => self.max_properties = value,
            Limit::PatternBytes => self.max_pattern_bytes = value,
        }
        Ok(())
    }

    /// The error for `limit` exceeded in `file` at `position`.
    #[cfg_attr(not(feature = "engine"), allow(dead_code))]
    pub(crate) fn breach(
        &self,
        limit: Limit,
        file: &str,
        position: Option<crate::source::Position>,
        what: String,
    ) -> Error {
        let message = match limit {
            // The depth is known only as "over the limit".
            Limit::Depth => format!("document nested more than {} levels deep ({})", self.max_depth, limit.name()),
            _ => format!("{what}, more than the limit of {} ({})", self.get(limit), limit.name()),
        };
        Error::Limit { file: file.to_owned(), position, limit, message }
    }

    /// Checks the schema limits (`max_properties`, `max_pattern_bytes`) on
    /// the schema found at `path` in `doc`, if there is one there. Errors
    /// name `file` and the position in the document.
    #[cfg(feature = "engine")]
    pub fn check_schema(&self, file: &str, doc: &Document, path: &[Step]) -> Result<()> {
        let Some(schema) = lookup(&doc.value, path) else { return Ok(()) };
        let mut properties = 0usize;
        let mut at = path.to_vec();
        self.walk_schema(schema, &mut at, &mut properties, file, doc)?;
        if properties > self.max_properties {
            let position = doc.spans.nearest(path);
            return Err(self.breach(
                Limit::Properties,
                file,
                position,
                format!("the schema has {properties} properties"),
            ));
        }
        Ok(())
    }

    /// Walks a schema node and the schemas below it (not values such as
    /// `default` or `enum`, whose keys are data).
    #[cfg(feature = "engine")]
    fn walk_schema(
        &self,
        value: &Value,
        at: &mut Vec<Step>,
        properties: &mut usize,
        file: &str,
        doc: &Document,
    ) -> Result<()> {
        let Value::Object(map) = value else { return Ok(()) };
        if let Some(Value::String(pattern)) = map.get("pattern")
            && pattern.len() > self.max_pattern_bytes
        {
            at.push(Step::key("pattern"));
            let position = doc.spans.nearest(at);
            return Err(self.breach(
                Limit::PatternBytes,
                file,
                position,
                format!("pattern is {} bytes", pattern.len()),
            ));
        }
        for (key, child) in map {
            at.push(Step::Key(key.clone()));
            match (key.as_str(), child) {
                ("properties" | "patternProperties" | "definitions" | "dependencies", Value::Object(schemas)) => {
                    if key == "properties" {
                        *properties = properties.saturating_add(schemas.len());
                    }
                    for (name, schema) in schemas {
                        at.push(Step::Key(name.clone()));
                        self.walk_schema(schema, at, properties, file, doc)?;
                        at.pop();
                    }
                }
                ("items" | "additionalProperties" | "additionalItems" | "not", Value::Object(_)) => {
                    self.walk_schema(child, at, properties, file, doc)?;
                }
                ("items" | "allOf" | "anyOf" | "oneOf", Value::Array(schemas)) => {
                    for (i, schema) in schemas.iter().enumerate() {
                        at.push(Step::Index(i));
                        self.walk_schema(schema, at, properties, file, doc)?;
                        at.pop();
                    }
                }
                _ => {}
            }
            at.pop();
        }
        Ok(())
    }
}

#[cfg(feature = "engine")]
fn lookup<'a>(value: &'a Value, path: &[Step]) -> Option<&'a Value> {
    path.iter().try_fold(value, |v, step| match step {
        Step::Key(k) => v.get(k),
        Step::Index(i) => v.get(i),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(feature = "engine")]
    use crate::yaml::parse_documents;

    #[test]
    fn deep_stacks_are_not_nested() {
        let (outer, inner) = with_deep_stack(|| {
            let outer = std::thread::current().id();
            (outer, with_deep_stack(|| std::thread::current().id()))
        });
        assert_eq!(outer, inner, "a deep stack runs nested work in place");
        assert_ne!(outer, std::thread::current().id(), "the work ran on a thread of its own");
    }

    #[test]
    fn only_deep_documents_get_a_stack_of_their_own() {
        let here = std::thread::current().id();
        assert_eq!(with_stack_for(true, || std::thread::current().id()), here);
        assert_ne!(with_stack_for(false, || std::thread::current().id()), here);
    }

    #[test]
    fn names_round_trip_and_values_are_checked() {
        for limit in Limit::ALL {
            assert_eq!(Limit::from_name(limit.name()), Some(limit));
            assert_eq!(Limits::DEFAULT.get(limit), Limits::default().get(limit));
        }
        let mut limits = Limits::default();
        limits.set(Limit::Properties, 7).unwrap();
        assert_eq!(limits.max_properties, 7);
        assert_eq!(limits.set(Limit::Nodes, 0).unwrap_err().to_string(), "max-nodes must be at least 1");
        assert_eq!(limits.set(Limit::Depth, 1025).unwrap_err().to_string(), "max-depth must be at most 1024");
    }

    #[test]
    fn limit_error_display_names_the_flag() {
        let mut limits = Limits::default();
        let zero = limits.set(Limit::Nodes, 0).unwrap_err();
        assert_eq!(zero, LimitError::Zero { limit: Limit::Nodes });
        assert_eq!(zero.to_string(), "max-nodes must be at least 1");
        let deep = limits.set(Limit::Depth, 1025).unwrap_err();
        assert_eq!(deep, LimitError::AboveCeiling { limit: Limit::Depth, ceiling: 1024 });
        assert_eq!(deep.to_string(), "max-depth must be at most 1024");
        limits.set(Limit::Depth, 1024).unwrap();
    }

    #[cfg(feature = "engine")]
    #[test]
    fn schema_limits_name_the_place() {
        let text = "schema:\n  properties:\n    a:\n      type: string\n      pattern: abcdef\n    b: {}\n";
        let doc = &parse_documents("s.yaml", text).unwrap()[0];
        let path = [Step::key("schema")];
        Limits::default().check_schema("s.yaml", doc, &path).unwrap();

        let limits = Limits { max_pattern_bytes: 5, ..Limits::default() };
        let err = limits.check_schema("s.yaml", doc, &path).unwrap_err().to_string();
        assert_eq!(err, "s.yaml:5:16: pattern is 6 bytes, more than the limit of 5 (max-pattern-bytes)");

        let limits = Limits { max_properties: 1, ..Limits::default() };
        let err = limits.check_schema("s.yaml", doc, &path).unwrap_err().to_string();
        assert_eq!(err, "s.yaml:2:3: the schema has 2 properties, more than the limit of 1 (max-properties)");

        // Keys of values (defaults, enums, examples) are data, not keywords.
        let text = "schema:\n  default: {pattern: abcdefgh, properties: {a: 1, b: 2}}\n  enum: [{pattern: abcdefgh}]\n";
        let doc = &parse_documents("s.yaml", text).unwrap()[0];
        Limits { max_pattern_bytes: 5, max_properties: 1, ..Limits::default() }
            .check_schema("s.yaml", doc, &path)
            .unwrap();

        // No schema at the path: nothing to check.
        limits.check_schema("s.yaml", doc, &[Step::key("nothing")]).unwrap();
    }
}
