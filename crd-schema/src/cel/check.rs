//! Type checking of a parsed rule against the schema's CEL types, the part
//! of cel-go's checker that decides whether Kubernetes accepts a rule:
//! undeclared variables and functions, fields an object type does not
//! declare (with the property-name escaping), operator overloads that do
//! not exist for the operand types (`self == true` on a string), ranges
//! that are not lists or maps, and the result type.
//!
//! The checker errs on the side of accepting: where a type is not known
//! precisely (`dyn`, most Kubernetes library functions) nothing is
//! reported, so a rule the API server accepts is never rejected here.
//! Messages follow cel-go's wording without its source positions.

use std::collections::HashMap;

use kube_cel::cel::common::ast::{CallExpr, ComprehensionExpr, EntryExpr, Expr, IdedExpr, LiteralValue, SelectExpr};

use super::schema::{self, Node, Ty};
use super::{ast, bridge};

/// The outcome of checking one expression.
#[derive(Debug)]
pub(crate) struct Checked<'s> {
    pub ty: Ty<'s>,
    pub errors: Vec<String>,
    pub uses_old_self: bool,
    /// The type of every subexpression, by expression id (what cel-go's
    /// checked AST records for the cost estimator).
    pub types: HashMap<u64, Ty<'s>>,
}

/// Checks `expr` with `self` of type `self_ty`; `oldSelf` has the same
/// type, or is an optional of it with `optional_old_self`.
pub(crate) fn check<'s>(expr: &IdedExpr, self_ty: &Ty<'s>, optional_old_self: bool) -> Checked<'s> {
    let old = if optional_old_self { Ty::Optional(Box::new(self_ty.clone())) } else { self_ty.clone() };
    let mut checker = Checker {
        self_ty: self_ty.clone(),
        old_self: old,
        scopes: Vec::new(),
        errors: Vec::new(),
        uses_old_self: false,
        types: HashMap::new(),
        in_format: 0,
    };
    let ty = checker.expr(expr);
    Checked { ty, errors: checker.errors, uses_old_self: checker.uses_old_self, types: checker.types }
}

struct Checker<'s> {
    self_ty: Ty<'s>,
    old_self: Ty<'s>,
    scopes: Vec<(String, Ty<'s>)>,
    errors: Vec<String>,
    uses_old_self: bool,
    types: HashMap<u64, Ty<'s>>,
    /// How many calls of `format` enclose the expression being checked:
    /// the strings library exempts their literals from homogeneity.
    in_format: usize,
}

impl<'s> Checker<'s> {
    fn error(&mut self, message: String) -> Ty<'s> {
        if !self.errors.contains(&message) {
            self.errors.push(message);
        }
        Ty::Dyn
    }

    fn expr(&mut self, e: &IdedExpr) -> Ty<'s> {
        let ty = self.untracked(e);
        self.types.insert(e.id, ty.clone());
        ty
    }

    fn untracked(&mut self, e: &IdedExpr) -> Ty<'s> {
        match &e.expr {
            Expr::Literal(l) => literal(l),
            Expr::Ident(name) => self.ident(name),
            Expr::Select(_) if ast::type_ident(e, |n| self.is_variable(n)).is_some() => Ty::Type,
            Expr::Select(sel) => self.select(sel),
            Expr::Call(call) => self.call(call),
            Expr::List(list) => {
                let types: Vec<Ty<'s>> = list.elements.iter().map(|el| self.expr(el)).collect();
                let types: Vec<Ty<'s>> = types
                    .into_iter()
                    .enumerate()
                    .map(|(i, t)| match t {
                        Ty::Optional(inner) if list.optional_indices.contains(&i) => *inner,
                        t => t,
                    })
                    .collect();
                Ty::List(Box::new(self.common(&types)))
            }
            Expr::Map(map) => {
                let mut keys = Vec::new();
                let mut values = Vec::new();
                for entry in &map.entries {
                    if let EntryExpr::MapEntry(m) = &entry.expr {
                        keys.push(self.expr(&m.key));
                        let v = self.expr(&m.value);
                        values.push(match v {
                            Ty::Optional(inner) if m.optional => *inner,
                            v => v,
                        });
                    }
                }
                Ty::Map(Box::new(self.common(&keys)), Box::new(self.common(&values)))
            }
            Expr::Comprehension(c) => self.comprehension(c),
            Expr::Struct(s) => self.error(format!("undeclared reference to '{}' (in container '')", s.type_name)),
            Expr::Unspecified => Ty::Dyn,
        }
    }

    fn ident(&mut self, name: &str) -> Ty<'s> {
        if let Some((_, t)) = self.scopes.iter().rev().find(|(n, _)| n == name) {
            return t.clone();
        }
        match name {
            "self" => self.self_ty.clone(),
            "oldSelf" => {
                self.uses_old_self = true;
                self.old_self.clone()
            }
            _ if ast::TYPE_NAMES.contains(&name) => Ty::Type,
            _ => self.error(format!("undeclared reference to '{name}' (in container '')")),
        }
    }

    fn is_variable(&self, name: &str) -> bool {
        matches!(name, "self" | "oldSelf") || self.scopes.iter().any(|(n, _)| n == name)
    }

    fn select(&mut self, sel: &SelectExpr) -> Ty<'s> {
        let operand = self.expr(&sel.operand);
        let field = self.field(&operand, &sel.field);
        if sel.test { Ty::Bool } else { field }
    }

    /// The type of field `name` of a value of type `t`.
    fn field(&mut self, t: &Ty<'s>, name: &str) -> Ty<'s> {
        match t {
            Ty::Dyn => Ty::Dyn,
            Ty::Map(_, v) => (**v).clone(),
            Ty::Object(node) => match schema::field(*node, name) {
                Some((_, child)) => schema::decl(child).unwrap_or(Ty::Dyn),
                None => self.error(format!("undefined field '{name}'")),
            },
            // Selecting on an optional is optional selection (cel-go).
            Ty::Optional(inner) => {
                let inner = (**inner).clone();
                Ty::Optional(Box::new(self.field(&inner, name)))
            }
            other => self.error(format!("type '{}' does not support field selection", other.name())),
        }
    }

    /// The element (or key, or value) type of a literal list or map:
    /// Kubernetes enables cel-go's homogeneous aggregate literals, so
    /// elements of different types are an error, except within a call of
    /// `format`.
    fn common(&mut self, types: &[Ty<'s>]) -> Ty<'s> {
        let mut iter = types.iter();
        let Some(first) = iter.next() else { return Ty::Dyn };
        let mut acc = first.clone();
        for t in iter {
            if !compatible(&acc, t) {
                if self.in_format > 0 {
                    return Ty::Dyn;
                }
                return self.error(format!("expected type '{}' but found '{}'", acc.name(), t.name()));
            }
            // cel-go keeps the most general of the two: `dyn` once any
            // element is.
            acc = if t.is_dyn() { Ty::Dyn } else { join(&acc, t) };
        }
        acc
    }

    fn comprehension(&mut self, c: &ComprehensionExpr) -> Ty<'s> {
        let range = self.expr(&c.iter_range);
        let (first, second) = match &range {
            Ty::List(e) => (Ty::Int, (**e).clone()),
            Ty::Map(k, v) => ((**k).clone(), (**v).clone()),
            Ty::Dyn => (Ty::Dyn, Ty::Dyn),
            other => {
                let message = format!(
                    "expression of type '{}' cannot be range of a comprehension (must be list, map, or dynamic)",
                    other.name()
                );
                (self.error(message), Ty::Dyn)
            }
        };
        let base = self.scopes.len();
        match &c.iter_var2 {
            Some(var2) => {
                self.scopes.push((c.iter_var.clone(), first));
                self.scopes.push((var2.clone(), second));
            }
            None if matches!(range, Ty::List(_)) => self.scopes.push((c.iter_var.clone(), second)),
            None => self.scopes.push((c.iter_var.clone(), first)),
        }
        let mut accu = self.expr(&c.accu_init);
        self.scopes.push((c.accu_var.clone(), accu.clone()));
        self.expr(&c.loop_cond);
        let step = self.expr(&c.loop_step);
        // An empty list or map literal starts the accumulator: its type
        // is what the step makes of it.
        match (&accu, &step) {
            (Ty::List(e), Ty::List(_)) if e.is_dyn() => accu = step,
            (Ty::Map(k, v), Ty::Map(..)) if k.is_dyn() && v.is_dyn() => accu = step,
            _ => {}
        }
        self.scopes.truncate(base);
        self.scopes.push((c.accu_var.clone(), accu));
        let result = self.expr(&c.result);
        self.scopes.truncate(base);
        result
    }

    fn call(&mut self, call: &CallExpr) -> Ty<'s> {
        if call.func_name == "format" {
            self.in_format += 1;
            let t = self.call_checked(call);
            self.in_format -= 1;
            return t;
        }
        self.call_checked(call)
    }

    fn call_checked(&mut self, call: &CallExpr) -> Ty<'s> {
        let name = call.func_name.as_str();
        if let Some(target) = &call.target
            && let Expr::Ident(prefix) = &target.expr
            && !self.is_variable(prefix)
        {
            let qualified = format!("{prefix}.{name}");
            let args: Vec<Ty<'s>> = call.args.iter().map(|a| self.expr(a)).collect();
            return self.function(&qualified, None, &args);
        }
        if name == "_?._" && call.args.len() == 2 {
            let operand = self.expr(&call.args[0]);
            let Expr::Literal(LiteralValue::String(field)) = &call.args[1].expr else { return Ty::Dyn };
            let inner = match operand {
                Ty::Optional(t) => *t,
                t => t,
            };
            return Ty::Optional(Box::new(self.field(&inner, field)));
        }
        let target = call.target.as_ref().map(|t| self.expr(t));
        let args: Vec<Ty<'s>> = call.args.iter().map(|a| self.expr(a)).collect();
        if target.is_none()
            && let Some(t) = self.operator(name, &args)
        {
            return t;
        }
        self.function(name, target.as_ref(), &args)
    }

    fn no_overload(&mut self, name: &str, target: Option<&Ty<'s>>, args: &[Ty<'s>]) -> Ty<'s> {
        let list = args.iter().map(Ty::name).collect::<Vec<_>>().join(", ");
        let applied = match target {
            Some(t) => format!("{}.({list})", t.name()),
            None => format!("({list})"),
        };
        self.error(format!("found no matching overload for '{name}' applied to '{applied}'"))
    }

    /// Operators; `None` when `name` is not one.
    fn operator(&mut self, name: &str, args: &[Ty<'s>]) -> Option<Ty<'s>> {
        let t = match (name, args) {
            ("_&&_" | "_||_", [a, b]) if is_bool(a) && is_bool(b) => Ty::Bool,
            ("!_", [a]) if is_bool(a) => Ty::Bool,
            ("@not_strictly_false", [_]) => Ty::Bool,
            ("_?_:_", [c, a, b]) if is_bool(c) => {
                if compatible(a, b) {
                    join(a, b)
                } else {
                    return Some(self.no_overload(name, None, args));
                }
            }
            ("_==_" | "_!=_", [a, b]) if compatible(a, b) => Ty::Bool,
            ("_<_" | "_<=_" | "_>_" | "_>=_", [a, b]) if comparable(a, b) => Ty::Bool,
            ("_+_", [a, b]) => match plus(a, b) {
                Some(t) => t,
                None => return Some(self.no_overload(name, None, args)),
            },
            ("_-_", [a, b]) => match minus(a, b) {
                Some(t) => t,
                None => return Some(self.no_overload(name, None, args)),
            },
            ("_*_" | "_/_", [a, b]) if same_numeric(a, b) => join(a, b),
            ("_%_", [a, b]) if same_numeric(a, b) && !matches!((a, b), (Ty::Double, _) | (_, Ty::Double)) => join(a, b),
            ("-_", [a]) if matches!(a, Ty::Int | Ty::Double | Ty::Duration | Ty::Dyn) => a.clone(),
            ("_[_]", [c, i]) => match index(c, i) {
                Some(t) => t,
                None => return Some(self.no_overload(name, None, args)),
            },
            ("_[?_]", [c, i]) => match c {
                Ty::Optional(inner) => Ty::Optional(Box::new(index(inner, i).unwrap_or(Ty::Dyn))),
                c => Ty::Optional(Box::new(index(c, i).unwrap_or(Ty::Dyn))),
            },
            ("@in", [e, c]) => match c {
                Ty::List(t) if compatible(e, t) => Ty::Bool,
                Ty::Map(k, _) if compatible(e, k) => Ty::Bool,
                Ty::Dyn => Ty::Bool,
                _ => return Some(self.no_overload(name, None, args)),
            },
            (
                "_&&_" | "_||_" | "!_" | "_?_:_" | "_==_" | "_!=_" | "_<_" | "_<=_" | "_>_" | "_>=_" | "_*_" | "_/_"
                | "_%_" | "-_",
                _,
            ) => return Some(self.no_overload(name, None, args)),
            _ => return None,
        };
        Some(t)
    }

    /// Functions: the standard ones with their overloads, the Kubernetes
    /// libraries with their result types.
    fn function(&mut self, name: &str, target: Option<&Ty<'s>>, args: &[Ty<'s>]) -> Ty<'s> {
        use Ty::*;
        let all: Vec<&Ty<'s>> = target.into_iter().chain(args).collect();
        let d = |t: &Ty<'_>| t.is_dyn();
        match (name, all.as_slice()) {
            ("size", [String | Bytes | List(_) | Map(..) | Dyn]) => Int,
            ("contains" | "startsWith" | "endsWith" | "matches", [a, b])
                if matches!(a, String | Dyn) && matches!(b, String | Dyn) =>
            {
                Bool
            }
            // The conversions' overloads; Kubernetes' IP and CIDR types
            // convert to strings too.
            ("int", [Int | Uint | Double | String | Timestamp | Duration | Dyn]) => Int,
            ("uint", [Int | Uint | Double | String | Dyn]) => Uint,
            ("double", [Int | Uint | Double | String | Dyn]) => Double,
            ("string", [String | Bool | Bytes | Int | Uint | Double | Timestamp | Duration | Opaque(_) | Dyn]) => {
                String
            }
            ("bytes", [Bytes | String | Dyn]) => Bytes,
            ("bool", [Bool | String | Dyn]) => Bool,
            ("dyn", [_]) => Dyn,
            ("type", [_]) => Type,
            ("duration", [_]) => Duration,
            ("timestamp", [_]) => Timestamp,
            (
                "getFullYear" | "getMonth" | "getDate" | "getDayOfMonth" | "getDayOfWeek" | "getDayOfYear" | "getHours"
                | "getMinutes" | "getSeconds" | "getMilliseconds",
                [Timestamp | Duration | Dyn, ..],
            ) => Int,
            ("optional.of" | "optional.ofNonZeroValue", [x]) => Optional(Box::new((*x).clone())),
            ("optional.none", []) => Optional(Box::new(Dyn)),
            ("hasValue", [Optional(_)]) => Bool,
            ("value", [Optional(t)]) => (**t).clone(),
            // `optional(V).orValue(V)`, `optional(V).or(optional(V))`.
            ("orValue", [Optional(t), v]) if compatible(t, v) => (**t).clone(),
            ("or", [Optional(t), u @ (Optional(_) | Dyn)]) if compatible(&Optional(t.clone()), u) => {
                Optional(t.clone())
            }
            ("hasValue" | "value" | "orValue" | "or", [x, ..]) if d(x) => Dyn,
            // The accumulator takes the type the inserted entry gives it.
            (super::macros::MAP_INSERT, [Map(..) | Dyn, k, v]) => Map(Box::new((*k).clone()), Box::new((*v).clone())),
            (super::macros::MAP_INSERT, [Map(..) | Dyn, m @ (Map(..) | Dyn)]) => (*m).clone(),
            _ => match library(name, &all) {
                Some(t) => t,
                None if is_known(name) => self.no_overload(name, target, args),
                None => self.error(format!("undeclared reference to '{name}' (in container '')")),
            },
        }
    }
}

/// Whether `name` is a function of the standard library or of the
/// Kubernetes libraries (a bad call of it is an overload error, a call of
/// anything else an undeclared reference).
fn is_known(name: &str) -> bool {
    const STANDARD: [&str; 23] = [
        "size",
        "contains",
        "startsWith",
        "endsWith",
        "matches",
        "int",
        "uint",
        "double",
        "string",
        "bytes",
        "bool",
        "dyn",
        "type",
        "duration",
        "timestamp",
        "optional.of",
        "optional.none",
        "optional.ofNonZeroValue",
        "hasValue",
        "value",
        "orValue",
        "or",
        "getFullYear",
    ];
    STANDARD.contains(&name) || bridge::FUNCTIONS.contains(&name)
}

/// The result type of a Kubernetes library function, as far as it matters
/// to the checks (`dyn` where it does not).
fn library<'s>(name: &str, args: &[&Ty<'s>]) -> Option<Ty<'s>> {
    use Ty::*;
    if !bridge::FUNCTIONS.contains(&name) {
        return None;
    }
    let receiver_is = |f: fn(&Ty<'_>) -> bool| args.first().is_none_or(|t| t.is_dyn() || f(t));
    Some(match name {
        "charAt" | "lowerAscii" | "upperAscii" | "replace" | "substring" | "trim" | "format" | "strings.quote"
        | "join" | "find" | "getScheme" | "getHost" | "getHostname" | "getPort" | "getEscapedPath" => {
            if !receiver_is(|t| matches!(t, String | List(_) | Opaque(_) | Bytes)) {
                return None;
            }
            String
        }
        "indexOf" | "lastIndexOf" | "sign" | "asInteger" | "compareTo" | "family" | "prefixLength" | "major"
        | "minor" | "patch" => Int,
        "split" | "findAll" => List(Box::new(String)),
        "isSorted"
        | "sets.contains"
        | "sets.equivalent"
        | "sets.intersects"
        | "isURL"
        | "isIP"
        | "isIPv4"
        | "isIPv6"
        | "isCIDR"
        | "isCIDRv4"
        | "isCIDRv6"
        | "ip.isCanonical"
        | "isUnspecified"
        | "isLoopback"
        | "isLinkLocalMulticast"
        | "isLinkLocalUnicast"
        | "isGlobalUnicast"
        | "containsIP"
        | "containsCIDR"
        | "isQuantity"
        | "isInteger"
        | "isGreaterThan"
        | "isLessThan"
        | "isSemver" => Bool,
        // The lists library's overloads: sums of numbers and durations,
        // extremes of ordered types.
        "sum" | "min" | "max" => match args {
            [List(e)] if e.is_dyn() => Dyn,
            [List(e)] if matches!(**e, Int | Uint | Double | Duration) => (**e).clone(),
            [List(e)] if name != "sum" && matches!(**e, Bool | String | Bytes | Timestamp) => (**e).clone(),
            [Dyn] => Dyn,
            _ => return None,
        },
        // `string(ip)` and `string(cidr)`: the conversions above have them.
        "string" => return None,
        "asApproximateFloat" => Double,
        "lists.range" => List(Box::new(Int)),
        "getQuery" => Map(Box::new(String), Box::new(List(Box::new(String)))),
        "url" => Opaque("URL"),
        "cidr" | "masked" => Opaque("net.IPPrefix"),
        "quantity" | "add" | "sub" => Opaque("Quantity"),
        "semver" => Opaque("Semver"),
        "ip" => Opaque("net.IP"),
        _ => Dyn,
    })
}

fn literal<'s>(l: &LiteralValue) -> Ty<'s> {
    match l {
        LiteralValue::Boolean(_) => Ty::Bool,
        LiteralValue::Bytes(_) => Ty::Bytes,
        LiteralValue::Double(_) => Ty::Double,
        LiteralValue::Int(_) => Ty::Int,
        LiteralValue::Null => Ty::Null,
        LiteralValue::String(_) => Ty::String,
        LiteralValue::UInt(_) => Ty::Uint,
    }
}

fn is_bool(t: &Ty<'_>) -> bool {
    matches!(t, Ty::Bool | Ty::Dyn)
}

fn is_numeric(t: &Ty<'_>) -> bool {
    matches!(t, Ty::Int | Ty::Uint | Ty::Double)
}

/// Whether values of the two types can be compared for equality (cel-go's
/// `(A, A)` overload): `dyn` goes with anything, `null` with the nullable
/// types; an object (a struct type) is not a map.
fn compatible(a: &Ty<'_>, b: &Ty<'_>) -> bool {
    match (a, b) {
        (Ty::Dyn, _) | (_, Ty::Dyn) => true,
        // cel-go's nullable types: objects (struct types) and opaque ones.
        (Ty::Null, x) | (x, Ty::Null) => matches!(x, Ty::Null | Ty::Object(_) | Ty::Optional(_) | Ty::Opaque(_)),
        (Ty::List(x), Ty::List(y)) => compatible(x, y),
        (Ty::Map(k1, v1), Ty::Map(k2, v2)) => compatible(k1, k2) && compatible(v1, v2),
        (Ty::Optional(x), Ty::Optional(y)) => compatible(x, y),
        (Ty::Opaque(x), Ty::Opaque(y)) => x == y,
        _ => std::mem::discriminant(a) == std::mem::discriminant(b),
    }
}

/// The ordering operators: numbers of any type with each other, and
/// strings, bytes, booleans, timestamps and durations among themselves.
fn comparable(a: &Ty<'_>, b: &Ty<'_>) -> bool {
    match (a, b) {
        (Ty::Dyn, _) | (_, Ty::Dyn) => true,
        _ if is_numeric(a) && is_numeric(b) => true,
        (Ty::String, Ty::String)
        | (Ty::Bytes, Ty::Bytes)
        | (Ty::Bool, Ty::Bool)
        | (Ty::Timestamp, Ty::Timestamp)
        | (Ty::Duration, Ty::Duration) => true,
        _ => false,
    }
}

fn same_numeric(a: &Ty<'_>, b: &Ty<'_>) -> bool {
    match (a, b) {
        (Ty::Dyn, x) | (x, Ty::Dyn) => is_numeric(x) || x.is_dyn(),
        _ => is_numeric(a) && std::mem::discriminant(a) == std::mem::discriminant(b),
    }
}

fn plus<'s>(a: &Ty<'s>, b: &Ty<'s>) -> Option<Ty<'s>> {
    Some(match (a, b) {
        (Ty::Dyn, Ty::Dyn) => Ty::Dyn,
        (Ty::Dyn, x) | (x, Ty::Dyn) => match x {
            Ty::String | Ty::Bytes | Ty::Int | Ty::Uint | Ty::Double | Ty::List(_) => x.clone(),
            Ty::Timestamp | Ty::Duration => Ty::Dyn,
            _ => return None,
        },
        (Ty::List(x), Ty::List(y)) => Ty::List(Box::new(if compatible(x, y) { join(x, y) } else { Ty::Dyn })),
        (Ty::Timestamp, Ty::Duration) | (Ty::Duration, Ty::Timestamp) => Ty::Timestamp,
        (Ty::Int, Ty::Int) | (Ty::Uint, Ty::Uint) | (Ty::Double, Ty::Double) | (Ty::String, Ty::String) => a.clone(),
        (Ty::Bytes, Ty::Bytes) | (Ty::Duration, Ty::Duration) => a.clone(),
        _ => return None,
    })
}

fn minus<'s>(a: &Ty<'s>, b: &Ty<'s>) -> Option<Ty<'s>> {
    Some(match (a, b) {
        (Ty::Dyn, _) | (_, Ty::Dyn) => {
            if same_numeric(a, b) {
                join(a, b)
            } else if matches!(a, Ty::Dyn | Ty::Timestamp | Ty::Duration)
                && matches!(b, Ty::Dyn | Ty::Timestamp | Ty::Duration)
            {
                Ty::Dyn
            } else {
                return None;
            }
        }
        (Ty::Timestamp, Ty::Timestamp) => Ty::Duration,
        (Ty::Timestamp, Ty::Duration) => Ty::Timestamp,
        (Ty::Duration, Ty::Duration) => Ty::Duration,
        _ if same_numeric(a, b) => a.clone(),
        _ => return None,
    })
}

fn index<'s>(container: &Ty<'s>, i: &Ty<'s>) -> Option<Ty<'s>> {
    match container {
        Ty::Dyn => Some(Ty::Dyn),
        Ty::List(e) if matches!(i, Ty::Int | Ty::Uint | Ty::Dyn) => Some((**e).clone()),
        Ty::Map(k, v) if compatible(k, i) => Some((**v).clone()),
        Ty::Optional(inner) => index(inner, i).map(|t| Ty::Optional(Box::new(t))),
        _ => None,
    }
}

/// The type two compatible types share: the other one where one is `dyn`
/// or `null`, `dyn` where they differ.
fn join<'s>(a: &Ty<'s>, b: &Ty<'s>) -> Ty<'s> {
    match (a, b) {
        (Ty::Dyn | Ty::Null, x) | (x, Ty::Dyn | Ty::Null) => x.clone(),
        _ if std::mem::discriminant(a) == std::mem::discriminant(b) => a.clone(),
        _ => Ty::Dyn,
    }
}

/// The CEL type of `self` at a node: its declaration, or `dyn` where the
/// node is not exposed.
pub(crate) fn self_type(node: Node<'_>) -> Option<Ty<'_>> {
    schema::decl(node)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cel::compile::parse;
    use crate::structural::Structural;
    use serde_json::json;

    fn errors(schema: serde_json::Value, rule: &str) -> Vec<String> {
        let s = Structural::from_json(&schema).unwrap();
        let ty = self_type(Node::new(&s, false)).unwrap();
        check(&parse(rule).unwrap(), &ty, false).errors
    }

    #[test]
    fn fields_and_variables() {
        let s = json!({"type": "object", "properties": {"a": {"type": "integer"}, "f/2": {"type": "string"}}});
        assert!(errors(s.clone(), "self.a > 0 && self.f__slash__2 == 'x'").is_empty());
        assert_eq!(errors(s.clone(), "self.b > 0"), ["undefined field 'b'"]);
        assert_eq!(errors(s.clone(), "foo == 1"), ["undeclared reference to 'foo' (in container '')"]);
        assert_eq!(errors(s, "self.a.x == 1"), ["type 'int' does not support field selection"]);
    }

    #[test]
    fn null_goes_only_with_nullable_types() {
        let s = json!({"type": "object", "properties": {
            "s": {"type": "string", "nullable": true},
            "l": {"type": "array", "items": {"type": "string"}},
            "o": {"type": "object", "properties": {"a": {"type": "string"}}}}});
        assert_eq!(
            errors(s.clone(), "self.s != null"),
            ["found no matching overload for '_!=_' applied to '(string, null)'"]
        );
        assert_eq!(
            errors(s.clone(), "self.l == null"),
            ["found no matching overload for '_==_' applied to '(list(string), null)'"]
        );
        assert!(errors(s.clone(), "self.o != null && dyn(self.s) != null").is_empty());
        // An object is a struct type, not a map.
        assert_eq!(errors(s, "self.o == {'a': 'x'}").len(), 1);
    }

    #[test]
    fn literals_are_homogeneous() {
        let s = json!({"type": "object", "properties": {"i": {"type": "integer"}, "x": {"x-kubernetes-int-or-string": true}}});
        assert_eq!(errors(s.clone(), "[1, 'a'].size() == 2"), ["expected type 'int' but found 'string'"]);
        assert_eq!(errors(s.clone(), "{'a': 1, 'b': 'x'}.size() == 2"), ["expected type 'int' but found 'string'"]);
        assert_eq!(errors(s.clone(), "{'a': 1, 2: 1}.size() == 2"), ["expected type 'string' but found 'int'"]);
        assert!(errors(s, "[self.i, 2, self.x, 'a'].size() == 4 && [[1], []].size() == 2").is_empty());
    }

    #[test]
    fn overloads() {
        let s = json!({"type": "string"});
        assert_eq!(
            errors(s.clone(), "self == true"),
            ["found no matching overload for '_==_' applied to '(string, bool)'"]
        );
        assert_eq!(
            errors(s.clone(), "self == 1"),
            ["found no matching overload for '_==_' applied to '(string, int)'"]
        );
        assert!(errors(s.clone(), "self.startsWith('a') && size(self) < 3 && self.lowerAscii() == 'a'").is_empty());
        assert_eq!(errors(s.clone(), "self.noSuch()"), ["undeclared reference to 'noSuch' (in container '')"]);
        assert!(errors(json!({"x-kubernetes-int-or-string": true}), "self == 1 || self == 'a'").is_empty());
        assert!(errors(s, "1 == 1.0").len() == 1);
    }

    #[test]
    fn conversions_and_optionals_have_their_overloads() {
        let s = json!({"type": "object", "properties": {"i": {"type": "integer"}, "l": {"type": "array", "items": {"type": "string"}}}});
        assert!(
            errors(s.clone(), "string(self.i) == '1' && int('1') == 1 && string(duration('1s')) != '' && bool('true')")
                .is_empty()
        );
        assert_eq!(
            errors(s.clone(), "string(type(self.i)) == 'int'"),
            ["found no matching overload for 'string' applied to '(type)'"]
        );
        assert_eq!(
            errors(s.clone(), "int(self.l) == 1"),
            ["found no matching overload for 'int' applied to '(list(string))'"]
        );
        assert!(errors(s.clone(), "optional.of(self.i).orValue(0) == 1 && optional.none().orValue(1) == 1").is_empty());
        assert_eq!(
            errors(s.clone(), "optional.of(self.i).orValue('') == 1"),
            ["found no matching overload for 'orValue' applied to 'optional_type(int).(string)'"]
        );
        assert_eq!(errors(s, "optional.of(self.i).or(optional.of('a')).hasValue()").len(), 1);
    }

    #[test]
    fn qualified_type_names() {
        let s = json!({"type": "string", "format": "duration"});
        assert!(errors(s.clone(), "type(self) == google.protobuf.Duration && type(1) == int").is_empty());
        assert_eq!(
            errors(s, "type(self) == google.protobuf.Any"),
            ["undeclared reference to 'google' (in container '')"]
        );
    }

    #[test]
    fn comprehensions() {
        let s = json!({"type": "array", "items": {"type": "object", "properties": {"k": {"type": "string"}}}});
        assert!(errors(s.clone(), "self.all(x, x.k != '') && self.map(x, x.k).exists(k, k == 'a')").is_empty());
        assert_eq!(errors(s, "self.all(x, x.j == 'a')"), ["undefined field 'j'"]);
        let o = json!({"type": "object", "properties": {"k": {"type": "string"}}});
        assert_eq!(
            errors(o, "self.all(x, true)"),
            ["expression of type 'object' cannot be range of a comprehension (must be list, map, or dynamic)"]
        );
    }
}
