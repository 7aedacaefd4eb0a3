//! The two-variable comprehensions of cel-go's `ext.TwoVarComprehensions`
//! (`ext/comprehensions.go`), in Kubernetes' base environment since 1.32:
//! `all`, `exists` and `existsOne` (or `exists_one`) over an index or key
//! and a value, `transformList`, `transformMap` and `transformMapEntry`;
//! and the optional library's `optMap` and `optFlatMap` (cel-go's
//! `OptionalTypes`, in Kubernetes since 1.28).
//!
//! The parser's macro table is fixed, so these reach us as calls with three
//! or four arguments; [`expand`] turns each into the comprehension cel-go's
//! macro builds, which the checker, the cost estimator and the interpreter
//! already take (with a second iteration variable). `transformMap` and
//! `transformMapEntry` insert into their accumulator with
//! [`MAP_INSERT`], the function cel-go's library declares for them.

use kube_cel::cel::common::ast::{
    CallExpr, ComprehensionExpr, Expr, IdedExpr, ListExpr, LiteralValue, MapExpr, StructExpr,
};

/// cel-go's `cel.@mapInsert`: a map with one more entry (or the entries of
/// another map), an error when a key is already there.
pub(crate) const MAP_INSERT: &str = "cel.@mapInsert";

/// The accumulator's name, as the parser's own macros call it.
const ACCU: &str = "@result";

/// Expands every two-variable comprehension of `expr`, innermost first,
/// failing with cel-go's macro errors (`argument must be a simple name`,
/// `duplicate variable name: x`, ...).
pub(crate) fn expand(expr: &mut IdedExpr) -> Result<(), String> {
    let mut next = max_id(expr);
    expand_from(expr, &mut next)
}

fn expand_from(e: &mut IdedExpr, next: &mut u64) -> Result<(), String> {
    for child in super::ast::children_mut(e) {
        expand_from(child, next)?;
    }
    let Expr::Call(call) = &e.expr else { return Ok(()) };
    if call.target.is_some() && call.args.len() == 2 && matches!(call.func_name.as_str(), "optMap" | "optFlatMap") {
        return expand_opt_map(e, next);
    }
    let Some(kind) = Kind::of(call) else { return Ok(()) };
    let Expr::Call(CallExpr { target: Some(target), mut args, .. }) = std::mem::take(&mut e.expr) else {
        return Ok(());
    };
    let [first, second] = [&args[0], &args[1]].map(|arg| match &arg.expr {
        Expr::Ident(name) => Ok(name.clone()),
        _ => Err("argument must be a simple name".to_owned()),
    });
    let (first, second) = (first?, second?);
    if first == second {
        return Err(format!("duplicate variable name: {first}"));
    }
    if first == ACCU || second == ACCU || first == "__result__" || second == "__result__" {
        return Err("iteration variable overwrites accumulator variable".to_owned());
    }
    let (filter, body) = match args.len() {
        4 => {
            let body = args.pop();
            (args.pop(), body)
        }
        _ => (None, args.pop()),
    };
    let Some(body) = body else { return Ok(()) };
    let mut n = Nodes { next };
    let (init, cond, mut step, result) = match kind {
        Kind::All => {
            let a = n.accu();
            let cond = n.call("@not_strictly_false", vec![a]);
            let a = n.accu();
            let step = n.call("_&&_", vec![a, body]);
            (n.bool(true), cond, step, n.accu())
        }
        Kind::Exists => {
            let a = n.accu();
            let not = n.call("!_", vec![a]);
            let cond = n.call("@not_strictly_false", vec![not]);
            let a = n.accu();
            let step = n.call("_||_", vec![a, body]);
            (n.bool(false), cond, step, n.accu())
        }
        Kind::ExistsOne => {
            let (a, one) = (n.accu(), n.int(1));
            let plus = n.call("_+_", vec![a, one]);
            let a = n.accu();
            let step = n.call("_?_:_", vec![body, plus, a]);
            let (a, one) = (n.accu(), n.int(1));
            let result = n.call("_==_", vec![a, one]);
            (n.int(0), n.bool(true), step, result)
        }
        Kind::TransformList => {
            let (a, item) = (n.accu(), n.node(Expr::List(ListExpr::new(vec![body]))));
            let step = n.call("_+_", vec![a, item]);
            (n.node(Expr::List(ListExpr::new(Vec::new()))), n.bool(true), step, n.accu())
        }
        Kind::TransformMap | Kind::TransformMapEntry => {
            let inserted = match kind {
                Kind::TransformMap => vec![n.accu(), n.node(Expr::Ident(first.clone())), body],
                _ => vec![n.accu(), body],
            };
            let step = n.call(MAP_INSERT, inserted);
            (n.node(Expr::Map(MapExpr { entries: Vec::new() })), n.bool(true), step, n.accu())
        }
    };
    if let Some(filter) = filter {
        let a = n.accu();
        step = n.call("_?_:_", vec![filter, step, a]);
    }
    e.expr = Expr::Comprehension(Box::new(ComprehensionExpr {
        iter_range: *target,
        iter_var: first,
        iter_var2: Some(second),
        accu_var: ACCU.to_owned(),
        accu_init: init,
        loop_cond: cond,
        loop_step: step,
        result,
    }));
    Ok(())
}

/// `o.optMap(v, e)`: `o.hasValue() ? optional.of(e with v = o.value()) :
/// optional.none()`, the binding a comprehension over an empty list, as
/// cel-go's macro builds it; `optFlatMap` leaves `e`'s optional as it is.
fn expand_opt_map(e: &mut IdedExpr, next: &mut u64) -> Result<(), String> {
    let Expr::Call(CallExpr { func_name, target: Some(target), mut args }) = std::mem::take(&mut e.expr) else {
        return Ok(());
    };
    let Expr::Ident(var) = &args[0].expr else {
        return Err(format!("{func_name}() variable name must be a simple identifier"));
    };
    let var = var.clone();
    let Some(body) = args.pop() else { return Ok(()) };
    let mut n = Nodes { next };
    let mut copy = (*target).clone();
    n.renumber(&mut copy);
    let has_value =
        n.node(Expr::Call(CallExpr { func_name: "hasValue".to_owned(), target: Some(target), args: Vec::new() }));
    let value =
        n.node(Expr::Call(CallExpr { func_name: "value".to_owned(), target: Some(Box::new(copy)), args: Vec::new() }));
    let (range, cond, step) =
        (n.node(Expr::List(ListExpr::new(Vec::new()))), n.bool(false), n.node(Expr::Ident(var.clone())));
    let bound = n.node(Expr::Comprehension(Box::new(ComprehensionExpr {
        iter_range: range,
        iter_var: "#unused".to_owned(),
        iter_var2: None,
        accu_var: var,
        accu_init: value,
        loop_cond: cond,
        loop_step: step,
        result: body,
    })));
    let some = match func_name.as_str() {
        "optMap" => n.optional("of", vec![bound]),
        _ => bound,
    };
    let none = n.optional("none", Vec::new());
    e.expr = Expr::Call(CallExpr { func_name: "_?_:_".to_owned(), target: None, args: vec![has_value, some, none] });
    Ok(())
}

/// New nodes, numbered after the parsed ones.
struct Nodes<'a> {
    next: &'a mut u64,
}

impl Nodes<'_> {
    fn node(&mut self, expr: Expr) -> IdedExpr {
        *self.next += 1;
        IdedExpr { id: *self.next, expr }
    }

    fn call(&mut self, name: &str, args: Vec<IdedExpr>) -> IdedExpr {
        self.node(Expr::Call(CallExpr { func_name: name.to_owned(), target: None, args }))
    }

    fn accu(&mut self) -> IdedExpr {
        self.node(Expr::Ident(ACCU.to_owned()))
    }

    fn bool(&mut self, b: bool) -> IdedExpr {
        self.node(Expr::Literal(LiteralValue::Boolean(b.into())))
    }

    fn int(&mut self, i: i64) -> IdedExpr {
        self.node(Expr::Literal(LiteralValue::Int(i.into())))
    }

    /// `optional.<name>(args)`, as the parser reads such a call.
    fn optional(&mut self, name: &str, args: Vec<IdedExpr>) -> IdedExpr {
        let namespace = Box::new(self.node(Expr::Ident("optional".to_owned())));
        self.node(Expr::Call(CallExpr { func_name: name.to_owned(), target: Some(namespace), args }))
    }

    /// Gives every node of `e` a new id (cel-go's `Copy` of an expression).
    fn renumber(&mut self, e: &mut IdedExpr) {
        e.id = self.node(Expr::Unspecified).id;
        if let Expr::Map(MapExpr { entries }) | Expr::Struct(StructExpr { entries, .. }) = &mut e.expr {
            for entry in entries {
                entry.id = self.node(Expr::Unspecified).id;
            }
        }
        for child in super::ast::children_mut(e) {
            self.renumber(child);
        }
    }
}

/// The two-variable macros.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    All,
    Exists,
    ExistsOne,
    TransformList,
    TransformMap,
    TransformMapEntry,
}

impl Kind {
    /// The macro a call is, by its name and number of arguments; only
    /// calls with a receiver are macros.
    fn of(call: &CallExpr) -> Option<Kind> {
        call.target.as_ref()?;
        Some(match (call.func_name.as_str(), call.args.len()) {
            ("all", 3) => Kind::All,
            ("exists", 3) => Kind::Exists,
            ("existsOne" | "exists_one", 3) => Kind::ExistsOne,
            ("transformList", 3 | 4) => Kind::TransformList,
            ("transformMap", 3 | 4) => Kind::TransformMap,
            ("transformMapEntry", 3 | 4) => Kind::TransformMapEntry,
            _ => return None,
        })
    }
}

/// The largest expression id in `expr`, so that new nodes get ids of their
/// own (the checker and the estimator key what they learn by id).
fn max_id(expr: &IdedExpr) -> u64 {
    let entry_ids = |e: &IdedExpr| match &e.expr {
        Expr::Map(MapExpr { entries }) | Expr::Struct(StructExpr { entries, .. }) => {
            entries.iter().map(|entry| entry.id).max().unwrap_or(0)
        }
        _ => 0,
    };
    super::ast::nodes(expr).into_iter().map(|e| e.id.max(entry_ids(e))).max().unwrap_or(0)
}
