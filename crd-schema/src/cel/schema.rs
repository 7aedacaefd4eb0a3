//! The schema as CEL sees it (`k8s.io/apiserver/pkg/cel/common.SchemaDeclType`).
//!
//! A [`Node`] is a structural schema node plus whether it is the root of a
//! resource (the custom resource itself or an
//! `x-kubernetes-embedded-resource`). At such a root `apiVersion`, `kind`,
//! `metadata.name` and `metadata.generateName` are always reachable: unless
//! the schema already declares all four as strings (and `metadata` as an
//! object), the three properties are replaced by those plain declarations
//! (`WithTypeAndObjectMeta`), which also hides every other `metadata` field
//! from rules; `name` and `generateName` then have the lengths of a DNS
//! subdomain (253 and 252), which bounds the estimated cost of rules on
//! them. (Kubernetes keeps a shorter `maxLength` the schema declares for
//! them; here the caps always apply.)
//!
//! [`decl`] gives the CEL type of a node, or `None` where a node is not
//! exposed to CEL (no type, `x-kubernetes-preserve-unknown-fields` without
//! a type, arrays and maps of unexposed schemas); [`field`] resolves a field
//! selection on an object type, honouring the property-name escaping.

use std::sync::OnceLock;

use super::escape;
use crate::structural::{Generic, Structural};

/// One schema node as CEL sees it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node<'s> {
    pub schema: &'s Structural,
    /// The node is the root of a resource, so its type and object meta
    /// are always declared.
    pub resource: bool,
}

impl<'s> Node<'s> {
    pub fn new(schema: &'s Structural, resource: bool) -> Self {
        Self { schema, resource }
    }

    /// A child node: resources start again at embedded resources.
    fn child(schema: &'s Structural) -> Self {
        Self { schema, resource: schema.extensions.x_embedded_resource }
    }

    pub fn items(self) -> Option<Node<'s>> {
        self.schema.items.as_deref().map(Node::child)
    }

    pub fn additional_properties(self) -> Option<Node<'s>> {
        self.schema.additional_properties_schema().map(Node::child)
    }

    /// Whether the type and object meta of a resource root are replaced by
    /// the plain declarations.
    fn meta_overlay(self) -> bool {
        self.resource && !declares_type_and_object_meta(self.schema)
    }

    /// The schema of property `name` (the JSON key), with the meta overlay
    /// of a resource root applied.
    pub fn property(self, name: &str) -> Option<Node<'s>> {
        if self.meta_overlay() {
            match name {
                "kind" | "apiVersion" => return Some(Node::new(&meta().string, false)),
                "metadata" => return Some(Node::new(&meta().metadata, false)),
                _ => {}
            }
        }
        self.schema.property(name).map(Node::child)
    }

    /// The property whose JSON key satisfies `pred`, overlay applied.
    pub fn find_property(self, pred: impl Fn(&str) -> bool) -> Option<(&'s str, Node<'s>)> {
        let overlay = self.meta_overlay();
        if overlay && let Some(k) = ["kind", "apiVersion", "metadata"].into_iter().find(|k| pred(k)) {
            return self.property(k).map(|node| (k, node));
        }
        let is_meta = |k: &str| overlay && matches!(k, "kind" | "apiVersion" | "metadata");
        self.schema.properties.iter().find(|(k, _)| !is_meta(k) && pred(k)).map(|(k, v)| (k.as_str(), Node::child(v)))
    }

    /// Every property (JSON key and node), overlay applied.
    pub fn properties(self) -> Vec<(&'s str, Node<'s>)> {
        let mut out: Vec<(&'s str, Node<'s>)> = Vec::new();
        let overlay = self.meta_overlay();
        for (k, v) in &self.schema.properties {
            if !(overlay && matches!(k.as_str(), "kind" | "apiVersion" | "metadata")) {
                out.push((k.as_str(), Node::child(v)));
            }
        }
        if overlay {
            for k in ["kind", "apiVersion", "metadata"] {
                if let Some(node) = self.property(k) {
                    out.push((k, node));
                }
            }
        }
        out
    }

    /// Whether values of this node are objects with declared properties
    /// (as opposed to maps under `additionalProperties`).
    pub fn has_properties(self) -> bool {
        self.resource || !self.schema.properties.is_empty()
    }

    pub fn type_(self) -> &'s str {
        if self.resource && self.schema.generic.type_.is_empty() { "object" } else { &self.schema.generic.type_ }
    }

    pub fn format(self) -> &'s str {
        &self.schema.value_validation.format
    }
}

/// The plain declarations of the overlay.
struct Meta {
    string: Structural,
    metadata: Structural,
}

fn meta() -> &'static Meta {
    static META: OnceLock<Meta> = OnceLock::new();
    META.get_or_init(|| {
        let typed = |t: &str| Structural {
            generic: Generic { type_: t.to_owned(), ..Generic::default() },
            ..Structural::default()
        };
        // Names are DNS subdomains (at most 253 bytes); a generated name
        // adds at least one byte to `generateName`.
        let capped = |max_length: i64| {
            let mut s = typed("string");
            s.value_validation.max_length = Some(max_length);
            s
        };
        let mut metadata = typed("object");
        metadata.properties = vec![("name".to_owned(), capped(253)), ("generateName".to_owned(), capped(252))];
        Meta { string: typed("string"), metadata }
    })
}

// `kind` and `apiVersion` typed string, `metadata` typed object with
// `name` and `generateName` typed string.
fn declares_type_and_object_meta(s: &Structural) -> bool {
    let typed = |s: Option<&Structural>, t: &str| s.is_some_and(|s| s.generic.type_ == t);
    let metadata = s.property("metadata");
    typed(s.property("kind"), "string")
        && typed(s.property("apiVersion"), "string")
        && typed(metadata, "object")
        && metadata.is_some_and(|m| !m.properties.is_empty())
        && typed(metadata.and_then(|m| m.property("name")), "string")
        && typed(metadata.and_then(|m| m.property("generateName")), "string")
}

/// A CEL type, as far as the checks need one.
#[derive(Clone, Debug)]
pub(crate) enum Ty<'s> {
    Dyn,
    Null,
    Bool,
    Int,
    Uint,
    Double,
    String,
    Bytes,
    Duration,
    Timestamp,
    List(Box<Ty<'s>>),
    Map(Box<Ty<'s>>, Box<Ty<'s>>),
    /// An object with declared properties.
    Object(Node<'s>),
    Optional(Box<Ty<'s>>),
    /// A type value (`int`, `type(x)`).
    Type,
    /// A value of a Kubernetes library type (`quantity`, `ip`, `url`, ...).
    Opaque(&'static str),
}

impl Ty<'_> {
    /// cel-go's name of the type, for error messages.
    pub fn name(&self) -> String {
        match self {
            Ty::Dyn => "dyn".to_owned(),
            Ty::Null => "null_type".to_owned(),
            Ty::Bool => "bool".to_owned(),
            Ty::Int => "int".to_owned(),
            Ty::Uint => "uint".to_owned(),
            Ty::Double => "double".to_owned(),
            Ty::String => "string".to_owned(),
            Ty::Bytes => "bytes".to_owned(),
            Ty::Duration => "google.protobuf.Duration".to_owned(),
            Ty::Timestamp => "google.protobuf.Timestamp".to_owned(),
            Ty::List(e) => format!("list({})", e.name()),
            Ty::Map(k, v) => format!("map({}, {})", k.name(), v.name()),
            // Kubernetes names object types after a generated, unstable
            // name (`selfType123...`); `object` stands in for it.
            Ty::Object(_) => "object".to_owned(),
            Ty::Optional(t) => format!("optional_type({})", t.name()),
            Ty::Type => "type".to_owned(),
            Ty::Opaque(name) => (*name).to_owned(),
        }
    }

    pub fn is_dyn(&self) -> bool {
        matches!(self, Ty::Dyn)
    }
}

/// The CEL type of `node`, or `None` when the node is not exposed.
pub(crate) fn decl(node: Node<'_>) -> Option<Ty<'_>> {
    let s = node.schema;
    if s.extensions.x_int_or_string {
        return Some(Ty::Dyn);
    }
    match node.type_() {
        "array" => Some(Ty::List(Box::new(decl(node.items()?)?))),
        "object" => match node.additional_properties() {
            Some(ap) => Some(Ty::Map(Box::new(Ty::String), Box::new(decl(ap)?))),
            None => Some(Ty::Object(node)),
        },
        "string" => Some(match node.format() {
            "byte" => Ty::Bytes,
            "duration" => Ty::Duration,
            "date" | "date-time" => Ty::Timestamp,
            _ => Ty::String,
        }),
        "boolean" => Some(Ty::Bool),
        "number" => Some(Ty::Double),
        "integer" => Some(Ty::Int),
        _ => None,
    }
}

/// The property that field `name` of an object selects, with its node:
/// only properties whose schema is exposed and whose name can be escaped
/// are fields.
pub(crate) fn field<'s>(object: Node<'s>, name: &str) -> Option<(&'s str, Node<'s>)> {
    object.find_property(|k| escape::designates(name, k)).filter(|(_, node)| decl(*node).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema(v: serde_json::Value) -> Structural {
        Structural::from_json(&v).unwrap()
    }

    #[test]
    fn resource_roots_declare_type_and_object_meta() {
        let s = schema(json!({"type": "object", "properties": {"metadata": {"type": "object",
            "properties": {"labels": {"type": "object", "additionalProperties": {"type": "string"}}}}}}));
        let root = Node::new(&s, true);
        assert!(field(root, "kind").is_some());
        let (_, metadata) = field(root, "metadata").unwrap();
        assert!(field(metadata, "name").is_some());
        assert!(field(metadata, "labels").is_none(), "the overlay hides undeclared meta fields");
        assert!(field(Node::new(&s, false), "kind").is_none());
    }

    #[test]
    fn types_follow_the_schema() {
        let s = schema(json!({"type": "object", "properties": {
            "a": {"type": "array", "items": {"type": "integer"}},
            "m": {"type": "object", "additionalProperties": {"type": "number"}},
            "t": {"type": "string", "format": "date-time"},
            "i": {"x-kubernetes-int-or-string": true},
            "p": {"x-kubernetes-preserve-unknown-fields": true},
            "f/2": {"type": "string"}, "f@2": {"type": "string"}}}));
        let root = Node::new(&s, false);
        let names: Vec<String> =
            ["a", "m", "t", "i"].iter().map(|f| decl(field(root, f).unwrap().1).unwrap().name()).collect();
        assert_eq!(names, ["list(int)", "map(string, double)", "google.protobuf.Timestamp", "dyn"]);
        assert!(field(root, "p").is_none());
        assert_eq!(field(root, "f__slash__2").map(|f| f.0), Some("f/2"));
        assert!(root.properties().iter().any(|(k, _)| *k == "f@2"));
    }
}
