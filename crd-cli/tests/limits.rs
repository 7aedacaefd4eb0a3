//! The `--max-*` limits of every `crd` command and of
//! `crd_codegen::Builder`: each is enforced with an error that names the
//! file, the place where known and the limit, exits 2, and can be raised
//! as well as lowered.

use std::path::{Path, PathBuf};
use std::process::Command;

use crd_schema::limits::Limits;

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("limits").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write input");
    path.display().to_string()
}

/// Runs the `crd` binary (its own thread stack, as users run it); returns
/// the exit code, stdout and stderr.
fn crd(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_crd")).args(args).output().expect("crd runs");
    let text = |b: Vec<u8>| String::from_utf8(b).expect("UTF-8 output");
    (output.status.code().unwrap_or(-1), text(output.stdout), text(output.stderr))
}

/// A CRD whose `spec` has `properties` string fields, one with `pattern`.
fn crd_text(properties: usize, pattern: &str) -> String {
    let mut fields = String::new();
    for i in 0..properties {
        fields.push_str(&format!("                f{i}: {{type: string, pattern: '{pattern}'}}\n"));
    }
    format!(
        "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {{name: things.example.com}}
spec:
  group: example.com
  scope: Namespaced
  names: {{plural: things, kind: Thing}}
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
{fields}"
    )
}

const OBJECT: &str = "apiVersion: example.com/v1\nkind: Thing\nmetadata: {name: a}\nspec: {f0: x}\n";

/// Every command that reads a CRD, with the CRD at `crd` and an object at
/// `object`.
fn crd_commands<'a>(crd: &'a str, object: &'a str) -> Vec<Vec<&'a str>> {
    vec![
        vec!["check", crd],
        vec!["prune", "--crd", crd, object],
        vec!["validate", "--crd", crd, object],
        vec!["openapi", "--crd", crd],
        vec!["explain", "--crd", crd, "things.spec"],
        vec!["generate", crd],
    ]
}

#[test]
fn schema_limits_apply_to_every_command() {
    let dir = scratch("schema");
    let crd_path = write(&dir, "crd.yaml", &crd_text(3, "^[a-z]+$"));
    let object = write(&dir, "object.yaml", OBJECT);
    for command in crd_commands(&crd_path, &object) {
        let (code, _, err) = crd(&command);
        assert_eq!(code, 0, "{command:?}: {err}");

        let mut args = command.clone();
        args.extend(["--max-properties", "3"]);
        let (code, _, err) = crd(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.contains(&format!(
                "{crd_path}:14:11: the schema has 4 properties, more than the limit of 3 (max-properties)"
            )),
            "{args:?}: {err}"
        );

        let mut args = command.clone();
        args.push("--max-pattern-bytes=7");
        let (code, _, err) = crd(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.contains(&format!(
                "{crd_path}:19:45: pattern is 8 bytes, more than the limit of 7 (max-pattern-bytes)"
            )),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn reader_limits_apply_to_every_command() {
    let dir = scratch("reader");
    let crd_path = write(&dir, "crd.yaml", &crd_text(3, "^[a-z]+$"));
    let size = std::fs::metadata(&crd_path).expect("metadata").len();
    let object = write(&dir, "object.yaml", OBJECT);
    for command in crd_commands(&crd_path, &object) {
        let limited = |flag: &str, value: String| {
            let mut args: Vec<String> = command.iter().map(|s| (*s).to_owned()).collect();
            args.insert(1, flag.to_owned());
            args.insert(2, value);
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            crd(&args)
        };
        let (code, _, err) = limited("--max-input-bytes", (size - 1).to_string());
        assert_eq!(code, 2, "{command:?}: {err}");
        let expected =
            format!("{crd_path}: input is {size} bytes, more than the limit of {} (max-input-bytes)", size - 1);
        assert!(err.contains(&expected), "{command:?}: {err}");
        assert_eq!(limited("--max-input-bytes", size.to_string()).0, 0, "{command:?}");

        let (code, _, err) = limited("--max-depth", "5".to_owned());
        assert_eq!(code, 2, "{command:?}: {err}");
        assert!(err.contains(&format!("{crd_path}:")), "{command:?}: {err}");
        assert!(err.contains("document nested more than 5 levels deep (max-depth)"), "{command:?}: {err}");

        let (code, _, err) = limited("--max-nodes", "20".to_owned());
        assert_eq!(code, 2, "{command:?}: {err}");
        assert!(err.contains(&format!("{crd_path}:")) && err.contains("(max-nodes)"), "{command:?}: {err}");
    }
}

#[test]
fn objects_are_held_to_the_limits_too() {
    let dir = scratch("objects");
    let crd_path = write(&dir, "crd.yaml", &crd_text(1, "^[a-z]+$"));
    let object = write(
        &dir,
        "object.yaml",
        "apiVersion: example.com/v1\nkind: Thing\nmetadata: &m {name: a}\nspec: {f0: x}\nstatus:\n  a: *m\n  b: *m\n",
    );
    for command in ["prune", "validate"] {
        let (code, _, err) = crd(&[command, "--crd", &crd_path, &object]);
        assert!(code == 0 || code == 1, "{command}: {err}");
        let (code, _, err) = crd(&[command, "--max-aliases", "1", "--crd", &crd_path, &object]);
        assert_eq!(code, 2, "{command}: {err}");
        assert!(err.contains(&format!("{object}:7:6: 2 alias uses, more than the limit of 1 (max-aliases)")), "{err}");
    }
}

#[test]
fn a_schema_500_levels_deep_is_read_by_default_and_the_depth_can_be_lowered() {
    // 500 nested objects: about 1,000 levels of YAML, within the default
    // of 1,024 (the API server accepts schemas this deep).
    let dir = scratch("deep");
    let mut schema = "{type: string, default: x}".to_owned();
    let mut object = "v".to_owned();
    for _ in 0..500 {
        schema = format!("{{type: object, default: {{}}, properties: {{a: {schema}}}}}");
        object = format!("{{a: {object}, unknown: 1}}");
    }
    let crd_path = write(
        &dir,
        "crd.yaml",
        &crd_text(0, "")
            .replace("              properties:\n", &format!("              properties: {{d: {schema}}}\n")),
    );
    let object = write(
        &dir,
        "object.yaml",
        &format!("apiVersion: example.com/v1\nkind: Thing\nmetadata: {{name: a}}\nspec: {{d: {object}}}\n"),
    );
    for command in crd_commands(&crd_path, &object) {
        let (code, out, err) = crd(&command);
        assert_eq!(code, 0, "{command:?}: {err}");
        assert!(!out.is_empty() || command[0] == "check", "{command:?}");

        let mut args = command.clone();
        args.extend(["--max-depth", "256"]);
        let (code, _, err) = crd(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains("document nested more than 256 levels deep (max-depth)"), "{args:?}: {err}");
    }
}

#[test]
fn bad_limit_values_are_usage_errors() {
    let dir = scratch("usage");
    let crd_path = write(&dir, "crd.yaml", &crd_text(1, "a"));
    for (flag, value, message) in [
        ("--max-depth", "1025", "max-depth must be at most 1024"),
        ("--max-depth", "0", "max-depth must be at least 1"),
        ("--max-nodes", "many", "`--max-nodes` needs a whole number, not `many`"),
        ("--max-aliases", "-1", "`--max-aliases` needs a whole number, not `-1`"),
    ] {
        let (code, _, err) = crd(&["check", flag, value, &crd_path]);
        assert_eq!(code, 2, "{flag} {value}: {err}");
        assert!(err.starts_with(&format!("error: {message}\n")), "{err}");
    }
    let (code, _, err) = crd(&["check", &crd_path, "--max-pattern-bytes"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: `--max-pattern-bytes` needs a value\n"), "{err}");
}

#[test]
fn the_builder_takes_limits() {
    let text = crd_text(2, "^x$");
    let mut builder = crd_codegen::Builder::new();
    builder.crd_source("things.yaml", &text);
    builder.generate().expect("within the default limits");
    let err = builder.limits(Limits { max_properties: 2, ..Limits::default() }).generate().unwrap_err();
    assert_eq!(
        err.to_string(),
        "things.yaml:14:11: the schema has 3 properties, more than the limit of 2 (max-properties)"
    );
}
