//! Best-effort types for a schema that is not structural
//! (`Builder::allow_non_structural(true)`): each node Kubernetes'
//! structural checks reject is replaced, in a copy of the schema, by a node
//! that is structural and keeps any value, and everything around it is
//! generated as usual.
//!
//! Entry points: [`repair`], which returns the structural copy and the
//! replaced nodes ([`LooseNode`]); [`note`], the doc comment text that
//! documents a replaced node in the generated code.
//!
//! Kubernetes' own checks (`crd_schema::structural`) decide what is wrong;
//! this module only maps each problem to the schema node that owns it, and
//! runs the checks again until they pass:
//!
//! - a conversion failure (`new_structural`) names no path: it belongs to
//!   the deepest node whose conversion still fails once its children
//!   convert (an `items` array, a `$ref`, a junctor holding an unsupported
//!   keyword);
//! - an invariant error names a path that ends in the offending keyword
//!   (`.type`, `.anyOf[0].type`, `.x-kubernetes-int-or-string`): it belongs
//!   to the deepest structural node (`properties[x]`, `items`,
//!   `additionalProperties`) on that path, so junctors that only validate
//!   a structural node never cost it its type;
//! - a completeness error belongs to the root, whose junctors it checks.
//!
//! How an owner is replaced depends on its place ([`Outcome`]). The
//! replacements are structural wherever they stand, so the checks pass
//! after a few rounds; [`repair`] gives up (`None`) only if they do not
//! after [`ROUNDS`].

use std::collections::BTreeMap;

use crd_schema::field::{FieldError, Path, PathElement};
use crd_schema::structural::{
    Level, Structural, ValidationOptions, new_structural, validate_structural_completeness,
    validate_structural_invariants,
};
use crd_schema::wire::{JSONSchemaProps, SchemaOrArray, SchemaOrBool};

/// Rounds of checks and repairs before giving up: conversion, invariants,
/// then at most the root's completeness.
const ROUNDS: usize = 8;

/// What became of a node that is not structural.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Replaced by `x-kubernetes-preserve-unknown-fields: true` with its
    /// description: generated as `serde_json::Value`, which keeps the value
    /// as is, unpruned (as the API server keeps it under a schema that is
    /// not structural).
    Value,
    /// The root, which stays an object: reduced to `type: object` with its
    /// properties, `required`, annotations, `x-kubernetes-validations` and
    /// preservation (also when it had `additionalProperties`).
    Root,
    /// `apiVersion`, `kind` or `metadata` of the root or of an embedded
    /// resource, whose field has a fixed type: reduced to the `type` the
    /// checks require there.
    Fixed,
}

/// A node that was not structural, and what became of it.
#[derive(Clone, Debug, PartialEq)]
pub struct LooseNode {
    /// Where it is: a Kubernetes field path, relative to the schema root
    /// (from `repair`) or to the CRD (in a [`VersionSpace`](super::VersionSpace)).
    pub path: Path,
    /// Kubernetes' errors for it, their paths relative to the node,
    /// `; `-separated.
    pub reason: String,
    /// What it became.
    pub outcome: Outcome,
}

/// A structural copy of a schema and the nodes replaced to make it.
#[derive(Clone, Debug)]
pub(super) struct Repaired {
    /// The copy, with the replacements.
    pub schema: JSONSchemaProps,
    /// The replaced nodes, by path.
    pub nodes: Vec<LooseNode>,
}

/// `schema` with every node that is not structural replaced (see the
/// module doc), or `None` if the checks still fail after [`ROUNDS`].
pub(super) fn repair(schema: &JSONSchemaProps) -> Option<Repaired> {
    let mut copy = schema.clone();
    let mut found = Found::default();
    for _ in 0..ROUNDS {
        let structural = match new_structural(&copy) {
            Ok(structural) => structural,
            Err(_) => {
                convert(&mut copy, &mut Vec::new(), Place::Root, &mut found);
                continue;
            }
        };
        let owners = owners(&copy, &structural);
        if owners.is_empty() {
            return Some(Repaired { schema: copy, nodes: found.into_nodes() });
        }
        replace_owners(&mut copy, owners, &mut found);
    }
    None
}

/// The doc comment text for a field whose node, or a node `within` it (its
/// `items`, `additionalProperties`, ... as a dotted path; empty for the
/// node itself), was replaced; or for the root type. `None` for a node of
/// fixed type, whose generated field does not change.
pub(super) fn note(node: &LooseNode, within: &str) -> Option<String> {
    let reason = &node.reason;
    match node.outcome {
        Outcome::Value => {
            let place = if within.is_empty() { "here".to_owned() } else { format!("at `{within}`") };
            Some(format!(
                "The CRD's schema is not structural {place} ({reason}), so decoding keeps the value as is \
                 and does not prune it (as the API server does not)."
            ))
        }
        Outcome::Root => Some(format!(
            "The CRD's schema is not structural at its root ({reason}), so this type follows the root's \
             properties alone."
        )),
        Outcome::Fixed => None,
    }
}

/// `description` followed by `note`, a paragraph apart.
pub(super) fn with_note(description: &str, note: Option<String>) -> String {
    match note {
        Some(note) if description.is_empty() => note,
        Some(note) => format!("{description}\n\n{note}"),
        None => description.to_owned(),
    }
}

/// One step from a schema node down to a structural child.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Child {
    Items,
    Property(String),
    Values,
}

/// Where a node stands, which decides its replacement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    Root,
    /// `metadata` of the root or of an embedded resource.
    Metadata,
    /// `apiVersion` or `kind` of the root or of an embedded resource.
    TypeMeta,
    Other,
}

/// The replaced nodes so far, by where they are.
#[derive(Default)]
struct Found {
    nodes: BTreeMap<Vec<Child>, (Vec<String>, Outcome)>,
}

impl Found {
    // A replacement that drops the node's subtree also drops the records
    // of nodes replaced inside it; the reduced root keeps its properties.
    fn record(&mut self, at: &[Child], reasons: Vec<String>, outcome: Outcome) {
        if outcome != Outcome::Root {
            self.nodes.retain(|k, _| !(k.len() > at.len() && k.starts_with(at)));
        }
        let entry = self.nodes.entry(at.to_vec()).or_insert_with(|| (Vec::new(), outcome));
        entry.0.extend(reasons);
    }

    fn into_nodes(self) -> Vec<LooseNode> {
        let node = |(at, (reasons, outcome)): (Vec<Child>, (Vec<String>, Outcome))| LooseNode {
            path: to_path(&at),
            reason: reasons.join("; "),
            outcome,
        };
        self.nodes.into_iter().map(node).collect()
    }
}

/// Makes `node` (at `at`, standing in `place`) convert: its structural
/// children first, then, if its own keywords still fail, the node itself.
fn convert(node: &mut JSONSchemaProps, at: &mut Vec<Child>, place: Place, found: &mut Found) {
    if new_structural(node).is_ok() {
        return;
    }
    let meta_context = place == Place::Root || node.x_embedded_resource;
    if let Some(SchemaOrArray::Schema(items)) = &mut node.items {
        at.push(Child::Items);
        convert(items, at, Place::Other, found);
        at.pop();
    }
    for (name, property) in node.properties.iter_mut().flatten() {
        at.push(Child::Property(name.clone()));
        convert(property, at, property_place(meta_context, name), found);
        at.pop();
    }
    if let Some(SchemaOrBool::Schema(values)) = &mut node.additional_properties {
        at.push(Child::Values);
        convert(values, at, Place::Other, found);
        at.pop();
    }
    if let Err(reason) = new_structural(node) {
        let outcome = replace(node, place);
        found.record(at, vec![reason.to_string()], outcome);
    }
}

// Kubernetes checks `apiVersion`, `kind` and `metadata` only directly under
// the root and under an embedded resource ("meta context").
fn property_place(meta_context: bool, name: &str) -> Place {
    match name {
        "metadata" if meta_context => Place::Metadata,
        "apiVersion" | "kind" if meta_context => Place::TypeMeta,
        _ => Place::Other,
    }
}

/// The errors of the structural checks grouped by the node owning them,
/// each with its path relative to the node.
fn owners(schema: &JSONSchemaProps, structural: &Structural) -> BTreeMap<Vec<Child>, Vec<String>> {
    let (root, options) = (Path::root(), ValidationOptions::default());
    let invariants = validate_structural_invariants(&root, structural, Level::Root, &options);
    let completeness = validate_structural_completeness(&root, structural, &options);
    let located = invariants.iter().map(|e| (locate(schema, &e.path), e));
    let mut owners: BTreeMap<Vec<Child>, Vec<String>> = BTreeMap::new();
    for (at, error) in located.chain(completeness.iter().map(|e| (Vec::new(), e))) {
        let reason = relative(error, &to_path(&at));
        owners.entry(at).or_default().push(reason);
    }
    owners
}

/// Replaces each owner in its place, skipping owners inside a node just
/// replaced (their errors went with it).
fn replace_owners(schema: &mut JSONSchemaProps, owners: BTreeMap<Vec<Child>, Vec<String>>, found: &mut Found) {
    let mut dropped: Vec<Vec<Child>> = Vec::new();
    for (at, reasons) in owners {
        if dropped.iter().any(|d| at.starts_with(d)) {
            continue;
        }
        let place = place_of(schema, &at);
        let Some(node) = node_mut(schema, &at) else { continue };
        let outcome = replace(node, place);
        if outcome != Outcome::Root {
            dropped.push(at.clone());
        }
        found.record(&at, reasons, outcome);
    }
}

/// The deepest structural node on `path` (relative to the root): it
/// follows `properties[x]`, `items` and `additionalProperties` while the
/// schema has them; what is left names the owner's own keyword.
fn locate(schema: &JSONSchemaProps, path: &Path) -> Vec<Child> {
    let elements = path.elements();
    let (mut node, mut at, mut i) = (schema, Vec::new(), 0);
    loop {
        let name = |n: &str| matches!(elements.get(i), Some(PathElement::Name(name)) if name == n);
        let (child, steps) = match elements.get(i + 1) {
            Some(PathElement::Key(key)) if name("properties") => (Child::Property(key.clone()), 2),
            _ if name("items") => (Child::Items, 1),
            _ if name("additionalProperties") => (Child::Values, 1),
            _ => return at,
        };
        let Some(next) = child_of(node, &child) else { return at };
        (node, i) = (next, i + steps);
        at.push(child);
    }
}

fn property<'a>(node: &'a JSONSchemaProps, name: &str) -> Option<&'a JSONSchemaProps> {
    node.properties.as_ref().and_then(|p| crd_schema::wire::get(p, name))
}

/// Where the node at `at` stands.
fn place_of(schema: &JSONSchemaProps, at: &[Child]) -> Place {
    let Some((last, parent_at)) = at.split_last() else { return Place::Root };
    let mut parent = Some(schema);
    for child in parent_at {
        parent = parent.and_then(|node| child_of(node, child));
    }
    let meta_context = parent_at.is_empty() || parent.is_some_and(|p| p.x_embedded_resource);
    match last {
        Child::Property(name) => property_place(meta_context, name),
        Child::Items | Child::Values => Place::Other,
    }
}

fn child_of<'a>(node: &'a JSONSchemaProps, child: &Child) -> Option<&'a JSONSchemaProps> {
    match (child, &node.items, &node.additional_properties) {
        (Child::Items, Some(SchemaOrArray::Schema(items)), _) => Some(items),
        (Child::Values, _, Some(SchemaOrBool::Schema(values))) => Some(values),
        (Child::Property(name), _, _) => property(node, name),
        _ => None,
    }
}

fn node_mut<'a>(schema: &'a mut JSONSchemaProps, at: &[Child]) -> Option<&'a mut JSONSchemaProps> {
    let Some((first, rest)) = at.split_first() else { return Some(schema) };
    let child = match (first, &mut schema.items, &mut schema.additional_properties) {
        (Child::Items, Some(SchemaOrArray::Schema(items)), _) => items.as_mut(),
        (Child::Values, _, Some(SchemaOrBool::Schema(values))) => values.as_mut(),
        (Child::Property(name), _, _) => {
            schema.properties.iter_mut().flatten().find(|(k, _)| k == name).map(|(_, p)| p)?
        }
        _ => return None,
    };
    node_mut(child, rest)
}

/// Replaces `node` by the structural node for its place.
fn replace(node: &mut JSONSchemaProps, place: Place) -> Outcome {
    let old = std::mem::take(node);
    let (new, outcome) = match place {
        Place::Root => (reduced_root(old), Outcome::Root),
        // Under the root, `metadata` may say nothing but its type (and
        // rules on name and generateName), not even a description.
        Place::Metadata => (JSONSchemaProps { type_: "object".to_owned(), ..Default::default() }, Outcome::Fixed),
        Place::TypeMeta => {
            let string =
                JSONSchemaProps { type_: "string".to_owned(), description: old.description, ..Default::default() };
            (string, Outcome::Fixed)
        }
        Place::Other => {
            let any = JSONSchemaProps {
                description: old.description,
                x_preserve_unknown_fields: Some(true),
                ..Default::default()
            };
            (any, Outcome::Value)
        }
    };
    *node = new;
    outcome
}

// The root is what every object of the resource is: an object with the
// listed properties. What else it says (junctors, a missing or wrong type,
// `additionalProperties`, which the root may not have) is dropped, extra
// fields being kept instead when it allowed them.
fn reduced_root(old: JSONSchemaProps) -> JSONSchemaProps {
    let allows_more = matches!(old.additional_properties, Some(SchemaOrBool::Schema(_) | SchemaOrBool::Bool(true)));
    let preserve = old.x_preserve_unknown_fields == Some(true) || allows_more;
    JSONSchemaProps {
        type_: "object".to_owned(),
        description: old.description,
        title: old.title,
        external_docs: old.external_docs,
        example: old.example,
        required: old.required,
        properties: old.properties,
        x_preserve_unknown_fields: preserve.then_some(true),
        x_validations: old.x_validations,
        ..Default::default()
    }
}

fn to_path(at: &[Child]) -> Path {
    at.iter().fold(Path::root(), |path, child| match child {
        Child::Items => path.child("items"),
        Child::Property(name) => path.child("properties").key(name.as_str()),
        Child::Values => path.child("additionalProperties"),
    })
}

/// `error` as its owner at `owner` would say it: the path after the owner,
/// then the body (only the body when the error is about the owner itself).
fn relative(error: &FieldError, owner: &Path) -> String {
    match error.path.strip_prefix(owner) {
        Some(rest) if rest.is_root() => error.body(),
        Some(rest) => format!("{rest}: {}", error.body()),
        None => error.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn repaired(schema: Value) -> (Value, Vec<(String, String, Outcome)>) {
        let props = JSONSchemaProps::from_value(&schema).unwrap();
        let repaired = repair(&props).expect("repairs");
        let nodes = repaired.nodes.into_iter().map(|n| (n.path.to_string(), n.reason, n.outcome)).collect();
        (repaired.schema.to_value(), nodes)
    }

    #[test]
    fn a_union_without_type_becomes_a_value_and_its_siblings_stay() {
        let (schema, nodes) = repaired(json!({"type": "object", "properties": {"spec": {"type": "object",
            "properties": {"name": {"type": "string"},
                "value": {"description": "A string or a list.", "oneOf": [{"type": "string"}, {"type": "array"}]}}}}}));
        assert_eq!(
            nodes,
            [(
                "properties[spec].properties[value]".to_owned(),
                "oneOf[0].type: Forbidden: must be empty to be structural; oneOf[1].type: Forbidden: must be empty \
                 to be structural; type: Required value: must not be empty for specified object fields"
                    .to_owned(),
                Outcome::Value
            )]
        );
        let spec = &schema["properties"]["spec"]["properties"];
        assert_eq!(
            spec["value"],
            json!({"description": "A string or a list.", "x-kubernetes-preserve-unknown-fields": true})
        );
        assert_eq!(spec["name"], json!({"type": "string"}));
    }

    #[test]
    fn junctors_of_structural_nodes_stay() {
        let schema = json!({"type": "object", "properties": {"a": {"type": "string", "oneOf": [{"minLength": 1}]},
            "b": {}}});
        let (repaired, nodes) = repaired(schema);
        assert_eq!(repaired["properties"]["a"], json!({"type": "string", "oneOf": [{"minLength": 1}]}));
        assert_eq!(nodes.len(), 1);
        assert_eq!(nodes[0].0, "properties[b]");
    }

    #[test]
    fn conversion_failures_belong_to_the_deepest_failing_node() {
        let (schema, nodes) = repaired(json!({"type": "object", "properties": {"spec": {"type": "object",
            "properties": {"list": {"type": "array", "items": [{"type": "string"}]}, "n": {"type": "integer"}}}}}));
        assert_eq!(
            nodes,
            [(
                "properties[spec].properties[list]".to_owned(),
                "OpenAPIV3Schema 'items' must be a schema, but is an array".to_owned(),
                Outcome::Value
            )]
        );
        assert_eq!(schema["properties"]["spec"]["properties"]["n"], json!({"type": "integer"}));
    }

    #[test]
    fn items_and_values_are_their_own_nodes() {
        let (_, nodes) = repaired(json!({"type": "object", "properties": {
            "list": {"type": "array", "items": {"properties": {"x": {"type": "string"}}}},
            "map": {"type": "object", "additionalProperties": {"anyOf": [{"type": "integer"}]}}}}));
        let paths: Vec<&str> = nodes.iter().map(|n| n.0.as_str()).collect();
        assert_eq!(paths, ["properties[list].items", "properties[map].additionalProperties"]);
    }

    #[test]
    fn the_root_is_reduced_to_an_object_with_its_properties() {
        let (schema, nodes) = repaired(json!({"description": "A widget.", "anyOf": [{"properties": {"gone": {}}}],
            "properties": {"spec": {"type": "object"}, "metadata": {"properties": {"labels": {}}}}}));
        assert_eq!(
            schema,
            json!({"type": "object", "description": "A widget.", "properties": {"spec": {"type": "object"},
                "metadata": {"type": "object"}}})
        );
        let outcomes: Vec<(&str, Outcome)> = nodes.iter().map(|n| (n.0.as_str(), n.2)).collect();
        assert_eq!(outcomes, [("<nil>", Outcome::Root), ("properties[metadata]", Outcome::Fixed)]);
        assert!(nodes[0].1.contains("type: Required value: must not be empty at the root"), "{}", nodes[0].1);
        assert!(
            nodes[0].1.contains("properties[gone]: Required value: because it is defined in anyOf[0]"),
            "{}",
            nodes[0].1
        );
    }

    #[test]
    fn a_replaced_node_takes_the_records_inside_it() {
        // `b` fails conversion (round one); then `a` has no type (round
        // two): `a`'s replacement covers `b`.
        let (_, nodes) =
            repaired(json!({"type": "object", "properties": {"a": {"properties": {"b": {"$ref": "#/x"}}}}}));
        let paths: Vec<&str> = nodes.iter().map(|n| n.0.as_str()).collect();
        assert_eq!(paths, ["properties[a]"]);
    }

    #[test]
    fn notes_say_where_and_why() {
        let node = LooseNode { path: Path::root(), reason: "type: Required value".into(), outcome: Outcome::Value };
        assert_eq!(
            note(&node, "").unwrap(),
            "The CRD's schema is not structural here (type: Required value), so decoding keeps the value as is \
             and does not prune it (as the API server does not)."
        );
        assert!(note(&node, "items").unwrap().starts_with("The CRD's schema is not structural at `items` ("));
        assert_eq!(with_note("Doc.", Some("Note.".into())), "Doc.\n\nNote.");
        assert_eq!(with_note("", Some("Note.".into())), "Note.");
        assert_eq!(note(&LooseNode { outcome: Outcome::Fixed, ..node }, ""), None);
    }
}
