//! Static cost estimation: cel-go's `checker/cost.go`, driven by the types
//! the checker recorded and by Kubernetes' library estimator and size
//! estimator (`library_cost`).
//!
//! Entry point: [`expression_cost`], the `Max` of `EstimateCost` for one
//! checked expression declared on a schema node. Like cel-go, the coster
//! follows every expression's *path* from a variable (`self.spec`,
//! `self.items.@items`, `self.@keys`) so that the schema can bound its
//! size, and keeps the sizes it can compute itself (literals, results of
//! concatenations and library calls, elements of literal lists and maps).
//! Each step costs 1 per variable, field selection on a map or object, and
//! ordinary call; list literals 10, map literals 30, object literals 40,
//! plus their parts; size-dependent functions cost by the sizes of their
//! operands; a comprehension costs its range, its initializer and its
//! result plus the range's size times one loop step. All arithmetic
//! saturates at `u64::MAX`, as cel-go's.
//!
//! Nothing here panics: expressions nest at most as deeply as the parser
//! allows, and an unknown size is `[0, u64::MAX]`.

use std::collections::HashMap;

use kube_cel::cel::common::ast::{CallExpr, ComprehensionExpr, EntryExpr, Expr, IdedExpr, LiteralValue, SelectExpr};

use super::ast;
use super::library_cost::LibraryCost;
use super::schema::{Node, Ty};

pub(crate) use super::functions::{REGEX_STRING_LENGTH_COST_FACTOR, STRING_TRAVERSAL_COST_FACTOR};

/// cel-go's accumulator variables, whose paths are not handed to the
/// estimators.
const ACCUMULATORS: [&str; 2] = ["__result__", "@result"];

/// A range of sizes or costs (`SizeEstimate`, `CostEstimate`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Estimate {
    pub min: u64,
    pub max: u64,
}

impl Estimate {
    pub const UNKNOWN: Estimate = Estimate { min: 0, max: u64::MAX };

    pub const fn fixed(n: u64) -> Self {
        Self { min: n, max: n }
    }

    pub fn add(self, o: Estimate) -> Estimate {
        Estimate { min: self.min.saturating_add(o.min), max: self.max.saturating_add(o.max) }
    }

    pub fn mul(self, o: Estimate) -> Estimate {
        Estimate { min: self.min.saturating_mul(o.min), max: self.max.saturating_mul(o.max) }
    }

    /// `MultiplyByCostFactor`: each bound times `f`, rounded up.
    pub fn factor(self, f: f64) -> Estimate {
        Estimate { min: multiply_by_cost_factor(self.min, f), max: multiply_by_cost_factor(self.max, f) }
    }

    pub fn union(self, o: Estimate) -> Estimate {
        Estimate { min: self.min.min(o.min), max: self.max.max(o.max) }
    }
}

// In float64, as cel-go: the rounding of large sizes is part of the result.
fn multiply_by_cost_factor(x: u64, f: f64) -> u64 {
    let x = x as f64;
    let limit = u64::MAX as f64;
    if x > 0.0 && f > 0.0 && x > limit / f {
        return u64::MAX;
    }
    let ceil = (x * f).ceil();
    if ceil >= limit { u64::MAX } else { ceil as u64 }
}

/// The sizes of the keys (or indices) and values of a list or map whose
/// elements the coster knows (`entrySizeEstimate`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct EntrySize {
    list: bool,
    key: Estimate,
    value: Estimate,
}

fn union_entries(a: Option<EntrySize>, b: Option<EntrySize>) -> Option<EntrySize> {
    let (a, b) = (a?, b?);
    Some(EntrySize { list: a.list, key: a.key.union(b.key), value: a.value.union(b.value) })
}

/// What an estimator sees of an argument (`checker.AstNode`).
#[derive(Clone, Debug)]
pub(crate) struct AstNode<'a, 's> {
    /// The path from a variable, empty when there is none (or it starts at
    /// an accumulator).
    pub path: Vec<String>,
    pub ty: Ty<'s>,
    pub expr: &'a IdedExpr,
    /// The size the coster computed (`ComputedSize`).
    pub computed: Option<Estimate>,
}

/// A call's cost and, where known, the size of its result.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CallEstimate {
    pub cost: Estimate,
    pub result_size: Option<Estimate>,
}

impl CallEstimate {
    pub fn cost(cost: Estimate) -> Self {
        Self { cost, result_size: None }
    }
}

/// The overloads whose costs cel-go or Kubernetes estimate specially; the
/// rest cost 1 plus their arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Overload {
    IndexList,
    IndexMap,
    InList,
    Matches,
    Contains,
    StartsOrEndsWith,
    StringToBytes,
    BytesToString,
    QuoteString,
    FormatString,
    Logical,
    Conditional,
    AddString,
    AddList,
    /// Ordering of strings or bytes, and (in)equality of anything.
    SizedComparison,
    /// `cidr.ip()`.
    CidrIp,
    /// `containsIP` / `containsCIDR` with a string argument.
    ContainsWithString,
    Other,
}

/// The estimated worst-case cost (`EstimateCost(...).Max`) of `expr`,
/// declared on `root` (the type of `self` and `oldSelf`), with `types` the
/// checker's type of every subexpression.
pub(crate) fn expression_cost<'s>(expr: &IdedExpr, types: &HashMap<u64, Ty<'s>>, root: Node<'s>) -> u64 {
    let mut coster = Coster {
        types,
        library: LibraryCost { root },
        paths: HashMap::new(),
        sizes: HashMap::new(),
        entries: HashMap::new(),
        locals: HashMap::new(),
    };
    coster.cost(expr).max
}

/// A variable of a comprehension (`localVar`).
#[derive(Clone, Debug)]
struct LocalVar {
    path: Vec<String>,
    size: Option<Estimate>,
    entry: Option<EntrySize>,
}

struct Coster<'t, 's> {
    types: &'t HashMap<u64, Ty<'s>>,
    library: LibraryCost<'s>,
    /// Paths from variables, by expression id (`exprPaths`).
    paths: HashMap<u64, Vec<String>>,
    /// Computed sizes by expression id (`computedSizes`).
    sizes: HashMap<u64, Estimate>,
    /// Entry sizes by expression id (`computedEntrySizes`).
    entries: HashMap<u64, EntrySize>,
    /// Scoped comprehension variables.
    locals: HashMap<String, Vec<LocalVar>>,
}

impl<'s> Coster<'_, 's> {
    fn cost(&mut self, e: &IdedExpr) -> Estimate {
        match &e.expr {
            Expr::Literal(_) => Estimate::fixed(0),
            Expr::Ident(name) => {
                let path = self.local(name).map_or_else(|| vec![name.clone()], |v| v.path.clone());
                self.paths.insert(e.id, path);
                Estimate::fixed(1)
            }
            Expr::Select(sel) => self.cost_select(e, sel),
            Expr::Call(call) => self.cost_call(e, call),
            Expr::List(list) => {
                let mut sum = Estimate::fixed(10);
                let mut value = Estimate { min: if list.elements.is_empty() { 0 } else { u64::MAX }, max: 0 };
                for el in &list.elements {
                    sum = sum.add(self.cost(el));
                    value = value.union(self.size_or_unknown(el));
                }
                self.entries.insert(e.id, EntrySize { list: true, key: Estimate::fixed(1), value });
                sum
            }
            Expr::Map(map) => {
                let empty = if map.entries.is_empty() { 0 } else { u64::MAX };
                let (mut key, mut value) = (Estimate { min: empty, max: 0 }, Estimate { min: empty, max: 0 });
                let mut sum = Estimate::fixed(30);
                for entry in &map.entries {
                    if let EntryExpr::MapEntry(m) = &entry.expr {
                        sum = sum.add(self.cost(&m.key)).add(self.cost(&m.value));
                        key = key.union(self.size_or_unknown(&m.key));
                        value = value.union(self.size_or_unknown(&m.value));
                    }
                }
                self.entries.insert(e.id, EntrySize { list: false, key, value });
                sum
            }
            Expr::Struct(s) => {
                let mut sum = Estimate::fixed(40);
                for entry in &s.entries {
                    if let EntryExpr::StructField(f) = &entry.expr {
                        sum = sum.add(self.cost(&f.value));
                    }
                }
                sum
            }
            Expr::Comprehension(c) => self.cost_comprehension(e, c),
            Expr::Unspecified => Estimate::fixed(0),
        }
    }

    // Kubernetes does not charge for the presence test of `has()`; a
    // selection costs 1 on a map or an object.
    fn cost_select(&mut self, e: &IdedExpr, sel: &SelectExpr) -> Estimate {
        // A qualified type name is one identifier once checked.
        if let Some(name) = ast::type_ident(e, |n| self.is_variable(n)) {
            self.paths.insert(e.id, vec![name.to_owned()]);
            return Estimate::fixed(1);
        }
        let operand = self.cost(&sel.operand);
        if sel.test {
            return operand;
        }
        let charged = matches!(self.ty(&sel.operand), Ty::Map(..) | Ty::Object(_));
        let mut path = self.path(&sel.operand);
        path.push(sel.field.clone());
        self.paths.insert(e.id, path);
        operand.add(Estimate::fixed(u64::from(charged)))
    }

    fn cost_comprehension(&mut self, e: &IdedExpr, c: &ComprehensionExpr) -> Estimate {
        let mut sum = self.cost(&c.iter_range).add(self.cost(&c.accu_init));
        let accu = LocalVar {
            path: self.path(&c.accu_init),
            size: self.compute_size(&c.accu_init),
            entry: self.compute_entry_size(&c.accu_init),
        };
        self.push(&c.accu_var, accu);
        match &c.iter_var2 {
            Some(var2) => {
                let (key, value) = self.iteration_vars(&c.iter_range);
                self.push(&c.iter_var, key);
                self.push(var2, value);
            }
            None => {
                let single = self.iteration_var(&c.iter_range);
                self.push(&c.iter_var, single);
            }
        }
        let loop_cost = self.cost(&c.loop_cond);
        let step_cost = self.cost(&c.loop_step);
        self.pop(&c.iter_var);
        if let Some(var2) = &c.iter_var2 {
            self.pop(var2);
        }
        sum = sum.add(self.cost(&c.result));
        self.pop(&c.accu_var);
        let range = self.size_or_unknown(&c.iter_range);
        sum = sum.add(range.mul(step_cost.add(loop_cost)));
        match &c.accu_init.expr {
            Expr::Literal(_) => {
                if let Some(size) = self.compute_size(&c.accu_init) {
                    self.sizes.insert(e.id, size);
                }
            }
            Expr::List(_) | Expr::Map(_) => {
                self.sizes.insert(e.id, range);
                if let Some(entry) = self.compute_entry_size(&c.loop_step) {
                    self.entries.insert(e.id, entry);
                }
            }
            _ => {}
        }
        sum
    }

    // `pushIterSingle`: the elements of a list, the keys of anything else.
    fn iteration_var(&mut self, range: &IdedExpr) -> LocalVar {
        let entry = self.compute_entry_size(range);
        let list = entry.map_or_else(|| matches!(self.ty(range), Ty::List(_)), |e| e.list);
        let mut path = self.path(range);
        path.push((if list { "@items" } else { "@keys" }).to_owned());
        let size = entry.map(|e| if list { e.value } else { e.key });
        LocalVar { path, size, entry: None }
    }

    // `pushIterKey` and `pushIterValue`: indices or keys, and values.
    fn iteration_vars(&mut self, range: &IdedExpr) -> (LocalVar, LocalVar) {
        let entry = self.compute_entry_size(range);
        let list = entry.map_or_else(|| matches!(self.ty(range), Ty::List(_)), |e| e.list);
        let path = self.path(range);
        let with = |step: &str| {
            let mut p = path.clone();
            p.push(step.to_owned());
            p
        };
        let key =
            LocalVar { path: with(if list { "@indices" } else { "@keys" }), size: entry.map(|e| e.key), entry: None };
        let value =
            LocalVar { path: with(if list { "@items" } else { "@values" }), size: entry.map(|e| e.value), entry: None };
        (key, value)
    }

    fn cost_call(&mut self, e: &IdedExpr, call: &CallExpr) -> Estimate {
        // `dyn(x)` only switches type checking off.
        if call.func_name == "dyn"
            && call.target.is_none()
            && let [arg] = call.args.as_slice()
        {
            let cost = self.cost(arg);
            if let Some(size) = self.compute_size(arg) {
                self.sizes.insert(e.id, size);
            }
            if let Some(entry) = self.compute_entry_size(arg) {
                self.entries.insert(e.id, entry);
            }
            return Estimate::fixed(1).add(cost);
        }
        let (name, target) = match call.target.as_deref() {
            // `sets.contains(...)`: a qualified global function.
            Some(IdedExpr { expr: Expr::Ident(prefix), .. }) if !self.is_variable(prefix) => {
                (format!("{prefix}.{}", call.func_name), None)
            }
            target => (call.func_name.clone(), target),
        };
        let mut arg_costs = Vec::with_capacity(call.args.len());
        let mut args = Vec::with_capacity(call.args.len());
        for arg in &call.args {
            arg_costs.push(self.cost(arg));
            args.push(self.ast_node(arg));
        }
        let mut sum = Estimate::fixed(0);
        let target = match target {
            Some(t) => {
                sum = sum.add(self.cost(t));
                Some(self.ast_node(t))
            }
            None => None,
        };
        let arg_types: Vec<&Ty<'s>> = args.iter().map(|a| &a.ty).collect();
        let overloads = overloads(&name, target.as_ref().map(|t| &t.ty), &arg_types);
        let mut fn_cost = Estimate { min: u64::MAX, max: 0 };
        let mut result_size: Option<Estimate> = None;
        for overload in overloads {
            let estimate = self.function_cost(e, &name, overload, target.as_ref(), &args, &arg_costs);
            fn_cost = fn_cost.union(estimate.cost);
            if let Some(size) = estimate.result_size {
                result_size = Some(result_size.map_or(size, |r| r.union(size)));
            }
            let step = match overload {
                Overload::IndexList => Some("@items"),
                Overload::IndexMap => Some("@values"),
                _ => None,
            };
            if let (Some(step), Some(container)) = (step, call.args.first()) {
                result_size = self.compute_entry_size(container).map(|entry| entry.value);
                let mut path = self.path(container);
                path.push(step.to_owned());
                self.paths.insert(e.id, path);
            }
            if result_size.is_none() {
                result_size = self.compute_size(e);
            }
        }
        if let Some(size) = result_size {
            self.sizes.insert(e.id, size);
        }
        sum.add(fn_cost)
    }

    /// The cost of one overload of a call (`functionCost`): Kubernetes'
    /// estimate where it has one, else cel-go's.
    fn function_cost(
        &mut self,
        e: &IdedExpr,
        name: &str,
        overload: Overload,
        target: Option<&AstNode<'_, 's>>,
        args: &[AstNode<'_, 's>],
        arg_costs: &[Estimate],
    ) -> CallEstimate {
        let arg_sum = arg_costs.iter().fold(Estimate::fixed(0), |s, c| s.add(*c));
        if let Some(estimate) = self.library.estimate_call_cost(name, overload, target, args) {
            return CallEstimate { cost: estimate.cost.add(arg_sum), result_size: estimate.result_size };
        }
        let size = |i: usize| args.get(i).and_then(|a| a.computed).unwrap_or(Estimate::UNKNOWN);
        let target_size = target.and_then(|t| t.computed).unwrap_or(Estimate::UNKNOWN);
        let traversal = STRING_TRAVERSAL_COST_FACTOR;
        let with_args = |cost: Estimate| CallEstimate::cost(cost.add(arg_sum));
        match (overload, args.len(), target.is_some()) {
            (Overload::FormatString, _, true) => with_args(target_size.factor(traversal)),
            (Overload::StringToBytes, 1, _) => CallEstimate {
                cost: size(0).factor(traversal).add(arg_sum),
                result_size: Some(Estimate { min: size(0).min, max: size(0).max.wrapping_mul(4) }),
            },
            (Overload::BytesToString, 1, _) => CallEstimate {
                cost: size(0).factor(traversal).add(arg_sum),
                result_size: Some(Estimate { min: size(0).min / 4, max: size(0).max }),
            },
            (Overload::QuoteString, 1, _) => CallEstimate {
                cost: size(0).factor(traversal).add(arg_sum),
                result_size: Some(Estimate {
                    min: size(0).min.wrapping_add(2),
                    max: size(0).max.wrapping_mul(2).wrapping_add(2),
                }),
            },
            (Overload::StartsOrEndsWith, 1, _) => with_args(size(0).factor(traversal)),
            (Overload::InList, 2, _) => with_args(size(1).factor(1.0)),
            // One is added to the string's length so that an empty string
            // still pays for an expensive pattern.
            (Overload::Matches, 1, true) => {
                let string = target_size.add(Estimate::fixed(1)).factor(traversal);
                with_args(string.mul(size(0).factor(REGEX_STRING_LENGTH_COST_FACTOR)))
            }
            (Overload::Contains, 1, true) => with_args(target_size.factor(traversal).mul(size(0).factor(traversal))),
            (Overload::Logical, 2, _) => {
                CallEstimate::cost(Estimate { min: arg_costs[0].min, max: arg_costs[0].add(arg_costs[1]).max })
            }
            (Overload::Conditional, 3, _) => {
                let result = size(1).union(size(2));
                let entry = union_entries(self.compute_entry_size(args[1].expr), self.compute_entry_size(args[2].expr));
                if let Some(entry) = entry {
                    self.entries.insert(e.id, entry);
                }
                let cost = arg_costs[0].add(arg_costs[1].union(arg_costs[2]));
                CallEstimate { cost, result_size: Some(result) }
            }
            (Overload::AddString | Overload::AddList, 2, _) => {
                let result = size(0).add(size(1));
                let entry = union_entries(self.compute_entry_size(args[0].expr), self.compute_entry_size(args[1].expr));
                if let Some(entry) = entry {
                    self.entries.insert(e.id, entry);
                }
                // List concatenation is O(1); it is handled for the size.
                let cost = if overload == Overload::AddList { Estimate::fixed(1) } else { result.factor(traversal) };
                CallEstimate { cost: cost.add(arg_sum), result_size: Some(result) }
            }
            // Equality of two scalars costs 1.
            (Overload::SizedComparison, 2, _) => {
                let smallest = size(0).max.min(size(1).max);
                let cost = Estimate { min: u64::from(smallest > 0), max: smallest };
                with_args(cost.factor(traversal))
            }
            _ => with_args(Estimate::fixed(1)),
        }
    }

    fn is_variable(&self, name: &str) -> bool {
        matches!(name, "self" | "oldSelf") || self.local(name).is_some()
    }

    fn ty(&self, e: &IdedExpr) -> Ty<'s> {
        self.types.get(&e.id).cloned().unwrap_or(Ty::Dyn)
    }

    fn local(&self, name: &str) -> Option<&LocalVar> {
        self.locals.get(name).and_then(|stack| stack.last())
    }

    fn push(&mut self, name: &str, var: LocalVar) {
        self.locals.entry(name.to_owned()).or_default().push(var);
    }

    fn pop(&mut self, name: &str) {
        if let Some(stack) = self.locals.get_mut(name) {
            stack.pop();
        }
    }

    /// `getPath`: a variable's path, or the path recorded for `e`.
    fn path(&self, e: &IdedExpr) -> Vec<String> {
        if let Expr::Ident(name) = &e.expr
            && let Some(v) = self.local(name)
        {
            return v.path.clone();
        }
        self.paths.get(&e.id).cloned().unwrap_or_default()
    }

    /// `newAstNode`: what the estimators see of `e`.
    fn ast_node<'a>(&mut self, e: &'a IdedExpr) -> AstNode<'a, 's> {
        let mut path = self.path(e);
        if path.first().is_some_and(|p| ACCUMULATORS.contains(&p.as_str())) {
            path.clear();
        }
        AstNode { path, ty: self.ty(e), expr: e, computed: self.compute_size(e) }
    }

    fn size_or_unknown(&mut self, e: &IdedExpr) -> Estimate {
        self.compute_size(e).unwrap_or(Estimate::UNKNOWN)
    }

    /// `computeSize`: the computed size, else the size of a literal, else
    /// the schema's bound on the path, else 1 for fixed-size types, else
    /// what a variable was bound to.
    fn compute_size(&mut self, e: &IdedExpr) -> Option<Estimate> {
        if let Some(size) = self.sizes.get(&e.id) {
            return Some(*size);
        }
        if let Some(size) = literal_size(e) {
            return Some(size);
        }
        if let Some(size) = self.library.estimate_size(&self.path(e)) {
            self.sizes.insert(e.id, size);
            return Some(size);
        }
        if is_scalar(&self.ty(e)) {
            return Some(Estimate::fixed(1));
        }
        match &e.expr {
            Expr::Ident(name) => self.local(name).and_then(|v| v.size),
            _ => None,
        }
    }

    /// `computeEntrySize`: the entry sizes recorded for `e`, or those a
    /// variable was bound to.
    fn compute_entry_size(&self, e: &IdedExpr) -> Option<EntrySize> {
        if let Some(entry) = self.entries.get(&e.id) {
            return Some(*entry);
        }
        match &e.expr {
            Expr::Ident(name) => self.local(name).and_then(|v| v.entry),
            _ => None,
        }
    }
}

/// The size of a literal, list or map expression (`computeExprSize`):
/// strings in code points.
fn literal_size(e: &IdedExpr) -> Option<Estimate> {
    let n = match &e.expr {
        Expr::Literal(LiteralValue::String(s)) => s.chars().count() as u64,
        Expr::Literal(LiteralValue::Bytes(b)) => b.len() as u64,
        Expr::Literal(_) => 1,
        Expr::List(l) => l.elements.len() as u64,
        Expr::Map(m) => m.entries.len() as u64,
        _ => return None,
    };
    Some(Estimate::fixed(n))
}

/// Types of a fixed size (`isScalar`).
fn is_scalar(t: &Ty<'_>) -> bool {
    match t {
        Ty::Bool | Ty::Double | Ty::Duration | Ty::Int | Ty::Timestamp | Ty::Uint => true,
        Ty::Optional(inner) => is_scalar(inner),
        _ => false,
    }
}

/// The overloads a call may resolve to, from the checked types of its
/// receiver and arguments: a `dyn` operand admits every overload of the
/// function, and the estimate covers them all.
fn overloads(name: &str, target: Option<&Ty<'_>>, args: &[&Ty<'_>]) -> Vec<Overload> {
    use Overload::*;
    let string = |t: &Ty<'_>| matches!(t, Ty::String | Ty::Dyn);
    let bytes = |t: &Ty<'_>| matches!(t, Ty::Bytes | Ty::Dyn);
    let list = |t: &Ty<'_>| matches!(t, Ty::List(_) | Ty::Dyn);
    let other = |t: &Ty<'_>| !matches!(t, Ty::String | Ty::Bytes | Ty::List(_));
    let mut out = Vec::new();
    match (name, target, args) {
        ("_==_" | "_!=_", None, [_, _]) => out.push(SizedComparison),
        ("_<_" | "_<=_" | "_>_" | "_>=_", None, [a, b]) => {
            if (string(a) && string(b)) || (bytes(a) && bytes(b)) {
                out.push(SizedComparison);
            }
            if other(a) && other(b) {
                out.push(Other);
            }
        }
        ("_+_", None, [a, b]) => {
            if (string(a) && string(b)) || (bytes(a) && bytes(b)) {
                out.push(AddString);
            }
            if list(a) && list(b) {
                out.push(AddList);
            }
            if other(a) && other(b) {
                out.push(Other);
            }
        }
        ("_[_]", None, [c, _]) => match c {
            Ty::List(_) => out.push(IndexList),
            Ty::Map(..) => out.push(IndexMap),
            Ty::Dyn => out.extend([IndexList, IndexMap]),
            _ => out.push(Other),
        },
        ("@in", None, [_, c]) => match c {
            Ty::List(_) => out.push(InList),
            Ty::Dyn => out.extend([InList, Other]),
            _ => out.push(Other),
        },
        ("_&&_" | "_||_", None, [_, _]) => out.push(Logical),
        ("_?_:_", None, [_, _, _]) => out.push(Conditional),
        ("matches", Some(t), [_]) if string(t) => out.push(Matches),
        ("contains", Some(t), [_]) if string(t) => out.push(Contains),
        ("startsWith" | "endsWith", Some(t), [_]) if string(t) => out.push(StartsOrEndsWith),
        ("format", Some(t), [_]) if string(t) => out.push(FormatString),
        ("bytes", None, [a]) if string(a) => {
            out.push(StringToBytes);
            if a.is_dyn() {
                out.push(Other);
            }
        }
        ("string", None, [a]) if bytes(a) => {
            out.push(BytesToString);
            if a.is_dyn() {
                out.push(Other);
            }
        }
        ("strings.quote", None, [_]) => out.push(QuoteString),
        ("ip", Some(_), []) => out.push(CidrIp),
        ("containsIP" | "containsCIDR", Some(_), [a]) if string(a) => {
            out.push(ContainsWithString);
            if a.is_dyn() {
                out.push(Other);
            }
        }
        _ => {}
    }
    if out.is_empty() {
        out.push(Other);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cel::check::check;
    use crate::cel::compile::parse;
    use crate::cel::schema::decl;
    use crate::structural::Structural;
    use serde_json::json;

    fn estimate(schema: serde_json::Value, rule: &str) -> u64 {
        let s = Structural::from_json(&schema).unwrap();
        let node = Node::new(&s, false);
        let ty = decl(node).unwrap();
        let program = parse(rule).unwrap();
        let checked = check(&program, &ty, false);
        assert!(checked.errors.is_empty(), "{:?}", checked.errors);
        expression_cost(&program, &checked.types, node)
    }

    #[test]
    fn bounded_lists_are_cheap() {
        // Kubernetes' own figures: `self.all(x, true)` costs 2 + 3 per item.
        let numbers = json!({"type": "array", "maxItems": 10, "items": {"type": "number"}});
        assert_eq!(estimate(numbers, "self.all(x, true)"), 32);
        let unbounded = json!({"type": "array", "items": {"type": "number"}});
        assert_eq!(estimate(unbounded, "self.all(x, true)"), 4718591);
        let strings = json!({"type": "array", "items": {"type": "string"}});
        assert_eq!(estimate(strings, "self.all(x, true)"), 3145727);
    }

    #[test]
    fn map_keys_are_estimated_as_empty_strings() {
        let map = json!({"type": "object", "additionalProperties": {"type": "string"}});
        assert_eq!(estimate(map.clone(), "self.all(x, x.contains(self[x]))"), 2752507);
        // 393215 entries at 5 each, plus the range and the result.
        assert_eq!(estimate(map.clone(), "self.all(key, !key.contains('*'))"), 1966077);
        assert!(estimate(map, "self.all(k, k.matches('^[A-Z]+(_[A-Z]+)+$'))") < 10_000_000);
    }

    #[test]
    fn string_operations_scale_with_max_length() {
        let s = json!({"type": "string", "maxLength": 5000});
        assert_eq!(estimate(s.clone(), "self.contains('keyword')"), 1 + 2000);
        assert_eq!(estimate(s.clone(), "self == 'x'"), 2);
        assert_eq!(estimate(s, "self.startsWith('abcd')"), 2, "the prefix is what is traversed");
        let unbounded = json!({"type": "array", "items": {"type": "string"}});
        assert!(estimate(unbounded.clone(), "string(self[0]) + string(self[1]) + string(self[2])") > 100_000);
        let eight = "self[0] + self[1] + self[2] + self[3] + self[4] + self[5] + self[6] + self[7]";
        assert!(estimate(unbounded, eight) > 10_000_000);
    }

    #[test]
    fn type_names_are_sized_like_identifiers() {
        // Kubernetes sizes any identifier by the schema's root, a type name
        // included; a qualified one is one identifier once checked.
        let s = json!({"type": "object", "properties": {"d": {"type": "string", "format": "duration"}, "i": {"type": "integer"}}});
        let int = estimate(s.clone(), "type(self.i) == int");
        assert_eq!(estimate(s.clone(), "type(self.d) == google.protobuf.Duration"), int);
        assert!(int < 100, "{int}");
    }

    #[test]
    fn factors_round_up_in_float() {
        assert_eq!(Estimate::fixed(3145726).factor(0.2), Estimate::fixed(629146));
        assert_eq!(Estimate::fixed(u64::MAX).factor(0.1).max, 1_844_674_407_370_955_264, "as float64");
        assert_eq!(Estimate::fixed(u64::MAX).factor(4.0).max, u64::MAX);
        assert_eq!(Estimate::fixed(0).factor(0.25), Estimate::fixed(0));
    }
}
