//! `cargo xtask bench`'s cold-build half: what a user's first `cargo
//! build` costs with our crates against the kube-rs way, written to
//! `docs/benchmarks.md` between its `bench:cold:*` markers.
//!
//! Four fresh crates under `target/bench/cold/`, each built from an empty
//! target directory (all dependencies included, dev profile) with one job
//! and with two, ours and the peer's alternately:
//! - cert-manager's Certificate (`examples/build-script/crds/`) as our
//!   generated code, against kopium's output of the same CRD with the
//!   dependencies that output needs (kube with `derive`, schemars,
//!   k8s-openapi with `schemars`);
//! - the types of `examples/derive-operator` with
//!   `#[derive(CustomResourceSchema)]`, against the same types written for
//!   kube-derive and schemars (`xtask/cold-build/kube_derive.rs`).
//!
//! Every crate uses the workspace's `Cargo.lock`, so shared dependencies
//! have the same versions. Peak memory is the largest compiler process's
//! (this binary as `RUSTC_WRAPPER` also records each crate's compile time,
//! which names where a cold build goes).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::bench::{PEAK_FILE, Target, human, kopium, ratio, version_of};
use crate::compile::fresh_crate;
use crate::{cargo, workspace_root};

/// The markers around this half's section of `docs/benchmarks.md`.
pub const COLD: (&str, &str) =
    ("<!-- bench:cold:begin (written by `cargo xtask bench`) -->", "<!-- bench:cold:end -->");

/// The CRD of the generated-code comparison, relative to the root.
const CERTIFICATE: &str = "examples/build-script/crds/certificates.cert-manager.io.yaml";

/// The target of both comparisons: ours at most this share of the peer's
/// cold build.
const TARGET: f64 = 0.6;

/// One fresh crate to build cold.
struct Fresh {
    name: &'static str,
    dir: PathBuf,
}

/// One cold build's figures.
struct Build {
    wall: Duration,
    peak_kib: u64,
    crates: usize,
    /// Compile time per crate, slowest first.
    slowest: Vec<(String, Duration)>,
}

impl Fresh {
    fn write(root: &Path, name: &'static str, dependencies: &str, lib: &str) -> Result<Self> {
        Ok(Self { name, dir: fresh_crate(root, name, dependencies, lib)? })
    }

    /// `cargo build -j jobs` from an empty target directory.
    fn build(&self, jobs: usize) -> Result<Build> {
        let target = self.dir.join("target");
        let _ = std::fs::remove_dir_all(&target);
        let peak_file = self.dir.join(format!("peak-{jobs}.txt"));
        let _ = std::fs::remove_file(&peak_file);
        let wrapper = std::env::current_exe().context("finding xtask's own binary")?;
        let start = Instant::now();
        let output = cargo()
            .args(["build", "--color", "never", "-j", &jobs.to_string()])
            .current_dir(&self.dir)
            .env("RUSTC_WRAPPER", wrapper)
            .env(PEAK_FILE, &peak_file)
            .env("CARGO_INCREMENTAL", "0")
            .env("CARGO_TARGET_DIR", &target)
            .env_remove("RUSTFLAGS")
            .output()
            .context("running cargo build")?;
        let wall = start.elapsed();
        let stderr = String::from_utf8_lossy(&output.stderr);
        if !output.status.success() {
            bail!("cargo build in {} failed:\n{stderr}", self.dir.display());
        }
        let crates = stderr.lines().filter(|l| l.trim_start().starts_with("Compiling ")).count();
        let records = std::fs::read_to_string(&peak_file).unwrap_or_default();
        let mut peak_kib = 0;
        let mut slowest = Vec::new();
        for line in records.lines() {
            let fields: Vec<&str> = line.split_whitespace().collect();
            if let [name, kib, millis] = fields.as_slice() {
                peak_kib = peak_kib.max(kib.parse().unwrap_or(0));
                slowest.push(((*name).to_owned(), Duration::from_millis(millis.parse().unwrap_or(0))));
            }
        }
        slowest.sort_by_key(|(_, time)| std::cmp::Reverse(*time));
        println!("   {} -j{jobs}: {:.1} s, {crates} crates, {} MiB", self.name, wall.as_secs_f64(), peak_kib / 1024);
        Ok(Build { wall, peak_kib, crates, slowest })
    }
}

/// The lines of a crate's source: all, and non-blank.
fn lines(text: &str) -> (usize, usize) {
    (text.lines().count(), text.lines().filter(|l| !l.trim().is_empty()).count())
}

/// Builds the four crates cold, writes the tables to `report` and the two
/// targets to `targets`; returns kopium's version.
pub fn cold(report: &mut String, targets: &mut Vec<Target>) -> Result<String> {
    let root = workspace_root();
    let dir = root.join("target/bench/cold");
    let _ = std::fs::remove_dir_all(&dir);
    let kopium = kopium()?;
    let kopium_version = version_of(&kopium);
    let crd = root.join(CERTIFICATE);

    let ours_text = crd_codegen::Builder::new().crd(&crd).generate().context("generating the Certificate")?;
    let output = Command::new(&kopium).args(["-A", "-f"]).arg(&crd).output().context("running kopium")?;
    if !output.status.success() {
        bail!("kopium failed on {CERTIFICATE}:\n{}", String::from_utf8_lossy(&output.stderr));
    }
    let kopium_text = String::from_utf8(output.stdout).context("kopium wrote non-UTF-8")?;
    let crd_schema = root.join("crd-schema").canonicalize()?.display().to_string();
    let common = "serde = { version = \"1\", features = [\"derive\"] }\nserde_json = \"1\"\n";
    let ours_deps = |features: &str| {
        format!(
            "{common}k8s-openapi = {{ version = \"0.29\", features = [\"v1_34\"] }}\n\
             crd-schema = {{ path = {crd_schema:?}, features = [{features}] }}\n"
        )
    };
    let theirs_deps = format!(
        "{common}k8s-openapi = {{ version = \"0.29\", features = [\"v1_34\", \"schemars\"] }}\n\
         kube = {{ version = \"5\", default-features = false, features = [\"derive\"] }}\nschemars = \"1\"\n"
    );
    let derive_types = std::fs::read_to_string(root.join("examples/derive-operator/src/lib.rs"))?;
    // The example's types without its controller module.
    let derive_types = derive_types.replace("pub mod controller;\n", "");
    let kube_derive_types = std::fs::read_to_string(root.join("xtask/cold-build/kube_derive.rs"))?;

    let generated = [
        Fresh::write(&dir, "generated-crd", &ours_deps("\"derive\", \"k8s-openapi\""), &ours_text)?,
        Fresh::write(&dir, "generated-kopium", &theirs_deps, &kopium_text)?,
    ];
    let derived = [
        Fresh::write(&dir, "derive-crd", &ours_deps("\"derive\", \"k8s-openapi\", \"kube\""), &derive_types)?,
        Fresh::write(&dir, "derive-kube", &theirs_deps, &kube_derive_types)?,
    ];
    println!("== cold builds in {}", dir.display());
    let mut results = Vec::new();
    for (what, pair) in [("generated code", &generated), ("derived types", &derived)] {
        let mut by_jobs = Vec::new();
        for jobs in [1, 2] {
            let ours = pair[0].build(jobs)?;
            let theirs = pair[1].build(jobs)?;
            by_jobs.push((jobs, ours, theirs));
        }
        results.push((what, by_jobs));
    }

    let (ours_lines, kopium_lines) = (lines(&ours_text), lines(&kopium_text));
    writeln!(
        report,
        "cert-manager's Certificate: our generated file has {} lines ({} non-blank), kopium's {} ({}): {:.2}×.\n",
        ours_lines.0,
        ours_lines.1,
        kopium_lines.0,
        kopium_lines.1,
        ratio(ours_lines.0 as f64, kopium_lines.0 as f64)
    )?;
    writeln!(
        report,
        "| crate | jobs | crd | peer | crd ÷ peer | crates compiled (crd / peer) | peak compiler memory (crd / peer) |"
    )?;
    writeln!(report, "|---|---:|---:|---:|---:|---:|---:|")?;
    let peers = ["kopium's output, kube `derive`, schemars", "kube-derive and schemars"];
    for ((what, by_jobs), peer) in results.iter().zip(peers) {
        let mut worst = 0.0f64;
        for (jobs, ours, theirs) in by_jobs {
            let r = ratio(ours.wall.as_secs_f64(), theirs.wall.as_secs_f64());
            worst = worst.max(r);
            writeln!(
                report,
                "| {what} (peer: {peer}) | {jobs} | {} | {} | {r:.2}× | {} / {} | {} / {} MiB |",
                human(ours.wall.as_secs_f64()),
                human(theirs.wall.as_secs_f64()),
                ours.crates,
                theirs.crates,
                ours.peak_kib / 1024,
                theirs.peak_kib / 1024
            )?;
        }
        targets.push(Target {
            target: if *what == "generated code" {
                "cold build of generated code ≤ 0.6× kopium's output's (1 and 2 jobs)"
            } else {
                "cold build of derived types ≤ 0.6× kube-derive's (1 and 2 jobs)"
            },
            measured: format!("{worst:.2}× (the larger of the two)"),
            met: worst <= TARGET,
        });
    }
    writeln!(report, "\nWhere one job's time goes (the eight slowest crates to compile, each build):\n")?;
    writeln!(report, "| build | slowest crates |")?;
    writeln!(report, "|---|---|")?;
    for ((what, by_jobs), pair) in results.iter().zip([&generated, &derived]) {
        if let Some((_, ours, theirs)) = by_jobs.iter().find(|(jobs, ..)| *jobs == 1) {
            for (fresh, build) in [(&pair[0], ours), (&pair[1], theirs)] {
                let list: Vec<String> = build
                    .slowest
                    .iter()
                    .take(8)
                    .map(|(name, time)| format!("{name} {:.1} s", time.as_secs_f64()))
                    .collect();
                writeln!(report, "| {what}: `{}` | {} |", fresh.name, list.join(", "))?;
            }
        }
    }
    writeln!(report)?;
    Ok(kopium_version)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    /// The `pub struct`/`pub enum` names and the `pub` field names of a
    /// Rust file.
    fn items(text: &str) -> (BTreeSet<String>, BTreeSet<String>) {
        let (mut types, mut fields) = (BTreeSet::new(), BTreeSet::new());
        for line in text.lines().map(str::trim) {
            let word = |rest: &str| rest.split([' ', '{', ':']).next().unwrap_or_default().to_owned();
            if let Some(rest) = line.strip_prefix("pub struct ").or_else(|| line.strip_prefix("pub enum ")) {
                types.insert(word(rest));
            } else if let Some(rest) = line.strip_prefix("pub ").filter(|r| r.contains(':')) {
                fields.insert(word(rest));
            }
        }
        (types, fields)
    }

    #[test]
    fn the_kube_derive_types_are_the_example_types() {
        let root = workspace_root();
        let read = |path: &str| std::fs::read_to_string(root.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
        let (our_types, mut our_fields) = items(&read("examples/derive-operator/src/lib.rs"));
        let (mut their_types, their_fields) = items(&read("xtask/cold-build/kube_derive.rs"));
        // kube-derive writes the root and its fields from `DatabaseSpec`.
        their_types.insert("Database".to_owned());
        for root_field in ["api_version", "kind", "metadata", "spec", "status"] {
            our_fields.remove(root_field);
        }
        assert_eq!(our_types, their_types);
        assert_eq!(our_fields, their_fields);
    }
}
