//! `uri`: Go's `url.ParseRequestURI` succeeding (an absolute URI or an
//! absolute path, as received in an HTTP request).

// The parts of a URL whose `%` escapes are checked differently.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Path,
    UserPassword,
    Host,
    Zone,
}

/// Whether Go's `url.ParseRequestURI` accepts `raw`.
pub(super) fn is_request_uri(raw: &str) -> bool {
    // No control characters, not empty; `*` is the one path without `/`.
    if raw.is_empty() || raw.bytes().any(|b| b < 0x20 || b == 0x7f) {
        return false;
    }
    if raw == "*" {
        return true;
    }
    let Some((scheme, rest)) = scheme(raw) else { return false };
    // The query is cut off (unchecked); a single trailing `?` is a forced
    // empty query.
    let rest = if rest.ends_with('?') && rest.matches('?').count() == 1 {
        &rest[..rest.len() - 1]
    } else {
        rest.split_once('?').map_or(rest, |(before, _)| before)
    };
    if !rest.starts_with('/') {
        // Rootless: opaque with a scheme, otherwise not a request URI.
        return !scheme.is_empty();
    }
    let mut path = rest;
    if !scheme.is_empty()
        && let Some(after) = rest.strip_prefix("//")
    {
        let (authority, tail) = after.find('/').map_or((after, ""), |i| after.split_at(i));
        if !authority_ok(authority) {
            return false;
        }
        path = tail;
    }
    unescape_ok(path, Mode::Path)
}

// Go's `getScheme`: letters, then letters, digits, `+`, `-`, `.` up to a
// `:`. `None` for a leading `:` (missing scheme); an empty scheme when
// there is none.
fn scheme(raw: &str) -> Option<(&str, &str)> {
    for (i, c) in raw.bytes().enumerate() {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' if i > 0 => {}
            b':' if i == 0 => return None,
            b':' => return Some((&raw[..i], &raw[i + 1..])),
            _ => return Some(("", raw)),
        }
    }
    Some(("", raw))
}

// Go's `parseAuthority`: `[userinfo@]host[:port]`.
fn authority_ok(authority: &str) -> bool {
    let (userinfo, host) = match authority.rfind('@') {
        Some(i) => (Some(&authority[..i]), &authority[i + 1..]),
        None => (None, authority),
    };
    if !host_ok(host) {
        return false;
    }
    let Some(userinfo) = userinfo else { return true };
    let valid_chars = userinfo.chars().all(|c| c.is_ascii_alphanumeric() || "-._:~!$&'()*+,;=%@".contains(c));
    let (user, password) = userinfo.split_once(':').unwrap_or((userinfo, ""));
    valid_chars && unescape_ok(user, Mode::UserPassword) && unescape_ok(password, Mode::UserPassword)
}

// Go's `parseHost`: a bracketed IP literal (with an optional `%25` zone)
// and port, or a name with an optional port; `%` escapes only for
// non-ASCII bytes.
fn host_ok(host: &str) -> bool {
    if host.starts_with('[') {
        let Some(close) = host.rfind(']') else { return false };
        if !port_ok(&host[close + 1..]) {
            return false;
        }
        if let Some(zone) = host[..close].find("%25") {
            return unescape_ok(&host[..zone], Mode::Host)
                && unescape_ok(&host[zone..close], Mode::Zone)
                && unescape_ok(&host[close..], Mode::Host);
        }
    } else if let Some(colon) = host.rfind(':')
        && !port_ok(&host[colon..])
    {
        return false;
    }
    unescape_ok(host, Mode::Host)
}

fn port_ok(port: &str) -> bool {
    port.is_empty() || port.strip_prefix(':').is_some_and(|digits| digits.bytes().all(|b| b.is_ascii_digit()))
}

// Go's `shouldEscape` for hosts and zones: what may not appear verbatim.
fn host_should_escape(c: u8) -> bool {
    !(c.is_ascii_alphanumeric() || b"!$&'()*+,;=:[]<>\"-_.~".contains(&c))
}

// Go's `unescape` validity: every `%` starts two hex digits; hosts only
// escape non-ASCII bytes (and `%25`), zones only what a host could hold,
// and hosts and zones hold no other ASCII that would need escaping.
fn unescape_ok(s: &str, mode: Mode) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            if i + 2 >= b.len() || !b[i + 1].is_ascii_hexdigit() || !b[i + 2].is_ascii_hexdigit() {
                return false;
            }
            let hi = char::from(b[i + 1]).to_digit(16).unwrap_or(0);
            let lo = char::from(b[i + 2]).to_digit(16).unwrap_or(0);
            let is_25 = &b[i..i + 3] == b"%25";
            if mode == Mode::Host && hi < 8 && !is_25 {
                return false;
            }
            let v = u8::try_from(hi << 4 | lo).unwrap_or(0);
            if mode == Mode::Zone && !is_25 && v != b' ' && host_should_escape(v) {
                return false;
            }
            i += 3;
        } else {
            if matches!(mode, Mode::Host | Mode::Zone) && b[i] < 0x80 && host_should_escape(b[i]) {
                return false;
            }
            i += 1;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_uris() {
        for ok in [
            "http://example.com/a?b#c",
            "/absolute/path",
            "*",
            "mailto:joe@example.com",
            "http://user:pa%20ss@[::1%25eth0]:8080/x",
            "https://exämple.com",
            "//x",
            "http://h/%41",
        ] {
            assert!(is_request_uri(ok), "{ok}");
        }
        for bad in [
            "",
            "relative/path",
            ":x",
            "http://h:port/",
            "http://[::1/",
            "http://h%41/",
            "/%zz",
            "http://a b/",
            "/a\nb",
        ] {
            assert!(!is_request_uri(bad), "{bad}");
        }
    }
}
