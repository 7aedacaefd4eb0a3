//! Whether a new revision of a CRD is safe to apply over an old one: what
//! changes for the objects a cluster already stores and for the clients
//! that write them.
//!
//! Entry points:
//! - [`diff`]: compares two revisions of one CRD ([`Revision`]: the CRD
//!   and, for positions, its source document) and returns a [`Finding`]
//!   per change: the CRD as a whole (scope, names, conversion,
//!   subresources, printer columns, pruning), its versions (removed, no
//!   longer served, storage moved, added) and, for each version both
//!   revisions have, its schema, walked in parallel (fields, types,
//!   required fields, defaults, extensions, bounds, `enum`, `pattern`,
//!   `format`, list and map types, CEL rules with their estimated cost);
//! - [`diff_objects`]: runs the objects stored today through both
//!   revisions as the API server would (an update that changes nothing,
//!   which ratcheting lets through where values are unchanged; a fresh
//!   create; pruning) and reports each object the new revision rejects or
//!   whose stored fields it drops.
//!
//! Each finding has a [`Code`] (what `crd diff --allow` names) and a
//! [`Severity`]: [`Severity::Error`] when the change breaks stored objects
//! or the clients that write them, [`Severity::Warning`] when it may
//! (tightened validation: existing objects still pass updates that leave
//! the value alone, but creates with the old values fail),
//! [`Severity::Info`] when it does not. A change with no finding of error
//! or warning severity is safe ([`is_safe`]): every object the old
//! revision accepts, the new one accepts, and pruning keeps what it kept.
//!
//! Which parts are the API server's behaviour and which are judgement is
//! in docs/diff.md: the object checks run the engine itself; the schema
//! comparison is a static judgement that leans to warning when it cannot
//! tell.
//!
//! Error policy: nothing here fails. A version whose schema is not
//! structural is a finding, and its schema is not compared.
//!
//! ```
//! use crd_schema::{crd, diff};
//!
//! let crd = |max: u32| {
//!     let text = format!(
//!         "apiVersion: apiextensions.k8s.io/v1
//! kind: CustomResourceDefinition
//! metadata: {{name: widgets.example.com}}
//! spec:
//!   group: example.com
//!   scope: Namespaced
//!   names: {{plural: widgets, kind: Widget}}
//!   versions:
//!   - name: v1
//!     served: true
//!     storage: true
//!     schema:
//!       openAPIV3Schema:
//!         type: object
//!         properties:
//!           spec: {{type: object, properties: {{name: {{type: string, maxLength: {max}}}}}}}
//! "
//!     );
//!     crd::parse_source("widgets.yaml", text.as_bytes()).unwrap()
//! };
//! let (old, new) = (crd(64), crd(16));
//! let findings = diff::diff(diff::Revision::of(&old.crds[0]), diff::Revision::of(&new.crds[0]));
//! assert_eq!(findings.len(), 1);
//! let finding = &findings[0];
//! assert_eq!(finding.code.as_str(), "bound-tightened");
//! assert_eq!(finding.path, ".spec.name");
//! assert_eq!((finding.old.as_deref(), finding.new.as_deref()), (Some("maxLength: 64"), Some("maxLength: 16")));
//! assert_eq!(finding.new_at.map(|p| p.line), Some(16));
//! assert!(!diff::is_safe(&findings));
//! ```

mod objects;
mod schema;
mod versions;

use std::fmt;

use serde_json::Value;

use crate::crd::CustomResourceDefinition;
use crate::yaml::{Document, Position, Step};

pub use objects::{StoredObject, diff_objects};

/// How much a change matters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Changes nothing for stored objects or their clients.
    Info,
    /// May break objects or clients: look before applying.
    Warning,
    /// Breaks stored objects or the clients that write them.
    Error,
}

impl Severity {
    /// `info`, `warning` or `error`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

// One list of the codes, their names and what each is about.
macro_rules! codes {
    ($($(#[doc = $doc:literal])* $variant:ident = $name:literal,)*) => {
        /// What kind of change a finding is about. [`Code::as_str`] is its
        /// name in reports and for `crd diff --allow`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Code {
            $($(#[doc = $doc])* $variant,)*
        }

        impl Code {
            /// Every code, in the order of this list.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The code's name (`field-removed`).
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$variant => $name,)*
                }
            }
        }
    };
}

codes! {
    /// The API server refuses the new revision as an update of the old one
    /// (its CRD validation, exactly).
    UpdateRefused = "update-refused",
    /// A CRD of the old revision is not in the new one.
    CrdRemoved = "crd-removed",
    /// A CRD of the new revision was not in the old one.
    CrdAdded = "crd-added",
    /// `spec.scope` changed.
    ScopeChanged = "scope-changed",
    /// `spec.group` or a name of `spec.names` changed.
    NamesChanged = "names-changed",
    /// `spec.conversion` changed.
    ConversionChanged = "conversion-changed",
    /// A version's `status` or `scale` subresource changed.
    SubresourcesChanged = "subresources-changed",
    /// A version's `additionalPrinterColumns` changed.
    PrinterColumnsChanged = "printer-columns-changed",
    /// `spec.preserveUnknownFields` (v1beta1's pruning switch) changed.
    PruningChanged = "pruning-changed",
    /// A version is no longer listed.
    VersionRemoved = "version-removed",
    /// A version is listed but no longer served.
    VersionUnserved = "version-unserved",
    /// The storage version changed.
    StorageVersionChanged = "storage-version-changed",
    /// A version was added, or is served again.
    VersionAdded = "version-added",
    /// A version became deprecated.
    VersionDeprecated = "version-deprecated",
    /// A version's new schema is not structural: the API server refuses it.
    SchemaNotStructural = "schema-not-structural",
    /// A field is no longer declared.
    FieldRemoved = "field-removed",
    /// A field was declared.
    FieldAdded = "field-added",
    /// A field's `type` changed.
    TypeChanged = "type-changed",
    /// A field became required.
    FieldRequired = "field-required",
    /// A field is no longer required.
    FieldOptional = "field-optional",
    /// A field's `default` changed.
    DefaultChanged = "default-changed",
    /// A field's `default` was removed.
    DefaultRemoved = "default-removed",
    /// A field got a `default`.
    DefaultAdded = "default-added",
    /// `nullable: true` was removed.
    NullableRemoved = "nullable-removed",
    /// `nullable: true` was added.
    NullableAdded = "nullable-added",
    /// `x-kubernetes-preserve-unknown-fields: true` was removed.
    PreserveUnknownFieldsRemoved = "preserve-unknown-fields-removed",
    /// `x-kubernetes-preserve-unknown-fields: true` was added.
    PreserveUnknownFieldsAdded = "preserve-unknown-fields-added",
    /// `x-kubernetes-embedded-resource` changed.
    EmbeddedResourceChanged = "embedded-resource-changed",
    /// `x-kubernetes-int-or-string` changed.
    IntOrStringChanged = "int-or-string-changed",
    /// A bound (`maxLength`, `maximum`, `minItems`, `multipleOf`,
    /// `uniqueItems`, ...) admits fewer values.
    BoundTightened = "bound-tightened",
    /// A bound admits more values.
    BoundLoosened = "bound-loosened",
    /// `enum` admits fewer values.
    EnumNarrowed = "enum-narrowed",
    /// `enum` admits more values.
    EnumWidened = "enum-widened",
    /// `pattern` changed or was added.
    PatternChanged = "pattern-changed",
    /// `format` changed or was added.
    FormatChanged = "format-changed",
    /// `x-kubernetes-list-type` changed.
    ListTypeChanged = "list-type-changed",
    /// `x-kubernetes-list-map-keys` changed.
    MapKeysChanged = "map-keys-changed",
    /// `x-kubernetes-map-type` changed.
    MapTypeChanged = "map-type-changed",
    /// An `x-kubernetes-validations` rule was added.
    RuleAdded = "rule-added",
    /// A rule's message, reason, field path or `optionalOldSelf` changed.
    RuleChanged = "rule-changed",
    /// A rule was removed.
    RuleRemoved = "rule-removed",
    /// `allOf`, `anyOf`, `oneOf` or `not` changed.
    JunctorsChanged = "junctors-changed",
    /// A stored object fails an update that changes nothing.
    ObjectRejectedOnUpdate = "object-rejected-on-update",
    /// A stored object, created afresh, is refused (updates pass).
    ObjectRejectedOnCreate = "object-rejected-on-create",
    /// Fields of a stored object are dropped by the new revision's pruning.
    ObjectFieldsPruned = "object-fields-pruned",
    /// A stored object's version is not served by the new revision.
    ObjectVersionNotServed = "object-version-not-served",
}

impl Code {
    /// The code named `name`, if there is one.
    pub fn parse(name: &str) -> Option<Code> {
        Code::ALL.iter().copied().find(|c| c.as_str() == name)
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One change and what it means.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// What kind of change.
    pub code: Code,
    /// How much it matters.
    pub severity: Severity,
    /// The CRD it is about (its name in the new revision, or the old one's
    /// when removed).
    pub crd: String,
    /// The CRD version it is about; `None` for the CRD as a whole.
    pub version: Option<String>,
    /// Where: a field of the schema (`.spec.ports[*].name`, `[*]` for list
    /// items, `.*` for map values, `.` for the root), a field of the CRD
    /// (`spec.scope`), or an object (`Widget default/a`).
    pub path: String,
    /// The old value, as written (`maxLength: 64`, `"string"`).
    pub old: Option<String>,
    /// The new value.
    pub new: Option<String>,
    /// Why it matters, in one sentence.
    pub reason: String,
    /// Where the old node is in the old revision's source.
    pub old_at: Option<Position>,
    /// Where the new node is in the new revision's source.
    pub new_at: Option<Position>,
    /// For a finding about a stored object: its file and position.
    pub object: Option<ObjectAt>,
}

/// Where a stored object is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjectAt {
    /// Its file, as given.
    pub file: String,
    /// Where the field the finding is about is, or the object when the
    /// field is not in its source.
    pub at: Position,
    /// `Kind namespace/name`.
    pub name: String,
}

impl Finding {
    /// A finding about `path` of CRD `crd`, without a version, values,
    /// positions or object; the callers add what they know.
    fn new(code: Code, severity: Severity, crd: &str, path: &str, reason: String) -> Finding {
        Finding {
            code,
            severity,
            crd: crd.to_owned(),
            version: None,
            path: path.to_owned(),
            old: None,
            new: None,
            reason,
            old_at: None,
            new_at: None,
            object: None,
        }
    }
}

/// Whether none of `findings` is an error or a warning.
pub fn is_safe(findings: &[Finding]) -> bool {
    findings.iter().all(|f| f.severity == Severity::Info)
}

/// One revision of a CRD: the CRD and, to locate findings, the document
/// it was read from.
#[derive(Clone, Copy, Debug)]
pub struct Revision<'a> {
    /// The CRD.
    pub crd: &'a CustomResourceDefinition,
    /// Its source document; `None` leaves findings without positions.
    pub document: Option<&'a Document>,
}

impl<'a> Revision<'a> {
    /// A CRD as [`crate::crd::load`] and [`crate::crd::parse_source`] give
    /// it, with its document.
    pub fn of((document, crd): &'a (Document, CustomResourceDefinition)) -> Self {
        Self { crd, document: Some(document) }
    }

    /// The position of `steps` in the source, or of the nearest ancestor.
    fn locate(&self, steps: &[Step]) -> Option<Position> {
        self.document.and_then(|d| d.spans.nearest(steps))
    }

    /// The CRD's name.
    fn name(&self) -> &str {
        &self.crd.metadata.name
    }
}

/// Compares two revisions of one CRD: every change, CRD-level first, then
/// each version in the new revision's order.
pub fn diff(old: Revision<'_>, new: Revision<'_>) -> Vec<Finding> {
    let mut out = Findings { old, new, list: Vec::new() };
    update_refused(&mut out);
    versions::compare(&mut out);
    out.list
}

// What the API server says about the update itself: the new revision
// validated as an update of the old one as a cluster stores it —
// established, with its storage version in `status.storedVersions` (and
// the stored versions its file records) — after the server's own
// preparation. This is the engine's CRD validation, exactly; it also
// reports what is wrong with the new revision alone.
fn update_refused(out: &mut Findings<'_>) {
    let mut stored = out.old.crd.clone();
    if let Some(storage) = out.old.crd.spec.storage_version() {
        let versions = stored.status.stored_versions.get_or_insert_with(Vec::new);
        if !versions.iter().any(|v| v == storage) {
            versions.push(storage.to_owned());
        }
    }
    if !stored.is_established() {
        let established = crate::crd::CrdCondition {
            type_: "Established".to_owned(),
            status: "True".to_owned(),
            ..crate::crd::CrdCondition::default()
        };
        stored.status.conditions.push(established);
    }
    if stored.metadata.resource_version.is_empty() {
        "1".clone_into(&mut stored.metadata.resource_version);
    }
    let mut new = out.new.crd.clone();
    new.prepare_for_update(&stored);
    let v1 = out.new.crd.api_version == "apiextensions.k8s.io/v1";
    for e in crate::validation::validate_crd_update(&new, &stored) {
        let steps = crate::check::document_steps(&e.path, v1);
        let path = e.path.to_string();
        let place = Place { version: None, path: &path, old: &[], new: &steps };
        let reason = format!("the API server refuses the update: {e}");
        out.push(&place, "", Change::new(Code::UpdateRefused, Severity::Error, reason));
    }
}

/// Compares the schemas of two versions of one CRD, as if objects of
/// version `from` were served as `to` unchanged (conversion strategy
/// `None`): the schema findings of [`diff`], labelled `from → to`. `None`
/// when the CRD lacks either version.
pub fn diff_versions(crd: Revision<'_>, from: &str, to: &str) -> Option<Vec<Finding>> {
    let index = |name: &str| crd.crd.spec.versions.iter().position(|v| v.name == name);
    let (oi, ni) = (index(from)?, index(to)?);
    let mut out = Findings { old: crd, new: crd, list: Vec::new() };
    versions::schemas(&mut out, (oi, ni), &format!("{from} → {to}"));
    Some(out.list)
}

/// One CRD compared by [`diff_sets`]: its index among the old and the
/// new revisions given (`None` on the side that lacks it) and the
/// findings.
#[derive(Clone, Debug, PartialEq)]
pub struct Compared {
    /// The index of the old revision.
    pub old: Option<usize>,
    /// The index of the new revision.
    pub new: Option<usize>,
    /// What changed; for a CRD only one side has, one finding saying so.
    pub findings: Vec<Finding>,
    /// How many of the objects given were of this CRD (and ran through
    /// both revisions).
    pub objects: usize,
}

/// Compares two sets of CRDs (two checkouts of an operator's CRD files):
/// CRDs are paired by name (a lone CRD on each side is paired whatever its
/// names, so that a rename is a finding), each pair gets [`diff`] and
/// [`diff_objects`] with `objects`, and a CRD only one side has gets one
/// finding: removed (its objects are deleted with it) or added. In the
/// order of the new revisions, then the removed ones.
pub fn diff_sets(old: &[Revision<'_>], new: &[Revision<'_>], objects: &[StoredObject<'_>]) -> Vec<Compared> {
    let lone = old.len() == 1 && new.len() == 1;
    let mut out = Vec::new();
    for (ni, n) in new.iter().enumerate() {
        let oi = if lone { Some(0) } else { old.iter().position(|o| o.name() == n.name()) };
        let (findings, checked) = match oi {
            Some(oi) => {
                let mut findings = diff(old[oi], *n);
                let (of_objects, checked) = objects::check_objects(old[oi], *n, objects);
                findings.extend(of_objects);
                (findings, checked)
            }
            None => (vec![lone_finding(*n, Code::CrdAdded, Severity::Info, "a new CRD: nothing stored changes")], 0),
        };
        out.push(Compared { old: oi, new: Some(ni), findings, objects: checked });
    }
    for (oi, o) in old.iter().enumerate().filter(|(_, o)| !lone && !new.iter().any(|n| n.name() == o.name())) {
        let reason = "deleting a CRD deletes every object of it";
        let findings = vec![lone_finding(*o, Code::CrdRemoved, Severity::Error, reason)];
        out.push(Compared { old: Some(oi), new: None, findings, objects: 0 });
    }
    out
}

// A CRD that only one side has.
fn lone_finding(revision: Revision<'_>, code: Code, severity: Severity, reason: &str) -> Finding {
    let at = revision.document.map(|d| d.start);
    let (old_at, new_at) = if code == Code::CrdRemoved { (at, None) } else { (None, at) };
    Finding { old_at, new_at, ..Finding::new(code, severity, revision.name(), "metadata.name", reason.to_owned()) }
}

/// The findings of one comparison, and the revisions they locate in.
struct Findings<'a> {
    old: Revision<'a>,
    new: Revision<'a>,
    list: Vec<Finding>,
}

/// A change found, before it is located.
struct Change {
    code: Code,
    severity: Severity,
    old: Option<String>,
    new: Option<String>,
    reason: String,
}

impl Change {
    fn new(code: Code, severity: Severity, reason: impl Into<String>) -> Self {
        Self { code, severity, old: None, new: None, reason: reason.into() }
    }

    fn values(mut self, old: Option<String>, new: Option<String>) -> Self {
        self.old = old;
        self.new = new;
        self
    }
}

/// Where a change is: its path and version, and the document steps of the
/// node in each revision.
struct Place<'p> {
    version: Option<&'p str>,
    path: &'p str,
    old: &'p [Step],
    new: &'p [Step],
}

impl Findings<'_> {
    /// Records `change` at `place`; `keyword` (when not empty) names the
    /// key of the node the change is in, which locates it more closely.
    fn push(&mut self, place: &Place<'_>, keyword: &str, change: Change) {
        // No steps: the node is not in that revision (removed or added).
        let at = |steps: &[Step], side: &Revision<'_>| {
            if steps.is_empty() {
                None
            } else if keyword.is_empty() {
                side.locate(steps)
            } else {
                let mut steps = steps.to_vec();
                steps.push(Step::key(keyword));
                side.locate(&steps)
            }
        };
        self.list.push(Finding {
            version: place.version.map(str::to_owned),
            old: change.old,
            new: change.new,
            old_at: at(place.old, &self.old),
            new_at: at(place.new, &self.new),
            ..Finding::new(change.code, change.severity, self.new.name(), place.path, change.reason)
        });
    }
}

/// A value as findings show it: compact JSON.
fn show(value: &Value) -> String {
    value.to_string()
}

#[cfg(test)]
mod tests;
