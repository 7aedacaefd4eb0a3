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
use std::path::{Path, PathBuf};

use args::Task;
use crd_schema::crd::{self, CustomResourceDefinition};
use crd_schema::limits::Limits;

thread_local! {
    /// The limits of the command running on this thread (set by [`run`]).
    static LIMITS: std::cell::Cell<Limits> = const { std::cell::Cell::new(Limits::DEFAULT) };
}

/// The limits of the running command.
fn limits() -> Limits {
    LIMITS.with(std::cell::Cell::get)
}

/// The CRDs of the `--crd` files and directories; none is an error, which
/// says what each document was instead, or which paths held no file.
fn load_crds(paths: &[PathBuf]) -> Result<Vec<CustomResourceDefinition>, String> {
    let files = load_crd_files(paths, "the --crd files")?;
    Ok(files.into_iter().flat_map(|loaded| loaded.crds.into_iter().map(|(_, crd)| crd)).collect())
}

/// The files of `paths` (files or directories) as loaded, for the commands
/// that read CRDs; none holding a CRD is an error naming `place` and what
/// each document was instead, or which paths held no file.
fn load_crd_files(paths: &[impl AsRef<Path>], place: &str) -> Result<Vec<crd::Loaded>, String> {
    let (mut files, mut skipped) = (Vec::new(), Vec::new());
    for path in paths {
        for loaded in crd::load_with(path.as_ref(), &limits()) {
            let loaded = loaded.map_err(|e| e.to_string())?;
            skipped.extend(loaded.skipped.iter().map(|s| format!("{}:{}: {}", loaded.file, s.start, s.reason)));
            files.push(loaded);
        }
    }
    if files.iter().all(|loaded| loaded.crds.is_empty()) {
        if skipped.is_empty() {
            skipped = paths.iter().map(|p| format!("{}: no YAML or JSON file", p.as_ref().display())).collect();
        }
        return Err(format!("no CustomResourceDefinition in {place}: {}", skipped.join("; ")));
    }
    Ok(files)
}

/// Runs the tool with `args` (without the program name) on the calling
/// thread; returns the exit code. The `crd` binary runs the commands that
/// need it ([`Invocation::needs_deep_stack`](args::Invocation::needs_deep_stack))
/// in [`with_deep_stack`](crd_schema::limits::with_deep_stack).
pub fn run(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    match parse(args, out, err) {
        Ok(invocation) => execute(&invocation, out, err),
        Err(code) => code,
    }
}

/// The invocation `args` ask for, or, for a usage mistake or the help or
/// version text, the exit code after writing it.
pub fn parse(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> Result<args::Invocation, i32> {
    args::parse(args).map_err(|e| {
        let stream: &mut dyn Write = if e.use_stderr() { &mut *err } else { &mut *out };
        // Nothing useful is left to do when the stream itself fails.
        let _ = stream.write_all(e.render().to_string().as_bytes());
        e.exit_code()
    })
}

/// Runs `invocation`; returns the exit code.
pub fn execute(invocation: &args::Invocation, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_crd_says_what_the_documents_were() {
        let scratch = tempfile::Builder::new().prefix("crd-prune-load-").tempdir().unwrap();
        let file = scratch.path().join("cm.yaml");
        std::fs::write(&file, "# a ConfigMap\napiVersion: v1\nkind: ConfigMap\n").unwrap();
        let err = load_crds(std::slice::from_ref(&file)).unwrap_err();
        let empty = scratch.path().join("empty");
        std::fs::create_dir_all(&empty).unwrap();
        let err_empty = load_crds(std::slice::from_ref(&empty)).unwrap_err();
        let file = file.display();
        assert_eq!(
            err,
            format!(
                "no CustomResourceDefinition in the --crd files: {file}:2:1: ConfigMap (v1) is not a CustomResourceDefinition"
            )
        );
        let empty = empty.display();
        assert_eq!(err_empty, format!("no CustomResourceDefinition in the --crd files: {empty}: no YAML or JSON file"));
    }
}
