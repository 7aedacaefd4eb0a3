//! A Rust-first operator on kube-rs. The Rust is the source of truth:
//! `#[derive(CustomResourceSchema)]` turns it into the structural schema
//! and the whole CRD, which `cargo xtask gen` writes to `crd.yaml` for
//! `kubectl apply` (and `--check` keeps it from going stale). The derived
//! `Database` is a kube-rs resource, so [`controller`] runs it with
//! `kube::runtime::Controller` like any k8s-openapi type.
//!
//! ```
//! use kube::CustomResourceExt as _;
//!
//! let crd = example_derive_operator::Database::crd_manifest();
//! assert_eq!(crd.metadata.name, "databases.example.com");
//! // The same CRD as k8s-openapi's type, as kube-derive's roots give it.
//! let k8s = example_derive_operator::Database::crd();
//! assert_eq!(k8s.spec.names.short_names, Some(vec!["db".to_owned()]));
//! ```

pub mod controller;

use std::collections::BTreeMap;

use crd_schema::CustomResourceSchema;
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use serde::{Deserialize, Serialize};

/// A managed database.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, CustomResourceSchema)]
#[crd(
    group = "example.com",
    version = "v1",
    kind = "Database",
    short_names = ["db"],
    categories = ["all"],
    status,
    scale(spec_replicas_path = ".spec.replicas", status_replicas_path = ".status.replicas"),
    printer_column(name = "Engine", type_ = "string", json_path = ".spec.engine"),
    printer_column(name = "Ready", type_ = "boolean", json_path = ".status.ready", priority = 1),
    selectable_field = ".spec.engine"
)]
#[schema(validation(
    rule = "!has(self.status) || self.status.replicas <= self.spec.replicas",
    message = "status cannot report more replicas than requested"
))]
pub struct Database {
    /// APIVersion defines the versioned schema of this representation of an object.
    #[serde(rename = "apiVersion")]
    pub api_version: String,
    /// Kind is a string value representing the REST resource this object represents.
    pub kind: String,
    /// Standard object metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// What the user asks for.
    pub spec: DatabaseSpec,
    /// What the operator observed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<DatabaseStatus>,
}

/// The desired state of a database.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, CustomResourceSchema)]
#[serde(rename_all = "camelCase")]
pub struct DatabaseSpec {
    /// The database engine.
    pub engine: Engine,
    /// The engine version, `major.minor`.
    #[schema(pattern = r"^[0-9]+\.[0-9]+$", max_length = 16)]
    pub version: String,
    /// How many replicas to run.
    #[serde(default = "default_replicas")]
    #[schema(minimum = 1, maximum = 9)]
    pub replicas: i32,
    /// The volume size of each replica.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub storage: Option<Quantity>,
    /// When to take backups; none when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backup: Option<Backup>,
    /// Engine parameters, passed through unchanged.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[schema(max_properties = 64, values(max_length = 256))]
    pub parameters: BTreeMap<String, String>,
    /// Users to create, by name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys = ["name"], max_items = 32)]
    pub users: Vec<User>,
}

fn default_replicas() -> i32 {
    1
}

/// A database engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, CustomResourceSchema)]
#[serde(rename_all = "lowercase")]
pub enum Engine {
    /// PostgreSQL.
    #[default]
    Postgres,
    /// MySQL.
    Mysql,
}

/// A backup schedule: on a cron expression, or every so many hours.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, CustomResourceSchema)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Backup {
    /// On a cron schedule.
    Cron {
        /// A cron expression (`0 3 * * *`).
        #[schema(min_length = 9)]
        schedule: String,
    },
    /// Every `hours` hours.
    Interval {
        /// Hours between backups.
        #[schema(minimum = 1, maximum = 168)]
        hours: i32,
    },
}

/// A database user.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, CustomResourceSchema)]
#[serde(rename_all = "camelCase")]
pub struct User {
    /// The user name.
    #[schema(pattern = "^[a-z][a-z0-9_]*$")]
    pub name: String,
    /// Whether the user may change the schema.
    #[serde(default)]
    pub admin: bool,
}

/// The observed state of a database.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, CustomResourceSchema)]
#[serde(rename_all = "camelCase")]
pub struct DatabaseStatus {
    /// Replicas that are running.
    #[serde(default)]
    pub replicas: i32,
    /// Whether every replica is ready.
    #[serde(default)]
    pub ready: bool,
}
