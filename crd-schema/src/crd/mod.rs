//! CustomResourceDefinitions in Kubernetes' internal layout.
//!
//! Entry points: [`CustomResourceDefinition::from_manifest`] (a v1 or
//! v1beta1 manifest as JSON, defaulted and converted like the API server
//! does), [`CrdSpec::from_internal`] (the internal layout used by the
//! conformance data), and [`load`] (files and directories).
//!
//! Kubernetes validates CRDs in its internal representation, in which a v1
//! CRD whose versions all carry an identical schema has that schema hoisted
//! to a top-level `spec.validation` (and likewise subresources). Error paths
//! depend on it, so this model reproduces it.

mod load;
mod manifest;

pub use load::{
    Loaded, Skipped, load, load_with, manifest_files, parse_source, parse_source_with, read_documents,
    read_documents_with, read_file, read_file_with, source_documents, source_documents_with, source_text,
};

use serde_json::Value;

use crate::wire::{DecodeIssue, JSONSchemaProps};

/// `spec.validation` / `spec.versions[i].schema`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CustomResourceValidation {
    /// `openAPIV3Schema`, absent when `None`.
    pub open_api_v3_schema: Option<JSONSchemaProps>,
}

/// `subresources`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Subresources {
    /// Whether `status: {}` is present.
    pub status: bool,
    /// The `scale` subresource, as written.
    pub scale: Option<Value>,
}

/// One entry of `spec.versions`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CrdVersion {
    /// `name`
    pub name: String,
    /// `served`
    pub served: bool,
    /// `storage`
    pub storage: bool,
    /// `deprecated`
    pub deprecated: bool,
    /// `deprecationWarning`
    pub deprecation_warning: Option<String>,
    /// `schema` (`None` when hoisted or absent)
    pub schema: Option<CustomResourceValidation>,
    /// `subresources` (`None` when hoisted or absent)
    pub subresources: Option<Subresources>,
    /// `selectableFields`, as written
    pub selectable_fields: Option<Value>,
    /// `additionalPrinterColumns`, as written
    pub additional_printer_columns: Option<Value>,
}

/// `spec.names`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Names {
    /// `plural`
    pub plural: String,
    /// `singular`
    pub singular: String,
    /// `kind`
    pub kind: String,
    /// `listKind`
    pub list_kind: String,
    /// `shortNames`
    pub short_names: Vec<String>,
    /// `categories`
    pub categories: Vec<String>,
}

/// A CRD `spec` in the internal layout.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CrdSpec {
    /// `group`
    pub group: String,
    /// `names`
    pub names: Names,
    /// `scope`
    pub scope: String,
    /// Top-level (hoisted) `validation`.
    pub validation: Option<CustomResourceValidation>,
    /// Top-level (hoisted) `subresources`.
    pub subresources: Option<Subresources>,
    /// `versions`
    pub versions: Vec<CrdVersion>,
    /// `preserveUnknownFields`
    pub preserve_unknown_fields: Option<bool>,
}

/// A whole CRD as read from a manifest.
#[derive(Clone, Debug, PartialEq)]
pub struct CustomResourceDefinition {
    /// `apiVersion` as written (`apiextensions.k8s.io/v1` or `.../v1beta1`).
    pub api_version: String,
    /// `metadata.name`
    pub name: String,
    /// The spec, defaulted and in the internal layout.
    pub spec: CrdSpec,
    /// Problems met while decoding (wrong types, unknown fields), with paths
    /// relative to the manifest.
    pub decode_issues: Vec<DecodeIssue>,
}

impl CrdSpec {
    /// The schema that applies to version `i` (its own or the hoisted one).
    pub fn version_schema(&self, i: usize) -> Option<&JSONSchemaProps> {
        let own = self.versions.get(i).and_then(|v| v.schema.as_ref());
        own.or(self.validation.as_ref()).and_then(|v| v.open_api_v3_schema.as_ref())
    }

    /// Whether version `i` has the status subresource (its own or the
    /// hoisted one).
    pub fn version_has_status(&self, i: usize) -> bool {
        let own = self.versions.get(i).and_then(|v| v.subresources.as_ref());
        own.or(self.subresources.as_ref()).is_some_and(|s| s.status)
    }

    /// Reads a spec written in the internal layout (the conformance data's
    /// `crd.spec`). Decoding problems are returned beside the spec.
    pub fn from_internal(spec: &Value) -> (Self, Vec<DecodeIssue>) {
        manifest::internal_spec(spec)
    }
}

impl CustomResourceDefinition {
    /// Reads a v1 or v1beta1 CRD manifest, applies the API server's
    /// defaulting for that version and converts it to the internal layout.
    /// Returns `None` when the document is not a CRD at all.
    pub fn from_manifest(doc: &Value) -> Option<Self> {
        manifest::from_manifest(doc)
    }
}
