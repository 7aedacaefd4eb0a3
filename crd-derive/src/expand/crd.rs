//! `#[crd(...)]` roots: `impl CustomResource` and the inherent `crd()`;
//! and the stubs emitted beside compile errors.

use proc_macro2::TokenStream;
use quote::quote;
use syn::ext::IdentExt as _;
use syn::{DeriveInput, LitStr};

use super::Paths;
use crate::internals::ast::Container;
use crate::internals::attr::crd::{Crd, PrinterColumn};

/// The `CustomResource` impl and inherent `crd()` of a root type.
pub fn root(paths: &Paths, cont: &Container<'_>, crd: &Crd, generics: &syn::Generics) -> TokenStream {
    let krate = &paths.krate;
    let ident = cont.ident;
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let consts = consts(cont, crd);
    let version = crd.version.as_ref().map(LitStr::value).unwrap_or_default();
    let served = crd.served.unwrap_or(true);
    let storage = crd.storage.unwrap_or(true);
    let deprecated = crd.deprecated;
    let deprecation_warning = option_string(crd.deprecation_warning.as_ref());
    let subresources = subresources(paths, crd);
    let columns = crd.printer_columns.iter().map(|c| printer_column(paths, c));
    let fields = crd.selectable_fields.iter().map(|path| {
        let path = owned(path);
        quote!(#krate::schema::SelectableField { json_path: #path })
    });
    quote! {
        #[automatically_derived]
        impl #impl_generics #krate::schema::CustomResource for #ident #ty_generics #where_clause {
            #consts
            fn crd_version(generator: &mut #krate::schema::SchemaGenerator) -> #krate::schema::CrdVersionManifest {
                #krate::schema::CrdVersionManifest {
                    name: ::std::borrow::ToOwned::to_owned(#version),
                    served: #served,
                    storage: #storage,
                    deprecated: #deprecated,
                    deprecation_warning: #deprecation_warning,
                    schema: generator.subschema::<Self>(),
                    subresources: #subresources,
                    additional_printer_columns: ::std::vec![#(#columns),*],
                    selectable_fields: ::std::vec![#(#fields),*],
                }
            }
        }

        #[automatically_derived]
        impl #impl_generics #ident #ty_generics #where_clause {
            /// The CustomResourceDefinition of this type (`#[crd(...)]`),
            /// with this one version.
            pub fn crd() -> #krate::schema::CrdManifest {
                <Self as #krate::schema::CustomResource>::crd()
            }
        }
    }
}

// Names default as the API's conventions have them: kind is the type's
// name, plural its lowercase plus `s`, singular its lowercase, list kind
// kind plus `List`.
fn consts(cont: &Container<'_>, crd: &Crd) -> TokenStream {
    let value = |lit: &Option<LitStr>| lit.as_ref().map(LitStr::value);
    let kind = value(&crd.kind).unwrap_or_else(|| cont.ident.unraw().to_string());
    let lower = kind.to_lowercase();
    let group = value(&crd.group).unwrap_or_default();
    let version = value(&crd.version).unwrap_or_default();
    let plural = value(&crd.plural).unwrap_or_else(|| format!("{lower}s"));
    let singular = value(&crd.singular).unwrap_or(lower);
    let list_kind = value(&crd.list_kind).unwrap_or_else(|| format!("{kind}List"));
    let short_names = &crd.short_names;
    let categories = &crd.categories;
    let scope = value(&crd.scope).unwrap_or_else(|| "Namespaced".to_owned());
    let storage = crd.storage.unwrap_or(true);
    quote! {
        const GROUP: &'static str = #group;
        const VERSION: &'static str = #version;
        const KIND: &'static str = #kind;
        const PLURAL: &'static str = #plural;
        const SINGULAR: &'static str = #singular;
        const LIST_KIND: &'static str = #list_kind;
        const SHORT_NAMES: &'static [&'static str] = &[#(#short_names),*];
        const CATEGORIES: &'static [&'static str] = &[#(#categories),*];
        const SCOPE: &'static str = #scope;
        const STORAGE: bool = #storage;
    }
}

fn owned(lit: &LitStr) -> TokenStream {
    quote!(::std::borrow::ToOwned::to_owned(#lit))
}

fn option_string(lit: Option<&LitStr>) -> TokenStream {
    match lit {
        Some(lit) => {
            let value = owned(lit);
            quote!(::core::option::Option::Some(#value))
        }
        None => quote!(::core::option::Option::None),
    }
}

fn subresources(paths: &Paths, crd: &Crd) -> TokenStream {
    let krate = &paths.krate;
    let private = paths.private();
    let status = if crd.status {
        quote!(::core::option::Option::Some(#private::empty_object()))
    } else {
        quote!(::core::option::Option::None)
    };
    let scale = match &crd.scale {
        Some(scale) => {
            let spec = owned(&scale.spec_replicas_path);
            let status = owned(&scale.status_replicas_path);
            let selector = option_string(scale.label_selector_path.as_ref());
            quote!(::core::option::Option::Some(#krate::schema::ScaleSubresource {
                spec_replicas_path: #spec,
                status_replicas_path: #status,
                label_selector_path: #selector,
            }))
        }
        None => quote!(::core::option::Option::None),
    };
    quote!(#krate::schema::SubresourcesManifest { status: #status, scale: #scale })
}

fn printer_column(paths: &Paths, column: &PrinterColumn) -> TokenStream {
    let krate = &paths.krate;
    let name = owned(&column.name);
    let type_ = owned(&column.type_);
    let json_path = owned(&column.json_path);
    let description = option_string(column.description.as_ref());
    let format = option_string(column.format.as_ref());
    let priority = match column.priority {
        Some(p) => quote!(::core::option::Option::Some(#p)),
        None => quote!(::core::option::Option::None),
    };
    quote!(#krate::schema::PrinterColumn {
        name: #name,
        type_: #type_,
        json_path: #json_path,
        description: #description,
        format: #format,
        priority: #priority,
    })
}

/// Impls that compile whatever the input, emitted beside the errors: the
/// trait, and for a `#[crd]` type `CustomResource` and `crd()` too.
pub fn stub(paths: &Paths, input: &DeriveInput) -> TokenStream {
    let krate = &paths.krate;
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let root = input.attrs.iter().any(|a| a.path().is_ident("crd")).then(|| {
        quote! {
            impl #impl_generics #krate::schema::CustomResource for #ident #ty_generics #where_clause {
                const GROUP: &'static str = "";
                const VERSION: &'static str = "";
                const KIND: &'static str = "";
                const PLURAL: &'static str = "";
                const SINGULAR: &'static str = "";
                const LIST_KIND: &'static str = "";
                const SHORT_NAMES: &'static [&'static str] = &[];
                const CATEGORIES: &'static [&'static str] = &[];
                const SCOPE: &'static str = "";
                const STORAGE: bool = false;
                fn crd_version(_: &mut #krate::schema::SchemaGenerator) -> #krate::schema::CrdVersionManifest {
                    ::core::unimplemented!()
                }
            }
            impl #impl_generics #ident #ty_generics #where_clause {
                /// Not available: the derive reported errors.
                pub fn crd() -> #krate::schema::CrdManifest {
                    ::core::unimplemented!()
                }
            }
        }
    });
    quote! {
        const _: () = {
            impl #impl_generics #krate::schema::CustomResourceSchema for #ident #ty_generics #where_clause {
                fn schema(_: &mut #krate::schema::SchemaGenerator) -> #krate::schema::Schema {
                    ::core::unimplemented!()
                }
            }
            #root
        };
    }
}
