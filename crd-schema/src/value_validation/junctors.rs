//! The junctor validator (kube-openapi's `schemaPropsValidator`): `anyOf`,
//! `oneOf`, `allOf` and `not`, each branch validating the same value at the
//! same path.

use super::walk::At;
use serde_json::Value;

use super::outcome::{Message, Outcome};
use super::schema::Node;
use super::walk::{try_node, validate_node};
use crate::gofmt;

/// Validates the junctors of `node`; always counts one match.
///
/// `anyOf` and `oneOf` try their branches quietly (without building
/// messages); when the junctor fails and `out` keeps messages, the branch
/// it reports is validated again for them.
pub(crate) fn check(node: &Node, path: &At<'_>, value: &Value, out: &mut Outcome) {
    if !node.any_of.is_empty() {
        any_of(&node.any_of, path, value, out);
    }
    if !node.one_of.is_empty() {
        one_of(&node.one_of, path, value, out);
    }
    if !node.all_of.is_empty() {
        all_of(&node.all_of, path, value, out);
    }
    // `not`: only whether the branch passes matters.
    if let Some(not) = &node.not
        && try_node(not, path, value).is_valid()
    {
        out.report(|| {
            Message::plain(format!("{} must not validate the schema (not)", gofmt::quote(&path.to_string())))
        });
    }
    out.inc();
}

// `anyOf` stops at the first passing branch and keeps its result;
// otherwise it reports the failing branch with the highest match count
// (the first one on ties).
fn any_of(branches: &[Node], path: &At<'_>, value: &Value, out: &mut Outcome) {
    let mut best: Option<(usize, Outcome)> = None;
    for (i, branch) in branches.iter().enumerate() {
        let result = try_node(branch, path, value);
        if result.is_valid() {
            out.merge(result);
            return;
        }
        if best.as_ref().is_none_or(|(_, b)| result.count > b.count) {
            best = Some((i, result));
        }
    }
    out.report(|| {
        Message::plain(format!("{} must validate at least one schema (anyOf)", gofmt::quote(&path.to_string())))
    });
    if let Some(best) = best {
        merge_failed_branch(branches, best, path, value, out);
    }
}

// `oneOf` counts the passing branches; exactly one keeps that branch's
// result, none reports the best failing branch, several report nothing
// more than the count.
fn one_of(branches: &[Node], path: &At<'_>, value: &Value, out: &mut Outcome) {
    let mut best: Option<(usize, Outcome)> = None;
    let mut first_success: Option<Outcome> = None;
    let mut validated = 0usize;
    for (i, branch) in branches.iter().enumerate() {
        let result = try_node(branch, path, value);
        if result.is_valid() {
            validated += 1;
            best = None;
            first_success.get_or_insert(result);
            continue;
        }
        if validated == 0 && best.as_ref().is_none_or(|(_, b)| result.count > b.count) {
            best = Some((i, result));
        }
    }
    if validated == 1 {
        out.merge(first_success.unwrap_or_default());
        return;
    }
    out.report(|| {
        let found = if validated == 0 {
            "Found none valid".to_owned()
        } else {
            format!("Found {validated} valid alternatives")
        };
        Message::plain(format!(
            "{} must validate one and only one schema (oneOf). {found}",
            gofmt::quote(&path.to_string())
        ))
    });
    if let Some(best) = best {
        merge_failed_branch(branches, best, path, value, out);
    }
}

// Adds a failing branch's quiet result, or, into an outcome that keeps
// messages, the branch validated again with them (the same count).
fn merge_failed_branch(
    branches: &[Node],
    (i, quiet): (usize, Outcome),
    path: &At<'_>,
    value: &Value,
    out: &mut Outcome,
) {
    let result = if out.is_quiet() { quiet } else { branch_like(out, &branches[i], path, value) };
    out.merge(result);
}

// A branch validated into an outcome that keeps messages exactly when
// `out` does.
fn branch_like(out: &Outcome, branch: &Node, path: &At<'_>, value: &Value) -> Outcome {
    if out.is_quiet() { try_node(branch, path, value) } else { validate_node(branch, path, value) }
}

// `allOf` keeps every branch's result and adds its own message when some
// branch fails.
fn all_of(branches: &[Node], path: &At<'_>, value: &Value, out: &mut Outcome) {
    let mut validated = 0usize;
    for branch in branches {
        let result = branch_like(out, branch, path, value);
        if result.is_valid() {
            validated += 1;
        }
        out.merge(result);
    }
    if validated != branches.len() {
        out.report(|| {
            let none = if validated == 0 { ". None validated" } else { "" };
            Message::plain(format!("{} must validate all the schemas (allOf){none}", gofmt::quote(&path.to_string())))
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value_validation::schema::Types;

    /// The path `f` of the tests' messages.
    const F: At<'static> = At::Property(&At::Root, "f");
    use serde_json::json;

    fn typed(t: &str) -> Node {
        Node { types: Types::new(vec![t.to_owned()]), ..Node::default() }
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

    #[test]
    fn quiet_and_loud_outcomes_agree_but_for_messages() {
        let nested = Node { any_of: vec![typed("integer"), typed("boolean")], ..Node::default() };
        let node = Node { any_of: vec![typed("string"), nested], one_of: vec![typed("number")], ..Node::default() };
        for value in [json!(1), json!(true), json!("x"), json!([1])] {
            let loud = Outcome::of(|o| check(&node, &F, &value, o));
            let mut quiet = Outcome::quiet();
            check(&node, &F, &value, &mut quiet);
            assert_eq!((quiet.is_valid(), quiet.count), (loud.is_valid(), loud.count), "{value}");
            assert!(quiet.messages.is_empty());
        }
        // The nested `anyOf` counts more matches, so it is the branch
        // reported, validated again with messages; its own `anyOf` text is
        // the outer one's and kept once.
        let loud = Outcome::of(|o| check(&node, &F, &json!([1]), o));
        assert_eq!(
            texts(&loud),
            [
                "\"f\" must validate at least one schema (anyOf)",
                "f in body must be of type integer: \"array\"",
                "\"f\" must validate one and only one schema (oneOf). Found none valid",
                "f in body must be of type number: \"array\""
            ]
        );
    }
}
