//! Schemas of types that implement schemars 1 `JsonSchema` (feature
//! `schemars`), made structural: what `#[schema(schemars)]` on a field
//! calls, and what a `schema_with` function can call for a foreign type.
//!
//! schemars writes JSON Schema draft 2020-12 with `$ref`s into `$defs`;
//! [`super::structuralize`] inlines them and rewrites the rest (see there
//! for each rule).

use super::structuralize::structuralize;
use super::{Schema, SchemaGenerator};

/// The structural schema of `T` from its schemars `JsonSchema`: every
/// reference inlined, `Option`'s `null` alternatives removed, `type` filled
/// in (untyped schemas keep unknown fields), keywords a CRD forbids dropped
/// or rewritten (`const` → `enum`, `uniqueItems` → list type `set`,
/// `additionalProperties: true` → `x-kubernetes-preserve-unknown-fields`),
/// and integer-or-string alternatives turned into int-or-string.
///
/// `#[schema(schemars)]` on a field of a derived type (say `template:
/// PodSpec`) calls this for the field's type; a `schema_with` function can
/// call it for part of a schema.
///
/// ```
/// use crd_schema::schema::{SchemaGenerator, schemars_schema};
/// use serde_json::{Value, json};
///
/// let schema = schemars_schema::<Option<Vec<u8>>>(&mut SchemaGenerator::new());
/// assert_eq!(
///     Value::Object(schema),
///     json!({"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 255}})
/// );
/// ```
///
/// # Panics
///
/// When `T`'s schema refers to itself (a recursive type, such as
/// `JSONSchemaProps`): a structural schema has no references. The message
/// names the chain of schemas.
pub fn schemars_schema<T: schemars::JsonSchema + ?Sized>(_generator: &mut SchemaGenerator) -> Schema {
    let settings = schemars::generate::SchemaSettings::draft2020_12().with(|s| s.meta_schema = None);
    let mut schemars_generator = settings.into_generator();
    let schema = schemars_generator.subschema_for::<T>().to_value();
    let definitions = schemars_generator.take_definitions(true);
    match structuralize(&schema, &T::schema_name(), &definitions) {
        Ok(schema) => schema,
        Err(message) => panic!("{message}"),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use schemars::{JsonSchema, json_schema};
    use serde_json::{Value, json};

    use super::super::structuralize::tests::assert_structural;
    use super::*;

    fn structural<T: JsonSchema>() -> Value {
        let schema = Value::Object(schemars_schema::<T>(&mut SchemaGenerator::new()));
        assert_structural(&schema);
        schema
    }

    #[test]
    fn standard_types_are_structural() {
        assert_eq!(structural::<Option<String>>(), json!({"type": "string"}));
        assert_eq!(structural::<u8>(), json!({"type": "integer", "minimum": 0, "maximum": 255}));
        assert_eq!(
            structural::<BTreeMap<String, Vec<i64>>>(),
            json!({"type": "object", "additionalProperties": {"type": "array", "items": {"type": "integer", "format": "int64"}}})
        );
        assert_eq!(structural::<Value>(), json!({"x-kubernetes-preserve-unknown-fields": true}));
        assert_eq!(
            structural::<std::collections::BTreeSet<String>>(),
            json!({"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "set"})
        );
    }

    struct Leaf;
    impl JsonSchema for Leaf {
        fn schema_name() -> std::borrow::Cow<'static, str> {
            "Leaf".into()
        }
        fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
            json_schema!({"description": "A leaf.", "type": "object", "properties": {"n": {"type": ["integer", "null"]}}})
        }
    }

    struct Tree;
    impl JsonSchema for Tree {
        fn schema_name() -> std::borrow::Cow<'static, str> {
            "Tree".into()
        }
        fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
            let mut leaf = generator.subschema_for::<Option<Leaf>>();
            leaf.insert("description".to_owned(), "The leaf.".into());
            json_schema!({"type": "object", "properties": {"leaf": leaf, "leaves": {"type": "array", "items": generator.subschema_for::<Leaf>()}}})
        }
    }

    #[test]
    fn referenced_types_are_inlined() {
        assert_eq!(
            structural::<Tree>(),
            json!({"type": "object", "properties": {
                "leaf": {"description": "The leaf.", "type": "object", "properties": {"n": {"type": "integer"}}},
                "leaves": {"type": "array", "items":
                    {"description": "A leaf.", "type": "object", "properties": {"n": {"type": "integer"}}}},
            }})
        );
    }

    struct Loop;
    impl JsonSchema for Loop {
        fn schema_name() -> std::borrow::Cow<'static, str> {
            "Loop".into()
        }
        fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
            json_schema!({"type": "object", "properties": {"next": generator.subschema_for::<Option<Box<Loop>>>()}})
        }
    }

    #[test]
    #[should_panic(expected = "`Loop` contains itself (Loop → Loop)")]
    fn recursive_types_are_refused() {
        let _ = schemars_schema::<Loop>(&mut SchemaGenerator::new());
    }
}
