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

/// Where a keyword list is written; decides which keys it may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// `#[schema(...)]` on a struct or enum.
    Type,
    /// `#[schema(...)]` on a field.
    Field,
    /// `#[schema(...)]` on an enum variant.
    Variant,
    /// Inside `items(...)` or `values(...)`: a whole schema.
    Element,
    /// Inside a junctor's `schema(...)` or `not(...)`: value validations
    /// only, as structural schemas require.
    Value,
}

const TYPE: u8 = 1;
const FIELD: u8 = 2;
const VARIANT: u8 = 4;
const ELEMENT: u8 = 8;
const VALUE: u8 = 16;
/// Lists that describe a whole schema node.
const NODE: u8 = TYPE | FIELD | VARIANT | ELEMENT;
const ANY: u8 = NODE | VALUE;

impl Place {
    fn bit(self) -> u8 {
        match self {
            Self::Type => TYPE,
            Self::Field => FIELD,
            Self::Variant => VARIANT,
            Self::Element => ELEMENT,
            Self::Value => VALUE,
        }
    }

    fn describe(self) -> &'static str {
        match self {
            Self::Type => "on a type",
            Self::Field => "on a field",
            Self::Variant => "on a variant",
            Self::Element => "inside `items(...)` or `values(...)`",
            Self::Value => "in a value-only schema (`all_of`, `any_of`, `one_of`, `not`)",
        }
    }
}

/// Every key, with the places it is allowed in (docs/derive.md's table).
const KEYS: &[(&str, u8)] = &[
    ("description", NODE),
    ("title", NODE),
    ("format", ANY),
    ("minimum", ANY),
    ("maximum", ANY),
    ("exclusive_minimum", ANY),
    ("exclusive_maximum", ANY),
    ("multiple_of", ANY),
    ("min_length", ANY),
    ("max_length", ANY),
    ("min_items", ANY),
    ("max_items", ANY),
    ("min_properties", ANY),
    ("max_properties", ANY),
    ("pattern", ANY),
    ("enum_values", ANY),
    ("enum_values_json", ANY),
    ("default", NODE),
    ("default_json", NODE),
    ("no_default", FIELD),
    ("nullable", NODE),
    ("preserve_unknown_fields", NODE),
    ("embedded_resource", NODE),
    ("int_or_string", NODE),
    ("list_type", NODE),
    ("list_map_keys", NODE),
    ("map_type", NODE),
    ("validation", NODE),
    ("items", ANY),
    ("values", NODE),
    ("all_of", ANY),
    ("any_of", ANY),
    ("one_of", ANY),
    ("not", ANY),
    ("example_json", ANY),
    ("external_docs", ANY),
    ("type_", NODE),
    // `required = [...]` is the node's keyword (anywhere: the API server
    // accepts it on any node, and ignores it on non-objects); bare
    // `required`, on a field only, lists the field in its object's.
    ("required", ANY),
    ("property", VALUE),
    ("skip", FIELD | VARIANT),
    ("schema_with", FIELD),
    ("schemars", FIELD),
    ("crate", TYPE),
];

/// Keys that may be written more than once in one list (`required` once
/// as a flag and once as a list).
const REPEATABLE: &[&str] = &["validation", "property", "required"];

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

// A key is known, allowed where it is written, and written once (except the
// repeatable ones); `unique_items` is refused outright because the API
// server rejects `uniqueItems: true` in CRDs.
fn admit(keywords: &Keywords, key: &Key, place: Place) -> syn::Result<()> {
    let name = key.to_string();
    if name == "unique_items" {
        let message = "`unique_items` is forbidden in CRDs (the API server rejects `uniqueItems`); \
                       use `list_type = \"set\"` for a list of unique items";
        return Err(syn::Error::new(key.span(), message));
    }
    let Some((_, places)) = KEYS.iter().find(|(k, _)| *k == name) else {
        let allowed = KEYS.iter().filter(|(_, p)| p & place.bit() != 0).map(|(k, _)| *k);
        return Err(parse::unknown(key, "schema", allowed));
    };
    if places & place.bit() == 0 {
        return Err(syn::Error::new(key.span(), not_allowed(&name, place)));
    }
    if keywords.has(&name) && !REPEATABLE.contains(&name.as_str()) {
        return Err(syn::Error::new(key.span(), format!("duplicate schema attribute `{name}`")));
    }
    Ok(())
}

fn not_allowed(name: &str, place: Place) -> String {
    let hint = match name {
        "crate" => "it belongs on the type",
        "skip" => "it belongs on a field or variant",
        "no_default" | "schema_with" | "schemars" => "it belongs on a field",
        "required" => "bare, it belongs on a field; `required = [...]` is the node's keyword",
        "property" => "it belongs in a junctor's `schema(...)` or in `not(...)`",
        _ if place == Place::Value => "structural schemas allow only value validations under junctors",
        _ => "see the attribute reference",
    };
    format!("schema attribute `{name}` is not allowed {}: {hint}", place.describe())
}

fn keyword(cx: &Ctxt, kw: &mut Keywords, key: &Key, input: ParseStream<'_>, place: Place) -> syn::Result<()> {
    admit(kw, key, place)?;
    kw.keys.push(key.clone());
    let name = key.to_string();
    let json_key = match name.as_str() {
        "description" | "title" | "format" | "pattern" => Some(Json::String(parse::string(input, key)?.value())),
        "minimum" | "maximum" | "multiple_of" => Some(parse::number(input, key)?),
        "min_length" | "max_length" | "min_items" | "max_items" | "min_properties" | "max_properties" => {
            Some(parse::count(input, key)?)
        }
        "exclusive_minimum"
        | "exclusive_maximum"
        | "nullable"
        | "preserve_unknown_fields"
        | "embedded_resource"
        | "int_or_string" => Some(Json::Bool(parse::flag(input, key)?)),
        "enum_values" => Some(Json::Array(parse::list(input, key, "[\"a\", \"b\"]", literal_item)?)),
        "default" => Some(parse::literal(input, key)?),
        "default_json" | "example_json" => Some(parse::json_text(input, key)?),
        "enum_values_json" => match parse::json_text(input, key)? {
            list @ Json::Array(_) => Some(list),
            _ => {
                return Err(syn::Error::new(
                    key.span(),
                    "`enum_values_json` is a JSON list: `enum_values_json = \"[{...}]\"`",
                ));
            }
        },
        "list_type" => Some(list_type(kw, input, key)?),
        "map_type" => Some(Json::String(parse::one_of(input, key, &["granular", "atomic"])?.value())),
        "list_map_keys" => Some(Json::Array(strings(input, key)?)),
        "type_" => Some(Json::String(parse::one_of(input, key, TYPES)?.value())),
        "required" if input.peek(Token![=]) => {
            if !input.peek2(syn::token::Bracket) {
                let message = "`required` alone marks a field required; `required = [\"a\", \"b\"]` is the \
                               node's own list of required properties";
                return Err(syn::Error::new(key.span(), message));
            }
            if kw.overlay.get("required").is_some() {
                return Err(syn::Error::new(key.span(), "duplicate schema attribute `required = [...]`"));
            }
            Some(Json::Array(strings(input, key)?))
        }
        _ => None,
    };
    match json_key {
        Some(value) => kw.overlay.insert(json_name(&name), value),
        None => structured(cx, kw, key, input, place)?,
    }
    Ok(())
}

const TYPES: &[&str] = &["object", "array", "string", "integer", "number", "boolean"];

/// The JSON keyword of a key that maps to one keyword.
fn json_name(name: &str) -> &str {
    match name {
        "exclusive_minimum" => "exclusiveMinimum",
        "exclusive_maximum" => "exclusiveMaximum",
        "multiple_of" => "multipleOf",
        "min_length" => "minLength",
        "max_length" => "maxLength",
        "min_items" => "minItems",
        "max_items" => "maxItems",
        "min_properties" => "minProperties",
        "max_properties" => "maxProperties",
        "enum_values" | "enum_values_json" => "enum",
        "default_json" => "default",
        "example_json" => "example",
        "preserve_unknown_fields" => "x-kubernetes-preserve-unknown-fields",
        "embedded_resource" => "x-kubernetes-embedded-resource",
        "int_or_string" => "x-kubernetes-int-or-string",
        "list_type" => "x-kubernetes-list-type",
        "list_map_keys" => "x-kubernetes-list-map-keys",
        "map_type" => "x-kubernetes-map-type",
        "type_" => "type",
        other => other,
    }
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

fn list_type(kw: &mut Keywords, input: ParseStream<'_>, key: &Key) -> syn::Result<Json> {
    let value = parse::one_of(input, key, &["atomic", "set", "map"])?.value();
    kw.list_type = Some(value.clone());
    Ok(Json::String(value))
}

/// Keys whose value is not a single keyword: nested lists, flags the
/// expansion reads, paths.
fn structured(cx: &Ctxt, kw: &mut Keywords, key: &Key, input: ParseStream<'_>, place: Place) -> syn::Result<()> {
    let name = key.to_string();
    match name.as_str() {
        "validation" => {
            let rule = super::validation::parse(cx, input, key)?;
            match kw.overlay.get_mut("x-kubernetes-validations") {
                Some(Json::Array(rules)) => rules.push(rule),
                _ => kw.overlay.insert("x-kubernetes-validations", Json::Array(vec![rule])),
            }
        }
        "items" | "values" => {
            let inner = if place == Place::Value { Place::Value } else { Place::Element };
            let content = parse::parens(input, key, "<keywords>")?;
            let nested = keyword_list(cx, &content, inner)?;
            let json_key = if name == "items" { "items" } else { "additionalProperties" };
            kw.overlay.insert(json_key, Json::Object(nested.overlay.clone()));
            kw.nested.push((inner, nested));
        }
        "all_of" | "any_of" | "one_of" => {
            let schemas = junctor(cx, kw, input, key)?;
            let json_key = match name.as_str() {
                "all_of" => "allOf",
                "any_of" => "anyOf",
                _ => "oneOf",
            };
            kw.overlay.insert(json_key, Json::Array(schemas));
        }
        "not" => {
            let content = parse::parens(input, key, "<keywords>")?;
            let nested = keyword_list(cx, &content, Place::Value)?;
            kw.overlay.insert("not", Json::Object(nested.overlay.clone()));
            kw.nested.push((Place::Value, nested));
        }
        "property" => property(cx, kw, input, key)?,
        "external_docs" => kw.overlay.insert("externalDocs", super::validation::external_docs(cx, input, key)?),
        "schema_with" => kw.schema_with = Some(path_value::<ExprPath>(input, key)?),
        "crate" => kw.crate_path = Some(path_value::<syn::Path>(input, key)?),
        "required" => {
            if place != Place::Field {
                return Err(syn::Error::new(key.span(), not_allowed("required", place)));
            }
            if kw.required_flag {
                return Err(syn::Error::new(key.span(), "duplicate schema attribute `required`"));
            }
            kw.required_flag = true;
            parse::bare(input, key)?;
        }
        // The flags the expansion reads from `keys`: required, skip,
        // no_default, schemars.
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

/// `property("name", <keywords>)` in a value-only schema.
fn property(cx: &Ctxt, kw: &mut Keywords, input: ParseStream<'_>, key: &Key) -> syn::Result<()> {
    let content = parse::parens(input, key, "\"name\", <keywords>")?;
    let span = content.span();
    let name: LitStr = content
        .parse()
        .map_err(|_| syn::Error::new(span, "`property` starts with the property name: `property(\"name\", ...)`"))?;
    if !content.is_empty() {
        content.parse::<Token![,]>()?;
    }
    let nested = keyword_list(cx, &content, Place::Value)?;
    match kw.overlay.get_mut("properties") {
        Some(Json::Object(properties)) => properties.insert(&name.value(), Json::Object(nested.overlay.clone())),
        _ => {
            let mut properties = Object::new();
            properties.insert(&name.value(), Json::Object(nested.overlay.clone()));
            kw.overlay.insert("properties", Json::Object(properties));
        }
    }
    kw.nested.push((Place::Value, nested));
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
