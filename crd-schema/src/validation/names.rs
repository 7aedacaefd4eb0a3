//! The names of a CRD, as Go's `ValidateCustomResourceDefinitionNames`
//! (for `spec.names` and `status.acceptedNames`) and the names `spec`
//! requires.
//!
//! Every message comes from the DNS-1035 label check; several messages for
//! one value are joined with `,` into one error.

use crate::crd::Names;
use crate::field::{ErrorList, FieldError, Path};
use crate::objectmeta::names::{go_to_lower, is_dns1035_label};

// `spec.names` needs a plural, a singular, a kind and a list kind (the
// accepted names in the status need none).
pub(super) fn required_names(names: &Names, path: &Path) -> ErrorList {
    [("plural", &names.plural), ("singular", &names.singular), ("kind", &names.kind), ("listKind", &names.list_kind)]
        .into_iter()
        .filter(|(_, value)| value.is_empty())
        .map(|(key, _)| FieldError::required(&path.child(key), ""))
        .collect()
}

/// The checks of one set of names at `path`: a non-empty plural or
/// singular is a DNS-1035 label, a non-empty kind or list kind is one once
/// lower-cased, short names and categories are labels, and the list kind
/// differs from the kind.
pub(super) fn validate_names(names: &Names, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    for (key, value) in [("plural", &names.plural), ("singular", &names.singular)] {
        errors.extend(label(&path.child(key), value, true));
    }
    let mixed_case = "may have mixed case, but should otherwise match: ";
    for (key, value) in [("kind", &names.kind), ("listKind", &names.list_kind)] {
        if !value.is_empty() {
            let errs = is_dns1035_label(&go_to_lower(value));
            if !errs.is_empty() {
                errors.push(FieldError::invalid(
                    &path.child(key),
                    value.as_str(),
                    format!("{mixed_case}{}", errs.join(",")),
                ));
            }
        }
    }
    for (i, short) in names.short_names.iter().enumerate() {
        errors.extend(label(&path.child("shortNames").index(i), short, false));
    }
    // Kind and list kind may not be the same, or parsing is ambiguous.
    if !names.kind.is_empty() && names.kind == names.list_kind {
        let detail = "kind and listKind may not be the same";
        errors.push(FieldError::invalid(&path.child("listKind"), names.list_kind.as_str(), detail));
    }
    for (i, category) in names.categories.iter().enumerate() {
        errors.extend(label(&path.child("categories").index(i), category, false));
    }
    errors
}

// A DNS-1035 label check, which `""` passes when `allow_empty`.
fn label(path: &Path, value: &str, allow_empty: bool) -> Option<FieldError> {
    if value.is_empty() && allow_empty {
        return None;
    }
    let errs = is_dns1035_label(value);
    (!errs.is_empty()).then(|| FieldError::invalid(path, value, errs.join(",")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(names: &Names) -> Vec<String> {
        validate_names(names, &Path::new("spec").child("names")).iter().map(ToString::to_string).collect()
    }

    #[test]
    fn kind_equal_to_an_invalid_list_kind_gets_two_errors() {
        let names = Names { kind: "Foo_".into(), list_kind: "Foo_".into(), ..Names::default() };
        let got = texts(&names);
        assert_eq!(got.len(), 3, "{got:#?}");
        assert!(got[0].starts_with("spec.names.kind: Invalid value: \"Foo_\": may have mixed case, but should otherwise match: a DNS-1035 label"));
        assert_eq!(got[2], "spec.names.listKind: Invalid value: \"Foo_\": kind and listKind may not be the same");
    }

    #[test]
    fn empty_short_names_are_labels_too() {
        let names = Names { short_names: vec![String::new()], ..Names::default() };
        assert_eq!(texts(&names).len(), 1);
        assert!(required_names(&Names::default(), &Path::new("n")).len() == 4);
    }
}
