//! The parser: Go's `regexp/syntax/parse.go` replayed step by step, i.e. the
//! scanner's main loop, flags, named captures, repeat operators and escapes,
//! and the node arena and parse stack (`newRegexp`, `reuse`, `push`,
//! `maybeConcat`, `concat`, `alternate`, `swapVerticalBar`, `repeat`).
//! Character classes, alternation factoring and the budgets are the sibling
//! modules `class`, `factor` and `limits`, which add to [`Parser`].

use super::class::Class;
use super::groups::perl_group;
use super::limits::MAX_REPEAT;
use super::regexp::{Node, Op};
use super::unicode::{min_fold_rune, simple_fold};
use super::{DOT_NL, ErrorCode, FOLD_CASE, Failure, MAX_RUNE, NON_GREEDY, ONE_LINE, PERL, Res, WAS_DOLLAR};

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
pub(super) struct Parser<'a> {
    pub(super) src: &'a [u8],
    pub(super) flags: u16,
    pub(super) nodes: Vec<Node>,
    pub(super) stack: Vec<usize>,
    free: Vec<usize>,
    num_cap: usize,
    pub(super) num_regexp: usize,
    pub(super) num_runes: usize,
    pub(super) repeats: i64,
    /// Whether Go has started its size and height maps (`p.size`, `p.height`).
    pub(super) sizing: bool,
    pub(super) heighting: bool,
    pub(super) factor_depth: usize,
    /// Last answer to "where is the next `:]` at or after `from`": lets class
    /// parsing look for POSIX names in linear time overall.
    pub(super) colon_bracket: Option<(usize, Option<usize>)>,
}

impl<'a> Parser<'a> {
    pub(super) fn new(src: &'a [u8]) -> Self {
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

    pub(super) fn whole(&self, code: ErrorCode) -> Failure {
        Failure::new(code, 0..self.src.len())
    }

    // ---- Scanning: the main loop (Go's `parse`).

    pub(super) fn parse(mut self) -> Res<()> {
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
    pub(super) fn next_rune(&self, pos: usize, end: usize) -> Res<(u32, usize)> {
        match decode(self.src.get(pos..end).unwrap_or_default()) {
            Some((c, width)) => Ok((c, pos + width)),
            None => Err(Failure::new(ErrorCode::InvalidUtf8, pos..end)),
        }
    }

    /// Go's `checkUTF8` on `src[from..to]`.
    pub(super) fn check_utf8(&self, from: usize, to: usize) -> Res<()> {
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
    pub(super) fn parse_escape(&self, pos: usize) -> Res<(u32, usize)> {
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

    // ---- Node arena and parse stack (Go's newRegexp, reuse, push, ...).

    pub(super) fn node_mut(&mut self, id: usize) -> &mut Node {
        let node = &mut self.nodes[id];
        node.size_dirty = true;
        node.height_dirty = true;
        node
    }

    pub(super) fn op_of(&self, id: usize) -> Op {
        self.nodes[id].op
    }

    /// Go's `newRegexp`: recycled nodes keep their size memo (Go's map entry
    /// survives recycling); fresh nodes count towards the budgets.
    pub(super) fn new_node(&mut self, op: Op) -> usize {
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
    pub(super) fn reuse(&mut self, id: usize) {
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
    pub(super) fn push(&mut self, id: usize) -> Res<Option<usize>> {
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
