//! The k8s-openapi traits of a root type, so `kube::Api<T>` works.

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use super::{Ctx, ident};
use crate::typespace::{Special, StructDef};

/// `Resource`, `ListableResource` and `Metadata` for a root struct; empty
/// for other structs.
pub(super) fn impls(ctx: &Ctx<'_>, name: &Ident, s: &StructDef) -> TokenStream {
    let Some(r) = &s.resource else { return quote!() };
    let k8s = &ctx.k8s;
    let api_version = if r.group.is_empty() { r.version.clone() } else { format!("{}/{}", r.group, r.version) };
    let (group, kind, version, plural, list_kind) = (&r.group, &r.kind, &r.version, &r.plural, &r.list_kind);
    let scope = if r.namespaced { quote!(#k8s::NamespaceResourceScope) } else { quote!(#k8s::ClusterResourceScope) };
    let metadata = s.fields.iter().find(|f| f.special == Some(Special::Metadata)).map(|f| ident(&f.ident));
    let metadata_impl = metadata.map(|field| {
        quote! {
            impl #k8s::Metadata for #name {
                type Ty = #k8s::apimachinery::pkg::apis::meta::v1::ObjectMeta;

                fn metadata(&self) -> &<Self as #k8s::Metadata>::Ty {
                    &self.#field
                }

                fn metadata_mut(&mut self) -> &mut <Self as #k8s::Metadata>::Ty {
                    &mut self.#field
                }
            }
        }
    });
    quote! {
        impl #k8s::Resource for #name {
            const API_VERSION: &'static str = #api_version;
            const GROUP: &'static str = #group;
            const KIND: &'static str = #kind;
            const VERSION: &'static str = #version;
            const URL_PATH_SEGMENT: &'static str = #plural;
            type Scope = #scope;
        }

        impl #k8s::ListableResource for #name {
            const LIST_KIND: &'static str = #list_kind;
        }

        #metadata_impl
    }
}
