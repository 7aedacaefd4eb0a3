//! `crd explain`: what `kubectl explain` prints for a resource or one of
//! its fields, for CRDs that are not on any cluster.
//!
//! The explaining is the library's ([`crd_schema::explain`]: the resource
//! lookup, the OpenAPI v3 document and kubectl's plaintext template). This
//! module loads the `--crd` files and prints: the text to `out`, or what
//! kubectl would have printed before failing and then `error: ...` to
//! `err`.
//!
//! Error policy: usage mistakes are found before [`command`] runs
//! (`crate::args`); anything that goes wrong while running (unreadable
//! CRD, unknown resource, unknown field) is written to `err` as
//! `error: ...` with kubectl's wording, and the exit code is 2.

use std::io::Write;

use crd_schema::explain::{ExplainError, explain};

/// The command line of `crd explain`: clap's definition is all it needs.
pub use super::args::ExplainArgs as Args;

/// Runs `crd explain`; returns the exit code. Failures are written to
/// `err` and give exit code 2.
pub fn command(args: &Args, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let (printed, failure) = match run(args) {
        Ok(text) => (text, None),
        Err(e) => (e.printed, Some(e.message)),
    };
    let message = match (failure, out.write_all(printed.as_bytes()).and_then(|()| out.flush())) {
        (None, Ok(())) => return 0,
        (Some(message), _) => message,
        (None, Err(e)) => e.to_string(),
    };
    // Nothing useful is left to do when stderr itself fails.
    let _ = writeln!(err, "error: {message}");
    2
}

/// Loads the CRDs and explains the resource.
fn run(args: &Args) -> Result<String, ExplainError> {
    let crds = super::load_crds(&args.crds).map_err(|message| ExplainError { message, printed: String::new() })?;
    explain(&crds, &args.resource, args.version.as_deref(), args.recursive)
}
