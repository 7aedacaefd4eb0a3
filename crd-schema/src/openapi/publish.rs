//! One CRD version's published definitions (`builder.go`), and the steps
//! they are made of: int-or-string unfolding (`unfold.go`), the v2 filter
//! (`v2/conversion.go`) and the conversion back to OpenAPI
//! (`kubeopenapi.go`).

use serde_json::{Map, Value, json};

use super::OpenApiError;
use crate::crd::{CrdSpec, SelectableField};
use crate::field::Path;
use crate::structural::{
    self, Extensions, Generic, NestedValueValidation, Structural, StructuralOrBool, ValidationExtensions,
    ValidationOptions, ValueValidation, is_int_or_string_any_of,
};
use crate::wire::{JSONSchemaProps, SchemaOrArray, SchemaOrBool};

/// What to build.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The Swagger 2.0 (OpenAPI v2) form: junctors dropped, `nullable` and
    /// preserve-unknown-fields nodes loosened, references to `#/definitions/`.
    pub v2: bool,
    /// Add `x-kubernetes-selectable-fields` (the CRDFieldSelectors gate).
    pub include_selectable_fields: bool,
}

/// The published definitions of one CRD version.
#[derive(Clone, Debug, PartialEq)]
pub struct Definitions {
    /// `io.k8s.<reversed group>.<version>.<Kind>`.
    pub kind_name: String,
    /// The kind's definition.
    pub kind: Value,
    /// `io.k8s.<reversed group>.<version>.<ListKind>`.
    pub list_name: String,
    /// The list's definition.
    pub list: Value,
}

/// The `meta/v1` definitions the CRD definitions refer to.
const OBJECT_META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
const LIST_META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta";

const METADATA_DESCRIPTION: &str = "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";
const LIST_METADATA_DESCRIPTION: &str = "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";
const API_VERSION_DESCRIPTION: &str = "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources";
const KIND_DESCRIPTION: &str = "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";
const EMBEDDED_API_VERSION_DESCRIPTION: &str = "apiVersion defines the versioned schema of this representation of an object. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources";
const EMBEDDED_KIND_DESCRIPTION: &str = "kind is a string value representing the type of this object. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";

/// The definition name of a kind: the group's segments reversed, then
/// version and kind (`bar.k8s.io`, `v1`, `Foo` → `io.k8s.bar.v1.Foo`).
pub fn definition_name(group: &str, version: &str, kind: &str) -> String {
    let mut segments: Vec<&str> = group.split('.').collect();
    segments.reverse();
    format!("{}.{version}.{kind}", segments.join("."))
}

/// A reference to definition `name`, with an optional description: in v2
/// `{"$ref": "#/definitions/<name>", "description": ...}`, in v3
/// `#/components/schemas/<name>`, wrapped in `allOf` when it has a
/// description (OpenAPI 3.0 ignores siblings of `$ref`).
pub fn reference(name: &str, description: Option<&str>, v2: bool) -> Value {
    let mut m = Map::new();
    if v2 {
        m.insert("$ref".to_owned(), Value::String(format!("#/definitions/{name}")));
    } else {
        let target = json!({"$ref": format!("#/components/schemas/{name}")});
        if description.is_none() {
            return target;
        }
        m.insert("allOf".to_owned(), Value::Array(vec![target]));
    }
    if let Some(d) = description {
        m.insert("description".to_owned(), Value::String(d.to_owned()));
    }
    Value::Object(m)
}

/// The definitions of `version` of `spec`, as the API server publishes
/// them. Fails when the CRD has no such version.
///
/// The version's schema is published only when every `type` is valid and
/// it is structural (or the CRD sets `preserveUnknownFields`); otherwise,
/// and in v2 when unknown fields are preserved at the root, the kind is
/// just `{"type": "object"}` with its group-version-kind.
pub fn definitions(spec: &CrdSpec, version: &str, options: Options) -> Result<Definitions, OpenApiError> {
    let index = spec.versions.iter().position(|v| v.name == version).ok_or_else(|| OpenApiError::NoSuchVersion {
        group: spec.group.clone(),
        kind: spec.names.kind.clone(),
        version: version.to_owned(),
    })?;
    let crd_preserve = spec.preserve_unknown_fields == Some(true);
    let schema = spec.version_schema(index).and_then(|props| publishable(props, crd_preserve));
    let v2 = options.v2;

    let mut kind = match schema {
        Some(s) if !(v2 && (s.extensions.x_preserve_unknown_fields || crd_preserve)) => {
            let s = if v2 { to_v2(&s) } else { s };
            let mut ret = to_openapi(&s);
            let props = properties_of(&mut ret);
            props.insert("metadata".to_owned(), reference(OBJECT_META, Some(METADATA_DESCRIPTION), v2));
            props.insert("apiVersion".to_owned(), string_schema(API_VERSION_DESCRIPTION));
            props.insert("kind".to_owned(), string_schema(KIND_DESCRIPTION));
            add_embedded_properties(&mut ret, v2);
            ret
        }
        _ => json!({"type": "object"}),
    };
    let gvk = |kind: &str| json!([{"group": spec.group, "kind": kind, "version": version}]);
    if let Value::Object(m) = &mut kind {
        m.insert("x-kubernetes-group-version-kind".to_owned(), gvk(&spec.names.kind));
        if options.include_selectable_fields
            && let Some(fields) = selectable_fields(spec.selectable_fields_for_version(version))
        {
            m.insert("x-kubernetes-selectable-fields".to_owned(), fields);
        }
    }

    let kind_name = definition_name(&spec.group, version, &spec.names.kind);
    let list_name = definition_name(&spec.group, version, &spec.names.list_kind);
    let list = json!({
        "type": "object",
        "description": format!("{} is a list of {}", spec.names.list_kind, spec.names.kind),
        "required": ["items"],
        "properties": {
            "items": {
                "type": "array",
                "description": format!("List of {}. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md", spec.names.plural),
                "items": reference(&kind_name, None, v2),
            },
            "metadata": reference(LIST_META, Some(LIST_METADATA_DESCRIPTION), v2),
            "apiVersion": string_schema(API_VERSION_DESCRIPTION),
            "kind": string_schema(KIND_DESCRIPTION),
        },
        "x-kubernetes-group-version-kind": gvk(&spec.names.list_kind),
    });
    Ok(Definitions { kind_name, kind, list_name, list })
}

/// The structural, unfolded form of a version's schema if the server
/// publishes it.
fn publishable(props: &JSONSchemaProps, crd_preserve: bool) -> Option<Structural> {
    if crate::validation::schema_has_invalid_types(props) {
        return None;
    }
    let s = structural::new_structural(props).ok()?;
    let valid =
        crd_preserve || structural::validate_structural(&Path::root(), &s, &ValidationOptions::default()).is_empty();
    valid.then(|| unfold(&s))
}

/// `x-kubernetes-selectable-fields` of a version: each `jsonPath` without
/// its leading `.`.
fn selectable_fields(fields: &[SelectableField]) -> Option<Value> {
    let out =
        fields.iter().map(|f| json!({"fieldPath": f.json_path.strip_prefix('.').unwrap_or(&f.json_path)})).collect();
    (!fields.is_empty()).then_some(Value::Array(out))
}

fn string_schema(description: &str) -> Value {
    json!({"type": "string", "description": description})
}

/// The `properties` map of a schema object, created when absent.
fn properties_of(schema: &mut Value) -> &mut Map<String, Value> {
    if !schema.is_object() {
        *schema = Value::Object(Map::new());
    }
    let Value::Object(m) = schema else { unreachable!("made an object above") };
    let props = m.entry("properties").or_insert_with(|| Value::Object(Map::new()));
    if !props.is_object() {
        *props = Value::Object(Map::new());
    }
    match props {
        Value::Object(p) => p,
        _ => unreachable!("made an object above"),
    }
}

/// Completes every embedded resource below `schema` (through `properties`,
/// `items` and `additionalProperties`) with `apiVersion`, `kind` and
/// `metadata`, and requires `kind` and `apiVersion`. In v2 an embedded
/// resource that preserves unknown fields is left alone.
fn add_embedded_properties(schema: &mut Value, v2: bool) {
    let Value::Object(m) = schema else { return };
    if let Some(Value::Object(props)) = m.get_mut("properties") {
        for (_, p) in props.iter_mut() {
            add_embedded_properties(p, v2);
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(child) = m.get_mut(key) {
            add_embedded_properties(child, v2);
        }
    }
    let flag = |m: &Map<String, Value>, k: &str| m.get(k) == Some(&Value::Bool(true));
    if v2 && flag(m, "x-kubernetes-preserve-unknown-fields") {
        return;
    }
    if !flag(m, "x-kubernetes-embedded-resource") {
        return;
    }
    let props = properties_of(schema);
    props.insert("apiVersion".to_owned(), string_schema(EMBEDDED_API_VERSION_DESCRIPTION));
    props.insert("kind".to_owned(), string_schema(EMBEDDED_KIND_DESCRIPTION));
    props.insert("metadata".to_owned(), reference(OBJECT_META, Some(METADATA_DESCRIPTION), v2));
    let Value::Object(m) = schema else { return };
    let required = m.entry("required").or_insert_with(|| Value::Array(Vec::new()));
    if let Value::Array(list) = required {
        for name in ["kind", "apiVersion"] {
            if !list.iter().any(|r| r == name) {
                list.push(Value::String(name.to_owned()));
            }
        }
    }
}

/// Int-or-string unfolding on every structural node (not inside junctors):
/// a node with `x-kubernetes-int-or-string` gets
/// `anyOf: [{type: integer}, {type: string}]`, or, when it already has an
/// `anyOf`, that `anyOf` prepended to `allOf` as a schema of its own;
/// nothing when the node (or its first `allOf` entry) already has exactly
/// that `anyOf`.
pub fn unfold(schema: &Structural) -> Structural {
    let mut s = schema.clone();
    unfold_in_place(&mut s);
    s
}

fn int_or_string_any_of() -> Vec<NestedValueValidation> {
    let typed = |t: &str| NestedValueValidation {
        forbidden_generics: Generic { type_: t.to_owned(), ..Generic::default() },
        ..NestedValueValidation::default()
    };
    vec![typed("integer"), typed("string")]
}

fn unfold_in_place(s: &mut Structural) {
    if s.extensions.x_int_or_string {
        let vv = &mut s.value_validation;
        let done = is_int_or_string_any_of(&vv.any_of)
            || vv.all_of.first().is_some_and(|first| is_int_or_string_any_of(&first.value_validation.any_of));
        if !done {
            if vv.any_of.is_empty() {
                vv.any_of = int_or_string_any_of();
            } else {
                let wrapped = NestedValueValidation {
                    value_validation: ValueValidation { any_of: int_or_string_any_of(), ..ValueValidation::default() },
                    ..NestedValueValidation::default()
                };
                vv.all_of.insert(0, wrapped);
            }
        }
    }
    for_each_child(s, unfold_in_place);
}

fn for_each_child(s: &mut Structural, f: fn(&mut Structural)) {
    for (_, p) in &mut s.properties {
        f(p);
    }
    if let Some(items) = &mut s.items {
        f(items);
    }
    if let Some(StructuralOrBool::Structural(a)) = &mut s.additional_properties {
        f(a);
    }
}

/// The v2 filter, top-down on every structural node: junctors are dropped;
/// a `nullable` node loses `type`, `nullable`, `items` and `properties`; a
/// node preserving unknown fields loses `items` and `properties` (and
/// `type` when it is `object`); an `array` without `items` loses its type;
/// `required` loses the properties that are `nullable`, and is dropped
/// when the `additionalProperties` schema is nullable.
pub fn to_v2(schema: &Structural) -> Structural {
    let mut s = schema.clone();
    to_v2_in_place(&mut s);
    s
}

fn to_v2_in_place(s: &mut Structural) {
    let vv = &mut s.value_validation;
    vv.all_of.clear();
    vv.one_of.clear();
    vv.any_of.clear();
    vv.not = None;
    if s.generic.nullable {
        s.generic.type_.clear();
        s.generic.nullable = false;
        s.items = None;
        s.properties.clear();
    }
    if s.extensions.x_preserve_unknown_fields {
        s.items = None;
        s.properties.clear();
    }
    if s.items.is_none() && s.generic.type_ == "array" {
        s.generic.type_.clear();
    }
    if s.extensions.x_preserve_unknown_fields && s.generic.type_ == "object" {
        s.generic.type_.clear();
    }
    let nullable: Vec<String> =
        s.properties.iter().filter(|(_, p)| p.generic.nullable).map(|(name, _)| name.clone()).collect();
    for name in nullable {
        s.value_validation.required = filter_required(s.value_validation.required.as_deref(), &name).0;
    }
    if s.additional_properties_schema().is_some_and(|a| a.generic.nullable) {
        s.value_validation.required = None;
    }
    for_each_child(s, to_v2_in_place);
}

/// Removes every occurrence of `name` from a `required` list. Returns the
/// list (`None` when it ends up empty; the input, unchanged, when nothing
/// was removed) and whether anything was removed.
pub fn filter_required(required: Option<&[String]>, name: &str) -> (Option<Vec<String>>, bool) {
    let Some(list) = required else { return (None, false) };
    if !list.iter().any(|r| r == name) {
        return (Some(list.to_vec()), false);
    }
    let kept: Vec<String> = list.iter().filter(|r| *r != name).cloned().collect();
    ((!kept.is_empty()).then_some(kept), true)
}

/// The structural form as OpenAPI JSON (`ToKubeOpenAPI`): every keyword
/// under its JSON name, empty lists and `false` flags omitted, and no
/// `additionalProperties` inside junctors.
pub fn to_openapi(schema: &Structural) -> Value {
    structural_props(schema).to_value()
}

fn structural_props(s: &Structural) -> JSONSchemaProps {
    let mut p = JSONSchemaProps::default();
    set_generic(&mut p, &s.generic);
    set_extensions(&mut p, &s.extensions);
    set_validation_extensions(&mut p, &s.validation_extensions);
    set_value_validation(&mut p, &s.value_validation);
    p.items = s.items.as_ref().map(|i| SchemaOrArray::Schema(Box::new(structural_props(i))));
    if !s.properties.is_empty() {
        p.properties = Some(s.properties.iter().map(|(k, v)| (k.clone(), structural_props(v))).collect());
    }
    p.additional_properties = s.additional_properties.as_ref().map(|a| match a {
        StructuralOrBool::Bool(b) => SchemaOrBool::Bool(*b),
        StructuralOrBool::Structural(x) => SchemaOrBool::Schema(Box::new(structural_props(x))),
    });
    p
}

fn nested_props(v: &NestedValueValidation) -> JSONSchemaProps {
    let mut p = JSONSchemaProps::default();
    set_value_validation(&mut p, &v.value_validation);
    set_validation_extensions(&mut p, &v.validation_extensions);
    p.items = v.items.as_ref().map(|i| SchemaOrArray::Schema(Box::new(nested_props(i))));
    let props = v.properties();
    if !props.is_empty() {
        p.properties = Some(props.iter().map(|(k, x)| (k.clone(), nested_props(x))).collect());
    }
    set_generic(&mut p, &v.forbidden_generics);
    set_extensions(&mut p, &v.forbidden_extensions);
    p
}

fn set_generic(p: &mut JSONSchemaProps, g: &Generic) {
    p.description.clone_from(&g.description);
    p.type_.clone_from(&g.type_);
    p.title.clone_from(&g.title);
    p.default.clone_from(&g.default);
    p.nullable = g.nullable;
    p.external_docs.clone_from(&g.external_docs);
    p.example.clone_from(&g.example);
}

fn set_extensions(p: &mut JSONSchemaProps, x: &Extensions) {
    p.x_preserve_unknown_fields = x.x_preserve_unknown_fields.then_some(true);
    p.x_embedded_resource = x.x_embedded_resource;
    p.x_int_or_string = x.x_int_or_string;
    p.x_list_map_keys = x.x_list_map_keys.clone().filter(|k| !k.is_empty());
    p.x_list_type.clone_from(&x.x_list_type);
    p.x_map_type.clone_from(&x.x_map_type);
}

fn set_validation_extensions(p: &mut JSONSchemaProps, x: &ValidationExtensions) {
    p.x_validations = x.x_validations.clone().filter(|r| !r.is_empty());
}

fn set_value_validation(p: &mut JSONSchemaProps, v: &ValueValidation) {
    let list = |l: &[NestedValueValidation]| (!l.is_empty()).then(|| l.iter().map(nested_props).collect());
    p.format.clone_from(&v.format);
    p.maximum = v.maximum;
    p.exclusive_maximum = v.exclusive_maximum;
    p.minimum = v.minimum;
    p.exclusive_minimum = v.exclusive_minimum;
    p.max_length = v.max_length;
    p.min_length = v.min_length;
    p.pattern.clone_from(&v.pattern);
    p.max_items = v.max_items;
    p.min_items = v.min_items;
    p.unique_items = v.unique_items;
    p.multiple_of = v.multiple_of;
    p.enum_ = (!v.enum_.is_empty()).then(|| v.enum_.clone());
    p.max_properties = v.max_properties;
    p.min_properties = v.min_properties;
    p.required = v.required.clone().filter(|r| !r.is_empty());
    p.all_of = list(&v.all_of);
    p.one_of = list(&v.one_of);
    p.any_of = list(&v.any_of);
    p.not = v.not.as_ref().map(|n| Box::new(nested_props(n)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_references() {
        assert_eq!(definition_name("cert-manager.io", "v1", "Certificate"), "io.cert-manager.v1.Certificate");
        assert_eq!(reference("a.B", None, false), json!({"$ref": "#/components/schemas/a.B"}));
        assert_eq!(
            reference("a.B", Some("d"), false),
            json!({"allOf": [{"$ref": "#/components/schemas/a.B"}], "description": "d"})
        );
        assert_eq!(reference("a.B", Some("d"), true), json!({"$ref": "#/definitions/a.B", "description": "d"}));
    }

    #[test]
    fn unknown_versions_are_an_error() {
        let spec = CrdSpec { group: "g.io".into(), ..CrdSpec::default() };
        assert_eq!(
            definitions(&spec, "v1", Options::default()).unwrap_err().to_string(),
            "CRD g.io/ has no version \"v1\""
        );
    }

    #[test]
    fn embedded_resources_in_lists_and_maps_are_completed() {
        let s = Structural::from_json(&json!({"type": "object", "properties": {
            "l": {"type": "array", "items": {"type": "object", "x-kubernetes-embedded-resource": true,
                "x-kubernetes-preserve-unknown-fields": true}}}}))
        .unwrap();
        let mut v3 = to_openapi(&s);
        add_embedded_properties(&mut v3, false);
        assert_eq!(v3["properties"]["l"]["items"]["required"], json!(["kind", "apiVersion"]));
        let mut v2 = to_openapi(&to_v2(&s));
        add_embedded_properties(&mut v2, true);
        assert_eq!(v2["properties"]["l"]["items"].get("required"), None);
    }
}
