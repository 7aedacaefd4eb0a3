//! Project tasks: `cargo xtask <task>`.
//!
//! - `demo`: the main job on the bundled example (`crd check examples/crds`).

use std::path::PathBuf;
use std::process::Command;

use anyhow::{Context, Result, bail};

fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

/// Runs `crd check` on the bundled example CRDs.
fn demo() -> Result<()> {
    let root = workspace_root();
    let example = root.join("examples/crds");
    println!("== crd check {}", example.display());
    let status = cargo()
        .current_dir(&root)
        .args(["run", "--quiet", "--bin", "crd", "--", "check"])
        .arg(&example)
        .status()
        .context("running `crd check`")?;
    if !status.success() {
        bail!("`crd check` failed on the bundled example");
    }
    println!("== generate Rust from the CRD: coming with the generator");
    println!("== emit a CRD from Rust types: coming with the derive");
    Ok(())
}

fn main() -> Result<()> {
    let task = std::env::args().nth(1);
    match task.as_deref() {
        Some("demo") => demo(),
        Some(other) => bail!("unknown task `{other}`; tasks: demo"),
        None => bail!("usage: cargo xtask <task>; tasks: demo"),
    }
}
