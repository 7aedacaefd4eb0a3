//! The items the emitter describes instead of building their tokens —
//! every struct and enum of the types — laid out as prettyplease lays out
//! the tokens they stand for (its `item_struct`, `field`, `item_enum`,
//! `variant` and the `path` of a type). The emitter puts a marker item
//! where each goes ([`marker`]); [`super::items`] writes the description
//! there.
//!
//! Building the items' tokens with `quote!` only for the layout to walk
//! them back cost more than laying them out: every field is a few dozen
//! tokens built, copied and dropped. What the items share with the
//! walked blocks — their derives, `#[crd]` and `#[schema]` attributes —
//! stays tokens, walked by [`outer_attrs`]. The crate's tests check that
//! prettyplease leaves every described item as it is written here
//! (`cfg(test)` in `runs.rs`).

use std::borrow::Cow;
use std::sync::Arc;

use proc_macro2::{TokenStream, TokenTree};

use super::{INDENT, Printer, outer_attrs};
use crate::emit::paths;

/// What a marker item's name starts with, before its index:
/// `struct __crd_codegen_described_3;`.
pub(in crate::emit) const MARKER: &str = "__crd_codegen_described_";

/// An item, described; or a block already written, with the paths of
/// the table it uses (an open enum's `Deserialize`, `emit/templates.rs`).
#[derive(Clone)]
pub(in crate::emit) enum Described {
    Type(TypeItem),
    Text { text: String, used: Vec<bool> },
}

/// A struct with named fields, or an enum of unit variants and variants
/// of one field.
#[derive(Clone)]
pub(in crate::emit) struct TypeItem {
    /// The placeholder of its doc comment (`@doc#3`), if it has one.
    pub doc: Option<String>,
    pub derive: Derive,
    /// Its other outer attributes, as tokens.
    pub attrs: TokenStream,
    pub name: String,
    pub body: Body,
}

/// What a [`TypeItem`] holds.
#[derive(Clone)]
pub(in crate::emit) enum Body {
    Fields(Vec<FieldItem>),
    Variants(Vec<Variant>),
}

/// A field of a struct.
#[derive(Clone)]
pub(in crate::emit) struct FieldItem {
    /// Its doc comment's lines, each after `///`.
    pub doc: Vec<Cow<'static, str>>,
    /// The arguments of its `#[serde(...)]`, if any.
    pub serde: Vec<Argument>,
    /// Its other attributes, as tokens.
    pub attrs: TokenStream,
    pub name: String,
    pub ty: Ty,
}

/// A variant of an enum.
#[derive(Clone)]
pub(in crate::emit) struct Variant {
    /// Its one-line doc comment, after `///`.
    pub doc: Option<&'static str>,
    /// Whether it is `#[default]`.
    pub default: bool,
    /// The argument of its `#[serde(...)]`, if any.
    pub serde: Option<Argument>,
    pub name: String,
    /// The type of its one field, if it has one.
    pub field: Option<Ty>,
}

/// A `#[derive(...)]`: its paths as written in full (shared by the items
/// that derive the same), or, when one is not a plain path, its tokens.
#[derive(Clone)]
pub(in crate::emit) enum Derive {
    Paths(Arc<[String]>),
    Tokens(TokenStream),
}

/// An argument of a `#[serde(...)]`.
#[derive(Clone)]
pub(in crate::emit) enum Argument {
    /// `default`, `untagged`.
    Flag(&'static str),
    /// `rename = "value"`; serde's path keys' values are paths, shortened
    /// as the types' paths are.
    Value(&'static str, String),
}

/// A type: a path in full (`::std::string::String`, `Spec`), with its
/// generic arguments.
#[derive(Clone)]
pub(in crate::emit) enum Ty {
    Path(Cow<'static, str>),
    Generic(&'static str, Vec<Ty>),
}

impl std::fmt::Display for Ty {
    /// The type as Rust: its paths in full, its arguments after `<`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Ty::Path(path) => f.write_str(path),
            Ty::Generic(path, arguments) => {
                write!(f, "{path}<")?;
                for (i, argument) in arguments.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{argument}")?;
                }
                f.write_str(">")
            }
        }
    }
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

/// The text of `item`, `depth` modules deep, with the paths of `table`
/// short (marking `used`); its attribute tokens are taken out of it.
pub(super) fn item(item: &mut Described, depth: usize, table: &[paths::Short], used: &mut [bool]) -> Option<String> {
    let mut printer = Printer::new(depth, table, used);
    match item {
        Described::Type(item) => type_item(&mut printer, item)?,
        Described::Text { text, used: marks } => {
            paths::mark(used, marks);
            return Some(std::mem::take(text));
        }
    }
    Some(printer.finish())
}

/// A struct or an enum (prettyplease's `item_struct` and `item_enum`).
fn type_item(p: &mut Printer<'_>, item: &mut TypeItem) -> Option<()> {
    if let Some(doc) = &item.doc {
        doc_line(p, doc);
    }
    derive(p, &mut item.derive)?;
    attrs(p, &mut item.attrs)?;
    p.cbox(INDENT);
    p.word(match item.body {
        Body::Fields(_) => "pub struct ",
        Body::Variants(_) => "pub enum ",
    });
    p.word(&item.name);
    p.word(" {");
    p.hardbreak_if_nonempty();
    match &mut item.body {
        Body::Fields(fields) => {
            for field in fields {
                self::field(p, field)?;
                p.word(",");
                p.hardbreak();
            }
        }
        Body::Variants(variants) => {
            for variant in variants.iter() {
                self::variant(p, variant);
                p.word(",");
                p.hardbreak();
            }
        }
    }
    p.offset(-INDENT);
    p.end();
    p.word("}");
    p.hardbreak();
    Some(())
}

/// `attrs pub name: Type` (prettyplease's `field`).
fn field(p: &mut Printer<'_>, field: &mut FieldItem) -> Option<()> {
    for line in &field.doc {
        doc_line(p, line);
    }
    if !field.serde.is_empty() {
        serde_attr(p, &field.serde);
    }
    attrs(p, &mut field.attrs)?;
    p.word("pub ");
    p.word(&field.name);
    p.word(": ");
    ty(p, &field.ty);
    Some(())
}

/// `attrs Name` or `attrs Name(Type)` (prettyplease's `variant`).
fn variant(p: &mut Printer<'_>, variant: &Variant) {
    if let Some(doc) = variant.doc {
        doc_line(p, doc);
    }
    if variant.default {
        p.word("#[default]");
        p.space();
    }
    if let Some(argument) = &variant.serde {
        serde_attr(p, std::slice::from_ref(argument));
    }
    p.word(&variant.name);
    if let Some(field) = &variant.field {
        p.cbox(INDENT);
        p.word("(");
        p.zerobreak();
        ty(p, field);
        p.trailing_comma(true);
        p.offset(-INDENT);
        p.word(")");
        p.end();
    }
}

/// Outer attributes given as tokens, taken out of `tokens` and walked.
fn attrs(p: &mut Printer<'_>, tokens: &mut TokenStream) -> Option<()> {
    let mut tokens: Vec<TokenTree> = std::mem::take(tokens).into_iter().collect();
    outer_attrs(p, &mut tokens)
}

/// `#[derive(paths)]`, each path short where the table allows.
fn derive(p: &mut Printer<'_>, derive: &mut Derive) -> Option<()> {
    match derive {
        Derive::Paths(paths) if paths.is_empty() => {}
        Derive::Paths(paths) => list_attr(p, "derive", paths, |p, path| {
            let written = paths::written(path, p.table, p.used);
            p.word(&written);
        }),
        Derive::Tokens(tokens) => attrs(p, tokens)?,
    }
    Some(())
}

/// A doc comment line: `///` and `text`.
fn doc_line(p: &mut Printer<'_>, text: &str) {
    p.word("///");
    p.word(text.trim_end_matches(' '));
    p.hardbreak();
}

/// `#[serde(arguments)]`.
fn serde_attr(p: &mut Printer<'_>, arguments: &[Argument]) {
    list_attr(p, "serde", arguments, |p, argument| match argument {
        Argument::Flag(name) => p.word(name),
        Argument::Value(key, value) => {
            p.word(key);
            p.word(" = ");
            let value = paths::serde_value(key, value, p.table, p.used);
            p.word(&crate::emit::string_literal(&value));
        }
    });
}

/// `#[name(item, ...)]`, each item written by `write`: the box and breaks
/// of an attribute's parenthesised arguments, a break after each comma.
fn list_attr<T>(p: &mut Printer<'_>, name: &str, items: &[T], mut write: impl FnMut(&mut Printer<'_>, &T)) {
    p.word("#[");
    p.word(name);
    p.word("(");
    p.cbox(INDENT);
    p.zerobreak();
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            p.word(",");
            p.space();
        }
        write(p, item);
    }
    p.zerobreak();
    p.offset(-INDENT);
    p.end();
    p.word(")]");
    p.space();
}

/// A type, its paths short where the table allows (prettyplease's `path`
/// of a type: a box around the generic arguments, broken after `<` and
/// after each comma when they do not fit).
fn ty(p: &mut Printer<'_>, ty: &Ty) {
    match ty {
        Ty::Path(full) => {
            let written = paths::written(full, p.table, p.used);
            p.word(&written);
        }
        Ty::Generic(full, arguments) => {
            let written = paths::written(full, p.table, p.used);
            p.word(&written);
            p.word("<");
            p.cbox(INDENT);
            p.zerobreak();
            for (i, argument) in arguments.iter().enumerate() {
                self::ty(p, argument);
                p.trailing_comma(i + 1 == arguments.len());
            }
            p.offset(-INDENT);
            p.end();
            p.word(">");
        }
    }
}

/// Each of `items` laid out on its own, `depth` modules deep, with the
/// paths of `table` short, and which of those they use: the texts that
/// replace their markers in what prettyplease lays out; `None` if an
/// attribute is of a shape the layout does not know (the emitter writes
/// none).
pub(in crate::emit) fn texts(
    items: &[Described],
    depth: usize,
    table: &[paths::Short],
) -> Option<(Vec<String>, Vec<bool>)> {
    let mut used = vec![false; table.len()];
    let mut texts = Vec::with_capacity(items.len());
    for described in items {
        texts.push(item(&mut described.clone(), depth, table, &mut used)?);
    }
    Some((texts, used))
}
