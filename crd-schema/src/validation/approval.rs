//! The API approval of CRDs in Kubernetes' own groups, as Go's
//! `validateAPIApproval` with `apihelpers.GetAPIApprovalState`: a CRD in
//! `k8s.io`, `kubernetes.io` or a subdomain of either needs the annotation
//! `api-approved.kubernetes.io` holding the URL of the approving pull
//! request or a reason starting with `unapproved`.

use crate::crd::CustomResourceDefinition;
use crate::field::{FieldError, Path};
use crate::gourl as url;

/// The annotation that records the approval.
pub const API_APPROVAL_ANNOTATION: &str = "api-approved.kubernetes.io";

/// The state of a CRD's approval annotation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Set, but neither a URL nor `unapproved...`.
    Invalid,
    /// A URL with a scheme and a host.
    Approved,
    /// Starts with `unapproved`.
    Bypassed,
    /// Absent or empty.
    Missing,
}

fn is_protected_group(group: &str) -> bool {
    ["k8s.io", "kubernetes.io"].iter().any(|g| group == *g || group.strip_suffix(g).is_some_and(|p| p.ends_with('.')))
}

fn annotation(crd: &CustomResourceDefinition) -> &str {
    crd.metadata.annotations.get(API_APPROVAL_ANNOTATION).map_or("", String::as_str)
}

fn state(value: &str) -> State {
    if value.is_empty() {
        State::Missing
    } else if value.starts_with("unapproved") {
        State::Bypassed
    } else if url::parse_request_uri(value).is_ok_and(|u| !u.host.is_empty() && !u.scheme.is_empty()) {
        State::Approved
    } else {
        State::Invalid
    }
}

/// The approval error of `crd` (created, or updated from `old`): nothing
/// outside the protected groups, nothing on an update that leaves the
/// state as it was, else a missing or invalid annotation.
pub(super) fn validate_api_approval(
    crd: &CustomResourceDefinition,
    old: Option<&CustomResourceDefinition>,
) -> Option<FieldError> {
    if !is_protected_group(&crd.spec.group) {
        return None;
    }
    let value = annotation(crd);
    let new_state = state(value);
    if old.is_some_and(|old| state(annotation(old)) == new_state) {
        return None;
    }
    let path = Path::new("metadata").child("annotations").key(API_APPROVAL_ANNOTATION);
    let see = "see https://github.com/kubernetes/enhancements/pull/1111";
    match new_state {
        State::Approved | State::Bypassed => None,
        State::Missing => Some(FieldError::required(
            &path,
            format!("protected groups must have approval annotation \"{API_APPROVAL_ANNOTATION}\", {see}"),
        )),
        State::Invalid => Some(FieldError::invalid(
            &path,
            value,
            format!(
                "protected groups must have approval annotation \"{API_APPROVAL_ANNOTATION}\" with either a URL or \
                 a reason starting with \"unapproved\", {see}"
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn crd(group: &str, approval: Option<&str>) -> CustomResourceDefinition {
        let mut metadata = json!({"name": format!("things.{group}")});
        if let Some(a) = approval {
            metadata["annotations"] = json!({API_APPROVAL_ANNOTATION: a});
        }
        let doc = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": metadata, "spec": {"group": group}});
        CustomResourceDefinition::from_object(&doc).unwrap()
    }

    fn text(crd: &CustomResourceDefinition, old: Option<&CustomResourceDefinition>) -> Option<String> {
        validate_api_approval(crd, old).map(|e| e.to_string())
    }

    #[test]
    fn only_kubernetes_groups_need_approval() {
        assert_eq!(text(&crd("example.com", None), None), None);
        assert_eq!(text(&crd("notk8s.io", None), None), None);
        assert_eq!(text(&crd("x-k8s.io", None), None), None);
        assert_eq!(
            text(&crd("gateway.networking.k8s.io", None), None).as_deref(),
            Some(
                "metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval \
                 annotation \"api-approved.kubernetes.io\", see https://github.com/kubernetes/enhancements/pull/1111"
            )
        );
        assert_eq!(
            text(&crd("kubernetes.io", Some("https://github.com/kubernetes/enhancements/pull/1111")), None),
            None
        );
        assert_eq!(text(&crd("k8s.io", Some("unapproved, experimental")), None), None);
    }

    #[test]
    fn invalid_annotations_and_updates() {
        let invalid = crd("k8s.io", Some("yes"));
        let got = text(&invalid, None).unwrap_or_default();
        assert!(got.starts_with("metadata.annotations[api-approved.kubernetes.io]: Invalid value: \"yes\": protected"));
        // An update that keeps the state is accepted, one that changes it is not.
        assert_eq!(text(&invalid, Some(&crd("k8s.io", Some("no")))), None);
        assert!(text(&invalid, Some(&crd("k8s.io", None))).is_some());
        assert!(text(&crd("k8s.io", Some("example.com/pr")), None).is_some());
    }
}
