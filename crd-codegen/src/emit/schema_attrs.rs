//! `#[schema(...)]` and `#[crd(...)]`: the derive attributes that make
//! `#[derive(CustomResourceSchema)]` rebuild each node's schema and the
//! whole CRD from the generated types (design.md I3; docs/derive.md is the
//! vocabulary). The keywords to state were chosen by
//! `typespace/keywords.rs`; this module only spells them.

use std::fmt::Write as _;

use proc_macro2::{Literal, TokenStream, TokenTree};
use quote::quote;
use serde_json::{Map, Value};

use super::Ctx;
use crate::typespace::{CrdAttrs, Field, Resource, StructDef};
use crd_schema::crd::PrinterColumn;
use crd_vocabulary::{EXTERNAL_DOCS_KEYS, RULE_KEYS, Shape, Value as Vocabulary};

/// `#[schema(...)]` for a field, empty when there is nothing to state.
pub(super) fn field_attr(f: &Field) -> TokenStream {
    let mut args = if f.schema_skip { vec![quote!(skip)] } else { keyword_args(&f.schema) };
    if f.schema_required && !f.schema_skip {
        args.push(quote!(required));
    }
    attr(args)
}

/// `#[schema(...)]` for a type: its own keywords and, when the crate path
/// is not the default, where `crd_schema` is.
pub(super) fn type_attr(ctx: &Ctx<'_>, schema: &Map<String, Value>) -> TokenStream {
    let mut args = Vec::new();
    if ctx.paths.crd_schema_text != "::crd_schema" {
        let path = &ctx.paths.crd_schema_text;
        args.push(quote!(crate = #path));
    }
    args.extend(keyword_args(schema));
    attr(args)
}

/// `#[schema(skip)]` for the flattened map of a struct whose node does not
/// itself preserve unknown fields (preservation inherited through `items`).
pub(super) fn flatten_attr(s: &StructDef) -> TokenStream {
    if s.flatten_in_schema { quote!() } else { quote!(#[schema(skip)]) }
}

/// Whether the attributes `tokens` of one item (or field) repeat an
/// argument, which clippy's `duplicated_attributes` reports (two printer
/// columns of one type). Its rule (`clippy_lints/src/attrs/
/// duplicated_attributes.rs` as of clippy 0.1.95): each argument is keyed
/// by the path of the lists it sits in and its name (a path, whole), plus
/// its value when that is a string
/// (`crd:printer_column:type_=string`, but `schema:one_of:schema:required`
/// whatever the value); `doc` and `reason` are not checked, nor is an
/// attribute that is not a plain meta item (with a value such as `-1` or
/// `["a"]` anywhere in it), nor the attributes of other items or fields.
///
/// Keys are compared by their paths first: a key's path ends at its first
/// `=`, so keys on different paths differ, and the values (descriptions,
/// rules) are read only where a path repeats.
pub(super) fn repeats_arguments(tokens: TokenStream) -> bool {
    let repeats = |values: bool| {
        let mut keys = Vec::new();
        for tree in tokens.clone() {
            if let TokenTree::Group(attr) = tree {
                let mut own = Vec::new();
                if lint_keys(attr.stream(), &mut String::new(), &mut own, values) {
                    keys.extend(own);
                }
            }
        }
        let mut seen = foldhash::HashSet::default();
        !keys.into_iter().all(|key| seen.insert(key))
    };
    repeats(false) && repeats(true)
}

/// The path an argument starts with, as clippy names it (a single name,
/// or `a::b` and `::a::b` whole: rustc's `path_to_string`), and how many
/// tokens it takes; `None` when it starts with none.
fn meta_path(argument: &[TokenTree]) -> Option<(String, usize)> {
    let colons = |at: usize| argument.get(at..at + 2).is_some_and(|pair| pair.iter().all(super::paths::is_colon));
    let mut name = String::new();
    let mut at = 0;
    loop {
        if colons(at) {
            name.push_str("::");
            at += 2;
        } else if at > 0 {
            return Some((name, at));
        }
        let Some(TokenTree::Ident(segment)) = argument.get(at) else { return None };
        let _ = write!(name, "{segment}");
        at += 1;
    }
}

/// Whether clippy leaves arguments named `name` unchecked.
fn unchecked(name: &str) -> bool {
    name == "doc" || name == "reason"
}

/// Adds clippy's keys of the comma-separated arguments `tokens`, nested in
/// the lists `path` names (`:schema:one_of`), with their string values
/// when `values` (else their paths alone); false when they are not meta
/// items.
fn lint_keys(tokens: TokenStream, path: &mut String, keys: &mut Vec<String>, values: bool) -> bool {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    for argument in trees.split(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ',')) {
        // A literal argument (`property("a", ...)`) has no key.
        let Some((name, len)) = meta_path(argument) else { continue };
        let parent = path.len();
        let _ = write!(path, ":{name}");
        let checked = !unchecked(&name);
        let key = match &argument[len..] {
            [TokenTree::Group(list)] => {
                let plain = lint_keys(list.stream(), path, keys, values);
                path.truncate(parent);
                if !plain {
                    return false;
                }
                continue;
            }
            // Not checked: skip reading the text (doc comments are long).
            [TokenTree::Punct(eq), TokenTree::Literal(_)] if eq.as_char() == '=' && !checked => None,
            [TokenTree::Punct(eq), TokenTree::Literal(_)] if eq.as_char() == '=' && !values => Some(path.clone()),
            [TokenTree::Punct(eq), TokenTree::Literal(value)] if eq.as_char() == '=' => {
                let text = value.to_string();
                let mut key = String::with_capacity(path.len() + text.len());
                key.push_str(path);
                if let Some(value) = super::string_value(&text) {
                    key.push('=');
                    key.push_str(&value);
                }
                Some(key)
            }
            [TokenTree::Punct(eq), TokenTree::Ident(value)]
                if eq.as_char() == '=' && (value == "true" || value == "false") =>
            {
                Some(path.clone())
            }
            [TokenTree::Punct(eq), ..] if eq.as_char() == '=' => return false,
            _ => Some(path.clone()),
        };
        path.truncate(parent);
        if let Some(key) = key.filter(|_| checked) {
            keys.push(key);
        }
    }
    true
}

fn attr(args: Vec<TokenStream>) -> TokenStream {
    if args.is_empty() { quote!() } else { super::attribute("schema", args) }
}

/// The `#[crd(...)]` of a root type.
pub(super) fn crd_attr(resource: &Resource, crd: &CrdAttrs) -> TokenStream {
    let (group, version, kind) = (&resource.group, &resource.version, &resource.kind);
    let (plural, list_kind) = (&resource.plural, &resource.list_kind);
    let mut args =
        vec![quote!(group = #group), quote!(version = #version), quote!(kind = #kind), quote!(plural = #plural)];
    if !crd.singular.is_empty() {
        let singular = &crd.singular;
        args.push(quote!(singular = #singular));
    }
    args.push(quote!(list_kind = #list_kind));
    if !crd.short_names.is_empty() {
        let names = &crd.short_names;
        args.push(quote!(short_names = [#(#names),*]));
    }
    if !crd.categories.is_empty() {
        let names = &crd.categories;
        args.push(quote!(categories = [#(#names),*]));
    }
    let scope = if resource.namespaced { "Namespaced" } else { "Cluster" };
    args.push(quote!(scope = #scope));
    if crd.status {
        args.push(quote!(status));
    }
    if let Some(scale) = &crd.scale {
        let (spec, status) = (&scale.spec_replicas_path, &scale.status_replicas_path);
        let label = scale.label_selector_path.iter();
        args.push(quote!(scale(spec_replicas_path = #spec, status_replicas_path = #status #(, label_selector_path = #label)*)));
    }
    for column in &crd.printer_columns {
        args.push(printer_column(column));
    }
    for path in &crd.selectable_fields {
        args.push(quote!(selectable_field = #path));
    }
    let (served, storage) = (crd.served, crd.storage);
    args.push(quote!(served = #served));
    args.push(quote!(storage = #storage));
    if crd.deprecated {
        args.push(quote!(deprecated));
    }
    if let Some(warning) = &crd.deprecation_warning {
        args.push(quote!(deprecation_warning = #warning));
    }
    for (key, value) in &crd.annotations {
        args.push(quote!(annotation(#key, #value)));
    }
    quote!(#[crd(#(#args),*)])
}

/// `name(key = value, ...)` from the JSON object `value`, keys renamed by
/// `keys` (attribute name, JSON name), in that order.
fn nested(name: &str, value: &Value, keys: &[(&str, &str)]) -> TokenStream {
    let name = ident(name);
    let args = keys.iter().filter_map(|(key, json)| {
        let key = ident(key);
        value.get(*json).map(|v| {
            let v = literal(v);
            quote!(#key = #v)
        })
    });
    quote!(#name(#(#args),*))
}

/// `printer_column(...)`: the name, type and path, then the description,
/// format and priority when set.
fn printer_column(column: &PrinterColumn) -> TokenStream {
    let (name, type_, path) = (&column.name, &column.type_, &column.json_path);
    let mut args = vec![quote!(name = #name), quote!(type_ = #type_), quote!(json_path = #path)];
    for (key, value) in [("description", &column.description), ("format", &column.format)] {
        if !value.is_empty() {
            let key = ident(key);
            args.push(quote!(#key = #value));
        }
    }
    if column.priority != 0 {
        let priority = number(&column.priority.into());
        args.push(quote!(priority = #priority));
    }
    quote!(printer_column(#(#args),*))
}

fn ident(name: &str) -> proc_macro2::Ident {
    proc_macro2::Ident::new(name, proc_macro2::Span::call_site())
}

/// The attribute arguments stating `keywords`.
fn keyword_args(keywords: &Map<String, Value>) -> Vec<TokenStream> {
    keywords.iter().filter_map(|(key, value)| keyword(key, value)).collect()
}

/// One keyword as an attribute argument, spelled by the first key of
/// crd-vocabulary's table that can spell the value; `None` for keywords no
/// key sets, which CRDs forbid (structural checking has refused such
/// schemas before the generator sees them).
fn keyword(key: &str, value: &Value) -> Option<TokenStream> {
    let shape = shape(value);
    let entry = crd_vocabulary::for_keyword(key).find(|k| k.spells(shape))?;
    let name = ident(entry.attr);
    Some(match entry.value {
        Vocabulary::Flag if *value == Value::Bool(true) => quote!(#name),
        Vocabulary::Flag if *value == Value::Bool(false) => quote!(#name = false),
        Vocabulary::Flag | Vocabulary::Json | Vocabulary::JsonList => simple_json(&name, value),
        Vocabulary::Keywords => nested_keywords(entry.attr, value),
        Vocabulary::Schemas => junctor(entry.attr, value),
        Vocabulary::Property => properties(value),
        Vocabulary::Rule => validations(value),
        Vocabulary::ExternalDocs => nested(entry.attr, value, EXTERNAL_DOCS_KEYS),
        _ => {
            let v = literal(value);
            quote!(#name = #v)
        }
    })
}

/// What choosing a spelling needs to know about `value`.
fn shape(value: &Value) -> Shape {
    match value {
        Value::Null => Shape::Null,
        Value::Bool(_) => Shape::Bool,
        Value::Number(n) if n.is_f64() && n.as_f64().is_some_and(|f| f.fract() == 0.0) => Shape::WholeFloat,
        Value::Number(n) if n.is_f64() => Shape::Float,
        Value::Number(_) => Shape::Integer,
        Value::String(_) => Shape::String,
        Value::Array(members) if members.iter().any(|m| m.is_array() || m.is_object()) => Shape::NestedList,
        Value::Array(_) => Shape::ScalarList,
        Value::Object(_) => Shape::Object,
    }
}

fn simple_json(name: &proc_macro2::Ident, value: &Value) -> TokenStream {
    let text = value.to_string();
    quote!(#name = #text)
}

fn nested_keywords(name: &str, value: &Value) -> TokenStream {
    let name = ident(name);
    let args = value.as_object().map(keyword_args).unwrap_or_default();
    quote!(#name(#(#args),*))
}

fn junctor(name: &str, value: &Value) -> TokenStream {
    let name = ident(name);
    let schemas = value.as_array().into_iter().flatten().map(|s| nested_keywords("schema", s));
    quote!(#name(#(#schemas),*))
}

fn properties(value: &Value) -> TokenStream {
    let entries = value.as_object().into_iter().flatten().map(|(name, schema)| {
        let args = schema.as_object().map(keyword_args).unwrap_or_default();
        quote!(property(#name #(, #args)*))
    });
    quote!(#(#entries),*)
}

fn validations(value: &Value) -> TokenStream {
    let rules = value.as_array().into_iter().flatten().map(|rule| nested("validation", rule, RULE_KEYS));
    quote!(#(#rules),*)
}

/// A JSON scalar or list of scalars as a Rust literal: integers (also
/// integral floats) as integer literals, so `1` stays `1`; `null` (listed
/// in the `enum` of a nullable node) as the bare word the derive reads.
fn literal(value: &Value) -> TokenStream {
    match value {
        Value::Null => quote!(null),
        Value::String(s) => quote!(#s),
        Value::Bool(b) => quote!(#b),
        Value::Number(n) => number(n),
        Value::Array(items) => {
            let items = items.iter().map(literal);
            quote!([#(#items),*])
        }
        other => {
            let text = other.to_string();
            quote!(#text)
        }
    }
}

fn number(n: &serde_json::Number) -> TokenStream {
    let (text, negative) = if let Some(i) = n.as_i64() {
        (Literal::u64_unsuffixed(i.unsigned_abs()), i < 0)
    } else if let Some(u) = n.as_u64() {
        (Literal::u64_unsuffixed(u), false)
    } else {
        let f = n.as_f64().unwrap_or_default();
        if f.fract() == 0.0 && f.abs() < 9.0e15 {
            #[allow(clippy::cast_possible_truncation)]
            let i = f as i64;
            (Literal::u64_unsuffixed(i.unsigned_abs()), i < 0)
        } else {
            (Literal::f64_unsuffixed(f.abs()), f < 0.0)
        }
    };
    if negative { quote!(-#text) } else { quote!(#text) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn args(value: Value) -> String {
        let Value::Object(map) = value else { unreachable!() };
        let args = keyword_args(&map);
        quote!(#(#args),*).to_string()
    }

    #[test]
    fn repeated_arguments_are_found_as_clippy_finds_them() {
        let column = |name: &str| quote!(printer_column(name = #name, type_ = "integer"));
        let (a, b) = (column("A"), column("B"));
        assert!(repeats_arguments(quote!(#[crd(#a, #b)])));
        assert!(!repeats_arguments(quote!(#[crd(#a)])));
        // Values count only when they are strings.
        assert!(!repeats_arguments(quote!(#[schema(validation(message = "a"), validation(message = "b"))])));
        // The same argument in other lists, doc comments and reasons are no
        // repeat, and clippy skips attributes with values that are not
        // literals.
        assert!(!repeats_arguments(quote!(#[serde(default)] #[schema(items(default = 1), default = 1)])));
        assert!(!repeats_arguments(quote!(#[doc = "a"] #[doc = "a"] #[schema(description = "a")])));
        assert!(!repeats_arguments(quote!(#[schema(validation(reason = "R"), validation(reason = "R"))])));
        assert!(!repeats_arguments(quote!(#[schema(one_of(schema(required = ["a"]), schema(required = ["b"])))])));
        assert!(repeats_arguments(quote!(#[schema(one_of(schema(max_length = 1), schema(max_length = 2)))])));
        assert!(!repeats_arguments(
            quote!(#[schema(one_of(schema(max_length = 1), schema(max_length = 2)), minimum = -1)])
        ));
        // A path is named whole: two derives of one crate are no repeat.
        assert!(!repeats_arguments(quote!(#[derive(Clone, serde::Serialize, serde::Deserialize)])));
        assert!(!repeats_arguments(quote!(#[derive(::serde::Serialize, ::serde::Deserialize)])));
        assert!(repeats_arguments(quote!(#[a(b::c = "x")] #[a(b::c = "x")])));
        assert!(repeats_arguments(quote!(#[a(::b::c)] #[a(::b::c)])));
        assert!(!repeats_arguments(quote!(#[a(::b::c)] #[a(b::c)])));
    }

    #[test]
    fn keywords_are_spelled_as_the_derive_reads_them() {
        assert_eq!(args(json!({"minimum": 1.0, "maximum": -2.5})), "minimum = 1 , maximum = - 2.5");
        assert_eq!(args(json!({"default": {"a": 1}})), r#"default_json = "{\"a\":1}""#);
        // Found by the random schemas (tests/random-schemas): `default: 3.0`
        // came back as `3`, which `multipleOf: 0.5` rejects.
        assert_eq!(args(json!({"default": 3.0, "multipleOf": 0.5})), r#"default_json = "3.0" , multiple_of = 0.5"#);
        assert_eq!(args(json!({"default": 3})), "default = 3");
        assert_eq!(args(json!({"enum": ["a", 1]})), r#"enum_values = ["a" , 1]"#);
        assert_eq!(args(json!({"enum": [{"a": "x"}]})), r#"enum_values_json = "[{\"a\":\"x\"}]""#);
        assert_eq!(args(json!({"required": ["a"]})), r#"required = ["a"]"#);
        assert_eq!(args(json!({"items": {"maxLength": 3}})), "items (max_length = 3)");
        // Found by the random schemas (tests/random-schemas): a `null` in
        // an enum came back as the string "null".
        assert_eq!(args(json!({"enum": ["a", null], "nullable": true})), r#"enum_values = ["a" , null] , nullable"#);
        assert_eq!(
            args(json!({"oneOf": [{"required": ["a"]}, {"required": ["b"]}]})),
            r#"one_of (schema (required = ["a"]) , schema (required = ["b"]))"#
        );
        assert_eq!(
            args(json!({"x-kubernetes-validations": [{"rule": "self.a", "message": "m"}]})),
            r#"validation (rule = "self.a" , message = "m")"#
        );
    }
}
