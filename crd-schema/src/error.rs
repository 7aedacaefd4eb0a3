//! Operational failures: the input could not be read at all. Problems *in*
//! a schema or object are not errors but data ([`crate::field::FieldError`]).

use std::path::PathBuf;

/// Why reading or parsing an input failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The file could not be read.
    #[error("{}: cannot read: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// The file is not UTF-8 text.
    #[error("{file}: not UTF-8 text: invalid byte at offset {offset}")]
    NotUtf8 {
        /// The file.
        file: String,
        /// Byte offset of the first invalid byte.
        offset: usize,
    },
    /// YAML or JSON syntax error.
    #[error("{file}:{line}:{column}: {message}")]
    Syntax {
        /// The file.
        file: String,
        /// 1-based line (0 when unknown).
        line: u64,
        /// 1-based column (0 when unknown).
        column: u64,
        /// What is wrong.
        message: String,
    },
    /// A bound of [`crate::limits::Limits`] was exceeded.
    #[error("{file}{}: {message}", position.map(|p| format!(":{p}")).unwrap_or_default())]
    Limit {
        /// The file.
        file: String,
        /// Where in the file, when known.
        position: Option<crate::source::Position>,
        /// Which limit.
        limit: crate::limits::Limit,
        /// What exceeded it, and the limit (`pattern is 20000 bytes, more
        /// than the limit of 16384 (max-pattern-bytes)`).
        message: String,
    },
    /// The input holds nothing to work on.
    #[error("{file}: {message}")]
    Input {
        /// The file.
        file: String,
        /// What is wrong.
        message: String,
    },
}

/// `Result` with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
