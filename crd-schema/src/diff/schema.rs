//! One version's schema in two revisions, walked in parallel: what each
//! change does to the values objects hold.
//!
//! The walk compares the structural forms (after the API server drops
//! the unknown fields of defaults), node by node through `properties`,
//! `items` and `additionalProperties`. A change of `type` is reported once
//! and not walked below. Every keyword that only validates is judged as
//! admitting fewer values (a warning: creates with the refused values
//! fail, and updates that change them; ratcheting lets unchanged values of
//! stored objects through) or more (info); where the walk cannot tell
//! (`allOf`, `anyOf`, `oneOf`, `not`, a changed `pattern`) it warns.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::{Change, Code, Findings, Place, Severity, show};
use crate::structural::{Structural, StructuralOrBool};
use crate::value_validation::{CompatibilityVersion, is_recognized_format};
use crate::wire::ValidationRule;
use crate::yaml::Step;

/// What a tightened validation means for objects, appended to the reason.
const RATCHETING: &str = "objects with such values are refused on create, and on update where the value changes \
                          (ratcheting lets unchanged values of stored objects through)";

/// Compares the schemas of one version, `place` being their roots.
pub(super) fn compare(out: &mut Findings<'_>, place: &Place<'_>, old: &Structural, new: &Structural) {
    let mut walk = Walk { out, version: place.version };
    let root = At {
        path: ".".to_owned(),
        old: place.old.to_vec(),
        new: place.new.to_vec(),
        resource_root: true,
        unchecked_defaults: false,
    };
    walk.node(&root, old, new);
}

struct Walk<'w, 'a> {
    out: &'w mut Findings<'a>,
    version: Option<&'w str>,
}

/// A node's schema path and its document steps in each revision.
#[derive(Clone)]
struct At {
    path: String,
    old: Vec<Step>,
    new: Vec<Step>,
    /// The root of a resource (the schema itself or an embedded resource),
    /// whose rules see `apiVersion`, `kind` and `metadata`.
    resource_root: bool,
    /// Below `additionalProperties`, whose defaults the API server does
    /// not check against the schema.
    unchecked_defaults: bool,
}

impl At {
    /// The node reached by `steps` (`["properties", name]`, `["items"]`)
    /// with `path` appended to the schema path; `schema` is its new schema.
    fn child(&self, path: &str, steps: &[&str], schema: Option<&Structural>) -> At {
        let join = |base: &[Step]| base.iter().cloned().chain(steps.iter().map(|s| Step::key(s))).collect();
        let path = match (self.path.as_str(), path.strip_prefix('.')) {
            (".", Some(_)) => path.to_owned(),
            _ => format!("{}{path}", self.path),
        };
        At {
            path,
            old: join(&self.old),
            new: join(&self.new),
            resource_root: schema.is_some_and(|s| s.extensions.x_embedded_resource),
            unchecked_defaults: self.unchecked_defaults || steps == ["additionalProperties"],
        }
    }
}

impl Walk<'_, '_> {
    fn push(&mut self, at: &At, keyword: &str, change: Change) {
        let place = Place { version: self.version, path: &at.path, old: &at.old, new: &at.new };
        self.out.push(&place, keyword, change);
    }

    fn node(&mut self, at: &At, old: &Structural, new: &Structural) {
        if !self.shape(at, old, new) {
            return;
        }
        self.nullable_and_default(at, old, new);
        self.bounds(at, old, new);
        self.enums(at, old, new);
        self.text(at, old, new);
        self.required(at, old, new);
        self.junctors(at, old, new);
        self.rules(at, old, new);
        self.children(at, old, new);
    }

    // The keywords that decide what a value is and what pruning keeps.
    // Returns whether the subtrees are comparable (the type is the same).
    fn shape(&mut self, at: &At, old: &Structural, new: &Structural) -> bool {
        let (o, n) = (&old.extensions, &new.extensions);
        if o.x_int_or_string != n.x_int_or_string {
            let (severity, reason) = if o.x_int_or_string {
                (
                    Severity::Error,
                    "integers and strings were both accepted: stored values of the other type now fail validation",
                )
            } else {
                (Severity::Info, "integers and strings are both accepted now")
            };
            let values = flag_values("x-kubernetes-int-or-string", o.x_int_or_string, n.x_int_or_string);
            self.push(
                at,
                "x-kubernetes-int-or-string",
                Change::new(Code::IntOrStringChanged, severity, reason).values(values.0, values.1),
            );
            if o.x_int_or_string {
                return false;
            }
        } else if old.generic.type_ != new.generic.type_ {
            let widened = old.generic.type_ == "integer" && new.generic.type_ == "number";
            let (severity, reason) = if widened {
                (Severity::Info, "every integer is a number")
            } else {
                (
                    Severity::Error,
                    "stored values of the old type fail validation on every write, and typed clients cannot decode them",
                )
            };
            let change =
                Change::new(Code::TypeChanged, severity, reason).values(Some(type_of(old)), Some(type_of(new)));
            self.push(at, "type", change);
            if !widened {
                return false;
            }
        }
        if o.x_preserve_unknown_fields != n.x_preserve_unknown_fields {
            let keyword = "x-kubernetes-preserve-unknown-fields";
            let values = flag_values(keyword, o.x_preserve_unknown_fields, n.x_preserve_unknown_fields);
            let change = if o.x_preserve_unknown_fields {
                let reason = "stored fields the schema does not declare are dropped on the next write (data loss)";
                Change::new(Code::PreserveUnknownFieldsRemoved, Severity::Error, reason)
            } else {
                Change::new(
                    Code::PreserveUnknownFieldsAdded,
                    Severity::Info,
                    "fields the schema does not declare are kept from now on",
                )
            };
            self.push(at, keyword, change.values(values.0, values.1));
        }
        if o.x_embedded_resource != n.x_embedded_resource {
            let (severity, reason) = match (o.x_embedded_resource, n.x_preserve_unknown_fields) {
                (true, false) => (
                    Severity::Error,
                    "apiVersion, kind and metadata stored in these values are dropped on the next write",
                ),
                (true, true) => {
                    (Severity::Warning, "apiVersion, kind and metadata of these values are no longer checked")
                }
                _ => {
                    (Severity::Warning, "values must now be whole objects with apiVersion and kind, and valid metadata")
                }
            };
            let keyword = "x-kubernetes-embedded-resource";
            let values = flag_values(keyword, o.x_embedded_resource, n.x_embedded_resource);
            self.push(
                at,
                keyword,
                Change::new(Code::EmbeddedResourceChanged, severity, reason).values(values.0, values.1),
            );
        }
        self.list_and_map_types(at, old, new);
        true
    }

    // List and map types decide how server-side apply merges the values of
    // different managers, and `set`/`map` lists refuse duplicates.
    fn list_and_map_types(&mut self, at: &At, old: &Structural, new: &Structural) {
        let (o, n) = (&old.extensions, &new.extensions);
        let show = |v: Option<&String>| Some(v.map_or("atomic (unset)".to_owned(), String::clone));
        if o.x_list_type != n.x_list_type {
            let reason = match n.x_list_type.as_deref() {
                Some("set" | "map") => {
                    "server-side apply merges the list differently, and lists with duplicate items are refused"
                }
                _ => "server-side apply merges the list differently: one manager owns it whole",
            };
            let change = Change::new(Code::ListTypeChanged, Severity::Warning, reason)
                .values(show(o.x_list_type.as_ref()), show(n.x_list_type.as_ref()));
            self.push(at, "x-kubernetes-list-type", change);
        } else if o.x_list_map_keys != n.x_list_map_keys {
            let keys = |k: &Option<Vec<String>>| Some(k.as_deref().unwrap_or_default().join(", "));
            let reason = "items are identified by other keys: lists with duplicate keys are refused, and server-side apply merges them differently";
            let change = Change::new(Code::MapKeysChanged, Severity::Warning, reason)
                .values(keys(&o.x_list_map_keys), keys(&n.x_list_map_keys));
            self.push(at, "x-kubernetes-list-map-keys", change);
        }
        if o.x_map_type != n.x_map_type {
            let reason = "server-side apply merges the map differently";
            let change = Change::new(Code::MapTypeChanged, Severity::Warning, reason)
                .values(show(o.x_map_type.as_ref()), show(n.x_map_type.as_ref()));
            self.push(at, "x-kubernetes-map-type", change);
        }
    }

    // Null values of a field that is not nullable are dropped when objects
    // are decoded (replaced by the default where there is one); defaults
    // are applied when objects are read and persisted when written.
    fn nullable_and_default(&mut self, at: &At, old: &Structural, new: &Structural) {
        let (o, n) = (&old.generic, &new.generic);
        if o.nullable != n.nullable {
            let values = flag_values("nullable", o.nullable, n.nullable);
            let change = if o.nullable {
                let reason =
                    "stored null values are dropped (or replaced by the default) when objects are read or written";
                Change::new(Code::NullableRemoved, Severity::Warning, reason)
            } else if !new.value_validation.enum_.is_empty() {
                // The API server's enum check never matches null.
                let reason = "null values, dropped before, are kept from now on and fail the enum";
                Change::new(Code::NullableAdded, Severity::Warning, reason)
            } else {
                Change::new(Code::NullableAdded, Severity::Info, "null is kept as a value from now on")
            };
            self.push(at, "nullable", change.values(values.0, values.1));
        }
        let change = match (&o.default, &n.default) {
            (Some(a), Some(b)) if a != b => Change::new(
                Code::DefaultChanged,
                Severity::Warning,
                "objects that never set it keep the old value where it was persisted and get the new one where it was not",
            ),
            (Some(_), None) => Change::new(
                Code::DefaultRemoved,
                Severity::Warning,
                "objects that never set it no longer get a value: clients that relied on the default see the field missing",
            ),
            // The API server checks every default against its schema but
            // those below `additionalProperties`.
            (None, Some(_)) if at.unchecked_defaults => Change::new(
                Code::DefaultAdded,
                Severity::Warning,
                "null map values get the default, which the API server does not check against the schema: it may fail validation",
            ),
            (None, Some(_)) => {
                Change::new(Code::DefaultAdded, Severity::Info, "objects without the field get the default when read")
            }
            _ => return,
        };
        let change = change.values(o.default.as_ref().map(show), n.default.as_ref().map(show));
        self.push(at, "default", change);
    }

    // Bounds: a maximum that went down (or appeared), a minimum that went
    // up, a `multipleOf` that is not a divisor of the old one, `uniqueItems`
    // turned on.
    fn bounds(&mut self, at: &At, old: &Structural, new: &Structural) {
        let (o, n) = (&old.value_validation, &new.value_validation);
        // A count as a bound; a minimum of 0 is no bound.
        let count = |v: Option<i64>| v.map(|v| (v as f64, false));
        let at_least = |v: Option<i64>| v.filter(|v| *v > 0).map(|v| (v as f64, false));
        let exclusive = |v: Option<f64>, e: bool| v.map(|v| (v, e));
        for (keyword, a, b, limit) in [
            ("maxLength", count(o.max_length), count(n.max_length), Limit::Upper),
            ("maxItems", count(o.max_items), count(n.max_items), Limit::Upper),
            ("maxProperties", count(o.max_properties), count(n.max_properties), Limit::Upper),
            ("minLength", at_least(o.min_length), at_least(n.min_length), Limit::Lower),
            ("minItems", at_least(o.min_items), at_least(n.min_items), Limit::Lower),
            ("minProperties", at_least(o.min_properties), at_least(n.min_properties), Limit::Lower),
            (
                "maximum",
                exclusive(o.maximum, o.exclusive_maximum),
                exclusive(n.maximum, n.exclusive_maximum),
                Limit::Upper,
            ),
            (
                "minimum",
                exclusive(o.minimum, o.exclusive_minimum),
                exclusive(n.minimum, n.exclusive_minimum),
                Limit::Lower,
            ),
        ] {
            self.number_bound(at, keyword, a, b, limit);
        }
        if o.multiple_of != n.multiple_of {
            // Every multiple of a is a multiple of b when a is.
            let tightened = match (o.multiple_of, n.multiple_of) {
                (Some(a), Some(b)) => (a / b).fract() != 0.0,
                (None, Some(_)) => true,
                _ => false,
            };
            let show = |v: Option<f64>| Some(v.map_or("none".to_owned(), |v| format!("multipleOf: {v}")));
            self.tightened_or_loosened(at, "multipleOf", tightened, (show(o.multiple_of), show(n.multiple_of)));
        }
        if o.unique_items != n.unique_items {
            let values = flag_values("uniqueItems", o.unique_items, n.unique_items);
            self.tightened_or_loosened(at, "uniqueItems", n.unique_items, values);
        }
    }

    // A bound with its exclusiveness; absent is no bound.
    fn number_bound(
        &mut self,
        at: &At,
        keyword: &str,
        old: Option<(f64, bool)>,
        new: Option<(f64, bool)>,
        limit: Limit,
    ) {
        if old == new {
            return;
        }
        let tightened = match (old, new) {
            (_, None) => false,
            (None, Some(_)) => true,
            (Some((a, a_excl)), Some((b, b_excl))) => match limit {
                Limit::Upper => b < a || (b == a && b_excl && !a_excl),
                Limit::Lower => b > a || (b == a && b_excl && !a_excl),
            },
        };
        let show = |v: Option<(f64, bool)>| {
            Some(match v {
                None => "none".to_owned(),
                Some((v, false)) => format!("{keyword}: {v}"),
                Some((v, true)) => format!("{keyword}: {v} (exclusive)"),
            })
        };
        self.tightened_or_loosened(at, keyword, tightened, (show(old), show(new)));
    }

    fn tightened_or_loosened(
        &mut self,
        at: &At,
        keyword: &str,
        tightened: bool,
        values: (Option<String>, Option<String>),
    ) {
        let change = if tightened {
            Change::new(Code::BoundTightened, Severity::Warning, format!("fewer values are valid: {RATCHETING}"))
        } else {
            Change::new(Code::BoundLoosened, Severity::Info, "more values are valid")
        };
        self.push(at, keyword, change.values(values.0, values.1));
    }

    // `enum`: values that are no longer listed are refused.
    fn enums(&mut self, at: &At, old: &Structural, new: &Structural) {
        let (o, n) = (&old.value_validation.enum_, &new.value_validation.enum_);
        if o == n {
            return;
        }
        // Compared by their JSON text: a hostile schema's enum may hold
        // many thousand values.
        let (old_texts, new_texts): (HashSet<String>, HashSet<String>) =
            (o.iter().map(show).collect(), n.iter().map(show).collect());
        let gone: Vec<&Value> = o.iter().filter(|v| !new_texts.contains(&show(v))).collect();
        if gone.is_empty() && new_texts.is_subset(&old_texts) {
            // Only the order (or repeats) changed.
            return;
        }
        let change = if n.is_empty() {
            Change::new(Code::EnumWidened, Severity::Info, "any value of the type is valid now")
        } else if o.is_empty() {
            Change::new(
                Code::EnumNarrowed,
                Severity::Warning,
                format!("only the listed values are valid now: {RATCHETING}"),
            )
        } else if gone.is_empty() {
            Change::new(Code::EnumWidened, Severity::Info, "values were added: every old value is still valid")
        } else {
            let gone = gone.iter().map(|v| show(v)).collect::<Vec<_>>().join(", ");
            Change::new(Code::EnumNarrowed, Severity::Warning, format!("{gone} no longer valid: {RATCHETING}"))
        };
        let list = |values: &[Value]| {
            Some(if values.is_empty() { "none".to_owned() } else { show(&Value::Array(values.to_vec())) })
        };
        self.push(at, "enum", change.values(list(o), list(n)));
    }

    // `pattern` and `format`: any change but a removal may refuse values
    // that were valid. The API server ignores formats it does not know.
    fn text(&mut self, at: &At, old: &Structural, new: &Structural) {
        let (o, n) = (&old.value_validation, &new.value_validation);
        let value =
            |keyword: &str, v: &str| Some(if v.is_empty() { "none".to_owned() } else { format!("{keyword}: {v}") });
        if o.pattern != n.pattern {
            let change = if n.pattern.is_empty() {
                Change::new(Code::PatternChanged, Severity::Info, "any string is valid now")
            } else {
                Change::new(
                    Code::PatternChanged,
                    Severity::Warning,
                    format!("strings that do not match are refused: {RATCHETING}"),
                )
            };
            self.push(at, "pattern", change.values(value("pattern", &o.pattern), value("pattern", &n.pattern)));
        }
        if o.format != n.format {
            let types = [new.generic.type_.clone()];
            let checked = !n.format.is_empty() && is_recognized_format(&types, &n.format, CompatibilityVersion::LATEST);
            let change = if checked {
                Change::new(
                    Code::FormatChanged,
                    Severity::Warning,
                    format!("values not in the new format are refused: {RATCHETING}"),
                )
            } else {
                Change::new(Code::FormatChanged, Severity::Info, "the API server does not check the new format")
            };
            self.push(at, "format", change.values(value("format", &o.format), value("format", &n.format)));
        }
    }

    // A field that became required breaks every create without it, unless
    // a default fills it in first (defaulting runs before validation).
    fn required(&mut self, at: &At, old: &Structural, new: &Structural) {
        let (o, n) = (
            old.value_validation.required.as_deref().unwrap_or_default(),
            new.value_validation.required.as_deref().unwrap_or_default(),
        );
        let (old_names, new_names): (HashSet<&String>, HashSet<&String>) = (o.iter().collect(), n.iter().collect());
        for name in n.iter().filter(|name| !old_names.contains(name)) {
            let defaulted = new.property(name).is_some_and(|p| p.generic.default.is_some());
            let change = if defaulted {
                Change::new(
                    Code::FieldRequired,
                    Severity::Info,
                    "objects without it get its default before they are validated",
                )
            } else {
                Change::new(
                    Code::FieldRequired,
                    Severity::Error,
                    "every create without it is refused, and stored objects without it fail updates that touch this object",
                )
            };
            let child = at.child(&format!(".{name}"), &[], None);
            self.push(&child, "required", change.values(None, Some(format!("required: {name}"))));
        }
        for name in o.iter().filter(|name| !new_names.contains(name)) {
            let child = at.child(&format!(".{name}"), &[], None);
            let change = Change::new(Code::FieldOptional, Severity::Info, "objects may leave it out now");
            self.push(&child, "required", change.values(Some(format!("required: {name}")), None));
        }
    }

    // Junctors validate in ways a keyword-by-keyword comparison cannot
    // judge: removing them admits more, anything else needs a look.
    fn junctors(&mut self, at: &At, old: &Structural, new: &Structural) {
        let (o, n) = (&old.value_validation, &new.value_validation);
        for (keyword, changed, removed) in [
            ("allOf", o.all_of != n.all_of, n.all_of.is_empty()),
            ("anyOf", o.any_of != n.any_of, n.any_of.is_empty()),
            ("oneOf", o.one_of != n.one_of, n.one_of.is_empty()),
            ("not", o.not != n.not, n.not.is_none()),
        ] {
            if !changed {
                continue;
            }
            let change = if removed {
                Change::new(Code::JunctorsChanged, Severity::Info, "removed: fewer checks")
            } else {
                Change::new(
                    Code::JunctorsChanged,
                    Severity::Warning,
                    format!("changed: values valid before may fail; {RATCHETING}"),
                )
            };
            self.push(at, keyword, change);
        }
    }

    // CEL rules, matched by their text: a new rule may refuse stored
    // values (a transition rule, with `oldSelf`, only on updates).
    fn rules(&mut self, at: &At, old: &Structural, new: &Structural) {
        let o = old.validation_extensions.x_validations.as_deref().unwrap_or_default();
        let n = new.validation_extensions.x_validations.as_deref().unwrap_or_default();
        if o == n {
            return;
        }
        let costs = rule_costs(new, at.resource_root);
        // The first rule of each text, by its text.
        fn index(rules: &[ValidationRule]) -> HashMap<&str, usize> {
            rules.iter().enumerate().rev().map(|(i, r)| (r.rule.as_str(), i)).collect()
        }
        let (old_index, new_index) = (index(o), index(n));
        for (j, rule) in n.iter().enumerate() {
            let place = At { new: indexed(&at.new, "x-kubernetes-validations", j), ..at.clone() };
            match old_index.get(rule.rule.as_str()).copied() {
                None => {
                    let place = At { old: Vec::new(), ..place };
                    let cost = costs.get(j).map_or(String::new(), |c| format!(" (estimated cost {c})"));
                    let when =
                        if rule.rule.contains("oldSelf") { "updates that break it are refused" } else { RATCHETING };
                    let reason = format!("a new rule{cost}: {when}");
                    let change =
                        Change::new(Code::RuleAdded, Severity::Warning, reason).values(None, Some(rule.rule.clone()));
                    self.push(&place, "rule", change);
                }
                Some(i) => {
                    let place = At { old: indexed(&at.old, "x-kubernetes-validations", i), ..place };
                    self.rule_changed(&place, &o[i], rule);
                }
            }
        }
        for (i, rule) in o.iter().enumerate().filter(|(_, r)| !new_index.contains_key(r.rule.as_str())) {
            let place = At { old: indexed(&at.old, "x-kubernetes-validations", i), ..at.clone() };
            let place = At { new: Vec::new(), ..place };
            let change = Change::new(Code::RuleRemoved, Severity::Info, "a rule removed: fewer checks")
                .values(Some(rule.rule.clone()), None);
            self.push(&place, "", change);
        }
    }

    // The same rule with other settings: `optionalOldSelf` decides whether
    // a transition rule also runs on creates; the rest only what the error
    // says.
    fn rule_changed(&mut self, at: &At, old: &ValidationRule, new: &ValidationRule) {
        if old.optional_old_self != new.optional_old_self {
            let (o, n) = (old.optional_old_self.unwrap_or(false), new.optional_old_self.unwrap_or(false));
            if o != n {
                let (severity, reason) = if n {
                    (Severity::Warning, "the rule now also runs on creates (with oldSelf absent)")
                } else {
                    (Severity::Info, "the rule no longer runs on creates")
                };
                let values = flag_values("optionalOldSelf", o, n);
                self.push(
                    at,
                    "optionalOldSelf",
                    Change::new(Code::RuleChanged, severity, reason).values(values.0, values.1),
                );
            }
        }
        let shown = |r: &ValidationRule| {
            (r.message.clone(), r.message_expression.clone(), r.reason.clone(), r.field_path.clone())
        };
        if shown(old) != shown(new) {
            let reason =
                "the rule reports its errors differently (message, reason or field path); what it accepts is unchanged";
            self.push(
                at,
                "",
                Change::new(Code::RuleChanged, Severity::Info, reason).values(Some(new.rule.clone()), None),
            );
        }
    }

    fn children(&mut self, at: &At, old: &Structural, new: &Structural) {
        for (name, old_child) in &old.properties {
            let new_child = new.property(name);
            let child = at.child(&format!(".{name}"), &["properties", name], new_child);
            match new_child {
                Some(new_child) => self.node(&child, old_child, new_child),
                None => self.removed(&child, new, Some(type_of(old_child))),
            }
        }
        for (name, new_child) in new.properties.iter().filter(|(name, _)| old.property(name).is_none()) {
            let child = at.child(&format!(".{name}"), &["properties", name], Some(new_child));
            self.added(&child, old, Some(type_of(new_child)));
        }
        let allows = |s: &Structural| s.additional_properties.as_ref().is_some_and(StructuralOrBool::allows);
        let values = at.child(".*", &["additionalProperties"], new.additional_properties_schema());
        match (old.additional_properties_schema(), new.additional_properties_schema()) {
            (Some(o), Some(n)) => self.node(&values, o, n),
            _ if allows(old) && !allows(new) => self.removed(&values, new, Some("additionalProperties".to_owned())),
            _ if !allows(old) && allows(new) => self.added(&values, old, Some("additionalProperties".to_owned())),
            (Some(_), None) | (None, Some(_)) => {
                let change = Change::new(
                    Code::TypeChanged,
                    Severity::Warning,
                    format!("map values are checked differently: {RATCHETING}"),
                );
                self.push(&values, "", change);
            }
            (None, None) => {}
        }
        if let (Some(o), Some(n)) = (&old.items, &new.items) {
            let items = at.child("[*]", &["items"], Some(n));
            self.node(&items, o, n);
        }
    }

    // A field no longer declared is pruned from stored objects on their
    // next write, unless its parent keeps unknown fields.
    fn removed(&mut self, at: &At, new_parent: &Structural, old_type: Option<String>) {
        let (severity, reason) = if new_parent.extensions.x_preserve_unknown_fields {
            (Severity::Warning, "kept, since its parent preserves unknown fields, but no longer validated or defaulted")
        } else {
            (
                Severity::Error,
                "stored values are dropped on the next write (pruning), and clients that set it lose it silently",
            )
        };
        let gone = At { new: Vec::new(), ..at.clone() };
        self.push(&gone, "", Change::new(Code::FieldRemoved, severity, reason).values(old_type, None));
    }

    // A field declared where unknown fields were kept may already hold
    // values that its schema now judges.
    fn added(&mut self, at: &At, old_parent: &Structural, new_type: Option<String>) {
        let (severity, reason) = if old_parent.extensions.x_preserve_unknown_fields {
            (
                Severity::Warning,
                "values stored under this name while its parent preserved unknown fields are now validated and may fail",
            )
        } else {
            (Severity::Info, "a new field: stored objects do not have it")
        };
        let new_only = At { old: Vec::new(), ..at.clone() };
        self.push(&new_only, "", Change::new(Code::FieldAdded, severity, reason).values(None, new_type));
    }
}

#[derive(Clone, Copy)]
enum Limit {
    Upper,
    Lower,
}

/// The estimated cost of one evaluation of each of the node's rules.
#[cfg(feature = "cel")]
fn rule_costs(schema: &Structural, resource_root: bool) -> Vec<u64> {
    crate::cel::estimate_rule_costs(schema, resource_root).unwrap_or_default().iter().map(|c| c.max_cost).collect()
}

/// Without feature `cel`, rules are not compiled: no costs.
#[cfg(not(feature = "cel"))]
fn rule_costs(_: &Structural, _: bool) -> Vec<u64> {
    Vec::new()
}

fn indexed(steps: &[Step], list: &str, i: usize) -> Vec<Step> {
    let mut steps = steps.to_vec();
    steps.extend([Step::key(list), Step::Index(i)]);
    steps
}

fn type_of(s: &Structural) -> String {
    match (s.generic.type_.as_str(), s.extensions.x_int_or_string) {
        (_, true) => "int-or-string".to_owned(),
        ("", false) => "any".to_owned(),
        (t, false) => format!("type: {t}"),
    }
}

fn flag_values(keyword: &str, old: bool, new: bool) -> (Option<String>, Option<String>) {
    (Some(format!("{keyword}: {old}")), Some(format!("{keyword}: {new}")))
}
