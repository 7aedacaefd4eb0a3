//! Running the rules of a schema tree on a value
//! (`apiextensions-apiserver/pkg/apiserver/schema/cel.Validator`).
//!
//! The walk follows the value and the schema together: at each node with
//! rules they run on the node's value (never on `null`), then the walk
//! descends into `additionalProperties` values, then `properties`, then
//! `items`. Old values follow along where they can be correlated:
//! properties by name and map values by key (unless the object has an
//! `x-kubernetes-map-type` other than `granular`/`atomic`), list items only
//! in `x-kubernetes-list-type: map` lists, by their key fields. Every rule's
//! cost is taken from the remaining budget; when the budget runs out the
//! walk reports it once and stops.

use serde_json::Value as Json;

use super::compile::{self, CompiledRule};
use super::eval::{self, Activation, OldSelf};
use super::schema::Node;
use super::value::{self, Error, Val};
use crate::field::{BadValue, ErrorList, ErrorType, FieldError, Path};
use crate::ratchet::{self, MapList};

/// The per-expression runtime cost limit (`celconfig.PerCallLimit`).
pub(crate) const PER_CALL_LIMIT: u64 = 1_000_000;
/// The longest message a `messageExpression` may produce
/// (`celconfig.MaxEvaluatedMessageExpressionSizeBytes`).
const MAX_MESSAGE_BYTES: usize = 5 * 1024;

const OUT_OF_BUDGET: &str =
    "validation failed due to running out of cost budget, no further validation rules will be run";

/// The compiled rules of one schema node and of the nodes below it that
/// have rules; subtrees without rules are left out.
#[derive(Clone, Debug, Default)]
pub(crate) struct Rules {
    pub rules: Vec<CompiledRule>,
    /// Why the rules of this node could not be compiled at all (the node
    /// has no CEL type).
    pub init_error: Option<String>,
    pub items: Option<Box<Rules>>,
    pub properties: Vec<(String, Rules)>,
    pub additional_properties: Option<Box<Rules>>,
}

impl Rules {
    /// Compiles every rule of the tree at `node`; `None` when there is none.
    pub fn compile(node: Node<'_>) -> Option<Rules> {
        let s = node.schema;
        let declared = s.validation_extensions.x_validations.as_deref().unwrap_or_default();
        let mut rules = Rules::default();
        if !declared.is_empty() {
            if super::schema::decl(node).is_none() {
                rules.init_error = Some(format!(
                    "rule declared on schema that does not support validation rules type: '{}' \
                     x-kubernetes-preserve-unknown-fields: '{}'",
                    s.generic.type_, s.extensions.x_preserve_unknown_fields
                ));
            }
            rules.rules = compile::compile_rules(node, declared);
        }
        rules.items = node.items().and_then(Rules::compile).map(Box::new);
        rules.additional_properties = node.additional_properties().and_then(Rules::compile).map(Box::new);
        for (name, child) in &s.properties {
            let child = Node::new(child, child.extensions.x_embedded_resource);
            // Properties without a CEL type are left out of CEL validation
            // entirely, rules below them included.
            if super::schema::decl(child).is_none() {
                continue;
            }
            if let Some(r) = Rules::compile(child) {
                rules.properties.push((name.clone(), r));
            }
        }
        let empty = rules.rules.is_empty()
            && rules.init_error.is_none()
            && rules.items.is_none()
            && rules.additional_properties.is_none()
            && rules.properties.is_empty();
        (!empty).then_some(rules)
    }

    /// Every compiled rule of the tree.
    pub fn count(&self) -> usize {
        self.rules.len()
            + self.items.as_ref().map_or(0, |i| i.count())
            + self.additional_properties.as_ref().map_or(0, |a| a.count())
            + self.properties.iter().map(|(_, p)| p.count()).sum::<usize>()
    }
}

/// One run of the rules over a value.
pub(crate) struct Run<'b> {
    pub budget: &'b mut i64,
    pub errors: ErrorList,
}

impl Run<'_> {
    /// Validates `value` (with `old`) at schema `node` with `rules`, under
    /// `path`.
    pub fn node<'a>(&mut self, node: Node<'a>, rules: &'a Rules, path: &Path, value: &'a Json, old: Option<&'a Json>) {
        if value.is_null() {
            return;
        }
        let old = old.filter(|o| !o.is_null());
        self.expressions(node, rules, path, value, old);
        if *self.budget < 0 {
            return;
        }
        match value {
            Json::Array(items) => self.items(node, rules, path, items, old),
            Json::Object(obj) => self.object(node, rules, path, obj, old),
            _ => {}
        }
    }

    fn items<'a>(&mut self, node: Node<'a>, rules: &'a Rules, path: &Path, items: &'a [Json], old: Option<&'a Json>) {
        let (Some(item_rules), Some(item_node)) = (&rules.items, node.items()) else { return };
        // Items of `map` lists correlate by key, others not at all.
        let correlated = ratchet::map_keys(node.schema).zip(old).map(|(keys, old)| MapList::new(keys, old));
        for (i, item) in items.iter().enumerate() {
            let old_item = correlated.as_ref().and_then(|c| c.get(item));
            self.node(item_node, item_rules, &path.index(i), item, old_item);
            if *self.budget < 0 {
                return;
            }
        }
    }

    fn object<'a>(
        &mut self,
        node: Node<'a>,
        rules: &'a Rules,
        path: &Path,
        obj: &'a serde_json::Map<String, Json>,
        old: Option<&'a Json>,
    ) {
        let correlatable = matches!(node.schema.extensions.x_map_type.as_deref(), None | Some("granular" | "atomic"));
        let old_of = |k: &str| if correlatable { old.and_then(|o| o.get(k)) } else { None };
        if let (Some(ap_rules), Some(ap_node)) = (&rules.additional_properties, node.additional_properties()) {
            for (k, v) in obj {
                self.node(ap_node, ap_rules, &path.key(k.as_str()), v, old_of(k));
                if *self.budget < 0 {
                    return;
                }
            }
        }
        if rules.properties.is_empty() {
            return;
        }
        for (k, v) in obj {
            let Some((_, child_rules)) = rules.properties.iter().find(|(name, _)| name == k) else { continue };
            let Some(child) = node.schema.property(k) else { continue };
            let child = Node::new(child, child.extensions.x_embedded_resource);
            self.node(child, child_rules, &path.child(k.as_str()), v, old_of(k));
            if *self.budget < 0 {
                return;
            }
        }
    }

    // The rules of one node. Rules that do not compile report at the node
    // and the others still run; a transition rule runs only with an old
    // value, unless it sets `optionalOldSelf`.
    fn expressions<'a>(
        &mut self,
        node: Node<'a>,
        rules: &'a Rules,
        path: &Path,
        value: &'a Json,
        old: Option<&'a Json>,
    ) {
        let type_ = node.schema.generic.type_.as_str();
        if let Some(e) = &rules.init_error {
            self.errors.push(FieldError::invalid(path, type_, format!("rule compiler initialization error: {e}")));
            return;
        }
        if rules.rules.is_empty() {
            return;
        }
        if *self.budget <= 0 {
            self.out_of_budget(path, type_, OUT_OF_BUDGET);
            return;
        }
        let self_ = value::from_json(value, node);
        let old_val = old.map(|o| value::from_json(o, node));
        for compiled in &rules.rules {
            if let Some(e) = &compiled.error {
                self.errors.push(FieldError::invalid(path, type_, format!("rule compile error: {e}")));
                continue;
            }
            let Some(program) = &compiled.program else { continue };
            let optional = compiled.rule.optional_old_self == Some(true);
            if compiled.uses_old_self && old_val.is_none() && !optional {
                continue;
            }
            let plain = match &old_val {
                Some(o) => OldSelf::Value(o.clone()),
                None => OldSelf::Absent,
            };
            let old_self = if optional { OldSelf::Optional(old_val.clone()) } else { plain.clone() };
            let activation = Activation { self_: self_.clone(), old_self };
            if !self.rule(node, path, value, compiled, program, &activation, plain) {
                return;
            }
        }
    }

    /// Runs one rule; `false` when no further rule may run.
    #[allow(clippy::too_many_arguments)]
    fn rule<'a>(
        &mut self,
        node: Node<'a>,
        path: &Path,
        value: &'a Json,
        compiled: &CompiledRule,
        program: &kube_cel::cel::common::ast::IdedExpr,
        activation: &Activation<'a>,
        plain_old_self: OldSelf<'a>,
    ) -> bool {
        let type_ = node.schema.generic.type_.as_str();
        let rule_text = rule_error_string(compiled);
        let outcome = eval::evaluate(program, activation, self.limit());
        if outcome.cost > remaining(*self.budget) {
            self.out_of_budget(path, type_, OUT_OF_BUDGET);
            return false;
        }
        *self.budget -= outcome.cost as i64;
        match outcome.result {
            Err(Error::Cancelled) => {
                let detail = format!(
                    "'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: {rule_text}"
                );
                self.out_of_budget(path, type_, &detail);
                return false;
            }
            Err(Error::Eval(e)) if e.starts_with("no such overload") => {
                let detail = format!(
                    "'{e}': call arguments did not match a supported operator, function or macro signature for rule: {rule_text}"
                );
                self.errors.push(FieldError::invalid(path, type_, detail));
                return true;
            }
            Err(Error::Eval(e)) => {
                self.errors.push(FieldError::invalid(path, type_, format!("{e} evaluating rule: {rule_text}")));
                return true;
            }
            Ok(Val::Bool(true)) => return true,
            Ok(_) => {}
        }
        let at = match &compiled.field_path {
            Some(p) => path.child(p.as_str()),
            None => path.clone(),
        };
        let mut detail = None;
        if let Some(message) = &compiled.message_expression {
            // The message sees the plain activation, even for rules with
            // `optionalOldSelf`.
            let plain = Activation { self_: activation.self_.clone(), old_self: plain_old_self };
            match self.message(&at, type_, message, &compiled.rule.message_expression, &plain) {
                Message::Text(text) => detail = Some(text),
                Message::Fallback => {}
                Message::Stop => return false,
            }
        }
        let detail = detail.unwrap_or_else(|| message_or_default(compiled));
        self.errors.push(rule_error(&at, node, value, detail, compiled.rule.reason.as_deref()));
        true
    }

    fn message<'a>(
        &mut self,
        at: &Path,
        type_: &str,
        program: &kube_cel::cel::common::ast::IdedExpr,
        source: &str,
        activation: &Activation<'a>,
    ) -> Message {
        let outcome = eval::evaluate(program, activation, self.limit());
        if outcome.cost > remaining(*self.budget) {
            let detail = "messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run";
            self.out_of_budget(at, type_, detail);
            return Message::Stop;
        }
        if let Err(Error::Cancelled) = outcome.result {
            let detail = format!(
                "no further validation rules will be run due to call cost exceeds limit for messageExpression: {}",
                crate::gofmt::quote(source)
            );
            self.out_of_budget(at, type_, &detail);
            return Message::Stop;
        }
        *self.budget -= outcome.cost as i64;
        // Evaluation failures, non-strings, and messages that are empty,
        // too long or span lines fall back to the static message
        // (Kubernetes only logs them).
        match outcome.result {
            Ok(Val::String(s)) => {
                let trimmed = s.trim();
                if trimmed.is_empty() || trimmed.len() > MAX_MESSAGE_BYTES || trimmed.contains('\n') {
                    Message::Fallback
                } else {
                    Message::Text(trimmed.to_owned())
                }
            }
            _ => Message::Fallback,
        }
    }

    /// The per-call limit, or the remaining budget where that is lower
    /// (evaluating past it could only end in the budget error).
    fn limit(&self) -> u64 {
        PER_CALL_LIMIT.min(remaining(*self.budget))
    }

    fn out_of_budget(&mut self, path: &Path, type_: &str, detail: &str) {
        self.errors.push(FieldError::invalid(path, type_, detail));
        *self.budget = -1;
    }
}

enum Message {
    Text(String),
    Fallback,
    Stop,
}

fn remaining(budget: i64) -> u64 {
    u64::try_from(budget).unwrap_or(0)
}

/// The rule's message if set, otherwise the rule itself, trimmed.
fn rule_error_string(compiled: &CompiledRule) -> String {
    let message = compiled.rule.message.trim();
    if compiled.rule.message.is_empty() { compiled.rule.rule.trim().to_owned() } else { message.to_owned() }
}

/// `failed rule: <rule>`, or the message.
fn message_or_default(compiled: &CompiledRule) -> String {
    if compiled.rule.message.is_empty() {
        format!("failed rule: {}", rule_error_string(compiled))
    } else {
        compiled.rule.message.trim().to_owned()
    }
}

// A failed rule's error: the value is shown, except for objects and
// arrays, whose error omits it (`<path>: Invalid value: <detail>`); the
// rule's `reason` picks the error type.
fn rule_error(at: &Path, node: Node<'_>, value: &Json, detail: String, reason: Option<&str>) -> FieldError {
    let omit = matches!(node.schema.generic.type_.as_str(), "object" | "array");
    match reason {
        Some("FieldValueForbidden") => FieldError::forbidden(at, detail),
        Some("FieldValueRequired") => FieldError::required(at, detail),
        // Go omits an object or array value here too, rendering a bare
        // `Duplicate value`, which `FieldError` cannot express; the value
        // is shown instead.
        Some("FieldValueDuplicate") => FieldError::duplicate(at, value.clone()),
        // `Invalid value: <detail>` without a value: `FieldError` always
        // renders one for this type, so the detail stands in its place.
        _ if omit => FieldError::new(at, ErrorType::Invalid, BadValue::Rendered(detail), ""),
        _ => FieldError::invalid(at, value.clone(), detail),
    }
}
