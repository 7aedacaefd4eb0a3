//! `#[derive(CustomResourceSchema)]`: structural schemas and CRD manifests
//! from Rust types. Use it through `crd-schema` with feature `derive`; the
//! attribute reference is the derive's documentation (docs/derive.md).
//!
//! The expansion parses attributes into a model (`internals::ast`,
//! `internals::attr`), checks it (`internals::check`, `internals::repr`)
//! and only then emits tokens (`expand`). Every mistake is a `syn::Error`
//! at the offending token, all reported at once, with stub impls beside
//! them so that no second wave of errors follows.
#![warn(missing_docs)]

mod expand;
mod internals;

use proc_macro::TokenStream;

#[doc = include_str!("../../docs/derive.md")]
#[allow(rustdoc::broken_intra_doc_links)]
#[proc_macro_derive(CustomResourceSchema, attributes(schema, crd, serde))]
pub fn derive_custom_resource_schema(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    expand::derive(&input).into()
}
