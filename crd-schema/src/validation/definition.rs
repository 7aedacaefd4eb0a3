//! A whole CRD, as Go's `ValidateCustomResourceDefinition` and
//! `ValidateCustomResourceDefinitionUpdate`: metadata, spec, status names,
//! stored versions, API approval, `preserveUnknownFields`.

use super::approval::validate_api_approval;
use super::conversion::ConversionOptions;
use super::crd::preserve_unknown_fields_true;
use super::spec::{SpecOptions, validate_spec, validate_spec_update};
use super::versions::validate_stored_versions;
use super::{ValidationOptions, names};
use crate::crd::{CrdStatus, CustomResourceDefinition};
use crate::field::{ErrorList, Path};
use crate::objectmeta::names::name_is_dns_subdomain;
use crate::objectmeta::{validate_object_meta, validate_object_meta_update};

/// Everything the API server reports about creating `crd`, in its order.
/// `crd` is validated as given; the server first clears the status and
/// records the storage version
/// ([`CustomResourceDefinition::prepare_for_create`]).
pub fn validate_crd_create(crd: &CustomResourceDefinition) -> ErrorList {
    create(crd, &crd.status)
}

/// [`validate_crd_create`] of `crd` as the server prepares it
/// ([`CustomResourceDefinition::prepare_for_create`]), without copying
/// it: what a create request of `crd` draws.
pub fn validate_crd_create_request(crd: &CustomResourceDefinition) -> ErrorList {
    create(crd, &crd.status_for_create())
}

// A create of `crd` with `status` in place of its own.
fn create(crd: &CustomResourceDefinition, status: &CrdStatus) -> ErrorList {
    let mut errors = metadata(crd);
    let options = SpecOptions {
        schema: ValidationOptions::for_create(),
        conversion: ConversionOptions::CREATE,
        require_immutable_names: false,
        old: None,
    };
    errors.extend(validate_spec(&crd.spec, &options));
    errors.extend(status_of(crd, status));
    errors.extend(validate_api_approval(crd, None));
    errors.extend(preserve_unknown_fields_true(&crd.spec, None));
    errors
}

/// Everything the API server reports about updating the stored `old` to
/// `crd`, in its order. `crd` is validated as given; the server first
/// takes over the stored status
/// ([`CustomResourceDefinition::prepare_for_update`]).
pub fn validate_crd_update(crd: &CustomResourceDefinition, old: &CustomResourceDefinition) -> ErrorList {
    let mut errors = validate_object_meta_update(&crd.metadata, &old.metadata, &Path::new("metadata"));
    let options = SpecOptions {
        schema: ValidationOptions::for_update(&crd.spec, &old.spec),
        conversion: ConversionOptions::for_update(old),
        require_immutable_names: old.is_established(),
        old: Some(&old.spec),
    };
    errors.extend(validate_spec_update(&crd.spec, &old.spec, &options));
    errors.extend(status_of(crd, &crd.status));
    errors.extend(validate_api_approval(crd, Some(old)));
    errors.extend(preserve_unknown_fields_true(&crd.spec, Some(&old.spec)));
    errors
}

// The ObjectMeta checks of a cluster-scoped object, whose name must be a
// DNS-1123 subdomain and `<plural>.<group>` (each message an error of its
// own; Kubernetes applies the second rule to `generateName` too).
fn metadata(crd: &CustomResourceDefinition) -> ErrorList {
    let required = format!("{}.{}", crd.spec.names.plural, crd.spec.group);
    let name_fn = |name: &str, prefix: bool| {
        let mut messages = name_is_dns_subdomain(name, prefix);
        if name != required {
            messages.push("must be spec.names.plural+\".\"+spec.group".to_owned());
        }
        messages
    };
    validate_object_meta(&crd.metadata, false, &name_fn, &Path::new("metadata"))
}

// The accepted names are checked like `spec.names` (none is required), and
// the stored versions against the spec's versions.
fn status_of(crd: &CustomResourceDefinition, status: &CrdStatus) -> ErrorList {
    let path = Path::new("status");
    let mut errors = names::validate_names(&status.accepted_names, &path.child("acceptedNames"));
    let stored = status.stored_versions.as_deref();
    errors.extend(validate_stored_versions(stored, &crd.spec.versions, &path.child("storedVersions")));
    errors
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn crd(metadata: serde_json::Value) -> CustomResourceDefinition {
        let doc = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": metadata, "spec": {"group": "example.com", "scope": "Namespaced",
              "names": {"plural": "things", "singular": "thing", "kind": "Thing", "listKind": "ThingList"},
              "versions": [{"name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": {"type": "object"}}}]},
            "status": {"storedVersions": ["v1"]}});
        CustomResourceDefinition::from_object(&doc).unwrap()
    }

    fn texts(errors: &ErrorList) -> Vec<String> {
        errors.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn a_request_is_validated_as_the_server_prepares_it() {
        // The client's status is replaced: its stored versions name a
        // version the spec lacks, which a create as given reports.
        let mut given = crd(json!({"name": "things.example.com"}));
        given.status.stored_versions = Some(vec!["v0".to_owned()]);
        assert!(!validate_crd_create(&given).is_empty());
        let mut prepared = given.clone();
        prepared.prepare_for_create();
        assert_eq!(prepared.status.stored_versions.as_deref(), Some(&["v1".to_owned()][..]));
        assert!(validate_crd_create(&prepared).is_empty());
        assert_eq!(texts(&validate_crd_create_request(&given)), texts(&validate_crd_create(&prepared)));
        // Without a storage version, nothing is recorded, as before.
        given.spec.versions[0].storage = false;
        let mut prepared = given.clone();
        prepared.prepare_for_create();
        assert_eq!(prepared.status.stored_versions, None);
        assert_eq!(texts(&validate_crd_create_request(&given)), texts(&validate_crd_create(&prepared)));
        assert!(!validate_crd_create_request(&given).is_empty(), "no storage version is an error");
    }

    #[test]
    fn the_name_is_plural_dot_group() {
        assert!(validate_crd_create(&crd(json!({"name": "things.example.com"}))).is_empty());
        assert_eq!(
            texts(&validate_crd_create(&crd(json!({"name": "Things.example.com"})))),
            [
                "metadata.name: Invalid value: \"Things.example.com\": a lowercase RFC 1123 subdomain must consist of \
                 lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric \
                 character (e.g. 'example.com', regex used for validation is \
                 '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
                "metadata.name: Invalid value: \"Things.example.com\": must be spec.names.plural+\".\"+spec.group",
            ]
        );
        assert_eq!(
            texts(&validate_crd_create(&crd(json!({})))),
            ["metadata.name: Required value: name or generateName is required"]
        );
    }

    #[test]
    fn an_update_needs_a_resource_version_and_keeps_the_name() {
        let old = crd(json!({"name": "things.example.com", "resourceVersion": "1"}));
        assert!(validate_crd_update(&old, &old).is_empty());
        let renamed = crd(json!({"name": "others.example.com"}));
        assert_eq!(
            texts(&validate_crd_update(&renamed, &old)),
            [
                "metadata.resourceVersion: Invalid value: \"\": must be specified for an update",
                "metadata.name: Invalid value: \"others.example.com\": field is immutable",
            ]
        );
    }
}
