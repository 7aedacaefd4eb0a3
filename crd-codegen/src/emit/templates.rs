//! The `const _` block of one fixed shape, written as text: an open
//! enum's `Deserialize` impl. The emitter writes it from its description
//! ([`Template`]) and hands the text to the layout in the block's place.
//!
//! prettyplease lays out the block the same way whatever its names, as
//! long as no line reaches its margin: a `match` breaks the call around
//! it. So the block is written as text when every line is within
//! [`super::frame::WIDEST`] columns; otherwise the emitter builds its
//! tokens and the layout walks them (`layout/impls.rs`), as it walks the
//! other blocks. The crate's tests check that prettyplease leaves the
//! text as it is (`cfg(test)` in `runs.rs`).

use super::frame::{Text, is_path_char};
use super::paths::{self, Short};

/// A `const _` block of a fixed shape, by what varies in it.
#[derive(Debug)]
pub(super) enum Template {
    /// `impl Deserialize` of an open enum: each listed value (a string
    /// literal as written) with its variant, then the catch-all variant.
    OpenEnum { arms: Vec<(String, String)>, catch_all: String },
}

impl Template {
    /// The text of the block (`const _: () = { ... };`) for type `name`,
    /// `depth` levels deep, its paths short as `table` allows, and which
    /// of those it uses; `None` when a line would be too wide, or the
    /// `crd-schema` path (`crd_schema`, without spaces) is not a plain
    /// path.
    pub fn text(&self, depth: usize, name: &str, crd_schema: &str, table: &[Short]) -> Option<(String, Vec<bool>)> {
        if !crd_schema.chars().all(is_path_char) {
            return None;
        }
        let mut used = vec![false; table.len()];
        paths::tentatively(&mut used, |marks| {
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
            text.line_at(3, &format!("{crd_schema}::__private::string_enum("));
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
        .map(|text| (text, used))
    }
}
