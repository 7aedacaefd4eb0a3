//! The constructor of a root type, `Kind::new(name, spec)`, as
//! kube-derive's roots have it. The k8s-openapi and kube-core traits come
//! from the derive (`#[crd(...)]`), as for hand-written roots, and so does
//! `new` for roots of the usual shape (`apiVersion`, `kind`, `metadata`,
//! `spec` and an optional `status`); this module writes it only for roots
//! with other top-level fields, which the derive cannot fill in but the
//! generated `Default` can.

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use super::{Ctx, ident};
use crate::typespace::{Slot, Special, StructDef};

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
/// structs. Every other field is the root's `Default`.
pub(super) fn constructor(ctx: &Ctx<'_>, name: &Ident, s: &StructDef) -> TokenStream {
    let Some(r) = &s.resource else { return quote!() };
    let Some(spec) = s.fields.iter().find(|f| f.json == "spec" && f.special.is_none()) else { return quote!() };
    let Some(metadata) = s.fields.iter().find(|f| f.special == Some(Special::Metadata)) else { return quote!() };
    if derive_writes_new(s) {
        return quote!();
    }
    let k8s = &ctx.k8s;
    let spec_ty = ctx.ty(&spec.ty);
    let (spec_field, metadata_field) = (ident(&spec.ident), ident(&metadata.ident));
    let field = match spec.slot {
        Slot::Optional | Slot::NullableDefaulted(_) => quote!(#spec_field: ::std::option::Option::Some(spec)),
        Slot::Nullable => quote!(#spec_field: ::std::option::Option::Some(::std::option::Option::Some(spec))),
        // The field init shorthand where the names agree, as clippy wants.
        Slot::Required | Slot::DefaultWhenAbsent | Slot::Defaulted(_) if spec_field == "spec" => quote!(spec),
        Slot::Required | Slot::DefaultWhenAbsent | Slot::Defaulted(_) => quote!(#spec_field: spec),
    };
    let doc = format!(" A new `{}` object named `name` with `spec`; every other field is its default.", r.kind);
    quote! {
        impl #name {
            #[doc = #doc]
            pub fn new(name: &str, spec: #spec_ty) -> Self {
                Self {
                    #metadata_field: #k8s::apimachinery::pkg::apis::meta::v1::ObjectMeta {
                        name: ::std::option::Option::Some(::std::string::String::from(name)),
                        ..::std::default::Default::default()
                    },
                    #field,
                    ..::std::default::Default::default()
                }
            }
        }
    }
}
