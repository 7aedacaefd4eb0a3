//! Doc comments as descriptions: the text rustdoc shows, which the derive
//! reads and the generator's doc-comment writer (crd-codegen `emit/doc.rs`)
//! must give back, so the two share the Markdown rules here.

/// The description a doc comment gives: the text as rustdoc shows it,
/// line for line. `raw` is the `#[doc]` lines joined with `\n`, as the
/// derive collects them; each line loses one leading space, and outside
/// code spans and fenced blocks Markdown's backslash escapes (`\[`, `\<`,
/// `1\.`) give their character and autolinks (`<https://...>`) their URL.
/// The whole is trimmed. Line breaks are kept: `kubectl explain` shows them.
pub fn description_from_doc(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut fence: Option<String> = None;
    let mut in_code = false;
    for (i, line) in raw.split('\n').enumerate() {
        let line = line.strip_prefix(' ').unwrap_or(line);
        if i > 0 {
            out.push('\n');
        }
        let trimmed = line.trim_start();
        if let Some(marker) = &fence {
            if trimmed.starts_with(marker.as_str()) && trimmed.trim_start_matches(marker.as_str()).trim().is_empty() {
                fence = None;
            }
            out.push_str(line);
        } else if let Some(marker) = fence_marker(trimmed) {
            fence = Some(marker);
            in_code = false;
            out.push_str(line);
        } else {
            if line.trim().is_empty() {
                in_code = false;
            }
            plain_text(line, &mut in_code, &mut out);
        }
    }
    out.trim().to_owned()
}

/// The fence (three or more backticks or tildes) opening a code block;
/// the generator's doc-comment writer uses the same rule.
pub fn fence_marker(line: &str) -> Option<String> {
    let c = line.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let len = line.chars().take_while(|x| *x == c).count();
    (len >= 3 && !line[len..].contains('`')).then(|| c.to_string().repeat(len))
}

/// One line of Markdown prose as plain text; `in_code` carries a code span
/// across the lines of a paragraph.
fn plain_text(line: &str, in_code: &mut bool, out: &mut String) {
    let mut rest = line;
    loop {
        // Text up to the next backslash, backtick or `<` is copied as it
        // is (all three are ASCII, so the cut is on a character boundary).
        let plain = rest.bytes().position(|b| matches!(b, b'\\' | b'`' | b'<')).unwrap_or(rest.len());
        out.push_str(&rest[..plain]);
        rest = &rest[plain..];
        let Some(c) = rest.chars().next() else { break };
        let mut taken = c.len_utf8();
        match c {
            '\\' if !*in_code => match rest[1..].chars().next() {
                Some(next) if next.is_ascii_punctuation() => {
                    out.push(next);
                    taken = 2;
                }
                _ => out.push(c),
            },
            '`' => {
                *in_code = !*in_code;
                out.push(c);
            }
            '<' if !*in_code => match autolink(rest) {
                Some(url) => {
                    out.push_str(url);
                    taken = url.len() + 2;
                }
                None => out.push(c),
            },
            _ => out.push(c),
        }
        rest = &rest[taken..];
    }
}

/// The URL of an autolink `<https://...>` at the start of `s`; the
/// generator's doc-comment writer keeps exactly these.
pub fn autolink(s: &str) -> Option<&str> {
    let end = s.find('>')?;
    let url = &s[1..end];
    let is_url = url.starts_with("http://") || url.starts_with("https://");
    (is_url && !url.contains(char::is_whitespace) && !url.contains('<')).then_some(url)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doc_lines_become_a_description() {
        assert_eq!(description_from_doc(" A Widget.\n\n More text.\n"), "A Widget.\n\nMore text.");
        assert_eq!(description_from_doc("  indented"), "indented");
        assert_eq!(description_from_doc(""), "");
    }

    #[test]
    fn doc_comments_read_as_the_text_rustdoc_shows() {
        assert_eq!(
            description_from_doc(" See <https://a.io/x>.\n \\[beta\\] \\<b> 1\\. a\\\\b"),
            "See https://a.io/x.\n[beta] <b> 1. a\\b"
        );
        // Not in code spans or fenced blocks; a backslash before a letter stays.
        assert_eq!(description_from_doc(" `\\[x` \\d <http://a b>"), "`\\[x` \\d <http://a b>");
        assert_eq!(description_from_doc(" ```text\n \\[x\\]\n ```\n \\[y\\]"), "```text\n\\[x\\]\n```\n[y]");
        // An escaped backtick opens no code span.
        assert_eq!(description_from_doc(" \\` \\[x\\]"), "` [x]");
        // Wide characters on either side of the marks.
        assert_eq!(description_from_doc(" é\\[ü\\] ß<https://a.io/é>ö"), "é[ü] ßhttps://a.io/éö");
    }
}
