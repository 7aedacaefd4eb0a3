//! CustomResourceDefinitions in Kubernetes' internal layout.
//!
//! Entry points: [`CustomResourceDefinition::from_manifest`] (a v1 or
//! v1beta1 manifest as JSON, defaulted and converted like the API server
//! does), `CustomResourceDefinition::from(&CrdManifest)` (the same for a
//! manifest built in Rust, without JSON in between),
//! [`CustomResourceDefinition::from_object`] (converted only),
//! [`CrdSpec::from_internal`] (the internal layout used by the conformance
//! data), [`load`] (files and directories), [`find_served`] (the CRD and
//! version that take an object), and
//! [`CustomResourceDefinition::prepare_for_create`] /
//! [`CustomResourceDefinition::prepare_for_update`] (what the API server
//! does to a CRD before validating a create or an update).
//!
//! Kubernetes validates CRDs in its internal representation, in which a v1
//! CRD whose versions all carry an identical schema has that schema hoisted
//! to a top-level `spec.validation` (and likewise subresources, printer
//! columns and selectable fields). Error paths depend on it, so this model
//! reproduces it.

mod load;
mod manifest;
mod matching;
mod read;
mod strategy;
mod version;
mod write;

pub use matching::{MatchError, Served, find_served, split_api_version};

// The parts of a CRD the manifest writer shares with this model, defined
// once beside the writer (always compiled).
pub use crate::schema::{Names, PrinterColumn, Scale, SelectableField, Subresources};

pub use load::{
    Loaded, Skipped, flatten_lists, is_list, load, load_with, manifest_files, parse_source, parse_source_with,
    read_documents, read_documents_with, read_file, read_file_with, source_documents, source_documents_with,
    source_string, source_text,
};

use serde_json::Value;

use crate::objectmeta::ObjectMeta;
use crate::schema::CrdManifest;
use crate::wire::{DecodeIssue, JSONSchemaProps};

/// Why [`CrdSpec::served_version`] refused a version. The text follows the
/// CRD's name in messages (`CRD foos.example.com has no version "v2"
/// (served: v1)`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VersionError {
    /// The CRD lists the version but does not serve it.
    #[error("does not serve version {version:?} (served: {served})")]
    NotServed {
        /// The version asked for.
        version: String,
        /// The served versions (`v1, v2`, or `none`).
        served: String,
    },
    /// The CRD has no version of that name.
    #[error("has no version {version:?} (served: {served})")]
    Unknown {
        /// The version asked for.
        version: String,
        /// The served versions (`v1, v2`, or `none`).
        served: String,
    },
}

/// `spec.validation` / `spec.versions[i].schema`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CustomResourceValidation {
    /// `openAPIV3Schema`, absent when `None`.
    pub open_api_v3_schema: Option<JSONSchemaProps>,
}

/// `spec.conversion` in the internal layout: v1's `webhook.clientConfig`
/// and `webhook.conversionReviewVersions` are `webhookClientConfig` and
/// `conversionReviewVersions` here.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Conversion {
    /// `strategy` (`None` or `Webhook`)
    pub strategy: String,
    /// `webhookClientConfig`
    pub webhook_client_config: Option<WebhookClientConfig>,
    /// `conversionReviewVersions`
    pub conversion_review_versions: Vec<String>,
}

/// How the API server reaches a conversion webhook.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WebhookClientConfig {
    /// `url`
    pub url: Option<String>,
    /// `service`
    pub service: Option<ServiceReference>,
    /// `caBundle`, decoded from base64.
    pub ca_bundle: Vec<u8>,
}

/// `webhookClientConfig.service`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ServiceReference {
    /// `namespace`
    pub namespace: String,
    /// `name`
    pub name: String,
    /// `path`
    pub path: Option<String>,
    /// `port` (0 when absent and not defaulted).
    pub port: i32,
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
    /// `additionalPrinterColumns` (empty when hoisted or absent)
    pub additional_printer_columns: Vec<PrinterColumn>,
    /// `selectableFields` (empty when hoisted or absent)
    pub selectable_fields: Vec<SelectableField>,
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
    /// `version`: v1beta1's single version; from v1, the first version's
    /// name.
    pub version: String,
    /// Top-level (hoisted) `validation`.
    pub validation: Option<CustomResourceValidation>,
    /// Top-level (hoisted) `subresources`.
    pub subresources: Option<Subresources>,
    /// `versions`
    pub versions: Vec<CrdVersion>,
    /// Top-level (hoisted) `additionalPrinterColumns`.
    pub additional_printer_columns: Vec<PrinterColumn>,
    /// Top-level (hoisted) `selectableFields`.
    pub selectable_fields: Vec<SelectableField>,
    /// `conversion`
    pub conversion: Option<Conversion>,
    /// `preserveUnknownFields`
    pub preserve_unknown_fields: Option<bool>,
}

/// `status`: what the API server records about a CRD.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CrdStatus {
    /// `conditions`
    pub conditions: Vec<CrdCondition>,
    /// `acceptedNames`
    pub accepted_names: Names,
    /// `storedVersions`; `None` when absent, which differs from `[]` in
    /// error values (`null` against `[]`).
    pub stored_versions: Option<Vec<String>>,
}

/// One entry of `status.conditions`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CrdCondition {
    /// `type` (`Established`, `NamesAccepted`, ...)
    pub type_: String,
    /// `status` (`True`, `False`, `Unknown`)
    pub status: String,
    /// `reason`
    pub reason: String,
    /// `message`
    pub message: String,
}

/// A whole CRD as read from a manifest.
#[derive(Clone, Debug, PartialEq)]
pub struct CustomResourceDefinition {
    /// `apiVersion` as written (`apiextensions.k8s.io/v1` or `.../v1beta1`).
    pub api_version: String,
    /// `metadata` (its `name` is the CRD's name).
    pub metadata: ObjectMeta,
    /// The spec in the internal layout ([`from_manifest`] defaults it).
    ///
    /// [`from_manifest`]: CustomResourceDefinition::from_manifest
    pub spec: CrdSpec,
    /// `status`
    pub status: CrdStatus,
    /// Problems met while decoding (wrong types, unknown fields), with paths
    /// relative to the manifest.
    pub decode_issues: Vec<DecodeIssue>,
}

impl CrdSpec {
    /// The `validation` block that applies to the version named `name`, as
    /// the API server looks it up (`GetSchemaForVersion`): the top-level
    /// one when no version has its own (whatever the name), else that
    /// version's own (`Some(None)` when it has none). `None` when the spec
    /// has both kinds or no version of that name.
    pub fn validation_for_version(&self, name: &str) -> Option<Option<&CustomResourceValidation>> {
        if self.versions.iter().all(|v| v.schema.is_none()) {
            return Some(self.validation.as_ref());
        }
        if self.validation.is_some() {
            return None;
        }
        self.versions.iter().find(|v| v.name == name).map(|v| v.schema.as_ref())
    }

    /// The schema that applies to version `i`, looked up by its name as
    /// [`Self::validation_for_version`] does (the one schema lookup);
    /// `None` when there is none, or when the spec has both a top-level
    /// and per-version schemas, which the API server refuses.
    pub fn version_schema(&self, i: usize) -> Option<&JSONSchemaProps> {
        let name = &self.versions.get(i)?.name;
        self.validation_for_version(name).flatten()?.open_api_v3_schema.as_ref()
    }

    /// The subresources that apply to the version named `name`, as the API
    /// server looks them up (`GetSubresourcesForVersion`): the top-level
    /// ones when no version has its own, else that version's own (none when
    /// it has none or there is no version of that name). The one lookup
    /// for validation, generation, object validation and OpenAPI.
    pub fn subresources_for_version(&self, name: &str) -> Option<&Subresources> {
        if self.versions.iter().all(|v| v.subresources.is_none()) {
            return self.subresources.as_ref();
        }
        self.versions.iter().find(|v| v.name == name).and_then(|v| v.subresources.as_ref())
    }

    /// The printer columns of the version named `name`, as the API server
    /// looks them up (`GetColumnsForVersion`): the top-level ones when no
    /// version has its own, else that version's own.
    pub fn printer_columns_for_version(&self, name: &str) -> &[PrinterColumn] {
        if self.versions.iter().all(|v| v.additional_printer_columns.is_empty()) {
            return &self.additional_printer_columns;
        }
        self.versions.iter().find(|v| v.name == name).map_or(&[], |v| v.additional_printer_columns.as_slice())
    }

    /// The selectable fields of the version named `name`, as the API server
    /// looks them up (`GetSelectableFieldsForVersion`): the top-level ones
    /// when no version has its own, else that version's own.
    pub fn selectable_fields_for_version(&self, name: &str) -> &[SelectableField] {
        if self.versions.iter().all(|v| v.selectable_fields.is_empty()) {
            return &self.selectable_fields;
        }
        self.versions.iter().find(|v| v.name == name).map_or(&[], |v| v.selectable_fields.as_slice())
    }

    /// The names of the served versions, in `spec.versions` order.
    pub fn served_versions(&self) -> impl Iterator<Item = &str> {
        self.versions.iter().filter(|v| v.served).map(|v| v.name.as_str())
    }

    /// The version clients prefer, as discovery lists it first: the served
    /// version that sorts first by Kubernetes' version priority (GA before
    /// beta before alpha, higher numbers first, then other names
    /// alphabetically). `None` when no version is served.
    pub fn preferred_version(&self) -> Option<&str> {
        self.served_versions().min_by(|a, b| version::priority_order(a, b))
    }

    /// The served version clients prefer least: the last by the order of
    /// [`Self::preferred_version`] (alpha after beta after GA, lower
    /// numbers later). `None` when no version is served.
    pub fn oldest_served_version(&self) -> Option<&str> {
        self.served_versions().max_by(|a, b| version::priority_order(a, b))
    }

    /// The storage version: the first version marked `storage`, as the API
    /// server finds it (`GetCRDStorageVersion`). `None` when there is none,
    /// which validation refuses.
    pub fn storage_version(&self) -> Option<&str> {
        self.versions.iter().find(|v| v.storage).map(|v| v.name.as_str())
    }

    /// Whether this CRD defines the objects of `group` and `kind`.
    pub fn defines(&self, group: &str, kind: &str) -> bool {
        self.group == group && self.names.kind == kind
    }

    /// The index of version `name` in `spec.versions` when the API server
    /// serves it: an object of any other version is refused, as the server
    /// has no endpoint for it. The error (to follow the CRD's name) says
    /// which versions are served.
    pub fn served_version(&self, name: &str) -> Result<usize, VersionError> {
        let served = version_list(self.served_versions());
        let version = name.to_owned();
        match self.versions.iter().position(|v| v.name == name) {
            Some(i) if self.versions[i].served => Ok(i),
            Some(_) => Err(VersionError::NotServed { version, served }),
            None => Err(VersionError::Unknown { version, served }),
        }
    }

    /// Every version that one of `specs` serves, sorted and listed as
    /// errors name them (`v1, v1beta1`, or `none`).
    pub fn served_by_any<'a>(specs: impl IntoIterator<Item = &'a CrdSpec>) -> String {
        let served: std::collections::BTreeSet<&str> = specs.into_iter().flat_map(CrdSpec::served_versions).collect();
        version_list(served)
    }

    /// Reads a spec written in the internal layout (the conformance data's
    /// `crd.spec`). Decoding problems are returned beside the spec.
    pub fn from_internal(spec: &Value) -> (Self, Vec<DecodeIssue>) {
        manifest::internal_spec(spec)
    }
}

/// A CRD built in Rust (the derive's [`CrdManifest`]), taken as
/// [`CustomResourceDefinition::from_manifest`] takes its v1 JSON, without
/// writing it: defaulted and converted to the internal layout, each
/// version's schema decoded (its problems in `decode_issues`, at their
/// manifest paths). The manifest is read as v1 whatever its `apiVersion`.
impl From<&CrdManifest> for CustomResourceDefinition {
    fn from(manifest: &CrdManifest) -> Self {
        manifest::from_written(manifest)
    }
}

impl CustomResourceDefinition {
    /// Reads a v1 or v1beta1 CRD manifest, applies the API server's
    /// defaulting for that version and converts it to the internal layout.
    /// Returns `None` when the document is not a CRD at all.
    pub fn from_manifest(doc: &Value) -> Option<Self> {
        manifest::from_manifest(doc)
    }

    /// Reads a v1 or v1beta1 CRD object into the internal layout without
    /// defaulting it, as the API server's validation tests build CRDs:
    /// what is absent stays absent (a webhook service without a port has
    /// port 0, v1beta1's unset `preserveUnknownFields` stays unset, no
    /// `status.storedVersions` is filled in). Returns `None` when the
    /// document is not a CRD at all.
    pub fn from_object(doc: &Value) -> Option<Self> {
        manifest::from_object(doc)
    }

    /// Whether the condition `Established` is `True`.
    pub fn is_established(&self) -> bool {
        self.status.conditions.iter().any(|c| c.type_ == "Established" && c.status == "True")
    }
}

// Version names as errors list them: comma-separated, `none` for none.
fn version_list<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    let names: Vec<&str> = names.into_iter().collect();
    if names.is_empty() { "none".to_owned() } else { names.join(", ") }
}
