//! The runtime half of Rust → structural schemas across crates: the schemas
//! of k8s-openapi's types, schemars schemas made structural (PodSpec), and
//! CRD manifests as the API server and k8s-openapi take them.

use crd_schema::crd::CustomResourceDefinition;
use crd_schema::field::Path;
use crd_schema::schema::{
    CrdManifest, CrdVersionManifest, CustomResource, CustomResourceSchema, Schema, SchemaGenerator, schema_for,
    schemars_schema,
};
use crd_schema::structural::{ValidationOptions, new_structural, validate_structural};
use crd_schema::validation::validate_crd_create;
use crd_schema::wire::JSONSchemaProps;
use k8s_openapi::api::core::v1::PodSpec;
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{MicroTime, ObjectMeta, Time};
use k8s_openapi::apimachinery::pkg::runtime::RawExtension;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use serde_json::{Value, json};

fn schema<T: CustomResourceSchema + ?Sized>() -> Value {
    Value::Object(schema_for::<T>())
}

fn object(value: Value) -> Schema {
    match value {
        Value::Object(map) => map,
        other => panic!("not an object: {other}"),
    }
}

#[test]
fn k8s_types_have_controller_gens_schemas() {
    assert_eq!(schema::<ObjectMeta>(), json!({"type": "object"}));
    let int_or_string = json!({"x-kubernetes-int-or-string": true, "anyOf": [{"type": "integer"}, {"type": "string"}]});
    assert_eq!(schema::<IntOrString>(), int_or_string);
    let mut quantity = int_or_string.clone();
    quantity["pattern"] = json!(
        r"^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$"
    );
    assert_eq!(schema::<Quantity>(), quantity);
    let date_time = json!({"type": "string", "format": "date-time"});
    assert_eq!(schema::<Time>(), date_time);
    assert_eq!(schema::<Option<MicroTime>>(), date_time);
    assert_eq!(schema::<RawExtension>(), json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true}));
}

/// A root type written by hand, as the derive would expand it: `spec`
/// holds `PodSpec` through schemars and a few k8s-openapi types.
macro_rules! root {
    ($name:ident, $version:literal, $storage:literal) => {
        struct $name;

        impl CustomResourceSchema for $name {
            fn schema(generator: &mut SchemaGenerator) -> Schema {
                let mut spec = object(json!({"type": "object", "properties": {}}));
                spec["properties"]["template"] = Value::Object(schemars_schema::<PodSpec>(generator));
                spec["properties"]["port"] = Value::Object(generator.subschema::<IntOrString>());
                spec["properties"]["memory"] = Value::Object(generator.subschema::<Option<Quantity>>());
                spec["properties"]["extra"] = Value::Object(generator.subschema::<RawExtension>());
                object(json!({
                    "type": "object",
                    "properties": {
                        "apiVersion": {"type": "string"},
                        "kind": {"type": "string"},
                        "metadata": generator.subschema::<ObjectMeta>(),
                        "spec": spec,
                    },
                    "required": ["spec"],
                }))
            }
        }

        impl CustomResource for $name {
            const GROUP: &'static str = "example.com";
            const VERSION: &'static str = $version;
            const KIND: &'static str = "PodHolder";
            const PLURAL: &'static str = "podholders";
            const SINGULAR: &'static str = "podholder";
            const LIST_KIND: &'static str = "PodHolderList";
            const SHORT_NAMES: &'static [&'static str] = &["ph"];
            const CATEGORIES: &'static [&'static str] = &[];
            const SCOPE: &'static str = "Namespaced";
            const STORAGE: bool = $storage;

            fn crd_version(generator: &mut SchemaGenerator) -> CrdVersionManifest {
                let schema = generator.subschema::<Self>();
                CrdVersionManifest { storage: $storage, ..CrdVersionManifest::new($version, schema) }
            }
        }
    };
}

root!(PodHolderV1, "v1", true);
root!(PodHolderV1beta1, "v1beta1", false);

#[test]
fn pod_spec_through_schemars_is_structural() {
    let pod_spec = Value::Object(schemars_schema::<PodSpec>(&mut SchemaGenerator::new()));
    assert_eq!(pod_spec["type"], "object");
    assert_eq!(pod_spec["properties"]["containers"]["items"]["properties"]["image"]["type"], "string");
    assert!(pod_spec["required"].as_array().is_some_and(|r| r.contains(&json!("containers"))));
    let text = pod_spec.to_string();
    assert!(!text.contains("$ref") && !text.contains("\"null\""), "references and nulls are gone");

    let root =
        json!({"type": "object", "properties": {"spec": {"type": "object", "properties": {"template": pod_spec}}}});
    let (props, issues) = JSONSchemaProps::decode(&root);
    assert!(issues.is_empty(), "{:?}", issues.iter().map(|i| i.message("")).collect::<Vec<_>>());
    let structural = new_structural(&props).expect("new_structural");
    let errors = validate_structural(&Path::root(), &structural, &ValidationOptions::default());
    assert!(errors.is_empty(), "{errors:?}");
}

/// `crd` is a CRD the API server creates without complaint.
fn assert_valid_crd(crd: &CrdManifest) {
    let parsed = CustomResourceDefinition::from_manifest(&crd.to_value()).expect("a CRD manifest");
    assert!(
        parsed.decode_issues.is_empty(),
        "{:?}",
        parsed.decode_issues.iter().map(|i| i.message("")).collect::<Vec<_>>()
    );
    let mut created = parsed.clone();
    created.prepare_for_create();
    let errors = validate_crd_create(&created);
    assert!(errors.is_empty(), "{}", errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"));
}

#[test]
fn merged_versions_make_one_valid_crd() {
    let crd = crd_schema::merge_crds!(PodHolderV1, PodHolderV1beta1);
    assert_eq!(crd.metadata.name, "podholders.example.com");
    let versions: Vec<(&str, bool)> = crd.spec.versions.iter().map(|v| (v.name.as_str(), v.storage)).collect();
    assert_eq!(versions, [("v1", true), ("v1beta1", false)]);
    assert_eq!(crd.spec.names.short_names, ["ph"]);
    assert_valid_crd(&crd);
    assert_valid_crd(&PodHolderV1::crd_manifest());
}

#[test]
fn manifests_serialise_the_same_in_json_yaml_and_k8s_openapi() {
    let crd = crd_schema::merge_crds!(PodHolderV1, PodHolderV1beta1);
    let value = crd.to_value();
    assert_eq!(value["apiVersion"], "apiextensions.k8s.io/v1");
    assert_eq!(value["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["required"], json!(["spec"]));

    let json: Value = serde_json::from_str(&crd.to_json()).expect("JSON");
    assert_eq!(json, value);
    let yaml = crd.to_yaml();
    let documents = crd_schema::yaml::parse_documents("crd.yaml", &yaml).expect("YAML");
    assert_eq!(documents.len(), 1);
    assert_eq!(documents[0].value, value);
    assert_eq!(yaml, crd.clone().to_yaml(), "the same manifest gives the same text");

    let k8s = crd.into_k8s().expect("converts");
    assert_eq!(k8s.spec.versions.len(), 2);
    assert_eq!(serde_json::to_value(&k8s).expect("serialises"), value);
}
