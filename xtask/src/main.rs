//! Project tasks: `cargo xtask <task>`.
//!
//! - `demo`: the main job on the bundled example: check the CRD, generate
//!   Rust from it, and decode a Widget with the generated types;
//! - `gen [--check]`: regenerate the checked-in generated code of the
//!   examples; with `--check`, change nothing and fail (with a diff) when a
//!   checked-in file is stale;
//! - `bless`: rewrite the generator's snapshot files from its current output.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

/// Checked-in generated files: (CRD input, generated output), relative to
/// the workspace root.
const GENERATED: &[(&str, &str)] = &[("examples/crds/widgets.example.com.yaml", "examples/widgets/src/generated.rs")];

fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

fn run(command: &mut Command, what: &str) -> Result<()> {
    let status = command.current_dir(workspace_root()).status().with_context(|| format!("running {what}"))?;
    if !status.success() {
        bail!("{what} failed");
    }
    Ok(())
}

/// The main job on the bundled example.
fn demo() -> Result<()> {
    let root = workspace_root();
    let crd = root.join("examples/crds/widgets.example.com.yaml");
    println!("== crd check examples/crds/widgets.example.com.yaml");
    run(cargo().args(["run", "--quiet", "--bin", "crd", "--", "check"]).arg(&crd), "`crd check`")?;
    let out = root.join("target/demo/widgets.rs");
    println!("\n== crd generate examples/crds/widgets.example.com.yaml -o target/demo/widgets.rs");
    std::fs::create_dir_all(root.join("target/demo")).context("creating target/demo")?;
    run(
        cargo().args(["run", "--quiet", "--bin", "crd", "--", "generate"]).arg(&crd).arg("-o").arg(&out),
        "`crd generate`",
    )?;
    let text = std::fs::read_to_string(&out).context("reading the generated file")?;
    println!("{} lines; the Widget type:", text.lines().count());
    for line in text.lines().skip_while(|l| !l.contains("pub struct Widget ")).take(12) {
        println!("    {line}");
    }
    println!("\n== decode a Widget with the generated types (examples/widgets)");
    run(cargo().args(["run", "--quiet", "-p", "example-widgets", "--bin", "widgets-demo"]), "the widgets example")?;
    println!("\n== emit a CRD from Rust types: coming with #[derive(CustomResourceSchema)]");
    Ok(())
}

/// A short line diff: the first differing lines with context.
fn diff(old: &str, new: &str) -> String {
    let (old, new): (Vec<&str>, Vec<&str>) = (old.lines().collect(), new.lines().collect());
    let first = old.iter().zip(&new).position(|(a, b)| a != b).unwrap_or(old.len().min(new.len()));
    let mut out = format!("@@ line {} @@\n", first + 1);
    for line in old.iter().skip(first).take(5) {
        out.push_str(&format!("-{line}\n"));
    }
    for line in new.iter().skip(first).take(5) {
        out.push_str(&format!("+{line}\n"));
    }
    out
}

/// Regenerates (or with `check`, verifies) the checked-in generated files.
fn generate(check: bool) -> Result<()> {
    let root = workspace_root();
    let mut stale = Vec::new();
    for (input, output) in GENERATED {
        let text = crd_codegen::Builder::new()
            .crd(root.join(input))
            .generate()
            .with_context(|| format!("generating {input}"))?;
        let path: &Path = &root.join(output);
        let old = std::fs::read_to_string(path).unwrap_or_default();
        if old == text {
            continue;
        }
        if check {
            println!("{output} is stale (regenerate with `cargo xtask gen`):\n{}", diff(&old, &text));
            stale.push(*output);
        } else {
            std::fs::write(path, &text).with_context(|| format!("writing {output}"))?;
            println!("wrote {output}");
        }
    }
    if !stale.is_empty() {
        bail!("{} generated file(s) are stale", stale.len());
    }
    Ok(())
}

/// Rewrites the generator's snapshots.
fn bless() -> Result<()> {
    run(cargo().args(["test", "-p", "crd-codegen", "--test", "snapshots"]).env("CRD_BLESS", "1"), "the snapshot tests")
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["demo"] => demo(),
        ["gen"] => generate(false),
        ["gen", "--check"] => generate(true),
        ["bless"] => bless(),
        _ => bail!("usage: cargo xtask <demo | gen [--check] | bless>"),
    }
}
