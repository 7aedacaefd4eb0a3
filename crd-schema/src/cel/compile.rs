//! Compilation of the rules of one schema node
//! (`apiextensions-apiserver/pkg/apiserver/schema/cel.Compile`): parsing,
//! type checking against the node's CEL type, the result types of the rule
//! (`bool`) and of its `messageExpression` (`string`), whether the rule is
//! a transition rule (uses `oldSelf`), and the normalized `fieldPath`.

use kube_cel::cel::common::ast::IdedExpr;
use kube_cel::cel::parser::Parser;

use super::check::{self, Checked};
use super::estimate;
use super::schema::{Node, Ty};
use crate::structural::{Structural, StructuralOrBool};
use crate::wire::ValidationRule;

/// One compiled rule.
#[derive(Clone, Debug)]
pub(crate) struct CompiledRule {
    pub rule: ValidationRule,
    /// The program; `None` for an empty rule or when compilation failed.
    pub program: Option<IdedExpr>,
    /// Kubernetes' detail of a failed compilation
    /// (`compilation failed: ...`, `cel expression must evaluate to a bool`).
    pub error: Option<String>,
    pub message_expression: Option<IdedExpr>,
    pub message_expression_error: Option<String>,
    /// The rule refers to `oldSelf`.
    pub uses_old_self: bool,
    /// The rule's `fieldPath` as a Kubernetes field path (`spec.x`,
    /// `m[key]`), when it resolves.
    pub field_path: Option<String>,
    /// The estimated worst-case costs of the rule and of its
    /// `messageExpression`.
    pub max_cost: u64,
    pub message_expression_max_cost: u64,
}

/// How deeply expressions may nest (cel-go's parser limit).
const MAX_DEPTH: usize = 250;

/// Parses a CEL expression (optional syntax enabled, as in Kubernetes),
/// failing with cel-go's `ERROR: <input>:l:c: ...` texts. Expressions
/// nested deeper than cel-go's parser allows are rejected; everything that
/// walks a parsed expression recurses over it.
pub(crate) fn parse(source: &str) -> Result<IdedExpr, String> {
    let parsed = std::panic::catch_unwind(|| Parser::new().enable_optional_syntax(true).parse(source));
    match parsed {
        // The text is cel-go's; its position is not reproduced.
        Ok(Ok(expr)) if depth(&expr) > MAX_DEPTH => {
            Err(format!("ERROR: <input>:-1:0: expression recursion limit exceeded: {MAX_DEPTH}"))
        }
        Ok(Ok(expr)) => Ok(expr),
        // cel-go indents the source snippet lines by one space.
        Ok(Err(errors)) => Err(errors.to_string().replace("\n| ", "\n | ")),
        Err(_) => Err("ERROR: <input>:1:1: the parser failed on this expression".to_owned()),
    }
}

/// The nesting depth of `expr`, without recursion.
fn depth(expr: &IdedExpr) -> usize {
    use kube_cel::cel::common::ast::{EntryExpr, Expr};
    let mut deepest = 0;
    let mut stack = vec![(expr, 1)];
    while let Some((e, d)) = stack.pop() {
        deepest = deepest.max(d);
        if deepest > MAX_DEPTH {
            break;
        }
        match &e.expr {
            Expr::Call(call) => {
                stack.extend(call.target.iter().map(|t| (&**t, d + 1)).chain(call.args.iter().map(|a| (a, d + 1))))
            }
            Expr::Select(sel) => stack.push((&sel.operand, d + 1)),
            Expr::List(list) => stack.extend(list.elements.iter().map(|el| (el, d + 1))),
            Expr::Map(map) => {
                for entry in &map.entries {
                    if let EntryExpr::MapEntry(m) = &entry.expr {
                        stack.push((&m.key, d + 1));
                        stack.push((&m.value, d + 1));
                    }
                }
            }
            Expr::Struct(s) => {
                for entry in &s.entries {
                    if let EntryExpr::StructField(f) = &entry.expr {
                        stack.push((&f.value, d + 1));
                    }
                }
            }
            Expr::Comprehension(c) => {
                for part in [&c.iter_range, &c.accu_init, &c.loop_cond, &c.loop_step, &c.result] {
                    stack.push((part, d + 1));
                }
            }
            Expr::Literal(_) | Expr::Ident(_) | Expr::Unspecified => {}
        }
    }
    deepest
}

/// Compiles `rules`, declared on `node`.
pub(crate) fn compile_rules(node: Node<'_>, rules: &[ValidationRule]) -> Vec<CompiledRule> {
    let self_ty = check::self_type(node);
    rules.iter().map(|rule| compile_rule(node, self_ty.as_ref(), rule)).collect()
}

fn compile_rule(node: Node<'_>, self_ty: Option<&Ty<'_>>, rule: &ValidationRule) -> CompiledRule {
    let mut out = CompiledRule {
        rule: rule.clone(),
        program: None,
        error: None,
        message_expression: None,
        message_expression_error: None,
        uses_old_self: false,
        field_path: None,
        max_cost: 0,
        message_expression_max_cost: 0,
    };
    if rule.rule.trim().is_empty() {
        return out;
    }
    let dyn_ty = Ty::Dyn;
    let self_ty = self_ty.unwrap_or(&dyn_ty);
    let optional = rule.optional_old_self == Some(true);
    let (program, checked) = match compile_expression(&rule.rule, self_ty, optional) {
        Ok(compiled) => compiled,
        Err(detail) => {
            out.error = Some(format!("compilation failed: {detail}"));
            return out;
        }
    };
    if !matches!(checked.ty, Ty::Bool | Ty::Dyn) {
        out.error = Some("cel expression must evaluate to a bool".to_owned());
        return out;
    }
    out.uses_old_self = checked.uses_old_self;
    out.max_cost = estimate::expression_cost(&program, node, self_ty);
    out.program = Some(program);
    if !rule.message_expression.is_empty() {
        match compile_expression(&rule.message_expression, self_ty, optional) {
            Err(detail) => {
                out.message_expression_error = Some(format!("messageExpression compilation failed: {detail}"));
                return out;
            }
            // The detail Kubernetes adds when its environment allows a
            // list of strings too (`... or a list of strings`) is not
            // reproduced: that environment option is not confirmed for
            // the CRD environment.
            Ok((_, checked)) if !matches!(checked.ty, Ty::String | Ty::Dyn) => {
                out.message_expression_error = Some("messageExpression must evaluate to a string".to_owned());
                return out;
            }
            Ok((program, _)) => {
                out.message_expression_max_cost = estimate::expression_cost(&program, node, self_ty);
                out.message_expression = Some(program);
            }
        }
    }
    if !rule.field_path.is_empty() {
        out.field_path = resolve_field_path(node.schema, &rule.field_path);
    }
    out
}

/// Parses and checks one expression; the error is the issue list.
fn compile_expression<'s>(source: &str, self_ty: &Ty<'s>, optional: bool) -> Result<(IdedExpr, Checked<'s>), String> {
    let program = parse(source)?;
    let checked = check::check(&program, self_ty, optional);
    if checked.errors.is_empty() {
        return Ok((program, checked));
    }
    Err(checked.errors.iter().map(|e| format!("ERROR: <input>: {e}")).collect::<Vec<_>>().join("\n"))
}

// `ValidFieldPath` on the structural schema: the validation package
// resolves paths on the wire form, so the node's property tree is written
// back into that form first.
fn resolve_field_path(schema: &Structural, field_path: &str) -> Option<String> {
    let wire = crate::wire::JSONSchemaProps::from_value(&property_skeleton(schema, 0)).ok()?;
    let path = crate::validation::fieldpath::resolve(&wire, field_path).ok()?;
    Some(path.to_string()).filter(|p| p != "<nil>")
}

/// The `properties` / `additionalProperties` tree of `schema`, which is all
/// a `fieldPath` can step through.
fn property_skeleton(schema: &Structural, depth: usize) -> serde_json::Value {
    let mut out = serde_json::Map::new();
    if depth > 64 {
        return serde_json::Value::Object(out);
    }
    if !schema.properties.is_empty() {
        let properties: serde_json::Map<String, serde_json::Value> =
            schema.properties.iter().map(|(k, v)| (k.clone(), property_skeleton(v, depth + 1))).collect();
        out.insert("properties".to_owned(), properties.into());
    }
    match &schema.additional_properties {
        Some(StructuralOrBool::Bool(b)) => {
            out.insert("additionalProperties".to_owned(), (*b).into());
        }
        Some(StructuralOrBool::Structural(s)) => {
            out.insert("additionalProperties".to_owned(), property_skeleton(s, depth + 1));
        }
        None => {}
    }
    serde_json::Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rule(r: serde_json::Value) -> ValidationRule {
        let schema = crate::wire::JSONSchemaProps::from_value(&json!({"x-kubernetes-validations": [r]})).unwrap();
        schema.x_validations.unwrap().remove(0)
    }

    #[test]
    fn compiles_and_reports() {
        let s = Structural::from_json(&json!({"type": "object", "properties": {"a": {"type": "string"},
            "m": {"type": "object", "additionalProperties": {"type": "string"}}}}))
        .unwrap();
        let node = Node::new(&s, false);
        let compiled = compile_rules(
            node,
            &[
                rule(json!({"rule": "self.a == oldSelf.a", "fieldPath": ".m.k"})),
                rule(json!({"rule": "self.a"})),
                rule(json!({"rule": "self.a +"})),
                rule(json!({"rule": "true", "messageExpression": "1"})),
                rule(json!({"rule": " "})),
            ],
        );
        assert!(compiled[0].uses_old_self && compiled[0].error.is_none());
        assert_eq!(compiled[0].field_path.as_deref(), Some("m[k]"));
        assert_eq!(compiled[1].error.as_deref(), Some("cel expression must evaluate to a bool"));
        assert!(
            compiled[2].error.as_deref().unwrap().starts_with("compilation failed: ERROR: <input>:1:9: Syntax error")
        );
        assert_eq!(
            compiled[3].message_expression_error.as_deref(),
            Some("messageExpression must evaluate to a string")
        );
        assert!(compiled[4].program.is_none() && compiled[4].error.is_none());
    }

    #[test]
    fn deep_expressions_are_rejected() {
        let chain = vec!["1"; 1000].join(" + ");
        assert!(parse(&chain).unwrap_err().contains("recursion limit"));
        let selects = format!("self{}", ".a".repeat(1000));
        assert!(parse(&selects).is_err());
        assert!(parse(&vec!["true"; 1000].join(" && ")).is_ok(), "logical chains are balanced");
    }
}
