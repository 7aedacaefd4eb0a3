//! Validation throughput on the public corpus: every sample through the
//! whole server path (`ResourceValidator::create`: decode, prune, default,
//! validate, CEL with feature `cel`), against parsing the same JSON text
//! into a `serde_json::Value`. The ratio of the two is what to read.
//!
//! Run: `cargo bench -p crd-schema --features cel --bench validate`. The
//! corpus is read from `../shared/corpus` beside the workspace.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crd_schema::crd::{self, CustomResourceDefinition};
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

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus")
}

fn files_below(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() { files_below(&path, out) } else { out.push(path) }
    }
}

fn load() -> Corpus {
    let mut crds: Vec<CustomResourceDefinition> = Vec::new();
    for loaded in crd::load(&corpus_dir().join("crds")).into_iter().flatten() {
        crds.extend(loaded.crds.into_iter().map(|(_, c)| c));
    }
    let mut files = Vec::new();
    files_below(&corpus_dir().join("samples"), &mut files);
    let mut index: HashMap<(usize, String), usize> = HashMap::new();
    let mut corpus = Corpus { samples: Vec::new(), validators: Vec::new() };
    for file in files {
        let Ok((_, _, docs)) = crd::read_documents(&file) else { continue };
        for doc in docs {
            let text = |key: &str| doc.value.get(key).and_then(Value::as_str).unwrap_or_default().to_owned();
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
            corpus.samples.push((serde_json::to_string(&doc.value).unwrap_or_default(), v));
        }
    }
    assert!(corpus.samples.len() > 400, "the corpus at {} is missing", corpus_dir().display());
    corpus
}

/// Parsing every sample's JSON into a `Value`: the baseline.
#[divan::bench]
fn parse_to_value(bencher: divan::Bencher<'_, '_>) {
    let corpus = load();
    bencher.bench(|| {
        for (json, _) in &corpus.samples {
            divan::black_box(serde_json::from_str::<Value>(json).ok());
        }
    });
}

/// Parsing every sample and running the whole server path on it.
#[divan::bench]
fn parse_and_validate(bencher: divan::Bencher<'_, '_>) {
    let corpus = load();
    bencher.bench(|| {
        for (json, v) in &corpus.samples {
            if let Ok(value) = serde_json::from_str::<Value>(json) {
                divan::black_box(corpus.validators[*v].create(value).errors.len());
            }
        }
    });
}
