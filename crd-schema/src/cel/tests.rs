//! Tests of the validator as a whole: evaluation against schemas,
//! correlation of old values, messages, reasons, field paths,
//! `optionalOldSelf`, budgets, hostile input, and cel-go's runtime costs as
//! Kubernetes' cost stability tests (`celcoststability_test.go`) pin them.

use serde_json::{Value, json};

use super::*;

fn structural(schema: Value) -> Structural {
    Structural::from_json(&schema).unwrap()
}

/// Asserts that each of `rules`, declared by `schema`, holds on `value`.
fn assert_hold(schema: impl Fn(&str) -> Value, value: &Value, rules: &[&str]) {
    for rule in rules {
        assert_eq!(run(schema(rule), value.clone(), None), Vec::<String>::new(), "{rule}");
    }
}

fn run(schema: Value, value: Value, old: Option<Value>) -> Vec<String> {
    let validator = CelValidator::new(&structural(schema));
    let mut budget = RUNTIME_COST_BUDGET;
    validator.validate(&Path::root(), &value, old.as_ref(), &mut budget).iter().map(ToString::to_string).collect()
}

/// The runtime cost of `rule`, declared at the root of `properties`, on
/// `value`; the rule must hold.
fn cost(properties: Value, rule: &str, value: &Value) -> i64 {
    let schema = json!({"type": "object", "properties": properties, "x-kubernetes-validations": [{"rule": rule}]});
    let validator = CelValidator::new(&structural(schema));
    let mut budget = RUNTIME_COST_BUDGET;
    let errors = validator.validate(&Path::root(), value, None, &mut budget);
    assert!(errors.is_empty(), "{rule}: {errors:?}");
    RUNTIME_COST_BUDGET - budget
}

fn assert_costs(properties: Value, value: Value, cases: &[(&str, i64)]) {
    for (rule, want) in cases {
        assert_eq!(cost(properties.clone(), rule, &value), *want, "{rule}");
    }
}

#[test]
fn costs_of_scalars_match_kubernetes() {
    let props = json!({"val1": {"type": "integer"}, "val3": {"type": "integer", "format": "int32"},
        "val4": {"type": "number"}, "val7": {"type": "number"}});
    let value = json!({"val1": 5, "val3": 2147483647, "val4": 10.0, "val7": 1});
    assert_costs(
        props,
        value,
        &[
            ("type(self.val1) == int", 4),
            ("self.val3 + 1 == 2147483647 + 1", 5),
            ("double(self.val1) < self.val4", 6),
            ("self.val1 < int(self.val4)", 6),
            ("double(5) < 10.0", 1),
            ("5 < int(10.0)", 1),
            ("double(self.val1) < 10.0", 4),
            ("type(self.val7) == double", 4),
            ("self.val7 == 1.0", 3),
        ],
    );
}

#[test]
fn costs_of_strings_match_kubernetes() {
    let props = json!({"val1": {"type": "string"}, "val2": {"type": "string"}});
    let value = json!({"val1": "Rook takes 👑", "val2": "Rook takes 👑"});
    assert_costs(
        props,
        value,
        &[
            ("self.val1 == self.val2", 6),
            ("self.val1.startsWith('Rook')", 4),
            ("!self.val1.startsWith('knight')", 5),
            ("self.val1.matches('^[^0-9]*$')", 8),
            ("!self.val1.matches('^[0-9]*$')", 7),
            ("type(self.val1) == string", 4),
            ("size(self.val1) == 12", 4),
            ("self.val1.charAt(3) == 'k'", 4),
            ("self.val1.indexOf('o') == 1", 4),
            ("self.val1.replace(' ', 'x') == 'Rookxtakesx👑'", 7),
            ("self.val1.split(' ') == ['Rook', 'takes', '👑']", 6),
            ("self.val1.substring(5) == 'takes 👑'", 5),
            ("self.val1.substring(4, 10).trim() == 'takes'", 6),
            ("self.val1.upperAscii() == 'ROOK TAKES 👑'", 6),
        ],
    );
}

#[test]
fn costs_of_formats_and_conversions_match_kubernetes() {
    let props = json!({"d": {"type": "string", "format": "duration"}, "b": {"type": "string", "format": "byte"},
        "date": {"type": "string", "format": "date"}, "val10": {"type": "string"},
        "val11": {"type": "string", "format": "date-time"}, "val12": {"type": "string"}});
    let value = json!({"d": "1h2m3s4ms", "b": "QUI=", "date": "2011-08-18", "val10": "2011-08-18T19:03:37.01+01:00",
        "val11": "2011-08-18T19:03:37.01+01:00", "val12": "2011-08-18T00:00:00Z"});
    assert_costs(
        props,
        value,
        &[
            ("self.d == duration('1h2m') + duration('3s4ms')", 4),
            ("self.d.getHours() == 1", 4),
            ("self.b == b'AB'", 3),
            ("size(self.b) == 2", 4),
            ("self.date.getDate() == 18", 4),
            ("timestamp(self.val10) == self.val11", 6),
            ("string(self.val11) == self.val10", 8),
            ("timestamp(self.val12) == self.date", 6),
            ("string(self.date) == self.val12", 7),
            ("type(self.d) == google.protobuf.Duration", 4),
            ("type(self.val11) == google.protobuf.Timestamp && type(self.d) != google.protobuf.Timestamp", 8),
        ],
    );
}

#[test]
fn costs_of_lists_and_maps_match_kubernetes() {
    let props = json!({"val1": {"type": "array", "items": {"type": "integer"}},
        "set": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
        "val": {"type": "object", "additionalProperties": {"type": "integer"}},
        "array": {"type": "array", "items": {"type": "integer"}}});
    let value =
        json!({"val1": [1, 2, 3], "set": ["a", "b", "c"], "val": {"b": 1, "d": 2}, "array": [1, 1, 2, 2, 3, 3, 4, 5]});
    assert_costs(
        props,
        value,
        &[
            ("1 in self.val1", 5),
            ("!(0 in self.val1)", 6),
            ("self.val1 + [4, 5] == [1, 2, 3, 4, 5]", 4),
            ("self.set == ['c', 'b', 'a']", 3),
            ("'b' in self.val", 3),
            ("self.val == {'b': 1, 'd': 2}", 3),
            ("has(self.val.b)", 2),
            ("!has(self.val.a)", 3),
            ("self.val.all(k, self.val[k] > 0)", 17),
            ("self.val.exists_one(k, self.val[k] == 2)", 14),
            ("size(self.val.filter(k, self.val[k] > 1)) == 1", 26),
            ("2 in self.array", 10),
            ("self.array.all(e, e > 0)", 43),
            ("self.array.exists(e, e > 2)", 36),
            ("self.array.exists_one(e, e > 4)", 22),
            ("!self.array.all(e, e < 2)", 21),
            ("size(self.array.filter(e, e%2 == 0)) == 3", 68),
            ("self.array.map(e, e * 20).filter(e, e > 50).exists(e, e == 60)", 194),
        ],
    );
}

#[test]
fn costs_of_objects_match_kubernetes() {
    let props = json!({
        "listMap": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"],
            "items": {"type": "object", "properties": {"k": {"type": "string"}, "v": {"type": "string"}, "v2": {"type": "string"}}}},
        "embedded": {"type": "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true},
        "something": {"x-kubernetes-int-or-string": true}});
    let value = json!({"listMap": [{"k": "a1", "v": "b1"}, {"k": "a2", "v": "b2"}, {"k": "a3", "v": "b3", "v2": "z"}],
        "embedded": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "foo", "generateName": "pickItForMe"}},
        "something": "25%"});
    assert_costs(
        props,
        value,
        &[
            ("has(self.listMap[0].v)", 3),
            ("self.listMap.all(m, m.k.startsWith('a'))", 21),
            ("self.listMap.exists(m, m.k.endsWith('1'))", 13),
            ("self.listMap.exists_one(m, m.k == 'a3')", 15),
            ("!self.listMap.exists(m, m.v == 'x')", 25),
            ("self.listMap.map(m, m.v).exists(v, v == 'b1')", 55),
            ("self.listMap.exists(m, has(m.v2) && m.v2 == 'z')", 21),
            ("self.listMap.exists_one(m, has(m.v2) && m.v2 == 'z')", 12),
            ("self.listMap.map(m, has(m.v2) && m.v2 == 'z', m.v2).size() == 1", 25),
            ("self.embedded.metadata.generateName == 'pickItForMe'", 6),
            ("has(self.embedded)", 1),
            ("type(self.something) == int ? self.something == 1 : self.something == '25%'", 7),
            ("self.something == 1 || self.something == '25%'", 6),
            ("self.something != ['anything']", 3),
        ],
    );
}

#[test]
fn transition_rules_need_a_correlated_old_value() {
    let schema = json!({"type": "object", "properties": {
        "field": {"type": "string", "x-kubernetes-validations": [{"rule": "self == oldSelf", "message": "immutable"}]},
        "m": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"],
            "items": {"type": "object", "properties": {"k": {"type": "string"},
                "v": {"type": "integer", "x-kubernetes-validations": [{"rule": "self >= oldSelf"}]}}}},
        "a": {"type": "array", "items": {"type": "object", "properties": {
            "v": {"type": "integer", "x-kubernetes-validations": [{"rule": "self >= oldSelf"}]}}}}}});
    assert!(run(schema.clone(), json!({"field": "y"}), None).is_empty(), "no old value on create");
    assert_eq!(
        run(schema.clone(), json!({"field": "y"}), Some(json!({"field": "x"}))),
        ["field: Invalid value: \"y\": immutable"]
    );
    let old = json!({"m": [{"k": "a", "v": 5}, {"k": "b", "v": 1}], "a": [{"v": 5}]});
    let new = json!({"m": [{"k": "b", "v": 2}, {"k": "a", "v": 4}, {"k": "c", "v": 0}], "a": [{"v": 1}]});
    assert_eq!(run(schema, new, Some(old)), ["m[1].v: Invalid value: 4: failed rule: self >= oldSelf"]);
}

#[test]
fn optional_old_self_runs_on_create() {
    let schema = json!({"type": "object", "properties": {"f": {"type": "string", "x-kubernetes-validations": [
        {"rule": "oldSelf.hasValue()", "optionalOldSelf": true, "message": "only on update"},
        {"rule": "oldSelf.orValue(self) == self", "optionalOldSelf": true, "messageExpression": "'now ' + self"}]}}});
    assert_eq!(run(schema.clone(), json!({"f": "a"}), None), ["f: Invalid value: \"a\": only on update"]);
    assert!(run(schema.clone(), json!({"f": "a"}), Some(json!({"f": "a"}))).is_empty());
    assert_eq!(run(schema, json!({"f": "a"}), Some(json!({"f": "b"}))), ["f: Invalid value: \"a\": now a"]);
}

#[test]
fn messages_reasons_and_field_paths() {
    let schema = json!({"type": "object", "properties": {"spec": {"type": "object",
        "properties": {"x": {"type": "integer"}, "m": {"type": "object", "additionalProperties": {"type": "string"}}},
        "x-kubernetes-validations": [
            {"rule": "self.x > 0", "reason": "FieldValueForbidden", "fieldPath": ".x", "message": " positive "},
            {"rule": "self.x > 1", "reason": "FieldValueRequired", "messageExpression": "'x is ' + string(self.x)"},
            {"rule": "self.x > 2", "fieldPath": ".m['a.b']"},
            {"rule": "self.x > 3", "reason": "FieldValueDuplicate"},
            {"rule": "self.x > 4", "messageExpression": "''"}]}}});
    assert_eq!(
        run(schema, json!({"spec": {"x": 0, "m": {}}}), None),
        [
            "spec.x: Forbidden: positive",
            "spec: Required value: x is 0",
            "spec.m[a.b]: Invalid value: failed rule: self.x > 2",
            "spec: Duplicate value: {\"m\":{},\"x\":0}",
            "spec: Invalid value: failed rule: self.x > 4",
        ]
    );
}

#[test]
fn runtime_and_compile_errors_are_reported_at_the_node() {
    let schema = json!({"type": "object", "properties": {"s": {"type": "object",
        "properties": {"a": {"type": "string"}, "i": {"x-kubernetes-int-or-string": true}},
        "x-kubernetes-validations": [{"rule": "self.a == 'x'"}, {"rule": "self.i.startsWith('a')"},
            {"rule": "self.nope == 1"}, {"rule": "1 / (self.i - 5) == 1"}]}}});
    assert_eq!(
        run(schema, json!({"s": {"i": 5}}), None),
        [
            "s: Invalid value: \"object\": no such key: a evaluating rule: self.a == 'x'",
            "s: Invalid value: \"object\": 'no such overload': call arguments did not match a supported operator, function or macro signature for rule: self.i.startsWith('a')",
            "s: Invalid value: \"object\": rule compile error: compilation failed: ERROR: <input>: undefined field 'nope'",
            "s: Invalid value: \"object\": division by zero evaluating rule: 1 / (self.i - 5) == 1",
        ]
    );
}

#[test]
fn the_budget_runs_out_once() {
    let schema = json!({"type": "object", "properties": {
        "a": {"type": "string", "x-kubernetes-validations": [{"rule": "self == 'a'"}]},
        "b": {"type": "string", "x-kubernetes-validations": [{"rule": "self == 'b'"}]},
        "c": {"type": "string", "x-kubernetes-validations": [{"rule": "self == 'c'"}]}}});
    let validator = CelValidator::new(&structural(schema));
    let value = json!({"a": "a", "b": "b", "c": "c"});
    let mut budget = 6;
    assert!(validator.validate(&Path::root(), &value, None, &mut budget).is_empty());
    assert_eq!(budget, 0);
    let mut budget = 5;
    let errors: Vec<String> =
        validator.validate(&Path::root(), &value, None, &mut budget).iter().map(ToString::to_string).collect();
    assert_eq!(
        errors,
        [
            "c: Invalid value: \"string\": validation failed due to running out of cost budget, no further validation rules will be run"
        ]
    );
    assert!(budget < 0);
}

#[test]
fn the_per_call_limit_stops_a_rule() {
    let schema = json!({"type": "array", "items": {"type": "integer"},
        "x-kubernetes-validations": [{"rule": "self.all(x, self.all(y, x + y >= 0))"}]});
    let validator = CelValidator::with_root(&structural(schema), false);
    let value = Value::Array((0..2000).map(Value::from).collect());
    let mut budget = RUNTIME_COST_BUDGET;
    let errors = validator.validate(&Path::root(), &value, None, &mut budget);
    assert_eq!(errors.len(), 1);
    assert!(errors[0].to_string().contains("'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: self.all(x, self.all(y, x + y >= 0))"));
    assert!(budget < 0);
}

#[test]
fn hostile_rules_and_values_do_not_panic() {
    let deep_rule = format!("{}true{}", "(".repeat(500), ")".repeat(500));
    let huge_range = "lists.range(1000000000).size() > 0";
    let schema = json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true,
        "x-kubernetes-validations": [{"rule": deep_rule}, {"rule": huge_range}, {"rule": "self.x.y.z == 1"}]});
    let validator = CelValidator::new(&structural(schema));
    assert!(!validator.is_empty());
    let mut deep = json!(1);
    for _ in 0..2000 {
        deep = json!({"x": deep});
    }
    let mut budget = RUNTIME_COST_BUDGET;
    let errors = validator.validate(&Path::root(), &deep, Some(&deep), &mut budget);
    assert!(!errors.is_empty());
    assert!(errors[0].to_string().contains("rule compile error"), "{errors:?}");
}

#[test]
fn the_deepest_accepted_expressions_run() {
    let sum = format!("{} == 240", vec!["1"; 240].join(" + "));
    let nested = format!("{}self{} == 1", "(".repeat(80), ")".repeat(80));
    let schema = json!({"type": "integer", "x-kubernetes-validations": [{"rule": sum}, {"rule": nested}]});
    let validator = CelValidator::with_root(&structural(schema), false);
    let mut budget = RUNTIME_COST_BUDGET;
    assert!(validator.validate(&Path::root(), &json!(1), None, &mut budget).is_empty());
    assert!(budget < RUNTIME_COST_BUDGET);
}

#[test]
fn validators_are_shareable() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<CelValidator>();
    let empty = CelValidator::new(&structural(json!({"type": "object", "properties": {"a": {"type": "string"}}})));
    assert!(empty.is_empty());
    let mut budget = 1;
    assert!(empty.validate(&Path::root(), &json!({"a": "x"}), None, &mut budget).is_empty());
    assert_eq!(budget, 1);
    assert_eq!(format!("{empty:?}"), "CelValidator { rules: 0 }");
}

#[test]
fn scoped_budgets_are_shared_and_restored() {
    let errors = with_cost_budget(3, || {
        let first = with_scoped_budget(|b| {
            *b -= 3;
            ErrorList::new()
        });
        let second = with_scoped_budget(|b| {
            assert_eq!(*b, 0);
            *b = -1;
            vec![crate::field::FieldError::required(&Path::new("x"), "")]
        });
        let third = with_scoped_budget(|_| panic!("an exhausted budget runs nothing"));
        (first, second, third)
    });
    assert!(errors.0.is_empty() && errors.1.len() == 1 && errors.2.is_empty());
    assert_eq!(
        with_scoped_budget(|b| vec![crate::field::FieldError::required(&Path::new(b.to_string()), "")])[0].path,
        Path::new(RUNTIME_COST_BUDGET.to_string())
    );
}

#[test]
fn two_variable_comprehensions_are_those_of_kubernetes_1_32() {
    let schema = |rule: &str| {
        json!({"type": "object", "properties": {
            "m": {"type": "object", "additionalProperties": {"type": "integer"}},
            "l": {"type": "array", "items": {"type": "string"}}},
            "x-kubernetes-validations": [{"rule": rule}]})
    };
    let value = json!({"m": {"a": 1, "b": 2}, "l": ["x", "y", "x"]});
    assert_hold(
        schema,
        &value,
        &[
            "self.m.all(k, v, v > 0 && k.size() == 1)",
            "self.l.all(i, v, i < 3 && v.size() == 1)",
            "self.m.exists(k, v, k == 'b' && v == 2)",
            "!self.l.exists(i, v, i == 1 && v == 'x')",
            "self.m.existsOne(k, v, v == 1) && self.l.exists_one(i, v, v == 'y')",
            "!self.l.existsOne(i, v, v == 'x')",
            "self.l.transformList(i, v, v + string(i)) == ['x0', 'y1', 'x2']",
            "self.l.transformList(i, v, i > 0, v) == ['y', 'x']",
            "self.m.transformMap(k, v, v * 10) == {'a': 10, 'b': 20}",
            "self.m.transformMap(k, v, v > 1, k) == {'b': 'b'}",
            "self.m.transformMapEntry(k, v, {v: k}) == {1: 'a', 2: 'b'}",
            // Nested, and next to the one-variable forms.
            "self.m.all(k, v, self.l.all(s, s.size() == 1) && self.l.exists(i, e, e == 'y' && i == 1))",
        ],
    );
    // A key the transform makes twice is an error at run time.
    let errors = run(schema("self.l.transformMapEntry(i, v, {v: i}).size() == 2"), value.clone(), None);
    assert!(errors[0].contains("insert failed: key x already exists"), "{errors:?}");
    // Misuses are compile errors, as cel-go's macros make them.
    for (rule, error) in [
        ("self.m.all(k, k, true)", "duplicate variable name: k"),
        ("self.m.all(k, 1, true)", "argument must be a simple name"),
        ("self.m.exists(@result, v, true)", "ERROR"),
        ("self.m.transformMap(k, v, v, v, v)", "undeclared reference to 'transformMap'"),
    ] {
        let errors = run(schema(rule), value.clone(), None);
        assert!(errors.iter().any(|e| e.contains("compil") && e.contains(error)), "{rule}: {errors:?}");
    }
}

#[test]
fn timestamp_getters_read_utc_unless_given_a_zone() {
    let schema = |rule: &str| {
        json!({"type": "object", "properties": {"t": {"type": "string", "format": "date-time"}},
            "x-kubernetes-validations": [{"rule": rule}]})
    };
    let value = json!({"t": "2011-08-18T19:03:37.010+01:00"});
    assert_hold(
        schema,
        &value,
        &[
            "self.t.getHours() == 18",
            "self.t.getHours('UTC') == 18",
            "self.t.getHours('01:00') == 19",
            "self.t.getHours('+01:00') == 19",
            "self.t.getHours('-02:30') == 15 && self.t.getMinutes('-02:30') == 33",
            "timestamp('2011-08-18T23:30:00-02:00').getDate() == 19",
            "self.t.getDayOfMonth('-20:00') == 16",
        ],
    );
}

#[test]
fn empty_lists_have_no_minimum_in_kubernetes_words() {
    let schema = |rule: &str| {
        json!({"type": "object", "properties": {"l": {"type": "array", "items": {"type": "integer"}}},
            "x-kubernetes-validations": [{"rule": rule}]})
    };
    for f in ["min", "max"] {
        let errors = run(schema(&format!("self.l.{f}() == 0")), json!({"l": []}), None);
        assert!(errors[0].contains(&format!("{f} called on empty list")), "{errors:?}");
    }
}

#[test]
fn preserved_unknown_fields_count_in_equality() {
    let schema = json!({"type": "object", "properties": {"config": {
        "type": "object", "x-kubernetes-preserve-unknown-fields": true,
        "properties": {"known": {"type": "integer"}},
        "x-kubernetes-validations": [{"rule": "self == oldSelf", "message": "immutable"}]}}});
    let object = |extra: Value| json!({"config": {"known": 1, "extra": extra}});
    assert_eq!(run(schema.clone(), object(json!("a")), Some(object(json!("a")))), Vec::<String>::new());
    let errors = run(schema.clone(), object(json!("b")), Some(object(json!("a"))));
    assert!(errors.len() == 1 && errors[0].contains("immutable"), "{errors:?}");
    // The same values under other names differ too.
    let renamed = json!({"config": {"known": 1, "other": "a"}});
    assert_eq!(run(schema, renamed, Some(object(json!("a")))).len(), 1);
}

#[test]
fn literals_are_checked_when_the_rule_compiles() {
    let schema = |rule: &str| json!({"type": "object", "properties": {"s": {"type": "string"}}, "x-kubernetes-validations": [{"rule": rule}]});
    let value = json!({"s": "abc"});
    for (rule, error) in [
        ("duration('1us') < duration('1nns')", "compilation failed: ERROR: <input>: invalid duration argument"),
        ("duration('1d') == duration('24h')", "invalid duration argument"),
        ("timestamp('1000-00-00T00:00:00Z') < timestamp(0)", "invalid timestamp argument"),
        ("timestamp(-62135596801) < timestamp(0)", "invalid timestamp argument"),
        ("self.s.matches('x++')", "invalid matches argument"),
        ("self.s.find(')') == ''", "program instantiation failed: error parsing regexp: unexpected ): `)`"),
    ] {
        let errors = run(schema(rule), value.clone(), None);
        assert!(errors.len() == 1 && errors[0].contains(error), "{rule}: {errors:?}");
    }
    assert_hold(
        schema,
        &value,
        &[
            "timestamp(-62135596800) < timestamp(253402300799) && duration('1h1m') > duration('61s')",
            "self.s.matches('^a.c$') && self.s.find('b+') == 'b'",
        ],
    );
}

#[test]
fn opt_map_and_opt_flat_map() {
    let schema = |rule: &str| {
        json!({"type": "object", "properties": {
            "m": {"type": "object", "additionalProperties": {"type": "string"}},
            "o": {"type": "object", "properties": {"s": {"type": "string"}}}},
            "x-kubernetes-validations": [{"rule": rule}]})
    };
    let value = json!({"m": {"k": "v"}, "o": {"s": "x"}});
    assert_hold(
        schema,
        &value,
        &[
            "self.m[?'k'].optMap(v, v + '!').value() == 'v!'",
            "!self.m[?'absent'].optMap(v, v + '!').hasValue()",
            "self.?o.?s.optMap(s, s.size()).orValue(0) == 1",
            "self.m[?'k'].optFlatMap(v, v == 'v' ? optional.of(1) : optional.none()).value() == 1",
            "!self.m[?'k'].optFlatMap(v, optional.none()).hasValue()",
        ],
    );
    let errors = run(schema("self.m[?'k'].optMap(1, true).hasValue()"), value, None);
    assert!(errors[0].contains("optMap() variable name must be a simple identifier"), "{errors:?}");
}

#[test]
fn set_and_map_lists_concatenate_as_their_list_types() {
    let set = json!({"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}});
    let map = json!({"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"],
        "items": {"type": "object", "required": ["k"], "properties": {"k": {"type": "string"}, "v": {"type": "integer"}}}});
    let schema = |rule: &str| {
        json!({"type": "object", "properties": {"a": set, "b": set, "m": map, "n": map},
            "x-kubernetes-validations": [{"rule": rule}]})
    };
    let value = json!({"a": ["a", "b", "c"], "b": ["a", "c", "d"],
        "m": [{"k": "x", "v": 1}, {"k": "y", "v": 2}], "n": [{"k": "y", "v": 3}, {"k": "z", "v": 4}]});
    assert_hold(
        schema,
        &value,
        &[
            // A union, compared as a set.
            "self.a + self.b == ['d', 'c', 'b', 'a'] && (self.a + self.b).size() == 4",
            "self.a + ['c', 'e'] == ['a', 'b', 'c', 'e']",
            // The right side's element replaces the one with the same key.
            "(self.m + self.n).size() == 3 && (self.m + self.n)[1].v == 3 && (self.m + self.n)[2].k == 'z'",
            "(self.n + self.m)[0].v == 2 && self.n + self.m != self.m + self.n && self.m + self.m == self.m",
            // A list built by the rule concatenates.
            "['a'] + self.a == ['a', 'a', 'b', 'c']",
        ],
    );
}

#[test]
fn selections_and_indices_on_optionals_are_optional() {
    let schema = json!({"type": "object", "properties": {"foo": {"type": "string"}, "l": {"type": "array", "items": {"type": "string"}}},
        "x-kubernetes-validations": [{"rule": "self.foo == 'valid' || oldSelf.foo.orValue('') != 'valid'", "optionalOldSelf": true},
            {"rule": "oldSelf.l[0].orValue('x') != 'frozen'", "optionalOldSelf": true}]});
    let object = |foo: &str| json!({"foo": foo, "l": [foo]});
    assert_eq!(run(schema.clone(), object("bad"), None), Vec::<String>::new());
    assert_eq!(run(schema.clone(), object("bad"), Some(object("other"))), Vec::<String>::new());
    assert_eq!(run(schema.clone(), object("bad"), Some(object("valid"))).len(), 1);
    assert_eq!(run(schema, object("valid"), Some(object("frozen"))).len(), 1);
}

#[test]
fn format_writes_durations_and_timestamps_as_strings() {
    let schema = |rule: &str| json!({"type": "object", "x-kubernetes-validations": [{"rule": rule}]});
    assert_hold(
        schema,
        &json!({}),
        &[
            "'%d %s %s %s'.format([1, 'abc', duration('1m'), timestamp('2000-01-01T00:00:00.000Z')]) == '1 abc 60s 2000-01-01T00:00:00Z'",
            "optional.ofNonZeroValue(timestamp('0001-01-01T00:00:00Z')) == optional.none()",
            "optional.ofNonZeroValue(timestamp('0001-01-01T00:00:01Z')).hasValue()",
        ],
    );
    // Outside format, a mixed literal is still an error.
    assert_eq!(run(schema("[1, 'abc'].size() == 2"), json!({}), None).len(), 1);
}

#[test]
fn the_lists_library_sums_durations_and_orders_only_ordered_types() {
    let schema = |rule: &str| {
        json!({"type": "object", "properties": {
            "d": {"type": "array", "items": {"type": "string", "format": "duration"}},
            "e": {"type": "array", "items": {"type": "string", "format": "duration"}}},
            "x-kubernetes-validations": [{"rule": rule}]})
    };
    let value = json!({"d": ["1s", "1m", "1h"], "e": []});
    assert_hold(
        schema,
        &value,
        &["self.d.sum() == duration('1h1m1s')", "self.e.sum() == duration('0')", "self.d.max() == duration('1h')"],
    );
    for (rule, error) in [
        ("['a', 'b'].sum() == 'ab'", "found no matching overload for 'sum' applied to 'list(string).()'"),
        ("[[1], [2]].min() == [1]", "found no matching overload for 'min' applied to 'list(list(int)).()'"),
    ] {
        let errors = run(schema(rule), value.clone(), None);
        assert!(errors.len() == 1 && errors[0].contains(error), "{rule}: {errors:?}");
    }
}

#[test]
fn named_formats_are_optional() {
    let schema = |rule: &str| json!({"type": "object", "x-kubernetes-validations": [{"rule": rule}]});
    assert_hold(
        schema,
        &json!({}),
        &[
            "format.named('dns1123Label').value().validate('my-name') == optional.none()",
            "format.named('dns1123Label').hasValue() && !format.named('unknown').hasValue()",
        ],
    );
}
