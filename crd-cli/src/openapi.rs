//! `crd openapi`: the OpenAPI document the API server publishes for the
//! CRDs of one group-version.
//!
//! The CRDs come from `--crd` files and directories (bare paths are CRD
//! paths too). The group is theirs; when they span several groups,
//! `--group` picks one. The version is `--version`, or the preferred
//! served version of the group's first CRD (Kubernetes' version priority).
//! The document is OpenAPI 3.0 as `/openapi/v3/apis/<group>/<version>`
//! serves it, or Swagger 2.0 with `--v2`; pretty JSON on stdout or in the
//! `-o` file. Exit 0 on success, 2 when the tool could not run.

use std::io::Write;
use std::path::PathBuf;

use crd_schema::crd::{CrdSpec, CustomResourceDefinition, VersionError};
use crd_schema::openapi::{Format, document};

/// The checked command line of `crd openapi` (see `args::OpenapiArgs`).
#[derive(Debug)]
pub struct Args {
    /// The CRD files or directories (`--crd` and bare paths).
    pub crds: Vec<PathBuf>,
    /// `--version`
    pub version: Option<String>,
    /// `--group`
    pub group: Option<String>,
    /// `--v2`
    pub v2: bool,
    /// `-o FILE`
    pub output: Option<PathBuf>,
}

/// Runs `crd openapi`; returns the exit code. Failures are written to
/// `err` and give exit code 2.
pub fn command(args: &Args, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    match run(args, out, err) {
        Ok(()) => 0,
        Err(message) => {
            // Nothing useful is left to do when stderr itself fails.
            let _ = writeln!(err, "error: {message}");
            2
        }
    }
}

fn run(args: &Args, out: &mut dyn Write, err: &mut dyn Write) -> Result<(), String> {
    let crds = super::load_crds(&args.crds)?;
    let crds = of_group(crds, args.group.as_deref())?;
    let version = match &args.version {
        Some(v) => check_version(&crds, v)?,
        None => crds.iter().find_map(|c| c.spec.preferred_version()).ok_or_else(|| none_served(&crds))?.to_owned(),
    };
    for crd in &crds {
        if crd.spec.served_version(&version).is_err() {
            writeln!(err, "note: {} does not serve version {version}; left out", crd.metadata.name)
                .map_err(|e| e.to_string())?;
        }
    }
    let specs: Vec<_> = crds.into_iter().map(|c| c.spec).collect();
    let format = if args.v2 { Format::V2 } else { Format::V3 };
    let doc = document(&specs, &version, format).map_err(|e| e.to_string())?;
    let mut text = serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?;
    text.push('\n');
    match &args.output {
        Some(path) => std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display())),
        None => out.write_all(text.as_bytes()).map_err(|e| e.to_string()),
    }
}

/// The error when no CRD of the group serves a version: it names the
/// field of each CRD that says so.
fn none_served(crds: &[CustomResourceDefinition]) -> String {
    let group = crds.first().map_or("", |c| c.spec.group.as_str());
    let fields: Vec<String> = crds.iter().map(|c| format!("{} spec.versions", c.metadata.name)).collect();
    format!("no CRD of group {group} serves any version (no `served: true` in {})", fields.join(", "))
}

/// The CRDs of `group`, or of the only group there is.
fn of_group(crds: Vec<CustomResourceDefinition>, group: Option<&str>) -> Result<Vec<CustomResourceDefinition>, String> {
    let mut groups: Vec<&str> = Vec::new();
    for crd in &crds {
        if !groups.contains(&crd.spec.group.as_str()) {
            groups.push(&crd.spec.group);
        }
    }
    let listed = groups.join(", ");
    let group = match group {
        Some(g) if groups.contains(&g) => g.to_owned(),
        Some(g) => return Err(format!("no CRD of group {g} among the given CRDs (groups: {listed})")),
        None if groups.len() > 1 => {
            return Err(format!("the CRDs span several groups ({listed}); choose one with --group"));
        }
        None => groups.first().map(|g| (*g).to_owned()).unwrap_or_default(),
    };
    Ok(crds.into_iter().filter(|c| c.spec.group == group).collect())
}

/// `version` when some CRD of the group serves it; otherwise an error
/// that lists the served versions.
fn check_version(crds: &[CustomResourceDefinition], version: &str) -> Result<String, String> {
    let found: Vec<_> = crds.iter().map(|c| c.spec.served_version(version)).collect();
    if found.iter().any(Result::is_ok) {
        return Ok(version.to_owned());
    }
    let served = CrdSpec::served_by_any(crds.iter().map(|c| &c.spec));
    let group = crds.first().map_or("", |c| c.spec.group.as_str());
    if found.iter().any(|f| matches!(f, Err(VersionError::NotServed { .. }))) {
        Err(format!("version {version} of group {group} is not served (served versions: {served})"))
    } else {
        Err(format!("no CRD of group {group} has version {version} (served versions: {served})"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_served_version_names_the_field() {
        let manifest = serde_json::json!({
            "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "widgets.example.com"},
            "spec": {"group": "example.com", "scope": "Namespaced", "names": {"plural": "widgets", "kind": "Widget"},
                "versions": [{"name": "v1", "served": false, "storage": true}]}
        });
        let crd = CustomResourceDefinition::from_manifest(&manifest).unwrap();
        assert_eq!(
            none_served(&[crd]),
            "no CRD of group example.com serves any version (no `served: true` in widgets.example.com spec.versions)"
        );
    }
}
