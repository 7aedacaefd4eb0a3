//! One pair of CRDs per kind of change, each with the exact finding.

use serde_json::{Value, json};

use super::*;
use crate::crd;

/// `base` with the keys of `extra` set over its own.
fn merged(mut base: Value, extra: &Value) -> Value {
    for (k, v) in extra.as_object().unwrap() {
        base[k] = v.clone();
    }
    base
}

fn version(name: &str, served: bool, storage: bool, schema: &Value) -> Value {
    json!({"name": name, "served": served, "storage": storage, "schema": {"openAPIV3Schema": schema}})
}

/// A CRD manifest as pretty JSON (one field per line, so that positions
/// differ), with `spec` merged over the defaults.
fn manifest(spec: Value) -> String {
    let defaults = json!({"group": "example.com", "scope": "Namespaced",
        "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"}});
    let full = merged(defaults, &spec);
    let crd = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"}, "spec": full});
    serde_json::to_string_pretty(&crd).unwrap()
}

/// A CRD with one version whose `spec` has the schema `spec`.
fn with_spec(spec: Value) -> String {
    let schema = json!({"type": "object", "properties": {"spec": spec}});
    manifest(json!({"versions": [version("v1", true, true, &schema)]}))
}

fn load(text: &str) -> crd::Loaded {
    crd::parse_source("crd.json", text.as_bytes()).unwrap()
}

fn findings(old: &str, new: &str) -> Vec<Finding> {
    let (old, new) = (load(old), load(new));
    diff(Revision::of(&old.crds[0]), Revision::of(&new.crds[0]))
}

/// The one finding of a change of `spec`'s schema.
fn only(old: Value, new: Value) -> Finding {
    let all = findings(&with_spec(old), &with_spec(new));
    assert_eq!(all.len(), 1, "{all:#?}");
    all.into_iter().next().unwrap()
}

fn summary(f: &Finding) -> (&str, Severity, &str, Option<&str>, Option<&str>) {
    (f.code.as_str(), f.severity, f.path.as_str(), f.old.as_deref(), f.new.as_deref())
}

fn object(props: Value) -> Value {
    json!({"type": "object", "properties": props})
}

#[test]
fn a_crd_against_itself_has_no_findings() {
    let text = with_spec(object(json!({"a": {"type": "string", "maxLength": 3, "default": "x"}})));
    assert_eq!(findings(&text, &text), []);
}

#[test]
fn a_removed_field_is_pruned_from_stored_objects() {
    let f = only(
        object(json!({"a": {"type": "string"}, "b": {"type": "integer"}})),
        object(json!({"a": {"type": "string"}})),
    );
    assert_eq!(summary(&f), ("field-removed", Severity::Error, ".spec.b", Some("type: integer"), None));
    assert!(f.reason.contains("dropped on the next write"), "{}", f.reason);
    // Located at the old field only: the new revision has no such node.
    assert_eq!(f.new_at, None);
    assert!(f.old_at.is_some_and(|at| at.line > 10), "{:?}", f.old_at);
}

#[test]
fn a_field_removed_under_preserve_unknown_fields_is_kept() {
    let preserve =
        |props: Value| json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true, "properties": props});
    let f = only(preserve(json!({"a": {"type": "string"}})), preserve(json!({})));
    assert_eq!(summary(&f), ("field-removed", Severity::Warning, ".spec.a", Some("type: string"), None));
    let f = only(preserve(json!({})), preserve(json!({"a": {"type": "string"}})));
    assert_eq!(summary(&f), ("field-added", Severity::Warning, ".spec.a", None, Some("type: string")));
    let f = only(object(json!({})), object(json!({"a": {"type": "string"}})));
    assert_eq!(summary(&f), ("field-added", Severity::Info, ".spec.a", None, Some("type: string")));
}

#[test]
fn a_type_change_is_reported_once_and_not_walked_below() {
    let f = only(
        object(json!({"a": {"type": "object", "properties": {"x": {"type": "string"}}}})),
        object(json!({"a": {"type": "string"}})),
    );
    assert_eq!(summary(&f), ("type-changed", Severity::Error, ".spec.a", Some("type: object"), Some("type: string")));
    let f = only(object(json!({"a": {"type": "integer"}})), object(json!({"a": {"type": "number"}})));
    assert_eq!(summary(&f), ("type-changed", Severity::Info, ".spec.a", Some("type: integer"), Some("type: number")));
}

#[test]
fn a_new_required_field_breaks_creates_unless_defaulted() {
    let f = only(
        object(json!({"a": {"type": "string"}})),
        json!({"type": "object", "required": ["a"], "properties": {"a": {"type": "string"}}}),
    );
    assert_eq!(summary(&f), ("field-required", Severity::Error, ".spec.a", None, Some("required: a")));
    assert!(f.reason.contains("every create without it is refused"), "{}", f.reason);
    let defaulted =
        json!({"type": "object", "required": ["a"], "properties": {"a": {"type": "string", "default": "x"}}});
    let all = findings(&with_spec(object(json!({"a": {"type": "string"}}))), &with_spec(defaulted));
    let codes: Vec<_> = all.iter().map(|f| (f.code.as_str(), f.severity)).collect();
    assert_eq!(codes, [("field-required", Severity::Info), ("default-added", Severity::Info)]);
    let f = only(
        json!({"type": "object", "required": ["a"], "properties": {"a": {"type": "string"}}}),
        object(json!({"a": {"type": "string"}})),
    );
    assert_eq!(summary(&f), ("field-optional", Severity::Info, ".spec.a", Some("required: a"), None));
}

#[test]
fn defaults_changed_removed_and_added() {
    let with = |d: Option<Value>| {
        let mut a = json!({"type": "integer"});
        if let Some(d) = d {
            a["default"] = d;
        }
        object(json!({"a": a}))
    };
    let f = only(with(Some(json!(1))), with(Some(json!(2))));
    assert_eq!(summary(&f), ("default-changed", Severity::Warning, ".spec.a", Some("1"), Some("2")));
    let f = only(with(Some(json!(1))), with(None));
    assert_eq!(summary(&f), ("default-removed", Severity::Warning, ".spec.a", Some("1"), None));
    let f = only(with(None), with(Some(json!(1))));
    assert_eq!(summary(&f), ("default-added", Severity::Info, ".spec.a", None, Some("1")));
}

#[test]
fn nullable_and_extension_flags() {
    let f = only(object(json!({"a": {"type": "string", "nullable": true}})), object(json!({"a": {"type": "string"}})));
    assert_eq!(
        summary(&f),
        ("nullable-removed", Severity::Warning, ".spec.a", Some("nullable: true"), Some("nullable: false"))
    );
    let f = only(json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true}), json!({"type": "object"}));
    assert_eq!(f.code, Code::PreserveUnknownFieldsRemoved);
    assert_eq!((f.severity, f.path.as_str()), (Severity::Error, ".spec"));
    let embedded = |on: bool| {
        let mut a = json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true});
        if on {
            a["x-kubernetes-embedded-resource"] = json!(true);
        }
        object(json!({"a": a}))
    };
    let f = only(embedded(false), embedded(true));
    assert_eq!(summary(&f).0, "embedded-resource-changed");
    assert_eq!(f.severity, Severity::Warning);
    let f = only(object(json!({"a": {"x-kubernetes-int-or-string": true}})), object(json!({"a": {"type": "string"}})));
    assert_eq!(
        summary(&f),
        (
            "int-or-string-changed",
            Severity::Error,
            ".spec.a",
            Some("x-kubernetes-int-or-string: true"),
            Some("x-kubernetes-int-or-string: false")
        )
    );
}

#[test]
fn bounds_tightened_and_loosened() {
    // (`uniqueItems: true` is judged too, but the API server refuses it in
    // CRDs, which `update-refused` says.)
    let cases = [
        (
            json!({"type": "string", "maxLength": 10}),
            json!({"type": "string", "maxLength": 5}),
            "bound-tightened",
            "maxLength: 10",
            "maxLength: 5",
        ),
        (
            json!({"type": "string"}),
            json!({"type": "string", "maxLength": 5}),
            "bound-tightened",
            "none",
            "maxLength: 5",
        ),
        (
            json!({"type": "string", "maxLength": 5}),
            json!({"type": "string"}),
            "bound-loosened",
            "maxLength: 5",
            "none",
        ),
        (
            json!({"type": "array", "items": {"type": "string"}, "minItems": 1}),
            json!({"type": "array", "items": {"type": "string"}, "minItems": 2}),
            "bound-tightened",
            "minItems: 1",
            "minItems: 2",
        ),
        (
            json!({"type": "object", "maxProperties": 3}),
            json!({"type": "object", "maxProperties": 4}),
            "bound-loosened",
            "maxProperties: 3",
            "maxProperties: 4",
        ),
        (
            json!({"type": "integer", "maximum": 10}),
            json!({"type": "integer", "maximum": 10, "exclusiveMaximum": true}),
            "bound-tightened",
            "maximum: 10",
            "maximum: 10 (exclusive)",
        ),
        (
            json!({"type": "array", "items": {"type": "string"}, "maxItems": 3}),
            json!({"type": "array", "items": {"type": "string"}, "maxItems": 2}),
            "bound-tightened",
            "maxItems: 3",
            "maxItems: 2",
        ),
        (
            json!({"type": "object", "maxProperties": 3}),
            json!({"type": "object", "maxProperties": 1}),
            "bound-tightened",
            "maxProperties: 3",
            "maxProperties: 1",
        ),
        (
            json!({"type": "string", "minLength": 1}),
            json!({"type": "string", "minLength": 2}),
            "bound-tightened",
            "minLength: 1",
            "minLength: 2",
        ),
        (
            json!({"type": "object"}),
            json!({"type": "object", "minProperties": 1}),
            "bound-tightened",
            "none",
            "minProperties: 1",
        ),
        (
            json!({"type": "integer", "maximum": 5}),
            json!({"type": "integer", "maximum": 4}),
            "bound-tightened",
            "maximum: 5",
            "maximum: 4",
        ),
        (
            json!({"type": "integer", "minimum": 1}),
            json!({"type": "integer", "minimum": 0}),
            "bound-loosened",
            "minimum: 1",
            "minimum: 0",
        ),
        (
            json!({"type": "integer", "multipleOf": 4}),
            json!({"type": "integer", "multipleOf": 2}),
            "bound-loosened",
            "multipleOf: 4",
            "multipleOf: 2",
        ),
        (
            json!({"type": "integer", "multipleOf": 2}),
            json!({"type": "integer", "multipleOf": 3}),
            "bound-tightened",
            "multipleOf: 2",
            "multipleOf: 3",
        ),
    ];
    for (old, new, code, o, n) in cases {
        let f = only(object(json!({"a": old})), object(json!({"a": new})));
        assert_eq!(
            summary(&f),
            (
                code,
                if code == "bound-tightened" { Severity::Warning } else { Severity::Info },
                ".spec.a",
                Some(o),
                Some(n)
            )
        );
        if code == "bound-tightened" {
            assert!(f.reason.contains("ratcheting"), "{}", f.reason);
        }
    }
}

#[test]
fn enum_values_removed_and_added() {
    let e = |values: Value| object(json!({"a": {"type": "string", "enum": values}}));
    let f = only(e(json!(["x", "y"])), e(json!(["x"])));
    assert_eq!(summary(&f), ("enum-narrowed", Severity::Warning, ".spec.a", Some(r#"["x","y"]"#), Some(r#"["x"]"#)));
    assert!(f.reason.starts_with("\"y\" no longer valid"), "{}", f.reason);
    let f = only(e(json!(["x"])), e(json!(["x", "z"])));
    assert_eq!(summary(&f).0, "enum-widened");
    // Reordered: no change.
    assert_eq!(findings(&with_spec(e(json!(["x", "y"]))), &with_spec(e(json!(["y", "x"])))), []);
    let f = only(object(json!({"a": {"type": "string"}})), e(json!(["x"])));
    assert_eq!(summary(&f), ("enum-narrowed", Severity::Warning, ".spec.a", Some("none"), Some(r#"["x"]"#)));
}

#[test]
fn patterns_and_formats() {
    let s = |extra: Value| object(json!({"a": merged(json!({"type": "string"}), &extra)}));
    let f = only(s(json!({"pattern": "^a"})), s(json!({"pattern": "^b"})));
    assert_eq!(
        summary(&f),
        ("pattern-changed", Severity::Warning, ".spec.a", Some("pattern: ^a"), Some("pattern: ^b"))
    );
    let f = only(s(json!({"pattern": "^a"})), s(json!({})));
    assert_eq!((f.code, f.severity), (Code::PatternChanged, Severity::Info));
    let f = only(s(json!({})), s(json!({"format": "date-time"})));
    assert_eq!(summary(&f), ("format-changed", Severity::Warning, ".spec.a", Some("none"), Some("format: date-time")));
    // The API server ignores formats it does not know.
    let f = only(s(json!({})), s(json!({"format": "colour"})));
    assert_eq!((f.code, f.severity), (Code::FormatChanged, Severity::Info));
}

#[test]
fn list_and_map_types() {
    let list = |extra: Value| {
        let a = json!({"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}, "port": {"type": "integer"}}, "required": ["name", "port"]}});
        object(json!({"a": merged(a, &extra)}))
    };
    let strings =
        |extra: Value| object(json!({"a": merged(json!({"type": "array", "items": {"type": "string"}}), &extra)}));
    let f = only(strings(json!({})), strings(json!({"x-kubernetes-list-type": "set"})));
    assert_eq!(summary(&f), ("list-type-changed", Severity::Warning, ".spec.a", Some("atomic (unset)"), Some("set")));
    let map = |keys: Value| list(json!({"x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": keys}));
    let f = only(map(json!(["name"])), map(json!(["name", "port"])));
    assert_eq!(summary(&f), ("map-keys-changed", Severity::Warning, ".spec.a", Some("name"), Some("name, port")));
    let m = |t: Option<&str>| {
        let mut a = json!({"type": "object", "additionalProperties": {"type": "string"}});
        if let Some(t) = t {
            a["x-kubernetes-map-type"] = json!(t);
        }
        object(json!({"a": a}))
    };
    let f = only(m(None), m(Some("atomic")));
    assert_eq!(summary(&f), ("map-type-changed", Severity::Warning, ".spec.a", Some("atomic (unset)"), Some("atomic")));
}

#[test]
fn paths_of_items_and_map_values() {
    let f = only(
        object(json!({"l": {"type": "array", "items": {"type": "object", "properties": {"n": {"type": "string"}}}}})),
        object(json!({"l": {"type": "array", "items": {"type": "object", "properties": {"n": {"type": "integer"}}}}})),
    );
    assert_eq!((f.code, f.path.as_str()), (Code::TypeChanged, ".spec.l[*].n"));
    let f = only(
        object(json!({"m": {"type": "object", "additionalProperties": {"type": "string"}}})),
        object(json!({"m": {"type": "object", "additionalProperties": {"type": "string", "maxLength": 1}}})),
    );
    assert_eq!((f.code, f.path.as_str()), (Code::BoundTightened, ".spec.m.*"));
    let f = only(
        object(json!({"m": {"type": "object", "additionalProperties": {"type": "string"}}})),
        object(json!({"m": {"type": "object"}})),
    );
    assert_eq!((f.code, f.severity, f.path.as_str()), (Code::FieldRemoved, Severity::Error, ".spec.m.*"));
}

#[test]
fn cel_rules_added_removed_and_changed() {
    let ruled = |rules: Value| json!({"type": "object", "properties": {"a": {"type": "string"}}, "x-kubernetes-validations": rules});
    let f = only(ruled(json!([])), ruled(json!([{"rule": "self.a.size() < 5"}])));
    assert_eq!(summary(&f), ("rule-added", Severity::Warning, ".spec", None, Some("self.a.size() < 5")));
    #[cfg(feature = "cel")]
    assert!(f.reason.starts_with("a new rule (estimated cost "), "{}", f.reason);
    let f = only(ruled(json!([{"rule": "self.a.size() < 5"}])), ruled(json!([])));
    assert_eq!(summary(&f), ("rule-removed", Severity::Info, ".spec", Some("self.a.size() < 5"), None));
    let f = only(
        ruled(json!([{"rule": "self.a.size() < 5"}])),
        ruled(json!([{"rule": "self.a.size() < 5", "message": "short"}])),
    );
    assert_eq!((f.code, f.severity), (Code::RuleChanged, Severity::Info));
    // A rule that compiles with `oldSelf` optional or not.
    let transition = |optional: bool| ruled(json!([{"rule": "oldSelf == oldSelf", "optionalOldSelf": optional}]));
    let f = only(transition(false), transition(true));
    assert_eq!(
        summary(&f),
        ("rule-changed", Severity::Warning, ".spec", Some("optionalOldSelf: false"), Some("optionalOldSelf: true"))
    );
}

#[test]
fn junctors_changed_or_removed() {
    let any = |extra: Value| json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "anyOf": extra});
    let f = only(any(json!([{"required": ["a"]}])), any(json!([{"required": ["a"]}, {"required": ["b"]}])));
    assert_eq!((f.code, f.severity), (Code::JunctorsChanged, Severity::Warning));
    let f = only(any(json!([{"required": ["a"]}])), object(json!({"a": {"type": "string"}, "b": {"type": "string"}})));
    assert_eq!((f.code, f.severity), (Code::JunctorsChanged, Severity::Info));
}

fn versions(list: Value) -> String {
    manifest(json!({"versions": list}))
}

#[test]
fn versions_removed_unserved_added_and_storage_moved() {
    let s = json!({"type": "object"});
    let two = versions(json!([version("v1", true, true, &s), version("v2", true, false, &s)]));
    let all = findings(&two, &versions(json!([version("v1", true, true, &s)])));
    let got: Vec<_> = all.iter().map(summary).collect();
    assert_eq!(got, [("version-removed", Severity::Error, "spec.versions", Some("v2"), None)]);
    assert_eq!(all[0].version.as_deref(), Some("v2"));
    let unserved = versions(json!([version("v1", true, true, &s), version("v2", false, false, &s)]));
    let all = findings(&two, &unserved);
    assert_eq!(
        all.iter().map(summary).collect::<Vec<_>>(),
        [("version-unserved", Severity::Warning, "spec.versions", Some("served: true"), Some("served: false"))]
    );
    // With objects stored in it, an error.
    let stored = |text: &str| {
        let mut value: Value = serde_json::from_str(text).unwrap();
        value["status"] = json!({"storedVersions": ["v1", "v2"]});
        serde_json::to_string_pretty(&value).unwrap()
    };
    let all = findings(&stored(&two), &unserved);
    assert_eq!((all[0].code, all[0].severity), (Code::VersionUnserved, Severity::Error));
    let all = findings(&unserved, &two);
    assert_eq!((all[0].code, all[0].severity), (Code::VersionAdded, Severity::Info));
    let moved = versions(json!([version("v1", true, false, &s), version("v2", true, true, &s)]));
    let all = findings(&two, &moved);
    assert_eq!(
        all.iter().map(summary).collect::<Vec<_>>(),
        [("storage-version-changed", Severity::Warning, "spec.versions[*].storage", Some("v1"), Some("v2"))]
    );
    let all = findings(&versions(json!([version("v1", true, true, &s)])), &two);
    assert_eq!(
        all.iter().map(summary).collect::<Vec<_>>(),
        [("version-added", Severity::Info, "spec.versions", None, None)]
    );
}

#[test]
fn crd_level_changes() {
    let s = json!({"type": "object"});
    let base = || json!({"versions": [version("v1", true, true, &s)]});
    let with = |extra: Value| manifest(merged(base(), &extra));
    let codes = |new: Value| {
        findings(&manifest(base()), &with(new))
            .iter()
            .map(|f| (f.code.as_str(), f.severity, f.path.clone()))
            .collect::<Vec<_>>()
    };
    // The API server refuses it (the stored CRD is established), and why.
    assert_eq!(
        codes(json!({"scope": "Cluster"})),
        [
            ("update-refused", Severity::Error, "spec.scope".to_owned()),
            ("scope-changed", Severity::Error, "spec.scope".to_owned())
        ]
    );
    let renamed = json!({"names": {"plural": "widgets", "singular": "widget", "kind": "Gadget", "listKind": "WidgetList", "shortNames": ["wd"]}});
    assert_eq!(
        codes(renamed),
        [
            ("update-refused", Severity::Error, "spec.names.kind".to_owned()),
            ("names-changed", Severity::Error, "spec.names.kind".to_owned()),
            ("names-changed", Severity::Info, "spec.names.shortNames".to_owned())
        ]
    );
    let webhook = json!({"conversion": {"strategy": "Webhook", "webhook": {"conversionReviewVersions": ["v1"], "clientConfig": {"url": "https://example.com/convert"}}}});
    assert_eq!(codes(webhook), [("conversion-changed", Severity::Warning, "spec.conversion".to_owned())]);
    let sub = |status: bool| {
        let mut v = version("v1", true, true, &s);
        if status {
            v["subresources"] = json!({"status": {}});
        }
        v["additionalPrinterColumns"] =
            json!([{"name": if status { "Ready" } else { "Age" }, "type": "string", "jsonPath": ".status.ready"}]);
        versions(json!([v]))
    };
    let all = findings(&sub(false), &sub(true));
    let got: Vec<_> = all.iter().map(summary).collect();
    assert_eq!(
        got,
        [
            ("subresources-changed", Severity::Warning, "subresources", Some("status: false"), Some("status: true")),
            ("printer-columns-changed", Severity::Info, "additionalPrinterColumns", Some("Age"), Some("Ready")),
        ]
    );
}

#[test]
fn a_new_schema_that_is_not_structural_is_an_error() {
    let new = with_spec(json!({"type": "object", "properties": {"a": {"type": "string", "$ref": "#/x"}}}));
    let all = findings(&with_spec(object(json!({}))), &new);
    let got: Vec<_> = all.iter().map(|f| (f.code, f.severity, f.path.as_str())).collect();
    assert_eq!(
        got,
        [
            (
                Code::UpdateRefused,
                Severity::Error,
                "spec.validation.openAPIV3Schema.properties[spec].properties[a].$ref"
            ),
            (Code::SchemaNotStructural, Severity::Error, "."),
        ]
    );
    assert_eq!(
        all[0].reason,
        "the API server refuses the update: \
         spec.validation.openAPIV3Schema.properties[spec].properties[a].$ref: Forbidden: $ref is not supported"
    );
    // Located in the new revision's version, where a v1 manifest writes it.
    assert!(all[0].new_at.is_some_and(|at| at.line > 20), "{:?}", all[0].new_at);
}

#[test]
fn a_removed_stored_version_is_refused_by_the_api_server() {
    let s = json!({"type": "object"});
    let two = versions(json!([version("v1", true, false, &s), version("v2", true, true, &s)]));
    let only_v1 = versions(json!([version("v1", true, true, &s)]));
    let all = findings(&two, &only_v1);
    let got: Vec<_> = all.iter().map(|f| (f.code, f.path.as_str())).collect();
    assert_eq!(
        got,
        [
            (Code::UpdateRefused, "status.storedVersions[0]"),
            (Code::VersionRemoved, "spec.versions"),
            (Code::StorageVersionChanged, "spec.versions[*].storage"),
        ]
    );
    assert!(
        all[0].reason.contains("\"v2\": missing from spec.versions; v2 was previously a storage version"),
        "{}",
        all[0].reason
    );
}

#[test]
fn positions_are_those_of_the_keywords() {
    let text = |max: u32| {
        format!(
            "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {{name: widgets.example.com}}\n\
             spec:\n  group: example.com\n  scope: Namespaced\n  names: {{plural: widgets, kind: Widget}}\n  versions:\n  \
             - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        \
             properties:\n          spec:\n            type: string\n            maxLength: {max}\n"
        )
    };
    let all = findings(&text(5), &text(3));
    assert_eq!(all.len(), 1);
    assert_eq!(all[0].old_at, Some(Position { line: 18, column: 24 }));
    assert_eq!(all[0].new_at, Some(Position { line: 18, column: 24 }));
}

fn objects_findings(old: &str, new: &str, objects: &str) -> Vec<Finding> {
    let (old, new) = (load(old), load(new));
    let docs = crate::yaml::parse_documents("objects.yaml", objects).unwrap();
    let stored: Vec<StoredObject<'_>> =
        docs.iter().map(|d| StoredObject { file: "objects.yaml", document: d }).collect();
    diff_objects(Revision::of(&old.crds[0]), Revision::of(&new.crds[0]), &stored)
}

#[test]
fn stored_objects_through_the_new_revision() {
    let old = with_spec(object(json!({"a": {"type": "string"}, "b": {"type": "string"}})));
    let objects = "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: ns}\nspec:\n  a: abcdef\n  b: kept\n\
                   ---\napiVersion: other.com/v1\nkind: Widget\nmetadata: {name: x}\n";
    // A removed field: the object's stored value is dropped.
    let pruned = with_spec(object(json!({"a": {"type": "string"}})));
    let all = objects_findings(&old, &pruned, objects);
    assert_eq!(all.len(), 1, "{all:#?}");
    assert_eq!(
        (all[0].code, all[0].severity, all[0].path.as_str()),
        (Code::ObjectFieldsPruned, Severity::Error, "spec.b")
    );
    let at = all[0].object.as_ref().unwrap();
    assert_eq!(
        (at.file.as_str(), at.at, at.name.as_str()),
        ("objects.yaml", Position { line: 6, column: 6 }, "Widget ns/w")
    );
    // A tightened bound: ratcheting lets the unchanged object update, a
    // fresh create is refused.
    let tightened = with_spec(object(json!({"a": {"type": "string", "maxLength": 3}})));
    let all = objects_findings(&old, &tightened, objects);
    let got: Vec<_> = all.iter().map(|f| (f.code, f.severity, f.path.as_str())).collect();
    assert_eq!(
        got,
        [
            (Code::ObjectFieldsPruned, Severity::Error, "spec.b"),
            (Code::ObjectRejectedOnCreate, Severity::Warning, "spec.a")
        ]
    );
    assert!(all[1].reason.contains("Too long"), "{}", all[1].reason);
    assert_eq!(all[1].object.as_ref().unwrap().at, Position { line: 5, column: 6 });
    // The same objects as `kubectl get -o yaml` writes them: a List.
    let list = "apiVersion: v1\nkind: List\nitems:\n- apiVersion: example.com/v1\n  kind: Widget\n  \
                metadata: {name: w, namespace: ns}\n  spec:\n    a: abcdef\n    b: kept\n";
    let all = objects_findings(&old, &pruned, list);
    assert_eq!(
        all.iter().map(|f| (f.code, f.path.as_str())).collect::<Vec<_>>(),
        [(Code::ObjectFieldsPruned, "spec.b")]
    );
    let at = all[0].object.as_ref().unwrap();
    assert_eq!((at.at, at.name.as_str()), (Position { line: 9, column: 8 }, "Widget ns/w"));
    // The CRD's own list kind, as the API server returns it: items without
    // `apiVersion` and `kind` are of the list's.
    let served = "apiVersion: example.com/v1\nkind: WidgetList\nitems:\n- metadata: {name: w, namespace: ns}\n  \
                  spec:\n    a: abcdef\n    b: kept\n";
    let all = objects_findings(&old, &pruned, served);
    assert_eq!(
        all.iter().map(|f| (f.code, f.path.as_str())).collect::<Vec<_>>(),
        [(Code::ObjectFieldsPruned, "spec.b")]
    );
    let at = all[0].object.as_ref().unwrap();
    assert_eq!((at.at, at.name.as_str()), (Position { line: 7, column: 8 }, "Widget ns/w"));
    // Duplicates in a list that became a set: an update ratchets the
    // lists as a whole (the stored object already has duplicates), a
    // fresh create is refused.
    let listed = |set: bool| {
        let mut tags = json!({"type": "array", "items": {"type": "string"}});
        if set {
            tags["x-kubernetes-list-type"] = json!("set");
        }
        with_spec(object(json!({"tags": tags})))
    };
    let tagged =
        "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: ns}\nspec:\n  tags: [a, a]\n";
    let all = objects_findings(&listed(false), &listed(true), tagged);
    let got: Vec<_> = all.iter().map(|f| (f.code, f.severity, f.path.as_str())).collect();
    assert_eq!(got, [(Code::ObjectRejectedOnCreate, Severity::Warning, "spec.tags[1]")]);
    assert_eq!(all[0].object.as_ref().unwrap().at, Position { line: 5, column: 13 });
    // A field that became an embedded resource: its values must be whole
    // objects, checked on every update (embedded objects are not ratcheted).
    let embedded = |on: bool| {
        let mut t = json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true});
        if on {
            t["x-kubernetes-embedded-resource"] = json!(true);
        }
        with_spec(object(json!({"template": t})))
    };
    let templated =
        "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: ns}\nspec:\n  template: {size: 1}\n";
    let all = objects_findings(&embedded(false), &embedded(true), templated);
    let got: Vec<_> = all.iter().map(|f| (f.code, f.severity, f.path.as_str())).collect();
    assert_eq!(
        got,
        [
            (Code::ObjectRejectedOnUpdate, Severity::Error, "spec.template.apiVersion"),
            (Code::ObjectRejectedOnUpdate, Severity::Error, "spec.template.kind"),
        ],
        "{all:#?}"
    );
    assert!(all[0].reason.starts_with("refused on an update that changes nothing: "), "{}", all[0].reason);
    // A version the new revision does not serve.
    let s = json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true});
    let v2 = versions(json!([version("v2", true, true, &s)]));
    let all = objects_findings(&old, &v2, objects);
    assert_eq!(all.iter().map(|f| f.code).collect::<Vec<_>>(), [Code::ObjectVersionNotServed]);
    assert!(all[0].reason.contains("has no version \"v1\""), "{}", all[0].reason);
    // Listed but no longer served, with an object stored in it.
    let unserved = versions(json!([version("v1", false, false, &s), version("v2", true, true, &s)]));
    let all = objects_findings(&old, &unserved, objects);
    assert_eq!(
        all.iter().map(|f| (f.code, f.severity)).collect::<Vec<_>>(),
        [(Code::ObjectVersionNotServed, Severity::Error)]
    );
    assert!(all[0].reason.contains("does not serve version \"v1\""), "{}", all[0].reason);
}

#[test]
fn every_code_has_a_distinct_name() {
    for (i, a) in Code::ALL.iter().enumerate() {
        assert_eq!(Code::parse(a.as_str()), Some(*a));
        assert!(Code::ALL[i + 1..].iter().all(|b| b.as_str() != a.as_str()), "{a}");
    }
    assert_eq!(Code::parse("no-such-code"), None);
}
