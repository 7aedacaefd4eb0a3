//! Property names as CEL identifiers, as `k8s.io/apiserver/pkg/cel.Escape`.
//!
//! A property is reachable from a rule under its escaped name: `__` becomes
//! `__underscores__`, `.` `__dot__`, `-` `__dash__`, `/` `__slash__`, and a
//! name that is a CEL reserved word `__{word}__`. Names that are empty,
//! start with a digit or contain any other character cannot be escaped and
//! are not reachable at all.

/// The words the CEL lexer reserves. A property with one of these names is
/// escaped as `__{word}__`.
pub(crate) const RESERVED: [&str; 21] = [
    "true",
    "false",
    "null",
    "in",
    "as",
    "break",
    "const",
    "continue",
    "else",
    "for",
    "function",
    "if",
    "import",
    "let",
    "loop",
    "package",
    "namespace",
    "return",
    "var",
    "void",
    "while",
];

/// The CEL identifier of property `name`, or `None` when it has none.
pub(crate) fn escape(name: &str) -> Option<String> {
    let first = name.chars().next()?;
    if first.is_ascii_digit() {
        return None;
    }
    if RESERVED.contains(&name) {
        return Some(format!("__{name}__"));
    }
    let mut out = String::with_capacity(name.len());
    let mut rest = name;
    while let Some(c) = rest.chars().next() {
        if let Some(after) = rest.strip_prefix("__") {
            out.push_str("__underscores__");
            rest = after;
            continue;
        }
        match c {
            '.' => out.push_str("__dot__"),
            '-' => out.push_str("__dash__"),
            '/' => out.push_str("__slash__"),
            c if c.is_ascii_alphanumeric() || c == '_' => out.push(c),
            _ => return None,
        }
        rest = &rest[c.len_utf8()..];
    }
    Some(out)
}

/// Whether the CEL field name `field` designates property `name`: its
/// escaped form, or — since Kubernetes 1.30 recognizes keywords as field
/// names — the bare reserved word itself.
///
/// Compared piece by piece, without building the escaped name: rules look
/// fields up on every evaluation.
pub(crate) fn designates(field: &str, name: &str) -> bool {
    if RESERVED.contains(&name) {
        return field == name || field.strip_prefix("__").and_then(|f| f.strip_suffix("__")) == Some(name);
    }
    if name.starts_with(|c: char| c.is_ascii_digit()) || name.is_empty() {
        return false;
    }
    let (mut rest, mut want) = (name, field);
    while let Some(c) = rest.chars().next() {
        let (piece, taken) = if rest.starts_with("__") {
            ("__underscores__", 2)
        } else {
            match c {
                '.' => ("__dot__", 1),
                '-' => ("__dash__", 1),
                '/' => ("__slash__", 1),
                c if c.is_ascii_alphanumeric() || c == '_' => (&rest[..1], 1),
                _ => return false,
            }
        };
        let Some(after) = want.strip_prefix(piece) else { return false };
        (rest, want) = (&rest[taken..], after);
    }
    want.is_empty()
}

/// Whether `field` escapes nothing: the only property it designates is
/// the one of the same name (every escape writes a `__`).
pub(crate) fn is_plain(field: &str) -> bool {
    !field.is_empty()
        && !field.starts_with(|c: char| c.is_ascii_digit())
        && field.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        && !field.contains("__")
        && !RESERVED.contains(&field)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_like_kubernetes() {
        assert_eq!(escape("f/2").as_deref(), Some("f__slash__2"));
        assert_eq!(escape("a.b-c").as_deref(), Some("a__dot__b__dash__c"));
        assert_eq!(escape("a__b").as_deref(), Some("a__underscores__b"));
        assert_eq!(escape("a___b").as_deref(), Some("a__underscores___b"));
        assert_eq!(escape("namespace").as_deref(), Some("__namespace__"));
        assert_eq!(escape("self").as_deref(), Some("self"));
        assert_eq!(escape("f@2"), None);
        assert_eq!(escape("2f"), None);
        assert_eq!(escape(""), None);
    }

    #[test]
    fn keywords_are_field_names() {
        assert!(designates("__if__", "if"));
        assert!(designates("if", "if"));
        assert!(designates("f__slash__2", "f/2"));
        assert!(!designates("f/2", "f/2"));
        assert!(!designates("x", "y"));
    }

    #[test]
    fn designates_agrees_with_escape() {
        let names = ["f/2", "a.b-c", "a__b", "a___b", "namespace", "self", "f@2", "2f", "", "x", "_a", "a_", "é", "if"];
        let fields = names.iter().filter_map(|n| escape(n)).chain(names.iter().map(|n| (*n).to_owned()));
        for field in fields.collect::<Vec<_>>() {
            for name in names {
                let expected = (field == name && RESERVED.contains(&name)) || escape(name).is_some_and(|e| e == field);
                assert_eq!(designates(&field, name), expected, "{field:?} designates {name:?}");
                if is_plain(&field) {
                    assert_eq!(designates(&field, name), field == name, "plain {field:?}, {name:?}");
                }
            }
        }
    }
}
