//! Kubernetes' version priority (apimachinery `pkg/version`,
//! `CompareKubeAwareVersionStrings`): the order in which discovery lists a
//! group's versions, whose first served one is the preferred version
//! ([`super::CrdSpec::preferred_version`]).

use std::cmp::Ordering;

/// `CompareKubeAwareVersionStrings` as an ordering where the preferred
/// version comes first: `v10, v2, v1, v11beta2, v10beta3, v3beta1,
/// v12alpha1, v11alpha2, foo1, foo10`.
pub(super) fn priority_order(a: &str, b: &str) -> Ordering {
    match (kube_version(a), kube_version(b)) {
        // Stability first (GA 2, beta 1, alpha 0), then major, then minor,
        // each highest first.
        (Some(x), Some(y)) => y.cmp(&x),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => a.cmp(b),
    }
}

/// `v<major>[(alpha|beta)<minor>]` as (stability, major, minor); `None`
/// for other names.
fn kube_version(name: &str) -> Option<(u8, u64, u64)> {
    let rest = name.strip_prefix('v')?;
    let split = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
    let (major, rest) = rest.split_at(split);
    let major = major.parse().ok()?;
    if rest.is_empty() {
        return Some((2, major, 0));
    }
    let (stability, minor) =
        if let Some(m) = rest.strip_prefix("beta") { (1, m) } else { (0, rest.strip_prefix("alpha")?) };
    if minor.is_empty() || !minor.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((stability, major, minor.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crd::{CrdSpec, CrdVersion};

    #[test]
    fn versions_sort_by_kubernetes_priority() {
        let mut names =
            ["foo10", "v1", "v11alpha2", "v10beta3", "v2", "foo1", "v3beta1", "v12alpha1", "v10", "v11beta2"];
        names.sort_by(|a, b| priority_order(a, b));
        assert_eq!(
            names,
            ["v10", "v2", "v1", "v11beta2", "v10beta3", "v3beta1", "v12alpha1", "v11alpha2", "foo1", "foo10"]
        );
        assert_eq!(kube_version("v1alpha"), None);
        assert_eq!(kube_version("vbeta1"), None);
    }

    #[test]
    fn the_preferred_version_is_the_first_served_by_priority() {
        let version = |name: &str, served: bool, storage: bool| CrdVersion {
            name: name.to_owned(),
            served,
            storage,
            ..CrdVersion::default()
        };
        let spec = CrdSpec {
            versions: vec![version("v1beta1", true, true), version("v2", false, false), version("v1", true, false)],
            ..CrdSpec::default()
        };
        assert_eq!(spec.preferred_version(), Some("v1"));
        assert_eq!(spec.storage_version(), Some("v1beta1"));
        assert_eq!(CrdSpec::default().preferred_version(), None);
        assert_eq!(CrdSpec::default().storage_version(), None);
    }
}
