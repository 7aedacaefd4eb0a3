//! The hostile-input suite (design.md I6): adversarial CRDs, schemas and
//! objects from `tests/hostile/`, each run through every `crd` subcommand
//! that applies to it, and every CRD through the generator library.
//!
//! `tests/hostile/expected.json` lists the cases. Each names a file (or a
//! generator below, for inputs too big to check in), the role the file
//! plays, and for each subcommand run the exit code Kubernetes' behaviour
//! calls for, where the error must point (`where`: `file:line:col` or a
//! JSON path) and why (`why`). A run that is known to differ from
//! Kubernetes carries `diverges` with the reason; it must still be robust,
//! and once it matches the expectation the marker must go (like the
//! conformance skip list). Every run must also: finish within [`TIMEOUT`]
//! under an address-space cap, not panic, exit 0, 1 or 2, name a position
//! on every `error:` line, and for `generate` print a Rust file that parses
//! and whose doc comments hold no code block rustdoc would run as a doctest.
//!
//! A case of `expected.json`:
//!
//! - `name`; `file` (relative to `tests/hostile/`, where the tool runs, so
//!   messages name it as written) or `generate: {"kind", "n", ...}` (see
//!   [`generated`]; written to a scratch directory as `<name>.<ext>`);
//! - `role`: `crd`, `schema`, `object`, `value` or `input` (any text: every
//!   run, the file in every position), which gives the runs of [`RUNS`];
//!   `runs` narrows them for expensive inputs;
//! - `resource`, `crd`, `object`, `schema`, `value`: the other arguments of
//!   the runs (defaults: `things` and the files of `base/`);
//! - `args`: extra arguments by run (or `*` for all), inserted after the
//!   subcommand's name, e.g. `{"*": ["--max-depth", "64"]}`;
//! - `expect`: by run (or `*` for the others) an exit code, or `{"exit",
//!   "where", "why", "out", "diverges"}` (`out`: a substring of stdout);
//! - `big` (2 GiB address space instead of 1 GiB), `memory_mib`,
//!   `known_bug`, `note`.
//!
//! `HOSTILE_PRINT=1 cargo test -p crd-cli --test hostile -- --nocapture`
//! prints what every run did, for writing the expectations of a new case;
//! `HOSTILE_CASE=name` runs the cases whose name contains `name`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde_json::Value;

/// How long one run may take (debug build) before it counts as a hang.
const TIMEOUT: Duration = Duration::from_secs(20);

/// Address space of one run, in KiB: 1 GiB, 2 GiB for `big` cases. The
/// tool reserves a 128 MiB stack for its worker thread.
const MEMORY_KIB: u64 = 1 << 20;
const BIG_MEMORY_KIB: u64 = 2 << 20;

/// The subcommand runs, and where the case's file goes in each.
const RUNS: &[(&str, &[&str])] = &[
    ("check", &["check", "{file}"]),
    ("check-schema", &["check", "--schema", "{file}"]),
    ("openapi", &["openapi", "--crd", "{file}"]),
    ("explain", &["explain", "--crd", "{file}", "{resource}"]),
    ("generate", &["generate", "{file}"]),
    ("prune-crd", &["prune", "--crd", "{file}", "{object}"]),
    ("validate-crd", &["validate", "--crd", "{file}", "{object}"]),
    ("prune-schema", &["prune", "--schema", "{file}", "{value}"]),
    ("validate-schema", &["validate", "--schema", "{file}", "{value}"]),
    ("prune-object", &["prune", "--crd", "{crd}", "{file}"]),
    ("validate-object", &["validate", "--crd", "{crd}", "{file}"]),
    ("prune-value", &["prune", "--schema", "{schema}", "{file}"]),
    ("validate-value", &["validate", "--schema", "{schema}", "{file}"]),
    ("diff", &["diff", "{file}", "{file}"]),
];

/// The runs of each role.
fn runs_of(role: &str) -> &'static [&'static str] {
    match role {
        "crd" => &["check", "openapi", "explain", "generate", "prune-crd", "validate-crd", "diff"],
        "schema" => &["check-schema", "prune-schema", "validate-schema"],
        "object" => &["prune-object", "validate-object", "prune-value", "validate-value"],
        "value" => &["prune-value", "validate-value"],
        // Any input: every run, the file in every position.
        "input" => &[
            "check",
            "check-schema",
            "openapi",
            "explain",
            "generate",
            "prune-crd",
            "validate-crd",
            "prune-schema",
            "validate-schema",
            "prune-object",
            "validate-object",
            "prune-value",
            "validate-value",
            "diff",
        ],
        other => panic!("unknown role `{other}`"),
    }
}

fn suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/hostile")
}

/// What one run must do.
#[derive(Clone, Debug, Default)]
struct Expect {
    exit: i32,
    /// Where the error points: a substring of the output.
    at: Option<String>,
    /// Why: a substring of the output.
    why: Option<String>,
    /// A substring of stdout (for what a successful run printed).
    out: Option<String>,
    /// Why the tool differs from Kubernetes here, when it does.
    diverges: Option<String>,
}

impl Expect {
    fn parse(value: &Value, context: &str) -> Expect {
        if let Some(code) = value.as_i64() {
            return Expect { exit: code as i32, ..Expect::default() };
        }
        let text = |key: &str| value.get(key).and_then(Value::as_str).map(str::to_owned);
        let exit = value.get("exit").and_then(Value::as_i64).unwrap_or_else(|| panic!("{context}: no `exit`"));
        let expect = Expect {
            exit: exit as i32,
            at: text("where"),
            why: text("why"),
            out: text("out"),
            diverges: text("diverges"),
        };
        assert!(
            expect.exit == 0 || expect.at.is_some() || expect.diverges.is_some(),
            "{context}: a failing run must say `where` its error points"
        );
        expect
    }
}

/// One case of expected.json, with its input on disk.
#[derive(Debug)]
struct Case {
    name: String,
    file: PathBuf,
    role: String,
    big: bool,
    /// `{resource}`, `{crd}`, `{object}`, `{schema}`, `{value}`.
    slots: BTreeMap<&'static str, String>,
    args: BTreeMap<String, Vec<String>>,
    expect: BTreeMap<String, Expect>,
    /// The runs, when not every run of the role (for expensive inputs).
    runs: Option<Vec<String>>,
    /// A robustness bug the case shows and whose fix is pending: its
    /// failures are reported, not fatal, until the case passes.
    known_bug: Option<String>,
    /// The address-space cap in MiB, when not the default.
    memory_mib: Option<u64>,
}

/// One process to start.
#[derive(Debug)]
struct Job {
    case: usize,
    run: &'static str,
    args: Vec<String>,
    expect: Expect,
}

/// What a process did.
#[derive(Debug)]
struct Outcome {
    /// `None` when killed by a signal (or by us, after [`TIMEOUT`]).
    code: Option<i32>,
    timed_out: bool,
    stdout: String,
    stderr: String,
    elapsed: Duration,
}

fn load_cases(scratch: &Path) -> Vec<Case> {
    let text = std::fs::read_to_string(suite_dir().join("expected.json")).expect("tests/hostile/expected.json");
    let table: Value = serde_json::from_str(&text).expect("expected.json is JSON");
    let filter = std::env::var("HOSTILE_CASE").unwrap_or_default();
    let cases = table["cases"].as_array().expect("expected.json: `cases` list");
    cases.iter().filter(|c| c["name"].as_str().is_some_and(|n| n.contains(&filter))).map(|c| case(c, scratch)).collect()
}

fn case(entry: &Value, scratch: &Path) -> Case {
    let name = entry["name"].as_str().expect("case `name`").to_owned();
    let text = |key: &str| entry.get(key).and_then(Value::as_str).map(str::to_owned);
    let file = match (text("file"), entry.get("generate")) {
        (Some(file), None) => {
            assert!(suite_dir().join(&file).is_file(), "{name}: no file {file}");
            PathBuf::from(file)
        }
        (None, Some(spec)) => generated(&name, spec, scratch),
        _ => panic!("{name}: give `file` or `generate`"),
    };
    let role = text("role").unwrap_or_else(|| panic!("{name}: no `role`"));
    let mut slots = BTreeMap::new();
    for (slot, default) in [
        ("resource", "things"),
        ("crd", "base/crd.yaml"),
        ("object", "base/object.yaml"),
        ("schema", "base/schema.yaml"),
        ("value", "base/value.yaml"),
    ] {
        slots.insert(slot, text(slot).unwrap_or_else(|| default.to_owned()));
    }
    let args = entry.get("args").and_then(Value::as_object).map_or_else(BTreeMap::new, |args| {
        args.iter()
            .map(|(run, list)| {
                let list = list.as_array().unwrap_or_else(|| panic!("{name}: args of {run} must be a list"));
                (run.clone(), list.iter().map(|a| a.as_str().expect("args are strings").to_owned()).collect())
            })
            .collect()
    });
    let expect = entry["expect"]
        .as_object()
        .unwrap_or_else(|| panic!("{name}: no `expect`"))
        .iter()
        .map(|(run, e)| (run.clone(), Expect::parse(e, &format!("{name} {run}"))))
        .collect();
    let big = entry.get("big").and_then(Value::as_bool).unwrap_or(false);
    let runs = entry
        .get("runs")
        .and_then(Value::as_array)
        .map(|runs| runs.iter().map(|r| r.as_str().expect("runs are names").to_owned()).collect::<Vec<_>>());
    let memory_mib = entry.get("memory_mib").and_then(Value::as_u64);
    Case { name, file, role, big, slots, args, expect, runs, known_bug: text("known_bug"), memory_mib }
}

/// The jobs of every case: each run of its role, with its expectation
/// (the run's own, or the case's `*`).
fn jobs(cases: &[Case]) -> Vec<Job> {
    let mut jobs = Vec::new();
    for (index, case) in cases.iter().enumerate() {
        let role_runs = runs_of(&case.role);
        for key in case.expect.keys().filter(|k| *k != "*").chain(case.runs.iter().flatten()) {
            assert!(role_runs.contains(&key.as_str()), "{}: `{key}` is not a run of role {}", case.name, case.role);
        }
        let runs = role_runs.iter().filter(|r| case.runs.as_ref().is_none_or(|only| only.iter().any(|o| o == *r)));
        for &run in runs {
            let derived = (run == "diff").then(|| diff_expectation(case)).flatten();
            let expect = case.expect.get(run).or(derived.as_ref()).or_else(|| case.expect.get("*"));
            let expect = expect.unwrap_or_else(|| panic!("{}: no expectation for `{run}` (nor `*`)", case.name));
            let (_, template) = RUNS.iter().find(|(k, _)| *k == run).expect("known run");
            let mut args: Vec<String> = Vec::new();
            for (i, word) in template.iter().enumerate() {
                // Extra arguments go right after the subcommand's name.
                if i == 1 {
                    args.extend(case.args.get("*").into_iter().flatten().cloned());
                    args.extend(case.args.get(run).into_iter().flatten().cloned());
                }
                args.push(match *word {
                    "{file}" => case.file.display().to_string(),
                    w if w.starts_with('{') => case.slots[&w[1..w.len() - 1]].clone(),
                    w => w.to_owned(),
                });
            }
            jobs.push(Job { case: index, run, args, expect: expect.clone() });
        }
    }
    jobs
}

/// What `crd diff FILE FILE` must do when the case does not say: what
/// `crd check` does with the file. Where check cannot read a CRD, diff
/// fails there too (exit 2, same position); where the API server refuses
/// the CRD, it refuses it as an update of itself as well (exit 1, each
/// `update-refused` located); a valid CRD has no change at all (exit 0).
/// A divergence of check's is one of diff's. `None` leaves it to the
/// case's `*`.
fn diff_expectation(case: &Case) -> Option<Expect> {
    let check = case.expect.get("check").or_else(|| case.expect.get("*"))?;
    let diverges = check.diverges.clone();
    Some(match check.exit {
        2 => Expect { exit: 2, at: check.at.clone(), diverges, ..Expect::default() },
        1 => Expect { exit: 1, out: Some("error[update-refused]".to_owned()), diverges, ..Expect::default() },
        _ => Expect { exit: 0, out: Some("0 errors, 0 warnings, 0 notes".to_owned()), diverges, ..Expect::default() },
    })
}

/// Runs the tool in `tests/hostile/` (so that messages name files as the
/// table does) under the memory cap; kills it after [`TIMEOUT`].
fn execute(args: &[String], case: &Case, scratch: &Path, id: usize) -> Outcome {
    let (out_path, err_path) = (scratch.join(format!("run-{id}.out")), scratch.join(format!("run-{id}.err")));
    let file = |p: &Path| std::fs::File::create(p).expect("scratch output file");
    let kib = case.memory_mib.map_or(if case.big { BIG_MEMORY_KIB } else { MEMORY_KIB }, |mib| mib << 10);
    let mut command = if Path::new("/bin/sh").exists() {
        let mut c = Command::new("/bin/sh");
        c.arg("-c").arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\"")).arg(env!("CARGO_BIN_EXE_crd"));
        c
    } else {
        Command::new(env!("CARGO_BIN_EXE_crd"))
    };
    command.args(args).current_dir(suite_dir()).env("RUST_BACKTRACE", "0");
    command.stdin(Stdio::null()).stdout(file(&out_path)).stderr(file(&err_path));
    let start = Instant::now();
    let mut child = command.spawn().expect("start the crd binary");
    let (status, timed_out) = loop {
        if let Some(status) = child.try_wait().expect("wait for crd") {
            break (status, false);
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            break (child.wait().expect("reap crd"), true);
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let read = |p: &Path| String::from_utf8_lossy(&std::fs::read(p).unwrap_or_default()).into_owned();
    let outcome = Outcome {
        code: status.code(),
        timed_out,
        stdout: read(&out_path),
        stderr: read(&err_path),
        elapsed: start.elapsed(),
    };
    let _ = std::fs::remove_file(out_path);
    let _ = std::fs::remove_file(err_path);
    outcome
}

/// Whether an error line says where: a `line:column`, a byte offset, or a
/// field path (`spec.a[0]:`).
fn names_where(line: &str) -> bool {
    let has_path = line.split_whitespace().any(|word| {
        word.len() > 1
            && word.ends_with(':')
            && (word.contains('.') || word.contains('['))
            && !word.contains("://")
            && word.chars().next().is_some_and(|c| c.is_alphanumeric() || matches!(c, '.' | '<' | '$' | '_'))
    });
    has_line_column(line) || has_path || line.contains("offset ")
}

/// Whether `text` holds `:<digits>:<digits>`.
fn has_line_column(text: &str) -> bool {
    let bytes = text.as_bytes();
    let digits =
        |from: usize| bytes.get(from..).map_or(0, |rest| rest.iter().take_while(|b| b.is_ascii_digit()).count());
    (0..bytes.len()).any(|i| {
        let line = digits(i + 1);
        bytes[i] == b':' && line > 0 && bytes.get(i + 1 + line) == Some(&b':') && digits(i + 2 + line) > 0
    })
}

/// Every `error:` line of `text` (or the ` --> ` line under it) names where,
/// or holds the expected `at` (for errors about an argument, such as an
/// unknown resource name).
fn unlocated_errors(text: &str, at: Option<&str>) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut missing = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if !line.starts_with("error:") {
            continue;
        }
        let pointer = lines.get(i + 1).is_some_and(|next| next.trim_start().starts_with("--> ") && names_where(next));
        if !pointer && !names_where(line) && !at.is_some_and(|at| line.contains(at)) {
            missing.push(line.chars().take(200).collect());
        }
    }
    missing
}

/// Code blocks in doc comments that rustdoc would compile and run as
/// doctests: fences (CommonMark's: three or more backticks or tildes, and
/// a backtick fence's info has no backtick) whose info is not `text`, and
/// indented blocks (four spaces more than the comment's indentation, after
/// a blank line).
fn runnable_doc_blocks(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut comment: Vec<&str> = Vec::new();
    for line in code.lines().chain(std::iter::once("")) {
        let trimmed = line.trim_start();
        match trimmed.strip_prefix("///").or_else(|| trimmed.strip_prefix("//!")) {
            Some(doc) => comment.push(doc),
            None if comment.is_empty() => {}
            None => found.extend(runnable_in_comment(&std::mem::take(&mut comment))),
        }
    }
    found
}

fn runnable_in_comment(lines: &[&str]) -> Vec<String> {
    let indent = |l: &str| l.len() - l.trim_start_matches(' ').len();
    let common = lines.iter().filter(|l| !l.trim().is_empty()).map(|l| indent(l)).min().unwrap_or(0);
    let mut found = Vec::new();
    let mut fence: Option<(char, usize)> = None;
    let mut after_blank = true;
    for line in lines {
        let text = line.get(common..).unwrap_or("");
        let body = text.trim_start_matches(' ');
        let marker = body.chars().next().filter(|c| *c == '`' || *c == '~');
        let run = marker.map_or(0, |m| body.chars().take_while(|c| *c == m).count());
        match (fence, marker) {
            (Some((open, len)), Some(m)) if m == open && run >= len && body[run..].trim().is_empty() => fence = None,
            (Some(_), _) => {}
            (None, Some(m)) if run >= 3 && indent(text) < 4 && !(m == '`' && body[run..].contains('`')) => {
                if body[run..].trim() != "text" {
                    found.push(format!("fence `{}`", text.trim()));
                }
                fence = Some((m, run));
            }
            (None, _) if after_blank && indent(text) >= 4 && !body.is_empty() => {
                found.push(format!("indented block `{}`", text.trim()));
            }
            (None, _) => {}
        }
        after_blank = body.is_empty();
    }
    found
}

/// The ways `outcome` breaks the suite's rules or misses `expect`; the
/// second list holds robustness failures, which a divergence cannot excuse.
fn judge(job: &Job, outcome: &Outcome) -> (Vec<String>, Vec<String>) {
    let (mut missed, mut broken) = (Vec::new(), Vec::new());
    let all = format!("{}{}", outcome.stdout, outcome.stderr);
    if outcome.timed_out {
        broken.push(format!("hang: killed after {TIMEOUT:?}"));
    } else if outcome.stderr.contains("panicked at") || outcome.code == Some(101) {
        broken.push(format!("panic: {}", first_lines(&outcome.stderr, 4)));
    } else if outcome.code.is_none() {
        broken.push(format!("killed by a signal (memory cap?): {}", first_lines(&outcome.stderr, 4)));
    } else if !matches!(outcome.code, Some(0..=2)) {
        broken.push(format!("exit code {:?} is not 0, 1 or 2", outcome.code));
    }
    if !broken.is_empty() {
        return (missed, broken);
    }
    let code = outcome.code.unwrap_or(-1);
    if code != 0 {
        let at = job.expect.at.as_deref();
        let unlocated = unlocated_errors(&outcome.stdout, at).into_iter().chain(unlocated_errors(&outcome.stderr, at));
        broken.extend(unlocated.map(|line| format!("error without a position: {line}")));
        if !names_where(&all) && !at.is_some_and(|at| all.contains(at)) {
            broken.push(format!("exit {code} without any position: {}", first_lines(&all, 3)));
        }
    }
    if job.run == "generate" && code == 0 {
        if let Err(e) = syn::parse_file(&outcome.stdout) {
            broken.push(format!("generated code does not parse: {e}"));
        }
        let doctests = runnable_doc_blocks(&outcome.stdout).into_iter();
        broken.extend(doctests.map(|block| format!("a doc comment holds a runnable {block}")));
    }
    if job.run == "openapi" && code == 0 {
        // serde_json stops at 128 levels; deeper output is checked no further.
        match serde_json::from_str::<Value>(&outcome.stdout) {
            Err(e) if !e.to_string().contains("recursion limit") => {
                broken.push(format!("openapi output is not JSON: {e}"))
            }
            _ => {}
        }
    }
    let expect = &job.expect;
    if code != expect.exit {
        missed.push(format!("exit {code}, expected {}: {}", expect.exit, first_lines(&all, 3)));
    }
    for (what, needle) in [("where", &expect.at), ("why", &expect.why)] {
        if let Some(needle) = needle.as_deref().filter(|n| !all.contains(n)) {
            missed.push(format!("{what} {needle:?} not in the output: {}", first_lines(&all, 3)));
        }
    }
    if let Some(needle) = expect.out.as_deref().filter(|n| !outcome.stdout.contains(n)) {
        missed.push(format!("stdout lacks {needle:?}: {}", first_lines(&outcome.stdout, 3)));
    }
    (missed, broken)
}

fn first_lines(text: &str, n: usize) -> String {
    let lines: Vec<String> = text.lines().take(n).map(|l| l.chars().take(240).collect()).collect();
    lines.join(" | ")
}

/// The generator library on every CRD case, as a build script runs it (on
/// a thread with a main thread's 8 MiB of stack): no panic, the same
/// verdict and text as `crd generate`, and code that parses.
fn library_generation(case: &Case, cli: Option<&Outcome>) -> Vec<String> {
    let path = if case.file.is_absolute() { case.file.clone() } else { suite_dir().join(&case.file) };
    let worker = std::thread::Builder::new().stack_size(8 << 20);
    let result = worker
        .spawn(move || crd_codegen::Builder::new().crd(&path).generate().map_err(|e| e.to_string()))
        .expect("start a generator thread")
        .join();
    let Ok(result) = result else { return vec!["Builder::generate panicked".to_owned()] };
    let mut problems = Vec::new();
    match (&result, cli.and_then(|o| o.code)) {
        (Ok(text), Some(0)) if cli.is_some_and(|o| o.stdout != *text) => {
            problems.push("Builder::generate and `crd generate` print different code".to_owned())
        }
        (Ok(_), Some(0)) | (Err(_), Some(2)) | (_, None) => {}
        (Ok(_), code) => problems.push(format!("Builder::generate succeeded, `crd generate` exited {code:?}")),
        (Err(e), code) => problems.push(format!("Builder::generate failed ({e}), `crd generate` exited {code:?}")),
    }
    if let Ok(text) = &result
        && let Err(e) = syn::parse_file(text)
    {
        problems.push(format!("Builder::generate output does not parse: {e}"));
    }
    if let Err(message) = &result
        && !names_where(message)
        && !message.contains(&case.file.display().to_string())
    {
        problems.push(format!("Builder::generate error without a position: {message}"));
    }
    problems
}

#[test]
fn hostile_inputs() {
    let started = Instant::now();
    // Generated inputs and outputs; removed on drop.
    let scratch = tempfile::Builder::new().prefix("crd-hostile-").tempdir().expect("scratch dir");
    let cases = load_cases(scratch.path());
    let jobs = jobs(&cases);
    let outcomes = run_jobs(&jobs, &cases, scratch.path());
    let mut tally = assess(&cases, &jobs, &outcomes);
    let mut generations = 0;
    for (index, case) in cases.iter().enumerate() {
        let cli = jobs.iter().zip(&outcomes).find(|(j, _)| j.case == index && j.run == "generate").map(|(_, o)| o);
        if cli.is_some() && !case.big {
            let problems = library_generation(case, cli);
            tally.failures.extend(problems.into_iter().map(|m| format!("{} [library]: {m}", case.name)));
            generations += 1;
        }
    }
    let mut summary = format!("hostile: {} cases, {} runs (", cases.len(), jobs.len());
    for (i, (code, n)) in tally.by_code.iter().enumerate() {
        let _ = write!(summary, "{}exit {code}: {n}", if i > 0 { ", " } else { "" });
    }
    let _ = write!(
        summary,
        "), {} known divergences from Kubernetes, {} runs failing with a known bug, {generations} library \
         generations, {:.1?}",
        tally.divergences,
        tally.known_bugs,
        started.elapsed()
    );
    println!("{summary}");
    let failures = &tally.failures;
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

/// Runs every job on two workers (the suite shares its machine with the
/// build); the outcomes in job order.
fn run_jobs(jobs: &[Job], cases: &[Case], scratch: &Path) -> Vec<Outcome> {
    let next = Mutex::new(0usize);
    let outcomes: Mutex<Vec<Option<Outcome>>> = Mutex::new(jobs.iter().map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                loop {
                    let i = {
                        let mut next = next.lock().expect("job counter");
                        *next += 1;
                        *next - 1
                    };
                    let Some(job) = jobs.get(i) else { break };
                    let outcome = execute(&job.args, &cases[job.case], scratch, i);
                    outcomes.lock().expect("outcomes")[i] = Some(outcome);
                }
            });
        }
    });
    outcomes.into_inner().expect("outcomes").into_iter().map(|o| o.expect("every job ran")).collect()
}

/// What the runs came to.
#[derive(Debug, Default)]
struct Tally {
    failures: Vec<String>,
    divergences: usize,
    known_bugs: usize,
    by_code: BTreeMap<String, usize>,
}

/// Judges every outcome against its case: robustness failures are fatal
/// unless the case has a `known_bug`; a missed expectation is fatal unless
/// the run `diverges`, and a divergence that no longer diverges is too.
fn assess(cases: &[Case], jobs: &[Job], outcomes: &[Outcome]) -> Tally {
    let print = std::env::var_os("HOSTILE_PRINT").is_some();
    let mut tally = Tally::default();
    let mut buggy = vec![false; cases.len()];
    for (job, outcome) in jobs.iter().zip(outcomes) {
        let case = &cases[job.case];
        let label = format!("{} [{}] `crd {}`", case.name, job.run, job.args.join(" "));
        let code = outcome.code.map_or("signal".to_owned(), |c| c.to_string());
        *tally.by_code.entry(code.clone()).or_default() += 1;
        if print {
            println!("{label}\n  exit {code} in {:?}: {}", outcome.elapsed, first_lines(&outcome.stdout, 2));
            println!("  stderr: {}", first_lines(&outcome.stderr, 2));
        }
        let (missed, broken) = judge(job, outcome);
        if case.known_bug.is_some() && !broken.is_empty() {
            buggy[job.case] = true;
            tally.known_bugs += 1;
            println!("known bug: {label}: {}", broken.join("; "));
            continue;
        }
        tally.failures.extend(broken.into_iter().map(|m| format!("{label}: {m}")));
        match (&job.expect.diverges, missed.is_empty()) {
            (None, _) => tally.failures.extend(missed.into_iter().map(|m| format!("{label}: {m}"))),
            (Some(_), false) => tally.divergences += 1,
            (Some(reason), true) => tally
                .failures
                .push(format!("{label}: matches Kubernetes now; remove `diverges` from expected.json ({reason})")),
        }
    }
    for (case, buggy) in cases.iter().zip(buggy) {
        if let (Some(bug), false) = (&case.known_bug, buggy) {
            tally.failures.push(format!("{}: passes now; remove `known_bug` from expected.json ({bug})", case.name));
        }
    }
    tally
}

// Generated inputs: too big to check in. Each `generate` entry names a
// `kind` and its size `n`; the file is written to the scratch directory
// under the case's name, so expectations can name it (`deep.json:1:40`).

fn generated(name: &str, spec: &Value, scratch: &Path) -> PathBuf {
    let kind = spec["kind"].as_str().unwrap_or_else(|| panic!("{name}: `generate` needs a `kind`"));
    let n = spec["n"].as_u64().unwrap_or_else(|| panic!("{name}: `generate` needs `n`")) as usize;
    let (extension, text) = match kind {
        "deep-object" => ("json", object(&format!("{{\"any\": {}}}", nested_maps(n, "1")))),
        "deep-object-block" => ("yaml", deep_block(n)),
        "deep-list" => ("json", object(&format!("{{\"any\": {{\"l\": {}1{}}}}}", "[".repeat(n), "]".repeat(n)))),
        "deep-schema" => ("json", schema_chain(n)),
        "deep-schema-crd" => {
            ("json", crd(&format!("{{\"type\": \"object\", \"properties\": {{\"spec\": {}}}}}", schema_chain(n))))
        }
        "wide-object" => ("json", object(&format!("{{\"any\": {{{}}}}}", join(n, |i| format!("\"k{i}\": {i}"))))),
        "deep-wide-object" => {
            let wide = format!("{{{}}}", join(n, |i| format!("\"k{i}\": {i}")));
            let depth = spec["depth"].as_u64().unwrap_or_else(|| panic!("{name}: `deep-wide-object` needs `depth`"));
            ("json", object(&format!("{{\"any\": {}}}", nested_maps(depth as usize, &wide))))
        }
        "wide-unknown" => ("json", object(&format!("{{{}}}", join(n, |i| format!("\"u{i}\": {i}"))))),
        "wide-schema" => ("json", wide_schema(n)),
        "wide-schema-crd" => {
            ("json", crd(&format!("{{\"type\": \"object\", \"properties\": {{\"spec\": {}}}}}", wide_schema(n))))
        }
        "unknown-keywords-one-line" => {
            ("json", format!("{{\"type\": \"object\", {}}}", join(n, |i| format!("\"x{i}\": {i}"))))
        }
        "long-string" => ("json", object(&format!("{{\"name\": \"{}\"}}", "a".repeat(n)))),
        "long-key" => ("json", object(&format!("{{\"any\": {{\"{}\": 1}}}}", "k".repeat(n)))),
        "long-description-crd" => ("yaml", long_description_crd(n)),
        "many-documents" => {
            ("yaml", (0..n).map(|i| format!("---\n{}\n", object(&format!("{{\"size\": {i}}}")))).collect())
        }
        "many-versions-crd" => ("json", many_versions_crd(n)),
        "cel-parens-crd" => ("json", cel_rule_crd(&format!("{}true{}", "(".repeat(n), ")".repeat(n)))),
        "cel-long-rule-crd" => ("json", cel_rule_crd(&format!("self.a == '{}'", "x".repeat(n)))),
        other => panic!("{name}: unknown generator `{other}`"),
    };
    let stem = name.rsplit('/').next().unwrap_or(name);
    let path = scratch.join(format!("{stem}.{extension}"));
    std::fs::write(&path, text).expect("write a generated input");
    path
}

fn join(n: usize, item: impl Fn(usize) -> String) -> String {
    (0..n).map(item).collect::<Vec<_>>().join(", ")
}

/// A Thing whose `spec` is `spec` (JSON text).
fn object(spec: &str) -> String {
    format!(
        "{{\"apiVersion\": \"example.com/v1\", \"kind\": \"Thing\", \
         \"metadata\": {{\"name\": \"big\", \"namespace\": \"default\"}}, \"spec\": {spec}}}"
    )
}

/// A v1 CRD for Things whose schema is `schema` (JSON text).
fn crd(schema: &str) -> String {
    crd_with_versions(&version(1, true, schema))
}

/// A v1 CRD for Things with `versions` (JSON text of the list's items).
fn crd_with_versions(versions: &str) -> String {
    format!(
        "{{\"apiVersion\": \"apiextensions.k8s.io/v1\", \"kind\": \"CustomResourceDefinition\", \
         \"metadata\": {{\"name\": \"things.example.com\"}}, \"spec\": {{\"group\": \"example.com\", \
         \"names\": {{\"kind\": \"Thing\", \"plural\": \"things\"}}, \"scope\": \"Namespaced\", \
         \"versions\": [{versions}]}}}}"
    )
}

/// Version `v<n>`, served, with `schema`.
fn version(n: usize, storage: bool, schema: &str) -> String {
    format!(
        "{{\"name\": \"v{n}\", \"served\": true, \"storage\": {storage}, \
         \"schema\": {{\"openAPIV3Schema\": {schema}}}}}"
    )
}

/// `{"a": {"a": ... leaf ...}}`, `n` maps deep.
fn nested_maps(n: usize, leaf: &str) -> String {
    format!("{}{leaf}{}", "{\"a\": ".repeat(n), "}".repeat(n))
}

/// A Thing whose `spec.any` nests `n` block mappings, by indentation.
fn deep_block(n: usize) -> String {
    let mut text = String::from("apiVersion: example.com/v1\nkind: Thing\nmetadata: {name: big}\nspec:\n  any:\n");
    for level in 0..n {
        text.push_str(&" ".repeat(4 + 2 * level));
        text.push_str("a:\n");
    }
    text.push_str(&" ".repeat(4 + 2 * n));
    text.push_str("b: 1\n");
    text
}

/// An object schema nesting `n` objects through property `a`.
fn schema_chain(n: usize) -> String {
    let open = "{\"type\": \"object\", \"properties\": {\"a\": ".repeat(n);
    format!("{open}{{\"type\": \"string\"}}{}", "}}".repeat(n))
}

fn wide_schema(n: usize) -> String {
    let properties = join(n, |i| format!("\"p{i}\": {{\"type\": \"string\", \"description\": \"property {i}\"}}"));
    format!("{{\"type\": \"object\", \"properties\": {{{properties}}}}}")
}

fn long_description_crd(n: usize) -> String {
    let schema = format!("{{\"type\": \"object\", \"description\": \"{}\"}}", "word ".repeat(n / 5));
    crd(&schema)
}

fn many_versions_crd(n: usize) -> String {
    let schema = "{\"type\": \"object\", \"properties\": {\"spec\": {\"type\": \"object\", \
                  \"properties\": {\"a\": {\"type\": \"string\"}}}}}";
    crd_with_versions(&join(n, |i| version(i + 1, i == 0, schema)))
}

/// A CRD whose `spec` has the CEL rule `rule` (no quote or backslash in it).
fn cel_rule_crd(rule: &str) -> String {
    crd(&format!(
        "{{\"type\": \"object\", \"properties\": {{\"spec\": {{\"type\": \"object\", \
         \"properties\": {{\"a\": {{\"type\": \"string\", \"maxLength\": 10}}}}, \
         \"x-kubernetes-validations\": [{{\"rule\": \"{rule}\"}}]}}}}}}"
    ))
}

#[test]
fn the_judges_own_rules() {
    assert!(names_where("error: f.yaml:3:7: bad") && names_where("  --> crd/x.json:12:1"));
    assert!(names_where("error: spec.versions[0].name: Required value") && names_where("error: f.yaml: offset 3"));
    assert!(!names_where("error: no CRD given") && !names_where("see https://example.com: x"));
    assert_eq!(unlocated_errors("error: bad\n --> f.yaml:1:2\nerror: worse\n", None), ["error: worse"]);
    assert!(unlocated_errors("error: unknown resource \"x\"\n", Some("resource \"x\"")).is_empty());
    let code = "/// a\n///\n///     panic!()\nfn a() {}\n/// ```\n/// x\n/// ```\n/// ``` ```\n/// ~~~text\n/// ```\n/// ~~~\n";
    assert_eq!(runnable_doc_blocks(code), ["indented block `panic!()`", "fence `````"]);
    assert!(runnable_doc_blocks("//! ```text\n//!     indented\n//! ```\n/// text\n///     continued\n").is_empty());
}
