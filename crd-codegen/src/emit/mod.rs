//! Type spaces → Rust source text: tokens with `quote`, laid out by
//! `prettyplease`, behind an `@generated` header. Doc comments of
//! descriptions skip the tokens: each is a placeholder there, replaced by
//! its lines in the laid-out text (`Docs`).
//!
//! Entry point: [`file()`]. The shape of the output is the contract in
//! `docs/generated-code.md`; `types.rs` emits structs and enums, `defaults.rs`
//! the default functions and `Default` impls, `resource.rs` the
//! k8s-openapi traits of root types and `doc.rs` the doc comments. Error
//! policy: the only failures are option paths that are not Rust paths and
//! (a generator bug) tokens that do not parse.

mod defaults;
mod paths;
mod resource;
mod schema_attrs;
mod types;

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};

use crate::error::{Error, Result};
use crate::naming::{Case, Names};
use crate::typespace::{CrdSpace, TypeId, TypeRef, TypeSpace, VersionSpace};

/// What the emitted code looks like beyond the model.
#[derive(Clone, Debug)]
pub struct EmitOptions {
    /// Extra derives for every type, as paths (`schemars::JsonSchema`).
    pub derives: Vec<String>,
    /// The path of the `crd-schema` crate.
    pub crd_schema: String,
    /// The path of the `k8s-openapi` crate.
    pub k8s_openapi: String,
}

/// Resolved paths and derives, shared by the emitters.
struct Ctx<'a> {
    space: &'a TypeSpace,
    docs: &'a Docs,
    crd_schema: TokenStream,
    crd_schema_text: String,
    k8s: TokenStream,
    derives: Vec<syn::Path>,
}

impl Ctx<'_> {
    /// The tokens of a type.
    fn ty(&self, ty: &TypeRef) -> TokenStream {
        let k8s = &self.k8s;
        match ty {
            TypeRef::Named(id) => {
                let ident = self.name(*id);
                quote!(#ident)
            }
            TypeRef::String => quote!(::std::string::String),
            TypeRef::I32 => quote!(i32),
            TypeRef::I64 => quote!(i64),
            TypeRef::F64 => quote!(f64),
            TypeRef::Bool => quote!(bool),
            TypeRef::Value => quote!(::serde_json::Value),
            TypeRef::IntOrString => quote!(#k8s::apimachinery::pkg::util::intstr::IntOrString),
            TypeRef::ObjectMeta => quote!(#k8s::apimachinery::pkg::apis::meta::v1::ObjectMeta),
            TypeRef::Vec(item) => {
                let item = self.ty(item);
                quote!(::std::vec::Vec<#item>)
            }
            TypeRef::Map(value) => {
                let value = self.ty(value);
                quote!(::std::collections::BTreeMap<::std::string::String, #value>)
            }
            TypeRef::Option(inner) => {
                let inner = self.ty(inner);
                quote!(::std::option::Option<#inner>)
            }
        }
    }

    /// Whether clippy's `type_complexity` (threshold 250) may fire on `ty`
    /// wrapped in `wrappers` more generic types (`Option`, `Result`).
    fn complex(&self, ty: &TypeRef, wrappers: u32) -> bool {
        let outer: u32 = (1..=wrappers).map(|nest| 10 * nest).sum();
        outer + complexity(ty, wrappers + 1) > 250
    }

    /// The doc comment of a description (see [`Docs`]).
    fn doc_attrs(&self, description: &str) -> TokenStream {
        self.docs.attrs(description)
    }

    fn name(&self, id: TypeId) -> Ident {
        ident(self.space.get(id).map_or("Unnamed", |t| t.name.as_str()))
    }

    /// A `crd_schema::__private` helper as a string for serde attributes.
    fn helper(&self, name: &str) -> String {
        format!("{}::__private::{name}", self.crd_schema_text)
    }
}

/// clippy's type complexity score: 10 × nesting depth for every path type.
fn complexity(ty: &TypeRef, nest: u32) -> u32 {
    let own = 10 * nest;
    match ty {
        TypeRef::Vec(inner) | TypeRef::Option(inner) => own + complexity(inner, nest + 1),
        // `BTreeMap<String, T>`
        TypeRef::Map(inner) => own + 10 * (nest + 1) + complexity(inner, nest + 1),
        _ => own,
    }
}

/// An identifier, raw when written `r#...`.
fn ident(name: &str) -> Ident {
    match name.strip_prefix("r#") {
        Some(raw) => Ident::new_raw(raw, Span::call_site()),
        None => Ident::new(name, Span::call_site()),
    }
}

/// `#[doc = "..."]` attributes for text the generator writes itself
/// (already valid Markdown).
fn own_doc(text: &str) -> TokenStream {
    let attrs = text.lines().map(|line| {
        let line = format!(" {line}");
        quote!(#[doc = #line])
    });
    quote!(#(#attrs)*)
}

/// The doc comments of descriptions, written into the laid-out text
/// rather than passed through tokens, syn and prettyplease: they are most
/// of a file's text and are written back unchanged, so each block stands
/// in the tokens as one placeholder attribute (`#[doc = "@doc#3"]`, laid
/// out as the line `///@doc#3`) that [`Docs::expand`] replaces by its
/// lines, as prettyplease writes doc attributes.
#[derive(Default)]
struct Docs(std::cell::RefCell<Vec<Vec<String>>>);

/// What a placeholder's line starts with, after its indentation.
const DOC_PLACEHOLDER: &str = "///@doc#";

impl Docs {
    /// The placeholder of `description`'s doc comment; nothing for none.
    fn attrs(&self, description: &str) -> TokenStream {
        let lines = crate::doc::doc_lines(description);
        if lines.is_empty() {
            return TokenStream::new();
        }
        let mut blocks = self.0.borrow_mut();
        let placeholder = format!("@doc#{}", blocks.len());
        blocks.push(lines);
        quote!(#[doc = #placeholder])
    }

    /// `code` with every placeholder line replaced by its doc comment:
    /// `///`, a space and the line, trailing spaces trimmed (prettyplease's
    /// form of `#[doc = " line"]`), `///` alone for an empty line.
    fn expand(&self, code: &str) -> String {
        let blocks = self.0.borrow();
        let mut out = String::with_capacity(code.len() + blocks.iter().flatten().map(|l| l.len() + 16).sum::<usize>());
        for line in code.split_inclusive('\n') {
            let content = line.trim_start();
            let indent = &line[..line.len() - content.len()];
            let block =
                content.strip_prefix(DOC_PLACEHOLDER).and_then(|n| blocks.get(n.trim_end().parse::<usize>().ok()?));
            let Some(block) = block else {
                out.push_str(line);
                continue;
            };
            for doc in block {
                out.push_str(indent);
                out.push_str("///");
                if !doc.trim_end_matches(' ').is_empty() {
                    out.push(' ');
                    out.push_str(doc.trim_end_matches(' '));
                }
                out.push('\n');
            }
        }
        out
    }
}

fn parse_path(option: &'static str, value: &str) -> Result<syn::Path> {
    syn::parse_str::<syn::Path>(value).map_err(|_| Error::Option { option, value: value.to_owned() })
}

/// The whole file for `crds`, read from `sources`.
pub fn file(crds: &[CrdSpace], sources: &[String], options: &EmitOptions) -> Result<String> {
    let crd_schema = parse_path("crd_schema_path", &options.crd_schema)?;
    let k8s = parse_path("k8s_openapi_path", &options.k8s_openapi)?;
    let derives = options.derives.iter().map(|d| parse_path("derive", d)).collect::<Result<Vec<_>>>()?;
    let docs = Docs::default();
    let mut modules = Names::new(Case::Snake);
    let mut items = Vec::new();
    let mut crd_paths = Vec::new();
    for crd in crds {
        let versions = crd
            .versions
            .iter()
            .map(|v| {
                let space = &v.space;
                let ctx = Ctx {
                    space,
                    docs: &docs,
                    crd_schema: quote!(#crd_schema),
                    crd_schema_text: options.crd_schema.replace(' ', ""),
                    k8s: quote!(#k8s),
                    derives: derives.clone(),
                };
                version_module(&ctx, crd, v)
            })
            .collect::<Vec<_>>();
        let crd_fn = crd_fn(&crd_schema, crd);
        if crds.len() == 1 {
            items.extend(versions);
            items.push(crd_fn);
            crd_paths.push(quote!(crd()));
        } else {
            let module = ident(&modules.claim(&crd.module));
            let doc = own_doc(&format!("The CustomResourceDefinition `{}`.", crd.name));
            items.push(quote!(#doc pub mod #module { #(#versions)* #crd_fn }));
            crd_paths.push(quote!(#module::crd()));
        }
    }
    items.push(quote! {
        /// Every CustomResourceDefinition of this file, rebuilt from the
        /// generated types.
        #[allow(dead_code)]
        pub fn crds() -> ::std::vec::Vec<#crd_schema::schema::CrdManifest> {
            ::std::vec![#(#crd_paths),*]
        }
    });
    let tokens = quote!(#(#items)*);
    let label = crds.iter().map(|c| c.name.as_str()).collect::<Vec<_>>().join(", ");
    let file = syn::parse2::<syn::File>(tokens).map_err(|e| Error::Emit { crd: label, message: e.to_string() })?;
    let names = sources.join(", ");
    let code = space_items(&docs.expand(&prettyplease::unparse(&file)));
    Ok(format!("// @generated by crd-codegen from {names}. Do not edit.\n\n{code}"))
}

/// `pub fn crd()`: the CRD with all its versions, rebuilt by the derive.
fn crd_fn(crd_schema: &syn::Path, crd: &CrdSpace) -> TokenStream {
    let roots = crd.versions.iter().map(|v| {
        let module = ident(&v.module);
        let root = ident(v.space.types.first().map(|t| t.name.as_str()).unwrap_or_default());
        quote!(#module::#root)
    });
    let doc = format!(" `{}` with every version, as the derive rebuilds it from these types.", crd.name);
    quote! {
        #[doc = #doc]
        #[allow(dead_code)]
        pub fn crd() -> #crd_schema::schema::CrdManifest {
            #crd_schema::merge_crds!(#(#roots),*)
        }
    }
}

/// A blank line after every block that closes an item and after a `use`
/// block, before the next item at the same depth (prettyplease leaves
/// none).
fn space_items(code: &str) -> String {
    let mut out = String::with_capacity(code.len() + code.len() / 20);
    let mut previous: Option<&str> = None;
    for line in code.lines() {
        if let Some(prev) = previous {
            let indent = |l: &str| l.len() - l.trim_start().len();
            let closes = matches!(prev.trim(), "}" | "};");
            let opens = !line.trim().is_empty() && !line.trim_start().starts_with(['}', ')', ']']);
            let uses_end = prev.trim_start().starts_with("use ") && !line.trim_start().starts_with("use ");
            if (closes || uses_end) && opens && indent(prev) == indent(line) {
                out.push('\n');
            }
        }
        out.push_str(line);
        out.push('\n');
        previous = Some(line);
    }
    out
}

fn version_module(ctx: &Ctx<'_>, crd: &CrdSpace, version: &VersionSpace) -> TokenStream {
    let module = ident(&version.module);
    let kind = ctx.space.types.first().map(|t| t.name.as_str()).unwrap_or_default();
    // An inner doc, so that the link resolves inside the module.
    let doc = format!(" Version `{}` of `{}`: the resource is [`{kind}`].", version.version, crd.name);
    let types = ctx.space.types.iter().enumerate().map(|(i, _)| types::type_def(ctx, TypeId(i)));
    let defined = ctx.space.types.iter().map(|t| t.name.as_str()).collect();
    let k8s = ctx.k8s.to_string().replace(' ', "");
    let body = paths::shorten(quote!(#(#types)*), &defined, &ctx.crd_schema_text, &k8s);
    quote! {
        pub mod #module {
            #![doc = #doc]
            #body
        }
    }
}

/// A derived function name (`default_<field>`); a field's leading `_`
/// (`_123`) is dropped so the name has no `__` (`non_snake_case`).
fn derived_fn(prefix: &str, field: &str) -> Ident {
    format_ident!("{prefix}_{}", crate::naming::bare(field).trim_start_matches('_'))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `description`'s doc comment on a field, laid out by prettyplease
    /// as attributes (what the generator wrote before [`Docs`]).
    fn through_prettyplease(description: &str) -> String {
        let attrs = crate::doc::doc_lines(description).into_iter().map(|line| {
            let line = if line.is_empty() { line } else { format!(" {line}") };
            quote!(#[doc = #line])
        });
        let tokens = quote!(pub mod m { pub struct S { #(#attrs)* pub f: i32 } });
        prettyplease::unparse(&syn::parse2(tokens).expect("tokens parse"))
    }

    fn through_docs(description: &str) -> String {
        let docs = Docs::default();
        let attrs = docs.attrs(description);
        let tokens = quote!(pub mod m { pub struct S { #attrs pub f: i32 } });
        docs.expand(&prettyplease::unparse(&syn::parse2(tokens).expect("tokens parse")))
    }

    #[test]
    fn doc_placeholders_expand_as_prettyplease_writes_doc_attributes() {
        for description in [
            "One line.",
            "Two\nlines, the second long enough to pass the hundred columns that prettyplease keeps code within, by far.",
            "A paragraph.\n\n\nAnother, after blank lines.",
            "Code:\n```\n  indented  \n\n```\n",
            "A \"quoted\" \\ backslash, a tab\tand <html> [link].",
            "/starts with a slash",
        ] {
            assert_eq!(through_docs(description), through_prettyplease(description), "{description:?}");
        }
        assert_eq!(through_docs(""), through_prettyplease(""));
    }
}
