//! Kubernetes structural schemas: the model and the API server's algorithms
//! over it.
//!
//! Without features, this crate is what generated and derived code needs:
//! - [`schema`]: Rust types → structural schemas and CRD manifests
//!   (`#[derive(CustomResourceSchema)]` with feature `derive`);
//! - [`typed`]: decoding into generated types with the API server's pruning
//!   and defaulting, and errors that name the path;
//! - [`limits`]: bounds on input size and shape, for every reader.
//!
#![cfg_attr(
    feature = "engine",
    doc = "With feature `engine`, the API server's algorithms:
- [`crd::load`] / [`crd::parse_source`]: read CRDs (apiextensions.k8s.io
  v1 and v1beta1) from YAML or JSON files and directories;
- [`wire::JSONSchemaProps`]: every keyword of a CRD schema, as written;
- [`structural`]: conversion to the structural form and its invariants;
- [`validation`]: what the API server checks about a CRD's schemas;
- [`pipeline`]: what the API server does to a custom resource between the
  request and storage ([`pruning`], [`defaulting`], [`objectmeta`]);
- [`value_validation`] and [`listtype`]: validation of objects against a
  schema; [`resource`]: every check the API server runs on a custom
  resource when it is created or updated;
- [`check`]: what the API server would say about a CRD, each finding
  located in its source; [`explain`]: what `kubectl explain` prints for a
  resource or one of its fields.
"
)]
#![cfg_attr(
    not(feature = "engine"),
    doc = "Feature `engine` adds the API server's algorithms: the CRD readers
(`crd`, `wire`), structural checks (`structural`, `validation`), pruning,
defaulting, value validation and OpenAPI publishing (`pipeline`,
`resource`), CRD checks (`check`) and `kubectl explain` (`explain`);
feature `cel` adds CEL rules.
"
)]
//!
//! Error policy: problems found in schemas are data ([`field::FieldError`],
//! rendered byte-for-byte as Kubernetes renders them); only operational
//! failures (I/O, YAML syntax, [`limits`]) are [`Error`]s. Nothing panics on
//! user input.

#![warn(missing_docs)]

#[cfg(feature = "cel")]
pub mod cel;
#[cfg(feature = "engine")]
pub mod check;
#[cfg(feature = "engine")]
pub mod crd;
#[cfg(feature = "engine")]
pub mod defaulting;
#[cfg(feature = "engine")]
pub mod diff;
pub mod error;
#[cfg(feature = "engine")]
pub mod explain;
pub mod field;
pub mod gofmt;
#[cfg(feature = "engine")]
pub mod goregexp;
#[cfg(feature = "engine")]
mod gourl;
#[cfg(feature = "engine")]
mod json_map;
pub mod limits;
#[cfg(feature = "engine")]
pub mod listtype;
#[cfg(feature = "engine")]
pub mod objectmeta;
#[cfg(feature = "engine")]
pub mod openapi;
#[cfg(feature = "engine")]
pub mod pipeline;
#[cfg(feature = "engine")]
pub mod pruning;
#[cfg(feature = "engine")]
pub mod ratchet;
#[cfg(feature = "engine")]
pub mod resource;
pub mod schema;
pub mod source;
#[cfg(feature = "engine")]
pub mod structural;
pub mod typed;
#[cfg(feature = "engine")]
pub mod validation;
#[cfg(feature = "engine")]
pub mod value_validation;
#[cfg(feature = "engine")]
pub mod wire;
#[cfg(feature = "engine")]
pub mod yaml;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

pub use error::{Error, Result};
pub use schema::{CustomResource, CustomResourceSchema};

/// One CRD with several versions: each argument is a root type (a
/// [`CustomResource`], e.g. `#[crd(...)]` with `#[derive(CustomResourceSchema)]`),
/// the versions are listed in the order given, and the names, group and
/// scope come from the first. Evaluates to a [`schema::CrdManifest`].
///
/// The roots must be versions of one CRD: exactly one has `storage = true`,
/// their version names differ, and they agree on group, kind, plural,
/// singular, list kind and scope. Anything else fails to compile
/// (constant evaluation panics with the reason, e.g. "merge_crds!: more
/// than one root has `storage = true`; exactly one version must be the
/// storage version").
///
/// ```
/// # macro_rules! root {
/// #     ($name:ident, $version:literal, $storage:literal) => {
/// #         use crd_schema::schema::{CrdVersionManifest, CustomResource, CustomResourceSchema, Schema, SchemaGenerator};
/// #         pub struct $name;
/// #         impl CustomResourceSchema for $name {
/// #             fn schema(_: &mut SchemaGenerator) -> Schema {
/// #                 Schema::from_iter([("type".to_owned(), "object".into())])
/// #             }
/// #         }
/// #         impl CustomResource for $name {
/// #             const GROUP: &'static str = "example.com";
/// #             const VERSION: &'static str = $version;
/// #             const KIND: &'static str = "Widget";
/// #             const PLURAL: &'static str = "widgets";
/// #             const SINGULAR: &'static str = "widget";
/// #             const LIST_KIND: &'static str = "WidgetList";
/// #             const SHORT_NAMES: &'static [&'static str] = &[];
/// #             const CATEGORIES: &'static [&'static str] = &[];
/// #             const SCOPE: &'static str = "Namespaced";
/// #             const STORAGE: bool = $storage;
/// #             fn crd_version(generator: &mut SchemaGenerator) -> CrdVersionManifest {
/// #                 let schema = generator.subschema::<Self>();
/// #                 CrdVersionManifest { storage: $storage, ..CrdVersionManifest::new($version, schema) }
/// #             }
/// #         }
/// #     };
/// # }
/// # mod v1 { root!(Widget, "v1", true); }
/// # mod v1beta1 { root!(Widget, "v1beta1", false); }
/// let crd = crd_schema::merge_crds!(v1::Widget, v1beta1::Widget);
/// assert_eq!(crd.metadata.name, "widgets.example.com");
/// let versions: Vec<&str> = crd.spec.versions.iter().map(|v| v.name.as_str()).collect();
/// assert_eq!(versions, ["v1", "v1beta1"]);
/// println!("{}", crd.to_yaml());
/// ```
///
/// Two storage versions:
///
/// ```compile_fail,E0080
/// # macro_rules! root {
/// #     ($name:ident, $version:literal, $storage:literal) => {
/// #         use crd_schema::schema::{CrdVersionManifest, CustomResource, CustomResourceSchema, Schema, SchemaGenerator};
/// #         pub struct $name;
/// #         impl CustomResourceSchema for $name {
/// #             fn schema(_: &mut SchemaGenerator) -> Schema {
/// #                 Schema::from_iter([("type".to_owned(), "object".into())])
/// #             }
/// #         }
/// #         impl CustomResource for $name {
/// #             const GROUP: &'static str = "example.com";
/// #             const VERSION: &'static str = $version;
/// #             const KIND: &'static str = "Widget";
/// #             const PLURAL: &'static str = "widgets";
/// #             const SINGULAR: &'static str = "widget";
/// #             const LIST_KIND: &'static str = "WidgetList";
/// #             const SHORT_NAMES: &'static [&'static str] = &[];
/// #             const CATEGORIES: &'static [&'static str] = &[];
/// #             const SCOPE: &'static str = "Namespaced";
/// #             const STORAGE: bool = $storage;
/// #             fn crd_version(generator: &mut SchemaGenerator) -> CrdVersionManifest {
/// #                 let schema = generator.subschema::<Self>();
/// #                 CrdVersionManifest { storage: $storage, ..CrdVersionManifest::new($version, schema) }
/// #             }
/// #         }
/// #     };
/// # }
/// # mod v1 { root!(Widget, "v1", true); }
/// # mod v1beta1 { root!(Widget, "v1beta1", true); }
/// let crd = crd_schema::merge_crds!(v1::Widget, v1beta1::Widget);
/// ```
#[macro_export]
macro_rules! merge_crds {
    ($first:ty $(, $rest:ty)* $(,)?) => {{
        const _: () = if let ::core::option::Option::Some(problem) = $crate::schema::__check_merge(&[
            $crate::schema::__RootConstants::of::<$first>(),
            $($crate::schema::__RootConstants::of::<$rest>(),)*
        ]) {
            ::core::panic!("{}", problem)
        };
        $crate::schema::CrdManifest::from_versions::<$first>(::std::vec![
            <$first as $crate::schema::CustomResource>::crd_version(&mut $crate::schema::SchemaGenerator::new()),
            $(<$rest as $crate::schema::CustomResource>::crd_version(&mut $crate::schema::SchemaGenerator::new()),)*
        ])
    }};
}

/// `#[derive(CustomResourceSchema)]`: see docs/derive.md.
#[cfg(feature = "derive")]
pub use crd_derive::CustomResourceSchema;
