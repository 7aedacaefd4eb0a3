//! The CEL part of the schema checks: compiling `x-kubernetes-validations`
//! rules and `messageExpression`s, their estimated costs, and the `oldSelf`
//! rules that follow from a compilation.
//!
//! [`compile_rules`] compiles a node's rules with `crate::cel` (feature
//! `cel`); without the feature nothing is compiled and nothing is reported.
//! What follows from a compilation result is [`old_self_errors`].

use crate::field::{ErrorList, FieldError, Path};
use crate::wire::JSONSchemaProps;

/// What compiling one rule tells the schema checks. Constructed by the CEL
/// compiler once it lands (see [`compile_rules`]).
#[cfg_attr(not(test), allow(dead_code))]
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct RuleCompilation {
    /// Compile and cost errors of the rule and its `messageExpression`, at
    /// their final paths.
    pub errors: ErrorList,
    /// Whether the rule refers to `oldSelf` (a transition rule).
    pub uses_old_self: bool,
}

/// Compiles the rules of `schema` (at path `p`) against the schema's CEL
/// type, returning one result per rule, or `None` when the rules were not
/// compiled (without the `cel` feature).
#[cfg(not(feature = "cel"))]
fn compile_rules(_schema: &JSONSchemaProps, _p: &Path) -> Option<Vec<RuleCompilation>> {
    None
}

/// Compiles the rules of `schema` (at path `p`) against the schema's CEL
/// type, returning one result per rule: compile errors on
/// `<r>.rule` (`compilation failed: ...`, `cel expression must evaluate to
/// a bool`) and `<r>.messageExpression`, the value being the rule as Go
/// prints it. A node without a CEL type cannot have rules:
/// `<p>.x-kubernetes-validations: Internal error: ...`.
///
/// The node is a resource root (its rules see `apiVersion`, `kind` and
/// `metadata`) when it is an embedded resource or the `openAPIV3Schema`
/// itself, which the path tells.
///
/// The estimated cost limit of one expression is checked for every
/// `messageExpression` (whose limit Kubernetes does not scale), and for
/// rules of nodes that exist at most once per object (only `properties`
/// between the root and the node, which the path tells): `<r>.rule` /
/// `<r>.messageExpression: Forbidden: estimated ... cost exceeds budget by
/// factor of ...`.
///
/// Not reported here, because a hook on one node cannot know them: the
/// rule limit below lists and maps (the cost is multiplied by the number of
/// times the node can occur, from the ancestors' `maxItems` and
/// `maxProperties`), the total of all rules of the CRD (reported at the
/// root, with the most expensive rules), and the exemption of expressions
/// that an update leaves unchanged.
#[cfg(feature = "cel")]
fn compile_rules(schema: &JSONSchemaProps, p: &Path) -> Option<Vec<RuleCompilation>> {
    let structural = crate::structural::new_structural(schema).ok()?;
    let is_root = matches!(p.last(), Some(crate::field::PathElement::Name(n)) if n == "openAPIV3Schema");
    let once_per_object = only_properties_from_root(p);
    let rules = schema.x_validations.as_deref().unwrap_or_default();
    let Some(compiled) = crate::cel::compile_node(&structural, is_root) else {
        let detail = "internal error: failed to retrieve type information for x-kubernetes-validations";
        let error = FieldError::internal(&p.child("x-kubernetes-validations"), detail);
        let mut results = vec![RuleCompilation::default(); rules.len()];
        if let Some(first) = results.first_mut() {
            first.errors.push(error);
        }
        return Some(results);
    };
    let results = compiled
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let r = p.child("x-kubernetes-validations").index(i);
            let mut errors = ErrorList::new();
            if once_per_object && c.max_cost > STATIC_ESTIMATED_COST_LIMIT {
                let detail = cost_error_message("estimated rule cost", c.max_cost, STATIC_ESTIMATED_COST_LIMIT);
                errors.push(FieldError::forbidden(&r.child("rule"), detail));
            }
            if let Some(detail) = &c.error {
                errors.push(FieldError::invalid_rendered(&r.child("rule"), go_rule_dump(&c.rule), detail.as_str()));
            }
            if let Some(detail) = &c.message_expression_error {
                let at = r.child("messageExpression");
                errors.push(FieldError::invalid_rendered(&at, go_rule_dump(&c.rule), detail.as_str()));
            } else if c.message_expression.is_some() && c.message_expression_max_cost > STATIC_ESTIMATED_COST_LIMIT {
                let cost = c.message_expression_max_cost;
                let detail = cost_error_message("estimated messageExpression cost", cost, STATIC_ESTIMATED_COST_LIMIT);
                errors.push(FieldError::forbidden(&r.child("messageExpression"), detail));
            }
            RuleCompilation { errors, uses_old_self: c.uses_old_self }
        })
        .collect();
    Some(results)
}

/// The largest estimated cost of one expression
/// (`StaticEstimatedCostLimit`).
#[cfg(feature = "cel")]
const STATIC_ESTIMATED_COST_LIMIT: u64 = 10_000_000;
/// The largest estimated cost of all rules of a CRD
/// (`StaticEstimatedCRDCostLimit`).
#[cfg(feature = "cel")]
const STATIC_ESTIMATED_CRD_COST_LIMIT: u64 = 100_000_000;

/// The estimated-cost errors that depend on the whole schema at
/// `schema_path` (Kubernetes' `CELSchemaContext`), which the per-node hook
/// cannot see: the rule limit of nodes below lists and maps, where a rule's
/// cost is multiplied by how often its node can occur (the product of the
/// ancestors' `maxItems` / `maxProperties`, or, when one of them is
/// unbounded, what fits into one request); and the total of all rules and
/// messages of the schema: when it exceeds its limit,
/// `contributed to estimated rule cost total exceeding cost limit for entire
/// OpenAPIv3 schema` at each of the (up to four) most expensive
/// expressions that cost at least 1% of the limit, and
/// `<schema_path>: Forbidden: x-kubernetes-validations estimated rule cost
/// total for entire OpenAPIv3 schema exceeds budget by factor of ...`.
///
/// Runs after the schema walk of `validate_custom_resource_validation`
/// when CEL checks apply there.
#[cfg(feature = "cel")]
pub(super) fn cost_total_errors(schema_path: &Path, schema: &JSONSchemaProps) -> ErrorList {
    let mut costs = Costs::default();
    costs.walk(schema, schema_path, Some(1), true);
    let mut errors = std::mem::take(&mut costs.errors);
    if costs.total > STATIC_ESTIMATED_CRD_COST_LIMIT {
        for (path, _) in &costs.most_expensive {
            let detail = "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema";
            errors.push(FieldError::forbidden(path, detail));
        }
        let what = "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema";
        errors.push(FieldError::forbidden(
            schema_path,
            cost_error_message(what, costs.total, STATIC_ESTIMATED_CRD_COST_LIMIT),
        ));
    }
    errors
}

/// The cost totals of [`cost_total_errors`].
#[cfg(feature = "cel")]
#[derive(Default)]
struct Costs {
    total: u64,
    most_expensive: Vec<(Path, u64)>,
    errors: ErrorList,
}

#[cfg(feature = "cel")]
impl Costs {
    // `cardinality` is `None` when an ancestor list or map is unbounded.
    fn walk(&mut self, s: &JSONSchemaProps, p: &Path, cardinality: Option<u64>, is_root: bool) {
        if s.x_validations.as_ref().is_some_and(|r| !r.is_empty()) {
            self.node(s, p, cardinality, is_root);
        }
        let factor = match s.type_.as_str() {
            "object" if s.additional_properties.is_some() => s.max_properties.map(|m| u64::try_from(m).unwrap_or(0)),
            "array" => s.max_items.map(|m| u64::try_from(m).unwrap_or(0)),
            _ => Some(1),
        };
        let child = cardinality.zip(factor).map(|(c, f)| c.saturating_mul(f));
        if let Some(crate::wire::SchemaOrBool::Schema(ap)) = &s.additional_properties {
            self.walk(ap, &p.child("additionalProperties"), child, false);
        }
        for (k, property) in s.properties.iter().flatten() {
            self.walk(property, &p.child("properties").key(k.as_str()), child, false);
        }
        if let Some(crate::wire::SchemaOrArray::Schema(items)) = &s.items {
            self.walk(items, &p.child("items"), child, false);
        }
    }

    fn node(&mut self, s: &JSONSchemaProps, p: &Path, cardinality: Option<u64>, is_root: bool) {
        let Ok(structural) = crate::structural::new_structural(s) else { return };
        let Some(compiled) = crate::cel::compile_node(&structural, is_root) else { return };
        let cardinality = cardinality.unwrap_or_else(|| crate::cel::unbounded_cardinality(&structural));
        for (i, c) in compiled.iter().enumerate() {
            let r = p.child("x-kubernetes-validations").index(i);
            let cost = if c.max_cost == 0 { 0 } else { c.max_cost.saturating_mul(cardinality) };
            // The hook reports the limit of nodes that occur once per object.
            if cost > STATIC_ESTIMATED_COST_LIMIT && !only_properties_from_root(p) {
                let detail = cost_error_message("estimated rule cost", cost, STATIC_ESTIMATED_COST_LIMIT);
                self.errors.push(FieldError::forbidden(&r.child("rule"), detail));
            }
            self.observe(r.child("rule"), cost);
            if c.message_expression.is_some() {
                self.observe(r.child("messageExpression"), c.message_expression_max_cost);
            }
        }
    }

    // Kubernetes' `TotalCost.ObserveExpressionCost`.
    fn observe(&mut self, path: Path, cost: u64) {
        self.total = self.total.saturating_add(cost);
        if cost < STATIC_ESTIMATED_CRD_COST_LIMIT / 100 {
            return;
        }
        self.most_expensive.push((path, cost));
        self.most_expensive.sort_by_key(|e| std::cmp::Reverse(e.1));
        self.most_expensive.truncate(4);
    }
}

/// Whether the path below `openAPIV3Schema` consists of `properties[k]`
/// steps only, so that the node occurs at most once per object.
#[cfg(feature = "cel")]
fn only_properties_from_root(p: &Path) -> bool {
    use crate::field::PathElement;
    let elements = p.elements();
    let Some(root) = elements.iter().position(|e| matches!(e, PathElement::Name(n) if n == "openAPIV3Schema")) else {
        return false;
    };
    let below = &elements[root + 1..];
    below.len().is_multiple_of(2)
        && below.chunks(2).all(|step| matches!(step, [PathElement::Name(n), PathElement::Key(_)] if n == "properties"))
}

/// Kubernetes' `getCostErrorMessage`: the factor by which `cost` exceeds
/// `limit`, as `more than 100x`, `1.234567x` below 1.5 or `2.5x`.
#[cfg(feature = "cel")]
fn cost_error_message(what: &str, cost: u64, limit: u64) -> String {
    let factor = cost as f64 / limit as f64;
    let factor = if factor > 100.0 {
        "more than 100x".to_owned()
    } else if factor < 1.5 {
        format!("{factor:.6}x")
    } else {
        format!("{factor:.1}x")
    };
    format!(
        "{what} exceeds budget by factor of {factor} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"
    )
}

/// Go's `%#v` of Kubernetes' internal `apiextensions.ValidationRule`, the
/// value of compile errors. Go prints the addresses of set pointers, which
/// no other run reproduces; a fixed address stands in for them.
#[cfg(feature = "cel")]
fn go_rule_dump(rule: &crate::wire::ValidationRule) -> String {
    use crate::gofmt::quote;
    let pointer = |t: &str, set: bool| if set { format!("(*{t})(0xc000000000)") } else { format!("(*{t})(nil)") };
    format!(
        "apiextensions.ValidationRule{{Rule:{}, Message:{}, MessageExpression:{}, Reason:{}, FieldPath:{}, OptionalOldSelf:{}}}",
        quote(&rule.rule),
        quote(&rule.message),
        quote(&rule.message_expression),
        pointer("apiextensions.FieldValueErrorReason", rule.reason.is_some()),
        quote(&rule.field_path),
        pointer("bool", rule.optional_old_self.is_some()),
    )
}

/// The CEL errors of the rules of `schema` (at path `p`). `uncorrelatable`
/// is the highest ancestor whose children cannot be correlated between an
/// old and a new object, if any. Called only where CEL checks apply: the
/// schema is structural and this node and everything below it produced no
/// schema errors.
pub(super) fn rule_errors(schema: &JSONSchemaProps, p: &Path, uncorrelatable: Option<&Path>) -> ErrorList {
    let Some(compiled) = compile_rules(schema, p) else { return ErrorList::new() };
    let mut errors: ErrorList = compiled.iter().flat_map(|c| c.errors.iter().cloned()).collect();
    errors.extend(old_self_errors(schema, p, &compiled, uncorrelatable));
    errors
}

// A rule using `oldSelf` below an uncorrelatable ancestor is rejected,
// naming that ancestor; a rule not using `oldSelf` must not set
// `optionalOldSelf` (either value).
fn old_self_errors(
    schema: &JSONSchemaProps,
    p: &Path,
    compiled: &[RuleCompilation],
    uncorrelatable: Option<&Path>,
) -> ErrorList {
    let rules = schema.x_validations.as_deref().unwrap_or_default();
    let mut errors = ErrorList::new();
    for (i, (rule, result)) in rules.iter().zip(compiled).enumerate() {
        let r = p.child("x-kubernetes-validations").index(i);
        if result.uses_old_self {
            if let Some(u) = uncorrelatable {
                let detail = format!("oldSelf cannot be used on the uncorrelatable portion of the schema within {u}");
                errors.push(FieldError::invalid(&r.child("rule"), rule.rule.as_str(), detail));
            }
        } else if let Some(optional) = rule.optional_old_self {
            let detail = "may not be set if oldSelf is not used in rule";
            errors.push(FieldError::invalid(&r.child("optionalOldSelf"), optional, detail));
        }
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn old_self_follows_compilation() {
        let schema = JSONSchemaProps::from_value(&json!({"type": "string", "x-kubernetes-validations": [
            {"rule": "self == oldSelf"}, {"rule": "self == 'a'", "optionalOldSelf": false}, {"rule": "self == 'b'"}]}))
        .unwrap();
        let compiled = [
            RuleCompilation { uses_old_self: true, ..RuleCompilation::default() },
            RuleCompilation::default(),
            RuleCompilation::default(),
        ];
        let p = Path::new("s").child("items");
        let errors: Vec<String> =
            old_self_errors(&schema, &p, &compiled, Some(&Path::new("s"))).iter().map(ToString::to_string).collect();
        assert_eq!(
            errors,
            vec![
                "s.items.x-kubernetes-validations[0].rule: Invalid value: \"self == oldSelf\": oldSelf cannot be used on the uncorrelatable portion of the schema within s",
                "s.items.x-kubernetes-validations[1].optionalOldSelf: Invalid value: false: may not be set if oldSelf is not used in rule",
            ]
        );
        assert_eq!(old_self_errors(&schema, &p, &compiled, None).len(), 1);
    }

    #[cfg(not(feature = "cel"))]
    #[test]
    fn nothing_is_compiled_without_cel() {
        let schema =
            JSONSchemaProps::from_value(&json!({"type": "string", "x-kubernetes-validations": [{"rule": "1"}]}))
                .unwrap();
        assert!(rule_errors(&schema, &Path::new("s"), None).is_empty());
    }

    #[cfg(feature = "cel")]
    #[test]
    fn compile_errors_at_rule_and_message_expression() {
        let schema = JSONSchemaProps::from_value(&json!({"type": "string", "x-kubernetes-validations": [
            {"rule": "self == true"}, {"rule": "self == 'a'", "messageExpression": "1"},
            {"rule": "self == oldSelf.orValue('')", "optionalOldSelf": true}, {"rule": "self.size() > 1"}]}))
        .unwrap();
        let p = Path::new("s");
        let errors: Vec<String> =
            rule_errors(&schema, &p, Some(&Path::new("u"))).iter().map(ToString::to_string).collect();
        assert_eq!(errors.len(), 3, "{errors:?}");
        assert!(errors[0].starts_with(
            "s.x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule{Rule:\"self == true\""
        ));
        assert!(errors[0].ends_with(
            "compilation failed: ERROR: <input>: found no matching overload for '_==_' applied to '(string, bool)'"
        ));
        assert!(errors[1].starts_with("s.x-kubernetes-validations[1].messageExpression: Invalid value: "));
        assert!(errors[1].ends_with(": messageExpression must evaluate to a string"));
        assert_eq!(
            errors[2],
            "s.x-kubernetes-validations[2].rule: Invalid value: \"self == oldSelf.orValue('')\": oldSelf cannot be used on the uncorrelatable portion of the schema within u"
        );
    }

    #[cfg(feature = "cel")]
    #[test]
    fn estimated_costs_over_the_limit() {
        let schema = JSONSchemaProps::from_value(&json!({"type": "array", "items": {"type": "string"},
            "x-kubernetes-validations": [{"rule": "self.all(x, self.all(y, x == y))"},
            {"rule": "true", "messageExpression": "self[0] + self[1] + self[2] + self[3] + self[4] + self[5] + self[6] + self[7]"}]}))
        .unwrap();
        let root = Path::new("spec").child("validation").child("openAPIV3Schema");
        let at = root.child("properties").key("f");
        let errors: Vec<String> = rule_errors(&schema, &at, None).iter().map(ToString::to_string).collect();
        assert_eq!(
            errors,
            [
                "spec.validation.openAPIV3Schema.properties[f].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)",
                "spec.validation.openAPIV3Schema.properties[f].x-kubernetes-validations[1].messageExpression: Forbidden: estimated messageExpression cost exceeds budget by factor of 1.101006x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)",
            ]
        );
        // Below a list the rule's limit depends on the list's size, which
        // this node does not know; the message expression's does not.
        let below = root.child("properties").key("l").child("items");
        assert_eq!(rule_errors(&schema, &below, None).len(), 1);
        assert!(only_properties_from_root(&root) && !only_properties_from_root(&below));
        assert_eq!(cost_error_message("c", 25, 10).split(" (").next(), Some("c exceeds budget by factor of 2.5x"));
    }

    #[cfg(feature = "cel")]
    #[test]
    fn cost_totals_over_the_whole_schema() {
        let schema = JSONSchemaProps::from_value(&json!({"type": "object", "properties": {
            "list": {"type": "array", "maxItems": 100000, "items": {"type": "string", "maxLength": 5000,
                "x-kubernetes-validations": [{"rule": "self.contains('keyword')"}]}},
            "map": {"type": "object", "maxProperties": 1000, "additionalProperties": {"type": "string", "maxLength": 5000,
                "x-kubernetes-validations": [{"rule": "self.contains('keyword')"}]}},
            "field": {"type": "integer", "x-kubernetes-validations": [{"rule": "self > 50 && self < 100"}]}}}))
        .unwrap();
        let root = Path::new("spec").child("validation").child("openAPIV3Schema");
        let mut errors: Vec<String> =
            cost_total_errors(&root, &schema).iter().map(|e| format!("{} {}", e.path, e.kind.go_name())).collect();
        errors.sort();
        assert_eq!(
            errors,
            [
                "spec.validation.openAPIV3Schema FieldValueForbidden",
                "spec.validation.openAPIV3Schema.properties[list].items.x-kubernetes-validations[0].rule FieldValueForbidden",
                "spec.validation.openAPIV3Schema.properties[list].items.x-kubernetes-validations[0].rule FieldValueForbidden",
                "spec.validation.openAPIV3Schema.properties[map].additionalProperties.x-kubernetes-validations[0].rule FieldValueForbidden",
            ]
        );
        let cheap = JSONSchemaProps::from_value(&json!({"type": "object", "properties": {"list": {"type": "array",
            "maxItems": 10, "items": {"type": "string", "maxLength": 10, "x-kubernetes-validations": [{"rule": "self.contains('a')"}]}}}}))
        .unwrap();
        assert!(cost_total_errors(&root, &cheap).is_empty());
    }

    #[cfg(feature = "cel")]
    #[test]
    fn root_rules_see_type_and_object_meta() {
        let schema = JSONSchemaProps::from_value(&json!({"type": "object",
            "x-kubernetes-validations": [{"rule": "self.metadata.name != '' && self.kind != ''"}]}))
        .unwrap();
        let root = Path::new("spec").child("validation").child("openAPIV3Schema");
        assert!(rule_errors(&schema, &root, None).is_empty());
        assert_eq!(rule_errors(&schema, &root.child("properties").key("x"), None).len(), 1);
    }
}
