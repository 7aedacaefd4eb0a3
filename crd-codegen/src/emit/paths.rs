//! Short paths: the emitters write every path in full
//! (`::std::option::Option`), then each version module gets a `use` block
//! and the short names (`Option`, `BTreeMap`, `Serialize`) wherever the
//! module does not define a type of that name itself. A name a module
//! defines (a kind called `Value` or `Result`) keeps its full path there,
//! so a short path never resolves to the wrong item.
//!
//! The rewrite works on tokens, so string literals are left alone, except
//! the values of serde's path attributes (`skip_serializing_if =
//! "::std::option::Option::is_none"`), which name the same paths.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::{Group, Ident, Literal, Punct, Spacing, Span, TokenStream, TokenTree};

/// A full path and how it is written when it can be short.
pub(super) struct Short {
    /// How a path inside it starts in a string (`::std::option::Option::`):
    /// the full path, between a leading and a trailing `::`.
    full_prefix: String,
    /// Where each segment of the full path is in `full_prefix`.
    full: Vec<std::ops::Range<usize>>,
    /// What it becomes: `Option`, or `serde_json::Value` (a path that needs
    /// no `use`).
    short_text: String,
    /// The `use` it needs, if any (the full path without its leading `::`).
    import: bool,
}

/// Serde attribute keys whose string values are paths.
const SERDE_PATH_KEYS: &[&str] = &["skip_serializing_if", "default", "deserialize_with", "serialize_with", "with"];

/// The paths to shorten in a module that defines the type names
/// `defined`, given the configured `crd-schema` and `k8s-openapi` paths
/// (as written, `::crd_schema`). A configured path without a leading `::`
/// is relative and is left as it is.
pub(super) fn table(defined: &BTreeSet<&str>, crd_schema: &str, k8s: &str) -> Vec<Short> {
    every_path(crd_schema, k8s)
        .into_iter()
        .filter(|s| s.short_text.contains("::") || !defined.contains(s.short_text.as_str()))
        .collect()
}

impl Short {
    fn new(full: &str, short: &str, import: bool) -> Short {
        let full_prefix = format!("::{full}::");
        // Each segment ends at the first `:` after it.
        let bytes = full_prefix.as_bytes();
        let ends = (3..bytes.len()).filter(|&i| bytes[i] == b':' && bytes[i - 1] != b':');
        let mut start = 2;
        let full = ends
            .map(|end| {
                let segment = start..end;
                start = end + 2;
                segment
            })
            .collect();
        Short { full_prefix, full, short_text: short.to_owned(), import }
    }

    /// The segments of the full path.
    fn full(&self) -> impl Iterator<Item = &str> {
        self.full.iter().map(|segment| &self.full_prefix[segment.clone()])
    }

    /// The segments of the short path.
    pub(super) fn short(&self) -> impl Iterator<Item = &str> {
        // No segment holds a `:`.
        self.short_text.split(':').filter(|segment| !segment.is_empty())
    }

    /// `full` shortened to its last segment, which it takes from the
    /// prelude (`import` false) or from a `use`.
    fn last(full: &str, import: bool) -> Short {
        Short::new(full, full.rsplit("::").next().unwrap_or_default(), import)
    }
}

/// Every path that may be shortened.
fn every_path(crd_schema: &str, k8s: &str) -> Vec<Short> {
    let prelude = |full: &str| Short::last(full, false);
    let imported = |full: String| Short::last(&full, true);
    let mut out = vec![
        prelude("std::option::Option"),
        prelude("std::string::String"),
        prelude("std::vec::Vec"),
        prelude("std::boxed::Box"),
        prelude("std::default::Default"),
        prelude("std::result::Result"),
        imported("std::collections::BTreeMap".to_owned()),
        imported("serde::Serialize".to_owned()),
        imported("serde::Deserialize".to_owned()),
        imported("serde::Deserializer".to_owned()),
        Short::new("serde_json::Value", "serde_json::Value", false),
    ];
    if let Some(crd_schema) = crd_schema.strip_prefix("::") {
        out.push(imported(format!("{crd_schema}::CustomResourceSchema")));
    }
    if let Some(k8s) = k8s.strip_prefix("::") {
        out.push(imported(format!("{k8s}::Resource")));
        out.push(imported(format!("{k8s}::apimachinery::pkg::apis::meta::v1::ObjectMeta")));
        out.push(imported(format!("{k8s}::apimachinery::pkg::util::intstr::IntOrString")));
    }
    out
}

/// The `use` lines for the paths of `table` that the module `used`:
/// grouped by parent (`use serde::{Deserialize, Serialize};`), sorted as
/// rustfmt sorts them.
pub(super) fn uses(table: &[Short], used: &[bool]) -> Vec<String> {
    // Keyed by segments, so parents sort as rustfmt sorts them.
    let mut groups: BTreeMap<Vec<&str>, BTreeSet<&str>> = BTreeMap::new();
    for (short, _) in table.iter().zip(used).filter(|(s, used)| **used && s.import) {
        let mut parent: Vec<&str> = short.full().collect();
        let name = parent.pop().expect("paths have segments");
        groups.entry(parent).or_default().insert(name);
    }
    groups
        .into_iter()
        .map(|(parent, names)| {
            let (parent, names) = (parent.join("::"), names.into_iter().collect::<Vec<_>>());
            match names.as_slice() {
                [name] => format!("use {parent}::{name};"),
                _ => format!("use {parent}::{{{}}};", names.join(", ")),
            }
        })
        .collect()
}

/// `tokens` (items of a module) with the paths of `table` short, marking
/// in `used` (one flag per entry of `table`) the paths it shortened.
//
// Tokens are moved, never cloned: a group is taken apart after it is
// dropped, so its stream is not shared and is not copied either. What
// precedes a token is read from the output, which ends as the input does
// (a shortened path ends with the same name).
pub(super) fn rewrite(tokens: TokenStream, table: &[Short], used: &mut [bool]) -> TokenStream {
    let mut tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out: Vec<TokenTree> = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        if let Some((n, len)) = full_path(&out, &tokens[i..], table) {
            used[n] = true;
            out.extend(path_tokens(table[n].short()));
            i += len;
            continue;
        }
        let token = std::mem::replace(&mut tokens[i], TokenTree::Punct(Punct::new('.', Spacing::Alone)));
        match token {
            TokenTree::Group(group) => {
                let (delimiter, span, stream) = (group.delimiter(), group.span(), group.stream());
                drop(group);
                let mut inner = Group::new(delimiter, rewrite(stream, table, used));
                inner.set_span(span);
                out.push(TokenTree::Group(inner));
            }
            TokenTree::Literal(literal) => {
                let literal = path_value(&out, &literal, table, used).unwrap_or(literal);
                out.push(TokenTree::Literal(literal));
            }
            other => out.push(other),
        }
        i += 1;
    }
    out.into_iter().collect()
}

/// The entry of `table` whose full path `rest` starts with, when a path
/// starts there (after `before`), and how many tokens it takes.
pub(super) fn full_path(before: &[TokenTree], rest: &[TokenTree], table: &[Short]) -> Option<(usize, usize)> {
    // Every full path starts with `::`; most tokens are not one.
    if !is_colon(rest.first()?) || continues_path(before) {
        return None;
    }
    table.iter().enumerate().find_map(|(n, s)| matches_at(rest, s.full()).map(|len| (n, len)))
}

/// What `f` writes with paths marked in marks of its own, which are added
/// to `used` only when it writes something (a piece of text laid out
/// here, which may still give up and be left to prettyplease).
pub(super) fn tentatively<T>(used: &mut [bool], f: impl FnOnce(&mut [bool]) -> Option<T>) -> Option<T> {
    let mut marks = vec![false; used.len()];
    let out = f(&mut marks)?;
    mark(used, &marks);
    Some(out)
}

/// Marks in `used` the short paths that `marks` (of the same table) uses.
pub(super) fn mark(used: &mut [bool], marks: &[bool]) {
    used.iter_mut().zip(marks).for_each(|(all, this)| *all |= this);
}

/// The path `full` as written in text where a path starts: short when
/// `table` has it (marking `used`), else as it is.
pub(super) fn written(full: &str, table: &[Short], used: &mut [bool]) -> String {
    match table.iter().position(|s| s.full_prefix.strip_suffix("::") == Some(full)) {
        Some(n) => {
            used[n] = true;
            table[n].short_text.clone()
        }
        None => full.to_owned(),
    }
}

/// `literal`, after `before`, with the path in it shortened, when it is
/// the value of a serde path key (`"::std::option::Option::is_none"`)
/// that starts with a path of `table`; `None` when it stays as it is.
pub(super) fn path_value(
    before: &[TokenTree],
    literal: &Literal,
    table: &[Short],
    used: &mut [bool],
) -> Option<Literal> {
    if !is_serde_path_value(before) {
        return None;
    }
    // Only a string that starts with `::` can hold a full path.
    let text = literal.to_string();
    if !text.starts_with("\"::") {
        return None;
    }
    let value = super::string_value(&text)?;
    let short = short_value(&value, table, used)?;
    let mut out = Literal::string(&short);
    out.set_span(literal.span());
    Some(out)
}

/// The value of serde's `key = "value"` with the path in it shortened,
/// when `key` takes a path and the path starts with one of `table`
/// (marking `used`).
pub(super) fn serde_value<'v>(key: &str, value: &'v str, table: &[Short], used: &mut [bool]) -> Cow<'v, str> {
    match SERDE_PATH_KEYS.contains(&key).then(|| short_value(value, table, used)).flatten() {
        Some(short) => Cow::Owned(short),
        None => Cow::Borrowed(value),
    }
}

/// `value` (a path and what follows it) with its path short, when it
/// starts with a full path of `table` (marking `used`).
fn short_value(value: &str, table: &[Short], used: &mut [bool]) -> Option<String> {
    let (n, rest) = table.iter().enumerate().find_map(|(n, s)| Some((n, value.strip_prefix(&s.full_prefix)?)))?;
    used[n] = true;
    Some(format!("{}::{rest}", table[n].short_text))
}

/// Whether a `::` after `before` would continue a path (`a::std::...`,
/// `x::::std`) rather than start one (`a: ::std::...`, `as ::std::...`).
fn continues_path(before: &[TokenTree]) -> bool {
    /// Keywords a path may follow.
    const KEYWORDS: &[&str] = &[
        "as", "impl", "for", "dyn", "where", "in", "return", "mut", "ref", "pub", "const", "static", "let", "else",
        "move", "match", "if", "while", "break", "unsafe", "async", "type",
    ];
    match before {
        [.., TokenTree::Ident(ident)] => !KEYWORDS.iter().any(|k| ident == k),
        [.., TokenTree::Punct(a), TokenTree::Punct(b)] => {
            a.as_char() == ':' && a.spacing() == Spacing::Joint && b.as_char() == ':'
        }
        _ => false,
    }
}

pub(super) fn is_colon(token: &TokenTree) -> bool {
    matches!(token, TokenTree::Punct(p) if p.as_char() == ':')
}

/// The number of tokens of `::a::b::c` at the start of `tokens` when they
/// spell `full`.
fn matches_at<'a>(tokens: &[TokenTree], full: impl Iterator<Item = &'a str>) -> Option<usize> {
    let mut at = 0;
    for segment in full {
        for _ in 0..2 {
            if !is_colon(tokens.get(at)?) {
                return None;
            }
            at += 1;
        }
        match tokens.get(at)? {
            TokenTree::Ident(ident) if ident == segment => at += 1,
            _ => return None,
        }
    }
    Some(at)
}

/// The tokens of the path `segments` (`a::b`).
pub(super) fn path_tokens<'a>(segments: impl Iterator<Item = &'a str>) -> Vec<TokenTree> {
    let mut out = Vec::new();
    for (i, segment) in segments.enumerate() {
        if i > 0 {
            out.push(TokenTree::Punct(Punct::new(':', Spacing::Joint)));
            out.push(TokenTree::Punct(Punct::new(':', Spacing::Alone)));
        }
        out.push(TokenTree::Ident(Ident::new(segment, Span::call_site())));
    }
    out
}

/// Whether the next token is the value of `key = ` for a serde path key.
fn is_serde_path_value(before: &[TokenTree]) -> bool {
    match before {
        [.., TokenTree::Ident(key), TokenTree::Punct(eq)] => {
            eq.as_char() == '=' && SERDE_PATH_KEYS.iter().any(|k| key == k)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use super::*;

    /// `code` with short paths, preceded by the `use` block they need.
    fn short(code: TokenStream, defined: &[&str]) -> String {
        let table = table(&defined.iter().copied().collect(), "::crd_schema", "::k8s_openapi");
        let mut used = vec![false; table.len()];
        let body = rewrite(code, &table, &mut used);
        format!("{} {body}", uses(&table, &used).join(" "))
    }

    #[test]
    fn paths_become_short_with_the_uses_they_need() {
        let code = quote! {
            #[derive(::serde::Serialize, ::serde::Deserialize, ::crd_schema::CustomResourceSchema)]
            pub struct A {
                #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
                pub a: ::std::option::Option<::std::collections::BTreeMap<::std::string::String, ::serde_json::Value>>,
            }
        };
        let text = short(code, &["A"]);
        assert!(
            text.starts_with(
                "use crd_schema::CustomResourceSchema; use serde::{Deserialize, Serialize}; use std::collections::BTreeMap; "
            ),
            "{text}"
        );
        assert!(text.contains("skip_serializing_if = \"Option::is_none\""), "{text}");
        assert!(text.contains("pub a : Option < BTreeMap < String , serde_json :: Value >>"), "{text}");
    }

    #[test]
    fn a_name_the_module_defines_keeps_its_full_path() {
        let code = quote! {
            pub struct Result { pub a: ::std::result::Result<i32, i32>, pub b: ::std::option::Option<i32> }
            pub struct Value { #[serde(skip_serializing_if = "::std::option::Option::is_none")] pub c: i32 }
        };
        let text = short(code, &["Result", "Value"]);
        assert!(text.contains(":: std :: result :: Result < i32 , i32 >"), "{text}");
        assert!(text.contains("pub b : Option < i32 >"), "{text}");
        assert!(!text.contains("use "), "{text}");
    }

    #[test]
    fn descriptions_and_longer_paths_are_left_alone() {
        let code = quote! {
            #[doc = "::std::option::Option"]
            #[schema(description = "::std::option::Option::is_none")]
            pub struct A { pub a: other::std::string::String }
        };
        let text = short(code, &["A"]);
        assert!(text.contains("\"::std::option::Option\""), "{text}");
        assert!(text.contains("description = \"::std::option::Option::is_none\""), "{text}");
        assert!(text.contains("other :: std :: string :: String"), "{text}");
    }
}
