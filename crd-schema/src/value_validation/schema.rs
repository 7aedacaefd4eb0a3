//! The schema as kube-openapi's validator sees it, built from the structural
//! form the way `ConvertJSONSchemaPropsWithPostProcess` builds a
//! `spec.Schema`.

use serde_json::Value;

use super::CompatibilityVersion;
use super::formats;
use super::pattern::Pattern;
use crate::structural::{NestedValueValidation, PropertyIndex, Structural, StructuralOrBool, ValueValidation};

/// The kinds of JSON value, by the names `type` gives them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum JsonType {
    Null,
    Boolean,
    Integer,
    Number,
    String,
    Array,
    Object,
}

impl JsonType {
    const ALL: [JsonType; 7] = [
        JsonType::Null,
        JsonType::Boolean,
        JsonType::Integer,
        JsonType::Number,
        JsonType::String,
        JsonType::Array,
        JsonType::Object,
    ];

    /// The name `type` gives this kind.
    pub fn name(self) -> &'static str {
        match self {
            JsonType::Null => "null",
            JsonType::Boolean => "boolean",
            JsonType::Integer => "integer",
            JsonType::Number => "number",
            JsonType::String => "string",
            JsonType::Array => "array",
            JsonType::Object => "object",
        }
    }

    fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// A node's `type` list: the names as written (for messages, and since a
/// schema may name a type no value has), and the kinds of JSON value among
/// them as bits, which the type check of every value reads without
/// following the names to the heap.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Types {
    names: Vec<String>,
    kinds: u8,
}

impl Types {
    pub fn new(names: Vec<String>) -> Self {
        let kinds = JsonType::ALL.iter().filter(|t| names.iter().any(|n| n == t.name())).fold(0, |k, t| k | t.bit());
        Types { names, kinds }
    }

    /// Whether the list names `kind`.
    pub fn has(&self, kind: JsonType) -> bool {
        self.kinds & kind.bit() != 0
    }

    pub fn names(&self) -> &[String] {
        &self.names
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

/// `additionalProperties` of a node.
#[derive(Clone, Debug)]
pub(crate) enum Additional {
    /// `true` or `false`.
    Allows(bool),
    /// A schema for the values of unlisted keys.
    Schema(Box<Node>),
}

/// One schema node with everything the validators read.
#[derive(Clone, Debug, Default)]
pub(crate) struct Node {
    pub types: Types,
    pub nullable: bool,
    /// The format after stripping the ones Kubernetes does not support.
    pub format: String,
    pub maximum: Option<f64>,
    pub exclusive_maximum: bool,
    pub minimum: Option<f64>,
    pub exclusive_minimum: bool,
    pub multiple_of: Option<f64>,
    pub max_length: Option<i64>,
    pub min_length: Option<i64>,
    pub pattern: Pattern,
    pub max_items: Option<i64>,
    pub min_items: Option<i64>,
    pub unique_items: bool,
    pub enum_: Vec<Value>,
    pub max_properties: Option<i64>,
    pub min_properties: Option<i64>,
    pub required: Vec<String>,
    pub properties: Vec<(String, Node)>,
    /// Where each property sits in `properties`, built on first use.
    pub property_index: PropertyIndex,
    pub additional: Option<Additional>,
    pub items: Option<Box<Node>>,
    pub all_of: Vec<Node>,
    pub any_of: Vec<Node>,
    pub one_of: Vec<Node>,
    pub not: Option<Box<Node>>,
}

impl Node {
    /// Converts a structural schema node and everything under it.
    pub fn from_structural(s: &Structural, version: CompatibilityVersion) -> Node {
        let types = types_of(&s.generic.type_, s.extensions.x_int_or_string);
        let mut node = Node::with_validations(types, s.generic.nullable, &s.value_validation, version);
        node.set_properties(s.properties.iter().map(|(k, v)| (k.clone(), Node::from_structural(v, version))));
        node.additional = match &s.additional_properties {
            None => None,
            Some(StructuralOrBool::Bool(b)) => Some(Additional::Allows(*b)),
            Some(StructuralOrBool::Structural(x)) => {
                Some(Additional::Schema(Box::new(Node::from_structural(x, version))))
            }
        };
        node.items = s.items.as_ref().map(|i| Box::new(Node::from_structural(i, version)));
        node
    }

    /// Converts a schema under a junctor. Its `type`, `nullable` and
    /// `x-kubernetes-int-or-string` (forbidden there, except in the
    /// int-or-string pattern) take part in validation like anywhere else.
    fn from_nested(n: &NestedValueValidation, version: CompatibilityVersion) -> Node {
        let generic = &n.forbidden_generics;
        let types = types_of(&generic.type_, n.forbidden_extensions.x_int_or_string);
        let mut node = Node::with_validations(types, generic.nullable, &n.value_validation, version);
        node.set_properties(n.properties().iter().map(|(k, v)| (k.clone(), Node::from_nested(v, version))));
        node.additional =
            n.additional_properties.as_ref().map(|x| Additional::Schema(Box::new(Node::from_nested(x, version))));
        node.items = n.items.as_ref().map(|i| Box::new(Node::from_nested(i, version)));
        node
    }

    // The keywords shared by structural and nested nodes. The format is
    // stripped right away, as Kubernetes' post-processing does per node.
    fn with_validations(
        types: Vec<String>,
        nullable: bool,
        v: &ValueValidation,
        version: CompatibilityVersion,
    ) -> Node {
        let format = formats::strip_unsupported(&v.format, &types, version);
        let types = Types::new(types);
        let nested = |list: &[NestedValueValidation]| list.iter().map(|x| Node::from_nested(x, version)).collect();
        Node {
            nullable,
            format,
            maximum: v.maximum,
            exclusive_maximum: v.exclusive_maximum,
            minimum: v.minimum,
            exclusive_minimum: v.exclusive_minimum,
            multiple_of: v.multiple_of,
            max_length: v.max_length,
            min_length: v.min_length,
            pattern: Pattern::new(v.pattern.as_str()),
            max_items: v.max_items,
            min_items: v.min_items,
            unique_items: v.unique_items,
            enum_: v.enum_.clone(),
            max_properties: v.max_properties,
            min_properties: v.min_properties,
            required: v.required.clone().unwrap_or_default(),
            all_of: nested(&v.all_of),
            any_of: nested(&v.any_of),
            one_of: nested(&v.one_of),
            not: v.not.as_ref().map(|x| Box::new(Node::from_nested(x, version))),
            types,
            ..Node::default()
        }
    }

    // A name given twice keeps its first place and takes its last schema.
    fn set_properties(&mut self, properties: impl Iterator<Item = (String, Node)>) {
        let mut places: foldhash::HashMap<String, usize> = foldhash::HashMap::default();
        for (name, node) in properties {
            if let Some(&i) = places.get(&name) {
                self.properties[i].1 = node;
            } else {
                places.insert(name.clone(), self.properties.len());
                self.properties.push((name, node));
            }
        }
    }

    /// Whether `name` is a declared property.
    pub fn has_property(&self, name: &str) -> bool {
        self.property_position(name).is_some()
    }

    /// Where property `name` sits in `properties`.
    pub fn property_position(&self, name: &str) -> Option<usize> {
        self.property_index.position(&self.properties, name)
    }

    /// The single type, or `""` with none or several (what kube-openapi's
    /// number validator is given).
    pub fn single_type(&self) -> &str {
        match self.types.names() {
            [t] => t,
            _ => "",
        }
    }
}

// `x-kubernetes-int-or-string` replaces the type by `[integer, string]`.
fn types_of(type_: &str, int_or_string: bool) -> Vec<String> {
    if int_or_string {
        vec!["integer".to_owned(), "string".to_owned()]
    } else if type_.is_empty() {
        Vec::new()
    } else {
        vec![type_.to_owned()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use serde_json::json;

    fn node(v: Value) -> Node {
        let s = Structural::from_json(&v).unwrap();
        Node::from_structural(&s, CompatibilityVersion::LATEST)
    }

    #[test]
    fn int_or_string_is_typed() {
        let n = node(json!({"x-kubernetes-int-or-string": true, "anyOf": [{"type": "integer"}]}));
        assert_eq!(n.types.names(), ["integer", "string"]);
        assert!(n.types.has(JsonType::Integer) && n.types.has(JsonType::String) && !n.types.has(JsonType::Number));
        assert_eq!(n.single_type(), "");
        assert_eq!(n.any_of[0].single_type(), "integer");
    }

    #[test]
    fn formats_are_stripped_per_node() {
        let n = node(json!({"type": "object", "properties": {"a": {"type": "integer", "format": "date"},
            "b": {"type": "string", "format": "date-time"}}}));
        assert_eq!(n.properties[0].1.format, "");
        assert_eq!(n.properties[1].1.format, "date-time");
        assert!(n.has_property("b") && !n.has_property("c"));
    }

    #[test]
    fn additional_properties_forms() {
        let n = node(json!({"type": "object", "additionalProperties": false}));
        assert!(matches!(n.additional, Some(Additional::Allows(false))));
        let n = node(json!({"type": "object", "additionalProperties": {"type": "string"}}));
        assert!(matches!(n.additional, Some(Additional::Schema(_))));
    }
}
