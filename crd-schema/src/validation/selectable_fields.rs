//! `selectableFields`, as Go's `ValidateCustomResourceSelectableFields`:
//! each `jsonPath` is a `fieldPath` of `.name` steps (see [`fieldpath`])
//! resolved in the schema it belongs to, outside `metadata`, ending at a
//! string, boolean or integer, and named once; at most 8 distinct fields.
//!
//! [`fieldpath`]: super::fieldpath

use std::collections::BTreeSet;

use super::fieldpath::resolve_field;
use crate::crd::SelectableField;
use crate::field::{BadValue, ErrorList, ErrorType, FieldError, Path, PathElement};
use crate::wire::JSONSchemaProps;

/// The most selectable fields of one version.
pub(super) const MAX_SELECTABLE_FIELDS: usize = 8;

/// The errors of `fields` at `path` against `schema`. With
/// `allow_too_many`, more than [`MAX_SELECTABLE_FIELDS`] is accepted (an
/// update that keeps what the stored CRD already had).
pub(super) fn validate_selectable_fields(
    fields: &[SelectableField],
    schema: &JSONSchemaProps,
    path: &Path,
    allow_too_many: bool,
) -> ErrorList {
    let mut errors = ErrorList::new();
    let mut unique = BTreeSet::new();
    for (i, field) in fields.iter().enumerate() {
        let at = path.index(i).child("jsonPath");
        let json_path = field.json_path.as_str();
        if json_path.is_empty() {
            errors.push(FieldError::required(&at, ""));
            continue;
        }
        let (resolved, found) = match resolve_field(schema, json_path, false) {
            Ok(resolved) => resolved,
            Err(e) => {
                errors.push(FieldError::invalid(&at, json_path, format!("is an invalid path: {e}")));
                continue;
            }
        };
        if matches!(resolved.elements().first(), Some(PathElement::Name(root)) if root == "metadata") {
            errors.push(FieldError::invalid(&at, json_path, "must not point to fields in metadata"));
        }
        if !found.is_some_and(|s| matches!(s.type_.as_str(), "string" | "boolean" | "integer")) {
            let detail = "must point to a field of type string, boolean or integer. Enum string fields and strings \
                          with formats are allowed.";
            errors.push(FieldError::invalid(&at, json_path, detail));
        }
        if !unique.insert(resolved.to_string()) {
            errors.push(FieldError::duplicate(&at, json_path));
        }
    }
    if unique.len() > MAX_SELECTABLE_FIELDS && !allow_too_many {
        let detail = format!("must have at most {MAX_SELECTABLE_FIELDS} items");
        errors.push(FieldError::new(path, ErrorType::TooMany, BadValue::Json(unique.len().into()), detail));
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn texts(paths: &[&str], allow_too_many: bool) -> Vec<String> {
        let schema = JSONSchemaProps::from_value(&json!({"type": "object", "properties": {
            "metadata": {"type": "object", "properties": {"name": {"type": "string"}}},
            "spec": {"type": "object", "properties": {"a": {"type": "string"}, "n": {"type": "number"}}},
            "labels": {"type": "object", "additionalProperties": {"type": "boolean"}}}}))
        .unwrap();
        let fields: Vec<SelectableField> =
            paths.iter().map(|p| SelectableField { json_path: (*p).to_owned() }).collect();
        validate_selectable_fields(&fields, &schema, &Path::new("s"), allow_too_many)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn paths_are_resolved_in_the_schema() {
        assert!(texts(&[".spec.a", ".labels.x"], false).is_empty());
        assert_eq!(
            texts(&["", ".metadata.name", "['spec']", ".spec.n", ".spec.a", ".spec.a"], false),
            [
                "s[0].jsonPath: Required value",
                "s[1].jsonPath: Invalid value: \".metadata.name\": must not point to fields in metadata",
                "s[2].jsonPath: Invalid value: \"['spec']\": is an invalid path: array notation is not allowed",
                "s[3].jsonPath: Invalid value: \".spec.n\": must point to a field of type string, boolean or integer. \
                 Enum string fields and strings with formats are allowed.",
                "s[5].jsonPath: Duplicate value: \".spec.a\"",
            ]
        );
    }

    #[test]
    fn at_most_eight_distinct_fields() {
        let paths = [
            ".labels.a",
            ".labels.b",
            ".labels.c",
            ".labels.d",
            ".labels.e",
            ".labels.f",
            ".labels.g",
            ".labels.h",
            ".labels.i",
        ];
        assert_eq!(texts(&paths, false), ["s: Too many: 9: must have at most 8 items"]);
        assert!(texts(&paths, true).is_empty());
    }
}
