//! The formats defined by a pattern or a checksum: identifiers, numbers,
//! colours, base64, host and Kubernetes names (kube-openapi's `strfmt` and
//! its fork of govalidator). `\d` and `\s` there are ASCII, as in Go.

use std::sync::OnceLock;

use regex::Regex;

// Go's `\s`.
fn is_go_space(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\x0C' | '\r' | ' ')
}

/// `bsonobjectid`: 24 hexadecimal digits.
pub(super) fn is_bson_object_id(s: &str) -> bool {
    s.len() == 24 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// `hostname`: kube-openapi's host name pattern (letters and symbols of
/// any script, a top-level label of 2 to 63 letters), at most 255 bytes,
/// labels of at most 63 bytes.
pub(super) fn is_hostname(s: &str) -> bool {
    static HOSTNAME: OnceLock<Option<Regex>> = OnceLock::new();
    const ALNUM: &str = r"a-zA-Z0-9\p{S}\p{L}";
    let re = HOSTNAME.get_or_init(|| {
        let pattern = format!(
            r"^([{ALNUM}]((-?[{ALNUM}]{{0,62}})?)|([{ALNUM}](([a-zA-Z0-9\-\p{{S}}\p{{L}}]{{0,61}}[{ALNUM}])?)(\.)){{1,}}([a-zA-Z\p{{L}}]){{2,63}})$"
        );
        Regex::new(&pattern).ok()
    });
    re.as_ref().is_some_and(|re| re.is_match(s)) && s.len() <= 255 && s.split('.').all(|label| label.len() <= 63)
}

/// `uuid`, `uuid3`, `uuid4`, `uuid5`: 32 hexadecimal digits in groups of
/// 8-4-4-4-12, each `-` optional, either case; versions 3 to 5 fix the
/// first digit of the third group, versions 4 and 5 also the variant
/// (`8`, `9`, `a`, `b`) of the fourth.
pub(super) fn is_uuid(s: &str, version: Option<char>) -> bool {
    let groups: [(usize, Option<&[char]>); 5] = [
        (8, None),
        (4, None),
        (4, version.as_ref().map(std::slice::from_ref)),
        (4, if matches!(version, Some('4' | '5')) { Some(&['8', '9', 'a', 'b', 'A', 'B']) } else { None }),
        (12, None),
    ];
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    for (n, (len, first)) in groups.iter().enumerate() {
        let Some(group) = chars.get(i..i + len) else { return false };
        if !group.iter().all(char::is_ascii_hexdigit) || first.is_some_and(|allowed| !allowed.contains(&group[0])) {
            return false;
        }
        i += len;
        if n < 4 && chars.get(i) == Some(&'-') {
            i += 1;
        }
    }
    i == chars.len()
}

// An ISBN without white space and dashes.
fn isbn_digits(s: &str) -> Vec<u8> {
    s.chars().filter(|&c| !is_go_space(c) && c != '-').map(|c| u8::try_from(u32::from(c)).unwrap_or(0)).collect()
}

/// `isbn10`: nine digits and a digit or `X`, with the ISBN-10 checksum.
pub(super) fn is_isbn10(s: &str) -> bool {
    let d = isbn_digits(s);
    if d.len() != 10 || !d[..9].iter().all(u8::is_ascii_digit) || !(d[9].is_ascii_digit() || d[9] == b'X') {
        return false;
    }
    let mut sum: u32 = d[..9].iter().zip(1..).map(|(c, w)| w * u32::from(c - b'0')).sum();
    sum += 10 * if d[9] == b'X' { 10 } else { u32::from(d[9] - b'0') };
    sum.is_multiple_of(11)
}

/// `isbn13`: thirteen digits with the ISBN-13 checksum.
pub(super) fn is_isbn13(s: &str) -> bool {
    let d = isbn_digits(s);
    if d.len() != 13 || !d.iter().all(u8::is_ascii_digit) {
        return false;
    }
    let sum: u32 = d[..12].iter().enumerate().map(|(i, c)| if i % 2 == 0 { 1 } else { 3 } * u32::from(c - b'0')).sum();
    u32::from(d[12] - b'0') == (10 - sum % 10) % 10
}

/// `creditcard`: the digits (everything else is ignored) form a Visa,
/// MasterCard, Discover, American Express, Diners Club or JCB number and
/// pass the Luhn check.
pub(super) fn is_credit_card(s: &str) -> bool {
    let d: Vec<u8> = s.bytes().filter(u8::is_ascii_digit).collect();
    let prefix = |p: &str| d.starts_with(p.as_bytes());
    let len = d.len();
    let known = match d.first() {
        Some(b'4') => len == 13 || len == 16,
        Some(b'5') => len == 16 && (b'1'..=b'5').contains(&d[1]),
        Some(b'6') => len == 16 && (prefix("6011") || prefix("65")),
        Some(b'3') => {
            (len == 15 && matches!(d[1], b'4' | b'7'))
                || (len == 14 && (matches!(d[1], b'6' | b'8') || (d[1] == b'0' && d[2] <= b'5')))
                || (len == 16 && prefix("35"))
        }
        _ => false,
    } || (len == 15 && (prefix("2131") || prefix("1800")));
    known && luhn(&d)
}

fn luhn(digits: &[u8]) -> bool {
    let sum: u32 = digits
        .iter()
        .rev()
        .enumerate()
        .map(|(i, c)| {
            let v = u32::from(c - b'0');
            if i % 2 == 1 { if v * 2 >= 10 { v * 2 % 10 + 1 } else { v * 2 } } else { v }
        })
        .sum();
    sum.is_multiple_of(10)
}

/// `ssn`: `ddd-dd-dddd`, each separator a dash or a space.
pub(super) fn is_ssn(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 11
        && b.iter().enumerate().all(|(i, c)| match i {
            3 | 6 => matches!(c, b'-' | b' '),
            _ => c.is_ascii_digit(),
        })
}

/// `hexcolor`: `#` (optional) and three or six hexadecimal digits.
pub(super) fn is_hex_color(s: &str) -> bool {
    let digits = s.strip_prefix('#').unwrap_or(s);
    matches!(digits.len(), 3 | 6) && digits.bytes().all(|b| b.is_ascii_hexdigit())
}

/// `rgbcolor`: `rgb(r,g,b)` with components 0 to 255 (no leading zeros),
/// white space allowed around them.
pub(super) fn is_rgb_color(s: &str) -> bool {
    let Some(inner) = s.strip_prefix("rgb(").and_then(|rest| rest.strip_suffix(')')) else { return false };
    let parts: Vec<&str> = inner.split(',').collect();
    parts.len() == 3
        && parts.iter().all(|p| {
            let n = p.trim_matches(is_go_space);
            let valid_number =
                n == "0" || (!n.starts_with('0') && n.len() <= 3 && n.parse::<u16>().is_ok_and(|v| v <= 255));
            valid_number && n.bytes().all(|b| b.is_ascii_digit())
        })
}

/// `byte`: standard base64 with padding, at least one group.
pub(super) fn is_base64(s: &str) -> bool {
    let b = s.as_bytes();
    if b.is_empty() || !b.len().is_multiple_of(4) {
        return false;
    }
    let alphabet = |c: &u8| c.is_ascii_alphanumeric() || *c == b'+' || *c == b'/';
    let (body, last) = b.split_at(b.len() - 4);
    let last_ok = match last {
        [a, b2, b'=', b'='] => alphabet(a) && alphabet(b2),
        [a, b2, c, b'='] => alphabet(a) && alphabet(b2) && alphabet(c),
        _ => last.iter().all(alphabet),
    };
    last_ok && body.iter().all(alphabet)
}

// A DNS-1123 label without length limit: lower-case alphanumerics and
// dashes, alphanumeric at both ends.
fn is_label(s: &str) -> bool {
    let b = s.as_bytes();
    let end = |c: &u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    b.first().is_some_and(end) && b.last().is_some_and(end) && b.iter().all(|c| end(c) || *c == b'-')
}

/// `k8s-short-name`: a DNS-1123 label of at most 63 characters.
pub(super) fn is_short_name(s: &str) -> bool {
    s.len() <= 63 && is_label(s)
}

/// `k8s-long-name`: dot-separated DNS-1123 labels, at most 253 characters.
pub(super) fn is_long_name(s: &str) -> bool {
    s.len() <= 253 && s.split('.').all(is_label)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers() {
        assert!(is_bson_object_id("507f1f77bcf86cd799439011"));
        assert!(!is_bson_object_id("507f1f77bcf86cd79943901"));
        assert!(is_uuid("f81d4fae-7dec-11d0-a765-00a0c91e6bf6", None));
        assert!(is_uuid("F81D4FAE7DEC11D0A76500A0C91E6BF6", None));
        assert!(!is_uuid("x", None));
        assert!(is_uuid("a987fbc9-4bed-3078-cf07-9141ba07c9f3", Some('3')));
        assert!(!is_uuid("a987fbc9-4bed-4078-cf07-9141ba07c9f3", Some('4')));
        assert!(is_uuid("a987fbc9-4bed-4078-8f07-9141ba07c9f3", Some('4')));
    }

    #[test]
    fn numbers_with_checksums() {
        assert!(is_isbn10("3836221195") && is_isbn10("3-8362-2119-5") && !is_isbn10("3836221196"));
        assert!(is_isbn10("020161622X"));
        assert!(is_isbn13("978-3-8362-2119-1") && !is_isbn13("9783836221190"));
        assert!(is_credit_card("4111 1111 1111 1111") && !is_credit_card("4111111111111112"));
        assert!(is_credit_card("378282246310005") && is_credit_card("3530111333300000"));
        assert!(is_ssn("191 60 2869") && is_ssn("191-60-2869") && !is_ssn("191602869"));
    }

    #[test]
    fn colours_and_base64() {
        assert!(is_hex_color("#fff") && is_hex_color("A0B0C0") && !is_hex_color("#ffff"));
        assert!(is_rgb_color("rgb( 255 ,0, 10 )") && !is_rgb_color("rgb(256,0,0)") && !is_rgb_color("rgb(01,0,0)"));
        assert!(is_base64("YWJj") && is_base64("YQ==") && is_base64("YWI=") && !is_base64("YQ") && !is_base64(""));
        assert!(!is_base64("Y===") && !is_base64("YW=j"));
    }

    #[test]
    fn names() {
        assert!(is_hostname("example.com") && is_hostname("localhost") && is_hostname("ünï.example"));
        assert!(!is_hostname("-a.com") && !is_hostname("a_b.com") && !is_hostname(&"a".repeat(64)));
        assert!(is_short_name("a-1") && !is_short_name("a-") && !is_short_name("A") && !is_short_name(&"a".repeat(64)));
        assert!(is_long_name("a.b-c") && !is_long_name("a.-") && !is_long_name("a..b"));
    }
}
