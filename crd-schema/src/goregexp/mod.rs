//! Go regular-expression syntax checking: [`check`] tells whether Go's
//! `regexp.Compile` accepts a pattern (RE2 syntax, package `regexp/syntax`,
//! Perl flags) and, when it does not, returns Go's error text byte for byte,
//! e.g. "error parsing regexp: missing argument to repetition operator: `+`".
//! [`check_bytes`] does the same for patterns that need not be UTF-8.
//!
//! Error policy: a rejected pattern is an answer, not a failure of this
//! module: `Err` is a [`SyntaxError`] (Go's code and fragment) that
//! displays as the complete message Go prints,
//! `error parsing regexp: CODE: FRAGMENT` with the fragment in backquotes. Nothing here panics, whatever
//! the input, and the work is linear in the pattern's length (Go's own parser
//! is quadratic on a few contrived inputs; see "Bounds" below).
//!
//! How: Go's parser is replayed step by step, parse tree included. Most
//! errors only need the scanner, but `expression too large`,
//! `expression nests too deeply` and the nested-repetition form of
//! `invalid repeat count` are decided on the tree Go builds (after its literal
//! merging, alternation factoring and character-class merging), with Go's
//! node recycling and memoised size and height, so those are reproduced too:
//! they decide which error comes first.
//!
//! Go version: the behaviour of Go 1.25: `(?<name>re)` is a named group (Go
//! 1.22+, earlier Go said "invalid or unsupported Perl syntax: `(?<`"), and
//! `\p{...}` names are matched ignoring case, spaces, `_` and `-`, with
//! `Any`, `ASCII`, `Assigned`, `LC`, `Cn` and the long category aliases such
//! as `Letter` (Go 1.25+; earlier Go wanted the exact table name). Too large
//! a regexp is "expression too large" (Go 1.19 and older said
//! "regexp/syntax: internal error").
//!
//! Approximations, confined to the tree budgets (rune count, size, height):
//! the contents of Unicode tables (`\pL`, `\p{Greek}`, ...) are not embedded,
//! so such classes count no runes against Go's 33,554,432-rune budget (26,000
//! `\pL` exceed it in Go) and are taken as equal only when built the same way
//! (which can shape Go's factoring of alternations); case folding outside
//! ASCII comes from Rust's Unicode tables, cut back to Unicode 15, Go's
//! edition. A pattern far from those budgets gets Go's answer regardless.
//!
//! Bounds: where Go would factor an alternation more than 1,000 levels deep
//! (so that its tree must exceed the height budget), this module stops and
//! reports "expression nests too deeply" at once, as Go eventually does.

use std::collections::{HashMap, VecDeque};
use std::ops::Range;
use std::sync::OnceLock;

/// Checks `pattern` with Go's RE2 syntax rules. The error displays as Go's
/// complete error text, e.g. "error parsing regexp: missing argument to
/// repetition operator: `+`".
pub fn check(pattern: &str) -> Result<(), SyntaxError> {
    check_bytes(pattern.as_bytes())
}

/// Like [`check`], for a pattern held as raw bytes, as a Go string may be:
/// invalid UTF-8 gives Go's "invalid UTF-8" error (its fragment is rendered
/// lossily, as a Rust `String` must be UTF-8).
pub fn check_bytes(pattern: &[u8]) -> Result<(), SyntaxError> {
    Parser::new(pattern).parse().map_err(|failure| failure.render(pattern))
}

// Parse flags, with Go's bit values (only the ones the Perl syntax can reach).
const FOLD_CASE: u16 = 1;
const CLASS_NL: u16 = 1 << 2;
const DOT_NL: u16 = 1 << 3;
const ONE_LINE: u16 = 1 << 4;
const NON_GREEDY: u16 = 1 << 5;
const PERL_X: u16 = 1 << 6;
const UNICODE_GROUPS: u16 = 1 << 7;
const WAS_DOLLAR: u16 = 1 << 8;
/// `regexp.Compile` parses with `syntax.Perl`.
const PERL: u16 = CLASS_NL | ONE_LINE | PERL_X | UNICODE_GROUPS;

const MAX_RUNE: u32 = 0x10_FFFF;
/// Go's budgets: tree height, compiled size (128 MiB of 40-byte
/// instructions), runes held by classes and literals (128 MiB of runes), and
/// the count of a single repetition.
const MAX_HEIGHT: i64 = 1000;
const MAX_SIZE: i64 = (128 << 20) / 40;
const MAX_RUNES: usize = (128 << 20) / 4;
const MAX_REPEAT: i32 = 1000;
/// Alternation factoring nested this deep builds a tree taller than
/// `MAX_HEIGHT`, which Go rejects: no need to go deeper (nor to risk the stack).
const MAX_FACTOR_DEPTH: usize = 1001;
/// The smallest and largest runes that take part in case folding (Unicode 15).
const MIN_FOLD: u32 = 0x41;
const MAX_FOLD: u32 = 0x1_E943;

/// Go's error codes (`syntax.ErrorCode`), displayed as Go spells them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// `invalid character class range`.
    InvalidCharRange,
    /// `invalid escape sequence`.
    InvalidEscape,
    /// `invalid named capture`.
    InvalidNamedCapture,
    /// `invalid or unsupported Perl syntax`.
    InvalidPerlOp,
    /// `invalid nested repetition operator`.
    InvalidRepeatOp,
    /// `invalid repeat count`.
    InvalidRepeatSize,
    /// `invalid UTF-8`.
    InvalidUtf8,
    /// `missing closing ]`.
    MissingBracket,
    /// `missing closing )`.
    MissingParen,
    /// `missing argument to repetition operator`.
    MissingRepeatArgument,
    /// `trailing backslash at end of expression`.
    TrailingBackslash,
    /// `unexpected )`.
    UnexpectedParen,
    /// `expression nests too deeply`.
    NestingDepth,
    /// `expression too large`.
    Large,
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.text())
    }
}

/// A pattern Go's `regexp.Compile` rejects: Go's `*syntax.Error`, displayed
/// with Go's text, `` error parsing regexp: CODE: `FRAGMENT` ``.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("error parsing regexp: {code}: `{expr}`")]
pub struct SyntaxError {
    /// What is wrong.
    pub code: ErrorCode,
    /// The offending fragment of the pattern (invalid UTF-8 in it replaced
    /// by U+FFFD).
    pub expr: String,
}

impl ErrorCode {
    /// Go's text for the code.
    pub fn text(self) -> &'static str {
        match self {
            ErrorCode::InvalidCharRange => "invalid character class range",
            ErrorCode::InvalidEscape => "invalid escape sequence",
            ErrorCode::InvalidNamedCapture => "invalid named capture",
            ErrorCode::InvalidPerlOp => "invalid or unsupported Perl syntax",
            ErrorCode::InvalidRepeatOp => "invalid nested repetition operator",
            ErrorCode::InvalidRepeatSize => "invalid repeat count",
            ErrorCode::InvalidUtf8 => "invalid UTF-8",
            ErrorCode::MissingBracket => "missing closing ]",
            ErrorCode::MissingParen => "missing closing )",
            ErrorCode::MissingRepeatArgument => "missing argument to repetition operator",
            ErrorCode::TrailingBackslash => "trailing backslash at end of expression",
            ErrorCode::UnexpectedParen => "unexpected )",
            ErrorCode::NestingDepth => "expression nests too deeply",
            ErrorCode::Large => "expression too large",
        }
    }
}

/// A rejection: Go's code and the offending fragment, as a byte range of the
/// pattern (Go's fragments are always substrings of it).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Failure {
    code: ErrorCode,
    expr: Range<usize>,
}

impl Failure {
    fn new(code: ErrorCode, expr: Range<usize>) -> Self {
        Failure { code, expr }
    }

    fn render(&self, pattern: &[u8]) -> SyntaxError {
        let fragment = pattern.get(self.expr.clone()).unwrap_or_default();
        SyntaxError { code: self.code, expr: String::from_utf8_lossy(fragment).into_owned() }
    }
}

type Res<T> = Result<T, Failure>;

/// Go's `syntax.Op`, with Go's numbering: the parser compares ops by order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
enum Op {
    #[default]
    NoMatch = 1,
    EmptyMatch,
    Literal,
    CharClass,
    AnyCharNotNl,
    AnyChar,
    BeginLine,
    EndLine,
    BeginText,
    EndText,
    WordBoundary,
    NoWordBoundary,
    Capture,
    Star,
    Plus,
    Quest,
    Repeat,
    Concat,
    Alternate,
    /// Pseudo-ops, only ever on the parse stack.
    LeftParen = 128,
    VerticalBar,
}

/// One `syntax.Regexp` of the parse tree. Nodes live in an arena and are
/// recycled through a free list exactly as Go recycles them, because Go's
/// size memo is keyed by node identity and outlives recycling.
#[derive(Debug, Default)]
struct Node {
    op: Op,
    flags: u16,
    cap: usize,
    min: i32,
    max: i32,
    /// A literal's runes (from `start` on), or a class's sorted range pairs.
    runes: Vec<u32>,
    /// Runes of a literal already taken off its front by factoring.
    start: usize,
    /// Unicode tables in a class, as opaque tokens (their contents are not embedded).
    tokens: Vec<u64>,
    subs: VecDeque<usize>,
    /// Go's `p.size[re]` and `p.height[re]` memo entries.
    size: Option<i64>,
    height: Option<i64>,
    /// Set when the node changes other than by losing leading elements, so
    /// that a forced re-measure must visit the elements again; otherwise the
    /// memos below give Go's re-measure in O(1) (Go's parser re-measures a
    /// long concatenation after each element factoring takes off its front).
    size_dirty: bool,
    height_dirty: bool,
    /// For a measured concatenation: the sum of its elements' sizes, and the
    /// maxima of their heights from each element on (the front being at
    /// `height_front`), both kept as leading elements are removed.
    size_sum: i64,
    height_suffix: Vec<i64>,
    height_front: usize,
}

impl Node {
    fn lit(&self) -> &[u32] {
        self.runes.get(self.start..).unwrap_or_default()
    }
}

/// A repetition operator found in the pattern: `op` applied with `min`/`max`,
/// the operator spanning `before..after` (a trailing `?` not yet included).
#[derive(Debug, Clone, Copy)]
struct Repetition {
    op: Op,
    min: i32,
    max: i32,
    before: usize,
    after: usize,
}

/// Go's parser state (`syntax.parser`).
#[derive(Debug)]
struct Parser<'a> {
    src: &'a [u8],
    flags: u16,
    nodes: Vec<Node>,
    stack: Vec<usize>,
    free: Vec<usize>,
    num_cap: usize,
    num_regexp: usize,
    num_runes: usize,
    repeats: i64,
    /// Whether Go has started its size and height maps (`p.size`, `p.height`).
    sizing: bool,
    heighting: bool,
    factor_depth: usize,
    /// Last answer to "where is the next `:]` at or after `from`": lets class
    /// parsing look for POSIX names in linear time overall.
    colon_bracket: Option<(usize, Option<usize>)>,
}

impl<'a> Parser<'a> {
    fn new(src: &'a [u8]) -> Self {
        Parser {
            src,
            flags: PERL,
            nodes: Vec::new(),
            stack: Vec::new(),
            free: Vec::new(),
            num_cap: 0,
            num_regexp: 0,
            num_runes: 0,
            repeats: 0,
            sizing: false,
            heighting: false,
            factor_depth: 0,
            colon_bracket: None,
        }
    }

    fn whole(&self, code: ErrorCode) -> Failure {
        Failure::new(code, 0..self.src.len())
    }

    // ---- Scanning: the main loop (Go's `parse`).

    fn parse(mut self) -> Res<()> {
        let len = self.src.len();
        let mut pos = 0;
        let mut last_repeat = None;
        while pos < len {
            let mut repeat = None;
            pos = match self.src[pos] {
                b'(' => self.parse_open_paren(pos)?,
                b'|' => self.parse_vertical_bar().map(|()| pos + 1)?,
                b')' => self.parse_right_paren().map(|()| pos + 1)?,
                b'^' => self.parse_op(if self.flags & ONE_LINE != 0 { Op::BeginText } else { Op::BeginLine }, pos)?,
                b'$' => self.parse_dollar(pos)?,
                b'.' => self.parse_op(if self.flags & DOT_NL != 0 { Op::AnyChar } else { Op::AnyCharNotNl }, pos)?,
                b'[' => self.parse_class(pos)?,
                b'*' | b'+' | b'?' => {
                    let op = match self.src[pos] {
                        b'*' => Op::Star,
                        b'+' => Op::Plus,
                        _ => Op::Quest,
                    };
                    repeat = Some(pos);
                    self.repeat(Repetition { op, min: 0, max: 0, before: pos, after: pos + 1 }, last_repeat)?
                }
                b'{' => match self.parse_repeat(pos)? {
                    Some(rep) => {
                        repeat = Some(pos);
                        self.repeat(rep, last_repeat)?
                    }
                    None => self.literal(u32::from(b'{')).map(|()| pos + 1)?,
                },
                b'\\' => self.parse_backslash(pos)?,
                _ => {
                    let (c, next) = self.next_rune(pos, len)?;
                    self.literal(c)?;
                    next
                }
            };
            last_repeat = repeat;
        }
        self.finish()
    }

    /// The end of the pattern closes the top-level alternation; anything
    /// still open is a missing `)`.
    fn finish(&mut self) -> Res<()> {
        self.concat()?;
        if self.swap_vertical_bar() {
            self.stack.pop();
        }
        self.alternate()?;
        if self.stack.len() != 1 {
            return Err(self.whole(ErrorCode::MissingParen));
        }
        Ok(())
    }

    /// Decodes the rune at `pos` of the string `src[..end]` as Go's `nextRune`
    /// does; an invalid encoding is reported with the rest of that string.
    fn next_rune(&self, pos: usize, end: usize) -> Res<(u32, usize)> {
        match decode(self.src.get(pos..end).unwrap_or_default()) {
            Some((c, width)) => Ok((c, pos + width)),
            None => Err(Failure::new(ErrorCode::InvalidUtf8, pos..end)),
        }
    }

    /// Go's `checkUTF8` on `src[from..to]`.
    fn check_utf8(&self, from: usize, to: usize) -> Res<()> {
        let mut pos = from;
        while pos < to {
            pos = self.next_rune(pos, to)?.1;
        }
        Ok(())
    }

    /// A one-byte operator: `^`, `.`.
    fn parse_op(&mut self, op: Op, pos: usize) -> Res<usize> {
        self.op(op)?;
        Ok(pos + 1)
    }

    fn parse_dollar(&mut self, pos: usize) -> Res<usize> {
        if self.flags & ONE_LINE != 0 {
            let id = self.op(Op::EndText)?;
            self.nodes[id].flags |= WAS_DOLLAR;
        } else {
            self.op(Op::EndLine)?;
        }
        Ok(pos + 1)
    }

    fn parse_open_paren(&mut self, pos: usize) -> Res<usize> {
        if self.src.get(pos + 1) == Some(&b'?') {
            return self.parse_perl_flags(pos);
        }
        self.num_cap += 1;
        let id = self.op(Op::LeftParen)?;
        self.nodes[id].cap = self.num_cap;
        Ok(pos + 1)
    }

    /// Parses `(?flags)`, `(?flags:`, `(?P<name>` or `(?<name>` at `pos`.
    fn parse_perl_flags(&mut self, pos: usize) -> Res<usize> {
        let t = &self.src[pos..];
        let starts_with_p = t.len() > 4 && t[2] == b'P' && t[3] == b'<';
        let starts_with_name = t.len() > 3 && t[2] == b'<';
        if starts_with_p || starts_with_name {
            let name_start = pos + if starts_with_p { 4 } else { 3 };
            return self.parse_named_capture(pos, name_start);
        }

        let len = self.src.len();
        let mut i = pos + 2;
        let mut flags = self.flags;
        let mut negated = false;
        let mut saw_flag = false;
        while i < len {
            let (c, next) = self.next_rune(i, len)?;
            i = next;
            match char::from_u32(c) {
                Some('i') => flags |= FOLD_CASE,
                Some('m') => flags &= !ONE_LINE,
                Some('s') => flags |= DOT_NL,
                Some('U') => flags |= NON_GREEDY,
                Some('-') if !negated => {
                    // Invert so that the flags above clear bits; inverted back below.
                    negated = true;
                    flags = !flags;
                    saw_flag = false;
                    continue;
                }
                Some(':' | ')') if !negated || saw_flag => {
                    if negated {
                        flags = !flags;
                    }
                    if c == u32::from(b':') {
                        self.op(Op::LeftParen)?;
                    }
                    self.flags = flags;
                    return Ok(i);
                }
                _ => break,
            }
            saw_flag = true;
        }
        Err(Failure::new(ErrorCode::InvalidPerlOp, pos..i))
    }

    /// `(?P<name>` or `(?<name>`: the name runs to the first `>`.
    fn parse_named_capture(&mut self, pos: usize, name_start: usize) -> Res<usize> {
        let len = self.src.len();
        let Some(end) = self.src[pos..].iter().position(|&b| b == b'>').map(|e| pos + e) else {
            self.check_utf8(pos, len)?;
            return Err(Failure::new(ErrorCode::InvalidNamedCapture, pos..len));
        };
        let name = self.src.get(name_start..end).unwrap_or_default();
        self.check_utf8(name_start.min(end), end)?;
        let valid = !name.is_empty() && name.iter().all(|&b| b == b'_' || b.is_ascii_alphanumeric());
        if !valid {
            return Err(Failure::new(ErrorCode::InvalidNamedCapture, pos..end + 1));
        }
        self.num_cap += 1;
        let id = self.op(Op::LeftParen)?;
        self.nodes[id].cap = self.num_cap;
        Ok(end + 1)
    }

    /// Parses `{n}`, `{n,}` or `{n,m}` at `pos`; `None` when it is none of
    /// them (then `{` is a literal). Counts out of range are an error.
    fn parse_repeat(&self, pos: usize) -> Res<Option<Repetition>> {
        let s = self.src;
        let Some((mut min, mut i)) = self.parse_int(pos + 1) else { return Ok(None) };
        let max;
        match s.get(i) {
            None => return Ok(None),
            Some(b',') => {
                i += 1;
                match s.get(i) {
                    None => return Ok(None),
                    Some(b'}') => max = -1,
                    Some(_) => {
                        let Some((m, next)) = self.parse_int(i) else { return Ok(None) };
                        (max, i) = (m, next);
                        if max < 0 {
                            min = -1;
                        }
                    }
                }
            }
            Some(_) => max = min,
        }
        if s.get(i) != Some(&b'}') {
            return Ok(None);
        }
        let after = i + 1;
        if !(0..=MAX_REPEAT).contains(&min) || max > MAX_REPEAT || (max >= 0 && min > max) {
            return Err(Failure::new(ErrorCode::InvalidRepeatSize, pos..after));
        }
        Ok(Some(Repetition { op: Op::Repeat, min, max, before: pos, after }))
    }

    /// A decimal count without leading zeros; -1 when it is 10^8 or more.
    fn parse_int(&self, pos: usize) -> Option<(i32, usize)> {
        let s = self.src;
        if !s.get(pos)?.is_ascii_digit() {
            return None;
        }
        if s[pos] == b'0' && s.get(pos + 1).is_some_and(u8::is_ascii_digit) {
            return None;
        }
        let end = pos + s[pos..].iter().take_while(|b| b.is_ascii_digit()).count();
        let mut n: i32 = 0;
        for &d in &s[pos..end] {
            if n >= 100_000_000 {
                n = -1;
                break;
            }
            n = n * 10 + i32::from(d - b'0');
        }
        Some((n, end))
    }

    /// Parses a backslash sequence at `pos` outside a class.
    fn parse_backslash(&mut self, pos: usize) -> Res<usize> {
        let simple = match self.src.get(pos + 1) {
            Some(b'A') => Some(Op::BeginText),
            Some(b'b') => Some(Op::WordBoundary),
            Some(b'B') => Some(Op::NoWordBoundary),
            Some(b'z') => Some(Op::EndText),
            Some(b'C') => return Err(Failure::new(ErrorCode::InvalidEscape, pos..pos + 2)),
            Some(b'Q') => return self.parse_quoted(pos + 2),
            _ => None,
        };
        if let Some(op) = simple {
            self.op(op)?;
            return Ok(pos + 2);
        }

        // Go allocates the class node before knowing it is one; the
        // allocation shows in its node count, so do the same.
        let re = self.new_node(Op::CharClass);
        self.nodes[re].flags = self.flags;
        if matches!(self.src.get(pos + 1), Some(b'p' | b'P')) {
            let mut class = Class::default();
            let rest = self.parse_unicode_class(pos, &mut class)?;
            self.set_class(re, class);
            self.push(re)?;
            return Ok(rest);
        }
        if let Some(group) = self.src.get(pos + 1).and_then(|&b| perl_group(b)) {
            let mut class = Class::default();
            self.append_group(&mut class, group);
            self.set_class(re, class);
            self.push(re)?;
            return Ok(pos + 2);
        }
        self.reuse(re);
        let (c, rest) = self.parse_escape(pos)?;
        self.literal(c)?;
        Ok(rest)
    }

    /// `\Q...\E`: everything up to `\E` (or the end) is literal.
    fn parse_quoted(&mut self, body: usize) -> Res<usize> {
        let len = self.src.len();
        let (end, rest) = match self.src[body..].windows(2).position(|w| w == b"\\E") {
            Some(at) => (body + at, body + at + 2),
            None => (len, len),
        };
        let mut pos = body;
        while pos < end {
            let (c, next) = self.next_rune(pos, end)?;
            self.literal(c)?;
            pos = next;
        }
        Ok(rest)
    }

    /// Parses a single-character escape at `pos` (a backslash): Go's `parseEscape`.
    fn parse_escape(&self, pos: usize) -> Res<(u32, usize)> {
        let len = self.src.len();
        if pos + 1 >= len {
            return Err(Failure::new(ErrorCode::TrailingBackslash, pos..pos));
        }
        let (c, t) = self.next_rune(pos + 1, len)?;
        let invalid = |end: usize| Failure::new(ErrorCode::InvalidEscape, pos..end);
        let Some(ch) = char::from_u32(c) else { return Err(invalid(t)) };
        match ch {
            // A single non-zero digit would be a backreference: unsupported.
            '1'..='7' if !self.src.get(t).is_some_and(is_octal) => Err(invalid(t)),
            '0'..='7' => {
                let mut r = c - u32::from(b'0');
                let mut t = t;
                for _ in 1..3 {
                    match self.src.get(t) {
                        Some(&d) if is_octal(&d) => r = r * 8 + u32::from(d - b'0'),
                        _ => break,
                    }
                    t += 1;
                }
                Ok((r, t))
            }
            'x' => self.parse_hex_escape(pos, t),
            'a' => Ok((7, t)),
            'f' => Ok((12, t)),
            'n' => Ok((10, t)),
            'r' => Ok((13, t)),
            't' => Ok((9, t)),
            'v' => Ok((11, t)),
            // Escaped punctuation is itself; PCRE's laxer `\q` is rejected.
            _ if c < 0x80 && !ch.is_ascii_alphanumeric() => Ok((c, t)),
            _ => Err(invalid(t)),
        }
    }

    /// `\xHH` or `\x{H...}`; `t` is just after the `x`.
    fn parse_hex_escape(&self, pos: usize, t: usize) -> Res<(u32, usize)> {
        let len = self.src.len();
        let invalid = |end: usize| Failure::new(ErrorCode::InvalidEscape, pos..end);
        if t >= len {
            return Err(invalid(t));
        }
        let (c, mut t) = self.next_rune(t, len)?;
        if c == u32::from(b'{') {
            let mut r: u32 = 0;
            let mut digits = 0;
            loop {
                if t >= len {
                    return Err(invalid(t));
                }
                let (c, next) = self.next_rune(t, len)?;
                t = next;
                if c == u32::from(b'}') {
                    break;
                }
                let Some(v) = unhex(c) else { return Err(invalid(t)) };
                r = r * 16 + v;
                if r > MAX_RUNE {
                    return Err(invalid(t));
                }
                digits += 1;
            }
            return if digits == 0 { Err(invalid(t)) } else { Ok((r, t)) };
        }
        // Go reads the second digit even when the first is not one (and
        // reads nothing at the end of the pattern).
        let (c2, t) = if t < len { self.next_rune(t, len)? } else { (0xFFFD, t) };
        match (unhex(c), unhex(c2)) {
            (Some(x), Some(y)) => Ok((x * 16 + y, t)),
            _ => Err(invalid(t)),
        }
    }

    // ---- Character classes.

    /// Parses a bracketed class at `pos` (a `[`) and pushes it.
    fn parse_class(&mut self, pos: usize) -> Res<usize> {
        let len = self.src.len();
        let re = self.new_node(Op::CharClass);
        self.nodes[re].flags = self.flags;
        let mut class = Class::default();
        let mut t = pos + 1;
        let negated = self.src.get(t) == Some(&b'^');
        if negated {
            t += 1;
        }
        // `]` is literal as the first member, `[]a]`; `-` is fine anywhere (Perl).
        let mut first = true;
        while t >= len || self.src[t] != b']' || first {
            first = false;
            if let Some(next) = self.parse_class_group(t, &mut class)? {
                t = next;
                continue;
            }
            t = self.parse_class_range(pos, t, &mut class)?;
        }
        class.clean();
        if negated {
            class.negate();
        }
        self.set_class(re, class);
        self.push(re)?;
        Ok(t + 1)
    }

    /// A named member of a class at `t`: `[:alpha:]`, `\pL` or `\d`.
    fn parse_class_group(&mut self, t: usize, class: &mut Class) -> Res<Option<usize>> {
        let s = self.src;
        if s.len() - t > 2
            && s[t] == b'['
            && s[t + 1] == b':'
            && let Some(end) = self.find_colon_bracket(t + 2)
        {
            let Some(group) = posix_group(&s[t..end + 2]) else {
                return Err(Failure::new(ErrorCode::InvalidCharRange, t..end + 2));
            };
            self.append_group(class, group);
            return Ok(Some(end + 2));
        }
        if s.get(t) == Some(&b'\\') && matches!(s.get(t + 1), Some(b'p' | b'P')) {
            return self.parse_unicode_class(t, class).map(Some);
        }
        if s.get(t) == Some(&b'\\')
            && let Some(group) = s.get(t + 1).and_then(|&b| perl_group(b))
        {
            self.append_group(class, group);
            return Ok(Some(t + 2));
        }
        Ok(None)
    }

    /// A single character or a range `lo-hi` at `t`, in the class opened at `open`.
    fn parse_class_range(&self, open: usize, t: usize, class: &mut Class) -> Res<usize> {
        let (lo, mut t2) = self.parse_class_char(open, t)?;
        let mut hi = lo;
        // `[a-]` means a or -, so look for the closing `]`.
        if self.src.len() - t2 >= 2 && self.src[t2] == b'-' && self.src[t2 + 1] != b']' {
            (hi, t2) = self.parse_class_char(open, t2 + 1)?;
            if hi < lo {
                return Err(Failure::new(ErrorCode::InvalidCharRange, t..t2));
            }
        }
        if self.flags & FOLD_CASE == 0 {
            append_range(&mut class.runes, lo, hi);
        } else {
            append_folded_range(&mut class.runes, lo, hi);
        }
        Ok(t2)
    }

    fn parse_class_char(&self, open: usize, t: usize) -> Res<(u32, usize)> {
        let len = self.src.len();
        if t >= len {
            return Err(Failure::new(ErrorCode::MissingBracket, open..len));
        }
        if self.src[t] == b'\\' {
            return self.parse_escape(t);
        }
        self.next_rune(t, len)
    }

    /// Index of the first `:]` at or after `from`, remembering the last
    /// answer: class parsing asks with increasing `from`.
    fn find_colon_bracket(&mut self, from: usize) -> Option<usize> {
        if let Some((asked, answer)) = self.colon_bracket
            && asked <= from
            && answer.is_none_or(|at| at >= from)
        {
            return answer;
        }
        let answer = self.src.get(from..)?.windows(2).position(|w| w == b":]").map(|at| from + at);
        self.colon_bracket = Some((from, answer));
        answer
    }

    /// Parses `\pX`, `\p{Name}`, `\PX`, `\P{^Name}` at `pos` into `class`.
    fn parse_unicode_class(&self, pos: usize, class: &mut Class) -> Res<usize> {
        let s = self.src;
        let len = s.len();
        let mut negated = s[pos + 1] == b'P';
        let (c, t) = if pos + 2 < len { self.next_rune(pos + 2, len)? } else { (0xFFFD, pos + 2) };
        let (seq_end, name, rest) = if c != u32::from(b'{') {
            (t, pos + 2..t, t)
        } else {
            let Some(end) = s[pos..].iter().position(|&b| b == b'}').map(|e| pos + e) else {
                self.check_utf8(pos, len)?;
                return Err(Failure::new(ErrorCode::InvalidCharRange, pos..len));
            };
            self.check_utf8(pos + 3, end)?;
            (end + 1, pos + 3..end, end + 1)
        };
        let mut name = &s[name];
        if let Some(stripped) = name.strip_prefix(b"^") {
            negated = !negated;
            name = stripped;
        }
        let Some(table) = unicode_table(name) else {
            return Err(Failure::new(ErrorCode::InvalidCharRange, pos..seq_end));
        };
        class.append_table(table, negated != table.inverted, self.flags & FOLD_CASE != 0);
        Ok(rest)
    }

    /// Go's `appendGroup`: a Perl or POSIX group, case-folded under `(?i)`.
    fn append_group(&self, class: &mut Class, (negated, ranges): Group) {
        if self.flags & FOLD_CASE == 0 {
            if negated {
                append_negated(&mut class.runes, ranges);
            } else {
                append_ranges(&mut class.runes, ranges);
            }
            return;
        }
        let mut folded = Vec::new();
        for pair in ranges.chunks_exact(2) {
            append_folded_range(&mut folded, pair[0], pair[1]);
        }
        clean_ranges(&mut folded);
        if negated {
            append_negated(&mut class.runes, &folded);
        } else {
            append_ranges(&mut class.runes, &folded);
        }
    }

    fn set_class(&mut self, id: usize, class: Class) {
        let node = self.node_mut(id);
        node.runes = class.runes;
        node.tokens = class.tokens;
    }

    // ---- Node arena and parse stack (Go's newRegexp, reuse, push, ...).

    fn node_mut(&mut self, id: usize) -> &mut Node {
        let node = &mut self.nodes[id];
        node.size_dirty = true;
        node.height_dirty = true;
        node
    }

    fn op_of(&self, id: usize) -> Op {
        self.nodes[id].op
    }

    /// Go's `newRegexp`: recycled nodes keep their size memo (Go's map entry
    /// survives recycling); fresh nodes count towards the budgets.
    fn new_node(&mut self, op: Op) -> usize {
        let id = match self.free.pop() {
            Some(id) => id,
            None => {
                self.nodes.push(Node::default());
                self.num_regexp += 1;
                self.nodes.len() - 1
            }
        };
        let node = self.node_mut(id);
        node.op = op;
        node.flags = 0;
        node.cap = 0;
        node.min = 0;
        node.max = 0;
        node.runes.clear();
        node.start = 0;
        node.tokens.clear();
        node.subs.clear();
        node.height_suffix.clear();
        id
    }

    /// Go's `reuse`: the node goes on the free list and loses its height memo.
    fn reuse(&mut self, id: usize) {
        self.nodes[id].height = None;
        self.free.push(id);
    }

    fn op(&mut self, op: Op) -> Res<usize> {
        let id = self.new_node(op);
        self.nodes[id].flags = self.flags;
        self.push(id)?;
        Ok(id)
    }

    fn literal(&mut self, r: u32) -> Res<()> {
        let id = self.new_node(Op::Literal);
        let r = if self.flags & FOLD_CASE != 0 { min_fold_rune(r) } else { r };
        let flags = self.flags;
        let node = self.node_mut(id);
        node.flags = flags;
        node.runes.push(r);
        self.push(id).map(|_| ())
    }

    /// Go's `push`: a class of one rune (or one case-folded pair) becomes a
    /// literal, literals merge into strings, and every push checks the budgets.
    /// `None` when the rune was merged into the literal below.
    fn push(&mut self, id: usize) -> Res<Option<usize>> {
        self.num_runes += self.nodes[id].lit().len();
        if let Some((r, fold)) = self.single_rune_class(id) {
            let flags = if fold { self.flags | FOLD_CASE } else { self.flags & !FOLD_CASE };
            if self.maybe_concat(Some((r, flags))) {
                return Ok(None);
            }
            let node = self.node_mut(id);
            node.op = Op::Literal;
            node.runes.truncate(1);
            node.flags = flags;
        } else {
            self.maybe_concat(None);
        }
        self.stack.push(id);
        self.check_limits(id)?;
        Ok(Some(id))
    }

    /// `Some((rune, folded))` when `id` is a class of exactly one rune, or of
    /// exactly one rune and its case-fold partner (like `[Aa]`).
    fn single_rune_class(&self, id: usize) -> Option<(u32, bool)> {
        let node = &self.nodes[id];
        if node.op != Op::CharClass || !node.tokens.is_empty() {
            return None;
        }
        let pair = |a: u32, b: u32| simple_fold(a) == b && simple_fold(b) == a;
        match node.runes[..] {
            [lo, hi] if lo == hi => Some((lo, false)),
            [a, a2, b, b2] if a == a2 && b == b2 && pair(a, b) => Some((a, true)),
            [lo, hi] if lo + 1 == hi && pair(lo, hi) => Some((lo, true)),
            _ => None,
        }
    }

    /// Go's `maybeConcat`: merges the two literals on top of the stack when
    /// their case folding agrees. With `next`, the freed top node is reused
    /// at once for that rune and true returned.
    fn maybe_concat(&mut self, next: Option<(u32, u16)>) -> bool {
        let n = self.stack.len();
        if n < 2 {
            return false;
        }
        let (re1, re2) = (self.stack[n - 1], self.stack[n - 2]);
        let (a, b) = (&self.nodes[re1], &self.nodes[re2]);
        if a.op != Op::Literal || b.op != Op::Literal || (a.flags ^ b.flags) & FOLD_CASE != 0 {
            return false;
        }
        let moved = a.lit().to_vec();
        self.node_mut(re2).runes.extend(moved);
        if let Some((r, flags)) = next {
            let node = self.node_mut(re1);
            node.runes.clear();
            node.start = 0;
            node.runes.push(r);
            node.flags = flags;
            return true;
        }
        self.stack.pop();
        self.reuse(re1);
        false
    }

    /// Index just above the topmost pseudo-op (`(` or `|`) of the stack.
    fn above_pseudo(&self) -> usize {
        self.stack.iter().rposition(|&id| self.op_of(id) >= Op::LeftParen).map_or(0, |i| i + 1)
    }

    /// Go's `concat`: the stack above the topmost `|` or `(` becomes one node.
    fn concat(&mut self) -> Res<()> {
        self.maybe_concat(None);
        let subs = self.stack.split_off(self.above_pseudo());
        let re = if subs.is_empty() { self.new_node(Op::EmptyMatch) } else { self.collapse(subs, Op::Concat)? };
        self.push(re).map(|_| ())
    }

    /// Go's `alternate`: the stack above the topmost `(` becomes one node.
    fn alternate(&mut self) -> Res<()> {
        let subs = self.stack.split_off(self.above_pseudo());
        if let Some(&last) = subs.last() {
            self.clean_alt(last);
        }
        let re = if subs.is_empty() { self.new_node(Op::NoMatch) } else { self.collapse(subs, Op::Alternate)? };
        self.push(re).map(|_| ())
    }

    fn parse_vertical_bar(&mut self) -> Res<()> {
        self.concat()?;
        if !self.swap_vertical_bar() {
            self.op(Op::VerticalBar)?;
        }
        Ok(())
    }

    /// Go's `swapVerticalBar`: keeps the `|` marker on top of the finished
    /// alternatives, merging adjacent single-character alternatives into one class.
    fn swap_vertical_bar(&mut self) -> bool {
        let n = self.stack.len();
        if n >= 3
            && self.op_of(self.stack[n - 2]) == Op::VerticalBar
            && self.is_char_class(self.stack[n - 1])
            && self.is_char_class(self.stack[n - 3])
        {
            let (mut re1, mut re3) = (self.stack[n - 1], self.stack[n - 3]);
            // Merge into the more complex of the two.
            if self.op_of(re1) > self.op_of(re3) {
                (re1, re3) = (re3, re1);
                self.stack[n - 3] = re3;
            }
            self.merge_char_class(re3, re1);
            self.reuse(re1);
            self.stack.pop();
            return true;
        }
        if n >= 2 && self.op_of(self.stack[n - 2]) == Op::VerticalBar {
            if n >= 3 {
                self.clean_alt(self.stack[n - 3]);
            }
            self.stack.swap(n - 1, n - 2);
            return true;
        }
        false
    }

    fn parse_right_paren(&mut self) -> Res<()> {
        self.concat()?;
        if self.swap_vertical_bar() {
            self.stack.pop();
        }
        self.alternate()?;
        let n = self.stack.len();
        if n < 2 {
            return Err(self.whole(ErrorCode::UnexpectedParen));
        }
        let (re1, re2) = (self.stack[n - 1], self.stack[n - 2]);
        self.stack.truncate(n - 2);
        if self.op_of(re2) != Op::LeftParen {
            return Err(self.whole(ErrorCode::UnexpectedParen));
        }
        // Flags set inside the group end with it.
        self.flags = self.nodes[re2].flags;
        if self.nodes[re2].cap == 0 {
            self.push(re1)?;
        } else {
            let node = self.node_mut(re2);
            node.op = Op::Capture;
            node.subs.clear();
            node.subs.push_back(re1);
            self.push(re2)?;
        }
        Ok(())
    }

    /// Go's `repeat`: applies a repetition operator to the top of the stack.
    /// `last_repeat` is where the operator just before this one started, if
    /// this one follows it directly (Perl forbids `a**`).
    fn repeat(&mut self, rep: Repetition, last_repeat: Option<usize>) -> Res<usize> {
        let mut flags = self.flags;
        let mut after = rep.after;
        if self.src.get(after) == Some(&b'?') {
            after += 1;
            flags ^= NON_GREEDY;
        }
        if let Some(last) = last_repeat {
            return Err(Failure::new(ErrorCode::InvalidRepeatOp, last..after));
        }
        let missing = Failure::new(ErrorCode::MissingRepeatArgument, rep.before..after);
        let Some(&sub) = self.stack.last() else { return Err(missing) };
        if self.op_of(sub) >= Op::LeftParen {
            return Err(missing);
        }
        let re = self.new_node(rep.op);
        let node = self.node_mut(re);
        (node.min, node.max, node.flags) = (rep.min, rep.max, flags);
        node.subs.push_back(sub);
        if let Some(top) = self.stack.last_mut() {
            *top = re;
        }
        self.check_limits(re)?;
        if rep.op == Op::Repeat && (rep.min >= 2 || rep.max >= 2) && !self.repeat_is_valid(re, MAX_REPEAT) {
            return Err(Failure::new(ErrorCode::InvalidRepeatSize, rep.before..after));
        }
        Ok(after)
    }

    /// Go's `repeatIsValid`: along every path, the product of the nested
    /// repetition counts stays within `n`. Walked without recursion.
    fn repeat_is_valid(&self, re: usize, n: i32) -> bool {
        let mut work = vec![(re, n)];
        while let Some((id, mut n)) = work.pop() {
            let node = &self.nodes[id];
            if node.op == Op::Repeat {
                let mut m = node.max;
                if m == 0 {
                    continue;
                }
                if m < 0 {
                    m = node.min;
                }
                if m > n {
                    return false;
                }
                if m > 0 {
                    n /= m;
                }
            }
            work.extend(node.subs.iter().map(|&sub| (sub, n)));
        }
        true
    }

    // ---- Collapsing and factoring alternations.

    /// Go's `collapse`: one node applying `op` to `subs`, flattening nested
    /// nodes of the same op and factoring alternations.
    fn collapse(&mut self, subs: Vec<usize>, op: Op) -> Res<usize> {
        if let [only] = subs[..] {
            return Ok(only);
        }
        let re = self.new_node(op);
        let mut flat = Vec::with_capacity(subs.len());
        for sub in subs {
            if self.op_of(sub) == op {
                flat.extend(self.nodes[sub].subs.iter().copied());
                self.reuse(sub);
            } else {
                flat.push(sub);
            }
        }
        if op == Op::Alternate {
            flat = self.factor(flat)?;
            if let [only] = flat[..] {
                self.reuse(re);
                return Ok(only);
            }
        }
        self.node_mut(re).subs = flat.into();
        Ok(re)
    }

    /// Go's `factor`: pulls common prefixes out of alternatives
    /// (`abc|abd` is `ab[cd]`), in four rounds.
    fn factor(&mut self, sub: Vec<usize>) -> Res<Vec<usize>> {
        if sub.len() < 2 {
            return Ok(sub);
        }
        self.factor_depth += 1;
        if self.factor_depth > MAX_FACTOR_DEPTH {
            return Err(self.whole(ErrorCode::NestingDepth));
        }
        let sub = self.factor_literal_prefixes(sub)?;
        let sub = self.factor_leading_classes(sub)?;
        let sub = self.merge_class_runs(sub);
        let sub = self.squash_empty_matches(sub);
        self.factor_depth -= 1;
        Ok(sub)
    }

    /// Round 1: alternatives sharing a leading literal string (with the same
    /// case folding) become `prefix(suffix1|suffix2|...)`.
    fn factor_literal_prefixes(&mut self, mut sub: Vec<usize>) -> Res<Vec<usize>> {
        let mut out = Vec::with_capacity(sub.len());
        let mut prefix: Option<(usize, usize)> = None; // literal node, rune count
        let mut prefix_flags = 0;
        let mut start = 0;
        for i in 0..=sub.len() {
            let (mut next, mut next_flags) = (None, 0);
            if i < sub.len() {
                (next, next_flags) = self.leading_string(sub[i]);
                if next_flags == prefix_flags {
                    let same = self.common_prefix(prefix, next);
                    if same > 0 {
                        prefix = prefix.map(|(id, _)| (id, same));
                        continue;
                    }
                }
            }
            if i == start + 1 {
                out.push(sub[start]);
            } else if let (true, Some((lit, n))) = (i > start + 1, prefix) {
                let head = self.new_node(Op::Literal);
                let runes = self.nodes[lit].lit().iter().take(n).copied().collect();
                let node = self.node_mut(head);
                (node.flags, node.runes) = (prefix_flags, runes);
                for alt in &mut sub[start..i] {
                    *alt = self.remove_leading_string(*alt, n);
                    self.check_limits(*alt)?;
                }
                let suffix = self.collapse(sub[start..i].to_vec(), Op::Alternate)?;
                out.push(self.new_concat(head, suffix));
            }
            (start, prefix, prefix_flags) = (i, next, next_flags);
        }
        Ok(out)
    }

    /// Round 2: alternatives starting with the same character class (or the
    /// same fixed repetition of one) become `class(suffix1|suffix2|...)`.
    fn factor_leading_classes(&mut self, mut sub: Vec<usize>) -> Res<Vec<usize>> {
        let mut out = Vec::with_capacity(sub.len());
        let mut first: Option<usize> = None;
        let mut start = 0;
        for i in 0..=sub.len() {
            let mut next = None;
            if i < sub.len() {
                next = self.leading_regexp(sub[i]);
                if let (Some(f), Some(g)) = (first, next)
                    && self.is_factorable(f)
                    && self.equal(f, g)
                {
                    continue;
                }
            }
            if i == start + 1 {
                out.push(sub[start]);
            } else if let (true, Some(prefix)) = (i > start + 1, first) {
                for (k, alt) in sub[start..i].iter_mut().enumerate() {
                    // The prefix itself is the first alternative's node; the
                    // others' equal copies are recycled.
                    *alt = self.remove_leading_regexp(*alt, k != 0);
                    self.check_limits(*alt)?;
                }
                let suffix = self.collapse(sub[start..i].to_vec(), Op::Alternate)?;
                out.push(self.new_concat(prefix, suffix));
            }
            (start, first) = (i, next);
        }
        Ok(out)
    }

    /// Round 3: runs of single-character alternatives merge into one class.
    fn merge_class_runs(&mut self, mut sub: Vec<usize>) -> Vec<usize> {
        let mut out = Vec::with_capacity(sub.len());
        let mut start = 0;
        for i in 0..=sub.len() {
            if i < sub.len() && self.is_char_class(sub[i]) {
                continue;
            }
            if i == start + 1 {
                out.push(sub[start]);
            } else if i > start + 1 {
                // Merge into the most complex one (Go's order: op, then rune count).
                let mut max = start;
                for j in start + 1..i {
                    let (a, b) = (&self.nodes[sub[max]], &self.nodes[sub[j]]);
                    if a.op < b.op || (a.op == b.op && a.lit().len() < b.lit().len()) {
                        max = j;
                    }
                }
                sub.swap(start, max);
                for j in start + 1..i {
                    self.merge_char_class(sub[start], sub[j]);
                    self.reuse(sub[j]);
                }
                self.clean_alt(sub[start]);
                out.push(sub[start]);
            }
            if i < sub.len() {
                out.push(sub[i]);
            }
            start = i + 1;
        }
        out
    }

    /// Round 4: runs of empty matches collapse into one.
    fn squash_empty_matches(&self, sub: Vec<usize>) -> Vec<usize> {
        let empty = |id: usize| self.op_of(id) == Op::EmptyMatch;
        let mut out = Vec::with_capacity(sub.len());
        for (i, &id) in sub.iter().enumerate() {
            if !(empty(id) && sub.get(i + 1).is_some_and(|&next| empty(next))) {
                out.push(id);
            }
        }
        out
    }

    fn new_concat(&mut self, prefix: usize, suffix: usize) -> usize {
        let re = self.new_node(Op::Concat);
        self.node_mut(re).subs.extend([prefix, suffix]);
        re
    }

    /// The literal an alternative starts with: (node, rune count) and its case folding.
    fn leading_string(&self, mut re: usize) -> (Option<(usize, usize)>, u16) {
        if let (Op::Concat, Some(&first)) = (self.op_of(re), self.nodes[re].subs.front()) {
            re = first;
        }
        let node = &self.nodes[re];
        if node.op != Op::Literal {
            return (None, 0);
        }
        (Some((re, node.lit().len())), node.flags & FOLD_CASE)
    }

    fn common_prefix(&self, a: Option<(usize, usize)>, b: Option<(usize, usize)>) -> usize {
        let (Some((a, a_len)), Some((b, b_len))) = (a, b) else { return 0 };
        let (a, b) = (&self.nodes[a].lit(), &self.nodes[b].lit());
        a.iter().zip(b.iter()).take(a_len.min(b_len)).take_while(|(x, y)| x == y).count()
    }

    /// Takes the first `n` runes off the literal `re` starts with.
    fn remove_leading_string(&mut self, re: usize, n: usize) -> usize {
        if let (Op::Concat, Some(&first)) = (self.op_of(re), self.nodes[re].subs.front()) {
            let sub = self.remove_leading_string(first, n);
            if self.nodes[re].subs[0] != sub {
                self.node_mut(re).subs[0] = sub;
            }
            if self.op_of(sub) == Op::EmptyMatch {
                self.reuse(sub);
                match self.nodes[re].subs.len() {
                    0 | 1 => {
                        let node = self.node_mut(re);
                        node.op = Op::EmptyMatch;
                        node.subs.clear();
                    }
                    2 => {
                        let rest = self.nodes[re].subs[1];
                        self.reuse(re);
                        return rest;
                    }
                    _ => {
                        self.pop_front_sub(re);
                    }
                }
            }
            return re;
        }
        if self.op_of(re) == Op::Literal {
            let node = self.node_mut(re);
            node.start = (node.start + n).min(node.runes.len());
            if node.lit().is_empty() {
                node.op = Op::EmptyMatch;
            }
        }
        re
    }

    /// Takes the first element off the concatenation `re`, keeping its
    /// measures current: the element's memos are the ones they were summed with.
    fn pop_front_sub(&mut self, re: usize) {
        let Some(first) = self.nodes[re].subs.pop_front() else { return };
        let first_size = self.nodes[first].size.unwrap_or_default();
        let node = &mut self.nodes[re];
        node.size_sum = node.size_sum.saturating_sub(first_size);
        node.height_front += 1;
    }

    /// The first element of an alternative, if it has one.
    fn leading_regexp(&self, re: usize) -> Option<usize> {
        let node = &self.nodes[re];
        match (node.op, node.subs.front()) {
            (Op::EmptyMatch, _) => None,
            (Op::Concat, Some(&first)) => (self.op_of(first) != Op::EmptyMatch).then_some(first),
            _ => Some(re),
        }
    }

    /// Takes the first element off `re`, recycling it when `reuse`.
    fn remove_leading_regexp(&mut self, re: usize, reuse: bool) -> usize {
        if let (Op::Concat, Some(&first)) = (self.op_of(re), self.nodes[re].subs.front()) {
            if reuse {
                self.reuse(first);
            }
            self.pop_front_sub(re);
            match self.nodes[re].subs.len() {
                0 => {
                    let node = self.node_mut(re);
                    node.op = Op::EmptyMatch;
                    node.subs.clear();
                }
                1 => {
                    let only = self.nodes[re].subs[0];
                    self.reuse(re);
                    return only;
                }
                _ => {}
            }
            return re;
        }
        if reuse {
            self.reuse(re);
        }
        self.new_node(Op::EmptyMatch)
    }

    /// Can this be represented as a character class?
    fn is_char_class(&self, id: usize) -> bool {
        let node = &self.nodes[id];
        match node.op {
            Op::Literal => node.lit().len() == 1,
            Op::CharClass | Op::AnyCharNotNl | Op::AnyChar => true,
            _ => false,
        }
    }

    /// Round 2 only factors a class, or a fixed repetition of one.
    fn is_factorable(&self, id: usize) -> bool {
        let node = &self.nodes[id];
        self.is_char_class(id)
            || (node.op == Op::Repeat
                && node.min == node.max
                && node.subs.front().is_some_and(|&s| self.is_char_class(s)))
    }

    /// Go's `Regexp.Equal`, without recursion.
    fn equal(&self, x: usize, y: usize) -> bool {
        let mut work = vec![(x, y)];
        while let Some((x, y)) = work.pop() {
            let (a, b) = (&self.nodes[x], &self.nodes[y]);
            if a.op != b.op {
                return false;
            }
            let same = match a.op {
                Op::EndText => a.flags & WAS_DOLLAR == b.flags & WAS_DOLLAR,
                Op::Literal | Op::CharClass => a.lit() == b.lit() && a.tokens == b.tokens,
                Op::Alternate | Op::Concat => a.subs.len() == b.subs.len(),
                Op::Star | Op::Plus | Op::Quest => a.flags & NON_GREEDY == b.flags & NON_GREEDY,
                Op::Repeat => a.flags & NON_GREEDY == b.flags & NON_GREEDY && a.min == b.min && a.max == b.max,
                Op::Capture => a.cap == b.cap,
                _ => true,
            };
            if !same {
                return false;
            }
            work.extend(a.subs.iter().copied().zip(b.subs.iter().copied()));
        }
        true
    }

    /// Go's `mergeCharClass`: `dst = dst|src`, where `dst` is the more complex.
    fn merge_char_class(&mut self, dst: usize, src: usize) {
        let (src_first, src_flags) = (self.nodes[src].lit().first().copied(), self.nodes[src].flags);
        let (src_op, src_runes, src_tokens) = {
            let s = &self.nodes[src];
            (s.op, s.runes.clone(), s.tokens.clone())
        };
        let matches_newline = self.matches_rune(src, u32::from(b'\n'));
        let node = self.node_mut(dst);
        match node.op {
            Op::AnyCharNotNl if matches_newline => node.op = Op::AnyChar,
            Op::CharClass if src_op == Op::Literal => {
                append_literal(&mut node.runes, src_first.unwrap_or_default(), src_flags);
            }
            Op::CharClass => {
                append_ranges(&mut node.runes, &src_runes);
                node.tokens.extend(src_tokens);
            }
            Op::Literal => {
                let (first, flags) = (node.lit().first().copied().unwrap_or_default(), node.flags);
                if Some(first) == src_first && flags == src_flags {
                    return;
                }
                node.op = Op::CharClass;
                node.runes.clear();
                node.start = 0;
                append_literal(&mut node.runes, first, flags);
                append_literal(&mut node.runes, src_first.unwrap_or_default(), src_flags);
            }
            _ => {}
        }
    }

    fn matches_rune(&self, id: usize, r: u32) -> bool {
        let node = &self.nodes[id];
        match node.op {
            Op::Literal => node.lit() == [r],
            Op::CharClass => node.runes.chunks_exact(2).any(|p| p[0] <= r && r <= p[1]),
            Op::AnyCharNotNl => r != u32::from(b'\n'),
            Op::AnyChar => true,
            _ => false,
        }
    }

    /// Go's `cleanAlt`: sorts a class, and turns "everything" (or
    /// "everything but newline") into the dedicated ops.
    fn clean_alt(&mut self, id: usize) {
        if self.op_of(id) != Op::CharClass {
            return;
        }
        let node = self.node_mut(id);
        clean_ranges(&mut node.runes);
        node.tokens.sort_unstable();
        node.tokens.dedup();
        if !node.tokens.is_empty() {
            return;
        }
        if node.runes == [0, MAX_RUNE] {
            node.runes.clear();
            node.op = Op::AnyChar;
        } else if node.runes == [0, 9, 11, MAX_RUNE] {
            node.runes.clear();
            node.op = Op::AnyCharNotNl;
        }
    }

    // ---- Budgets (Go's checkLimits, checkSize, checkHeight).

    fn check_limits(&mut self, re: usize) -> Res<()> {
        if self.num_runes > MAX_RUNES {
            return Err(self.whole(ErrorCode::Large));
        }
        self.check_size(re)?;
        self.check_height(re)
    }

    /// Go only starts measuring sizes once the node count times the product
    /// of all repetition counts seen could exceed the budget.
    fn check_size(&mut self, re: usize) -> Res<()> {
        if !self.sizing {
            if self.repeats == 0 {
                self.repeats = 1;
            }
            let node = &self.nodes[re];
            if node.op == Op::Repeat {
                let n = i64::from(if node.max == -1 { node.min } else { node.max }).max(1);
                self.repeats = if n > MAX_SIZE / self.repeats { MAX_SIZE } else { self.repeats * n };
            }
            if (self.num_regexp as i64) < MAX_SIZE / self.repeats {
                return Ok(());
            }
            self.sizing = true;
            for id in self.stack.clone() {
                self.check_size(id)?;
            }
        }
        if self.calc_size(re, true) > MAX_SIZE {
            return Err(self.whole(ErrorCode::Large));
        }
        Ok(())
    }

    /// Go's `calcSize`: compiled-program size estimate, memoised per node.
    fn calc_size(&mut self, re: usize, force: bool) -> i64 {
        let node = &self.nodes[re];
        if let Some(size) = node.size {
            if !force || (!node.size_dirty && node.op != Op::Concat) {
                return size;
            }
            if !node.size_dirty {
                let size = node.size_sum.max(1);
                self.nodes[re].size = Some(size);
                return size;
            }
        }
        let (op, min, max, runes) = (node.op, i64::from(node.min), i64::from(node.max), node.lit().len() as i64);
        let subs: Vec<usize> = node.subs.iter().copied().collect();
        let sizes: Vec<i64> = subs.into_iter().map(|sub| self.calc_size(sub, false)).collect();
        let first = sizes.first().copied().unwrap_or_default();
        let total = sizes.iter().fold(0, |acc: i64, &s| acc.saturating_add(s));
        let size = match op {
            Op::Literal => runes,
            Op::Capture | Op::Star => first.saturating_add(2),
            Op::Plus | Op::Quest => first.saturating_add(1),
            Op::Concat => total,
            Op::Alternate => total.saturating_add((sizes.len() as i64 - 1).max(0)),
            // x* is 2 + x; x{2,} is xx+; x{2,5} is xx(x(x(x)?)?)?.
            Op::Repeat if max == -1 && min == 0 => first.saturating_add(2),
            Op::Repeat if max == -1 => min.saturating_mul(first).saturating_add(1),
            Op::Repeat => max.saturating_mul(first).saturating_add(max - min),
            _ => 0,
        }
        .max(1);
        let node = &mut self.nodes[re];
        node.size = Some(size);
        node.size_dirty = false;
        node.size_sum = total;
        size
    }

    /// Go only measures heights once it has allocated `MAX_HEIGHT` nodes.
    fn check_height(&mut self, re: usize) -> Res<()> {
        if (self.num_regexp as i64) < MAX_HEIGHT {
            return Ok(());
        }
        if !self.heighting {
            self.heighting = true;
            for id in self.stack.clone() {
                self.check_height(id)?;
            }
        }
        if self.calc_height(re, true) > MAX_HEIGHT {
            return Err(self.whole(ErrorCode::NestingDepth));
        }
        Ok(())
    }

    /// Go's `calcHeight`, memoised per node.
    fn calc_height(&mut self, re: usize, force: bool) -> i64 {
        let node = &self.nodes[re];
        if let Some(height) = node.height {
            if !force || (!node.height_dirty && node.op != Op::Concat) {
                return height;
            }
            if !node.height_dirty {
                let height = 1 + node.height_suffix.get(node.height_front).copied().unwrap_or(0);
                self.nodes[re].height = Some(height);
                return height;
            }
        }
        let subs: Vec<usize> = node.subs.iter().copied().collect();
        let mut suffix: Vec<i64> = subs.into_iter().map(|sub| self.calc_height(sub, false)).collect();
        for i in (1..suffix.len()).rev() {
            suffix[i - 1] = suffix[i - 1].max(suffix[i]);
        }
        let height = 1 + suffix.first().copied().unwrap_or(0);
        let node = &mut self.nodes[re];
        node.height = Some(height);
        node.height_dirty = false;
        node.height_front = 0;
        node.height_suffix = if node.op == Op::Concat { suffix } else { Vec::new() };
        height
    }
}

// ---- UTF-8, digits.

/// Go's `utf8.DecodeRuneInString` on a non-empty string: `None` where Go
/// yields `RuneError` of width 1 (any invalid encoding).
fn decode(s: &[u8]) -> Option<(u32, usize)> {
    let width = match *s.first()? {
        b @ 0x00..=0x7F => return Some((u32::from(b), 1)),
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => return None,
    };
    let c = std::str::from_utf8(s.get(..width)?).ok()?.chars().next()?;
    Some((u32::from(c), width))
}

fn is_octal(b: &u8) -> bool {
    (b'0'..=b'7').contains(b)
}

fn unhex(c: u32) -> Option<u32> {
    char::from_u32(c)?.to_digit(16)
}

// ---- Class contents: sorted range pairs, plus opaque Unicode tables.

/// A class under construction.
#[derive(Debug, Default)]
struct Class {
    runes: Vec<u32>,
    tokens: Vec<u64>,
}

const TOKEN_NEGATED: u64 = 1 << 63;
const TOKEN_FOLDED: u64 = 1 << 62;

impl Class {
    fn clean(&mut self) {
        clean_ranges(&mut self.runes);
        self.tokens.sort_unstable();
        self.tokens.dedup();
    }

    /// Negates a clean class. A class with opaque tables becomes a new opaque
    /// token, the same for the same construction.
    fn negate(&mut self) {
        match (self.runes.is_empty(), &mut self.tokens[..]) {
            (_, []) => self.runes = negated(&self.runes),
            (true, [one]) => *one ^= TOKEN_NEGATED,
            _ => {
                let mut hash = Fnv::default();
                self.runes.iter().for_each(|&r| hash.write(&r.to_le_bytes()));
                self.tokens.iter().for_each(|&t| hash.write(&t.to_le_bytes()));
                self.tokens = vec![hash.0 | TOKEN_NEGATED];
                self.runes.clear();
            }
        }
    }

    /// Go's `appendTable`/`appendNegatedTable`, with its fold table under `(?i)`.
    fn append_table(&mut self, table: &UnicodeTable, negated: bool, fold_case: bool) {
        let fold = if fold_case { table.fold } else { Fold::None };
        let Contents::Ranges(ranges) = table.contents else {
            let mut hash = Fnv::default();
            hash.write(table.key.as_bytes());
            let mut token = hash.0 & !(TOKEN_NEGATED | TOKEN_FOLDED);
            if fold != Fold::None {
                token |= TOKEN_FOLDED;
            }
            if negated {
                token |= TOKEN_NEGATED;
            }
            self.tokens.push(token);
            return;
        };
        let mut tmp = ranges.to_vec();
        if let Fold::Extra(extra) = fold {
            append_ranges(&mut tmp, extra);
            clean_ranges(&mut tmp);
        }
        if negated {
            append_negated(&mut self.runes, &tmp);
        } else {
            append_ranges(&mut self.runes, &tmp);
        }
    }
}

/// Go's `appendRange`: adds `lo-hi`, merging with the last two ranges when
/// they touch (the rest is left to `clean_ranges`).
fn append_range(r: &mut Vec<u32>, lo: u32, hi: u32) {
    let n = r.len();
    for i in [2, 4] {
        if n >= i {
            let (rlo, rhi) = (r[n - i], r[n - i + 1]);
            if lo <= rhi + 1 && rlo <= hi + 1 {
                r[n - i] = rlo.min(lo);
                r[n - i + 1] = rhi.max(hi);
                return;
            }
        }
    }
    r.extend([lo, hi]);
}

fn append_ranges(r: &mut Vec<u32>, ranges: &[u32]) {
    for pair in ranges.chunks_exact(2) {
        append_range(r, pair[0], pair[1]);
    }
}

/// Appends the complement of the clean `ranges`.
fn append_negated(r: &mut Vec<u32>, ranges: &[u32]) {
    append_ranges(r, &negated(ranges));
}

fn negated(ranges: &[u32]) -> Vec<u32> {
    let mut out = Vec::with_capacity(ranges.len() + 2);
    let mut next_lo = 0;
    for pair in ranges.chunks_exact(2) {
        if next_lo < pair[0] {
            out.extend([next_lo, pair[0] - 1]);
        }
        next_lo = pair[1] + 1;
    }
    if next_lo <= MAX_RUNE {
        out.extend([next_lo, MAX_RUNE]);
    }
    out
}

/// Go's `cleanClass`: sorts the ranges and merges overlapping or adjacent ones.
fn clean_ranges(r: &mut Vec<u32>) {
    let mut pairs: Vec<(u32, u32)> = r.chunks_exact(2).map(|p| (p[0], p[1])).collect();
    pairs.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
    r.clear();
    for (lo, hi) in pairs {
        match r.last_mut() {
            Some(last) if lo <= *last + 1 => *last = (*last).max(hi),
            _ => r.extend([lo, hi]),
        }
    }
}

fn append_literal(r: &mut Vec<u32>, c: u32, flags: u16) {
    if flags & FOLD_CASE != 0 {
        append_folded_range(r, c, c);
    } else {
        append_range(r, c, c);
    }
}

/// Go's `appendFoldedRange`: `lo-hi` plus every rune that case-folds to one
/// in it. Go walks the range rune by rune; here only the orbits reaching
/// outside the range are walked, which adds the same runes.
fn append_folded_range(r: &mut Vec<u32>, lo: u32, hi: u32) {
    append_range(r, lo, hi);
    if hi < MIN_FOLD || lo > MAX_FOLD {
        return;
    }
    let folds = folds();
    let first = folds.runes.partition_point(|&c| c < lo);
    for (i, &c) in folds.runes.iter().enumerate().skip(first).take_while(|&(_, &c)| c <= hi) {
        if folds.orbit_lo[i] >= lo && folds.orbit_hi[i] <= hi {
            continue;
        }
        let mut f = folds.next[i];
        while f != c {
            append_range(r, f, f);
            f = simple_fold(f);
        }
    }
}

// ---- Case folding (Go's unicode.SimpleFold orbits).

/// The runes that take part in simple case folding, sorted, each with the
/// next rune of its orbit (Go's `SimpleFold`).
#[derive(Debug)]
struct Folds {
    runes: Vec<u32>,
    next: Vec<u32>,
    /// The smallest and largest rune of each rune's orbit.
    orbit_lo: Vec<u32>,
    orbit_hi: Vec<u32>,
}

fn folds() -> &'static Folds {
    static FOLDS: OnceLock<Folds> = OnceLock::new();
    FOLDS.get_or_init(build_folds)
}

/// Go's `unicode.SimpleFold`: the next rune of `r`'s case-folding orbit.
fn simple_fold(r: u32) -> u32 {
    let folds = folds();
    folds.runes.binary_search(&r).map_or(r, |i| folds.next[i])
}

/// Go's `minFoldRune`: the smallest rune of `r`'s orbit.
fn min_fold_rune(r: u32) -> u32 {
    if !(MIN_FOLD..=MAX_FOLD).contains(&r) {
        return r;
    }
    let mut min = r;
    let mut f = simple_fold(r);
    while f != r {
        min = min.min(f);
        f = simple_fold(f);
    }
    min
}

/// Runes Rust's tables case-map but Go's do not: the Turkic dotted and
/// dotless i (excluded from simple case folding) and the case pairs added
/// after Unicode 15, Go's edition.
fn fold_excluded(c: u32) -> bool {
    matches!(c, 0x130 | 0x131 | 0x1C89 | 0x1C8A | 0xA7CB..=0xA7CD | 0xA7DA..=0xA7DC | 0x10D50..=0x10D65 | 0x10D70..=0x10D85)
}

/// Builds the orbits from Rust's one-to-one case mappings: runes joined by
/// a single-rune lower- or uppercase mapping share an orbit.
fn build_folds() -> Folds {
    fn find(parent: &mut [u32], mut c: u32) -> u32 {
        while parent[c as usize] != c {
            let up = parent[parent[c as usize] as usize];
            parent[c as usize] = up;
            c = up;
        }
        c
    }
    fn single(mut mapping: impl Iterator<Item = char>) -> Option<u32> {
        let c = mapping.next()?;
        mapping.next().is_none().then_some(u32::from(c))
    }
    let foldable = |c: u32| (MIN_FOLD..=MAX_FOLD).contains(&c) && !fold_excluded(c);
    let mut parent: Vec<u32> = (0..=MAX_FOLD).collect();
    for c in MIN_FOLD..=MAX_FOLD {
        let Some(ch) = char::from_u32(c).filter(|_| foldable(c)) else { continue };
        for other in [single(ch.to_lowercase()), single(ch.to_uppercase())].into_iter().flatten() {
            if other != c && foldable(other) {
                let (a, b) = (find(&mut parent, c), find(&mut parent, other));
                parent[a.max(b) as usize] = a.min(b);
            }
        }
    }
    let mut members: Vec<(u32, u32)> = (MIN_FOLD..=MAX_FOLD).map(|c| (find(&mut parent, c), c)).collect();
    members.sort_unstable();
    // (rune, next in orbit, orbit's first, orbit's last)
    let mut entries: Vec<(u32, u32, u32, u32)> = Vec::new();
    for orbit in members.chunk_by(|a, b| a.0 == b.0).filter(|orbit| orbit.len() > 1) {
        let (lo, hi) = (orbit[0].1, orbit[orbit.len() - 1].1);
        for (i, &(_, c)) in orbit.iter().enumerate() {
            entries.push((c, orbit[(i + 1) % orbit.len()].1, lo, hi));
        }
    }
    entries.sort_unstable();
    Folds {
        runes: entries.iter().map(|e| e.0).collect(),
        next: entries.iter().map(|e| e.1).collect(),
        orbit_lo: entries.iter().map(|e| e.2).collect(),
        orbit_hi: entries.iter().map(|e| e.3).collect(),
    }
}

// ---- Named groups: Perl, POSIX and Unicode.

/// A negation flag and clean range pairs.
type Group = (bool, &'static [u32]);

const DIGIT: &[u32] = &[0x30, 0x39];
const SPACE_PERL: &[u32] = &[0x9, 0xA, 0xC, 0xD, 0x20, 0x20];
const WORD: &[u32] = &[0x30, 0x39, 0x41, 0x5A, 0x5F, 0x5F, 0x61, 0x7A];

/// `\d \D \s \S \w \W` (Go's `\s` leaves out `\v`).
fn perl_group(letter: u8) -> Option<Group> {
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
fn posix_group(name: &[u8]) -> Option<Group> {
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

/// What a Unicode table holds: its ranges where they are small and stable,
/// else nothing (an opaque table).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Contents {
    Ranges(&'static [u32]),
    Opaque,
}

/// The extra runes Go's fold table for a Unicode table adds under `(?i)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fold {
    None,
    /// A fold table whose contents are not embedded.
    Opaque,
    Extra(&'static [u32]),
}

#[derive(Debug, Clone, Copy)]
struct UnicodeTable {
    key: &'static str,
    contents: Contents,
    fold: Fold,
    /// `Assigned` is Go's `Cn` (unassigned) inverted.
    inverted: bool,
}

/// Go's category names (`unicode.Categories`, plus `Cn` and `LC` of Go
/// 1.25), with the long aliases of Go 1.25's `unicode.CategoryAliases`.
const CATEGORIES: &[(&str, &[&str])] = &[
    ("C", &["Other"]),
    ("Cc", &["Control", "cntrl"]),
    ("Cf", &["Format"]),
    ("Cn", &["Unassigned"]),
    ("Co", &["Private_Use"]),
    ("Cs", &["Surrogate"]),
    ("L", &["Letter"]),
    ("LC", &["Cased_Letter"]),
    ("Ll", &["Lowercase_Letter"]),
    ("Lm", &["Modifier_Letter"]),
    ("Lo", &["Other_Letter"]),
    ("Lt", &["Titlecase_Letter"]),
    ("Lu", &["Uppercase_Letter"]),
    ("M", &["Mark", "Combining_Mark"]),
    ("Mc", &["Spacing_Mark"]),
    ("Me", &["Enclosing_Mark"]),
    ("Mn", &["Nonspacing_Mark"]),
    ("N", &["Number"]),
    ("Nd", &["Decimal_Number", "digit"]),
    ("Nl", &["Letter_Number"]),
    ("No", &["Other_Number"]),
    ("P", &["Punctuation", "punct"]),
    ("Pc", &["Connector_Punctuation"]),
    ("Pd", &["Dash_Punctuation"]),
    ("Pe", &["Close_Punctuation"]),
    ("Pf", &["Final_Punctuation"]),
    ("Pi", &["Initial_Punctuation"]),
    ("Po", &["Other_Punctuation"]),
    ("Ps", &["Open_Punctuation"]),
    ("S", &["Symbol"]),
    ("Sc", &["Currency_Symbol"]),
    ("Sk", &["Modifier_Symbol"]),
    ("Sm", &["Math_Symbol"]),
    ("So", &["Other_Symbol"]),
    ("Z", &["Separator"]),
    ("Zl", &["Line_Separator"]),
    ("Zp", &["Paragraph_Separator"]),
    ("Zs", &["Space_Separator"]),
];

/// Go's `unicode.Scripts` names (Unicode 15.0: Go 1.21 and later).
#[rustfmt::skip]
const SCRIPTS: &[&str] = &[
    "Adlam", "Ahom", "Anatolian_Hieroglyphs", "Arabic", "Armenian", "Avestan", "Balinese", "Bamum", "Bassa_Vah",
    "Batak", "Bengali", "Bhaiksuki", "Bopomofo", "Brahmi", "Braille", "Buginese", "Buhid", "Canadian_Aboriginal",
    "Carian", "Caucasian_Albanian", "Chakma", "Cham", "Cherokee", "Chorasmian", "Common", "Coptic", "Cuneiform",
    "Cypriot", "Cypro_Minoan", "Cyrillic", "Deseret", "Devanagari", "Dives_Akuru", "Dogra", "Duployan",
    "Egyptian_Hieroglyphs", "Elbasan", "Elymaic", "Ethiopic", "Georgian", "Glagolitic", "Gothic", "Grantha", "Greek",
    "Gujarati", "Gunjala_Gondi", "Gurmukhi", "Han", "Hangul", "Hanifi_Rohingya", "Hanunoo", "Hatran", "Hebrew",
    "Hiragana", "Imperial_Aramaic", "Inherited", "Inscriptional_Pahlavi", "Inscriptional_Parthian", "Javanese",
    "Kaithi", "Kannada", "Katakana", "Kawi", "Kayah_Li", "Kharoshthi", "Khitan_Small_Script", "Khmer", "Khojki",
    "Khudawadi", "Lao", "Latin", "Lepcha", "Limbu", "Linear_A", "Linear_B", "Lisu", "Lycian", "Lydian", "Mahajani",
    "Makasar", "Malayalam", "Mandaic", "Manichaean", "Marchen", "Masaram_Gondi", "Medefaidrin", "Meetei_Mayek",
    "Mende_Kikakui", "Meroitic_Cursive", "Meroitic_Hieroglyphs", "Miao", "Modi", "Mongolian", "Mro", "Multani",
    "Myanmar", "Nabataean", "Nag_Mundari", "Nandinagari", "New_Tai_Lue", "Newa", "Nko", "Nushu",
    "Nyiakeng_Puachue_Hmong", "Ogham", "Ol_Chiki", "Old_Hungarian", "Old_Italic", "Old_North_Arabian", "Old_Permic",
    "Old_Persian", "Old_Sogdian", "Old_South_Arabian", "Old_Turkic", "Old_Uyghur", "Oriya", "Osage", "Osmanya",
    "Pahawh_Hmong", "Palmyrene", "Pau_Cin_Hau", "Phags_Pa", "Phoenician", "Psalter_Pahlavi", "Rejang", "Runic",
    "Samaritan", "Saurashtra", "Sharada", "Shavian", "Siddham", "SignWriting", "Sinhala", "Sogdian", "Sora_Sompeng",
    "Soyombo", "Sundanese", "Syloti_Nagri", "Syriac", "Tagalog", "Tagbanwa", "Tai_Le", "Tai_Tham", "Tai_Viet",
    "Takri", "Tamil", "Tangsa", "Tangut", "Telugu", "Thaana", "Thai", "Tibetan", "Tifinagh", "Tirhuta", "Toto",
    "Ugaritic", "Vai", "Vithkuqi", "Wancho", "Warang_Citi", "Yezidi", "Yi", "Zanabazar_Square",
];

/// Tables with a fold table in Go (`unicode.FoldCategory`, `unicode.FoldScript`).
const FOLDED_TABLES: &[&str] = &["L", "LC", "Ll", "Lt", "Lu", "M", "Mn", "Common", "Greek", "Inherited"];

/// Tables small and stable enough to carry their exact ranges.
fn exact_contents(key: &str) -> Option<&'static [u32]> {
    Some(match key {
        "Any" => &[0, MAX_RUNE],
        "ASCII" => &[0, 0x7F],
        "Cc" => &[0x0, 0x1F, 0x7F, 0x9F],
        "Co" => &[0xE000, 0xF8FF, 0xF_0000, 0xF_FFFD, 0x10_0000, 0x10_FFFD],
        "Cs" => &[0xD800, 0xDFFF],
        "Z" => &[
            0x20, 0x20, 0xA0, 0xA0, 0x1680, 0x1680, 0x2000, 0x200A, 0x2028, 0x2029, 0x202F, 0x202F, 0x205F, 0x205F,
            0x3000, 0x3000,
        ],
        "Zl" => &[0x2028, 0x2028],
        "Zp" => &[0x2029, 0x2029],
        "Zs" => {
            &[0x20, 0x20, 0xA0, 0xA0, 0x1680, 0x1680, 0x2000, 0x200A, 0x202F, 0x202F, 0x205F, 0x205F, 0x3000, 0x3000]
        }
        _ => return None,
    })
}

/// Go 1.25's name matching: ASCII case, spaces, `_` and `-` do not count.
fn loose_name(name: &[u8]) -> Vec<u8> {
    name.iter().filter(|&&b| !matches!(b, b'_' | b'-' | b' ')).map(u8::to_ascii_lowercase).collect()
}

/// Looks up a `\p{...}` name as Go 1.25's `unicodeTable` does.
fn unicode_table(name: &[u8]) -> Option<&'static UnicodeTable> {
    static TABLES: OnceLock<HashMap<Vec<u8>, UnicodeTable>> = OnceLock::new();
    TABLES.get_or_init(build_unicode_tables).get(&loose_name(name))
}

fn build_unicode_tables() -> HashMap<Vec<u8>, UnicodeTable> {
    let table = |key: &'static str| {
        let fold = match key {
            "Any" => Fold::Extra(&[0, MAX_RUNE]),
            "ASCII" => Fold::Extra(&[0x17F, 0x17F, 0x212A, 0x212A]),
            _ if FOLDED_TABLES.contains(&key) => Fold::Opaque,
            _ => Fold::None,
        };
        let contents = exact_contents(key).map_or(Contents::Opaque, Contents::Ranges);
        UnicodeTable { key, contents, fold, inverted: false }
    };
    let mut tables = HashMap::new();
    // Later insertions lose to earlier ones, as Go's lookup order has it:
    // specials, categories, scripts, then aliases.
    let mut add = |name: &str, t: UnicodeTable| {
        tables.entry(loose_name(name.as_bytes())).or_insert(t);
    };
    add("Any", table("Any"));
    add("Assigned", UnicodeTable { inverted: true, ..table("Cn") });
    add("ASCII", table("ASCII"));
    for &(key, _) in CATEGORIES {
        add(key, table(key));
    }
    for &key in SCRIPTS {
        add(key, table(key));
    }
    for &(key, aliases) in CATEGORIES {
        for alias in aliases {
            add(alias, table(key));
        }
    }
    tables
}

/// FNV-1a, to name opaque class contents.
#[derive(Debug)]
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(pattern: &str) -> String {
        check(pattern).expect_err(pattern).to_string()
    }

    #[test]
    fn syntax_error_display_is_go_text() {
        let e = check("+").expect_err("+");
        assert_eq!(e, SyntaxError { code: ErrorCode::MissingRepeatArgument, expr: "+".to_owned() });
        assert_eq!(e.to_string(), "error parsing regexp: missing argument to repetition operator: `+`");
    }

    fn go(code: &str, fragment: &str) -> String {
        format!("error parsing regexp: {code}: `{fragment}`")
    }

    /// Each case's text was produced by Go's regexp.Compile.
    fn assert_errors(cases: &[(&str, &str, &str)]) {
        for &(pattern, code, fragment) in cases {
            assert_eq!(check(pattern).map_err(|e| e.to_string()), Err(go(code, fragment)), "pattern {pattern:?}");
        }
    }

    #[test]
    fn kubernetes_known_texts() {
        assert_eq!(err("+"), "error parsing regexp: missing argument to repetition operator: `+`");
        assert_eq!(err("["), "error parsing regexp: missing closing ]: `[`");
    }

    #[test]
    fn missing_repeat_argument() {
        let code = "missing argument to repetition operator";
        assert_errors(&[
            ("*", code, "*"),
            ("?", code, "?"),
            ("*?", code, "*?"),
            ("{2}", code, "{2}"),
            ("a|*", code, "*"),
            ("(*)", code, "*"),
            ("(?i)*", code, "*"),
            ("(?:+)", code, "+"),
            (r"\Q\E*", code, "*"),
        ]);
        // A repetition applies to anchors and empty groups.
        for pattern in ["^*", "$+", r"\b*", "()+", "(?:)*", "a*(?i)*"] {
            assert_eq!(check(pattern), Ok(()), "{pattern}");
        }
    }

    #[test]
    fn invalid_nested_repetition() {
        let code = "invalid nested repetition operator";
        assert_errors(&[
            ("a**", code, "**"),
            ("a*?*", code, "*?*"),
            ("a+?+?", code, "+?+?"),
            ("a{2}{3}", code, "{2}{3}"),
            ("a{2}*", code, "{2}*"),
            ("a++", code, "++"),
        ]);
    }

    #[test]
    fn invalid_repeat_count() {
        let code = "invalid repeat count";
        assert_errors(&[
            ("a{1001}", code, "{1001}"),
            ("a{2,1}", code, "{2,1}"),
            ("a{1000,1001}", code, "{1000,1001}"),
            ("a{99999999999}", code, "{99999999999}"),
            ("a{1,99999999999}", code, "{1,99999999999}"),
            // Counts are checked before the nesting of operators.
            ("a*{2000}", code, "{2000}"),
            // Nested counts multiply.
            ("(?:[a-z]{4}){0,251}", code, "{0,251}"),
            ("(?:a{10}){101}", code, "{101}"),
            ("((((((((((x{2}){2}){2}){2}){2}){2}){2}){2}){2}){2})", code, "{2}"),
        ]);
        for pattern in ["a{1000}", "(?:[a-z]{4}){0,250}", "((((((((((x{2}){2}){2}){2}){2}){2}){2}){2}){2}))"] {
            assert_eq!(check(pattern), Ok(()), "{pattern}");
        }
    }

    #[test]
    fn braces_that_are_not_repeats_are_literals() {
        for pattern in ["{", "}", "a{", "a{,5}", "a{1", "a{1,", "a{1,2", "x{1001", "a{01}", "a{-1}", "{}", "a{ 1}"] {
            assert_eq!(check(pattern), Ok(()), "{pattern}");
        }
    }

    #[test]
    fn missing_closing_bracket() {
        let code = "missing closing ]";
        assert_errors(&[
            ("[a-z", code, "[a-z"),
            ("[]", code, "[]"),
            ("[^]", code, "[^]"),
            (r"[\d", code, r"[\d"),
            ("abc[", code, "["),
            ("[[:alpha:]", code, "[[:alpha:]"),
            ("x[a-", code, "[a-"),
        ]);
    }

    #[test]
    fn parentheses() {
        assert_errors(&[
            (")", "unexpected )", ")"),
            ("a)", "unexpected )", "a)"),
            ("(a))", "unexpected )", "(a))"),
            ("a|b)", "unexpected )", "a|b)"),
            ("(", "missing closing )", "("),
            ("(a|b", "missing closing )", "(a|b"),
            ("a(b(c)", "missing closing )", "a(b(c)"),
            ("(?i:a", "missing closing )", "(?i:a"),
        ]);
    }

    #[test]
    fn invalid_escapes() {
        let code = "invalid escape sequence";
        assert_errors(&[
            (r"\8", code, r"\8"),
            (r"\q", code, r"\q"),
            (r"\1", code, r"\1"),
            (r"\9", code, r"\9"),
            (r"\é", code, r"\é"),
            (r"\C", code, r"\C"),
            (r"\Z", code, r"\Z"),
            (r"\x", code, r"\x"),
            (r"\xA", code, r"\xA"),
            (r"\xG1", code, r"\xG1"),
            (r"\x{", code, r"\x{"),
            (r"\x{}", code, r"\x{}"),
            (r"\x{110000}", code, r"\x{110000"),
            (r"\x{12G}", code, r"\x{12G"),
            (r"\x{41", code, r"\x{41"),
            (r"[\b]", code, r"\b"),
            (r"[\Q]", code, r"\Q"),
            (r"[a-\d]", code, r"\d"),
        ]);
        assert_eq!(err("\\"), go("trailing backslash at end of expression", ""));
        assert_eq!(err("a\\"), "error parsing regexp: trailing backslash at end of expression: ``");
        assert_eq!(err(r"\\\"), go("trailing backslash at end of expression", ""));
    }

    #[test]
    fn class_ranges_and_names() {
        let code = "invalid character class range";
        assert_errors(&[
            ("[z-a]", code, "z-a"),
            ("[a-Z]", code, "a-Z"),
            ("(?i)[a-Z]", code, "a-Z"),
            (r"[\x{10}-\x01]", code, r"\x{10}-\x01"),
            // Go reports unknown POSIX names with this code too, never with
            // "invalid character class".
            ("[[:foo:]]", code, "[:foo:]"),
            ("[[:^foo:]]", code, "[:^foo:]"),
            (r"\p", code, r"\p"),
            (r"\p{", code, r"\p{"),
            (r"\p{Foo}", code, r"\p{Foo}"),
            (r"\pX", code, r"\pX"),
            (r"\p{Greek", code, r"\p{Greek"),
            (r"\P{^Foo}", code, r"\P{^Foo}"),
            (r"[\p{Foo}]", code, r"\p{Foo}"),
            (r"\p{Latn}", code, r"\p{Latn}"),
        ]);
    }

    #[test]
    fn perl_syntax() {
        let code = "invalid or unsupported Perl syntax";
        assert_errors(&[
            ("(?=a)", code, "(?="),
            ("(?!a)", code, "(?!"),
            ("(?", code, "(?"),
            ("(?i", code, "(?i"),
            ("(?x)", code, "(?x"),
            ("(?-)", code, "(?-)"),
            ("(?i-)", code, "(?i-)"),
            ("(?--i)", code, "(?--"),
            ("(?P=n)", code, "(?P"),
            ("(?P", code, "(?P"),
            ("(?P<", code, "(?P"),
            ("(?<", code, "(?<"),
            ("(?'n'a)", code, "(?'"),
            ("(?#comment)", code, "(?#"),
            ("a(?i-s:b", "missing closing )", "a(?i-s:b"),
        ]);
    }

    #[test]
    fn named_captures() {
        let code = "invalid named capture";
        assert_errors(&[
            ("(?P<>a)", code, "(?P<>"),
            ("(?P<a b>a)", code, "(?P<a b>"),
            ("(?P<name", code, "(?P<name"),
            ("(?<>a)", code, "(?<>"),
            ("(?<name", code, "(?<name"),
            ("(?<é>a)", code, "(?<é>"),
            // Since Go 1.22 `(?<` starts a name, so look-behind reads as a
            // name without its `>`: the rest of the pattern is quoted.
            ("(?<=a)b", code, "(?<=a)b"),
            (r"x(?<!MMI)\.csv", code, r"(?<!MMI)\.csv"),
        ]);
        for pattern in ["(?P<name>a)", "(?<name>a)", "(?P<1>a)", "(?P<_x9>a)(?P<_x9>b)"] {
            assert_eq!(check(pattern), Ok(()), "{pattern}");
        }
    }

    #[test]
    fn invalid_utf8() {
        let expect = |pattern: &[u8], fragment: &str| {
            assert_eq!(
                check_bytes(pattern).map_err(|e| e.to_string()),
                Err(go("invalid UTF-8", fragment)),
                "{pattern:?}"
            );
        };
        expect(b"a\xffb", "\u{fffd}b");
        expect(b"[\xff]", "\u{fffd}]");
        expect(b"\\\xff", "\u{fffd}");
        expect(b"\\Q\xff\\E", "\u{fffd}");
        expect(b"(?P<a\xff>x)", "\u{fffd}");
        // A UTF-8 encoded surrogate is invalid too.
        expect(b"\xed\xa0\x80", "\u{fffd}\u{fffd}\u{fffd}");
        assert_eq!(check_bytes("é\u{fffd}".as_bytes()), Ok(()));
    }

    #[test]
    fn valid_patterns() {
        let patterns = [
            // Real CRD patterns.
            r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$",
            r"^(([0-9]+(\.[0-9]+)?(ms|s|m|h))+)$",
            r"^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$",
            r"^[^\s]+$",
            r"\p{L}",
            r"^(?:[01]?\d|2[0-3]):[0-5]\d$",
            r"^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$",
            r"^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[a-zA-Z0-9]([-a-zA-Z0-9_.]*[a-zA-Z0-9])?$",
            r"^(https?|oci)://[^\s/$.?#].[^\s]*$",
            r"^[0-9]+(\.[0-9]+){0,2}$",
            r"(?i)^(true|false|yes|no)$",
            r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$",
            // The syntax RE2 accepts.
            "",
            "|",
            "(|)",
            r"\d\D\w\W\s\S\b\B\A\z",
            r"\pL\PL\pN\p{Greek}\P{Greek}\p{^Greek}\P{^Lu}\p{Any}\p{Zl}",
            r"[\pL\p{Han}\d_-]",
            r"\Q.*+?\E",
            r"\Qunterminated",
            "(?i)abc",
            "(?i:a)b(?-i:c)(?s).(?m)^$(?U)a*(?ims-U:x)",
            "(?:a|b)",
            "[[:alpha:]][[:^digit:]][[:word:]][[:xdigit:]]",
            "[^a-z]",
            "[]a]",
            "[a-]",
            "[-a]",
            "[a-b-c]",
            r"\x{10FFFF}\x41\x{0041}\x{D800}",
            r"\0\01\012\0123\177",
            r"\12",
            r"\a\f\t\n\r\v",
            r"\.\*\+\?\(\)\[\]\{\}\|\^\$\\\-\_\#\&\~\/\<\>\:\=\!",
            "a{2}b{2,}c{2,3}d{0}e{0,0}f{1000}g*?h+?i??j{2}?",
            "é+Δ*[α-ω]",
            "(a)(?:b)(?P<c>c)(?<d>d)",
        ];
        for pattern in patterns {
            assert_eq!(check(pattern), Ok(()), "{pattern}");
        }
    }

    #[test]
    fn unicode_names_are_matched_loosely() {
        // Go 1.25 ignores case, spaces, `_` and `-` and knows the aliases.
        for pattern in [
            r"\p{greek}",
            r"\p{Uppercase_Letter}",
            r"\p{upper case-let ter}",
            r"\p{ASCII}",
            r"\p{Assigned}",
            r"\pl",
            r"\p{Old_Italic}",
            r"\p{olditalic}",
        ] {
            assert_eq!(check(pattern), Ok(()), "{pattern}");
        }
    }

    #[test]
    fn nesting_depth() {
        let code = "expression nests too deeply";
        let open = |n| "(".repeat(n) + &")".repeat(n);
        assert_eq!(check(&open(999)), Ok(()));
        assert_eq!(err(&open(1000)), go(code, &open(1000)));
        let stars = |n| "(?:".repeat(n) + &")*".repeat(n);
        assert_eq!(check(&stars(999)), Ok(()));
        assert_eq!(err(&stars(1000)), go(code, &stars(1000)));
        // Wide is not deep.
        assert_eq!(check(&format!("({})", "|".repeat(12345))), Ok(()));
        // Factoring `\d\d...1|\d\d...2` nests one level per shared `\d`.
        let factored = |n| format!("{}1|{}2", r"\d".repeat(n), r"\d".repeat(n));
        assert_eq!(check(&factored(999)), Ok(()));
        assert_eq!(err(&factored(1000)), go(code, &factored(1000)));
        assert_eq!(err(&factored(5000)), go(code, &factored(5000)));
        let prefixes = (1..1000).map(|i| "q".repeat(i) + "z").collect::<Vec<_>>().join("|");
        assert_eq!(err(&prefixes), go(code, &prefixes));
    }

    #[test]
    fn expression_too_large() {
        let code = "expression too large";
        // The compiled size estimate: 1000 copies of a literal of 3355 runes fit, 3356 do not.
        let literal = |n| format!("(?:{}){{1000}}", "a".repeat(n));
        assert_eq!(check(&literal(3355)), Ok(()));
        assert_eq!(err(&literal(3356)), go(code, &literal(3356)));
        let nested = format!("({}){{1000}}", "(xx?)".repeat(1000));
        assert_eq!(err(&nested), go(code, &nested));
        let repeated = "(xx?){1000}".repeat(1000);
        assert_eq!(err(&repeated), go(code, &repeated));
        // The rune budget, spent by pushing the same literal again at each group level.
        let wrapped = |n| "(?:".repeat(n) + &"a".repeat(5000) + &")".repeat(n);
        assert_eq!(err(&wrapped(6700)), go(code, &wrapped(6700)));
    }

    /// Patterns of 1 MB, shaped to hit the quadratic corners of a naive
    /// parser, each get Go's answer without overflowing the stack. (How
    /// fast is not a test's business: a quadratic corner shows as minutes
    /// here.)
    #[test]
    fn large_inputs_get_go_answers() {
        const MB: usize = 1 << 20;
        let missing_paren = Some("error parsing regexp: missing closing ): ");
        let too_deep = Some("error parsing regexp: expression nests too deeply: ");
        let shapes: Vec<(&str, String, Option<&str>)> = vec![
            ("literal", "a".repeat(MB), None),
            ("open groups", "(".repeat(MB), missing_paren),
            ("balanced groups", "(".repeat(MB / 2) + &")".repeat(MB / 2), too_deep),
            ("non-capturing groups", "(?:".repeat(MB / 8) + &".".repeat(MB / 4) + &")".repeat(MB / 8), None),
            (
                "sized re-pushes",
                "x{1000}".to_string() + &"(?:".repeat(MB / 8) + &".".repeat(MB / 4) + &")".repeat(MB / 8),
                None,
            ),
            (
                "posix openers",
                "[".to_string() + &"[:".repeat(MB / 2),
                Some("error parsing regexp: missing closing ]: "),
            ),
            ("prefix chain", (1..1400).map(|i| "q".repeat(i)).collect::<Vec<_>>().join("|"), too_deep),
            ("class chain", format!("{}1|{}2", r"\d".repeat(MB / 4), r"\d".repeat(MB / 4)), too_deep),
            ("alternatives", (0..MB / 8).map(|i| format!("w{i}")).collect::<Vec<_>>().join("|"), None),
            ("folded classes", r"(?i)[\x{42}-\x{1e942}]".repeat(MB / 22), None),
            ("unicode classes", r"\pL".repeat(MB / 3), None),
            ("repeats", "(?:a{2}){3}".repeat(MB / 11), None),
            ("named openers", "(?P<a>".repeat(MB / 6), missing_paren),
        ];
        for (name, pattern, want) in shapes {
            match (check(&pattern), want) {
                (Ok(()), None) => {}
                (Err(e), Some(prefix)) => assert!(e.to_string().starts_with(prefix), "{name}: {e}"),
                (got, _) => panic!("{name}: {:?}, want {want:?}", got.map_err(|e| e.to_string())),
            }
        }
    }

    #[test]
    fn case_folding_orbits() {
        assert_eq!(simple_fold(u32::from('A')), u32::from('a'));
        assert_eq!(simple_fold(u32::from('a')), u32::from('A'));
        assert_eq!(simple_fold(u32::from('K')), u32::from('k'));
        assert_eq!(simple_fold(u32::from('k')), 0x212A);
        assert_eq!(simple_fold(0x212A), u32::from('K'));
        assert_eq!(simple_fold(u32::from('s')), 0x17F);
        assert_eq!(simple_fold(0x131), 0x131);
        assert_eq!(min_fold_rune(0x3C2), 0x3A3);
        assert_eq!(simple_fold(u32::from('1')), u32::from('1'));
    }
}
