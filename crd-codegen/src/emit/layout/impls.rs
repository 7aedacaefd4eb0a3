//! The `const _` blocks of a type's schema defaults — its inherent
//! `default_*` and `deserialize_*` functions and its `Default` impl
//! (`emit/defaults.rs`) — and of a root's constructor (`emit/resource.rs`)
//! laid out as prettyplease lays them out: the stream of its `item_const`,
//! `item_impl`, `impl_item_fn`, `signature`, `where_clause_for_body`,
//! `item_static`, `expr_call`, `call_args`, `qpath`, `expr_struct` and
//! `field_value`, fed to the same [`Printer`] as the types. Function
//! bodies of literals, paths (`<Self as Trait>::NAME` too), calls and
//! struct literals (with `..base`) are known; a block with anything else
//! (a method call, `?`) is left to prettyplease. An open enum's
//! `Deserialize` (`emit/templates.rs`) is walked here when its lines are
//! too wide for its template: its closure and `match` as prettyplease's
//! `expr_closure`, `expr_match` and `arm`.
//! The crate's tests lay out every block both ways and compare
//! (`cfg(test)` in `runs.rs`).

use proc_macro2::{Delimiter, Group, TokenTree};

use super::{
    INDENT, Printer, attrs_end, is_path_separator, is_punct, is_punct_at, outer_attrs, path_type, split_members,
};

/// The widest struct literal prettyplease keeps on one line.
const STRUCT_LITERAL_WIDTH: isize = 34;

/// `const _: () = { impl ... }`, printed; `None` for a shape it does not
/// know (with part of it printed: the printer is then dropped).
pub(super) fn const_block(p: &mut Printer<'_>, tokens: &[TokenTree]) -> Option<()> {
    let [
        TokenTree::Ident(keyword),
        TokenTree::Ident(name),
        colon,
        TokenTree::Group(unit),
        eq,
        TokenTree::Group(block),
        semi,
    ] = tokens
    else {
        return None;
    };
    let shaped = keyword == "const"
        && name == "_"
        && is_punct(colon, ':')
        && unit.delimiter() == Delimiter::Parenthesis
        && unit.stream().is_empty()
        && is_punct(eq, '=')
        && block.delimiter() == Delimiter::Brace
        && is_punct(semi, ';');
    if !shaped {
        return None;
    }
    p.cbox(0);
    p.word("const _: ");
    // The unit type: a tuple's box, emptied.
    p.word("(");
    p.cbox(INDENT);
    p.zerobreak();
    p.offset(-INDENT);
    p.end();
    p.word(")");
    p.word(" = ");
    p.neverbreak();
    // The block (`expr_block`, `small_block`).
    p.cbox(INDENT);
    p.word("{");
    let items: Vec<TokenTree> = block.stream().into_iter().collect();
    if !items.is_empty() {
        p.space();
        let mut at = 0;
        while at < items.len() {
            at = item_impl(p, &items, at)?;
        }
        p.offset(-INDENT);
    }
    p.word("}");
    p.end();
    p.word(";");
    p.end();
    p.hardbreak();
    Some(())
}

/// `impl Type { fns }` or `impl Trait for Type { fns }` at `at`, printed;
/// where it ends.
fn item_impl(p: &mut Printer<'_>, items: &[TokenTree], at: usize) -> Option<usize> {
    match items.get(at)? {
        TokenTree::Ident(keyword) if keyword == "impl" => {}
        _ => return None,
    }
    p.cbox(INDENT);
    p.ibox(-INDENT);
    p.cbox(INDENT);
    p.word("impl");
    let mut at = at + 1;
    if is_punct_at(items, at, '<') {
        at = generics(p, items, at + 1)?;
    }
    p.end();
    p.nbsp();
    at = path_type(p, items, at)?;
    if matches!(items.get(at), Some(TokenTree::Ident(word)) if word == "for") {
        p.space();
        p.word("for ");
        at = path_type(p, items, at + 1)?;
    }
    p.end();
    let body = braced(items.get(at)?)?;
    p.nbsp();
    p.word("{");
    p.hardbreak_if_nonempty();
    let mut fns: Vec<TokenTree> = body.stream().into_iter().collect();
    let mut i = 0;
    while i < fns.len() {
        i = impl_item_fn(p, &mut fns, i)?;
    }
    p.offset(-INDENT);
    p.end();
    p.word("}");
    p.hardbreak();
    Some(at + 1)
}

/// `attrs pub fn name<generics>(name: Type, ...) -> Type where bounds {
/// body }` (`pub` and each part in angle brackets or parentheses only
/// where written) at `at`, printed; where it ends.
fn impl_item_fn(p: &mut Printer<'_>, fns: &mut [TokenTree], at: usize) -> Option<usize> {
    let attrs = attrs_end(fns, at);
    outer_attrs(p, &mut fns[at..attrs])?;
    let fns = &*fns;
    let public = matches!(fns.get(attrs), Some(TokenTree::Ident(word)) if word == "pub");
    let start = attrs + usize::from(public);
    let (Some(TokenTree::Ident(keyword)), Some(TokenTree::Ident(name))) = (fns.get(start), fns.get(start + 1)) else {
        return None;
    };
    if keyword != "fn" {
        return None;
    }
    p.cbox(INDENT);
    if public {
        p.word("pub ");
    }
    p.word("fn ");
    p.display(name);
    let mut at = start + 2;
    if is_punct_at(fns, at, '<') {
        at = generics(p, fns, at + 1)?;
    }
    // The parameters (`signature`), each `name: Type` or `name: &Type`.
    let TokenTree::Group(params) = fns.get(at)? else { return None };
    if params.delimiter() != Delimiter::Parenthesis {
        return None;
    }
    p.word("(");
    p.neverbreak();
    p.cbox(0);
    p.zerobreak();
    let params: Vec<TokenTree> = params.stream().into_iter().collect();
    let params = split_members(&params);
    for (i, param) in params.iter().enumerate() {
        let [TokenTree::Ident(name), colon, ty @ ..] = param else { return None };
        if !is_punct(colon, ':') {
            return None;
        }
        p.display(name);
        p.word(": ");
        let ty = match ty {
            [ampersand, referent @ ..] if is_punct(ampersand, '&') => {
                p.word("&");
                referent
            }
            _ => ty,
        };
        if path_type(p, ty, 0)? != ty.len() {
            return None;
        }
        p.trailing_comma(i + 1 == params.len());
    }
    p.offset(-INDENT);
    p.end();
    p.word(")");
    at += 1;
    p.cbox(-INDENT);
    if is_punct_at(fns, at, '-') && is_punct_at(fns, at + 1, '>') {
        p.word(" -> ");
        at = path_type(p, fns, at + 2)?;
    }
    p.end();
    if matches!(fns.get(at), Some(TokenTree::Ident(word)) if word == "where") {
        at = where_clause(p, fns, at + 1)?;
    } else {
        p.nbsp();
    }
    let body = braced(fns.get(at)?)?;
    p.word("{");
    p.hardbreak_if_nonempty();
    let stmts: Vec<TokenTree> = body.stream().into_iter().collect();
    fn_body(p, &stmts)?;
    p.offset(-INDENT);
    p.end();
    p.word("}");
    p.hardbreak();
    Some(at + 1)
}

/// A function's generic parameters after `<` at `at` (lifetimes, then
/// types without bounds), printed; where they end.
fn generics(p: &mut Printer<'_>, tokens: &[TokenTree], mut at: usize) -> Option<usize> {
    p.word("<");
    p.cbox(0);
    p.zerobreak();
    let mut types = false;
    loop {
        match (tokens.get(at)?, tokens.get(at + 1)) {
            (TokenTree::Punct(tick), Some(TokenTree::Ident(lifetime))) if tick.as_char() == '\'' && !types => {
                p.word("'");
                p.display(lifetime);
                at += 2;
            }
            (TokenTree::Ident(param), _) => {
                p.display(param);
                p.ibox(INDENT);
                p.end();
                types = true;
                at += 1;
            }
            _ => return None,
        }
        at += usize::from(is_punct_at(tokens, at, ','));
        let last = is_punct_at(tokens, at, '>');
        p.trailing_comma(last);
        if last {
            break;
        }
    }
    p.offset(-INDENT);
    p.end();
    p.word(">");
    Some(at + 1)
}

/// The predicates after `where` at `at`, each `Type: Bound`, printed on
/// lines of their own (`where_clause_for_body`); where the function's
/// body starts.
fn where_clause(p: &mut Printer<'_>, tokens: &[TokenTree], mut at: usize) -> Option<usize> {
    p.hardbreak();
    p.offset(-INDENT);
    p.word("where");
    p.hardbreak();
    while !matches!(tokens.get(at)?, TokenTree::Group(g) if g.delimiter() == Delimiter::Brace) {
        at = path_type(p, tokens, at)?;
        if !is_punct_at(tokens, at, ':') {
            return None;
        }
        p.word(":");
        p.ibox(0);
        p.nbsp();
        at = path_type(p, tokens, at + 1)?;
        p.end();
        p.word(",");
        p.hardbreak();
        at += usize::from(is_punct_at(tokens, at, ','));
    }
    p.offset(-INDENT);
    Some(at)
}

/// A function's statements: an optional `static`, then the expression it
/// returns.
fn fn_body(p: &mut Printer<'_>, stmts: &[TokenTree]) -> Option<()> {
    let mut at = 0;
    if matches!(stmts.first(), Some(TokenTree::Ident(word)) if word == "static") {
        let end = stmts.iter().position(|t| is_punct(t, ';'))?;
        item_static(p, &stmts[..end])?;
        at = end + 1;
    }
    let tail = &stmts[at..];
    if tail.is_empty() {
        return None;
    }
    p.ibox(0);
    expr(p, tail)?;
    p.end();
    p.hardbreak();
    Some(())
}

/// `static NAME: Type = expr` (its `;` already cut off).
fn item_static(p: &mut Printer<'_>, tokens: &[TokenTree]) -> Option<()> {
    let [_, TokenTree::Ident(name), colon, ..] = tokens else { return None };
    if !is_punct(colon, ':') {
        return None;
    }
    p.cbox(0);
    p.word("static ");
    p.display(name);
    p.word(": ");
    let at = path_type(p, tokens, 3)?;
    if !is_punct_at(tokens, at, '=') {
        return None;
    }
    p.word(" = ");
    p.neverbreak();
    expr(p, &tokens[at + 1..])?;
    p.word(";");
    p.end();
    p.hardbreak();
    Some(())
}

/// An expression of the shapes the defaults are written in: a literal
/// (negative too), a path, a call or a struct literal, all of `tokens`;
/// or an open enum's closure, `|value| match value { ... }`.
fn expr(p: &mut Printer<'_>, tokens: &[TokenTree]) -> Option<()> {
    if let Some((path, fields)) = struct_literal_parts(tokens) {
        return struct_literal(p, path, fields);
    }
    match tokens {
        [open, TokenTree::Ident(param), close, body @ ..] if is_punct(open, '|') && is_punct(close, '|') => {
            closure(p, param, body)?;
        }
        [TokenTree::Literal(literal)] => p.display(literal),
        [minus, TokenTree::Literal(literal)] if is_punct(minus, '-') => {
            p.word("-");
            p.display(literal);
        }
        [path @ .., TokenTree::Group(args)] if args.delimiter() == Delimiter::Parenthesis => {
            expr_path(p, path)?;
            p.word("(");
            call_args(p, args)?;
            p.word(")");
        }
        path => expr_path(p, path)?,
    }
    Some(())
}

/// A path of an expression, all of `tokens`: without generic arguments,
/// or `<Type as Trait>::name`.
fn expr_path(p: &mut Printer<'_>, tokens: &[TokenTree]) -> Option<()> {
    if let [open, qualified @ ..] = tokens
        && is_punct(open, '<')
    {
        return qualified_path(p, qualified);
    }
    if tokens.iter().any(|t| is_punct(t, '<')) {
        return None;
    }
    (path_type(p, tokens, 0)? == tokens.len()).then_some(())
}

/// `Type as Trait>::name`, what follows the `<` of a qualified path
/// (prettyplease's `qpath`), all of `tokens`.
fn qualified_path(p: &mut Printer<'_>, tokens: &[TokenTree]) -> Option<()> {
    p.word("<");
    let at = path_type(p, tokens, 0)?;
    if !matches!(tokens.get(at), Some(TokenTree::Ident(word)) if word == "as") {
        return None;
    }
    p.word(" as ");
    let at = path_type(p, tokens, at + 1)?;
    if !is_punct_at(tokens, at, '>') {
        return None;
    }
    p.word(">");
    let name = &tokens[at + 1..];
    (is_path_separator(name, 0) && path_type(p, name, 0)? == name.len()).then_some(())
}

/// A call's arguments: a lone struct literal as it is, others in a box
/// that breaks them one per line.
fn call_args(p: &mut Printer<'_>, args: &Group) -> Option<()> {
    let tokens: Vec<TokenTree> = args.stream().into_iter().collect();
    let args = split_members(&tokens);
    if let [arg] = &args[..]
        && struct_literal_parts(arg).is_some()
    {
        return expr(p, arg);
    }
    p.cbox(INDENT);
    p.zerobreak();
    for (i, arg) in args.iter().enumerate() {
        expr(p, arg)?;
        p.trailing_comma(i + 1 == args.len());
    }
    p.offset(-INDENT);
    p.end();
    Some(())
}

/// `Path { field: expr, field, ..base }` (prettyplease's `expr_struct`
/// and `field_value`): broken one field per line when it does not fit or
/// is wider than [`STRUCT_LITERAL_WIDTH`].
fn struct_literal(p: &mut Printer<'_>, path: &[TokenTree], fields: &Group) -> Option<()> {
    p.cbox(INDENT);
    p.ibox(-INDENT);
    expr_path(p, path)?;
    p.end();
    p.word(" {");
    p.space_if_nonempty();
    let tokens: Vec<TokenTree> = fields.stream().into_iter().collect();
    let mut fields = split_members(&tokens);
    let base = match fields.last().copied() {
        Some([first, second, base @ ..]) if is_punct(first, '.') && is_punct(second, '.') && !base.is_empty() => {
            fields.pop();
            Some(base)
        }
        _ => None,
    };
    for (i, field) in fields.iter().enumerate() {
        match field {
            [TokenTree::Ident(name)] => p.display(name),
            [TokenTree::Ident(name), colon, value @ ..] if is_punct(colon, ':') && !value.is_empty() => {
                p.display(name);
                p.word(": ");
                p.ibox(0);
                expr(p, value)?;
                p.end();
            }
            _ => return None,
        }
        p.trailing_comma_or_space(i + 1 == fields.len() && base.is_none());
    }
    if let Some(base) = base {
        p.word("..");
        expr(p, base)?;
        p.space();
    }
    p.offset(-INDENT);
    p.end_with_max_width(STRUCT_LITERAL_WIDTH);
    p.word("}");
    Some(())
}

/// The path and the fields of a struct literal (`Path { ... }`), the one
/// argument prettyplease does not box.
fn struct_literal_parts(tokens: &[TokenTree]) -> Option<(&[TokenTree], &Group)> {
    let (fields, path) = tokens.split_last()?;
    let is_path = !path.is_empty() && path.iter().all(|t| matches!(t, TokenTree::Ident(_)) || is_punct(t, ':'));
    Some((path, braced(fields)?)).filter(|_| is_path)
}

fn braced(token: &TokenTree) -> Option<&Group> {
    match token {
        TokenTree::Group(group) if group.delimiter() == Delimiter::Brace => Some(group),
        _ => None,
    }
}

/// `|param| match ...` (prettyplease's `expr_closure`, whose `match`
/// body is not wrapped in braces).
fn closure(p: &mut Printer<'_>, param: &proc_macro2::Ident, body: &[TokenTree]) -> Option<()> {
    p.ibox(0);
    p.cbox(INDENT);
    p.word("|");
    p.zerobreak();
    p.display(param);
    p.word("|");
    p.space();
    p.offset(-INDENT);
    p.end();
    p.neverbreak();
    expr_match(p, body)?;
    p.end();
    Some(())
}

/// `match name { arms }`, each arm `pattern => expression` with a
/// literal or `_` for pattern and a path or call for expression.
fn expr_match(p: &mut Printer<'_>, tokens: &[TokenTree]) -> Option<()> {
    let [TokenTree::Ident(keyword), TokenTree::Ident(scrutinee), TokenTree::Group(arms)] = tokens else {
        return None;
    };
    if keyword != "match" || arms.delimiter() != Delimiter::Brace {
        return None;
    }
    p.ibox(0);
    p.word("match ");
    p.cbox(0);
    p.display(scrutinee);
    p.nbsp();
    p.end();
    p.word("{");
    p.neverbreak();
    p.cbox(INDENT);
    p.hardbreak_if_nonempty();
    let tokens: Vec<TokenTree> = arms.stream().into_iter().collect();
    for arm in split_members(&tokens) {
        match_arm(p, arm)?;
        p.hardbreak();
    }
    p.offset(-INDENT);
    p.end();
    p.word("}");
    p.end();
    Some(())
}

/// `pattern => expression` (prettyplease's `arm`): the expression on the
/// arm's line, followed by `,`, or in braces on lines of its own.
fn match_arm(p: &mut Printer<'_>, tokens: &[TokenTree]) -> Option<()> {
    let arrow = tokens.iter().position(|t| is_punct(t, '='))?;
    if !is_punct_at(tokens, arrow + 1, '>') || arrow + 2 == tokens.len() {
        return None;
    }
    p.ibox(0);
    match &tokens[..arrow] {
        [TokenTree::Literal(literal)] => p.display(literal),
        [TokenTree::Ident(wild)] if wild == "_" => p.word("_"),
        _ => return None,
    }
    p.word(" => ");
    let body = &tokens[arrow + 2..];
    if matches!(body.first(), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace) {
        return None;
    }
    p.neverbreak();
    p.cbox(INDENT);
    p.arm_break(Some('{'), 0, "", None);
    expr(p, body)?;
    p.arm_break(None, -INDENT, "}", Some(','));
    p.end();
    p.end();
    Some(())
}
