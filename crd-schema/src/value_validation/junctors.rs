//! The junctor validator (kube-openapi's `schemaPropsValidator`): `anyOf`,
//! `oneOf`, `allOf` and `not`, each branch validating the same value at the
//! same path.

use super::walk::At;
use serde_json::Value;

use super::outcome::{Message, Outcome};
use super::schema::Node;
use super::walk::validate_node;
use crate::gofmt;

/// Validates the junctors of `node`; always counts one match.
pub(crate) fn check(node: &Node, path: &At<'_>, value: &Value, out: &mut Outcome) {
    if !node.any_of.is_empty() {
        out.merge(any_of(&node.any_of, path, value));
    }
    if !node.one_of.is_empty() {
        out.merge(one_of(&node.one_of, path, value));
    }
    if !node.all_of.is_empty() {
        out.merge(all_of(&node.all_of, path, value));
    }
    // `not`: only whether the branch passes matters.
    if let Some(not) = &node.not
        && validate_node(not, path, value).is_valid()
    {
        out.add(Message::plain(format!("{} must not validate the schema (not)", gofmt::quote(&path.to_string()))));
    }
    out.inc();
}

// `anyOf` stops at the first passing branch and keeps its result;
// otherwise it reports the failing branch with the highest match count
// (the first one on ties).
fn any_of(branches: &[Node], path: &At<'_>, value: &Value) -> Outcome {
    let mut best: Option<Outcome> = None;
    for branch in branches {
        let result = validate_node(branch, path, value);
        if result.is_valid() {
            return result;
        }
        if best.as_ref().is_none_or(|b| result.count > b.count) {
            best = Some(result);
        }
    }
    let mut out = Outcome::error(Message::plain(format!(
        "{} must validate at least one schema (anyOf)",
        gofmt::quote(&path.to_string())
    )));
    if let Some(b) = best {
        out.merge(b);
    }
    out
}

// `oneOf` counts the passing branches; exactly one keeps that branch's
// result, none reports the best failing branch, several report nothing
// more than the count.
fn one_of(branches: &[Node], path: &At<'_>, value: &Value) -> Outcome {
    let mut best: Option<Outcome> = None;
    let mut first_success: Option<Outcome> = None;
    let mut validated = 0usize;
    for branch in branches {
        let result = validate_node(branch, path, value);
        if result.is_valid() {
            validated += 1;
            best = None;
            first_success.get_or_insert(result);
            continue;
        }
        if validated == 0 && best.as_ref().is_none_or(|b| result.count > b.count) {
            best = Some(result);
        }
    }
    if validated == 1 {
        return first_success.unwrap_or_default();
    }
    let found =
        if validated == 0 { "Found none valid".to_owned() } else { format!("Found {validated} valid alternatives") };
    let text = format!("{} must validate one and only one schema (oneOf). {found}", gofmt::quote(&path.to_string()));
    let mut out = Outcome::error(Message::plain(text));
    if let Some(b) = best {
        out.merge(b);
    }
    out
}

// `allOf` keeps every branch's result and adds its own message when some
// branch fails.
fn all_of(branches: &[Node], path: &At<'_>, value: &Value) -> Outcome {
    let mut out = Outcome::default();
    let mut validated = 0usize;
    for branch in branches {
        let result = validate_node(branch, path, value);
        if result.is_valid() {
            validated += 1;
        }
        out.merge(result);
    }
    if validated != branches.len() {
        let none = if validated == 0 { ". None validated" } else { "" };
        out.add(Message::plain(format!(
            "{} must validate all the schemas (allOf){none}",
            gofmt::quote(&path.to_string())
        )));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The path `f` of the tests' messages.
    const F: At<'static> = At::Property(&At::Root, "f");
    use serde_json::json;

    fn typed(t: &str) -> Node {
        Node { types: vec![t.to_owned()], ..Node::default() }
    }

    fn texts(out: &Outcome) -> Vec<String> {
        out.messages.iter().map(|m| m.text.clone()).collect()
    }

    #[test]
    fn any_of_reports_first_best_failure() {
        let node = Node { any_of: vec![typed("integer"), typed("string")], ..Node::default() };
        let out = Outcome::of(|o| check(&node, &F, &json!(true), o));
        assert_eq!(
            texts(&out),
            vec!["\"f\" must validate at least one schema (anyOf)", "f in body must be of type integer: \"boolean\""]
        );
        assert!(Outcome::of(|o| check(&node, &F, &json!("x"), o)).is_valid());
    }

    #[test]
    fn one_of_counts() {
        let node = Node { one_of: vec![Node::default(), Node::default()], ..Node::default() };
        assert_eq!(
            texts(&Outcome::of(|o| check(&node, &At::Root, &json!(1), o))),
            vec!["\"\" must validate one and only one schema (oneOf). Found 2 valid alternatives"]
        );
        let node = Node { one_of: vec![typed("string"), Node::default()], ..Node::default() };
        assert!(Outcome::of(|o| check(&node, &F, &json!(1), o)).is_valid());
    }

    #[test]
    fn all_of_and_not() {
        let node = Node { all_of: vec![typed("string"), typed("integer")], ..Node::default() };
        let out = Outcome::of(|o| check(&node, &F, &json!(1), o));
        assert_eq!(texts(&out)[1], "\"f\" must validate all the schemas (allOf)");
        let node = Node { not: Some(Box::new(typed("integer"))), ..Node::default() };
        assert_eq!(
            texts(&Outcome::of(|o| check(&node, &F, &json!(1), o))),
            vec!["\"f\" must not validate the schema (not)"]
        );
    }
}
