//! Validating a custom resource as the API server does when it is created
//! or updated: the decode pipeline, then the checks of the CRD's strategy.
//!
//! Entry point: [`ResourceValidator`], prepared once per CRD version
//! ([`ResourceValidator::from_crd`]) or per bare schema
//! ([`ResourceValidator::for_schema`]). [`ResourceValidator::create`] and
//! [`ResourceValidator::update`] run the whole server path on a manifest;
//! [`ResourceValidator::validate`] runs only the checks, on an object that
//! is already in stored form.
//!
//! The checks, in the server's order (`customResourceStrategy.Validate`):
//! 1. `apiVersion` and `kind` must be the CRD's (nothing else runs if not);
//! 2. `metadata` (`ValidateObjectMetaAccessor`, names are DNS subdomains;
//!    on update also `ValidateObjectMetaAccessorUpdate`'s immutable name and
//!    namespace);
//! 3. value validation against the schema
//!    ([`value_validation`](crate::value_validation)); on update, errors at
//!    values the update did not change are dropped (ratcheting);
//! 4. the `scale` subresource's replica and selector paths;
//! 5. `apiVersion`/`kind`/`metadata` of embedded resources
//!    ([`objectmeta::validate`]);
//! 6. uniqueness in `set` and `map` lists ([`listtype`]); on update only
//!    when the old object's lists pass it;
//! 7. with feature `cel`, the `x-kubernetes-validations` rules, unless an
//!    earlier error is a type, required, enum or size violation, in which
//!    case one error says the rules were not run.
//!
//! What the server does before validating, and this module therefore does
//! too: it decodes the object ([`pipeline`]: pruning, defaulting, metadata
//! coercion), drops `status` when the status subresource is enabled (a
//! create or update of the main resource cannot change it), clears the
//! namespace of cluster-scoped objects and generates a name from
//! `generateName`. A namespaced object without a namespace is validated as
//! if it had kubectl's `default`, because the server takes the namespace
//! from the request.
//!
//! Ratcheting correlates old and new values as the server does
//! ([`crate::ratchet`]: `map` lists by their keys, other lists'
//! items not at all).
//!
//! Error policy: everything found in the object is a [`FieldError`] with
//! Kubernetes' text; a schema that cannot be prepared is a
//! [`PrepareError`]; nothing here panics.

use serde_json::{Map, Value};

use crate::crd::{CustomResourceDefinition, VersionError};
use crate::defaulting::PruneDefaultsError;
use crate::field::{ErrorList, ErrorType, FieldError, Path};
use crate::json_map;
use crate::objectmeta::{self, ObjectMeta, names};
use crate::pipeline::{self, Options};
use crate::structural::{ConversionError, Structural, new_structural};
use crate::value_validation::Validator as ValueValidator;
use crate::wire::JSONSchemaProps;
use crate::{defaulting, listtype, ratchet};

pub use crate::crd::Scale;

/// What the server knows of a resource besides its schema.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Resource {
    /// `spec.group` (empty for the core group).
    pub group: String,
    /// The version name.
    pub version: String,
    /// `spec.names.kind`.
    pub kind: String,
    /// `spec.scope` is `Namespaced`.
    pub namespaced: bool,
    /// The status subresource is enabled.
    pub status_subresource: bool,
    /// The scale subresource, if enabled.
    pub scale: Option<Scale>,
    /// `spec.preserveUnknownFields: true` (no pruning).
    pub preserve_unknown_fields: bool,
}

impl Resource {
    /// `apiVersion` as objects of this resource must carry it.
    pub fn api_version(&self) -> String {
        if self.group.is_empty() { self.version.clone() } else { format!("{}/{}", self.group, self.version) }
    }

    /// Whether `text` is [`Resource::api_version`], without building it
    /// (every object is checked).
    fn is_api_version(&self, text: &str) -> bool {
        match text.split_once('/') {
            Some((group, version)) => !self.group.is_empty() && group == self.group && version == self.version,
            None => self.group.is_empty() && text == self.version,
        }
    }
}

/// The result of [`ResourceValidator::create`] and [`ResourceValidator::update`].
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The object as the server would store it (as given when it could not
    /// be decoded).
    pub object: Value,
    /// Fields dropped as unknown (kubectl's `Warning: unknown field`).
    pub unknown_fields: Vec<String>,
    /// Everything that makes the server refuse the object; empty when it
    /// would be accepted.
    pub errors: ErrorList,
}

impl Outcome {
    /// Whether the server would accept the object.
    pub fn is_valid(&self) -> bool {
        self.errors.is_empty()
    }
}

/// A CRD version's schema prepared for validating its objects.
#[derive(Debug)]
pub struct ResourceValidator {
    resource: Option<Resource>,
    schema: Option<Structural>,
    values: Option<ValueValidator>,
    /// Whether the schema has embedded resources (see [`Self::run`]).
    embedded: bool,
    #[cfg(feature = "cel")]
    cel: Option<crate::cel::CelValidator>,
}

/// The message of the error that stands for the CEL rules not run.
pub const RULES_NOT_CHECKED: &str = "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation";

impl ResourceValidator {
    /// Prepares the validation of `crd`'s version `version`. Fails when the
    /// CRD has no such version or its schema is not structural.
    pub fn from_crd(crd: &CustomResourceDefinition, version: &str) -> Result<Self, PrepareError> {
        let spec = &crd.spec;
        let index = spec
            .served_version(version)
            .map_err(|source| PrepareError::Version { crd: crd.metadata.name.clone(), source })?;
        let subresources = spec.subresources_for_version(version);
        let resource = Resource {
            group: spec.group.clone(),
            version: version.to_owned(),
            kind: spec.names.kind.clone(),
            namespaced: spec.scope != "Cluster",
            status_subresource: subresources.is_some_and(|s| s.status),
            scale: subresources.and_then(|s| s.scale.clone()),
            preserve_unknown_fields: spec.preserve_unknown_fields == Some(true),
        };
        let schema = spec.version_schema(index).map(|s| serving_schema(s, &crd.metadata.name)).transpose()?;
        Ok(Self::new(Some(resource), schema))
    }

    /// Prepares the validation of values against a bare structural schema
    /// (not resources: no type meta, metadata or subresource checks).
    pub fn for_schema(schema: Structural) -> Self {
        Self::new(None, Some(schema))
    }

    /// Prepares the validation of `resource`'s objects against `schema`
    /// (already in serving form); with `resource` `None`, of bare values.
    pub fn new(resource: Option<Resource>, schema: Option<Structural>) -> Self {
        Self {
            values: schema.as_ref().map(ValueValidator::new),
            embedded: schema.as_ref().is_some_and(pipeline::has_embedded_resource),
            #[cfg(feature = "cel")]
            cel: schema.as_ref().map(crate::cel::CelValidator::new).filter(|c| !c.is_empty()),
            resource,
            schema,
        }
    }

    /// The resource, `None` for a bare schema.
    pub fn resource(&self) -> Option<&Resource> {
        self.resource.as_ref()
    }

    /// The whole server path of a create: decode, prepare, validate.
    pub fn create(&self, object: Value) -> Outcome {
        self.run(object, None)
    }

    /// The whole server path of an update from `old` (as stored, or as
    /// its manifest: it is decoded the same way).
    pub fn update(&self, object: Value, old: Value) -> Outcome {
        let old = self.decode(old).map(|(o, _)| o);
        match old {
            Ok(old) => self.run(object, Some(&old)),
            Err(e) => Outcome { object, unknown_fields: Vec::new(), errors: vec![e.prefixed_old()] },
        }
    }

    fn run(&self, object: Value, old: Option<&Value>) -> Outcome {
        // A failed decode reports the object as given; only a schema with
        // embedded resources can fail after changing it, so only then is a
        // copy kept.
        let copy = self.embedded.then(|| object.clone());
        match pipeline::decode_or_return(object, self.schema.as_ref(), &self.options()) {
            Ok((decoded, mut meta)) => {
                let mut stored = decoded.object;
                // The root metadata the pipeline decoded, when it is still
                // the stored object's, spares the checks decoding it again.
                self.prepare(&mut stored, meta.as_mut());
                let errors = self.validate_stored(&stored, old, meta);
                Outcome { object: stored, unknown_fields: decoded.unknown_fields, errors }
            }
            Err((e, given)) => {
                let object = given.or(copy).unwrap_or_default();
                Outcome { object, unknown_fields: Vec::new(), errors: vec![*e] }
            }
        }
    }

    fn options(&self) -> Options {
        Options {
            preserve_unknown_fields: self.resource.as_ref().is_some_and(|r| r.preserve_unknown_fields),
            apply_defaults: true,
            resource_root: self.resource.is_some(),
        }
    }

    fn decode(&self, object: Value) -> Result<(Value, Vec<String>), DecodeFailure> {
        pipeline::decode(object, self.schema.as_ref(), &self.options())
            .map(|d| (d.object, d.unknown_fields))
            .map_err(DecodeFailure)
    }

    // `PrepareForCreate`/`PrepareForUpdate` and `BeforeCreate`: what the
    // server changes before validating, made to the decoded metadata too
    // when there is one.
    fn prepare(&self, object: &mut Value, mut decoded: Option<&mut ObjectMeta>) {
        let (Some(resource), Value::Object(map)) = (&self.resource, object) else { return };
        if resource.status_subresource {
            map.remove("status");
        }
        let Some(Value::Object(meta)) = json_map::get_mut(map, "metadata") else { return };
        if !resource.namespaced {
            meta.remove("namespace");
            if let Some(decoded) = decoded.as_deref_mut() {
                decoded.namespace.clear();
            }
        }
        let name_missing = json_map::get(meta, "name").and_then(Value::as_str).is_none_or(str::is_empty);
        if name_missing && let Some(Value::String(prefix)) = meta.get("generateName") {
            let name = generate_name(prefix);
            if let Some(decoded) = decoded {
                name.clone_into(&mut decoded.name);
            }
            meta.insert("name".to_owned(), Value::String(name));
        }
    }

    /// The checks of a create (`old` `None`) or an update on `object` in
    /// stored form; errors in the server's order.
    pub fn validate(&self, object: &Value, old: Option<&Value>) -> ErrorList {
        self.validate_stored(object, old, None)
    }

    // `validate`, given the object's root metadata when it is already
    // decoded.
    fn validate_stored(&self, object: &Value, old: Option<&Value>, meta: Option<ObjectMeta>) -> ErrorList {
        let root = Path::root();
        let mut errors = ErrorList::new();
        if let Some(resource) = &self.resource {
            let type_errors = type_meta(resource, object);
            if !type_errors.is_empty() {
                return type_errors;
            }
            errors.extend(metadata(resource, object, old, meta));
        }
        if let Some(values) = &self.values {
            let mut value_errors = values.validate(object, &root);
            if let Some(old) = old {
                value_errors.retain(|e| !ratchet::unchanged(self.schema.as_ref(), &e.path, object, old));
            }
            errors.extend(value_errors);
        }
        if let Some(scale) = self.resource.as_ref().and_then(|r| r.scale.as_ref()) {
            errors.extend(scale_errors(scale, object));
        }
        errors.extend(objectmeta::validate(&root, object, self.schema.as_ref(), false));
        // On an update the lists are checked only when the old object's
        // pass (upstream's `ValidateUpdate` ratchets them as a whole).
        if let Some(schema) = &self.schema
            && old.is_none_or(|old| listtype::validate_list_set_and_map(&root, schema, old).is_empty())
        {
            errors.extend(listtype::validate_list_set_and_map(&root, schema, object));
        }
        self.rules(object, old, &mut errors);
        errors
    }

    #[cfg(feature = "cel")]
    fn rules(&self, object: &Value, old: Option<&Value>, errors: &mut ErrorList) {
        let Some(cel) = &self.cel else { return };
        if errors.iter().any(|e| blocks_rules(e.kind)) {
            errors.push(FieldError::invalid_rendered(&Path::root(), "\"null\"", RULES_NOT_CHECKED));
            return;
        }
        let mut budget = crate::cel::RUNTIME_COST_BUDGET;
        let mut rule_errors = cel.validate(&Path::root(), object, old, &mut budget);
        if let Some(old) = old {
            rule_errors.retain(|e| !ratchet::unchanged(self.schema.as_ref(), &e.path, object, old));
        }
        errors.extend(rule_errors);
    }

    #[cfg(not(feature = "cel"))]
    fn rules(&self, _object: &Value, _old: Option<&Value>, _errors: &mut ErrorList) {}
}

// A decode failure; boxed as the pipeline returns it.
struct DecodeFailure(Box<FieldError>);

impl DecodeFailure {
    // An old object that does not decode: its errors name `oldObject`.
    fn prefixed_old(self) -> FieldError {
        let mut error = *self.0;
        error.detail = format!("the old object does not decode: {}", error.detail);
        error
    }
}

/// The schema as the server serves it: structural, with every default
/// pruned (defaults of old CRDs and metadata defaults may hold unknown
/// fields, which the server drops when it loads the schema). `what` names
/// the CRD or file in the error.
pub fn serving_schema(schema: &JSONSchemaProps, what: &str) -> Result<Structural, PrepareError> {
    let mut structural =
        new_structural(schema).map_err(|source| PrepareError::NotStructural { what: what.to_owned(), source })?;
    defaulting::prune_defaults(&mut structural)
        .map_err(|source| PrepareError::Defaults { what: what.to_owned(), source })?;
    Ok(structural)
}

/// Why a CRD version's schema cannot be prepared for validating objects
/// ([`ResourceValidator::from_crd`], [`serving_schema`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PrepareError {
    /// The CRD does not serve the version: `CRD foos.example.com has no
    /// version "v2" (served: v1)`.
    #[error("CRD {crd} {source}")]
    Version {
        /// The CRD's name.
        crd: String,
        /// Why the version is refused.
        source: VersionError,
    },
    /// The schema has no structural form: `<what>: schema is not
    /// structural: OpenAPIV3Schema 'id' is not supported`.
    #[error("{what}: schema is not structural: {source}")]
    NotStructural {
        /// The CRD or file the schema comes from.
        what: String,
        /// The conversion's error.
        source: ConversionError,
    },
    /// A default cannot be pruned: `<what>: ` and Go's text after
    /// `failed to prune default value: `.
    #[error("{what}: {}", .source.0)]
    Defaults {
        /// The CRD or file the schema comes from.
        what: String,
        /// The pruning's error.
        source: PruneDefaultsError,
    },
}

// `hasBlockingErr`: type, required, enum and size violations mean the
// object does not have the shape the rules were written for.
#[cfg_attr(not(feature = "cel"), allow(dead_code))]
fn blocks_rules(kind: ErrorType) -> bool {
    matches!(
        kind,
        ErrorType::NotSupported
            | ErrorType::Required
            | ErrorType::TooLong
            | ErrorType::TooMany
            | ErrorType::TypeInvalid
    )
}

// `names.SimpleNameGenerator`: the prefix cut to 58 bytes plus five
// random characters; a fixed suffix from the generator's alphabet stands
// in for them.
fn generate_name(prefix: &str) -> String {
    let mut end = prefix.len().min(58);
    while !prefix.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}bcdfg", &prefix[..end])
}

// `ValidateTypeMeta`: both problems are reported, and nothing else runs.
fn type_meta(resource: &Resource, object: &Value) -> ErrorList {
    let text = |key: &str| object.get(key).and_then(Value::as_str).unwrap_or_default();
    let mut errors = ErrorList::new();
    if text("kind") != resource.kind {
        errors.push(FieldError::invalid(&Path::new("kind"), text("kind"), format!("must be {}", resource.kind)));
    }
    if !resource.is_api_version(text("apiVersion")) {
        let detail = format!("must be {}/{}", resource.group, resource.version);
        errors.push(FieldError::invalid(&Path::new("apiVersion"), text("apiVersion"), detail));
    }
    errors
}

// ObjectMeta checks of create, plus the immutable name and namespace of an
// update. `decoded` is the object's metadata when it is already decoded.
fn metadata(resource: &Resource, object: &Value, old: Option<&Value>, decoded: Option<ObjectMeta>) -> ErrorList {
    let path = Path::new("metadata");
    let read = |object: &Value| match object.get("metadata") {
        Some(metadata) => objectmeta::decode_object_meta(metadata),
        None => objectmeta::decode_object_meta(&Value::Object(Map::new())),
    };
    let meta = match decoded {
        Some(meta) => {
            debug_assert!(read(object).is_ok_and(|read| same_checked_fields(&read, &meta)), "{meta:?}");
            Ok(meta)
        }
        None => read(object),
    };
    let mut meta = match meta {
        Ok(meta) => meta,
        Err(e) => return vec![FieldError::invalid(&path, object.get("metadata").cloned().unwrap_or_default(), e.0)],
    };
    if resource.namespaced && meta.namespace.is_empty() {
        "default".clone_into(&mut meta.namespace);
    }
    let mut errors = objectmeta::validate_object_meta(&meta, resource.namespaced, &names::name_is_dns_subdomain, &path);
    if let Some(Ok(mut before)) = old.map(read) {
        if resource.namespaced && before.namespace.is_empty() {
            "default".clone_into(&mut before.namespace);
        }
        for (key, new, old) in [("name", &meta.name, &before.name), ("namespace", &meta.namespace, &before.namespace)] {
            if new != old {
                errors.push(FieldError::invalid(&path.child(key), new.as_str(), "field is immutable"));
            }
        }
    }
    errors
}

// Whether two decodes of metadata agree on all that `metadata` checks:
// everything but the timestamps, whose fractions the written-back form
// drops. Only debug builds assert it.
fn same_checked_fields(a: &ObjectMeta, b: &ObjectMeta) -> bool {
    let untimed = |m: &ObjectMeta| ObjectMeta {
        creation_timestamp: objectmeta::Time::ZERO,
        deletion_timestamp: None,
        managed_fields: m
            .managed_fields
            .iter()
            .map(|e| objectmeta::ManagedFieldsEntry { time: None, ..e.clone() })
            .collect(),
        ..m.clone()
    };
    untimed(a) == untimed(b)
}

// `ValidateScaleSpec` and `ValidateScaleStatus`: the replica counts must
// be integers within int32 (absent is 0), the selector a string.
fn scale_errors(scale: &Scale, object: &Value) -> ErrorList {
    let mut errors = ErrorList::new();
    for path in [&scale.spec_replicas_path, &scale.status_replicas_path] {
        if path.is_empty() {
            continue;
        }
        let at = Path::new(path.as_str());
        match nested(object, path, "int64", |v| v.as_i64().map(Value::from)) {
            Err(message) => errors.push(FieldError::invalid(&at, 0, message)),
            Ok(Some(Value::Number(n))) => {
                let replicas = n.as_i64().unwrap_or_default();
                if replicas < 0 {
                    errors.push(FieldError::invalid(&at, replicas, "should be a non-negative integer"));
                } else if replicas > i64::from(i32::MAX) {
                    let detail = format!("should be less than or equal to {}", i32::MAX);
                    errors.push(FieldError::invalid(&at, replicas, detail));
                }
            }
            Ok(_) => {}
        }
    }
    if let Some(path) = &scale.label_selector_path
        && let Err(message) = nested(object, path, "string", |v| v.as_str().map(Value::from))
    {
        errors.push(FieldError::invalid(&Path::new(path.as_str()), "", message));
    }
    errors
}

// `unstructured.NestedInt64`/`NestedString`: the value at a dotted path;
// absent is `Ok(None)`, a wrong type on the way or at the end an error in
// Go's words.
fn nested(
    object: &Value,
    path: &str,
    want: &str,
    read: impl Fn(&Value) -> Option<Value>,
) -> Result<Option<Value>, String> {
    let trimmed = path.strip_prefix('.').unwrap_or(path);
    let fields: Vec<&str> = trimmed.split('.').collect();
    let mut current = object;
    for (i, field) in fields.iter().enumerate() {
        let Value::Object(map) = current else {
            let at = format!(".{}", fields[..i].join("."));
            return Err(format!(
                "{at} accessor error: {} is of the type {}, expected map[string]interface{{}}",
                go_v(current),
                crate::gofmt::go_type(current)
            ));
        };
        match json_map::get(map, field) {
            Some(next) => current = next,
            None => return Ok(None),
        }
    }
    match read(current) {
        Some(value) => Ok(Some(value)),
        None => Err(format!(
            ".{trimmed} accessor error: {} is of the type {}, expected {want}",
            go_v(current),
            crate::gofmt::go_type(current)
        )),
    }
}

// Go's `%v` of a decoded JSON value, as the accessor errors print it
// (`[1 2]`, `map[a:1]`).
fn go_v(v: &Value) -> String {
    crate::gofmt::v(v, crate::gofmt::Numbers::Int64OrFloat64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn prepare_error_display_is_unchanged_text() {
        let doc = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "foos.example.com"},
            "spec": {"group": "example.com", "scope": "Namespaced", "names": {"plural": "foos", "kind": "Foo"},
              "versions": [{"name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": {"type": "object"}}}]}});
        let crd = CustomResourceDefinition::from_manifest(&doc).unwrap();
        let version = ResourceValidator::from_crd(&crd, "v2").unwrap_err();
        assert!(matches!(version, PrepareError::Version { source: VersionError::Unknown { .. }, .. }));
        assert_eq!(version.to_string(), "CRD foos.example.com has no version \"v2\" (served: v1)");
        let schema = JSONSchemaProps::from_value(&json!({"type": "object", "id": "x"})).unwrap();
        let structural = serving_schema(&schema, "foo.yaml").unwrap_err();
        assert!(matches!(structural, PrepareError::NotStructural { .. }));
        assert_eq!(structural.to_string(), "foo.yaml: schema is not structural: OpenAPIV3Schema 'id' is not supported");
    }

    fn validator(schema: Value, resource: Resource) -> ResourceValidator {
        ResourceValidator::new(Some(resource), Some(Structural::from_json(&schema).unwrap()))
    }

    fn widgets() -> Resource {
        Resource {
            group: "example.com".into(),
            version: "v1".into(),
            kind: "Widget".into(),
            namespaced: true,
            ..Resource::default()
        }
    }

    #[test]
    fn api_versions_are_read_without_building_them() {
        let grouped = widgets();
        let core = Resource { group: String::new(), ..widgets() };
        for (resource, text) in [(&grouped, "example.com/v1"), (&core, "v1")] {
            assert_eq!(resource.api_version(), text);
            assert!(resource.is_api_version(text), "{text}");
        }
        for text in ["v1", "example.com/v2", "example.org/v1", "example.com/v1/x", "/v1", "example.com/", ""] {
            assert!(!grouped.is_api_version(text), "{text}");
        }
        for text in ["/v1", "example.com/v1", "v2", ""] {
            assert!(!core.is_api_version(text), "{text}");
        }
    }

    fn spec_schema() -> Value {
        json!({"type": "object", "properties": {
            "spec": {"type": "object", "properties": {
                "replicas": {"type": "integer", "minimum": 0, "default": 1},
                "tags": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}}}},
            "status": {"type": "object", "properties": {"ready": {"type": "boolean"}, "selector": {"type": "integer"}}}}})
    }

    fn texts(errors: &ErrorList) -> Vec<String> {
        errors.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn a_valid_object_is_stored_pruned_and_defaulted() {
        let v = validator(spec_schema(), widgets());
        let out = v.create(json!({"apiVersion": "example.com/v1", "kind": "Widget",
            "metadata": {"name": "a"}, "spec": {"junk": 1}}));
        assert!(out.is_valid(), "{:?}", texts(&out.errors));
        assert_eq!(out.unknown_fields, ["spec.junk"]);
        assert_eq!(out.object["spec"], json!({"replicas": 1}));
    }

    #[test]
    fn type_meta_errors_stop_everything_else() {
        let v = validator(spec_schema(), widgets());
        let out = v.create(json!({"apiVersion": "example.com/v2", "kind": "Gadget",
            "metadata": {"name": "A_B"}, "spec": {"replicas": -1}}));
        assert_eq!(
            texts(&out.errors),
            [
                "kind: Invalid value: \"Gadget\": must be Widget",
                "apiVersion: Invalid value: \"example.com/v2\": must be example.com/v1"
            ]
        );
    }

    #[test]
    fn metadata_values_lists_and_scale_are_all_checked() {
        let mut resource = widgets();
        resource.scale = Some(Scale {
            spec_replicas_path: ".spec.replicas".into(),
            status_replicas_path: ".status.replicas".into(),
            label_selector_path: Some(".status.selector".into()),
        });
        let v = validator(spec_schema(), resource);
        let out = v.create(json!({"apiVersion": "example.com/v1", "kind": "Widget",
            "metadata": {"name": "Bad_Name"}, "spec": {"replicas": -1, "tags": ["a", "a"]},
            "status": {"selector": 3}}));
        let got = texts(&out.errors);
        assert!(
            got[0].starts_with("metadata.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain"),
            "{got:?}"
        );
        assert!(
            got.contains(
                &"spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0"
                    .to_owned()
            ),
            "{got:?}"
        );
        assert!(
            got.contains(&".spec.replicas: Invalid value: -1: should be a non-negative integer".to_owned()),
            "{got:?}"
        );
        assert!(got.contains(&".status.selector: Invalid value: \"\": .status.selector accessor error: 3 is of the type int64, expected string".to_owned()), "{got:?}");
        assert!(got.contains(&"spec.tags[1]: Duplicate value: \"a\"".to_owned()), "{got:?}");
    }

    #[test]
    fn accessor_errors_print_values_as_go_v_does() {
        // `%v` of a slice is `[1 2]` and of a map `map[a:1]`, not JSON.
        let read = |v: &Value| v.as_str().map(|s| Value::String(s.to_owned()));
        let list = json!({"status": {"selector": [1, 2]}});
        let err = nested(&list, ".status.selector", "string", read).unwrap_err();
        assert_eq!(err, ".status.selector accessor error: [1 2] is of the type []interface {}, expected string");
        let map = json!({"status": {"selector": {"a": 1}}});
        let err = nested(&map, ".status.selector", "string", read).unwrap_err();
        assert!(err.starts_with(".status.selector accessor error: map[a:1] is of the type"), "{err}");
    }

    #[test]
    fn status_is_dropped_with_the_status_subresource() {
        let mut resource = widgets();
        resource.status_subresource = true;
        let v = validator(spec_schema(), resource);
        let out = v.create(json!({"apiVersion": "example.com/v1", "kind": "Widget",
            "metadata": {"name": "a"}, "status": {"ready": "yes"}}));
        assert!(out.is_valid(), "{:?}", texts(&out.errors));
        assert!(out.object.get("status").is_none());
    }

    #[test]
    fn names_are_generated_and_cluster_scope_drops_the_namespace() {
        let mut resource = widgets();
        resource.namespaced = false;
        let v = validator(spec_schema(), resource);
        let out = v.create(json!({"apiVersion": "example.com/v1", "kind": "Widget",
            "metadata": {"generateName": "w-", "namespace": "x"}}));
        assert!(out.is_valid(), "{:?}", texts(&out.errors));
        assert_eq!(out.object["metadata"], json!({"name": "w-bcdfg", "generateName": "w-"}));
    }

    #[test]
    fn metadata_defaults_are_checked_as_stored() {
        // Defaults under `metadata` change it after the pipeline decoded
        // it, so the checks read the stored object again.
        let schema = json!({"type": "object", "properties": {"metadata": {"type": "object", "properties": {
            "labels": {"type": "object", "additionalProperties": {"type": "string"}, "default": {"a": "b c"}}}}}});
        let v = validator(schema, widgets());
        let out = v.create(json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}}));
        assert_eq!(out.object["metadata"]["labels"], json!({"a": "b c"}));
        let got = texts(&out.errors);
        assert!(got.len() == 1 && got[0].starts_with("metadata.labels: Invalid value: \"b c\""), "{got:?}");
        assert!(pipeline::defaults_metadata(v.schema.as_ref()));
        assert!(!pipeline::defaults_metadata(Some(&Structural::from_json(&spec_schema()).unwrap())));
    }

    #[test]
    fn a_missing_name_is_required() {
        let v = validator(spec_schema(), widgets());
        let out = v.create(json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {}}));
        assert_eq!(texts(&out.errors), ["metadata.name: Required value: name or generateName is required"]);
    }

    #[test]
    fn an_undecodable_object_is_one_error() {
        let v = validator(spec_schema(), widgets());
        let out = v.create(json!({"apiVersion": 1, "kind": "Widget"}));
        assert_eq!(texts(&out.errors), ["apiVersion: Invalid value: 1: must be a string"]);
    }

    #[test]
    fn updates_ratchet_unchanged_values_and_keep_names() {
        let v = validator(spec_schema(), widgets());
        let old = json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "a"},
            "spec": {"replicas": -1}});
        let same = v.update(old.clone(), old.clone());
        assert!(same.is_valid(), "{:?}", texts(&same.errors));
        let mut changed = old.clone();
        changed["spec"]["replicas"] = json!(-2);
        changed["metadata"]["name"] = json!("b");
        let got = texts(&v.update(changed, old).errors);
        assert_eq!(
            got,
            [
                "metadata.name: Invalid value: \"b\": field is immutable",
                "spec.replicas: Invalid value: -2: spec.replicas in body should be greater than or equal to 0"
            ]
        );
    }

    #[test]
    fn list_uniqueness_is_checked_on_update_only_when_the_old_object_passes_it() {
        let v = validator(spec_schema(), widgets());
        let with_tags = |tags: Value| json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "a"}, "spec": {"tags": tags}});
        let duplicate = "spec.tags[1]: Duplicate value: \"x\"";
        assert_eq!(texts(&v.create(with_tags(json!(["x", "x"]))).errors), [duplicate]);
        // The old object has duplicates: the new one's lists are not checked.
        let kept = v.update(with_tags(json!(["x", "x", "y", "y"])), with_tags(json!(["x", "x"])));
        assert!(kept.is_valid(), "{:?}", texts(&kept.errors));
        // The old object is clean: the new one's duplicates are refused.
        let added = v.update(with_tags(json!(["x", "x"])), with_tags(json!(["x"])));
        assert_eq!(texts(&added.errors), [duplicate]);
    }

    #[test]
    fn bare_schemas_validate_values_only() {
        let v = ResourceValidator::for_schema(Structural::from_json(&spec_schema()).unwrap());
        let out = v.create(json!({"spec": {"replicas": "x"}}));
        assert_eq!(
            texts(&out.errors),
            ["spec.replicas: Invalid value: \"string\": spec.replicas in body must be of type integer: \"string\""]
        );
    }

    #[test]
    fn generated_names_are_bounded() {
        assert_eq!(generate_name(&"é".repeat(40)).len(), 58 + 5);
        assert_eq!(names::name_is_dns_subdomain("ab-", true), Vec::<String>::new());
        assert!(!names::name_is_dns_subdomain("ab-", false).is_empty());
    }
}
