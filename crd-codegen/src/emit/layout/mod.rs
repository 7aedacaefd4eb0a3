//! The items of a version module laid out as prettyplease lays them out,
//! without syn: no parse, no syntax tree.
//!
//! prettyplease is a line breaker in the manner of Oppen's (a stream of
//! words, breaks and nested boxes, each box broken when it does not fit in
//! the line's remaining space) fed by a walk of syn's tree. The items the
//! generator writes for its types have few shapes, so they are fed to
//! [`Printer`], the same kind of line breaker with prettyplease's margin,
//! indentation and minimum line space, the stream prettyplease's walk
//! would give: the structs and enums from the emitter's description of
//! them ([`described`]), their attributes by a walk of the attributes'
//! tokens ([`outer_attrs`]). A `const _` block the emitter wrote as text
//! ([`super::templates`]) is put in its marker's place; the blocks of
//! schema defaults and constructors are walked by [`impls`]; anything
//! else (the other `const _` blocks, and any shape the walks do not know)
//! is left to prettyplease: [`Piece::Tokens`].
//!
//! A profile of `crd generate` put syn's parse and prettyplease at half of
//! the layout's time. The crate's tests lay out every block both ways and
//! compare the text, and check that prettyplease leaves every described
//! item as it is (`cfg(test)` in `runs.rs`).

use proc_macro2::{Delimiter, Group, Spacing, TokenStream, TokenTree};

use super::paths::{self, Short};

pub(super) mod described;
mod impls;

/// The line width prettyplease breaks at, its indentation step, and the
/// least space it leaves a line however deep it is indented.
const MARGIN: isize = 89;
const INDENT: isize = 4;
const MIN_SPACE: isize = 60;
/// The size of a hard break, which never fits.
const INFINITY: isize = 0xffff;

/// One item of a run: laid out here, or left to prettyplease.
pub(super) enum Piece {
    Text(String),
    Tokens(TokenStream),
}

/// The items of `tokens` — markers of the `described` items, and `const
/// _` blocks — each indented `depth` levels, with the paths of `table`
/// short in those laid out here, and which of the paths they use; `None`
/// when a marker or an attribute is not one the layout knows (the
/// described items' attribute tokens are then spent). The items left to
/// prettyplease keep their full paths.
pub(super) fn items(
    tokens: TokenStream,
    depth: usize,
    table: &[Short],
    described: &mut [described::Described],
) -> Option<(Vec<Piece>, Vec<bool>)> {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut used = vec![false; table.len()];
    let mut pieces = Vec::new();
    let mut at = 0;
    while at < tokens.len() {
        if let Some((n, len)) = described::marker_at(&tokens[at..]) {
            pieces.push(Piece::Text(described::item(described.get_mut(n)?, depth, table, &mut used)?));
            at += len;
            continue;
        }
        // Any other item runs to its `;` (`const _: () = { ... };`).
        let end = (at..tokens.len()).find(|&i| is_punct(&tokens[i], ';'))? + 1;
        let item = &tokens[at..end];
        pieces.push(match const_block(item, depth, table, &mut used) {
            Some(text) => Piece::Text(text),
            None => Piece::Tokens(item.iter().cloned().collect()),
        });
        at = end;
    }
    Some((pieces, used))
}

/// The text of the `const _` block `item` laid out by [`impls`], its
/// paths short as `table` allows (marking `used`); `None` for a shape it
/// does not know.
fn const_block(item: &[TokenTree], depth: usize, table: &[Short], used: &mut [bool]) -> Option<String> {
    paths::tentatively(used, |marks| {
        let mut printer = Printer::new(depth, table, marks);
        impls::const_block(&mut printer, item)?;
        Some(printer.finish())
    })
}

/// Where the outer attributes starting at `at` end.
fn attrs_end(tokens: &[TokenTree], mut at: usize) -> usize {
    while is_punct_at(tokens, at, '#')
        && matches!(tokens.get(at + 1), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Bracket)
    {
        at += 2;
    }
    at
}

fn is_punct(token: &TokenTree, ch: char) -> bool {
    matches!(token, TokenTree::Punct(p) if p.as_char() == ch)
}

fn is_punct_at(tokens: &[TokenTree], at: usize, ch: char) -> bool {
    tokens.get(at).is_some_and(|t| is_punct(t, ch))
}

/// The tokens inside `group`, taken out of it (it is left empty).
/// `Group::stream` shares the group's tokens, and iterating a shared
/// stream copies every token in it, each identifier's text included;
/// once the group lets go, they move instead.
fn take_contents(group: &mut Group) -> Vec<TokenTree> {
    let stream = group.stream();
    *group = Group::new(group.delimiter(), TokenStream::new());
    stream.into_iter().collect()
}

/// The comma-separated members of a list; commas between a type's
/// generic arguments (inside `<` and `>`) do not separate.
fn split_members(tokens: &[TokenTree]) -> Vec<&[TokenTree]> {
    let mut members = Vec::new();
    let (mut start, mut angles) = (0, 0_usize);
    for (i, token) in tokens.iter().enumerate() {
        match token {
            TokenTree::Punct(p) if p.as_char() == '<' => angles += 1,
            TokenTree::Punct(p) if p.as_char() == '>' => angles = angles.saturating_sub(1),
            TokenTree::Punct(p) if p.as_char() == ',' && angles == 0 => {
                members.push(&tokens[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if start < tokens.len() {
        members.push(&tokens[start..]);
    }
    members
}

/// The path type at `at`, printed; where it ends.
fn path_type(p: &mut Printer<'_>, tokens: &[TokenTree], mut at: usize) -> Option<usize> {
    let mut first = true;
    loop {
        if let Some(len) = p.short_path(&tokens[..at], &tokens[at..]) {
            at += len;
        } else {
            if is_path_separator(tokens, at) {
                p.word("::");
                at += 2;
            } else if !first {
                return Some(at);
            }
            let TokenTree::Ident(segment) = tokens.get(at)? else { return None };
            p.display(segment);
            at += 1;
        }
        first = false;
        if is_punct_at(tokens, at, '<') {
            p.word("<");
            p.cbox(INDENT);
            p.zerobreak();
            at += 1;
            loop {
                at = generic_argument(p, tokens, at)?;
                if is_punct_at(tokens, at, ',') && !is_punct_at(tokens, at + 1, '>') {
                    p.trailing_comma(false);
                    at += 1;
                    continue;
                }
                at += usize::from(is_punct_at(tokens, at, ','));
                if !is_punct_at(tokens, at, '>') {
                    return None;
                }
                p.trailing_comma(true);
                p.offset(-INDENT);
                p.end();
                p.word(">");
                at += 1;
                break;
            }
        }
    }
}

/// A lifetime (`'de`) or a path type at `at`, printed; where it ends.
/// (A type's lifetimes come first among its arguments, where
/// prettyplease puts them.)
fn generic_argument(p: &mut Printer<'_>, tokens: &[TokenTree], at: usize) -> Option<usize> {
    match (tokens.get(at), tokens.get(at + 1)) {
        (Some(TokenTree::Punct(tick)), Some(TokenTree::Ident(name))) if tick.as_char() == '\'' => {
            p.word("'");
            p.display(name);
            Some(at + 2)
        }
        _ => path_type(p, tokens, at),
    }
}

/// Whether `::` starts at `at` (not the `:` of `D: ::a::B`).
fn is_path_separator(tokens: &[TokenTree], at: usize) -> bool {
    matches!(tokens.get(at), Some(TokenTree::Punct(p)) if p.as_char() == ':' && p.spacing() == Spacing::Joint)
        && is_punct_at(tokens, at + 1, ':')
}

/// Outer attributes, `#` and a bracketed group each (prettyplease's
/// `attr`): a doc comment of one line as `///`, any other as written,
/// its arguments laid out by [`attr_tokens`].
fn outer_attrs(p: &mut Printer<'_>, tokens: &mut [TokenTree]) -> Option<()> {
    for pair in tokens.chunks_mut(2) {
        let [_, TokenTree::Group(attr)] = pair else { return None };
        let mut inner = take_contents(attr);
        if let [TokenTree::Ident(doc), eq, TokenTree::Literal(text)] = &inner[..] {
            if doc != "doc" || !is_punct(eq, '=') {
                return None;
            }
            let text = text.to_string();
            let text = super::string_value(&text)?;
            if text.contains('\n') || text.starts_with('/') {
                return None;
            }
            p.word("///");
            p.word(text.trim_end_matches(' '));
            p.hardbreak();
            continue;
        }
        p.word("#[");
        let mut at = 0;
        while let Some(token) = inner.get(at) {
            match token {
                TokenTree::Ident(segment) => p.display(segment),
                TokenTree::Punct(colon) if colon.as_char() == ':' => p.word(":"),
                _ => break,
            }
            at += 1;
        }
        match &mut inner[at..] {
            [] => {}
            [TokenTree::Group(args)] if at > 0 => attr_tokens(p, args),
            _ => return None,
        }
        p.word("]");
        p.space();
    }
    Some(())
}

/// Where a word goes after the last token of an attribute's arguments.
#[derive(Clone, Copy, PartialEq)]
enum State {
    Word,
    Punct,
    TrailingComma,
}

/// An attribute's argument group as prettyplease writes attribute tokens:
/// parentheses open a consistent box, commas are followed by a break, `=`
/// by spaces, and a word after a word by a break.
fn attr_tokens(p: &mut Printer<'_>, group: &mut Group) {
    let mut state = State::Punct;
    attr_group(p, group, &mut state);
}

fn attr_group(p: &mut Printer<'_>, group: &mut Group, state: &mut State) {
    match group.delimiter() {
        Delimiter::Parenthesis => {
            p.word("(");
            p.cbox(INDENT);
            p.zerobreak();
            *state = State::Punct;
        }
        Delimiter::Brace => {
            p.word("{");
            *state = State::Punct;
        }
        Delimiter::Bracket => {
            p.word("[");
            *state = State::Punct;
        }
        Delimiter::None => {}
    }
    let mut tokens = take_contents(group);
    let mut at = 0;
    while at < tokens.len() {
        let last = at + 1 == tokens.len();
        if let Some((n, len)) = paths::full_path(&tokens[..at], &tokens[at..], p.table) {
            p.used[n] = true;
            for token in &mut paths::path_tokens(p.table[n].short()) {
                attr_token(p, token, false, state);
            }
            at += len;
            continue;
        }
        let (before, rest) = tokens.split_at_mut(at);
        match &mut rest[0] {
            TokenTree::Literal(literal) => match paths::path_value(before, literal, p.table, p.used) {
                Some(short) => attr_token(p, &mut TokenTree::Literal(short), last, state),
                None => attr_token(p, &mut rest[0], last, state),
            },
            token => attr_token(p, token, last, state),
        }
        at += 1;
    }
    match group.delimiter() {
        Delimiter::Parenthesis => {
            if *state != State::TrailingComma {
                p.zerobreak();
            }
            p.offset(-INDENT);
            p.end();
            p.word(")");
            *state = State::Punct;
        }
        Delimiter::Brace => {
            p.word("}");
            *state = State::Punct;
        }
        Delimiter::Bracket => {
            p.word("]");
            *state = State::Punct;
        }
        Delimiter::None => {}
    }
}

/// One token of an attribute's arguments; `last` in its group.
fn attr_token(p: &mut Printer<'_>, token: &mut TokenTree, last: bool, state: &mut State) {
    match token {
        TokenTree::Ident(ident) => {
            if *state == State::Word {
                p.space();
            }
            p.display(ident);
            *state = State::Word;
        }
        TokenTree::Punct(punct) => {
            let ch = punct.as_char();
            if *state == State::Word && ch == '=' {
                p.word(" ");
            }
            if ch == ',' && last {
                p.trailing_comma(true);
                *state = State::TrailingComma;
            } else {
                p.word(ch.encode_utf8(&mut [0; 4]));
                if ch == '=' {
                    p.word(" ");
                } else if ch == ',' {
                    p.space();
                }
                *state = State::Punct;
            }
        }
        TokenTree::Literal(literal) => {
            if *state == State::Word {
                p.space();
            }
            p.display(literal);
            *state = State::Word;
        }
        TokenTree::Group(inner) => attr_group(p, inner, state),
    }
}

/// Writes `n` spaces.
fn indent_by(out: &mut String, n: isize) {
    const SPACES: &str = "                                                                ";
    let mut n = usize::try_from(n).unwrap_or(0);
    while n > 0 {
        let chunk = n.min(SPACES.len());
        out.push_str(&SPACES[..chunk]);
        n -= chunk;
    }
}

/// A token of the printer's stream.
#[derive(Clone, Copy)]
enum Token {
    /// Text: a range of [`Printer::text`].
    Word {
        start: u32,
        end: u32,
    },
    /// A place to break the line: `blank` spaces when it does not break;
    /// when it does, `pre` (a trailing comma) and a new line indented by
    /// the box's indentation plus `offset`.
    Break {
        blank: isize,
        offset: isize,
        pre: Option<char>,
        if_nonempty: bool,
        /// Measures like any break but never breaks.
        never: bool,
        /// Written after the new line's indentation when it breaks.
        post: &'static str,
        /// Written in place of the blanks when it does not break.
        no_break: Option<char>,
    },
    /// A box: its breaks all break (consistent) or each only where the
    /// text up to the next does not fit; broken, it indents by `offset`.
    Begin {
        offset: isize,
        consistent: bool,
    },
    End,
}

/// How a box is being printed.
#[derive(Clone, Copy)]
enum Frame {
    Fits,
    Broken { indent: isize, consistent: bool },
}

/// An Oppen line breaker over a whole item: the stream is built first,
/// each box's and break's size measured (a box up to the first break
/// after it, a break up to the next break of its box or an outer one),
/// then printed.
struct Printer<'a> {
    /// The paths to shorten, and which of them the item uses.
    table: &'a [Short],
    used: &'a mut [bool],
    tokens: Vec<Token>,
    /// Each token's size once measured; before, minus the stream's length
    /// where the token started.
    sizes: Vec<isize>,
    text: String,
    /// The stream's length so far, blanks of breaks included.
    total: isize,
    /// Boxes and breaks not measured yet, and ends of boxes on the way.
    pending: Vec<usize>,
    /// The indentation of the module the item is in.
    indent: isize,
}

impl<'a> Printer<'a> {
    fn new(depth: usize, table: &'a [Short], used: &'a mut [bool]) -> Self {
        let indent = INDENT * isize::try_from(depth).unwrap_or(0);
        let (tokens, sizes, text, pending) = (Vec::new(), Vec::new(), String::new(), Vec::new());
        Printer { table, used, tokens, sizes, text, total: 0, pending, indent }
    }

    /// The short form of the full path that `rest` starts with, if any,
    /// printed; how many tokens the full path takes.
    fn short_path(&mut self, before: &[TokenTree], rest: &[TokenTree]) -> Option<usize> {
        let (n, len) = paths::full_path(before, rest, self.table)?;
        self.used[n] = true;
        for (i, segment) in self.table[n].short().enumerate() {
            if i > 0 {
                self.word("::");
            }
            self.word(segment);
        }
        Some(len)
    }

    fn push(&mut self, token: Token, size: isize) {
        self.tokens.push(token);
        self.sizes.push(size);
    }

    fn word(&mut self, word: &str) {
        let start = self.text.len();
        self.text.push_str(word);
        self.end_word(start);
    }

    /// A word written by its `Display` (an identifier, a literal).
    fn display(&mut self, word: impl std::fmt::Display) {
        use std::fmt::Write;
        let start = self.text.len();
        // Writing into a `String` does not fail.
        let _ = write!(self.text, "{word}");
        self.end_word(start);
    }

    /// The word that [`Printer::text`] holds from `start` on.
    fn end_word(&mut self, start: usize) {
        let len = (self.text.len() - start) as isize;
        self.push(Token::Word { start: start as u32, end: self.text.len() as u32 }, len);
        self.total += len;
    }

    fn cbox(&mut self, offset: isize) {
        self.begin(offset, true);
    }

    fn ibox(&mut self, offset: isize) {
        self.begin(offset, false);
    }

    fn begin(&mut self, offset: isize, consistent: bool) {
        self.pending.push(self.tokens.len());
        self.push(Token::Begin { offset, consistent }, -self.total);
    }

    /// Ends the box, broken if what it holds so far is wider than `max`
    /// (prettyplease's `end_with_max_width`, for struct literals).
    fn end_with_max_width(&mut self, max: isize) {
        let mut depth = 1;
        for &i in self.pending.iter().rev() {
            match self.tokens[i] {
                Token::Begin { .. } => {
                    depth -= 1;
                    if depth == 0 {
                        if self.sizes[i] < 0 && self.sizes[i] + self.total > max {
                            // A word too wide for any line.
                            self.push(Token::Word { start: 0, end: 0 }, INFINITY);
                            self.total += INFINITY;
                        }
                        break;
                    }
                }
                Token::End => depth += 1,
                Token::Break { .. } | Token::Word { .. } => {}
            }
        }
        self.end();
    }

    fn end(&mut self) {
        // A break right before the end of its box: a box holding only it
        // goes, and a break for a non-empty box only goes.
        if let Some(Token::Break { blank, if_nonempty, .. }) = self.tokens.last().copied() {
            let n = self.tokens.len();
            if n >= 2 && matches!(self.tokens[n - 2], Token::Begin { .. }) {
                self.pop_pending(2);
                self.total -= blank;
                return;
            }
            if if_nonempty {
                self.pop_pending(1);
                self.total -= blank;
            }
        }
        self.pending.push(self.tokens.len());
        self.push(Token::End, -1);
    }

    fn pop_pending(&mut self, n: usize) {
        for _ in 0..n {
            self.tokens.pop();
            self.sizes.pop();
            self.pending.pop();
        }
    }

    fn brk(&mut self, blank: isize, pre: Option<char>, if_nonempty: bool) {
        self.measure();
        self.pending.push(self.tokens.len());
        let token = Token::Break { blank, offset: 0, pre, if_nonempty, never: false, post: "", no_break: None };
        self.push(token, -self.total);
        self.total += blank;
    }

    fn neverbreak(&mut self) {
        self.zerobreak();
        if let Some(Token::Break { never, .. }) = self.tokens.last_mut() {
            *never = true;
        }
    }

    /// The break before a match arm's body (`pre` `{`) or after it
    /// (`post` `}`, else `no_break` `,`; `offset` back out), which wrap
    /// the body in braces when it does not fit.
    fn arm_break(&mut self, pre: Option<char>, offset: isize, post: &'static str, no_break: Option<char>) {
        self.zerobreak();
        if let Some(Token::Break { pre: p, offset: o, post: q, no_break: n, .. }) = self.tokens.last_mut() {
            (*p, *o, *q, *n) = (pre, offset, post, no_break);
        }
    }

    fn nbsp(&mut self) {
        self.word(" ");
    }

    fn space(&mut self) {
        self.brk(1, None, false);
    }

    fn zerobreak(&mut self) {
        self.brk(0, None, false);
    }

    fn hardbreak(&mut self) {
        self.brk(INFINITY, None, false);
    }

    fn hardbreak_if_nonempty(&mut self) {
        self.brk(INFINITY, None, true);
    }

    fn space_if_nonempty(&mut self) {
        self.brk(1, None, true);
    }

    /// `,` and a break, or for the last of a list a break that writes
    /// the comma only if it breaks.
    fn trailing_comma(&mut self, last: bool) {
        self.trailing(last, 0);
    }

    /// As [`Printer::trailing_comma`], the last break a space when it
    /// does not break.
    fn trailing_comma_or_space(&mut self, last: bool) {
        self.trailing(last, 1);
    }

    fn trailing(&mut self, last: bool, blank: isize) {
        if last {
            self.brk(blank, Some(','), false);
        } else {
            self.word(",");
            self.space();
        }
    }

    /// Shifts the indentation of the line after the last break.
    fn offset(&mut self, by: isize) {
        if let Some(Token::Break { offset, .. }) = self.tokens.last_mut() {
            *offset += by;
        }
    }

    /// Measures, at a new break, the last break of the current box and
    /// every box and break in the boxes closed since.
    fn measure(&mut self) {
        let mut depth = 0;
        while let Some(&i) = self.pending.last() {
            match self.tokens[i] {
                Token::Begin { .. } if depth == 0 => break,
                Token::Begin { .. } => {
                    self.sizes[i] += self.total;
                    depth -= 1;
                }
                Token::End => {
                    self.sizes[i] = 1;
                    depth += 1;
                }
                Token::Break { .. } => {
                    self.sizes[i] += self.total;
                    if depth == 0 {
                        self.pending.pop();
                        break;
                    }
                }
                Token::Word { .. } => {}
            }
            self.pending.pop();
        }
    }

    /// The item's text: every line indented, none with trailing spaces.
    fn finish(mut self) -> String {
        for i in self.pending.drain(..) {
            self.sizes[i] = INFINITY;
        }
        let mut out = String::with_capacity(self.text.len() * 2);
        let mut stack: Vec<Frame> = Vec::new();
        let mut indent = self.indent;
        let mut space = (MARGIN - indent).max(MIN_SPACE);
        let mut pending = indent;
        for (token, &size) in self.tokens.iter().zip(&self.sizes) {
            match *token {
                Token::Word { start, end } => {
                    indent_by(&mut out, pending);
                    pending = 0;
                    let word = &self.text[start as usize..end as usize];
                    out.push_str(word);
                    space -= word.len() as isize;
                }
                Token::Break { blank, offset, pre, never, post, no_break, .. } => {
                    let fits = never
                        || match stack.last() {
                            Some(Frame::Fits) => true,
                            Some(Frame::Broken { consistent: false, .. }) => size <= space,
                            // Outside any box the item is in its module's
                            // box, which its line breaks have broken.
                            Some(Frame::Broken { consistent: true, .. }) | None => false,
                        };
                    if fits {
                        pending += blank;
                        space -= blank;
                        if let Some(ch) = no_break {
                            out.push(ch);
                            space -= 1;
                        }
                    } else {
                        if let Some(pre) = pre {
                            indent_by(&mut out, pending);
                            out.push(pre);
                        }
                        out.push('\n');
                        pending = indent + offset;
                        space = (MARGIN - pending).max(MIN_SPACE);
                        if !post.is_empty() {
                            indent_by(&mut out, pending);
                            pending = 0;
                            out.push_str(post);
                            space -= post.len() as isize;
                        }
                    }
                }
                Token::Begin { offset, consistent } => {
                    if size > space {
                        stack.push(Frame::Broken { indent, consistent });
                        indent += offset;
                    } else {
                        stack.push(Frame::Fits);
                    }
                }
                Token::End => {
                    if let Some(Frame::Broken { indent: outer, .. }) = stack.pop() {
                        indent = outer;
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indentation_of_any_width_is_written() {
        for n in [0, 1, 64, 65, 130] {
            let mut out = String::from("x");
            indent_by(&mut out, n);
            assert_eq!(out, format!("x{}", " ".repeat(n as usize)));
        }
        let mut out = String::new();
        indent_by(&mut out, -4);
        assert!(out.is_empty());
    }
}
