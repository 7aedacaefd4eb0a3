//! Kubernetes' side of static cost estimation: the size estimator of CRD
//! rules (`sizeEstimator` in `apiextensions-apiserver/pkg/apiserver/schema/cel/compilation.go`)
//! and the cost estimates of the Kubernetes libraries
//! (`CostEstimator.EstimateCallCost` in `k8s.io/apiserver/pkg/cel/library/cost.go`).
//!
//! [`LibraryCost::estimate_size`] follows a path from `self` through the
//! declared types — a field name selects a field of an object, `@items`
//! and `@values` the element of a list or the value of a map, `@keys` the
//! key of a map — and answers `[0, maxElements]` of the type it reaches.
//! The key type of every map is the plain string type, whose `maxElements`
//! is 0, so map keys are estimated as empty strings. The first step of a
//! path is a variable and is skipped whatever it names, so a path of one
//! step gives the size of `self`.
//!
//! [`LibraryCost::estimate_call_cost`] returns `None` for functions it
//! does not estimate; cel-go's estimate applies to those.

use kube_cel::cel::common::ast::{Expr, LiteralValue};

use super::estimate::{AstNode, CallEstimate, Estimate, Overload};
use super::estimate::{REGEX_STRING_LENGTH_COST_FACTOR as REGEX, STRING_TRAVERSAL_COST_FACTOR as TRAVERSAL};
use super::schema::{self, Decl, Node, Ty};

/// The largest pattern of a named format (`cel.MaxNameFormatRegexSize`).
const MAX_NAME_FORMAT_REGEX_SIZE: f64 = 128.0;

/// Kubernetes' cost estimator for the rules of one schema node, `root`
/// being the type of `self`.
pub(crate) struct LibraryCost<'s> {
    pub root: Node<'s>,
}

impl<'s> LibraryCost<'s> {
    /// `sizeEstimator.EstimateSize`: the size bound of the type at `path`,
    /// `None` when the path is empty or leads nowhere.
    pub fn estimate_size(&self, path: &[String]) -> Option<Estimate> {
        let (_, steps) = path.split_first()?;
        let max = match schema::walk(self.root, steps)? {
            Decl::Node(node) => schema::max_elements(node)?,
            Decl::MapKey => 0,
        };
        Some(Estimate { min: 0, max })
    }

    /// `CostEstimator.sizeEstimate`: the computed size, else the path's
    /// bound, else unknown.
    fn size(&self, node: &AstNode<'_, 's>) -> Estimate {
        node.computed.or_else(|| self.estimate_size(&node.path)).unwrap_or(Estimate::UNKNOWN)
    }

    /// The size of the elements of a list (or of the keys of a map)
    /// (`listElementNode`), and whether they are strings or bytes; `None`
    /// when `list` has no element type.
    fn element(&self, list: &AstNode<'_, 's>) -> Option<(Estimate, bool)> {
        let element = match &list.ty {
            Ty::List(e) => e,
            Ty::Map(k, _) => k,
            _ => return None,
        };
        let size = if list.path.is_empty() {
            Estimate::UNKNOWN
        } else {
            let mut path = list.path.clone();
            path.push("@items".to_owned());
            self.estimate_size(&path).unwrap_or(Estimate::UNKNOWN)
        };
        Some((size, matches!(**element, Ty::String | Ty::Bytes)))
    }

    /// `CostEstimator.EstimateCallCost`: the cost (without the arguments)
    /// and result size of the Kubernetes library functions, by name;
    /// `target` is the receiver of a method call, `args` the arguments.
    pub fn estimate_call_cost(
        &self,
        function: &str,
        overload: Overload,
        target: Option<&AstNode<'_, 's>>,
        args: &[AstNode<'_, 's>],
    ) -> Option<CallEstimate> {
        let nominal = Some(CallEstimate::cost(Estimate::fixed(1)));
        let first = args.first().map(|a| self.size(a));
        match function {
            // O(n) list functions cost 1 per element, plus a traversal of
            // each string or bytes element; on a string, one traversal.
            "isSorted" | "sum" | "max" | "min" | "indexOf" | "lastIndexOf" => {
                let target = target?;
                let cost = match self.element(target) {
                    Some((element, textual)) => {
                        let per_element = if textual {
                            Estimate::fixed(1).add(element.factor(TRAVERSAL))
                        } else {
                            Estimate::fixed(1)
                        };
                        self.size(target).mul(per_element)
                    }
                    None => self.size(target).factor(TRAVERSAL),
                };
                Some(CallEstimate::cost(cost))
            }
            "url" if args.len() == 1 => {
                let size = first?;
                Some(CallEstimate { cost: size.factor(TRAVERSAL), result_size: Some(size) })
            }
            "lowerAscii" | "upperAscii" | "substring" | "trim" => {
                let size = self.size(target?);
                Some(CallEstimate { cost: size.factor(TRAVERSAL), result_size: Some(size) })
            }
            "replace" if args.len() >= 2 => {
                let size = self.size(target?);
                let result = replaced_size(size, self.size(&args[0]), self.size(&args[1]));
                Some(CallEstimate { cost: size.factor(2.0 * TRAVERSAL), result_size: Some(result) })
            }
            "split" => self.split(target?, args),
            "join" => self.join(target?, args),
            // One is added to the string's length so that an empty string
            // still pays for an expensive pattern.
            "find" | "findAll" if !args.is_empty() => {
                let size = self.size(target?);
                let string = size.add(Estimate::fixed(1)).factor(TRAVERSAL);
                let cost = string.mul(self.size(&args[0]).factor(REGEX));
                Some(CallEstimate { cost, result_size: Some(Estimate { min: 0, max: size.max }) })
            }
            "cidr" | "isIP" | "isCIDR" | "quantity" | "isQuantity" => {
                Some(CallEstimate::cost(first?.factor(TRAVERSAL)))
            }
            "ip" if overload == Overload::CidrIp => nominal,
            "ip" => Some(CallEstimate::cost(first?.factor(TRAVERSAL))),
            "ip.isCanonical" => Some(CallEstimate::cost(first?.factor(2.0 * TRAVERSAL))),
            "containsIP" | "containsCIDR" if target.is_some() && !args.is_empty() => {
                Some(CallEstimate::cost(self.contains_address(function, overload, &args[0])))
            }
            "validate" => {
                target?;
                Some(CallEstimate::cost(first?.factor(TRAVERSAL).factor(MAX_NAME_FORMAT_REGEX_SIZE * REGEX)))
            }
            "masked"
            | "prefixLength"
            | "family"
            | "isUnspecified"
            | "isLoopback"
            | "isLinkLocalMulticast"
            | "isLinkLocalUnicast"
            | "isGlobalUnicast"
            | "format.named"
            | "sign"
            | "asInteger"
            | "isInteger"
            | "asApproximateFloat"
            | "isGreaterThan"
            | "isLessThan"
            | "compareTo"
            | "add"
            | "sub"
            | "getScheme"
            | "getHostname"
            | "getHost"
            | "getPort"
            | "getEscapedPath"
            | "getQuery" => nominal,
            "_==_" if args.len() == 2 => self.equality(&args[0], &args[1]),
            _ => None,
        }
    }

    // The worst case of `split` is an empty separator, each character an
    // element; a literal limit bounds the number of elements.
    fn split(&self, target: &AstNode<'_, 's>, args: &[AstNode<'_, 's>]) -> Option<CallEstimate> {
        let size = self.size(target);
        let mut max = size.max;
        if let Some(limit) = args.get(1)
            && let Expr::Literal(LiteralValue::Int(n)) = &limit.expr.expr
        {
            // Go converts the int64 to uint64 as it is.
            max = **n as u64;
        }
        Some(CallEstimate { cost: size.factor(2.0 * TRAVERSAL), result_size: Some(Estimate { min: 0, max }) })
    }

    // The elements, and the separator between each two of them.
    fn join(&self, target: &AstNode<'_, 's>, args: &[AstNode<'_, 's>]) -> Option<CallEstimate> {
        let list = self.size(target);
        let mut size = match self.element(target) {
            Some((element, _)) => list.mul(element),
            None => Estimate::fixed(0),
        };
        if let Some(separator) = args.first() {
            let separators = Estimate { min: list.min.saturating_sub(1), max: list.max.saturating_sub(1) };
            size = size.add(self.size(separator).mul(separators));
        }
        Some(CallEstimate { cost: size.factor(TRAVERSAL), result_size: Some(size) })
    }

    // Comparing two addresses of 4 or 16 bytes; a CIDR is also masked; a
    // string argument is parsed first.
    fn contains_address(&self, function: &str, overload: Overload, arg: &AstNode<'_, 's>) -> Estimate {
        let address = Estimate { min: 4, max: 16 };
        let mut cost = address.add(address).factor(TRAVERSAL);
        if function == "containsCIDR" {
            cost = cost.add(address.factor(TRAVERSAL)).add(Estimate::fixed(1));
        }
        if overload == Overload::ContainsWithString {
            cost = cost.add(self.size(arg).factor(TRAVERSAL));
        }
        cost
    }

    // Equality of two values of the same Kubernetes library type: O(1),
    // except for URLs, which compare their text. (Kubernetes also prices
    // formats, whose values the checker here types as `dyn`.)
    fn equality(&self, lhs: &AstNode<'_, 's>, rhs: &AstNode<'_, 's>) -> Option<CallEstimate> {
        let (Ty::Opaque(l), Ty::Opaque(r)) = (&lhs.ty, &rhs.ty) else { return None };
        if l != r {
            return None;
        }
        let cost = match *l {
            "net.IP" | "net.IPPrefix" | "Quantity" | "Semver" => Estimate::fixed(1),
            // Upstream reads the right-hand size twice.
            "URL" => {
                let size = match rhs.computed {
                    Some(r) => r,
                    None => Estimate::fixed(1),
                };
                Estimate { min: 1, max: size.max }.factor(TRAVERSAL)
            }
            _ => return None,
        };
        Some(CallEstimate::cost(cost))
    }
}

/// The size of `s.replace(old, new)`: at most every character (or every
/// shortest match) replaced by the longest replacement, at least every
/// longest match by the shortest one.
fn replaced_size(size: Estimate, old: Estimate, new: Estimate) -> Estimate {
    let (count_max, retained_max) = if old.min == 0 {
        (if size.max < u64::MAX { size.max + 1 } else { size.max }, size.max)
    } else if new.max <= old.min {
        (0, size.max)
    } else {
        ((size.max as f64 / old.min as f64).ceil() as u64, 0)
    };
    let (count_min, retained_min) = if old.max == 0 {
        (if size.min < u64::MAX { size.min + 1 } else { size.min }, size.min)
    } else if old.max <= new.min {
        (0, size.min)
    } else {
        ((size.min as f64 / old.max as f64).ceil() as u64, 0)
    };
    let count = Estimate { min: count_min, max: count_max };
    count.mul(new).add(Estimate { min: retained_min, max: retained_max })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::structural::Structural;
    use serde_json::json;

    #[test]
    fn paths_follow_the_declared_types() {
        let s = Structural::from_json(&json!({"type": "object", "properties": {
            "m": {"type": "object", "maxProperties": 3, "additionalProperties": {"type": "string", "maxLength": 5}},
            "l": {"type": "array", "items": {"type": "string", "format": "date-time"}}}}))
        .unwrap();
        let library = LibraryCost { root: Node::new(&s, false) };
        let size = |p: &[&str]| library.estimate_size(&p.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>());
        assert_eq!(size(&[]), None);
        assert_eq!(size(&["self"]), Some(Estimate { min: 0, max: 0 }));
        assert_eq!(size(&["self", "m"]), Some(Estimate { min: 0, max: 3 }));
        assert_eq!(size(&["self", "m", "@values"]), Some(Estimate { min: 0, max: 20 }));
        assert_eq!(size(&["self", "m", "@keys"]), Some(Estimate { min: 0, max: 0 }));
        assert_eq!(size(&["self", "l", "@items"]), Some(Estimate { min: 0, max: 32 }));
        assert_eq!(size(&["self", "m", "x"]), None);
        assert_eq!(size(&["@items"]), Some(Estimate { min: 0, max: 0 }), "the first step is skipped");
    }

    #[test]
    fn replacements_bound_the_result() {
        let size =
            replaced_size(Estimate { min: 0, max: 16 }, Estimate { min: 0, max: 8 }, Estimate { min: 0, max: 16 });
        assert_eq!(size, Estimate { min: 0, max: 17 * 16 + 16 });
        let shrinking = replaced_size(Estimate::fixed(10), Estimate::fixed(2), Estimate::fixed(1));
        assert_eq!(shrinking, Estimate { min: 5, max: 10 });
    }
}
