//! The `crd` command line tool.
//!
//! Entry point: [`run`], which the `crd` binary calls with its arguments and
//! which returns the exit code: 0 when everything checked is valid, 1 when
//! something is invalid, 2 when the tool could not run (bad arguments,
//! unreadable file, YAML syntax error, not a CRD).

pub mod check;
pub mod diag;

use std::io::Write;
use std::path::PathBuf;

const USAGE: &str = "\
usage: crd <command> [options]

commands:
  check [--format text|json] PATH...     check CRDs (files or directories) as the API server would
  check --schema [--format text|json] FILE...
                                         check bare openAPIV3Schema documents
  help                                   print this help

exit codes: 0 valid, 1 invalid, 2 could not run
";

/// Runs the tool with `args` (without the program name); returns the exit code.
pub fn run(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let result = match args.first().map(String::as_str) {
        Some("check") => check_command(&args[1..], out, err),
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

fn parse_format(value: Option<&str>) -> Result<check::Format, String> {
    match value {
        Some("text") => Ok(check::Format::Text),
        Some("json") => Ok(check::Format::Json),
        Some(other) => Err(format!("unknown format `{other}`; expected `text` or `json`")),
        None => Err("`--format` needs a value: `text` or `json`".to_owned()),
    }
}
