//! Emission: the impls of a checked [`Container`], in fully qualified
//! paths through the runtime crate's path, wrapped in `const _: () = {}`.
//! On errors, `compile_error!`s plus stub impls, so that users see no
//! second wave of "trait not implemented" errors.

mod crd;
mod enum_;
mod field;
mod spec_first;
mod struct_;

use proc_macro2::TokenStream;
use quote::quote;
use syn::{DeriveInput, parse_quote};

use crate::internals::ast::{Container, CrdForm, Data, Style};
use crate::internals::attr::doc::Doc;
use crate::internals::attr::schema::Keywords;
use crate::internals::check;
use crate::internals::ctxt::Ctxt;
use crate::internals::json::Json;

/// The expansion of `#[derive(CustomResourceSchema)]` on `input`.
pub fn derive(input: &DeriveInput) -> TokenStream {
    let cx = Ctxt::new();
    let cont = Container::from_ast(&cx, input);
    if let Some(cont) = &cont {
        check::check(&cx, cont);
    }
    let paths = Paths::new(cont.as_ref().and_then(|c| c.schema.crate_path.clone()));
    match (cx.check(), cont) {
        (Ok(()), Some(cont)) => expand(&paths, &cont),
        (Err(errors), _) => {
            let stub = crd::stub(&paths, input);
            let errors = errors.to_compile_error();
            quote!(#errors #stub)
        }
        (Ok(()), None) => crd::stub(&paths, input),
    }
}

fn expand(paths: &Paths, cont: &Container<'_>) -> TokenStream {
    let body = match &cont.data {
        Data::Struct(style, fields) => struct_::body(paths, cont, *style, fields),
        Data::Enum(variants) => enum_::body(paths, cont, variants),
    };
    let body = finish(paths, body, &cont.doc, &cont.schema);
    let krate = &paths.krate;
    let ident = cont.ident;
    let generics = bounded_generics(paths, cont.original);
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let root = cont.crd.as_ref().filter(|_| cont.is_root()).map(|crd| crd::root(paths, cont, crd, &generics));
    let root_crd = root.as_ref().map(|_| {
        quote! {
            fn root_crd() -> ::std::option::Option<#krate::schema::CrdManifest> {
                ::std::option::Option::Some(<Self as #krate::schema::CustomResource>::crd_manifest())
            }
        }
    });
    let derived_struct = matches!(cont.data, Data::Struct(Style::Named, _) if !cont.serde.transparent).then(|| {
        let private = paths.private();
        quote! {
            #[automatically_derived]
            impl #impl_generics #private::DerivedStruct for #ident #ty_generics #where_clause {}
        }
    });
    let spec_first = match (&cont.crd, cont.crd_form()) {
        (Some(crd), Some(CrdForm::Spec)) => spec_first::root_type(paths, cont, crd),
        _ => TokenStream::new(),
    };
    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals, unused_qualifications)]
        const _: () = {
            #[automatically_derived]
            impl #impl_generics #krate::schema::CustomResourceSchema for #ident #ty_generics #where_clause {
                fn schema(generator: &mut #krate::schema::SchemaGenerator) -> #krate::schema::Schema {
                    #body
                }
                #root_crd
            }
            #derived_struct
            #root
        };
        #spec_first
    }
}

/// The runtime crate's paths, `::crd_schema` unless `crate = "..."`.
pub struct Paths {
    pub krate: syn::Path,
}

impl Paths {
    fn new(krate: Option<syn::Path>) -> Self {
        Self { krate: krate.unwrap_or_else(|| parse_quote!(::crd_schema)) }
    }

    /// `<krate>::__private`.
    pub fn private(&self) -> TokenStream {
        let krate = &self.krate;
        quote!(#krate::__private)
    }

    /// `<krate>::schema::CustomResourceSchema`.
    pub fn trait_(&self) -> TokenStream {
        let krate = &self.krate;
        quote!(#krate::schema::CustomResourceSchema)
    }
}

/// The generics with `T: CustomResourceSchema` for every type parameter.
fn bounded_generics(paths: &Paths, input: &DeriveInput) -> syn::Generics {
    let mut generics = input.generics.clone();
    let bound: syn::TypeParamBound =
        syn::parse2(paths.trait_()).unwrap_or_else(|_| parse_quote!(::core::marker::Sized));
    for param in generics.type_params_mut() {
        param.bounds.push(bound.clone());
    }
    generics
}

/// `schema` (an expression) with a doc comment and keywords applied: the
/// doc unless `description` is given, then the overlay.
pub fn finish(paths: &Paths, schema: TokenStream, doc: &Doc, keywords: &Keywords) -> TokenStream {
    let private = paths.private();
    let mut statements = Vec::new();
    if !doc.is_empty() && keywords.overlay.get("description").is_none() {
        let text = doc.to_tokens();
        statements.push(quote!(#private::set_doc(&mut s, #text);));
    }
    if !keywords.overlay.is_empty() {
        let json = keywords.overlay.to_json();
        statements.push(quote!(#private::merge(&mut s, #json);));
    }
    with_statements(schema, &statements)
}

/// `{ let mut s = schema; statements; s }`, or `schema` alone.
pub fn with_statements(schema: TokenStream, statements: &[TokenStream]) -> TokenStream {
    if statements.is_empty() {
        return schema;
    }
    quote!({
        let mut s = #schema;
        #(#statements)*
        s
    })
}

/// A schema written as JSON at compile time.
pub fn json_schema(paths: &Paths, json: &Json) -> TokenStream {
    let private = paths.private();
    let text = json.to_json();
    quote!(#private::schema(#text))
}
