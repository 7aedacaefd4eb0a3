//! The CRD as a whole and its versions: scope, names, conversion,
//! pruning, then each version (removed, no longer served, storage moved,
//! added, deprecated, subresources, printer columns) and, for a version
//! both revisions have, its schema ([`super::schema`]).

use std::collections::{HashMap, HashSet};

use super::{Change, Code, Findings, Place, Severity, schema};
use crate::crd::{CrdSpec, CrdVersion, CustomResourceDefinition, Subresources};
use crate::resource::serving_schema;
use crate::yaml::Step;

const V1: &str = "apiextensions.k8s.io/v1";

/// Every CRD-level and version-level change, and each shared version's
/// schema changes.
pub(super) fn compare<'a>(out: &mut Findings<'a>) {
    let (old, new) = (out.old.crd, out.new.crd);
    crd_level(out, &old.spec, &new.spec);
    let stored: Vec<&str> =
        [old, new].iter().flat_map(|c| c.status.stored_versions.iter().flatten()).map(String::as_str).collect();
    // By name, first of each name: a hostile CRD may list thousands.
    let by_name = |crd: &'a CustomResourceDefinition| -> HashMap<&'a str, usize> {
        crd.spec.versions.iter().enumerate().rev().map(|(i, v)| (v.name.as_str(), i)).collect()
    };
    let (old_names, new_names) = (by_name(old), by_name(new));
    for (oi, old_version) in old.spec.versions.iter().enumerate() {
        // The same place first, so that a name listed twice pairs up too.
        let same_place = new.spec.versions.get(oi).is_some_and(|v| v.name == old_version.name);
        let Some(ni) = (if same_place { Some(oi) } else { new_names.get(old_version.name.as_str()).copied() }) else {
            removed(out, oi, old_version, stored.contains(&old_version.name.as_str()));
            continue;
        };
        let new_version = &new.spec.versions[ni];
        served(out, (oi, old_version), (ni, new_version), stored.contains(&old_version.name.as_str()));
        subresources(out, (oi, ni), &old_version.name);
        printer_columns(out, (oi, ni), &old_version.name);
        schemas(out, (oi, ni), &old_version.name);
    }
    for (ni, version) in new.spec.versions.iter().enumerate() {
        if !old_names.contains_key(version.name.as_str()) {
            let steps = version_steps(ni);
            let place = Place { version: Some(&version.name), path: "spec.versions", old: &[], new: &steps };
            let reason = "a new version: nothing stored changes";
            out.push(&place, "", Change::new(Code::VersionAdded, Severity::Info, reason));
        }
    }
    let (old_storage, new_storage) = (old.spec.storage_version(), new.spec.storage_version());
    if old_storage != new_storage {
        let at = |crd: &CustomResourceDefinition, name: Option<&str>| {
            crd.spec.versions.iter().position(|v| Some(v.name.as_str()) == name).map(version_steps).unwrap_or_default()
        };
        let (old_steps, new_steps) = (at(old, old_storage), at(new, new_storage));
        let place = Place { version: None, path: "spec.versions[*].storage", old: &old_steps, new: &new_steps };
        let reason = "objects stay stored in the old version until they are written again: keep it served and \
                      listed (and in status.storedVersions) until a storage migration has rewritten them";
        let change = Change::new(Code::StorageVersionChanged, Severity::Warning, reason)
            .values(old_storage.map(str::to_owned), new_storage.map(str::to_owned));
        out.push(&place, "storage", change);
    }
}

/// The document steps of `spec.versions[i]`.
fn version_steps(i: usize) -> Vec<Step> {
    vec![Step::key("spec"), Step::key("versions"), Step::Index(i)]
}

/// The document steps of a version's part that the internal layout may
/// hoist (`schema`, `subresources`, `additionalPrinterColumns`): in the
/// version where a v1 manifest writes it or the version has its own, else
/// at the top level (v1beta1's `validation` for the schema).
fn part_steps(crd: &CustomResourceDefinition, i: usize, part: &str) -> Vec<Step> {
    let version = &crd.spec.versions[i];
    let own = match part {
        "schema" => version.schema.is_some(),
        "subresources" => version.subresources.is_some(),
        _ => !version.additional_printer_columns.is_empty(),
    };
    if crd.api_version == V1 || own {
        let mut steps = version_steps(i);
        steps.push(Step::key(part));
        steps
    } else {
        vec![Step::key("spec"), Step::key(if part == "schema" { "validation" } else { part })]
    }
}

// Scope, group and names, conversion and pruning: the API server keeps
// `scope` and `names.kind` immutable once the CRD is established, and the
// group (with the plural, the CRD's name) always.
fn crd_level(out: &mut Findings<'_>, old: &CrdSpec, new: &CrdSpec) {
    let at = |field: &str| vec![Step::key("spec"), Step::key(field)];
    if old.scope != new.scope {
        let steps = at("scope");
        let place = Place { version: None, path: "spec.scope", old: &steps, new: &steps };
        let reason =
            "the API server refuses a scope change once the CRD is established, and every client's URLs change";
        out.push(
            &place,
            "",
            Change::new(Code::ScopeChanged, Severity::Error, reason).values(some(&old.scope), some(&new.scope)),
        );
    }
    let names = [
        ("group", &old.group, &new.group, Severity::Error, "the CRD's name (plural.group) changes: it is another CRD"),
        (
            "names.plural",
            &old.names.plural,
            &new.names.plural,
            Severity::Error,
            "the CRD's name (plural.group) and every URL change: it is another CRD",
        ),
        (
            "names.kind",
            &old.names.kind,
            &new.names.kind,
            Severity::Error,
            "the API server refuses a kind change once the CRD is established, and every manifest names the old kind",
        ),
        (
            "names.singular",
            &old.names.singular,
            &new.names.singular,
            Severity::Warning,
            "kubectl commands that use the old singular name stop working",
        ),
        (
            "names.listKind",
            &old.names.list_kind,
            &new.names.list_kind,
            Severity::Warning,
            "clients that decode lists by kind see a new list kind",
        ),
    ];
    for (field, old_name, new_name, severity, reason) in names {
        if old_name != new_name {
            let mut steps = vec![Step::key("spec")];
            steps.extend(field.split('.').map(Step::key));
            let path = format!("spec.{field}");
            let place = Place { version: None, path: &path, old: &steps, new: &steps };
            out.push(
                &place,
                "",
                Change::new(Code::NamesChanged, severity, reason).values(some(old_name), some(new_name)),
            );
        }
    }
    for (field, old_list, new_list) in [
        ("shortNames", &old.names.short_names, &new.names.short_names),
        ("categories", &old.names.categories, &new.names.categories),
    ] {
        let (old_set, new_set): (HashSet<&String>, HashSet<&String>) =
            (old_list.iter().collect(), new_list.iter().collect());
        let gone: Vec<&String> = old_list.iter().filter(|n| !new_set.contains(n)).collect();
        let added = new_list.iter().any(|n| !old_set.contains(n));
        if gone.is_empty() && !added {
            continue;
        }
        let steps = vec![Step::key("spec"), Step::key("names"), Step::key(field)];
        let path = format!("spec.names.{field}");
        let place = Place { version: None, path: &path, old: &steps, new: &steps };
        let (severity, reason) = if gone.is_empty() {
            (Severity::Info, "only added: every old name still works".to_owned())
        } else {
            (Severity::Warning, format!("kubectl commands that use {} stop working", list(&gone)))
        };
        let change =
            Change::new(Code::NamesChanged, severity, reason).values(Some(list(old_list)), Some(list(new_list)));
        out.push(&place, "", change);
    }
    conversion(out, old, new);
    let (old_pruning, new_pruning) =
        (old.preserve_unknown_fields == Some(true), new.preserve_unknown_fields == Some(true));
    if old_pruning != new_pruning {
        let steps = at("preserveUnknownFields");
        let place = Place { version: None, path: "spec.preserveUnknownFields", old: &steps, new: &steps };
        let (severity, reason) = if old_pruning {
            (
                Severity::Error,
                "pruning turns on: every stored field the schemas do not declare is dropped on the next write",
            )
        } else {
            (Severity::Warning, "pruning turns off: unknown fields sent by clients are stored as sent")
        };
        let change = Change::new(Code::PruningChanged, severity, reason)
            .values(Some(old_pruning.to_string()), Some(new_pruning.to_string()));
        out.push(&place, "", change);
    }
}

// The conversion strategy decides how stored objects of one version are
// served in another; its webhook's address only where requests go.
fn conversion(out: &mut Findings<'_>, old: &CrdSpec, new: &CrdSpec) {
    let strategy = |s: &CrdSpec| s.conversion.as_ref().map_or("None", |c| c.strategy.as_str()).to_owned();
    let steps = vec![Step::key("spec"), Step::key("conversion")];
    let place = Place { version: None, path: "spec.conversion", old: &steps, new: &steps };
    let (old_strategy, new_strategy) = (strategy(old), strategy(new));
    if old_strategy != new_strategy {
        let reason = "objects stored in one version are served in the others another way: check that every \
                      stored version converts to every served one";
        let change = Change::new(Code::ConversionChanged, Severity::Warning, reason)
            .values(Some(old_strategy), Some(new_strategy));
        out.push(&place, "strategy", change);
    } else if old.conversion != new.conversion {
        let reason = "the conversion webhook's settings changed: requests go elsewhere, objects are unchanged";
        out.push(&place, "webhook", Change::new(Code::ConversionChanged, Severity::Info, reason));
    }
}

// A version removed: objects stored in it can no longer be read (the API
// server refuses a CRD whose status.storedVersions names a version it does
// not list), and clients of it get 404.
fn removed(out: &mut Findings<'_>, oi: usize, version: &CrdVersion, stored: bool) {
    let steps = version_steps(oi);
    let place = Place { version: Some(&version.name), path: "spec.versions", old: &steps, new: &[] };
    let (severity, reason) = if stored {
        (
            Severity::Error,
            "objects are stored in this version (status.storedVersions): the API server refuses the update until a storage migration has rewritten them and the version is dropped from storedVersions",
        )
    } else if version.served {
        (Severity::Error, "clients of this version get 404, and objects still stored in it can no longer be read")
    } else {
        (
            Severity::Warning,
            "not served already, but objects may still be stored in it: check status.storedVersions on the cluster",
        )
    };
    out.push(&place, "", Change::new(Code::VersionRemoved, severity, reason).values(Some(version.name.clone()), None));
}

// Served → not served: objects stay readable through the other versions,
// but clients of this one get 404. Not served → served: added again.
fn served(out: &mut Findings<'_>, (oi, old): (usize, &CrdVersion), (ni, new): (usize, &CrdVersion), stored: bool) {
    let (old_steps, new_steps) = (version_steps(oi), version_steps(ni));
    let place = Place { version: Some(&new.name), path: "spec.versions", old: &old_steps, new: &new_steps };
    let values = |a: bool, b: bool| (Some(format!("served: {a}")), Some(format!("served: {b}")));
    if old.served && !new.served {
        let (severity, reason) = if stored {
            (
                Severity::Error,
                "objects are stored in this version (status.storedVersions) and its clients get 404; migrate storage first",
            )
        } else {
            (
                Severity::Warning,
                "clients of this version get 404; objects stored in it are still served in the other versions",
            )
        };
        let (o, n) = values(true, false);
        out.push(&place, "served", Change::new(Code::VersionUnserved, severity, reason).values(o, n));
    } else if !old.served && new.served {
        let (o, n) = values(false, true);
        let change =
            Change::new(Code::VersionAdded, Severity::Info, "served again: nothing stored changes").values(o, n);
        out.push(&place, "served", change);
    }
    if !old.deprecated && new.deprecated {
        let reason = "clients of this version get a deprecation warning with every request";
        out.push(&place, "deprecated", Change::new(Code::VersionDeprecated, Severity::Info, reason));
    }
}

// The status subresource decides whether a write of the main resource can
// change `status` (it cannot while the subresource is on); scale maps
// replicas to fields of the object.
fn subresources(out: &mut Findings<'_>, (oi, ni): (usize, usize), name: &str) {
    let (old, new) = (out.old.crd, out.new.crd);
    let none = Subresources::default();
    let old_sub = old.spec.subresources_for_version(name).unwrap_or(&none);
    let new_sub = new.spec.subresources_for_version(name).unwrap_or(&none);
    let (old_steps, new_steps) = (part_steps(old, oi, "subresources"), part_steps(new, ni, "subresources"));
    let place = Place { version: Some(name), path: "subresources", old: &old_steps, new: &new_steps };
    if old_sub.status != new_sub.status {
        let reason = if new_sub.status {
            "writes of the main resource no longer change status, and status is written through /status: \
             controllers that update status with the main resource stop doing so"
        } else {
            "/status goes away: controllers that write status through it get 404"
        };
        let change = Change::new(Code::SubresourcesChanged, Severity::Warning, reason)
            .values(Some(format!("status: {}", old_sub.status)), Some(format!("status: {}", new_sub.status)));
        out.push(&place, "status", change);
    }
    if old_sub.scale != new_sub.scale {
        let show = |s: &Subresources| {
            s.scale
                .as_ref()
                .map_or("none".to_owned(), |s| format!("{}/{}", s.spec_replicas_path, s.status_replicas_path))
        };
        let reason =
            "the scale subresource changed: autoscalers and `kubectl scale` act on other fields, or not at all";
        let change = Change::new(Code::SubresourcesChanged, Severity::Warning, reason)
            .values(Some(show(old_sub)), Some(show(new_sub)));
        out.push(&place, "scale", change);
    }
}

fn printer_columns(out: &mut Findings<'_>, (oi, ni): (usize, usize), name: &str) {
    let (old, new) = (out.old.crd, out.new.crd);
    let (old_columns, new_columns) =
        (old.spec.printer_columns_for_version(name), new.spec.printer_columns_for_version(name));
    if old_columns == new_columns {
        return;
    }
    let names =
        |columns: &[crate::crd::PrinterColumn]| columns.iter().map(|c| c.name.clone()).collect::<Vec<_>>().join(", ");
    let old_steps = part_steps(old, oi, "additionalPrinterColumns");
    let new_steps = part_steps(new, ni, "additionalPrinterColumns");
    let place = Place { version: Some(name), path: "additionalPrinterColumns", old: &old_steps, new: &new_steps };
    let reason = "`kubectl get` prints other columns; objects are unchanged";
    let change = Change::new(Code::PrinterColumnsChanged, Severity::Info, reason)
        .values(Some(names(old_columns)), Some(names(new_columns)));
    out.push(&place, "", change);
}

// The schemas of one version in both revisions (or of two versions),
// in the form the API server serves (structural, defaults pruned); `name`
// labels the findings.
pub(super) fn schemas(out: &mut Findings<'_>, (oi, ni): (usize, usize), name: &str) {
    let (old, new) = (out.old.crd, out.new.crd);
    let mut old_steps = part_steps(old, oi, "schema");
    let mut new_steps = part_steps(new, ni, "schema");
    old_steps.push(Step::key("openAPIV3Schema"));
    new_steps.push(Step::key("openAPIV3Schema"));
    let place = Place { version: Some(name), path: ".", old: &old_steps, new: &new_steps };
    let (old_schema, new_schema) = (old.spec.version_schema(oi), new.spec.version_schema(ni));
    let (old_schema, new_schema) = match (old_schema, new_schema) {
        (Some(o), Some(n)) => (o, n),
        (None, None) => return,
        (None, Some(_)) => {
            let reason = "the version had no schema: every stored field the new schema does not declare is dropped";
            return out.push(&place, "", Change::new(Code::PruningChanged, Severity::Error, reason));
        }
        (Some(_), None) => {
            let reason = "the version has no schema any more: nothing is validated, defaulted or pruned";
            return out.push(&place, "", Change::new(Code::PruningChanged, Severity::Warning, reason));
        }
    };
    let new_structural = match serving_schema(new_schema, &new.metadata.name) {
        Ok(s) => s,
        Err(e) => {
            let reason = format!("the API server refuses it: {e}");
            return out.push(&place, "", Change::new(Code::SchemaNotStructural, Severity::Error, reason));
        }
    };
    match serving_schema(old_schema, &old.metadata.name) {
        Ok(old_structural) => schema::compare(out, &place, &old_structural, &new_structural),
        Err(e) => {
            let reason = format!("the old schema cannot be compared: {e}");
            out.push(&place, "", Change::new(Code::SchemaNotStructural, Severity::Warning, reason));
        }
    }
}

fn some(s: &str) -> Option<String> {
    Some(s.to_owned())
}

fn list(names: &[impl AsRef<str>]) -> String {
    names.iter().map(AsRef::as_ref).collect::<Vec<_>>().join(", ")
}
