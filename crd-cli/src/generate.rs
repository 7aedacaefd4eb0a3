//! `crd generate`: Rust types from CRDs.
//!
//! `crd generate [--strict-enums] [--allow-non-structural] [--derive PATH]... [-o FILE|DIR] PATH...`
//! writes one file holding every CRD found in the inputs (to stdout, or to
//! `-o FILE`), or with `-o DIR` (an existing directory, or a path ending in
//! `/`) one file per input file, named after it (`widgets.example.com.rs`).
//! Files are written only when their content changed. The generator's
//! warnings (`--allow-non-structural`: the nodes generated as
//! `serde_json::Value`) go to stderr as rustc-like diagnostics; they do not
//! change the exit code.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::diag;
use crd_codegen::{Builder, Warning};

/// The command line of `crd generate`: clap's definition is all it needs.
pub use super::args::GenerateArgs as Args;

fn builder(args: &Args) -> Builder {
    let mut builder = Builder::new();
    builder.strict_enums(args.strict_enums).allow_non_structural(args.allow_non_structural).limits(super::limits());
    for derive in &args.derives {
        builder.derive(derive);
    }
    builder
}

/// Writes `text` to `path` unless it already holds exactly that (the
/// generator's own rule for checked-in files).
fn write_if_changed(path: &Path, text: &str) -> Result<bool, String> {
    crd_codegen::checked_in::write_if_changed(path, text).map_err(|e| e.to_string())
}

/// Every CRD file of the inputs (directories searched recursively).
fn input_files(inputs: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    inputs
        .iter()
        .flat_map(|input| crd_schema::crd::manifest_files(input))
        .map(|f| f.map_err(|e| e.to_string()))
        .collect()
}

/// Writes each warning with a snippet of its file (read again; warnings
/// come grouped by file).
fn print_warnings(warnings: &[Warning], err: &mut dyn Write) -> std::io::Result<()> {
    for group in warnings.chunk_by(|a, b| a.file == b.file) {
        let file = &group[0].file;
        let source = diag::Source::new(std::fs::read_to_string(file).unwrap_or_default());
        for warning in group {
            err.write_all(diag::render("warning", &warning.to_string(), file, &source, warning.at, &[]).as_bytes())?;
        }
    }
    Ok(())
}

fn is_dir_target(path: &Path) -> bool {
    path.is_dir() || path.as_os_str().to_string_lossy().ends_with('/')
}

/// Runs `crd generate`; returns the exit code (0 generated, 2 could not).
pub fn run(args: &Args, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, String> {
    let io = |e: std::io::Error| e.to_string();
    match &args.output {
        Some(dir) if is_dir_target(dir) => {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: cannot create: {e}", dir.display()))?;
            for file in input_files(&args.inputs)? {
                let (text, warnings) = builder(args).crd(&file).generate_with_warnings().map_err(|e| e.to_string())?;
                print_warnings(&warnings, err).map_err(io)?;
                let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("crd");
                let target = dir.join(format!("{stem}.rs"));
                if write_if_changed(&target, &text)? {
                    writeln!(err, "wrote {}", target.display()).map_err(io)?;
                }
            }
        }
        output => {
            let mut builder = builder(args);
            for input in &args.inputs {
                builder.crd(input);
            }
            let (text, warnings) = builder.generate_with_warnings().map_err(|e| e.to_string())?;
            print_warnings(&warnings, err).map_err(io)?;
            match output {
                Some(file) => {
                    if write_if_changed(file, &text)? {
                        writeln!(err, "wrote {}", file.display()).map_err(io)?;
                    }
                }
                None => out.write_all(text.as_bytes()).map_err(io)?,
            }
        }
    }
    Ok(0)
}
