//! Derived schemas of representative types (every enum shape, flatten,
//! defaults, every extension, a whole CRD), compared byte for byte with the
//! YAML files in `tests/snapshots/derive/`. `CRD_BLESS=1 cargo test -p
//! crd-tests --test derive_snapshots` rewrites them (`cargo xtask bless`).
//! Every CRD derived here also passes `crd check` (design.md I4).

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::PathBuf;

use crd_schema::CustomResourceSchema;
use crd_schema::schema::{CrdManifest, CustomResource, schema_for};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A colour.
#[derive(Serialize, Deserialize, CustomResourceSchema)]
#[serde(rename_all = "kebab-case")]
enum Colour {
    Red,
    DarkGreen,
    /// Anything else, kept as written.
    #[serde(untagged)]
    Unknown(String),
}

/// Where to send traffic: exactly one of the variants.
#[derive(Serialize, Deserialize, CustomResourceSchema)]
#[serde(rename_all = "camelCase")]
enum External {
    Host(String),
    Service { name: String, port: u16 },
    Nowhere {},
}

/// A source, told apart by `kind`.
#[derive(Serialize, Deserialize, CustomResourceSchema)]
#[serde(tag = "kind")]
enum Internal {
    Git {
        url: String,
        #[serde(default)]
        branch: Option<String>,
    },
    Bucket {
        bucket: String,
    },
}

/// A step, told apart by `type`, its settings under `with`.
#[derive(Serialize, Deserialize, CustomResourceSchema)]
#[serde(tag = "type", content = "with", rename_all = "lowercase")]
enum Adjacent {
    Run { command: Vec<String> },
    Sleep { seconds: u32 },
}

/// A port by number or by name.
#[derive(Serialize, Deserialize, CustomResourceSchema)]
#[serde(untagged)]
enum PortRef {
    Number(i32),
    Name(String),
}

#[derive(Serialize, Deserialize, CustomResourceSchema)]
struct Common {
    /// Shared by everything that embeds it.
    #[schema(min_length = 1)]
    owner: String,
}

fn three() -> i64 {
    3
}

/// Flattening, serde defaults and every extension.
#[derive(Serialize, Deserialize, CustomResourceSchema)]
#[serde(rename_all = "camelCase")]
#[schema(validation(rule = "self.replicas >= self.minReplicas", message = "replicas below the minimum"))]
struct Spec {
    #[serde(flatten)]
    common: Common,
    #[serde(default = "three")]
    #[schema(minimum = 1, maximum = 10, exclusive_maximum)]
    replicas: i64,
    #[serde(default)]
    min_replicas: i64,
    #[schema(default = "red")]
    colour: Colour,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    external: Option<External>,
    internal: Internal,
    steps: Vec<Adjacent>,
    port: PortRef,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    max_surge: Option<IntOrString>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    memory: Option<Quantity>,
    #[schema(list_type = "map", list_map_keys = ["name"], max_items = 8, items(embedded_resource))]
    templates: Vec<Template>,
    #[schema(list_type = "set", items(pattern = "^[a-z]+$"))]
    tags: Vec<String>,
    #[schema(map_type = "atomic", values(max_length = 63))]
    labels: BTreeMap<String, String>,
    #[schema(preserve_unknown_fields, type_ = "object")]
    config: Value,
    #[schema(nullable, default_json = r#"{"a": [1, 2]}"#)]
    extra: Option<BTreeMap<String, Vec<i32>>>,
    #[schema(one_of(schema(required = ["a"]), schema(required = ["b"])), not(required = ["c"]))]
    choice: BTreeMap<String, String>,
    #[serde(flatten)]
    rest: BTreeMap<String, Value>,
}

/// A resource embedded in the spec.
#[derive(Serialize, Deserialize, CustomResourceSchema)]
#[schema(preserve_unknown_fields)]
struct Template {
    name: String,
}

/// The observed state.
#[derive(Serialize, Deserialize, CustomResourceSchema)]
struct Status {
    #[serde(default)]
    ready: bool,
}

/// A Widget: a whole resource.
#[derive(Serialize, Deserialize, CustomResourceSchema)]
#[crd(
    group = "example.com",
    version = "v1",
    kind = "Widget",
    short_names = ["wd"],
    scope = "Cluster",
    status,
    scale(spec_replicas_path = ".spec.replicas", status_replicas_path = ".status.replicas"),
    printer_column(name = "Replicas", type_ = "integer", json_path = ".spec.replicas"),
    selectable_field = ".spec.colour"
)]
struct Widget {
    #[serde(rename = "apiVersion")]
    api_version: String,
    kind: String,
    #[serde(default)]
    metadata: ObjectMeta,
    spec: Spec,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    status: Option<Status>,
}

/// The same resource, an older served version.
#[derive(Serialize, Deserialize, CustomResourceSchema)]
#[crd(group = "example.com", version = "v1beta1", kind = "Widget", short_names = ["wd"], scope = "Cluster", storage = false, deprecated, deprecation_warning = "use v1")]
struct WidgetV1beta1 {
    #[serde(rename = "apiVersion")]
    api_version: String,
    kind: String,
    #[serde(default)]
    metadata: ObjectMeta,
    #[serde(default)]
    spec: BTreeMap<String, Value>,
}

fn yaml(value: &Value) -> String {
    serde_saphyr::to_string(value).expect("JSON serialises as YAML")
}

fn schema<T: CustomResourceSchema>() -> String {
    yaml(&Value::Object(schema_for::<T>()))
}

fn cases() -> Vec<(&'static str, String)> {
    let merged: CrdManifest = crd_schema::merge_crds!(Widget, WidgetV1beta1);
    vec![
        ("unit-enum", schema::<Colour>()),
        ("externally-tagged", schema::<External>()),
        ("internally-tagged", schema::<Internal>()),
        ("adjacently-tagged", schema::<Adjacent>()),
        ("untagged-int-or-string", schema::<PortRef>()),
        ("spec", schema::<Spec>()),
        ("widget-crd", Widget::crd_manifest().to_yaml()),
        ("widget-two-versions", merged.to_yaml()),
    ]
}

#[test]
fn derived_schemas_match_snapshots() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("snapshots/derive");
    let bless = std::env::var_os("CRD_BLESS").is_some_and(|v| v == "1");
    let mut stale = Vec::new();
    for (name, text) in cases() {
        let file = dir.join(format!("{name}.yaml"));
        assert_eq!(text, cases().into_iter().find(|(n, _)| *n == name).map(|(_, t)| t).unwrap_or_default());
        let old = std::fs::read_to_string(&file).unwrap_or_default();
        if old == text {
            continue;
        }
        if bless {
            std::fs::create_dir_all(&dir).expect("snapshot dir");
            std::fs::write(&file, &text).expect("write snapshot");
        } else {
            stale.push(file.display().to_string());
        }
    }
    assert!(stale.is_empty(), "snapshots differ (rerun with CRD_BLESS=1 to update):\n{}", stale.join("\n"));
}

#[test]
fn derived_crds_pass_crd_check() {
    // `WidgetV1beta1` alone is not a CRD the server takes: its only version
    // is not the storage version. It stands beside `Widget`.
    let merged: CrdManifest = crd_schema::merge_crds!(Widget, WidgetV1beta1);
    for crd in [Widget::crd_manifest(), merged] {
        if let Err(report) = crd_tests::check_derived(&crd) {
            panic!("{}: {report}", crd.metadata.name);
        }
    }
    assert_eq!(<Widget as CustomResource>::SCOPE, "Cluster");
}

#[test]
fn the_rust_first_example_crd_passes_crd_check() {
    let crd = example_derive_operator::Database::crd_manifest();
    crd_tests::check_derived(&crd).unwrap_or_else(|report| panic!("{report}"));
    let checked_in = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/derive-operator/crd.yaml");
    let text = std::fs::read_to_string(checked_in).expect("examples/derive-operator/crd.yaml");
    assert!(text.ends_with(&crd.to_yaml()), "crd.yaml is stale: run `cargo xtask gen`");
}
