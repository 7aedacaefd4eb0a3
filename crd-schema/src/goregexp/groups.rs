//! The named groups `\d \s \w` and `[:alpha:]` and the like: Go's
//! `regexp/syntax/perl_groups.go`.

/// A negation flag and clean range pairs.
pub(super) type Group = (bool, &'static [u32]);

const DIGIT: &[u32] = &[0x30, 0x39];
const SPACE_PERL: &[u32] = &[0x9, 0xA, 0xC, 0xD, 0x20, 0x20];
const WORD: &[u32] = &[0x30, 0x39, 0x41, 0x5A, 0x5F, 0x5F, 0x61, 0x7A];

/// `\d \D \s \S \w \W` (Go's `\s` leaves out `\v`).
pub(super) fn perl_group(letter: u8) -> Option<Group> {
    Some(match letter {
        b'd' => (false, DIGIT),
        b'D' => (true, DIGIT),
        b's' => (false, SPACE_PERL),
        b'S' => (true, SPACE_PERL),
        b'w' => (false, WORD),
        b'W' => (true, WORD),
        _ => return None,
    })
}

/// `[:alpha:]`, `[:^alpha:]` and the like, ASCII only.
pub(super) fn posix_group(name: &[u8]) -> Option<Group> {
    let inner = name.strip_prefix(b"[:")?.strip_suffix(b":]")?;
    let (negated, inner) = match inner.strip_prefix(b"^") {
        Some(rest) => (true, rest),
        None => (false, inner),
    };
    let ranges: &'static [u32] = match inner {
        b"alnum" => &[0x30, 0x39, 0x41, 0x5A, 0x61, 0x7A],
        b"alpha" => &[0x41, 0x5A, 0x61, 0x7A],
        b"ascii" => &[0x0, 0x7F],
        b"blank" => &[0x9, 0x9, 0x20, 0x20],
        b"cntrl" => &[0x0, 0x1F, 0x7F, 0x7F],
        b"digit" => DIGIT,
        b"graph" => &[0x21, 0x7E],
        b"lower" => &[0x61, 0x7A],
        b"print" => &[0x20, 0x7E],
        b"punct" => &[0x21, 0x2F, 0x3A, 0x40, 0x5B, 0x60, 0x7B, 0x7E],
        b"space" => &[0x9, 0xD, 0x20, 0x20],
        b"upper" => &[0x41, 0x5A],
        b"word" => WORD,
        b"xdigit" => &[0x30, 0x39, 0x41, 0x46, 0x61, 0x66],
        _ => return None,
    };
    Some((negated, ranges))
}
