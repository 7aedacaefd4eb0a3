//! `email`: Go's `net/mail.ParseAddress` succeeding (RFC 5322 with Go's
//! leniencies: a display name, an angle address, comments, a group holding
//! exactly one address, RFC 2047 encoded words, RFC 6532 UTF-8).

use super::net::is_ip_strict;

/// Whether Go's `mail.ParseAddress` accepts `s` (with a non-empty address).
pub(super) fn is_email(s: &str) -> bool {
    let mut p = Parser { s };
    let Some(count) = p.address(true) else { return false };
    p.skip_cfws() && p.s.is_empty() && count == 1
}

struct Parser<'a> {
    s: &'a str,
}

// RFC 5322 character classes as Go defines them; non-ASCII counts as
// visible (RFC 6532).
fn is_vchar(c: char) -> bool {
    ('!'..='~').contains(&c) || !c.is_ascii()
}

fn is_atext(c: char, dot: bool) -> bool {
    match c {
        '.' => dot,
        '(' | ')' | '<' | '>' | '[' | ']' | ':' | ';' | '@' | '\\' | ',' | '"' => false,
        _ => is_vchar(c),
    }
}

fn is_qtext(c: char) -> bool {
    c != '\\' && c != '"' && is_vchar(c)
}

fn is_wsp(c: char) -> bool {
    c == ' ' || c == '\t'
}

fn is_dtext(c: char) -> bool {
    c != '[' && c != ']' && c != '\\' && is_vchar(c)
}

impl Parser<'_> {
    fn skip_space(&mut self) {
        self.s = self.s.trim_start_matches([' ', '\t']);
    }

    fn consume(&mut self, c: char) -> bool {
        match self.s.strip_prefix(c) {
            Some(rest) => {
                self.s = rest;
                true
            }
            None => false,
        }
    }

    fn peek(&self) -> Option<char> {
        self.s.chars().next()
    }

    // `address`: an addr-spec (optionally followed by a comment), or a
    // display name and then a group or an angle address. The number of
    // addresses on success.
    fn address(&mut self, handle_group: bool) -> Option<usize> {
        self.skip_space();
        if self.s.is_empty() {
            return None;
        }
        if self.addr_spec() {
            self.skip_space();
            if self.peek() == Some('(') {
                self.display_name_comment()?;
            }
            return Some(1);
        }
        if self.peek() != Some('<') {
            self.phrase()?;
        }
        self.skip_space();
        if handle_group && self.consume(':') {
            return self.group_list();
        }
        if !self.consume('<') || !self.addr_spec() || !self.consume('>') {
            return None;
        }
        Some(1)
    }

    // A group: addresses separated by commas, ended by `;`.
    fn group_list(&mut self) -> Option<usize> {
        self.skip_space();
        if self.consume(';') {
            return self.skip_cfws().then_some(0);
        }
        let mut count = 0;
        loop {
            self.skip_space();
            count += self.address(false)?;
            if !self.skip_cfws() {
                return None;
            }
            if self.consume(';') {
                return self.skip_cfws().then_some(count);
            }
            if !self.consume(',') {
                return None;
            }
        }
    }

    // `local-part@domain`; on failure nothing is consumed.
    fn addr_spec(&mut self) -> bool {
        let saved = self.s;
        let ok = self.addr_spec_inner();
        if !ok {
            self.s = saved;
        }
        ok
    }

    fn addr_spec_inner(&mut self) -> bool {
        self.skip_space();
        let local_ok = match self.peek() {
            None => false,
            Some('"') => self.quoted_string().is_some_and(|q| !q.is_empty()),
            Some(_) => self.atom(true, false).is_some(),
        };
        if !local_ok || !self.consume('@') {
            return false;
        }
        self.skip_space();
        match self.peek() {
            None => false,
            Some('[') => self.domain_literal(),
            Some(_) => self.atom(true, false).is_some(),
        }
    }

    // A phrase: words (atoms, permissively dotted, or quoted strings); an
    // error after the first word ends it quietly.
    fn phrase(&mut self) -> Option<()> {
        let mut words = 0;
        loop {
            if words > 0 && !self.skip_cfws() {
                return None;
            }
            self.skip_space();
            if self.s.is_empty() {
                break;
            }
            let ok = if self.peek() == Some('"') {
                self.quoted_string().is_some()
            } else {
                self.atom(true, true).is_some_and(|word| !has_unknown_charset(word))
            };
            if !ok {
                break;
            }
            words += 1;
        }
        (words > 0).then_some(())
    }

    fn quoted_string(&mut self) -> Option<String> {
        let mut out = String::new();
        let mut escaped = false;
        let mut chars = self.s.char_indices().skip(1);
        loop {
            let (i, c) = chars.next()?;
            if escaped {
                if !is_vchar(c) && !is_wsp(c) {
                    return None;
                }
                out.push(c);
                escaped = false;
            } else if is_qtext(c) || is_wsp(c) {
                out.push(c);
            } else if c == '"' {
                self.s = &self.s[i + 1..];
                return Some(out);
            } else if c == '\\' {
                escaped = true;
            } else {
                return None;
            }
        }
    }

    // An atom (with dots when `dot`); unless `permissive`, no leading,
    // trailing or double dots.
    fn atom(&mut self, dot: bool, permissive: bool) -> Option<&str> {
        let len: usize = self.s.chars().take_while(|&c| is_atext(c, dot)).map(char::len_utf8).sum();
        if len == 0 {
            return None;
        }
        let (atom, rest) = self.s.split_at(len);
        if !permissive && (atom.starts_with('.') || atom.ends_with('.') || atom.contains("..")) {
            return None;
        }
        self.s = rest;
        Some(atom)
    }

    // `[dtext]` holding an IP address.
    fn domain_literal(&mut self) -> bool {
        if !self.consume('[') {
            return false;
        }
        let len: usize = self.s.chars().take_while(|&c| c != ']' && is_dtext(c)).map(char::len_utf8).sum();
        let (text, rest) = self.s.split_at(len);
        self.s = rest;
        self.consume(']') && is_ip_strict(text)
    }

    // A comment after an addr-spec; its encoded words must use known
    // character sets.
    fn display_name_comment(&mut self) -> Option<()> {
        if !self.consume('(') {
            return None;
        }
        let comment = self.comment()?;
        let unknown = comment.split([' ', '\t']).any(|w| !w.is_empty() && has_unknown_charset(w));
        (!unknown).then_some(())
    }

    // After `(`: up to the matching `)`, with `\` quoting one byte.
    fn comment(&mut self) -> Option<String> {
        let mut depth = 1;
        let mut text = Vec::new();
        let mut bytes = self.s.as_bytes();
        while !bytes.is_empty() && depth > 0 {
            if bytes[0] == b'\\' && bytes.len() > 1 {
                bytes = &bytes[1..];
            } else if bytes[0] == b'(' {
                depth += 1;
            } else if bytes[0] == b')' {
                depth -= 1;
            }
            if depth > 0 {
                text.push(bytes[0]);
            }
            bytes = &bytes[1..];
        }
        let consumed = self.s.len() - bytes.len();
        self.s = self.s.get(consumed..).unwrap_or("");
        // Only ASCII backslashes and parentheses were dropped: still UTF-8.
        (depth == 0).then(|| String::from_utf8_lossy(&text).into_owned())
    }

    // Comments and white space; `false` for an unclosed comment.
    fn skip_cfws(&mut self) -> bool {
        self.skip_space();
        while self.consume('(') {
            if self.comment().is_none() {
                return false;
            }
            self.skip_space();
        }
        true
    }
}

// An RFC 2047 encoded word (`=?charset?q?text?=`) that decodes but names a
// character set Go cannot convert (only UTF-8, ISO-8859-1 and US-ASCII).
fn has_unknown_charset(word: &str) -> bool {
    if word.len() < 8 || !word.starts_with("=?") || !word.ends_with("?=") || word.matches('?').count() != 4 {
        return false;
    }
    let inner = &word[2..word.len() - 2];
    let mut parts = inner.splitn(3, '?');
    let (Some(charset), Some(encoding), Some(text)) = (parts.next(), parts.next(), parts.next()) else { return false };
    if charset.is_empty() || encoding.len() != 1 || !decodes(encoding, text) {
        return false;
    }
    !["utf-8", "iso-8859-1", "us-ascii"].iter().any(|known| known.eq_ignore_ascii_case(charset))
}

// Whether the encoded text decodes (`B`: standard base64, `Q`: quoted
// printable with `_`).
fn decodes(encoding: &str, text: &str) -> bool {
    match encoding {
        "B" | "b" => base64_decodes(text),
        "Q" | "q" => {
            let b = text.as_bytes();
            let mut i = 0;
            while i < b.len() {
                match b[i] {
                    b'=' => {
                        if i + 2 >= b.len() || !b[i + 1].is_ascii_hexdigit() || !b[i + 2].is_ascii_hexdigit() {
                            return false;
                        }
                        i += 2;
                    }
                    b'_' | b' '..=b'~' | b'\n' | b'\r' | b'\t' => {}
                    _ => return false,
                }
                i += 1;
            }
            true
        }
        _ => false,
    }
}

// Go's `base64.StdEncoding.DecodeString` succeeding.
fn base64_decodes(text: &str) -> bool {
    let b = text.as_bytes();
    let data = b.iter().take_while(|c| c.is_ascii_alphanumeric() || **c == b'+' || **c == b'/').count();
    let padding = &b[data..];
    match b.len() % 4 {
        0 => padding.is_empty() || ((padding == b"=" && data % 4 == 3) || (padding == b"==" && data % 4 == 2)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses() {
        for ok in [
            "joe@example.com",
            "Joe Doe <joe@example.com>",
            "\"Joe Doe\" <joe@example.com>",
            "\"quoted local\"@example.com",
            "joe@[192.168.0.1]",
            "joe@example.com (comment)",
            "group: joe@example.com;",
            "<joe@example.com>",
            "=?utf-8?q?J=C3=B6rg?= <j@example.com>",
            "ü@例え.jp",
        ] {
            assert!(is_email(ok), "{ok}");
        }
        for bad in [
            "",
            "joe",
            "joe@",
            "@example.com",
            "joe@@example.com",
            ".joe@example.com",
            "joe..x@example.com",
            "joe@[300.0.0.1]",
            "Joe <joe@example.com",
            "group: a@b.c, d@e.f;",
            "group:;",
            "a@b.c d@e.f",
            "=?x-unknown?q?abc?= <j@example.com>",
            "\"\"@example.com",
            "joe@example.com (unclosed",
        ] {
            assert!(!is_email(bad), "{bad}");
        }
    }

    #[test]
    fn encoded_words() {
        assert!(has_unknown_charset("=?koi8-r?b?YWJj?="));
        assert!(!has_unknown_charset("=?koi8-r?b?YWJ?="));
        assert!(!has_unknown_charset("=?UTF-8?Q?a_b?="));
    }
}
