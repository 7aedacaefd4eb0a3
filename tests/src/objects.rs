//! Random objects that are well-typed for a structural schema: every
//! required field present, values of the declared types, enum values from
//! the enum. They also carry what pruning and defaulting work on: unknown
//! fields, `null`s on optional fields, absent defaulted fields.
//!
//! Entry point: [`generate`], deterministic for a seed.

use crd_schema::structural::{Structural, StructuralOrBool};
use serde_json::{Map, Value, json};

/// A small deterministic generator (xorshift64*), enough for test data.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator for `seed` (any value, 0 included).
    pub fn new(seed: u64) -> Self {
        Self(seed ^ 0x9E37_79B9_7F4A_7C15 | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    /// True with probability `percent`/100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// How deep generated values may nest before optional parts are left out.
const MAX_DEPTH: usize = 12;

/// A random resource for a CRD version's `schema` (or for a schema-less
/// version when `None`) with the given type meta.
pub fn generate(schema: Option<&Structural>, api_version: &str, kind: &str, rng: &mut Rng) -> Value {
    let mut object = match schema {
        Some(s) => value(s, rng, 0, false),
        None => json!({"extra": rng.below(10)}),
    };
    if let Value::Object(map) = &mut object {
        map.insert("apiVersion".into(), json!(api_version));
        map.insert("kind".into(), json!(kind));
        map.insert("metadata".into(), metadata(rng));
    }
    object
}

fn metadata(rng: &mut Rng) -> Value {
    let mut meta = json!({"name": format!("obj-{}", rng.below(1000)), "namespace": "default"});
    if rng.chance(50) {
        meta["labels"] = json!({"app": "demo"});
    }
    if rng.chance(20) {
        meta["unknownMetadataField"] = json!(1);
    }
    meta
}

/// A value for `s`; `preserving` says an ancestor array preserves unknown
/// fields (inherited through `items` only).
fn value(s: &Structural, rng: &mut Rng, depth: usize, preserving: bool) -> Value {
    if s.extensions.x_int_or_string {
        return if rng.chance(50) { json!(rng.below(65536)) } else { json!(format!("{}%", rng.below(100))) };
    }
    if let Some(e) = enum_value(s, rng) {
        return e;
    }
    let preserving = preserving || s.extensions.x_preserve_unknown_fields;
    match s.generic.type_.as_str() {
        "object" => object(s, rng, depth, preserving),
        "array" => array(s, rng, depth, preserving),
        "string" => json!(string(s, rng)),
        "integer" if s.value_validation.format == "int32" => json!(rng.below(1 << 20) as i64 - (1 << 19)),
        "integer" => json!(rng.below(1 << 40) as i64),
        "number" => json!(rng.below(10_000) as f64 / 8.0 + 0.125),
        "boolean" => json!(rng.chance(50)),
        _ => json!({"free": rng.below(100), "form": ["a", 1]}),
    }
}

fn enum_value(s: &Structural, rng: &mut Rng) -> Option<Value> {
    let entries = &s.value_validation.enum_;
    let strings = !entries.is_empty() && entries.iter().all(Value::is_string);
    strings.then(|| entries[rng.below(entries.len() as u64) as usize].clone())
}

fn string(s: &Structural, rng: &mut Rng) -> String {
    match s.value_validation.format.as_str() {
        "date-time" => "2024-05-06T07:08:09Z".to_owned(),
        "date" => "2024-05-06".to_owned(),
        "byte" => "aGVsbG8=".to_owned(),
        _ => format!("s{}", rng.below(100_000)),
    }
}

fn object(s: &Structural, rng: &mut Rng, depth: usize, preserving: bool) -> Value {
    let mut map = Map::new();
    let required: Vec<&String> = s.value_validation.required.iter().flatten().collect();
    if s.extensions.x_embedded_resource {
        map.insert("apiVersion".into(), json!("example.com/v1"));
        map.insert("kind".into(), json!("Thing"));
        map.insert("metadata".into(), metadata(rng));
    }
    for (name, property) in &s.properties {
        if map.contains_key(name) {
            continue;
        }
        let is_required = required.contains(&name);
        if !is_required && (depth >= MAX_DEPTH || rng.chance(35)) {
            continue;
        }
        let v = if !is_required && rng.chance(10) { Value::Null } else { value(property, rng, depth + 1, false) };
        map.insert(name.clone(), v);
    }
    if let Some(StructuralOrBool::Structural(values)) = &s.additional_properties {
        for i in 0..rng.below(if depth >= MAX_DEPTH { 1 } else { 3 }) {
            map.insert(format!("key{i}"), value(values, rng, depth + 1, false));
        }
    }
    if rng.chance(30) {
        let extra = if preserving { json!({"kept": [1, "two", null]}) } else { json!(rng.below(10)) };
        map.insert("zzUnknownField".into(), extra);
    }
    Value::Object(map)
}

fn array(s: &Structural, rng: &mut Rng, depth: usize, preserving: bool) -> Value {
    let Some(items) = &s.items else { return json!([]) };
    let count = if depth >= MAX_DEPTH { 0 } else { rng.below(3) };
    Value::Array((0..count).map(|_| value(items, rng, depth + 1, preserving)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_follow_the_schema_and_are_deterministic() {
        let schema = Structural::from_json(&json!({"type": "object", "required": ["spec"], "properties": {
            "spec": {"type": "object", "required": ["size"], "properties": {
                "size": {"type": "integer", "format": "int32"},
                "colour": {"type": "string", "enum": ["red", "blue"]},
                "ports": {"type": "array", "items": {"x-kubernetes-int-or-string": true}}}}}}))
        .unwrap();
        for seed in 0..50 {
            let a = generate(Some(&schema), "g/v1", "K", &mut Rng::new(seed));
            let b = generate(Some(&schema), "g/v1", "K", &mut Rng::new(seed));
            assert_eq!(a, b);
            assert!(a["spec"]["size"].is_i64(), "{a}");
            if let Some(c) = a["spec"].get("colour").filter(|c| !c.is_null()) {
                assert!(c == "red" || c == "blue", "{a}");
            }
            assert_eq!(a["kind"], "K");
        }
    }
}
