//! The one skip list of the conformance runner. Every entry says why the
//! case cannot pass yet; `*` stands for every case of a file.

/// `(file, case name or "*", reason)`.
pub const REASONS: &[(&str, &str, &str)] = &[
    // Whole files whose algorithms land with later issues.
    ("default-validation.json", "*", "default validation lands with the decode pipeline (issue 3)"),
    ("defaulting.json", "*", "defaulting lands with the decode pipeline (issue 3)"),
    ("listtype.json", "*", "list-type validation lands with value validation (issue 6)"),
    ("objectmeta.json", "*", "ObjectMeta coercion lands with the decode pipeline (issue 3)"),
    ("openapi.json", "*", "publishing lands with issue 7"),
    ("prune-nulls.json", "*", "null pruning lands with the decode pipeline (issue 3)"),
    ("pruning.json", "*", "pruning lands with the decode pipeline (issue 3)"),
    ("value-validation.json", "*", "value validation lands with issue 6"),
];

/// The index of the skip entry that covers `name` in `file`, if any.
pub fn lookup(file: &str, name: &str) -> Option<usize> {
    REASONS.iter().position(|(f, n, _)| *f == file && (*n == "*" || *n == name))
}
