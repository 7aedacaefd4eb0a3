//! The structured values of `#[schema]`: `validation(...)` (one
//! `x-kubernetes-validations` entry) and `external_docs(...)`.

use syn::LitStr;
use syn::parse::ParseStream;

use super::parse::{self, Key};
use crate::internals::ctxt::Ctxt;
use crate::internals::json::{Json, Object};

use crd_vocabulary::{EXTERNAL_DOCS_KEYS, REASONS, RULE_KEYS};

/// `validation(rule = "...", ...)`: a rule is required; the entry's keys
/// come out in the API's order whatever order they were written in.
pub fn parse(cx: &Ctxt, input: ParseStream<'_>, key: &Key) -> syn::Result<Json> {
    let content = parse::parens(input, key, "rule = \"...\", message = \"...\"")?;
    let mut strings: Vec<(&str, LitStr)> = Vec::new();
    let mut optional_old_self = None;
    let keys: Vec<&str> = RULE_KEYS.iter().map(|(attr, _)| *attr).collect();
    let complete = parse::sub_keys(cx, &content, "validation", &keys, |name, key, input| {
        match name {
            "optional_old_self" => optional_old_self = Some(parse::boolean(input, key)?),
            "reason" => strings.push((name, parse::one_of(input, key, REASONS)?)),
            _ => strings.push((name, parse::string(input, key)?)),
        }
        Ok(())
    })?;
    if !strings.iter().any(|(name, _)| *name == "rule") {
        if !complete {
            // Reported already; the overlay is never emitted.
            return Ok(Json::Null);
        }
        return Err(syn::Error::new(key.span(), "`validation(...)` needs a CEL rule: `validation(rule = \"...\")`"));
    }
    let mut rule = Object::new();
    for (name, json_key) in RULE_KEYS {
        if let Some((_, value)) = strings.iter().find(|(n, _)| n == name) {
            rule.insert(json_key, Json::String(value.value()));
        } else if let (Some(value), "optional_old_self") = (optional_old_self, *name) {
            rule.insert(json_key, Json::Bool(value));
        }
    }
    Ok(Json::Object(rule))
}

/// `external_docs(url = "...", description = "...")`.
pub fn external_docs(cx: &Ctxt, input: ParseStream<'_>, key: &Key) -> syn::Result<Json> {
    let content = parse::parens(input, key, "url = \"...\", description = \"...\"")?;
    let mut written: Vec<(&str, String)> = Vec::new();
    let keys: Vec<&str> = EXTERNAL_DOCS_KEYS.iter().map(|(attr, _)| *attr).collect();
    let _ = parse::sub_keys(cx, &content, "external_docs", &keys, |name, key, input| {
        written.push((name, parse::string(input, key)?.value()));
        Ok(())
    })?;
    // The keys come out in the API's order (`description`, then `url`).
    let mut docs = Object::new();
    for (name, json_key) in EXTERNAL_DOCS_KEYS {
        if let Some((_, value)) = written.iter().find(|(n, _)| n == name) {
            docs.insert(json_key, Json::String(value.clone()));
        }
    }
    Ok(Json::Object(docs))
}
