//! Kubernetes structural schemas: the model and the API server's algorithms
//! over it.
//!
//! Entry points:
//! - [`crd::load`] / [`crd::parse_source`]: read CRDs (apiextensions.k8s.io
//!   v1 and v1beta1) from YAML or JSON files and directories;
//! - [`wire::JSONSchemaProps`]: every keyword of a CRD schema, as written;
//! - [`structural`]: conversion to the structural form and its invariants;
//! - [`validation`]: what the API server checks about a CRD's schemas;
//! - [`pipeline`]: what the API server does to a custom resource between the
//!   request and storage ([`pruning`], [`defaulting`], [`objectmeta`]);
//! - [`value_validation`] and [`listtype`]: validation of objects against a
//!   schema.
//!
//! Error policy: problems found in schemas are data ([`field::FieldError`],
//! rendered byte-for-byte as Kubernetes renders them); only operational
//! failures (I/O, YAML syntax, budgets) are [`Error`]s. Nothing panics on
//! user input.

pub mod crd;
pub mod defaulting;
pub mod error;
pub mod field;
pub mod gofmt;
pub mod goregexp;
pub mod listtype;
pub mod objectmeta;
pub mod pipeline;
pub mod pruning;
pub mod structural;
pub mod typed;
pub mod validation;
pub mod value_validation;
pub mod wire;
pub mod yaml;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

pub use error::{Error, Result};
