//! The `fieldPath` of an `x-kubernetes-validations` rule, as
//! `k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel.ValidFieldPath`
//! (with array notation left at its default, which only means that `[` is
//! accepted at all; indices are still rejected).
//!
//! Entry points: [`resolve`] (the Kubernetes field path a `fieldPath`
//! designates, or a [`FieldPathError`] with Kubernetes' text), [`resolve_field`] (the same with
//! the schema reached, and array notation optional, for `selectableFields`)
//! and [`is_valid`] (what the CRD validation asks: paths on schemas that are
//! not structural are accepted).
//!
//! A path is a sequence of `.name` and `['name']` steps starting at the
//! schema that carries the rule. The tokenizer is reproduced byte for byte:
//! the delimiters `.`, `[` and `]` are single tokens, a token starting with
//! `'` runs to the next `'` not preceded by a backslash (or to the end), and
//! everything else runs to the next delimiter.

use crate::field::Path;
use crate::structural;
use crate::wire::{JSONSchemaProps, SchemaOrBool};

/// Why a `fieldPath` does not resolve, displayed with Kubernetes' text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FieldPathError {
    /// A step names nothing in the schema.
    #[error("does not refer to a valid field")]
    NotAField,
    /// The path stops in the middle of a step.
    #[error("unexpected end of JSON path")]
    UnexpectedEnd,
    /// A `['name']` step where array notation is not allowed
    /// (`selectableFields`).
    #[error("array notation is not allowed")]
    ArrayNotation,
    /// A step starts with something other than `.` or `[`.
    #[error("expected [ or . but got: {got}")]
    ExpectedStep {
        /// The token found.
        got: String,
    },
    /// A `[` is followed by something other than a single-quoted string.
    #[error("expected single quoted string but got {got}")]
    ExpectedQuoted {
        /// The token found.
        got: String,
    },
    /// A `['name'` is followed by something other than `]`.
    #[error("expected ] but got {got}")]
    ExpectedClosingBracket {
        /// The token found.
        got: String,
    },
    /// A quoted name holds an unknown escape (`\x`); the last one is named.
    #[error("invalid string literal: invalid escape char \\{escape}")]
    InvalidEscape {
        /// The character after the backslash.
        escape: char,
    },
}

/// Whether `field_path` is acceptable on `schema` for the CRD validation:
/// schemas that cannot be converted to the structural form accept every
/// path, all others need [`resolve`] to succeed.
pub fn is_valid(schema: &JSONSchemaProps, field_path: &str) -> bool {
    structural::new_structural(schema).is_err() || resolve(schema, field_path).is_ok()
}

/// Resolves `field_path` against `schema`, returning the Kubernetes field
/// path it designates (`.foo.f1` under a map `foo` gives `foo[f1]`) or
/// Kubernetes' error ([`FieldPathError::NotAField`], ...). The empty path
/// resolves to the empty [`Path`].
pub fn resolve(schema: &JSONSchemaProps, field_path: &str) -> Result<Path, FieldPathError> {
    resolve_field(schema, field_path, true).map(|(path, _)| path)
}

/// [`resolve`], also returning the schema the path ends at (`None` past a
/// boolean `additionalProperties`). Without `allow_array_notation` a
/// `['name']` step is an error, as for `selectableFields`.
pub fn resolve_field<'a>(
    schema: &'a JSONSchemaProps,
    field_path: &str,
    allow_array_notation: bool,
) -> Result<(Path, Option<&'a JSONSchemaProps>), FieldPathError> {
    let mut tokens = Tokens { rest: field_path };
    let mut cursor = Cursor { path: Path::root(), schema: Some(schema) };
    while let Some(token) = tokens.next() {
        match token {
            "[" if !allow_array_notation => return Err(FieldPathError::ArrayNotation),
            "[" => {
                let quoted = tokens.next().ok_or(FieldPathError::UnexpectedEnd)?;
                let name = quoted_name(quoted)?;
                cursor.step(&name)?;
                match tokens.next() {
                    None => return Err(FieldPathError::UnexpectedEnd),
                    Some("]") => {}
                    Some(other) => return Err(FieldPathError::ExpectedClosingBracket { got: other.to_owned() }),
                }
            }
            "." => {
                let name = tokens.next().ok_or(FieldPathError::UnexpectedEnd)?;
                cursor.step(name)?;
            }
            other => return Err(FieldPathError::ExpectedStep { got: other.to_owned() }),
        }
    }
    Ok((cursor.path, cursor.schema))
}

/// The schema reached so far and the path leading to it. `schema` is `None`
/// after a step through a boolean `additionalProperties`.
struct Cursor<'a> {
    path: Path,
    schema: Option<&'a JSONSchemaProps>,
}

impl Cursor<'_> {
    // One step: an object with (non-empty) `properties` must declare the
    // name; an object with only `additionalProperties` accepts any key and
    // continues with the `additionalProperties` schema; anything else
    // (arrays, scalars, or nothing after a boolean `additionalProperties`,
    // where Kubernetes dereferences a nil schema) names no field.
    fn step(&mut self, name: &str) -> Result<(), FieldPathError> {
        let Some(schema) = self.schema else { return Err(FieldPathError::NotAField) };
        if let Some(properties) = schema.properties.as_ref().filter(|p| !p.is_empty()) {
            let found = properties.iter().find(|(k, _)| k == name).ok_or(FieldPathError::NotAField)?;
            self.path = self.path.child(name);
            self.schema = Some(&found.1);
            return Ok(());
        }
        match &schema.additional_properties {
            Some(additional) => {
                self.path = self.path.key(name);
                self.schema = match additional {
                    SchemaOrBool::Schema(s) => Some(s),
                    SchemaOrBool::Bool(_) => None,
                };
                Ok(())
            }
            None => Err(FieldPathError::NotAField),
        }
    }
}

// The token after `[` must be a single-quoted string (at least the two
// quotes); its content is unescaped.
fn quoted_name(token: &str) -> Result<String, FieldPathError> {
    let quoted = token.len() >= 2 && token.starts_with('\'') && token.ends_with('\'');
    if !quoted {
        return Err(FieldPathError::ExpectedQuoted { got: token.to_owned() });
    }
    unescape_single_quote(&token[1..token.len() - 1]).map_err(|escape| FieldPathError::InvalidEscape { escape })
}

// Escapes are a backslash and any character but a line feed (Go's
// `\\.` regular expression): `\a \b \f \n \r \t \v \' \\` are replaced, any
// other one is an error naming it (the last such escape wins, as every
// replacement overwrites the error). A backslash before a line feed or at
// the end stays as it is. The error is the escaped character.
fn unescape_single_quote(s: &str) -> Result<String, char> {
    let mut out = String::with_capacity(s.len());
    let mut error = None;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        let next = chars.peek().copied();
        match (c, next) {
            ('\\', Some(d)) if d != '\n' => {
                chars.next();
                match escaped(d) {
                    Some(r) => out.push(r),
                    None => error = Some(d),
                }
            }
            _ => out.push(c),
        }
    }
    match error {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

/// The character an escape `\d` stands for.
fn escaped(d: char) -> Option<char> {
    Some(match d {
        'a' => '\u{7}',
        'b' => '\u{8}',
        'f' => '\u{c}',
        'n' => '\n',
        'r' => '\r',
        't' => '\t',
        'v' => '\u{b}',
        '\'' => '\'',
        '\\' => '\\',
        _ => return None,
    })
}

/// The tokenizer (Go's `bufio.Scanner` with the split function of
/// `ValidFieldPath`).
struct Tokens<'a> {
    rest: &'a str,
}

impl<'a> Tokens<'a> {
    fn next(&mut self) -> Option<&'a str> {
        let bytes = self.rest.as_bytes();
        let first = *bytes.first()?;
        let end = if first == b'\'' {
            // A quoted token ends at the first quote (after the opening one)
            // that does not follow a backslash, or at the end of the input.
            (1..bytes.len()).find(|&i| bytes[i] == b'\'' && bytes[i - 1] != b'\\').map_or(bytes.len(), |i| i + 1)
        } else {
            match bytes.iter().position(|b| matches!(b, b'.' | b'[' | b']')) {
                Some(0) => 1,
                Some(i) => i,
                None => bytes.len(),
            }
        };
        // Every cut is next to an ASCII byte, hence on a character boundary.
        let (token, rest) = self.rest.split_at(end);
        self.rest = rest;
        Some(token)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> JSONSchemaProps {
        JSONSchemaProps::from_value(&json!({"type": "object", "properties": {
            "foo": {"type": "object", "additionalProperties": {"type": "object", "properties": {"f1": {"type": "number"}}}},
            "a": {"type": "object", "properties": {
                "bbb": {"type": "object", "properties": {"c": {"type": "number"}, "34": {"type": "number"}}},
                "bbb.c": {"type": "object", "properties": {"a-b34": {"type": "number"}}}}},
            "m": {"type": "object", "additionalProperties": true},
            "q": {"type": "object", "properties": {"x'y": {"type": "string"}, "c\u{7}": {"type": "string"}}},
            "list": {"type": "array", "items": {"type": "object", "properties": {"a": {"type": "number"}}}}}}))
        .unwrap()
    }

    fn ok(p: &str) -> String {
        resolve(&schema(), p).map(|p| p.to_string()).unwrap_or_else(|e| panic!("{p}: {e}"))
    }

    fn err(p: &str) -> String {
        resolve(&schema(), p).expect_err(p).to_string()
    }

    #[test]
    fn error_display_is_kubernetes_text() {
        let e = resolve(&schema(), ".a['b\\x']").unwrap_err();
        assert_eq!(e, FieldPathError::InvalidEscape { escape: 'x' });
        assert_eq!(e.to_string(), "invalid string literal: invalid escape char \\x");
        assert_eq!(resolve(&schema(), ".a.foo").unwrap_err(), FieldPathError::NotAField);
    }

    #[test]
    fn resolves_names_quoted_names_and_map_keys() {
        assert_eq!(ok(".a"), "a");
        assert_eq!(ok(".a['bbb.c'].a-b34"), "a.bbb.c.a-b34");
        assert_eq!(ok(".a.bbb['34']"), "a.bbb.34");
        assert_eq!(ok(".foo.f1"), "foo[f1]");
        assert_eq!(ok(".foo['x.y'].f1"), "foo[x.y].f1");
        assert_eq!(ok(".q['x\\'y']"), "q.x'y");
        assert_eq!(ok(".q['c\\a']"), "q.c\u{7}");
        assert_eq!(ok(".m.anything"), "m[anything]");
        assert_eq!(ok(""), "<nil>");
    }

    #[test]
    fn reports_kubernetes_errors() {
        assert_eq!(err(".a.foo"), "does not refer to a valid field");
        assert_eq!(err(".a..b"), "does not refer to a valid field");
        assert_eq!(err(".list.a"), "does not refer to a valid field");
        assert_eq!(err(".m.x.y"), "does not refer to a valid field");
        assert_eq!(err(".list[1]"), "expected single quoted string but got 1");
        assert_eq!(err(".list[1.0]"), "expected single quoted string but got 1");
        assert_eq!(err(".list[-1]"), "expected single quoted string but got -1");
        assert_eq!(err("a"), "expected [ or . but got: a");
        assert_eq!(err("   "), "expected [ or . but got:    ");
        assert_eq!(err("."), "unexpected end of JSON path");
        assert_eq!(err(".a["), "unexpected end of JSON path");
        assert_eq!(err(".a['bbb'"), "unexpected end of JSON path");
        assert_eq!(err(".a['bbb'.c"), "expected ] but got .");
        assert_eq!(err(".a['bbb"), "expected single quoted string but got 'bbb");
        assert_eq!(err(".a['b\\x']"), "invalid string literal: invalid escape char \\x");
    }

    #[test]
    fn unescaping_follows_go() {
        assert_eq!(unescape_single_quote("a\\\\b\\t").as_deref(), Ok("a\\b\t"));
        assert_eq!(unescape_single_quote("a\\\nb").as_deref(), Ok("a\\\nb"));
        assert_eq!(unescape_single_quote("end\\").as_deref(), Ok("end\\"));
        assert_eq!(unescape_single_quote("\\x\\é"), Err('é'));
    }

    #[test]
    fn odd_input_is_an_error_not_a_panic() {
        for p in ["'", "['", "[']", "]", "[]", ".é", "['é']", "\\", ".a['\\'"] {
            assert!(resolve(&schema(), p).is_err(), "{p} resolved");
        }
    }
}
