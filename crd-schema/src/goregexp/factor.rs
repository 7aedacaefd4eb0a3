//! Alternation factoring: Go's `collapse` and `factor` (with
//! `leadingString`, `removeLeadingString`, `leadingRegexp`,
//! `removeLeadingRegexp` and `Regexp.Equal`) from Go's
//! `regexp/syntax/parse.go` and `regexp.go`, which pull common prefixes out
//! of alternatives as Go does, since the tree they build decides Go's budget
//! errors.

use super::parse::Parser;
use super::regexp::Op;
use super::{ErrorCode, FOLD_CASE, NON_GREEDY, Res, WAS_DOLLAR};

/// Alternation factoring nested this deep builds a tree taller than
/// `MAX_HEIGHT`, which Go rejects: no need to go deeper (nor to risk the stack).
const MAX_FACTOR_DEPTH: usize = 1001;

impl Parser<'_> {
    /// Go's `collapse`: one node applying `op` to `subs`, flattening nested
    /// nodes of the same op and factoring alternations.
    pub(super) fn collapse(&mut self, subs: Vec<usize>, op: Op) -> Res<usize> {
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
    pub(super) fn is_char_class(&self, id: usize) -> bool {
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
}
