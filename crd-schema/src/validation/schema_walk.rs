//! The schema walk of CRD validation
//! (`ValidateCustomResourceDefinitionOpenAPISchema`): forbidden keywords,
//! default placement, resource-meta rules, list and map types,
//! `x-kubernetes-validations` placement, and the CEL checks where they
//! apply, for every node of an `openAPIV3Schema`.

use super::{OPENAPI_V3_TYPES, ValidationOptions, cel, listtype, rules};
use crate::field::{ErrorList, FieldError, Path};
use crate::wire::{JSONSchemaProps, SchemaOrArray, SchemaOrBool, SchemaOrStringArray};

/// The root properties (and those of embedded resources) that hold
/// resource meta.
const META_FIELDS: [&str; 3] = ["metadata", "kind", "apiVersion"];

/// Walks `schema` (the root, at path `p`), returning the schema errors
/// followed by the CEL errors, the last of which are those of the estimated
/// cost total of all rules. `cel` says whether CEL checks apply at all (the
/// schema passed the structural and default checks).
pub(super) fn validate(schema: &JSONSchemaProps, p: &Path, opts: &ValidationOptions, cel: bool) -> ErrorList {
    let context = Context {
        opts,
        allow_defaults: opts.allow_defaults,
        disallow_defaults_reason: opts.disallow_defaults_reason.clone(),
        inside_resource_meta: false,
        uncorrelatable: None,
        cardinality: Some(1),
    };
    let mut found = context.walk(schema, p, true, cel);
    let mut total = cel::TotalCost::default();
    for cost in found.costs {
        total.observe(cost.path, cost.cost);
    }
    found.schema.append(&mut found.cel);
    found.schema.extend(cel::cost_total_errors(p, &total));
    found.schema
}

/// Errors found in a subtree, kept apart because CEL checks are skipped
/// where schema errors were found.
#[derive(Debug, Default)]
struct Found {
    schema: ErrorList,
    cel: ErrorList,
    /// The estimated costs of the expressions whose CEL checks ran, in
    /// walk order.
    costs: Vec<cel::ExpressionCost>,
}

impl Found {
    fn append(&mut self, mut other: Found) {
        self.schema.append(&mut other.schema);
        self.cel.append(&mut other.cel);
        self.costs.append(&mut other.costs);
    }
}

/// What the walk knows about the position of a node.
#[derive(Clone, Debug)]
struct Context<'o> {
    opts: &'o ValidationOptions,
    /// Whether `default` may be set here.
    allow_defaults: bool,
    /// Why not, appended to the error when non-empty.
    disallow_defaults_reason: String,
    /// Inside `metadata`, `kind` or `apiVersion` of the root or of an
    /// embedded resource.
    inside_resource_meta: bool,
    /// The highest ancestor whose children cannot be correlated between an
    /// old and a new object (`oldSelf` is forbidden below it).
    uncorrelatable: Option<Path>,
    /// How often the node can occur in one object, `None` when an ancestor
    /// list or map is unbounded.
    cardinality: Option<u64>,
}

impl Context<'_> {
    fn with_forbidden_defaults(&self, reason: String) -> Self {
        Self { allow_defaults: false, disallow_defaults_reason: reason, ..self.clone() }
    }

    fn with_inside_resource_meta(&self) -> Self {
        Self { inside_resource_meta: true, ..self.clone() }
    }

    // Children of a list or map occur as often as it has elements.
    fn for_children_of(&self, schema: &JSONSchemaProps) -> Self {
        Self { cardinality: cel::child_cardinality(schema, self.cardinality), ..self.clone() }
    }

    // Only the highest uncorrelatable ancestor is kept.
    fn with_uncorrelatable(&self, p: &Path) -> Self {
        Self { uncorrelatable: Some(self.uncorrelatable.clone().unwrap_or_else(|| p.clone())), ..self.clone() }
    }

    /// One node and everything below it. `cel` says whether CEL checks
    /// apply at this node (they do not inside junctors, `definitions` and
    /// `dependencies`).
    fn walk(&self, schema: &JSONSchemaProps, p: &Path, is_root: bool, cel: bool) -> Found {
        let mut found = Found { schema: self.keyword_errors(schema, p), ..Found::default() };
        found.schema.extend(unique_items(schema, p));
        found.schema.extend(additional_properties_with_properties(schema, p));
        found.append(self.children(schema, p, is_root, cel));
        found.schema.extend(preserve_unknown_fields_false(schema, p));
        found.schema.extend(listtype::validate(schema, p, self.opts));
        if schema.x_validations.as_ref().is_some_and(|r| !r.is_empty()) {
            found.schema.extend(rules::validate(schema, p));
            // CEL errors of a node whose subtree has schema errors would not
            // be actionable, so they are skipped.
            if found.schema.is_empty() && cel {
                let limit = !self.opts.suppress_per_expression_cost;
                let (errors, costs) =
                    cel::rule_errors(schema, p, self.uncorrelatable.as_ref(), self.cardinality, limit);
                found.cel.extend(errors);
                found.costs.extend(costs);
            }
        }
        found
    }

    /// The recursion, in Kubernetes' order.
    fn children(&self, schema: &JSONSchemaProps, p: &Path, is_root: bool, cel: bool) -> Found {
        let child = self.for_children_of(schema);
        let mut found = child.additional_properties(schema, p, cel);
        found.append(child.properties(schema, p, is_root, cel));
        found.append(self.junctors(schema, p));
        found.append(child.items(schema, p, cel));
        for (k, dependency) in schema.dependencies.iter().flatten() {
            if let SchemaOrStringArray::Schema(d) = dependency {
                found.append(self.walk(d, &p.child("dependencies").key(k.as_str()), false, false));
            }
        }
        found
    }

    // Keyword rules of one node: an invalid `type` (with
    // `requireValidPropertyType`), `default` where defaults are not allowed,
    // the unsupported keywords `id`, `additionalItems`, `patternProperties`,
    // `definitions`, `dependencies`, `$ref` (the last two also when empty),
    // `type: null`, the tuple form of `items`, and
    // `x-kubernetes-embedded-resource` inside resource meta.
    fn keyword_errors(&self, s: &JSONSchemaProps, p: &Path) -> ErrorList {
        let mut errors = ErrorList::new();
        let forbid = |errors: &mut ErrorList, name: &str, detail: &str| {
            errors.push(FieldError::forbidden(&p.child(name), detail));
        };
        if self.opts.require_valid_property_type && !s.type_.is_empty() && !OPENAPI_V3_TYPES.contains(&s.type_.as_str())
        {
            errors.push(FieldError::not_supported(&p.child("type"), s.type_.as_str(), &OPENAPI_V3_TYPES));
        }
        if s.default.is_some() && !self.allow_defaults {
            errors.push(FieldError::forbidden(&p.child("default"), self.default_detail()));
        }
        if !s.id.is_empty() {
            forbid(&mut errors, "id", "id is not supported");
        }
        if s.additional_items.is_some() {
            forbid(&mut errors, "additionalItems", "additionalItems is not supported");
        }
        if s.pattern_properties.as_ref().is_some_and(|m| !m.is_empty()) {
            forbid(&mut errors, "patternProperties", "patternProperties is not supported");
        }
        if s.definitions.as_ref().is_some_and(|m| !m.is_empty()) {
            forbid(&mut errors, "definitions", "definitions is not supported");
        }
        if s.dependencies.is_some() {
            forbid(&mut errors, "dependencies", "dependencies is not supported");
        }
        if s.ref_.is_some() {
            forbid(&mut errors, "$ref", "$ref is not supported");
        }
        if s.type_ == "null" {
            forbid(&mut errors, "type", "type cannot be set to null, use nullable as an alternative");
        }
        if matches!(&s.items, Some(SchemaOrArray::Array(items)) if !items.is_empty()) {
            forbid(&mut errors, "items", "items must be a schema object and not an array");
        }
        if self.inside_resource_meta && s.x_embedded_resource {
            forbid(&mut errors, "x-kubernetes-embedded-resource", "must not be used inside of resource meta");
        }
        errors
    }

    fn default_detail(&self) -> String {
        if self.disallow_defaults_reason.is_empty() {
            "must not be set".to_owned()
        } else {
            format!("must not be set {}", self.disallow_defaults_reason)
        }
    }

    // The `additionalProperties` schema is walked like a field; inside
    // resource meta defaults are forbidden in it (pruning them without an
    // actual key would be ambiguous).
    fn additional_properties(&self, schema: &JSONSchemaProps, p: &Path, cel: bool) -> Found {
        let Some(SchemaOrBool::Schema(ap)) = &schema.additional_properties else { return Found::default() };
        let context = if self.inside_resource_meta {
            self.with_forbidden_defaults("inside additionalProperties applying to object metadata".to_owned())
        } else {
            self.clone()
        };
        context.walk(ap, &p.child("additionalProperties"), false, cel)
    }

    // Properties: below an object whose map type is neither absent,
    // `granular` nor `atomic`, old values cannot be correlated. `metadata`,
    // `kind` and `apiVersion` of the root or of an embedded resource are
    // resource meta; at the root defaults are forbidden in them.
    fn properties(&self, schema: &JSONSchemaProps, p: &Path, is_root: bool, cel: bool) -> Found {
        let mut found = Found::default();
        let correlatable = matches!(schema.x_map_type.as_deref(), None | Some("granular" | "atomic"));
        for (k, property) in schema.properties.iter().flatten() {
            let mut context = if correlatable { self.clone() } else { self.with_uncorrelatable(p) };
            if (is_root || schema.x_embedded_resource) && META_FIELDS.contains(&k.as_str()) {
                context = context.with_inside_resource_meta();
                if is_root {
                    context = context.with_forbidden_defaults(format!("in top-level {k}"));
                }
            }
            found.append(context.walk(property, &p.child("properties").key(k.as_str()), false, cel));
        }
        found
    }

    // Junctors and `definitions` are walked with the same context, without
    // CEL checks, never as the root.
    fn junctors(&self, schema: &JSONSchemaProps, p: &Path) -> Found {
        let mut found = Found::default();
        if let Some(not) = &schema.not {
            found.append(self.walk(not, &p.child("not"), false, false));
        }
        let lists = [("allOf", &schema.all_of), ("oneOf", &schema.one_of), ("anyOf", &schema.any_of)];
        for (name, list) in lists {
            for (i, s) in list.iter().flatten().enumerate() {
                found.append(self.walk(s, &p.child(name).index(i), false, false));
            }
        }
        for (k, s) in schema.definitions.iter().flatten() {
            found.append(self.walk(s, &p.child("definitions").key(k.as_str()), false, false));
        }
        found
    }

    // Items: only the items of `map` lists can be correlated with old
    // values (`set` elements are not correlated by identity for rules).
    fn items(&self, schema: &JSONSchemaProps, p: &Path, cel: bool) -> Found {
        let Some(items) = &schema.items else { return Found::default() };
        let context =
            if schema.x_list_type.as_deref() == Some("map") { self.clone() } else { self.with_uncorrelatable(p) };
        let ip = p.child("items");
        match items {
            SchemaOrArray::Schema(s) => context.walk(s, &ip, false, cel),
            SchemaOrArray::Array(list) => {
                let mut found = Found::default();
                for (i, s) in list.iter().enumerate() {
                    found.append(context.walk(s, &ip.index(i), false, cel));
                }
                found
            }
        }
    }
}

// `uniqueItems: true` is forbidden (quadratic runtime).
fn unique_items(schema: &JSONSchemaProps, p: &Path) -> Option<FieldError> {
    schema.unique_items.then(|| {
        FieldError::forbidden(
            &p.child("uniqueItems"),
            "uniqueItems cannot be set to true since the runtime complexity becomes quadratic",
        )
    })
}

// `additionalProperties` `false` or a schema next to non-empty `properties`
// is forbidden (`true` is the default meaning and accepted).
fn additional_properties_with_properties(schema: &JSONSchemaProps, p: &Path) -> Option<FieldError> {
    let has_properties = schema.properties.as_ref().is_some_and(|m| !m.is_empty());
    let restricts = matches!(schema.additional_properties, Some(SchemaOrBool::Bool(false) | SchemaOrBool::Schema(_)));
    (has_properties && restricts).then(|| {
        FieldError::forbidden(
            &p.child("additionalProperties"),
            "additionalProperties and properties are mutual exclusive",
        )
    })
}

// `x-kubernetes-preserve-unknown-fields: false` is rejected: the extension
// is `true` or absent.
fn preserve_unknown_fields_false(schema: &JSONSchemaProps, p: &Path) -> Option<FieldError> {
    (schema.x_preserve_unknown_fields == Some(false)).then(|| {
        FieldError::invalid(&p.child("x-kubernetes-preserve-unknown-fields"), false, "must be true or undefined")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn errors(v: serde_json::Value, opts: &ValidationOptions) -> Vec<String> {
        let schema = JSONSchemaProps::from_value(&v).unwrap();
        let mut out: Vec<String> =
            validate(&schema, &Path::new("s"), opts, false).iter().map(ToString::to_string).collect();
        out.sort();
        out
    }

    fn create() -> ValidationOptions {
        ValidationOptions::for_create()
    }

    #[test]
    fn forbidden_keywords() {
        let v = json!({"type": "object", "properties": {"a": {"type": "null", "id": "x", "$ref": "", "dependencies": {},
            "additionalItems": true, "patternProperties": {}, "definitions": {"d": {"uniqueItems": true}}, "items": [{}]}}});
        assert_eq!(
            errors(v, &create()),
            vec![
                "s.properties[a].$ref: Forbidden: $ref is not supported",
                "s.properties[a].additionalItems: Forbidden: additionalItems is not supported",
                "s.properties[a].definitions: Forbidden: definitions is not supported",
                "s.properties[a].definitions[d].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic",
                "s.properties[a].dependencies: Forbidden: dependencies is not supported",
                "s.properties[a].id: Forbidden: id is not supported",
                "s.properties[a].items: Forbidden: items must be a schema object and not an array",
                "s.properties[a].type: Forbidden: type cannot be set to null, use nullable as an alternative",
                "s.properties[a].type: Unsupported value: \"null\": supported values: \"array\", \"boolean\", \"integer\", \"number\", \"object\", \"string\"",
            ]
        );
    }

    #[test]
    fn defaults_in_resource_meta() {
        let v = json!({"type": "object", "properties": {
            "kind": {"type": "string", "default": "K"},
            "metadata": {"type": "object", "properties": {"name": {"type": "string", "default": "n"}}},
            "e": {"type": "object", "x-kubernetes-embedded-resource": true, "properties": {
                "metadata": {"type": "object", "x-kubernetes-embedded-resource": true, "properties": {
                    "labels": {"type": "object", "additionalProperties": {"type": "string", "default": "x"}}}},
                "spec": {"type": "object", "default": {}}}}}});
        assert_eq!(
            errors(v, &create()),
            vec![
                "s.properties[e].properties[metadata].properties[labels].additionalProperties.default: Forbidden: must not be set inside additionalProperties applying to object metadata",
                "s.properties[e].properties[metadata].x-kubernetes-embedded-resource: Forbidden: must not be used inside of resource meta",
                "s.properties[kind].default: Forbidden: must not be set in top-level kind",
                "s.properties[metadata].properties[name].default: Forbidden: must not be set in top-level metadata",
            ]
        );
        let v = json!({"type": "object", "properties": {"a": {"type": "string", "default": "x"}}});
        assert_eq!(
            errors(v.clone(), &ValidationOptions::default()),
            vec!["s.properties[a].default: Forbidden: must not be set"]
        );
        let opts = ValidationOptions { disallow_defaults_reason: "because".to_owned(), ..ValidationOptions::default() };
        assert_eq!(errors(v, &opts), vec!["s.properties[a].default: Forbidden: must not be set because"]);
    }

    #[test]
    fn additional_properties_rules() {
        let v = json!({"type": "object", "properties": {
            "a": {"type": "object", "properties": {"x": {"type": "string"}}, "additionalProperties": false},
            "b": {"type": "object", "properties": {"x": {"type": "string"}}, "additionalProperties": true},
            "c": {"type": "object", "additionalProperties": {"type": "object", "x-kubernetes-preserve-unknown-fields": false}}}});
        assert_eq!(
            errors(v, &create()),
            vec![
                "s.properties[a].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive",
                "s.properties[c].additionalProperties.x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined",
            ]
        );
    }

    #[test]
    fn uncorrelatable_ancestor_is_the_highest() {
        let context = Context {
            opts: &ValidationOptions::default(),
            allow_defaults: true,
            disallow_defaults_reason: String::new(),
            inside_resource_meta: false,
            uncorrelatable: None,
            cardinality: Some(1),
        };
        let a = context.with_uncorrelatable(&Path::new("a"));
        let b = a.with_uncorrelatable(&Path::new("a").child("items"));
        assert_eq!(b.uncorrelatable, Some(Path::new("a")));
    }
}
