//! The Database controller: for each `Database`, a StatefulSet running the
//! engine and a ConfigMap of its parameters, applied with server-side
//! apply; the status reports the ready replicas. A finalizer runs cleanup
//! before a Database goes (the children themselves are removed by the
//! garbage collector through their owner references).
//!
//! What to create is computed by pure functions ([`desired_statefulset`],
//! [`desired_config_map`], [`desired_status`]), unit-tested without a
//! cluster; [`reconcile`] only talks to the API server.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt as _;
use k8s_openapi::api::apps::v1::{StatefulSet, StatefulSetSpec};
use k8s_openapi::api::core::v1::{
    ConfigMap, ConfigMapEnvSource, Container, EnvFromSource, PersistentVolumeClaim, PersistentVolumeClaimSpec, PodSpec,
    PodTemplateSpec, VolumeMount, VolumeResourceRequirements,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, ObjectMeta};
use kube::api::{Patch, PatchParams};
use kube::runtime::controller::Action;
use kube::runtime::finalizer::{self, Event, finalizer};
use kube::runtime::{Controller, watcher};
use kube::{Api, Client, Resource as _, ResourceExt as _};

use crate::{Database, DatabaseStatus, Engine};

/// The field manager of every apply, and the finalizer's name.
pub const MANAGER: &str = "database-operator.example.com";

/// What every reconciliation shares.
#[derive(Clone)]
pub struct Context {
    /// The API client.
    pub client: Client,
}

// `Client` has no `Debug`.
impl std::fmt::Debug for Context {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Context").finish_non_exhaustive()
    }
}

/// Why a reconciliation failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The API server refused or could not be reached.
    #[error("Kubernetes API: {0}")]
    Kube(#[from] kube::Error),
    /// Adding or removing the finalizer, or the reconciliation inside it.
    #[error("finalizer: {0}")]
    Finalizer(#[source] Box<finalizer::Error<Error>>),
    /// The Database lacks a field the server always sets.
    #[error("the Database has no {0}")]
    Missing(&'static str),
}

/// Watches Databases and the objects they own, and reconciles each until
/// the watch ends.
pub async fn run(client: Client) {
    let context = Arc::new(Context { client: client.clone() });
    Controller::new(Api::<Database>::all(client.clone()), watcher::Config::default())
        .owns(Api::<StatefulSet>::all(client.clone()), watcher::Config::default())
        .owns(Api::<ConfigMap>::all(client), watcher::Config::default())
        .run(reconcile, error_policy, context)
        .for_each(|result| async move {
            match result {
                Ok((object, _)) => eprintln!("reconciled {}/{}", object.namespace.unwrap_or_default(), object.name),
                Err(error) => eprintln!("reconciliation failed: {error}"),
            }
        })
        .await;
}

/// Brings the cluster to what `database` asks for, behind the finalizer.
pub async fn reconcile(database: Arc<Database>, context: Arc<Context>) -> Result<Action, Error> {
    let namespace = database.namespace().ok_or(Error::Missing("metadata.namespace"))?;
    let databases: Api<Database> = Api::namespaced(context.client.clone(), &namespace);
    finalizer(&databases, MANAGER, database, |event| async {
        match event {
            Event::Apply(database) => apply(&database, &context).await,
            Event::Cleanup(database) => cleanup(&database),
        }
    })
    .await
    .map_err(|error| Error::Finalizer(Box::new(error)))
}

/// Retries a failed reconciliation after a minute.
pub fn error_policy(_database: Arc<Database>, _error: &Error, _context: Arc<Context>) -> Action {
    Action::requeue(Duration::from_secs(60))
}

async fn apply(database: &Database, context: &Context) -> Result<Action, Error> {
    let namespace = database.namespace().ok_or(Error::Missing("metadata.namespace"))?;
    let name = database.name_any();
    let params = PatchParams::apply(MANAGER).force();
    let client = &context.client;
    let config_map = desired_config_map(database)?;
    Api::<ConfigMap>::namespaced(client.clone(), &namespace).patch(&name, &params, &Patch::Apply(&config_map)).await?;
    let statefulsets: Api<StatefulSet> = Api::namespaced(client.clone(), &namespace);
    let applied = statefulsets.patch(&name, &params, &Patch::Apply(&desired_statefulset(database)?)).await?;
    let ready = applied.status.and_then(|s| s.ready_replicas).unwrap_or(0);
    let status = serde_json::json!({
        "apiVersion": Database::api_version(&()),
        "kind": Database::kind(&()),
        "status": desired_status(database, ready),
    });
    Api::<Database>::namespaced(client.clone(), &namespace)
        .patch_status(&name, &params, &Patch::Apply(&status))
        .await?;
    Ok(Action::requeue(Duration::from_secs(300)))
}

// The children go with their owner; nothing outside the cluster to undo.
fn cleanup(database: &Database) -> Result<Action, Error> {
    eprintln!("{} deleted; its StatefulSet and ConfigMap go with it", database.name_any());
    Ok(Action::await_change())
}

/// The labels of every object that belongs to `database`.
pub fn labels(database: &Database) -> BTreeMap<String, String> {
    BTreeMap::from([
        ("app.kubernetes.io/name".to_owned(), database.name_any()),
        ("app.kubernetes.io/managed-by".to_owned(), MANAGER.to_owned()),
    ])
}

// A child: in the Database's namespace, named after it, owned by it.
fn child_metadata(database: &Database) -> Result<ObjectMeta, Error> {
    let owner = database.controller_owner_ref(&()).ok_or(Error::Missing("metadata.name or metadata.uid"))?;
    Ok(ObjectMeta {
        name: Some(database.name_any()),
        namespace: database.namespace(),
        labels: Some(labels(database)),
        owner_references: Some(vec![owner]),
        ..ObjectMeta::default()
    })
}

/// The engine's container image.
pub fn image(database: &Database) -> String {
    let engine = match database.spec.engine {
        Engine::Postgres => "postgres",
        Engine::Mysql => "mysql",
    };
    format!("{engine}:{}", database.spec.version)
}

/// The ConfigMap of the engine parameters, read by the container as its
/// environment.
pub fn desired_config_map(database: &Database) -> Result<ConfigMap, Error> {
    Ok(ConfigMap {
        metadata: child_metadata(database)?,
        data: Some(database.spec.parameters.clone()),
        ..ConfigMap::default()
    })
}

/// The StatefulSet that runs the engine: `spec.replicas` pods, each with a
/// volume of `spec.storage` when it is set.
pub fn desired_statefulset(database: &Database) -> Result<StatefulSet, Error> {
    let metadata = child_metadata(database)?;
    let name = database.name_any();
    let claims = database.spec.storage.as_ref().map(|size| {
        vec![PersistentVolumeClaim {
            metadata: ObjectMeta { name: Some("data".to_owned()), ..ObjectMeta::default() },
            spec: Some(PersistentVolumeClaimSpec {
                access_modes: Some(vec!["ReadWriteOnce".to_owned()]),
                resources: Some(VolumeResourceRequirements {
                    requests: Some(BTreeMap::from([("storage".to_owned(), size.clone())])),
                    ..VolumeResourceRequirements::default()
                }),
                ..PersistentVolumeClaimSpec::default()
            }),
            ..PersistentVolumeClaim::default()
        }]
    });
    let mounts = claims.as_ref().map(|_| {
        vec![VolumeMount { name: "data".to_owned(), mount_path: "/var/lib/data".to_owned(), ..VolumeMount::default() }]
    });
    let container = Container {
        name: "engine".to_owned(),
        image: Some(image(database)),
        env_from: Some(vec![EnvFromSource {
            config_map_ref: Some(ConfigMapEnvSource { name: name.clone(), optional: Some(false) }),
            ..EnvFromSource::default()
        }]),
        volume_mounts: mounts,
        ..Container::default()
    };
    Ok(StatefulSet {
        metadata,
        spec: Some(StatefulSetSpec {
            replicas: Some(database.spec.replicas),
            service_name: Some(name),
            selector: LabelSelector { match_labels: Some(labels(database)), ..LabelSelector::default() },
            template: PodTemplateSpec {
                metadata: Some(ObjectMeta { labels: Some(labels(database)), ..ObjectMeta::default() }),
                spec: Some(PodSpec { containers: vec![container], ..PodSpec::default() }),
            },
            volume_claim_templates: claims,
            ..StatefulSetSpec::default()
        }),
        ..StatefulSet::default()
    })
}

/// The status to report when `ready` replicas are ready.
pub fn desired_status(database: &Database, ready: i32) -> DatabaseStatus {
    DatabaseStatus { replicas: ready, ready: ready >= database.spec.replicas }
}

#[cfg(test)]
mod tests {
    use k8s_openapi::apimachinery::pkg::api::resource::Quantity;

    use super::*;
    use crate::DatabaseSpec;

    fn database(spec: DatabaseSpec) -> Database {
        let mut database = Database::new("orders", spec);
        database.metadata.namespace = Some("shop".to_owned());
        database.metadata.uid = Some("0b1c".to_owned());
        database
    }

    fn spec() -> DatabaseSpec {
        DatabaseSpec { version: "16.2".to_owned(), replicas: 3, ..DatabaseSpec::default() }
    }

    #[test]
    fn the_statefulset_runs_the_spec() {
        let set = desired_statefulset(&database(spec())).expect("a StatefulSet");
        let set_spec = set.spec.expect("a spec");
        assert_eq!(set_spec.replicas, Some(3));
        let containers = &set_spec.template.spec.expect("a pod spec").containers;
        assert_eq!(containers[0].image.as_deref(), Some("postgres:16.2"));
        assert_eq!(set_spec.selector.match_labels, Some(labels(&database(spec()))));
        assert_eq!(set_spec.volume_claim_templates, None);
        assert_eq!((set.metadata.name.as_deref(), set.metadata.namespace.as_deref()), (Some("orders"), Some("shop")));
    }

    #[test]
    fn children_are_owned_by_the_database() {
        let map = desired_config_map(&database(spec())).expect("a ConfigMap");
        let owners = map.metadata.owner_references.expect("owners");
        assert_eq!(owners.len(), 1);
        let owner = &owners[0];
        assert_eq!((owner.kind.as_str(), owner.name.as_str(), owner.uid.as_str()), ("Database", "orders", "0b1c"));
        assert_eq!(owner.controller, Some(true));
    }

    #[test]
    fn storage_becomes_a_volume_claim_and_parameters_a_config_map() {
        let spec = DatabaseSpec {
            engine: Engine::Mysql,
            storage: Some(Quantity("10Gi".to_owned())),
            parameters: BTreeMap::from([("max_connections".to_owned(), "200".to_owned())]),
            ..spec()
        };
        let set = desired_statefulset(&database(spec.clone())).expect("a StatefulSet").spec.expect("a spec");
        let claims = set.volume_claim_templates.expect("a claim");
        let requests = claims[0].spec.as_ref().and_then(|s| s.resources.as_ref()).and_then(|r| r.requests.as_ref());
        assert_eq!(requests.and_then(|r| r.get("storage")), Some(&Quantity("10Gi".to_owned())));
        assert_eq!(set.template.spec.expect("a pod spec").containers[0].image.as_deref(), Some("mysql:16.2"));
        let map = desired_config_map(&database(spec)).expect("a ConfigMap");
        assert_eq!(map.data.and_then(|d| d.get("max_connections").cloned()).as_deref(), Some("200"));
    }

    #[test]
    fn a_database_the_server_has_not_stored_has_no_children() {
        let unsaved = Database::new("orders", spec());
        assert!(matches!(desired_statefulset(&unsaved), Err(Error::Missing(_))));
    }

    #[test]
    fn ready_only_when_every_replica_is() {
        let database = database(spec());
        assert_eq!(desired_status(&database, 2), DatabaseStatus { replicas: 2, ready: false });
        assert_eq!(desired_status(&database, 3), DatabaseStatus { replicas: 3, ready: true });
    }
}
