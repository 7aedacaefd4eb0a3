//! Schemas of standard and ecosystem types (docs/derive.md, "Standard
//! types"): strings, booleans, numbers, sequences, sets, string-keyed maps,
//! the smart pointers and `Option` (all as their content), and
//! `serde_json::Value`.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::rc::Rc;
use std::sync::Arc;

use serde_json::Value;

use super::{CustomResourceSchema, Schema, SchemaGenerator};

/// A schema from `(keyword, value)` pairs, in this order.
pub(crate) fn schema_of<const N: usize>(keywords: [(&str, Value); N]) -> Schema {
    keywords.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
}

fn typed(type_: &str) -> Schema {
    schema_of([("type", Value::from(type_))])
}

/// `x-kubernetes-preserve-unknown-fields: true`, alone: any JSON value.
pub(crate) fn preserve_unknown() -> Schema {
    schema_of([("x-kubernetes-preserve-unknown-fields", Value::Bool(true))])
}

macro_rules! leaf {
    ($($ty:ty => [$(($key:literal, $value:expr)),+]),+ $(,)?) => {
        $(
            impl CustomResourceSchema for $ty {
                fn schema(_: &mut SchemaGenerator) -> Schema {
                    schema_of([$(($key, Value::from($value))),+])
                }
            }
        )+
    };
}

// Integers follow controller-gen where Go has the same type (`int32` for
// the small ones, no format for 64 bits); unsigned ones add `minimum: 0`.
// `u32` does not fit `int32`, so it has no format either.
leaf! {
    String => [("type", "string")],
    str => [("type", "string")],
    char => [("type", "string")],
    bool => [("type", "boolean")],
    i8 => [("type", "integer"), ("format", "int32")],
    i16 => [("type", "integer"), ("format", "int32")],
    i32 => [("type", "integer"), ("format", "int32")],
    i64 => [("type", "integer")],
    i128 => [("type", "integer")],
    isize => [("type", "integer")],
    u8 => [("type", "integer"), ("format", "int32"), ("minimum", 0)],
    u16 => [("type", "integer"), ("format", "int32"), ("minimum", 0)],
    u32 => [("type", "integer"), ("minimum", 0)],
    u64 => [("type", "integer"), ("minimum", 0)],
    u128 => [("type", "integer"), ("minimum", 0)],
    usize => [("type", "integer"), ("minimum", 0)],
    f32 => [("type", "number"), ("format", "float")],
    f64 => [("type", "number")],
}

impl CustomResourceSchema for () {
    fn schema(_: &mut SchemaGenerator) -> Schema {
        typed("object")
    }
}

impl CustomResourceSchema for Value {
    fn schema(_: &mut SchemaGenerator) -> Schema {
        preserve_unknown()
    }
}

// A `Map` is always an object, so the type is known; what it holds is kept
// as it is.
impl CustomResourceSchema for serde_json::Map<String, Value> {
    fn schema(_: &mut SchemaGenerator) -> Schema {
        schema_of([("type", Value::from("object")), ("x-kubernetes-preserve-unknown-fields", Value::Bool(true))])
    }
}

/// `Option<T>` is `T`; only the field becomes optional (null pruning drops
/// a `null`, so no `nullable`).
impl<T: CustomResourceSchema> CustomResourceSchema for Option<T> {
    const OPTIONAL: bool = true;

    fn schema(generator: &mut SchemaGenerator) -> Schema {
        generator.subschema::<T>()
    }
}

macro_rules! transparent {
    ($($ty:ty),+ $(,)?) => {
        $(
            impl<T: CustomResourceSchema + ?Sized> CustomResourceSchema for $ty {
                fn schema(generator: &mut SchemaGenerator) -> Schema {
                    generator.subschema::<T>()
                }
            }
        )+
    };
}

transparent!(Box<T>, Arc<T>, Rc<T>);

impl<T: CustomResourceSchema + ?Sized> CustomResourceSchema for &T {
    fn schema(generator: &mut SchemaGenerator) -> Schema {
        generator.subschema::<T>()
    }
}

impl<T: CustomResourceSchema + ?Sized> CustomResourceSchema for &mut T {
    fn schema(generator: &mut SchemaGenerator) -> Schema {
        generator.subschema::<T>()
    }
}

impl<T: CustomResourceSchema + ToOwned + ?Sized> CustomResourceSchema for Cow<'_, T> {
    fn schema(generator: &mut SchemaGenerator) -> Schema {
        generator.subschema::<T>()
    }
}

/// `type: array` with `T`'s schema as `items`.
fn array_of<T: CustomResourceSchema + ?Sized>(generator: &mut SchemaGenerator) -> Schema {
    let items = generator.subschema::<T>();
    schema_of([("type", Value::from("array")), ("items", Value::Object(items))])
}

/// An array whose items are unique: `x-kubernetes-list-type: set`
/// (`uniqueItems` is forbidden in CRDs).
fn set_of<T: CustomResourceSchema + ?Sized>(generator: &mut SchemaGenerator) -> Schema {
    let mut schema = array_of::<T>(generator);
    schema.insert("x-kubernetes-list-type".to_owned(), Value::from("set"));
    schema
}

/// `type: object` with `T`'s schema as `additionalProperties`.
fn map_of<T: CustomResourceSchema + ?Sized>(generator: &mut SchemaGenerator) -> Schema {
    let values = generator.subschema::<T>();
    schema_of([("type", Value::from("object")), ("additionalProperties", Value::Object(values))])
}

impl<T: CustomResourceSchema> CustomResourceSchema for Vec<T> {
    fn schema(generator: &mut SchemaGenerator) -> Schema {
        array_of::<T>(generator)
    }
}

impl<T: CustomResourceSchema> CustomResourceSchema for [T] {
    fn schema(generator: &mut SchemaGenerator) -> Schema {
        array_of::<T>(generator)
    }
}

impl<T: CustomResourceSchema, const N: usize> CustomResourceSchema for [T; N] {
    fn schema(generator: &mut SchemaGenerator) -> Schema {
        array_of::<T>(generator)
    }
}

impl<T: CustomResourceSchema> CustomResourceSchema for VecDeque<T> {
    fn schema(generator: &mut SchemaGenerator) -> Schema {
        array_of::<T>(generator)
    }
}

impl<T: CustomResourceSchema> CustomResourceSchema for BTreeSet<T> {
    fn schema(generator: &mut SchemaGenerator) -> Schema {
        set_of::<T>(generator)
    }
}

impl<T: CustomResourceSchema, S> CustomResourceSchema for HashSet<T, S> {
    fn schema(generator: &mut SchemaGenerator) -> Schema {
        set_of::<T>(generator)
    }
}

impl<T: CustomResourceSchema> CustomResourceSchema for BTreeMap<String, T> {
    fn schema(generator: &mut SchemaGenerator) -> Schema {
        map_of::<T>(generator)
    }
}

impl<T: CustomResourceSchema, S> CustomResourceSchema for HashMap<String, T, S> {
    fn schema(generator: &mut SchemaGenerator) -> Schema {
        map_of::<T>(generator)
    }
}

/// The schema of k8s-openapi's `IntOrString`: `x-kubernetes-int-or-string:
/// true` with the `anyOf` controller-gen writes beside it. Public without
/// the `k8s-openapi` feature so that the generator predicts exactly what
/// the derive gives.
pub fn int_or_string() -> Schema {
    let alternatives = ["integer", "string"].map(|t| Value::Object(schema_of([("type", Value::from(t))])));
    schema_of([("anyOf", Value::Array(alternatives.to_vec())), ("x-kubernetes-int-or-string", Value::Bool(true))])
}

/// The schema of k8s-openapi's `ObjectMeta`: the API server fills in and
/// validates `metadata` itself, so a CRD may only say `type: object` there.
/// Public for the same reason as [`int_or_string`].
pub fn object_meta() -> Schema {
    schema_of([("type", Value::from("object"))])
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;
    use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
    use std::rc::Rc;
    use std::sync::Arc;

    use serde_json::{Value, json};

    use super::super::{CustomResourceSchema, schema_for};

    fn schema<T: CustomResourceSchema + ?Sized>() -> Value {
        Value::Object(schema_for::<T>())
    }

    #[test]
    fn scalars_follow_the_attribute_reference() {
        let string = json!({"type": "string"});
        assert_eq!(schema::<String>(), string);
        assert_eq!(schema::<str>(), string);
        assert_eq!(schema::<char>(), string);
        assert_eq!(schema::<bool>(), json!({"type": "boolean"}));
        for int32 in [schema::<i8>(), schema::<i16>(), schema::<i32>()] {
            assert_eq!(int32, json!({"type": "integer", "format": "int32"}));
        }
        for int in [schema::<i64>(), schema::<isize>(), schema::<i128>()] {
            assert_eq!(int, json!({"type": "integer"}));
        }
        for small in [schema::<u8>(), schema::<u16>()] {
            assert_eq!(small, json!({"type": "integer", "format": "int32", "minimum": 0}));
        }
        for large in [schema::<u32>(), schema::<u64>(), schema::<usize>(), schema::<u128>()] {
            assert_eq!(large, json!({"type": "integer", "minimum": 0}));
        }
        assert_eq!(schema::<f32>(), json!({"type": "number", "format": "float"}));
        assert_eq!(schema::<f64>(), json!({"type": "number"}));
        assert_eq!(schema::<()>(), json!({"type": "object"}));
    }

    #[test]
    fn wrappers_are_their_content() {
        let int32 = json!({"type": "integer", "format": "int32"});
        assert_eq!(schema::<Option<i32>>(), int32);
        assert_eq!(schema::<Box<i32>>(), int32);
        assert_eq!(schema::<Arc<i32>>(), int32);
        assert_eq!(schema::<Rc<i32>>(), int32);
        assert_eq!(schema::<&i32>(), int32);
        assert_eq!(schema::<Cow<'static, str>>(), json!({"type": "string"}));
        assert_eq!(schema::<Box<str>>(), json!({"type": "string"}));
        const {
            assert!(<Option<i32> as CustomResourceSchema>::OPTIONAL);
            assert!(!<Box<i32> as CustomResourceSchema>::OPTIONAL);
            assert!(!<i32 as CustomResourceSchema>::OPTIONAL);
        }
    }

    #[test]
    fn collections_are_arrays_and_maps() {
        let strings = json!({"type": "array", "items": {"type": "string"}});
        assert_eq!(schema::<Vec<String>>(), strings);
        assert_eq!(schema::<[String]>(), strings);
        assert_eq!(schema::<[String; 3]>(), strings);
        assert_eq!(schema::<VecDeque<String>>(), strings);
        let set = json!({"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "set"});
        assert_eq!(schema::<BTreeSet<String>>(), set);
        assert_eq!(schema::<HashSet<String>>(), set);
        let map = json!({"type": "object", "additionalProperties": {"type": "boolean"}});
        assert_eq!(schema::<BTreeMap<String, bool>>(), map);
        assert_eq!(schema::<HashMap<String, bool>>(), map);
        assert_eq!(
            schema::<Vec<BTreeMap<String, Option<u8>>>>(),
            json!({"type": "array", "items": {"type": "object", "additionalProperties":
                {"type": "integer", "format": "int32", "minimum": 0}}})
        );
    }

    #[test]
    fn json_values_keep_everything() {
        assert_eq!(schema::<Value>(), json!({"x-kubernetes-preserve-unknown-fields": true}));
        assert_eq!(
            schema::<serde_json::Map<String, Value>>(),
            json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true})
        );
    }
}
