//! Go's `net/url` parsing (`url.Parse`, `url.ParseRequestURI`), as far as
//! the API server uses it on CRDs and objects: the conversion webhook URL,
//! the API approval annotation, and the `uri` format of value validation.
//! It gives the scheme, user information, host, query and fragment, and
//! Go's errors.
//!
//! Hand-written rather than taken from the `url` crate: that crate follows
//! the WHATWG URL standard, which accepts, rejects and normalizes other
//! inputs than Go does (Go keeps `https:foo` as an opaque URL, rejects a
//! `%zz` escape, lets `http://[::1` fail with its own text), and these
//! checks report Go's results verbatim. crd-schema also keeps its
//! dependencies light. Paths are only checked for their escapes.

use crate::gofmt;

/// The parts of a parsed URL the checks look at.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct GoUrl {
    /// The scheme, lower-cased.
    pub(crate) scheme: String,
    /// The user information as written (`user:password`), when present.
    pub(crate) user: Option<String>,
    /// The host with its port, unescaped.
    pub(crate) host: String,
    /// The query without `?`.
    pub(crate) raw_query: String,
    /// The fragment without `#`, unescaped.
    pub(crate) fragment: String,
}

/// `url.Parse`: the error is Go's complete text (`parse "::": missing
/// protocol scheme`).
pub(crate) fn parse(raw: &str) -> Result<GoUrl, String> {
    let (rest, fragment) = match raw.split_once('#') {
        Some((rest, fragment)) => (rest, fragment),
        None => (raw, ""),
    };
    let mut url = parse_reference(rest, false).map_err(|e| failure(rest, &e))?;
    if !fragment.is_empty() {
        url.fragment = unescape(fragment, Mode::Fragment).map_err(|e| failure(raw, &e))?;
    }
    Ok(url)
}

/// `url.ParseRequestURI`: an absolute URI or an absolute path, with no
/// fragment (a `#` is part of the path).
pub(crate) fn parse_request_uri(raw: &str) -> Result<GoUrl, String> {
    parse_reference(raw, true).map_err(|e| failure(raw, &e))
}

fn failure(url: &str, error: &str) -> String {
    format!("parse {}: {error}", gofmt::quote(url))
}

/// Go's `parse`: scheme, query, then an authority when the rest starts
/// with `//` (and a scheme is given or this is not a request URI).
fn parse_reference(raw: &str, via_request: bool) -> Result<GoUrl, String> {
    if raw.bytes().any(|b| b < 0x20 || b == 0x7f) {
        return Err("net/url: invalid control character in URL".to_owned());
    }
    if raw.is_empty() && via_request {
        return Err("empty url".to_owned());
    }
    let mut url = GoUrl::default();
    if raw == "*" {
        return Ok(url);
    }
    let (scheme, rest) = scheme(raw)?;
    url.scheme = scheme.to_ascii_lowercase();
    let rest = match rest.strip_suffix('?') {
        Some(rest) if !rest.contains('?') => rest,
        _ => match rest.split_once('?') {
            Some((rest, query)) => {
                query.clone_into(&mut url.raw_query);
                rest
            }
            None => rest,
        },
    };
    if !rest.starts_with('/') {
        if !url.scheme.is_empty() {
            // A rootless path after a scheme is opaque.
            return Ok(url);
        }
        if via_request {
            return Err("invalid URI for request".to_owned());
        }
        if rest.split('/').next().is_some_and(|segment| segment.contains(':')) {
            return Err("first path segment in URL cannot contain colon".to_owned());
        }
    }
    let mut path = rest;
    if let Some(after) = rest.strip_prefix("//")
        && (!url.scheme.is_empty() || !via_request && !rest.starts_with("///"))
    {
        let (authority, remainder) = match after.find('/') {
            Some(i) => (&after[..i], &after[i..]),
            None => (after, ""),
        };
        (url.user, url.host) = authority_parts(authority)?;
        path = remainder;
    }
    unescape(path, Mode::Path)?;
    Ok(url)
}

// Go's `getScheme`: letters, then digits, `+`, `-`, `.` up to a `:`; a
// leading `:` is an error, anything else means there is no scheme.
fn scheme(raw: &str) -> Result<(&str, &str), String> {
    for (i, b) in raw.bytes().enumerate() {
        match b {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' if i > 0 => {}
            b':' if i == 0 => return Err("missing protocol scheme".to_owned()),
            b':' => return Ok((&raw[..i], &raw[i + 1..])),
            _ => return Ok(("", raw)),
        }
    }
    Ok(("", raw))
}

// `user@host`: the user information runs to the last `@` and may only hold
// unreserved, sub-delimiter, `:`, `@` and `%` characters.
fn authority_parts(authority: &str) -> Result<(Option<String>, String), String> {
    let Some(at) = authority.rfind('@') else { return Ok((None, host(authority)?)) };
    let host = host(&authority[at + 1..])?;
    let userinfo = &authority[..at];
    let valid = |b: u8| b.is_ascii_alphanumeric() || b"-._:~!$&'()*+,;=%@".contains(&b);
    if !userinfo.bytes().all(valid) {
        return Err("net/url: invalid userinfo".to_owned());
    }
    for part in userinfo.splitn(2, ':') {
        unescape(part, Mode::UserPassword)?;
    }
    Ok((Some(userinfo.to_owned()), host))
}

// Go's `parseHost`: an IP literal in brackets (with an optional zone
// `%25...`), or a name, each with an optional `:port` of digits.
fn host(host: &str) -> Result<String, String> {
    let port_error = |port: &str| format!("invalid port {} after host", gofmt::quote(port));
    if host.starts_with('[') {
        let close = host.rfind(']').ok_or("missing ']' in host")?;
        let port = &host[close + 1..];
        if !valid_optional_port(port) {
            return Err(port_error(port));
        }
        if let Some(zone) = host[..close].find("%25") {
            let literal = unescape(&host[..zone], Mode::Host)?;
            let zone_text = unescape(&host[zone..close], Mode::Zone)?;
            let tail = unescape(&host[close..], Mode::Host)?;
            return Ok(format!("{literal}{zone_text}{tail}"));
        }
    } else if let Some(colon) = host.rfind(':') {
        let port = &host[colon..];
        if !valid_optional_port(port) {
            return Err(port_error(port));
        }
    }
    unescape(host, Mode::Host)
}

fn valid_optional_port(port: &str) -> bool {
    port.is_empty() || port.strip_prefix(':').is_some_and(|digits| digits.bytes().all(|b| b.is_ascii_digit()))
}

/// The part of a URL being unescaped (Go's `encoding` modes).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Path,
    UserPassword,
    Host,
    Zone,
    Fragment,
}

// Go's `unescape`: every `%` starts two hex digits; in a host only `%25`
// and escapes of bytes from 0x80 are allowed (in a zone, escapes of
// characters a host could hold), and a host's plain characters are those
// Go does not escape there.
fn unescape(s: &str, mode: Mode) -> Result<String, String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                let (Some(hi), Some(lo)) = (b.get(i + 1).and_then(|c| hex(*c)), b.get(i + 2).and_then(|c| hex(*c)))
                else {
                    let end = (i + 3).min(b.len());
                    return Err(escape_error(&b[i..end]));
                };
                let escape = &b[i..i + 3];
                let value = hi << 4 | lo;
                if mode == Mode::Host && hi < 8 && escape != b"%25" {
                    return Err(escape_error(escape));
                }
                if mode == Mode::Zone && escape != b"%25" && value != b' ' && host_escapes(value) {
                    return Err(escape_error(escape));
                }
                out.push(value);
                i += 3;
            }
            c if matches!(mode, Mode::Host | Mode::Zone) && c < 0x80 && host_escapes(c) => {
                let text = String::from_utf8_lossy(&b[i..=i]);
                return Err(format!("invalid character {} in host name", gofmt::quote(&text)));
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

fn escape_error(escape: &[u8]) -> String {
    format!("invalid URL escape {}", gofmt::quote(&String::from_utf8_lossy(escape)))
}

fn hex(c: u8) -> Option<u8> {
    char::from(c).to_digit(16).and_then(|d| u8::try_from(d).ok())
}

// Go's `shouldEscape` in host mode: all but alphanumerics, the unreserved
// marks and the sub-delimiters, `:`, brackets, `<`, `>` and `"`.
fn host_escapes(c: u8) -> bool {
    !(c.is_ascii_alphanumeric() || b"-_.~!$&'()*+,;=:[]<>\"".contains(&c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parts_the_checks_look_at() {
        let url = parse("HTTPS://u:p@example.com:8443/a%20b?x=1#frag%21").unwrap();
        assert_eq!(url.scheme, "https");
        assert_eq!(url.user.as_deref(), Some("u:p"));
        assert_eq!(url.host, "example.com:8443");
        assert_eq!(url.raw_query, "x=1");
        assert_eq!(url.fragment, "frag!");
        assert_eq!(parse("").unwrap(), GoUrl::default());
        let opaque = parse("https:example.com").unwrap();
        assert_eq!((opaque.scheme.as_str(), opaque.host.as_str()), ("https", ""));
        assert_eq!(parse("//h/p").unwrap().host, "h");
        assert_eq!(parse("https://[::1%25en0]:80/").unwrap().host, "[::1%en0]:80");
    }

    #[test]
    fn go_error_texts() {
        let err = |s: &str| parse(s).unwrap_err();
        assert_eq!(err("::"), "parse \"::\": missing protocol scheme");
        assert_eq!(err("/a/%zzz"), "parse \"/a/%zzz\": invalid URL escape \"%zz\"");
        assert!(parse("a:b/c:d%zz").is_ok(), "opaque");
        assert_eq!(err("https://h/%2"), "parse \"https://h/%2\": invalid URL escape \"%2\"");
        assert_eq!(err("a b:c/"), "parse \"a b:c/\": first path segment in URL cannot contain colon");
        assert_eq!(err("https://h:8x/"), "parse \"https://h:8x/\": invalid port \":8x\" after host");
        assert_eq!(err("https://[::1/"), "parse \"https://[::1/\": missing ']' in host");
        assert_eq!(err("https://h{/"), "parse \"https://h{/\": invalid character \"{\" in host name");
        assert_eq!(err("https://a b@h/"), "parse \"https://a b@h/\": net/url: invalid userinfo");
        assert_eq!(err("https://h/\n"), "parse \"https://h/\\n\": net/url: invalid control character in URL");
        assert_eq!(err("https://h/#%"), "parse \"https://h/#%\": invalid URL escape \"%\"");
    }

    #[test]
    fn request_uris() {
        assert_eq!(parse_request_uri("").unwrap_err(), "parse \"\": empty url");
        assert_eq!(parse_request_uri("foo").unwrap_err(), "parse \"foo\": invalid URI for request");
        let url = parse_request_uri("https://github.com/kubernetes/enhancements/pull/1111").unwrap();
        assert_eq!((url.scheme.as_str(), url.host.as_str()), ("https", "github.com"));
        assert_eq!(parse_request_uri("//h/p").unwrap().host, "");
        // The `uri` format of value validation is this parse succeeding.
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
            assert!(parse_request_uri(ok).is_ok(), "{ok}");
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
            assert!(parse_request_uri(bad).is_err(), "{bad}");
        }
    }
}
