//! Derived roots (both forms) and generated roots are kube-rs resources:
//! `Api`, `Controller`, `watcher`, `ResourceExt`, server-side apply of the
//! status and `CustomResourceExt` type-check for each of them, and the CRD
//! that `CustomResourceExt::crd()` returns is our `crd_manifest()`,
//! converted without loss, and passes `crd check`.
//!
//! This module imports kube-derive's `CustomResource` and ours at once:
//! kube's is a derive macro, ours a trait, so both names live side by side.

use std::fmt::Debug;
use std::sync::Arc;

use crd_schema::CustomResourceSchema;
use crd_schema::schema::{CrdManifest, CustomResource};
use k8s_openapi::NamespaceResourceScope;
use kube::api::{Patch, PatchParams};
use kube::runtime::controller::Action;
use kube::runtime::{Controller, watcher};
use kube::{Api, Client, CustomResource, CustomResourceExt, ResourceExt};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// The spec-first form: the derive generates `Database` around this spec.
mod spec_first {
    use super::*;

    /// The desired state of a database.
    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, CustomResourceSchema)]
    #[crd(
        group = "example.com",
        version = "v1",
        kind = "Database",
        namespaced,
        status = "DatabaseStatus",
        shortname = "db",
        category = "all",
        printcolumn = r#"{"name": "Replicas", "type": "integer", "jsonPath": ".spec.replicas"}"#,
        selectable = ".spec.engine",
        scale(spec_replicas_path = ".spec.replicas", status_replicas_path = ".status.replicas"),
        derive = "PartialEq",
        derive = "Default",
        annotation("example.com/owner", "team-a"),
        label("app.kubernetes.io/part-of", "databases")
    )]
    pub struct DatabaseSpec {
        /// The database engine.
        pub engine: String,
        /// How many replicas to run.
        #[schema(minimum = 1)]
        pub replicas: i32,
    }

    /// The observed state of a database.
    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, CustomResourceSchema)]
    pub struct DatabaseStatus {
        /// Replicas that are running.
        pub replicas: i32,
    }
}

/// The same resource in the root form, written out as the spec-first form
/// generates it.
mod whole_root {
    use super::*;
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

    pub use super::spec_first::{DatabaseSpec, DatabaseStatus};

    #[derive(Clone, Debug, Serialize, Deserialize, CustomResourceSchema)]
    #[crd(
        group = "example.com",
        version = "v1",
        kind = "Database",
        scope = "Namespaced",
        status,
        short_names = ["db"],
        categories = ["all"],
        printer_column(name = "Replicas", type_ = "integer", json_path = ".spec.replicas"),
        selectable_field = ".spec.engine",
        scale(spec_replicas_path = ".spec.replicas", status_replicas_path = ".status.replicas"),
        annotation("example.com/owner", "team-a"),
        label("app.kubernetes.io/part-of", "databases")
    )]
    pub struct Database {
        /// APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
        #[serde(rename = "apiVersion")]
        pub api_version: String,
        /// Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
        pub kind: String,
        /// Standard object metadata.
        #[serde(default)]
        pub metadata: ObjectMeta,
        pub spec: DatabaseSpec,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub status: Option<DatabaseStatus>,
    }
}

/// A root in kube-derive's own form, in the same module as ours.
#[derive(CustomResource, Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[kube(group = "example.com", version = "v1", kind = "Cache", namespaced)]
pub struct CacheSpec {
    size: i32,
}

/// What an operator does with a resource type, for any `K`: if this
/// compiles for a type, kube-rs accepts it everywhere an operator needs it.
async fn operate<K>(client: Client) -> kube::Result<Vec<String>>
where
    K: kube::Resource<DynamicType = (), Scope = NamespaceResourceScope>
        + CustomResourceExt
        + Clone
        + Debug
        + Serialize
        + DeserializeOwned
        + Send
        + Sync
        + 'static,
{
    let namespaced: Api<K> = Api::namespaced(client.clone(), "default");
    let names = namespaced.list(&Default::default()).await?.iter().map(ResourceExt::name_any).collect();
    let status = serde_json::json!({
        "apiVersion": K::api_version(&()),
        "kind": K::kind(&()),
        "status": {"replicas": 1},
    });
    namespaced.patch_status("name", &PatchParams::apply("kube-compat").force(), &Patch::Apply(&status)).await?;
    let controller = Controller::new(Api::<K>::all(client), watcher::Config::default());
    let _ = controller.run(
        |_object: Arc<K>, _context: Arc<()>| async { Ok::<_, kube::Error>(Action::await_change()) },
        |_object: Arc<K>, _error: &kube::Error, _context: Arc<()>| Action::await_change(),
        Arc::new(()),
    );
    let _crd = <K as CustomResourceExt>::crd();
    Ok(names)
}

#[test]
fn every_kind_of_root_is_a_kube_resource() {
    // Naming the instances type-checks `operate` for each root type; the
    // futures are never polled (there is no cluster here).
    let _ = operate::<spec_first::Database>;
    let _ = operate::<whole_root::Database>;
    let _ = operate::<example_derive_operator::Database>;
    let _ = operate::<example_widgets::v1::Widget>;
    let _ = operate::<Cache>;
    assert_eq!(<spec_first::Database as kube::Resource>::plural(&()), "databases");
    assert_eq!(<example_widgets::v1::Widget as kube::Resource>::api_version(&()), "example.com/v1");
    assert_eq!(spec_first::Database::crd_name(), "databases.example.com");
    assert_eq!(example_widgets::v1::Widget::shortnames(), ["wd"]);
    let resource = example_derive_operator::Database::api_resource();
    assert_eq!(
        (resource.group.as_str(), resource.kind.as_str(), resource.plural.as_str()),
        ("example.com", "Database", "databases")
    );
}

/// `CustomResourceExt::crd()` against our manifest: the k8s-openapi value
/// serialises to exactly our JSON, and the CRD passes `crd check`.
fn assert_kube_crd_is_ours<K: CustomResourceExt + CustomResource>() {
    let ours: CrdManifest = K::crd_manifest();
    let kube = serde_json::to_value(<K as CustomResourceExt>::crd()).expect("a CRD serialises");
    if let Some(path) = crd_tests::first_difference(&kube, &ours.to_value()) {
        panic!("{}: CustomResourceExt::crd() differs from crd_manifest() at {path}", ours.metadata.name);
    }
    let converted = ours.clone().into_k8s().expect("a derived CRD converts");
    assert_eq!(serde_json::to_value(converted).ok(), Some(kube));
    crd_tests::check_derived(&ours).unwrap_or_else(|report| panic!("{report}"));
}

#[test]
fn custom_resource_ext_crd_is_our_crd() {
    assert_kube_crd_is_ours::<spec_first::Database>();
    assert_kube_crd_is_ours::<whole_root::Database>();
    assert_kube_crd_is_ours::<example_derive_operator::Database>();
    assert_kube_crd_is_ours::<example_widgets::v1::Widget>();
}

#[test]
fn the_spec_first_form_derives_the_crd_of_the_root_form() {
    let spec_first = spec_first::Database::crd_manifest().to_value();
    let whole_root = whole_root::Database::crd_manifest().to_value();
    if let Some(path) = crd_tests::first_difference(&spec_first, &whole_root) {
        panic!(
            "the forms differ at {path}: {} against {}",
            crd_tests::value_at(&spec_first, &path),
            crd_tests::value_at(&whole_root, &path)
        );
    }
    let schema = &spec_first["spec"]["versions"][0]["schema"]["openAPIV3Schema"];
    let properties: Vec<&str> =
        schema["properties"].as_object().expect("properties").keys().map(String::as_str).collect();
    assert_eq!(properties, ["apiVersion", "kind", "metadata", "spec", "status"]);
    assert_eq!(schema["required"], serde_json::json!(["spec"]));
    assert_eq!(spec_first["spec"]["scope"], "Namespaced");
    let metadata = serde_json::json!({
        "name": "databases.example.com",
        "labels": {"app.kubernetes.io/part-of": "databases"},
        "annotations": {"example.com/owner": "team-a"},
    });
    assert_eq!(spec_first["metadata"], metadata);
}

#[test]
fn roots_have_a_constructor() {
    let spec = spec_first::DatabaseSpec { engine: "postgres".to_owned(), replicas: 2 };
    let database = spec_first::Database::new("orders", spec.clone());
    assert_eq!(database.name_any(), "orders");
    assert_eq!((database.api_version.as_str(), database.kind.as_str()), ("example.com/v1", "Database"));
    assert_eq!((database.spec, database.status), (spec, None));
    let default = spec_first::Database::default();
    assert_eq!((default.api_version.as_str(), default.kind.as_str()), ("example.com/v1", "Database"));

    let widget_spec = example_widgets::v1::WidgetSpec { size: 5, ..Default::default() };
    let widget = example_widgets::v1::Widget::new("w", widget_spec.clone());
    assert_eq!(widget.metadata.name.as_deref(), Some("w"));
    assert_eq!((widget.api_version.as_str(), widget.kind.as_str()), ("example.com/v1", "Widget"));
    assert_eq!(widget.spec, Some(widget_spec));

    let cache = Cache::new("c", CacheSpec { size: 1 });
    assert_eq!(cache.name_any(), "c");
}
