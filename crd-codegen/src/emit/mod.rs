//! Type spaces → Rust source text, laid out as `prettyplease` lays it
//! out, behind an `@generated` header: structs and enums described to the
//! layout, impls as tokens built with `quote`. Doc comments of
//! descriptions are placeholders, replaced by their lines in the laid-out
//! text (`Docs`).
//!
//! Entry point: [`file()`]. The shape of the output is the contract in
//! `docs/generated-code.md`; `types.rs` emits structs and enums, `defaults.rs`
//! the default functions and `Default` impls, `resource.rs` the
//! k8s-openapi traits of root types and `doc.rs` the doc comments;
//! `runs.rs` lays out the version modules' types in pieces, on several
//! threads for a large file (their structs, enums and the blocks of
//! their defaults through `layout/`, impls of a fixed shape from
//! `templates.rs`, the rest through syn and prettyplease), `frame.rs`
//! writes the frame
//! around them, and this module joins the two. Error policy: the only failures are option paths that are
//! not Rust paths and (a generator bug) tokens that do not parse.

mod defaults;
mod frame;
mod layout;
mod paths;
mod resource;
mod runs;
mod schema_attrs;
mod templates;
mod types;

use std::borrow::Cow;
use std::sync::Arc;

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};

use crate::error::{Error, Result};
use crate::typespace::{CrdSpace, TypeId, TypeRef, TypeSpace};
use layout::described::{Described, Ty};

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

/// What the emitters of one run share: the type space, the run's doc
/// comments and the file's paths, with their tokens lexed on the run's
/// thread.
struct Ctx<'a> {
    space: &'a TypeSpace,
    docs: &'a Docs<'a>,
    paths: &'a Paths,
    crd_schema: TokenStream,
    k8s: TokenStream,
    /// How deep the run's module is, and its short paths: where the
    /// blocks the emitter writes as text go.
    depth: usize,
    table: &'a [paths::Short],
    /// The items described rather than emitted, by marker index.
    described: std::cell::RefCell<Vec<Described>>,
    /// A type whose text did not lex ([`Ctx::ty`]), a generator bug that
    /// fails the run.
    unlexed: std::cell::RefCell<Option<String>>,
}

/// The `#[derive(...)]` lists of a file's types, built once per file and
/// list of base derives (`types::derive_attr`): a list that is plain paths
/// as their texts (`None` when the list needs tokens), and whether it
/// repeats one of clippy's keys. Built lists are shared by the file's runs,
/// whichever thread lays them out.
#[derive(Default)]
struct DeriveLists(std::sync::Mutex<Vec<DeriveList>>);

/// One list of [`DeriveLists`].
struct DeriveList {
    base: Vec<&'static str>,
    paths: Option<Arc<[String]>>,
    repeats: bool,
}

/// The paths of [`EmitOptions`], checked and written as their tokens
/// print, without spaces (`::crd_schema`), and the derive lists built
/// from them: once per file, shared by its runs.
struct Paths {
    crd_schema_text: String,
    k8s_text: String,
    /// The extra derives, each with its last segment.
    derives: Vec<(String, String)>,
    derive_lists: DeriveLists,
}

impl Paths {
    /// The paths of `options`; an option that is not a Rust path is an
    /// error.
    fn parse(options: &EmitOptions) -> Result<Self> {
        let text = |option: &'static str, value: &str| -> Result<String> {
            let path = parse_path(option, value)?;
            Ok(quote!(#path).to_string().replace(' ', ""))
        };
        let derives = options.derives.iter().map(|derive| {
            let text = text("derive", derive)?;
            Ok((last_segment(&text).to_owned(), text))
        });
        Ok(Paths {
            crd_schema_text: text("crd_schema_path", &options.crd_schema)?,
            k8s_text: text("k8s_openapi_path", &options.k8s_openapi)?,
            derives: derives.collect::<Result<_>>()?,
            derive_lists: DeriveLists::default(),
        })
    }
}

impl<'a> Ctx<'a> {
    /// The context of emitting `space`'s types with `paths`, into a module
    /// `depth` modules deep whose short paths are `table`. Each thread
    /// that lays out a run lexes its own tokens (proc-macro2's tokens stay
    /// on the thread that made them), without syn.
    fn new(
        space: &'a TypeSpace,
        docs: &'a Docs<'a>,
        paths: &'a Paths,
        depth: usize,
        table: &'a [paths::Short],
    ) -> Result<Self> {
        Ok(Ctx {
            space,
            docs,
            paths,
            crd_schema: lex_path("crd_schema_path", &paths.crd_schema_text)?,
            k8s: lex_path("k8s_openapi_path", &paths.k8s_text)?,
            depth,
            table,
            described: Default::default(),
            unlexed: Default::default(),
        })
    }

    /// A type as its path in full and its generic arguments: which path
    /// each type of the model is.
    fn ty_of(&self, ty: &TypeRef) -> Ty {
        let path = |path: &'static str| Ty::Path(Cow::Borrowed(path));
        match ty {
            TypeRef::Named(id) => Ty::Path(Cow::Owned(self.type_name(*id).to_owned())),
            TypeRef::String => path("::std::string::String"),
            TypeRef::I32 => path("i32"),
            TypeRef::I64 => path("i64"),
            TypeRef::F64 => path("f64"),
            TypeRef::Bool => path("bool"),
            TypeRef::Value => path("::serde_json::Value"),
            TypeRef::IntOrString => {
                Ty::Path(Cow::Owned(format!("{}::apimachinery::pkg::util::intstr::IntOrString", self.paths.k8s_text)))
            }
            TypeRef::ObjectMeta => {
                Ty::Path(Cow::Owned(format!("{}::apimachinery::pkg::apis::meta::v1::ObjectMeta", self.paths.k8s_text)))
            }
            TypeRef::Vec(item) => Ty::Generic("::std::vec::Vec", vec![self.ty_of(item)]),
            TypeRef::Map(value) => {
                Ty::Generic("::std::collections::BTreeMap", vec![path("::std::string::String"), self.ty_of(value)])
            }
            TypeRef::Option(inner) => Ty::Generic("::std::option::Option", vec![self.ty_of(inner)]),
        }
    }

    /// The tokens of a type, for the blocks built as tokens. The text of
    /// paths and generic arguments always lexes; if it ever did not, the
    /// run fails ([`Ctx::unlexed`]).
    fn ty(&self, ty: &TypeRef) -> TokenStream {
        let text = self.ty_of(ty).to_string();
        text.parse().unwrap_or_else(|_| {
            self.unlexed.borrow_mut().get_or_insert(text);
            TokenStream::new()
        })
    }

    /// Whether clippy's `type_complexity` (threshold 250) may fire on `ty`
    /// wrapped in `wrappers` more generic types (`Option`, `Result`).
    fn complex(&self, ty: &TypeRef, wrappers: u32) -> bool {
        let outer: u32 = (1..=wrappers).map(|nest| 10 * nest).sum();
        outer + complexity(ty, wrappers + 1) > 250
    }

    /// The placeholder of a description's doc comment (see [`Docs`]),
    /// `None` for a description without one.
    fn doc_placeholder(&self, description: &str) -> Option<String> {
        self.docs.placeholder(description, &self.space.doc_lines)
    }

    /// The marker item of `item`, which the layout writes in its place.
    fn describe(&self, item: Described) -> TokenStream {
        let mut described = self.described.borrow_mut();
        described.push(item);
        layout::described::marker(described.len() - 1)
    }

    fn name(&self, id: TypeId) -> Ident {
        ident(self.type_name(id))
    }

    /// The name of type `id` as the emitter writes it.
    fn type_name(&self, id: TypeId) -> &str {
        self.space.get(id).map_or("Unnamed", |t| t.name.as_str())
    }

    /// A `crd_schema::__private` helper as a string for serde attributes.
    fn helper(&self, name: &str) -> String {
        format!("{}::__private::{name}", self.paths.crd_schema_text)
    }
}

/// The outer attribute `#[name(args, ...)]`, `args` moved in: `quote!`'s
/// `#(#args),*` copies each.
fn attribute(name: &str, args: Vec<TokenStream>) -> TokenStream {
    use proc_macro2::{Delimiter, Group, TokenTree};
    let mut list = TokenStream::new();
    for (i, arg) in args.into_iter().enumerate() {
        if i > 0 {
            list.extend(quote!(,));
        }
        list.extend(arg);
    }
    let name = ident(name);
    let list = Group::new(Delimiter::Parenthesis, list);
    let mut out = quote!(#);
    out.extend([TokenTree::Group(Group::new(Delimiter::Bracket, quote!(#name #list)))]);
    out
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

/// `value` as a string literal, as proc-macro2's `Literal::string` writes
/// it: a printable ASCII text without `"` or `\` (nearly every one) is
/// quoted as it is, without escaping it a character at a time.
fn string_literal(value: &str) -> String {
    if value.bytes().all(|b| (b' '..=b'~').contains(&b) && b != b'"' && b != b'\\') {
        let mut out = String::with_capacity(value.len() + 2);
        out.push('"');
        out.push_str(value);
        out.push('"');
        return out;
    }
    proc_macro2::Literal::string(value).to_string()
}

/// The value of a string literal written as `text`: borrowed from it when
/// it has no escape (nearly all), else read by syn.
fn string_value(text: &str) -> Option<Cow<'_, str>> {
    match text.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
        Some(inner) if !inner.contains(['\\', '"']) => Some(Cow::Borrowed(inner)),
        _ => syn::parse_str::<syn::LitStr>(text).ok().map(|s| Cow::Owned(s.value())),
    }
}

/// An identifier, raw when written `r#...`.
fn ident(name: &str) -> Ident {
    match name.strip_prefix("r#") {
        Some(raw) => Ident::new_raw(raw, Span::call_site()),
        None => Ident::new(name, Span::call_site()),
    }
}

/// The doc comments of descriptions, written into the laid-out text
/// rather than passed through tokens, syn and prettyplease: they are most
/// of a file's text and are written back unchanged, so each block stands
/// in the tokens as one placeholder attribute (`#[doc = "@doc#3"]`, laid
/// out as the line `///@doc#3`) that [`Docs::expand`] replaces by its
/// lines, as prettyplease writes doc attributes.
#[derive(Default)]
struct Docs<'a>(std::cell::RefCell<DocBlocks<'a>>);

/// The doc comments of [`Docs`]' placeholders, by number; a description
/// that repeats (a large CRD repeats a few hundred thousands of times)
/// has one block and one number.
#[derive(Default)]
struct DocBlocks<'a> {
    /// Lines the type model worked out are borrowed from it.
    blocks: Vec<Cow<'a, [String]>>,
    /// The block of each description seen; `None` for one without lines.
    numbers: foldhash::HashMap<String, Option<usize>>,
}

/// What a placeholder's line starts with, after its indentation.
const DOC_PLACEHOLDER: &str = "///@doc#";

impl<'a> Docs<'a> {
    /// The placeholder of `description`'s doc comment (`@doc#3`, written
    /// as its text); `None` for none.
    fn placeholder(&self, description: &str, known: &'a foldhash::HashMap<String, Vec<String>>) -> Option<String> {
        let mut docs = self.0.borrow_mut();
        let number = match docs.numbers.get(description) {
            Some(number) => *number,
            None => {
                let lines = match known.get(description) {
                    Some(lines) => Cow::Borrowed(lines.as_slice()),
                    None => Cow::Owned(crate::doc::doc_lines(description)),
                };
                let number = (!lines.is_empty()).then_some(docs.blocks.len());
                if number.is_some() {
                    docs.blocks.push(lines);
                }
                docs.numbers.insert(description.to_owned(), number);
                number
            }
        };
        number.map(|number| format!("@doc#{number}"))
    }

    /// `code` with every placeholder line replaced by its doc comment:
    /// `///`, a space and the line, trailing spaces trimmed (prettyplease's
    /// form of `#[doc = " line"]`), `///` alone for an empty line.
    fn expand(&self, code: &str) -> String {
        let blocks = &self.0.borrow().blocks;
        let mut out = String::with_capacity(
            code.len() + blocks.iter().flat_map(|b| b.iter()).map(|l| l.len() + 16).sum::<usize>(),
        );
        // The text between placeholder lines is copied in one piece.
        let mut copied = 0;
        for at in memchr::memmem::find_iter(code.as_bytes(), DOC_PLACEHOLDER) {
            let start = memchr::memrchr(b'\n', &code.as_bytes()[..at]).map_or(0, |newline| newline + 1);
            let end = memchr::memchr(b'\n', &code.as_bytes()[at..]).map_or(code.len(), |newline| at + newline + 1);
            let indent = &code[start..at];
            let number = code[at + DOC_PLACEHOLDER.len()..end].trim_end().parse::<usize>();
            let Some(block) = number.ok().and_then(|n| blocks.get(n)).filter(|_| indent.trim_start().is_empty()) else {
                continue;
            };
            out.push_str(&code[copied..start]);
            for doc in block.iter() {
                out.push_str(indent);
                out.push_str("///");
                if !doc.trim_end_matches(' ').is_empty() {
                    out.push(' ');
                    out.push_str(doc.trim_end_matches(' '));
                }
                out.push('\n');
            }
            copied = end;
        }
        out.push_str(&code[copied..]);
        out
    }
}

/// The tokens of a path option that [`parse_path`] has checked.
fn lex_path(option: &'static str, value: &str) -> Result<TokenStream> {
    value.parse().map_err(|_| Error::Option { option, value: value.to_owned() })
}

/// The last segment of a path as written (`JsonSchema` of
/// `schemars::JsonSchema`).
fn last_segment(path: &str) -> &str {
    path.rsplit("::").next().unwrap_or(path).trim()
}

fn parse_path(option: &'static str, value: &str) -> Result<syn::Path> {
    syn::parse_str::<syn::Path>(value).map_err(|_| Error::Option { option, value: value.to_owned() })
}

/// The whole file for `crds`, read from `sources`.
///
/// The version modules' types are laid out in runs (`runs::bodies`);
/// the rest of the file (each module's doc and `use` block, the `crd()`
/// functions) is laid out as a frame in which each module's body is one
/// marker line, replaced by the runs' text.
pub fn file(crds: &[CrdSpace], sources: &[String], options: &EmitOptions) -> Result<String> {
    file_with(crds, sources, options, None)
}

/// [`file()`], with the runs laid out as `plan` says rather than as suits
/// the file and the machine.
fn file_with(crds: &[CrdSpace], sources: &[String], options: &EmitOptions, plan: Option<runs::Plan>) -> Result<String> {
    let paths = Paths::parse(options)?;
    let (crd_schema_text, k8s_text) = (&paths.crd_schema_text, &paths.k8s_text);
    let modules: Vec<runs::Module<'_>> = crds
        .iter()
        .flat_map(|crd| crd.versions.iter().map(move |version| (crd, version)))
        .map(|(crd, version)| {
            let defined = version.space.types.iter().map(|t| t.name.as_str()).collect();
            runs::Module { crd, version, table: paths::table(&defined, crd_schema_text, k8s_text) }
        })
        .collect();
    let depth = if crds.len() == 1 { 1 } else { 2 };
    let plan = plan.unwrap_or_else(|| runs::Plan::for_file(&modules));
    let bodies = runs::bodies(&modules, depth, &paths, plan)?;

    let used: Vec<&[bool]> = bodies.iter().map(|b| b.used.as_slice()).collect();
    let label = crds.iter().map(|c| c.name.as_str()).collect::<Vec<_>>().join(", ");
    let frame = frame::frame(crds, &modules, &used, crd_schema_text, &label)?;
    let bodies: Vec<&str> = bodies.iter().map(|b| b.text.as_str()).collect();
    let header = format!("// @generated by crd-codegen from {}. Do not edit.\n\n", sources.join(", "));
    Ok(filled_and_spaced(header, &frame, &bodies))
}

/// `header`, then `frame` with its body markers filled by `bodies` and its
/// items spaced (see [`Spaced`]).
fn filled_and_spaced(header: String, frame: &str, bodies: &[&str]) -> String {
    let mut out = Spaced::new(header, frame.len() + bodies.iter().map(|b| b.len()).sum::<usize>());
    if bodies.iter().all(|b| b.is_empty() || b.ends_with('\n')) {
        // The frame's lines and the bodies' lines are the file's lines:
        // markers are filled and items spaced in one pass.
        for line in frame.split_inclusive('\n') {
            out.lines(marker_text(line, frame::BODY_MARKER, bodies).unwrap_or(line));
        }
    } else {
        out.lines(&fill_markers(frame, frame::BODY_MARKER, bodies));
    }
    out.text
}

/// The text of `texts` that `line` is the marker item of (`struct
/// {marker}3;`), if it is one.
fn marker_text<'t>(line: &str, marker: &str, texts: &[&'t str]) -> Option<&'t str> {
    split_indent(line)
        .1
        .trim_end()
        .strip_prefix("struct ")
        .and_then(|item| item.strip_prefix(marker))
        .and_then(|n| n.strip_suffix(';')?.parse::<usize>().ok())
        .and_then(|n| texts.get(n).copied())
}

/// `frame` with each line that is a marker item (`struct
/// {marker}3;`) replaced by `texts[3]`.
fn fill_markers(frame: &str, marker: &str, texts: &[&str]) -> String {
    let mut out = String::with_capacity(frame.len() + texts.iter().map(|t| t.len()).sum::<usize>());
    for line in frame.split_inclusive('\n') {
        out.push_str(marker_text(line, marker, texts).unwrap_or(line));
    }
    out
}

/// Text written a line at a time, with a blank line after every block
/// that closes an item and after a `use` block, before the next item at
/// the same depth (prettyplease leaves none).
struct Spaced {
    text: String,
    /// The last line's indentation, and whether it closes a block or is a
    /// `use`.
    previous: Option<(usize, bool, bool)>,
}

impl Spaced {
    /// After `start`, which is not spaced, with room for `more` bytes.
    fn new(mut start: String, more: usize) -> Self {
        start.reserve(more + more / 20);
        Spaced { text: start, previous: None }
    }

    /// Each line of `text`, as [`str::lines`] gives them. Lines are
    /// copied in pieces between the blank lines added; a line that
    /// `str::lines` changes (a `\r` before its break, the last line
    /// without one) is written on its own.
    fn lines(&mut self, text: &str) {
        let mut copied = 0;
        let mut start = 0;
        for newline in memchr::memchr_iter(b'\n', text.as_bytes()) {
            let line = &text[start..newline];
            if let Some(line) = line.strip_suffix('\r') {
                self.text.push_str(&text[copied..start]);
                self.line(line);
                copied = newline + 1;
            } else if self.blank_before(line) {
                self.text.push_str(&text[copied..start]);
                self.text.push('\n');
                copied = start;
            }
            start = newline + 1;
        }
        self.text.push_str(&text[copied..start]);
        for line in text[start..].lines() {
            self.line(line);
        }
    }

    fn line(&mut self, line: &str) {
        if self.blank_before(line) {
            self.text.push('\n');
        }
        self.text.push_str(line);
        self.text.push('\n');
    }

    /// Whether a blank line goes before `line`, which comes next.
    fn blank_before(&mut self, line: &str) -> bool {
        let (indent, content) = split_indent(line);
        let is_use = content.starts_with("use ");
        let blank = self.previous.is_some_and(|(prev_indent, closes, prev_use)| {
            let opens = !content.is_empty() && !content.starts_with(['}', ')', ']']);
            (closes || (prev_use && !is_use)) && opens && prev_indent == indent.len()
        });
        self.previous = Some((indent.len(), matches!(content.trim_end(), "}" | "};"), is_use));
        blank
    }
}

/// A line's indentation and the rest: `trim_start`, with the spaces that
/// indent nearly every line skipped a byte at a time.
fn split_indent(line: &str) -> (&str, &str) {
    let spaces = line.bytes().take_while(|&b| b == b' ').count();
    let content = line[spaces..].trim_start();
    (&line[..line.len() - content.len()], content)
}

/// A derived function name (`default_<field>`); a field's leading `_`
/// (`_123`) is dropped so the name has no `__` (`non_snake_case`).
fn derived_fn(prefix: &str, field: &str) -> Ident {
    format_ident!("{prefix}_{}", crate::naming::bare(field).trim_start_matches('_'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_are_filled_and_items_spaced_in_one_pass_as_in_two() {
        let marker = |n: usize| format!("    struct {}{n};\n", frame::BODY_MARKER);
        let frame = format!("pub mod a {{\n{}}}\npub mod b {{\n    use x::Y;\n{}}}\n", marker(0), marker(1));
        for bodies in [
            ["    pub struct A {}\n    pub struct B;\n", "    pub struct C {\n    }\n    fn d() {}\n"],
            ["    pub struct A {}\n", ""],
            // A body without its last line break runs into the frame.
            ["    pub struct A {}", "    }\n"],
        ] {
            let mut two = Spaced::new("// h\n\n".to_owned(), 0);
            two.lines(&fill_markers(&frame, frame::BODY_MARKER, &bodies));
            assert_eq!(filled_and_spaced("// h\n\n".to_owned(), &frame, &bodies), two.text, "{bodies:?}");
        }
        let bodies = ["    pub struct A {\n    }\n    pub struct B;\n", "    fn d() {}\n"];
        assert_eq!(
            filled_and_spaced(String::new(), &frame, &bodies),
            "pub mod a {\n    pub struct A {\n    }\n\n    pub struct B;\n}\n\npub mod b {\n    use x::Y;\n\n    fn d() {}\n}\n"
        );
    }

    #[test]
    fn spacing_copies_in_pieces_what_it_writes_line_by_line() {
        for text in [
            "mod m {\n    use a::B;\n    use c::D;\n    pub struct S {\n    }\n    pub struct T;\n}\nfn f() {}\n",
            "    }\n    };\n    pub fn g() {}\n    )\n    ]\n}\n\n",
            // `str::lines` drops a `\r` before a break, not at the end.
            "struct A {\r\n}\r\nstruct B;\r\n}\nstruct C;\r",
            "}\nno line break at the end",
            "",
        ] {
            let mut by_line = Spaced::new(String::new(), 0);
            for line in text.lines() {
                by_line.line(line);
            }
            let mut in_pieces = Spaced::new(String::new(), 0);
            in_pieces.lines(text);
            assert_eq!(in_pieces.text, by_line.text, "{text:?}");
        }
    }

    #[test]
    fn only_placeholder_lines_are_expanded() {
        let none = foldhash::HashMap::default();
        let docs = Docs::default();
        let placeholder = docs.placeholder("First.\n\nSecond.", &none).expect("a description has lines");
        let code = format!(
            "    ///{placeholder}\n    x = \"///{placeholder}\";\n///{placeholder}9\n\t///{placeholder}  \n///{placeholder}"
        );
        assert_eq!(
            docs.expand(&code),
            format!(
                "    /// First.\n    ///\n    /// Second.\n    x = \"///{placeholder}\";\n///{placeholder}9\n\
                 \t/// First.\n\t///\n\t/// Second.\n/// First.\n///\n/// Second.\n"
            )
        );
    }

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
        let none = foldhash::HashMap::default();
        let docs = Docs::default();
        let attrs = docs.placeholder(description, &none).map(|placeholder| quote!(#[doc = #placeholder]));
        let tokens = quote!(pub mod m { pub struct S { #attrs pub f: i32 } });
        docs.expand(&prettyplease::unparse(&syn::parse2(tokens).expect("tokens parse")))
    }

    #[test]
    fn string_literals_are_written_as_proc_macro2_writes_them() {
        let mut texts: Vec<String> = (0..=0x7f_u8).map(|b| format!("a{}b", char::from(b))).collect();
        texts
            .extend(["", "plain text", "it's", "é", "tab\there", "\0\u{7f}", "a\u{301}", "\u{200b}"].map(String::from));
        for text in texts {
            assert_eq!(string_literal(&text), proc_macro2::Literal::string(&text).to_string(), "{text:?}");
        }
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

    /// A CRD with two versions of `types` nested object types each, with
    /// descriptions, an enum, defaults and a printer column.
    fn crd(name: &str, types: usize) -> String {
        let mut schema = serde_json::json!({"type": "object", "properties": {
            "mode": {"type": "string", "enum": ["A", "B"], "default": "A"},
            "count": {"type": "integer", "default": 3, "description": "How many."}}});
        for i in 0..types {
            schema = serde_json::json!({"type": "object", "description": format!("Level {i}."), "properties": {
                format!("level{i}"): schema,
                "name": {"type": "string", "maxLength": 10},
                "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                "items": {"type": "array", "items": {"type": "integer"}, "default": [1, 2]}}});
        }
        let version = |name: &str, storage: bool| {
            serde_json::json!({"name": name, "served": true, "storage": storage,
            "additionalPrinterColumns": [{"name": "Name", "type": "string", "jsonPath": ".spec.name"}],
            "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": schema}}}})
        };
        let (plural, group) = name.split_once('.').unwrap_or_default();
        serde_json::json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": name}, "spec": {"group": group, "scope": "Namespaced",
            "names": {"kind": "Widget", "plural": plural}, "versions": [version("v1", true), version("v1beta1", false)]}})
        .to_string()
    }

    #[test]
    fn runs_on_threads_lay_out_what_one_run_does() {
        let options = EmitOptions {
            derives: vec!["schemars::JsonSchema".to_owned()],
            crd_schema: "::crd_schema".to_owned(),
            k8s_openapi: "::k8s_openapi".to_owned(),
        };
        let mut spaces = Vec::new();
        for name in ["widgets.example.com", "gadgets.example.com"] {
            let loaded = crd_schema::crd::parse_source_with(name, crd(name, 12).as_bytes(), &Default::default())
                .expect("the CRD reads");
            for (_, crd) in &loaded.crds {
                spaces.push(CrdSpace::new(crd, Default::default()).expect("the CRD models"));
            }
        }
        // One CRD (version modules one deep) and two (two deep).
        for crds in [&spaces[..1], &spaces[..]] {
            let sources = ["w.json".to_owned()];
            let one_run = runs::Plan { threads: 1, run_weight: usize::MAX };
            let whole = file_with(crds, &sources, &options, Some(one_run)).expect("the file is emitted");
            assert!(whole.matches("pub struct ").count() > 2 * 12, "{whole}");
            for (threads, run_weight) in [(1, 1), (2, 1), (3, 5), (8, 40)] {
                let plan = runs::Plan { threads, run_weight };
                let laid = file_with(crds, &sources, &options, Some(plan)).expect("the file is emitted");
                assert_eq!(laid, whole, "{plan:?}");
            }
        }
    }

    #[test]
    fn fixed_impls_are_laid_out_as_prettyplease_does_at_every_width() {
        let options = EmitOptions {
            derives: Vec::new(),
            crd_schema: "::crd_schema".to_owned(),
            k8s_openapi: "::k8s_openapi".to_owned(),
        };
        // How many blocks of each file were left to prettyplease.
        let mut left = Vec::new();
        for pad in (0..70).step_by(3) {
            let kind = format!("W{}", "x".repeat(pad));
            let spec = serde_json::json!({"type": "object", "properties": {
                "mode": {"type": "string", "enum": ["v".repeat(pad + 1), "B"]}}});
            let crd = |name: &str| {
                let (plural, group) = name.split_once('.').unwrap_or_default();
                // `phase` beside `spec`: the derive does not write `new`
                // for such a root, so the emitter does.
                let schema = serde_json::json!({"type": "object", "properties": {"spec": spec,
                    "phase": {"type": "string", "default": "new"}}});
                serde_json::json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
                    "metadata": {"name": name}, "spec": {"group": group, "scope": "Namespaced",
                    "names": {"kind": kind, "plural": plural}, "versions": [{"name": "v1", "served": true,
                    "storage": true, "schema": {"openAPIV3Schema": schema}}]}})
                .to_string()
            };
            let mut spaces = Vec::new();
            for name in ["widgets.example.com", "gadgets.example.com"] {
                let loaded = crd_schema::crd::parse_source_with(name, crd(name).as_bytes(), &Default::default())
                    .expect("the CRD reads");
                spaces.push(CrdSpace::new(&loaded.crds[0].1, Default::default()).expect("the CRD models"));
            }
            // One CRD and two (one module deeper); `items_text` compares
            // each run with prettyplease's layout under `cfg(test)`.
            let relative = EmitOptions {
                crd_schema: "crate::schema".to_owned(),
                k8s_openapi: "k8s".to_owned(),
                ..options.clone()
            };
            for crds in [&spaces[..1], &spaces[..]] {
                for options in [&options, &relative] {
                    let text = file(crds, &["w.json".to_owned()], options).expect("the file is emitted");
                    assert!(text.contains(&format!("for {kind} {{")) && text.contains("string_enum("), "{text}");
                    assert!(text.contains("pub fn new(") && text.contains("..Default::default()"), "{text}");
                }
            }
            let space = &spaces[0].versions[0].space;
            let docs = Docs::default();
            let table = paths::table(&Default::default(), "::crd_schema", "::k8s_openapi");
            let paths = Paths::parse(&options).expect("the options are paths");
            let ctx = Ctx::new(space, &docs, &paths, 1, &table).expect("the options are paths");
            let tokens: TokenStream = (0..space.types.len()).map(|i| types::type_def(&ctx, TypeId(i))).collect();
            let mut described = ctx.described.borrow_mut();
            let (pieces, _) = layout::items(tokens, 1, &table, &mut described).expect("the items lay out");
            left.push(pieces.iter().filter(|p| matches!(p, layout::Piece::Tokens(_))).count());
        }
        // The open enum's block is written as text while it fits, and
        // walked by the layout when too wide; the resource's `Default` and
        // `new` are walked at every width.
        assert!(left.iter().all(|&n| n == 0), "{left:?}");
    }
}
