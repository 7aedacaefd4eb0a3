//! Character classes: parsing `[...]`, `\pN` and `\d` (Go's `parseClass`,
//! `parseUnicodeClass`, `appendGroup`), merging classes (`mergeCharClass`,
//! `cleanAlt`) and the range arithmetic under them (`appendRange`,
//! `appendFoldedRange`, `cleanClass`, `negateClass`), all from Go's
//! `regexp/syntax/parse.go`.

use super::groups::{Group, perl_group, posix_group};
use super::parse::Parser;
use super::regexp::Op;
use super::unicode::{Contents, Fold, MAX_FOLD, MIN_FOLD, UnicodeTable, folds, simple_fold, unicode_table};
use super::{ErrorCode, FOLD_CASE, Failure, MAX_RUNE, Res};

impl Parser<'_> {
    /// Parses a bracketed class at `pos` (a `[`) and pushes it.
    pub(super) fn parse_class(&mut self, pos: usize) -> Res<usize> {
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
    pub(super) fn parse_unicode_class(&self, pos: usize, class: &mut Class) -> Res<usize> {
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
    pub(super) fn append_group(&self, class: &mut Class, (negated, ranges): Group) {
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

    pub(super) fn set_class(&mut self, id: usize, class: Class) {
        let node = self.node_mut(id);
        node.runes = class.runes;
        node.tokens = class.tokens;
    }

    /// Go's `mergeCharClass`: `dst = dst|src`, where `dst` is the more complex.
    pub(super) fn merge_char_class(&mut self, dst: usize, src: usize) {
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
    pub(super) fn clean_alt(&mut self, id: usize) {
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
}

// ---- Class contents: sorted range pairs, plus opaque Unicode tables.

/// A class under construction.
#[derive(Debug, Default)]
pub(super) struct Class {
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
