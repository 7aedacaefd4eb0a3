//! The parse tree: Go's `syntax.Op` and `syntax.Regexp` (Go's
//! `regexp/syntax/regexp.go`), as nodes of an arena that the parser recycles
//! the way Go does.

use std::collections::VecDeque;

/// Go's `syntax.Op`, with Go's numbering: the parser compares ops by order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub(super) enum Op {
    #[default]
    NoMatch = 1,
    EmptyMatch,
    Literal,
    CharClass,
    AnyCharNotNl,
    AnyChar,
    BeginLine,
    EndLine,
    BeginText,
    EndText,
    WordBoundary,
    NoWordBoundary,
    Capture,
    Star,
    Plus,
    Quest,
    Repeat,
    Concat,
    Alternate,
    /// Pseudo-ops, only ever on the parse stack.
    LeftParen = 128,
    VerticalBar,
}

/// One `syntax.Regexp` of the parse tree. Nodes live in an arena and are
/// recycled through a free list exactly as Go recycles them, because Go's
/// size memo is keyed by node identity and outlives recycling.
#[derive(Debug, Default)]
pub(super) struct Node {
    pub(super) op: Op,
    pub(super) flags: u16,
    pub(super) cap: usize,
    pub(super) min: i32,
    pub(super) max: i32,
    /// A literal's runes (from `start` on), or a class's sorted range pairs.
    pub(super) runes: Vec<u32>,
    /// Runes of a literal already taken off its front by factoring.
    pub(super) start: usize,
    /// Unicode tables in a class, as opaque tokens (their contents are not embedded).
    pub(super) tokens: Vec<u64>,
    pub(super) subs: VecDeque<usize>,
    /// Go's `p.size[re]` and `p.height[re]` memo entries.
    pub(super) size: Option<i64>,
    pub(super) height: Option<i64>,
    /// Set when the node changes other than by losing leading elements, so
    /// that a forced re-measure must visit the elements again; otherwise the
    /// memos below give Go's re-measure in O(1) (Go's parser re-measures a
    /// long concatenation after each element factoring takes off its front).
    pub(super) size_dirty: bool,
    pub(super) height_dirty: bool,
    /// For a measured concatenation: the sum of its elements' sizes, and the
    /// maxima of their heights from each element on (the front being at
    /// `height_front`), both kept as leading elements are removed.
    pub(super) size_sum: i64,
    pub(super) height_suffix: Vec<i64>,
    pub(super) height_front: usize,
}

impl Node {
    pub(super) fn lit(&self) -> &[u32] {
        self.runes.get(self.start..).unwrap_or_default()
    }
}
