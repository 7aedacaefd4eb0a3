//! CRD objects (v1, v1beta1) and specs in the internal layout: reading
//! them ([`super::read`]) or taking a [`CrdManifest`] built in Rust, the
//! v1 → internal conversion (fields equal in every version move to the top
//! level) and the API server's defaulting.

use serde_json::Value;

use super::read::{Layout, Reader};
use super::{Conversion, CrdSpec, CrdStatus, CrdVersion, CustomResourceDefinition, CustomResourceValidation};
use crate::objectmeta::ObjectMeta;
use crate::objectmeta::names::go_to_lower;
use crate::schema::{CrdManifest, CrdVersionManifest};
use crate::wire::DecodeIssue;
use crate::yaml::Step;

/// The defaulting of v1 and v1beta1 (`SetDefaults_CustomResourceDefinition`),
/// applied after conversion; the webhook service port is defaulted while
/// reading (see [`Reader`]).
fn apply_defaults(spec: &mut CrdSpec, status: &mut CrdStatus, layout: Layout) {
    if layout == Layout::V1beta1 {
        // v1beta1: `version` and `versions` fill each other in.
        if spec.version.is_empty()
            && let Some(first) = spec.versions.first()
        {
            spec.version.clone_from(&first.name);
        }
        if spec.versions.is_empty() && !spec.version.is_empty() {
            let only = CrdVersion { name: spec.version.clone(), served: true, storage: true, ..CrdVersion::default() };
            spec.versions.push(only);
        }
        if spec.scope.is_empty() {
            "Namespaced".clone_into(&mut spec.scope);
        }
        if spec.preserve_unknown_fields.is_none() {
            spec.preserve_unknown_fields = Some(true);
        }
    }
    if spec.names.singular.is_empty() {
        spec.names.singular = go_to_lower(&spec.names.kind).into_owned();
    }
    if spec.names.list_kind.is_empty() && !spec.names.kind.is_empty() {
        spec.names.list_kind = format!("{}List", spec.names.kind);
    }
    let conversion =
        spec.conversion.get_or_insert_with(|| Conversion { strategy: "None".to_owned(), ..Conversion::default() });
    if layout == Layout::V1beta1 && conversion.strategy == "Webhook" && conversion.conversion_review_versions.is_empty()
    {
        conversion.conversion_review_versions = vec!["v1beta1".to_owned()];
    }
    if status.stored_versions.as_ref().is_none_or(Vec::is_empty)
        && let Some(storage) = spec.storage_version()
    {
        status.stored_versions = Some(vec![storage.to_owned()]);
    }
}

/// The v1 → internal conversion: `version` is the first version's name,
/// an absent `preserveUnknownFields` is `false` (a plain bool in v1), and
/// each per-version field whose value is the same in every version moves
/// to the top level.
fn convert_v1(spec: &mut CrdSpec) {
    let Some(first) = spec.versions.first() else {
        spec.preserve_unknown_fields.get_or_insert(false);
        return;
    };
    spec.version.clone_from(&first.name);
    spec.preserve_unknown_fields.get_or_insert(false);
    spec.validation = take_if_identical(&mut spec.versions, |v| &mut v.schema);
    spec.subresources = take_if_identical(&mut spec.versions, |v| &mut v.subresources);
    spec.additional_printer_columns = take_if_identical(&mut spec.versions, |v| &mut v.additional_printer_columns);
    spec.selectable_fields = take_if_identical(&mut spec.versions, |v| &mut v.selectable_fields);
}

/// Takes `field` out of every version when all versions hold equal values
/// (an absent list is an empty one), returning that value; otherwise leaves
/// the versions alone and returns the default. The first version's value
/// is moved, not copied: a schema can be most of the CRD.
fn take_if_identical<T: Default + PartialEq>(
    versions: &mut [CrdVersion],
    field: impl Fn(&mut CrdVersion) -> &mut T,
) -> T {
    let Some((first, rest)) = versions.split_first_mut() else { return T::default() };
    let value = field(first);
    if rest.iter_mut().any(|v| *field(v) != *value) {
        return T::default();
    }
    rest.iter_mut().for_each(|v| *field(v) = T::default());
    std::mem::take(value)
}

pub(super) fn internal_spec(v: &Value) -> (CrdSpec, Vec<DecodeIssue>) {
    let mut reader = Reader::new(false);
    let spec = reader.spec(v, &[], Layout::Internal);
    (spec, reader.issues)
}

/// The layout of a CRD object, `None` when it is not one.
fn layout_of(doc: &Value) -> Option<Layout> {
    if doc.get("kind").and_then(Value::as_str) != Some("CustomResourceDefinition") {
        return None;
    }
    match doc.get("apiVersion").and_then(Value::as_str)? {
        "apiextensions.k8s.io/v1" => Some(Layout::V1),
        "apiextensions.k8s.io/v1beta1" => Some(Layout::V1beta1),
        _ => None,
    }
}

fn read(doc: &Value, layout: Layout, defaulting: bool) -> Option<CustomResourceDefinition> {
    let m = doc.as_object()?;
    let mut reader = Reader::new(defaulting);
    reader.known(m, &[], &["apiVersion", "kind", "metadata", "spec", "status"]);
    let metadata = reader.metadata(m.get("metadata"));
    let mut spec = reader.spec(m.get("spec").unwrap_or(&Value::Null), &[Step::Key("spec".into())], layout);
    let mut status = reader.status(m.get("status"), &[Step::Key("status".into())]);
    if defaulting {
        apply_defaults(&mut spec, &mut status, layout);
    }
    if layout == Layout::V1 {
        convert_v1(&mut spec);
    }
    let api_version = m.get("apiVersion").and_then(Value::as_str).unwrap_or_default().to_owned();
    Some(CustomResourceDefinition { api_version, metadata, spec, status, decode_issues: reader.issues })
}

/// A manifest built in Rust ([`CrdManifest`]), read as [`read`] reads its
/// v1 JSON but without writing it: the shared parts are cloned, each
/// version's schema (as the manifest writes it) is decoded with its issues
/// at their manifest paths, then the v1 defaulting and conversion apply.
pub(super) fn from_written(manifest: &CrdManifest) -> CustomResourceDefinition {
    let mut reader = Reader::new(true);
    let versions = manifest
        .spec
        .versions
        .iter()
        .enumerate()
        .map(|(i, version)| written_version(&mut reader, version, i))
        .collect();
    let mut spec = CrdSpec {
        group: manifest.spec.group.clone(),
        names: manifest.spec.names.clone(),
        scope: manifest.spec.scope.clone(),
        versions,
        ..CrdSpec::default()
    };
    let mut status = CrdStatus::default();
    apply_defaults(&mut spec, &mut status, Layout::V1);
    convert_v1(&mut spec);
    let metadata = ObjectMeta {
        name: manifest.metadata.name.clone(),
        labels: manifest.metadata.labels.clone(),
        annotations: manifest.metadata.annotations.clone(),
        ..ObjectMeta::default()
    };
    CustomResourceDefinition {
        api_version: manifest.api_version.clone(),
        metadata,
        spec,
        status,
        decode_issues: reader.issues,
    }
}

// Version `i` of a written manifest: a schema is always written, and
// subresources only when there are some.
fn written_version(reader: &mut Reader, version: &CrdVersionManifest, i: usize) -> CrdVersion {
    let key = Step::key;
    let path = [key("spec"), key("versions"), Step::Index(i), key("schema"), key("openAPIV3Schema")];
    let schema = reader.schema(&version.written_schema(), &path);
    CrdVersion {
        name: version.name.clone(),
        served: version.served,
        storage: version.storage,
        deprecated: version.deprecated,
        deprecation_warning: version.deprecation_warning.clone(),
        schema: Some(CustomResourceValidation { open_api_v3_schema: Some(schema) }),
        subresources: (!version.subresources.is_empty()).then(|| version.subresources.clone()),
        additional_printer_columns: version.additional_printer_columns.clone(),
        selectable_fields: version.selectable_fields.clone(),
    }
}

pub(super) fn from_manifest(doc: &Value) -> Option<CustomResourceDefinition> {
    read(doc, layout_of(doc)?, true)
}

pub(super) fn from_object(doc: &Value) -> Option<CustomResourceDefinition> {
    read(doc, layout_of(doc)?, false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crd::VersionError;
    use serde_json::json;

    #[test]
    fn v1_identical_schemas_are_hoisted() {
        let doc = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "foos.example.com"},
            "spec": {"group": "example.com", "scope": "Namespaced", "names": {"plural": "foos", "kind": "Foo"},
              "versions": [
                {"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {"type": "object"}}},
                {"name": "v2", "served": true, "storage": false, "schema": {"openAPIV3Schema": {"type": "object"}}}]}});
        let crd = CustomResourceDefinition::from_manifest(&doc).unwrap();
        assert!(crd.decode_issues.is_empty());
        assert!(crd.spec.validation.is_some());
        assert!(crd.spec.versions.iter().all(|v| v.schema.is_none()));
        assert_eq!(crd.spec.version_schema(1).unwrap().type_, "object");
        assert_eq!(crd.spec.names.list_kind, "FooList");
        assert_eq!(crd.spec.preserve_unknown_fields, Some(false));
        let mut differing = doc.clone();
        differing["spec"]["versions"][1]["schema"]["openAPIV3Schema"]["description"] = json!("v2");
        let crd = CustomResourceDefinition::from_manifest(&differing).unwrap();
        assert!(crd.spec.validation.is_none());
        let descriptions: Vec<_> = crd
            .spec
            .versions
            .iter()
            .map(|v| v.schema.as_ref().and_then(|s| Some(s.open_api_v3_schema.as_ref()?.description.clone())))
            .collect();
        assert_eq!(descriptions, [Some(String::new()), Some("v2".to_owned())]);
    }

    #[test]
    fn v1beta1_defaults() {
        let doc = json!({"apiVersion": "apiextensions.k8s.io/v1beta1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "foos.example.com"},
            "spec": {"group": "example.com", "version": "v1", "names": {"plural": "foos", "kind": "Foo"}, "bogus": 1}});
        let crd = CustomResourceDefinition::from_manifest(&doc).unwrap();
        assert_eq!(crd.spec.preserve_unknown_fields, Some(true));
        assert_eq!(crd.spec.versions.len(), 1);
        assert_eq!(crd.spec.scope, "Namespaced");
        assert_eq!(crd.decode_issues.len(), 1);
        assert_eq!(crd.decode_issues[0].message(""), "unknown field \"spec.bogus\"");
    }

    #[test]
    fn only_served_versions_take_objects() {
        let doc = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "foos.example.com"},
            "spec": {"group": "example.com", "scope": "Namespaced", "names": {"plural": "foos", "kind": "Foo"},
              "versions": [
                {"name": "v1", "served": false, "storage": true},
                {"name": "v2", "served": true, "storage": false},
                {"name": "v3", "served": true, "storage": false}]}});
        let spec = CustomResourceDefinition::from_manifest(&doc).unwrap().spec;
        assert_eq!(spec.served_versions().collect::<Vec<_>>(), ["v2", "v3"]);
        assert_eq!(spec.served_version("v3"), Ok(2));
        let not_served = spec.served_version("v1").unwrap_err();
        assert_eq!(not_served, VersionError::NotServed { version: "v1".to_owned(), served: "v2, v3".to_owned() });
        assert_eq!(not_served.to_string(), "does not serve version \"v1\" (served: v2, v3)");
        assert_eq!(spec.served_version("v4").unwrap_err().to_string(), "has no version \"v4\" (served: v2, v3)");
    }

    // A manifest built in Rust reads as its JSON does: the typed conversion
    // and the reader agree on every shared part, hoisted or not.
    #[test]
    fn a_written_manifest_converts_as_its_json_reads() {
        use crate::schema::{
            CrdManifestMetadata, CrdManifestSpec, Names, PrinterColumn, Scale, SelectableField, Subresources,
        };
        let schema = |default: Value| match json!({"type": "object", "properties": {
            "spec": {"type": "object", "default": default, "properties": {"b": {"type": "string"}, "a": {"type": "integer"}}}}})
        {
            Value::Object(map) => map,
            _ => unreachable!("an object literal"),
        };
        let scale = |selector: Option<&str>| Scale {
            spec_replicas_path: ".spec.replicas".into(),
            status_replicas_path: ".status.replicas".into(),
            label_selector_path: selector.map(str::to_owned),
        };
        let column = |name: &str| PrinterColumn {
            name: name.into(),
            type_: "string".into(),
            json_path: format!(".spec.{name}"),
            ..PrinterColumn::default()
        };
        let mut v1 = CrdVersionManifest::new("v1", schema(json!({"b": "x", "a": 1})));
        v1.subresources = Subresources { status: true, scale: Some(scale(Some(".status.selector"))) };
        let full = PrinterColumn { description: "d".into(), format: "byte".into(), priority: 1, ..column("b") };
        v1.additional_printer_columns = vec![column("a"), full];
        v1.selectable_fields = vec![SelectableField { json_path: ".spec.b".into() }];
        let mut v2 = CrdVersionManifest::new("v2", schema(json!({"a": 1, "b": "x"})));
        (v2.storage, v2.deprecated, v2.deprecation_warning) = (false, true, Some("use v1".into()));
        v2.subresources = Subresources { status: false, scale: Some(scale(None)) };
        v2.additional_printer_columns = v1.additional_printer_columns.clone();
        v2.selectable_fields = v1.selectable_fields.clone();
        let manifest = CrdManifest {
            api_version: "apiextensions.k8s.io/v1".into(),
            kind: "CustomResourceDefinition".into(),
            metadata: CrdManifestMetadata {
                name: "foos.example.com".into(),
                labels: [("app".to_owned(), "foo".to_owned())].into(),
                annotations: [("api-approved.kubernetes.io".to_owned(), "unapproved".to_owned())].into(),
            },
            spec: CrdManifestSpec {
                group: "example.com".into(),
                names: Names {
                    plural: "foos".into(),
                    kind: "Foo".into(),
                    short_names: vec!["fo".into()],
                    categories: vec!["all".into()],
                    ..Names::default()
                },
                scope: "Namespaced".into(),
                versions: vec![v1, v2],
            },
        };
        let typed = CustomResourceDefinition::from(&manifest);
        let json = serde_json::to_value(&manifest).unwrap();
        assert_eq!(Some(&typed), CustomResourceDefinition::from_manifest(&json).as_ref());
        // Equal schemas and columns are hoisted, different subresources are not.
        assert!(typed.decode_issues.is_empty() && typed.spec.validation.is_some());
        assert_eq!(typed.spec.printer_columns_for_version("v2").len(), 2);
        assert!(typed.spec.subresources.is_none());
        assert_eq!(
            typed.spec.subresources_for_version("v2"),
            Some(&Subresources { status: false, scale: Some(scale(None)) })
        );
        assert_eq!(typed.spec.names.singular, "foo");
        assert_eq!(typed.metadata.labels, manifest.metadata.labels);
        assert_eq!(typed.metadata.annotations, manifest.metadata.annotations);
        assert_eq!(typed.status.stored_versions, Some(vec!["v1".to_owned()]));
        // Data keys are sorted as written, so defaults apply in one order.
        let default =
            typed.spec.version_schema(0).and_then(|s| s.properties.as_ref()).and_then(|p| p[0].1.default.clone());
        assert_eq!(default.map(|d| serde_json::to_string(&d).unwrap()).as_deref(), Some(r#"{"a":1,"b":"x"}"#));
    }

    #[test]
    fn written_schema_problems_are_reported_at_their_manifest_paths() {
        let mut schema = crate::schema::Schema::new();
        schema.insert("type".into(), json!(5));
        let manifest = CrdManifest {
            api_version: "apiextensions.k8s.io/v1".into(),
            kind: "CustomResourceDefinition".into(),
            metadata: crate::schema::CrdManifestMetadata { name: "foos.example.com".into(), ..Default::default() },
            spec: crate::schema::CrdManifestSpec {
                group: "example.com".into(),
                names: crate::schema::Names { plural: "foos".into(), kind: "Foo".into(), ..Default::default() },
                scope: "Cluster".into(),
                versions: vec![CrdVersionManifest::new("v1", schema)],
            },
        };
        let typed = CustomResourceDefinition::from(&manifest);
        let issues: Vec<String> = typed.decode_issues.iter().map(|i| i.message("")).collect();
        assert_eq!(issues, [".spec.versions[0].schema.openAPIV3Schema.type: cannot decode: expected a string"]);
        let json = CustomResourceDefinition::from_manifest(&serde_json::to_value(&manifest).unwrap()).unwrap();
        assert_eq!(typed, json);
    }

    #[test]
    fn other_documents_are_not_crds() {
        assert!(CustomResourceDefinition::from_manifest(&json!({"apiVersion": "v1", "kind": "ConfigMap"})).is_none());
    }

    #[test]
    fn v1_objects_convert_to_the_internal_layout_without_defaults() {
        let doc = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "foos.example.com", "annotations": {"a": "b"}},
            "spec": {"group": "example.com", "names": {"plural": "foos", "kind": "Foo"},
              "versions": [
                {"name": "v1", "storage": true, "additionalPrinterColumns": [{"name": "A", "type": "string", "jsonPath": ".a"}],
                 "selectableFields": [{"jsonPath": ".a"}]},
                {"name": "v2", "additionalPrinterColumns": [{"name": "A", "type": "string", "jsonPath": ".a"}],
                 "selectableFields": [{"jsonPath": ".b"}]}],
              "conversion": {"strategy": "Webhook", "webhook": {"conversionReviewVersions": ["v1"],
                "clientConfig": {"service": {"namespace": "ns", "name": "n"}, "caBundle": "Q2c9PQ=="}}}},
            "status": {"storedVersions": [], "conditions": [{"type": "Established", "status": "True"}]}});
        let crd = CustomResourceDefinition::from_object(&doc).unwrap();
        assert!(crd.decode_issues.is_empty(), "{:?}", crd.decode_issues);
        assert_eq!(crd.spec.version, "v1");
        assert_eq!(crd.spec.names.singular, "");
        assert_eq!(crd.spec.preserve_unknown_fields, Some(false));
        assert_eq!(crd.spec.additional_printer_columns[0].json_path, ".a");
        assert!(crd.spec.versions.iter().all(|v| v.additional_printer_columns.is_empty()));
        assert!(crd.spec.selectable_fields.is_empty());
        assert_eq!(crd.spec.selectable_fields_for_version("v2")[0].json_path, ".b");
        let conversion = crd.spec.conversion.as_ref().unwrap();
        assert_eq!(conversion.conversion_review_versions, ["v1"]);
        let config = conversion.webhook_client_config.as_ref().unwrap();
        assert_eq!(config.ca_bundle, b"Cg==");
        assert_eq!(config.service.as_ref().unwrap().port, 0);
        assert_eq!(crd.status.stored_versions, Some(Vec::new()));
        assert!(crd.is_established());
        assert_eq!(crd.metadata.annotations["a"], "b");
        let defaulted = CustomResourceDefinition::from_manifest(&doc).unwrap();
        let config = defaulted.spec.conversion.unwrap().webhook_client_config.unwrap();
        assert_eq!(config.service.unwrap().port, 443);
        assert_eq!(defaulted.status.stored_versions, Some(vec!["v1".to_owned()]));
    }

    #[test]
    fn v1beta1_keeps_its_layout() {
        let doc = json!({"apiVersion": "apiextensions.k8s.io/v1beta1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "foos.example.com"},
            "spec": {"group": "example.com", "version": "v1", "names": {"plural": "foos", "kind": "Foo"},
              "additionalPrinterColumns": [{"name": "A", "type": "string", "JSONPath": ".a"}],
              "conversion": {"strategy": "Webhook", "webhookClientConfig": {"url": "https://h"}}}});
        let crd = CustomResourceDefinition::from_object(&doc).unwrap();
        assert!(crd.decode_issues.is_empty(), "{:?}", crd.decode_issues);
        assert!(crd.spec.versions.is_empty() && crd.spec.preserve_unknown_fields.is_none());
        assert_eq!(crd.spec.printer_columns_for_version("v1")[0].json_path, ".a");
        let defaulted = CustomResourceDefinition::from_manifest(&doc).unwrap();
        assert_eq!(defaulted.spec.conversion.unwrap().conversion_review_versions, ["v1beta1"]);
        let wrong = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": 5}, "spec": {"conversion": {"webhook": {"clientConfig": {"caBundle": "%"}}}}});
        let issues: Vec<String> = CustomResourceDefinition::from_object(&wrong)
            .unwrap()
            .decode_issues
            .iter()
            .map(|i| i.message(""))
            .collect();
        assert_eq!(issues.len(), 2, "{issues:?}");
        assert!(issues[0].starts_with(".metadata: cannot decode: expected object metadata (json: cannot unmarshal"));
        assert_eq!(issues[1], ".spec.conversion.webhook.clientConfig.caBundle: cannot decode: expected base64 data");
    }
}
