//! The dynamic `validate` pipeline against parsing (design.md §9): every
//! corpus sample through the whole server path (`ResourceValidator::create`:
//! decode, prune, default, validate, CEL), against parsing the same JSON
//! text into a `serde_json::Value`.
//!
//! Run: `cargo bench -p crd-bench --bench validate`.

use std::collections::HashMap;

use crd_bench::{corpus_crds, samples};
use crd_schema::resource::ResourceValidator;
use serde_json::Value;

fn main() {
    divan::main();
}

/// Each sample as JSON text, with the validator of its CRD version.
struct Corpus {
    samples: Vec<(String, usize)>,
    validators: Vec<ResourceValidator>,
}

fn load() -> Corpus {
    let crds = corpus_crds();
    let mut index: HashMap<(usize, String), usize> = HashMap::new();
    let mut corpus = Corpus { samples: Vec::new(), validators: Vec::new() };
    for doc in samples() {
        let text = |key: &str| doc.get(key).and_then(Value::as_str).unwrap_or_default().to_owned();
        let (api_version, kind) = (text("apiVersion"), text("kind"));
        let (group, version) = api_version.rsplit_once('/').unwrap_or(("", api_version.as_str()));
        let Some(c) = crds.iter().position(|c| c.spec.group == group && c.spec.names.kind == kind) else {
            continue;
        };
        let key = (c, version.to_owned());
        let v = match index.get(&key) {
            Some(v) => *v,
            None => {
                let Ok(validator) = ResourceValidator::from_crd(&crds[c], version) else { continue };
                corpus.validators.push(validator);
                index.insert(key, corpus.validators.len() - 1);
                corpus.validators.len() - 1
            }
        };
        let json = serde_json::to_string(doc).unwrap_or_else(|e| panic!("{e}"));
        corpus.samples.push((json, v));
    }
    assert!(corpus.samples.len() > 400, "only {} samples have a CRD", corpus.samples.len());
    corpus
}

/// Parsing every sample's JSON into a `Value`: the baseline.
#[divan::bench]
fn parse_to_value(bencher: divan::Bencher<'_, '_>) {
    let corpus = load();
    // Each value is dropped as soon as it is built, as on the other side:
    // both sides time freeing what they built, one sample at a time, as a
    // validating loop does (holding every result until the end made both
    // sides' times swing by a quarter between runs).
    bencher
        .bench_local(|| corpus.samples.iter().filter(|(json, _)| serde_json::from_str::<Value>(json).is_ok()).count());
}

/// Parsing every sample and running the whole server path on it.
#[divan::bench]
fn parse_and_validate(bencher: divan::Bencher<'_, '_>) {
    let corpus = load();
    bencher.bench_local(|| {
        corpus
            .samples
            .iter()
            .filter_map(|(json, v)| serde_json::from_str::<Value>(json).ok().map(|value| (value, *v)))
            .map(|(value, v)| corpus.validators[v].create(value).errors.len())
            .sum::<usize>()
    });
}
