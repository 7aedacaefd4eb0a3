//! What [`crate::merge_crds!`] checks at compile time: the roots are
//! versions of one CRD. The checks are `const fn`s over each root's
//! [`CustomResource`] constants, evaluated in a `const` item of the macro's
//! expansion, so a mistake fails constant evaluation with the reason
//! instead of building a CRD the API server rejects.

use super::CustomResource;

/// A root's [`CustomResource`] constants: what must agree between the
/// versions of one CRD, whether the version is stored, and the short
/// names and categories the CRD takes. Built by [`RootConstants::of`] in
/// `merge_crds!`, and by [`super::CrdManifest::from_versions`].
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct RootConstants {
    pub(super) group: &'static str,
    version: &'static str,
    pub(super) kind: &'static str,
    pub(super) plural: &'static str,
    pub(super) singular: &'static str,
    pub(super) list_kind: &'static str,
    pub(super) scope: &'static str,
    storage: bool,
    pub(super) short_names: &'static [&'static str],
    pub(super) categories: &'static [&'static str],
    pub(super) annotations: &'static [(&'static str, &'static str)],
    pub(super) labels: &'static [(&'static str, &'static str)],
}

impl RootConstants {
    /// The constants of root `R`.
    pub const fn of<R: CustomResource + ?Sized>() -> Self {
        Self {
            group: R::GROUP,
            version: R::VERSION,
            kind: R::KIND,
            plural: R::PLURAL,
            singular: R::SINGULAR,
            list_kind: R::LIST_KIND,
            scope: R::SCOPE,
            storage: R::STORAGE,
            short_names: R::SHORT_NAMES,
            categories: R::CATEGORIES,
            annotations: R::ANNOTATIONS,
            labels: R::LABELS,
        }
    }
}

/// Whether `a` and `b` are the same string, in a constant.
#[doc(hidden)]
pub const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether `a` and `b` are the same list of strings, in a constant.
const fn same_strs(a: &[&str], b: &[&str]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if !str_eq(a[i], b[i]) {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether `a` and `b` hold the same `(key, value)` pairs, in any order
/// (each list's keys are distinct: the derive refuses a repeated key).
const fn same_pairs(a: &[(&str, &str)], b: &[(&str, &str)]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        let mut j = 0;
        while j < b.len() && !(str_eq(a[i].0, b[j].0) && str_eq(a[i].1, b[j].1)) {
            j += 1;
        }
        if j == b.len() {
            return false;
        }
        i += 1;
    }
    true
}

/// What keeps `roots` from being the versions of one CRD, if anything:
/// they need exactly one storage version, distinct version names, and the
/// same group, kind, plural, singular, list kind, short names, categories,
/// scope, annotations and labels everywhere.
/// `merge_crds!` panics with the answer in a constant, so the message
/// points at the macro call.
// The API server requires each of these of a CRD's `spec.versions`; names
// and scope live once in `spec`, annotations and labels once in `metadata`,
// so a version that disagrees could not keep its own.
#[doc(hidden)]
pub const fn check_merge(roots: &[RootConstants]) -> Option<&'static str> {
    let mut storage = 0;
    let mut i = 0;
    while i < roots.len() {
        if roots[i].storage {
            storage += 1;
        }
        if let Some(problem) = disagreement(&roots[0], &roots[i]) {
            return Some(problem);
        }
        let mut j = 0;
        while j < i {
            if str_eq(roots[i].version, roots[j].version) {
                return Some("merge_crds!: two roots have the same version name; each version must appear once");
            }
            j += 1;
        }
        i += 1;
    }
    match storage {
        0 => Some("merge_crds!: no root has `storage = true`; exactly one version must be the storage version"),
        1 => None,
        _ => Some(
            "merge_crds!: more than one root has `storage = true`; exactly one version must be the storage version",
        ),
    }
}

const fn disagreement(first: &RootConstants, other: &RootConstants) -> Option<&'static str> {
    if !str_eq(first.group, other.group) {
        Some("merge_crds!: the roots disagree on `group`; all versions of a CRD have one group")
    } else if !str_eq(first.kind, other.kind) {
        Some("merge_crds!: the roots disagree on `kind`; all versions of a CRD have one kind")
    } else if !str_eq(first.plural, other.plural) {
        Some("merge_crds!: the roots disagree on `plural`; all versions of a CRD have one plural")
    } else if !str_eq(first.singular, other.singular) {
        Some("merge_crds!: the roots disagree on `singular`; all versions of a CRD have one singular")
    } else if !str_eq(first.list_kind, other.list_kind) {
        Some("merge_crds!: the roots disagree on `list_kind`; all versions of a CRD have one list kind")
    } else if !same_strs(first.short_names, other.short_names) {
        Some("merge_crds!: the roots disagree on `short_names`; all versions of a CRD have one list of short names")
    } else if !same_strs(first.categories, other.categories) {
        Some("merge_crds!: the roots disagree on `categories`; all versions of a CRD have one list of categories")
    } else if !str_eq(first.scope, other.scope) {
        Some("merge_crds!: the roots disagree on `scope`; all versions of a CRD have one scope")
    } else if !same_pairs(first.annotations, other.annotations) {
        Some("merge_crds!: the roots disagree on `annotation`s; all versions of a CRD have one set of annotations")
    } else if !same_pairs(first.labels, other.labels) {
        Some("merge_crds!: the roots disagree on `label`s; all versions of a CRD have one set of labels")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn root(version: &'static str, kind: &'static str, storage: bool) -> RootConstants {
        RootConstants {
            group: "example.com",
            version,
            kind,
            plural: "widgets",
            singular: "widget",
            list_kind: "WidgetList",
            scope: "Namespaced",
            storage,
            short_names: &[],
            categories: &[],
            annotations: &[],
            labels: &[],
        }
    }

    #[test]
    fn strings_compare_in_constants() {
        const { assert!(str_eq("abc", "abc")) };
        assert!(!str_eq("abc", "abd"));
        assert!(!str_eq("abc", "ab"));
        assert!(str_eq("", ""));
    }

    fn problem(roots: &[RootConstants]) -> &'static str {
        check_merge(roots).unwrap_or("none")
    }

    #[test]
    fn one_storage_version_of_one_crd_passes() {
        const { assert!(check_merge(&[root("v1", "Widget", true), root("v1beta1", "Widget", false)]).is_none()) };
        assert_eq!(check_merge(&[root("v1", "Widget", true)]), None);
    }

    #[test]
    fn storage_versions_are_counted() {
        let none = problem(&[root("v1", "Widget", false), root("v1beta1", "Widget", false)]);
        assert!(none.contains("no root has `storage = true`"), "{none}");
        let two = problem(&[root("v1", "Widget", true), root("v1beta1", "Widget", true)]);
        assert!(two.contains("more than one root has `storage = true`"), "{two}");
    }

    #[test]
    fn names_and_scope_must_agree() {
        let kind = problem(&[root("v1", "Widget", true), root("v1beta1", "Gadget", false)]);
        assert!(kind.contains("disagree on `kind`"), "{kind}");
        let cluster = RootConstants { scope: "Cluster", ..root("v1beta1", "Widget", false) };
        let scope = problem(&[root("v1", "Widget", true), cluster]);
        assert!(scope.contains("disagree on `scope`"), "{scope}");
        let group = RootConstants { group: "other.com", ..root("v1beta1", "Widget", false) };
        assert!(problem(&[root("v1", "Widget", true), group]).contains("disagree on `group`"));
    }

    #[test]
    fn annotations_and_labels_must_agree_in_any_order() {
        let pairs: &[(&str, &str)] = &[("a", "1"), ("b", "2")];
        let swapped: &[(&str, &str)] = &[("b", "2"), ("a", "1")];
        let stored = RootConstants { annotations: pairs, labels: pairs, ..root("v1", "Widget", true) };
        let same = RootConstants { annotations: swapped, labels: swapped, ..root("v1beta1", "Widget", false) };
        assert_eq!(check_merge(&[stored, same]), None);
        let other_value = RootConstants { annotations: &[("a", "1"), ("b", "3")], ..same };
        assert!(problem(&[stored, other_value]).contains("disagree on `annotation`s"));
        let fewer = RootConstants { labels: &[("a", "1")], ..same };
        assert!(problem(&[stored, fewer]).contains("disagree on `label`s"));
    }

    #[test]
    fn short_names_and_categories_must_agree() {
        let named = RootConstants { short_names: &["wd"], categories: &["all"], ..root("v1", "Widget", true) };
        let same = RootConstants { version: "v1beta1", storage: false, ..named };
        assert_eq!(check_merge(&[named, same]), None);
        let unnamed = RootConstants { short_names: &[], ..same };
        assert!(problem(&[named, unnamed]).contains("disagree on `short_names`"));
        let other = RootConstants { categories: &["other"], ..same };
        assert!(problem(&[named, other]).contains("disagree on `categories`"));
    }

    #[test]
    fn a_repeated_version_is_refused() {
        let repeated = problem(&[root("v1", "Widget", true), root("v1", "Widget", false)]);
        assert!(repeated.contains("the same version name"), "{repeated}");
    }
}
