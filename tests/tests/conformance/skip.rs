//! The one skip list of the conformance runner. Every entry says why the
//! case cannot pass yet; `*` stands for every case of a file.

/// `(file, case name or "*", reason)`.
pub const REASONS: &[(&str, &str, &str)] = &[
    // The CEL environment of a given Kubernetes version: before 1.30 CEL keywords (`if`, `namespace`, ...)
    // are not field names. The check of one `validation` block has no compatibility-version option
    // (`ValidationOptions`), so rules compile in the current environment, where `self.if` selects the
    // property `if` and the case's rules 2-18 are valid.
    (
        "crd-schema-validation.json",
        "TestValidateCustomResourceDefinitionValidation/invalid x-kubernetes-validations for escaping (keywords are invalid field names before v1.30)",
        "needs the CEL environment of Kubernetes 1.30 (celCompatibilityVersion), older than ours",
    ),
];

/// The index of the skip entry that covers `name` in `file`, if any.
pub fn lookup(file: &str, name: &str) -> Option<usize> {
    REASONS.iter().position(|(f, n, _)| *f == file && (*n == "*" || *n == name))
}
