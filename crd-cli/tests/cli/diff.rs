//! `crd diff` end to end: the corpus against itself (with every sample as
//! a stored object) reports nothing; each multi-version corpus CRD's
//! oldest served version against its storage version compares; the
//! README's example; exit codes, `--allow` and the JSON output.

use std::path::{Path, PathBuf};

use crd_schema::crd;
use crd_schema::diff::{self, Revision, Severity};
use serde_json::Value;

use super::crd as run;

/// `../shared/corpus` beside the workspace; the tests fail, naming it,
/// when it is absent.
fn corpus() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    assert!(dir.is_dir(), "{} does not exist: these tests read the CRD corpus in ../shared", dir.display());
    dir
}

/// A scratch directory, removed when dropped.
fn scratch(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new().prefix(&format!("crd-diff-cli-{name}-")).tempdir().expect("scratch dir")
}

/// Writes `text` to `dir/name`; returns the path as text.
fn write(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let path = dir.path().join(name);
    std::fs::write(&path, text).expect("write scratch file");
    path.display().to_string()
}

fn gitrepositories() -> PathBuf {
    corpus().join("crds/fluxcd__source-controller/gitrepositories.source.toolkit.fluxcd.io.yaml")
}

/// The README's new revision of GitRepository: the three `sed` edits of
/// its example, made in Rust.
fn edited_gitrepositories() -> String {
    let text = std::fs::read_to_string(gitrepositories()).expect("corpus CRD");
    let text = text.replace("(http|https|ssh)", "(https|ssh)").replace("default: 60s", "default: 30s");
    // sed's `/^              suspend:$/,/^                type: boolean$/d`.
    let mut out = Vec::new();
    let mut deleting = false;
    for line in text.lines() {
        if line == "              suspend:" {
            deleting = true;
        }
        if !deleting {
            out.push(line);
        }
        if deleting && line == "                type: boolean" {
            deleting = false;
        }
    }
    out.join("\n") + "\n"
}

#[test]
fn the_corpus_against_itself_reports_nothing() {
    let crds = corpus().join("crds");
    let samples = corpus().join("samples");
    let (code, out, err) = run(&[
        "diff",
        &crds.display().to_string(),
        &crds.display().to_string(),
        "--objects",
        &samples.display().to_string(),
    ]);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    assert_eq!(out, "compared 122 CRD(s) and 419 object(s): 0 errors, 0 warnings, 0 notes\n");
}

#[test]
fn the_oldest_served_version_against_the_storage_version_compares() {
    let mut compared = 0;
    let mut findings = 0;
    for loaded in crd::load(&corpus().join("crds")) {
        let loaded = loaded.expect("corpus file loads");
        for pair in &loaded.crds {
            let spec = &pair.1.spec;
            let (Some(oldest), Some(storage)) = (spec.oldest_served_version(), spec.storage_version()) else {
                continue;
            };
            if oldest == storage {
                continue;
            }
            let found = diff::diff_versions(Revision::of(pair), oldest, storage).expect("both versions exist");
            // Every finding is labelled with both versions and located
            // (in one version at least: an added field is in the new one only).
            for f in &found {
                assert_eq!(f.version.as_deref(), Some(format!("{oldest} → {storage}").as_str()), "{f:?}");
                assert!(f.new_at.is_some() || f.old_at.is_some(), "{}: {f:?}", loaded.file);
                assert!(f.code != diff::Code::SchemaNotStructural, "{}: {f:?}", loaded.file);
            }
            compared += 1;
            findings += found.len();
        }
    }
    println!("{compared} multi-version CRDs, {findings} findings from the oldest served to the storage version");
    // The corpus has multi-version CRDs whose versions differ (cert-manager
    // has none left; keda, tekton, flux, argo and others do).
    assert!(compared >= 10, "{compared}");
    assert!(findings > 0);
}

/// The headlines of the README's `crd diff` example output.
fn readme_headlines() -> Vec<String> {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md")).expect("README");
    let section = readme.split("## `crd diff`").nth(1).expect("a `crd diff` section");
    let section = section.split("\n## ").next().unwrap_or_default();
    section.lines().filter(|l| l.starts_with("error[") || l.starts_with("warning[")).map(str::to_owned).collect()
}

#[test]
fn the_readme_example_is_what_the_tool_prints() {
    let dir = scratch("readme");
    let new = write(&dir, "gitrepositories.yaml", &edited_gitrepositories());
    let old = gitrepositories().display().to_string();
    let samples = corpus().join("samples/fluxcd__source-controller").display().to_string();
    let (code, out, _) = run(&["diff", &old, &new, "--objects", &samples]);
    assert_eq!(code, 1, "{out}");
    let headlines: Vec<String> =
        out.lines().filter(|l| l.starts_with("error[") || l.starts_with("warning[")).map(str::to_owned).collect();
    assert_eq!(headlines, readme_headlines());
    assert!(out.ends_with("compared 1 CRD(s) and 3 object(s): 1 errors, 2 warnings, 0 notes\n"), "{out}");
    // A removed field is shown where it was; a changed one where it is,
    // with where it was as a note.
    assert!(out.contains(&format!("--> {old}:197:17\n")), "{out}");
    assert!(out.contains(&format!("--> {new}:197:26\n")), "{out}");
    assert!(out.contains(&format!(" = old: {old}:202:26\n")), "{out}");
    // Accepting the removal: still reported, no longer failing.
    let (code, out, _) = run(&["diff", "--allow", "field-removed", &old, &new]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("error[field-removed] (allowed): "), "{out}");
    assert!(out.ends_with("1 errors (1 allowed), 2 warnings, 0 notes\n"), "{out}");
}

#[test]
fn json_output_names_code_severity_and_positions() {
    let dir = scratch("json");
    let new = write(&dir, "gitrepositories.yaml", &edited_gitrepositories());
    let old = gitrepositories().display().to_string();
    let (code, out, _) = run(&["diff", "--format", "json", &old, &new]);
    assert_eq!(code, 1);
    let findings: Value = serde_json::from_str(&out).expect("JSON");
    let first = &findings.as_array().expect("a list")[0];
    assert_eq!(first["code"], "field-removed");
    assert_eq!(first["severity"], "error");
    assert_eq!(first["allowed"], false);
    assert_eq!(first["crd"], "gitrepositories.source.toolkit.fluxcd.io");
    assert_eq!(first["version"], "v1");
    assert_eq!(first["path"], ".spec.suspend");
    assert_eq!(first["old"], "type: boolean");
    assert_eq!(first["new"], Value::Null);
    assert_eq!(first["oldAt"], format!("{old}:197:17"));
    assert_eq!(first["newAt"], Value::Null);
    assert_eq!(findings[1]["newAt"], format!("{new}:197:26"));
}

#[test]
fn a_warning_alone_exits_0_and_bad_input_exits_2() {
    let dir = scratch("exit");
    let text = std::fs::read_to_string(gitrepositories()).expect("corpus CRD").replace("default: 60s", "default: 30s");
    let new = write(&dir, "new.yaml", &text);
    let old = gitrepositories().display().to_string();
    let (code, out, _) = run(&["diff", &old, &new]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.starts_with("warning[default-changed]: gitrepositories.source.toolkit.fluxcd.io: v1: .spec.timeout: "),
        "{out}"
    );
    let (code, _, err) = run(&["diff", &old, &dir.path().join("missing.yaml").display().to_string()]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: "), "{err}");
    let not_a_crd = write(&dir, "cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n");
    let (code, _, err) = run(&["diff", &old, &not_a_crd]);
    let why = format!(
        "error: no CustomResourceDefinition in {not_a_crd}: {not_a_crd}:1:1: ConfigMap (v1) is not a CustomResourceDefinition"
    );
    assert_eq!((code, err.trim_end()), (2, why.as_str()));
    let empty = dir.path().join("empty");
    std::fs::create_dir_all(&empty).expect("scratch directory");
    let empty = empty.display().to_string();
    let (code, _, err) = run(&["diff", &old, &empty]);
    let why = format!("error: no CustomResourceDefinition in {empty}: {empty}: no YAML or JSON file");
    assert_eq!((code, err.trim_end()), (2, why.as_str()));
    let (code, _, err) = run(&["diff", "--allow", "no-such-code", &old, &new]);
    assert_eq!(code, 2);
    assert!(err.contains("invalid value 'no-such-code' for '--allow <CODE>'"), "{err}");
}

#[test]
fn crds_are_paired_by_name_and_a_removed_crd_is_an_error() {
    let dir = scratch("sets");
    let project = corpus().join("crds/fluxcd__source-controller");
    let fewer = dir.path().join("fewer");
    std::fs::create_dir_all(&fewer).expect("dir");
    for entry in std::fs::read_dir(&project).expect("corpus dir") {
        let path = entry.expect("entry").path();
        if !path.ends_with("buckets.source.toolkit.fluxcd.io.yaml") {
            std::fs::copy(&path, fewer.join(path.file_name().expect("file name"))).expect("copy");
        }
    }
    let (code, out, _) = run(&["diff", &project.display().to_string(), &fewer.display().to_string()]);
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("error[crd-removed]: buckets.source.toolkit.fluxcd.io: metadata.name: deleting a CRD deletes every object of it"), "{out}");
    let (code, out, _) = run(&["diff", &fewer.display().to_string(), &project.display().to_string()]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("info[crd-added]: buckets.source.toolkit.fluxcd.io"), "{out}");
}

#[test]
fn a_lone_crd_is_compared_in_process_like_the_tool_does() {
    // The library entry point gives what the tool prints.
    let old =
        crd::parse_source("old.yaml", std::fs::read(gitrepositories()).expect("corpus CRD").as_slice()).expect("loads");
    let new_text = edited_gitrepositories();
    let new = crd::parse_source("new.yaml", new_text.as_bytes()).expect("loads");
    let found = diff::diff(Revision::of(&old.crds[0]), Revision::of(&new.crds[0]));
    let got: Vec<(&str, Severity, &str)> =
        found.iter().map(|f| (f.code.as_str(), f.severity, f.path.as_str())).collect();
    assert_eq!(
        got,
        [
            ("field-removed", Severity::Error, ".spec.suspend"),
            ("default-changed", Severity::Warning, ".spec.timeout"),
            ("pattern-changed", Severity::Warning, ".spec.url"),
        ]
    );
    assert!(!diff::is_safe(&found));
}
