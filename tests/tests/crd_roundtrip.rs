//! design.md I3 and I4 on the corpus: for every v1 CRD, the CRD that
//! `#[derive(CustomResourceSchema)]` rebuilds from its generated types
//! (`crds()` of the generated file) equals the original after the
//! normalisation of `crd_tests::normalise` (which lists every difference it
//! ignores), and passes `crd check` as a CRD of its own.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crd_schema::schema::CrdManifest;
use crd_tests::normalise::normalise_crd;
use crd_tests::{crd, first_difference};
use serde_json::Value;

type Crds = fn() -> Vec<(&'static str, CrdManifest)>;

/// Every crate of generated corpus types.
const CRATES: &[Crds] = &[
    corpus_argo_cd::crds,
    corpus_cert_manager::crds,
    corpus_controller_tools::crds,
    corpus_external_secrets::crds,
    corpus_flux_keda_velero::crds,
    corpus_kyverno::crds,
    corpus_prometheus::crds,
    corpus_tekton::crds,
];

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/crds")
}

/// The v1 CRDs of the files under `dir` by `metadata.name`.
fn originals(dir: &std::path::Path) -> BTreeMap<String, Value> {
    let mut out = BTreeMap::new();
    for file in crd_schema::crd::manifest_files(dir) {
        let file = file.expect("CRD file");
        let (_, _, documents) = crd_schema::crd::read_documents(&file).expect("CRD file reads");
        for doc in documents {
            if doc.value.get("apiVersion").and_then(Value::as_str) == Some("apiextensions.k8s.io/v1") {
                let name = doc.value.pointer("/metadata/name").and_then(Value::as_str).unwrap_or_default().to_owned();
                out.insert(name, doc.value);
            }
        }
    }
    out
}

/// The first difference of each derived CRD from its original, and how
/// many had an original to compare with.
fn differences(originals: &BTreeMap<String, Value>, derived: &[(&str, CrdManifest)]) -> (Vec<String>, usize) {
    let mut failures = Vec::new();
    let mut compared = 0;
    for (file, manifest) in derived {
        let name = &manifest.metadata.name;
        let Some(original) = originals.get(name) else { continue };
        compared += 1;
        let (want, got) = (normalise_crd(original), normalise_crd(&manifest.to_value()));
        if let Some(path) = first_difference(&want, &got) {
            let at = |v: &Value| crd_tests::value_at(v, &path);
            failures.push(format!("{file} ({name}): differs at {path}: original {} rebuilt {}", at(&want), at(&got)));
        }
    }
    (failures, compared)
}

#[test]
fn derived_crds_equal_the_corpus() {
    let originals = originals(&corpus());
    let derived: Vec<(&str, CrdManifest)> = CRATES.iter().flat_map(|crds| crds()).collect();
    let (failures, compared) = differences(&originals, &derived);
    println!("I3: {compared} corpus v1 CRDs compared, {} differ", failures.len());
    assert_eq!(compared, originals.len(), "every corpus v1 CRD has generated types");
    assert!(failures.is_empty(), "{} of {compared} differ:\n{}", failures.len(), failures.join("\n"));
}

/// I3 and I4 on the repository's hostile CRDs (tests/hostile-crds): names
/// and keywords in unusual but legal places (`required` on an array,
/// `items` and `enum` on an object, preservation on an array of bare
/// objects, a float64 bound beyond 2^53; a kind named `Result`, which the
/// generated module's short paths must not mean) come back as they were,
/// and the rebuilt CRDs pass `crd check`.
#[test]
fn hostile_crds_survive_the_round_trip() {
    let originals = originals(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("hostile-crds"));
    let derived = generated_hostile::crds();
    let (failures, compared) = differences(&originals, &derived);
    assert_eq!(compared, originals.len(), "every hostile CRD has generated types");
    assert!(compared >= 3, "{compared}");
    assert!(failures.is_empty(), "{} of {compared} differ:\n{}", failures.len(), failures.join("\n"));
    for (_, manifest) in derived.iter().filter(|(_, m)| originals.contains_key(&m.metadata.name)) {
        if let Err(report) = crd_tests::check_derived(manifest) {
            panic!("{}: {report}", manifest.metadata.name);
        }
    }
}

#[test]
fn derived_crds_pass_crd_check() {
    let dir = crd_tests::scratch("crd-roundtrip", "check");
    let mut files = 0;
    for crds in CRATES {
        for (_, manifest) in crds() {
            let path = dir.join(format!("{}.json", manifest.metadata.name));
            std::fs::write(&path, manifest.to_json()).expect("write CRD");
            files += 1;
        }
    }
    let dir_arg = dir.display().to_string();
    let (code, out, err) = crd(&["check", &dir_arg]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(files >= 114, "{files}");
    let summary = format!("checked {files} CRDs: {files} valid, 0 invalid; 0 errors, 0 warnings");
    assert!(out.contains(&summary), "{out}");
}

/// The CRDs rebuilt from the types generated for tests/loose-crds (with
/// `allow_non_structural`) are structural, and the API server accepts them.
#[test]
fn crds_rebuilt_from_loose_types_pass_crd_check() {
    let loose: Vec<CrdManifest> = generated_hostile::crds()
        .into_iter()
        .filter(|(file, _)| ["gadgets.example.com.yaml", "unions.example.com.yaml"].contains(file))
        .map(|(_, manifest)| manifest)
        .collect();
    assert_eq!(loose.len(), 2);
    for manifest in &loose {
        if let Err(report) = crd_tests::check_derived(manifest) {
            panic!("{}: {report}", manifest.metadata.name);
        }
    }
}
