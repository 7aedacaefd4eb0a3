//! Checking CRDs: what the API server would say about a CRD, without a
//! cluster — its CRD validation
//! (`k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation`,
//! run as the registry's strategy runs it) and the NonStructuralSchema
//! condition (`k8s.io/apiextensions-apiserver/pkg/controller/nonstructuralschema`),
//! each finding located in the source document.
//!
//! Entry points:
//! - [`check_crd`]: one CRD of a document ([`crate::crd::load`] and
//!   [`crate::crd::parse_source`] give both);
//! - [`check_schema`]: a bare `openAPIV3Schema`, as the only version of a
//!   CRD.
//!
//! Both return a [`Report`]: the errors (what the API server rejects) and
//! warnings (what it records without rejecting), each a [`Finding`] with
//! the position of the field it is about. Rendering them (snippets,
//! JSON) is the caller's business. CEL rules are compiled and checked
//! with feature `cel`, as the API server does; without it they are not
//! looked at.
//!
//! Error policy: everything found is data; nothing here fails or panics.
//!
//! ```
//! use crd_schema::{check, crd};
//!
//! let text = "apiVersion: apiextensions.k8s.io/v1
//! kind: CustomResourceDefinition
//! metadata: {name: widgets.example.com}
//! spec:
//!   group: example.com
//!   scope: Namespaced
//!   names: {plural: widgets, kind: Widget}
//!   versions:
//!   - name: v1
//!     served: true
//!     storage: true
//!     schema:
//!       openAPIV3Schema: {type: object, properties: {spec: {type: bogus}}}
//! ";
//! let loaded = crd::parse_source("widgets.yaml", text.as_bytes()).unwrap();
//! let (doc, crd) = &loaded.crds[0];
//! let report = check::check_crd("widgets.yaml", doc, crd);
//! assert!(!report.is_valid());
//! let first = &report.errors[0];
//! assert!(first.text.contains("Unsupported value: \"bogus\""), "{}", first.text);
//! assert_eq!(first.at.map(|p| p.line), Some(13));
//! ```

use crate::crd::{CrdSpec, CrdVersion, CustomResourceDefinition, CustomResourceValidation};
use crate::field::{self, FieldError, Path};
use crate::structural;
use crate::validation;
use crate::wire::JSONSchemaProps;
use crate::yaml::{Document, Position, Step};

/// One finding with its position in the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// What is wrong, in Kubernetes' words (`spec.versions[0].schema...:
    /// Unsupported value: ...`).
    pub text: String,
    /// Where: the field the finding is about, or its nearest ancestor in
    /// the document; `None` when the document holds none of them.
    pub at: Option<Position>,
}

/// Everything said about one CRD or bare schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The file it is in, as given.
    pub file: String,
    /// The CRD's name; empty for a bare schema (and for a CRD without one).
    pub name: String,
    /// The CRD's `apiVersion`; empty for a bare schema.
    pub api_version: String,
    /// What the API server rejects.
    pub errors: Vec<Finding>,
    /// What it records without rejecting.
    pub warnings: Vec<Finding>,
}

impl Report {
    /// Whether the API server would accept it: no errors (warnings aside).
    pub fn is_valid(&self) -> bool {
        self.errors.is_empty()
    }
}

const V1: &str = "apiextensions.k8s.io/v1";

/// Checks one CRD of a document: decoding problems (wrong types, unknown
/// fields, as strict field validation reports them), then everything the
/// API server's CRD validation says about a create (v1) — for v1beta1,
/// which no current server serves, the rules that applied to it (those of
/// an update from itself) — as errors; the NonStructuralSchema condition,
/// pruning being off, served versions without a schema and the v1beta1
/// note as warnings. `file` is only copied into the report; of `doc`,
/// only the positions are read (its `value` may already be dropped).
pub fn check_crd(file: &str, doc: &Document, crd: &CustomResourceDefinition) -> Report {
    let v1 = crd.api_version == V1;
    let mut errors: Vec<Finding> = crd
        .decode_issues
        .iter()
        .map(|issue| Finding { text: issue.message(""), at: doc.spans.nearest(&issue.path) })
        .collect();
    errors.extend(field_findings(validate(crd), doc, v1));
    Report {
        file: file.to_owned(),
        name: crd.metadata.name.clone(),
        api_version: crd.api_version.clone(),
        errors,
        warnings: warnings(doc, crd),
    }
}

/// Checks a bare `openAPIV3Schema` (the whole of `doc`) as the only
/// version of a CRD: decoding problems, then the API server's schema
/// checks, with paths that start at the schema
/// (`openAPIV3Schema.properties[spec].type`). A bare schema draws no
/// warnings. `file` is only copied into the report.
pub fn check_schema(file: &str, doc: &Document) -> Report {
    let (schema, issues) = JSONSchemaProps::decode(&doc.value);
    let mut errors: Vec<Finding> = issues
        .iter()
        .map(|issue| Finding { text: issue.message("openAPIV3Schema"), at: doc.spans.nearest(&issue.path) })
        .collect();
    let spec = CrdSpec {
        group: "example.com".to_owned(),
        validation: Some(CustomResourceValidation { open_api_v3_schema: Some(schema) }),
        versions: vec![CrdVersion { name: "v1".to_owned(), served: true, storage: true, ..Default::default() }],
        preserve_unknown_fields: Some(false),
        ..Default::default()
    };
    let prefix = Path::new("spec").child("validation");
    for e in validation::validate_crd_schemas_create(&spec) {
        let e = FieldError { path: e.path.strip_prefix(&prefix).unwrap_or_else(|| e.path.clone()), ..e };
        let mut steps = document_steps(&e.path, false);
        // The document is the schema itself, not `{openAPIV3Schema: ...}`.
        if steps.first() == Some(&Step::Key("openAPIV3Schema".into())) {
            steps.remove(0);
        }
        errors.push(Finding { text: e.to_string(), at: doc.spans.nearest(&steps) });
    }
    Report { file: file.to_owned(), name: String::new(), api_version: String::new(), errors, warnings: Vec::new() }
}

fn field_findings(errors: Vec<FieldError>, doc: &Document, v1: bool) -> Vec<Finding> {
    errors
        .into_iter()
        .map(|e| {
            let steps = document_steps(&e.path, v1);
            Finding { text: e.to_string(), at: doc.spans.nearest(&steps) }
        })
        .collect()
}

/// What the API server says about `crd`: for v1 a create, for v1beta1 an
/// update from itself (the rules that applied when it was served). The
/// server's own preparation comes first: a create clears the status and
/// records the storage version; an update keeps the stored status, and the
/// stored object has a `resourceVersion` that an unconditional update
/// takes.
fn validate(crd: &CustomResourceDefinition) -> Vec<FieldError> {
    if crd.api_version == V1 {
        // Prepared without a copy: a large CRD's copy was a quarter of
        // `crd check`'s peak memory.
        return validation::validate_crd_create_request(crd);
    }
    let mut new = crd.clone();
    let mut stored = crd.clone();
    if stored.metadata.resource_version.is_empty() {
        "1".clone_into(&mut stored.metadata.resource_version);
    }
    new.prepare_for_update(&stored);
    validation::validate_crd_update(&new, &stored)
}

/// The NonStructuralSchema condition, pruning, and the v1beta1 note.
fn warnings(doc: &Document, crd: &CustomResourceDefinition) -> Vec<Finding> {
    let spec = &crd.spec;
    let mut out = Vec::new();
    let start = Some(doc.start);
    if crd.api_version != V1 {
        out.push(Finding {
            text: format!(
                "{} is not served since Kubernetes 1.22; checked with the rules that applied to it",
                crd.api_version
            ),
            at: start,
        });
    }
    let schemas: Vec<Option<&JSONSchemaProps>> = (0..spec.versions.len()).map(|i| spec.version_schema(i)).collect();
    let condition = structural::nonstructural_condition(spec.preserve_unknown_fields, &schemas);
    if !condition.is_empty() {
        let at = doc.spans.nearest(&[Step::key("spec")]);
        out.push(Finding { text: format!("NonStructuralSchema: {}", field::aggregate(&condition)), at });
    }
    if spec.preserve_unknown_fields == Some(true) {
        out.push(Finding {
            text: "pruning is off (spec.preserveUnknownFields: true): unknown fields are stored as sent".to_owned(),
            at: doc.spans.nearest(&[Step::key("spec"), Step::key("preserveUnknownFields")]).or(start),
        });
    }
    for (i, version) in spec.versions.iter().enumerate() {
        if version.served && spec.version_schema(i).is_none() && spec.preserve_unknown_fields != Some(true) {
            out.push(Finding { text: format!("version {} has no schema", version.name), at: start });
        }
    }
    out
}

// Findings carry the API server's paths, which name the internal layout of
// a CRD; a v1 document has another layout, so the path is mapped back to
// where the field is written. Names may hold dots
// (`openAPIV3Schema.type`). Hoisted fields (`spec.validation`,
// `spec.subresources`, `spec.additionalPrinterColumns`,
// `spec.selectableFields`) point into the first version, a column's
// `JSONPath` is `jsonPath`, and the webhook settings are under
// `spec.conversion.webhook`. A v1beta1 document has the internal layout.
pub(crate) fn document_steps(path: &Path, v1: bool) -> Vec<Step> {
    let mut steps = path.steps();
    if !v1 || steps.len() < 2 || steps[0] != Step::key("spec") {
        return steps;
    }
    let hoisted = match &steps[1] {
        Step::Key(k) if k == "validation" => Some("schema"),
        Step::Key(k) if k == "subresources" => Some("subresources"),
        Step::Key(k) if k == "additionalPrinterColumns" => Some("additionalPrinterColumns"),
        Step::Key(k) if k == "selectableFields" => Some("selectableFields"),
        _ => None,
    };
    if let Some(field) = hoisted {
        let mut head = vec![Step::key("spec"), Step::key("versions"), Step::Index(0), Step::key(field)];
        head.extend(steps.drain(2..));
        steps = head;
    }
    if steps.get(1) == Some(&Step::key("conversion"))
        && matches!(steps.get(2), Some(Step::Key(k)) if k == "webhookClientConfig" || k == "conversionReviewVersions")
    {
        let inner =
            if steps[2] == Step::key("webhookClientConfig") { Step::key("clientConfig") } else { steps[2].clone() };
        steps.splice(2..3, [Step::key("webhook"), inner]);
    }
    for i in 1..steps.len() {
        if steps[i] == Step::key("JSONPath")
            && steps.get(i.saturating_sub(2)) == Some(&Step::key("additionalPrinterColumns"))
        {
            steps[i] = Step::key("jsonPath");
        }
    }
    steps
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hoisted_paths_point_into_the_first_version() {
        let path = Path::new("spec").child("validation").child("openAPIV3Schema").child("properties").key("a.b");
        let steps = document_steps(&path, true);
        let keys: Vec<String> = steps
            .iter()
            .map(|s| match s {
                Step::Key(k) => k.clone(),
                Step::Index(i) => i.to_string(),
            })
            .collect();
        assert_eq!(keys, ["spec", "versions", "0", "schema", "openAPIV3Schema", "properties", "a.b"]);
        let column = Path::new("spec").child("additionalPrinterColumns").index(1).child("JSONPath");
        assert_eq!(
            document_steps(&column, true),
            [
                Step::key("spec"),
                Step::key("versions"),
                Step::Index(0),
                Step::key("additionalPrinterColumns"),
                Step::Index(1),
                Step::key("jsonPath")
            ]
        );
        let review = Path::new("spec").child("conversion").child("conversionReviewVersions").index(0);
        assert_eq!(
            document_steps(&review, true),
            [
                Step::key("spec"),
                Step::key("conversion"),
                Step::key("webhook"),
                Step::key("conversionReviewVersions"),
                Step::Index(0)
            ]
        );
        let url = Path::new("spec").child("conversion").child("webhookClientConfig").child("url");
        assert_eq!(document_steps(&url, true)[3], Step::key("clientConfig"));
        assert_eq!(document_steps(&url, false)[2], Step::key("webhookClientConfig"));
    }

    #[test]
    fn a_bare_schema_is_located_in_itself() {
        let docs = crate::yaml::parse_documents("s.yaml", "type: object\nproperties:\n  a: {type: bogus}\n").unwrap();
        let report = check_schema("s.yaml", &docs[0]);
        assert_eq!((report.name.as_str(), report.api_version.as_str()), ("", ""));
        assert_eq!(report.errors.len(), 1, "{report:?}");
        assert!(report.errors[0].text.starts_with("openAPIV3Schema.properties[a].type: Unsupported value"));
        assert_eq!(report.errors[0].at, Some(Position { line: 3, column: 13 }));
        assert!(report.warnings.is_empty());
    }

    #[test]
    fn v1beta1_and_not_pruning_are_warnings() {
        let text = "apiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\n\
            metadata: {name: widgets.example.com}\nspec:\n  group: example.com\n  scope: Namespaced\n  \
            names: {plural: widgets, kind: Widget}\n  version: v1\n  preserveUnknownFields: true\n";
        let loaded = crate::crd::parse_source("w.yaml", text.as_bytes()).unwrap();
        let (doc, crd) = &loaded.crds[0];
        let report = check_crd("w.yaml", doc, crd);
        assert!(report.is_valid(), "{report:?}");
        let warnings: Vec<&str> = report.warnings.iter().map(|f| f.text.as_str()).collect();
        assert_eq!(
            warnings,
            [
                "apiextensions.k8s.io/v1beta1 is not served since Kubernetes 1.22; checked with the rules that applied to it",
                "NonStructuralSchema: spec.preserveUnknownFields: Invalid value: true: must be false",
                "pruning is off (spec.preserveUnknownFields: true): unknown fields are stored as sent",
            ]
        );
        assert_eq!(report.warnings[2].at, Some(Position { line: 9, column: 26 }));
    }

    #[test]
    fn a_crd_is_checked_from_its_model_and_positions_alone() {
        // `crd check` drops each document's JSON before checking.
        let text = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n\
            metadata: {name: widgets.example.com}\nspec:\n  group: example.com\n  scope: Namespaced\n  \
            names: {plural: widgets, kind: Widget}\n  bogus: 1\n  versions:\n  - name: v1\n    served: true\n    \
            storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        \
            properties: {a: {type: bogus}, b: {anyOf: [{type: string}]}}\n";
        let mut loaded = crate::crd::parse_source("w.yaml", text.as_bytes()).unwrap();
        let (doc, crd) = &mut loaded.crds[0];
        let whole = check_crd("w.yaml", doc, crd);
        assert!(!whole.errors.is_empty() && !whole.warnings.is_empty(), "{whole:?}");
        assert!(whole.errors.iter().chain(&whole.warnings).all(|f| f.at.is_some()), "{whole:?}");
        doc.value = serde_json::Value::Null;
        assert_eq!(check_crd("w.yaml", doc, crd), whole);
    }
}
