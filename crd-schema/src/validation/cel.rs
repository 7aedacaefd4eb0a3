//! The CEL part of the schema checks: compiling `x-kubernetes-validations`
//! rules and `messageExpression`s, their estimated costs, and the `oldSelf`
//! rules that follow from a compilation.
//!
//! CEL compilation lands with later work. [`compile_rules`] is the hook
//! where it plugs in; until then it compiles nothing and therefore reports
//! nothing. What follows from a compilation result is written already
//! ([`old_self_errors`]).

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
/// compiled.
///
/// Hook: CEL compilation (cel-go with Kubernetes' libraries, the
/// per-expression cost limits and the per-CRD cost total, reported at the
/// root) lands with the CEL work. Until then no rule is compiled, so no CEL
/// error is reported — the schema checks around it are unaffected.
fn compile_rules(_schema: &JSONSchemaProps, _p: &Path) -> Option<Vec<RuleCompilation>> {
    None
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

    #[test]
    fn nothing_is_compiled_yet() {
        let schema =
            JSONSchemaProps::from_value(&json!({"type": "string", "x-kubernetes-validations": [{"rule": "1"}]}))
                .unwrap();
        assert!(rule_errors(&schema, &Path::new("s"), None).is_empty());
    }
}
