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
//!
//! Layout, following the files of Go's `regexp/syntax`: this module holds
//! the entry points and Go's error codes; `regexp` the parse tree (Go's
//! `regexp.go`); `parse` the parser (Go's `parse.go`: scanning, escapes, the
//! node arena and the parse stack); `class` character classes (the class
//! parts of `parse.go`); `factor` alternation factoring (`collapse` and
//! `factor` of `parse.go`); `limits` the size, height and repeat budgets
//! (`checkLimits`, `checkSize`, `checkHeight`, `repeatIsValid`); `groups`
//! the Perl and POSIX groups (Go's `perl_groups.go`); `unicode` the
//! case-folding orbits and `\p{...}` tables (what `parse.go` takes from Go's
//! `unicode` package).

mod class;
mod factor;
mod folds;
#[cfg(test)]
mod folds_check;
mod groups;
mod limits;
mod parse;
mod regexp;
mod unicode;

#[cfg(test)]
mod tests;

use std::ops::Range;

use parse::Parser;

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
