//! The CEL part of the schema checks: compiling `x-kubernetes-validations`
//! rules and `messageExpression`s, their estimated costs, and the `oldSelf`
//! rules that follow from a compilation (the CEL part of Kubernetes'
//! `validation.go`, and `cel_validation.go`).
//!
//! [`rule_errors`] is the hook of the schema walk for one node; it compiles
//! the node's rules with `crate::cel` (feature `cel`; without it nothing is
//! compiled and nothing is reported) and returns the expression costs the
//! walk adds up in a [`TotalCost`]. [`max_cardinality`] is how often a node
//! can occur, which scales its rules' costs; [`cost_total_errors`] judges
//! the total. What follows from a compilation result is [`old_self_errors`].

use crate::field::{ErrorList, FieldError, Path};
use crate::wire::JSONSchemaProps;

/// What compiling one rule tells the schema checks.
#[cfg_attr(not(test), allow(dead_code))]
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct RuleCompilation {
    /// Compile and cost errors of the rule and its `messageExpression`, at
    /// their final paths.
    pub errors: ErrorList,
    /// Whether the rule refers to `oldSelf` (a transition rule).
    pub uses_old_self: bool,
    /// The costs of the rule (scaled by how often the node occurs) and of
    /// its `messageExpression`, for the schema's [`TotalCost`].
    pub costs: Vec<ExpressionCost>,
}

/// Compiles the rules of `schema` (at path `p`) against the schema's CEL
/// type, returning one result per rule, or `None` when the rules were not
/// compiled (without the `cel` feature).
#[cfg(not(feature = "cel"))]
fn compile_rules(_: &JSONSchemaProps, _: &Path, _: Option<u64>, _: bool) -> Option<Vec<RuleCompilation>> {
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
/// A rule's cost is its estimated cost times how often the node can occur
/// (`cardinality`, `None` when an ancestor list or map is unbounded; then
/// what fits into one request); above the limit of one expression it is
/// `<r>.rule: Forbidden: estimated rule cost exceeds budget by factor of
/// ...`. A `messageExpression` has the same limit, unscaled. Neither limit
/// applies when `limit_each` is false (a version an update leaves
/// unchanged); the costs still count towards the schema's total.
#[cfg(feature = "cel")]
fn compile_rules(
    schema: &JSONSchemaProps,
    p: &Path,
    cardinality: Option<u64>,
    limit_each: bool,
) -> Option<Vec<RuleCompilation>> {
    let structural = crate::structural::new_structural(schema).ok()?;
    let is_root = matches!(p.last(), Some(crate::field::PathElement::Name(n)) if n == "openAPIV3Schema");
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
    let cardinality = cardinality.unwrap_or_else(|| crate::cel::max_cardinality(&structural, is_root));
    let results = compiled
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let r = p.child("x-kubernetes-validations").index(i);
            let mut errors = ErrorList::new();
            let mut costs = Vec::new();
            let cost = c.max_cost.saturating_mul(cardinality);
            if limit_each && cost > STATIC_ESTIMATED_COST_LIMIT {
                let detail = cost_error_message("estimated rule cost", cost, STATIC_ESTIMATED_COST_LIMIT);
                errors.push(FieldError::forbidden(&r.child("rule"), detail));
            }
            costs.push(ExpressionCost { path: r.child("rule"), cost });
            if let Some(detail) = &c.error {
                errors.push(FieldError::invalid_rendered(&r.child("rule"), go_rule_dump(&c.rule), detail.as_str()));
            }
            if let Some(detail) = &c.message_expression_error {
                let at = r.child("messageExpression");
                errors.push(FieldError::invalid_rendered(&at, go_rule_dump(&c.rule), detail.as_str()));
            } else if c.message_expression.is_some() {
                let cost = c.message_expression_max_cost;
                if limit_each && cost > STATIC_ESTIMATED_COST_LIMIT {
                    let what = "estimated messageExpression cost";
                    let detail = cost_error_message(what, cost, STATIC_ESTIMATED_COST_LIMIT);
                    errors.push(FieldError::forbidden(&r.child("messageExpression"), detail));
                }
                costs.push(ExpressionCost { path: r.child("messageExpression"), cost });
            }
            RuleCompilation { errors, uses_old_self: c.uses_old_self, costs }
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
const STATIC_ESTIMATED_CRD_COST_LIMIT: u64 = 100_000_000;

/// The estimated cost of one expression at its path (a rule's cost already
/// scaled by how often its node can occur).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExpressionCost {
    /// `<node>.x-kubernetes-validations[i].rule` or `.messageExpression`.
    pub path: Path,
    /// The estimated cost, times the node's cardinality.
    pub cost: u64,
}

/// The estimated cost of all rules and messages of one schema
/// (Kubernetes' `TotalCost`): their sum, saturating at `u64::MAX`, and the
/// (up to four) most expensive expressions that cost at least 1% of the
/// limit of a CRD (1,000,000), in descending order.
///
/// ```
/// use crd_schema::field::Path;
/// use crd_schema::validation::TotalCost;
///
/// let mut total = TotalCost::default();
/// for (i, cost) in [5_000_000, 25_000_000, 900_000].into_iter().enumerate() {
///     total.observe(Path::new("r").index(i), cost);
/// }
/// assert_eq!(total.total(), 30_900_000);
/// let kept: Vec<u64> = total.most_expensive().iter().map(|e| e.cost).collect();
/// assert_eq!(kept, [25_000_000, 5_000_000]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TotalCost {
    total: u64,
    most_expensive: Vec<ExpressionCost>,
}

impl TotalCost {
    /// Adds the cost of the expression at `path`
    /// (`ObserveExpressionCost`).
    pub fn observe(&mut self, path: Path, cost: u64) {
        self.total = self.total.saturating_add(cost);
        if cost < STATIC_ESTIMATED_CRD_COST_LIMIT / 100 {
            return;
        }
        self.most_expensive.push(ExpressionCost { path, cost });
        self.most_expensive.sort_by_key(|e| std::cmp::Reverse(e.cost));
        self.most_expensive.truncate(4);
    }

    /// The sum of all costs observed.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The most expensive expressions kept, the dearest first.
    pub fn most_expensive(&self) -> &[ExpressionCost] {
        &self.most_expensive
    }
}

/// How often a node can occur in one object, from its ancestors (the root
/// first, the node's parent last), as the CEL context of the schema walk
/// passes it down (`childContext`): the root counts 1; each child of an
/// array is multiplied by its `maxItems`, each child of an object with
/// `additionalProperties` (a schema, `true` or `false`) by its
/// `maxProperties`, any other child by 1. `None` when one such array or
/// object has no bound. Products saturate; a count of 0 stays 0.
///
/// ```
/// use crd_schema::validation::max_cardinality;
/// use crd_schema::wire::JSONSchemaProps;
/// use serde_json::json;
///
/// let list = JSONSchemaProps::from_value(&json!({"type": "array", "maxItems": 3})).unwrap();
/// let object = JSONSchemaProps::from_value(&json!({"type": "object"})).unwrap();
/// assert_eq!(max_cardinality([&list, &object]), Some(3));
/// let map = JSONSchemaProps::from_value(&json!({"type": "object", "additionalProperties": true})).unwrap();
/// assert_eq!(max_cardinality([&list, &map]), None);
/// ```
pub fn max_cardinality<'a>(ancestors: impl IntoIterator<Item = &'a JSONSchemaProps>) -> Option<u64> {
    ancestors.into_iter().try_fold(1, |cardinality, parent| child_cardinality(parent, Some(cardinality)))
}

/// The count of a child of `parent`, whose own count is `cardinality`.
pub(super) fn child_cardinality(parent: &JSONSchemaProps, cardinality: Option<u64>) -> Option<u64> {
    let cardinality = cardinality?;
    extract_max_elements(parent).map(|factor| cardinality.saturating_mul(factor))
}

// The factor by which a schema multiplies the count of its children
// (`extractMaxElements`): `maxProperties` of a map, `maxItems` of an
// array (negative counts as 0), `None` when unbounded, 1 otherwise.
fn extract_max_elements(s: &JSONSchemaProps) -> Option<u64> {
    let bound = |v: Option<i64>| v.map(|m| u64::try_from(m).unwrap_or(0));
    match s.type_.as_str() {
        "object" if s.additional_properties.is_some() => bound(s.max_properties),
        "array" => bound(s.max_items),
        _ => Some(1),
    }
}

/// The errors of the estimated cost total of the schema at `schema_path`:
/// when it exceeds the limit of a CRD, `contributed to estimated rule cost
/// total exceeding cost limit for entire OpenAPIv3 schema` at each of the
/// most expensive expressions, and `<schema_path>: Forbidden:
/// x-kubernetes-validations estimated rule cost total for entire OpenAPIv3
/// schema exceeds budget by factor of ...`.
pub(super) fn cost_total_errors(schema_path: &Path, total: &TotalCost) -> ErrorList {
    let mut errors = ErrorList::new();
    if total.total() > STATIC_ESTIMATED_CRD_COST_LIMIT {
        for expensive in total.most_expensive() {
            let detail = "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema";
            errors.push(FieldError::forbidden(&expensive.path, detail));
        }
        let what = "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema";
        errors.push(FieldError::forbidden(
            schema_path,
            cost_error_message(what, total.total(), STATIC_ESTIMATED_CRD_COST_LIMIT),
        ));
    }
    errors
}

/// Kubernetes' `getCostErrorMessage`: the factor by which `cost` exceeds
/// `limit`, as `more than 100x`, `1.234567x` below 1.5 or `2.5x`.
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

/// The CEL errors of the rules of `schema` (at path `p`), and the costs of
/// its expressions. `uncorrelatable` is the highest ancestor whose children
/// cannot be correlated between an old and a new object, if any;
/// `cardinality` how often the node can occur ([`max_cardinality`]);
/// `limit_each` whether the per-expression cost limit applies. Called only
/// where CEL checks apply: the schema is structural and this
/// node and everything below it produced no schema errors.
pub(super) fn rule_errors(
    schema: &JSONSchemaProps,
    p: &Path,
    uncorrelatable: Option<&Path>,
    cardinality: Option<u64>,
    limit_each: bool,
) -> (ErrorList, Vec<ExpressionCost>) {
    let Some(compiled) = compile_rules(schema, p, cardinality, limit_each) else {
        return (ErrorList::new(), Vec::new());
    };
    let mut errors: ErrorList = compiled.iter().flat_map(|c| c.errors.iter().cloned()).collect();
    errors.extend(old_self_errors(schema, p, &compiled, uncorrelatable));
    (errors, compiled.into_iter().flat_map(|c| c.costs).collect())
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
        assert!(rule_errors(&schema, &Path::new("s"), None, Some(1), true).0.is_empty());
    }

    #[cfg(feature = "cel")]
    fn texts(errors: &ErrorList) -> Vec<String> {
        errors.iter().map(ToString::to_string).collect()
    }

    #[cfg(feature = "cel")]
    #[test]
    fn compile_errors_at_rule_and_message_expression() {
        let schema = JSONSchemaProps::from_value(&json!({"type": "string", "x-kubernetes-validations": [
            {"rule": "self == true"}, {"rule": "self == 'a'", "messageExpression": "1"},
            {"rule": "self == oldSelf.orValue('')", "optionalOldSelf": true}, {"rule": "self.size() > 1"}]}))
        .unwrap();
        let p = Path::new("s");
        let errors = texts(&rule_errors(&schema, &p, Some(&Path::new("u")), Some(1), true).0);
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
        let at = Path::new("spec").child("validation").child("openAPIV3Schema").child("properties").key("f");
        let (errors, costs) = rule_errors(&schema, &at, None, Some(1), true);
        assert_eq!(
            texts(&errors),
            [
                "spec.validation.openAPIV3Schema.properties[f].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)",
                "spec.validation.openAPIV3Schema.properties[f].x-kubernetes-validations[1].messageExpression: Forbidden: estimated messageExpression cost exceeds budget by factor of 1.101006x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)",
            ]
        );
        assert_eq!(costs.len(), 3, "the rules and the message expression");
        assert_eq!(cost_error_message("c", 25, 10).split(" (").next(), Some("c exceeds budget by factor of 2.5x"));
        let (errors, unlimited) = rule_errors(&schema, &at, None, Some(1), false);
        assert!(errors.is_empty(), "an unchanged version has no per-expression limit: {errors:?}");
        assert_eq!(unlimited, costs, "its costs still count towards the total");
    }

    #[cfg(feature = "cel")]
    #[test]
    fn rule_costs_scale_with_the_cardinality() {
        // 2001 per evaluation: `contains` over 4 x 5000 bytes.
        let schema = JSONSchemaProps::from_value(&json!({"type": "string", "maxLength": 5000,
            "x-kubernetes-validations": [{"rule": "self.contains('keyword')"}]}))
        .unwrap();
        let p = Path::new("s");
        let cost = |cardinality| rule_errors(&schema, &p, None, cardinality, true).1[0].cost;
        assert_eq!(cost(Some(1)), 2001);
        assert_eq!(cost(Some(0)), 0);
        assert_eq!(cost(Some(u64::MAX)), u64::MAX);
        // Unbounded: a request of 3 MiB over the 3 bytes of `"",`.
        assert_eq!(cost(None), 2001 * (3 * 1024 * 1024 / 3));
        let (errors, _) = rule_errors(&schema, &p, None, Some(5000), true);
        assert_eq!(texts(&errors).len(), 1, "10,005,000 is over the limit");
    }

    #[test]
    fn cardinality_follows_bounds_of_lists_and_maps() {
        let schema = |v: serde_json::Value| JSONSchemaProps::from_value(&v).unwrap();
        let list = schema(json!({"type": "array", "maxItems": i64::MAX}));
        let small = schema(json!({"type": "array", "maxItems": 100}));
        let object = schema(json!({"type": "object", "properties": {"a": {"type": "string"}}}));
        let open = schema(json!({"type": "object", "additionalProperties": true, "maxProperties": 7}));
        let negative = schema(json!({"type": "array", "maxItems": -1}));
        assert_eq!(max_cardinality([]), Some(1));
        assert_eq!(max_cardinality([&object, &open, &small]), Some(700));
        assert_eq!(max_cardinality([&list, &small]), Some(u64::MAX));
        assert_eq!(max_cardinality([&negative, &schema(json!({"type": "array"}))]), None);
        assert_eq!(child_cardinality(&negative, Some(9)), Some(0));
    }

    #[test]
    fn totals_keep_the_four_dearest() {
        let mut total = TotalCost::default();
        for (i, cost) in [16_000_000, 50_000_000, 34_000_000, 999_999, 50_000_000, 2_000_000].into_iter().enumerate() {
            total.observe(Path::new("r").index(i), cost);
        }
        let kept: Vec<u64> = total.most_expensive().iter().map(|e| e.cost).collect();
        assert_eq!(kept, [50_000_000, 50_000_000, 34_000_000, 16_000_000]);
        assert_eq!(total.total(), 152_999_999);
        total.observe(Path::new("x"), u64::MAX);
        assert_eq!(total.total(), u64::MAX);
        assert_eq!(cost_total_errors(&Path::new("s"), &total).len(), 5);
        assert!(cost_total_errors(&Path::new("s"), &TotalCost::default()).is_empty());
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
        let check = |schema: JSONSchemaProps| {
            let validation = crate::crd::CustomResourceValidation { open_api_v3_schema: Some(schema) };
            let path = Path::new("spec").child("validation");
            let options = super::super::ValidationOptions::for_create();
            let errors = super::super::validate_custom_resource_validation(&path, Some(&validation), false, &options);
            let mut errors: Vec<String> = errors.iter().map(|e| format!("{} {}", e.path, e.kind.go_name())).collect();
            errors.sort();
            errors
        };
        assert_eq!(
            check(schema),
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
        assert!(check(cheap).is_empty());
    }

    /// Validates `schema` as the `openAPIV3Schema` of a CRD being created.
    #[cfg(feature = "cel")]
    fn crd_errors(schema: serde_json::Value) -> Vec<String> {
        let schema = JSONSchemaProps::from_value(&schema).unwrap();
        let validation = crate::crd::CustomResourceValidation { open_api_v3_schema: Some(schema) };
        let path = Path::new("spec").child("validation");
        let options = super::super::ValidationOptions::for_create();
        texts(&super::super::validate_custom_resource_validation(&path, Some(&validation), false, &options))
    }

    // Rules over the keys of maps that the API server accepts: it
    // estimates map keys as empty strings, so only the number of entries
    // and the pattern's length count.
    #[cfg(feature = "cel")]
    #[test]
    fn rules_over_map_keys_are_accepted() {
        let annotation = r#"self.all(key, key.matches(r"""^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9]$"""))"#;
        let strings = |rules: &[&str], bound: Option<u64>| {
            let rules: Vec<serde_json::Value> = rules.iter().map(|r| json!({"rule": r})).collect();
            let mut map = json!({"type": "object", "additionalProperties": {"type": "string"}, "x-kubernetes-validations": rules});
            if let Some(bound) = bound {
                map["maxProperties"] = json!(bound);
            }
            map
        };
        let schema = json!({"type": "object", "properties": {"spec": {"type": "object", "properties": {
            "selector": strings(&[r#"self.all(key, !key.contains("*"))"#], None),
            "labels": strings(&[r#"self.all(key, key.split("/")[0].size() < 253)"#], None),
            "env": strings(&["self.all(k, k.matches('^[A-Z]+(_[A-Z]+)+$'))"], None),
            "annotations": strings(&[annotation, r#"self.all(key, key.split("/")[0].size() < 253)"#], Some(64)),
            "items": {"type": "array", "maxItems": 16, "items": {"type": "object", "properties": {
                "annotations": strings(&[annotation], Some(256))}}}}}}});
        assert_eq!(crd_errors(schema), Vec::<String>::new());
        // The pattern alone costs 29 per key: over the 393,215 entries a
        // request can hold, the API server refuses it as well.
        let unbounded = json!({"type": "object", "properties": {"annotations": strings(&[annotation], None)}});
        assert_eq!(
            crd_errors(unbounded),
            [
                "spec.validation.openAPIV3Schema.properties[annotations].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of 1.297610x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"
            ]
        );
    }

    #[cfg(feature = "cel")]
    #[test]
    fn root_rules_see_type_and_object_meta() {
        let schema = JSONSchemaProps::from_value(&json!({"type": "object",
            "x-kubernetes-validations": [{"rule": "self.metadata.name != '' && self.kind != ''"}]}))
        .unwrap();
        let root = Path::new("spec").child("validation").child("openAPIV3Schema");
        assert!(rule_errors(&schema, &root, None, Some(1), true).0.is_empty());
        assert_eq!(rule_errors(&schema, &root.child("properties").key("x"), None, Some(1), true).0.len(), 1);
    }
}
