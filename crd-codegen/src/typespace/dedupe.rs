//! One type for structurally identical nodes of a version.
//!
//! CRDs repeat whole subtrees (Pod templates, containers, affinity, label
//! selectors); each repetition would be its own struct, which multiplies
//! the code to compile. Two types of a [`TypeSpace`] are merged when
//! everything that decides their Rust code apart from names and
//! descriptions is equal, the derive attributes and doc comments of their
//! fields included
//! (so the shared type rebuilds every node's schema), and either both or
//! neither have a description (a shared type's doc comment then never
//! describes a node that has none): fields (identifiers, JSON names, slots, defaults,
//! item defaults, specials), field types with named types compared by
//! their merged identity (so recursively), the flattened map of preserved
//! fields, the resource, and for enums the variants, catch-all and default.
//! Context such as preservation inherited through `items` is part of the
//! model (a flattened map, or `Value` instead of a struct), so types that
//! decode differently are never merged.
//!
//! The first type in creation order (parents first, properties in schema
//! order) keeps its name and its description; later ones are dropped and
//! their uses refer to it. Surviving types keep the names they had, so the
//! result does not depend on hash order and names do not shift.

use foldhash::HashMap;
use std::mem::Discriminant;

use serde_json::Value;

use super::{EnumDef, Field, Resource, Slot, Special, TypeDef, TypeId, TypeKind, TypeRef, TypeSpace};

/// Everything of a type that its code depends on, but its name and docs;
/// named types appear as the index of their class.
#[derive(PartialEq, Eq, Hash)]
enum Key {
    Struct {
        fields: Vec<FieldKey>,
        flatten: Option<String>,
        resource: Option<Resource>,
        flatten_in_schema: bool,
        schema: String,
        doc_empty: bool,
    },
    Enum(EnumDef, bool),
}

#[derive(PartialEq, Eq, Hash)]
struct FieldKey {
    ident: String,
    json: String,
    ty: TypeRef,
    /// The slot and its default as JSON text: key order counts, since a
    /// default kept as `Value` encodes in its own order.
    slot: (Discriminant<Slot>, Option<String>),
    item_default: Option<String>,
    special: Option<Special>,
    /// The derive attributes as JSON text, and the doc comment, which the
    /// derive reads as the description when the attributes do not state it.
    schema: String,
    doc: String,
    schema_required: bool,
    schema_skip: bool,
}

/// Merges the structurally identical types of `space`; the root stays
/// [`TypeId`] 0 and the order of the survivors is kept.
pub(super) fn dedupe(space: TypeSpace) -> TypeSpace {
    let n = space.types.len();
    // A type only refers to types created after it, so walking backwards
    // sees every type's children before the type itself.
    let mut class = vec![0; n];
    let mut first_of_class: Vec<usize> = Vec::new();
    let mut classes: HashMap<Key, usize> = HashMap::default();
    for i in (0..n).rev() {
        let key = key(&space.types[i], &class);
        let next = classes.len();
        let c = *classes.entry(key).or_insert(next);
        if c == next {
            first_of_class.push(i);
        } else {
            first_of_class[c] = i;
        }
        class[i] = c;
    }
    // New ids: survivors numbered in their old order.
    let mut new_id = vec![usize::MAX; n];
    let mut kept = 0;
    for i in 0..n {
        if first_of_class[class[i]] == i {
            new_id[i] = kept;
            kept += 1;
        }
    }
    let target = |id: TypeId| TypeId(new_id[first_of_class[class[id.0]]]);
    let TypeSpace { types, doc_lines } = space;
    let types = types
        .into_iter()
        .enumerate()
        .filter(|(i, _)| first_of_class[class[*i]] == *i)
        .map(|(_, def)| retarget(def, &target))
        .collect();
    TypeSpace { types, doc_lines }
}

fn key(def: &TypeDef, class: &[usize]) -> Key {
    let doc_empty = def.doc.is_empty();
    match &def.kind {
        TypeKind::Struct(s) => Key::Struct {
            fields: s
                .fields
                .iter()
                .map(|f| FieldKey {
                    ident: f.ident.clone(),
                    json: f.json.clone(),
                    ty: map_named(&f.ty, &|id| TypeId(class.get(id.0).copied().unwrap_or(usize::MAX))),
                    slot: slot_key(&f.slot),
                    item_default: f.item_default.as_ref().map(ToString::to_string),
                    special: f.special,
                    schema: Value::Object(f.schema.clone()).to_string(),
                    doc: f.doc.clone(),
                    schema_required: f.schema_required,
                    schema_skip: f.schema_skip,
                })
                .collect(),
            flatten: s.flatten.clone(),
            resource: s.resource.clone(),
            flatten_in_schema: s.flatten_in_schema,
            schema: Value::Object(s.schema.clone()).to_string(),
            doc_empty,
        },
        TypeKind::Enum(e) => Key::Enum(e.clone(), doc_empty),
    }
}

fn slot_key(slot: &Slot) -> (Discriminant<Slot>, Option<String>) {
    let default = match slot {
        Slot::Defaulted(v) | Slot::NullableDefaulted(v) => Some(v.to_string()),
        _ => None,
    };
    (std::mem::discriminant(slot), default)
}

/// `ty` with every named type replaced by `f(id)`.
fn map_named(ty: &TypeRef, f: &dyn Fn(TypeId) -> TypeId) -> TypeRef {
    match ty {
        TypeRef::Named(id) => TypeRef::Named(f(*id)),
        TypeRef::Vec(inner) => TypeRef::Vec(Box::new(map_named(inner, f))),
        TypeRef::Map(inner) => TypeRef::Map(Box::new(map_named(inner, f))),
        TypeRef::Option(inner) => TypeRef::Option(Box::new(map_named(inner, f))),
        other => other.clone(),
    }
}

fn retarget(mut def: TypeDef, target: &dyn Fn(TypeId) -> TypeId) -> TypeDef {
    if let TypeKind::Struct(s) = &mut def.kind {
        for Field { ty, .. } in &mut s.fields {
            *ty = map_named(ty, target);
        }
    }
    def
}

#[cfg(test)]
mod tests {
    use super::super::{ModelOptions, build};
    use super::*;
    use crd_schema::structural::Structural;
    use serde_json::json;

    fn space(schema_json: Value) -> TypeSpace {
        let schema = Structural::from_json(&schema_json).unwrap();
        let resource = super::super::test_resource();
        let input = build::Input { schema: Some(&schema), resource, crd: Default::default(), loose: &[] };
        dedupe(build::build(input, false, ModelOptions::default()))
    }

    fn names(space: &TypeSpace) -> Vec<&str> {
        space.types.iter().map(|t| t.name.as_str()).collect()
    }

    /// The type name of field `json` of struct `name` (through arrays and maps).
    fn field_type<'a>(space: &'a TypeSpace, name: &str, json: &str) -> &'a str {
        let Some(TypeKind::Struct(s)) = space.types.iter().find(|t| t.name == name).map(|t| &t.kind) else {
            panic!("{name}")
        };
        let mut ty = &s.fields.iter().find(|f| f.json == json).unwrap().ty;
        loop {
            match ty {
                TypeRef::Vec(inner) | TypeRef::Map(inner) | TypeRef::Option(inner) => ty = inner,
                TypeRef::Named(id) => return &space.get(*id).unwrap().name,
                other => panic!("{other:?}"),
            }
        }
    }

    fn spec(properties: Value) -> Value {
        json!({"type": "object", "properties": {"spec": {"type": "object", "properties": properties}}})
    }

    #[test]
    fn identical_nodes_share_the_first_type_and_its_doc() {
        let container = |doc: &str| {
            json!({"type": "object", "description": doc, "properties": {
                "name": {"type": "string"},
                "pull": {"type": "string", "enum": ["Always", "Never"]},
                "ports": {"type": "array", "items": {"type": "object", "properties": {"port": {"type": "integer"}}}}}})
        };
        let s = space(spec(json!({
            "containers": {"type": "array", "items": container("first")},
            "init": {"type": "array", "items": container("second")},
            "sidecar": container("third")})));
        assert_eq!(
            names(&s),
            ["Widget", "WidgetSpec", "WidgetSpecContainers", "WidgetSpecContainersPull", "WidgetSpecContainersPorts"]
        );
        assert_eq!(s.types[2].doc, "first");
        for json in ["containers", "init", "sidecar"] {
            assert_eq!(field_type(&s, "WidgetSpec", json), "WidgetSpecContainers");
        }
        assert_eq!(field_type(&s, "WidgetSpecContainers", "ports"), "WidgetSpecContainersPorts");
    }

    #[test]
    fn nodes_that_decode_differently_stay_apart() {
        let obj = |extra: Value| {
            let mut o = json!({"type": "object", "properties": {"a": {"type": "string"}}});
            o.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
            o
        };
        let s = space(spec(json!({
            "plain": obj(json!({"description": "plain"})),
            "preserved": obj(json!({"x-kubernetes-preserve-unknown-fields": true})),
            // Preservation inherited through `items`.
            "list": {"type": "array", "x-kubernetes-preserve-unknown-fields": true, "items": obj(json!({}))},
            "embedded": obj(json!({"x-kubernetes-embedded-resource": true})),
            "required": obj(json!({"required": ["a"]})),
            "defaulted": {"type": "object", "properties": {"a": {"type": "string", "default": "x"}}},
            "defaulted2": {"type": "object", "properties": {"a": {"type": "string", "default": "y"}}},
            "nullable": {"type": "object", "properties": {"a": {"type": "string", "nullable": true}}},
            "int": {"type": "object", "properties": {"a": {"type": "integer"}}},
            "renamed": {"type": "object", "properties": {"A": {"type": "string"}}},
            "e1": {"type": "string", "enum": ["a", "b"]},
            "e2": {"type": "string", "enum": ["a", "b"], "default": "b"},
            "e3": {"type": "string", "enum": ["b", "a"]},
            "same": obj(json!({"description": "only the doc differs"}))})));
        let n = names(&s);
        // Ten structs and three enums besides the root and the spec.
        assert_eq!(n.len(), 2 + 10 + 3, "{n:?}");
        assert_eq!(field_type(&s, "WidgetSpec", "same"), "WidgetSpecPlain");
        // Preserved by itself or through `items` decodes the same, but only
        // the first states it in its schema.
        assert_eq!(field_type(&s, "WidgetSpec", "list"), "WidgetSpecList");
    }

    #[test]
    fn described_and_undescribed_nodes_stay_apart() {
        let obj = |doc: Option<&str>| {
            let mut o = json!({"type": "object", "properties": {"a": {"type": "string"}}});
            if let Some(doc) = doc {
                o["description"] = json!(doc);
            }
            o
        };
        let s = space(spec(json!({"x": obj(Some("x")), "y": obj(None), "z": obj(Some("z")), "w": obj(None)})));
        assert_eq!(field_type(&s, "WidgetSpec", "z"), "WidgetSpecX");
        assert_eq!(field_type(&s, "WidgetSpec", "w"), "WidgetSpecY");
    }

    #[test]
    fn parents_of_merged_children_merge_too() {
        let outer = |doc: &str| {
            json!({"type": "object", "properties": {"inner": {"type": "object", "description": doc,
                "properties": {"x": {"type": "string"}}}}})
        };
        // The inner nodes' descriptions are also the fields' doc comments,
        // which must agree for the parents to share a type.
        let s = space(spec(json!({"a": outer("1"), "b": outer("1"),
            "c": {"type": "object", "properties": {"inner": {"type": "object", "properties": {"x": {"type": "integer"}}}}}})));
        assert_eq!(
            names(&s),
            ["Widget", "WidgetSpec", "WidgetSpecA", "WidgetSpecAInner", "WidgetSpecC", "WidgetSpecCInner"]
        );
        assert_eq!(field_type(&s, "WidgetSpec", "b"), "WidgetSpecA");
        let s = space(spec(json!({"a": outer("1"), "b": outer("2")})));
        assert_eq!(field_type(&s, "WidgetSpec", "b"), "WidgetSpecB");
    }
}
