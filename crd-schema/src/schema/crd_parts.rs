//! The parts of a CRD that the manifest writer ([`super::CrdManifest`]) and
//! the CRD reader (`crd::CustomResourceDefinition`, feature `engine`) share:
//! `spec.names`, a version's `subresources`, `additionalPrinterColumns` and
//! `selectableFields`. One definition each, so what the derive writes is
//! what the engine checks, with no trip through JSON in between.
//!
//! Fields are Go's: a string or number is empty when absent, and each type
//! serialises in the `apiextensions.k8s.io/v1` layout with the `omitempty`
//! of the v1 Go types (an empty `format`, a zero `priority` and empty
//! `shortNames` are left out; a set `status` subresource is `{}`).

use serde::{Serialize, Serializer};

/// `spec.names` (and `status.acceptedNames`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Names {
    /// `plural`
    pub plural: String,
    /// `singular`, omitted when empty
    #[serde(skip_serializing_if = "String::is_empty")]
    pub singular: String,
    /// `kind`
    pub kind: String,
    /// `listKind`, omitted when empty
    #[serde(skip_serializing_if = "String::is_empty")]
    pub list_kind: String,
    /// `shortNames`, omitted when empty
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub short_names: Vec<String>,
    /// `categories`, omitted when empty
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub categories: Vec<String>,
}

/// A version's `subresources`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Subresources {
    /// Whether the `status` subresource is on: `status: {}`, omitted when
    /// off.
    #[serde(skip_serializing_if = "std::ops::Not::not", serialize_with = "empty_object")]
    pub status: bool,
    /// `scale`, omitted when `None`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scale: Option<Scale>,
}

impl Subresources {
    /// Whether there are no subresources (a manifest then leaves the whole
    /// `subresources` out).
    pub fn is_empty(&self) -> bool {
        !self.status && self.scale.is_none()
    }
}

// `status` has no fields in v1: it is on or off.
fn empty_object<S: Serializer>(_: &bool, serializer: S) -> Result<S::Ok, S::Error> {
    serde::ser::SerializeMap::end(serializer.serialize_map(Some(0))?)
}

/// `subresources.scale`: where the replica counts and the label selector
/// are in a custom resource (`.spec.replicas`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Scale {
    /// `specReplicasPath`
    pub spec_replicas_path: String,
    /// `statusReplicasPath`
    pub status_replicas_path: String,
    /// `labelSelectorPath`, omitted when `None`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label_selector_path: Option<String>,
}

/// One `additionalPrinterColumns` entry (`jsonPath` in v1, `JSONPath` in
/// v1beta1 and the internal layout). Serialised in the order the derive
/// has always written: `name`, `type`, `jsonPath`, then the optional keys.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PrinterColumn {
    /// `name`
    pub name: String,
    /// `type`
    #[serde(rename = "type")]
    pub type_: String,
    /// `jsonPath`
    pub json_path: String,
    /// `description`, omitted when empty
    #[serde(skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// `format`, omitted when empty
    #[serde(skip_serializing_if = "String::is_empty")]
    pub format: String,
    /// `priority`, omitted when 0
    #[serde(skip_serializing_if = "is_zero")]
    pub priority: i32,
}

fn is_zero(n: &i32) -> bool {
    *n == 0
}

/// One `selectableFields` entry.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SelectableField {
    /// `jsonPath`
    pub json_path: String,
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn empty_values_are_omitted_as_go_omits_them() {
        let column =
            PrinterColumn { name: "Age".into(), type_: "date".into(), json_path: ".a".into(), ..Default::default() };
        assert_eq!(serde_json::to_value(&column).ok(), Some(json!({"name": "Age", "type": "date", "jsonPath": ".a"})));
        let names = Names { plural: "foos".into(), kind: "Foo".into(), ..Names::default() };
        assert_eq!(serde_json::to_value(&names).ok(), Some(json!({"plural": "foos", "kind": "Foo"})));
        let off = Subresources::default();
        assert!(off.is_empty());
        assert_eq!(serde_json::to_value(&off).ok(), Some(json!({})));
    }

    #[test]
    fn set_values_keep_the_written_order() {
        let column = PrinterColumn {
            name: "Ready".into(),
            type_: "string".into(),
            json_path: ".r".into(),
            description: "d".into(),
            format: "byte".into(),
            priority: 1,
        };
        let text = serde_json::to_string(&column).unwrap_or_default();
        assert_eq!(
            text,
            r#"{"name":"Ready","type":"string","jsonPath":".r","description":"d","format":"byte","priority":1}"#
        );
        let scale =
            Scale { spec_replicas_path: ".s".into(), status_replicas_path: ".t".into(), label_selector_path: None };
        let on = Subresources { status: true, scale: Some(scale) };
        assert_eq!(
            serde_json::to_string(&on).unwrap_or_default(),
            r#"{"status":{},"scale":{"specReplicasPath":".s","statusReplicasPath":".t"}}"#
        );
    }
}
