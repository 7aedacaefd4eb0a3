//! Generated code kept in the repository and regenerated from an xtask
//! (`cargo xtask gen`): a file is written only when its content changed,
//! and a check mode fails with a readable unified diff when the file is
//! stale, so CI can tell that someone forgot to regenerate.
//!
//! [`write_if_changed`] and [`check_fresh`] work on any text (a derived
//! CRD manifest, say); [`Builder::write`](crate::Builder::write) and
//! [`Builder::check`](crate::Builder::check) apply them to the generator's
//! output.

use std::path::Path;

use crate::error::{Error, Result};

/// Writes `text` to `path` unless the file already holds exactly that;
/// returns whether it wrote.
pub fn write_if_changed(path: &Path, text: &str) -> Result<bool> {
    if std::fs::read(path).is_ok_and(|old| old == text.as_bytes()) {
        return Ok(false);
    }
    std::fs::write(path, text).map_err(|source| Error::Io { path: path.to_owned(), source })?;
    Ok(true)
}

/// Succeeds when `path` holds exactly `text`; otherwise [`Error::Stale`]
/// with a unified diff from the file (absent: empty) to `text`.
pub fn check_fresh(path: &Path, text: &str) -> Result<()> {
    let old = std::fs::read_to_string(path).unwrap_or_default();
    if old == text {
        return Ok(());
    }
    let shown = path.display().to_string();
    let diff = similar::TextDiff::from_lines(old.as_str(), text)
        .unified_diff()
        .context_radius(3)
        .header(&shown, &format!("{shown} (regenerated)"))
        .to_string();
    Err(Error::Stale { path: path.to_owned(), diff })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scratch directory, removed when the guard drops, and the path of
    /// an output file in it.
    fn scratch(name: &str) -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::Builder::new().prefix(&format!("crd-codegen-checked-in-{name}-")).tempdir().unwrap();
        let path = dir.path().join("out.rs");
        (dir, path)
    }

    #[test]
    fn files_are_written_only_when_they_change() {
        let (_dir, path) = scratch("write");
        assert!(write_if_changed(&path, "a\n").unwrap());
        assert!(!write_if_changed(&path, "a\n").unwrap());
        assert!(write_if_changed(&path, "b\n").unwrap());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "b\n");
    }

    #[test]
    fn stale_files_fail_with_a_unified_diff() {
        let (_dir, path) = scratch("check");
        std::fs::write(&path, "one\ntwo\nthree\n").unwrap();
        check_fresh(&path, "one\ntwo\nthree\n").unwrap();
        let err = check_fresh(&path, "one\n2\nthree\n").unwrap_err();
        let text = err.to_string();
        assert!(text.contains("is stale: regenerate it"), "{text}");
        assert!(text.contains("@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n"), "{text}");
        assert!(matches!(err, Error::Stale { .. }));
    }

    #[test]
    fn the_builder_writes_and_checks_its_output() {
        let (_dir, path) = scratch("builder");
        let crd = r#"{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "widgets.example.com"}, "spec": {"group": "example.com", "scope": "Namespaced",
            "names": {"kind": "Widget", "plural": "widgets"}, "versions": [{"name": "v1", "served": true,
            "storage": true, "schema": {"openAPIV3Schema": {"type": "object"}}}]}}"#;
        let mut builder = crate::Builder::new();
        builder.crd_source("widgets.json", crd);
        assert!(matches!(builder.check(&path), Err(Error::Stale { .. })), "a missing file is stale");
        assert!(builder.write(&path).unwrap());
        builder.check(&path).unwrap();
        assert!(!builder.write(&path).unwrap(), "unchanged content is not rewritten");
        let fresh = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, fresh.replace("pub struct Widget", "pub struct Gadget")).unwrap();
        let diff = builder.check(&path).unwrap_err().to_string();
        assert!(diff.contains("-    pub struct Gadget {") && diff.contains("+    pub struct Widget {"), "{diff}");
    }
}
