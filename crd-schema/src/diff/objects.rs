//! The objects a cluster stores today, run through both revisions of a
//! CRD as the API server runs them: what the new revision refuses or
//! drops that the old one did not.
//!
//! For each object of the CRD's group and kind, in the version its
//! `apiVersion` names:
//! 1. the old revision's create path gives the object as it is stored
//!    (pruned, defaulted);
//! 2. the new revision must serve that version, else the object cannot be
//!    read or written in it any more;
//! 3. an update of the stored object that changes nothing, under each
//!    revision (ratcheting applies: unchanged values pass the checks they
//!    would fail on a create), and the new revision's pruning of it: the
//!    errors and dropped fields the new revision adds are findings;
//! 4. a fresh create of the object as given, under each revision: the
//!    errors only the new revision has, and only when the old one
//!    accepted it, are findings too (a warning: updates still pass).
//!
//! These are the engine's own checks ([`ResourceValidator`]), not a
//! judgement: exact where the engine is.

use serde_json::Value;

use super::{Code, Finding, ObjectAt, Revision, Severity};
use crate::field::{ErrorList, Path};
use crate::resource::{PrepareError, ResourceValidator};
use crate::yaml::{Document, Position};

/// An object as stored today, with the file it was read from.
#[derive(Clone, Copy, Debug)]
pub struct StoredObject<'a> {
    /// The file, as given.
    pub file: &'a str,
    /// The object's document.
    pub document: &'a Document,
}

/// What the new revision refuses or drops of `objects` that the old one
/// did not. Objects of other CRDs (by group and kind) are passed over; a
/// list (`kind: List`, as `kubectl get -o yaml` writes, or the CRD's own
/// list kind) counts as its items, as [`crate::crd::flatten_lists`]
/// reads them.
pub fn diff_objects(old: Revision<'_>, new: Revision<'_>, objects: &[StoredObject<'_>]) -> Vec<Finding> {
    check_objects(old, new, objects).0
}

/// [`diff_objects`], and how many objects were of the CRD.
pub(super) fn check_objects(
    old: Revision<'_>,
    new: Revision<'_>,
    objects: &[StoredObject<'_>],
) -> (Vec<Finding>, usize) {
    let (mut out, mut checked) = (Vec::new(), 0);
    for object in objects {
        let items;
        let documents = if crate::crd::is_list(&object.document.value) {
            items = crate::crd::flatten_lists(vec![object.document.clone()]);
            items.as_slice()
        } else {
            std::slice::from_ref(object.document)
        };
        for document in documents {
            let value = &document.value;
            let Some(version) = version_of(new, value).or_else(|| version_of(old, value)) else {
                continue;
            };
            checked += 1;
            let name = object_name(value);
            let run = Run { file: object.file, document, name, crd: new.crd.metadata.name.clone(), version };
            run.check(old, new, &mut out);
        }
    }
    (out, checked)
}

/// The version an object of `revision`'s CRD is in, when it is one.
fn version_of(revision: Revision<'_>, value: &Value) -> Option<String> {
    let text = |k: &str| value.get(k).and_then(Value::as_str);
    let (group, version) = crate::crd::split_api_version(text("apiVersion")?);
    revision.crd.spec.defines(group, text("kind")?).then(|| version.to_owned())
}

/// `Kind namespace/name`, as findings name an object.
fn object_name(value: &Value) -> String {
    fn text(v: Option<&Value>) -> &str {
        v.and_then(Value::as_str).unwrap_or_default()
    }
    let meta = value.get("metadata");
    let (kind, namespace, name) =
        (text(value.get("kind")), text(meta.and_then(|m| m.get("namespace"))), text(meta.and_then(|m| m.get("name"))));
    let name = if name.is_empty() { "<no name>" } else { name };
    if namespace.is_empty() { format!("{kind} {name}") } else { format!("{kind} {namespace}/{name}") }
}

/// One object's checks.
struct Run<'o> {
    /// The file the object was read from.
    file: &'o str,
    /// The object: the document, or an item of a list in it, with its
    /// positions ([`crate::crd::flatten_lists`]).
    document: &'o Document,
    name: String,
    crd: String,
    version: String,
}

impl Run<'_> {
    fn check(&self, old: Revision<'_>, new: Revision<'_>, out: &mut Vec<Finding>) {
        let given = &self.document.value;
        let old_validator = ResourceValidator::from_crd(old.crd, &self.version);
        let new_validator = match ResourceValidator::from_crd(new.crd, &self.version) {
            Ok(v) => v,
            // Neither revision serves the version: nothing changes for it.
            Err(PrepareError::Version { .. }) if matches!(old_validator, Err(PrepareError::Version { .. })) => return,
            Err(PrepareError::Version { source, .. }) => {
                let reason =
                    format!("the new revision {source}: the object can no longer be read or written in its version");
                out.push(self.finding(Code::ObjectVersionNotServed, Severity::Error, "apiVersion", reason));
                return;
            }
            // A schema the API server refuses is a finding of the schema
            // comparison; nothing can be said of objects under it.
            Err(_) => return,
        };
        let old_validator = old_validator.ok();
        let created = old_validator.as_ref().map(|v| v.create(given.clone()));
        let old_accepts = created.as_ref().is_none_or(|c| c.is_valid());
        // The stored form: what the old revision made of the object.
        let stored = created.map_or_else(|| given.clone(), |c| c.object);
        let before = old_validator.as_ref().map(|v| v.update(stored.clone(), stored.clone()));
        let after = new_validator.update(stored.clone(), stored);
        let known = |errors: Option<&ErrorList>, e: &crate::field::FieldError| errors.is_some_and(|l| l.contains(e));
        let update_errors: Vec<_> =
            after.errors.iter().filter(|e| !known(before.as_ref().map(|b| &b.errors), e)).collect();
        for e in &update_errors {
            let reason = format!("refused on an update that changes nothing: {e}");
            out.push(self.finding(Code::ObjectRejectedOnUpdate, Severity::Error, &e.path.to_string(), reason));
        }
        let dropped_before = before.as_ref().map(|b| b.unknown_fields.as_slice()).unwrap_or_default();
        for path in after.unknown_fields.iter().filter(|p| !dropped_before.contains(p)) {
            let reason = "a stored field the new revision does not declare: dropped on the next write".to_owned();
            out.push(self.finding(Code::ObjectFieldsPruned, Severity::Error, path, reason));
        }
        if !old_accepts {
            return;
        }
        let created = new_validator.create(given.clone());
        for e in created.errors.iter().filter(|e| !after.errors.contains(e)) {
            let reason = format!("refused when created afresh (updates pass: ratcheting): {e}");
            out.push(self.finding(Code::ObjectRejectedOnCreate, Severity::Warning, &e.path.to_string(), reason));
        }
    }

    /// A finding about the field at `path` (as errors render it) of the
    /// object.
    fn finding(&self, code: Code, severity: Severity, path: &str, reason: String) -> Finding {
        let doc = self.document;
        let steps = if path == "<nil>" { Vec::new() } else { Path::new(path).steps() };
        let at: Position = doc.spans.nearest(&steps).unwrap_or(doc.start);
        Finding {
            version: Some(self.version.clone()),
            object: Some(ObjectAt { file: self.file.to_owned(), at, name: self.name.clone() }),
            ..Finding::new(code, severity, &self.crd, path, reason)
        }
    }
}
