//! Items the emitter describes instead of building their tokens, laid out
//! as prettyplease lays out the tokens they stand for: an enum, with its
//! doc comment, attributes and variants (prettyplease's `item_enum` and
//! `variant`). The emitter puts a marker item where the enum goes
//! ([`marker`]); [`super::items`] writes the description there.
//!
//! Building an enum's tokens with `quote!` only for the layout to walk
//! them back cost more than laying the enum out: every variant is a few
//! tokens built, copied and dropped. The attributes the enum shares with
//! the structs (its derives, `#[schema]`, an `allow`) stay tokens, walked
//! as theirs are. The crate's tests check that prettyplease leaves every
//! described item as it is written here (`cfg(test)` in `runs.rs`).

use proc_macro2::{Literal, TokenStream, TokenTree};

use super::{INDENT, Printer, outer_attrs};
use crate::emit::paths;

/// What a marker item's name starts with, before its index:
/// `struct __crd_codegen_described_3;`.
pub(in crate::emit) const MARKER: &str = "__crd_codegen_described_";

/// An enum, described.
pub(in crate::emit) struct EnumItem {
    /// The placeholder of its doc comment (`@doc#3`), if it has one.
    pub doc: Option<String>,
    /// Its other outer attributes, as tokens.
    pub attrs: TokenStream,
    pub name: String,
    pub variants: Vec<Variant>,
}

/// A variant of an [`EnumItem`].
pub(in crate::emit) struct Variant {
    /// Its one-line doc comment, after `///`.
    pub doc: Option<&'static str>,
    /// Whether it is `#[default]`.
    pub default: bool,
    /// Its `#[serde(...)]`, if any.
    pub serde: Option<Serde>,
    pub name: String,
    /// The full path of its one field's type, if it has one.
    pub field: Option<&'static str>,
}

/// The one argument of a variant's `#[serde(...)]`.
pub(in crate::emit) enum Serde {
    /// `rename = "value"`.
    Rename(String),
    /// `untagged`.
    Untagged,
}

/// The marker item of the `n`th described item.
pub(in crate::emit) fn marker(n: usize) -> TokenStream {
    let name = quote::format_ident!("{MARKER}{n}");
    quote::quote!(struct #name;)
}

/// The index of the described item whose marker starts `tokens`, and how
/// many tokens the marker takes.
pub(super) fn marker_at(tokens: &[TokenTree]) -> Option<(usize, usize)> {
    match tokens {
        [TokenTree::Ident(keyword), TokenTree::Ident(name), TokenTree::Punct(semi), ..]
            if keyword == "struct" && semi.as_char() == ';' =>
        {
            Some((name.to_string().strip_prefix(MARKER)?.parse().ok()?, 3))
        }
        _ => None,
    }
}

/// `item`, printed.
pub(super) fn enum_item(p: &mut Printer<'_>, item: &EnumItem) -> Option<()> {
    if let Some(doc) = &item.doc {
        doc_line(p, doc);
    }
    let mut attrs: Vec<TokenTree> = item.attrs.clone().into_iter().collect();
    outer_attrs(p, &mut attrs)?;
    p.cbox(INDENT);
    p.word("pub enum ");
    p.word(&item.name);
    p.word(" {");
    p.hardbreak_if_nonempty();
    for variant in &item.variants {
        if let Some(doc) = variant.doc {
            doc_line(p, doc);
        }
        if variant.default {
            p.word("#[default]");
            p.space();
        }
        match &variant.serde {
            Some(Serde::Rename(value)) => serde_attr(p, |p| {
                p.word("rename = ");
                p.display(Literal::string(value));
            }),
            Some(Serde::Untagged) => serde_attr(p, |p| p.word("untagged")),
            None => {}
        }
        p.word(&variant.name);
        if let Some(ty) = variant.field {
            p.cbox(INDENT);
            p.word("(");
            p.zerobreak();
            let written = paths::written(ty, p.table, p.used);
            p.word(&written);
            p.trailing_comma(true);
            p.offset(-INDENT);
            p.word(")");
            p.end();
        }
        p.word(",");
        p.hardbreak();
    }
    p.offset(-INDENT);
    p.end();
    p.word("}");
    p.hardbreak();
    Some(())
}

/// A doc comment line: `///` and `text`.
fn doc_line(p: &mut Printer<'_>, text: &str) {
    p.word("///");
    p.word(text.trim_end_matches(' '));
    p.hardbreak();
}

/// `#[serde(argument)]`, the argument written by `argument`: the box
/// and breaks an attribute's parenthesised arguments get.
fn serde_attr(p: &mut Printer<'_>, argument: impl FnOnce(&mut Printer<'_>)) {
    p.word("#[serde(");
    p.cbox(INDENT);
    p.zerobreak();
    argument(p);
    p.zerobreak();
    p.offset(-INDENT);
    p.end();
    p.word(")]");
    p.space();
}

/// Each of `items` laid out on its own, `depth` modules deep, with the
/// paths of `table` short, and which of those they use: the texts that
/// replace their markers in what prettyplease lays out.
pub(in crate::emit) fn texts(items: &[EnumItem], depth: usize, table: &[paths::Short]) -> (Vec<String>, Vec<bool>) {
    let mut used = vec![false; table.len()];
    let texts = items
        .iter()
        .map(|item| {
            let mut printer = Printer::new(depth, table, &mut used);
            // An enum's attributes are the ones the layout walks on every
            // struct too: they are known.
            enum_item(&mut printer, item).map(|()| printer.finish()).unwrap_or_default()
        })
        .collect();
    (texts, used)
}
