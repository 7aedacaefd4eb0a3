//! What the API server does to a CRD between decoding and validating it
//! (`pkg/registry/customresourcedefinition/strategy.go` and the generic
//! store): the status is the server's, not the client's, and records the
//! storage version.

use super::CustomResourceDefinition;

impl CustomResourceDefinition {
    /// `PrepareForCreate`: the status is cleared and
    /// `status.storedVersions` holds the first storage version (nothing
    /// when no version is marked `storage`).
    pub fn prepare_for_create(&mut self) {
        self.status = self.status_for_create();
    }

    /// The status [`prepare_for_create`](Self::prepare_for_create) gives,
    /// without changing (or copying) the CRD.
    pub fn status_for_create(&self) -> super::CrdStatus {
        let stored_versions = self.spec.storage_version().map(|storage| vec![storage.to_owned()]);
        super::CrdStatus { stored_versions, ..super::CrdStatus::default() }
    }

    /// `PrepareForUpdate` from the stored `old`: the status stays `old`'s,
    /// with the first storage version appended to `storedVersions` when it
    /// is not there yet. A request without `metadata.resourceVersion` is an
    /// unconditional update, which takes the stored object's (so that
    /// validation finds one).
    pub fn prepare_for_update(&mut self, old: &CustomResourceDefinition) {
        self.status = old.status.clone();
        if let Some(storage) = self.spec.storage_version() {
            let stored = self.status.stored_versions.get_or_insert_with(Vec::new);
            if !stored.iter().any(|s| s == storage) {
                stored.push(storage.to_owned());
            }
        }
        if self.metadata.resource_version.is_empty() {
            self.metadata.resource_version.clone_from(&old.metadata.resource_version);
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn crd(versions: serde_json::Value, status: serde_json::Value) -> CustomResourceDefinition {
        let doc = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "foos.example.com"}, "spec": {"versions": versions}, "status": status});
        CustomResourceDefinition::from_object(&doc).unwrap()
    }

    #[test]
    fn create_records_the_storage_version_only() {
        let mut c = crd(json!([{"name": "v1"}, {"name": "v2", "storage": true}]), json!({"storedVersions": ["x"]}));
        c.prepare_for_create();
        assert_eq!(c.status.stored_versions, Some(vec!["v2".to_owned()]));
        let mut none = crd(json!([{"name": "v1"}]), json!({"storedVersions": ["v1"]}));
        none.prepare_for_create();
        assert_eq!(none.status.stored_versions, None);
    }

    #[test]
    fn update_keeps_the_old_status_and_adds_the_storage_version() {
        let old = crd(json!([{"name": "v1", "storage": true}]), json!({"storedVersions": ["v1"]}));
        let mut new = crd(json!([{"name": "v1"}, {"name": "v2", "storage": true}]), json!({}));
        new.prepare_for_update(&old);
        assert_eq!(new.status.stored_versions, Some(vec!["v1".to_owned(), "v2".to_owned()]));
    }
}
