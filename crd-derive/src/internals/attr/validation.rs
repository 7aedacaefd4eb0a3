//! The structured values of `#[schema]`: `validation(...)` (one
//! `x-kubernetes-validations` entry) and `external_docs(...)`.

use syn::LitStr;
use syn::parse::ParseStream;

use super::parse::{self, Key};
use crate::internals::ctxt::Ctxt;
use crate::internals::json::{Json, Object};

const RULE_KEYS: &[&str] = &["rule", "message", "message_expression", "reason", "field_path", "optional_old_self"];

/// The reasons the API server accepts in a validation rule.
const REASONS: &[&str] = &["FieldValueInvalid", "FieldValueForbidden", "FieldValueRequired", "FieldValueDuplicate"];

/// `validation(rule = "...", ...)`: a rule is required; the entry's keys
/// come out in the API's order whatever order they were written in.
pub fn parse(cx: &Ctxt, input: ParseStream<'_>, key: &Key) -> syn::Result<Json> {
    let content = parse::parens(input, key, "rule = \"...\", message = \"...\"")?;
    let mut strings: Vec<(&str, LitStr)> = Vec::new();
    let mut optional_old_self = None;
    let complete = parse::sub_keys(cx, &content, "validation", RULE_KEYS, |name, key, input| {
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
    for (name, json_key) in [
        ("rule", "rule"),
        ("message", "message"),
        ("message_expression", "messageExpression"),
        ("reason", "reason"),
        ("field_path", "fieldPath"),
    ] {
        if let Some((_, value)) = strings.iter().find(|(n, _)| *n == name) {
            rule.insert(json_key, Json::String(value.value()));
        }
    }
    if let Some(value) = optional_old_self {
        rule.insert("optionalOldSelf", Json::Bool(value));
    }
    Ok(Json::Object(rule))
}

/// `external_docs(url = "...", description = "...")`.
pub fn external_docs(cx: &Ctxt, input: ParseStream<'_>, key: &Key) -> syn::Result<Json> {
    let content = parse::parens(input, key, "url = \"...\", description = \"...\"")?;
    let mut description = None;
    let mut url = None;
    let _ = parse::sub_keys(cx, &content, "external_docs", &["url", "description"], |name, key, input| {
        let value = parse::string(input, key)?.value();
        match name {
            "url" => url = Some(value),
            _ => description = Some(value),
        }
        Ok(())
    })?;
    let mut docs = Object::new();
    if let Some(description) = description {
        docs.insert("description", Json::String(description));
    }
    if let Some(url) = url {
        docs.insert("url", Json::String(url));
    }
    Ok(Json::Object(docs))
}
