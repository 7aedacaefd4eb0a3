//! `#[derive(CustomResourceSchema)]`: structural schemas and CRD manifests
//! from Rust types.
//!
//! The derive lands with its own issue; until then this crate only reserves
//! the name and reports a clear error when used.

use proc_macro::TokenStream;

/// Derives a structural schema for a type (not yet available).
#[proc_macro_derive(CustomResourceSchema, attributes(schema, crd))]
pub fn derive_custom_resource_schema(input: TokenStream) -> TokenStream {
    let input = proc_macro2::TokenStream::from(input);
    let span = input.into_iter().next().map(|t| t.span()).unwrap_or_else(proc_macro2::Span::call_site);
    quote::quote_spanned!(span => ::core::compile_error!("#[derive(CustomResourceSchema)] is not implemented yet");)
        .into()
}
