//! Walking parsed expressions (`cel::common::ast`): the sub-expressions of
//! a node, for the passes that look at every node alike (nesting depth,
//! macro expansion, literal validation), and the type identifiers. The
//! checker, the estimator and the interpreter treat each kind of node in
//! its own way and do not walk with these.

use kube_cel::cel::common::ast::{EntryExpr, Expr, IdedExpr, MapExpr, StructExpr};

/// The identifiers cel-go's standard environment declares as types: a
/// rule may compare `type(x)` with them. The last two are qualified names,
/// which the parser reads as selections.
pub(crate) const TYPE_NAMES: [&str; 12] = [
    "int",
    "uint",
    "double",
    "bool",
    "string",
    "bytes",
    "list",
    "map",
    "null_type",
    "type",
    "google.protobuf.Duration",
    "google.protobuf.Timestamp",
];

/// The type `e` names: an identifier of [`TYPE_NAMES`], or selections
/// spelling a qualified one, whose first name is not a variable (cel-go
/// resolves variables before type names). The interpreter asks this of
/// every selection, so it compares in place rather than build the name.
pub(crate) fn type_ident(e: &IdedExpr, is_variable: impl Fn(&str) -> bool) -> Option<&'static str> {
    fn spells(e: &IdedExpr, name: &str, is_variable: &dyn Fn(&str) -> bool) -> bool {
        match (&e.expr, name.rsplit_once('.')) {
            (Expr::Select(sel), Some((qualifier, last))) => {
                !sel.test && sel.field == last && spells(&sel.operand, qualifier, is_variable)
            }
            (Expr::Ident(ident), None) => ident == name && !is_variable(ident),
            _ => false,
        }
    }
    TYPE_NAMES.into_iter().find(|name| spells(e, name, &is_variable))
}

/// The direct sub-expressions of `e`, in source order.
pub(crate) fn children(e: &IdedExpr) -> Vec<&IdedExpr> {
    match &e.expr {
        Expr::Call(call) => call.target.as_deref().into_iter().chain(&call.args).collect(),
        Expr::Select(sel) => vec![&sel.operand],
        Expr::List(list) => list.elements.iter().collect(),
        Expr::Map(MapExpr { entries }) | Expr::Struct(StructExpr { entries, .. }) => entries
            .iter()
            .flat_map(|entry| match &entry.expr {
                EntryExpr::MapEntry(m) => vec![&m.key, &m.value],
                EntryExpr::StructField(f) => vec![&f.value],
            })
            .collect(),
        Expr::Comprehension(c) => vec![&c.iter_range, &c.accu_init, &c.loop_cond, &c.loop_step, &c.result],
        Expr::Literal(_) | Expr::Ident(_) | Expr::Unspecified => Vec::new(),
    }
}

/// [`children`], to change them.
pub(crate) fn children_mut(e: &mut IdedExpr) -> Vec<&mut IdedExpr> {
    match &mut e.expr {
        Expr::Call(call) => call.target.as_deref_mut().into_iter().chain(&mut call.args).collect(),
        Expr::Select(sel) => vec![&mut sel.operand],
        Expr::List(list) => list.elements.iter_mut().collect(),
        Expr::Map(MapExpr { entries }) | Expr::Struct(StructExpr { entries, .. }) => entries
            .iter_mut()
            .flat_map(|entry| match &mut entry.expr {
                EntryExpr::MapEntry(m) => vec![&mut m.key, &mut m.value],
                EntryExpr::StructField(f) => vec![&mut f.value],
            })
            .collect(),
        Expr::Comprehension(c) => {
            let c = &mut **c;
            vec![&mut c.iter_range, &mut c.accu_init, &mut c.loop_cond, &mut c.loop_step, &mut c.result]
        }
        Expr::Literal(_) | Expr::Ident(_) | Expr::Unspecified => Vec::new(),
    }
}

/// Every node of `e`, `e` first.
pub(crate) fn nodes(e: &IdedExpr) -> Vec<&IdedExpr> {
    let mut out = Vec::new();
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        out.push(e);
        stack.extend(children(e).into_iter().rev());
    }
    out
}
