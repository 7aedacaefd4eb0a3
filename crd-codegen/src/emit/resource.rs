//! The constructor of a root type, `Kind::new(name, spec)`, as
//! kube-derive's roots have it. The k8s-openapi and kube-core traits come
//! from the derive (`#[crd(...)]`), as for hand-written roots, and so does
//! `new` for roots of the usual shape (`apiVersion`, `kind`, `metadata`,
//! `spec` and an optional `status`); this module writes it only for roots
//! with other top-level fields, which the derive cannot fill in but the
//! generated `Default` can (or, for a root without `Default`, the values
//! `Default` would give its other fields).

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use super::{Ctx, defaults, ident};
use crate::typespace::{Field, Slot, Special, StructDef};

// The derive's rule (crd-derive's `expand/crd.rs`): every field is one of
// the five, and `status`, if there, is an `Option`.
fn derive_writes_new(s: &StructDef) -> bool {
    let usual = |json: &str| ["apiVersion", "kind", "metadata", "spec", "status"].contains(&json);
    let optional = |slot: &Slot| matches!(slot, Slot::Optional | Slot::Nullable | Slot::NullableDefaulted(_));
    s.flatten.is_none()
        && s.fields.iter().all(|f| usual(&f.json))
        && s.fields.iter().filter(|f| f.json == "status").all(|f| optional(&f.slot))
}

/// `new(name, spec)` for a root struct with a `spec` field; empty for other
/// structs. Every other field is its value in the root's `Default`.
pub(super) fn constructor(ctx: &Ctx<'_>, name: &Ident, s: &StructDef) -> TokenStream {
    let Some(r) = &s.resource else { return quote!() };
    let Some(spec) = s.fields.iter().find(|f| f.json == "spec" && f.special.is_none()) else { return quote!() };
    if !s.fields.iter().any(|f| f.special == Some(Special::Metadata)) || derive_writes_new(s) {
        return quote!();
    }
    // A root without `Default` (a required field without one, in `spec`
    // most often) gets every other field spelled out, in order, if they
    // all have a value without input.
    let others = || s.fields.iter().filter(|f| f.ident != spec.ident && f.special != Some(Special::Metadata));
    if !s.has_default && !others().all(|f| ctx.space.field_has_default(f)) {
        return quote!();
    }
    let fields = s.fields.iter().filter_map(|f| {
        let field = ident(&f.ident);
        if f.ident == spec.ident {
            Some(spec_value(spec))
        } else if f.special == Some(Special::Metadata) {
            let k8s = &ctx.k8s;
            Some(quote! {
                #field: #k8s::apimachinery::pkg::apis::meta::v1::ObjectMeta {
                    name: ::std::option::Option::Some(::std::string::String::from(name)),
                    ..::std::default::Default::default()
                }
            })
        } else if s.has_default {
            None
        } else {
            let value = defaults::field_default(ctx, s, f);
            Some(quote!(#field: #value))
        }
    });
    let rest = match (s.has_default, &s.flatten) {
        (true, _) => quote!(..::std::default::Default::default()),
        (false, Some(flatten)) => {
            let flatten = ident(flatten);
            quote!(#flatten: ::std::default::Default::default(),)
        }
        (false, None) => quote!(),
    };
    let spec_ty = ctx.ty(&spec.ty);
    let doc = format!(" A new `{}` object named `name` with `spec`; every other field is its default.", r.kind);
    quote! {
        impl #name {
            #[doc = #doc]
            pub fn new(name: &str, spec: #spec_ty) -> Self {
                Self {
                    #(#fields,)*
                    #rest
                }
            }
        }
    }
}

/// The `spec` field of `new`, from its argument `spec`.
fn spec_value(spec: &Field) -> TokenStream {
    let field = ident(&spec.ident);
    match spec.slot {
        Slot::Optional | Slot::NullableDefaulted(_) => quote!(#field: ::std::option::Option::Some(spec)),
        Slot::Nullable => quote!(#field: ::std::option::Option::Some(::std::option::Option::Some(spec))),
        // The field init shorthand where the names agree, as clippy wants.
        Slot::Required | Slot::DefaultWhenAbsent | Slot::Defaulted(_) if field == "spec" => quote!(spec),
        Slot::Required | Slot::DefaultWhenAbsent | Slot::Defaulted(_) => quote!(#field: spec),
    }
}
