//! `cargo xtask bench`: the benchmarks of `bench/` plus the comparison with
//! kopium on the public corpus, as ratios measured in one run, written to
//! `docs/benchmarks.md` (between its `bench:runtime:*` and `bench:peers:*`
//! markers; the text around them is kept).
//!
//! The kopium comparison: both tools generate every corpus CRD (kopium once
//! per version, `-A`, as it generates one version per run), each CLI timed
//! as a process, best of five, the two tools' runs alternating. Both outputs go into fresh crates under
//! `target/bench/` (same profile, the workspace's `Cargo.lock` so shared
//! dependencies have the same versions, dependencies built beforehand),
//! and `cargo check` / `cargo build` of the generated code alone are timed.
//! Peak memory is the compiler's (VmHWM, sampled every 5 ms by this binary
//! acting as `RUSTC_WRAPPER`). The compiling is in `compile`, which also
//! writes the per-operator table; the runtime half ends with the CLI's
//! peak memory on the largest corpus CRD (`memory`).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::{cargo, compile, memory, workspace_root};

/// The environment variable that turns this binary into a rustc wrapper
/// recording peak memory into the file it names.
pub const PEAK_FILE: &str = "CRD_XTASK_RUSTC_PEAK_FILE";

/// The markers around the section each half of the run writes; a half
/// that is not run leaves its section as it was.
const RUNTIME: (&str, &str) =
    ("<!-- bench:runtime:begin (written by `cargo xtask bench`) -->", "<!-- bench:runtime:end -->");
const PEERS: (&str, &str) = ("<!-- bench:peers:begin (written by `cargo xtask bench`) -->", "<!-- bench:peers:end -->");

/// Rustc wrapper mode: runs `rustc args...`, samples its peak resident
/// memory and appends `<crate name> <KiB> <milliseconds>` to the peak file.
pub fn rustc_wrapper(peak_file: &Path, args: &[String]) -> Result<i32> {
    let (rustc, rest) = args.split_first().context("no rustc to wrap")?;
    let start = Instant::now();
    let mut child = Command::new(rustc).args(rest).spawn().context("spawning rustc")?;
    let status_path = format!("/proc/{}/status", child.id());
    let mut peak = 0u64;
    let status = loop {
        if let Ok(text) = std::fs::read_to_string(&status_path) {
            let hwm = text
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok());
            peak = peak.max(hwm.unwrap_or(0));
        }
        if let Some(status) = child.try_wait().context("waiting for rustc")? {
            break status;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let name = rest.iter().position(|a| a == "--crate-name").and_then(|i| rest.get(i + 1));
    if let Some(name) = name {
        use std::io::Write as _;
        let mut file = std::fs::OpenOptions::new().create(true).append(true).open(peak_file)?;
        writeln!(file, "{name} {peak} {}", start.elapsed().as_millis())?;
    }
    Ok(status.code().unwrap_or(1))
}

/// Median times (seconds) of one divan run, keyed `function` or
/// `function/argument`.
fn divan_medians(output: &str) -> BTreeMap<String, f64> {
    let mut out = BTreeMap::new();
    let mut parent = String::new();
    for line in output.lines() {
        let line = strip_ansi(line);
        // A tree prefix (`│  ├─ `), the name and the fastest time, then
        // the columns slowest, median, mean, samples, iters.
        let rest = line.trim_start_matches(['│', '├', '╰', '─', ' ']);
        let depth = line.chars().count() - rest.chars().count();
        let fields: Vec<&str> = rest.split('│').collect();
        if fields.len() < 5 {
            continue;
        }
        let Some(name) = fields[0].split_whitespace().next() else { continue };
        let median = parse_time(fields[2].trim());
        match median {
            None if depth <= 3 => parent = name.to_owned(),
            None => {}
            Some(t) if depth <= 3 => {
                out.insert(name.to_owned(), t);
            }
            Some(t) => {
                out.insert(format!("{parent}/{name}"), t);
            }
        }
    }
    out
}

fn strip_ansi(line: &str) -> String {
    let mut out = String::new();
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn parse_time(text: &str) -> Option<f64> {
    let (number, unit) = text.split_once(' ')?;
    let number: f64 = number.parse().ok()?;
    let scale = match unit.trim() {
        "ns" => 1e-9,
        "µs" | "us" => 1e-6,
        "ms" => 1e-3,
        "s" => 1.0,
        _ => return None,
    };
    Some(number * scale)
}

/// Processes each divan benchmark runs in: a function's figure is the
/// lowest of its medians. On a shared host one process's median can move
/// by half (the allocation-heavy `validate` pipeline most), both sides of
/// a ratio alike only when they are hit alike; the best of a few runs is
/// the machine's figure, as the CLI comparison takes the best of five.
const DIVAN_RUNS: usize = 3;

/// [`DIVAN_RUNS`] runs of `bench`, each function's lowest median.
fn run_divan(bench: &str) -> Result<BTreeMap<String, f64>> {
    let mut best: BTreeMap<String, f64> = BTreeMap::new();
    for _ in 0..DIVAN_RUNS {
        for (name, median) in run_divan_once(bench)? {
            best.entry(name).and_modify(|b| *b = b.min(median)).or_insert(median);
        }
    }
    Ok(best)
}

fn run_divan_once(bench: &str) -> Result<BTreeMap<String, f64>> {
    println!("== cargo bench -p crd-bench --bench {bench}");
    let output = cargo()
        .args(["bench", "-p", "crd-bench", "--bench", bench])
        .current_dir(workspace_root())
        .stderr(Stdio::inherit())
        .output()
        .with_context(|| format!("running the {bench} benchmark"))?;
    let text = String::from_utf8_lossy(&output.stdout);
    print!("{text}");
    if !output.status.success() {
        bail!("the {bench} benchmark failed");
    }
    let medians = divan_medians(&text);
    if medians.is_empty() {
        bail!("no results in the output of the {bench} benchmark");
    }
    Ok(medians)
}

/// One target of design.md §9 and its measurement.
pub struct Target {
    pub target: &'static str,
    pub measured: String,
    pub met: bool,
}

pub fn ratio(a: f64, b: f64) -> f64 {
    if b > 0.0 { a / b } else { f64::INFINITY }
}

fn median(medians: &BTreeMap<String, f64>, function: &str, case: &str) -> f64 {
    medians.get(&format!("{function}/{case}")).copied().unwrap_or(f64::NAN)
}

fn sum_of(medians: &BTreeMap<String, f64>, function: &str) -> (f64, usize) {
    let prefix = format!("{function}/");
    let values: Vec<f64> = medians.iter().filter(|(k, _)| k.starts_with(&prefix)).map(|(_, v)| *v).collect();
    (values.iter().sum(), values.len())
}

/// The runtime benchmarks: tables and targets.
fn runtime(report: &mut String, targets: &mut Vec<Target>) -> Result<()> {
    let decode = run_divan("decode")?;
    let validate = run_divan("validate")?;
    let generate = run_divan("generate")?;

    writeln!(report, "In-process figures are divan medians, each the lowest of {DIVAN_RUNS} runs of its benchmark.\n")?;
    writeln!(report, "#### Decoding lists of 500 objects (median per list)\n")?;
    writeln!(
        report,
        "| CRD version | plain | typed | typed ÷ plain | typed (paths) ÷ plain | dynamic | dynamic ÷ typed |"
    )?;
    writeln!(report, "|---|---:|---:|---:|---:|---:|---:|")?;
    let cases: Vec<String> = decode.keys().filter_map(|k| k.strip_prefix("plain/")).map(str::to_owned).collect();
    for case in &cases {
        let get = |f: &str| median(&decode, f, case);
        let (plain, typed, paths, dynamic) = (get("plain"), get("typed"), get("typed_paths"), get("dynamic"));
        writeln!(
            report,
            "| {case} | {} | {} | {:.2}× | {:.2}× | {} | {:.1}× |",
            human(plain),
            human(typed),
            ratio(typed, plain),
            ratio(paths, plain),
            human(dynamic),
            ratio(dynamic, typed)
        )?;
    }
    let (plain, n) = sum_of(&decode, "plain");
    let (typed, _) = sum_of(&decode, "typed");
    let (paths, _) = sum_of(&decode, "typed_paths");
    let (dynamic, _) = sum_of(&decode, "dynamic");
    writeln!(
        report,
        "| **all {n}** | {} | {} | **{:.2}×** | {:.2}× | {} | **{:.1}×** |\n",
        human(plain),
        human(typed),
        ratio(typed, plain),
        ratio(paths, plain),
        human(dynamic),
        ratio(dynamic, typed)
    )?;
    let worst =
        cases.iter().map(|c| ratio(median(&decode, "typed", c), median(&decode, "plain", c))).fold(0.0f64, f64::max);
    targets.push(Target {
        target: "typed decoding (pruning, defaulting) ≤ 1.10× plain serde over all cases, ≤ 1.15× in the worst",
        measured: format!("{:.2}× over all cases, worst case {worst:.2}×", ratio(typed, plain)),
        met: ratio(typed, plain) <= 1.10 && worst <= 1.15,
    });
    let slowest = cases
        .iter()
        .map(|c| ratio(median(&decode, "dynamic", c), median(&decode, "typed", c)))
        .fold(f64::INFINITY, f64::min);
    targets.push(Target {
        target: "typed decoding ≥ 4× faster than dynamic (parse to `Value`, prune, default) over all cases, ≥ 3.5× in the least",
        measured: format!("{:.1}× over all cases, least {slowest:.1}×", ratio(dynamic, typed)),
        met: ratio(dynamic, typed) >= 4.0 && slowest >= 3.5,
    });

    let parse = validate.get("parse_to_value").copied().unwrap_or(f64::NAN);
    let full = validate.get("parse_and_validate").copied().unwrap_or(f64::NAN);
    writeln!(report, "#### Validation of every corpus sample\n")?;
    writeln!(report, "| parse to `Value` | parse and validate (decode, prune, default, validate, CEL) | ratio |")?;
    writeln!(report, "|---:|---:|---:|")?;
    writeln!(report, "| {} | {} | {:.2}× |\n", human(parse), human(full), ratio(full, parse))?;
    targets.push(Target {
        target: "dynamic `validate` pipeline ≤ 3× parsing into `Value`",
        measured: format!("{:.2}×", ratio(full, parse)),
        met: ratio(full, parse) <= 3.0,
    });

    let yaml = generate.get("yaml_parse").copied().unwrap_or(f64::NAN);
    let gen_time = generate.get("generate").copied().unwrap_or(f64::NAN);
    writeln!(report, "#### Generator throughput on the whole corpus (in process)\n")?;
    writeln!(report, "| YAML parsing alone | parse, check, generate, format | ratio |")?;
    writeln!(report, "|---:|---:|---:|")?;
    writeln!(report, "| {} | {} | {:.2}× |\n", human(yaml), human(gen_time), ratio(gen_time, yaml))?;
    let catalogue = generate.get("catalogue").copied().unwrap_or(f64::NAN);
    let files = crd_files();
    writeln!(report, "#### The whole corpus through one builder (`Builder::crd` on the directory)\n")?;
    writeln!(report, "| CRD files | one builder, every CRD | CRD files per second |")?;
    writeln!(report, "|---:|---:|---:|")?;
    writeln!(report, "| {files} | {} | {:.0} |\n", human(catalogue), files as f64 / catalogue)?;
    targets.push(memory::cli_peaks(report, &release_crd()?)?);
    Ok(())
}

/// How many CRD files the corpus holds (the `catalogue` benchmark's input).
fn crd_files() -> usize {
    yaml_files(&workspace_root().join("../shared/corpus/crds")).len()
}

pub fn human(seconds: f64) -> String {
    if !seconds.is_finite() {
        "n/a".to_owned()
    } else if seconds >= 1.0 {
        format!("{seconds:.2} s")
    } else if seconds >= 1e-3 {
        format!("{:.2} ms", seconds * 1e3)
    } else {
        format!("{:.1} µs", seconds * 1e6)
    }
}

/// Builds the release CLI and returns its path: the kopium comparison and
/// the memory figures both run this build.
pub fn release_crd() -> Result<PathBuf> {
    println!("== cargo build --release --bin crd");
    crate::run(cargo().args(["build", "--release", "--quiet", "--bin", "crd"]), "building crd")?;
    Ok(workspace_root().join("target/release/crd"))
}

/// The kopium binary, installed with cargo when it is missing.
pub fn kopium() -> Result<PathBuf> {
    let installed = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
        .map(|home| home.join("bin/kopium"));
    let works = |p: &Path| Command::new(p).arg("--version").output().is_ok_and(|o| o.status.success());
    if let Some(found) = [Some(PathBuf::from("kopium")), installed.clone()].into_iter().flatten().find(|p| works(p)) {
        return Ok(found);
    }
    println!("== kopium is missing: cargo install kopium --locked");
    let status = cargo().args(["install", "kopium", "--locked"]).status().context("running cargo install")?;
    if !status.success() {
        bail!("cargo install kopium failed");
    }
    installed.context("no CARGO_HOME or HOME")
}

pub fn version_of(program: &Path) -> String {
    Command::new(program)
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default()
}

/// Rounds of the CLI comparison: each process's figure is its best of five.
const ROUNDS: usize = 5;

/// One run of each command in turn, [`ROUNDS`] times: every command's best
/// time, with its stdout and success from the last round. Run in rounds
/// rather than each command's runs together, both tools see the host in
/// the same state; run together, a neighbour's burst landed on one tool's
/// runs and moved the count of CRDs each tool was faster on by a fifth.
fn timed_together(commands: &[Command]) -> Result<Vec<(Duration, Vec<u8>, bool)>> {
    let mut results = vec![(Duration::MAX, Vec::new(), false); commands.len()];
    for _ in 0..ROUNDS {
        for (command, result) in commands.iter().zip(&mut results) {
            let mut run = Command::new(command.get_program());
            run.args(command.get_args()).stdin(Stdio::null()).stderr(Stdio::null());
            let start = Instant::now();
            let output = run.output().context("running a generator")?;
            result.0 = result.0.min(start.elapsed());
            result.1 = output.stdout;
            result.2 = output.status.success();
        }
    }
    Ok(results)
}

fn module_name(file: &Path) -> String {
    module_ident(&file.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default())
}

pub fn module_ident(name: &str) -> String {
    let mut out: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' }).collect();
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}

/// One CRD's generation by both tools.
struct Generated {
    name: String,
    ours: Duration,
    kopium: Duration,
    ours_lines: usize,
    kopium_lines: usize,
    kopium_failed: Vec<String>,
}

/// Generates the corpus with both tools and compiles both outputs.
fn peers(report: &mut String, targets: &mut Vec<Target>) -> Result<String> {
    let root = workspace_root();
    let kopium = kopium()?;
    let kopium_version = version_of(&kopium);
    let crd = release_crd()?;
    let out = root.join("target/bench");
    let _ = std::fs::remove_dir_all(&out);
    let mut ours = compile::Output { dir: out.join("generated-ours"), projects: BTreeMap::new() };
    let mut theirs = compile::Output { dir: out.join("generated-kopium"), projects: BTreeMap::new() };
    let mut rows = Vec::new();
    let files: Vec<PathBuf> = yaml_files(&root.join("../shared/corpus/crds"));
    println!("== generating {} corpus CRDs with crd and with {kopium_version}", files.len());
    for file in &files {
        let name = module_name(file);
        let versions = crd_versions(file)?;
        let mut commands = vec![Command::new(&crd)];
        commands[0].arg("generate").arg(file);
        for version in &versions {
            let mut c = Command::new(&kopium);
            c.args(["-A", "--api-version", version, "-f"]).arg(file);
            commands.push(c);
        }
        let mut results = timed_together(&commands)?.into_iter();
        let Some((ours_time, ours_text, ok)) = results.next() else { bail!("no run of crd generate") };
        if !ok {
            bail!("crd generate {} failed", file.display());
        }
        let ours_text = String::from_utf8(ours_text).context("crd generate wrote non-UTF-8")?;
        let mut kopium_time = Duration::ZERO;
        let mut kopium_text = String::new();
        let mut kopium_failed = Vec::new();
        for (version, (time, text, ok)) in versions.into_iter().zip(results) {
            kopium_time += time;
            if ok {
                let module = crate_ident(&version);
                writeln!(kopium_text, "pub mod {module} {{\n{}\n}}", String::from_utf8_lossy(&text))?;
            } else {
                kopium_failed.push(version);
            }
        }
        let lines = |t: &str| t.lines().filter(|l| !l.trim().is_empty()).count();
        rows.push(Generated {
            name: name.clone(),
            ours: ours_time,
            kopium: kopium_time,
            ours_lines: lines(&ours_text),
            kopium_lines: lines(&kopium_text),
            kopium_failed,
        });
        let project =
            file.parent().and_then(Path::file_name).map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        ours.projects.entry(project.clone()).or_default().push((name.clone(), ours_text));
        theirs.projects.entry(project).or_default().push((name, kopium_text));
    }

    let total = |f: fn(&Generated) -> Duration| rows.iter().map(f).sum::<Duration>();
    let (ours_total, kopium_total) = (total(|r| r.ours), total(|r| r.kopium));
    let faster = rows.iter().filter(|r| r.ours < r.kopium).count();
    let worst = rows
        .iter()
        .map(|r| (ratio(r.ours.as_secs_f64(), r.kopium.as_secs_f64()), r.name.clone()))
        .fold((0.0f64, String::new()), |a, b| if b.0 > a.0 { b } else { a });
    let failed: Vec<String> = rows
        .iter()
        .filter(|r| !r.kopium_failed.is_empty())
        .map(|r| format!("{} ({})", r.name, r.kopium_failed.join(", ")))
        .collect();

    println!("== compiling both outputs in fresh crates");
    let common = "serde = { version = \"1\", features = [\"derive\"] }\nserde_json = \"1\"\n";
    let ours_deps = format!(
        "{common}k8s-openapi = {{ version = \"0.29\", features = [\"v1_34\"] }}\n\
         crd-schema = {{ path = {:?}, features = [\"derive\", \"k8s-openapi\"] }}\n",
        root.join("crd-schema").canonicalize()?.display().to_string()
    );
    // kopium's derived schemas need k8s-openapi's `JsonSchema` impls.
    let theirs_deps = format!(
        "{common}k8s-openapi = {{ version = \"0.29\", features = [\"v1_34\", \"schemars\"] }}\n\
         kube = {{ version = \"5\", default-features = false, features = [\"derive\"] }}\nschemars = \"1\"\n"
    );
    let ours_compiled = ours.compile(&ours_deps)?;
    let theirs_compiled = theirs.compile(&theirs_deps)?;

    writeln!(report, "#### Generating the public corpus ({} CRDs) with crd and with {kopium_version}\n", rows.len())?;
    writeln!(report, "| | crd | kopium | crd ÷ kopium |")?;
    writeln!(report, "|---|---:|---:|---:|")?;
    time_row(report, "generation, total (CLI processes, best of 5, alternating)", ours_total, kopium_total)?;
    writeln!(
        report,
        "| generation per CRD, faster than kopium | {faster} of {} | | worst {:.2}× ({}) |",
        rows.len(),
        worst.0,
        worst.1
    )?;
    let (ol, kl) =
        (rows.iter().map(|r| r.ours_lines).sum::<usize>(), rows.iter().map(|r| r.kopium_lines).sum::<usize>());
    writeln!(report, "| lines of code (non-blank) | {ol} | {kl} | {:.2}× |", ratio(ol as f64, kl as f64))?;
    let summed = "of the generated code, summed over one crate per project";
    time_row(report, &format!("`cargo check` {summed}"), ours_compiled.check(), theirs_compiled.check())?;
    time_row(report, &format!("`cargo build` {summed}"), ours_compiled.build(), theirs_compiled.build())?;
    writeln!(
        report,
        "| peak compiler memory (`cargo check` or `build`, largest of {} crates) | {} MiB | {} MiB | {:.2}× |\n",
        ours_compiled.projects.len(),
        ours_compiled.peak_kib() / 1024,
        theirs_compiled.peak_kib() / 1024,
        ratio(ours_compiled.peak_kib() as f64, theirs_compiled.peak_kib() as f64)
    )?;
    if failed.is_empty() {
        writeln!(report, "kopium generated every version of every CRD.\n")?;
    } else {
        writeln!(
            report,
            "kopium failed on {} CRD(s), versions left out of its crate: {}.\n",
            failed.len(),
            failed.join("; ")
        )?;
    }
    let per_operator = compile::per_operator(report, &ours_compiled, &theirs_compiled)?;
    writeln!(report, "Per CRD (generation time, non-blank lines):\n")?;
    writeln!(report, "| CRD | crd | kopium | ratio | crd lines | kopium lines |")?;
    writeln!(report, "|---|---:|---:|---:|---:|---:|")?;
    for r in &rows {
        writeln!(
            report,
            "| {} | {} | {} | {:.2}× | {} | {} |",
            r.name,
            human(r.ours.as_secs_f64()),
            human(r.kopium.as_secs_f64()),
            r.ours.as_secs_f64() / r.kopium.as_secs_f64(),
            r.ours_lines,
            r.kopium_lines
        )?;
    }
    writeln!(report)?;
    targets.push(Target {
        target: "generator ≤ 0.7× kopium's time in total, faster on ≥ 90% of the CRDs",
        measured: format!(
            "total {:.2}×; faster on {faster} of {} CRDs, worst {:.2}×",
            ratio(ours_total.as_secs_f64(), kopium_total.as_secs_f64()),
            rows.len(),
            worst.0
        ),
        met: ratio(ours_total.as_secs_f64(), kopium_total.as_secs_f64()) <= 0.7 && faster * 10 >= rows.len() * 9,
    });
    let build_ratio = ratio(ours_compiled.build().as_secs_f64(), theirs_compiled.build().as_secs_f64());
    targets.push(Target {
        target: "generated code compiles in ≤ 0.5× the time of kopium's (`cargo build`)",
        measured: format!(
            "{build_ratio:.2}× (`cargo check`: {:.2}×)",
            ratio(ours_compiled.check().as_secs_f64(), theirs_compiled.check().as_secs_f64())
        ),
        met: build_ratio <= 0.5,
    });
    targets.push(per_operator);
    Ok(kopium_version)
}

/// A table row `| what | ours | theirs | ours ÷ theirs |` of two durations.
fn time_row(report: &mut String, what: &str, ours: Duration, theirs: Duration) -> Result<()> {
    let (a, b) = (ours.as_secs_f64(), theirs.as_secs_f64());
    writeln!(report, "| {what} | {} | {} | {:.2}× |", human(a), human(b), ratio(a, b))?;
    Ok(())
}

/// The names of a CRD file's versions.
fn crd_versions(file: &Path) -> Result<Vec<String>> {
    let mut out = Vec::new();
    for loaded in crd_schema::crd::load(file) {
        let loaded = loaded.map_err(|e| anyhow::anyhow!("{e}"))?;
        for (_, crd) in loaded.crds {
            out.extend(crd.spec.versions.iter().map(|v| v.name.clone()));
        }
    }
    Ok(out)
}

fn crate_ident(version: &str) -> String {
    let ident: String = version.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    if ident.starts_with(|c: char| c.is_ascii_digit()) { format!("v_{ident}") } else { ident }
}

pub fn yaml_files(dir: &Path) -> Vec<PathBuf> {
    crd_schema::crd::manifest_files(dir).into_iter().flatten().collect()
}

fn machine() -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("model name"))
        .map(|m| m.trim_start_matches([' ', '\t', ':']).to_owned());
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(0);
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let mem = meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map(|kib| format!("{:.0} GiB", kib as f64 / 1024.0 / 1024.0))
        .unwrap_or_else(|| "unknown memory".to_owned());
    let rustc = Command::new("rustc")
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default();
    format!("{}, {cores} cores, {mem}; {rustc}", model.unwrap_or_else(|| "unknown CPU".to_owned()))
}

fn today() -> String {
    Command::new("date")
        .args(["-u", "+%Y-%m-%d"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default()
}

/// `cargo xtask bench [--no-runtime] [--no-peers] [--no-cold]`.
pub fn run(args: &[&str]) -> Result<()> {
    let mut halves = [("--no-runtime", true), ("--no-peers", true), ("--no-cold", true)];
    for arg in args {
        match halves.iter_mut().find(|(flag, _)| flag == arg) {
            Some((_, on)) => *on = false,
            None => bail!("usage: cargo xtask bench [--no-runtime] [--no-peers] [--no-cold]"),
        }
    }
    let [(_, runtime_too), (_, peers_too), (_, cold_too)] = halves;
    let mut sections = Vec::new();
    if runtime_too {
        let mut report = String::new();
        let mut targets = Vec::new();
        runtime(&mut report, &mut targets)?;
        sections.push((RUNTIME, section(RUNTIME, "", &targets, &report)?));
    }
    if peers_too {
        let mut report = String::new();
        let mut targets = Vec::new();
        let kopium = peers(&mut report, &mut targets)?;
        sections.push((PEERS, section(PEERS, &format!(", against {kopium}"), &targets, &report)?));
    }
    if cold_too {
        let mut report = String::new();
        let mut targets = Vec::new();
        let kopium = crate::cold::cold(&mut report, &mut targets)?;
        let against = format!(", against {kopium} and kube-derive");
        sections.push((crate::cold::COLD, section(crate::cold::COLD, &against, &targets, &report)?));
    }
    // Read only now: the file may have been edited during the run.
    let path = workspace_root().join("docs/benchmarks.md");
    let mut doc = std::fs::read_to_string(&path).unwrap_or_else(|_| "# Benchmarks\n".to_owned());
    for (markers, section) in sections {
        println!("\n{section}");
        doc = replace_section(&doc, markers, &section);
    }
    std::fs::write(&path, doc).context("writing docs/benchmarks.md")?;
    println!("wrote docs/benchmarks.md");
    Ok(())
}

/// One half's section: when and where it was measured, its targets, then
/// its tables.
fn section(markers: (&str, &str), against: &str, targets: &[Target], report: &str) -> Result<String> {
    let mut section =
        format!("{}\n\nMeasured on {} by `cargo xtask bench`, {}{against}.\n\n", markers.0, today(), machine());
    section.push_str("| target (design.md §9) | measured | met |\n|---|---|---|\n");
    for t in targets {
        writeln!(section, "| {} | {} | {} |", t.target, t.measured, if t.met { "yes" } else { "**no**" })?;
    }
    write!(section, "\n{report}{}", markers.1)?;
    Ok(section)
}

/// `doc` with the section between `markers` replaced, or appended when
/// the markers are missing.
fn replace_section(doc: &str, markers: (&str, &str), section: &str) -> String {
    match (doc.find(markers.0), doc.find(markers.1)) {
        (Some(b), Some(e)) if b < e => format!("{}{section}{}", &doc[..b], &doc[e + markers.1.len()..]),
        _ => format!("{}\n{section}\n", doc.trim_end()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divan_output_is_read() {
        let text = "\
decode                    fastest       │ slowest       │ median        │ mean          │ samples │ iters
├─ dynamic                              │               │               │               │         │
│  ├─ a/v1                1.5 ms        │ 2 ms          │ 1.6 ms        │ 1.7 ms        │ 100     │ 100
│  ╰─ b/v1                10 µs         │ 20 µs         │ 12.5 µs       │ 13 µs         │ 100     │ 100
╰─ plain                                │               │               │               │         │
   ╰─ a/v1                400 ns        │ 1 µs          │ 500 ns        │ 600 ns        │ 100     │ 100
";
        let m = divan_medians(text);
        assert_eq!(m.len(), 3, "{m:?}");
        assert!((m["dynamic/a/v1"] - 1.6e-3).abs() < 1e-12);
        assert!((m["dynamic/b/v1"] - 12.5e-6).abs() < 1e-15);
        assert!((m["plain/a/v1"] - 500e-9).abs() < 1e-15);
        let flat = "validate   fastest │ slowest │ median │ mean │ samples │ iters\n├─ parse_to_value  1 ms │ 2 ms │ 1.25 ms │ 1 ms │ 100 │ 100\n";
        assert!((divan_medians(flat)["parse_to_value"] - 1.25e-3).abs() < 1e-12);
    }

    #[test]
    fn times_and_escapes() {
        assert_eq!(parse_time("2 s"), Some(2.0));
        assert_eq!(parse_time("fast"), None);
        assert_eq!(strip_ansi("\u{1b}[1ma\u{1b}[0m b"), "a b");
        assert_eq!(crate_ident("v1beta1"), "v1beta1");
        assert_eq!(crate_ident("1.0"), "v_1_0");
    }

    #[test]
    fn sections_are_replaced_in_place_or_appended() {
        let doc = format!("# B\n\nintro\n\n{}\nold\n{}\n\nafter\n", RUNTIME.0, RUNTIME.1);
        let new = replace_section(&doc, RUNTIME, &format!("{}\nnew\n{}", RUNTIME.0, RUNTIME.1));
        assert!(new.contains("intro") && new.contains("new") && !new.contains("old") && new.ends_with("after\n"));
        let appended = replace_section(&new, PEERS, &format!("{}\npeers\n{}", PEERS.0, PEERS.1));
        assert!(appended.contains("new") && appended.trim_end().ends_with(PEERS.1), "{appended}");
    }

    #[test]
    fn commands_run_in_rounds_and_keep_their_own_output() {
        let mut echo = Command::new("sh");
        echo.args(["-c", "echo ours"]);
        let mut fail = Command::new("sh");
        fail.args(["-c", "echo theirs; exit 3"]);
        let results = timed_together(&[echo, fail]).expect("sh runs");
        assert_eq!(results.len(), 2);
        assert_eq!((results[0].1.as_slice(), results[0].2), (&b"ours\n"[..], true));
        assert_eq!((results[1].1.as_slice(), results[1].2), (&b"theirs\n"[..], false));
        assert!(results.iter().all(|r| r.0 < Duration::MAX), "every command was timed");
    }
}
