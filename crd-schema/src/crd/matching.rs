//! Which CRD, and which of its versions, takes an object: the API server
//! routes an object by the group and version of its `apiVersion` and by
//! its `kind`, and has an endpoint only for served versions. `crd prune`,
//! `crd validate` and any Rust caller use this one lookup.

use super::{CustomResourceDefinition, VersionError};

/// Why no given CRD takes an object ([`find_served`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MatchError {
    /// No CRD has the object's group and kind.
    #[error("no CRD given for kind {kind:?} in group {group:?} (apiVersion {api_version:?})")]
    NoCrd {
        /// The group (`""` for the core group).
        group: String,
        /// The kind.
        kind: String,
        /// The `apiVersion` asked for, `group/version`.
        api_version: String,
    },
    /// The CRD of that group and kind does not serve the version.
    #[error("CRD {crd} {error}")]
    Version {
        /// `metadata.name` of the CRD.
        crd: String,
        /// Why the version is not served.
        error: VersionError,
    },
}

/// A CRD that takes an object: its index among the CRDs given and the index
/// of the version in its `spec.versions`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Served {
    /// The index of the CRD in the slice given to [`find_served`].
    pub crd: usize,
    /// The index of the version in that CRD's `spec.versions`.
    pub version: usize,
}

/// The CRD of `crds` whose group and kind are those of an object with
/// `api_version` (`group/version`, or `version` for the core group) and
/// `kind`, and its served version of that name.
///
/// ```
/// use crd_schema::crd::{CustomResourceDefinition, MatchError, find_served};
/// use serde_json::json;
///
/// let crd = CustomResourceDefinition::from_manifest(&json!({
///     "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
///     "metadata": {"name": "widgets.example.com"},
///     "spec": {"group": "example.com", "scope": "Namespaced",
///              "names": {"kind": "Widget", "plural": "widgets"},
///              "versions": [{"name": "v1", "served": true, "storage": true},
///                           {"name": "v2", "served": false, "storage": false}]}}))
/// .unwrap();
/// let crds = [crd];
/// assert_eq!(find_served(&crds, "example.com/v1", "Widget").map(|s| s.version), Ok(0));
/// let refused = find_served(&crds, "example.com/v2", "Widget").unwrap_err();
/// assert_eq!(refused.to_string(), "CRD widgets.example.com does not serve version \"v2\" (served: v1)");
/// assert!(matches!(find_served(&crds, "example.com/v1", "Gadget"), Err(MatchError::NoCrd { .. })));
/// ```
pub fn find_served(crds: &[CustomResourceDefinition], api_version: &str, kind: &str) -> Result<Served, MatchError> {
    let (group, version) = split_api_version(api_version);
    let Some(index) = crds.iter().position(|c| c.spec.defines(group, kind)) else {
        return Err(MatchError::NoCrd {
            group: group.to_owned(),
            kind: kind.to_owned(),
            api_version: api_version.to_owned(),
        });
    };
    let crd = &crds[index];
    match crd.spec.served_version(version) {
        Ok(version) => Ok(Served { crd: index, version }),
        Err(error) => Err(MatchError::Version { crd: crd.metadata.name.clone(), error }),
    }
}

/// The group and version of an `apiVersion`: `example.com/v1` is
/// (`example.com`, `v1`), the core group's `v1` is (``, `v1`).
pub fn split_api_version(api_version: &str) -> (&str, &str) {
    api_version.rsplit_once('/').unwrap_or(("", api_version))
}
