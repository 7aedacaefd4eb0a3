//! The string validator (kube-openapi's `stringValidator`): `maxLength`,
//! `minLength`, then `pattern`; only the first failure is reported.

use super::walk::At;
use serde_json::Value;

use super::outcome::{Code, Message, Outcome};
use super::pattern::Search;
use super::schema::Node;

/// Validates a string value. Counts no match.
pub(crate) fn check(node: &Node, path: &At<'_>, s: &str, out: &mut Outcome) {
    if let Some(message) = first_failure(node, path, s) {
        out.add(message);
    }
}

fn first_failure(node: &Node, path: &At<'_>, s: &str) -> Option<Message> {
    // Lengths count code points, counted only for a node with a bound.
    let length = || i64::try_from(s.chars().count()).unwrap_or(i64::MAX);
    let datum = || Some(Value::String(s.to_owned()));
    if let Some(max) = node.max_length
        && length() > max
    {
        let text = format!("{path} in body should be at most {max} chars long");
        return Some(Message::new(Code::TooLong, path, datum(), text).with_limit(max));
    }
    if let Some(min) = node.min_length
        && length() < min
    {
        return Some(Message::new(
            Code::Field,
            path,
            datum(),
            format!("{path} in body should be at least {min} chars long"),
        ));
    }
    let pattern = node.pattern.as_str();
    if pattern.is_empty() {
        return None;
    }
    // An unanchored search; a pattern Go cannot compile fails every value
    // with Go's compile error in the message.
    let shown = match node.pattern.search(s) {
        Search::Match => return None,
        Search::NoMatch => pattern.to_owned(),
        Search::Invalid(error) => format!("{pattern}, but pattern is invalid: {error}"),
    };
    Some(Message::new(Code::Field, path, datum(), format!("{path} in body should match '{shown}'")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value_validation::pattern::Pattern;

    /// The path `f` of the tests' messages.
    const F: At<'static> = At::Property(&At::Root, "f");

    fn text(node: &Node, s: &str) -> Option<String> {
        Outcome::of(|o| check(node, &F, s, o)).messages.first().map(|m| m.text.clone())
    }

    #[test]
    fn first_failure_only() {
        let node = Node { max_length: Some(2), min_length: Some(5), pattern: Pattern::new("^z"), ..Node::default() };
        assert_eq!(text(&node, "abc").unwrap(), "f in body should be at most 2 chars long");
        assert_eq!(text(&node, "äö"), Some("f in body should be at least 5 chars long".to_owned()));
    }

    #[test]
    fn patterns() {
        let node = Node { pattern: Pattern::new("b"), ..Node::default() };
        assert_eq!(text(&node, "abc"), None);
        assert_eq!(text(&node, "xyz").unwrap(), "f in body should match 'b'");
        let node = Node { pattern: Pattern::new("+"), ..Node::default() };
        assert_eq!(
            text(&node, "foo").unwrap(),
            "f in body should match '+, but pattern is invalid: error parsing regexp: missing argument to repetition operator: `+`'"
        );
    }
}
