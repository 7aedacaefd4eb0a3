//! Schema descriptions as doc comments that rustdoc and clippy accept
//! without a warning, rendering as the plain prose `kubectl explain` shows.
//! The emitter writes them; the type space (`typespace/keywords.rs`) reads
//! them as the derive will, to know which descriptions need an attribute.
//!
//! Entry point: [`doc_lines`]. Descriptions are written for `kubectl
//! explain`, not for Markdown, so everything Markdown would reinterpret is
//! neutralised:
//! - `[x]` would be an intra-doc link (broken): brackets are escaped, except
//!   in complete Markdown links `[text](url)` and in code spans;
//! - `<tag>` would be HTML (`invalid_html_tags`): `<` is escaped, except in
//!   autolinks `<https://...>`;
//! - bare URLs (`bare_urls`) become autolinks;
//! - indented lines would be code blocks (doctests!) and list items would
//!   trigger `doc_lazy_continuation`: lines are unindented and list,
//!   heading and quote markers at the start of a line are escaped;
//! - fenced blocks stay code but are marked `text` so they are never
//!   compiled, and an unclosed fence is closed;
//! - a backslash before punctuation is doubled, so it is not an escape;
//! - tabs become spaces (`tabs_in_doc_comments`); a paragraph with an odd
//!   number of backticks has them escaped, so no code span runs wild.
//!
//! Lines are kept as the description breaks them, never wrapped: the derive
//! reads the doc comment back as the text rustdoc shows
//! (`crd_schema::schema::description_from_doc` undoes the escapes and
//! autolinks), so wherever that gives the description again, the doc
//! comment alone carries it and no `#[schema(description)]` is written.

use crd_schema::schema::doc::fence_marker;

/// The lines of the doc comment for `description` (each will be written as
/// `/// <line>`); empty when there is nothing to say.
pub fn doc_lines(description: &str) -> Vec<String> {
    let text: std::borrow::Cow<'_, str> = if description.bytes().any(|b| b == b'\r' || b == b'\t') {
        description.replace("\r\n", "\n").replace(['\r'], "\n").replace('\t', "    ").into()
    } else {
        description.into()
    };
    let mut out: Vec<String> = Vec::new();
    let mut fence: Option<String> = None;
    let mut paragraph: Vec<&str> = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        if let Some(marker) = &fence {
            if trimmed.starts_with(marker.as_str()) && trimmed.trim_start_matches(marker.as_str()).trim().is_empty() {
                out.push(marker.clone());
                fence = None;
            } else {
                out.push(line.trim_end().to_owned());
            }
        } else if let Some(marker) = fence_marker(trimmed) {
            flush(&mut paragraph, &mut out);
            out.push(format!("{marker}text"));
            fence = Some(marker);
        } else if trimmed.trim().is_empty() {
            flush(&mut paragraph, &mut out);
            out.push(String::new());
        } else {
            paragraph.push(trimmed.trim_end());
        }
    }
    flush(&mut paragraph, &mut out);
    if let Some(marker) = fence {
        out.push(marker);
    }
    // No leading, trailing or doubled blank lines.
    out.dedup_by(|a, b| a.is_empty() && b.is_empty());
    while out.last().is_some_and(String::is_empty) {
        out.pop();
    }
    while out.first().is_some_and(String::is_empty) {
        out.remove(0);
    }
    out
}

fn flush(paragraph: &mut Vec<&str>, out: &mut Vec<String>) {
    if paragraph.is_empty() {
        return;
    }
    let ticks = paragraph.iter().map(|l| l.bytes().filter(|&b| b == b'`').count()).sum::<usize>();
    let code_spans = ticks % 2 == 0;
    let mut in_code = false;
    for line in paragraph.drain(..) {
        out.push(escape_line(line, code_spans, &mut in_code));
    }
}

/// Escapes one line of prose; `in_code` carries an open code span across
/// lines of a paragraph.
fn escape_line(line: &str, code_spans: bool, in_code: &mut bool) -> String {
    let mut out = String::with_capacity(line.len() + 8);
    let consumed = if *in_code { 0 } else { escape_block_marker(line, &mut out) };
    escape_inline(&line[consumed..], code_spans, in_code, &mut out);
    out
}

/// A list, heading, quote or table marker, or a thematic break, at the
/// start of a line: writes it escaped (`\-`, `1\.`) and returns how many
/// bytes of `line` it covered.
fn escape_block_marker(line: &str, out: &mut String) -> usize {
    let Some(first) = line.chars().next() else { return 0 };
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    let after = &line[digits..];
    if digits > 0 && (after.starts_with(". ") || after.starts_with(") ") || after == "." || after == ")") {
        // `1.` → `1\.`: the digits are not Markdown, the dot is.
        out.push_str(&line[..digits]);
        out.push('\\');
        out.push_str(&line[digits..=digits]);
        return digits + 1;
    }
    let is_marker = match first {
        '-' | '*' | '+' => line.len() == 1 || line[1..].starts_with(' ') || line.chars().all(|c| c == first),
        '#' | '>' | '=' | '|' => true,
        _ => false,
    };
    if is_marker {
        out.push('\\');
        out.push(first);
        return 1;
    }
    0
}

fn escape_inline(text: &str, code_spans: bool, in_code: &mut bool, out: &mut String) {
    let mut i = 0;
    while i < text.len() {
        let rest = &text[i..];
        // Text up to the next character that may need care is copied as
        // it is: in a code span only a backtick ends it (all are ASCII, so
        // the cut is on a character boundary).
        let plain = if *in_code {
            rest.find('`')
        } else {
            let bytes = rest.as_bytes();
            (0..bytes.len()).find(|&at| match bytes[at] {
                b'`' | b'\\' | b'[' | b']' | b'<' => true,
                // Only a URL's scheme needs care (`bare_url`).
                b'h' => bytes[at..].starts_with(b"http"),
                _ => false,
            })
        };
        let plain = plain.unwrap_or(rest.len());
        if plain > 0 {
            out.push_str(&rest[..plain]);
            i += plain;
            continue;
        }
        let Some(c) = rest.chars().next() else { break };
        if c == '`' {
            out.push_str(if code_spans { "`" } else { "\\`" });
            *in_code = code_spans && !*in_code;
            i += 1;
            continue;
        }
        if *in_code {
            out.push(c);
            i += c.len_utf8();
            continue;
        }
        if c == '\\' && rest[1..].starts_with(|n: char| n.is_ascii_punctuation()) {
            out.push_str("\\\\");
            i += 1;
            continue;
        }
        let prev = text[..i].chars().next_back();
        let taken = match c {
            '[' => match markdown_link(rest) {
                Some(len) => {
                    out.push_str(&rest[..len]);
                    len
                }
                None => {
                    out.push_str("\\[");
                    1
                }
            },
            ']' => {
                out.push_str("\\]");
                1
            }
            '<' => match autolink(rest) {
                Some(len) => {
                    out.push_str(&rest[..len]);
                    len
                }
                None => {
                    out.push_str("\\<");
                    1
                }
            },
            'h' if !prev.is_some_and(|p| p.is_alphanumeric() || p == '/') => match bare_url(rest) {
                Some(len) => {
                    out.push('<');
                    out.push_str(&rest[..len]);
                    out.push('>');
                    len
                }
                None => {
                    out.push('h');
                    1
                }
            },
            _ => {
                out.push(c);
                c.len_utf8()
            }
        };
        i += taken;
    }
}

/// The length of a complete `[text](url)` at the start of `s`, where the
/// text has no brackets and the url no spaces or parentheses.
fn markdown_link(s: &str) -> Option<usize> {
    let close = s.find(']')?;
    let text = &s[1..close];
    if text.is_empty() || text.contains('[') || text.contains('`') || !s[close..].starts_with("](") {
        return None;
    }
    let url_start = close + 2;
    let url_len = s[url_start..].find(')')?;
    let url = &s[url_start..url_start + url_len];
    let is_url = url.starts_with("http://") || url.starts_with("https://");
    (is_url && !url.contains([' ', '(', '<', '>'])).then_some(url_start + url_len + 1)
}

/// The length of an autolink `<https://...>` at the start of `s`.
fn autolink(s: &str) -> Option<usize> {
    crd_schema::schema::doc::autolink(s).map(|url| url.len() + 2)
}

/// The length of a bare URL at the start of `s`, without trailing
/// punctuation (and without a closing parenthesis it did not open).
fn bare_url(s: &str) -> Option<usize> {
    let scheme = ["https://", "http://"].into_iter().find(|p| s.starts_with(p))?;
    let mut len =
        s.find(|c: char| c.is_whitespace() || matches!(c, '<' | '>' | '"' | '`' | '[' | ']')).unwrap_or(s.len());
    loop {
        let url = &s[..len];
        let unbalanced = url.ends_with(')') && url.matches('(').count() < url.matches(')').count();
        if url.ends_with(['.', ',', ';', ':', '!', '?', '\'', '*', '_']) || unbalanced {
            len -= 1;
        } else {
            break;
        }
    }
    (len > scheme.len()).then_some(len)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(s: &str) -> String {
        doc_lines(s).join("\n")
    }

    #[test]
    fn plain_prose_is_kept() {
        assert_eq!(doc("Hello world."), "Hello world.");
        assert_eq!(doc(""), "");
        assert_eq!(doc("  \n \n"), "");
        assert_eq!(doc("a\n\n\n\nb\n"), "a\n\nb");
    }

    #[test]
    fn line_ends_tabs_and_wide_characters_around_marks() {
        assert_eq!(doc("a\r\nb\rc\td"), "a\nb\nc    d");
        assert_eq!(doc("é[x]ü <b>ß http://a.io/é hhttp hat"), "é\\[x\\]ü \\<b>ß <http://a.io/é> hhttp hat");
        assert_eq!(doc("which httpx the"), "which httpx the");
    }

    #[test]
    fn links_and_html_are_escaped() {
        assert_eq!(doc("see [RFC 1234] and [x]"), "see \\[RFC 1234\\] and \\[x\\]");
        assert_eq!(doc("a <b> tag, a->b, x < y"), "a \\<b> tag, a->b, x \\< y");
        assert_eq!(doc("[docs](https://k8s.io/x)"), "[docs](https://k8s.io/x)");
        assert_eq!(doc("keep <https://a.io/x> as is"), "keep <https://a.io/x> as is");
        assert_eq!(doc("`[a]` and `<b>`"), "`[a]` and `<b>`");
    }

    #[test]
    fn bare_urls_become_autolinks() {
        assert_eq!(doc("More info: https://kubernetes.io/docs/x."), "More info: <https://kubernetes.io/docs/x>.");
        assert_eq!(doc("(see http://a.b/c)"), "(see <http://a.b/c>)");
        assert_eq!(doc("https://"), "https://");
        assert_eq!(doc("xhttps://a.b"), "xhttps://a.b");
    }

    #[test]
    fn block_structure_is_flattened() {
        assert_eq!(doc("    indented code"), "indented code");
        assert_eq!(doc("- one\ncontinued\n* two"), "\\- one\ncontinued\n\\* two");
        assert_eq!(doc("1. first\n2) second"), "1\\. first\n2\\) second");
        assert_eq!(doc("# heading\n> quote\n---\n==="), "\\# heading\n\\> quote\n\\---\n\\===");
        assert_eq!(doc("-1 is negative"), "-1 is negative");
        assert_eq!(doc("a\tb"), "a    b");
    }

    #[test]
    fn fences_become_text_blocks() {
        assert_eq!(doc("x:\n```yaml\n  a: [1]\n```\nafter"), "x:\n```text\n  a: [1]\n```\nafter");
        assert_eq!(doc("```\nfn main() {}"), "```text\nfn main() {}\n```");
    }

    #[test]
    fn lines_are_never_wrapped_and_backslashes_stay_literal() {
        let long = format!("{}- not a list {} 1. nor this", "word ".repeat(18), "x".repeat(89));
        assert_eq!(doc_lines(&long), std::slice::from_ref(&long));
        assert_eq!(doc(r"a regex: ^\d+\.\d+$ or \[x"), r"a regex: ^\d+\\.\d+$ or \\\[x");
    }

    #[test]
    fn unbalanced_backticks_are_escaped() {
        assert_eq!(doc("it's `odd [x]"), "it's \\`odd \\[x\\]");
        assert_eq!(doc("`a\nb` [c]"), "`a\nb` \\[c\\]");
    }
}
