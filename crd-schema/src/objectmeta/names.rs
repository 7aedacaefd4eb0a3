//! The name checks of `k8s.io/apimachinery` that ObjectMeta validation uses:
//! `util/validation` (`IsQualifiedName`, `IsValidLabelValue`,
//! `IsDNS1123Label`, `IsDNS1123Subdomain`, `IsDNS1035Label`), the path
//! segment checks of `api/validation/path`, and
//! `runtime/schema.ParseGroupVersion`.
//!
//! Every check returns the list of Kubernetes' messages (empty when the value
//! is valid); the caller wraps them into field errors. Lengths are byte
//! lengths and the patterns are ASCII-only, as in Go, so any non-ASCII byte
//! fails a pattern.
use std::borrow::Cow;

const DNS1123_LABEL_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_LABEL_MSG: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', \
     and must start and end with an alphanumeric character";
const DNS1123_LABEL_MAX: usize = 63;

const DNS1123_SUBDOMAIN_FMT: &str = r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const DNS1123_SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric \
     characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_MAX: usize = 253;

const DNS1035_LABEL_FMT: &str = "[a-z]([-a-z0-9]*[a-z0-9])?";
const DNS1035_LABEL_MSG: &str = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', \
     start with an alphabetic character, and end with an alphanumeric character";
const DNS1035_LABEL_MAX: usize = 63;

const LABEL_KEY_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const LABEL_KEY_MSG: &str =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_KEY_MAX: usize = 63;

const LABEL_VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
const LABEL_VALUE_MSG: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' \
     or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_MAX: usize = 63;

/// `MaxLenError`: `must be no more than <n> characters`.
pub fn max_len_error(length: usize) -> String {
    format!("must be no more than {length} characters")
}

/// `EmptyError`: `must be non-empty`.
pub fn empty_error() -> &'static str {
    "must be non-empty"
}

/// `RegexError`: the message, the examples and the pattern, with Go's odd
/// spacing (`(e.g. 'a',  or 'b', regex used for validation is '...')`).
pub fn regex_error(msg: &str, fmt: &str, examples: &[&str]) -> String {
    if examples.is_empty() {
        return format!("{msg} (regex used for validation is '{fmt}')");
    }
    let mut out = format!("{msg} (e.g. ");
    for (i, example) in examples.iter().enumerate() {
        if i > 0 {
            out.push_str(" or ");
        }
        out.push('\'');
        out.push_str(example);
        out.push_str("', ");
    }
    out.push_str("regex used for validation is '");
    out.push_str(fmt);
    out.push_str("')");
    out
}

// A name of the shape `first (middle* last)?`: one byte must satisfy both
// `first` and `last`; longer names need `first`, `last` at the ends and
// `middle` in between. This is every pattern used here.
fn matches_name(b: &[u8], first: fn(u8) -> bool, middle: fn(u8) -> bool, last: fn(u8) -> bool) -> bool {
    match b {
        [] => false,
        [only] => first(*only) && last(*only),
        [head, inner @ .., tail] => first(*head) && last(*tail) && inner.iter().all(|c| middle(*c)),
    }
}

fn lower_alnum(c: u8) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit()
}

fn lower_alnum_dash(c: u8) -> bool {
    lower_alnum(c) || c == b'-'
}

fn alnum(c: u8) -> bool {
    c.is_ascii_alphanumeric()
}

fn label_key_middle(c: u8) -> bool {
    alnum(c) || matches!(c, b'-' | b'_' | b'.')
}

fn is_dns1123_label_bytes(b: &[u8]) -> bool {
    matches_name(b, lower_alnum, lower_alnum_dash, lower_alnum)
}

// The subdomain pattern is one or more DNS-1123 labels joined by dots.
fn is_dns1123_subdomain_bytes(b: &[u8]) -> bool {
    b.split(|c| *c == b'.').all(is_dns1123_label_bytes)
}

fn is_label_key_name(b: &[u8]) -> bool {
    matches_name(b, alnum, label_key_middle, alnum)
}

/// `IsDNS1123Label`: at most 63 bytes of `[a-z0-9]([-a-z0-9]*[a-z0-9])?`; a
/// value that is a valid subdomain instead gets `must not contain dots`.
pub fn is_dns1123_label(value: &str) -> Vec<String> {
    let b = value.as_bytes();
    let mut errs = Vec::new();
    if b.len() > DNS1123_LABEL_MAX {
        errs.push(max_len_error(DNS1123_LABEL_MAX));
    }
    if !is_dns1123_label_bytes(b) {
        if is_dns1123_subdomain_bytes(b) {
            errs.push("must not contain dots".to_owned());
        } else {
            errs.push(regex_error(DNS1123_LABEL_MSG, DNS1123_LABEL_FMT, &["my-name", "123-abc"]));
        }
    }
    errs
}

/// `IsDNS1123Subdomain`: at most 253 bytes of dot-separated DNS-1123 labels.
pub fn is_dns1123_subdomain(value: &str) -> Vec<String> {
    let b = value.as_bytes();
    let mut errs = Vec::new();
    if b.len() > DNS1123_SUBDOMAIN_MAX {
        errs.push(max_len_error(DNS1123_SUBDOMAIN_MAX));
    }
    if !is_dns1123_subdomain_bytes(b) {
        errs.push(regex_error(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, &["example.com"]));
    }
    errs
}

/// `IsDNS1035Label`: at most 63 bytes of `[a-z]([-a-z0-9]*[a-z0-9])?`.
pub fn is_dns1035_label(value: &str) -> Vec<String> {
    let b = value.as_bytes();
    let mut errs = Vec::new();
    if b.len() > DNS1035_LABEL_MAX {
        errs.push(max_len_error(DNS1035_LABEL_MAX));
    }
    if !matches_name(b, |c| c.is_ascii_lowercase(), lower_alnum_dash, lower_alnum) {
        errs.push(regex_error(DNS1035_LABEL_MSG, DNS1035_LABEL_FMT, &["my-name", "abc-123"]));
    }
    errs
}

/// `IsQualifiedName` (`content.IsLabelKey`): an optional DNS-1123 subdomain
/// prefix and `/`, then a name of at most 63 bytes that starts and ends
/// alphanumeric. A second `/` is one error for the whole value.
pub fn is_qualified_name(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let name = match value.split_once('/') {
        None => value,
        Some((_, suffix)) if suffix.contains('/') => {
            errs.push(format!(
                "a valid label key {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(LABEL_KEY_MSG, LABEL_KEY_FMT, &["MyName", "my.name", "123-abc"])
            ));
            return errs;
        }
        Some((prefix, suffix)) => {
            if prefix.is_empty() {
                errs.push(format!("prefix part {}", empty_error()));
            } else {
                errs.extend(is_dns1123_subdomain(prefix).into_iter().map(|m| format!("prefix part {m}")));
            }
            suffix
        }
    };
    if name.is_empty() {
        errs.push(format!("name part {}", empty_error()));
    } else if name.len() > LABEL_KEY_MAX {
        errs.push(format!("name part {}", max_len_error(LABEL_KEY_MAX)));
    }
    if !is_label_key_name(name.as_bytes()) {
        errs.push(format!(
            "name part {}",
            regex_error(LABEL_KEY_MSG, LABEL_KEY_FMT, &["MyName", "my.name", "123-abc"])
        ));
    }
    errs
}

/// `IsValidLabelValue`: empty, or at most 63 bytes shaped like a label key
/// name.
pub fn is_valid_label_value(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > LABEL_VALUE_MAX {
        errs.push(max_len_error(LABEL_VALUE_MAX));
    }
    if !value.is_empty() && !is_label_key_name(value.as_bytes()) {
        errs.push(regex_error(LABEL_VALUE_MSG, LABEL_VALUE_FMT, &["MyValue", "my_value", "12345"]));
    }
    errs
}

/// `NameIsDNSSubdomain`: a DNS-1123 subdomain; a generated name's prefix
/// may end in a dash.
pub fn name_is_dns_subdomain(name: &str, prefix: bool) -> Vec<String> {
    let name = if prefix { name.strip_suffix('-').map(|n| format!("{n}a")) } else { None }.unwrap_or(name.to_owned());
    is_dns1123_subdomain(&name)
}

/// `path.ValidatePathSegmentName`: a name may not be `.` or `..` (that is
/// the only error then) and may contain neither `/` nor `%`; a prefix
/// (`generateName`) is only checked for the characters.
pub fn validate_path_segment_name(name: &str, prefix: bool) -> Vec<String> {
    if !prefix {
        for illegal in [".", ".."] {
            if name == illegal {
                return vec![format!("may not be '{illegal}'")];
            }
        }
    }
    ["/", "%"]
        .iter()
        .filter(|illegal| name.contains(*illegal))
        .map(|illegal| format!("may not contain '{illegal}'"))
        .collect()
}

/// `ValidateNamespaceName` for a full name: a DNS-1123 label.
pub fn validate_namespace_name(name: &str) -> Vec<String> {
    is_dns1123_label(name)
}

/// Why [`parse_group_version`] failed, with `schema.ParseGroupVersion`'s
/// text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GroupVersionError {
    /// More than one `/`.
    #[error("unexpected GroupVersion string: {group_version}")]
    Unexpected {
        /// The string parsed.
        group_version: String,
    },
}

/// `schema.ParseGroupVersion`: `""` and `"/"` are the empty group version,
/// no `/` is a core version, one `/` splits group and version, more is an
/// error. Returns `(group, version)`.
pub fn parse_group_version(gv: &str) -> Result<(String, String), GroupVersionError> {
    if gv.is_empty() || gv == "/" {
        return Ok((String::new(), String::new()));
    }
    match gv.matches('/').count() {
        0 => Ok((String::new(), gv.to_owned())),
        1 => {
            let (group, version) = gv.split_once('/').unwrap_or((gv, ""));
            Ok((group.to_owned(), version.to_owned()))
        }
        _ => Err(GroupVersionError::Unexpected { group_version: gv.to_owned() }),
    }
}

/// Go's `strings.ToLower`: the simple per-rune lower-case mapping. It
/// differs from Rust's full mapping only for `İ` (Go: `i`), which matters
/// for byte lengths.
/// Borrowed when nothing changes, which is the common case of ASCII
/// text without capitals.
pub fn go_to_lower(s: &str) -> Cow<'_, str> {
    if s.is_ascii() {
        if s.bytes().any(|b| b.is_ascii_uppercase()) {
            return Cow::Owned(s.to_ascii_lowercase());
        }
        return Cow::Borrowed(s);
    }
    let mut lower = String::with_capacity(s.len());
    for c in s.chars() {
        if c == '\u{130}' {
            lower.push('i');
        } else {
            lower.extend(c.to_lowercase());
        }
    }
    Cow::Owned(lower)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dns1035_message_is_exact() {
        assert_eq!(
            is_dns1035_label("foo.bar-com"),
            vec![
                "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an \
                 alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', \
                 regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"
            ]
        );
        assert!(is_dns1035_label("a").is_empty());
        assert!(!is_dns1035_label("1a").is_empty());
        assert_eq!(is_dns1035_label(&"a".repeat(64))[0], "must be no more than 63 characters");
    }

    #[test]
    fn dns1123_label_and_subdomain() {
        assert!(is_dns1123_label("kube-system").is_empty());
        assert!(is_dns1123_label("1").is_empty());
        assert_eq!(is_dns1123_label("a.b"), vec!["must not contain dots"]);
        assert_eq!(is_dns1123_label("$$$").len(), 1);
        assert!(is_dns1123_label("$$$")[0].starts_with("a lowercase RFC 1123 label must consist"));
        assert!(is_dns1123_label("a-").len() == 1);
        assert!(is_dns1123_subdomain("example.com").is_empty());
        assert_eq!(is_dns1123_subdomain("a..b").len(), 1);
        assert_eq!(is_dns1123_subdomain("").len(), 1);
    }

    #[test]
    fn qualified_names() {
        assert!(is_qualified_name("example.com/MyName").is_empty());
        assert!(is_qualified_name("a").is_empty());
        assert_eq!(is_qualified_name("#").len(), 1);
        assert!(is_qualified_name("#")[0].starts_with("name part must consist of alphanumeric"));
        assert_eq!(is_qualified_name("/a"), vec!["prefix part must be non-empty"]);
        assert_eq!(is_qualified_name("a/").len(), 2);
        assert!(is_qualified_name("a/b/c")[0].starts_with("a valid label key must consist"));
        assert_eq!(is_qualified_name(&"a".repeat(64))[0], "name part must be no more than 63 characters");
        assert!(is_qualified_name("Ex.com/a")[0].starts_with("prefix part a lowercase RFC 1123 subdomain"));
        assert_eq!(is_qualified_name("é").len(), 1);
    }

    #[test]
    fn label_values() {
        assert!(is_valid_label_value("").is_empty());
        assert!(is_valid_label_value("my_value").is_empty());
        assert_eq!(is_valid_label_value("#").len(), 1);
        assert_eq!(is_valid_label_value(&"-".repeat(64)).len(), 2);
    }

    #[test]
    fn path_segments() {
        assert_eq!(validate_path_segment_name("..", false), vec!["may not be '..'"]);
        assert_eq!(validate_path_segment_name(".", false), vec!["may not be '.'"]);
        assert_eq!(validate_path_segment_name("..", true), Vec::<String>::new());
        assert_eq!(validate_path_segment_name("a/%", false), vec!["may not contain '/'", "may not contain '%'"]);
        assert_eq!(validate_path_segment_name("a/", true), vec!["may not contain '/'"]);
    }

    #[test]
    fn group_versions() {
        assert_eq!(parse_group_version("/"), Ok((String::new(), String::new())));
        assert_eq!(parse_group_version("v1"), Ok((String::new(), "v1".to_owned())));
        assert_eq!(parse_group_version("group/"), Ok(("group".to_owned(), String::new())));
        assert_eq!(
            parse_group_version("a/b/c").map_err(|e| e.to_string()),
            Err("unexpected GroupVersion string: a/b/c".to_owned())
        );
    }

    #[test]
    fn lower_casing_like_go() {
        assert_eq!(go_to_lower("MixedCase"), "mixedcase");
        assert_eq!(go_to_lower("\u{130}"), "i");
        assert_eq!(go_to_lower("Ünïcode \u{130}X"), "ünïcode ix");
        assert!(matches!(go_to_lower("lower.case/key"), Cow::Borrowed("lower.case/key")));
    }
}
