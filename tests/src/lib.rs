//! Helpers shared by the cross-crate tests: JSON comparison with numbers
//! by value, and random well-typed objects for a structural schema.

pub mod normalise;
pub mod objects;

use std::path::{Path, PathBuf};

use serde_json::Value;

/// Runs the `crd` tool in-process with `args`; returns (exit code, stdout,
/// stderr).
pub fn crd(args: &[&str]) -> (i32, String, String) {
    let args: Vec<String> = args.iter().map(|s| (*s).to_owned()).collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = crd_cli::run(&args, &mut out, &mut err);
    let text = |bytes: Vec<u8>| String::from_utf8(bytes).expect("the tool writes UTF-8");
    (code, text(out), text(err))
}

/// `../shared/corpus` beside the workspace: the public CRDs and samples.
pub fn corpus_dir() -> PathBuf {
    shared_dir("corpus")
}

/// `../shared/<name>` beside the workspace. The tests that read the shared
/// data fail, naming the folder, when it is absent: they never pass
/// silently without it.
pub fn shared_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared").join(name);
    assert!(
        dir.is_dir(),
        "{} does not exist: these tests read the shared data (conformance cases and the CRD corpus), \
         which lives in `../shared` beside the repository; put it there to run them",
        dir.display()
    );
    dir
}

/// Writes `text` to `dir/name`; returns the path as text for the command line.
pub fn write_file(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write scratch file");
    path.display().to_string()
}

/// A fresh scratch directory for one test (`group` names the test file,
/// `name` the test), removed with everything in it when the guard drops, so
/// test runs leave nothing behind in the temporary directory.
pub fn scratch(group: &str, name: &str) -> Scratch {
    let dir = tempfile::Builder::new().prefix(&format!("crd-{group}-{name}-")).tempdir().expect("scratch dir");
    Scratch(dir)
}

/// A scratch directory that is deleted on drop; dereferences to its path.
#[derive(Debug)]
pub struct Scratch(tempfile::TempDir);

impl std::ops::Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        self.0.path()
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        self.0.path()
    }
}

/// Whether two JSON values are equal, numbers compared by value (`1`
/// equals `1.0`) and object keys regardless of order.
pub fn json_eq(a: &Value, b: &Value) -> bool {
    first_difference(a, b).is_none()
}

/// The path of the first place where `a` and `b` differ (numbers by value),
/// or `None` when they are equal.
pub fn first_difference(a: &Value, b: &Value) -> Option<String> {
    difference(a, b, &mut String::new())
}

/// The value at a [`first_difference`] path (`spec.versions[0].schema`),
/// `null` when there is none.
pub fn value_at(value: &Value, path: &str) -> Value {
    let mut pointer = String::new();
    for part in path.split('.').filter(|p| !p.is_empty()) {
        let (key, indices) = part.split_once('[').map_or((part, ""), |(k, rest)| (k, rest));
        pointer.push('/');
        pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
        for index in indices.split('[').filter(|s| !s.is_empty()) {
            pointer.push('/');
            pointer.push_str(index.trim_end_matches(']'));
        }
    }
    value.pointer(&pointer).cloned().unwrap_or(Value::Null)
}

fn difference(a: &Value, b: &Value, path: &mut String) -> Option<String> {
    let here = || Some(if path.is_empty() { "<root>".to_owned() } else { path.clone() });
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let equal = match (x.as_i64(), y.as_i64(), x.as_u64(), y.as_u64()) {
                (Some(i), Some(j), _, _) => i == j,
                (_, _, Some(i), Some(j)) => i == j,
                _ => x.as_f64() == y.as_f64(),
            };
            if equal { None } else { here() }
        }
        (Value::Array(x), Value::Array(y)) => {
            if x.len() != y.len() {
                return here();
            }
            x.iter()
                .zip(y)
                .enumerate()
                .find_map(|(i, (p, q))| nested(path, &format!("[{i}]"), |path| difference(p, q, path)))
        }
        (Value::Object(x), Value::Object(y)) => {
            if let Some(k) = x.keys().find(|k| !y.contains_key(*k)).or_else(|| y.keys().find(|k| !x.contains_key(*k))) {
                return nested(path, &format!(".{k}"), |path| Some(path.clone()));
            }
            x.iter().find_map(|(k, v)| nested(path, &format!(".{k}"), |path| difference(v, &y[k], path)))
        }
        _ if a == b => None,
        _ => here(),
    }
}

fn nested(path: &mut String, step: &str, f: impl FnOnce(&mut String) -> Option<String>) -> Option<String> {
    let len = path.len();
    path.push_str(step);
    let out = f(path);
    path.truncate(len);
    out
}

/// Runs `crd check` on a derived CRD (design.md I4): `Ok` when the API
/// server would accept it with neither errors nor warnings, else the
/// tool's report.
pub fn check_derived(manifest: &crd_schema::schema::CrdManifest) -> Result<(), String> {
    let dir = scratch("check-derived", &manifest.metadata.name);
    let path = dir.join("crd.json");
    std::fs::write(&path, manifest.to_json()).map_err(|e| e.to_string())?;
    let (code, out, err) = crd(&["check", &path.display().to_string()]);
    if code == 0 && out.contains("1 valid, 0 invalid; 0 errors, 0 warnings") {
        Ok(())
    } else {
        Err(format!("{out}{err}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_by_value_and_paths_of_differences() {
        assert!(json_eq(&json!({"a": [1, 2.0]}), &json!({"a": [1.0, 2]})));
        assert_eq!(
            first_difference(&json!({"a": [1, {"b": 2}]}), &json!({"a": [1, {"b": 3}]})).as_deref(),
            Some(".a[1].b")
        );
        assert_eq!(first_difference(&json!({"a": 1}), &json!({"a": 1, "c": 2})).as_deref(), Some(".c"));
        assert_eq!(first_difference(&json!("x"), &json!("y")).as_deref(), Some("<root>"));
    }
}
