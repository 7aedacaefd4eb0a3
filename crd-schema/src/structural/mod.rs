//! The structural form of a schema (KEP-2335) and its invariants, as
//! `k8s.io/apiextensions-apiserver/pkg/apiserver/schema`.
//!
//! A CRD schema is split into a *structural* part — the tree of `type`,
//! `properties`, `items` and `additionalProperties` with the generic
//! keywords and the `x-kubernetes-*` extensions on every node — and the
//! *value validations* hanging off each node (formats, bounds, `enum`,
//! `required`, and the junctors `allOf`/`anyOf`/`oneOf`/`not`, whose schemas
//! become [`NestedValueValidation`]s). Pruning, defaulting and code
//! generation walk the structural part only.
//!
//! Entry points:
//! - [`new_structural`]: conversion, failing with a [`ConversionError`] on
//!   keywords a structural schema cannot hold (`convert.rs`);
//! - [`validate_structural`]: every invariant and the completeness of the
//!   root junctors, errors sorted (`validation.rs`, `completeness.rs`);
//! - [`nonstructural_condition`] / [`nonstructural_condition_status`]: the
//!   NonStructuralSchema condition of a stored v1 CRD (`condition.rs`).
//!
//! The smaller checks ([`validate_structural_invariants`],
//! [`validate_structural_completeness`], [`validate_metadata_invariants`],
//! [`validate_nested_value_validation`]) are public for callers and tests
//! that need one part alone.

mod completeness;
mod condition;
mod convert;
mod property_index;
mod validation;

use std::sync::{LazyLock, OnceLock};

use serde_json::Value;

use crate::field::{ErrorList, Path};
use crate::wire::{ExternalDocumentation, ValidationRule};

pub use completeness::validate_structural_completeness;
pub use condition::{NonStructuralCondition, nonstructural_condition, nonstructural_condition_status};
pub use convert::{ConversionError, new_nested_value_validation, new_structural};
pub use property_index::PropertyIndex;
pub(crate) use property_index::same_text;
pub(crate) use validation::is_int_or_string_any_of;
pub use validation::{validate_metadata_invariants, validate_nested_value_validation, validate_structural_invariants};

/// Options of the structural checks; all `false` for CRDs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ValidationOptions {
    /// Allow `additionalProperties` inside junctors.
    pub allow_nested_additional_properties: bool,
    /// Allow `x-kubernetes-validations` inside `allOf`.
    pub allow_nested_x_validations: bool,
    /// Allow junctor properties that exist only through `additionalProperties`.
    pub allow_validation_properties_with_additional_properties: bool,
}

/// Where a schema node sits, which decides some of its invariants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// The `openAPIV3Schema` itself.
    Root,
    /// An array's `items`.
    Item,
    /// An object field: `properties[x]` or `additionalProperties`.
    Field,
}

/// A schema in structural form: one node of the structural tree.
///
/// Produced by [`new_structural`]. Properties keep the author's order; a
/// `properties` map that is empty in the source is dropped (as Kubernetes
/// does), so an empty vector means "no properties".
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Structural {
    /// `items` (the tuple form is rejected by the conversion).
    pub items: Option<Box<Structural>>,
    /// `properties`, in the author's order; empty when absent.
    pub properties: Vec<(String, Structural)>,
    /// `additionalProperties`, kept even when `false`.
    pub additional_properties: Option<StructuralOrBool>,
    /// `type`, `description`, `title`, `default`, `nullable`, ...
    pub generic: Generic,
    /// The `x-kubernetes-*` extensions that shape the value.
    pub extensions: Extensions,
    /// `x-kubernetes-validations`.
    pub validation_extensions: ValidationExtensions,
    /// Everything that only validates values, junctors included.
    pub value_validation: ValueValidation,
    /// What is derived from the node on first use (its property index,
    /// what its subtree holds); leave it `Default::default()`.
    pub derived: Derived,
}

/// What the walks derive from a node, once, on first use, and share:
/// the name → position index of its `properties` (pruning, defaulting,
/// ObjectMeta coercion, list types and CEL) and what its subtree holds
/// ([`Structural::holds`]). A clone starts empty (it is derived again when
/// needed) and every `Derived` equals every other, so it never makes two
/// schemas differ.
#[derive(Default)]
pub struct Derived {
    index: PropertyIndex,
    holds: OnceLock<Holds>,
}

/// `Clone`, `PartialEq` and `Debug` for data derived from its owner on
/// first use (an index, a cache): a clone starts empty (`Default`, derived
/// again when needed), every value equals every other, so it never makes
/// two owners differ, and `Debug` shows only the type's name.
macro_rules! derived_on_first_use {
    ($ty:ident) => {
        impl Clone for $ty {
            fn clone(&self) -> Self {
                Self::default()
            }
        }

        impl PartialEq for $ty {
            fn eq(&self, _: &Self) -> bool {
                true
            }
        }

        impl std::fmt::Debug for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(stringify!($ty))
            }
        }
    };
}
pub(crate) use derived_on_first_use;

derived_on_first_use!(Derived);

/// What a schema node or any node below it (through `properties`, `items`
/// and `additionalProperties`) has, so that a walk that acts only there
/// can pass over a subtree without any: [`Structural::holds`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Holds {
    /// `x-kubernetes-embedded-resource: true` (ObjectMeta coercion and
    /// validation).
    pub embedded_resource: bool,
    /// `x-kubernetes-list-type` `set` or `map` (uniqueness checks).
    pub set_or_map_list: bool,
    /// A `default` (defaulting).
    pub default: bool,
}

impl Holds {
    fn of(s: &Structural) -> Self {
        let own = Holds {
            embedded_resource: s.extensions.x_embedded_resource,
            set_or_map_list: matches!(s.extensions.x_list_type.as_deref(), Some("set" | "map")),
            default: s.generic.default.is_some(),
        };
        let children =
            s.properties.iter().map(|(_, p)| p).chain(s.items.as_deref()).chain(s.additional_properties_schema());
        children.fold(own, |all, child| {
            let child = child.holds();
            Holds {
                embedded_resource: all.embedded_resource || child.embedded_resource,
                set_or_map_list: all.set_or_map_list || child.set_or_map_list,
                default: all.default || child.default,
            }
        })
    }
}

impl Structural {
    /// Decodes a schema written as JSON (an `openAPIV3Schema`) and converts
    /// it to the structural form. The error is the first decoding problem
    /// ([`ConversionError::Decode`]) or Kubernetes' conversion error.
    pub fn from_json(schema: &Value) -> Result<Self, ConversionError> {
        new_structural(&crate::wire::JSONSchemaProps::from_value(schema)?)
    }

    /// The schema of property `name`, if declared ([`PropertyIndex`]).
    pub fn property(&self, name: &str) -> Option<&Structural> {
        let i = self.derived.index.position(&self.properties, name)?;
        Some(&self.properties[i].1)
    }

    /// What this node and the nodes below it have, derived on the first
    /// call and kept: walks that act only at embedded resources, `set` and
    /// `map` lists or defaults pass over the subtrees without any. Derived
    /// from the schema as it is then; a schema changed afterwards must be
    /// built again (or its `derived` reset).
    pub fn holds(&self) -> Holds {
        *self.derived.holds.get_or_init(|| Holds::of(self))
    }

    /// The schema a walk of a resource uses at its root: there an absent
    /// schema becomes the empty one, since the root is walked as an
    /// embedded resource (pruning, ObjectMeta coercion and validation).
    pub(crate) fn at_resource_root(schema: Option<&Structural>, is_resource_root: bool) -> Option<&Structural> {
        static EMPTY: LazyLock<Structural> = LazyLock::new(Structural::default);
        match schema {
            None if is_resource_root => Some(&EMPTY),
            other => other,
        }
    }

    /// The `additionalProperties` schema, if it is a schema (not a boolean).
    pub fn additional_properties_schema(&self) -> Option<&Structural> {
        match &self.additional_properties {
            Some(StructuralOrBool::Structural(s)) => Some(s),
            _ => None,
        }
    }
}

/// `additionalProperties` of a structural node: a boolean or a schema.
#[derive(Clone, Debug, PartialEq)]
pub enum StructuralOrBool {
    /// `additionalProperties: true` / `false`.
    Bool(bool),
    /// `additionalProperties: {...}` (which allows additional properties).
    Structural(Box<Structural>),
}

impl StructuralOrBool {
    /// Whether additional properties are allowed at all.
    pub fn allows(&self) -> bool {
        match self {
            StructuralOrBool::Bool(b) => *b,
            StructuralOrBool::Structural(_) => true,
        }
    }
}

/// The generic keywords of a node. Under a junctor they are forbidden
/// (except `externalDocs` and `example`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Generic {
    /// `description` (empty when absent).
    pub description: String,
    /// `type` (empty when absent).
    pub type_: String,
    /// `title` (empty when absent).
    pub title: String,
    /// `default` (`null` counts as absent).
    pub default: Option<Value>,
    /// `nullable`.
    pub nullable: bool,
    /// `externalDocs`.
    pub external_docs: Option<ExternalDocumentation>,
    /// `example` (`null` counts as absent).
    pub example: Option<Value>,
}

/// The Kubernetes vendor extensions that shape a value. Under a junctor
/// they are forbidden.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Extensions {
    /// `x-kubernetes-preserve-unknown-fields: true` (`false` is rejected by
    /// the conversion).
    pub x_preserve_unknown_fields: bool,
    /// `x-kubernetes-embedded-resource`.
    pub x_embedded_resource: bool,
    /// `x-kubernetes-int-or-string`.
    pub x_int_or_string: bool,
    /// `x-kubernetes-list-map-keys` (an explicit `[]` is kept).
    pub x_list_map_keys: Option<Vec<String>>,
    /// `x-kubernetes-list-type`.
    pub x_list_type: Option<String>,
    /// `x-kubernetes-map-type`.
    pub x_map_type: Option<String>,
}

/// The extensions used for validation rather than structure.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ValidationExtensions {
    /// `x-kubernetes-validations` (an explicit `[]` is kept).
    pub x_validations: Option<Vec<ValidationRule>>,
}

/// The keywords that only validate values. Empty `enum`, `allOf`, `anyOf`
/// and `oneOf` lists are dropped by the conversion (empty vectors); an
/// explicit `required: []` is kept.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ValueValidation {
    /// `format` (empty when absent).
    pub format: String,
    /// `maximum`.
    pub maximum: Option<f64>,
    /// `exclusiveMaximum`.
    pub exclusive_maximum: bool,
    /// `minimum`.
    pub minimum: Option<f64>,
    /// `exclusiveMinimum`.
    pub exclusive_minimum: bool,
    /// `maxLength`.
    pub max_length: Option<i64>,
    /// `minLength`.
    pub min_length: Option<i64>,
    /// `pattern` (empty when absent).
    pub pattern: String,
    /// `maxItems`.
    pub max_items: Option<i64>,
    /// `minItems`.
    pub min_items: Option<i64>,
    /// `uniqueItems`.
    pub unique_items: bool,
    /// `multipleOf`.
    pub multiple_of: Option<f64>,
    /// `enum` (empty when absent or empty).
    pub enum_: Vec<Value>,
    /// `maxProperties`.
    pub max_properties: Option<i64>,
    /// `minProperties`.
    pub min_properties: Option<i64>,
    /// `required` (an explicit `[]` is kept).
    pub required: Option<Vec<String>>,
    /// `allOf`.
    pub all_of: Vec<NestedValueValidation>,
    /// `oneOf`.
    pub one_of: Vec<NestedValueValidation>,
    /// `anyOf`.
    pub any_of: Vec<NestedValueValidation>,
    /// `not`.
    pub not: Option<Box<NestedValueValidation>>,
}

/// A schema under a junctor. It keeps every keyword so that the ones a
/// structural schema forbids there ([`Self::forbidden_generics`],
/// [`Self::forbidden_extensions`]) can be reported.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NestedValueValidation {
    /// The value validations, nested junctors included.
    pub value_validation: ValueValidation,
    /// `x-kubernetes-validations` (allowed only inside `allOf`, and only
    /// with [`ValidationOptions::allow_nested_x_validations`]).
    pub validation_extensions: ValidationExtensions,
    /// `items`.
    pub items: Option<Box<NestedValueValidation>>,
    /// `properties` (an explicit empty map is kept as `Some(vec![])`).
    pub properties: Option<Vec<(String, NestedValueValidation)>>,
    /// `additionalProperties`: a schema, or an empty schema for `true`;
    /// `false` is dropped.
    pub additional_properties: Option<Box<NestedValueValidation>>,
    /// Generic keywords; any of them but `externalDocs`/`example` makes the
    /// schema non-structural.
    pub forbidden_generics: Generic,
    /// Extensions; any of them makes the schema non-structural.
    pub forbidden_extensions: Extensions,
}

impl NestedValueValidation {
    /// The properties, empty when absent.
    pub fn properties(&self) -> &[(String, NestedValueValidation)] {
        self.properties.as_deref().unwrap_or_default()
    }
}

/// Every structural invariant of `schema` and the completeness of its root
/// junctors, under the path `path`, sorted by their complete text (as
/// Kubernetes' `ValidateStructuralWithOptions`).
pub fn validate_structural(path: &Path, schema: &Structural, options: &ValidationOptions) -> ErrorList {
    let mut errors = validate_structural_invariants(path, schema, Level::Root, options);
    errors.extend(validate_structural_completeness(path, schema, options));
    sort_by_text(&mut errors);
    errors
}

/// Sorts errors by their rendered text (plain byte order), as Kubernetes
/// does before reporting structural errors.
fn sort_by_text(errors: &mut ErrorList) {
    let mut keyed: Vec<(String, _)> = errors.drain(..).map(|e| (e.to_string(), e)).collect();
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    errors.extend(keyed.into_iter().map(|(_, e)| e));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::JSONSchemaProps;
    use serde_json::json;

    fn texts(schema: Value) -> Vec<String> {
        let props = JSONSchemaProps::from_value(&schema).unwrap();
        let s = new_structural(&props).unwrap();
        validate_structural(&Path::root(), &s, &ValidationOptions::default()).iter().map(|e| e.to_string()).collect()
    }

    #[test]
    fn errors_are_sorted_by_text() {
        let got = texts(json!({"type": "object", "properties": {"b": {}, "a": {"type": "array"}, "A": {}}}));
        assert_eq!(
            got,
            vec![
                "properties[A].type: Required value: must not be empty for specified object fields",
                "properties[a].items: Required value: must be specified",
                "properties[b].type: Required value: must not be empty for specified object fields",
            ]
        );
    }

    #[test]
    fn invariants_and_completeness_are_combined() {
        let got = texts(json!({"type": "object", "properties": {"a": {}}, "not": {"properties": {"b": {}}}}));
        assert_eq!(
            got,
            vec![
                "properties[a].type: Required value: must not be empty for specified object fields",
                "properties[b]: Required value: because it is defined in not.properties[b]",
            ]
        );
    }

    #[test]
    fn accessors() {
        let props = JSONSchemaProps::from_value(&json!({"type": "object", "properties": {"a": {"type": "object",
            "additionalProperties": {"type": "string"}}}}))
        .unwrap();
        let s = new_structural(&props).unwrap();
        let a = s.property("a").unwrap();
        assert_eq!(a.additional_properties_schema().unwrap().generic.type_, "string");
        assert!(a.additional_properties.as_ref().unwrap().allows());
        assert!(s.property("b").is_none());
    }

    #[test]
    fn many_properties_are_found_through_the_index() {
        let typed = |t: &str| Structural {
            generic: Generic { type_: t.to_owned(), ..Generic::default() },
            ..Structural::default()
        };
        let mut s = typed("object");
        s.properties =
            (0..40).map(|i| (format!("p{i}"), typed(if i % 2 == 0 { "string" } else { "integer" }))).collect();
        assert_eq!(s.property("p39").map(|p| p.generic.type_.as_str()), Some("integer"));
        assert_eq!(s.property("p0").map(|p| p.generic.type_.as_str()), Some("string"));
        assert!(s.property("p40").is_none());
        // A clone equals the original and finds the same; a property added
        // after the index was built is still found.
        let copy = s.clone();
        assert_eq!(copy, s);
        assert!(copy.property("p17").is_some());
        s.properties.push(("late".to_owned(), typed("boolean")));
        assert_eq!(s.property("late").map(|p| p.generic.type_.as_str()), Some("boolean"));
    }
}
