//! The keywords a field's `#[schema(...)]` must state so that
//! `#[derive(CustomResourceSchema)]` rebuilds the original schema node
//! (design.md I3).
//!
//! The derive builds a property's schema from the field's Rust type (see
//! docs/derive.md): `type`, `format` of `i32`, the `enum` of a generated
//! enum, int-or-string, preservation, and the description of the type's
//! doc comment, then the field's doc comment, then the attribute keywords
//! over them. So the attributes state every keyword of the node that the
//! type does not already give with the same value; array items and map
//! values nest under `items` and `additionalProperties`.
//!
//! Descriptions: a generated type's doc comment is its node's description,
//! and a field's doc comment is the same text, which the derive applies
//! over the type's. Types are only shared between nodes that both have a
//! description or both have none (`dedupe.rs`), so a shared type never
//! lends a description to a node without one; array items and map values
//! have no doc comment of their own and state theirs explicitly. A doc
//! comment that says more than the node's description (the note on a node
//! that is not structural, see `loose.rs`) states the description, or its
//! absence as `description = ""`.

use serde_json::{Map, Value, json};

use crd_schema::structural::Structural;

use super::{TypeId, TypeKind, TypeRef, TypeSpace};
use crate::doc::doc_lines;
use foldhash::HashMap;

/// The keywords of schema node `node` that a field of type `ty` with doc
/// comment `field_doc` must state.
pub(super) fn field_keywords(
    space: &TypeSpace,
    node: &Structural,
    ty: &TypeRef,
    field_doc: &str,
    derived: &mut Derived,
) -> Map<String, Value> {
    let mut given = given(space, ty);
    let doc = derived.of(field_doc);
    let undescribed = !doc.is_empty() && node.generic.description.is_empty();
    if !doc.is_empty() {
        given.insert("description".to_owned(), Value::String(doc));
    }
    let mut out = difference(space, node, ty, &given);
    if undescribed {
        out.insert("description".to_owned(), Value::String(String::new()));
    }
    out
}

/// The type-level keywords of the root (or any struct stated on the type
/// itself): what its node says beyond the object the derive builds.
pub(super) fn type_keywords(
    node: &Structural,
    doc: &str,
    flatten_in_schema: bool,
    derived: &mut Derived,
) -> Map<String, Value> {
    let mut given = Map::new();
    given.insert("type".to_owned(), json!("object"));
    if flatten_in_schema {
        given.insert("x-kubernetes-preserve-unknown-fields".to_owned(), Value::Bool(true));
    }
    let doc = derived.of(doc);
    let undescribed = !doc.is_empty() && node.generic.description.is_empty();
    if !doc.is_empty() {
        given.insert("description".to_owned(), Value::String(doc));
    }
    let mut out = described(node, &given);
    for (key, value) in own_keywords(node, true, None) {
        if given.get(&key) != Some(&value) {
            out.insert(key, value);
        }
    }
    if undescribed {
        out.insert("description".to_owned(), Value::String(String::new()));
    }
    out
}

/// The descriptions the derive reads back ([`read_back`]) and the doc
/// comment lines they are read from, worked out once per distinct
/// description.
#[derive(Default)]
pub(super) struct Derived(HashMap<String, (String, Vec<String>)>);

impl Derived {
    /// The description the derive reads back for `description`.
    fn of(&mut self, description: &str) -> String {
        if let Some((known, _)) = self.0.get(description) {
            return known.clone();
        }
        let lines = doc_lines(description);
        let read_back = read_back(&lines);
        self.0.insert(description.to_owned(), (read_back.clone(), lines));
        read_back
    }

    /// The doc comment lines of every description seen.
    pub(super) fn into_lines(self) -> HashMap<String, Vec<String>> {
        self.0.into_iter().map(|(description, (_, lines))| (description, lines)).collect()
    }
}

/// The description the derive reads from the doc comment the emitter
/// writes for `description`.
#[cfg(test)]
fn derived_description(description: &str) -> String {
    read_back(&doc_lines(description))
}

/// The description the derive reads from the doc comment `lines`.
fn read_back(lines: &[String]) -> String {
    // The doc comment's text as rustc gives it to the derive: each line
    // after `///`, so with its leading space.
    let mut raw = String::with_capacity(lines.iter().map(|l| l.len() + 2).sum());
    for (i, line) in lines.iter().enumerate() {
        if i > 0 {
            raw.push('\n');
        }
        if !line.is_empty() {
            raw.push(' ');
            raw.push_str(line);
        }
    }
    crd_schema::schema::description_from_doc(&raw)
}

/// `node`'s keywords that `given` (what the type gives) does not match,
/// recursing into items and map values.
fn difference(space: &TypeSpace, node: &Structural, ty: &TypeRef, given: &Map<String, Value>) -> Map<String, Value> {
    let structural_object = matches!(named(space, ty), Some(TypeKind::Struct(_)));
    let child = match strip_option(ty) {
        TypeRef::Vec(item) => node.items.as_deref().map(|items| ("items", items, item.as_ref())),
        TypeRef::Map(value) => {
            node.additional_properties_schema().map(|values| ("additionalProperties", values, value.as_ref()))
        }
        _ => None,
    };
    let own = own_keywords(node, structural_object, child.map(|(key, _, _)| key));
    let mut out = described(node, given);
    for (key, value) in &own {
        if given.get(key) != Some(value) {
            out.insert(key.clone(), value.clone());
        }
    }
    // A keyword the type gives that the node does not have: its empty
    // value removes it (crd-vocabulary's `Unset`: the `anyOf` of an
    // int-or-string node without one, the preservation of a preserving
    // array's items, which are `Value`s).
    let has = |key: &str| own.contains_key(key) || (key == "description" && !node.generic.description.is_empty());
    for (key, value) in given {
        if !has(key) && Some(key.as_str()) != child.map(|(k, _, _)| k) {
            out.extend(unset(key, value).map(|empty| (key.clone(), empty)));
        }
    }
    let Some((child_key, child_node, child_ty)) = child else { return out };
    let nested = difference(space, child_node, child_ty, &given_child(given, child_key));
    if !nested.is_empty() {
        out.insert(child_key.to_owned(), Value::Object(nested));
    }
    out
}

/// The value that removes keyword `key` (given as `value`), `None` when it
/// has none: then the derived schema keeps it (see docs/derive.md).
fn unset(key: &str, value: &Value) -> Option<Value> {
    use crd_vocabulary::Unset;
    match crd_vocabulary::unset(key) {
        Unset::EmptyText => Some(Value::String(String::new())),
        Unset::False | Unset::RefusedFalse if value.is_boolean() => Some(Value::Bool(false)),
        Unset::EmptyList => Some(Value::Array(Vec::new())),
        _ => None,
    }
}

fn given_child(given: &Map<String, Value>, key: &str) -> Map<String, Value> {
    match given.get(key) {
        Some(Value::Object(child)) => child.clone(),
        _ => Map::new(),
    }
}

/// The node's description as the first keyword to state, unless `given`
/// gives it: first, where the OpenAPI form of a node has it (its `id`,
/// `$schema` and `$ref` come before it, and structural schemas have
/// none). [`own_keywords`] leaves it out, so that the text, often the
/// longest part of a node, is compared where it is, not copied twice.
fn described(node: &Structural, given: &Map<String, Value>) -> Map<String, Value> {
    let mut out = Map::new();
    let description = &node.generic.description;
    if !description.is_empty() && given.get("description").and_then(Value::as_str) != Some(description.as_str()) {
        out.insert("description".to_owned(), Value::String(description.clone()));
    }
    out
}

/// The keywords of a node but its description ([`described`]), as JSON
/// (the OpenAPI form of the structural node), without the child its type
/// handles (`items` of a `Vec`,
/// `additionalProperties` of a map, compared child by child) and, for
/// nodes that become structs, the `properties` and `required` the struct's
/// fields give (a `required` naming something else is stated). Any other
/// `items` (on an object, which the API server accepts) is a keyword like
/// the rest.
fn own_keywords(node: &Structural, structural_object: bool, child: Option<&str>) -> Map<String, Value> {
    // A `required` entry that is no property (the API server does not
    // check) is not a field: the node's list is stated whole.
    let fields_give_required =
        node.value_validation.required.iter().flatten().all(|name| node.property(name).is_some());
    let shallow = Structural {
        items: if child == Some("items") { None } else { node.items.clone() },
        properties: if structural_object { Vec::new() } else { node.properties.clone() },
        additional_properties: if child == Some("additionalProperties") {
            None
        } else {
            node.additional_properties.clone()
        },
        generic: {
            let g = &node.generic;
            crd_schema::structural::Generic {
                description: String::new(),
                type_: g.type_.clone(),
                title: g.title.clone(),
                default: g.default.clone(),
                nullable: g.nullable,
                external_docs: g.external_docs.clone(),
                example: g.example.clone(),
            }
        },
        extensions: node.extensions.clone(),
        validation_extensions: node.validation_extensions.clone(),
        value_validation: node.value_validation.clone(),
        derived: Default::default(),
    };
    let Value::Object(mut keywords) = crd_schema::openapi::to_openapi(&shallow) else { return Map::new() };
    if structural_object && fields_give_required {
        keywords.shift_remove("required");
    }
    keywords
}

fn strip_option(ty: &TypeRef) -> &TypeRef {
    match ty {
        TypeRef::Option(inner) => strip_option(inner),
        other => other,
    }
}

fn named<'a>(space: &'a TypeSpace, ty: &TypeRef) -> Option<&'a TypeKind> {
    match strip_option(ty) {
        TypeRef::Named(TypeId(id)) => space.types.get(*id).map(|t| &t.kind),
        _ => None,
    }
}

/// What the derive gives for a field of type `ty` before attributes: the
/// runtime's own impls for the leaf types, so the two cannot drift apart.
fn given(space: &TypeSpace, ty: &TypeRef) -> Map<String, Value> {
    use crd_schema::schema::{self, schema_for};
    match strip_option(ty) {
        TypeRef::String => schema_for::<String>(),
        TypeRef::I32 => schema_for::<i32>(),
        TypeRef::I64 => schema_for::<i64>(),
        TypeRef::F64 => schema_for::<f64>(),
        TypeRef::Bool => schema_for::<bool>(),
        TypeRef::Value => schema_for::<Value>(),
        TypeRef::IntOrString => schema::int_or_string(),
        TypeRef::ObjectMeta => schema::object_meta(),
        TypeRef::Vec(item) => container("array", "items", given(space, item)),
        TypeRef::Map(value) => container("object", "additionalProperties", given(space, value)),
        TypeRef::Named(TypeId(id)) => given_named(space, *id),
        TypeRef::Option(_) => unreachable!("options are stripped"),
    }
}

/// `{type: <type_>, <child>: <inner>}`, as the runtime's `Vec` and map
/// impls build it.
fn container(type_: &str, child: &str, inner: Map<String, Value>) -> Map<String, Value> {
    let mut out = Map::new();
    out.insert("type".to_owned(), json!(type_));
    out.insert(child.to_owned(), Value::Object(inner));
    out
}

fn given_named(space: &TypeSpace, id: usize) -> Map<String, Value> {
    let Some(def) = space.types.get(id) else { return Map::new() };
    let mut out = Map::new();
    match &def.kind {
        TypeKind::Struct(s) => {
            out.insert("type".to_owned(), json!("object"));
            if s.flatten_in_schema {
                out.insert("x-kubernetes-preserve-unknown-fields".to_owned(), Value::Bool(true));
            }
            out.extend(s.schema.clone());
        }
        TypeKind::Enum(e) => {
            out.insert("type".to_owned(), json!("string"));
            out.insert("enum".to_owned(), e.variants.iter().map(|(_, v)| json!(v)).collect());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(schema: Value) -> Structural {
        Structural::from_json(&schema).expect("a structural schema")
    }

    #[test]
    fn the_doc_comment_carries_kubernetes_prose() {
        let long = "word ".repeat(40);
        let carried = [
            "Short.",
            long.trim(),
            "More info: https://git.k8s.io/community/contributors/devel/api-conventions.md#resources",
            "Must be one of [Always, Never].\n- a list item\n1. numbered\n# not a heading",
            "A <tag> and a->b, `code [x]` and an odd ` backtick.",
            r"Matches ^\d+\.\d+$ (a \[literal\] bracket).",
            "[docs](https://k8s.io/x) and (see http://a.b/c).",
        ];
        for description in carried {
            assert_eq!(derived_description(description), description);
        }
        // What the doc comment cannot say as it is: a description attribute.
        for lost in ["  indented", "a\tb", "keep <https://a.io/x>", "```yaml\na: 1\n```", "trailing \nspace"] {
            assert_ne!(derived_description(lost), lost);
        }
    }

    #[test]
    fn only_what_the_type_does_not_give_is_stated() {
        let space = TypeSpace::default();
        let wire = json!({"type": "integer", "format": "int32", "minimum": 1, "description": "Size."});
        let got = field_keywords(&space, &node(wire), &TypeRef::I32, "Size.", &mut Derived::default());
        assert_eq!(Value::Object(got), json!({"minimum": 1}));
        let wire =
            json!({"type": "array", "items": {"type": "string", "maxLength": 3}, "x-kubernetes-list-type": "set"});
        let got =
            field_keywords(&space, &node(wire), &TypeRef::Vec(Box::new(TypeRef::String)), "", &mut Derived::default());
        assert_eq!(Value::Object(got), json!({"x-kubernetes-list-type": "set", "items": {"maxLength": 3}}));
    }

    #[test]
    fn a_doc_comment_beyond_the_description_states_it() {
        let space = TypeSpace::default();
        let preserved = json!({"x-kubernetes-preserve-unknown-fields": true});
        let got = field_keywords(&space, &node(preserved), &TypeRef::Value, "A note.", &mut Derived::default());
        assert_eq!(Value::Object(got), json!({"description": ""}));
        let described = json!({"x-kubernetes-preserve-unknown-fields": true, "description": "Doc."});
        let got = field_keywords(&space, &node(described), &TypeRef::Value, "Doc.\n\nA note.", &mut Derived::default());
        assert_eq!(Value::Object(got), json!({"description": "Doc."}));
    }
}
