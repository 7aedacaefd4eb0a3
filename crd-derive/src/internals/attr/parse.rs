//! Parsing of attribute values, shared by `#[schema]` and `#[crd]`: each
//! helper parses `= value` after a key and says, at the offending token,
//! what the key takes when the value has the wrong type.

use proc_macro2::{Span, TokenTree};
use syn::ext::IdentExt as _;
use syn::parse::ParseStream;
use syn::{Ident, Lit, LitStr, Token};

use crate::internals::ctxt::Ctxt;
use crate::internals::json::{self, Json};
use crate::internals::suggest;

/// A key written inside an attribute, with its span for errors.
pub type Key = Ident;

/// Parses `key = value, key(...), flag, ...`, calling `each` per key with the
/// stream positioned after the key. A bad value is reported and skipped (up
/// to the next `,`) so that every mistake of the list is reported at once.
pub fn parse_list(
    cx: &Ctxt,
    input: ParseStream<'_>,
    mut each: impl FnMut(&Key, ParseStream<'_>) -> syn::Result<()>,
) -> syn::Result<()> {
    while !input.is_empty() {
        let key = input.call(Ident::parse_any).map_err(|e| syn::Error::new(e.span(), "expected an attribute key"))?;
        if let Err(error) = each(&key, input) {
            cx.syn_error(error);
            skip_value(input);
        }
        if input.is_empty() {
            break;
        }
        input.parse::<Token![,]>()?;
    }
    Ok(())
}

/// Skips tokens up to (not including) the next `,` of this level.
pub fn skip_value(input: ParseStream<'_>) {
    let _ = input.step(|cursor| {
        let mut rest = *cursor;
        while let Some((tree, next)) = rest.token_tree() {
            if matches!(&tree, TokenTree::Punct(p) if p.as_char() == ',') {
                break;
            }
            rest = next;
        }
        Ok(((), rest))
    });
}

fn expect_eq(input: ParseStream<'_>, key: &Key, example: &str) -> syn::Result<()> {
    if input.peek(Token![=]) {
        input.parse::<Token![=]>()?;
        Ok(())
    } else {
        Err(syn::Error::new(key.span(), format!("`{key}` takes a value: `{key} = {example}`")))
    }
}

fn wrong(span: Span, key: &Key, what: &str, example: &str) -> syn::Error {
    syn::Error::new(span, format!("`{key}` takes {what}: `{key} = {example}`"))
}

/// `= "..."`.
pub fn string(input: ParseStream<'_>, key: &Key) -> syn::Result<LitStr> {
    expect_eq(input, key, "\"...\"")?;
    let span = input.span();
    match input.parse::<Lit>() {
        Ok(Lit::Str(s)) => Ok(s),
        _ => Err(wrong(span, key, "a string", "\"...\"")),
    }
}

/// `= "..."`, one of `allowed`.
pub fn one_of(input: ParseStream<'_>, key: &Key, allowed: &[&str]) -> syn::Result<LitStr> {
    let value = string(input, key)?;
    if allowed.contains(&value.value().as_str()) {
        return Ok(value);
    }
    let list = allowed.iter().map(|a| format!("\"{a}\"")).collect::<Vec<_>>().join(", ");
    Err(syn::Error::new(value.span(), format!("`{key}` is one of {list}")))
}

/// A flag: bare (`true`) or `= true` / `= false`.
pub fn flag(input: ParseStream<'_>, key: &Key) -> syn::Result<bool> {
    if !input.peek(Token![=]) {
        return Ok(true);
    }
    boolean(input, key)
}

/// `= true` / `= false`.
pub fn boolean(input: ParseStream<'_>, key: &Key) -> syn::Result<bool> {
    expect_eq(input, key, "true")?;
    let span = input.span();
    match input.parse::<Lit>() {
        Ok(Lit::Bool(b)) => Ok(b.value),
        _ => Err(wrong(span, key, "a bool", "true")),
    }
}

/// A bare flag, which takes no value.
pub fn bare(input: ParseStream<'_>, key: &Key) -> syn::Result<()> {
    if input.is_empty() || input.peek(Token![,]) {
        Ok(())
    } else {
        Err(syn::Error::new(input.span(), format!("`{key}` is a flag and takes no value: write `{key}` alone")))
    }
}

/// `= N` with N a non-negative integer (lengths and counts).
pub fn count(input: ParseStream<'_>, key: &Key) -> syn::Result<Json> {
    expect_eq(input, key, "1")?;
    let span = input.span();
    match input.parse::<Lit>() {
        Ok(Lit::Int(n)) => match n.base10_parse::<i64>() {
            Ok(n) if n >= 0 => Ok(Json::int(n)),
            _ => Err(syn::Error::new(span, format!("`{key}` is a count: an integer from 0 to {}", i64::MAX))),
        },
        _ => Err(wrong(span, key, "a non-negative integer", "1")),
    }
}

/// `= N` with N an integer within i32 (printer column priorities).
pub fn int32(input: ParseStream<'_>, key: &Key) -> syn::Result<i32> {
    expect_eq(input, key, "0")?;
    let span = input.span();
    match input.parse::<Lit>() {
        Ok(Lit::Int(n)) => n.base10_parse::<i32>().map_err(|_| syn::Error::new(span, format!("`{key}` is an int32"))),
        _ => Err(wrong(span, key, "an integer", "0")),
    }
}

/// `= N` with N an integer or float literal.
///
/// These keywords are float64s in Kubernetes: a float is written as Go
/// writes it ([`go_float`]), so `9223372036854775000.0` stays that number
/// and does not become `9223372036854774784`.
pub fn number(input: ParseStream<'_>, key: &Key) -> syn::Result<Json> {
    expect_eq(input, key, "1")?;
    let span = input.span();
    match input.parse::<Lit>() {
        Ok(Lit::Float(f)) => match f.base10_parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(Json::Number(go_float(v))),
            _ => Err(syn::Error::new(f.span(), "float out of range: schemas hold finite float64 values")),
        },
        Ok(lit @ Lit::Int(_)) => literal_json(&lit),
        _ => Err(wrong(span, key, "a number", "1")),
    }
}

/// A float64 as Go's `encoding/json` writes it: the shortest digits that
/// read back as `v`, plain from 1e-6 up to 1e21 (`3`, `0.5`,
/// `9223372036854775000`), in exponent form outside (`1e-7`, `1e+21`).
pub fn go_float(v: f64) -> String {
    let abs = v.abs();
    if abs == 0.0 || (1e-6..1e21).contains(&abs) {
        return format!("{v}");
    }
    let text = format!("{v:e}");
    match text.split_once('e') {
        Some((mantissa, exponent)) if !exponent.starts_with('-') => format!("{mantissa}e+{exponent}"),
        _ => text,
    }
}

/// `= lit` with a string, integer, float or bool literal.
pub fn literal(input: ParseStream<'_>, key: &Key) -> syn::Result<Json> {
    expect_eq(input, key, "\"...\"")?;
    let span = input.span();
    match input.parse::<Lit>() {
        Ok(lit) => literal_json(&lit),
        Err(_) => Err(wrong(span, key, "a string, integer, float or bool literal", "\"...\"")),
    }
}

/// The JSON of a literal (string, integer within int64, finite float, bool).
pub fn literal_json(lit: &Lit) -> syn::Result<Json> {
    match lit {
        Lit::Str(s) => Ok(Json::String(s.value())),
        Lit::Bool(b) => Ok(Json::Bool(b.value)),
        Lit::Int(n) => n
            .base10_parse::<i64>()
            .map(Json::int)
            .map_err(|_| syn::Error::new(n.span(), "integer out of range: schemas hold int64 values")),
        Lit::Float(f) => match f.base10_parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(Json::Number(format!("{v:?}"))),
            _ => Err(syn::Error::new(f.span(), "float out of range: schemas hold finite float64 values")),
        },
        other => Err(syn::Error::new(other.span(), "expected a string, integer, float or bool literal")),
    }
}

/// `= [item, ...]`, each item parsed by `item`.
pub fn list<T>(
    input: ParseStream<'_>,
    key: &Key,
    example: &str,
    mut item: impl FnMut(ParseStream<'_>) -> syn::Result<T>,
) -> syn::Result<Vec<T>> {
    expect_eq(input, key, example)?;
    if !input.peek(syn::token::Bracket) {
        return Err(wrong(input.span(), key, "a list", example));
    }
    let content;
    syn::bracketed!(content in input);
    let mut items = Vec::new();
    while !content.is_empty() {
        items.push(item(&content)?);
        if content.is_empty() {
            break;
        }
        content.parse::<Token![,]>()?;
    }
    Ok(items)
}

/// `= ["a", ...]`.
pub fn strings(input: ParseStream<'_>, key: &Key) -> syn::Result<Vec<LitStr>> {
    list(input, key, "[\"a\", \"b\"]", |content| {
        let span = content.span();
        match content.parse::<Lit>() {
            Ok(Lit::Str(s)) => Ok(s),
            _ => Err(syn::Error::new(span, format!("`{key}` is a list of strings: `{key} = [\"a\", \"b\"]`"))),
        }
    })
}

/// `= "<JSON>"`: the string must hold valid JSON.
pub fn json_text(input: ParseStream<'_>, key: &Key) -> syn::Result<Json> {
    let text = string(input, key)?;
    json::parse(&text.value()).map_err(|e| syn::Error::new(text.span(), format!("`{key}` is not valid JSON: {e}")))
}

/// `(...)`: the parenthesised content after a key.
pub fn parens<'a>(input: ParseStream<'a>, key: &Key, example: &str) -> syn::Result<syn::parse::ParseBuffer<'a>> {
    if !input.peek(syn::token::Paren) {
        return Err(syn::Error::new(key.span(), format!("`{key}` takes a list: `{key}({example})`")));
    }
    let content;
    syn::parenthesized!(content in input);
    Ok(content)
}

/// "unknown {what} attribute `key`", with the closest allowed key.
pub fn unknown<'a>(key: &Key, what: &str, allowed: impl IntoIterator<Item = &'a str>) -> syn::Error {
    let name = key.to_string();
    let message = match suggest::closest(&name, allowed) {
        Some(close) => format!("unknown {what} attribute `{name}`; did you mean `{close}`?"),
        None => format!("unknown {what} attribute `{name}`"),
    };
    syn::Error::new(key.span(), message)
}

/// A list of sub-keys (inside `validation(...)`, `printer_column(...)`,
/// ...): each known to `allowed` and written once; `each` gets the key's
/// name from `allowed`. `Ok(false)` when a key was unknown (and reported):
/// the caller then does not also report the keys it misses, since the
/// unknown one was most likely meant to be one of them.
pub fn sub_keys(
    cx: &Ctxt,
    input: ParseStream<'_>,
    what: &str,
    allowed: &[&'static str],
    mut each: impl FnMut(&'static str, &Key, ParseStream<'_>) -> syn::Result<()>,
) -> syn::Result<bool> {
    let mut seen: Vec<&'static str> = Vec::new();
    let mut complete = true;
    parse_list(cx, input, |key, input| {
        let Some(name) = allowed.iter().copied().find(|a| key == a) else {
            complete = false;
            return Err(unknown(key, what, allowed.iter().copied()));
        };
        if seen.contains(&name) {
            return Err(syn::Error::new(key.span(), format!("duplicate {what} attribute `{name}`")));
        }
        seen.push(name);
        each(name, key, input)
    })?;
    Ok(complete)
}

#[cfg(test)]
mod tests {
    use super::go_float;

    #[test]
    fn floats_are_written_as_go_writes_them() {
        assert_eq!(go_float(9223372036854775000.0), "9223372036854775000");
        assert_eq!(go_float(3.0), "3");
        assert_eq!(go_float(0.5), "0.5");
        assert_eq!(go_float(-1.25), "-1.25");
        assert_eq!(go_float(1e21), "1e+21");
        assert_eq!(go_float(1e-7), "1e-7");
        assert_eq!(go_float(-2.5e300), "-2.5e+300");
        assert_eq!(go_float(0.0), "0");
    }
}
