//! Schemas of k8s-openapi's types that custom resources embed (feature
//! `k8s-openapi`), and [`CrdManifest::into_k8s`].
//!
//! The schemas are the ones controller-gen writes for the same Go types,
//! so a CRD built from Rust matches one built from Go.

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{MicroTime, ObjectMeta, Time};
use k8s_openapi::apimachinery::pkg::runtime::RawExtension;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use serde_json::Value;

use super::impls::schema_of;
use super::{CrdManifest, CustomResourceSchema, Schema, SchemaGenerator, int_or_string, object_meta};

/// controller-gen's pattern for `resource.Quantity`.
pub(crate) const QUANTITY_PATTERN: &str = r"^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$";

impl CustomResourceSchema for ObjectMeta {
    fn schema(_: &mut SchemaGenerator) -> Schema {
        object_meta()
    }
}

impl CustomResourceSchema for IntOrString {
    fn schema(_: &mut SchemaGenerator) -> Schema {
        int_or_string()
    }
}

impl CustomResourceSchema for Quantity {
    fn schema(_: &mut SchemaGenerator) -> Schema {
        let mut schema = int_or_string();
        schema.insert("pattern".to_owned(), Value::from(QUANTITY_PATTERN));
        schema
    }
}

impl CustomResourceSchema for Time {
    fn schema(_: &mut SchemaGenerator) -> Schema {
        schema_of([("type", Value::from("string")), ("format", Value::from("date-time"))])
    }
}

impl CustomResourceSchema for MicroTime {
    fn schema(_: &mut SchemaGenerator) -> Schema {
        schema_of([("type", Value::from("string")), ("format", Value::from("date-time"))])
    }
}

// An embedded object of any kind: kept as it is.
impl CustomResourceSchema for RawExtension {
    fn schema(_: &mut SchemaGenerator) -> Schema {
        schema_of([("type", Value::from("object")), ("x-kubernetes-preserve-unknown-fields", Value::Bool(true))])
    }
}

/// A [`CrdManifest`] that k8s-openapi's `CustomResourceDefinition` cannot
/// hold (a schema keyword of the wrong JSON type, e.g. from a
/// `schema_with` function).
#[derive(Debug, thiserror::Error)]
#[error("CRD {name} does not convert to k8s-openapi's CustomResourceDefinition: at {path}: {message}")]
pub struct IntoK8sError {
    /// `metadata.name` of the CRD.
    pub name: String,
    /// Where in the manifest the conversion failed (`spec.versions[0]...`).
    pub path: String,
    /// What is wrong there.
    pub message: String,
}

impl CrdManifest {
    /// This CRD as k8s-openapi's `CustomResourceDefinition` (through its
    /// JSON form), e.g. to create it with kube.
    ///
    /// # Errors
    ///
    /// When the manifest holds something k8s-openapi's types cannot (see
    /// [`IntoK8sError`]); a CRD built by the derive always converts.
    pub fn into_k8s(self) -> Result<CustomResourceDefinition, IntoK8sError> {
        let name = self.metadata.name.clone();
        serde_path_to_error::deserialize(self.to_value()).map_err(|error| IntoK8sError {
            name,
            path: error.path().to_string(),
            message: error.inner().to_string(),
        })
    }
}
