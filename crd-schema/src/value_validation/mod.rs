//! Value validation of custom resources against their schema, as the API
//! server does it: `k8s.io/apiextensions-apiserver/pkg/apiserver/validation`
//! on top of kube-openapi's `validate` package, with Kubernetes' mapping of
//! the results to field errors.
//!
//! Entry points:
//! - [`validate`]: validate one value (a whole object, or the `status` of a
//!   status request) under a path prefix;
//! - [`Validator`]: the same with the schema prepared once, for a chosen
//!   [`CompatibilityVersion`] (which decides the recognised formats);
//! - [`unrecognized_formats`] / [`is_recognized_format`]: Kubernetes'
//!   `GetUnrecognizedFormats`, the format recognition the CRD API warns
//!   about.
//!
//! Error policy: every problem found in the value is a
//! [`FieldError`](crate::field::FieldError) rendered byte for byte as
//! Kubernetes renders it; identical messages are reported once. Nothing
//! here panics, whatever the value or schema (huge numbers, hostile
//! patterns, deep nesting within the JSON decoder's limits). A `pattern`
//! Go accepts but the `regex` crate cannot compile within its size budget
//! is treated as not matching. Where Go's behaviour depends on the
//! platform (out-of-range float to integer conversions of bounds), amd64
//! is reproduced.
//!
//! How it is organised, mirroring kube-openapi's validators:
//! - `schema.rs`: the schema as the validator sees it (int-or-string typed
//!   `[integer, string]`, unsupported formats stripped);
//! - `walk.rs`: one node: the validators in kube-openapi's order, and the
//!   object and array validators;
//! - `types.rs`, `junctors.rs`, `strings.rs` (+ `pattern.rs`, Go regular
//!   expressions on the `regex` crate), `formats/`, `numbers.rs`,
//!   `enums.rs`: the individual validators;
//! - `outcome.rs`: kube-openapi's `Result` (messages and match counts);
//! - `errors.rs`: the message → field error mapping of
//!   `kubeOpenAPIResultToFieldErrors`.

mod enums;
mod errors;
mod formats;
mod junctors;
mod numbers;
mod outcome;
mod pattern;
mod schema;
mod strings;
mod types;
mod walk;

use serde_json::Value;

use crate::field::{ErrorList, Path};
use crate::structural::Structural;

pub(crate) use errors::go_decoded;
#[cfg_attr(not(feature = "cel"), allow(unused_imports))]
pub(crate) use formats::go_duration_nanos;
pub use formats::{is_recognized_format, unrecognized_formats};

/// The Kubernetes version whose behaviour is reproduced; it decides which
/// formats are recognised (`k8s-short-name` and `k8s-long-name` from 1.34).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CompatibilityVersion {
    /// Major version (`1`).
    pub major: u32,
    /// Minor version (`34`).
    pub minor: u32,
}

impl CompatibilityVersion {
    /// A version that recognises every format this module knows.
    pub const LATEST: CompatibilityVersion = CompatibilityVersion { major: 1, minor: 34 };

    /// `major.minor` (a patch part, `1.34.2`, is ignored); `None` when the
    /// text is not such a version.
    pub fn parse(text: &str) -> Option<Self> {
        let mut parts = text.trim_start_matches('v').split('.');
        let major = parts.next()?.parse().ok()?;
        let minor = parts.next()?.parse().ok()?;
        Some(Self { major, minor })
    }
}

impl Default for CompatibilityVersion {
    fn default() -> Self {
        Self::LATEST
    }
}

/// A schema prepared for value validation (kube-openapi's
/// `SchemaValidator` built by `NewSchemaValidatorForVersion`).
#[derive(Clone, Debug)]
pub struct Validator {
    root: schema::Node,
}

impl Validator {
    /// Prepares `schema` with every format of [`CompatibilityVersion::LATEST`].
    pub fn new(schema: &Structural) -> Self {
        Self::for_version(schema, CompatibilityVersion::LATEST)
    }

    /// Prepares `schema` for the formats recognised at `version`.
    pub fn for_version(schema: &Structural, version: CompatibilityVersion) -> Self {
        Self { root: schema::Node::from_structural(schema, version) }
    }

    /// Validates `value`; errors are reported under `prefix` (the empty path
    /// for objects, `status` for the status subresource).
    pub fn validate(&self, value: &Value, prefix: &Path) -> ErrorList {
        let outcome = walk::validate_node(&self.root, &walk::At::Root, value);
        outcome.messages.iter().map(|m| errors::to_field_error(m, prefix)).collect()
    }
}

/// Validates `value` against `schema` as the API server validates a custom
/// resource, with every format of the latest version; errors are reported
/// under `prefix`.
pub fn validate(value: &Value, schema: &Structural, prefix: &Path) -> ErrorList {
    Validator::new(schema).validate(value, prefix)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::structural::new_structural;
    use crate::wire::JSONSchemaProps;
    use serde_json::json;

    fn texts(schema: Value, value: Value) -> Vec<String> {
        let s = new_structural(&JSONSchemaProps::from_value(&schema).unwrap()).unwrap();
        validate(&value, &s, &Path::root()).iter().map(ToString::to_string).collect()
    }

    #[test]
    fn versions_parse() {
        assert_eq!(CompatibilityVersion::parse("1.34"), Some(CompatibilityVersion { major: 1, minor: 34 }));
        assert_eq!(CompatibilityVersion::parse("v1.2.3"), Some(CompatibilityVersion { major: 1, minor: 2 }));
        assert_eq!(CompatibilityVersion::parse("1"), None);
        assert!(CompatibilityVersion::parse("1.33").unwrap() < CompatibilityVersion::LATEST);
    }

    #[test]
    fn valid_object_has_no_errors() {
        let schema = json!({"type": "object", "properties": {"a": {"type": "string"}}});
        assert!(texts(schema, json!({"a": "x", "b": 1})).is_empty());
    }

    #[test]
    fn prefix_is_prepended() {
        let s = new_structural(
            &JSONSchemaProps::from_value(&json!({"type": "object", "properties": {"a": {"type": "string"}}})).unwrap(),
        )
        .unwrap();
        let errors = validate(&json!({"a": 1}), &s, &Path::new("status"));
        assert_eq!(
            errors[0].to_string(),
            "status.a: Invalid value: \"integer\": a in body must be of type string: \"integer\""
        );
    }

    #[test]
    fn root_errors_name_an_empty_path() {
        let got = texts(json!({"type": "object"}), json!("x"));
        assert_eq!(got, vec!["<nil>: Invalid value: \"string\":  in body must be of type object: \"string\""]);
    }

    #[test]
    fn deep_values_do_not_exhaust_the_stack() {
        let (mut schema, mut value) = (json!({"type": "string", "pattern": "^x$"}), json!("y"));
        for _ in 0..256 {
            schema = json!({"type": "object", "properties": {"a": schema}, "anyOf": [{"required": ["a"]}]});
            value = json!({"a": value});
        }
        let got = texts(schema, value);
        assert_eq!(got.len(), 1);
        assert!(got[0].ends_with("in body should match '^x$'"), "{got:?}");
    }

    #[test]
    fn hostile_numbers_and_strings() {
        let schema = json!({"type": "object", "properties": {
            "i": {"type": "integer", "format": "int32", "minimum": -1e300, "maximum": 1e300, "multipleOf": 1e-300},
            "n": {"type": "number", "format": "float", "multipleOf": 3.0},
            "s": {"type": "string", "format": "duration", "pattern": "(a+)+$"}}});
        let value = json!({"i": 18446744073709551615u64, "n": -1.7976931348623157e308, "s": "a".repeat(10_000) + "!"});
        assert!(!texts(schema, value).is_empty());
    }

    #[test]
    fn identical_messages_are_reported_once() {
        let schema = json!({"type": "object", "properties": {"f": {"type": "string",
            "allOf": [{"pattern": "^a"}, {"pattern": "^a"}]}}});
        let got = texts(schema, json!({"f": "b"}));
        assert_eq!(got.len(), 2, "{got:?}");
    }
}
