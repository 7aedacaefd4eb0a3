//! `#[crd(...)]` roots: `impl CustomResource`, the inherent
//! `crd_manifest()`, and the kube-rs traits (through the runtime's
//! `__resource_impls!`); and the stubs emitted beside compile errors.

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;
use syn::ext::IdentExt as _;
use syn::{DeriveInput, LitStr};

use super::Paths;
use crate::internals::ast::{Container, Data};
use crate::internals::attr::crd::{Crd, PrinterColumn};

/// The names of a root's CRD as the derive computes them.
pub struct Names {
    pub group: String,
    pub version: String,
    pub kind: String,
    pub plural: String,
    pub singular: String,
    pub list_kind: String,
    pub scope: String,
}

impl Names {
    // Names default as the API's conventions have them: kind is the type's
    // name, plural its lowercase plus `s`, singular its lowercase, list kind
    // kind plus `List`.
    pub fn of(ident: &Ident, crd: &Crd) -> Self {
        let value = |lit: &Option<LitStr>| lit.as_ref().map(LitStr::value);
        let kind = value(&crd.kind).unwrap_or_else(|| ident.unraw().to_string());
        let lower = kind.to_lowercase();
        Self {
            group: value(&crd.group).unwrap_or_default(),
            version: value(&crd.version).unwrap_or_default(),
            plural: value(&crd.plural).unwrap_or_else(|| format!("{lower}s")),
            singular: value(&crd.singular).unwrap_or(lower),
            list_kind: value(&crd.list_kind).unwrap_or_else(|| format!("{kind}List")),
            scope: crd.scope(),
            kind,
        }
    }

    /// `apiVersion` of the resource's objects.
    pub fn api_version(&self) -> String {
        if self.group.is_empty() { self.version.clone() } else { format!("{}/{}", self.group, self.version) }
    }
}

/// The `CustomResource` impl, inherent `crd_manifest()` and kube-rs traits
/// of a root type.
pub fn root(paths: &Paths, cont: &Container<'_>, crd: &Crd, generics: &syn::Generics) -> TokenStream {
    let krate = &paths.krate;
    let ident = cont.ident;
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let names = Names::of(ident, crd);
    let consts = consts(&names, crd);
    let version = &names.version;
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
    let api_version = names.api_version();
    let crd_name = format!("{}.{}", names.plural, names.group);
    let scope = Ident::new(
        if names.scope == "Cluster" { "ClusterResourceScope" } else { "NamespaceResourceScope" },
        Span::call_site(),
    );
    let metadata = metadata_member(cont);
    let constructor = constructor(cont, &names);
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
            pub fn crd_manifest() -> #krate::schema::CrdManifest {
                <Self as #krate::schema::CustomResource>::crd_manifest()
            }

            #constructor
        }

        #krate::__resource_impls! {
            impl [#impl_generics] for [#ident #ty_generics] where [#where_clause],
            api_version: #api_version,
            scope: #scope,
            crd_name: #crd_name,
            metadata: [#metadata],
        }
    }
}

// `new(name, spec)` as kube-derive's roots have it, for a root of the
// usual shape: `apiVersion`, `kind`, `metadata`, `spec` and an optional
// `status`, nothing else (other fields would need values `new` cannot
// know). `spec: Option<T>` takes a `T`.
fn constructor(cont: &Container<'_>, names: &Names) -> Option<TokenStream> {
    let Data::Struct(_, fields) = &cont.data else { return None };
    let named = |name: &str| fields.iter().find(|f| f.name == name);
    let (metadata, spec) = (named("metadata")?, named("spec")?);
    let usual = |name: &str| ["apiVersion", "kind", "metadata", "spec", "status"].contains(&name);
    if fields.iter().any(|f| f.serde.flatten || f.serde.skip || !usual(&f.name)) {
        return None;
    }
    let status = match named("status") {
        Some(status) if option_inner(status.ty).is_none() => return None,
        Some(status) => Some(&status.member),
        None => None,
    };
    let (spec_member, metadata_member, metadata_ty) = (&spec.member, &metadata.member, metadata.ty);
    let (spec_ty, spec_value) = match option_inner(spec.ty) {
        Some(inner) => (quote!(#inner), quote!(::core::option::Option::Some(spec))),
        None => {
            let ty = spec.ty;
            (quote!(#ty), quote!(spec))
        }
    };
    let type_meta =
        [("apiVersion", names.api_version()), ("kind", names.kind.clone())].into_iter().filter_map(|(name, value)| {
            named(name).map(|f| {
                let member = &f.member;
                quote!(#member: ::std::borrow::ToOwned::to_owned(#value),)
            })
        });
    let status = status.map(|member| quote!(#member: ::core::option::Option::None,));
    let doc =
        format!(" A new `{}` object named `name` with `spec`: `apiVersion` and `kind` set, no status.", names.kind);
    Some(quote! {
        #[doc = #doc]
        pub fn new(name: &str, spec: #spec_ty) -> Self {
            let mut metadata = <#metadata_ty as ::core::default::Default>::default();
            metadata.name = ::core::option::Option::Some(::std::borrow::ToOwned::to_owned(name));
            Self {
                #(#type_meta)*
                #metadata_member: metadata,
                #spec_member: #spec_value,
                #status
            }
        }
    })
}

// `T` of a field type written `Option<T>` (any path ending in `Option`).
fn option_inner(ty: &syn::Type) -> Option<&syn::Type> {
    let syn::Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else { return None };
    match (last.ident == "Option", args.args.first()) {
        (true, Some(syn::GenericArgument::Type(inner))) if args.args.len() == 1 => Some(inner),
        _ => None,
    }
}

// The field whose JSON name is `metadata`, which `Metadata` returns.
fn metadata_member<'a>(cont: &'a Container<'_>) -> Option<&'a Ident> {
    let Data::Struct(_, fields) = &cont.data else { return None };
    let field = fields.iter().find(|f| f.name == "metadata")?;
    match &field.member {
        syn::Member::Named(ident) => Some(ident),
        syn::Member::Unnamed(_) => None,
    }
}

fn consts(names: &Names, crd: &Crd) -> TokenStream {
    let Names { group, version, kind, plural, singular, list_kind, scope } = names;
    let short_names = &crd.short_names;
    let categories = &crd.categories;
    let storage = crd.storage.unwrap_or(true);
    // Annotations and labels are rare: the trait's empty default stands
    // when there are none.
    let pairs = |name: &str, pairs: &[(LitStr, LitStr)]| {
        let name = Ident::new(name, Span::call_site());
        let (keys, values): (Vec<_>, Vec<_>) = pairs.iter().map(|(k, v)| (k, v)).unzip();
        (!pairs.is_empty())
            .then(|| quote!(const #name: &'static [(&'static str, &'static str)] = &[#((#keys, #values)),*];))
    };
    let annotations = pairs("ANNOTATIONS", &crd.annotations);
    let labels = pairs("LABELS", &crd.labels);
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
        #annotations
        #labels
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
    let status = crd.status;
    let scale = match &crd.scale {
        Some(scale) => {
            let spec = owned(&scale.spec_replicas_path);
            let status = owned(&scale.status_replicas_path);
            let selector = option_string(scale.label_selector_path.as_ref());
            quote!(::core::option::Option::Some(#krate::schema::Scale {
                spec_replicas_path: #spec,
                status_replicas_path: #status,
                label_selector_path: #selector,
            }))
        }
        None => quote!(::core::option::Option::None),
    };
    quote!(#krate::schema::Subresources { status: #status, scale: #scale })
}

fn printer_column(paths: &Paths, column: &PrinterColumn) -> TokenStream {
    let krate = &paths.krate;
    let name = owned(&column.name);
    let type_ = owned(&column.type_);
    let json_path = owned(&column.json_path);
    // Absent is empty (or 0), which the manifest leaves out as Go does.
    let or_empty = |lit: Option<&LitStr>| lit.map_or_else(|| quote!(::std::string::String::new()), owned);
    let description = or_empty(column.description.as_ref());
    let format = or_empty(column.format.as_ref());
    let priority = column.priority.unwrap_or(0);
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
/// trait, and for a `#[crd]` type `CustomResource` and `crd_manifest()` too.
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
                pub fn crd_manifest() -> #krate::schema::CrdManifest {
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
