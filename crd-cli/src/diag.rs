//! rustc-like diagnostics: a headline, the file position, and a snippet of
//! the source line with a caret under the offending column.

use std::cell::RefCell;
use std::collections::HashMap;

use crd_schema::yaml::{Position, Spans, Step};

/// The position of `steps` in a document, or of its nearest ancestor.
pub fn locate(spans: &Spans, steps: &[Step]) -> Option<Position> {
    spans.nearest(steps)
}

/// A source text with the offset of each line, so that the snippet of a
/// diagnostic is found without scanning the text: a file may draw
/// thousands of diagnostics, all on one long line of minified JSON.
#[derive(Debug)]
pub struct Source {
    text: std::sync::Arc<str>,
    line_starts: Vec<usize>,
    /// For each long line used so far, the byte offset of every
    /// [`STRIDE`]th character, so a column far along it is found quickly.
    strides: RefCell<HashMap<usize, Vec<usize>>>,
}

/// Characters between two entries of [`Source::strides`].
const STRIDE: usize = 1024;

/// The widest snippet shown, in characters.
const SNIPPET_WIDTH: usize = 160;

impl Source {
    /// Indexes `text`.
    pub fn new(text: impl Into<std::sync::Arc<str>>) -> Self {
        let text = text.into();
        let line_starts = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        Self { text, line_starts, strides: RefCell::default() }
    }

    /// Line `n` (1-based), without its line break, and its index.
    fn line(&self, n: u64) -> Option<(usize, &str)> {
        let index = usize::try_from(n.checked_sub(1)?).ok()?;
        let start = *self.line_starts.get(index)?;
        let end = self.line_starts.get(index + 1).map_or(self.text.len(), |next| next - 1);
        let line = self.text.get(start..end)?;
        Some((index, line.strip_suffix('\r').unwrap_or(line)))
    }

    /// The byte offset of the 0-based character `column` of `line` (line
    /// `index`), or `None` past its end.
    fn byte_at(&self, index: usize, line: &str, column: usize) -> Option<usize> {
        let mut strides = self.strides.borrow_mut();
        let (from, rest) = if column < STRIDE {
            (0, column)
        } else {
            let strides =
                strides.entry(index).or_insert_with(|| line.char_indices().step_by(STRIDE).map(|(i, _)| i).collect());
            (*strides.get(column / STRIDE)?, column % STRIDE)
        };
        line[from..].char_indices().nth(rest).map(|(i, _)| from + i)
    }

    /// At most `max` characters of line `n` around the 0-based character
    /// `column` (marked `…` where cut), and where the caret goes in them.
    fn window(&self, n: u64, column: usize, max: usize) -> Option<(String, usize)> {
        let (index, line) = self.line(n)?;
        let start = if column < max { 0 } else { column - max / 2 };
        // A column past the line's end (the end of the file) shows the line.
        let (start, from) = match self.byte_at(index, line, start) {
            Some(from) => (start, from),
            None => (0, 0),
        };
        let mut chars = line[from..].chars();
        let shown: String = chars.by_ref().take(max).collect();
        let (prefix, offset) = if start > 0 { ("…", 1) } else { ("", 0) };
        let suffix = if chars.next().is_some() { "…" } else { "" };
        let caret_at = (column - start).min(shown.chars().count()) + offset;
        Some((format!("{prefix}{shown}{suffix}"), caret_at))
    }
}

/// Renders one diagnostic.
pub fn render(
    level: &str,
    message: &str,
    file: &str,
    source: &Source,
    at: Option<Position>,
    notes: &[String],
) -> String {
    let mut out = format!("{level}: {message}\n");
    match at {
        Some(pos) if pos.line > 0 => {
            let gutter = pos.line.to_string().len();
            let pad = " ".repeat(gutter);
            out.push_str(&format!("{pad}--> {file}:{}:{}\n", pos.line, pos.column));
            let column = usize::try_from(pos.column.saturating_sub(1)).unwrap_or(usize::MAX);
            if let Some((line, caret_at)) = source.window(pos.line, column, SNIPPET_WIDTH) {
                out.push_str(&format!("{pad} |\n{} | {line}\n{pad} | {}^\n", pos.line, " ".repeat(caret_at)));
            }
        }
        _ => out.push_str(&format!(" --> {file}\n")),
    }
    for note in notes {
        out.push_str(&format!(" = {note}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snippet_has_a_caret() {
        let source = Source::new("a:\r\n  type: bogus\n".to_owned());
        let out = render("error", "bad", "f.yaml", &source, Some(Position { line: 2, column: 9 }), &[]);
        assert_eq!(out, "error: bad\n --> f.yaml:2:9\n  |\n2 |   type: bogus\n  |         ^\n");
        let out = render("error", "bad", "f.yaml", &source, Some(Position { line: 1, column: 1 }), &[]);
        assert!(out.ends_with("1 | a:\n  | ^\n"), "{out}");
        assert!(
            render("error", "bad", "f.yaml", &source, Some(Position { line: 9, column: 1 }), &[])
                .ends_with("f.yaml:9:1\n")
        );
    }

    #[test]
    fn long_lines_show_a_window_around_the_column() {
        let source = Source::new(format!("x\n{}\n", ('a'..='z').cycle().take(1_000_000).collect::<String>()));
        let (shown, caret) = source.window(2, 3, 160).unwrap();
        assert_eq!((shown.chars().count(), caret), (161, 3));
        assert!(shown.starts_with("abcd") && shown.ends_with('…'));
        for column in [500_000, 1024 * 7 + 5, 999_999] {
            let (shown, caret) = source.window(2, column, 160).unwrap();
            assert_eq!(shown.chars().nth(caret), ('a'..='z').cycle().nth(column), "{column}");
            assert!(shown.starts_with('…'));
        }
        let (shown, caret) = source.window(2, 5_000_000, 160).unwrap();
        assert_eq!((caret, shown.chars().count()), (160, 161), "past the end: the line's start, the caret on its `…`");
        assert_eq!(source.window(1, 99, 160), Some(("x".to_owned(), 1)));
        let wide = Source::new("é".repeat(5000));
        let (shown, caret) = wide.window(1, 4000, 160).unwrap();
        assert_eq!((shown.chars().nth(caret), caret), (Some('é'), 81));
    }

    #[test]
    fn many_diagnostics_on_one_long_line_show_a_window() {
        // 20 000 findings on a 1 MB line: the line is found by index and
        // only its window is read and shown (milliseconds in all; a copy
        // of the line per finding would show as minutes).
        let source = Source::new(format!("{{{}}}", "\"a\": 1, ".repeat(100_000)));
        for column in (1..200_000).step_by(10) {
            let out = render("error", "bad", "f.json", &source, Some(Position { line: 1, column }), &[]);
            assert!(out.len() < 1000, "{}", out.len());
        }
    }
}
