//! Decoding lists of custom resources (design.md §9), per corpus CRD
//! version of `crd_bench::CASES`:
//!
//! - `plain`: `serde_json::from_str` into plain structs of the same shape
//!   that neither prune nulls nor default (the baseline);
//! - `typed`: the same into the generated types, which prune and default;
//! - `typed_paths`: `crd_schema::typed::from_str`, whose errors name paths;
//! - `dynamic`: parse into a `Value`, then the server's decode pipeline
//!   (prune, prune nulls, coerce metadata, default) on every item.
//!
//! Every input is checked first: typed and dynamic must give the same
//! objects, or the benchmark stops. Run: `cargo bench -p crd-bench --bench
//! decode`; `cargo xtask bench` reads the medians and prints the ratios.

use crd_bench::{Input, case_names, samples};

fn main() {
    divan::main();
}

fn input(name: &str) -> Input {
    let input = Input::load(name, samples()).unwrap_or_else(|e| panic!("{e}"));
    input.check().unwrap_or_else(|e| panic!("{e}"));
    input
}

#[divan::bench(args = case_names())]
fn plain(bencher: divan::Bencher<'_, '_>, name: &str) {
    let input = input(name);
    bencher.bench_local(|| (input.case.plain)(divan::black_box(&input.json)));
}

#[divan::bench(args = case_names())]
fn typed(bencher: divan::Bencher<'_, '_>, name: &str) {
    let input = input(name);
    bencher.bench_local(|| (input.case.typed)(divan::black_box(&input.json)));
}

#[divan::bench(args = case_names())]
fn typed_paths(bencher: divan::Bencher<'_, '_>, name: &str) {
    let input = input(name);
    bencher.bench_local(|| (input.case.typed_paths)(divan::black_box(&input.json)));
}

#[divan::bench(args = case_names())]
fn dynamic(bencher: divan::Bencher<'_, '_>, name: &str) {
    let input = input(name);
    bencher.bench_local(|| input.dynamic());
}
