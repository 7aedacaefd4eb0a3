//! The types of `examples/derive-operator/src/lib.rs` written for
//! kube-derive and schemars, as a kube-rs user writes them today: the peer
//! of `cargo xtask bench`'s cold-build comparison (its crate is built from
//! this file; it is not part of the workspace). Keep it the same types,
//! fields and keywords as the example.

use std::collections::BTreeMap;

use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use kube::core::{ListMerge, Rule};
use kube::{CustomResource, KubeSchema};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The desired state of a database.
#[derive(CustomResource, Clone, Debug, Default, PartialEq, Serialize, Deserialize, KubeSchema)]
#[kube(
    group = "example.com",
    version = "v1",
    kind = "Database",
    namespaced,
    shortname = "db",
    category = "all",
    status = "DatabaseStatus",
    derive = "Default",
    derive = "PartialEq",
    scale(spec_replicas_path = ".spec.replicas", status_replicas_path = ".status.replicas"),
    printcolumn(name = "Engine", type_ = "string", json_path = ".spec.engine"),
    printcolumn(name = "Ready", type_ = "boolean", json_path = ".status.ready", priority = "1"),
    selectable = ".spec.engine",
    validation = Rule::new("!has(self.status) || self.status.replicas <= self.spec.replicas")
        .message("status cannot report more replicas than requested")
)]
#[serde(rename_all = "camelCase")]
pub struct DatabaseSpec {
    /// The database engine.
    pub engine: Engine,
    /// The engine version, `major.minor`.
    #[schemars(regex(pattern = r"^[0-9]+\.[0-9]+$"), length(max = 16))]
    pub version: String,
    /// How many replicas to run.
    #[serde(default = "default_replicas")]
    #[schemars(range(min = 1, max = 9))]
    pub replicas: i32,
    /// The volume size of each replica.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub storage: Option<Quantity>,
    /// When to take backups; none when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backup: Option<Backup>,
    /// Engine parameters, passed through unchanged.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[schemars(length(max = 64))]
    pub parameters: BTreeMap<String, String>,
    /// Users to create, by name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = 32))]
    #[x_kube(merge_strategy = ListMerge::Map(vec!["name".to_owned()]))]
    pub users: Vec<User>,
}

fn default_replicas() -> i32 {
    1
}

/// A database engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Engine {
    /// PostgreSQL.
    #[default]
    Postgres,
    /// MySQL.
    Mysql,
}

/// A backup schedule: on a cron expression, or every so many hours.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Backup {
    /// On a cron schedule.
    Cron {
        /// A cron expression (`0 3 * * *`).
        #[schemars(length(min = 9))]
        schedule: String,
    },
    /// Every `hours` hours.
    Interval {
        /// Hours between backups.
        #[schemars(range(min = 1, max = 168))]
        hours: i32,
    },
}

/// A database user.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct User {
    /// The user name.
    #[schemars(regex(pattern = "^[a-z][a-z0-9_]*$"))]
    pub name: String,
    /// Whether the user may change the schema.
    #[serde(default)]
    pub admin: bool,
}

/// The observed state of a database.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DatabaseStatus {
    /// Replicas that are running.
    #[serde(default)]
    pub replicas: i32,
    /// Whether every replica is ready.
    #[serde(default)]
    pub ready: bool,
}
