//! Generator throughput on the whole corpus (design.md §9): parse, check,
//! generate and format every CRD file (`Builder::generate`, one builder
//! per file), against parsing the same YAML alone; and the whole corpus
//! directory through one builder (`catalogue`), as a build script or
//! `cargo xtask gen` over a catalogue of CRDs runs it.
//!
//! Run: `cargo bench -p crd-bench --bench generate`.

use crd_bench::{corpus_dir, files_below};

fn main() {
    divan::main();
}

/// Every corpus CRD file as (name, text).
fn files() -> Vec<(String, String)> {
    let files: Vec<(String, String)> = files_below(&corpus_dir().join("crds"))
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (path.display().to_string(), text)
        })
        .collect();
    assert!(files.len() >= 100, "the corpus at {} is missing", corpus_dir().display());
    for (name, text) in &files {
        if let Err(e) = crd_codegen::Builder::new().crd_source(name, text).generate() {
            panic!("{name}: {e}");
        }
    }
    files
}

/// Parsing every file's YAML into values: the baseline. One iteration
/// takes about a second, so 20 samples say enough.
#[divan::bench(sample_count = 20)]
fn yaml_parse(bencher: divan::Bencher<'_, '_>) {
    let files = files();
    bencher.bench_local(|| {
        files
            .iter()
            .map(|(name, text)| crd_schema::yaml::parse_documents(name, text).map(|d| d.len()))
            .collect::<Vec<_>>()
    });
}

/// Parse, structural check, generate and format every file.
#[divan::bench(sample_count = 20)]
fn generate(bencher: divan::Bencher<'_, '_>) {
    let files = files();
    bencher.bench_local(|| {
        files
            .iter()
            .map(|(name, text)| crd_codegen::Builder::new().crd_source(name, text).generate().map(|t| t.len()))
            .collect::<Vec<_>>()
    });
}

/// One builder over the whole corpus directory: every CRD in one file.
#[divan::bench(sample_count = 20)]
fn catalogue(bencher: divan::Bencher<'_, '_>) {
    let dir = corpus_dir().join("crds");
    let mut builder = crd_codegen::Builder::new();
    builder.crd(&dir);
    if let Err(e) = builder.generate() {
        panic!("{}: {e}", dir.display());
    }
    bencher.bench_local(|| builder.generate().map(|t| t.len()));
}
