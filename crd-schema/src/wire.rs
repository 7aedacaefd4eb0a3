//! The wire model: `JSONSchemaProps` exactly as a CRD writes it.
//!
//! Entry points: [`JSONSchemaProps::decode`] (from a JSON value, collecting
//! every problem with its JSON path) and [`JSONSchemaProps::to_value`].
//!
//! Every keyword of apiextensions' `JSONSchemaProps` is held, including the
//! ones CRDs forbid, so checks can name them. Maps keep the author's order.
//! Decoding follows Go's `encoding/json` into the v1 types: `null` is the
//! zero value, a wrong JSON type is an error, and keys that are not keywords
//! are reported as unknown fields (as strict field validation does).

use serde_json::{Map, Value};

use crate::yaml::Step;

/// An ordered map of schemas (`properties`, `definitions`, ...).
pub type SchemaMap = Vec<(String, JSONSchemaProps)>;

/// Looks up `key` in an ordered schema map.
pub fn get<'a>(map: &'a SchemaMap, key: &str) -> Option<&'a JSONSchemaProps> {
    map.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

/// `items`: one schema, or the (forbidden) tuple form.
#[derive(Clone, Debug, PartialEq)]
pub enum SchemaOrArray {
    /// `items: {...}`
    Schema(Box<JSONSchemaProps>),
    /// `items: [...]`
    Array(Vec<JSONSchemaProps>),
}

/// `additionalProperties` / `additionalItems`: a boolean or a schema.
#[derive(Clone, Debug, PartialEq)]
pub enum SchemaOrBool {
    /// `true` / `false`
    Bool(bool),
    /// A schema.
    Schema(Box<JSONSchemaProps>),
}

/// A `dependencies` entry: a schema or a list of property names.
#[derive(Clone, Debug, PartialEq)]
pub enum SchemaOrStringArray {
    /// A schema.
    Schema(Box<JSONSchemaProps>),
    /// Property names.
    Strings(Vec<String>),
}

/// `externalDocs`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ExternalDocumentation {
    /// `description`
    pub description: String,
    /// `url`
    pub url: String,
}

/// One `x-kubernetes-validations` rule.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ValidationRule {
    /// `rule`
    pub rule: String,
    /// `message`
    pub message: String,
    /// `messageExpression`
    pub message_expression: String,
    /// `reason` (absent is `None`)
    pub reason: Option<String>,
    /// `fieldPath`
    pub field_path: String,
    /// `optionalOldSelf` (absent is `None`)
    pub optional_old_self: Option<bool>,
}

/// A CRD schema node with every keyword Kubernetes knows.
///
/// Go value fields (strings, booleans) use their zero value for "absent";
/// Go pointer, slice and map fields are `Option`s so that an explicitly
/// empty list stays distinguishable from an absent one.
#[allow(missing_docs)]
#[derive(Clone, Debug, Default, PartialEq)]
pub struct JSONSchemaProps {
    pub id: String,
    pub schema: String,
    pub ref_: Option<String>,
    pub description: String,
    pub type_: String,
    pub format: String,
    pub title: String,
    pub default: Option<Value>,
    pub maximum: Option<f64>,
    pub exclusive_maximum: bool,
    pub minimum: Option<f64>,
    pub exclusive_minimum: bool,
    pub max_length: Option<i64>,
    pub min_length: Option<i64>,
    pub pattern: String,
    pub max_items: Option<i64>,
    pub min_items: Option<i64>,
    pub unique_items: bool,
    pub multiple_of: Option<f64>,
    pub enum_: Option<Vec<Value>>,
    pub max_properties: Option<i64>,
    pub min_properties: Option<i64>,
    pub required: Option<Vec<String>>,
    pub items: Option<SchemaOrArray>,
    pub all_of: Option<Vec<JSONSchemaProps>>,
    pub one_of: Option<Vec<JSONSchemaProps>>,
    pub any_of: Option<Vec<JSONSchemaProps>>,
    pub not: Option<Box<JSONSchemaProps>>,
    pub properties: Option<SchemaMap>,
    pub additional_properties: Option<SchemaOrBool>,
    pub pattern_properties: Option<SchemaMap>,
    pub dependencies: Option<Vec<(String, SchemaOrStringArray)>>,
    pub additional_items: Option<SchemaOrBool>,
    pub definitions: Option<SchemaMap>,
    pub external_docs: Option<ExternalDocumentation>,
    pub example: Option<Value>,
    pub nullable: bool,
    pub x_preserve_unknown_fields: Option<bool>,
    pub x_embedded_resource: bool,
    pub x_int_or_string: bool,
    pub x_list_map_keys: Option<Vec<String>>,
    pub x_list_type: Option<String>,
    pub x_map_type: Option<String>,
    pub x_validations: Option<Vec<ValidationRule>>,
}

/// A problem met while decoding a schema from JSON.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeIssue {
    /// Where, relative to the decoded value.
    pub path: Vec<Step>,
    /// What: a type mismatch or an unknown field.
    pub kind: DecodeIssueKind,
}

/// The kind of a [`DecodeIssue`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeIssueKind {
    /// The value has the wrong JSON type; the text names the expected one.
    WrongType(String),
    /// A key that is not a keyword.
    UnknownField,
}

impl DecodeIssue {
    /// Renders the path as Kubernetes' strict decoder does (`.a.b[0]`).
    pub fn path_text(&self, prefix: &str) -> String {
        let mut s = prefix.to_owned();
        for step in &self.path {
            match step {
                Step::Key(k) => {
                    s.push('.');
                    s.push_str(k);
                }
                Step::Index(i) => s.push_str(&format!("[{i}]")),
            }
        }
        s
    }

    /// A one-line message with `prefix` as the path of the decoded value.
    pub fn message(&self, prefix: &str) -> String {
        match &self.kind {
            DecodeIssueKind::WrongType(expected) => {
                format!("{}: cannot decode: expected {expected}", self.path_text(prefix))
            }
            DecodeIssueKind::UnknownField => {
                format!("unknown field \"{}\"", self.path_text(prefix).trim_start_matches('.'))
            }
        }
    }
}

/// The issue as [`DecodeIssue::message`] renders it at the root of the
/// decoded value (`.a.b: cannot decode: expected a string`, `unknown field
/// "a.b"`): the error of [`JSONSchemaProps::from_value`].
impl std::fmt::Display for DecodeIssue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message(""))
    }
}

impl std::error::Error for DecodeIssue {}

/// Collects issues while walking a JSON value that lives for `'v`. The
/// path borrows its keys from the value and is copied only into an issue.
#[derive(Debug, Default)]
pub struct Decoder<'v> {
    path: Vec<Where<'v>>,
    /// Everything found so far.
    pub issues: Vec<DecodeIssue>,
}

/// One step of [`Decoder`]'s path.
#[derive(Clone, Copy, Debug)]
enum Where<'v> {
    Key(&'v str),
    Index(usize),
}

impl<'v> Decoder<'v> {
    /// An issue of `kind` at the current path.
    fn issue(&mut self, kind: DecodeIssueKind) {
        let path = self
            .path
            .iter()
            .map(|step| match *step {
                Where::Key(key) => Step::key(key),
                Where::Index(index) => Step::Index(index),
            })
            .collect();
        self.issues.push(DecodeIssue { path, kind });
    }

    fn wrong(&mut self, expected: &str) {
        self.issue(DecodeIssueKind::WrongType(expected.to_owned()));
    }

    fn in_key<T>(&mut self, key: &'v str, f: impl FnOnce(&mut Self) -> T) -> T {
        self.path.push(Where::Key(key));
        let out = f(self);
        self.path.pop();
        out
    }

    fn in_index<T>(&mut self, index: usize, f: impl FnOnce(&mut Self) -> T) -> T {
        self.path.push(Where::Index(index));
        let out = f(self);
        self.path.pop();
        out
    }

    /// Go string: `null` is `""`.
    pub fn string(&mut self, v: &'v Value) -> String {
        match v {
            Value::String(s) => s.clone(),
            Value::Null => String::new(),
            _ => {
                self.wrong("a string");
                String::new()
            }
        }
    }

    fn opt_string(&mut self, v: &'v Value) -> Option<String> {
        if v.is_null() { None } else { Some(self.string(v)) }
    }

    /// Go bool: `null` is `false`.
    pub fn bool(&mut self, v: &'v Value) -> bool {
        match v {
            Value::Bool(b) => *b,
            Value::Null => false,
            _ => {
                self.wrong("a boolean");
                false
            }
        }
    }

    fn opt_bool(&mut self, v: &'v Value) -> Option<bool> {
        if v.is_null() { None } else { Some(self.bool(v)) }
    }

    fn opt_f64(&mut self, v: &'v Value) -> Option<f64> {
        match v {
            Value::Null => None,
            Value::Number(n) => n.as_f64(),
            _ => {
                self.wrong("a number");
                None
            }
        }
    }

    fn opt_i64(&mut self, v: &'v Value) -> Option<i64> {
        match v {
            Value::Null => None,
            Value::Number(n) if n.as_i64().is_some() => n.as_i64(),
            _ => {
                self.wrong("an integer");
                None
            }
        }
    }

    fn list<T>(&mut self, v: &'v Value, mut item: impl FnMut(&mut Self, &'v Value) -> T) -> Option<Vec<T>> {
        match v {
            Value::Null => None,
            Value::Array(items) => {
                Some(items.iter().enumerate().map(|(i, x)| self.in_index(i, |d| item(d, x))).collect())
            }
            _ => {
                self.wrong("a list");
                None
            }
        }
    }

    fn map<T>(&mut self, v: &'v Value, mut item: impl FnMut(&mut Self, &'v Value) -> T) -> Option<Vec<(String, T)>> {
        match v {
            Value::Null => None,
            Value::Object(map) => Some(map.iter().map(|(k, x)| (k.clone(), self.in_key(k, |d| item(d, x)))).collect()),
            _ => {
                self.wrong("an object");
                None
            }
        }
    }

    fn schema_or_bool(&mut self, v: &'v Value) -> Option<SchemaOrBool> {
        match v {
            Value::Null => None,
            Value::Bool(b) => Some(SchemaOrBool::Bool(*b)),
            _ => Some(SchemaOrBool::Schema(Box::new(self.schema(v)))),
        }
    }

    /// Decodes one schema node.
    pub fn schema(&mut self, v: &'v Value) -> JSONSchemaProps {
        let mut s = JSONSchemaProps::default();
        let Value::Object(map) = v else {
            if !v.is_null() {
                self.wrong("a schema object");
            }
            return s;
        };
        for (key, value) in map {
            self.in_key(key, |d| d.keyword(&mut s, key, value));
        }
        s
    }

    fn keyword(&mut self, s: &mut JSONSchemaProps, key: &str, v: &'v Value) {
        match key {
            "id" => s.id = self.string(v),
            "$schema" => s.schema = self.string(v),
            "$ref" => s.ref_ = self.opt_string(v),
            "description" => s.description = self.string(v),
            "type" => s.type_ = self.string(v),
            "format" => s.format = self.string(v),
            "title" => s.title = self.string(v),
            "default" => s.default = (!v.is_null()).then(|| v.clone()),
            "maximum" => s.maximum = self.opt_f64(v),
            "exclusiveMaximum" => s.exclusive_maximum = self.bool(v),
            "minimum" => s.minimum = self.opt_f64(v),
            "exclusiveMinimum" => s.exclusive_minimum = self.bool(v),
            "maxLength" => s.max_length = self.opt_i64(v),
            "minLength" => s.min_length = self.opt_i64(v),
            "pattern" => s.pattern = self.string(v),
            "maxItems" => s.max_items = self.opt_i64(v),
            "minItems" => s.min_items = self.opt_i64(v),
            "uniqueItems" => s.unique_items = self.bool(v),
            "multipleOf" => s.multiple_of = self.opt_f64(v),
            "enum" => s.enum_ = self.list(v, |_, x| x.clone()),
            "maxProperties" => s.max_properties = self.opt_i64(v),
            "minProperties" => s.min_properties = self.opt_i64(v),
            "required" => s.required = self.list(v, Self::string),
            "items" => {
                s.items = match v {
                    Value::Null => None,
                    Value::Array(_) => self.list(v, Self::schema).map(SchemaOrArray::Array),
                    _ => Some(SchemaOrArray::Schema(Box::new(self.schema(v)))),
                }
            }
            "allOf" => s.all_of = self.list(v, Self::schema),
            "oneOf" => s.one_of = self.list(v, Self::schema),
            "anyOf" => s.any_of = self.list(v, Self::schema),
            "not" => s.not = (!v.is_null()).then(|| Box::new(self.schema(v))),
            "properties" => s.properties = self.map(v, Self::schema),
            "additionalProperties" => s.additional_properties = self.schema_or_bool(v),
            "patternProperties" => s.pattern_properties = self.map(v, Self::schema),
            "dependencies" => {
                s.dependencies = self.map(v, |d, x| match x {
                    Value::Array(_) => SchemaOrStringArray::Strings(d.list(x, Self::string).unwrap_or_default()),
                    _ => SchemaOrStringArray::Schema(Box::new(d.schema(x))),
                })
            }
            "additionalItems" => s.additional_items = self.schema_or_bool(v),
            "definitions" => s.definitions = self.map(v, Self::schema),
            "externalDocs" => s.external_docs = self.external_docs(v),
            "example" => s.example = (!v.is_null()).then(|| v.clone()),
            "nullable" => s.nullable = self.bool(v),
            "x-kubernetes-preserve-unknown-fields" => s.x_preserve_unknown_fields = self.opt_bool(v),
            "x-kubernetes-embedded-resource" => s.x_embedded_resource = self.bool(v),
            "x-kubernetes-int-or-string" => s.x_int_or_string = self.bool(v),
            "x-kubernetes-list-map-keys" => s.x_list_map_keys = self.list(v, Self::string),
            "x-kubernetes-list-type" => s.x_list_type = self.opt_string(v),
            "x-kubernetes-map-type" => s.x_map_type = self.opt_string(v),
            "x-kubernetes-validations" => s.x_validations = self.list(v, Self::rule),
            _ => self.issue(DecodeIssueKind::UnknownField),
        }
    }

    fn external_docs(&mut self, v: &'v Value) -> Option<ExternalDocumentation> {
        let Value::Object(map) = v else {
            if !v.is_null() {
                self.wrong("an object");
            }
            return None;
        };
        let mut docs = ExternalDocumentation::default();
        for (key, value) in map {
            self.in_key(key, |d| match key.as_str() {
                "description" => docs.description = d.string(value),
                "url" => docs.url = d.string(value),
                _ => d.issue(DecodeIssueKind::UnknownField),
            });
        }
        Some(docs)
    }

    fn rule(&mut self, v: &'v Value) -> ValidationRule {
        let mut rule = ValidationRule::default();
        let Value::Object(map) = v else {
            if !v.is_null() {
                self.wrong("an object");
            }
            return rule;
        };
        for (key, value) in map {
            self.in_key(key, |d| match key.as_str() {
                "rule" => rule.rule = d.string(value),
                "message" => rule.message = d.string(value),
                "messageExpression" => rule.message_expression = d.string(value),
                "reason" => rule.reason = d.opt_string(value),
                "fieldPath" => rule.field_path = d.string(value),
                "optionalOldSelf" => rule.optional_old_self = d.opt_bool(value),
                _ => d.issue(DecodeIssueKind::UnknownField),
            });
        }
        rule
    }
}

impl JSONSchemaProps {
    /// Decodes a schema, returning it together with every problem found.
    /// The schema is decoded best-effort even when there are problems.
    pub fn decode(v: &Value) -> (Self, Vec<DecodeIssue>) {
        let mut decoder = Decoder::default();
        let schema = decoder.schema(v);
        (schema, decoder.issues)
    }

    /// Decodes a schema that is known to be well-formed (test data); the
    /// first problem is the error.
    pub fn from_value(v: &Value) -> Result<Self, DecodeIssue> {
        let (schema, issues) = Self::decode(v);
        match issues.into_iter().next() {
            None => Ok(schema),
            Some(issue) => Err(issue),
        }
    }

    /// The schema as JSON, keywords in Kubernetes' field order, zero values
    /// omitted.
    pub fn to_value(&self) -> Value {
        let mut m = Map::new();
        let s = |m: &mut Map<String, Value>, k: &str, v: &str| {
            if !v.is_empty() {
                m.insert(k.to_owned(), Value::String(v.to_owned()));
            }
        };
        let b = |m: &mut Map<String, Value>, k: &str, v: bool| {
            if v {
                m.insert(k.to_owned(), Value::Bool(true));
            }
        };
        let o = |m: &mut Map<String, Value>, k: &str, v: Option<Value>| {
            if let Some(v) = v {
                m.insert(k.to_owned(), v);
            }
        };
        let f = |x: f64| crate::gofmt::json_number(x).map(Value::Number);
        let list = |v: &[JSONSchemaProps]| Value::Array(v.iter().map(Self::to_value).collect());
        let map = |v: &SchemaMap| Value::Object(v.iter().map(|(k, x)| (k.clone(), x.to_value())).collect());
        let sob = |v: &SchemaOrBool| match v {
            SchemaOrBool::Bool(b) => Value::Bool(*b),
            SchemaOrBool::Schema(x) => x.to_value(),
        };
        let strings = |v: &[String]| Value::Array(v.iter().cloned().map(Value::String).collect());
        s(&mut m, "id", &self.id);
        s(&mut m, "$schema", &self.schema);
        o(&mut m, "$ref", self.ref_.clone().map(Value::String));
        s(&mut m, "description", &self.description);
        s(&mut m, "type", &self.type_);
        s(&mut m, "format", &self.format);
        s(&mut m, "title", &self.title);
        o(&mut m, "default", self.default.clone());
        o(&mut m, "maximum", self.maximum.and_then(f));
        b(&mut m, "exclusiveMaximum", self.exclusive_maximum);
        o(&mut m, "minimum", self.minimum.and_then(f));
        b(&mut m, "exclusiveMinimum", self.exclusive_minimum);
        o(&mut m, "maxLength", self.max_length.map(Value::from));
        o(&mut m, "minLength", self.min_length.map(Value::from));
        s(&mut m, "pattern", &self.pattern);
        o(&mut m, "maxItems", self.max_items.map(Value::from));
        o(&mut m, "minItems", self.min_items.map(Value::from));
        b(&mut m, "uniqueItems", self.unique_items);
        o(&mut m, "multipleOf", self.multiple_of.and_then(f));
        o(&mut m, "enum", self.enum_.clone().map(Value::Array));
        o(&mut m, "maxProperties", self.max_properties.map(Value::from));
        o(&mut m, "minProperties", self.min_properties.map(Value::from));
        o(&mut m, "required", self.required.as_deref().map(strings));
        o(
            &mut m,
            "items",
            self.items.as_ref().map(|i| match i {
                SchemaOrArray::Schema(x) => x.to_value(),
                SchemaOrArray::Array(v) => list(v),
            }),
        );
        o(&mut m, "allOf", self.all_of.as_deref().map(list));
        o(&mut m, "oneOf", self.one_of.as_deref().map(list));
        o(&mut m, "anyOf", self.any_of.as_deref().map(list));
        o(&mut m, "not", self.not.as_ref().map(|x| x.to_value()));
        o(&mut m, "properties", self.properties.as_ref().map(map));
        o(&mut m, "additionalProperties", self.additional_properties.as_ref().map(sob));
        o(&mut m, "patternProperties", self.pattern_properties.as_ref().map(map));
        o(
            &mut m,
            "dependencies",
            self.dependencies.as_ref().map(|d| {
                Value::Object(
                    d.iter()
                        .map(|(k, x)| {
                            let v = match x {
                                SchemaOrStringArray::Schema(x) => x.to_value(),
                                SchemaOrStringArray::Strings(v) => strings(v),
                            };
                            (k.clone(), v)
                        })
                        .collect(),
                )
            }),
        );
        o(&mut m, "additionalItems", self.additional_items.as_ref().map(sob));
        o(&mut m, "definitions", self.definitions.as_ref().map(map));
        if let Some(docs) = &self.external_docs {
            let mut d = Map::new();
            s(&mut d, "description", &docs.description);
            s(&mut d, "url", &docs.url);
            m.insert("externalDocs".to_owned(), Value::Object(d));
        }
        o(&mut m, "example", self.example.clone());
        b(&mut m, "nullable", self.nullable);
        o(&mut m, "x-kubernetes-preserve-unknown-fields", self.x_preserve_unknown_fields.map(Value::Bool));
        b(&mut m, "x-kubernetes-embedded-resource", self.x_embedded_resource);
        b(&mut m, "x-kubernetes-int-or-string", self.x_int_or_string);
        o(&mut m, "x-kubernetes-list-map-keys", self.x_list_map_keys.as_deref().map(strings));
        o(&mut m, "x-kubernetes-list-type", self.x_list_type.clone().map(Value::String));
        o(&mut m, "x-kubernetes-map-type", self.x_map_type.clone().map(Value::String));
        o(
            &mut m,
            "x-kubernetes-validations",
            self.x_validations.as_ref().map(|rules| Value::Array(rules.iter().map(ValidationRule::to_value).collect())),
        );
        Value::Object(m)
    }
}

impl ValidationRule {
    /// The rule as JSON.
    pub fn to_value(&self) -> Value {
        let mut m = Map::new();
        m.insert("rule".to_owned(), Value::String(self.rule.clone()));
        for (k, v) in [("message", &self.message), ("messageExpression", &self.message_expression)] {
            if !v.is_empty() {
                m.insert(k.to_owned(), Value::String(v.clone()));
            }
        }
        if let Some(reason) = &self.reason {
            m.insert("reason".to_owned(), Value::String(reason.clone()));
        }
        if !self.field_path.is_empty() {
            m.insert("fieldPath".to_owned(), Value::String(self.field_path.clone()));
        }
        if let Some(b) = self.optional_old_self {
            m.insert("optionalOldSelf".to_owned(), Value::Bool(b));
        }
        Value::Object(m)
    }
}

/// Go's JSON form of `[]byte` (`base64.StdEncoding`): standard base64 with
/// padding, where line breaks are skipped and unused trailing bits are
/// accepted. `None` when `text` is not that.
pub fn decode_bytes(text: &str) -> Option<Vec<u8>> {
    use base64::Engine as _;
    use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
    const GO_STD: GeneralPurpose = GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        GeneralPurposeConfig::new()
            .with_decode_allow_trailing_bits(true)
            .with_decode_padding_mode(DecodePaddingMode::RequireCanonical),
    );
    let compact: String = text.chars().filter(|c| !matches!(c, '\r' | '\n')).collect();
    GO_STD.decode(compact).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn bytes_as_go_reads_them() {
        assert_eq!(decode_bytes("Q2c9PQ=="), Some(b"Cg==".to_vec()));
        assert_eq!(decode_bytes("Q2c9\nPQ=="), Some(b"Cg==".to_vec()));
        assert_eq!(decode_bytes("Q2c"), None);
        assert_eq!(decode_bytes("Q2c=!"), None);
    }

    #[test]
    fn decodes_every_shape() {
        let v = json!({
            "type": "object",
            "properties": {"b": {"type": "string"}, "a": {"type": "array", "items": [{"type": "string"}]}},
            "additionalProperties": false,
            "x-kubernetes-preserve-unknown-fields": false,
            "required": [],
            "x-kubernetes-validations": [{"rule": "self.a", "reason": "FieldValueInvalid"}],
            "default": null
        });
        let (s, issues) = JSONSchemaProps::decode(&v);
        assert!(issues.is_empty(), "{issues:?}");
        let props = s.properties.as_ref().unwrap();
        assert_eq!(props[0].0, "b");
        assert!(matches!(get(props, "a").unwrap().items, Some(SchemaOrArray::Array(_))));
        assert_eq!(s.additional_properties, Some(SchemaOrBool::Bool(false)));
        assert_eq!(s.x_preserve_unknown_fields, Some(false));
        assert_eq!(s.required, Some(vec![]));
        assert_eq!(s.default, None);
        assert_eq!(s.x_validations.as_ref().unwrap()[0].reason.as_deref(), Some("FieldValueInvalid"));
    }

    #[test]
    fn reports_wrong_types_and_unknown_fields_with_paths() {
        let v = json!({"properties": {"a": {"minLength": "x", "bogus": 1}}});
        let (_, issues) = JSONSchemaProps::decode(&v);
        let texts: Vec<String> = issues.iter().map(|i| i.message(".spec")).collect();
        assert_eq!(
            texts,
            vec![
                ".spec.properties.a.minLength: cannot decode: expected an integer",
                "unknown field \"spec.properties.a.bogus\""
            ]
        );
    }

    #[test]
    fn from_value_error_displays_the_first_issue() {
        let v = json!({"properties": {"a": {"minLength": "x", "bogus": 1}}});
        let issue = JSONSchemaProps::from_value(&v).unwrap_err();
        assert_eq!(issue.to_string(), ".properties.a.minLength: cannot decode: expected an integer");
        assert_eq!(issue.to_string(), issue.message(""));
    }

    #[test]
    fn to_value_round_trips() {
        let v = json!({"type": "object", "properties": {"x": {"type": "integer", "minimum": 1.5, "enum": [1, 2]}},
            "additionalProperties": {"type": "string"}, "x-kubernetes-list-map-keys": ["a"]});
        let (s, _) = JSONSchemaProps::decode(&v);
        assert_eq!(s.to_value(), v);
    }
}
