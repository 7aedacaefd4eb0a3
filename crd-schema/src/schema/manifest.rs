//! The CRD manifest a root type builds: `apiextensions.k8s.io/v1`, field
//! for field as `kubectl apply` takes it. Names, subresources, printer
//! columns and selectable fields are the parts shared with the engine's
//! CRD model (`super::crd_parts`); with feature `engine`,
//! `crd::CustomResourceDefinition::from(&manifest)` reads a manifest
//! without going through JSON.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use super::merge::RootConstants;
use super::{CustomResource, Names, PrinterColumn, Schema, SelectableField, Subresources};

/// A whole `apiextensions.k8s.io/v1` CustomResourceDefinition.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CrdManifest {
    /// Always `apiextensions.k8s.io/v1`.
    pub api_version: String,
    /// Always `CustomResourceDefinition`.
    pub kind: String,
    /// `metadata`.
    pub metadata: CrdManifestMetadata,
    /// `spec`.
    pub spec: CrdManifestSpec,
}

/// `metadata` of a CRD: its name, `<plural>.<group>`, and the labels and
/// annotations its roots state.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct CrdManifestMetadata {
    /// `name`
    pub name: String,
    /// `labels`, omitted when there are none
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
    /// `annotations`, omitted when there are none
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub annotations: BTreeMap<String, String>,
}

/// `spec` of a CRD.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CrdManifestSpec {
    /// `group`
    pub group: String,
    /// `names`
    pub names: Names,
    /// `scope`
    pub scope: String,
    /// `versions`
    pub versions: Vec<CrdVersionManifest>,
}

/// One entry of `spec.versions`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CrdVersionManifest {
    /// `name`
    pub name: String,
    /// `served`
    pub served: bool,
    /// `storage`
    pub storage: bool,
    /// `deprecated`, omitted when false
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub deprecated: bool,
    /// `deprecationWarning`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deprecation_warning: Option<String>,
    /// `schema.openAPIV3Schema`
    #[serde(serialize_with = "serialize_schema")]
    pub schema: Schema,
    /// `subresources`, omitted when there are none
    #[serde(skip_serializing_if = "Subresources::is_empty")]
    pub subresources: Subresources,
    /// `additionalPrinterColumns`
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub additional_printer_columns: Vec<PrinterColumn>,
    /// `selectableFields`
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub selectable_fields: Vec<SelectableField>,
}

impl CrdVersionManifest {
    /// Version `name` with `schema`, served and stored, without
    /// subresources, printer columns or selectable fields.
    pub fn new(name: impl Into<String>, schema: Schema) -> Self {
        Self {
            name: name.into(),
            served: true,
            storage: true,
            deprecated: false,
            deprecation_warning: None,
            schema,
            subresources: Subresources::default(),
            additional_printer_columns: Vec::new(),
            selectable_fields: Vec::new(),
        }
    }

    /// `schema.openAPIV3Schema` as the manifest writes it (data keys
    /// sorted), for the typed conversion to the engine's CRD model.
    #[cfg(feature = "engine")]
    pub(crate) fn written_schema(&self) -> Value {
        written_schema(&self.schema)
    }
}

fn serialize_schema<S: serde::Serializer>(schema: &Schema, serializer: S) -> Result<S::Ok, S::Error> {
    let mut wrapper = serde_json::Map::new();
    wrapper.insert("openAPIV3Schema".to_owned(), written_schema(schema));
    wrapper.serialize(serializer)
}

fn written_schema(schema: &Schema) -> Value {
    let mut schema = Value::Object(schema.clone());
    sort_data_keys(&mut schema);
    schema
}

/// Keywords whose values are data rather than schemas.
const DATA_KEYWORDS: [&str; 3] = ["default", "example", "enum"];

// Property order is declaration order, but data in `default`, `example` and
// `enum` may come from serialising a `HashMap`, whose order changes from run
// to run; sorting those objects' keys makes the manifest the same every time.
fn sort_data_keys(schema: &mut Value) {
    match schema {
        Value::Object(map) => {
            for (key, value) in map.iter_mut() {
                if DATA_KEYWORDS.contains(&key.as_str()) {
                    crate::gofmt::sort_keys(value);
                } else {
                    sort_data_keys(value);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(sort_data_keys),
        _ => {}
    }
}

impl CrdManifest {
    /// The CRD of root type `R` with `versions` (in this order).
    pub fn from_versions<R: CustomResource + ?Sized>(versions: Vec<CrdVersionManifest>) -> Self {
        // Only the constants are per type: the work is compiled once, not
        // for every root of a crate of generated types.
        Self::of_resource(&RootConstants::of::<R>(), versions)
    }

    fn of_resource(r: &RootConstants, versions: Vec<CrdVersionManifest>) -> Self {
        let owned = |names: &[&str]| names.iter().map(|s| (*s).to_owned()).collect();
        let map = |pairs: &[(&str, &str)]| pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
        Self {
            api_version: "apiextensions.k8s.io/v1".to_owned(),
            kind: "CustomResourceDefinition".to_owned(),
            metadata: CrdManifestMetadata {
                name: format!("{}.{}", r.plural, r.group),
                labels: map(r.labels),
                annotations: map(r.annotations),
            },
            spec: CrdManifestSpec {
                group: r.group.to_owned(),
                names: Names {
                    plural: r.plural.to_owned(),
                    singular: r.singular.to_owned(),
                    kind: r.kind.to_owned(),
                    list_kind: r.list_kind.to_owned(),
                    short_names: owned(r.short_names),
                    categories: owned(r.categories),
                },
                scope: r.scope.to_owned(),
                versions,
            },
        }
    }

    /// The manifest as JSON.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// The manifest as pretty-printed JSON, with a final newline.
    pub fn to_json(&self) -> String {
        let mut json = serde_json::to_string_pretty(&self.to_value()).unwrap_or_default();
        json.push('\n');
        json
    }

    /// The manifest as one YAML document, as `kubectl apply -f` takes it:
    /// strings that YAML 1.1 would read as something else (`yes`, `on`,
    /// `1.0`) are quoted. Feature `yaml`.
    #[cfg(feature = "yaml")]
    pub fn to_yaml(&self) -> String {
        // Serialising a `Value` cannot fail: its keys are strings and its
        // numbers finite.
        serde_saphyr::to_string(&self.to_value()).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::schema::{CustomResourceSchema, SchemaGenerator};

    struct Thing;

    impl CustomResourceSchema for Thing {
        fn schema(_: &mut SchemaGenerator) -> Schema {
            let schema = json!({
                "type": "object",
                "properties": {
                    "spec": {
                        "type": "object",
                        "properties": {
                            "zeta": {"type": "string", "enum": ["yes", "on", "1.0", "null", "~", "2024-01-01"]},
                            "alpha": {"type": "object", "additionalProperties": {"type": "integer"},
                                "default": {"b": 2, "a": {"y": 1, "x": 0}}},
                        },
                    },
                },
            });
            match schema {
                Value::Object(map) => map,
                _ => unreachable!("an object literal"),
            }
        }
    }

    impl CustomResource for Thing {
        const GROUP: &'static str = "example.com";
        const VERSION: &'static str = "v1";
        const KIND: &'static str = "Thing";
        const PLURAL: &'static str = "things";
        const SINGULAR: &'static str = "thing";
        const LIST_KIND: &'static str = "ThingList";
        const SHORT_NAMES: &'static [&'static str] = &["th"];
        const CATEGORIES: &'static [&'static str] = &[];
        const SCOPE: &'static str = "Cluster";
        const STORAGE: bool = true;

        fn crd_version(generator: &mut SchemaGenerator) -> CrdVersionManifest {
            let mut version = CrdVersionManifest::new(Self::VERSION, generator.subschema::<Self>());
            version.subresources.status = true;
            version
        }
    }

    #[test]
    fn the_manifest_is_a_v1_crd() {
        let value = Thing::crd_manifest().to_value();
        let version = &value["spec"]["versions"][0];
        assert_eq!(value["metadata"], json!({"name": "things.example.com"}));
        assert_eq!(
            value["spec"]["names"],
            json!({"plural": "things", "singular": "thing", "kind": "Thing", "listKind": "ThingList", "shortNames": ["th"]})
        );
        assert_eq!(value["spec"]["scope"], "Cluster");
        assert_eq!(version["subresources"], json!({"status": {}}));
        assert_eq!((version["served"].as_bool(), version["storage"].as_bool()), (Some(true), Some(true)));
        assert!(version.get("deprecated").is_none() && version.get("additionalPrinterColumns").is_none());
    }

    #[test]
    fn data_keys_are_sorted_and_properties_are_not() {
        let value = Thing::crd_manifest().to_value();
        let spec = &value["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"];
        let keys = |v: &Value| v.as_object().map(|o| o.keys().cloned().collect::<Vec<_>>()).unwrap_or_default();
        assert_eq!(keys(&spec["properties"]), ["zeta", "alpha"]);
        assert_eq!(keys(&spec["properties"]["alpha"]["default"]), ["a", "b"]);
        assert_eq!(keys(&spec["properties"]["alpha"]["default"]["a"]), ["x", "y"]);
    }

    #[cfg(feature = "engine")]
    #[test]
    fn json_and_yaml_read_back_as_the_manifest() {
        let crd = Thing::crd_manifest();
        let json = crd.to_json();
        assert!(json.ends_with("}\n") && json.contains("\n  \"apiVersion\""), "pretty JSON");
        assert_eq!(serde_json::from_str::<Value>(&json).ok(), Some(crd.to_value()));
        let yaml = crd.to_yaml();
        assert!(yaml.starts_with("apiVersion: apiextensions.k8s.io/v1\n"), "{yaml}");
        let documents = crate::yaml::parse_documents("crd.yaml", &yaml).unwrap_or_else(|e| panic!("{e}\n{yaml}"));
        assert_eq!(documents.len(), 1);
        assert_eq!(documents[0].value, crd.to_value(), "{yaml}");
        assert_eq!(yaml, Thing::crd_manifest().to_yaml());
    }
}
