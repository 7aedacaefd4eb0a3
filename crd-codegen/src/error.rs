//! Why generation failed ([`Error`]), and what it worked around
//! ([`Warning`]). Every error and warning names the file, CRD or version it
//! is about, so a build script's output points at the input to fix.
//!
//! `Display` and `std::error::Error` are written by hand rather than with
//! thiserror: `NoCrd`'s field is named `source` (the input's name), which
//! thiserror would take for the error's cause.

use std::fmt;
use std::path::PathBuf;

use crd_schema::field::Path;
use crd_schema::yaml::Position;

use crate::typespace::Outcome;

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
    /// A checked-in generated file differs from what the generator makes
    /// now ([`Builder::check`](crate::Builder::check)).
    Stale {
        /// The file.
        path: PathBuf,
        /// A unified diff from the file to the fresh text.
        diff: String,
    },
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
            Error::NotStructural { crd, version, reason } => write!(
                f,
                "{crd}: version {version}: schema is not structural: {reason} (pass --allow-non-structural / \
                 Builder::allow_non_structural(true) to generate serde_json::Value for these nodes)"
            ),
            Error::Option { option, value } => write!(f, "`Builder::{option}`: `{value}` is not a Rust path"),
            Error::Emit { crd, message } => {
                write!(f, "{crd}: internal error: generated code does not parse: {message}")
            }
            Error::NoOutDir => f.write_str(
                "OUT_DIR is not set: `Builder::compile` runs in build scripts (use `Builder::generate` elsewhere)",
            ),
            Error::Stale { path, diff } => {
                write!(
                    f,
                    "{} is stale: regenerate it (the diff from the file to the fresh text):\n{diff}",
                    path.display()
                )
            }
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

/// A schema node that is not structural, generated best-effort (with
/// `Builder::allow_non_structural(true)`).
#[derive(Clone, Debug, PartialEq)]
pub struct Warning {
    /// `metadata.name` of the CRD.
    pub crd: String,
    /// The version name.
    pub version: String,
    /// The node, as a path in the CRD document
    /// (`spec.versions[0].schema.openAPIV3Schema.properties[spec]...`).
    pub path: Path,
    /// Kubernetes' errors for the node, their paths relative to it,
    /// `; `-separated.
    pub reason: String,
    /// What the generated code has instead.
    pub outcome: Outcome,
    /// The file (or in-memory source) the CRD came from.
    pub file: String,
    /// Where the node is in it, when known.
    pub at: Option<Position>,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Self { crd, version, path, reason, .. } = self;
        let outcome = match self.outcome {
            Outcome::Value => "it is generated as serde_json::Value, kept as is and not pruned",
            Outcome::Root => "the root is generated from its properties alone",
            Outcome::Fixed => "its field keeps its fixed type",
        };
        write!(f, "{crd}: version {version}: {path} is not structural, so {outcome}: {reason}")
    }
}

/// `Result` with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
