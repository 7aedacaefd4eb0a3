//! The interpreter: evaluates a parsed rule with cel-go's semantics and
//! counts cel-go's runtime cost as it goes (`interpreter/runtimecost.go`).
//!
//! Costs, as cel-go plans and observes a program with Kubernetes' options
//! (`OptOptimize`, presence tests without cost): reading a variable is 1
//! (type names such as `int` are free); each field selection or index
//! applied to it is 1 more (an index that is neither a literal nor itself a
//! variable chain also costs its own evaluation); selecting from anything
//! that is not a variable first costs 1 for the new attribute; `has()`
//! costs only its operand; literals, and list and map literals made of
//! literals, are free (constant folding), other list literals cost 10, map
//! literals 30; `x in` a constant list costs only `x`; conversions of a
//! literal (`duration('1h')`) are free; `&&`, `||` and `?:` only cost
//! their evaluated operands, and the chosen branch of `?:` does not pay for
//! the variable it reads (cel-go resolves it as a conditional attribute);
//! every other call costs what `functions::call_cost` or the Kubernetes
//! library estimator (`bridge::library_cost`) says, 1 by default.
//! Evaluation stops as soon as the cost exceeds the limit
//! ([`Error::Cancelled`]).
//!
//! Errors are values, as in CEL: `a && b` is false when either side is
//! false even if the other errs, `||` likewise with true, and the `all` and
//! `exists` macros absorb errors the same way.

use std::rc::Rc;

use kube_cel::cel::common::ast::{CallExpr, ComprehensionExpr, EntryExpr, Expr, IdedExpr, LiteralValue, SelectExpr};

use super::functions;
use super::value::{Error, Map, Result, Val, equals};
use super::{ast, bridge};

/// The variables a rule sees.
#[derive(Clone, Debug)]
pub(crate) struct Activation<'a> {
    /// `self`, or the error converting the data gave.
    pub self_: Result<Val<'a>>,
    pub old_self: OldSelf<'a>,
}

/// `oldSelf`: undeclared (no old value), a value, or — for rules with
/// `optionalOldSelf: true` — an optional.
#[derive(Clone, Debug)]
pub(crate) enum OldSelf<'a> {
    Absent,
    Value(Result<Val<'a>>),
    Optional(Option<Result<Val<'a>>>),
}

/// The outcome of one evaluation: the value (or error) and the cost spent.
pub(crate) struct Outcome<'a> {
    pub result: Result<Val<'a>>,
    pub cost: u64,
}

/// Evaluates `expr` with at most `limit` cost.
pub(crate) fn evaluate<'a>(expr: &IdedExpr, activation: &Activation<'a>, limit: u64) -> Outcome<'a> {
    let mut interp = Interp { cost: 0, limit, scopes: Vec::new(), activation };
    let result = interp.eval(expr);
    Outcome { result, cost: interp.cost }
}

struct Interp<'a, 'e> {
    cost: u64,
    limit: u64,
    /// Comprehension variables, innermost last.
    scopes: Vec<(&'e str, Result<Val<'a>>)>,
    activation: &'e Activation<'a>,
}

impl<'a, 'e> Interp<'a, 'e> {
    fn charge(&mut self, n: u64) -> Result<()> {
        self.cost = self.cost.saturating_add(n);
        if self.cost > self.limit { Err(Error::Cancelled) } else { Ok(()) }
    }

    fn eval(&mut self, e: &'e IdedExpr) -> Result<Val<'a>> {
        match &e.expr {
            Expr::Literal(l) => Ok(literal(l)),
            Expr::Ident(name) => self.ident(name, false),
            Expr::Select(sel) if sel.test => self.has(sel),
            Expr::Select(_) => self.attribute(e, false),
            Expr::Call(call) => self.call(e, call),
            Expr::List(list) => {
                let constant = is_constant(e);
                let mut items = Vec::with_capacity(list.elements.len());
                for (i, element) in list.elements.iter().enumerate() {
                    let v = self.eval(element)?;
                    if list.optional_indices.contains(&i) {
                        match v {
                            Val::Optional(Some(inner)) => items.push((*inner).clone()),
                            Val::Optional(None) => {}
                            _ => return Err(Error::no_such_overload()),
                        }
                    } else {
                        items.push(v);
                    }
                }
                if !constant {
                    self.charge(10)?;
                }
                Ok(Val::list(items))
            }
            Expr::Map(map) => {
                let constant = is_constant(e);
                let mut entries: Vec<(Val<'a>, Val<'a>)> = Vec::with_capacity(map.entries.len());
                for entry in &map.entries {
                    let EntryExpr::MapEntry(entry) = &entry.expr else { return Err(Error::no_such_overload()) };
                    let key = self.eval(&entry.key)?;
                    if !matches!(key, Val::String(_) | Val::Int(_) | Val::Uint(_) | Val::Bool(_)) {
                        return Err(Error::new(format!("unsupported key type: {}", key.type_name())));
                    }
                    let value = match (self.eval(&entry.value)?, entry.optional) {
                        (Val::Optional(Some(v)), true) => (*v).clone(),
                        (Val::Optional(None), true) => continue,
                        (v, _) => v,
                    };
                    for (k, _) in &entries {
                        if equals(k, &key)? {
                            return Err(Error::new(format!("Failed with repeated key: {}", functions::display(&key))));
                        }
                    }
                    entries.push((key, value));
                }
                if !constant {
                    self.charge(30)?;
                }
                Ok(Val::Map(Map::Owned(Rc::new(entries))))
            }
            Expr::Comprehension(c) => self.comprehension(c),
            Expr::Struct(_) | Expr::Unspecified => Err(Error::new("unsupported expression")),
        }
    }

    /// A variable; `free` when cel-go resolves it without observing it.
    fn ident(&mut self, name: &str, free: bool) -> Result<Val<'a>> {
        let cost = u64::from(!free);
        if let Some((_, v)) = self.scopes.iter().rev().find(|(n, _)| *n == name) {
            let v = v.clone();
            self.charge(cost)?;
            return v;
        }
        let value = match name {
            "self" => self.activation.self_.clone(),
            "oldSelf" => match &self.activation.old_self {
                OldSelf::Absent => Err(Error::new("no such attribute: oldSelf")),
                OldSelf::Value(v) => v.clone(),
                OldSelf::Optional(None) => Ok(Val::Optional(None)),
                OldSelf::Optional(Some(v)) => v.clone().map(|v| Val::Optional(Some(Rc::new(v)))),
            },
            // Type names evaluate to type values at no cost.
            _ if ast::TYPE_NAMES.contains(&name) => return Ok(Val::Type(Rc::from(name))),
            _ => Err(Error::new(format!("no such attribute: {name}"))),
        };
        self.charge(cost)?;
        value
    }

    fn is_variable(&self, name: &str) -> bool {
        name == "self" || name == "oldSelf" || self.scopes.iter().any(|(n, _)| *n == name)
    }

    /// An attribute: a variable with selections and indices applied, each
    /// costing 1. With `free_base` the variable itself is read at no cost
    /// (the chosen branch of `?:`, an index that is itself an attribute).
    fn attribute(&mut self, e: &'e IdedExpr, free_base: bool) -> Result<Val<'a>> {
        match &e.expr {
            Expr::Ident(name) => self.ident(name, free_base),
            Expr::Select(_) if let Some(name) = ast::type_ident(e, |n| self.is_variable(n)) => {
                Ok(Val::Type(Rc::from(name)))
            }
            Expr::Select(sel) => {
                let operand = self.operand(&sel.operand, free_base)?;
                self.charge(1)?;
                // Selecting on an optional is optional selection (cel-go).
                if let Val::Optional(_) = operand {
                    return optional_select(&operand, &sel.field);
                }
                select(&operand, &sel.field)
            }
            Expr::Call(call) if call.func_name == "_?._" => {
                let operand = self.operand(&call.args[0], free_base)?;
                self.charge(1)?;
                let Expr::Literal(LiteralValue::String(field)) = &call.args[1].expr else {
                    return Err(Error::no_such_overload());
                };
                optional_select(&operand, field)
            }
            Expr::Call(call) => {
                let operand = self.operand(&call.args[0], free_base)?;
                let index = &call.args[1];
                let index = match &index.expr {
                    Expr::Literal(l) => literal(l),
                    _ if is_attribute(index) => self.attribute(index, true)?,
                    _ => self.eval(index)?,
                };
                self.charge(1)?;
                if call.func_name == "_[?_]" || matches!(operand, Val::Optional(_)) {
                    return optional_index(&operand, &index);
                }
                index_value(&operand, &index)
            }
            _ => self.eval(e),
        }
    }

    // The operand of a selection or index: attributes extend; anything else
    // but a conditional becomes a new attribute, which costs 1.
    fn operand(&mut self, operand: &'e IdedExpr, free_base: bool) -> Result<Val<'a>> {
        if is_attribute(operand) {
            return self.attribute(operand, free_base);
        }
        let v = self.eval(operand)?;
        if !is_conditional(operand) {
            self.charge(1)?;
        }
        Ok(v)
    }

    // `has(x.f)`: whether the field is set (for objects: present and not
    // null). The presence test itself costs nothing in Kubernetes.
    fn has(&mut self, sel: &'e SelectExpr) -> Result<Val<'a>> {
        let operand = self.operand(&sel.operand, false)?;
        match &operand {
            Val::Map(m) => Ok(Val::Bool(m.get(&Val::string(&sel.field))?.is_some())),
            _ => Err(Error::new(format!("invalid type for field selection: {}", operand.type_name()))),
        }
    }

    // The chosen branch of `?:`: an attribute there is resolved by cel-go's
    // conditional attribute without observing the variable read.
    fn branch(&mut self, e: &'e IdedExpr) -> Result<Val<'a>> {
        if is_attribute(e) { self.attribute(e, true) } else { self.eval(e) }
    }

    fn call(&mut self, e: &'e IdedExpr, call: &'e CallExpr) -> Result<Val<'a>> {
        let args = &call.args;
        match (call.func_name.as_str(), args.len(), &call.target) {
            ("_&&_", 2, None) => return self.logical(args, false),
            ("_||_", 2, None) => return self.logical(args, true),
            ("_?_:_", 3, None) => {
                return match self.eval(&args[0])? {
                    Val::Bool(true) => self.branch(&args[1]),
                    Val::Bool(false) => self.branch(&args[2]),
                    _ => Err(Error::no_such_overload()),
                };
            }
            ("@not_strictly_false", 1, None) => {
                let v = match self.eval(&args[0]) {
                    Ok(Val::Bool(b)) => b,
                    Err(Error::Cancelled) => return Err(Error::Cancelled),
                    _ => true,
                };
                self.charge(1)?;
                return Ok(Val::Bool(v));
            }
            ("_[_]" | "_[?_]" | "_?._", 2, None) => return self.attribute(e, false),
            ("@in", 2, None) if matches!(args[1].expr, Expr::List(_)) && is_constant(&args[1]) => {
                // A constant list is planned as a set: no call cost.
                let needle = self.eval(&args[0])?;
                let list = self.eval(&args[1])?;
                return functions::in_(&needle, &list).map(Val::Bool);
            }
            (name, 1, None) if CONVERSIONS.contains(&name) && matches!(args[0].expr, Expr::Literal(_)) => {
                // Folded into a constant when the program is planned.
                let arg = self.eval(&args[0])?;
                return self.invoke(name, None, &[arg]);
            }
            _ => {}
        }
        if let Some(Expr::Ident(prefix)) = call.target.as_deref().map(|t| &t.expr)
            && !self.is_variable(prefix)
        {
            let qualified = format!("{prefix}.{}", call.func_name);
            let args = self.eval_args(args)?;
            return self.apply(&qualified, None, args);
        }
        let target = match &call.target {
            Some(t) => Some(self.eval(t)?),
            None => None,
        };
        let args = self.eval_args(args)?;
        self.apply(&call.func_name, target, args)
    }

    fn eval_args(&mut self, args: &'e [IdedExpr]) -> Result<Vec<Val<'a>>> {
        args.iter().map(|a| self.eval(a)).collect()
    }

    // `&&` (`short` false) and `||` (`short` true): the short-circuiting
    // value wins over an error on the other side.
    fn logical(&mut self, args: &'e [IdedExpr], short: bool) -> Result<Val<'a>> {
        let lhs = self.eval(&args[0]);
        match lhs {
            Ok(Val::Bool(b)) if b == short => return Ok(Val::Bool(short)),
            Err(Error::Cancelled) => return Err(Error::Cancelled),
            _ => {}
        }
        let rhs = self.eval(&args[1]);
        match (lhs, rhs) {
            (_, Err(Error::Cancelled)) => Err(Error::Cancelled),
            (_, Ok(Val::Bool(b))) if b == short => Ok(Val::Bool(short)),
            (Ok(Val::Bool(_)), Ok(Val::Bool(b))) => Ok(Val::Bool(b)),
            (Err(e), _) | (Ok(_), Err(e)) => Err(e),
            _ => Err(Error::no_such_overload()),
        }
    }

    fn apply(&mut self, name: &str, target: Option<Val<'a>>, args: Vec<Val<'a>>) -> Result<Val<'a>> {
        let result = self.invoke(name, target.as_ref(), &args);
        let mut all = Vec::with_capacity(args.len() + 1);
        all.extend(target);
        all.extend(args);
        let cost = match &result {
            Ok(v) => bridge::library_cost(name, &all, v),
            Err(_) => None,
        };
        self.charge(cost.unwrap_or_else(|| functions::call_cost(name, &all)))?;
        result
    }

    fn invoke(&mut self, name: &str, target: Option<&Val<'a>>, args: &[Val<'a>]) -> Result<Val<'a>> {
        match (name, target, args) {
            ("_==_", None, [a, b]) => return equals(a, b).map(Val::Bool),
            ("_!=_", None, [a, b]) => return equals(a, b).map(|e| Val::Bool(!e)),
            ("_<_" | "_<=_" | "_>_" | "_>=_", None, [a, b]) => {
                let ordering = functions::compare(a, b)?;
                return Ok(Val::Bool(ordering.is_some_and(|o| match name {
                    "_<_" => o.is_lt(),
                    "_<=_" => o.is_le(),
                    "_>_" => o.is_gt(),
                    _ => o.is_ge(),
                })));
            }
            ("_+_", None, [a, b]) => return functions::add(a, b),
            ("_-_", None, [a, b]) => return functions::sub(a, b),
            ("_*_", None, [a, b]) => return functions::arithmetic("*", a, b),
            ("_/_", None, [a, b]) => return functions::arithmetic("/", a, b),
            ("_%_", None, [a, b]) => return functions::arithmetic("%", a, b),
            ("-_", None, [a]) => return functions::negate(a),
            ("!_", None, [Val::Bool(b)]) => return Ok(Val::Bool(!b)),
            ("@in", None, [a, b]) => return functions::in_(a, b).map(Val::Bool),
            _ => {}
        }
        if let Some(result) = optional_call(name, target, args) {
            return result;
        }
        if let Some(result) = functions::call(name, target, args) {
            return result;
        }
        if name == "lists.range"
            && let [Val::Int(n)] = args
            && u64::try_from(*n).unwrap_or(0) > self.limit.saturating_sub(self.cost)
        {
            // The list would be larger than what the remaining budget can
            // ever look at; building it would only exhaust memory.
            return Err(Error::Cancelled);
        }
        if bridge::FUNCTIONS.contains(&name) {
            return bridge::call(name, target, args);
        }
        Err(Error::no_such_overload())
    }

    fn comprehension(&mut self, c: &'e ComprehensionExpr) -> Result<Val<'a>> {
        let range = self.eval(&c.iter_range)?;
        let items: Vec<(Val<'a>, Result<Val<'a>>)> = match &range {
            Val::List(l) => l.elements().into_iter().enumerate().map(|(i, v)| (Val::Int(i as i64), v)).collect(),
            Val::Map(m) => {
                let mut out = Vec::with_capacity(m.len());
                for k in m.keys() {
                    let v = m.get(&k).transpose().unwrap_or_else(|| Err(Error::new("no such key")));
                    out.push((k, v));
                }
                out
            }
            _ => return Err(Error::no_such_overload()),
        };
        let mut accu = self.eval(&c.accu_init);
        if matches!(accu, Err(Error::Cancelled)) {
            return Err(Error::Cancelled);
        }
        for (first, second) in items {
            let base = self.scopes.len();
            let is_list = matches!(range, Val::List(_));
            match &c.iter_var2 {
                Some(var2) => {
                    self.scopes.push((&c.iter_var, Ok(first)));
                    self.scopes.push((var2, second));
                }
                None if is_list => self.scopes.push((&c.iter_var, second)),
                None => self.scopes.push((&c.iter_var, Ok(first))),
            }
            self.scopes.push((&c.accu_var, accu.clone()));
            let cond = self.eval(&c.loop_cond);
            let proceed = matches!(cond, Ok(Val::Bool(true)));
            if proceed {
                accu = self.eval(&c.loop_step);
            }
            self.scopes.truncate(base);
            if matches!(cond, Err(Error::Cancelled)) || matches!(accu, Err(Error::Cancelled)) {
                return Err(Error::Cancelled);
            }
            if !proceed {
                break;
            }
        }
        self.scopes.push((&c.accu_var, accu));
        let result = self.eval(&c.result);
        self.scopes.pop();
        result
    }
}

/// Conversion functions, which cel-go folds when applied to a literal.
const CONVERSIONS: [&str; 9] = ["int", "uint", "double", "string", "bytes", "bool", "dyn", "duration", "timestamp"];

/// Whether `e` is an attribute: a variable, or a selection or index of one.
fn is_attribute(e: &IdedExpr) -> bool {
    match &e.expr {
        Expr::Ident(name) => !ast::TYPE_NAMES.contains(&name.as_str()),
        Expr::Select(sel) => !sel.test,
        Expr::Call(call) => {
            call.target.is_none()
                && call.args.len() == 2
                && matches!(call.func_name.as_str(), "_[_]" | "_[?_]" | "_?._")
        }
        _ => false,
    }
}

fn is_conditional(e: &IdedExpr) -> bool {
    matches!(&e.expr, Expr::Call(call) if call.func_name == "_?_:_" && call.args.len() == 3)
}

/// Whether `e` is a literal or a list or map literal of constants, which
/// cel-go folds into a constant.
fn is_constant(e: &IdedExpr) -> bool {
    match &e.expr {
        Expr::Literal(_) => true,
        Expr::List(list) => list.optional_indices.is_empty() && list.elements.iter().all(is_constant),
        Expr::Map(map) => map.entries.iter().all(|entry| match &entry.expr {
            EntryExpr::MapEntry(m) => !m.optional && is_constant(&m.key) && is_constant(&m.value),
            EntryExpr::StructField(_) => false,
        }),
        _ => false,
    }
}

pub(crate) fn literal<'a>(l: &LiteralValue) -> Val<'a> {
    match l {
        LiteralValue::Boolean(b) => Val::Bool(**b),
        LiteralValue::Bytes(b) => Val::Bytes(Rc::from(&b[..])),
        LiteralValue::Double(d) => Val::Double(**d),
        LiteralValue::Int(i) => Val::Int(**i),
        LiteralValue::Null => Val::Null,
        LiteralValue::String(s) => Val::string(s),
        LiteralValue::UInt(u) => Val::Uint(**u),
    }
}

/// `operand.field`: a map's entry under the key `field`.
fn select<'a>(operand: &Val<'a>, field: &str) -> Result<Val<'a>> {
    match operand {
        Val::Map(m) => m.get(&Val::string(field))?.ok_or_else(|| Error::new(format!("no such key: {field}"))),
        _ => Err(Error::no_such_overload()),
    }
}

fn index_value<'a>(operand: &Val<'a>, index: &Val<'a>) -> Result<Val<'a>> {
    match (operand, index) {
        (Val::List(l), Val::Int(i)) => l.get(*i),
        (Val::List(l), Val::Uint(u)) => l.get(i64::try_from(*u).unwrap_or(i64::MAX)),
        (Val::List(l), Val::Double(d)) if d.fract() == 0.0 => l.get(*d as i64),
        (Val::List(_), other) => Err(Error::new(format!("unsupported index type '{}' in list", other.type_name()))),
        (Val::Map(m), key) => {
            m.get(key)?.ok_or_else(|| Error::new(format!("no such key: {}", functions::display(key))))
        }
        _ => Err(Error::no_such_overload()),
    }
}

fn optional_select<'a>(operand: &Val<'a>, field: &str) -> Result<Val<'a>> {
    match operand {
        Val::Optional(None) => Ok(Val::Optional(None)),
        Val::Optional(Some(inner)) => optional_select(inner, field),
        Val::Map(m) => Ok(Val::Optional(m.get(&Val::string(field))?.map(Rc::new))),
        _ => Err(Error::no_such_overload()),
    }
}

fn optional_index<'a>(operand: &Val<'a>, index: &Val<'a>) -> Result<Val<'a>> {
    match operand {
        Val::Optional(None) => Ok(Val::Optional(None)),
        Val::Optional(Some(inner)) => optional_index(inner, index),
        Val::Map(m) => Ok(Val::Optional(m.get(index)?.map(Rc::new))),
        Val::List(l) => match index {
            Val::Int(i) if *i >= 0 && (*i as usize) < l.len() => Ok(Val::Optional(Some(Rc::new(l.get(*i)?)))),
            Val::Int(_) => Ok(Val::Optional(None)),
            _ => Err(Error::no_such_overload()),
        },
        _ => Err(Error::no_such_overload()),
    }
}

/// The optional library: `optional.of`, `optional.none`,
/// `optional.ofNonZeroValue`, `hasValue()`, `value()`, `orValue()`, `or()`.
fn optional_call<'a>(name: &str, target: Option<&Val<'a>>, args: &[Val<'a>]) -> Option<Result<Val<'a>>> {
    Some(match (name, target, args) {
        ("optional.of", None, [v]) => Ok(Val::Optional(Some(Rc::new(v.clone())))),
        ("optional.none", None, []) => Ok(Val::Optional(None)),
        ("optional.ofNonZeroValue", None, [v]) => Ok(Val::Optional((!is_zero(v)).then(|| Rc::new(v.clone())))),
        ("hasValue", Some(Val::Optional(o)), []) => Ok(Val::Bool(o.is_some())),
        ("value", Some(Val::Optional(o)), []) => match o {
            Some(v) => Ok((**v).clone()),
            None => Err(Error::new("optional.none() dereference")),
        },
        ("orValue", Some(Val::Optional(o)), [default]) => {
            Ok(o.as_ref().map_or_else(|| default.clone(), |v| (**v).clone()))
        }
        ("or", Some(Val::Optional(o)), [other @ Val::Optional(_)]) => {
            Ok(if o.is_some() { Val::Optional(o.clone()) } else { other.clone() })
        }
        _ => return None,
    })
}

fn is_zero(v: &Val<'_>) -> bool {
    match v {
        Val::Null => true,
        Val::Bool(b) => !b,
        Val::Int(i) => *i == 0,
        Val::Uint(u) => *u == 0,
        Val::Double(d) => *d == 0.0,
        Val::Duration(d) => d.is_zero(),
        // Go's zero time.Time: the start of year 1, UTC.
        Val::Timestamp(t) => t.timestamp() == -62_135_596_800 && t.timestamp_subsec_nanos() == 0,
        other => other.size() == Some(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cel::compile::parse;

    fn run(rule: &str, self_: Val<'static>) -> (Result<Val<'static>>, u64) {
        let expr = parse(rule).unwrap();
        let activation = Activation { self_: Ok(self_), old_self: OldSelf::Absent };
        let o = evaluate(&expr, &activation, 1_000_000);
        (o.result, o.cost)
    }

    #[test]
    fn evaluates_with_cel_go_costs() {
        assert!(matches!(run("self == 'singleton'", Val::string("singleton")), (Ok(Val::Bool(true)), 2)));
        assert!(matches!(
            run("self.startsWith('kube-everyt')", Val::string("kube-everything")),
            (Ok(Val::Bool(true)), 3)
        ));
        assert!(matches!(run("[1, 2, 3].all(x, x > 0)", Val::Null), (Ok(Val::Bool(true)), 16)));
        assert!(matches!(run("{'a': 1}.a == 1", Val::Null), (Ok(Val::Bool(true)), 3)));
        assert!(matches!(run("true ? self : 1", Val::Int(1)), (Ok(Val::Int(1)), 0)));
        assert!(matches!(run("duration('1h') + duration('1s') > duration('1m')", Val::Null).1, 2));
    }

    #[test]
    fn errors_are_absorbed_like_cel() {
        assert!(matches!(run("1 / 0 == 1 || true", Val::Null).0, Ok(Val::Bool(true))));
        assert!(matches!(run("false && 1 / 0 == 1", Val::Null).0, Ok(Val::Bool(false))));
        assert!(matches!(run("[0, 1].exists(x, 1 / x == 1)", Val::Null).0, Ok(Val::Bool(true))));
        let (result, _) = run("[0].all(x, 1 / x == 1)", Val::Null);
        assert_eq!(result.unwrap_err(), Error::new("division by zero"));
    }

    #[test]
    fn macros_and_optionals() {
        assert!(matches!(run("[1, 2, 3].filter(x, x > 1).map(x, x * 2) == [4, 6]", Val::Null).0, Ok(Val::Bool(true))));
        assert!(matches!(run("[1, 2, 3].exists_one(x, x > 2)", Val::Null).0, Ok(Val::Bool(true))));
        assert!(matches!(run("optional.none().orValue(5) == 5", Val::Null).0, Ok(Val::Bool(true))));
        assert!(matches!(run("{'a': 1}.?b.hasValue()", Val::Null).0, Ok(Val::Bool(false))));
        assert!(matches!(run("[1][?3].orValue(0) == 0", Val::Null).0, Ok(Val::Bool(true))));
        assert!(matches!(run("type(1) == int && type('a') != int", Val::Null).0, Ok(Val::Bool(true))));
    }

    #[test]
    fn cost_limit_cancels() {
        let expr =
            parse("[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(x, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(y, x + y > 0))").unwrap();
        let activation = Activation { self_: Ok(Val::Null), old_self: OldSelf::Absent };
        let o = evaluate(&expr, &activation, 100);
        assert_eq!(o.result.unwrap_err(), Error::Cancelled);
        assert_eq!(o.cost, 101);
    }
}
