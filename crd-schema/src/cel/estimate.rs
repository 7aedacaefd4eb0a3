//! Static cost estimation: cel-go's `checker/cost.go` with Kubernetes'
//! size estimator (`schema/cel/compilation.go`) and library estimates
//! (`k8s.io/apiserver/pkg/cel/library/cost.go`).
//!
//! An expression's worst-case cost is the sum over its steps: 1 per
//! variable, field selection and index, 1 per ordinary call, list literals
//! 10 and map literals 30 plus their elements, and for the size-dependent
//! operations (string equality and comparison, `contains`, `matches`,
//! `startsWith`, concatenation, `in`, comprehensions, the string library)
//! the largest size the schema allows: `maxLength` (×4 bytes per
//! character), `maxItems`, `maxProperties`, or otherwise what fits into the
//! API server's 3 MiB request limit. `&&` and `||` cost both sides, `?:`
//! the condition and the dearer branch, a comprehension its range, its
//! initializer and its result plus the range's size times one iteration.

use kube_cel::cel::common::ast::{CallExpr, ComprehensionExpr, EntryExpr, Expr, IdedExpr, LiteralValue};

use super::functions::{REGEX_STRING_LENGTH_COST_FACTOR as REGEX, STRING_TRAVERSAL_COST_FACTOR as TRAVERSAL};
use super::schema::{self, Node, Ty};
use crate::structural::Structural;

/// The API server's request size limit (`celconfig.MaxRequestSizeBytes`).
pub(crate) const MAX_REQUEST_SIZE_BYTES: u64 = 3 * 1024 * 1024;

/// Serialized sizes from `k8s.io/apiserver/pkg/cel/limits.go`.
const MIN_STRING_SIZE: u64 = 2;
const MIN_BOOL_SIZE: u64 = 4;
const MIN_NUMBER_SIZE: u64 = 1;
const MIN_DURATION_SIZE_JSON: u64 = 3;
const MIN_DATETIME_SIZE_JSON: u64 = 21;
const JSON_DATE_SIZE: u64 = 12;
const MAX_DURATION_SIZE_JSON: u64 = 32;
const MAX_DATETIME_SIZE_JSON: u64 = 64;

/// A cost or size range.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Range {
    min: u64,
    max: u64,
}

impl Range {
    const fn fixed(n: u64) -> Self {
        Self { min: n, max: n }
    }

    const UNBOUNDED: Self = Self { min: 0, max: u64::MAX };

    fn add(self, o: Range) -> Range {
        Range { min: self.min.saturating_add(o.min), max: self.max.saturating_add(o.max) }
    }

    fn mul(self, o: Range) -> Range {
        Range { min: self.min.saturating_mul(o.min), max: self.max.saturating_mul(o.max) }
    }

    fn factor(self, f: f64) -> Range {
        let scale = |x: u64| {
            let v = x as f64 * f;
            if v >= u64::MAX as f64 { u64::MAX } else { v.ceil() as u64 }
        };
        Range { min: scale(self.min), max: scale(self.max) }
    }

    fn union(self, o: Range) -> Range {
        Range { min: self.min.min(o.min), max: self.max.max(o.max) }
    }
}

/// What the estimator knows about a subexpression.
#[derive(Clone)]
struct Info<'s> {
    cost: Range,
    /// The size when the expression itself tells it (literals, results of
    /// concatenations and library calls).
    size: Option<Range>,
    /// The schema node the value is read from, which bounds its size.
    node: Option<Node<'s>>,
    ty: Ty<'s>,
}

impl<'s> Info<'s> {
    fn new(cost: Range, ty: Ty<'s>) -> Self {
        Self { cost, size: None, node: None, ty }
    }

    /// cel-go's `sizeEstimate`: computed, else from the schema, else 1 for
    /// fixed-size types, else unbounded.
    fn size_estimate(&self) -> Range {
        if let Some(size) = self.size {
            return size;
        }
        if let Some(node) = self.node {
            return Range { min: 0, max: max_elements(node) };
        }
        match self.ty {
            Ty::Bool | Ty::Int | Ty::Uint | Ty::Double | Ty::Null | Ty::Duration | Ty::Timestamp | Ty::Type => {
                Range::fixed(1)
            }
            _ => Range::UNBOUNDED,
        }
    }
}

/// The estimated worst-case cost of `expr` on `node` (whose CEL type is
/// `self_ty`).
pub(crate) fn expression_cost(expr: &IdedExpr, node: Node<'_>, self_ty: &Ty<'_>) -> u64 {
    let mut coster = Coster { self_node: node, self_ty: self_ty.clone(), scopes: Vec::new() };
    coster.cost(expr).cost.max
}

struct Coster<'s> {
    self_node: Node<'s>,
    self_ty: Ty<'s>,
    /// Comprehension variables and what they range over.
    scopes: Vec<(String, Info<'s>)>,
}

impl<'s> Coster<'s> {
    fn cost(&mut self, e: &IdedExpr) -> Info<'s> {
        match &e.expr {
            Expr::Literal(l) => literal(l),
            Expr::Ident(name) => self.ident(name),
            Expr::Select(sel) => {
                let operand = self.cost(&sel.operand);
                if sel.test {
                    // Kubernetes charges nothing for the presence test.
                    return Info::new(operand.cost, Ty::Bool);
                }
                let charged = matches!(operand.ty, Ty::Map(..) | Ty::Object(_) | Ty::Dyn);
                let cost = operand.cost.add(Range::fixed(u64::from(charged)));
                let (node, ty) = select(&operand, &sel.field);
                Info { cost, size: None, node, ty }
            }
            Expr::Call(call) => self.call(call),
            Expr::List(list) => {
                let mut cost = Range::fixed(10);
                let mut elem = Ty::Dyn;
                for (i, el) in list.elements.iter().enumerate() {
                    let info = self.cost(el);
                    cost = cost.add(info.cost);
                    if i == 0 {
                        elem = info.ty;
                    }
                }
                let size = Some(Range::fixed(list.elements.len() as u64));
                Info { cost, size, node: None, ty: Ty::List(Box::new(elem)) }
            }
            Expr::Map(map) => {
                let mut cost = Range::fixed(30);
                for entry in &map.entries {
                    if let EntryExpr::MapEntry(m) = &entry.expr {
                        cost = cost.add(self.cost(&m.key).cost).add(self.cost(&m.value).cost);
                    }
                }
                let size = Some(Range::fixed(map.entries.len() as u64));
                Info { cost, size, node: None, ty: Ty::Map(Box::new(Ty::Dyn), Box::new(Ty::Dyn)) }
            }
            Expr::Comprehension(c) => self.comprehension(c),
            Expr::Struct(_) | Expr::Unspecified => Info::new(Range::fixed(40), Ty::Dyn),
        }
    }

    fn ident(&mut self, name: &str) -> Info<'s> {
        if let Some((_, info)) = self.scopes.iter().rev().find(|(n, _)| n == name) {
            return Info { cost: Range::fixed(1), ..info.clone() };
        }
        match name {
            "self" | "oldSelf" => {
                Info { cost: Range::fixed(1), size: None, node: Some(self.self_node), ty: self.self_ty.clone() }
            }
            _ => Info::new(Range::fixed(1), Ty::Dyn),
        }
    }

    fn comprehension(&mut self, c: &ComprehensionExpr) -> Info<'s> {
        let range = self.cost(&c.iter_range);
        let init = self.cost(&c.accu_init);
        let element = element_of(&range);
        self.scopes.push((c.iter_var.clone(), element));
        self.scopes.push((c.accu_var.clone(), Info { node: None, size: None, ..init.clone() }));
        let loop_cost = self.cost(&c.loop_cond).cost.add(self.cost(&c.loop_step).cost);
        self.scopes.pop();
        self.scopes.pop();
        self.scopes.push((c.accu_var.clone(), Info { node: None, size: None, ..init.clone() }));
        let result = self.cost(&c.result);
        self.scopes.pop();
        let iterations = range.size_estimate();
        let cost = range.cost.add(init.cost).add(result.cost).add(iterations.mul(loop_cost));
        // `map` and `filter` produce at most as many elements as the range.
        let size = matches!(result.ty, Ty::List(_)).then_some(Range { min: 0, max: iterations.max });
        Info { cost, size, node: None, ty: result.ty }
    }

    fn call(&mut self, call: &CallExpr) -> Info<'s> {
        let name = call.func_name.as_str();
        let target = match &call.target {
            Some(t) if !matches!(&t.expr, Expr::Ident(p) if self.is_qualifier(p)) => Some(self.cost(t)),
            _ => None,
        };
        let args: Vec<Info<'s>> = call.args.iter().map(|a| self.cost(a)).collect();
        let arg_cost = args.iter().fold(target.as_ref().map_or(Range::fixed(0), |t| t.cost), |s, a| s.add(a.cost));
        let all: Vec<&Info<'s>> = target.iter().chain(args.iter()).collect();
        match (name, all.as_slice()) {
            ("_&&_" | "_||_", [lhs, rhs]) => {
                Info::new(Range { min: lhs.cost.min, max: lhs.cost.add(rhs.cost).max }, Ty::Bool)
            }
            ("_?_:_", [c, t, f]) => Info {
                cost: c.cost.add(t.cost.union(f.cost)),
                size: Some(t.size_estimate().union(f.size_estimate())),
                node: None,
                ty: if t.ty.is_dyn() { f.ty.clone() } else { t.ty.clone() },
            },
            ("_[_]" | "_[?_]", [container, _]) => {
                let (node, ty) = index(container);
                Info { cost: arg_cost.add(Range::fixed(1)), size: None, node, ty }
            }
            ("_?._", [operand, _]) => {
                let field = match &call.args[1].expr {
                    Expr::Literal(LiteralValue::String(f)) => f.to_string(),
                    _ => String::new(),
                };
                let (node, ty) = select(operand, &field);
                Info { cost: arg_cost.add(Range::fixed(1)), size: None, node, ty: Ty::Optional(Box::new(ty)) }
            }
            _ => {
                let qualified = match &call.target {
                    Some(t) => match &t.expr {
                        Expr::Ident(p) if self.is_qualifier(p) => format!("{p}.{name}"),
                        _ => name.to_owned(),
                    },
                    None => name.to_owned(),
                };
                let (cost, size, ty) = function(&qualified, &all);
                Info { cost: cost.add(arg_cost), size, node: None, ty }
            }
        }
    }

    fn is_qualifier(&self, name: &str) -> bool {
        !matches!(name, "self" | "oldSelf") && !self.scopes.iter().any(|(n, _)| n == name)
    }
}

fn literal<'s>(l: &LiteralValue) -> Info<'s> {
    let (size, ty) = match l {
        LiteralValue::String(s) => (s.len() as u64, Ty::String),
        LiteralValue::Bytes(b) => (b.len() as u64, Ty::Bytes),
        LiteralValue::Boolean(_) => (1, Ty::Bool),
        LiteralValue::Double(_) => (1, Ty::Double),
        LiteralValue::Int(_) => (1, Ty::Int),
        LiteralValue::UInt(_) => (1, Ty::Uint),
        LiteralValue::Null => (1, Ty::Null),
    };
    Info { cost: Range::fixed(0), size: Some(Range::fixed(size)), node: None, ty }
}

/// A field of an object or a value of a map.
fn select<'s>(operand: &Info<'s>, field: &str) -> (Option<Node<'s>>, Ty<'s>) {
    match &operand.ty {
        Ty::Object(node) => match schema::field(*node, field) {
            Some((_, child)) => (Some(child), schema::decl(child).unwrap_or(Ty::Dyn)),
            None => (None, Ty::Dyn),
        },
        Ty::Map(_, v) => (operand.node.and_then(Node::additional_properties), (**v).clone()),
        _ => (None, Ty::Dyn),
    }
}

/// An element of a list or a value of a map.
fn index<'s>(container: &Info<'s>) -> (Option<Node<'s>>, Ty<'s>) {
    match &container.ty {
        Ty::List(e) => (container.node.and_then(Node::items), (**e).clone()),
        Ty::Map(_, v) => (container.node.and_then(Node::additional_properties), (**v).clone()),
        _ => (None, Ty::Dyn),
    }
}

/// What a comprehension variable ranges over: list elements or map keys.
fn element_of<'s>(range: &Info<'s>) -> Info<'s> {
    match &range.ty {
        Ty::List(e) => {
            Info { cost: Range::fixed(1), size: None, node: range.node.and_then(Node::items), ty: (**e).clone() }
        }
        Ty::Map(k, _) => Info::new(Range::fixed(1), (**k).clone()),
        _ => Info::new(Range::fixed(1), Ty::Dyn),
    }
}

/// The cost (without the arguments), result size and type of a call.
fn function<'s>(name: &str, args: &[&Info<'s>]) -> (Range, Option<Range>, Ty<'s>) {
    let size = |i: usize| args.get(i).map_or(Range::fixed(1), |a| a.size_estimate());
    let one = Range::fixed(1);
    let is_string = |i: usize| args.get(i).is_some_and(|a| matches!(a.ty, Ty::String | Ty::Bytes));
    match name {
        "_==_" | "_!=_" => (comparison(size(0), size(1)), None, Ty::Bool),
        "_<_" | "_<=_" | "_>_" | "_>=_" if is_string(0) => (comparison(size(0), size(1)), None, Ty::Bool),
        "_+_" if is_string(0) => {
            let result = size(0).add(size(1));
            (result.factor(TRAVERSAL), Some(result), args[0].ty.clone())
        }
        "_+_" if matches!(args.first().map(|a| &a.ty), Some(Ty::List(_))) => {
            (one, Some(size(0).add(size(1))), args[0].ty.clone())
        }
        "startsWith" | "endsWith" => (size(0).factor(TRAVERSAL), None, Ty::Bool),
        "bytes" if is_string(0) => {
            (size(0).factor(TRAVERSAL), Some(Range { min: size(0).min, max: size(0).max.saturating_mul(4) }), Ty::Bytes)
        }
        "string" if matches!(args.first().map(|a| &a.ty), Some(Ty::Bytes)) => {
            (size(0).factor(TRAVERSAL), Some(size(0)), Ty::String)
        }
        "@in" if matches!(args.get(1).map(|a| &a.ty), Some(Ty::List(_))) => (size(1), None, Ty::Bool),
        "matches" | "find" | "findAll" => {
            let string_cost = size(0).add(one).factor(TRAVERSAL);
            let regex_cost = size(1).factor(REGEX);
            let ty = match name {
                "matches" => Ty::Bool,
                "find" => Ty::String,
                _ => Ty::List(Box::new(Ty::String)),
            };
            (string_cost.mul(regex_cost), (name != "matches").then_some(Range { min: 0, max: size(0).max }), ty)
        }
        "contains" if is_string(0) => (size(0).factor(TRAVERSAL).mul(size(1).factor(TRAVERSAL)), None, Ty::Bool),
        "isSorted" | "sum" | "max" | "min" | "indexOf" | "lastIndexOf" => {
            let cost = match args.first().map(|a| &a.ty) {
                Some(Ty::List(e)) => {
                    let per_element = if matches!(**e, Ty::String | Ty::Bytes) {
                        let elem = element_of(args[0]);
                        one.add(elem.size_estimate().factor(TRAVERSAL))
                    } else {
                        one
                    };
                    size(0).mul(per_element)
                }
                _ => size(0).factor(TRAVERSAL),
            };
            (cost, None, Ty::Dyn)
        }
        "url" | "cidr" | "isIP" | "isCIDR" | "quantity" | "isQuantity" => (size(0).factor(TRAVERSAL), None, Ty::Dyn),
        "lowerAscii" | "upperAscii" | "substring" | "trim" => (size(0).factor(TRAVERSAL), Some(size(0)), Ty::String),
        "replace" => (size(0).factor(2.0 * TRAVERSAL), Some(size(0)), Ty::String),
        "split" => {
            (size(0).factor(2.0 * TRAVERSAL), Some(Range { min: 0, max: size(0).max }), Ty::List(Box::new(Ty::String)))
        }
        "join" => {
            let elements = args.first().map(|a| element_of(a).size_estimate()).unwrap_or(one);
            let result = size(0).mul(elements);
            (result.factor(TRAVERSAL), Some(result), Ty::String)
        }
        // Conversions keep the argument's size only where cel-go says so
        // (above): `string(s)` of a string is of unknown size.
        "string" => (one, None, Ty::String),
        "bytes" => (one, None, Ty::Bytes),
        "int" | "size" | "getFullYear" | "getMonth" | "getDate" | "getDayOfMonth" | "getDayOfWeek" | "getDayOfYear"
        | "getHours" | "getMinutes" | "getSeconds" | "getMilliseconds" => (one, None, Ty::Int),
        "uint" => (one, None, Ty::Uint),
        "double" => (one, None, Ty::Double),
        "bool" => (one, None, Ty::Bool),
        "duration" => (one, None, Ty::Duration),
        "timestamp" => (one, None, Ty::Timestamp),
        "dyn" => (one, args.first().and_then(|a| a.size), args.first().map_or(Ty::Dyn, |a| a.ty.clone())),
        _ => (one, None, Ty::Dyn),
    }
}

/// Equality and ordering of sizable values traverse the smaller one.
fn comparison(lhs: Range, rhs: Range) -> Range {
    let smallest = lhs.max.min(rhs.max);
    Range { min: u64::from(smallest > 0), max: smallest }.factor(TRAVERSAL)
}

/// The largest size data at `node` can have (`DeclType.MaxElements`):
/// strings by `maxLength` (×4 bytes per code point) or format, lists by
/// `maxItems`, maps by `maxProperties`, otherwise what fits into one
/// request; 0 for objects and scalars, which declare none.
fn max_elements(node: Node<'_>) -> u64 {
    max_elements_of(node).unwrap_or(0)
}

fn max_elements_of(node: Node<'_>) -> Option<u64> {
    let s = node.schema;
    let vv = &s.value_validation;
    let non_negative = |v: i64| u64::try_from(v).unwrap_or(0);
    if s.extensions.x_int_or_string {
        return Some(vv.max_length.map_or(MAX_REQUEST_SIZE_BYTES - 2, |m| non_negative(m).saturating_mul(4)));
    }
    match node.type_() {
        "string" => Some(match vv.format.as_str() {
            "byte" => vv.max_length.map_or(MAX_REQUEST_SIZE_BYTES - 2, non_negative),
            "duration" => MAX_DURATION_SIZE_JSON,
            "date" => JSON_DATE_SIZE,
            "date-time" => MAX_DATETIME_SIZE_JSON,
            _ => match vv.max_length {
                Some(m) => non_negative(m).saturating_mul(4),
                None if !vv.enum_.is_empty() => {
                    vv.enum_.iter().filter_map(|e| e.as_str()).map(|e| e.len() as u64).max().unwrap_or(0)
                }
                None => MAX_REQUEST_SIZE_BYTES - 2,
            },
        }),
        "array" => {
            let items = node.items()?;
            Some(
                vv.max_items
                    .map_or_else(|| (MAX_REQUEST_SIZE_BYTES - 2) / (min_serialized_size(items) + 1), non_negative),
            )
        }
        "object" => {
            let values = node.additional_properties()?;
            Some(
                vv.max_properties
                    .map_or_else(|| (MAX_REQUEST_SIZE_BYTES - 2) / (min_serialized_size(values) + 6), non_negative),
            )
        }
        _ => None,
    }
}

/// The smallest JSON serialization data at `node` can have
/// (`DeclType.MinSerializedSize`).
pub(crate) fn min_serialized_size(node: Node<'_>) -> u64 {
    let s: &Structural = node.schema;
    if s.extensions.x_int_or_string {
        return 1;
    }
    match node.type_() {
        "string" => match s.value_validation.format.as_str() {
            "duration" => MIN_DURATION_SIZE_JSON,
            "date" => JSON_DATE_SIZE,
            "date-time" => MIN_DATETIME_SIZE_JSON,
            _ => MIN_STRING_SIZE,
        },
        "boolean" => MIN_BOOL_SIZE,
        "number" | "integer" => MIN_NUMBER_SIZE,
        "object" if node.additional_properties().is_none() => {
            let required = s.value_validation.required.as_deref().unwrap_or_default();
            let mut size = 2u64;
            for (name, child) in node.properties() {
                if required.iter().any(|r| r == name)
                    && child.schema.generic.default.is_none()
                    && schema::decl(child).is_some()
                {
                    size = size.saturating_add(name.len() as u64 + min_serialized_size(child) + 4);
                }
            }
            size
        }
        _ => 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cel::compile::parse;
    use serde_json::json;

    fn estimate(schema: serde_json::Value, rule: &str) -> u64 {
        let s = Structural::from_json(&schema).unwrap();
        let node = Node::new(&s, false);
        let ty = schema::decl(node).unwrap();
        expression_cost(&parse(rule).unwrap(), node, &ty)
    }

    #[test]
    fn bounded_lists_are_cheap() {
        // Kubernetes' own figures: `self.all(x, true)` costs 2 + 3 per item.
        let numbers = json!({"type": "array", "maxItems": 10, "items": {"type": "number"}});
        assert_eq!(estimate(numbers, "self.all(x, true)"), 32);
        let strings = json!({"type": "array", "maxItems": 20, "items": {"type": "string"}});
        assert_eq!(estimate(strings, "self.all(x, true)"), 62);
        let unbounded = json!({"type": "array", "items": {"type": "number"}});
        assert_eq!(estimate(unbounded, "self.all(x, true)"), 4718591);
        let strings = json!({"type": "array", "items": {"type": "string"}});
        assert_eq!(estimate(strings, "self.all(x, true)"), 3145727);
    }

    #[test]
    fn string_operations_scale_with_max_length() {
        let s = json!({"type": "string", "maxLength": 5000});
        assert_eq!(estimate(s.clone(), "self.contains('keyword')"), 1 + 2000);
        assert_eq!(estimate(s, "self == 'x'"), 2);
        let unbounded = json!({"type": "array", "items": {"type": "string"}});
        assert!(estimate(unbounded.clone(), "string(self[0]) + string(self[1]) + string(self[2])") > 1_000_000_000);
        let eight = "self[0] + self[1] + self[2] + self[3] + self[4] + self[5] + self[6] + self[7]";
        assert!(estimate(unbounded.clone(), eight) > 10_000_000);
        assert!(
            estimate(unbounded, "self[0] + self[1] + self[2] + self[3] + self[4] + self[5] + self[6]") < 10_000_000
        );
    }
}
