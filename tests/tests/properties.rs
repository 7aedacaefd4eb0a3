//! Property tests over random structural schemas and random objects:
//! pruning and defaulting are idempotent, pruning with nulls is pruning
//! then null pruning, and pruning after the pipeline removes nothing.

use crd_schema::structural::Structural;
use crd_schema::{defaulting, pipeline, pruning};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

/// Property names shared by schemas and objects, so random objects hit
/// declared properties as often as unknown ones.
const NAMES: &[&str] = &["a", "b", "c", "spec", "metadata", "kind"];

fn name() -> impl Strategy<Value = String> {
    prop::sample::select(NAMES).prop_map(str::to_owned)
}

/// A random scalar schema, sometimes with a default of its own type.
fn leaf_schema() -> impl Strategy<Value = Value> {
    let kind = prop::sample::select(&["string", "integer", "number", "boolean"][..]);
    (kind, any::<bool>(), any::<bool>(), any::<i32>()).prop_map(|(kind, nullable, with_default, n)| {
        let mut s = json!({"type": kind});
        if nullable {
            s["nullable"] = json!(true);
        }
        if with_default {
            s["default"] = match kind {
                "string" => json!(format!("d{n}")),
                "integer" => json!(n),
                "number" => json!(f64::from(n) / 2.0),
                _ => json!(n % 2 == 0),
            };
        }
        s
    })
}

/// A random structural schema: objects with properties or
/// additionalProperties, arrays, preserve-unknown-fields, nullable nodes.
fn schema() -> impl Strategy<Value = Value> {
    schema_with(false)
}

/// [`schema`], with embedded resources among the objects when `embedded`
/// (random objects under them need not decode: their `kind` may be no
/// string).
fn schema_with(embedded: bool) -> impl Strategy<Value = Value> {
    leaf_schema().prop_recursive(4, 48, 4, move |inner| {
        prop_oneof![
            (prop::collection::btree_map(name(), inner.clone(), 0..4), any::<bool>(), any::<bool>(), any::<bool>())
                .prop_map(move |(props, preserve, nullable, embedded_resource)| {
                    let props: Map<String, Value> = props.into_iter().collect();
                    let mut s = json!({"type": "object", "properties": props});
                    if preserve {
                        s["x-kubernetes-preserve-unknown-fields"] = json!(true);
                    }
                    if nullable {
                        s["nullable"] = json!(true);
                    }
                    if embedded && embedded_resource {
                        s["x-kubernetes-embedded-resource"] = json!(true);
                    }
                    s
                }),
            inner.clone().prop_map(|v| json!({"type": "object", "additionalProperties": v})),
            (inner, any::<bool>()).prop_map(|(v, preserve)| {
                let mut s = json!({"type": "array", "items": v});
                if preserve {
                    s["x-kubernetes-preserve-unknown-fields"] = json!(true);
                }
                s
            }),
        ]
    })
}

/// A random JSON value whose keys come from [`NAMES`] and a few others.
fn object() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i32>().prop_map(|n| json!(n)),
        "[a-z]{0,4}".prop_map(Value::String),
    ];
    leaf.prop_recursive(5, 64, 4, |inner| {
        let key = prop_oneof![name(), "[x-z]{1,2}".prop_map(String::from)];
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(key, inner, 0..5)
                .prop_map(|m| Value::Object(m.into_iter().collect::<Map<String, Value>>())),
        ]
    })
}

fn structural(schema: &Value) -> Structural {
    Structural::from_json(schema).expect("generated schema is structural")
}

/// Wraps a random object so the root is an object, as a resource is.
fn resource(spec: Value) -> Value {
    json!({"apiVersion": "example.com/v1", "kind": "Foo", "metadata": {"name": "x"}, "spec": spec})
}

/// The root schema: `spec` and the declared, non-nullable `metadata`
/// and `kind` that resources' schemas may have.
fn root_schema(spec: Value) -> Value {
    json!({"type": "object", "properties": {"spec": spec, "metadata": {"type": "object"}, "kind": {"type": "string"}}})
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn pruning_is_idempotent(spec in schema(), obj in object(), root in any::<bool>()) {
        let s = structural(&root_schema(spec));
        let mut once = resource(obj);
        pruning::prune(&mut once, Some(&s), root);
        let mut twice = once.clone();
        let removed = pruning::prune(&mut twice, Some(&s), root);
        prop_assert!(removed.is_empty(), "second prune removed {removed:?}");
        prop_assert_eq!(once, twice);
    }

    #[test]
    fn pruning_with_nulls_is_pruning_then_null_pruning(
        spec in schema_with(true),
        obj in object(),
        meta in prop_oneof![Just(Value::Null), object()],
        null_kind in any::<bool>(),
        root in any::<bool>(),
    ) {
        let s = structural(&root_schema(spec));
        let mut separate = resource(obj);
        // The declared `metadata` and `kind` of a resource root are kept
        // by pruning and still null-pruned.
        separate["metadata"] = meta;
        if null_kind {
            separate["kind"] = Value::Null;
        }
        let mut fused = separate.clone();
        let removed = pruning::prune(&mut separate, Some(&s), root);
        defaulting::prune_nulls(&mut separate, Some(&s));
        prop_assert_eq!(pruning::prune_with_nulls(&mut fused, Some(&s), root), removed);
        prop_assert_eq!(fused, separate);
    }

    #[test]
    fn defaulting_is_idempotent(spec in schema(), obj in object()) {
        let s = structural(&root_schema(spec));
        let mut once = resource(obj);
        defaulting::default(&mut once, Some(&s));
        let mut twice = once.clone();
        defaulting::default(&mut twice, Some(&s));
        prop_assert_eq!(once, twice);
    }

    #[test]
    fn pipeline_output_has_nothing_left_to_prune(spec in schema(), obj in object()) {
        let s = structural(&root_schema(spec));
        let decoded = pipeline::decode(resource(obj), Some(&s), &pipeline::Options::default());
        let mut again = decoded.expect("well-formed resources decode").object;
        let removed = pruning::prune(&mut again, Some(&s), true);
        prop_assert!(removed.is_empty(), "pruning after the pipeline removed {removed:?}");
    }
}
