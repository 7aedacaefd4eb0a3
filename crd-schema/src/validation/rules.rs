//! The placement rules of `x-kubernetes-validations` entries: what can be
//! checked about a rule without compiling it (CEL compilation is in
//! [`super::cel`]).

use super::fieldpath;
use crate::field::{ErrorList, FieldError, Path};
use crate::wire::{JSONSchemaProps, ValidationRule};

/// The `reason`s a rule may give, in Kubernetes' (sorted) order.
const SUPPORTED_REASONS: [&str; 4] =
    ["FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"];

/// Every placement error of the rules of `schema` (at path `p`).
pub(super) fn validate(schema: &JSONSchemaProps, p: &Path) -> ErrorList {
    let rules = schema.x_validations.as_deref().unwrap_or_default();
    let mut errors = ErrorList::new();
    for (i, rule) in rules.iter().enumerate() {
        let r = p.child("x-kubernetes-validations").index(i);
        errors.extend(rule_and_message(rule, &r));
        errors.extend(message_expression(rule, &r));
        errors.extend(reason(rule, &r));
        errors.extend(field_path(schema, rule, &r));
    }
    errors
}

// The first of: a blank `rule` (Required); a non-empty but blank `message`;
// a `message` with a line break after trimming; a `rule` with a line break
// (after trimming) and no message (Required). "Blank" is empty after
// trimming white space; line breaks are `\n` and `\r`.
fn rule_and_message(rule: &ValidationRule, r: &Path) -> Option<FieldError> {
    let trimmed_rule = rule.rule.trim();
    let trimmed_message = rule.message.trim();
    let message = r.child("message");
    if trimmed_rule.is_empty() {
        Some(FieldError::required(&r.child("rule"), "rule is not specified"))
    } else if !rule.message.is_empty() && trimmed_message.is_empty() {
        Some(FieldError::invalid(&message, rule.message.as_str(), "must be non-empty if specified"))
    } else if has_newlines(trimmed_message) {
        Some(FieldError::invalid(&message, rule.message.as_str(), "must not contain line breaks"))
    } else if has_newlines(trimmed_rule) && trimmed_message.is_empty() {
        Some(FieldError::required(&message, "message must be specified if rule contains line breaks"))
    } else {
        None
    }
}

// A non-empty `messageExpression` must not be blank.
fn message_expression(rule: &ValidationRule, r: &Path) -> Option<FieldError> {
    (!rule.message_expression.is_empty() && rule.message_expression.trim().is_empty()).then(|| {
        FieldError::required(&r.child("messageExpression"), "messageExpression must be non-empty if specified")
    })
}

// A `reason`, when given, must be one of the four supported ones.
fn reason(rule: &ValidationRule, r: &Path) -> Option<FieldError> {
    let reason = rule.reason.as_deref()?;
    (!SUPPORTED_REASONS.contains(&reason))
        .then(|| FieldError::not_supported(&r.child("reason"), reason, &SUPPORTED_REASONS))
}

// A non-empty `fieldPath` must not be blank, must not contain line breaks
// (checked untrimmed) and must resolve on this schema (see
// [`fieldpath::is_valid`]). The three checks are independent.
fn field_path(schema: &JSONSchemaProps, rule: &ValidationRule, r: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let fp = rule.field_path.as_str();
    if fp.is_empty() {
        return errors;
    }
    let at = r.child("fieldPath");
    if fp.trim().is_empty() {
        errors.push(FieldError::invalid(&at, fp, "must be non-empty if specified"));
    }
    if has_newlines(fp) {
        errors.push(FieldError::invalid(&at, fp, "must not contain line breaks"));
    }
    if !fieldpath::is_valid(schema, fp) {
        errors.push(FieldError::invalid(&at, fp, "must be a valid path"));
    }
    errors
}

/// Whether `s` contains a line break as CEL knows them.
fn has_newlines(s: &str) -> bool {
    s.contains(['\n', '\r'])
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn errors(rules: serde_json::Value) -> Vec<String> {
        let schema = JSONSchemaProps::from_value(&json!({"type": "object", "properties": {"a": {"type": "string"}},
            "x-kubernetes-validations": rules}))
        .unwrap();
        validate(&schema, &Path::new("s")).iter().map(ToString::to_string).collect()
    }

    #[test]
    fn rule_and_message_rules_stop_at_the_first() {
        assert_eq!(
            errors(
                json!([{"rule": " ", "message": " "}, {"rule": "a", "message": "x\ny"}, {"rule": "a\nb"}, {"rule": "a\nb", "message": "m"}])
            ),
            vec![
                "s.x-kubernetes-validations[0].rule: Required value: rule is not specified",
                "s.x-kubernetes-validations[1].message: Invalid value: \"x\\ny\": must not contain line breaks",
                "s.x-kubernetes-validations[2].message: Required value: message must be specified if rule contains line breaks",
            ]
        );
    }

    #[test]
    fn independent_checks() {
        assert_eq!(
            errors(json!([{"rule": "true", "messageExpression": " ", "reason": "Bad", "fieldPath": " "}])),
            vec![
                "s.x-kubernetes-validations[0].messageExpression: Required value: messageExpression must be non-empty if specified",
                "s.x-kubernetes-validations[0].reason: Unsupported value: \"Bad\": supported values: \"FieldValueDuplicate\", \"FieldValueForbidden\", \"FieldValueInvalid\", \"FieldValueRequired\"",
                "s.x-kubernetes-validations[0].fieldPath: Invalid value: \" \": must be non-empty if specified",
                "s.x-kubernetes-validations[0].fieldPath: Invalid value: \" \": must be a valid path",
            ]
        );
        assert_eq!(
            errors(json!([{"rule": "true", "fieldPath": ".a\n"}])),
            vec![
                "s.x-kubernetes-validations[0].fieldPath: Invalid value: \".a\\n\": must not contain line breaks",
                "s.x-kubernetes-validations[0].fieldPath: Invalid value: \".a\\n\": must be a valid path",
            ]
        );
        assert!(errors(json!([{"rule": "true", "fieldPath": ".a", "reason": "FieldValueForbidden"}])).is_empty());
    }
}
