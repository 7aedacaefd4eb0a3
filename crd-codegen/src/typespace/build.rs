//! Structural schema → types: the "Types" and "Fields" tables of
//! `docs/generated-code.md`.
//!
//! The walk mirrors the API server's pruning walk, so that what serde keeps
//! is what pruning keeps: preservation (`x-kubernetes-preserve-unknown-fields`)
//! is inherited through array `items` and nowhere else; the root and
//! embedded resources keep `apiVersion`/`kind`/`metadata` whatever their
//! listed schemas say. Types are named when created, parents first and
//! properties in schema order, so collision suffixes are stable. A node
//! that `loose.rs` replaced is documented on the field (or root type) that
//! holds it.

use foldhash::HashMap;

use serde_json::Value;

use super::{
    CrdAttrs, EnumDef, EnumDefault, Field, ModelOptions, Resource, Slot, Special, StructDef, TypeDef, TypeId, TypeKind,
    TypeRef, TypeSpace, keywords, loose,
};
use crate::naming::{self, Case, Names};
use crd_schema::field::Path;
use crd_schema::structural::{Structural, StructuralOrBool};

/// The JSON names a resource (root or embedded) owns.
const RESOURCE_KEYS: [&str; 3] = ["apiVersion", "kind", "metadata"];

/// One version to build types for.
pub(super) struct Input<'a> {
    /// The structural schema, `None` for a version without one: the
    /// types come from it, and so do the keywords the derive attributes
    /// state (`keywords.rs` writes each node's own keywords as JSON).
    pub schema: Option<&'a Structural>,
    /// The resource the root stands for.
    pub resource: Resource,
    /// What `#[crd(...)]` states.
    pub crd: CrdAttrs,
    /// The nodes `loose.rs` replaced, their paths relative to the schema.
    pub loose: &'a [loose::LooseNode],
}

/// Builds the types of one version; the root is `TypeId(0)`.
pub(super) fn build(input: Input<'_>, all_preserve: bool, options: ModelOptions) -> TypeSpace {
    let mut builder = Builder {
        space: TypeSpace::default(),
        names: Names::new(Case::Camel),
        all_preserve,
        options,
        root: String::new(),
        loose: input.loose.iter().map(|n| (n.path.clone(), n.clone())).collect(),
        derived: keywords::Derived::default(),
        spellings: naming::Spellings::default(),
    };
    builder.root(input);
    builder.space.doc_lines = builder.derived.into_lines();
    builder.space
}

struct Builder {
    space: TypeSpace,
    names: Names,
    /// The CRD sets `spec.preserveUnknownFields: true`: nothing is pruned.
    all_preserve: bool,
    options: ModelOptions,
    /// The root type's name, the prefix of shortened nested names.
    root: String,
    /// The replaced nodes by path (relative to the schema).
    loose: HashMap<Path, loose::LooseNode>,
    /// The descriptions the derive reads back, worked out once each.
    derived: keywords::Derived,
    /// Property names as identifiers, worked out once each.
    spellings: naming::Spellings,
}

/// Where a struct sits, which decides its fixed fields.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Root,
    Embedded,
    Plain,
}

impl Builder {
    /// Reserves a name and a slot for a type whose content is built next,
    /// so that parents are numbered (and named) before their children.
    fn reserve(&mut self, wanted: &str, doc: &str) -> TypeId {
        let name = self.names.claim(wanted);
        let id = TypeId(self.space.types.len());
        let kind = TypeKind::Struct(StructDef::default());
        self.space.types.push(TypeDef { name, doc: doc.to_owned(), kind });
        id
    }

    fn name_of(&self, id: TypeId) -> String {
        self.space.get(id).map(|t| t.name.clone()).unwrap_or_default()
    }

    fn set(&mut self, id: TypeId, kind: TypeKind) {
        if let Some(def) = self.space.types.get_mut(id.0) {
            def.kind = kind;
        }
    }

    fn root(&mut self, input: Input<'_>) {
        let empty = Structural::default();
        let schema = input.schema;
        let description = schema.map(|s| s.generic.description.as_str()).unwrap_or_default();
        let note = self.loose.get(&Path::root()).and_then(|n| loose::note(n, ""));
        let doc = loose::with_note(description, note);
        let id = self.reserve(&naming::kind_type_name(&input.resource.kind), &doc);
        self.root = self.name_of(id);
        // A version without schema prunes nothing: everything is kept.
        let preserve = schema.is_none_or(|s| s.extensions.x_preserve_unknown_fields) || self.all_preserve;
        let mut def = self.struct_def(id, schema.unwrap_or(&empty), Place::Root, preserve, &Path::root());
        def.schema = schema
            .map(|s| keywords::type_keywords(s, &doc, def.flatten_in_schema, &mut self.derived))
            .unwrap_or_default();
        def.resource = Some(input.resource);
        def.crd = Some(Box::new(input.crd));
        self.set(id, TypeKind::Struct(def));
    }

    /// The type of a value with schema `schema` at `at`; `preserving` is
    /// the preservation inherited from an enclosing array.
    fn node(&mut self, schema: &Structural, wanted: &str, preserving: bool, at: &Path) -> TypeRef {
        let preserve = schema.extensions.x_preserve_unknown_fields || preserving || self.all_preserve;
        if schema.extensions.x_int_or_string {
            return TypeRef::IntOrString;
        }
        match schema.generic.type_.as_str() {
            "array" => match &schema.items {
                Some(items) => {
                    let item = self.node(items, wanted, preserve, &at.child("items"));
                    TypeRef::Vec(Box::new(nullable(items, item)))
                }
                None => TypeRef::Vec(Box::new(TypeRef::Value)),
            },
            "string" => self.string(schema, wanted),
            "integer" if schema.value_validation.format == "int32" => TypeRef::I32,
            "integer" => TypeRef::I64,
            "number" => TypeRef::F64,
            "boolean" => TypeRef::Bool,
            "object" => self.object(schema, wanted, preserve, at),
            // An untyped node (structural only when it preserves unknown
            // fields) takes any JSON value, which only `Value` holds; its
            // `properties` and `additionalProperties` are keywords.
            _ => TypeRef::Value,
        }
    }

    fn object(&mut self, schema: &Structural, wanted: &str, preserve: bool, at: &Path) -> TypeRef {
        let place = if schema.extensions.x_embedded_resource { Place::Embedded } else { Place::Plain };
        if place == Place::Plain && schema.properties.is_empty() {
            match &schema.additional_properties {
                Some(StructuralOrBool::Structural(values)) => {
                    let values_at = at.child("additionalProperties");
                    let value = self.node(values, wanted, false, &values_at);
                    return TypeRef::Map(Box::new(nullable(values, value)));
                }
                // Values without a schema: pruning empties nested objects,
                // which no Rust type expresses; `Value` keeps them as given.
                Some(StructuralOrBool::Bool(_)) => return TypeRef::Map(Box::new(TypeRef::Value)),
                None if preserve || schema.generic.type_.is_empty() => return TypeRef::Value,
                None => {}
            }
        }
        let id = self.reserve(wanted, &schema.generic.description);
        let def = self.struct_def(id, schema, place, preserve, at);
        self.set(id, TypeKind::Struct(def));
        TypeRef::Named(id)
    }

    fn struct_def(&mut self, id: TypeId, schema: &Structural, place: Place, preserve: bool, at: &Path) -> StructDef {
        let parent = self.name_of(id);
        let mut idents = Names::new(Case::Snake);
        let required = schema.value_validation.required.as_deref().unwrap_or_default();
        let mut fields = match place {
            Place::Plain => Vec::new(),
            _ => self.resource_fields(schema, place, &mut idents),
        };
        let flatten = preserve.then(|| idents.claim("additional_properties"));
        for (json, property) in &schema.properties {
            if place != Place::Plain && RESOURCE_KEYS.contains(&json.as_str()) {
                continue;
            }
            let ident = idents.claim(self.spellings.snake(json));
            let property_at = at.child("properties").key(json.as_str());
            let wanted = naming::nested_type_name(&parent, &self.root, self.spellings.camel(json));
            let ty = self.node(property, &wanted, false, &property_at);
            let slot = slot(property, &ty, required.contains(json));
            let doc = loose::with_note(&property.generic.description, self.note(property, &property_at));
            let item_default = item_default(property, &ty);
            let schema_required = required.contains(json) && slot != Slot::Required;
            let keywords = keywords::field_keywords(&self.space, property, &ty, &doc, &mut self.derived);
            fields.push(Field {
                ident,
                json: json.clone(),
                ty,
                slot,
                item_default,
                doc,
                special: None,
                schema: keywords,
                schema_required,
                schema_skip: false,
            });
        }
        let flatten_in_schema = flatten.is_some() && schema.extensions.x_preserve_unknown_fields;
        // The fields' types are complete: children are built before their
        // parent's fields are collected.
        let has_default = fields.iter().all(|f| self.space.field_has_default(f));
        StructDef {
            fields,
            flatten,
            resource: None,
            schema: Default::default(),
            flatten_in_schema,
            crd: None,
            has_default,
        }
    }

    /// `apiVersion`, `kind` and `metadata` of the root (always there) or of
    /// an embedded resource (kept as given), documented by the listed
    /// schemas; in the derived schema only when listed.
    fn resource_fields(&mut self, schema: &Structural, place: Place, idents: &mut Names) -> Vec<Field> {
        let required = schema.value_validation.required.as_deref().unwrap_or_default();
        let specials = [
            ("apiVersion", TypeRef::String, Special::ApiVersion),
            ("kind", TypeRef::String, Special::Kind),
            ("metadata", TypeRef::ObjectMeta, Special::Metadata),
        ];
        specials
            .into_iter()
            .map(|(json, ty, special)| {
                let slot = match (place, special) {
                    (Place::Root, Special::Metadata) => Slot::DefaultWhenAbsent,
                    (Place::Root, _) => Slot::Required,
                    _ => Slot::Optional,
                };
                let listed = schema.property(json);
                let doc = listed.map(|p| p.generic.description.clone()).unwrap_or_default();
                let (space, derived) = (&self.space, &mut self.derived);
                let keywords = listed.map(|p| keywords::field_keywords(space, p, &ty, &doc, derived));
                Field {
                    ident: idents.claim(self.spellings.snake(json)),
                    json: json.to_owned(),
                    ty,
                    slot,
                    item_default: None,
                    doc,
                    special: Some(special),
                    schema: keywords.unwrap_or_default(),
                    schema_required: required.iter().any(|r| r == json),
                    schema_skip: listed.is_none(),
                }
            })
            .collect()
    }

    /// The note on a replaced node that a field's type holds: the field's
    /// own node, or its items or values (and theirs) — the nodes its type
    /// reaches without a struct between. At most one: a replaced node has
    /// no children.
    fn note(&self, schema: &Structural, at: &Path) -> Option<String> {
        if self.loose.is_empty() {
            return None;
        }
        let (mut node, mut at, mut within) = (schema, at.clone(), Vec::new());
        loop {
            if let Some(loose) = self.loose.get(&at) {
                return loose::note(loose, &within.join("."));
            }
            let (next, key) = match (&node.items, node.additional_properties_schema()) {
                (Some(items), _) => (items.as_ref(), "items"),
                (None, Some(values)) if node.properties.is_empty() => (values, "additionalProperties"),
                _ => return None,
            };
            (node, at) = (next, at.child(key));
            within.push(key);
        }
    }

    fn string(&mut self, schema: &Structural, wanted: &str) -> TypeRef {
        let values = &schema.value_validation.enum_;
        let strings: Vec<&str> = values.iter().filter_map(Value::as_str).collect();
        // `null` may be listed for a nullable enum; the field's `Option`
        // carries it. Any other non-string makes it a plain string.
        if strings.is_empty() || values.iter().any(|v| !v.is_string() && !v.is_null()) {
            return TypeRef::String;
        }
        let id = self.reserve(wanted, &schema.generic.description);
        let def = enum_def(&strings, schema.generic.default.as_ref(), self.options.strict_enums, &mut self.spellings);
        self.set(id, TypeKind::Enum(def));
        TypeRef::Named(id)
    }
}

/// The JSON of child `key` of a schema node (`Null` when absent).
/// An item or map value type: `Option<T>` when the schema is nullable.
fn nullable(schema: &Structural, ty: TypeRef) -> TypeRef {
    if schema.generic.nullable { TypeRef::Option(Box::new(ty)) } else { ty }
}

/// The default that replaces a `null` item of the field's own array, or
/// value of its own map, when they are not nullable (the API server's
/// defaulting does so before null pruning).
fn item_default(schema: &Structural, ty: &TypeRef) -> Option<Value> {
    let items = match ty {
        TypeRef::Vec(item) if !matches!(**item, TypeRef::Option(_)) => schema.items.as_deref()?,
        TypeRef::Map(value) if !matches!(**value, TypeRef::Option(_)) => match &schema.additional_properties {
            Some(StructuralOrBool::Structural(values)) => values,
            _ => return None,
        },
        _ => return None,
    };
    items.generic.default.clone()
}

/// The field table of the contract. A required `Value` is optional all the
/// same: `Value` would accept `null`, which null pruning removes.
fn slot(schema: &Structural, ty: &TypeRef, required: bool) -> Slot {
    match (&schema.generic.default, schema.generic.nullable) {
        (Some(default), false) => Slot::Defaulted(default.clone()),
        (Some(default), true) => Slot::NullableDefaulted(default.clone()),
        (None, true) => Slot::Nullable,
        (None, false) if required && *ty != TypeRef::Value => Slot::Required,
        (None, false) => Slot::Optional,
    }
}

fn enum_def(values: &[&str], default: Option<&Value>, strict: bool, spellings: &mut naming::Spellings) -> EnumDef {
    let mut idents = Names::new(Case::Camel);
    let mut variants: Vec<(String, String)> = Vec::with_capacity(values.len());
    for value in values {
        if !variants.iter().any(|(_, v)| v == value) {
            variants.push((idents.claim(spellings.camel(value)), (*value).to_owned()));
        }
    }
    // A listed "Unknown" (condition statuses) keeps its natural name; the
    // catch-all then becomes `Other`.
    let catch_all = (!strict).then(|| idents.claim(if idents.contains("Unknown") { "Other" } else { "Unknown" }));
    // No schema default, no `Default`; an unlisted default of a strict
    // enum (which the API server would not accept) has no variant either.
    let default =
        default.and_then(Value::as_str).and_then(|value| match variants.iter().position(|(_, v)| v == value) {
            Some(i) => Some(EnumDefault::Variant(i)),
            None => catch_all.is_some().then(|| EnumDefault::Unknown(value.to_owned())),
        });
    EnumDef { variants, catch_all, default }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn space(schema_json: Value) -> TypeSpace {
        let schema = Structural::from_json(&schema_json).unwrap();
        let input = Input {
            schema: Some(&schema),
            resource: super::super::test_resource(),
            crd: CrdAttrs::default(),
            loose: &[],
        };
        build(input, false, ModelOptions::default())
    }

    fn struct_of(space: &TypeSpace, name: &str) -> StructDef {
        match space.types.iter().find(|t| t.name == name).map(|t| &t.kind) {
            Some(TypeKind::Struct(s)) => s.clone(),
            other => panic!("{name}: {other:?}"),
        }
    }

    fn field<'a>(s: &'a StructDef, json: &str) -> &'a Field {
        s.fields.iter().find(|f| f.json == json).unwrap()
    }

    #[test]
    fn root_owns_api_version_kind_metadata() {
        let s = space(json!({"type": "object", "properties": {
            "apiVersion": {"type": "string", "description": "v"}, "kind": {"type": "string"},
            "metadata": {"type": "object"}, "spec": {"type": "object", "properties": {"a": {"type": "string"}}}}}));
        let root = struct_of(&s, "Widget");
        let names: Vec<&str> = root.fields.iter().map(|f| f.ident.as_str()).collect();
        assert_eq!(names, ["api_version", "kind", "metadata", "spec"]);
        assert_eq!(root.fields[0].doc, "v");
        assert_eq!(field(&root, "metadata").ty, TypeRef::ObjectMeta);
        assert_eq!(field(&root, "spec").slot, Slot::Optional);
        assert!(root.flatten.is_none());
        assert_eq!(s.types[1].name, "WidgetSpec");
    }

    #[test]
    fn preservation_is_inherited_through_items_only() {
        let s = space(json!({"type": "object", "properties": {"spec": {
            "type": "object", "x-kubernetes-preserve-unknown-fields": true, "properties": {
                "list": {"type": "array", "items": {"type": "object", "properties": {"a": {"type": "string"}}}},
                "obj": {"type": "object", "properties": {"b": {"type": "string"}}},
                "free": {"type": "object"},
                "map": {"type": "object", "additionalProperties": {"type": "object"}}}}}}));
        assert!(struct_of(&s, "WidgetSpec").flatten.is_some());
        assert!(struct_of(&s, "WidgetSpecObj").flatten.is_none());
        assert!(struct_of(&s, "WidgetSpecFree").fields.is_empty());
        let arr = space(json!({"type": "object", "properties": {"spec": {"type": "object", "properties": {
            "list": {"type": "array", "x-kubernetes-preserve-unknown-fields": true,
                "items": {"type": "object", "properties": {"a": {"type": "string"}}}}}}}}));
        assert!(struct_of(&arr, "WidgetSpecList").flatten.is_some());
    }

    #[test]
    fn slots_follow_the_field_table() {
        let s = space(json!({"type": "object", "properties": {"spec": {"type": "object", "required": ["r"],
            "properties": {
                "r": {"type": "string"}, "o": {"type": "string"}, "d": {"type": "integer", "default": 3},
                "nd": {"type": "integer", "nullable": true, "default": 3}, "n": {"type": "string", "nullable": true},
                "m": {"type": "object", "additionalProperties": {"type": "string", "nullable": true}}}}}}));
        let spec = struct_of(&s, "WidgetSpec");
        assert_eq!(field(&spec, "r").slot, Slot::Required);
        assert_eq!(field(&spec, "o").slot, Slot::Optional);
        assert_eq!(field(&spec, "d").slot, Slot::Defaulted(json!(3)));
        assert_eq!(field(&spec, "nd").slot, Slot::NullableDefaulted(json!(3)));
        assert_eq!(field(&spec, "n").slot, Slot::Nullable);
        assert_eq!(field(&spec, "m").ty, TypeRef::Map(Box::new(TypeRef::Option(Box::new(TypeRef::String)))));
    }

    #[test]
    fn type_names_collide_deterministically() {
        let s = space(json!({"type": "object", "properties": {"spec": {"type": "object", "properties": {
            "fooBar": {"type": "object", "properties": {"x": {"type": "string"}}},
            "foo": {"type": "object", "properties": {"bar": {"type": "object", "properties": {"y": {"type": "string"}}}}},
            "foo-bar": {"type": "object", "properties": {"z": {"type": "string"}}}}}}}));
        let names: Vec<&str> = s.types.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(
            names,
            ["Widget", "WidgetSpec", "WidgetSpecFooBar", "WidgetSpecFoo", "WidgetSpecFooBar2", "WidgetSpecFooBar3"]
        );
    }

    #[test]
    fn enums() {
        let e = enum_def(&["True", "False", "Unknown"], None, false, &mut Default::default());
        assert_eq!(e.catch_all.as_deref(), Some("Other"));
        let e = enum_def(&["a", "b", "a"], Some(&json!("c")), false, &mut Default::default());
        assert_eq!(e.variants.len(), 2);
        assert_eq!(e.default, Some(EnumDefault::Unknown("c".into())));
        let e = enum_def(&["a", "b"], Some(&json!("b")), true, &mut Default::default());
        assert_eq!((e.catch_all, e.default), (None, Some(EnumDefault::Variant(1))));
        assert_eq!(enum_def(&["a", "b"], None, false, &mut Default::default()).default, None);
        assert_eq!(enum_def(&["a", "b"], Some(&json!("c")), true, &mut Default::default()).default, None);
    }

    #[test]
    fn embedded_resources_keep_their_header() {
        let s = space(json!({"type": "object", "properties": {"template": {"type": "object",
            "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true}}}));
        let t = struct_of(&s, "WidgetTemplate");
        let names: Vec<&str> = t.fields.iter().map(|f| f.ident.as_str()).collect();
        assert_eq!(names, ["api_version", "kind", "metadata"]);
        assert!(t.fields.iter().all(|f| f.slot == Slot::Optional));
        assert_eq!(t.flatten.as_deref(), Some("additional_properties"));
    }
}
