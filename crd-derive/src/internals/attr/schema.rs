//! `#[schema(...)]`: the schema keywords of a type, field or variant, and
//! of the nested lists (`items(...)`, `values(...)`, junctors). Each list
//! becomes [`Keywords`]: the keys as written (for checks and spans) and the
//! overlay, the JSON object of keywords the expansion merges over the
//! schema the Rust type gives.

use syn::parse::ParseStream;
use syn::{Attribute, ExprPath, LitStr, Token};

use super::parse::{self, Key};
use crate::internals::ctxt::Ctxt;
use crate::internals::json::{Json, Object};

pub use crd_vocabulary::Place;
use crd_vocabulary::{KEYS, Value};

/// One keyword list (all `#[schema]` attributes of an item together).
#[derive(Default)]
pub struct Keywords {
    /// The keys as written, in order.
    pub keys: Vec<Key>,
    /// The JSON keywords to merge over the type's schema.
    pub overlay: Object,
    /// The nested lists (`items`, `values`, junctors), for the checks.
    pub nested: Vec<(Place, Keywords)>,
    /// `schema_with = "path"`.
    pub schema_with: Option<ExprPath>,
    /// `crate = "path"`.
    pub crate_path: Option<syn::Path>,
    /// `list_type = "..."`, as written.
    pub list_type: Option<String>,
    /// Bare `required` on a field: listed in its object's `required`.
    pub required_flag: bool,
}

impl Keywords {
    /// The key `name`, if written.
    pub fn key(&self, name: &str) -> Option<&Key> {
        self.keys.iter().find(|k| *k == name)
    }

    /// Whether key `name` was written.
    pub fn has(&self, name: &str) -> bool {
        self.key(name).is_some()
    }
}

/// The keywords of all `#[schema(...)]` attributes in `attrs`.
pub fn from_attrs(cx: &Ctxt, attrs: &[Attribute], place: Place) -> Keywords {
    let mut keywords = Keywords::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident("schema")) {
        if let Err(error) = attr.meta.require_list() {
            cx.syn_error(syn::Error::new(error.span(), "expected `#[schema(...)]`"));
            continue;
        }
        let parsed = attr.parse_args_with(|input: ParseStream<'_>| {
            parse::parse_list(cx, input, |key, input| keyword(cx, &mut keywords, key, input, place))
        });
        if let Err(error) = parsed {
            cx.syn_error(error);
        }
    }
    keywords
}

fn keyword_list(cx: &Ctxt, input: ParseStream<'_>, place: Place) -> syn::Result<Keywords> {
    let mut keywords = Keywords::default();
    parse::parse_list(cx, input, |key, input| keyword(cx, &mut keywords, key, input, place))?;
    Ok(keywords)
}

// A key is known (crd-vocabulary's table), allowed where it is written,
// and written once (except the repeatable ones); `unique_items` is refused
// outright because the API server rejects `uniqueItems: true` in CRDs.
fn admit(keywords: &Keywords, key: &Key, place: Place, valued: bool) -> syn::Result<&'static crd_vocabulary::Key> {
    let name = key.to_string();
    if name == "unique_items" {
        let message = "`unique_items` is forbidden in CRDs (the API server rejects `uniqueItems`); \
                       use `list_type = \"set\"` for a list of unique items";
        return Err(syn::Error::new(key.span(), message));
    }
    let Some(entry) = crd_vocabulary::find(&name, valued) else {
        let mut allowed: Vec<&str> = KEYS.iter().filter(|k| k.places.contains(place)).map(|k| k.attr).collect();
        allowed.dedup();
        return Err(parse::unknown(key, "schema", allowed));
    };
    if !entry.places.contains(place) {
        return Err(syn::Error::new(key.span(), not_allowed(&name, place)));
    }
    // Two keys of one keyword (`default`, `default_json`) are a conflict,
    // which `check.rs` reports; bare `required` and `required = [...]` are
    // two keys of one name.
    let written = keywords.has(&name) && entry.json.is_none_or(|json| keywords.overlay.get(json).is_some());
    if written && !entry.repeatable {
        return Err(syn::Error::new(key.span(), format!("duplicate schema attribute `{name}`")));
    }
    Ok(entry)
}

fn not_allowed(name: &str, place: Place) -> String {
    let hint = match name {
        "crate" => "it belongs on the type",
        "skip" => "it belongs on a field or variant",
        "no_default" | "schema_with" | "schemars" => "it belongs on a field",
        "required" => "bare, it belongs on a field; `required = [...]` is the node's keyword",
        _ if place == Place::Value => "structural schemas allow only value validations under junctors",
        _ => "see the attribute reference",
    };
    format!("schema attribute `{name}` is not allowed {}: {hint}", place.describe())
}

/// One key and its value, parsed as the table's [`Value`] kind says.
fn keyword(cx: &Ctxt, kw: &mut Keywords, key: &Key, input: ParseStream<'_>, place: Place) -> syn::Result<()> {
    let valued = input.peek(Token![=]) || input.peek(syn::token::Paren);
    let entry = admit(kw, key, place, valued)?;
    kw.keys.push(key.clone());
    let value = match entry.value {
        Value::Text => Json::String(parse::string(input, key)?.value()),
        Value::Choice(options) => Json::String(parse::one_of(input, key, options)?.value()),
        Value::Number => parse::number(input, key)?,
        Value::Count => parse::count(input, key)?,
        Value::Flag => Json::Bool(parse::flag(input, key)?),
        Value::Literal => parse::literal(input, key)?,
        Value::Literals => Json::Array(parse::list(input, key, "[\"a\", \"b\"]", literal_item)?),
        Value::Strings if entry.attr == "required" && !input.peek2(syn::token::Bracket) => {
            let message = "`required` alone marks a field required; `required = [\"a\", \"b\"]` is the \
                           node's own list of required properties";
            return Err(syn::Error::new(key.span(), message));
        }
        Value::Strings => Json::Array(strings(input, key)?),
        Value::Json => parse::json_text(input, key)?,
        Value::JsonList => match parse::json_text(input, key)? {
            list @ Json::Array(_) => list,
            _ => {
                let message = format!("`{key}` is a JSON list: `{key} = \"[{{...}}]\"`");
                return Err(syn::Error::new(key.span(), message));
            }
        },
        _ => return structured(cx, kw, key, input, place, entry),
    };
    if let Some(json) = entry.json {
        if let (Json::String(list_type), "x-kubernetes-list-type") = (&value, json) {
            kw.list_type = Some(list_type.clone());
        }
        kw.overlay.insert(json, value);
    }
    Ok(())
}

fn literal_item(input: ParseStream<'_>) -> syn::Result<Json> {
    // `null`, which the enum of a nullable node may list, is not a Rust
    // literal: it is written as the bare word.
    if input.fork().parse::<syn::Ident>().is_ok_and(|word| word == "null") {
        input.parse::<syn::Ident>()?;
        return Ok(Json::Null);
    }
    let span = input.span();
    let lit = input.parse::<syn::Lit>().map_err(|_| syn::Error::new(span, "expected a literal"))?;
    parse::literal_json(&lit)
}

fn strings(input: ParseStream<'_>, key: &Key) -> syn::Result<Vec<Json>> {
    Ok(parse::strings(input, key)?.iter().map(|s| Json::String(s.value())).collect())
}

/// Keys whose value is not a single keyword: nested lists, rules, flags
/// the expansion reads, paths.
fn structured(
    cx: &Ctxt,
    kw: &mut Keywords,
    key: &Key,
    input: ParseStream<'_>,
    place: Place,
    entry: &crd_vocabulary::Key,
) -> syn::Result<()> {
    match (entry.value, entry.json) {
        (Value::Rule, Some(json)) => {
            let rule = super::validation::parse(cx, input, key)?;
            match kw.overlay.get_mut(json) {
                Some(Json::Array(rules)) => rules.push(rule),
                _ => kw.overlay.insert(json, Json::Array(vec![rule])),
            }
        }
        (Value::Keywords, Some(json)) => {
            // `not(...)` holds value validations; `items(...)` and
            // `values(...)` a whole schema, unless under a junctor.
            let inner = if place == Place::Value || json == "not" { Place::Value } else { Place::Element };
            let content = parse::parens(input, key, "<keywords>")?;
            let nested = keyword_list(cx, &content, inner)?;
            kw.overlay.insert(json, Json::Object(nested.overlay.clone()));
            kw.nested.push((inner, nested));
        }
        (Value::Schemas, Some(json)) => {
            let schemas = junctor(cx, kw, input, key)?;
            kw.overlay.insert(json, Json::Array(schemas));
        }
        (Value::Property, _) => property(cx, kw, input, key, place)?,
        (Value::ExternalDocs, Some(json)) => kw.overlay.insert(json, super::validation::external_docs(cx, input, key)?),
        (Value::Path, _) if entry.attr == "schema_with" => kw.schema_with = Some(path_value::<ExprPath>(input, key)?),
        (Value::Path, _) => kw.crate_path = Some(path_value::<syn::Path>(input, key)?),
        _ if entry.attr == "required" => {
            if kw.required_flag {
                return Err(syn::Error::new(key.span(), "duplicate schema attribute `required`"));
            }
            kw.required_flag = true;
            parse::bare(input, key)?;
        }
        // The flags the expansion reads from `keys`: skip, no_default,
        // schemars.
        _ => parse::bare(input, key)?,
    }
    Ok(())
}

/// `all_of(schema(...), ...)`: each entry a value-only schema.
fn junctor(cx: &Ctxt, kw: &mut Keywords, input: ParseStream<'_>, key: &Key) -> syn::Result<Vec<Json>> {
    let content = parse::parens(input, key, "schema(...), ...")?;
    let mut schemas = Vec::new();
    parse::parse_list(cx, &content, |entry, input| {
        if entry != "schema" {
            let message = format!("`{key}` holds `schema(...)` entries: `{key}(schema(...), schema(...))`");
            return Err(syn::Error::new(entry.span(), message));
        }
        let inner = parse::parens(input, entry, "<keywords>")?;
        let nested = keyword_list(cx, &inner, Place::Value)?;
        schemas.push(Json::Object(nested.overlay.clone()));
        kw.nested.push((Place::Value, nested));
        Ok(())
    })?;
    Ok(schemas)
}

/// `property("name", <keywords>)`: one of the node's `properties`, a
/// value-only schema under a junctor and a whole schema elsewhere.
fn property(cx: &Ctxt, kw: &mut Keywords, input: ParseStream<'_>, key: &Key, place: Place) -> syn::Result<()> {
    let inner = if place == Place::Value { Place::Value } else { Place::Element };
    let content = parse::parens(input, key, "\"name\", <keywords>")?;
    let span = content.span();
    let name: LitStr = content
        .parse()
        .map_err(|_| syn::Error::new(span, "`property` starts with the property name: `property(\"name\", ...)`"))?;
    if !content.is_empty() {
        content.parse::<Token![,]>()?;
    }
    let nested = keyword_list(cx, &content, inner)?;
    match kw.overlay.get_mut("properties") {
        Some(Json::Object(properties)) => properties.insert(&name.value(), Json::Object(nested.overlay.clone())),
        _ => {
            let mut properties = Object::new();
            properties.insert(&name.value(), Json::Object(nested.overlay.clone()));
            kw.overlay.insert("properties", Json::Object(properties));
        }
    }
    kw.nested.push((inner, nested));
    Ok(())
}

fn path_value<T: syn::parse::Parse>(input: ParseStream<'_>, key: &Key) -> syn::Result<T> {
    let value = parse::string(input, key)?;
    value
        .parse()
        .map_err(|_| syn::Error::new(value.span(), format!("`{key}` takes a path: `{key} = \"path::to::it\"`")))
}

#[cfg(test)]
mod tests {
    use syn::parse::Parser;

    use super::*;

    #[test]
    fn enum_values_may_list_null() {
        // Found by the random schemas (tests/random-schemas): the generator
        // writes the `null` of a nullable node's enum as the bare word.
        let items = |input: ParseStream<'_>| {
            let items =
                syn::punctuated::Punctuated::<Json, syn::Token![,]>::parse_terminated_with(input, literal_item)?;
            Ok(items.into_iter().collect::<Vec<_>>())
        };
        let parsed = items.parse_str(r#""a", null, 1"#).expect("parses");
        assert_eq!(parsed, [Json::String("a".to_owned()), Json::Null, Json::Number("1".to_owned())]);
        assert!(items.parse_str("nil").is_err(), "other words are not literals");
    }
}
