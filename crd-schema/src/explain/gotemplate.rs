//! The Go semantics that the output of kubectl's explain template depends
//! on: template truth, `range` order over maps, `%v`, the template
//! functions `indent` and `resolveRef` (`k8s.io/kubectl/pkg/explain/v2`'s
//! `funcs.go`), and go-wordwrap's `WrapString`.

use serde_json::{Map, Value};

use crate::gofmt;

/// Go template truth: absent, `null`, `false`, `0`, and empty strings,
/// lists and maps are false.
pub(super) fn truthy(value: Option<&Value>) -> bool {
    match value {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_f64().is_some_and(|f| f != 0.0),
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(a)) => !a.is_empty(),
        Some(Value::Object(o)) => !o.is_empty(),
    }
}

/// A map's entries in Go's `range` order: keys sorted bytewise.
pub(super) fn sorted(map: &Map<String, Value>) -> Vec<(&str, &Value)> {
    let mut entries: Vec<(&str, &Value)> = map.iter().map(|(k, v)| (k.as_str(), v)).collect();
    entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
    entries
}

/// Go's `%v` of a value decoded by `encoding/json` into `interface{}`
/// (every number a float64; lists as `[a b]`).
pub(super) fn go_v(value: &Value) -> String {
    gofmt::v(value, gofmt::Numbers::Float64)
}

/// kubectl's `resolveRef`: only local references (`#/a/b`) resolve, by
/// walking the document's objects along the unescaped fragment's non-empty
/// segments.
pub(super) fn resolve_ref<'a>(document: &'a Value, target: &str) -> Option<&'a Value> {
    let fragment = percent_decode(target.strip_prefix('#')?)?;
    if fragment.is_empty() {
        return None;
    }
    let mut current = document.as_object().map(|_| document)?;
    for segment in fragment.split('/').filter(|s| !s.is_empty()) {
        current = current.get(segment).filter(|v| v.is_object())?;
    }
    Some(current)
}

/// Go's URL fragment unescaping: `%XX` sequences decoded, a malformed one
/// (or one that decodes to invalid UTF-8) makes the reference unusable.
fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b == b'%' {
            let hex = bytes.get(i + 1..i + 3)?;
            let hex = std::str::from_utf8(hex).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The template's `indent`: `amount` spaces before the text and after each
/// line break in it.
pub(super) fn indent(amount: usize, text: &str) -> String {
    let pad = " ".repeat(amount);
    format!("{pad}{}", text.replace('\n', &format!("\n{pad}")))
}

/// go-wordwrap's `WrapString` as of v1.0.1, which kubectl uses: lines
/// break at white space only (a no-break space is not one) and never
/// inside a word, so a word longer than the limit stays whole on a line of
/// its own; explicit line breaks stay; white space at a break, or trailing
/// white space that does not fit, is dropped. Widths count characters. A
/// limit of zero or less does not wrap.
pub(super) fn wrap(limit: i64, text: &str) -> String {
    let Ok(limit) = usize::try_from(limit) else {
        return text.to_owned();
    };
    if limit == 0 {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len() + text.len() / 64);
    // The width already on the current line, and the pending white space
    // and word with their widths.
    let mut line = 0;
    let (mut space, mut space_width) = (String::new(), 0);
    let (mut word, mut word_width) = (String::new(), 0);
    for c in text.chars() {
        if c == '\n' {
            if !word.is_empty() || line + space_width <= limit {
                out.push_str(&space);
            }
            out.push_str(&word);
            (space, space_width, word, word_width) = (String::new(), 0, String::new(), 0);
            out.push('\n');
            line = 0;
        } else if c.is_whitespace() && c != '\u{a0}' {
            if space.is_empty() || !word.is_empty() {
                line += space_width + word_width;
                out.push_str(&space);
                out.push_str(&word);
                (space, space_width, word, word_width) = (String::new(), 0, String::new(), 0);
            }
            space.push(c);
            space_width += 1;
        } else {
            word.push(c);
            word_width += 1;
            if line + space_width + word_width > limit && word_width < limit {
                out.push('\n');
                line = 0;
                (space, space_width) = (String::new(), 0);
            }
        }
    }
    if !word.is_empty() || line + space_width <= limit {
        out.push_str(&space);
    }
    out.push_str(&word);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_breaks_at_white_space_only() {
        assert_eq!(wrap(4, "ab"), "ab");
        assert_eq!(wrap(4, "abcdefgh"), "abcdefgh");
        assert_eq!(wrap(4, "ab cd ef"), "ab\ncd\nef");
        assert_eq!(wrap(4, "ab cdefg hijkl"), "ab\ncdefg\nhijkl");
        assert_eq!(wrap(4, "ab cde"), "ab\ncde");
        assert_eq!(wrap(7, "ab cd\u{a0}ef"), "ab\ncd\u{a0}ef");
    }

    #[test]
    fn wrap_keeps_line_breaks_and_drops_spaces_that_do_not_fit() {
        assert_eq!(wrap(4, "ab\nc\t d\n ef"), "ab\nc\t d\n ef");
        assert_eq!(wrap(4, "abc     \nd   ef   "), "abc\nd\nef");
        assert_eq!(wrap(4, "ab cd ef\n"), "ab\ncd\nef\n");
        assert_eq!(wrap(4, "\nab cd\n\n\nef\n"), "\nab\ncd\n\n\nef\n");
        assert_eq!(wrap(4, "é é é é "), "é é\né é ");
        assert_eq!(wrap(0, "a b"), "a b");
        assert_eq!(wrap(-3, "a b"), "a b");
    }

    #[test]
    fn long_urls_go_on_a_line_of_their_own() {
        let text = "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";
        assert_eq!(
            wrap(76, text),
            "Standard object's metadata. More info:\nhttps://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"
        );
    }

    #[test]
    fn references_resolve_locally_only() {
        let doc = serde_json::json!({"components": {"schemas": {"a.b": {"type": "string"}, "e": {}}}});
        assert_eq!(resolve_ref(&doc, "#/components/schemas/a.b"), Some(&serde_json::json!({"type": "string"})));
        assert_eq!(resolve_ref(&doc, "#/components/schemas/a%2Eb"), Some(&serde_json::json!({"type": "string"})));
        assert_eq!(resolve_ref(&doc, "#/components/schemas/x"), None);
        assert_eq!(resolve_ref(&doc, "#/components/schemas/%zz"), None);
        assert_eq!(resolve_ref(&doc, "http://x/y#/components"), None);
        assert_eq!(resolve_ref(&doc, "#"), None);
        assert!(resolve_ref(&doc, "#/").is_some());
    }

    #[test]
    fn values_print_as_go_prints_decoded_json() {
        let value = serde_json::json!([1, 2.5, 1000000, "a b", null, {"k": true}]);
        assert_eq!(go_v(&value), "[1 2.5 1e+06 a b <nil> map[k:true]]");
    }
}
