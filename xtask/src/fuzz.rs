//! `cargo xtask fuzz-seeds` and `cargo xtask fuzz`: seed corpora for the
//! cargo-fuzz targets in `fuzz/`, and timed runs of them.
//!
//! Seeds are cut from the shared data beside the repository (never copied
//! into it): the corpus CRDs and their sample objects, and the schemas,
//! objects and CRDs of the conformance cases. Targets that take a schema
//! and an object get them joined by a NUL byte (`schema \0 object [\0 old]`),
//! the split `fuzz/src/lib.rs` makes. Seeds are written under
//! `fuzz/corpus/<target>/` (ignored by git) with descriptive names, so
//! running the command again refreshes them and leaves the entries libFuzzer
//! added alone.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

/// The fuzz targets, as `fuzz/Cargo.toml` declares them.
const TARGETS: &[&str] = &["yaml", "crd_check", "decode", "value_validation", "generate"];

/// Build flags of every run: the code under test forbids `unsafe`, so
/// AddressSanitizer finds nothing a panic would not and costs half the
/// speed; overflow checks and debug assertions turn silent bugs into
/// findings.
const BUILD_FLAGS: &[&str] = &["--sanitizer", "none", "--debug-assertions"];

/// Larger files are left out: they slow every mutation down and add no
/// schema feature the smaller ones lack.
const MAX_SEED_BYTES: usize = 128 * 1024;

/// A CRD manifest around a bare `openAPIV3Schema` (`{}` is replaced).
const CRD_TEMPLATE: &str = r#"{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
"metadata": {"name": "widgets.example.com"},
"spec": {"group": "example.com", "scope": "Namespaced", "names": {"kind": "Widget", "plural": "widgets"},
"versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {}}}]}}
"#;

fn shared_dir(root: &Path) -> PathBuf {
    root.join("../shared")
}

/// Seeds of one target.
#[derive(Debug, Default)]
struct Seeds {
    files: Vec<(String, Vec<u8>)>,
}

/// Seeds of every target.
#[derive(Debug, Default)]
struct AllSeeds(BTreeMap<&'static str, Seeds>);

impl AllSeeds {
    fn of(&mut self, target: &'static str) -> &mut Seeds {
        self.0.entry(target).or_default()
    }
}

impl Seeds {
    fn add(&mut self, name: String, bytes: Vec<u8>) {
        if bytes.len() <= MAX_SEED_BYTES {
            self.files.push((name, bytes));
        }
    }

    fn pair(&mut self, name: String, parts: &[&str]) {
        self.add(name, parts.join("\0").into_bytes());
    }
}

/// Writes every target's seeds; returns how many files each got.
pub fn seeds(root: &Path) -> Result<Vec<(&'static str, usize)>> {
    let shared = shared_dir(root);
    if !shared.is_dir() {
        bail!("{} not found: the seeds come from the shared data beside the repository", shared.display());
    }
    let mut all = AllSeeds::default();
    corpus_seeds(&shared.join("corpus"), &mut all)?;
    conformance_seeds(&shared.join("conformance"), &mut all)?;
    let mut counts = Vec::new();
    for (target, seeds) in all.0 {
        let dir = root.join("fuzz/corpus").join(target);
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        for (name, bytes) in &seeds.files {
            let path = dir.join(name);
            std::fs::write(&path, bytes).with_context(|| format!("writing {}", path.display()))?;
        }
        counts.push((target, seeds.files.len()));
    }
    Ok(counts)
}

/// Files directly in `dir`, sorted; empty when it does not exist.
fn files_in(dir: &Path) -> Result<Vec<PathBuf>> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Ok(Vec::new()) };
    let mut paths = entries.map(|e| e.map(|e| e.path())).collect::<std::io::Result<Vec<_>>>()?;
    paths.sort();
    Ok(paths)
}

fn file_stem(path: &Path) -> String {
    path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
}

/// `crds/<repo>/<name>.yaml` and `samples/<repo>/<name>/<n>.yaml`: each CRD
/// alone, and with each of its samples.
fn corpus_seeds(corpus: &Path, seeds: &mut AllSeeds) -> Result<()> {
    for repo in files_in(&corpus.join("crds"))? {
        let repo_name = file_stem(&repo);
        for crd_path in files_in(&repo)? {
            let crd = std::fs::read_to_string(&crd_path).with_context(|| format!("reading {}", crd_path.display()))?;
            let name = file_stem(&crd_path);
            for target in ["yaml", "crd_check", "generate"] {
                seeds.of(target).add(format!("crd-{repo_name}-{name}"), crd.clone().into_bytes());
            }
            for sample in files_in(&corpus.join("samples").join(&repo_name).join(&name))? {
                let object = std::fs::read_to_string(&sample)?;
                let seed = format!("sample-{repo_name}-{name}-{}", file_stem(&sample));
                seeds.of("yaml").add(seed.clone(), object.clone().into_bytes());
                for target in ["decode", "value_validation"] {
                    seeds.of(target).pair(seed.clone(), &[&crd, &object]);
                }
            }
        }
    }
    Ok(())
}

/// Schema-and-object pairs, bare schemas and CRDs of the conformance cases.
fn conformance_seeds(dir: &Path, seeds: &mut AllSeeds) -> Result<()> {
    let pairs = [
        ("pruning", "input"),
        ("defaulting", "input"),
        ("prune-nulls", "input"),
        ("objectmeta", "input"),
        ("listtype", "object"),
        ("value-validation", "object"),
    ];
    for (file, object_key) in pairs {
        for_cases(dir, file, |i, case| {
            let (Some(schema), Some(object)) = (json::field(case, "schema")?, json::field(case, object_key)?) else {
                return Ok(());
            };
            if schema == "null" {
                return Ok(());
            }
            let old = json::field(case, "oldObject")?;
            let seed = format!("conf-{file}-{i:03}");
            seeds.of("decode").pair(seed.clone(), &[schema, object]);
            let parts: Vec<&str> = [Some(schema), Some(object), old].into_iter().flatten().collect();
            seeds.of("value_validation").pair(seed.clone(), &parts);
            schema_seeds(seeds, &seed, schema);
            Ok(())
        })?;
    }
    for file in ["structural", "crd-schema-validation", "default-validation"] {
        for_cases(dir, file, |i, case| {
            let seed = format!("conf-{file}-{i:03}");
            if let Some(schema) = json::field(case, "schema")? {
                schema_seeds(seeds, &seed, schema);
            }
            for (key, api_version) in [("crd", "v1beta1"), ("oldCrd", "v1beta1"), ("crdV1", "v1")] {
                let Some(spec) = json::field(case, key)?.map(|crd| json::field(crd, "spec")).transpose()?.flatten()
                else {
                    continue;
                };
                let manifest = format!(
                    "{{\"apiVersion\": \"apiextensions.k8s.io/{api_version}\", \"kind\": \"CustomResourceDefinition\",\n\
                     \"metadata\": {{\"name\": \"plural.group.com\"}},\n\"spec\": {spec}}}\n"
                );
                for target in ["crd_check", "generate"] {
                    seeds.of(target).add(format!("{seed}-{key}"), manifest.clone().into_bytes());
                }
            }
            Ok(())
        })?;
    }
    Ok(())
}

/// A bare schema: as itself for `crd check --schema`, and inside a CRD for
/// the check and the generator.
fn schema_seeds(seeds: &mut AllSeeds, seed: &str, schema: &str) {
    let crd = CRD_TEMPLATE.replacen("{}", schema, 1);
    seeds.of("crd_check").add(format!("{seed}-schema"), schema.as_bytes().to_vec());
    seeds.of("crd_check").add(format!("{seed}-crd"), crd.clone().into_bytes());
    seeds.of("generate").add(format!("{seed}-crd"), crd.into_bytes());
}

/// Calls `each` with the index and text of every case of `<file>.json`.
fn for_cases(dir: &Path, file: &str, mut each: impl FnMut(usize, &str) -> Result<()>) -> Result<()> {
    let path = dir.join(format!("{file}.json"));
    let text = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let cases = json::field(&text, "cases")?.with_context(|| format!("{}: no cases", path.display()))?;
    for (i, case) in json::elements(cases)?.into_iter().enumerate() {
        each(i, case).with_context(|| format!("{}: case {i}", path.display()))?;
    }
    Ok(())
}

/// The texts of JSON values inside a JSON text: just enough of a reader to
/// cut conformance cases apart without a JSON dependency. Values are
/// returned as they are written, which is valid JSON and therefore YAML.
mod json {
    use anyhow::{Result, bail};

    /// The value of `key` in the object `text`, if present.
    pub fn field<'a>(text: &'a str, key: &str) -> Result<Option<&'a str>> {
        let mut at = open(text, b'{')?;
        loop {
            at = skip_ws(text, at);
            if text.as_bytes().get(at) == Some(&b'}') {
                return Ok(None);
            }
            let name = value(text, at)?;
            at = skip_ws(text, at + name.len());
            if text.as_bytes().get(at) != Some(&b':') {
                bail!("expected `:` at byte {at}");
            }
            at = skip_ws(text, at + 1);
            let found = value(text, at)?;
            if name.strip_prefix('"').and_then(|n| n.strip_suffix('"')) == Some(key) {
                return Ok(Some(found));
            }
            at = next(text, at + found.len(), b'}')?;
        }
    }

    /// The elements of the array `text`.
    pub fn elements(text: &str) -> Result<Vec<&str>> {
        let mut at = open(text, b'[')?;
        let mut out = Vec::new();
        loop {
            at = skip_ws(text, at);
            if text.as_bytes().get(at) == Some(&b']') {
                return Ok(out);
            }
            let element = value(text, at)?;
            out.push(element);
            at = next(text, at + element.len(), b']')?;
        }
    }

    fn open(text: &str, bracket: u8) -> Result<usize> {
        let at = skip_ws(text, 0);
        if text.as_bytes().get(at) != Some(&bracket) {
            bail!("expected `{}`", bracket as char);
        }
        Ok(at + 1)
    }

    // After a member or element: past a `,`, or at the closing bracket.
    fn next(text: &str, at: usize, close: u8) -> Result<usize> {
        let at = skip_ws(text, at);
        match text.as_bytes().get(at) {
            Some(b',') => Ok(at + 1),
            Some(b) if *b == close => Ok(at),
            _ => bail!("expected `,` or `{}` at byte {at}", close as char),
        }
    }

    fn skip_ws(text: &str, at: usize) -> usize {
        at + text[at..].len() - text[at..].trim_start().len()
    }

    /// The text of the value starting at `at`.
    fn value(text: &str, at: usize) -> Result<&str> {
        let bytes = text.as_bytes();
        let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
        for (i, &b) in bytes.iter().enumerate().skip(at) {
            if in_string {
                match b {
                    _ if escaped => escaped = false,
                    b'\\' => escaped = true,
                    b'"' => {
                        in_string = false;
                        if depth == 0 {
                            return Ok(&text[at..=i]);
                        }
                    }
                    _ => {}
                }
                continue;
            }
            match b {
                b'"' => in_string = true,
                b'{' | b'[' => depth += 1,
                b'}' | b']' if depth > 0 => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(&text[at..=i]);
                    }
                }
                b',' | b'}' | b']' | b' ' | b'\n' | b'\r' | b'\t' if depth == 0 => return Ok(&text[at..i]),
                _ => {}
            }
        }
        if depth == 0 && !in_string && at < bytes.len() {
            return Ok(&text[at..]);
        }
        bail!("unterminated value at byte {at}")
    }
}

/// Fails with how to install what is missing.
fn check_tools() -> Result<()> {
    let works = |args: &[&str]| nightly_cargo().args(args).output().is_ok_and(|o| o.status.success());
    if !works(&["--version"]) {
        bail!("the nightly toolchain is missing; install it with `rustup toolchain install nightly`");
    }
    if !works(&["fuzz", "--version"]) {
        bail!("cargo-fuzz is missing; install it with `cargo install cargo-fuzz --locked`");
    }
    Ok(())
}

/// `cargo +nightly` through rustup's proxy (not `$CARGO`, which is the
/// stable toolchain's own binary and knows no `+toolchain`).
fn nightly_cargo() -> Command {
    let mut command = Command::new("cargo");
    command.arg("+nightly").env_remove("RUSTUP_TOOLCHAIN").env_remove("CARGO");
    command
}

/// `cargo xtask fuzz [--seconds N] [TARGET...]`: seeds, then runs each
/// target for N seconds; fails naming the targets that found something.
pub fn run(root: &Path, args: &[&str]) -> Result<()> {
    let mut seconds = 300u64;
    let mut targets = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match *arg {
            "--seconds" => {
                let n = args.next().context("--seconds needs a number")?;
                seconds = n.parse().with_context(|| format!("--seconds {n}: not a number of seconds"))?;
            }
            t if TARGETS.contains(&t) => targets.push(t),
            other => bail!("unknown fuzz target or option `{other}`; targets: {}", TARGETS.join(", ")),
        }
    }
    if targets.is_empty() {
        targets = TARGETS.to_vec();
    }
    check_tools()?;
    report_seeds(&seeds(root)?);
    let mut failed = Vec::new();
    for target in targets {
        println!("== cargo +nightly fuzz run {target} ({seconds} s)");
        let status = nightly_cargo()
            .args(["fuzz", "run"])
            .args(BUILD_FLAGS)
            .arg(target)
            .args(["--", &format!("-max_total_time={seconds}"), "-timeout=10", "-rss_limit_mb=2048"])
            .current_dir(root)
            .status()
            .with_context(|| format!("running the fuzz target {target}"))?;
        if !status.success() {
            failed.push(target);
        }
    }
    if !failed.is_empty() {
        bail!(
            "{} found a crash, hang or OOM: the input is in fuzz/artifacts/<target>/; minimise it with \
             `cargo +nightly fuzz tmin {} <target> <file>`",
            failed.join(", "),
            BUILD_FLAGS.join(" ")
        );
    }
    Ok(())
}

/// Prints how many seeds each target got.
pub fn report_seeds(counts: &[(&str, usize)]) {
    for (target, n) in counts {
        println!("fuzz/corpus/{target}: {n} seeds");
    }
}
