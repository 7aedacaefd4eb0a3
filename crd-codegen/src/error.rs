//! Why generation failed. Every variant names the file, CRD or version it
//! is about, so a build script's failure points at the input to fix.
//!
//! `Display` and `std::error::Error` are written by hand rather than with
//! thiserror: `NoCrd`'s field is named `source` (the input's name), which
//! thiserror would take for the error's cause.

use std::fmt;
use std::path::PathBuf;

/// A generation failure.
#[derive(Debug)]
pub enum Error {
    /// An input could not be read or parsed (I/O, UTF-8, YAML syntax).
    Load(crd_schema::Error),
    /// An input holds no CustomResourceDefinition.
    NoCrd {
        /// The file, directory or in-memory source name.
        source: String,
    },
    /// No input was given to the builder.
    NoInput,
    /// A version's schema is not structural, so its pruning (and hence the
    /// generated types) is undefined.
    NotStructural {
        /// `metadata.name` of the CRD.
        crd: String,
        /// The version name.
        version: String,
        /// Kubernetes' errors, `; `-separated.
        reason: String,
    },
    /// A builder option is not a Rust path.
    Option {
        /// The option.
        option: &'static str,
        /// What was given.
        value: String,
    },
    /// The emitted tokens did not form a Rust file (a generator bug).
    Emit {
        /// `metadata.name` of the CRD (or the input set).
        crd: String,
        /// The parser's message.
        message: String,
    },
    /// `compile()` ran outside a build script.
    NoOutDir,
    /// Writing the generated file failed.
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Load(e) => e.fmt(f),
            Error::NoCrd { source } => write!(f, "{source}: no CustomResourceDefinition found"),
            Error::NoInput => f.write_str("no CRD input: call `Builder::crd` or `Builder::crd_source` first"),
            Error::NotStructural { crd, version, reason } => {
                write!(f, "{crd}: version {version}: schema is not structural: {reason}")
            }
            Error::Option { option, value } => write!(f, "`Builder::{option}`: `{value}` is not a Rust path"),
            Error::Emit { crd, message } => {
                write!(f, "{crd}: internal error: generated code does not parse: {message}")
            }
            Error::NoOutDir => f.write_str(
                "OUT_DIR is not set: `Builder::compile` runs in build scripts (use `Builder::generate` elsewhere)",
            ),
            Error::Io { path, source } => write!(f, "{}: cannot write: {source}", path.display()),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Load(e) => e.source(),
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl From<crd_schema::Error> for Error {
    fn from(e: crd_schema::Error) -> Self {
        Error::Load(e)
    }
}

/// `Result` with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
