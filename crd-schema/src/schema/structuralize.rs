//! A JSON Schema (draft 2020-12, as schemars writes it) rewritten into a
//! structural schema: what [`super::schemars_schema`] does to a schemars
//! schema.
//!
//! Entry point: [`structuralize`]. Each rewrite is a rule of the structural
//! schema (KEP-2335) or of CRD validation that plain JSON Schema does not
//! follow; the rules are stated where they are applied. The only failure is
//! a recursive schema (a `$ref` cycle), returned as text naming the chain.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::Schema;
use super::impls::{preserve_unknown, schema_of};

const PRESERVE: &str = "x-kubernetes-preserve-unknown-fields";
const INT_OR_STRING: &str = "x-kubernetes-int-or-string";

/// Keywords of `JSONSchemaProps` that pass through unchanged. The others
/// are rewritten below or dropped: a CRD schema has no `$schema`, `$id`,
/// `$defs`, `examples`, `readOnly`, `writeOnly`, `deprecated`,
/// `propertyNames`, `patternProperties`, `if`/`then`/`else`, ...
const KEPT: [&str; 15] = [
    "description",
    "title",
    "maximum",
    "minimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "multipleOf",
    "maxProperties",
    "minProperties",
    "required",
    "externalDocs",
    "example",
];

/// `root` made structural: every `$ref` (into `definitions`, by name, or
/// `#` for `root` itself, named `root_name`) inlined, `null` alternatives
/// removed, `type` filled in, forbidden keywords dropped or rewritten.
///
/// Errors when a reference leads back to a schema it is inside of: a
/// structural schema cannot describe a recursive type.
pub(crate) fn structuralize(root: &Value, root_name: &str, definitions: &Map<String, Value>) -> Result<Schema, String> {
    let mut rewrite = Rewrite { root_name, definitions, chain: Vec::new(), done: HashMap::new() };
    rewrite.node(root)
}

struct Rewrite<'a> {
    root_name: &'a str,
    definitions: &'a Map<String, Value>,
    /// The definitions being inlined, outermost first.
    chain: Vec<String>,
    /// Definitions already rewritten, by name.
    done: HashMap<String, Schema>,
}

impl Rewrite<'_> {
    /// One schema, rewritten and completed.
    fn node(&mut self, value: &Value) -> Result<Schema, String> {
        let mut schema = self.raw(value)?;
        finish(&mut schema);
        Ok(schema)
    }

    // The referenced schema and the junctors' schemas are the base; the
    // node's own keywords override them (a `$ref` sibling `description`
    // describes the field, not the type).
    fn raw(&mut self, value: &Value) -> Result<Schema, String> {
        let Value::Object(map) = value else {
            // `true` (and `false`, which no CRD can express) allow anything.
            return Ok(Schema::new());
        };
        let mut base = Schema::new();
        if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
            base = self.reference(reference)?;
        }
        // `allOf`: every branch holds, so their keywords add up.
        for branch in map.get("allOf").and_then(Value::as_array).into_iter().flatten() {
            let branch = self.node(branch)?;
            conjoin(&mut base, branch);
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(branches)) = map.get(key) {
                let alternatives = self.alternatives(branches)?;
                conjoin(&mut base, alternatives);
            }
        }
        let mut own = self.own_keywords(map)?;
        conjoin(&mut own, base);
        Ok(own)
    }

    fn own_keywords(&mut self, map: &Map<String, Value>) -> Result<Schema, String> {
        let mut own = Schema::new();
        for (key, value) in map {
            match key.as_str() {
                "type" => conjoin(&mut own, type_schema(value)),
                "format" => set_format(&mut own, value),
                "const" if !value.is_null() => insert(&mut own, "enum", Value::Array(vec![value.clone()])),
                "enum" => set_enum(&mut own, value),
                "exclusiveMinimum" | "exclusiveMaximum" => set_exclusive(&mut own, key, value),
                "default" => set_default(&mut own, value),
                "properties" => {
                    let mut properties = Map::new();
                    for (name, property) in value.as_object().into_iter().flatten() {
                        properties.insert(name.clone(), Value::Object(self.node(property)?));
                    }
                    insert(&mut own, "properties", Value::Object(properties));
                }
                "additionalProperties" => self.additional_properties(&mut own, value)?,
                key if KEPT.contains(&key) || key.starts_with("x-kubernetes-") => insert(&mut own, key, value.clone()),
                _ => {}
            }
        }
        self.items(&mut own, map)?;
        // `uniqueItems` is forbidden in CRDs; a list of scalars says the
        // same with `x-kubernetes-list-type: set` (a set of objects would
        // need map semantics, so it is just a list).
        if map.get("uniqueItems") == Some(&Value::Bool(true)) && !own.contains_key("x-kubernetes-list-type") {
            let scalar_items = own
                .get("items")
                .and_then(|items| items.get("type"))
                .and_then(Value::as_str)
                .is_some_and(|type_| matches!(type_, "string" | "integer" | "number" | "boolean"));
            if scalar_items {
                insert(&mut own, "x-kubernetes-list-type", Value::from("set"));
            }
        }
        Ok(own)
    }

    // `#` is the root, which every node is inside of; a definition is
    // recursive when it is met again while it is being inlined.
    fn reference(&mut self, reference: &str) -> Result<Schema, String> {
        if reference == "#" {
            let chain = [self.root_name].into_iter().chain(self.chain.iter().map(String::as_str));
            return Err(recursive(self.root_name, chain));
        }
        let name = definition_name(reference);
        if let Some(start) = self.chain.iter().position(|n| *n == name) {
            return Err(recursive(&name, self.chain[start..].iter().map(String::as_str)));
        }
        if let Some(done) = self.done.get(&name) {
            return Ok(done.clone());
        }
        let target =
            self.definitions.get(&name).ok_or_else(|| format!("schema reference `{reference}` has no definition"))?;
        self.chain.push(name.clone());
        let schema = self.node(target);
        self.chain.pop();
        let schema = schema?;
        self.done.insert(name, schema.clone());
        Ok(schema)
    }

    // `anyOf`/`oneOf`: a `null` alternative is what `Option` adds, and null
    // pruning removes a `null` anyway; one alternative left is the schema
    // itself. Several are widened into one structure (a structural schema
    // has one `type` per node), keeping which properties each requires.
    fn alternatives(&mut self, branches: &[Value]) -> Result<Schema, String> {
        let mut schemas = Vec::new();
        for branch in branches.iter().filter(|b| !is_null_schema(b)) {
            schemas.push(self.node(branch)?);
        }
        let Some(first) = schemas.first().cloned() else {
            return Ok(Schema::new());
        };
        let mut widened = schemas[1..].iter().cloned().fold(first, widen);
        let required_sets = required_sets(&schemas);
        if widened.get("type") == Some(&Value::from("object")) && required_sets.len() > 1 {
            let sets = required_sets.into_iter().map(|set| Value::Object(schema_of([("required", set)])));
            insert(&mut widened, "anyOf", Value::Array(sets.collect()));
        }
        Ok(widened)
    }

    // `additionalProperties: true` (or `{}`) keeps unknown fields; `false`
    // is what pruning does anyway, and `false` is not allowed beside
    // `properties`.
    fn additional_properties(&mut self, own: &mut Schema, value: &Value) -> Result<(), String> {
        match value {
            Value::Bool(true) => insert(own, PRESERVE, Value::Bool(true)),
            Value::Object(map) if map.is_empty() => insert(own, PRESERVE, Value::Bool(true)),
            Value::Object(_) => {
                let values = self.node(value)?;
                insert(own, "additionalProperties", Value::Object(values));
            }
            _ => {}
        }
        Ok(())
    }

    // `items` holds one schema. Tuples (`prefixItems`, or the old `items`
    // array) become a list of their widened item schemas; `items: false`
    // after `prefixItems` only closes the tuple.
    fn items(&mut self, own: &mut Schema, map: &Map<String, Value>) -> Result<(), String> {
        let mut item_schemas = Vec::new();
        for item in map.get("prefixItems").and_then(Value::as_array).into_iter().flatten() {
            item_schemas.push(self.node(item)?);
        }
        match map.get("items") {
            Some(Value::Array(items)) => {
                for item in items {
                    item_schemas.push(self.node(item)?);
                }
            }
            Some(Value::Bool(false)) if !item_schemas.is_empty() => {}
            Some(item) => item_schemas.push(self.node(item)?),
            None => {}
        }
        if let Some(first) = item_schemas.first().cloned() {
            let items = item_schemas[1..].iter().cloned().fold(first, widen);
            insert(own, "items", Value::Object(items));
        }
        Ok(())
    }
}

/// The message for `name`, met again after `chain` (which starts with it).
fn recursive<'a>(name: &'a str, chain: impl Iterator<Item = &'a str>) -> String {
    let chain: Vec<&str> = chain.chain([name]).collect();
    format!("`{name}` contains itself ({}); a structural schema cannot describe a recursive type", chain.join(" → "))
}

fn insert(schema: &mut Schema, key: &str, value: Value) {
    schema.insert(key.to_owned(), value);
}

/// The definition name in `#/$defs/NAME` (or `#/definitions/`,
/// `#/components/schemas/`): the JSON pointer segment, percent- and
/// `~`-decoded.
fn definition_name(reference: &str) -> String {
    let segment = ["#/$defs/", "#/definitions/", "#/components/schemas/"]
        .iter()
        .find_map(|prefix| reference.strip_prefix(prefix))
        .unwrap_or(reference);
    percent_decode(segment).replace("~1", "/").replace("~0", "~")
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok());
        match (bytes[i], hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Whether a schema admits only `null`: `{type: null}`, `{const: null}` or
/// `{enum: [null]}` (with any annotations).
fn is_null_schema(value: &Value) -> bool {
    let Some(map) = value.as_object() else { return false };
    map.get("type") == Some(&Value::from("null"))
        || map.get("const") == Some(&Value::Null)
        || map.get("enum").and_then(Value::as_array).is_some_and(|e| e.len() == 1 && e[0].is_null())
}

/// `type` as a schema: `null` leaves it open, `[X, "null"]` is `X`, and
/// several types are widened (`[integer, string]` is int-or-string).
fn type_schema(value: &Value) -> Schema {
    let types: Vec<&str> = match value {
        Value::String(type_) => vec![type_.as_str()],
        Value::Array(types) => types.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let mut schemas = types.into_iter().filter(|t| *t != "null").map(|t| schema_of([("type", Value::from(t))]));
    match schemas.next() {
        Some(first) => schemas.fold(first, widen),
        None => Schema::new(),
    }
}

// Formats the API server knows are kept; schemars' unsigned formats have no
// OpenAPI meaning (`minimum: 0` says it) and the small signed ones are
// `int32`.
fn set_format(own: &mut Schema, value: &Value) {
    match value.as_str() {
        Some("int8" | "int16") => insert(own, "format", Value::from("int32")),
        Some("uint" | "uint8" | "uint16" | "uint32" | "uint64" | "uint128" | "int128") | None => {}
        Some(_) => insert(own, "format", value.clone()),
    }
}

fn set_enum(own: &mut Schema, value: &Value) {
    let values: Vec<Value> = value.as_array().into_iter().flatten().filter(|v| !v.is_null()).cloned().collect();
    if !values.is_empty() {
        insert(own, "enum", Value::Array(values));
    }
}

// Draft 2020-12 writes `exclusiveMinimum: N`; OpenAPI v3.0 (and so a CRD)
// writes `minimum: N, exclusiveMinimum: true`.
fn set_exclusive(own: &mut Schema, key: &str, value: &Value) {
    match value {
        Value::Number(_) => {
            let bound = if key == "exclusiveMinimum" { "minimum" } else { "maximum" };
            insert(own, bound, value.clone());
            insert(own, key, Value::Bool(true));
        }
        Value::Bool(_) => insert(own, key, value.clone()),
        _ => {}
    }
}

// A default is stored as the object it describes, after null pruning: a
// `null` member (an `Option` that serialised as `null`) would fail the
// default's validation.
fn set_default(own: &mut Schema, value: &Value) {
    if !value.is_null() {
        insert(own, "default", without_nulls(value));
    }
}

fn without_nulls(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter().filter(|(_, v)| !v.is_null()).map(|(k, v)| (k.clone(), without_nulls(v))).collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_nulls).collect()),
        other => other.clone(),
    }
}

/// Adds `more`'s keywords to `base` (both hold): properties and `required`
/// unite, shared properties, `items` and `additionalProperties` conjoin,
/// validation rules append; any other keyword `base` has stays.
fn conjoin(base: &mut Schema, more: Schema) {
    for (key, value) in more {
        match (key.as_str(), base.get_mut(&key), value) {
            ("properties", Some(Value::Object(properties)), Value::Object(more)) => {
                for (name, property) in more {
                    match (properties.get_mut(&name), property) {
                        (Some(Value::Object(existing)), Value::Object(property)) => conjoin(existing, property),
                        (None, property) => {
                            properties.insert(name, property);
                        }
                        _ => {}
                    }
                }
            }
            ("items" | "additionalProperties", Some(Value::Object(existing)), Value::Object(more)) => {
                conjoin(existing, more);
            }
            ("required" | "x-kubernetes-validations", Some(Value::Array(existing)), Value::Array(more)) => {
                for item in more {
                    if !existing.contains(&item) {
                        existing.push(item);
                    }
                }
            }
            (_, Some(_), _) => {}
            (_, None, value) => {
                base.insert(key, value);
            }
        }
    }
}

/// The narrowest structural schema that admits every value `a` or `b`
/// admits: one type (integer and string widen to int-or-string, integer
/// and number to number, anything else to any value), properties united
/// with shared ones widened, only the `required` both have, and only the
/// value validations both agree on (`enum` values united).
fn widen(a: Schema, b: Schema) -> Schema {
    if a == b {
        return a;
    }
    let type_of = |s: &Schema| s.get("type").and_then(Value::as_str).map(str::to_owned);
    let int_or_string = |s: &Schema| s.get(INT_OR_STRING) == Some(&Value::Bool(true));
    let (ta, tb) = (type_of(&a), type_of(&b));
    let kind =
        |t: &Option<String>, s: &Schema| if int_or_string(s) { Some("int-or-string".to_owned()) } else { t.clone() };
    match (kind(&ta, &a).as_deref(), kind(&tb, &b).as_deref()) {
        (Some(x), Some(y)) if x == y && x != "int-or-string" => widen_same_type(a, b),
        (Some("integer" | "string" | "int-or-string"), Some("integer" | "string" | "int-or-string")) => {
            int_or_string_schema()
        }
        (Some("integer" | "number"), Some("integer" | "number")) => schema_of([("type", Value::from("number"))]),
        _ => preserve_unknown(),
    }
}

/// `x-kubernetes-int-or-string: true` with the `anyOf` that says so.
fn int_or_string_schema() -> Schema {
    let alternatives = ["integer", "string"].map(|t| Value::Object(schema_of([("type", Value::from(t))])));
    schema_of([(INT_OR_STRING, Value::Bool(true)), ("anyOf", Value::Array(alternatives.to_vec()))])
}

fn widen_same_type(a: Schema, mut b: Schema) -> Schema {
    let mut out = Schema::new();
    for (key, value) in a {
        let other = b.remove(&key);
        match (key.as_str(), value, other) {
            ("properties", Value::Object(mut mine), Some(Value::Object(theirs))) => {
                for (name, property) in theirs {
                    let widened = match (mine.remove(&name), property) {
                        (Some(Value::Object(x)), Value::Object(y)) => Value::Object(widen(x, y)),
                        (_, property) => property,
                    };
                    mine.insert(name, widened);
                }
                out.insert(key, Value::Object(mine));
            }
            ("properties", mine, None) => {
                out.insert(key, mine);
            }
            ("items" | "additionalProperties", Value::Object(x), Some(Value::Object(y))) => {
                out.insert(key, Value::Object(widen(x, y)));
            }
            ("required", Value::Array(mine), Some(Value::Array(theirs))) => {
                let both: Vec<Value> = mine.into_iter().filter(|r| theirs.contains(r)).collect();
                if !both.is_empty() {
                    out.insert(key, Value::Array(both));
                }
            }
            ("enum", Value::Array(mut mine), Some(Value::Array(theirs))) => {
                for value in theirs {
                    if !mine.contains(&value) {
                        mine.push(value);
                    }
                }
                out.insert(key, Value::Array(mine));
            }
            (PRESERVE, Value::Bool(true), _) => {
                out.insert(key, Value::Bool(true));
            }
            (_, mine, Some(theirs)) if mine == theirs => {
                out.insert(key, mine);
            }
            _ => {}
        }
    }
    // What only `b` has: its properties (with `a` having none) and its
    // freedom to keep unknown fields.
    for (key, value) in b {
        if key == "properties" || (key == PRESERVE && value == Value::Bool(true)) {
            out.insert(key, value);
        }
    }
    out
}

/// Each alternative's `required`, when every object alternative requires
/// something and they differ; otherwise none (an alternative that requires
/// nothing makes the others' requirements moot).
fn required_sets(schemas: &[Schema]) -> Vec<Value> {
    let mut sets: Vec<Value> = Vec::new();
    for schema in schemas {
        match schema.get("required") {
            Some(Value::Array(required)) if !required.is_empty() => {
                let set = Value::Array(required.clone());
                if !sets.contains(&set) {
                    sets.push(set);
                }
            }
            _ => return Vec::new(),
        }
    }
    sets
}

// A structural schema gives every node a type unless it keeps any value
// (`x-kubernetes-preserve-unknown-fields`) or is int-or-string; the type
// follows from the keywords where it can, and an open schema (`{}`) keeps
// anything. `properties` and `additionalProperties` exclude each other:
// the extra fields are kept instead.
fn finish(schema: &mut Schema) {
    let open = schema.contains_key("type")
        || schema.get(INT_OR_STRING) == Some(&Value::Bool(true))
        || schema.get(PRESERVE) == Some(&Value::Bool(true));
    if !open {
        let implied = if schema.contains_key("properties") || schema.contains_key("additionalProperties") {
            Some("object")
        } else if schema.contains_key("items") {
            Some("array")
        } else {
            schema.get("enum").and_then(Value::as_array).and_then(|values| enum_type(values))
        };
        match implied {
            Some(type_) => insert_first(schema, "type", Value::from(type_)),
            None => insert(schema, PRESERVE, Value::Bool(true)),
        }
    }
    if schema.contains_key("properties") && schema.remove("additionalProperties").is_some() {
        insert(schema, PRESERVE, Value::Bool(true));
    }
}

/// The one JSON type of all `values`, if they share one.
fn enum_type(values: &[Value]) -> Option<&'static str> {
    let type_of = |v: &Value| match v {
        Value::String(_) => Some("string"),
        Value::Bool(_) => Some("boolean"),
        Value::Number(n) if n.is_f64() => Some("number"),
        Value::Number(_) => Some("integer"),
        Value::Object(_) => Some("object"),
        Value::Array(_) => Some("array"),
        Value::Null => None,
    };
    let first = type_of(values.first()?)?;
    values.iter().all(|v| type_of(v) == Some(first)).then_some(first)
}

fn insert_first(schema: &mut Schema, key: &str, value: Value) {
    let rest = std::mem::take(schema);
    schema.insert(key.to_owned(), value);
    schema.extend(rest);
}

#[cfg(test)]
#[path = "structuralize_tests.rs"]
pub(super) mod tests;
