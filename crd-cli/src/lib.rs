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

pub mod check;
pub mod diag;
pub mod explain;
pub mod generate;
pub mod openapi;
pub mod prune;
pub mod validate;

use std::io::Write;
use std::path::PathBuf;

use crd_schema::limits::{Limit, Limits};

const USAGE: &str = "\
usage: crd <command> [options]

commands:
  check [--format text|json] PATH...     check CRDs (files or directories) as the API server would
  check --schema [--format text|json] FILE...
                                         check bare openAPIV3Schema documents
  prune --crd PATH... [--version V] [--no-default] [--format yaml|json] INPUT...
                                         what the API server stores for each object
  prune --schema FILE [--root] [--no-default] [--format yaml|json] INPUT...
                                         the same against a bare openAPIV3Schema
  validate --crd PATH... [--old FILE]... [--format text|json] INPUT...
                                         whether the API server would accept each object (all
                                         checks, CEL rules included; --old makes it an update)
  validate --schema FILE [--old FILE]... [--format text|json] INPUT...
                                         the same for values of a bare openAPIV3Schema
  openapi --crd PATH... [--group G] [--version V] [--v2] [-o FILE]
                                         the OpenAPI v3 document (Swagger 2.0 with --v2) the API
                                         server publishes for the CRDs' group-version
  explain --crd PATH... [--version V] [--recursive] RESOURCE[.FIELD...]
                                         field documentation like `kubectl explain`
  generate [--strict-enums] [--allow-non-structural] [--derive PATH]... [-o FILE|DIR] PATH...
                                         Rust types whose serde decoding is the API server's
                                         pruning and defaulting (stdout, one file, or one file
                                         per input in DIR); --allow-non-structural generates
                                         serde_json::Value, with a warning, for each schema node
                                         that is not structural instead of failing
  help                                   print this help

limits (every command; a larger input is an error naming the file, the place and the limit):
  --max-input-bytes N    largest file, in bytes (default 67108864)
  --max-depth N          deepest nesting of a document (default and most 1024)
  --max-aliases N        most YAML aliases and anchors in a file (default 10000)
  --max-nodes N          most YAML nodes in a file, aliases expanded (default 4000000)
  --max-alias-nodes N    most YAML nodes that alias expansion adds to a file (default 250000)
  --max-properties N     most properties in one schema, all levels (default 100000)
  --max-pattern-bytes N  longest `pattern` of a schema (default 16384)

exit codes: 0 valid, 1 invalid, 2 could not run
";

thread_local! {
    /// The limits of the command running on this thread (set by [`run`]).
    static LIMITS: std::cell::Cell<Limits> = const { std::cell::Cell::new(Limits::DEFAULT) };
}

/// The limits of the running command.
fn limits() -> Limits {
    LIMITS.with(std::cell::Cell::get)
}

/// Takes the `--max-*` limit options out of `args` (after the command
/// name), whichever command they belong to.
fn split_limits(args: &[String]) -> Result<(Vec<String>, Limits), String> {
    let mut limits = Limits::default();
    let mut rest = Vec::with_capacity(args.len());
    let mut iter = args.iter();
    rest.extend(iter.next().cloned());
    while let Some(arg) = iter.next() {
        let (name, inline) = match arg.split_once('=') {
            Some((name, value)) => (name, Some(value.to_owned())),
            None => (arg.as_str(), None),
        };
        let Some(limit) = name.strip_prefix("--").and_then(Limit::from_name) else {
            rest.push(arg.clone());
            continue;
        };
        let value = match inline {
            Some(value) => value,
            None => flag_value(&mut iter, name)?,
        };
        let number = value.parse::<usize>().map_err(|_| format!("`{name}` needs a whole number, not `{value}`"))?;
        limits.set(limit, number)?;
    }
    Ok((rest, limits))
}

/// Runs the tool with `args` (without the program name); returns the exit
/// code. Documents as deep as `--max-depth` allows need a stack of
/// [`Limits::STACK_BYTES`]: the `crd` binary runs this in
/// [`with_deep_stack`](crd_schema::limits::with_deep_stack).
pub fn run(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let (args, limits) = match split_limits(args) {
        Ok(split) => split,
        Err(message) => {
            let _ = write!(err, "error: {message}\n\n{USAGE}");
            return 2;
        }
    };
    LIMITS.with(|l| l.set(limits));
    let code = run_command(&args, out, err);
    LIMITS.with(|l| l.set(Limits::DEFAULT));
    code
}

fn run_command(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let result = match args.first().map(String::as_str) {
        Some("check") => check_command(&args[1..], out, err),
        Some("generate") => match generate_command(&args[1..]) {
            Ok(parsed) => Ok(generate::run(&parsed, out, err).unwrap_or_else(|message| {
                let _ = writeln!(err, "error: {message}");
                2
            })),
            Err(message) => Err(message),
        },
        Some("prune") => match prune_command(&args[1..]) {
            // A failure while running is not a usage mistake: no usage text.
            Ok(parsed) => Ok(prune::run(&parsed, out, err).unwrap_or_else(|message| {
                let _ = writeln!(err, "error: {message}");
                2
            })),
            Err(message) => Err(message),
        },
        Some("validate") => match validate_command(&args[1..]) {
            Ok(parsed) => Ok(validate::run(&parsed, out, err).unwrap_or_else(|message| {
                let _ = writeln!(err, "error: {message}");
                2
            })),
            Err(message) => Err(message),
        },
        Some("openapi") => openapi::command(&args[1..], out, err),
        Some("explain") => explain::command(&args[1..], out, err),
        Some("help" | "--help" | "-h") => write!(out, "{USAGE}").map(|()| 0).map_err(|e| e.to_string()),
        Some("--version" | "-V") => {
            writeln!(out, "crd {}", env!("CARGO_PKG_VERSION")).map(|()| 0).map_err(|e| e.to_string())
        }
        Some(other) => Err(format!("unknown command `{other}`")),
        None => Err("no command given".to_owned()),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            // Nothing useful is left to do when stderr itself fails.
            let _ = write!(err, "error: {message}\n\n{USAGE}");
            2
        }
    }
}

fn check_command(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, String> {
    let mut format = check::Format::Text;
    let mut schema = false;
    let mut paths = Vec::new();
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "--format" => format = parse_format(iter.next().map(String::as_str))?,
            a if a.starts_with("--format=") => format = parse_format(Some(&a["--format=".len()..]))?,
            "--schema" => schema = true,
            "--help" | "-h" => return write!(out, "{USAGE}").map(|()| 0).map_err(|e| e.to_string()),
            a if a.starts_with('-') && a != "-" => return Err(format!("unknown option `{a}` for `crd check`")),
            a => paths.push(PathBuf::from(a)),
        }
    }
    if paths.is_empty() {
        return Err("`crd check` needs at least one file or directory".to_owned());
    }
    Ok(check::run(&paths, schema, format, out, err))
}

fn generate_command(args: &[String]) -> Result<generate::Args, String> {
    let mut parsed = generate::Args::default();
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "--strict-enums" => parsed.strict_enums = true,
            "--allow-non-structural" => parsed.allow_non_structural = true,
            "--derive" => parsed.derives.push(iter.next().cloned().ok_or("`--derive` needs a path")?),
            "-o" | "--output" => {
                parsed.output = Some(PathBuf::from(iter.next().ok_or("`-o` needs a file or directory")?))
            }
            a if a.starts_with('-') => return Err(format!("unknown option `{a}` for `crd generate`")),
            a => parsed.inputs.push(PathBuf::from(a)),
        }
    }
    if parsed.inputs.is_empty() {
        return Err("`crd generate` needs at least one CRD file or directory".to_owned());
    }
    Ok(parsed)
}

fn prune_command(args: &[String]) -> Result<prune::Args, String> {
    let (mut crds, mut schema, mut version, mut root) = (Vec::new(), None, None, false);
    let (mut no_default, mut format, mut inputs) = (false, prune::Format::Yaml, Vec::new());
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "--crd" => crds.push(PathBuf::from(flag_value(&mut iter, "--crd")?)),
            "--schema" => schema = Some(PathBuf::from(flag_value(&mut iter, "--schema")?)),
            "--version" => version = Some(flag_value(&mut iter, "--version")?),
            "--root" => root = true,
            "--no-default" => no_default = true,
            "--format" => {
                format = match flag_value(&mut iter, "--format")?.as_str() {
                    "yaml" => prune::Format::Yaml,
                    "json" => prune::Format::Json,
                    other => return Err(format!("unknown format `{other}`; expected `yaml` or `json`")),
                }
            }
            a if a.starts_with('-') => return Err(format!("unknown option `{a}` for `crd prune`")),
            a => inputs.push(PathBuf::from(a)),
        }
    }
    let target = match (crds.is_empty(), schema) {
        (false, None) => prune::Target::Crd { paths: crds, version },
        (true, Some(path)) if version.is_none() => prune::Target::Schema { path, root },
        (true, Some(_)) => return Err("`--version` needs `--crd`".to_owned()),
        (true, None) => return Err("`crd prune` needs `--crd PATH` or `--schema FILE`".to_owned()),
        (false, Some(_)) => return Err("`--crd` and `--schema` cannot be combined".to_owned()),
    };
    if inputs.is_empty() {
        return Err("`crd prune` needs at least one input file".to_owned());
    }
    Ok(prune::Args { target, no_default, format, inputs })
}

fn validate_command(args: &[String]) -> Result<validate::Args, String> {
    let (mut crds, mut schema, mut old, mut inputs) = (Vec::new(), None, Vec::new(), Vec::new());
    let mut format = check::Format::Text;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "--crd" => crds.push(PathBuf::from(flag_value(&mut iter, "--crd")?)),
            "--schema" => schema = Some(PathBuf::from(flag_value(&mut iter, "--schema")?)),
            "--old" => old.push(PathBuf::from(flag_value(&mut iter, "--old")?)),
            "--format" => format = parse_format(iter.next().map(String::as_str))?,
            a if a.starts_with("--format=") => format = parse_format(Some(&a["--format=".len()..]))?,
            a if a.starts_with('-') && a != "-" => return Err(format!("unknown option `{a}` for `crd validate`")),
            a => inputs.push(PathBuf::from(a)),
        }
    }
    let target = match (crds.is_empty(), schema) {
        (false, None) => validate::Target::Crd(crds),
        (true, Some(path)) => validate::Target::Schema(path),
        (true, None) => return Err("`crd validate` needs `--crd PATH` or `--schema FILE`".to_owned()),
        (false, Some(_)) => return Err("`--crd` and `--schema` cannot be combined".to_owned()),
    };
    if inputs.is_empty() {
        return Err("`crd validate` needs at least one input file".to_owned());
    }
    Ok(validate::Args { target, old, format, inputs })
}

/// The value after option `flag`; a usage error when the arguments end.
fn flag_value(iter: &mut std::slice::Iter<'_, String>, flag: &str) -> Result<String, String> {
    iter.next().cloned().ok_or_else(|| format!("`{flag}` needs a value"))
}

fn parse_format(value: Option<&str>) -> Result<check::Format, String> {
    match value {
        Some("text") => Ok(check::Format::Text),
        Some("json") => Ok(check::Format::Json),
        Some(other) => Err(format!("unknown format `{other}`; expected `text` or `json`")),
        None => Err("`--format` needs a value: `text` or `json`".to_owned()),
    }
}
