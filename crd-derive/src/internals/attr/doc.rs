//! Doc comments: the raw text that becomes a description
//! (`crd_schema::schema::description_from_doc` does the trimming at run
//! time, so the derive and the runtime share one rule).

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Attribute, Expr, Lit, Meta};

/// The `#[doc = ...]` values of an item.
#[derive(Default)]
pub struct Doc {
    values: Vec<Expr>,
}

impl Doc {
    /// The doc attributes of `attrs`.
    pub fn from_attrs(attrs: &[Attribute]) -> Self {
        let values = attrs
            .iter()
            .filter_map(|attr| match &attr.meta {
                Meta::NameValue(nv) if nv.path.is_ident("doc") => Some(nv.value.clone()),
                _ => None,
            })
            .collect();
        Self { values }
    }

    /// Whether there is no doc attribute.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The raw text as a `&'static str` expression: the lines joined with
    /// `\n`; a literal when every line is one, else `concat!` (so that
    /// `#[doc = include_str!(...)]` works too).
    pub fn to_tokens(&self) -> TokenStream {
        let literals: Option<Vec<String>> = self
            .values
            .iter()
            .map(|value| match value {
                Expr::Lit(syn::ExprLit { lit: Lit::Str(s), .. }) => Some(s.value()),
                _ => None,
            })
            .collect();
        if let Some(lines) = literals {
            let text = lines.join("\n");
            return quote!(#text);
        }
        let mut parts = Vec::new();
        for (i, value) in self.values.iter().enumerate() {
            if i > 0 {
                parts.push(quote!("\n"));
            }
            parts.push(quote!(#value));
        }
        quote!(::core::concat!(#(#parts),*))
    }
}
