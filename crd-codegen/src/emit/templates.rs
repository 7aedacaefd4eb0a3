//! The `const _` block of one fixed shape, written as text: an open
//! enum's `Deserialize` impl. The emitter describes it ([`Template`])
//! next to its tokens; [`super::layout`] writes the description where the
//! tokens' block follows its type.
//!
//! prettyplease lays out the block the same way whatever its names, as
//! long as no line reaches its margin: a `match` breaks the call around
//! it. So the block is written as text when every line is within
//! [`super::frame::WIDEST`] columns; otherwise the layout walks its tokens
//! (`layout/impls.rs`), as it walks the other blocks. The crate's tests
//! lay out every block both ways and compare (`cfg(test)` in `runs.rs`).

use proc_macro2::{Delimiter, TokenTree};

use super::frame::{Text, is_path_char};
use super::paths::{self, Short};

/// A `const _` block of a fixed shape, by what varies in it.
#[derive(Debug)]
pub(super) enum Template {
    /// `impl Deserialize` of an open enum: each listed value (a string
    /// literal as written) with its variant, then the catch-all variant.
    OpenEnum { arms: Vec<(String, String)>, catch_all: String },
}

/// The paths a template writes, as the emitter writes them in full.
pub(super) struct Paths<'a> {
    /// The `crd-schema` path without spaces (`::crd_schema`).
    pub crd_schema: &'a str,
}

impl Template {
    /// The text of the block `tokens` (`const _: () = { ... };`) that the
    /// template describes, `depth` levels deep, its paths short as `table`
    /// allows (marking `used`); `None` when the block is not the one
    /// described or a line would be too wide.
    pub fn text(
        &self,
        tokens: &[TokenTree],
        depth: usize,
        name: &str,
        p: &Paths<'_>,
        table: &[Short],
        used: &mut [bool],
    ) -> Option<String> {
        if !is_block_of(tokens) || !p.crd_schema.chars().all(is_path_char) {
            return None;
        }
        paths::tentatively(used, |marks| {
            let mut path = |full: &str| paths::written(full, table, marks);
            let mut text = Text::new(depth);
            text.line_at(0, "const _: () = {");
            let Template::OpenEnum { arms, catch_all } = self;
            let deserialize = path("::serde::Deserialize");
            let (result, deserializer) = (path("::std::result::Result"), path("::serde::Deserializer"));
            let string = path("::std::string::String");
            text.line_at(1, &format!("impl<'de> {deserialize}<'de> for {name} {{"));
            text.line_at(2, &format!("fn deserialize<D>(deserializer: D) -> {result}<Self, D::Error>"));
            text.line_at(2, "where");
            text.line_at(3, &format!("D: {deserializer}<'de>,"));
            text.line_at(2, "{");
            text.line_at(3, &format!("{}::__private::string_enum(", p.crd_schema));
            text.line_at(4, "deserializer,");
            text.line_at(4, "|value| match value {");
            for (json, variant) in arms {
                text.line_at(5, &format!("{json} => Self::{variant},"));
            }
            text.line_at(5, &format!("_ => Self::{catch_all}({string}::from(value)),"));
            text.line_at(4, "},");
            text.line_at(3, ")");
            text.line_at(2, "}");
            text.line_at(1, "}");
            text.line_at(0, "};");
            text.fits.then_some(text.out)
        })
    }
}

/// Whether `tokens` are a `const _` block of a generic impl
/// (`impl<'de>`), as the `Deserialize` of an open enum is (the other
/// blocks' impls are not generic).
fn is_block_of(tokens: &[TokenTree]) -> bool {
    let Some(TokenTree::Group(block)) =
        tokens.iter().find(|t| matches!(t, TokenTree::Group(g) if g.delimiter() == Delimiter::Brace))
    else {
        return false;
    };
    let mut inner = block.stream().into_iter();
    match (inner.next(), inner.next()) {
        (Some(TokenTree::Ident(keyword)), Some(TokenTree::Punct(p))) if keyword == "impl" => p.as_char() == '<',
        _ => false,
    }
}
