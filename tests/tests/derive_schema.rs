//! `#[derive(CustomResourceSchema)]` on representative types: the exact
//! schema (and CRD) each gives, per docs/derive.md.

#![allow(dead_code)]

use std::collections::BTreeMap;

use crd_schema::CustomResourceSchema;
use crd_schema::schema::{CustomResource, Schema, SchemaGenerator, schema_for};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

fn schema<T: CustomResourceSchema + ?Sized>() -> Value {
    Value::Object(schema_for::<T>())
}

fn keys(value: &Value) -> Vec<&str> {
    value.as_object().map(|o| o.keys().map(String::as_str).collect()).unwrap_or_default()
}

#[derive(Serialize, Deserialize, CustomResourceSchema)]
struct Port {
    name: String,
    port: u16,
}

fn custom_schema(_: &mut SchemaGenerator) -> Schema {
    let mut schema = Schema::new();
    schema.insert("type".to_owned(), json!("string"));
    schema.insert("format".to_owned(), json!("custom"));
    schema
}

/// A thing with every keyword.
#[derive(Serialize, Deserialize, CustomResourceSchema)]
#[serde(rename_all = "camelCase")]
#[schema(title = "Everything", min_properties = 1)]
#[schema(validation(rule = "self.minReplicas <= 10", message = "at most ten"))]
struct Everything {
    /// How many.
    ///
    /// At least one.
    #[schema(minimum = 1, maximum = 10, exclusive_maximum, multiple_of = 1)]
    min_replicas: i32,
    #[schema(minimum = -1.5, maximum = 2.5e3, exclusive_minimum = false, multiple_of = 0.5)]
    ratio: f64,
    /// Replaced by the explicit description.
    #[schema(description = "explicit", title = "t", format = "hostname", min_length = 1, max_length = 63)]
    #[schema(pattern = "^[a-z]+$")]
    name: String,
    #[schema(enum_values = ["a", "b", 1, true], default = "a")]
    letter: String,
    #[schema(min_items = 1, max_items = 3, list_type = "map", list_map_keys = ["name"], items(max_properties = 2))]
    ports: Vec<Port>,
    #[schema(list_type = "set", items(max_length = 5, pattern = "^x"))]
    tags: Vec<String>,
    #[schema(map_type = "atomic", max_properties = 4, values(format = "byte", min_length = 2))]
    labels: BTreeMap<String, String>,
    #[schema(nullable)]
    maybe: Option<String>,
    #[schema(type_ = "object")]
    raw: Value,
    #[schema(embedded_resource, preserve_unknown_fields, type_ = "object")]
    embedded: Value,
    #[schema(int_or_string)]
    port: IntOrString,
    #[schema(default_json = r#"{"a": [1, 2.5, null]}"#, example_json = "[1]")]
    extra: Option<Value>,
    #[schema(
        all_of(schema(required = ["a"]), schema(property("a", min_length = 1, items(minimum = 0)))),
        any_of(schema(required = ["b"])),
        one_of(schema(required = ["c"]), schema(required = ["d"])),
        not(required = ["e"], max_properties = 9)
    )]
    junctors: BTreeMap<String, String>,
    #[schema(external_docs(url = "https://example.com", description = "more"))]
    documented: bool,
    #[schema(required)]
    forced: Option<String>,
    #[schema(skip)]
    skipped: String,
    #[serde(skip)]
    serde_skipped: String,
    #[schema(schema_with = "custom_schema")]
    custom: String,
    #[schema(
        validation(
            rule = "self.size() > 0",
            optional_old_self = true,
            field_path = ".x",
            reason = "FieldValueInvalid",
            message_expression = "'empty'",
        ),
        validation(rule = "true")
    )]
    checked: String,
    r#type: String,
}

#[test]
fn every_keyword_lands_where_it_belongs() {
    let expected = json!({
        "type": "object",
        "properties": {
            "minReplicas": {
                "type": "integer", "format": "int32", "description": "How many.\n\nAt least one.",
                "minimum": 1, "maximum": 10, "exclusiveMaximum": true, "multipleOf": 1,
            },
            // `2.5e3` is a float64 bound, written as Go writes it.
            // `exclusive_minimum = false` is no keyword: in the API server's
            // types a false flag is an absent one.
            "ratio": {"type": "number", "minimum": -1.5, "maximum": 2500, "multipleOf": 0.5},
            "name": {
                "type": "string", "description": "explicit", "title": "t", "format": "hostname",
                "minLength": 1, "maxLength": 63, "pattern": "^[a-z]+$",
            },
            "letter": {"type": "string", "enum": ["a", "b", 1, true], "default": "a"},
            "ports": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string"},
                        "port": {"type": "integer", "format": "int32", "minimum": 0},
                    },
                    "required": ["name", "port"],
                    "maxProperties": 2,
                },
                "minItems": 1, "maxItems": 3,
                "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
            },
            "tags": {
                "type": "array",
                "items": {"type": "string", "maxLength": 5, "pattern": "^x"},
                "x-kubernetes-list-type": "set",
            },
            "labels": {
                "type": "object",
                "additionalProperties": {"type": "string", "format": "byte", "minLength": 2},
                "x-kubernetes-map-type": "atomic",
                "maxProperties": 4,
            },
            "maybe": {"type": "string", "nullable": true},
            "raw": {"x-kubernetes-preserve-unknown-fields": true, "type": "object"},
            "embedded": {
                "x-kubernetes-preserve-unknown-fields": true,
                "x-kubernetes-embedded-resource": true,
                "type": "object",
            },
            "port": {"x-kubernetes-int-or-string": true, "anyOf": [{"type": "integer"}, {"type": "string"}]},
            "extra": {"x-kubernetes-preserve-unknown-fields": true, "default": {"a": [1, 2.5, null]}, "example": [1]},
            "junctors": {
                "type": "object",
                "additionalProperties": {"type": "string"},
                "allOf": [{"required": ["a"]}, {"properties": {"a": {"minLength": 1, "items": {"minimum": 0}}}}],
                "anyOf": [{"required": ["b"]}],
                "oneOf": [{"required": ["c"]}, {"required": ["d"]}],
                "not": {"required": ["e"], "maxProperties": 9},
            },
            "documented": {"type": "boolean", "externalDocs": {"description": "more", "url": "https://example.com"}},
            "forced": {"type": "string"},
            "custom": {"type": "string", "format": "custom"},
            "checked": {
                "type": "string",
                "x-kubernetes-validations": [
                    {
                        "rule": "self.size() > 0",
                        "messageExpression": "'empty'",
                        "reason": "FieldValueInvalid",
                        "fieldPath": ".x",
                        "optionalOldSelf": true,
                    },
                    {"rule": "true"},
                ],
            },
            "type": {"type": "string"},
        },
        "required": [
            "minReplicas", "ratio", "name", "letter", "ports", "tags", "labels", "raw", "embedded", "port",
            "junctors", "documented", "forced", "custom", "checked", "type",
        ],
        "description": "A thing with every keyword.",
        "title": "Everything",
        "minProperties": 1,
        "x-kubernetes-validations": [{"rule": "self.minReplicas <= 10", "message": "at most ten"}],
    });
    let actual = schema::<Everything>();
    assert_eq!(actual, expected);
    // Properties keep declaration order; validation keys the API's order.
    assert_eq!(keys(&actual["properties"])[..3], ["minReplicas", "ratio", "name"]);
    assert_eq!(
        keys(&actual["properties"]["checked"]["x-kubernetes-validations"][0]),
        ["rule", "messageExpression", "reason", "fieldPath", "optionalOldSelf"]
    );
}

fn five() -> u8 {
    5
}

#[derive(Serialize, Deserialize, CustomResourceSchema)]
struct Defaults {
    #[serde(default)]
    count: i32,
    #[serde(default = "five")]
    five: u8,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    list: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schema(default_json = r#"["x"]"#)]
    explicit_list: Vec<String>,
    #[serde(default)]
    #[schema(no_default)]
    quiet: String,
    #[serde(default)]
    #[schema(default = "x")]
    explicit: String,
    #[serde(default)]
    opt: Option<String>,
    plain: String,
    #[serde(default)]
    #[schema(required)]
    forced: bool,
}

#[test]
fn serde_defaults_become_schema_defaults() {
    let expected = json!({
        "type": "object",
        "properties": {
            "count": {"type": "integer", "format": "int32", "default": 0},
            "five": {"type": "integer", "format": "int32", "minimum": 0, "default": 5},
            "list": {"type": "array", "items": {"type": "string"}},
            "explicit_list": {"type": "array", "items": {"type": "string"}, "default": ["x"]},
            "quiet": {"type": "string"},
            "explicit": {"type": "string", "default": "x"},
            "opt": {"type": "string"},
            "plain": {"type": "string"},
            "forced": {"type": "boolean", "default": false},
        },
        "required": ["plain", "forced"],
    });
    assert_eq!(schema::<Defaults>(), expected);
}

// Read but never written: no `Serialize`.
#[derive(Deserialize, CustomResourceSchema)]
struct ReadOnly {
    name: String,
}

// An `Option` field's own serde default is `None`: the derive knows it
// has no `default:` without serialising it, so the field's type need not
// be `Serialize` (and its serialisation is not compiled for the schema).
#[derive(Deserialize, CustomResourceSchema)]
struct OptionDefaults {
    #[serde(default)]
    read_only: Option<ReadOnly>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    count: Option<i32>,
}

#[test]
fn option_fields_default_to_none_without_serialising() {
    let expected = json!({
        "type": "object",
        "properties": {
            "read_only": {
                "type": "object",
                "properties": {"name": {"type": "string"}},
                "required": ["name"],
            },
            "count": {"type": "integer", "format": "int32"},
        },
    });
    assert_eq!(schema::<OptionDefaults>(), expected);
}

#[derive(Serialize, Deserialize, CustomResourceSchema)]
#[serde(default)]
struct ContainerDefault {
    replicas: i32,
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
}

impl Default for ContainerDefault {
    fn default() -> Self {
        Self { replicas: 3, name: "web".to_owned(), note: None }
    }
}

#[test]
fn a_container_default_defaults_every_field() {
    let expected = json!({
        "type": "object",
        "properties": {
            "replicas": {"type": "integer", "format": "int32", "default": 3},
            "name": {"type": "string", "default": "web"},
            "note": {"type": "string"},
        },
    });
    assert_eq!(schema::<ContainerDefault>(), expected);
}

#[derive(Serialize, Deserialize, CustomResourceSchema)]
struct Common {
    /// The name.
    name: String,
    #[serde(default)]
    labels: BTreeMap<String, String>,
}

#[derive(Serialize, Deserialize, CustomResourceSchema)]
struct Flattened {
    #[serde(flatten)]
    common: Common,
    size: u32,
}

#[derive(Serialize, Deserialize, CustomResourceSchema)]
struct FlattenedMap {
    known: bool,
    #[serde(flatten)]
    rest: BTreeMap<String, Value>,
}

#[test]
fn flattened_structs_merge_and_maps_preserve() {
    let expected = json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "description": "The name."},
            "labels": {"type": "object", "additionalProperties": {"type": "string"}, "default": {}},
            "size": {"type": "integer", "minimum": 0},
        },
        "required": ["name", "size"],
    });
    assert_eq!(schema::<Flattened>(), expected);
    let expected = json!({
        "type": "object",
        "properties": {"known": {"type": "boolean"}},
        "required": ["known"],
        "x-kubernetes-preserve-unknown-fields": true,
    });
    assert_eq!(schema::<FlattenedMap>(), expected);
}

#[derive(Serialize, Deserialize, CustomResourceSchema)]
#[serde(rename_all = "SCREAMING-KEBAB-CASE")]
struct Kebab {
    very_tasty: bool,
    #[serde(rename = "plain")]
    renamed: bool,
    #[serde(rename(serialize = "out", deserialize = "in"))]
    sides: bool,
}

#[derive(Serialize, Deserialize, CustomResourceSchema)]
#[serde(rename_all(serialize = "snake_case", deserialize = "PascalCase"))]
struct Pascal {
    very_tasty: bool,
}

#[test]
fn renames_follow_serde_deserialize_side() {
    assert_eq!(keys(&schema::<Kebab>()["properties"]), ["VERY-TASTY", "plain", "in"]);
    assert_eq!(keys(&schema::<Pascal>()["properties"]), ["VeryTasty"]);
}

/// A colour.
#[derive(Serialize, Deserialize, CustomResourceSchema)]
#[serde(rename_all = "kebab-case")]
enum Colour {
    DarkRed,
    #[serde(rename = "GREEN")]
    Green,
    #[serde(skip)]
    Hidden,
    #[schema(skip)]
    Internal,
    /// A value this version does not list.
    #[serde(untagged)]
    Unknown(String),
}

#[test]
fn unit_enums_are_string_enums_without_the_catch_all() {
    let expected = json!({"type": "string", "enum": ["dark-red", "GREEN"], "description": "A colour."});
    assert_eq!(schema::<Colour>(), expected);
}

#[derive(Serialize, Deserialize, CustomResourceSchema)]
#[serde(rename_all = "camelCase")]
enum Source {
    /// From git.
    Git(String),
    #[schema(max_properties = 2)]
    Bucket {
        name: String,
        #[serde(default)]
        region: Option<String>,
    },
    InlineText(Port),
}

#[test]
fn externally_tagged_enums_hold_exactly_one_variant() {
    let expected = json!({
        "type": "object",
        "properties": {
            "git": {"type": "string", "description": "From git."},
            "bucket": {
                "type": "object",
                "properties": {"name": {"type": "string"}, "region": {"type": "string"}},
                "required": ["name"],
                "maxProperties": 2,
            },
            "inlineText": schema::<Port>(),
        },
        "oneOf": [{"required": ["git"]}, {"required": ["bucket"]}, {"required": ["inlineText"]}],
    });
    assert_eq!(schema::<Source>(), expected);
}

#[derive(Serialize, Deserialize, CustomResourceSchema)]
#[serde(tag = "kind", rename_all_fields = "camelCase")]
enum Action {
    Scale { replica_count: u32, dry_run: bool },
    Restart(Port),
    Pause,
}

#[test]
fn internally_tagged_enums_hoist_properties_beside_the_tag() {
    let expected = json!({
        "type": "object",
        "properties": {
            "kind": {"type": "string", "enum": ["Scale", "Restart", "Pause"]},
            "replicaCount": {"type": "integer", "minimum": 0},
            "dryRun": {"type": "boolean"},
            "name": {"type": "string"},
            "port": {"type": "integer", "format": "int32", "minimum": 0},
        },
        "required": ["kind"],
        // The tag says which variant's required fields must be present.
        "oneOf": [
            {"properties": {"kind": {"enum": ["Scale"]}}, "required": ["replicaCount", "dryRun"]},
            {"properties": {"kind": {"enum": ["Restart"]}}, "required": ["name", "port"]},
            {"properties": {"kind": {"enum": ["Pause"]}}},
        ],
    });
    assert_eq!(schema::<Action>(), expected);
}

#[derive(Serialize, Deserialize, CustomResourceSchema)]
#[serde(tag = "type", content = "value")]
enum Setting {
    Port(Port),
    Limits { cpu: String, memory: Option<String> },
}

#[derive(Serialize, Deserialize, CustomResourceSchema)]
#[serde(tag = "type", content = "value")]
enum Mixed {
    Named(String),
    Nothing,
}

#[test]
fn adjacently_tagged_enums_unite_their_contents() {
    let expected = json!({
        "type": "object",
        "properties": {
            "type": {"type": "string", "enum": ["Port", "Limits"]},
            "value": {
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "port": {"type": "integer", "format": "int32", "minimum": 0},
                    "cpu": {"type": "string"},
                    "memory": {"type": "string"},
                },
            },
        },
        "required": ["type"],
        "oneOf": [{"required": ["value"]}],
    });
    assert_eq!(schema::<Setting>(), expected);
    let expected = json!({
        "type": "object",
        "properties": {
            "type": {"type": "string", "enum": ["Named", "Nothing"]},
            "value": {"type": "string"},
        },
        "required": ["type"],
    });
    assert_eq!(schema::<Mixed>(), expected);
}

/// A port by number or name.
#[derive(Serialize, Deserialize, CustomResourceSchema)]
#[serde(untagged)]
enum PortRef {
    Number(i32),
    Name(String),
}

#[test]
fn untagged_int_or_string() {
    let expected = json!({
        "x-kubernetes-int-or-string": true,
        "anyOf": [{"type": "integer"}, {"type": "string"}],
        "description": "A port by number or name.",
    });
    assert_eq!(schema::<PortRef>(), expected);
}

/// A hostname.
#[derive(Serialize, Deserialize, CustomResourceSchema)]
#[schema(format = "hostname", max_length = 253)]
struct Hostname(String);

#[derive(Serialize, Deserialize, CustomResourceSchema)]
#[serde(transparent)]
struct Wrapper {
    #[schema(min_length = 1)]
    inner: Hostname,
}

#[derive(Serialize, Deserialize, CustomResourceSchema)]
struct Nothing;

#[test]
fn newtypes_are_their_field() {
    let hostname = json!({"type": "string", "description": "A hostname.", "format": "hostname", "maxLength": 253});
    assert_eq!(schema::<Hostname>(), hostname);
    let wrapper =
        json!({"type": "string", "description": "A hostname.", "format": "hostname", "maxLength": 253, "minLength": 1});
    assert_eq!(schema::<Wrapper>(), wrapper);
    assert_eq!(schema::<Nothing>(), json!({"type": "object"}));
}

#[derive(Serialize, Deserialize, CustomResourceSchema)]
struct Generic<T> {
    items: Vec<T>,
}

#[test]
fn generic_types_bound_their_parameters() {
    let expected = json!({
        "type": "object",
        "properties": {"items": {"type": "array", "items": {"type": "boolean"}}},
        "required": ["items"],
    });
    assert_eq!(schema::<Generic<bool>>(), expected);
}

/// The desired state of a Widget.
#[derive(Serialize, Deserialize, Default, CustomResourceSchema)]
struct WidgetSpec {
    /// How many widgets.
    #[serde(default)]
    #[schema(minimum = 0)]
    replicas: i32,
    colour: Option<Colour>,
}

#[derive(Serialize, Deserialize, Default, CustomResourceSchema)]
struct WidgetStatus {
    replicas: i32,
    selector: Option<String>,
}

/// A Widget is a small, configurable thing.
#[derive(Serialize, Deserialize, CustomResourceSchema)]
#[crd(group = "example.com", version = "v1beta1", status, short_names = ["wd"], categories = ["all"])]
#[crd(scale(
    spec_replicas_path = ".spec.replicas",
    status_replicas_path = ".status.replicas",
    label_selector_path = ".status.selector"
))]
#[crd(printer_column(name = "Replicas", type_ = "integer", json_path = ".spec.replicas"))]
#[crd(printer_column(
    name = "Age",
    type_ = "date",
    json_path = ".metadata.creationTimestamp",
    description = "How old",
    format = "date-time",
    priority = 1
))]
#[crd(selectable_field = ".spec.colour", deprecated, deprecation_warning = "use v1", storage = false)]
#[schema(validation(rule = "self.spec.replicas <= 5", message = "too many"))]
#[serde(rename_all = "camelCase")]
struct Widget {
    api_version: String,
    kind: String,
    #[serde(default)]
    metadata: ObjectMeta,
    spec: WidgetSpec,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    status: Option<WidgetStatus>,
}

#[derive(Serialize, Deserialize, CustomResourceSchema)]
#[crd(
    group = "example.com",
    version = "v1",
    kind = "Gadget",
    plural = "gadgetry",
    singular = "gadget",
    list_kind = "GadgetCollection",
    scope = "Cluster",
    served = false
)]
struct GadgetV1 {
    #[serde(rename = "apiVersion")]
    api_version: String,
    kind: String,
    metadata: ObjectMeta,
}

#[test]
fn a_root_type_builds_its_crd() {
    let crd = Widget::crd_manifest().to_value();
    let expected = json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {
            "group": "example.com",
            "names": {
                "plural": "widgets",
                "singular": "widget",
                "kind": "Widget",
                "listKind": "WidgetList",
                "shortNames": ["wd"],
                "categories": ["all"],
            },
            "scope": "Namespaced",
            "versions": [{
                "name": "v1beta1",
                "served": true,
                "storage": false,
                "deprecated": true,
                "deprecationWarning": "use v1",
                "schema": {"openAPIV3Schema": {
                    "type": "object",
                    "properties": {
                        "apiVersion": {"type": "string"},
                        "kind": {"type": "string"},
                        "metadata": {"type": "object"},
                        "spec": {
                            "type": "object",
                            "properties": {
                                "replicas": {
                                    "type": "integer", "format": "int32", "description": "How many widgets.",
                                    "default": 0, "minimum": 0,
                                },
                                "colour": {"type": "string", "enum": ["dark-red", "GREEN"], "description": "A colour."},
                            },
                            "description": "The desired state of a Widget.",
                        },
                        "status": {
                            "type": "object",
                            "properties": {"replicas": {"type": "integer", "format": "int32"}, "selector": {"type": "string"}},
                            "required": ["replicas"],
                        },
                    },
                    "required": ["spec"],
                    "description": "A Widget is a small, configurable thing.",
                    "x-kubernetes-validations": [{"rule": "self.spec.replicas <= 5", "message": "too many"}],
                }},
                "subresources": {
                    "status": {},
                    "scale": {
                        "specReplicasPath": ".spec.replicas",
                        "statusReplicasPath": ".status.replicas",
                        "labelSelectorPath": ".status.selector",
                    },
                },
                "additionalPrinterColumns": [
                    {"name": "Replicas", "type": "integer", "jsonPath": ".spec.replicas"},
                    {
                        "name": "Age", "type": "date", "jsonPath": ".metadata.creationTimestamp",
                        "description": "How old", "format": "date-time", "priority": 1,
                    },
                ],
                "selectableFields": [{"jsonPath": ".spec.colour"}],
            }],
        },
    });
    assert_eq!(crd, expected);
    assert_eq!((Widget::GROUP, Widget::VERSION, Widget::STORAGE), ("example.com", "v1beta1", false));
    // I4: what the derive emits, the API server accepts, once the lone
    // version is the storage version (`storage = false` is for a version
    // merged beside the storage one; alone, the server refuses it).
    let mut alone = Widget::crd_manifest();
    alone.spec.versions[0].storage = true;
    crd_tests::check_derived(&alone).unwrap_or_else(|report| panic!("{report}"));
}

/// Two versions of a CRD in a protected group (`*.k8s.io`), with the
/// approval annotation the API server requires there and a label, stated in
/// kube-derive's form and in a different order on each root.
mod approved {
    use super::*;

    pub mod v1 {
        use super::*;

        #[derive(Serialize, Deserialize, CustomResourceSchema)]
        #[crd(group = "widgets.k8s.io", version = "v1", kind = "Sprocket")]
        #[crd(annotation("api-approved.kubernetes.io", "https://github.com/kubernetes/enhancements/pull/1111"))]
        #[crd(label("app.kubernetes.io/name", "sprockets"), annotation("example.com/owner", "team-a"))]
        pub struct Sprocket {
            #[serde(rename = "apiVersion")]
            pub api_version: String,
            pub kind: String,
            pub metadata: ObjectMeta,
        }
    }

    pub mod v1beta1 {
        use super::*;

        #[derive(Serialize, Deserialize, CustomResourceSchema)]
        #[crd(group = "widgets.k8s.io", version = "v1beta1", kind = "Sprocket", storage = false)]
        #[crd(annotation("example.com/owner", "team-a"), label("app.kubernetes.io/name", "sprockets"))]
        #[crd(annotation("api-approved.kubernetes.io", "https://github.com/kubernetes/enhancements/pull/1111"))]
        pub struct Sprocket {
            #[serde(rename = "apiVersion")]
            pub api_version: String,
            pub kind: String,
            pub metadata: ObjectMeta,
        }
    }

    /// The same resource without the approval annotation.
    #[derive(Serialize, Deserialize, CustomResourceSchema)]
    #[crd(group = "widgets.k8s.io", version = "v1", kind = "Sprocket")]
    pub struct Unapproved {
        #[serde(rename = "apiVersion")]
        pub api_version: String,
        pub kind: String,
        pub metadata: ObjectMeta,
    }
}

#[test]
fn annotations_and_labels_go_to_the_crd_metadata() {
    let crd = crd_schema::merge_crds!(approved::v1::Sprocket, approved::v1beta1::Sprocket);
    let metadata = json!({
        "name": "sprockets.widgets.k8s.io",
        "labels": {"app.kubernetes.io/name": "sprockets"},
        "annotations": {
            "api-approved.kubernetes.io": "https://github.com/kubernetes/enhancements/pull/1111",
            "example.com/owner": "team-a",
        },
    });
    assert_eq!(crd.to_value()["metadata"], metadata);
    crd_tests::check_derived(&crd).unwrap_or_else(|report| panic!("{report}"));
    let k8s = crd.into_k8s().expect("converts");
    assert_eq!(k8s.metadata.labels.as_ref().map(BTreeMap::len), Some(1));
    assert_eq!(k8s.metadata.annotations.as_ref().map(BTreeMap::len), Some(2));
    // Without the annotation the API server refuses a CRD of this group.
    let report = crd_tests::check_derived(&approved::Unapproved::crd_manifest()).expect_err("unapproved");
    assert!(report.contains("api-approved.kubernetes.io"), "{report}");
    assert_eq!(
        approved::Unapproved::crd_manifest().to_value()["metadata"],
        json!({"name": "sprockets.widgets.k8s.io"})
    );
}

/// kube-derive's `root = "..."` and `attr = "..."`: the spec-first form's
/// root under a name of its own, for the same kind, with more attributes.
mod renamed_root {
    use super::*;

    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize, CustomResourceSchema)]
    #[crd(group = "example.com", version = "v1", kind = "Cog", root = "CogResource", namespaced)]
    #[crd(attr = "cfg_attr(all(), derive(PartialEq))", attr = "allow(dead_code)")]
    pub struct CogSpec {
        pub teeth: i32,
    }
}

#[test]
fn the_spec_first_root_may_be_named() {
    let crd = renamed_root::CogResource::crd_manifest().to_value();
    assert_eq!(crd["metadata"]["name"], "cogs.example.com");
    assert_eq!(crd["spec"]["names"]["kind"], "Cog");
    assert_eq!(<renamed_root::CogResource as CustomResource>::KIND, "Cog");
    let cog = renamed_root::CogResource::new("small", renamed_root::CogSpec { teeth: 3 });
    assert_eq!((cog.kind.as_str(), cog.spec.teeth), ("Cog", 3));
    // `PartialEq` comes from the `attr`: without it this does not compile.
    assert!(cog == cog.clone());
}

#[test]
fn names_and_flags_can_be_spelled_out() {
    let crd = GadgetV1::crd_manifest().to_value();
    assert_eq!(crd["metadata"]["name"], "gadgetry.example.com");
    let names = json!({"plural": "gadgetry", "singular": "gadget", "kind": "Gadget", "listKind": "GadgetCollection"});
    assert_eq!(crd["spec"]["names"], names);
    assert_eq!(crd["spec"]["scope"], "Cluster");
    let version = &crd["spec"]["versions"][0];
    assert_eq!((&version["served"], &version["storage"]), (&json!(false), &json!(true)));
    assert_eq!(
        version["schema"]["openAPIV3Schema"].get("required"),
        None,
        "apiVersion, kind, metadata are never required"
    );
    assert_eq!(version.get("subresources"), None);
    crd_tests::check_derived(&GadgetV1::crd_manifest()).unwrap_or_else(|report| panic!("{report}"));
}

mod renamed_crate {
    // `crate = "..."` reaches the runtime under another name.
    use crd_schema as runtime;
    use runtime::CustomResourceSchema;

    #[derive(CustomResourceSchema)]
    #[schema(crate = "runtime")]
    pub struct Small {
        pub a: bool,
    }

    #[test]
    fn the_runtime_path_can_be_overridden() {
        assert_eq!(runtime::schema::schema_for::<Small>()["required"], serde_json::json!(["a"]));
    }
}

#[doc = concat!("Built ", "by a macro.")]
///
/// And a line.
#[derive(CustomResourceSchema)]
struct MacroDocs {
    a: bool,
}

#[test]
fn doc_attributes_may_be_macros() {
    assert_eq!(schema::<MacroDocs>()["description"], "Built by a macro.\n\nAnd a line.");
}

#[derive(Serialize, Deserialize, CustomResourceSchema)]
#[serde(tag = "kind")]
enum Open {
    Known {
        #[serde(alias = "n")]
        name: String,
    },
    #[serde(other)]
    Other,
}

#[derive(Serialize, Deserialize, CustomResourceSchema)]
enum WithSkipped {
    Data(bool),
    #[serde(skip_deserializing)]
    Legacy(String),
}

#[test]
fn serde_other_opens_the_tag_and_skipped_variants_are_absent() {
    let expected = json!({
        "type": "object",
        "properties": {"kind": {"type": "string"}, "name": {"type": "string"}},
        "required": ["kind"],
    });
    assert_eq!(schema::<Open>(), expected);
    let expected = json!({
        "type": "object",
        "properties": {"Data": {"type": "boolean"}},
        "oneOf": [{"required": ["Data"]}],
    });
    assert_eq!(schema::<WithSkipped>(), expected);
}

/// Keywords in unusual but legal places (issue 19's classes): the node's
/// own `required` list beside the field's `required` flag, `items` and a
/// non-scalar `enum` on an object, preservation removed from items, and a
/// float64 bound written as Go writes it.
#[derive(Serialize, Deserialize, CustomResourceSchema)]
struct Odd {
    #[schema(required, required = ["authority", "weight"])]
    weights: Option<Vec<String>>,
    #[schema(items(type_ = "string"), enum_values_json = r#"[{"a": "x"}]"#)]
    object: Port,
    #[schema(preserve_unknown_fields, items(type_ = "object", preserve_unknown_fields = false))]
    preserved: Vec<Value>,
    #[schema(maximum = 9223372036854775000.0, minimum = 0.5)]
    big: i64,
}

#[test]
fn keywords_in_unusual_places_are_kept() {
    let odd = schema::<Odd>();
    let properties = &odd["properties"];
    assert_eq!(properties["weights"]["required"], json!(["authority", "weight"]));
    assert_eq!(odd["required"], json!(["weights", "object", "preserved", "big"]));
    assert_eq!(properties["object"]["items"], json!({"type": "string"}));
    assert_eq!(properties["object"]["enum"], json!([{"a": "x"}]));
    assert_eq!(
        properties["preserved"],
        json!({"type": "array", "x-kubernetes-preserve-unknown-fields": true, "items": {"type": "object"}})
    );
    assert_eq!(properties["big"]["maximum"].to_string(), "9223372036854775000");
    assert_eq!(properties["big"]["minimum"], json!(0.5));
}
