//! Peak memory of the CLI, for `cargo xtask bench`'s runtime section:
//! [`cli_peaks`] runs `crd check` and `crd generate` on the largest corpus
//! CRD and compares what they take beyond the process's own baseline with
//! the file's size as compact JSON; the same commands on the smallest corpus
//! CRD show what reading any CRD costs, whatever its size.
//! [`peak_rss_kib`] measures one process.
//!
//! Errors are `anyhow`: a command that fails ends the run.

use std::ffi::OsStr;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail};

use crate::bench::{Target, yaml_files};
use crate::workspace_root;

/// The most a command may take beyond its baseline, as a multiple of the
/// input's size in compact JSON.
const LIMIT: f64 = 3.0;

/// GNU time (Debian package `time`), which forks the command from its own
/// process of about 1 MiB and reads the child's `ru_maxrss` from `wait4`.
const GNU_TIME: &str = "/usr/bin/time";

/// The peak resident set of `program args...`, run to its end with no
/// input and its output discarded, in KiB: the kernel's own high-water
/// mark of the process, exact however short the process is (sampling
/// `/proc` every few milliseconds misses most of a 50 ms run).
///
/// The command runs under GNU time, not as this process's child: on exec,
/// Linux carries the high-water mark of the address space being replaced
/// into the new program's `ru_maxrss`, and std spawns with `posix_spawn`
/// (`vfork`), whose child execs from this process's own address space; so
/// `wait4` here would read any figure below this process's peak as that
/// peak (29.5 MiB for `crd --version` from the test harness, 4.6 MiB under
/// GNU time).
pub fn peak_rss_kib<S: AsRef<OsStr>>(program: impl AsRef<OsStr>, args: &[S]) -> Result<u64> {
    let output = Command::new(GNU_TIME)
        .args(["-f", "%M"])
        .arg(program.as_ref())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .with_context(|| format!("running {GNU_TIME} (GNU time, Debian package `time`)"))?;
    let what = Path::new(program.as_ref()).display();
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        bail!("{what} failed ({}):\n{stderr}", output.status);
    }
    peak_of(&stderr)
}

/// GNU time's `%M` figure from a command's standard error: the command's
/// own output comes first, the figure is the last line.
fn peak_of(stderr: &str) -> Result<u64> {
    let last = stderr.lines().last().unwrap_or_default();
    last.trim().parse().with_context(|| format!("reading GNU time's peak from {last:?}"))
}

/// The lowest peak of three runs of `program args...`.
fn best_of_three(program: &Path, args: &[&OsStr]) -> Result<u64> {
    let mut best = u64::MAX;
    for _ in 0..3 {
        best = best.min(peak_rss_kib(program, args)?);
    }
    Ok(best)
}

/// The smallest and the largest CRD files under `corpus`, by bytes.
fn smallest_and_largest_crd(corpus: &Path) -> Result<(PathBuf, PathBuf)> {
    let mut by_size: Vec<(u64, PathBuf)> =
        yaml_files(corpus).into_iter().map(|f| (std::fs::metadata(&f).map(|m| m.len()).unwrap_or(0), f)).collect();
    by_size.sort();
    let smallest = by_size.first().with_context(|| format!("no CRD files in {}", corpus.display()))?.1.clone();
    let largest = by_size.pop().map(|(_, f)| f).unwrap_or_else(|| smallest.clone());
    Ok((smallest, largest))
}

/// The size of `file`'s documents written as compact JSON, summed: the
/// size of the input once YAML's indentation and quoting are gone.
fn json_bytes(file: &Path, text: &str) -> Result<usize> {
    let documents =
        crd_schema::yaml::parse_documents(&file.display().to_string(), text).map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut total = 0;
    for document in documents {
        total += serde_json::to_string(&document.value)?.len();
    }
    Ok(total)
}

/// The peak memory of `crd check` and `crd generate` (binary `crd`) on the
/// largest corpus CRD, as a table in `report`, and its target: each
/// command's peak less the baseline of `crd --version` (what the binary
/// costs before it reads anything) at most 3× the file's size in JSON. The
/// table also gives both commands on the smallest corpus CRD: what they take
/// whatever the input (the code they run, the allocator's arenas), which is
/// part of the figure the target divides.
pub fn cli_peaks(report: &mut String, crd: &Path) -> Result<Target> {
    let corpus = workspace_root().join("../shared/corpus/crds");
    let (smallest, file) = smallest_and_largest_crd(&corpus)?;
    let text = std::fs::read_to_string(&file).with_context(|| format!("reading {}", file.display()))?;
    let json = json_bytes(&file, &text)?;
    let name = file.strip_prefix(&corpus).unwrap_or(&file).display();
    let small_name = smallest.strip_prefix(&corpus).unwrap_or(&smallest).display();
    let small_bytes = std::fs::metadata(&smallest)?.len();
    println!("== peak memory of crd on {name} and {small_name}");
    let baseline = best_of_three(crd, &["--version".as_ref()])?;
    let run = |command: &str, file: &Path| best_of_three(crd, &[command.as_ref(), file.as_os_str()]);
    let (check, generate) = (run("check", &file)?, run("generate", &file)?);
    let (small_check, small_generate) = (run("check", &smallest)?, run("generate", &smallest)?);
    let per_json = |peak: u64| peak.saturating_sub(baseline) as f64 * 1024.0 / json as f64;
    writeln!(report, "#### Peak memory of the CLI on the largest corpus CRD (best of 3)\n")?;
    writeln!(report, "`{name}`: {} bytes of YAML, {json} bytes as compact JSON.", text.len())?;
    writeln!(
        report,
        "The smallest corpus CRD, `{small_name}` ({small_bytes} bytes of YAML), shows what each \
         command takes whatever it reads; the last column divides by the largest CRD's JSON.\n"
    )?;
    writeln!(report, "| command | peak resident set | less the baseline | ÷ JSON size |")?;
    writeln!(report, "|---|---:|---:|---:|")?;
    writeln!(report, "| `crd --version` (baseline) | {} | | |", mib(baseline))?;
    let rows = [
        ("check", "the smallest CRD", small_check),
        ("generate", "the smallest CRD", small_generate),
        ("check", "the largest CRD", check),
        ("generate", "the largest CRD", generate),
    ];
    for (command, on, peak) in rows {
        let beyond = peak.saturating_sub(baseline);
        writeln!(report, "| `crd {command}`, {on} | {} | {} | {:.2}× |", mib(peak), mib(beyond), per_json(peak))?;
    }
    writeln!(report)?;
    Ok(Target {
        target: "peak memory of `crd check` and `crd generate` on the largest corpus CRD: reported, and at most 3× the file's size in JSON",
        measured: format!(
            "beyond the baseline, `check` {:.2}×, `generate` {:.2}× of {json} bytes of JSON ({name}); \
             on the smallest CRD already {:.2}× and {:.2}×",
            per_json(check),
            per_json(generate),
            per_json(small_check),
            per_json(small_generate)
        ),
        met: per_json(check) <= LIMIT && per_json(generate) <= LIMIT,
    })
}

fn mib(kib: u64) -> String {
    format!("{:.1} MiB", kib as f64 / 1024.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_peak_is_the_last_line_of_standard_error() {
        assert_eq!(peak_of("warning: x\n4608\n").expect("a figure"), 4608);
        assert!(peak_of("crd: error: no such file\n").is_err());
        assert!(peak_of("").is_err());
    }

    #[test]
    fn json_size_is_compact() {
        let yaml = "a:\n  b: [1, 2]\n---\nc: x\n";
        assert_eq!(json_bytes(Path::new("t.yaml"), yaml).expect("valid YAML"), r#"{"a":{"b":[1,2]}}"#.len() + 9);
    }
}
