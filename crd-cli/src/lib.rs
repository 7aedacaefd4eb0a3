//! The `crd` command line tool (`cargo install crd-cli`).
//!
//! A crate of its own so that users of the generator (`crd-codegen`, a
//! build dependency) compile neither the CLI nor the CEL interpreter it
//! enables.
//!
//! Entry point: [`run`], which the `crd` binary calls with its arguments and
//! which returns the exit code: 0 when everything checked is valid, 1 when
//! something is invalid, 2 when the tool could not run (bad arguments,
//! unreadable file, YAML syntax error, not a CRD).
//!
//! The command line is parsed by clap in [`args`]; usage mistakes are
//! rendered by clap, with the command's usage, and exit 2.
#![warn(missing_docs)]

pub mod args;
pub mod check;
pub mod diag;
pub mod diff;
pub mod explain;
pub mod generate;
pub mod openapi;
pub mod prune;
pub mod validate;

use std::io::Write;

use args::Task;
use crd_schema::limits::Limits;

thread_local! {
    /// The limits of the command running on this thread (set by [`run`]).
    static LIMITS: std::cell::Cell<Limits> = const { std::cell::Cell::new(Limits::DEFAULT) };
}

/// The limits of the running command.
fn limits() -> Limits {
    LIMITS.with(std::cell::Cell::get)
}

/// Runs the tool with `args` (without the program name); returns the exit
/// code. Documents as deep as `--max-depth` allows need a stack of
/// [`Limits::STACK_BYTES`]: the `crd` binary runs this in
/// [`with_deep_stack`](crd_schema::limits::with_deep_stack).
pub fn run(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let invocation = match args::parse(args) {
        Ok(invocation) => invocation,
        // A usage mistake, or the help or version text asked for.
        Err(e) => {
            let stream: &mut dyn Write = if e.use_stderr() { &mut *err } else { &mut *out };
            // Nothing useful is left to do when the stream itself fails.
            let _ = stream.write_all(e.render().to_string().as_bytes());
            return e.exit_code();
        }
    };
    LIMITS.with(|l| l.set(invocation.limits));
    let code = run_task(&invocation.task, out, err);
    LIMITS.with(|l| l.set(Limits::DEFAULT));
    code
}

fn run_task(task: &Task, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    // A failure while running is not a usage mistake: no usage text.
    let result = match task {
        Task::Check(args) => Ok(check::run(&args.paths, args.schema, args.format, out, err)),
        Task::Prune(args) => prune::run(args, out, err),
        Task::Validate(args) => validate::run(args, out, err),
        Task::Openapi(args) => Ok(openapi::command(args, out, err)),
        Task::Explain(args) => Ok(explain::command(args, out, err)),
        Task::Generate(args) => generate::run(args, out, err),
        Task::Diff(args) => diff::run(args, out),
        Task::Completions(shell) => out.write_all(&args::completions(*shell)).map(|()| 0).map_err(|e| e.to_string()),
    };
    result.unwrap_or_else(|message| {
        // Nothing useful is left to do when stderr itself fails.
        let _ = writeln!(err, "error: {message}");
        2
    })
}
