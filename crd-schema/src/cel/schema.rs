//! The schema as CEL sees it (`k8s.io/apiserver/pkg/cel/common.SchemaDeclType`
//! and `apiextensions-apiserver/pkg/apiserver/schema/cel/model`).
//!
//! A [`Node`] is a structural schema node plus whether it is the root of a
//! resource (the custom resource itself or an
//! `x-kubernetes-embedded-resource`). At such a root `apiVersion`, `kind`,
//! `metadata.name` and `metadata.generateName` are always reachable: unless
//! the schema already declares all four as strings (and `metadata` as an
//! object), the three properties are replaced by those plain declarations
//! (`WithTypeAndObjectMeta`), which also hides every other `metadata` field
//! from rules; `name` and `generateName` then have the lengths of a DNS
//! subdomain (253 and 252) unless the schema declares a shorter `maxLength`
//! for them, which bounds the estimated cost of rules on them.
//!
//! [`decl`] gives the CEL type of a node, or `None` where a node is not
//! exposed to CEL (no type, `x-kubernetes-preserve-unknown-fields` without
//! a type, arrays and maps of unexposed schemas); [`field`] resolves a field
//! selection on an object type, honouring the property-name escaping.
//! [`max_elements`] and [`min_serialized_size`] are the sizes the cost
//! estimator works with (`DeclType.MaxElements`, `MinSerializedSize`).

use std::sync::OnceLock;

use super::escape;
use crate::structural::{Generic, Structural};

/// The API server's request size limit (`celconfig.MaxRequestSizeBytes`).
pub(crate) const MAX_REQUEST_SIZE_BYTES: u64 = 3 * 1024 * 1024;

/// Serialized sizes from `k8s.io/apiserver/pkg/cel/limits.go`.
const MIN_STRING_SIZE: u64 = 2;
const MIN_BOOL_SIZE: u64 = 4;
const MIN_NUMBER_SIZE: u64 = 1;
const MIN_DURATION_SIZE_JSON: u64 = 3;
const MIN_DATETIME_SIZE_JSON: u64 = 21;
const JSON_DATE_SIZE: u64 = 12;
const MAX_DURATION_SIZE_JSON: u64 = 32;
const MAX_DATETIME_SIZE_JSON: u64 = 32;

/// The longest `metadata.name` of a resource (a DNS subdomain).
const NAME_MAX_LENGTH: i64 = 253;

/// One schema node as CEL sees it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node<'s> {
    pub schema: &'s Structural,
    /// The node is the root of a resource, so its type and object meta
    /// are always declared.
    pub resource: bool,
    overlay: Overlay<'s>,
}

/// What the `WithTypeAndObjectMeta` overlay made of a node.
#[derive(Clone, Copy, Debug)]
enum Overlay<'s> {
    /// The node is the schema's own.
    None,
    /// The overlay's `metadata`, with the schema's own `metadata` (whose
    /// `name` and `generateName` may declare shorter lengths).
    Metadata(Option<&'s Structural>),
    /// The overlay's `name` or `generateName`: a string of this
    /// `maxLength`.
    MaxLength(i64),
}

impl<'s> Node<'s> {
    pub fn new(schema: &'s Structural, resource: bool) -> Self {
        Self { schema, resource, overlay: Overlay::None }
    }

    /// A child node: resources start again at embedded resources.
    fn child(schema: &'s Structural) -> Self {
        Self::new(schema, schema.extensions.x_embedded_resource)
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
                "metadata" => {
                    let own = self.schema.property("metadata");
                    return Some(Node { overlay: Overlay::Metadata(own), ..Node::new(&meta().metadata, false) });
                }
                _ => {}
            }
        }
        if let Overlay::Metadata(own) = self.overlay {
            // The name's length is capped; a generated name adds at least
            // one byte to `generateName`.
            let cap = match name {
                "name" => NAME_MAX_LENGTH,
                "generateName" => NAME_MAX_LENGTH - 1,
                _ => return None,
            };
            let declared = own.and_then(|m| m.property(name)).and_then(|p| p.value_validation.max_length);
            let max_length = declared.map_or(cap, |d| d.min(cap));
            return Some(Node { overlay: Overlay::MaxLength(max_length), ..Node::new(&meta().string, false) });
        }
        self.schema.property(name).map(Node::child)
    }

    /// The property whose JSON key satisfies `pred`, overlay applied.
    pub fn find_property(self, pred: impl Fn(&str) -> bool) -> Option<(&'s str, Node<'s>)> {
        if let Overlay::Metadata(_) = self.overlay {
            return self.properties().into_iter().find(|(k, _)| pred(k));
        }
        let overlay = self.meta_overlay();
        if overlay && let Some(k) = ["kind", "apiVersion", "metadata"].into_iter().find(|k| pred(k)) {
            return self.property(k).map(|node| (k, node));
        }
        let is_meta = |k: &str| overlay && matches!(k, "kind" | "apiVersion" | "metadata");
        self.schema.properties.iter().find(|(k, _)| !is_meta(k) && pred(k)).map(|(k, v)| (k.as_str(), Node::child(v)))
    }

    /// Every property (JSON key and node), overlay applied.
    pub fn properties(self) -> Vec<(&'s str, Node<'s>)> {
        if let Overlay::Metadata(_) = self.overlay {
            return ["name", "generateName"].into_iter().filter_map(|k| Some((k, self.property(k)?))).collect();
        }
        let overlay = self.meta_overlay();
        let mut out: Vec<(&'s str, Node<'s>)> = Vec::new();
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

    /// The node's `maxLength`, as the overlay leaves it.
    pub fn max_length(self) -> Option<i64> {
        match self.overlay {
            Overlay::MaxLength(m) => Some(m),
            _ => self.schema.value_validation.max_length,
        }
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
        let mut metadata = typed("object");
        metadata.properties = vec![("name".to_owned(), typed("string")), ("generateName".to_owned(), typed("string"))];
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
            Ty::Null => "null".to_owned(),
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

/// A place in the declared types: a schema node, or the key of a map
/// (the plain string type).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Decl<'s> {
    Node(Node<'s>),
    MapKey,
}

/// The place `steps` lead to from `root`: a field name selects a field of
/// an object (by its CEL name), `@items` and `@values` the element of a
/// list or the value of a map, `@keys` the key of a map. `None` where a
/// step leads nowhere.
pub(crate) fn walk<'s>(root: Node<'s>, steps: &[impl AsRef<str>]) -> Option<Decl<'s>> {
    let mut at = Decl::Node(root);
    for step in steps {
        let Decl::Node(node) = at else { return None };
        at = match (step.as_ref(), decl(node)?) {
            ("@items" | "@values", Ty::List(_)) => Decl::Node(node.items()?),
            ("@items" | "@values", Ty::Map(..)) => Decl::Node(node.additional_properties()?),
            ("@keys", Ty::Map(..)) => Decl::MapKey,
            (name, Ty::Object(object)) => Decl::Node(field(object, name)?.1),
            _ => return None,
        };
    }
    Some(at)
}

/// The largest size data at `node` can have (`DeclType.MaxElements`):
/// strings by `maxLength` (×4 bytes per code point), the longest `enum`
/// value or their format, lists by `maxItems`, maps by `maxProperties`,
/// otherwise what fits into one request; 0 for objects and scalars, which
/// declare none. `None` when the node has no CEL type. Negative bounds
/// count as 0; explicit bounds are used even beyond the request size.
pub(crate) fn max_elements(node: Node<'_>) -> Option<u64> {
    decl(node)?;
    let s = node.schema;
    let vv = &s.value_validation;
    let bound = |v: i64| u64::try_from(v).unwrap_or(0);
    let per_request = MAX_REQUEST_SIZE_BYTES - 2;
    if s.extensions.x_int_or_string {
        return Some(node.max_length().map_or(per_request, |m| bound(m).saturating_mul(4)));
    }
    Some(match node.type_() {
        "string" => match node.format() {
            "byte" => node.max_length().map_or(per_request, bound),
            "duration" => MAX_DURATION_SIZE_JSON,
            "date" => JSON_DATE_SIZE,
            "date-time" => MAX_DATETIME_SIZE_JSON,
            _ => match node.max_length() {
                Some(m) => bound(m).saturating_mul(4),
                None if !vv.enum_.is_empty() => {
                    vv.enum_.iter().filter_map(|e| e.as_str()).map(|e| e.len() as u64).max().unwrap_or(0)
                }
                None => per_request,
            },
        },
        "array" => match (vv.max_items, node.items()) {
            (Some(m), _) => bound(m),
            (None, Some(items)) => per_request / (min_serialized_size(items) + 1),
            (None, None) => 0,
        },
        // Two quotes of an empty key, a colon and a comma per entry.
        "object" => match (vv.max_properties, node.additional_properties()) {
            (_, None) => 0,
            (Some(m), Some(_)) => bound(m),
            (None, Some(values)) => per_request / (min_serialized_size(values) + 6),
        },
        _ => 0,
    })
}

/// The smallest JSON serialization data at `node` can have
/// (`DeclType.MinSerializedSize`): `{}` plus the required properties
/// without a default for objects, `""`, `[]`, `{}` or the shortest literal
/// otherwise.
pub(crate) fn min_serialized_size(node: Node<'_>) -> u64 {
    let s: &Structural = node.schema;
    if s.extensions.x_int_or_string {
        return 1;
    }
    match node.type_() {
        "string" => match node.format() {
            "duration" => MIN_DURATION_SIZE_JSON,
            "date" => JSON_DATE_SIZE,
            "date-time" => MIN_DATETIME_SIZE_JSON,
            _ => MIN_STRING_SIZE,
        },
        "boolean" => MIN_BOOL_SIZE,
        "number" | "integer" => MIN_NUMBER_SIZE,
        "object" if node.additional_properties().is_none() => {
            let required = s.value_validation.required.as_deref().unwrap_or_default();
            let mut size = 2u64;
            for (name, child) in node.properties() {
                if required.iter().any(|r| r == name) && child.schema.generic.default.is_none() && decl(child).is_some()
                {
                    size = size.saturating_add((name.len() as u64).saturating_add(min_serialized_size(child)) + 4);
                }
            }
            size
        }
        _ => 2,
    }
}

/// How often data at `node` can occur in one request when nothing bounds
/// it (`maxCardinality`): the whole request size over the smallest
/// serialization of the data plus a comma.
pub(crate) fn max_cardinality(node: Node<'_>) -> u64 {
    MAX_REQUEST_SIZE_BYTES / (min_serialized_size(node) + 1)
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
