//! Compilation of the rules of one schema node
//! (`apiextensions-apiserver/pkg/apiserver/schema/cel.Compile`): parsing,
//! type checking against the node's CEL type, the result types of the rule
//! (`bool`) and of its `messageExpression` (`string`), whether the rule is
//! a transition rule (uses `oldSelf`), and the normalized `fieldPath`.

use kube_cel::cel::common::ast::{CallExpr, Expr, IdedExpr, LiteralValue};
use kube_cel::cel::parser::{ParseError, ParseErrors, Parser};

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

/// The longest expression, in code points (cel-go's
/// `expressionSizeCodePointLimit`, which Kubernetes keeps at its default).
const MAX_CODE_POINTS: usize = 100_000;

/// Parses a CEL expression (optional syntax enabled, as in Kubernetes),
/// failing with cel-go's `ERROR: <input>:l:c: ...` texts. Expressions
/// longer or nested deeper than cel-go's parser allows are rejected;
/// everything that walks a parsed expression recurses over it.
pub(crate) fn parse(source: &str) -> Result<IdedExpr, String> {
    let size = source.chars().count();
    if size > MAX_CODE_POINTS {
        return Err(format!(
            "ERROR: <input>:-1:0: expression code point size exceeds limit: size: {size}, limit {MAX_CODE_POINTS}"
        ));
    }
    match run_parser(source) {
        // The text is cel-go's; its position is not reproduced.
        Ok(Ok(expr)) if depth(&expr) > MAX_DEPTH => Err(recursion_limit()),
        Ok(Ok(mut expr)) => {
            // cel-go expands these macros while parsing; the position of
            // a misuse is not reproduced.
            super::macros::expand(&mut expr).map_err(|e| format!("ERROR: <input>:1:1: {e}"))?;
            Ok(expr)
        }
        Ok(Err(errors)) if errors.errors.iter().any(|e| e.msg.contains("Recursion limit")) => Err(recursion_limit()),
        Ok(Err(errors)) => {
            Err(errors.errors.iter().map(|e| parse_error_text(e, source)).collect::<Vec<_>>().join("\n"))
        }
        Err(_) => Err("ERROR: <input>:1:1: the parser failed on this expression".to_owned()),
    }
}

/// The stack the parser runs on. Its recursive descent takes about 10 KiB
/// per nesting level in debug builds: at cel-go's 250 levels, more than the
/// 2 MiB of a spawned thread. The memory is reserved, not committed.
const PARSER_STACK_BYTES: usize = 32 << 20;

/// Runs the parser on a thread of its own with [`PARSER_STACK_BYTES`] of
/// stack, with cel-go's nesting limit; where no thread can be started, on
/// this thread with the parser's own, lower limit (96 levels).
fn run_parser(source: &str) -> std::thread::Result<Result<IdedExpr, ParseErrors>> {
    let parse = |depth: u16| {
        std::panic::catch_unwind(|| Parser::new().enable_optional_syntax(true).max_recursion_depth(depth).parse(source))
    };
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new().stack_size(PARSER_STACK_BYTES);
        match worker.spawn_scoped(scope, || parse(MAX_DEPTH as u16)) {
            Ok(handle) => handle.join().unwrap_or_else(Err),
            Err(_) => parse(96),
        }
    })
}

/// cel-go's error for an expression nested deeper than [`MAX_DEPTH`]: an
/// internal error, reported without a position.
fn recursion_limit() -> String {
    format!("ERROR: <input>:-1:0: expression recursion limit exceeded: {MAX_DEPTH}")
}

/// cel-go's text of one parse error: `ERROR: <input>:l:c: msg`, then the
/// source line and a caret under the column, each indented by ` | `.
/// Written here rather than with the parser's `Display`, which pads the
/// caret with a formatter width that panics past 65535 columns.
fn parse_error_text(error: &ParseError, source: &str) -> String {
    let (line, column) = error.pos;
    let mut out = format!("ERROR: <input>:{line}:{column}: {}", error.msg);
    let snippet = usize::try_from(line - 1).ok().and_then(|l| source.lines().nth(l));
    if let (Some(snippet), true) = (snippet, error.source_info.is_some()) {
        let dots = usize::try_from(column - 1).unwrap_or(0);
        out.push_str(&format!("\n | {snippet}\n | {}^", ".".repeat(dots)));
    }
    out
}

/// The nesting depth of `expr`, without recursion.
fn depth(expr: &IdedExpr) -> usize {
    let mut deepest = 0;
    let mut stack = vec![(expr, 1)];
    while let Some((e, d)) = stack.pop() {
        deepest = deepest.max(d);
        if deepest > MAX_DEPTH {
            break;
        }
        stack.extend(super::ast::children(e).into_iter().map(|c| (c, d + 1)));
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
    if let Some(error) = instantiation_error(&program) {
        out.error = Some(format!("program instantiation failed: {error}"));
        return out;
    }
    out.uses_old_self = checked.uses_old_self;
    out.max_cost = estimate::expression_cost(&program, &checked.types, node);
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
            Ok((program, checked)) => {
                out.message_expression_max_cost = estimate::expression_cost(&program, &checked.types, node);
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
    let mut checked = check::check(&program, self_ty, optional);
    if checked.errors.is_empty() {
        checked.errors = invalid_literals(&program);
    }
    if checked.errors.is_empty() {
        return Ok((program, checked));
    }
    Err(checked.errors.iter().map(|e| format!("ERROR: <input>: {e}")).collect::<Vec<_>>().join("\n"))
}

/// cel-go's literal validators, which Kubernetes enables from 1.29
/// (`ValidateDurationLiterals`, `ValidateTimestampLiterals`,
/// `ValidateRegexLiterals`): a `duration` or `timestamp` conversion of a
/// literal that fails, or a `matches` pattern literal Go's RE2 refuses, is
/// a compile error, not one each time the rule runs.
fn invalid_literals(expr: &IdedExpr) -> Vec<String> {
    let mut errors = Vec::new();
    for (call, arg) in calls_on_literals(expr) {
        let name = call.func_name.as_str();
        let valid = match name {
            "duration" | "timestamp" if call.target.is_none() => {
                !matches!(super::functions::call(name, None, &[super::eval::literal(arg)]), Some(Err(_)))
            }
            "matches" => regex_literal_error(arg).is_none(),
            _ => true,
        };
        if !valid {
            errors.push(format!("invalid {name} argument"));
        }
    }
    errors
}

/// The error of making a program of `expr`: the Kubernetes regex
/// library compiles a literal pattern of `find` and `findAll` then
/// (`cel.OptimizeRegex`), so a pattern Go's RE2 refuses fails there.
fn instantiation_error(expr: &IdedExpr) -> Option<String> {
    calls_on_literals(expr)
        .into_iter()
        .filter(|(call, _)| call.target.is_some() && matches!(call.func_name.as_str(), "find" | "findAll"))
        .find_map(|(_, arg)| regex_literal_error(arg))
}

/// Go's error for a literal regular expression, if it is one Go refuses.
fn regex_literal_error(arg: &LiteralValue) -> Option<String> {
    let LiteralValue::String(pattern) = arg else { return None };
    crate::goregexp::check(pattern).err().map(|e| e.to_string())
}

/// Every call of `expr` whose first argument is a literal, with it.
fn calls_on_literals(expr: &IdedExpr) -> Vec<(&CallExpr, &LiteralValue)> {
    super::ast::nodes(expr)
        .into_iter()
        .filter_map(|e| match &e.expr {
            Expr::Call(call) => match call.args.first().map(|a| &a.expr) {
                Some(Expr::Literal(arg)) => Some((call, arg)),
                _ => None,
            },
            _ => None,
        })
        .collect()
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

    #[test]
    fn nesting_up_to_cel_gos_limit_parses() {
        // cel-go allows 250 levels; the parser's own default is 96.
        let nested = |n: usize| format!("{}true{}", "(".repeat(n), ")".repeat(n));
        let run = |source: String| std::thread::spawn(move || parse(&source).map(|_| ())).join().unwrap();
        assert_eq!(run(nested(200)), Ok(()));
        let limit = "ERROR: <input>:-1:0: expression recursion limit exceeded: 250";
        assert_eq!(run(nested(300)).unwrap_err(), limit);
        assert_eq!(run(format!("{}1{} == 1", "[".repeat(260), "]".repeat(260))).unwrap_err(), limit);
    }

    #[test]
    fn errors_far_along_a_line_do_not_panic() {
        // A syntax error past column 65535, and a nesting error whose
        // column the parser reports as -1.
        let long = format!("'{}' +", "x".repeat(70_000));
        let err = parse(&long).unwrap_err();
        assert!(err.starts_with("ERROR: <input>:1:70005: Syntax error"), "{}", &err[..80]);
        assert!(err.ends_with(&format!("{}^", ".".repeat(70_004))));
        let parens = format!("{}{}", "(".repeat(50_000), ")".repeat(50_000));
        assert!(parse(&parens).unwrap_err().contains("recursion limit exceeded"));
    }

    #[test]
    fn expressions_longer_than_cel_gos_limit_are_rejected() {
        let long = format!("'{}' == ''", "x".repeat(100_000));
        assert_eq!(
            parse(&long).unwrap_err(),
            "ERROR: <input>:-1:0: expression code point size exceeds limit: size: 100008, limit 100000"
        );
        assert!(parse(&format!("'{}' == ''", "é".repeat(99_990))).is_ok(), "code points, not bytes");
    }
}
