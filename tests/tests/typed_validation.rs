//! Typed validation: `validate()` and `validate_update()` on every type with
//! a schema give the error list the API server gives for the same value.

use crd_schema::CustomResourceSchema;
use crd_schema::resource::ResourceValidator;
use crd_schema::typed::Invalid;
use example_derive_operator::{Database, DatabaseSpec, DatabaseStatus, Engine, User};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use serde::Serialize;

fn database(name: &str) -> Database {
    Database {
        api_version: "example.com/v1".into(),
        kind: "Database".into(),
        metadata: ObjectMeta { name: Some(name.into()), ..ObjectMeta::default() },
        spec: DatabaseSpec { engine: Engine::Postgres, version: "16.2".into(), replicas: 3, ..DatabaseSpec::default() },
        status: None,
    }
}

fn texts(result: Result<(), Invalid>) -> Vec<String> {
    result.err().map(|e| e.0.iter().map(ToString::to_string).collect()).unwrap_or_default()
}

#[test]
fn a_valid_root_passes() {
    assert_eq!(database("orders").validate(), Ok(()));
}

#[test]
fn a_root_is_checked_as_a_resource() {
    let mut db = database("Orders_DB");
    db.spec.replicas = 12;
    db.spec.version = "sixteen".into();
    db.spec.users = vec![User { name: "app".into(), admin: false }, User { name: "app".into(), admin: true }];
    let got = texts(db.validate());
    assert!(
        got[0].starts_with("metadata.name: Invalid value: \"Orders_DB\": a lowercase RFC 1123 subdomain"),
        "{got:?}"
    );
    for expected in [
        "spec.replicas: Invalid value: 12: spec.replicas in body should be less than or equal to 9",
        "spec.version: Invalid value: \"sixteen\": spec.version in body should match '^[0-9]+\\.[0-9]+$'",
    ] {
        assert!(got.iter().any(|g| g == expected), "missing {expected:?} in {got:?}");
    }
    assert!(got.iter().any(|g| g.starts_with("spec.users[1]: Duplicate value: ")), "{got:?}");
    assert_eq!(got.len(), 4, "{got:?}");
}

#[test]
fn wrong_type_meta_is_reported_first_and_alone() {
    let mut db = database("orders");
    db.kind = "Table".into();
    assert_eq!(texts(db.validate()), ["kind: Invalid value: \"Table\": must be Database"]);
}

#[test]
fn the_same_errors_as_the_server_path() {
    let mut db = database("orders");
    db.spec.replicas = 0;
    let crd =
        crd_schema::crd::CustomResourceDefinition::from_manifest(&Database::crd_manifest().to_value()).expect("a CRD");
    let server = ResourceValidator::from_crd(&crd, "v1").expect("structural");
    let expected: Vec<String> =
        server.create(serde_json::to_value(&db).expect("serializes")).errors.iter().map(ToString::to_string).collect();
    assert!(!expected.is_empty());
    assert_eq!(texts(db.validate()), expected);
}

#[test]
fn status_is_not_validated_on_create_with_the_status_subresource() {
    let mut db = database("orders");
    db.status = Some(DatabaseStatus { replicas: -4, ready: true });
    assert_eq!(db.validate(), Ok(()));
}

#[test]
fn updates_ratchet_and_keep_the_name() {
    let mut old = database("orders");
    old.spec.version = "latest".into();
    // An invalid value the update does not touch is not reported.
    let mut new = old.clone();
    new.spec.replicas = 4;
    assert_eq!(new.validate_update(&old), Ok(()));
    assert!(new.validate().is_err());
    new.metadata.name = Some("invoices".into());
    assert_eq!(texts(new.validate_update(&old)), ["metadata.name: Invalid value: \"invoices\": field is immutable"]);
}

/// A value type, not a root: validated against its own schema.
#[derive(Serialize, CustomResourceSchema)]
#[serde(rename_all = "camelCase")]
struct Window {
    #[schema(minimum = 0, maximum = 23)]
    start_hour: i32,
    #[schema(validation(rule = "self.all(d, d in ['mon', 'tue', 'wed', 'thu', 'fri'])", message = "weekdays only"))]
    days: Vec<String>,
}

#[test]
fn value_types_are_checked_against_their_schema() {
    assert_eq!(Window { start_hour: 3, days: vec!["mon".into()] }.validate(), Ok(()));
    let got = texts(Window { start_hour: 30, days: vec![] }.validate());
    assert_eq!(got, ["startHour: Invalid value: 30: startHour in body should be less than or equal to 23"]);
}

#[test]
fn cel_rules_run_on_typed_values() {
    let got = texts(Window { start_hour: 3, days: vec!["sat".into()] }.validate());
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(got[0].starts_with("days: Invalid value: ") && got[0].ends_with(": weekdays only"), "{got:?}");
}

/// A root with a transition rule.
#[derive(Clone, Serialize, CustomResourceSchema)]
#[crd(group = "example.com", version = "v1", kind = "Volume")]
struct Volume {
    #[serde(rename = "apiVersion")]
    api_version: String,
    kind: String,
    metadata: ObjectMeta,
    spec: VolumeSpec,
}

#[derive(Clone, Serialize, CustomResourceSchema)]
struct VolumeSpec {
    #[schema(validation(rule = "self == oldSelf", message = "class is immutable"))]
    class: String,
}

#[test]
fn transition_rules_run_on_updates_only() {
    let volume = |class: &str| Volume {
        api_version: "example.com/v1".into(),
        kind: "Volume".into(),
        metadata: ObjectMeta { name: Some("data".into()), namespace: Some("apps".into()), ..ObjectMeta::default() },
        spec: VolumeSpec { class: class.into() },
    };
    assert_eq!(volume("fast").validate(), Ok(()));
    assert_eq!(volume("fast").validate_update(&volume("fast")), Ok(()));
    assert_eq!(
        texts(volume("slow").validate_update(&volume("fast"))),
        ["spec.class: Invalid value: \"slow\": class is immutable"]
    );
}
