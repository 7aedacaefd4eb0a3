//! Rust types → structural schemas: the [`CustomResourceSchema`] trait that
//! `#[derive(CustomResourceSchema)]` implements, the impls for standard and
//! ecosystem types, and the CRD manifest a root type builds
//! ([`CrdManifest`]), whose parts ([`Names`], [`Subresources`],
//! [`PrinterColumn`], ...) are also those of the engine's CRD model.
//!
//! Entry points: [`schema_for`] (the schema of a type),
//! [`CustomResource`] (what a `#[crd(...)]` root knows about its CRD),
//! [`crate::merge_crds!`] (several versions into one CRD), and
//! [`CrdManifest`] with `to_value`, `to_json`, `to_yaml` and, with feature
//! `k8s-openapi`, `into_k8s`. With feature `schemars`,
//! `schemars_schema::<T>` makes any schemars `JsonSchema` structural.
//!
//! Error policy: the schema of a type is built from Rust code, not from
//! user input; the only failure is a type that contains itself, which
//! cannot have a structural schema and panics with the chain of types
//! (found by the first test that builds the schema). Versions that do not
//! make one CRD fail `merge_crds!` at compile time; a manifest that
//! k8s-openapi cannot hold is an `IntoK8sError`. docs/derive.md is the
//! attribute reference.

mod crd_parts;
pub(crate) mod derive_support;
pub mod doc;
mod impls;
#[cfg(feature = "k8s-openapi")]
mod k8s;
mod manifest;
mod merge;
mod overlay;
mod resource_impls;
#[cfg(feature = "schemars")]
mod schemars_bridge;
#[cfg(feature = "schemars")]
mod structuralize;

pub use crd_parts::{Names, PrinterColumn, Scale, SelectableField, Subresources};
pub use doc::description_from_doc;
pub use impls::{int_or_string, object_meta};
#[cfg(feature = "k8s-openapi")]
pub use k8s::IntoK8sError;
pub use manifest::{CrdManifest, CrdManifestMetadata, CrdManifestSpec, CrdVersionManifest};
#[doc(hidden)]
pub use merge::{RootConstants as __RootConstants, check_merge as __check_merge, str_eq as __str_eq};
pub use overlay::merge;
#[cfg(feature = "schemars")]
pub use schemars_bridge::schemars_schema;

use serde_json::{Map, Value};

/// A schema node as JSON: the keywords of one `JSONSchemaProps`.
pub type Schema = Map<String, Value>;

/// A Rust type with a structural schema.
pub trait CustomResourceSchema {
    /// Whether a struct field of this type may be absent (`Option<T>`):
    /// such fields are never `required`.
    const OPTIONAL: bool = false;

    /// The schema of this type. Implementations get the schemas of the
    /// types they contain through [`SchemaGenerator::subschema`].
    fn schema(generator: &mut SchemaGenerator) -> Schema;

    /// The CRD this type is the root of (`#[crd(...)]` types: the derive
    /// returns [`CustomResource::crd_manifest`]); `None` for every other type.
    /// `validate` (feature `engine`) uses it to check a root as a resource.
    fn root_crd() -> Option<CrdManifest> {
        None
    }

    /// Validates this value as the API server would: serialized, decoded
    /// (pruning, defaulting) and checked against the type's schema, CEL
    /// rules included with feature `cel`. A `#[crd]` root is checked as a
    /// resource being created (`apiVersion`, `kind`, `metadata` and all);
    /// any other type as a value of its schema. The schema is prepared once
    /// per type.
    ///
    /// ```
    /// # #[cfg(feature = "derive")] {
    /// use crd_schema::CustomResourceSchema;
    ///
    /// #[derive(CustomResourceSchema, serde::Serialize)]
    /// struct Port {
    ///     #[schema(minimum = 1, maximum = 65535)]
    ///     number: i64,
    /// }
    ///
    /// assert!(Port { number: 80 }.validate().is_ok());
    /// let errors = Port { number: 0 }.validate().unwrap_err();
    /// assert_eq!(
    ///     errors.to_string(),
    ///     "number: Invalid value: 0: number in body should be greater than or equal to 1"
    /// );
    /// # }
    /// ```
    #[cfg(feature = "engine")]
    fn validate(&self) -> Result<(), crate::typed::Invalid>
    where
        Self: serde::Serialize + Sized + 'static,
    {
        crate::typed::validate_typed(self, None)
    }

    /// Validates this value as an update from `old`: CEL transition rules
    /// see `old` as `oldSelf`, errors on values the update leaves unchanged
    /// are dropped (ratcheting), and a root's name and namespace may not
    /// change.
    #[cfg(feature = "engine")]
    fn validate_update(&self, old: &Self) -> Result<(), crate::typed::Invalid>
    where
        Self: serde::Serialize + Sized + 'static,
    {
        crate::typed::validate_typed(self, Some(old))
    }
}

/// The schema of `T`.
pub fn schema_for<T: CustomResourceSchema + ?Sized>() -> Schema {
    SchemaGenerator::new().subschema::<T>()
}

/// Builds schemas, guarding against types that contain themselves.
#[derive(Debug, Default)]
pub struct SchemaGenerator {
    stack: Vec<&'static str>,
}

impl SchemaGenerator {
    /// A generator with nothing in progress.
    pub fn new() -> Self {
        Self::default()
    }

    /// The schema of `T`.
    ///
    /// # Panics
    ///
    /// When `T` contains itself (directly or through other types): a
    /// structural schema has no references, so a recursive type has none.
    pub fn subschema<T: CustomResourceSchema + ?Sized>(&mut self) -> Schema {
        self.enter(std::any::type_name::<T>());
        let schema = T::schema(self);
        self.stack.pop();
        schema
    }

    // Apart from `subschema`, which is compiled once per type.
    fn enter(&mut self, name: &'static str) {
        if self.stack.contains(&name) {
            let chain: Vec<&str> = self.stack.iter().copied().chain([name]).collect();
            panic!(
                "`{name}` contains itself ({}); a structural schema cannot describe a recursive type",
                chain.join(" → ")
            );
        }
        self.stack.push(name);
    }
}

/// A root type with `#[crd(...)]`: one version of a CRD.
pub trait CustomResource: CustomResourceSchema {
    /// `spec.group`.
    const GROUP: &'static str;
    /// The version name.
    const VERSION: &'static str;
    /// `spec.names.kind`.
    const KIND: &'static str;
    /// `spec.names.plural`.
    const PLURAL: &'static str;
    /// `spec.names.singular`.
    const SINGULAR: &'static str;
    /// `spec.names.listKind`.
    const LIST_KIND: &'static str;
    /// `spec.names.shortNames`.
    const SHORT_NAMES: &'static [&'static str];
    /// `spec.names.categories`.
    const CATEGORIES: &'static [&'static str];
    /// `spec.scope`: `Namespaced` or `Cluster`.
    const SCOPE: &'static str;
    /// Whether this version is the storage version.
    const STORAGE: bool;
    /// `metadata.annotations` of the CRD, as `(key, value)` pairs: none
    /// unless stated (`#[crd(annotation("key", "value"))]`). The API server
    /// requires `api-approved.kubernetes.io` of a CRD whose group is
    /// `k8s.io`, `kubernetes.io` or under either.
    const ANNOTATIONS: &'static [(&'static str, &'static str)] = &[];
    /// `metadata.labels` of the CRD, as `(key, value)` pairs: none unless
    /// stated (`#[crd(label("key", "value"))]`).
    const LABELS: &'static [(&'static str, &'static str)] = &[];

    /// This version's entry of `spec.versions`, schema included.
    fn crd_version(generator: &mut SchemaGenerator) -> CrdVersionManifest;

    /// The CRD with this one version. (Not `crd()`: with feature `kube`,
    /// roots also implement kube-core's `CustomResourceExt`, whose `crd()`
    /// returns k8s-openapi's `CustomResourceDefinition`; distinct names keep
    /// `Database::crd_manifest()` unambiguous when both traits are in scope.)
    fn crd_manifest() -> CrdManifest {
        CrdManifest::from_versions::<Self>(vec![Self::crd_version(&mut SchemaGenerator::new())])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Looping;
    impl CustomResourceSchema for Looping {
        fn schema(generator: &mut SchemaGenerator) -> Schema {
            generator.subschema::<Vec<Looping>>()
        }
    }

    #[test]
    #[should_panic(expected = "contains itself")]
    fn a_recursive_type_is_refused() {
        let _ = schema_for::<Looping>();
    }
}
