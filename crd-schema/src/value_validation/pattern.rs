//! `pattern`: Go regular expressions (RE2 syntax, Perl flags) run on the
//! `regex` crate. Go decides what compiles ([`crate::goregexp::check`],
//! with Go's error text); an accepted pattern is rewritten into the `regex`
//! crate's syntax with Go's meaning, and compiled once per pattern.
//!
//! The rewriting: `\d \s \w \b` and their negations are ASCII as in Go;
//! `\Q...\E`, octal escapes and escaped punctuation become plain literals
//! (the `regex` crate reads `\<` and `\>` as word boundaries); a `{` that
//! does not start a valid Go repetition (`{,3}`, `{01}`, `a{`) is a
//! literal; inside classes `[`, `&`, `-` and `~` are literals (the `regex`
//! crate reads nested classes and set operations there); the empty flag
//! group `(?)` is dropped.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use regex::{Regex, RegexBuilder};

use crate::goregexp;

/// The outcome of an unanchored search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Search {
    /// The pattern matches somewhere in the text.
    Match,
    /// It does not (also when the pattern is too large for this engine).
    NoMatch,
    /// Go rejects the pattern with this error.
    Invalid(String),
}

#[derive(Clone, Debug)]
enum Compiled {
    Regex(Regex),
    GoError(String),
    // Valid in Go but rejected by this engine (its size limit).
    Unsupported,
}

// Compiled patterns are kept across schemas (one per pattern text, for
// the nodes that compile it first); the cache is emptied when it gets
// large.
const CACHE_LIMIT: usize = 256;
// The `regex` crate's compiled-size budget per pattern.
const SIZE_LIMIT: usize = 32 << 20;

/// A schema's `pattern`, compiled on its first search and kept with the
/// schema node: a search then runs on the node's own `Regex`, whose
/// matching state (a pool per `Regex`) is reused. A copy of a cached
/// `Regex` per search would build that state every time.
#[derive(Clone, Debug, Default)]
pub(crate) struct Pattern {
    text: String,
    compiled: OnceLock<Compiled>,
}

impl Pattern {
    pub(crate) fn new(text: impl Into<String>) -> Self {
        Self { text: text.into(), compiled: OnceLock::new() }
    }

    /// The pattern as the schema writes it.
    pub(crate) fn as_str(&self) -> &str {
        &self.text
    }

    /// Searches `text` as Go's `regexp.MatchString` does.
    pub(crate) fn search(&self, text: &str) -> Search {
        match self.compiled.get_or_init(|| compiled(&self.text)) {
            Compiled::Regex(re) if re.is_match(text) => Search::Match,
            Compiled::Regex(_) | Compiled::Unsupported => Search::NoMatch,
            Compiled::GoError(error) => Search::Invalid(error.clone()),
        }
    }
}

fn compiled(pattern: &str) -> Compiled {
    static CACHE: OnceLock<Mutex<HashMap<String, Compiled>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    if let Ok(map) = cache.lock()
        && let Some(found) = map.get(pattern)
    {
        return found.clone();
    }
    let fresh = compile(pattern);
    if let Ok(mut map) = cache.lock() {
        if map.len() >= CACHE_LIMIT {
            map.clear();
        }
        map.insert(pattern.to_owned(), fresh.clone());
    }
    fresh
}

fn compile(pattern: &str) -> Compiled {
    if let Err(error) = goregexp::check(pattern) {
        return Compiled::GoError(error.to_string());
    }
    match RegexBuilder::new(&translate(pattern)).size_limit(SIZE_LIMIT).build() {
        Ok(re) => Compiled::Regex(re),
        Err(_) => Compiled::Unsupported,
    }
}

/// Rewrites a pattern Go accepts into the `regex` crate's syntax.
pub(crate) fn translate(go: &str) -> String {
    let chars: Vec<char> = go.chars().collect();
    let mut out = String::with_capacity(go.len() * 2);
    let mut i = 0;
    while i < chars.len() {
        i = match chars[i] {
            '\\' => escape(&chars, i, &mut out),
            '[' => class(&chars, i, &mut out),
            '{' => brace(&chars, i, &mut out),
            '}' => {
                out.push_str("\\}");
                i + 1
            }
            '(' if flag_group_end(&chars, i).is_some() => flag_groups(&chars, i, &mut out),
            c => {
                out.push(c);
                i + 1
            }
        };
    }
    out
}

// The index after a group that only sets flags, `(?i)`, `(?-s)`, `(?)`.
fn flag_group_end(chars: &[char], i: usize) -> Option<usize> {
    if chars.get(i + 1) != Some(&'?') {
        return None;
    }
    let flags = chars[i + 2..].iter().take_while(|c| matches!(c, 'i' | 'm' | 's' | 'U' | '-')).count();
    (chars.get(i + 2 + flags) == Some(&')')).then_some(i + 3 + flags)
}

// A run of flag groups. Go applies a repetition operator right after them
// to the item before them (`a(?i)*` is `a*` followed by the flags); the
// `regex` crate wants it before. `(?)` sets nothing and is dropped (the
// `regex` crate rejects it).
fn flag_groups(chars: &[char], i: usize, out: &mut String) -> usize {
    let mut end = i;
    while let Some(next) = flag_group_end(chars, end) {
        end = next;
    }
    let repeat = match chars.get(end) {
        Some('*' | '+' | '?') => Some(end + 1),
        Some('{') => repeat_end(chars, end),
        _ => None,
    };
    let after = repeat.map_or(end, |r| if chars.get(r) == Some(&'?') { r + 1 } else { r });
    out.extend(&chars[end..after]);
    let groups: String = chars[i..end].iter().collect();
    out.push_str(&groups.replace("(?)", ""));
    after
}

// A character that stands for itself.
fn literal(c: char, out: &mut String) {
    out.push_str(&format!("\\x{{{:X}}}", u32::from(c)));
}

// Go's Perl classes, ASCII only; `inside` gives the form usable within
// brackets (negations as nested classes).
fn perl_class(c: char, inside: bool) -> Option<&'static str> {
    Some(match (c, inside) {
        ('d', false) => "[0-9]",
        ('d', true) => "0-9",
        ('D', _) => "[^0-9]",
        ('s', false) => "[\\t\\n\\x0C\\r ]",
        ('s', true) => "\\t\\n\\x0C\\r ",
        ('S', _) => "[^\\t\\n\\x0C\\r ]",
        ('w', false) => "[0-9A-Za-z_]",
        ('w', true) => "0-9A-Za-z_",
        ('W', _) => "[^0-9A-Za-z_]",
        _ => return None,
    })
}

// Copies `\p{...}` / `\pL` (Go and the `regex` crate agree on the names);
// Go's negated form `\p{^Greek}` becomes `\P{Greek}`.
fn unicode_class(chars: &[char], i: usize, out: &mut String) -> usize {
    let mut j = i + 2;
    if chars.get(j) == Some(&'{') {
        while j < chars.len() && chars[j] != '}' {
            j += 1;
        }
    }
    let end = (j + 1).min(chars.len());
    if chars.get(i + 2) == Some(&'{') && chars.get(i + 3) == Some(&'^') {
        let negated = if chars[i + 1] == 'p' { "\\P{" } else { "\\p{" };
        out.push_str(negated);
        out.extend(&chars[(i + 4).min(end)..end]);
    } else {
        out.extend(&chars[i..end]);
    }
    end
}

// A backslash sequence outside brackets.
fn escape(chars: &[char], i: usize, out: &mut String) -> usize {
    let Some(&c) = chars.get(i + 1) else {
        out.push_str("\\\\");
        return i + 1;
    };
    if let Some(class) = perl_class(c, false) {
        out.push_str(class);
        return i + 2;
    }
    match c {
        'A' | 'z' => {
            out.push('\\');
            out.push(c);
            i + 2
        }
        'b' | 'B' => {
            out.push_str(&format!("(?-u:\\{c})"));
            i + 2
        }
        'p' | 'P' => unicode_class(chars, i, out),
        'Q' => quoted(chars, i + 2, out),
        _ => {
            let (value, next) = escaped_char(chars, i);
            literal(value, out);
            next
        }
    }
}

// `\Q...\E`: everything up to `\E` (or the end) is literal.
fn quoted(chars: &[char], mut j: usize, out: &mut String) -> usize {
    while j < chars.len() {
        if chars[j] == '\\' && chars.get(j + 1) == Some(&'E') {
            return j + 2;
        }
        literal(chars[j], out);
        j += 1;
    }
    j
}

// The character of an escape that denotes one (octal, `\x`, control
// letters, punctuation), and the index after it.
fn escaped_char(chars: &[char], i: usize) -> (char, usize) {
    let Some(&c) = chars.get(i + 1) else { return ('\\', i + 1) };
    let simple = |v: u32| (char::from_u32(v).unwrap_or('\u{FFFD}'), i + 2);
    match c {
        '0'..='7' => {
            let mut value = c.to_digit(8).unwrap_or(0);
            let mut j = i + 2;
            while j < i + 4 && j < chars.len() && ('0'..='7').contains(&chars[j]) {
                value = value * 8 + chars[j].to_digit(8).unwrap_or(0);
                j += 1;
            }
            (char::from_u32(value).unwrap_or('\u{FFFD}'), j)
        }
        'x' => hex_escape(chars, i),
        'a' => simple(7),
        'f' => simple(12),
        't' => simple(9),
        'n' => simple(10),
        'r' => simple(13),
        'v' => simple(11),
        other => (other, i + 2),
    }
}

// `\xHH` or `\x{H...}`.
fn hex_escape(chars: &[char], i: usize) -> (char, usize) {
    let (digits, next) = if chars.get(i + 2) == Some(&'{') {
        let close = chars[i + 3..].iter().position(|&c| c == '}').map_or(chars.len(), |p| i + 3 + p);
        (&chars[(i + 3).min(close)..close], close + 1)
    } else {
        let end = (i + 4).min(chars.len());
        (&chars[(i + 2).min(end)..end], end)
    };
    let text: String = digits.iter().collect();
    let value = u32::from_str_radix(&text, 16).ok().and_then(char::from_u32).unwrap_or('\u{FFFD}');
    (value, next)
}

// A bracket expression. Go reads a `]` right after `[` or `[^` as a
// literal, `[:name:]` as a POSIX class, and `-` as a range only between
// two characters.
fn class(chars: &[char], i: usize, out: &mut String) -> usize {
    let mut j = i + 1;
    out.push('[');
    if chars.get(j) == Some(&'^') {
        out.push('^');
        j += 1;
    }
    let mut first = true;
    while j < chars.len() && (chars[j] != ']' || first) {
        first = false;
        j = class_item(chars, j, out);
    }
    out.push(']');
    j + 1
}

// One item of a bracket expression: a POSIX class, a Unicode or Perl
// class, a character or a range. Returns the index after it.
fn class_item(chars: &[char], j: usize, out: &mut String) -> usize {
    if chars[j] == '['
        && chars.get(j + 1) == Some(&':')
        && let Some(end) = posix_class_end(chars, j)
    {
        out.extend(&chars[j..end]);
        return end;
    }
    if chars[j] == '\\' && matches!(chars.get(j + 1), Some('p' | 'P')) {
        return unicode_class(chars, j, out);
    }
    if chars[j] == '\\'
        && let Some(class) = chars.get(j + 1).and_then(|&c| perl_class(c, true))
    {
        out.push_str(class);
        return j + 2;
    }
    let (lo, mut next) = class_char(chars, j);
    literal(lo, out);
    if chars.get(next) == Some(&'-') && chars.get(next + 1).is_some_and(|&c| c != ']') {
        let (hi, after) = class_char(chars, next + 1);
        next = after;
        out.push('-');
        literal(hi, out);
    }
    next
}

// The index after `[:name:]` starting at `j`, if there is a `:]`.
fn posix_class_end(chars: &[char], j: usize) -> Option<usize> {
    (j + 2..chars.len().saturating_sub(1)).find(|&k| chars[k] == ':' && chars[k + 1] == ']').map(|k| k + 2)
}

fn class_char(chars: &[char], j: usize) -> (char, usize) {
    if chars[j] == '\\' { escaped_char(chars, j) } else { (chars[j], j + 1) }
}

// `{min}`, `{min,}` or `{min,max}` with Go's number rules (no leading
// zeros) is a repetition; anything else leaves `{` as a literal.
fn brace(chars: &[char], i: usize, out: &mut String) -> usize {
    match repeat_end(chars, i) {
        Some(end) => {
            out.extend(&chars[i..end]);
            end
        }
        None => {
            out.push_str("\\{");
            i + 1
        }
    }
}

fn repeat_end(chars: &[char], i: usize) -> Option<usize> {
    let number = |mut j: usize| -> Option<usize> {
        let start = j;
        while j < chars.len() && chars[j].is_ascii_digit() {
            j += 1;
        }
        let leading_zero = j - start >= 2 && chars[start] == '0';
        (j > start && !leading_zero).then_some(j)
    };
    let mut j = number(i + 1)?;
    if chars.get(j) == Some(&',') {
        j += 1;
        if chars.get(j) != Some(&'}') {
            j = number(j)?;
        }
    }
    (chars.get(j) == Some(&'}')).then_some(j + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn search(pattern: &str, text: &str) -> Search {
        Pattern::new(pattern).search(text)
    }

    fn matches(pattern: &str, text: &str) -> bool {
        search(pattern, text) == Search::Match
    }

    #[test]
    fn perl_classes_are_ascii() {
        assert!(matches(r"^\d+$", "123"));
        assert!(!matches(r"^\d$", "٣"));
        assert!(!matches(r"^\w$", "é"));
        assert!(matches(r"^\W$", "é"));
        assert!(!matches(r"^\s$", "\u{a0}"));
        assert!(!matches(r"\bé", "é"));
        assert!(matches(r"^[\d\s]+$", "1 2"));
        assert!(matches(r"^[^\D]$", "5"));
    }

    #[test]
    fn literals_go_reads_differently() {
        assert!(matches(r"^a{,3}$", "a{,3}"));
        assert!(matches(r"^a{01}$", "a{01}"));
        assert!(matches(r"^a{2}$", "aa"));
        assert!(matches(r"^a{$", "a{"));
        assert!(matches(r"^\<x\>$", "<x>"));
        assert!(matches(r"^\Q.*\E$", ".*"));
        assert!(matches(r"^\101$", "A"));
        assert!(matches(r"^[[a]+$", "[a["));
        assert!(matches(r"^[a&&b]+$", "&"));
        assert!(matches(r"^[]a]+$", "]a"));
        assert!(matches(r"^[a-]+$", "-a"));
        assert!(matches(r"^[[:alpha:]]+$", "ab"));
        assert!(matches(r"^\pL+$", "äb"));
        assert!(matches(r"^\p{^Greek}+$", "ab") && !matches(r"^\P{^Greek}$", "a"));
        assert!(matches(r"^[\x41-\x{43}]+$", "ABC"));
        assert!(matches(r"^a(?i)*B$", "aab") && matches(r"^a(?)b$", "ab") && matches(r"^a(?s)(?i){2}b$", "aaB"));
    }

    #[test]
    fn go_errors_are_reported() {
        assert_eq!(
            search("+", "x"),
            Search::Invalid("error parsing regexp: missing argument to repetition operator: `+`".to_owned())
        );
        assert!(matches!(search("(", "x"), Search::Invalid(_)));
    }

    // Random patterns: translating never panics, and whatever Go accepts
    // compiles here.
    #[test]
    fn arbitrary_patterns_translate() {
        const ALPHABET: &[char] = &[
            '\\', '[', ']', '{', '}', '(', ')', '?', ':', '^', '$', '-', 'p', 'P', 'x', 'Q', 'E', 'd', 'b', '1', '0',
            ',', '*', '+', '|', 'a', '<', 'é', '&', '~', '.', 'L', 'i', 's', '2',
        ];
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = || {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            usize::try_from(state >> 33).unwrap()
        };
        let mut accepted = 0;
        for _ in 0..20_000 {
            let len = next() % 10;
            let pattern: String = (0..len).map(|_| ALPHABET[next() % ALPHABET.len()]).collect();
            let compiled = compile(&pattern);
            if !matches!(compiled, Compiled::GoError(_)) {
                accepted += 1;
                assert!(matches!(compiled, Compiled::Regex(_)), "{pattern:?} -> {:?}", translate(&pattern));
            }
        }
        assert!(accepted > 1000, "{accepted}");
    }

    #[test]
    fn cached_patterns_answer_alike() {
        assert!(matches("^a", "abc"));
        assert!(matches("^a", "abc"));
        assert!(!matches("^a", "bc"));
    }
}
