//! The spec-first form (kube-derive's): `#[crd(kind = "Database", ...)]` on
//! `DatabaseSpec` generates the root `Database { api_version, kind,
//! metadata, spec, status }` with `Database::new(name, spec)`.
//!
//! The root is emitted as a struct that itself derives
//! `CustomResourceSchema` with a `#[crd(...)]` attribute rebuilt from the
//! parsed one in the root form's vocabulary, so both forms share one
//! expansion: the spec-first CRD is, by construction, the CRD of the
//! equivalent hand-written root.

use proc_macro2::{Ident, Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::LitStr;

use super::Paths;
use super::crd::Names;
use crate::internals::ast::Container;
use crate::internals::attr::crd::{Crd, PrinterColumn};

/// `apiVersion`'s description in every Kubernetes type (TypeMeta).
const API_VERSION_DOC: &str = "APIVersion defines the versioned schema of this representation of an object. \
    Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. \
    More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources";
/// `kind`'s description in every Kubernetes type (TypeMeta).
const KIND_DOC: &str = "Kind is a string value representing the REST resource this object represents. \
    Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. \
    More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";
/// `metadata`'s description in every Kubernetes type (ObjectMeta).
const METADATA_DOC: &str = "Standard object's metadata. \
    More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

/// The root type a spec-first `#[crd]` generates, with its constructor.
pub fn root_type(paths: &Paths, cont: &Container<'_>, crd: &Crd) -> TokenStream {
    let krate = &paths.krate;
    let private = paths.private();
    let names = Names::of(cont.ident, crd);
    let root = crd
        .root
        .clone()
        .unwrap_or_else(|| Ident::new(&names.kind, crd.kind.as_ref().map_or_else(Span::call_site, LitStr::span)));
    let spec = cont.ident;
    let vis = &cont.original.vis;
    let attr = root_attr(crd, &names);
    let serde_crate = quote!(#private::serde).to_string();
    let crate_attr = cont.schema.crate_path.as_ref().map(|path| {
        let path = quote!(#path).to_string();
        quote!(#[schema(crate = #path)])
    });
    let object_meta = quote!(#private::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta);
    let default = crd.derives.iter().any(|d| d.value() == "Default");
    let derives = crd.derives.iter().filter(|d| d.value() != "Default").map(|d| {
        let path: syn::Path = d.parse().unwrap_or_else(|_| syn::parse_quote!(Clone));
        quote_spanned!(d.span()=> #path)
    });
    let doc = crd.doc.as_ref().map(|doc| quote!(#[doc = #doc]));
    let attrs = crd.attrs.iter().map(|(meta, span)| quote_spanned!(*span=> #[#meta]));
    let status_type = crd.status_type.as_ref().map(|lit| {
        let ty: syn::Type = lit.parse().unwrap_or_else(|_| syn::parse_quote!(()));
        quote_spanned!(lit.span()=> #ty)
    });
    let status_field = status_type.as_ref().map(|ty| {
        quote! {
            #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
            pub status: ::std::option::Option<#ty>,
        }
    });
    let status_value = status_type.as_ref().map(|_| quote!(status: ::std::option::Option::None,));
    let status_check = crd.status_type.as_ref().zip(status_type.as_ref()).map(|(lit, ty)| {
        quote_spanned! {lit.span()=>
            const _: () = {
                fn status_is_an_object<T: ?::core::marker::Sized + #private::DerivedStruct>() {}
                let _ = status_is_an_object::<#ty>;
            };
        }
    });
    let fields = {
        let (api_version, kind) = (names.api_version(), &names.kind);
        quote! {
            api_version: ::std::borrow::ToOwned::to_owned(#api_version),
            kind: ::std::borrow::ToOwned::to_owned(#kind),
        }
    };
    let default_impl = default.then(|| {
        quote! {
            #[automatically_derived]
            impl ::core::default::Default for #root {
                fn default() -> Self {
                    Self {
                        #fields
                        metadata: ::core::default::Default::default(),
                        spec: ::core::default::Default::default(),
                        #status_value
                    }
                }
            }
        }
    });
    quote! {
        #krate::__require_k8s_openapi!();

        #doc
        #[allow(missing_docs)]
        #[derive(
            ::core::clone::Clone,
            ::core::fmt::Debug,
            #private::serde::Serialize,
            #private::serde::Deserialize,
            #krate::CustomResourceSchema,
            #(#derives),*
        )]
        #(#attrs)*
        #[serde(crate = #serde_crate)]
        #crate_attr
        #attr
        #vis struct #root {
            #[doc = #API_VERSION_DOC]
            #[serde(rename = "apiVersion")]
            pub api_version: ::std::string::String,
            #[doc = #KIND_DOC]
            pub kind: ::std::string::String,
            #[doc = #METADATA_DOC]
            #[serde(default)]
            pub metadata: #object_meta,
            pub spec: #spec,
            #status_field
        }

        #default_impl
        #status_check
    }
}

// The root form's `#[crd(...)]` for the generated root: every name spelled
// out, the scope explicit, `status` a flag.
fn root_attr(crd: &Crd, names: &Names) -> TokenStream {
    let Names { group, version, kind, plural, singular, list_kind, scope } = names;
    let mut keys = vec![
        quote!(group = #group),
        quote!(version = #version),
        quote!(kind = #kind),
        quote!(plural = #plural),
        quote!(singular = #singular),
        quote!(list_kind = #list_kind),
    ];
    if !crd.short_names.is_empty() {
        let short_names = &crd.short_names;
        keys.push(quote!(short_names = [#(#short_names),*]));
    }
    if !crd.categories.is_empty() {
        let categories = &crd.categories;
        keys.push(quote!(categories = [#(#categories),*]));
    }
    keys.push(quote!(scope = #scope));
    if crd.status {
        keys.push(quote!(status));
    }
    if let Some(scale) = &crd.scale {
        let (spec, status) = (&scale.spec_replicas_path, &scale.status_replicas_path);
        let selector = scale.label_selector_path.as_ref().map(|s| quote!(, label_selector_path = #s));
        keys.push(quote!(scale(spec_replicas_path = #spec, status_replicas_path = #status #selector)));
    }
    keys.extend(crd.printer_columns.iter().map(printer_column));
    keys.extend(crd.selectable_fields.iter().map(|path| quote!(selectable_field = #path)));
    if let Some(served) = crd.served {
        keys.push(quote!(served = #served));
    }
    if let Some(storage) = crd.storage {
        keys.push(quote!(storage = #storage));
    }
    if crd.deprecated {
        keys.push(quote!(deprecated));
    }
    if let Some(warning) = &crd.deprecation_warning {
        keys.push(quote!(deprecation_warning = #warning));
    }
    keys.extend(crd.annotations.iter().map(|(key, value)| quote!(annotation(#key, #value))));
    keys.extend(crd.labels.iter().map(|(key, value)| quote!(label(#key, #value))));
    quote!(#[crd(#(#keys),*)])
}

fn printer_column(column: &PrinterColumn) -> TokenStream {
    let PrinterColumn { name, type_, json_path, description, format, priority } = column;
    let description = description.as_ref().map(|d| quote!(, description = #d));
    let format = format.as_ref().map(|f| quote!(, format = #f));
    let priority = priority.map(|p| quote!(, priority = #p));
    quote!(printer_column(name = #name, type_ = #type_, json_path = #json_path #description #format #priority))
}
