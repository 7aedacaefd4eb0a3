//! The tree budgets: Go's `checkLimits`, `checkSize`, `calcSize`,
//! `checkHeight`, `calcHeight` and `repeatIsValid` from Go's
//! `regexp/syntax/parse.go`, with Go's memoised sizes and heights, deciding
//! "expression too large", "expression nests too deeply" and the nested form
//! of "invalid repeat count".

use super::parse::Parser;
use super::regexp::Op;
use super::{ErrorCode, Res};

/// Go's budgets: tree height, compiled size (128 MiB of 40-byte
/// instructions), runes held by classes and literals (128 MiB of runes), and
/// the count of a single repetition.
const MAX_HEIGHT: i64 = 1000;
const MAX_SIZE: i64 = (128 << 20) / 40;
const MAX_RUNES: usize = (128 << 20) / 4;
pub(super) const MAX_REPEAT: i32 = 1000;

impl Parser<'_> {
    pub(super) fn check_limits(&mut self, re: usize) -> Res<()> {
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

    /// Go's `repeatIsValid`: along every path, the product of the nested
    /// repetition counts stays within `n`. Walked without recursion.
    pub(super) fn repeat_is_valid(&self, re: usize, n: i32) -> bool {
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
}
