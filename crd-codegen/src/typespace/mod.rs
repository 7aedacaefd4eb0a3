//! The model between a CRD and its Rust code: an arena of types with stable
//! ids and unique names, one arena per CRD version (typify's `TypeSpace`).
//!
//! Entry point: [`CrdSpace::new`], which checks that every version's schema
//! is structural and builds each version's [`TypeSpace`] (`build.rs` holds
//! the schema → type rules of `docs/generated-code.md`; `dedupe.rs` then
//! merges the types that would be identical but for names and docs). Error policy: a
//! schema Kubernetes would not accept as structural is an
//! [`Error::NotStructural`] listing Kubernetes' own errors, unless
//! [`ModelOptions::allow_non_structural`] is set: then `loose.rs` replaces
//! the nodes that are not structural by `serde_json::Value` and lists them
//! in [`VersionSpace::loose`]. Everything else is total — any structural
//! schema gets types.

mod build;
mod dedupe;
mod keywords;
mod loose;

use serde_json::{Map, Value};

use crate::error::{Error, Result};
use crate::naming::{self, Case, Names};
use crd_schema::crd::{CustomResourceDefinition, PrinterColumn, Scale};
use crd_schema::field::Path;
use crd_schema::structural::{Structural, ValidationOptions, new_structural, validate_structural};
use crd_schema::validation::API_APPROVAL_ANNOTATION;
use crd_schema::wire::JSONSchemaProps;

pub use loose::{LooseNode, Outcome};

/// The index of a type in its [`TypeSpace`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeId(pub usize);

/// The Rust type of a value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TypeRef {
    /// A struct or enum of the same type space.
    Named(TypeId),
    /// `String`.
    String,
    /// `i32` (`format: int32`).
    I32,
    /// `i64`.
    I64,
    /// `f64`.
    F64,
    /// `bool`.
    Bool,
    /// `serde_json::Value`: preserved, unknown content.
    Value,
    /// k8s-openapi's `IntOrString`.
    IntOrString,
    /// k8s-openapi's `ObjectMeta`.
    ObjectMeta,
    /// `Vec<T>`.
    Vec(Box<TypeRef>),
    /// `BTreeMap<String, T>`.
    Map(Box<TypeRef>),
    /// `Option<T>`: a nullable array item or map value.
    Option(Box<TypeRef>),
}

impl TypeRef {
    /// Whether this is a map whose `null` values are dropped (null
    /// pruning: values that are not nullable).
    pub fn null_pruned_map(&self) -> bool {
        matches!(self, TypeRef::Map(value) if !matches!(**value, TypeRef::Option(_)))
    }
}

/// How a field holds its value: the rows of the contract's field table.
#[derive(Clone, Debug, PartialEq)]
pub enum Slot {
    /// Required, no default, not nullable: `T`.
    Required,
    /// `T` that is `Default::default()` when absent (root `metadata`).
    DefaultWhenAbsent,
    /// Optional, not nullable, no default: `Option<T>`.
    Optional,
    /// Default, not nullable: `T`; `null` also gives the default.
    Defaulted(Value),
    /// Default and nullable: `Option<T>`; `null` is kept.
    NullableDefaulted(Value),
    /// Nullable, no default: `Option<Option<T>>`.
    Nullable,
}

/// What a field is beyond its schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Special {
    /// `apiVersion` of the root (set by `Default`) or of an embedded resource.
    ApiVersion,
    /// `kind` of the root (set by `Default`) or of an embedded resource.
    Kind,
    /// `metadata` of the root or of an embedded resource.
    Metadata,
}

/// One field of a struct.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    /// The Rust identifier (possibly `r#`-prefixed).
    pub ident: String,
    /// The JSON name.
    pub json: String,
    /// The value type (without the `Option` the slot adds).
    pub ty: TypeRef,
    /// How absent and `null` values are handled.
    pub slot: Slot,
    /// The schema default of the field's own array items or map values
    /// (not nullable): what a `null` item or value becomes.
    pub item_default: Option<Value>,
    /// The schema's description.
    pub doc: String,
    /// Set for `apiVersion`, `kind` and `metadata` of resources.
    pub special: Option<Special>,
    /// The keywords `#[schema(...)]` must state so that the derive rebuilds
    /// the property's schema: everything its type does not give (see
    /// `keywords.rs`), with the keywords of array items and map values
    /// nested under `items` and `additionalProperties`.
    pub schema: Map<String, Value>,
    /// The field is listed in the parent's `required` although the derive
    /// would not infer it (it has a default, or is an `Option`).
    pub schema_required: bool,
    /// The field is not in the schema (`apiVersion`, `kind` and `metadata`
    /// of resources whose schema does not list them).
    pub schema_skip: bool,
}

/// The resource a root struct stands for.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Resource {
    /// `spec.group`.
    pub group: String,
    /// The version name.
    pub version: String,
    /// `spec.names.kind`.
    pub kind: String,
    /// `spec.names.plural`.
    pub plural: String,
    /// `spec.names.listKind` (defaulted to `<kind>List`).
    pub list_kind: String,
    /// `spec.scope` is `Namespaced`.
    pub namespaced: bool,
}

/// The namespaced `widgets.example.com/v1` `Widget` resource the unit
/// tests build their type spaces for.
#[cfg(test)]
fn test_resource() -> Resource {
    Resource {
        group: "example.com".into(),
        version: "v1".into(),
        kind: "Widget".into(),
        plural: "widgets".into(),
        list_kind: "WidgetList".into(),
        namespaced: true,
    }
}

/// A struct.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StructDef {
    /// The fields, specials first, then properties in schema order.
    pub fields: Vec<Field>,
    /// The identifier of the flattened `BTreeMap<String, Value>` that keeps
    /// unknown fields, when the node preserves them.
    pub flatten: Option<String>,
    /// Set on the root type.
    pub resource: Option<Resource>,
    /// Type-level keywords for `#[schema(...)]` (the root's own schema
    /// keywords; other types' keywords are stated on their fields).
    pub schema: Map<String, Value>,
    /// Whether the node itself says `x-kubernetes-preserve-unknown-fields`
    /// (the flattened map is also made for preservation inherited through
    /// `items`, which the schema of the node does not state).
    pub flatten_in_schema: bool,
    /// The CRD-level facts `#[crd(...)]` states on the root type.
    pub crd: Option<Box<CrdAttrs>>,
    /// Whether the struct implements `Default`, which gives exactly the
    /// schema defaults: only when every field has a default value (see
    /// [`TypeSpace::field_has_default`]).
    pub has_default: bool,
}

/// What `#[crd(...)]` on a root type states, beyond [`Resource`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CrdAttrs {
    /// `spec.names.singular`
    pub singular: String,
    /// `spec.names.shortNames`
    pub short_names: Vec<String>,
    /// `spec.names.categories`
    pub categories: Vec<String>,
    /// The version's `served`, `storage` and `deprecated`.
    pub served: bool,
    /// See `served`.
    pub storage: bool,
    /// See `served`.
    pub deprecated: bool,
    /// `deprecationWarning`
    pub deprecation_warning: Option<String>,
    /// `subresources.status` is set.
    pub status: bool,
    /// `subresources.scale`.
    pub scale: Option<Scale>,
    /// `additionalPrinterColumns`.
    pub printer_columns: Vec<PrinterColumn>,
    /// The `jsonPath` of each `selectableFields` entry.
    pub selectable_fields: Vec<String>,
    /// The CRD's annotations among [`CARRIED_ANNOTATIONS`], as `(key,
    /// value)`.
    pub annotations: Vec<(String, String)>,
}

/// The annotations of a CRD that its generated roots state again, so that
/// the CRD they rebuild is one the API server accepts: the API approval,
/// which its CRD validation requires in Kubernetes' own groups. The others
/// (the generating tool's version, a chart's ownership) are facts of a
/// deployment, not of the types, and would change the generated code
/// whenever they change.
pub const CARRIED_ANNOTATIONS: &[&str] = &[API_APPROVAL_ANNOTATION];

/// The value an enum's `Default` gives.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum EnumDefault {
    /// A listed value, by index.
    Variant(usize),
    /// An unlisted value, held by the catch-all variant.
    Unknown(String),
}

/// An enum of strings.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct EnumDef {
    /// Identifier and JSON value of each listed value, in schema order.
    pub variants: Vec<(String, String)>,
    /// The identifier of the `Unknown(String)` catch-all, unless strict.
    pub catch_all: Option<String>,
    /// What `Default` gives: the schema default; no `Default` without one
    /// (no listed value is more of a default than the others).
    pub default: Option<EnumDefault>,
}

/// What a named type is.
#[derive(Clone, Debug, PartialEq)]
pub enum TypeKind {
    /// A struct.
    Struct(StructDef),
    /// An enum of strings.
    Enum(EnumDef),
}

/// A named type.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeDef {
    /// The unique type name.
    pub name: String,
    /// The schema's description.
    pub doc: String,
    /// Struct or enum.
    pub kind: TypeKind,
}

/// The types of one CRD version, in creation order (parents before
/// children, properties in schema order); the root is [`TypeId`] 0.
/// Structurally identical types are merged into the first (`dedupe.rs`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TypeSpace {
    /// The types, indexed by [`TypeId`].
    pub types: Vec<TypeDef>,
    /// The doc comment lines ([`crate::doc::doc_lines`]) of the types' and
    /// fields' descriptions, by description: worked out once, when the
    /// model finds what the derive reads back, and written by the emitter.
    pub doc_lines: foldhash::HashMap<String, Vec<String>>,
}

impl TypeSpace {
    /// The type with id `id`.
    pub fn get(&self, id: TypeId) -> Option<&TypeDef> {
        self.types.get(id.0)
    }

    /// Whether `ty` implements `Default`: every type but an enum without
    /// schema default and a struct holding one where it needs a value.
    pub fn has_default(&self, ty: &TypeRef) -> bool {
        match ty {
            TypeRef::Named(id) => match self.get(*id).map(|t| &t.kind) {
                Some(TypeKind::Enum(e)) => e.default.is_some(),
                Some(TypeKind::Struct(s)) => s.has_default,
                None => false,
            },
            _ => true,
        }
    }

    /// Whether field `f` has a value without input: its schema default,
    /// `None`, the root's fixed `apiVersion`/`kind`, or (a required field
    /// without schema default) its type's `Default` — an empty string, `0`,
    /// an empty list, as before defaulting; a required enum without schema
    /// default has none, and neither has its struct.
    pub fn field_has_default(&self, f: &Field) -> bool {
        match f.slot {
            Slot::Required => self.has_default(&f.ty),
            Slot::DefaultWhenAbsent
            | Slot::Optional
            | Slot::Defaulted(_)
            | Slot::NullableDefaulted(_)
            | Slot::Nullable => true,
        }
    }
}

/// Choices that shape the model.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ModelOptions {
    /// No catch-all variant on enums.
    pub strict_enums: bool,
    /// Nodes that are not structural become `serde_json::Value` (see
    /// `loose.rs`) instead of failing with [`Error::NotStructural`].
    pub allow_non_structural: bool,
}

/// One version of a CRD.
#[derive(Clone, Debug, PartialEq)]
pub struct VersionSpace {
    /// The module name.
    pub module: String,
    /// The version name.
    pub version: String,
    /// Its types; the root is the first.
    pub space: TypeSpace,
    /// The nodes of its schema that are not structural and were replaced
    /// (with [`ModelOptions::allow_non_structural`]), their paths in the
    /// CRD document (`spec.versions[i].schema.openAPIV3Schema...`).
    pub loose: Vec<LooseNode>,
}

/// All versions of one CRD.
#[derive(Clone, Debug, PartialEq)]
pub struct CrdSpace {
    /// `metadata.name`.
    pub name: String,
    /// The module name when several CRDs share a file (snake-case plural).
    pub module: String,
    /// The versions, in the CRD's order.
    pub versions: Vec<VersionSpace>,
}

impl CrdSpace {
    /// Checks and models every version of `crd`, side by side when it has
    /// several (`crate::parallel`); the first version in error fails.
    pub fn new(crd: &CustomResourceDefinition, options: ModelOptions) -> Result<Self> {
        Self::from_crd(crd.clone(), options)
    }

    /// [`CrdSpace::new`] of a CRD that is given up: its schemas go as soon
    /// as every version is in structural form, before the types are built
    /// (their typed form is about seven times their size as JSON).
    pub fn from_crd(mut crd: CustomResourceDefinition, options: ModelOptions) -> Result<Self> {
        let checked = check_versions(&crd, options)?;
        crd.spec.validation = None;
        for version in &mut crd.spec.versions {
            version.schema = None;
        }
        Ok(Self::model(&crd, checked, options))
    }

    /// The types of every version of `crd`, from its versions' schemas
    /// `checked`.
    fn model(crd: &CustomResourceDefinition, checked: Vec<CheckedVersion>, options: ModelOptions) -> Self {
        let threads = version_threads(checked.len());
        let indexed: Vec<(usize, CheckedVersion)> = checked.into_iter().enumerate().collect();
        let modelled = crate::parallel::map(threads, &indexed, |(i, checked)| model_version(crd, *i, checked, options));
        let mut modules = Names::new(Case::Snake);
        let mut versions = Vec::with_capacity(modelled.len());
        for (version, (space, loose)) in crd.spec.versions.iter().zip(modelled) {
            let module = modules.claim(&naming::snake(&version.name));
            versions.push(VersionSpace { module, version: version.name.clone(), space, loose });
        }
        Self { name: crd.metadata.name.clone(), module: naming::snake(&crd.spec.names.plural), versions }
    }
}

/// A version's schema in structural form (`None` when it has none), and
/// where it is in the CRD document.
struct CheckedVersion {
    checked: Option<Checked>,
    base: Path,
}

/// The threads `versions` versions are worked on with: one for one, else
/// as many as the machine offers.
fn version_threads(versions: usize) -> usize {
    if versions > 1 { crate::parallel::available() } else { 1 }
}

/// Every version's schema of `crd` in structural form, side by side when
/// it has several; the first version in error fails.
fn check_versions(crd: &CustomResourceDefinition, options: ModelOptions) -> Result<Vec<CheckedVersion>> {
    let indices: Vec<usize> = (0..crd.spec.versions.len()).collect();
    crate::parallel::map(version_threads(indices.len()), &indices, |&i| {
        Ok(CheckedVersion { checked: version_schema(crd, i, options)?, base: document_path(crd, i) })
    })
    .into_iter()
    .collect()
}

/// The types of version `i` of `crd` from its schema `checked`, and its
/// nodes that are not structural, located in the CRD document.
fn model_version(
    crd: &CustomResourceDefinition,
    i: usize,
    checked: &CheckedVersion,
    options: ModelOptions,
) -> (TypeSpace, Vec<LooseNode>) {
    let name = crd.spec.versions.get(i).map(|v| v.name.as_str()).unwrap_or_default();
    let resource = resource(crd, name);
    let all_preserve = crd.spec.preserve_unknown_fields == Some(true);
    let (schema, loose) = checked.checked.as_ref().map_or((None, &[][..]), |c| (Some(&c.schema), &c.loose[..]));
    let input = build::Input { schema, resource, crd: crd_attrs(crd, i), loose };
    let space = dedupe::dedupe(build::build(input, all_preserve, options));
    let loose = loose.iter().map(|n| LooseNode { path: checked.base.join(&n.path), ..n.clone() }).collect();
    (space, loose)
}

/// A version's schema, checked (and with `allow_non_structural`, made)
/// structural: the one form the generator works on.
struct Checked {
    /// The structural form.
    schema: Structural,
    /// The replaced nodes, their paths relative to the schema.
    loose: Vec<LooseNode>,
}

/// The structural schema of version `i`, `None` when it has no schema.
fn version_schema(crd: &CustomResourceDefinition, i: usize, options: ModelOptions) -> Result<Option<Checked>> {
    let version = crd.spec.versions.get(i).map(|v| v.name.clone()).unwrap_or_default();
    let not_structural =
        |reason: String| Error::NotStructural { crd: crd.metadata.name.clone(), version: version.clone(), reason };
    let Some(props) = crd.spec.version_schema(i) else { return Ok(None) };
    // Kubernetes' paths: the internal form, where a schema that every
    // version shares is hoisted to `spec.validation`.
    let path = if crd.spec.versions.get(i).is_some_and(|v| v.schema.is_some()) {
        Path::new("spec").child("versions").index(i).child("schema").child("openAPIV3Schema")
    } else {
        Path::new("spec").child("validation").child("openAPIV3Schema")
    };
    let reason = match structural(props, &path) {
        Ok(schema) => return Ok(Some(Checked { schema, loose: Vec::new() })),
        Err(reason) => reason,
    };
    let repaired = options.allow_non_structural.then(|| loose::repair(props)).flatten();
    let Some(repaired) = repaired else { return Err(not_structural(reason)) };
    let schema = structural(&repaired.schema, &path).map_err(not_structural)?;
    Ok(Some(Checked { schema, loose: repaired.nodes }))
}

/// `props` in structural form, or Kubernetes' errors (under `path`),
/// `; `-separated.
fn structural(props: &JSONSchemaProps, path: &Path) -> Result<Structural, String> {
    let schema = new_structural(props).map_err(|e| e.to_string())?;
    let errors = validate_structural(path, &schema, &ValidationOptions::default());
    if !errors.is_empty() {
        let reasons: Vec<String> = errors.iter().map(ToString::to_string).collect();
        return Err(reasons.join("; "));
    }
    Ok(schema)
}

/// Where version `i`'s schema is in the CRD document: its own schema, or
/// (v1beta1) the top-level `spec.validation`.
fn document_path(crd: &CustomResourceDefinition, i: usize) -> Path {
    let hoisted = crd.api_version != "apiextensions.k8s.io/v1"
        && crd.spec.versions.get(i).is_none_or(|v| v.schema.is_none())
        && crd.spec.validation.is_some();
    if hoisted {
        Path::new("spec").child("validation").child("openAPIV3Schema")
    } else {
        Path::new("spec").child("versions").index(i).child("schema").child("openAPIV3Schema")
    }
}

/// The CRD-level facts of version `i` (subresources may be hoisted).
fn crd_attrs(crd: &CustomResourceDefinition, i: usize) -> CrdAttrs {
    let names = &crd.spec.names;
    let Some(version) = crd.spec.versions.get(i) else { return CrdAttrs::default() };
    let subresources = crd.spec.subresources_for_version(&version.name);
    CrdAttrs {
        singular: names.singular.clone(),
        short_names: names.short_names.clone(),
        categories: names.categories.clone(),
        served: version.served,
        storage: version.storage,
        deprecated: version.deprecated,
        deprecation_warning: version.deprecation_warning.clone(),
        status: subresources.is_some_and(|s| s.status),
        scale: subresources.and_then(|s| s.scale.clone()),
        printer_columns: crd.spec.printer_columns_for_version(&version.name).to_vec(),
        selectable_fields: crd
            .spec
            .selectable_fields_for_version(&version.name)
            .iter()
            .map(|f| f.json_path.clone())
            .collect(),
        annotations: CARRIED_ANNOTATIONS
            .iter()
            .filter_map(|key| crd.metadata.annotations.get(*key).map(|value| ((*key).to_owned(), value.clone())))
            .collect(),
    }
}

fn resource(crd: &CustomResourceDefinition, version: &str) -> Resource {
    let names = &crd.spec.names;
    let list_kind = if names.list_kind.is_empty() { format!("{}List", names.kind) } else { names.list_kind.clone() };
    Resource {
        group: crd.spec.group.clone(),
        version: version.to_owned(),
        kind: names.kind.clone(),
        plural: names.plural.clone(),
        list_kind,
        namespaced: crd.spec.scope != "Cluster",
    }
}
