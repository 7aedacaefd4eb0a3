//! One field: its schema (type, doc, default, keywords) and whether it is
//! required.

use proc_macro2::TokenStream;
use quote::quote;

use super::Paths;
use crate::internals::ast::Field;
use crate::internals::attr::serde::DefaultSource;
use crate::internals::repr;

/// What a field's container adds to the field's own attributes.
#[derive(Clone, Copy)]
pub struct FieldContext<'c> {
    /// The container's `#[serde(default)]` (structs only).
    pub container_default: &'c DefaultSource,
    /// Whether the container is a `#[crd]` root (its apiVersion, kind and
    /// metadata are never required nor defaulted).
    pub root: bool,
}

impl FieldContext<'_> {
    /// The context of fields of enum variants: no container default.
    pub fn variant() -> FieldContext<'static> {
        FieldContext { container_default: &DefaultSource::None, root: false }
    }

    fn is_root_meta(&self, field: &Field<'_>) -> bool {
        self.root && matches!(field.name.as_str(), "apiVersion" | "kind" | "metadata")
    }

    // The API server forbids anything but `type` (and name/generateName
    // rules) under the root's `metadata`, so its doc comment documents the
    // Rust field only.
    fn takes_doc(&self, field: &Field<'_>) -> bool {
        !(self.root && field.name == "metadata")
    }
}

/// The schema of `field`, an expression of type `Schema`: the type's (or
/// `schema_with`'s, or schemars') schema, then the doc comment, then the
/// serde default, then the field's keywords.
pub fn schema(paths: &Paths, field: &Field<'_>, cx: FieldContext<'_>) -> TokenStream {
    let private = paths.private();
    let ty = field.ty;
    let source = match &field.schema.schema_with {
        Some(path) => quote!(#path(generator)),
        None if field.schema.has("schemars") => {
            let krate = &paths.krate;
            quote!(#krate::schema::schemars_schema::<#ty>(generator))
        }
        None => quote!(generator.subschema::<#ty>()),
    };
    let mut statements = Vec::new();
    if !field.doc.is_empty() && field.schema.overlay.get("description").is_none() && cx.takes_doc(field) {
        let text = field.doc.to_tokens();
        statements.push(quote!(#private::set_doc(&mut s, #text);));
    }
    if let Some(default) = default(paths, field, cx) {
        statements.push(default);
    }
    if !field.schema.overlay.is_empty() {
        let json = field.schema.overlay.to_json();
        statements.push(quote!(#private::merge(&mut s, #json);));
    }
    super::with_statements(source, &statements)
}

// The serde default becomes the schema's `default` (docs/derive.md
// "Defaults"): from the field's `default`, else the container's; not when
// an explicit `default`/`default_json`/`no_default` is written, not on the
// root's apiVersion/kind/metadata, and not when `skip_serializing_if`
// says the value is omitted.
fn default(paths: &Paths, field: &Field<'_>, cx: FieldContext<'_>) -> Option<TokenStream> {
    let explicit = ["default", "default_json", "no_default"].iter().any(|k| field.schema.has(k));
    if explicit || cx.is_root_meta(field) {
        return None;
    }
    let ty = field.ty;
    let member = &field.member;
    let value = match (&field.serde.default, cx.container_default) {
        // `Option`'s `Default` is `None`, which serialises to `null`: no
        // default, known without serialising (which would compile the
        // whole `Serialize` of the type into JSON for every such field).
        (DefaultSource::Trait, _) if repr::is_option(ty) => return None,
        (DefaultSource::Trait, _) => quote!(<#ty as ::core::default::Default>::default()),
        (DefaultSource::Path(path), _) => quote!(#path()),
        (DefaultSource::None, DefaultSource::Trait) => quote!(<Self as ::core::default::Default>::default().#member),
        (DefaultSource::None, DefaultSource::Path(path)) => quote!({
            let container: Self = #path();
            container.#member
        }),
        (DefaultSource::None, DefaultSource::None) => return None,
    };
    let private = paths.private();
    let json = match &field.serde.skip_serializing_if {
        Some(skip) => quote! {
            if #skip(&value) { ::core::option::Option::None } else { #private::default_value(&value) }
        },
        None => quote!(#private::default_value(&value)),
    };
    // No `let value: Type`: the field's type, spelled at the user's span,
    // would draw lints such as clippy::type_complexity onto the field.
    Some(quote! {
        let value = #value;
        #private::set_default(&mut s, #json);
    })
}

/// Whether `field` is listed in its object's `required`, a `bool`
/// expression: forced by `#[schema(required)]`; otherwise never for the
/// root's apiVersion/kind/metadata, a defaulted or a flattened field; otherwise
/// unless the type is optional.
pub fn required(paths: &Paths, field: &Field<'_>, cx: FieldContext<'_>) -> TokenStream {
    if field.schema.required_flag {
        return quote!(true);
    }
    if cx.is_root_meta(field) {
        return quote!(false);
    }
    if field.serde.flatten || field.serde.default.is_some() || cx.container_default.is_some() {
        return quote!(false);
    }
    if field.schema.schema_with.is_some() || field.schema.has("schemars") {
        let required = !repr::is_option(field.ty);
        return quote!(#required);
    }
    let ty = field.ty;
    let trait_ = paths.trait_();
    quote!(!<#ty as #trait_>::OPTIONAL)
}

/// Statements adding the present `fields` to `object` (an `Object`):
/// flattened fields merge, the others are properties; with `hoist` (the
/// variants of an internally tagged enum), none is required and the first
/// variant to name a property gives it.
pub fn add_all<'f, 'a: 'f>(
    paths: &Paths,
    fields: impl Iterator<Item = &'f Field<'a>>,
    cx: FieldContext<'_>,
    hoist: bool,
) -> Vec<TokenStream> {
    fields
        .filter(|f| f.is_present())
        .map(|field| {
            let schema = schema(paths, field, cx);
            let name = &field.name;
            match (field.serde.flatten, hoist) {
                (true, false) => quote!(object.flatten(#schema);),
                (true, true) => quote!(object.hoist_all(#schema);),
                (false, true) => quote!(object.hoist(#name, #schema);),
                (false, false) => {
                    let required = required(paths, field, cx);
                    quote!(object.property(#name, #schema, #required);)
                }
            }
        })
        .collect()
}
