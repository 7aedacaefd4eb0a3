//! Compiling generated code, for `cargo xtask bench`'s comparison with
//! kopium: [`Output`] holds one tool's output for the corpus and
//! [`Output::compile`] builds it as one fresh crate per corpus project,
//! timing `cargo check` and `cargo build` and reading the peak memory of
//! the crate's own rustc (recorded by this binary as `RUSTC_WRAPPER`).
//! [`per_operator`] turns both tools' results into the per-operator table
//! and its target. [`fresh_crate`] is shared with the cold builds.
//!
//! Errors are `anyhow`: a crate that does not compile ends the run.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::bench::{PEAK_FILE, Target, human, module_ident, ratio};
use crate::{cargo, workspace_root};

/// The most a tool's generated code may cost per operator, as a fraction
/// of kopium's, in build time and in peak memory.
const PER_OPERATOR_LIMIT: f64 = 0.5;

/// One tool's output for the corpus: a fresh crate per corpus project (the
/// whole corpus in one crate needs more memory than this machine has for
/// kopium's output), all sharing one target directory so that the
/// dependencies are built once.
pub struct Output {
    pub dir: PathBuf,
    /// Generated modules, by corpus project.
    pub projects: BTreeMap<String, Vec<(String, String)>>,
}

/// A fresh crate `dir/name` outside the workspace, with `lib` as its
/// `src/lib.rs` and the workspace's `Cargo.lock`, so that dependencies it
/// shares with the workspace have the same versions.
pub fn fresh_crate(dir: &Path, name: &str, dependencies: &str, lib: &str) -> Result<PathBuf> {
    let dir = dir.join(name);
    std::fs::create_dir_all(dir.join("src"))?;
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
             [workspace]\n\n[dependencies]\n{dependencies}"
        ),
    )?;
    std::fs::copy(workspace_root().join("Cargo.lock"), dir.join("Cargo.lock")).context("copying Cargo.lock")?;
    std::fs::write(dir.join("src/lib.rs"), lib)?;
    Ok(dir)
}

/// One corpus project's generated code, compiled alone.
#[derive(Debug, Clone)]
pub struct Project {
    pub name: String,
    pub check: Duration,
    pub build: Duration,
    /// The larger peak of the crate's own rustc in `check` and `build`.
    pub peak_kib: u64,
}

/// One tool's generated code, compiled project by project.
#[derive(Debug, Default)]
pub struct Compiled {
    pub projects: Vec<Project>,
}

impl Compiled {
    /// `cargo check` summed over the crates.
    pub fn check(&self) -> Duration {
        self.projects.iter().map(|p| p.check).sum()
    }

    /// `cargo build` summed over the crates.
    pub fn build(&self) -> Duration {
        self.projects.iter().map(|p| p.build).sum()
    }

    /// The largest compiler process of all the crates.
    pub fn peak_kib(&self) -> u64 {
        self.projects.iter().map(|p| p.peak_kib).max().unwrap_or(0)
    }
}

impl Output {
    fn write_crate(&self, name: &str, dependencies: &str, modules: &[(String, String)]) -> Result<PathBuf> {
        let mut lib = String::from("#![allow(warnings, clippy::all)]\n");
        for (module, _) in modules {
            writeln!(lib, "pub mod {module};")?;
        }
        let dir = fresh_crate(&self.dir, name, dependencies, &lib)?;
        for (module, text) in modules {
            std::fs::write(dir.join("src").join(format!("{module}.rs")), text)?;
        }
        Ok(dir)
    }

    fn cargo(&self, crate_dir: &Path, command: &str, peak_file: &Path) -> Result<Duration> {
        let wrapper = std::env::current_exe().context("finding xtask's own binary")?;
        let start = Instant::now();
        let output = cargo()
            .arg(command)
            .arg("--quiet")
            .current_dir(crate_dir)
            .env("RUSTC_WRAPPER", wrapper)
            .env(PEAK_FILE, peak_file)
            .env("CARGO_INCREMENTAL", "0")
            .env("CARGO_TARGET_DIR", self.dir.join("target"))
            .output()
            .context("running cargo")?;
        let elapsed = start.elapsed();
        if !output.status.success() {
            bail!("cargo {command} in {} failed:\n{}", crate_dir.display(), String::from_utf8_lossy(&output.stderr));
        }
        Ok(elapsed)
    }

    /// Builds the dependencies, then times `cargo check` and `cargo build`
    /// of each project's generated code alone.
    pub fn compile(&self, dependencies: &str) -> Result<Compiled> {
        let deps = self.write_crate("dependencies-only", dependencies, &[])?;
        println!("   building the dependencies in {}", self.dir.display());
        let scratch = deps.join("peak.txt");
        self.cargo(&deps, "check", &scratch)?;
        self.cargo(&deps, "build", &scratch)?;
        let mut out = Compiled::default();
        for (project, modules) in &self.projects {
            let name = format!("gen-{}", module_ident(project));
            let dir = self.write_crate(&name, dependencies, modules)?;
            let peak_file = dir.join("peak.txt");
            let check = self.cargo(&dir, "check", &peak_file)?;
            let build = self.cargo(&dir, "build", &peak_file)?;
            let peak_kib = own_peak_kib(&peak_file, &name.replace('-', "_"));
            println!(
                "   {name}: check {:.1} s, build {:.1} s, {} MiB",
                check.as_secs_f64(),
                build.as_secs_f64(),
                peak_kib / 1024
            );
            out.projects.push(Project { name: project.clone(), check, build, peak_kib });
        }
        Ok(out)
    }
}

/// The largest peak the wrapper recorded in `peak_file` for `crate_name`
/// itself (its dependencies were built beforehand, so are not in it).
fn own_peak_kib(peak_file: &Path, crate_name: &str) -> u64 {
    std::fs::read_to_string(peak_file)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| {
            let mut fields = l.split_whitespace();
            if fields.next()? != crate_name {
                return None;
            }
            fields.next()?.parse::<u64>().ok()
        })
        .max()
        .unwrap_or(0)
}

/// One operator's compile figures, ours ÷ kopium's.
struct Ratios {
    check: f64,
    build: f64,
    peak: f64,
}

impl Ratios {
    fn of(ours: &Project, theirs: &Project) -> Self {
        Ratios {
            check: ratio(ours.check.as_secs_f64(), theirs.check.as_secs_f64()),
            build: ratio(ours.build.as_secs_f64(), theirs.build.as_secs_f64()),
            peak: ratio(ours.peak_kib as f64, theirs.peak_kib as f64),
        }
    }

    /// Build time and peak memory both within the limit.
    fn met(&self) -> bool {
        self.build <= PER_OPERATOR_LIMIT && self.peak <= PER_OPERATOR_LIMIT
    }

    /// How far the operator is from the target: the larger of its two.
    fn worst(&self) -> f64 {
        self.build.max(self.peak)
    }
}

/// The per-operator table (each project of the corpus, both tools'
/// `cargo check`, `cargo build` and peak compiler memory) written to
/// `report`, and its target: build time and peak memory both ≤ 0.5×
/// kopium's on every operator. Projects only one tool has are left out.
pub fn per_operator(report: &mut String, ours: &Compiled, theirs: &Compiled) -> Result<Target> {
    writeln!(report, "Per operator (one crate per corpus project; crd ÷ kopium):\n")?;
    writeln!(
        report,
        "| operator | check, crd | check, kopium | ratio | build, crd | build, kopium | ratio \
         | peak memory, crd | peak memory, kopium | ratio |"
    )?;
    writeln!(report, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")?;
    let mut rows = Vec::new();
    for o in &ours.projects {
        let Some(t) = theirs.projects.iter().find(|t| t.name == o.name) else { continue };
        let r = Ratios::of(o, t);
        let secs = |d: Duration| human(d.as_secs_f64());
        writeln!(
            report,
            "| {} | {} | {} | {:.2}× | {} | {} | {:.2}× | {} MiB | {} MiB | {:.2}× |",
            o.name,
            secs(o.check),
            secs(t.check),
            r.check,
            secs(o.build),
            secs(t.build),
            r.build,
            o.peak_kib / 1024,
            t.peak_kib / 1024,
            r.peak
        )?;
        rows.push((o.name.as_str(), r));
    }
    writeln!(report)?;
    Ok(per_operator_target(&rows))
}

fn per_operator_target(rows: &[(&str, Ratios)]) -> Target {
    let held = rows.iter().filter(|(_, r)| r.met()).count();
    let worst = rows.iter().max_by(|a, b| a.1.worst().total_cmp(&b.1.worst()));
    let measured = match worst {
        Some((name, r)) => format!(
            "both hold on {held} of {} operators; worst {name}: build {:.2}×, peak memory {:.2}×",
            rows.len(),
            r.build,
            r.peak
        ),
        None => "no operator compiled by both tools".to_owned(),
    };
    Target {
        target: "generated code builds in ≤ 0.5× kopium's time and peak memory on every operator",
        measured,
        met: !rows.is_empty() && held == rows.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn project(name: &str, check: u64, build: u64, peak_kib: u64) -> Project {
        let ms = Duration::from_millis;
        Project { name: name.to_owned(), check: ms(check), build: ms(build), peak_kib }
    }

    #[test]
    fn per_operator_rows_name_the_worst_operator() {
        let ours = Compiled {
            projects: vec![
                project("argo", 1_000, 2_000, 100 * 1024),
                project("kyverno", 3_000, 6_000, 700 * 1024),
                project("ours-only", 1, 1, 1),
            ],
        };
        let theirs = Compiled {
            projects: vec![project("argo", 4_000, 8_000, 400 * 1024), project("kyverno", 4_000, 10_000, 1_000 * 1024)],
        };
        let mut report = String::new();
        let target = per_operator(&mut report, &ours, &theirs).expect("writing to a String");
        assert!(
            report.contains("| argo | 1.00 s | 4.00 s | 0.25× | 2.00 s | 8.00 s | 0.25× | 100 MiB | 400 MiB | 0.25× |")
        );
        assert!(report.contains("| build, kopium | ratio | peak memory, crd |"), "{report}");
        assert!(report.contains("| kyverno |") && !report.contains("ours-only"), "{report}");
        assert!(!target.met);
        assert_eq!(target.measured, "both hold on 1 of 2 operators; worst kyverno: build 0.60×, peak memory 0.70×");
        assert_eq!(ours.build(), Duration::from_millis(8_001));
        assert_eq!(theirs.peak_kib(), 1_000 * 1024);
    }

    #[test]
    fn per_operator_target_is_met_when_every_operator_holds() {
        let ours = Compiled { projects: vec![project("a", 1, 5, 50), project("b", 1, 4, 40)] };
        let theirs = Compiled { projects: vec![project("a", 2, 10, 100), project("b", 2, 10, 100)] };
        let target = per_operator(&mut String::new(), &ours, &theirs).expect("writing to a String");
        assert!(target.met, "{}", target.measured);
        assert!(
            target.measured.starts_with("both hold on 2 of 2 operators; worst a: build 0.50×"),
            "{}",
            target.measured
        );
        assert!(!per_operator(&mut String::new(), &Compiled::default(), &theirs).expect("writing").met);
    }
}
