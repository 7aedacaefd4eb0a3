//! The string validator (kube-openapi's `stringValidator`): `maxLength`,
//! `minLength`, then `pattern`; only the first failure is reported.

use super::walk::At;
use serde_json::Value;

use super::outcome::{Code, Message, Outcome};
use super::pattern::Search;
use super::schema::Node;

/// Validates a string value. Counts no match.
pub(crate) fn check(node: &Node, path: &At<'_>, s: &str, out: &mut Outcome) {
    if let Some(failure) = first_failure(node, s) {
        out.report(|| message(failure, node, path, s));
    }
}

/// The first check a string fails, its message built only when reported.
enum Failure {
    TooLong(i64),
    TooShort(i64),
    /// The pattern does not match; with Go's compile error when Go cannot
    /// compile it, which fails every value.
    NoMatch(Option<String>),
}

fn first_failure(node: &Node, s: &str) -> Option<Failure> {
    // Lengths count code points, counted only for a node with a bound.
    let length = || i64::try_from(s.chars().count()).unwrap_or(i64::MAX);
    if let Some(max) = node.max_length
        && length() > max
    {
        return Some(Failure::TooLong(max));
    }
    if let Some(min) = node.min_length
        && length() < min
    {
        return Some(Failure::TooShort(min));
    }
    if node.pattern.as_str().is_empty() {
        return None;
    }
    // An unanchored search.
    match node.pattern.search(s) {
        Search::Match => None,
        Search::NoMatch => Some(Failure::NoMatch(None)),
        Search::Invalid(error) => Some(Failure::NoMatch(Some(error))),
    }
}

fn message(failure: Failure, node: &Node, path: &At<'_>, s: &str) -> Message {
    let datum = Some(Value::String(s.to_owned()));
    match failure {
        Failure::TooLong(max) => {
            let text = format!("{path} in body should be at most {max} chars long");
            Message::new(Code::TooLong, path, datum, text).with_limit(max)
        }
        Failure::TooShort(min) => {
            Message::new(Code::Field, path, datum, format!("{path} in body should be at least {min} chars long"))
        }
        Failure::NoMatch(invalid) => {
            let pattern = node.pattern.as_str();
            let shown = match invalid {
                None => pattern.to_owned(),
                Some(error) => format!("{pattern}, but pattern is invalid: {error}"),
            };
            Message::new(Code::Field, path, datum, format!("{path} in body should match '{shown}'"))
        }
    }
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
