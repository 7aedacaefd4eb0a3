//! The `#[schema(...)]` attribute vocabulary, written once: each key, the
//! schema keyword it sets, the kind of value it takes, and where it may
//! stand.
//!
//! `#[derive(CustomResourceSchema)]` (crd-derive) parses attributes with
//! this table and crd-codegen spells schema keywords with it, so the
//! generator never writes what the derive refuses (design.md I3). The
//! table also says how a keyword that a Rust type implies is removed
//! again: in the API server's Go types most keywords omit their empty
//! value (`omitempty` on a string, bool or list), so writing that empty
//! value is the same as leaving the keyword out.
//!
//! The crate has no dependencies: the derive (a proc-macro) and the
//! runtime's schema merge both use it, and it must cost nothing to build.
#![warn(missing_docs)]
#![no_std]

/// Where a keyword list is written (docs/derive.md, "Attribute positions").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// `#[schema(...)]` on a struct or enum.
    Type,
    /// `#[schema(...)]` on a field.
    Field,
    /// `#[schema(...)]` on an enum variant.
    Variant,
    /// Inside `items(...)` or `values(...)`: a whole schema.
    Element,
    /// Inside a junctor's `schema(...)` or `not(...)`: value validations
    /// only, as structural schemas require.
    Value,
}

impl Place {
    /// Every place, in the order of the enum.
    pub const ALL: [Place; 5] = [Place::Type, Place::Field, Place::Variant, Place::Element, Place::Value];

    const fn bit(self) -> u8 {
        match self {
            Self::Type => 1,
            Self::Field => 2,
            Self::Variant => 4,
            Self::Element => 8,
            Self::Value => 16,
        }
    }

    /// How messages name the place ("not allowed on a field").
    pub const fn describe(self) -> &'static str {
        match self {
            Self::Type => "on a type",
            Self::Field => "on a field",
            Self::Variant => "on a variant",
            Self::Element => "inside `items(...)` or `values(...)`",
            Self::Value => "in a value-only schema (`all_of`, `any_of`, `one_of`, `not`)",
        }
    }
}

/// A set of [`Place`]s.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Places(u8);

impl Places {
    const fn of(places: &[Place]) -> Self {
        let mut bits = 0;
        let mut i = 0;
        while i < places.len() {
            bits |= places[i].bit();
            i += 1;
        }
        Self(bits)
    }

    /// Whether `place` is in the set.
    pub const fn contains(self, place: Place) -> bool {
        self.0 & place.bit() != 0
    }
}

/// Lists that describe a whole schema node.
const NODE: Places = Places::of(&[Place::Type, Place::Field, Place::Variant, Place::Element]);
/// Every place: value validations may also stand under junctors.
const ANY: Places = Places::of(&Place::ALL);
const FIELD: Places = Places::of(&[Place::Field]);

/// The kind of value a key takes, which decides how the derive parses it
/// and how the generator writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// A string literal: `format = "date-time"`.
    Text,
    /// One of the listed strings: `list_type = "map"`.
    Choice(&'static [&'static str]),
    /// A number: `minimum = -1.5`.
    Number,
    /// A non-negative integer: `max_length = 63`.
    Count,
    /// A flag: bare for `true`, or `= true` / `= false`.
    Flag,
    /// A Rust literal (string, number, bool): `default = 3`.
    Literal,
    /// A list of literals, `null` written as the bare word:
    /// `enum_values = ["a", null]`.
    Literals,
    /// A list of string literals: `required = ["a", "b"]`.
    Strings,
    /// JSON text in a string literal: `default_json = "{\"a\": 1}"`.
    Json,
    /// JSON text of a list: `enum_values_json = "[[1], {}]"`.
    JsonList,
    /// A nested keyword list: `items(max_length = 3)`.
    Keywords,
    /// A list of `schema(...)` entries, each a value-only keyword list:
    /// `any_of(schema(required = ["a"]), schema(required = ["b"]))`.
    Schemas,
    /// One named property of a value-only schema:
    /// `property("a", min_length = 1)`; repeated for several.
    Property,
    /// One CEL rule, keys as in [`RULE_KEYS`]; repeated for several.
    Rule,
    /// `external_docs(url = "...", description = "...")`, keys as in
    /// [`EXTERNAL_DOCS_KEYS`].
    ExternalDocs,
    /// A path in a string literal: `crate = "::crd_schema"`.
    Path,
    /// A bare word with no value: `skip`.
    Bare,
}

/// How a keyword the Rust type gives is removed by an attribute: the value
/// that, in the API server's types, is the same as an absent keyword.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unset {
    /// The empty string (Go: a `string` with `omitempty`).
    EmptyText,
    /// `false` (Go: a `bool` with `omitempty`).
    False,
    /// `false`, which the API server refuses ("must be true or undefined";
    /// Go: a `*bool`), so it can only mean removal.
    RefusedFalse,
    /// The empty list (Go: a slice with `omitempty`).
    EmptyList,
    /// Every written value is kept: the keyword cannot be removed.
    Never,
}

/// One attribute key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key {
    /// The attribute key, as written in `#[schema(...)]`.
    pub attr: &'static str,
    /// The schema keyword it sets, `None` for keys that steer the derive
    /// (`skip`, `crate`, bare `required`, ...).
    pub json: Option<&'static str>,
    /// The kind of value it takes.
    pub value: Value,
    /// Where it may stand.
    pub places: Places,
    /// Whether it may be written more than once in one list.
    pub repeatable: bool,
    /// How a keyword the type gives is removed.
    pub unset: Unset,
}

const fn key(attr: &'static str, json: &'static str, value: Value, places: Places, unset: Unset) -> Key {
    Key { attr, json: Some(json), value, places, repeatable: false, unset }
}

const fn steer(attr: &'static str, value: Value, places: Places) -> Key {
    Key { attr, json: None, value, places, repeatable: false, unset: Unset::Never }
}

const fn repeated(key: Key) -> Key {
    Key { repeatable: true, ..key }
}

/// The types a `type_` names.
pub const TYPES: &[&str] = &["object", "array", "string", "integer", "number", "boolean"];

/// Every key of `#[schema(...)]`, in docs/derive.md's order. Where two keys
/// set one keyword (`default` and `default_json`), the first is the
/// generator's choice when it can spell the value ([`Key::spells`]).
pub const KEYS: &[Key] = &[
    key("description", "description", Value::Text, NODE, Unset::EmptyText),
    key("title", "title", Value::Text, NODE, Unset::EmptyText),
    key("type_", "type", Value::Choice(TYPES), NODE, Unset::Never),
    key("format", "format", Value::Text, ANY, Unset::EmptyText),
    key("minimum", "minimum", Value::Number, ANY, Unset::Never),
    key("maximum", "maximum", Value::Number, ANY, Unset::Never),
    key("exclusive_minimum", "exclusiveMinimum", Value::Flag, ANY, Unset::False),
    key("exclusive_maximum", "exclusiveMaximum", Value::Flag, ANY, Unset::False),
    key("multiple_of", "multipleOf", Value::Number, ANY, Unset::Never),
    key("min_length", "minLength", Value::Count, ANY, Unset::Never),
    key("max_length", "maxLength", Value::Count, ANY, Unset::Never),
    key("min_items", "minItems", Value::Count, ANY, Unset::Never),
    key("max_items", "maxItems", Value::Count, ANY, Unset::Never),
    key("min_properties", "minProperties", Value::Count, ANY, Unset::Never),
    key("max_properties", "maxProperties", Value::Count, ANY, Unset::Never),
    key("pattern", "pattern", Value::Text, ANY, Unset::EmptyText),
    key("enum_values", "enum", Value::Literals, ANY, Unset::EmptyList),
    key("enum_values_json", "enum", Value::JsonList, ANY, Unset::EmptyList),
    // `required = [...]` is the node's keyword, anywhere: the API server
    // accepts it on any node and ignores it on non-objects. Bare
    // `required` (below) lists a field in its object's.
    key("required", "required", Value::Strings, ANY, Unset::EmptyList),
    key("default", "default", Value::Literal, NODE, Unset::Never),
    key("default_json", "default", Value::Json, NODE, Unset::Never),
    key("example_json", "example", Value::Json, ANY, Unset::Never),
    key("nullable", "nullable", Value::Flag, NODE, Unset::False),
    key("preserve_unknown_fields", "x-kubernetes-preserve-unknown-fields", Value::Flag, NODE, Unset::RefusedFalse),
    key("embedded_resource", "x-kubernetes-embedded-resource", Value::Flag, NODE, Unset::False),
    key("int_or_string", "x-kubernetes-int-or-string", Value::Flag, NODE, Unset::False),
    key("list_type", "x-kubernetes-list-type", Value::Choice(&["atomic", "set", "map"]), NODE, Unset::Never),
    key("list_map_keys", "x-kubernetes-list-map-keys", Value::Strings, NODE, Unset::EmptyList),
    key("map_type", "x-kubernetes-map-type", Value::Choice(&["granular", "atomic"]), NODE, Unset::Never),
    repeated(key("validation", "x-kubernetes-validations", Value::Rule, NODE, Unset::EmptyList)),
    key("items", "items", Value::Keywords, ANY, Unset::Never),
    key("values", "additionalProperties", Value::Keywords, NODE, Unset::Never),
    key("all_of", "allOf", Value::Schemas, ANY, Unset::EmptyList),
    key("any_of", "anyOf", Value::Schemas, ANY, Unset::EmptyList),
    key("one_of", "oneOf", Value::Schemas, ANY, Unset::EmptyList),
    key("not", "not", Value::Keywords, ANY, Unset::Never),
    // A struct's fields give its `properties`; `property(...)` states them
    // on other nodes (under a junctor, or where the API server ignores them).
    repeated(key("property", "properties", Value::Property, ANY, Unset::Never)),
    key("external_docs", "externalDocs", Value::ExternalDocs, ANY, Unset::Never),
    repeated(steer("required", Value::Bare, FIELD)),
    steer("no_default", Value::Bare, FIELD),
    steer("skip", Value::Bare, Places::of(&[Place::Field, Place::Variant])),
    steer("schema_with", Value::Path, FIELD),
    steer("schemars", Value::Bare, FIELD),
    steer("crate", Value::Path, Places::of(&[Place::Type])),
];

/// The keys of `validation(...)`: attribute key and JSON key, in the API's
/// order.
pub const RULE_KEYS: &[(&str, &str)] = &[
    ("rule", "rule"),
    ("message", "message"),
    ("message_expression", "messageExpression"),
    ("reason", "reason"),
    ("field_path", "fieldPath"),
    ("optional_old_self", "optionalOldSelf"),
];

/// The reasons the API server accepts in a validation rule.
pub const REASONS: &[&str] = &["FieldValueInvalid", "FieldValueForbidden", "FieldValueRequired", "FieldValueDuplicate"];

/// The keys of `external_docs(...)`: attribute key and JSON key.
pub const EXTERNAL_DOCS_KEYS: &[(&str, &str)] = &[("description", "description"), ("url", "url")];

/// The shape of a JSON value, as far as choosing a spelling needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool,
    /// A number without fraction or exponent in its text.
    Integer,
    /// A number written with a fraction or exponent whose value is whole
    /// (`3.0`): a Rust literal would lose the fraction.
    WholeFloat,
    /// Any other number.
    Float,
    /// A string.
    String,
    /// A list whose members are scalars or `null`.
    ScalarList,
    /// A list holding a list or an object.
    NestedList,
    /// An object.
    Object,
}

impl Key {
    /// Whether this key can spell a value of `shape` (the generator picks
    /// the first key of a keyword that can).
    pub const fn spells(&self, shape: Shape) -> bool {
        match self.value {
            // A whole float keeps its fraction only as JSON text: the API
            // server validates `3` as an integer, which fails a fractional
            // `multipleOf`.
            Value::Literal => matches!(shape, Shape::Bool | Shape::Integer | Shape::Float | Shape::String),
            Value::Literals => matches!(shape, Shape::ScalarList),
            _ => true,
        }
    }
}

/// The keys that set schema keyword `json`, in the generator's order of
/// preference.
pub fn for_keyword(json: &str) -> impl Iterator<Item = &'static Key> + '_ {
    KEYS.iter().filter(move |k| k.json == Some(json))
}

/// The key `attr` written with a value (`= ...` or `(...)`) when `valued`,
/// bare otherwise: `required` is a list with a value and a flag without.
pub fn find(attr: &str, valued: bool) -> Option<&'static Key> {
    let matching = || KEYS.iter().filter(move |k| k.attr == attr);
    matching().find(|k| matches!(k.value, Value::Bare) != valued).or_else(|| matching().next())
}

/// How a keyword the type gives is removed: [`Key::unset`] of the first
/// key that sets `json`, [`Unset::Never`] for keywords no key sets.
pub fn unset(json: &str) -> Unset {
    for_keyword(json).next().map_or(Unset::Never, |k| k.unset)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attribute_keys_are_unique_but_for_required() {
        for (i, a) in KEYS.iter().enumerate() {
            for b in &KEYS[i + 1..] {
                assert!(a.attr != b.attr || a.attr == "required", "{} is listed twice", a.attr);
            }
        }
        assert_eq!(find("required", true).and_then(|k| k.json), Some("required"));
        assert_eq!(find("required", false).map(|k| k.value), Some(Value::Bare));
        assert_eq!(find("nullable", false).map(|k| k.value), Some(Value::Flag));
        assert!(find("minlen", true).is_none());
    }

    #[test]
    fn the_generator_prefers_literals_where_they_spell_the_value() {
        let spelling = |json: &str, shape: Shape| for_keyword(json).find(|k| k.spells(shape)).map(|k| k.attr);
        assert_eq!(spelling("default", Shape::Integer), Some("default"));
        assert_eq!(spelling("default", Shape::WholeFloat), Some("default_json"));
        assert_eq!(spelling("default", Shape::Object), Some("default_json"));
        assert_eq!(spelling("enum", Shape::ScalarList), Some("enum_values"));
        assert_eq!(spelling("enum", Shape::NestedList), Some("enum_values_json"));
        assert_eq!(spelling("x-kubernetes-list-type", Shape::String), Some("list_type"));
    }

    #[test]
    fn removal_follows_the_api_servers_empty_values() {
        assert_eq!(unset("anyOf"), Unset::EmptyList);
        assert_eq!(unset("description"), Unset::EmptyText);
        assert_eq!(unset("x-kubernetes-preserve-unknown-fields"), Unset::RefusedFalse);
        assert_eq!(unset("nullable"), Unset::False);
        assert_eq!(unset("maximum"), Unset::Never);
        assert_eq!(unset("$ref"), Unset::Never);
    }

    #[test]
    fn junctor_schemas_hold_value_validations_only() {
        for key in KEYS {
            if key.places.contains(Place::Value) {
                assert!(
                    !matches!(key.json, Some("description" | "type" | "default" | "nullable" | "additionalProperties")),
                    "{} may not stand under a junctor",
                    key.attr
                );
            }
        }
    }
}
