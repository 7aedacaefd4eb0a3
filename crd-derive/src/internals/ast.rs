//! The derive input as the expansion sees it: every struct, field and
//! variant with its parsed attributes and serde name (serde_derive's
//! `ast`), borrowed from the `syn` tree.

use syn::ext::IdentExt as _;
use syn::{DeriveInput, Ident, Member, Type};

use super::attr::crd::{self, Crd};
use super::attr::doc::Doc;
use super::attr::schema::{self, Keywords, Place};
use super::attr::serde;
use super::case::RenameRule;
use super::ctxt::Ctxt;

/// A struct or enum.
pub struct Container<'a> {
    pub ident: &'a Ident,
    pub original: &'a DeriveInput,
    pub serde: serde::Container,
    pub schema: Keywords,
    pub crd: Option<Crd>,
    pub doc: Doc,
    pub data: Data<'a>,
}

/// The body of a struct or enum.
pub enum Data<'a> {
    Struct(Style, Vec<Field<'a>>),
    Enum(Vec<Variant<'a>>),
}

/// The shape of a struct or variant body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// `{ a: A, ... }`
    Named,
    /// `(A, ...)`
    Tuple,
    /// no body
    Unit,
}

/// A field of a struct or variant.
pub struct Field<'a> {
    pub member: Member,
    /// The JSON name (serde's, deserialize side).
    pub name: String,
    pub ty: &'a Type,
    pub serde: serde::Field,
    pub schema: Keywords,
    pub doc: Doc,
}

/// An enum variant.
pub struct Variant<'a> {
    pub ident: &'a Ident,
    /// The JSON name (serde's, deserialize side).
    pub name: String,
    pub style: Style,
    pub fields: Vec<Field<'a>>,
    pub serde: serde::Variant,
    pub schema: Keywords,
    pub doc: Doc,
}

impl<'a> Container<'a> {
    /// The model of `input`; `None` (with the error reported) for a union.
    pub fn from_ast(cx: &Ctxt, input: &'a DeriveInput) -> Option<Self> {
        let serde = serde::container(&input.attrs);
        let data = match &input.data {
            syn::Data::Struct(data) => {
                let (style, fields) = fields_of(cx, &data.fields, serde.rename_all);
                Data::Struct(style, fields)
            }
            syn::Data::Enum(data) => Data::Enum(data.variants.iter().map(|v| variant(cx, v, &serde)).collect()),
            syn::Data::Union(data) => {
                cx.error_spanned_by(
                    data.union_token,
                    "`#[derive(CustomResourceSchema)]` does not support unions: a union has no JSON form",
                );
                return None;
            }
        };
        Some(Self {
            ident: &input.ident,
            original: input,
            schema: schema::from_attrs(cx, &input.attrs, Place::Type),
            crd: crd::from_attrs(cx, &input.attrs),
            doc: Doc::from_attrs(&input.attrs),
            serde,
            data,
        })
    }
}

fn fields_of<'a>(cx: &Ctxt, fields: &'a syn::Fields, rule: Option<RenameRule>) -> (Style, Vec<Field<'a>>) {
    let style = match fields {
        syn::Fields::Named(_) => Style::Named,
        syn::Fields::Unnamed(_) => Style::Tuple,
        syn::Fields::Unit => Style::Unit,
    };
    let fields = fields.iter().enumerate().map(|(i, f)| field(cx, i, f, rule)).collect();
    (style, fields)
}

fn field<'a>(cx: &Ctxt, index: usize, original: &'a syn::Field, rule: Option<RenameRule>) -> Field<'a> {
    let serde = serde::field(&original.attrs);
    let (member, rust_name) = match &original.ident {
        Some(ident) => (Member::Named(ident.clone()), ident.unraw().to_string()),
        None => (Member::Unnamed(syn::Index::from(index)), index.to_string()),
    };
    let name = match (&serde.rename, rule) {
        (Some(rename), _) => rename.clone(),
        (None, Some(rule)) => rule.apply_to_field(&rust_name),
        (None, None) => rust_name,
    };
    Field {
        member,
        name,
        ty: &original.ty,
        schema: schema::from_attrs(cx, &original.attrs, Place::Field),
        doc: Doc::from_attrs(&original.attrs),
        serde,
    }
}

fn variant<'a>(cx: &Ctxt, original: &'a syn::Variant, container: &serde::Container) -> Variant<'a> {
    let serde = serde::variant(&original.attrs);
    let rust_name = original.ident.unraw().to_string();
    let name = match (&serde.rename, container.rename_all) {
        (Some(rename), _) => rename.clone(),
        (None, Some(rule)) => rule.apply_to_variant(&rust_name),
        (None, None) => rust_name,
    };
    let (style, fields) = fields_of(cx, &original.fields, serde.rename_all.or(container.rename_all_fields));
    Variant {
        ident: &original.ident,
        name,
        style,
        fields,
        schema: schema::from_attrs(cx, &original.attrs, Place::Variant),
        doc: Doc::from_attrs(&original.attrs),
        serde,
    }
}

/// Which of the two forms a `#[crd(...)]` type takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CrdForm {
    /// The type is the root: it has a `metadata` field (and `apiVersion`,
    /// `kind`, `spec`, ... as it pleases).
    Root,
    /// The type is the spec (kube-derive's form): it has no `metadata`, and
    /// the derive generates the root named by `kind` around it.
    Spec,
}

impl Container<'_> {
    /// The form of a `#[crd]` type; `None` without `#[crd]`. A struct with
    /// named fields none of which is `metadata` in JSON is the spec; any
    /// other type is the root (and the check of roots reports what is not a
    /// struct with named fields).
    pub fn crd_form(&self) -> Option<CrdForm> {
        self.crd.as_ref()?;
        match &self.data {
            Data::Struct(Style::Named, fields) if !fields.iter().any(|f| f.name == "metadata") => Some(CrdForm::Spec),
            _ => Some(CrdForm::Root),
        }
    }

    /// Whether the type is a `#[crd]` root (its own apiVersion, kind and
    /// metadata).
    pub fn is_root(&self) -> bool {
        self.crd_form() == Some(CrdForm::Root)
    }
}

impl Field<'_> {
    /// Whether the field is in the JSON that is read (not skipped by serde
    /// or `#[schema(skip)]`).
    pub fn is_present(&self) -> bool {
        !self.serde.skip && !self.schema.has("skip")
    }
}

impl Variant<'_> {
    /// Whether the variant can be read (not skipped).
    pub fn is_present(&self) -> bool {
        !self.serde.skip && !self.schema.has("skip")
    }

    /// The fields that are read.
    pub fn present_fields(&self) -> impl Iterator<Item = &Field<'_>> {
        self.fields.iter().filter(|f| f.is_present())
    }
}
