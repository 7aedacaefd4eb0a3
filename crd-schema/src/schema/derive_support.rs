//! What `#[derive(CustomResourceSchema)]` expansions call (re-exported as
//! `crd_schema::__private`). Not a public API: the derive and this module
//! change together.

use serde::Serialize;
use serde_json::Value;

use super::{Schema, description_from_doc, overlay};

/// Applies the keywords the derive built from attributes (`overlay_json`
/// is a JSON object written by the derive at compile time).
///
/// # Panics
///
/// When `overlay_json` is not a JSON object: the derive writes it, so this
/// is a bug in the derive, never a user error.
pub fn merge(schema: &mut Schema, overlay_json: &str) {
    match serde_json::from_str::<Value>(overlay_json) {
        Ok(Value::Object(overlay)) => overlay::merge(schema, &overlay),
        _ => panic!("crd-derive wrote an invalid overlay: {overlay_json}"),
    }
}

/// Sets the description from doc comment text (`raw`: the `#[doc]` lines
/// joined with `\n`), unless it is empty.
pub fn set_doc(schema: &mut Schema, raw: &str) {
    let description = description_from_doc(raw);
    if !description.is_empty() {
        schema.insert("description".to_owned(), Value::String(description));
    }
}

/// Sets (or, with `None`, leaves alone) `default`.
pub fn set_default(schema: &mut Schema, value: Option<Value>) {
    if let Some(value) = value {
        schema.insert("default".to_owned(), value);
    }
}

/// The JSON of a serde default, `None` when it is `null` or does not
/// serialise.
pub fn default_value<T: Serialize + ?Sized>(value: &T) -> Option<Value> {
    serde_json::to_value(value).ok().filter(|v| !v.is_null())
}

/// A schema the derive wrote as JSON at compile time (the string enum of a
/// unit enum, the tag of a tagged enum, int-or-string).
///
/// # Panics
///
/// As [`merge`], when `json` is not a JSON object.
pub fn schema(json: &str) -> Schema {
    let mut schema = Schema::new();
    merge(&mut schema, json);
    schema
}

/// The content schema of an adjacently tagged enum (`enum_name`) whose
/// variants hold `contents`: one content, or several equal ones, is
/// itself; objects are hoisted into one object whose properties are all
/// optional (which variant requires what is not structural).
///
/// # Panics
///
/// When the contents are of different types (a string for one variant and
/// an object for another): no structural schema describes that value. Like
/// a recursive type, this shows the first time the schema is built.
pub fn union(enum_name: &str, contents: Vec<Schema>) -> Schema {
    let mut contents = contents.into_iter();
    let Some(first) = contents.next() else { return Schema::new() };
    let rest: Vec<Schema> = contents.collect();
    if rest.iter().all(|c| *c == first) {
        return first;
    }
    let is_object = |c: &Schema| c.get("type") == Some(&Value::String("object".to_owned()));
    if !is_object(&first) || !rest.iter().all(is_object) {
        let types: Vec<String> = std::iter::once(&first)
            .chain(&rest)
            .map(|c| c.get("type").map_or("any".to_owned(), Value::to_string))
            .collect();
        panic!(
            "the variants of adjacently tagged enum `{enum_name}` hold contents of different types ({}); \
             a structural schema cannot describe them",
            types.join(", ")
        );
    }
    let mut object = Object::new();
    for content in std::iter::once(first).chain(rest) {
        object.hoist_all(content);
    }
    object.finish()
}

/// Whether a flattened or hoisted schema keeps unknown fields (a map, or
/// `x-kubernetes-preserve-unknown-fields`).
fn keeps_unknown(schema: &Schema) -> bool {
    schema.contains_key("additionalProperties")
        || schema.get("x-kubernetes-preserve-unknown-fields") == Some(&Value::Bool(true))
}

/// A struct's schema under construction.
#[derive(Debug, Default)]
pub struct Object {
    properties: Schema,
    required: Vec<String>,
    preserve: bool,
    /// One rule per variant of an internally tagged enum (its tag value and
    /// its required fields), and whether any requires a field.
    variant_rules: Vec<Value>,
    variants_require: bool,
}

impl Object {
    /// An object with no properties yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds property `name`.
    pub fn property(&mut self, name: &str, schema: Schema, required: bool) {
        self.properties.insert(name.to_owned(), Value::Object(schema));
        if required && !self.required.iter().any(|r| r == name) {
            self.required.push(name.to_owned());
        }
    }

    /// Adds property `name` of one variant of a tagged enum: never
    /// required, and the first variant to name a property gives its schema.
    pub fn hoist(&mut self, name: &str, schema: Schema) {
        if !self.properties.contains_key(name) {
            self.properties.insert(name.to_owned(), Value::Object(schema));
        }
    }

    /// Hoists every property of `schema` (a variant's content) as
    /// [`Object::hoist`] does; a map or preserving content makes this
    /// object keep unknown fields, as [`Object::flatten`] does.
    pub fn hoist_all(&mut self, schema: Schema) {
        if let Some(Value::Object(properties)) = schema.get("properties") {
            for (name, property) in properties {
                if let Value::Object(property) = property {
                    self.hoist(name, property.clone());
                }
            }
        }
        self.preserve |= keeps_unknown(&schema);
    }

    /// Hoists the content of variant `name` of an enum tagged by property
    /// `tag` ([`Object::hoist_all`]) and records the variant's rule: when
    /// the tag names it, its required fields are present.
    pub fn hoist_variant(&mut self, tag: &str, name: &str, content: Schema) {
        let required = content.get("required").cloned().unwrap_or_else(|| Value::Array(Vec::new()));
        let mut rule = serde_json::Map::new();
        rule.insert("properties".to_owned(), serde_json::json!({ tag: { "enum": [name] } }));
        if required.as_array().is_some_and(|r| !r.is_empty()) {
            self.variants_require = true;
            rule.insert("required".to_owned(), required);
        }
        self.variant_rules.push(Value::Object(rule));
        self.hoist_all(content);
    }

    /// Merges a flattened field's schema: an object's properties and
    /// `required` join this one's; a map (or anything that keeps unknown
    /// fields) makes this object keep unknown fields.
    pub fn flatten(&mut self, schema: Schema) {
        if let Some(Value::Object(properties)) = schema.get("properties") {
            for (name, property) in properties {
                self.properties.insert(name.clone(), property.clone());
            }
        }
        if let Some(Value::Array(required)) = schema.get("required") {
            for name in required.iter().filter_map(Value::as_str) {
                if !self.required.iter().any(|r| r == name) {
                    self.required.push(name.to_owned());
                }
            }
        }
        self.preserve |= keeps_unknown(&schema);
    }

    /// The object schema: `type: object`, then `properties` and `required`
    /// when not empty, then `x-kubernetes-preserve-unknown-fields`, then
    /// the variant rules of [`Object::hoist_variant`] as a `oneOf` when a
    /// variant requires a field.
    pub fn finish(self) -> Schema {
        let mut schema = Schema::new();
        schema.insert("type".to_owned(), Value::String("object".to_owned()));
        if !self.properties.is_empty() {
            schema.insert("properties".to_owned(), Value::Object(self.properties));
        }
        if !self.required.is_empty() {
            schema.insert("required".to_owned(), self.required.into_iter().map(Value::String).collect());
        }
        if self.preserve {
            schema.insert("x-kubernetes-preserve-unknown-fields".to_owned(), Value::Bool(true));
        }
        if self.variants_require {
            schema.insert("oneOf".to_owned(), Value::Array(self.variant_rules));
        }
        schema
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn object(value: Value) -> Schema {
        match value {
            Value::Object(map) => map,
            _ => unreachable!("test literals are objects"),
        }
    }

    #[test]
    fn objects_list_required_properties_once() {
        let mut o = Object::new();
        o.property("a", object(json!({"type": "string"})), true);
        o.property("b", object(json!({"type": "integer"})), false);
        o.flatten(object(json!({"type": "object", "properties": {"c": {}}, "required": ["c", "a"]})));
        let expected = json!({
            "type": "object",
            "properties": {"a": {"type": "string"}, "b": {"type": "integer"}, "c": {}},
            "required": ["a", "c"],
        });
        assert_eq!(Value::Object(o.finish()), expected);
        assert_eq!(Value::Object(Object::new().finish()), json!({"type": "object"}));
    }

    #[test]
    fn flattened_maps_keep_unknown_fields() {
        let mut o = Object::new();
        o.flatten(object(json!({"type": "object", "additionalProperties": {"type": "string"}})));
        assert_eq!(Value::Object(o.finish()), json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true}));
    }

    #[test]
    fn hoisting_keeps_the_first_schema_and_requires_nothing() {
        let mut o = Object::new();
        o.hoist("a", object(json!({"type": "string"})));
        o.hoist("a", object(json!({"type": "integer"})));
        o.hoist_all(object(json!({"type": "object", "properties": {"b": {"type": "boolean"}}, "required": ["b"]})));
        let expected = json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "boolean"}}});
        assert_eq!(Value::Object(o.finish()), expected);
    }

    #[test]
    fn contents_unite() {
        let string = || object(json!({"type": "string"}));
        assert_eq!(union("E", vec![string(), string()]), string());
        assert_eq!(union("E", vec![]), Schema::new());
        let a = object(json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}));
        let b = object(json!({"type": "object", "properties": {"b": {"type": "string"}}}));
        let expected = json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}});
        assert_eq!(Value::Object(union("E", vec![a, b])), expected);
    }

    #[test]
    #[should_panic(expected = "adjacently tagged enum `E` hold contents of different types (\"string\", \"object\")")]
    fn contents_of_different_types_do_not_unite() {
        let _ = union("E", vec![object(json!({"type": "string"})), object(json!({"type": "object"}))]);
    }

    #[test]
    fn compile_time_json_becomes_a_schema() {
        assert_eq!(
            Value::Object(schema(r#"{"type": "string", "enum": ["a"]}"#)),
            json!({"type": "string", "enum": ["a"]})
        );
        let mut s = schema(r#"{"type": "string"}"#);
        set_doc(&mut s, " A doc.\n");
        set_default(&mut s, default_value(&"x"));
        set_default(&mut s, default_value(&Option::<i32>::None));
        assert_eq!(Value::Object(s), json!({"type": "string", "description": "A doc.", "default": "x"}));
    }

    #[test]
    #[should_panic(expected = "crd-derive wrote an invalid overlay")]
    fn a_broken_overlay_is_a_derive_bug() {
        merge(&mut Schema::new(), "[]");
    }
}
