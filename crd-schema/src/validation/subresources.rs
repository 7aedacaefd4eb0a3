//! The subresources of a CRD (`spec.subresources` or a version's), as Go's
//! `ValidateCustomResourceDefinitionSubresources`: only the `scale` paths
//! are checked. Also the "simple JSON path" check that printer columns
//! share.
//!
//! The path names `scale.specReplicasPath` and friends are one element
//! each, as Kubernetes builds them.

use crate::crd::Subresources;
use crate::field::{ErrorList, FieldError, Path};

/// The errors of `subresources` at `path` (nothing when absent).
pub(super) fn validate_subresources(subresources: Option<&Subresources>, path: &Path) -> ErrorList {
    let Some(scale) = subresources.and_then(|s| s.scale.as_ref()) else { return ErrorList::new() };
    let mut errors = ErrorList::new();
    errors.extend(replicas_path(&scale.spec_replicas_path, &path.child("scale.specReplicasPath"), "spec"));
    errors.extend(replicas_path(&scale.status_replicas_path, &path.child("scale.statusReplicasPath"), "status"));
    // A label selector path, when set, is under `.spec` or `.status`.
    if let Some(selector) = scale.label_selector_path.as_deref().filter(|p| !p.is_empty()) {
        let at = path.child("scale.labelSelectorPath");
        errors.extend(simple_json_path(selector, &at).or_else(|| {
            (!selector.starts_with(".spec.") && !selector.starts_with(".status."))
                .then(|| FieldError::invalid(&at, selector, "should be a json path under either .spec or .status"))
        }));
    }
    errors
}

// A replicas path is required, a simple JSON path, and under `.<under>.`.
fn replicas_path(value: &str, path: &Path, under: &str) -> Option<FieldError> {
    if value.is_empty() {
        return Some(FieldError::required(path, ""));
    }
    simple_json_path(value, path).or_else(|| {
        let prefix = format!(".{under}.");
        (!value.starts_with(&prefix))
            .then(|| FieldError::invalid(path, value, format!("should be a json path under .{under}")))
    })
}

/// Go's `validateSimpleJSONPath`: a non-empty path starting with `.`
/// (its third rule, at least one dot-separated part, always holds).
pub(super) fn simple_json_path(value: &str, path: &Path) -> Option<FieldError> {
    if value.is_empty() {
        Some(FieldError::invalid(path, value, "must not be empty"))
    } else if !value.starts_with('.') {
        Some(FieldError::invalid(path, value, "must be a simple json path starting with ."))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crd::Scale;

    fn texts(scale: Scale) -> Vec<String> {
        let subresources = Subresources { status: false, scale: Some(scale) };
        validate_subresources(Some(&subresources), &Path::new("spec").child("subresources"))
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn scale_paths() {
        assert_eq!(
            texts(Scale { label_selector_path: Some("x".into()), ..Scale::default() }),
            [
                "spec.subresources.scale.specReplicasPath: Required value",
                "spec.subresources.scale.statusReplicasPath: Required value",
                "spec.subresources.scale.labelSelectorPath: Invalid value: \"x\": must be a simple json path starting with .",
            ]
        );
        let scale = Scale {
            spec_replicas_path: ".status.r".into(),
            status_replicas_path: ".status.r".into(),
            label_selector_path: Some(String::new()),
        };
        assert_eq!(
            texts(scale),
            [
                "spec.subresources.scale.specReplicasPath: Invalid value: \".status.r\": should be a json path under .spec"
            ]
        );
    }
}
