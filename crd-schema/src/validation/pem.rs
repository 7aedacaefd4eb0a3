//! PEM blocks (Go's `encoding/pem.Decode`) and the outline of an X.509
//! certificate, for the `caBundle` of a conversion webhook.
//!
//! A certificate is checked for its DER outline only: one SEQUENCE holding
//! the to-be-signed SEQUENCE, the algorithm SEQUENCE and the signature BIT
//! STRING, with nothing after it. Go parses every field; a bundle whose
//! outline is right but whose contents Go would reject is accepted here.

use crate::wire::decode_bytes;

/// One decoded block.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Block {
    /// The word after `-----BEGIN `.
    pub(super) type_: String,
    /// Whether `Key: value` header lines precede the body.
    pub(super) has_headers: bool,
    /// The base64-decoded body.
    pub(super) bytes: Vec<u8>,
}

const BEGIN: &[u8] = b"\n-----BEGIN ";
const END: &[u8] = b"\n-----END ";
const DASHES: &[u8] = b"-----";

/// Go's `pem.Decode`: the first well-formed block of `data` and the bytes
/// after it, or `None` when there is none (malformed blocks are skipped).
pub(super) fn decode(data: &[u8]) -> Option<(Block, &[u8])> {
    let mut rest = data;
    loop {
        rest = if let Some(after) = rest.strip_prefix(&BEGIN[1..]) {
            after
        } else {
            &rest[find(rest, BEGIN)? + BEGIN.len()..]
        };
        let (type_line, after_type) = line(rest);
        rest = after_type;
        let Some(type_) = type_line.strip_suffix(DASHES) else { continue };
        let (has_headers, body) = skip_headers(rest)?;
        rest = body;
        let (end, trailer) = if !has_headers && rest.starts_with(&END[1..]) {
            (0, END.len() - 1)
        } else {
            match find(rest, END) {
                Some(end) => (end, end + END.len()),
                None => continue,
            }
        };
        // The END line repeats the type, closes with five dashes, and has
        // nothing but blanks after them.
        let trailer = &rest[trailer..];
        let expected = type_.len() + DASHES.len();
        let Some(closing) = trailer.get(..expected) else { continue };
        if !closing.starts_with(type_) || !closing.ends_with(DASHES) || !line(&trailer[expected..]).0.is_empty() {
            continue;
        }
        let body: Vec<u8> = rest[..end].iter().copied().filter(|b| !matches!(b, b' ' | b'\t')).collect();
        let Some(bytes) = std::str::from_utf8(&body).ok().and_then(decode_bytes) else { continue };
        let block = Block { type_: String::from_utf8_lossy(type_).into_owned(), has_headers, bytes };
        let after = line(&rest[end + END.len() - 1..]).1;
        return Some((block, after));
    }
}

// Header lines are `key: value` lines before the body; `None` when the
// data ends among them.
fn skip_headers(mut rest: &[u8]) -> Option<(bool, &[u8])> {
    let mut has_headers = false;
    loop {
        if rest.is_empty() {
            return None;
        }
        let (text, next) = line(rest);
        if !text.contains(&b':') {
            return Some((has_headers, rest));
        }
        has_headers = true;
        rest = next;
    }
}

// Go's `getLine`: up to `\n` (a `\r` before it dropped), trailing blanks
// trimmed, and the rest after the `\n`.
fn line(data: &[u8]) -> (&[u8], &[u8]) {
    let (mut text, rest) = match data.iter().position(|b| *b == b'\n') {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &data[data.len()..]),
    };
    text = text.strip_suffix(b"\r").unwrap_or(text);
    while let Some(trimmed) = text.strip_suffix(b" ").or_else(|| text.strip_suffix(b"\t")) {
        text = trimmed;
    }
    (text, rest)
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// Whether `der` has the outline of a certificate; the error is Go's text
/// for a certificate that does not parse.
pub(super) fn check_certificate(der: &[u8]) -> Result<(), String> {
    let malformed = || "x509: malformed certificate".to_owned();
    let (outer, rest) = tlv(der).ok_or_else(malformed)?;
    if outer.tag != 0x30 {
        return Err(malformed());
    }
    if !rest.is_empty() {
        return Err("x509: trailing data".to_owned());
    }
    let mut inner = outer.content;
    for tag in [0x30, 0x30, 0x03] {
        let (element, next) = tlv(inner).ok_or_else(malformed)?;
        if element.tag != tag {
            return Err(malformed());
        }
        inner = next;
    }
    if inner.is_empty() { Ok(()) } else { Err(malformed()) }
}

struct Tlv<'a> {
    tag: u8,
    content: &'a [u8],
}

// One DER element: a tag byte, a definite length (short or long form),
// the content.
fn tlv(data: &[u8]) -> Option<(Tlv<'_>, &[u8])> {
    let (&tag, rest) = data.split_first()?;
    let (&first, mut rest) = rest.split_first()?;
    let length = if first < 0x80 {
        usize::from(first)
    } else {
        let count = usize::from(first & 0x7f);
        if count == 0 || count > std::mem::size_of::<usize>() || rest.len() < count {
            return None;
        }
        let (digits, after) = rest.split_at(count);
        rest = after;
        digits.iter().fold(0usize, |n, d| (n << 8) | usize::from(*d))
    };
    if rest.len() < length {
        return None;
    }
    let (content, after) = rest.split_at(length);
    Some((Tlv { tag, content }, after))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pem(type_: &str, body: &str) -> String {
        format!("-----BEGIN {type_}-----\n{body}\n-----END {type_}-----\n")
    }

    #[test]
    fn blocks_are_found_among_other_text() {
        let text = format!("junk\n{}{}", pem("CERTIFICATE", "MAMCAQE="), pem("KEY", "AA=="));
        let (first, rest) = decode(text.as_bytes()).unwrap();
        assert_eq!(first, Block { type_: "CERTIFICATE".into(), has_headers: false, bytes: vec![0x30, 3, 2, 1, 1] });
        let (second, rest) = decode(rest).unwrap();
        assert_eq!(second.type_, "KEY");
        assert!(rest.is_empty());
        assert!(decode(b"Cg==").is_none());
        assert!(decode(pem("A", "%%%").as_bytes()).is_none());
        assert!(decode(b"-----BEGIN A-----\nAA==\n-----END B-----\n").is_none());
        let headers = "-----BEGIN A-----\nProc-Type: 4\n\nAA==\n-----END A-----\n";
        assert!(decode(headers.as_bytes()).unwrap().0.has_headers);
    }

    #[test]
    fn certificate_outline() {
        let cert = [0x30, 0x08, 0x30, 0x00, 0x30, 0x00, 0x03, 0x02, 0x00, 0x00];
        assert_eq!(check_certificate(&cert), Ok(()));
        assert_eq!(check_certificate(&[0x30, 0x03, 0x02, 0x01, 0x01]), Err("x509: malformed certificate".into()));
        let mut trailing = cert.to_vec();
        trailing.push(0);
        assert_eq!(check_certificate(&trailing), Err("x509: trailing data".into()));
        assert!(check_certificate(&[0x30, 0x84, 0xff, 0xff, 0xff, 0xff]).is_err());
    }
}
