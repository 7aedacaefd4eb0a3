//! `crd diff`'s promise on random structural schemas: a change it calls
//! safe (no finding of error or warning severity) never makes an object
//! the old revision accepts invalid, on a create or on an update that
//! changes nothing, and never drops a field of the object as the old
//! revision stored it.
//!
//! Each case draws a schema (`strategy::schema::root`), one change to one
//! of its nodes (a field removed or added, a type, `nullable`, a default,
//! `required`, a bound, `enum`, `pattern`, `format`, preservation of
//! unknown fields, a rule, a list type), keeps it when the changed CRD
//! passes the API server's CRD validation, and runs random objects of the
//! old schema (`strategy::value::resource`) through both revisions.

use std::cell::RefCell;

use crd_schema::crd::CustomResourceDefinition;
use crd_schema::diff::{self, Revision};
use crd_schema::resource::ResourceValidator;
use crd_schema::validation;
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use random_schemas::strategy::{schema, value};
use serde_json::{Map, Value, json};

const API_VERSION: &str = "random.example.com/v1";

/// Cases drawn.
const CASES: u32 = 1024;

fn manifest(schema: &Value) -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "randoms.random.example.com"},
        "spec": {"group": "random.example.com", "scope": "Namespaced",
            "names": {"plural": "randoms", "singular": "random", "kind": "Random", "listKind": "RandomList"},
            "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": schema}}]},
    })
}

/// The CRD of `schema` when the API server would accept it.
fn valid_crd(schema: &Value) -> Option<CustomResourceDefinition> {
    let crd = CustomResourceDefinition::from_manifest(&manifest(schema))?;
    let mut created = crd.clone();
    created.prepare_for_create();
    (crd.decode_issues.is_empty() && validation::validate_crd_create(&created).is_empty()).then_some(crd)
}

/// JSON pointers of every schema node reachable through `properties`,
/// `items` and `additionalProperties`.
fn nodes(schema: &Value, at: String, out: &mut Vec<String>) {
    out.push(at.clone());
    if let Some(Value::Object(props)) = schema.get("properties") {
        for (name, child) in props {
            nodes(child, format!("{at}/properties/{}", name.replace('~', "~0").replace('/', "~1")), out);
        }
    }
    for keyword in ["items", "additionalProperties"] {
        if let Some(child @ Value::Object(_)) = schema.get(keyword) {
            nodes(child, format!("{at}/{keyword}"), out);
        }
    }
}

/// How many kinds of change [`mutate`] knows.
const CHANGES: usize = 22;

/// Applies change `kind` (with the number `n`) to `node`.
fn mutate(node: &mut Map<String, Value>, kind: usize, n: i64) {
    let type_ = node.get("type").and_then(Value::as_str).unwrap_or_default().to_owned();
    let first_property = node.get("properties").and_then(Value::as_object).and_then(|p| p.keys().next().cloned());
    match kind {
        0 => {
            if let (Some(Value::Object(props)), Some(name)) = (node.get_mut("properties"), first_property) {
                props.remove(&name);
            }
        }
        1 if type_ == "object" && !node.contains_key("additionalProperties") => {
            let props = node.entry("properties").or_insert_with(|| json!({}));
            props["zz"] = json!({"type": "string"});
        }
        2 => {
            let other = if type_ == "string" { "integer" } else { "string" };
            node.insert("type".into(), json!(other));
        }
        3 => toggle(node, "nullable"),
        4 => {
            let default = match type_.as_str() {
                "string" => json!(format!("d{n}")),
                "integer" => json!(n),
                "boolean" => json!(n % 2 == 0),
                _ => return,
            };
            node.insert("default".into(), default);
        }
        5 => {
            node.remove("default");
        }
        6 => {
            if let Some(name) = first_property
                && let Some(required) = node.entry("required").or_insert_with(|| json!([])).as_array_mut()
            {
                required.push(json!(name));
            }
        }
        7 => {
            node.remove("required");
        }
        8 => {
            let (_, keyword) = bounds(&type_);
            node.insert(keyword.into(), json!(n.rem_euclid(4)));
        }
        9 => {
            let (keyword, _) = bounds(&type_);
            node.insert(keyword.into(), json!(n.rem_euclid(3)));
        }
        10 => {
            for keyword in [
                "maxLength",
                "minLength",
                "maximum",
                "minimum",
                "maxItems",
                "minItems",
                "maxProperties",
                "minProperties",
                "multipleOf",
                "exclusiveMaximum",
                "exclusiveMinimum",
                "uniqueItems",
            ] {
                node.remove(keyword);
            }
        }
        11 if type_ == "string" => {
            node.insert("enum".into(), json!(["a", format!("d{n}")]));
        }
        12 => {
            node.remove("enum");
        }
        13 if type_ == "string" => {
            node.insert("pattern".into(), json!("^[a-d]"));
        }
        14 => {
            node.remove("pattern");
            node.remove("format");
        }
        15 if type_ == "string" => {
            node.insert("format".into(), json!(if n % 2 == 0 { "date-time" } else { "uuid" }));
        }
        16 if type_ == "object" => toggle(node, "x-kubernetes-preserve-unknown-fields"),
        17 if type_ == "string" => {
            node.insert("x-kubernetes-validations".into(), json!([{"rule": "self.size() < 4"}]));
        }
        18 => {
            node.remove("x-kubernetes-validations");
        }
        19 if type_ == "array" => {
            node.insert("x-kubernetes-list-type".into(), json!(if n % 2 == 0 { "set" } else { "atomic" }));
        }
        20 if type_ == "integer" => {
            node.insert("type".into(), json!("number"));
        }
        21 if type_ == "integer" || type_ == "number" => {
            node.insert("multipleOf".into(), json!(n.rem_euclid(3) + 1));
        }
        _ => {}
    }
}

fn toggle(node: &mut Map<String, Value>, flag: &str) {
    if node.remove(flag).is_none() {
        node.insert(flag.into(), json!(true));
    }
}

/// A schema, one change to it, and objects of the old schema.
fn case() -> impl Strategy<Value = (Value, Value, Vec<Value>)> {
    schema::root(2)
        .prop_flat_map(|old| {
            let objects = proptest::collection::vec(value::resource(&old, API_VERSION, "Random"), 6);
            (Just(old), any::<Index>(), 0..CHANGES, any::<i64>(), objects)
        })
        .prop_map(|(old, at, kind, n, objects)| {
            let mut pointers = Vec::new();
            nodes(&old, String::new(), &mut pointers);
            // The drawn node, or the next one the change applies to.
            let start = at.index(pointers.len());
            let mut new = old.clone();
            for i in 0..pointers.len() {
                if let Some(Value::Object(node)) = new.pointer_mut(&pointers[(start + i) % pointers.len()]) {
                    mutate(node, kind, n);
                }
                if new != old {
                    break;
                }
            }
            (old, new, objects)
        })
}

/// What the cases covered.
#[derive(Debug, Default)]
struct Covered {
    /// Cases whose changed CRD the API server accepts.
    valid: u32,
    /// Of those, changes called safe.
    safe: u32,
    /// Of those, the ones that changed the schema at all.
    changed: u32,
    /// Objects the old revision accepts, run through a safe change of the
    /// schema.
    objects: u32,
}

/// One case: `Ok` when the promise holds (or the case says nothing).
fn check((old, new, objects): (Value, Value, Vec<Value>), covered: &mut Covered) -> Result<(), TestCaseError> {
    let (Some(old_crd), Some(new_crd)) = (valid_crd(&old), valid_crd(&new)) else {
        return Ok(());
    };
    covered.valid += 1;
    let findings = diff::diff(Revision { crd: &old_crd, document: None }, Revision { crd: &new_crd, document: None });
    if !diff::is_safe(&findings) {
        return Ok(());
    }
    covered.safe += 1;
    if old == new {
        return Ok(());
    }
    covered.changed += 1;
    let old_validator = ResourceValidator::from_crd(&old_crd, "v1").expect("a valid CRD prepares");
    let new_validator = ResourceValidator::from_crd(&new_crd, "v1").expect("a valid CRD prepares");
    for object in objects {
        let created = old_validator.create(object.clone());
        if !created.is_valid() {
            continue;
        }
        covered.objects += 1;
        let context = || format!("old schema {old}\nnew schema {new}\nfindings {findings:#?}\nobject {object}");
        let again = new_validator.create(object.clone());
        prop_assert!(again.is_valid(), "refused on create: {:?}\n{}", again.errors, context());
        let stored = created.object;
        let updated = new_validator.update(stored.clone(), stored.clone());
        prop_assert!(updated.is_valid(), "refused on update: {:?}\n{}", updated.errors, context());
        prop_assert!(
            updated.unknown_fields.is_empty(),
            "stored fields dropped: {:?}\n{}",
            updated.unknown_fields,
            context()
        );
    }
    Ok(())
}

#[test]
fn a_change_called_safe_keeps_every_valid_object() {
    let mut runner = TestRunner::new(Config { cases: CASES, failure_persistence: None, ..Config::default() });
    let covered = RefCell::new(Covered::default());
    let result = runner.run(&case(), |c| check(c, &mut covered.borrow_mut()));
    if let Err(e) = result {
        panic!("{e}");
    }
    // The promise must have been put to the test, not passed by skipping.
    let covered = covered.into_inner();
    println!("{covered:?} of {CASES} cases");
    assert!(covered.valid >= CASES / 2 && covered.changed >= CASES / 4 && covered.objects >= CASES, "{covered:?}");
}

/// The lower and upper bound keywords of a node of type `type_`.
fn bounds(type_: &str) -> (&'static str, &'static str) {
    match type_ {
        "string" => ("minLength", "maxLength"),
        "integer" | "number" => ("minimum", "maximum"),
        "array" => ("minItems", "maxItems"),
        _ => ("minProperties", "maxProperties"),
    }
}
