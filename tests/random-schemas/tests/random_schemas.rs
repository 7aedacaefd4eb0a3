//! design.md I2, I3 and I4 on random structural schemas: the CRDs the build
//! script drew (`random_schemas::SOURCES`, `CRD_RANDOM_SCHEMAS` of them
//! from `CRD_RANDOM_SEED`) pass `crd check`; the CRDs the derive rebuilds
//! from their generated types equal them after `crd_tests::normalise`; and
//! random objects decoded by the generated types and encoded again equal
//! what the API server's pipeline stores (numbers compared by value, as
//! `typed_corpus.rs` does), while ill-typed values are errors naming their
//! path. `CRD_RANDOM_OBJECTS` sets the objects drawn per CRD version.
//!
//! `properties/diff.rs` holds `crd diff` to its promise on random
//! schemas, each with one random change.
//!
//! A failure prints the seed; `CRD_RANDOM_SEED=<seed> cargo test -p
//! random-schemas` replays it, and the CRD's JSON is in
//! `random_schemas::CRD_DIR`.

#[path = "properties/diff.rs"]
mod diff;

use std::cell::Cell;

use crd_schema::crd::CustomResourceDefinition;
use crd_schema::field::Path;
use crd_schema::pipeline::{self, Options};
use crd_schema::structural::{self, Structural, new_structural};
use crd_schema::{defaulting, validation, value_validation};
use crd_tests::first_difference;
use crd_tests::normalise::normalise_crd;
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{Config, TestCaseError, TestError};
use random_schemas::strategy::{self, value};
use serde_json::{Value, json};

/// Objects drawn per CRD version unless `CRD_RANDOM_OBJECTS` says otherwise.
const DEFAULT_OBJECTS: u32 = 64;

/// Extra CRDs drawn (not compiled) to check the schema strategy itself.
const STRATEGY_CASES: usize = 300;

fn objects_per_version() -> u32 {
    std::env::var("CRD_RANDOM_OBJECTS").ok().and_then(|n| n.parse().ok()).unwrap_or(DEFAULT_OBJECTS)
}

fn sources() -> Vec<Value> {
    random_schemas::SOURCES.iter().map(|(_, text)| serde_json::from_str(text).expect("drawn CRD is JSON")).collect()
}

/// What `crd check` says about a CRD (errors and warnings), by the library
/// calls the command makes.
fn check(crd: &Value) -> Vec<String> {
    let parsed = CustomResourceDefinition::from_manifest(crd).expect("a CRD");
    let spec = &parsed.spec;
    let mut out: Vec<String> = parsed.decode_issues.iter().map(|i| i.message("")).collect();
    let mut created = parsed.clone();
    created.prepare_for_create();
    out.extend(validation::validate_crd_create(&created).iter().map(ToString::to_string));
    let schemas: Vec<_> = (0..spec.versions.len()).map(|i| spec.version_schema(i)).collect();
    let condition = structural::nonstructural_condition(spec.preserve_unknown_fields, &schemas);
    out.extend(condition.iter().map(|e| format!("NonStructuralSchema: {e}")));
    out
}

/// The replay hint printed with every failure.
fn replay() -> String {
    format!(
        "replay with CRD_RANDOM_SEED={} CRD_RANDOM_SCHEMAS={} cargo test -p random-schemas",
        random_schemas::SEED,
        random_schemas::CASES
    )
}

#[test]
fn the_generator_accepts_every_drawn_crd() {
    assert!(
        random_schemas::GENERATOR_ERRORS.is_empty(),
        "the generator refused {} CRDs ({}):\n{}",
        random_schemas::GENERATOR_ERRORS.len(),
        replay(),
        random_schemas::GENERATOR_ERRORS.join("\n")
    );
}

#[test]
fn every_drawn_crd_passes_crd_check() {
    let failures: Vec<String> = sources()
        .iter()
        .filter_map(|crd| {
            let found = check(crd);
            (!found.is_empty()).then(|| format!("{}:\n  {}", crd["metadata"]["name"], found.join("\n  ")))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} drawn CRDs fail `crd check` ({}):\n{}",
        failures.len(),
        replay(),
        failures.join("\n")
    );
    let (code, out, err) = crd_tests::crd(&["check", random_schemas::CRD_DIR]);
    let n = random_schemas::SOURCES.len();
    let summary = format!("checked {n} CRDs: {n} valid, 0 invalid; 0 errors, 0 warnings");
    assert!(code == 0 && out.contains(&summary), "{out}{err}");
}

#[test]
fn the_schema_strategy_draws_only_valid_crds() {
    let seed = random_schemas::SEED ^ 0x5eed;
    let failures: Vec<String> = strategy::draw(seed, STRATEGY_CASES)
        .iter()
        .filter_map(|crd| {
            let found = check(crd);
            (!found.is_empty()).then(|| format!("{crd}\n  {}", found.join("\n  ")))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {STRATEGY_CASES} CRDs drawn from seed {seed} fail `crd check`:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// I3 (and I4): the CRD the derive rebuilds from the generated types equals
/// the drawn one after the documented normalisation, and passes `crd check`.
#[test]
fn derived_crds_equal_the_drawn_ones() {
    let originals = sources();
    let mut failures = Vec::new();
    let derived = random_schemas::crds();
    for (file, manifest) in &derived {
        let Some(original) = originals.iter().find(|c| c["metadata"]["name"] == manifest.metadata.name.as_str()) else {
            failures.push(format!("{file}: no drawn CRD named {}", manifest.metadata.name));
            continue;
        };
        let (want, got) = (normalise_crd(original), normalise_crd(&manifest.to_value()));
        if let Some(path) = first_difference(&want, &got) {
            let at = |v: &Value| crd_tests::value_at(v, &path);
            failures.push(format!("{file}: differs at {path}:\n  drawn:   {}\n  rebuilt: {}", at(&want), at(&got)));
        }
        if let Err(report) = crd_tests::check_derived(manifest) {
            failures.push(format!("{file}: the rebuilt CRD fails `crd check`:\n{report}"));
        }
    }
    println!("I3: {} random CRDs rebuilt and compared, {} failures", derived.len(), failures.len());
    assert_eq!(derived.len(), random_schemas::SOURCES.len() - random_schemas::GENERATOR_ERRORS.len());
    assert!(failures.is_empty(), "{} failures ({}):\n{}", failures.len(), replay(), failures.join("\n"));
}

/// Where the generator never writes a key although the derive takes it
/// there, each with the API server's reason: the only type-level keywords
/// of generated code are the root's, and the root is an object.
const UNREACHABLE: &[(&str, &str, &str)] = &[
    ("type_", "type", "the root's type is `object`, which its struct gives"),
    ("default", "type", "the API server refuses a default at the root"),
    ("default_json", "type", "the API server refuses a default at the root"),
    ("list_type", "type", "the root is an object, and list types are for arrays"),
    ("list_map_keys", "type", "the root is an object, and map keys are for map lists"),
    ("values", "type", "the API server refuses `additionalProperties` at the root beside `properties`"),
];

/// The attribute vocabulary walked exhaustively (I3 over the table): every
/// key that sets a schema keyword, at every place the generator writes
/// keywords (root type, field, items and map values, junctor), stands on
/// at least one node the API server accepts, and those nodes are in the
/// `Vocabulary*` CRDs that the tests above check (generated, compiled,
/// derived back, compared, `crd check`). The places no CRD can reach are
/// listed in [`UNREACHABLE`] with their reason, and must stay unreachable.
#[test]
fn every_keyword_stands_at_every_place() {
    let mut unreached = Vec::new();
    for (attr, place, kept, tried) in random_schemas::VOCABULARY {
        let expected = UNREACHABLE.iter().any(|(a, p, _)| a == attr && p == place);
        if (*kept == 0) != expected {
            unreached.push(format!("{attr} at {place}: {kept} of {tried} candidates kept"));
        }
    }
    for key in crd_vocabulary::KEYS.iter().filter(|k| k.json.is_some()) {
        for place in strategy::vocabulary::PLACES.into_iter().filter(|p| key.places.contains(*p)) {
            let name = strategy::vocabulary::place_name(place);
            if !random_schemas::VOCABULARY.iter().any(|(a, p, _, _)| *a == key.attr && *p == name) {
                unreached.push(format!("{} at {name}: never tried", key.attr));
            }
        }
    }
    let kinds = random_schemas::SOURCES.iter().filter(|(file, _)| file.starts_with("vocabulary")).count();
    let kept: usize = random_schemas::VOCABULARY.iter().map(|(_, _, kept, _)| kept).sum();
    println!("vocabulary: {} key × place pairs, {kept} nodes kept, in {kinds} CRDs", random_schemas::VOCABULARY.len());
    assert!(unreached.is_empty(), "the vocabulary walk misses:\n{}", unreached.join("\n"));
    assert!(kinds >= crd_vocabulary::KEYS.iter().filter(|k| k.json.is_some()).count());
}

/// A CRD version as the API server serves it, with its schema's JSON for
/// the value strategies.
struct Served {
    crd: String,
    api_version: String,
    kind: String,
    json: Value,
    schema: Structural,
}

/// The drawn CRDs' served versions. The vocabulary CRDs are left out:
/// they put keywords where they have no effect or contradict the type
/// (`enum: ["a"]` on an object), so values drawn from them are not
/// well-typed; they are for I3 and I4.
fn served_versions() -> Vec<Served> {
    let mut out = Vec::new();
    let drawn = random_schemas::SOURCES.iter().map(|(file, text)| (file, serde_json::from_str::<Value>(text)));
    for crd in drawn.filter(|(file, _)| !file.starts_with("vocabulary")).filter_map(|(_, crd)| crd.ok()) {
        let parsed = CustomResourceDefinition::from_manifest(&crd).expect("a CRD");
        for (i, version) in parsed.spec.versions.iter().enumerate() {
            let wire = parsed.spec.version_schema(i).expect("every drawn version has a schema");
            let mut schema = new_structural(wire).expect("structural");
            defaulting::prune_defaults(&mut schema).expect("defaults prune");
            out.push(Served {
                crd: parsed.metadata.name.clone(),
                api_version: format!("{}/{}", parsed.spec.group, version.name),
                kind: parsed.spec.names.kind.clone(),
                json: crd["spec"]["versions"][i]["schema"]["openAPIV3Schema"].clone(),
                schema,
            });
        }
    }
    out
}

fn typed(served: &Served, object: Value) -> Result<Value, String> {
    random_schemas::roundtrip(&served.api_version, &served.kind, object)
        .unwrap_or_else(|| panic!("no generated type for {} {}", served.api_version, served.kind))
}

/// Compares the typed path with the pipeline on one object; returns
/// whether the API server would accept the stored object.
fn compare(served: &Served, object: &Value) -> Result<bool, String> {
    let expected = pipeline::decode(object.clone(), Some(&served.schema), &Options::default())
        .map_err(|e| format!("the pipeline refused it: {e}"))?
        .object;
    let accepted = value_validation::validate(&expected, &served.schema, &Path::root()).is_empty();
    let actual = typed(served, object.clone()).map_err(|e| format!("a well-typed object failed to decode: {e}"))?;
    match first_difference(&actual, &expected) {
        None => Ok(accepted),
        Some(path) => Err(format!("typed and dynamic differ at {path}\n  typed:   {actual}\n  dynamic: {expected}")),
    }
}

/// A runner for the `index`-th served version: deterministic for the seed,
/// shrinking a failure to a small object.
fn runner(index: usize) -> proptest::test_runner::TestRunner {
    let config = Config { cases: objects_per_version(), failure_persistence: None, ..Config::default() };
    strategy::runner(config, random_schemas::SEED.wrapping_add(index as u64))
}

fn failure_text(served: &Served, error: TestError<impl std::fmt::Debug>) -> String {
    match error {
        TestError::Fail(reason, input) => {
            format!("{} {} ({}): {reason}\n  minimal input: {input:?}", served.api_version, served.kind, served.crd)
        }
        TestError::Abort(reason) => format!("{} {}: aborted: {reason}", served.api_version, served.kind),
    }
}

/// I2 on random objects of every drawn version.
#[test]
fn typed_equals_dynamic_on_random_objects() {
    let versions = served_versions();
    let (checked, accepted) = (Cell::new(0usize), Cell::new(0usize));
    let mut failures = Vec::new();
    for (index, served) in versions.iter().enumerate() {
        let objects = value::resource(&served.json, &served.api_version, &served.kind);
        let outcome = runner(index).run(&objects, |object| {
            let ok = compare(served, &object).map_err(TestCaseError::fail)?;
            checked.set(checked.get() + 1);
            accepted.set(accepted.get() + usize::from(ok));
            Ok(())
        });
        if let Err(error) = outcome {
            failures.push(failure_text(served, error));
        }
    }
    println!(
        "random schemas: {} CRDs, {} versions, {} objects checked ({} the API server would accept), seed {}",
        random_schemas::CASES,
        versions.len(),
        checked.get(),
        accepted.get(),
        random_schemas::SEED
    );
    println!("objects avoid the documented differences: {}", value::KNOWN_DIFFERENCES.join("; "));
    println!("schemas avoid known bugs: {}", strategy::schema::RESTRICTIONS.join("; "));
    assert!(failures.is_empty(), "{} versions fail I2 ({}):\n{}", failures.len(), replay(), failures.join("\n\n"));
}

/// A place in an object where a value of the wrong type must fail decoding:
/// its display path (as typed errors write it) and a JSON pointer.
#[derive(Clone, Debug)]
struct Place {
    path: String,
    pointer: String,
    wrong: Value,
}

/// A value of the wrong JSON type for `schema`, or `None` where the
/// generated type takes any value (`serde_json::Value`).
fn wrong_value(schema: &Value) -> Option<Value> {
    let flag = |k: &str| schema.get(k) == Some(&Value::Bool(true));
    if flag("x-kubernetes-int-or-string") {
        return Some(json!(true));
    }
    let preserve = flag("x-kubernetes-preserve-unknown-fields");
    match schema.get("type").and_then(Value::as_str).unwrap_or_default() {
        "string" => Some(json!(42)),
        "integer" | "number" | "boolean" | "array" => Some(json!("wrong")),
        "object" if preserve && schema.get("properties").is_none() && !flag("x-kubernetes-embedded-resource") => None,
        "object" => Some(json!("wrong")),
        _ => None,
    }
}

/// Every place below `value` (whose schema is `schema`) with a typed schema.
fn places(schema: &Value, value: &Value, path: &str, pointer: &str, resource: bool, out: &mut Vec<Place>) {
    let embedded = resource || schema.get("x-kubernetes-embedded-resource") == Some(&Value::Bool(true));
    let mut visit = |child: &Value, v: &Value, path: String, pointer: String| {
        if let Some(wrong) = wrong_value(child)
            && !v.is_null()
        {
            out.push(Place { path: path.clone(), pointer: pointer.clone(), wrong });
            places(child, v, &path, &pointer, false, out);
        }
    };
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                if embedded && ["apiVersion", "kind", "metadata"].contains(&key.as_str()) {
                    continue;
                }
                let child = schema
                    .get("properties")
                    .and_then(|p| p.get(key))
                    .or_else(|| schema.get("additionalProperties").filter(|a| a.is_object()));
                if let Some(child) = child {
                    let step = pointer_step(key);
                    let path = if path.is_empty() { key.clone() } else { format!("{path}.{key}") };
                    visit(child, v, path, format!("{pointer}/{step}"));
                }
            }
        }
        Value::Array(items) => {
            if let Some(child) = schema.get("items") {
                for (i, v) in items.iter().enumerate() {
                    visit(child, v, format!("{path}[{i}]"), format!("{pointer}/{i}"));
                }
            }
        }
        _ => {}
    }
}

fn pointer_step(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// Ill-typed input is an error naming the JSON path, never a silent change.
#[test]
fn ill_typed_values_are_errors_naming_their_path() {
    let versions = served_versions();
    let checked = Cell::new(0usize);
    let mut failures = Vec::new();
    for (index, served) in versions.iter().enumerate() {
        let cases = (value::resource(&served.json, &served.api_version, &served.kind), any::<Index>());
        let outcome = runner(index + 1_000_000).run(&cases, |(object, index)| {
            let mut found = Vec::new();
            places(&served.json, &object, "", "", true, &mut found);
            // Objects that fail I2 already are that test's to report.
            if found.is_empty() || typed(served, object.clone()).is_err() {
                return Ok(());
            }
            let place = index.get(&found);
            let mut object = object.clone();
            *object.pointer_mut(&place.pointer).expect("the place exists") = place.wrong.clone();
            checked.set(checked.get() + 1);
            match typed(served, object) {
                Ok(actual) => Err(TestCaseError::fail(format!(
                    "{} = {} decoded without error: {actual}",
                    place.path, place.wrong
                ))),
                Err(error) if error.starts_with(&format!("{}: ", place.path)) => Ok(()),
                Err(error) => Err(TestCaseError::fail(format!(
                    "{} = {}: the error does not name it: {error}",
                    place.path, place.wrong
                ))),
            }
        });
        if let Err(error) = outcome {
            failures.push(failure_text(served, error));
        }
    }
    println!("ill-typed objects: {} checked, each an error naming its path", checked.get());
    assert!(failures.is_empty(), "{} versions fail ({}):\n{}", failures.len(), replay(), failures.join("\n\n"));
}
