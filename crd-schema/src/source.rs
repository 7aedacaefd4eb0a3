//! Positions in source texts, shared by the errors of every reader (the
//! readers themselves are `yaml` and `crd`, feature `engine`).

use std::fmt;

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
