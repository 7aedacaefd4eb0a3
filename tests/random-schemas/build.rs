//! Draws random structural CRDs with the strategies of `src/strategy/`
//! (deterministically, from a seed), writes them as JSON into
//! `OUT_DIR/crds/`, and generates Rust for each into `OUT_DIR`, plus
//! `random.rs`: the modules, `roundtrip(apiVersion, kind, value)` and
//! `crds()` as in `../corpus-types/build.rs`, and the CRDs' sources.
//!
//! All schemas go into this one crate: compiling generated code is the slow
//! part, and one crate compiles them in one go. `CRD_RANDOM_SCHEMAS` says
//! how many (default [`DEFAULT_CASES`], sized for CI), `CRD_RANDOM_SEED`
//! which (default [`DEFAULT_SEED`]). A CRD the generator refuses is not a
//! build failure: it is listed in `GENERATOR_ERRORS`, which a test asserts
//! is empty, so the other schemas are still tested.

// The build script uses the schema half of the strategies; the value half
// is for the tests.
#[allow(dead_code)]
#[path = "src/strategy/mod.rs"]
mod strategy;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Schemas drawn by default: compiling their types is most of the cost
/// (about 3 s a schema with incremental compilation on a 2-core machine,
/// 5 s without), so this keeps a cold build and test near two minutes in CI.
const DEFAULT_CASES: usize = 24;

/// The seed used unless `CRD_RANDOM_SEED` gives one.
const DEFAULT_SEED: u64 = 20_240_611;

fn env_number<T: std::str::FromStr>(name: &str, default: T) -> T {
    println!("cargo:rerun-if-env-changed={name}");
    match std::env::var(name) {
        Ok(text) if !text.trim().is_empty() => {
            text.trim().parse().unwrap_or_else(|_| panic!("{name}={text} is not a non-negative integer"))
        }
        _ => default,
    }
}

fn write(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
}

/// What the dispatch file collects per CRD.
#[derive(Default)]
struct Dispatch {
    modules: String,
    arms: String,
    crd_calls: String,
    sources: String,
    errors: Vec<String>,
}

impl Dispatch {
    fn add(&mut self, out: &Path, index: usize, crd: &serde_json::Value) {
        let name = crd["metadata"]["name"].as_str().expect("CRD name").to_owned();
        let file = format!("{name}.json");
        let text = serde_json::to_string_pretty(crd).expect("JSON");
        write(&out.join("crds").join(&file), &text);
        writeln!(self.sources, "    ({file:?}, include_str!(concat!(env!(\"OUT_DIR\"), \"/crds/{file}\"))),")
            .expect("write");
        let code = match crd_codegen::Builder::new().crd_source(&file, &text).generate() {
            Ok(code) => code,
            Err(e) => return self.errors.push(format!("{file}: {e}")),
        };
        let module = format!("random_{index}");
        write(&out.join(format!("{module}.rs")), &code);
        writeln!(self.modules, "pub mod {module} {{ include!(concat!(env!(\"OUT_DIR\"), \"/{module}.rs\")); }}")
            .expect("write");
        writeln!(self.crd_calls, "    out.extend({module}::crds().into_iter().map(|c| ({file:?}, c)));")
            .expect("write");
        let kind = crd["spec"]["names"]["kind"].as_str().expect("kind");
        let type_name = crd_codegen::naming::kind_type_name(kind);
        for version in crd["spec"]["versions"].as_array().expect("versions") {
            let version = version["name"].as_str().expect("version name");
            let api_version = format!("{}/{version}", strategy::GROUP);
            let version_module = crd_codegen::naming::snake(version);
            writeln!(
                self.arms,
                "        ({api_version:?}, {kind:?}) => Some(roundtrip_as::<{module}::{version_module}::{type_name}>(value)),"
            )
            .expect("write");
        }
    }

    fn render(&self, cases: usize, seed: u64, coverage: &str) -> String {
        let Dispatch { modules, arms, crd_calls, sources, errors } = self;
        format!(
            "{modules}
/// How many CRDs were drawn (`CRD_RANDOM_SCHEMAS`).
pub const CASES: usize = {cases};

/// The attribute vocabulary walked (`strategy::vocabulary`): for every key
/// that sets a keyword and every place it may stand, how many candidates
/// the API server's validation kept and how many were tried. The kept ones
/// are in the `Vocabulary*` CRDs of [`SOURCES`].
pub const VOCABULARY: &[(&str, &str, usize, usize)] = &[
{coverage}];

/// The seed they were drawn from (`CRD_RANDOM_SEED`).
pub const SEED: u64 = {seed};

/// Every drawn CRD: its file name in `OUT_DIR/crds` and its JSON.
pub const SOURCES: &[(&str, &str)] = &[
{sources}];

/// The CRDs the generator refused, with its error (must be none).
pub const GENERATOR_ERRORS: &[&str] = &{errors:?};

/// The directory holding the drawn CRDs as JSON files.
pub const CRD_DIR: &str = concat!(env!(\"OUT_DIR\"), \"/crds\");

/// Decodes `value` into the generated type for `api_version` and `kind` and
/// encodes it again; `None` when this crate has no such type.
#[allow(unused_variables)] // with `CRD_RANDOM_SCHEMAS=0`
pub fn roundtrip(api_version: &str, kind: &str, value: ::serde_json::Value) -> ::std::option::Option<::std::result::Result<::serde_json::Value, ::std::string::String>> {{
    match (api_version, kind) {{
{arms}        _ => None,
    }}
}}

/// Every CRD rebuilt by the derive from its generated types (`crds()` of
/// each generated file), with the name of the file it came from.
pub fn crds() -> ::std::vec::Vec<(&'static str, ::crd_schema::schema::CrdManifest)> {{
    #[allow(unused_mut)] // with `CRD_RANDOM_SCHEMAS=0`
    let mut out = ::std::vec::Vec::new();
{crd_calls}    out
}}

#[allow(dead_code)]
fn roundtrip_as<T: ::serde::de::DeserializeOwned + ::serde::Serialize>(value: ::serde_json::Value) -> ::std::result::Result<::serde_json::Value, ::std::string::String> {{
    let typed: T = ::crd_schema::typed::from_value(value).map_err(|e| e.to_string())?;
    ::serde_json::to_value(&typed).map_err(|e| e.to_string())
}}
"
        )
    }
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/strategy");
    let cases = env_number("CRD_RANDOM_SCHEMAS", DEFAULT_CASES);
    let seed = env_number("CRD_RANDOM_SEED", DEFAULT_SEED);
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    // Files of an earlier, larger run would linger in the directory that
    // `crd check` reads.
    let crd_dir = out.join("crds");
    let _ = std::fs::remove_dir_all(&crd_dir);
    std::fs::create_dir_all(&crd_dir).expect("create OUT_DIR/crds");
    let mut dispatch = Dispatch::default();
    for (index, crd) in strategy::draw(seed, cases).iter().enumerate() {
        dispatch.add(&out, index, crd);
    }
    let coverage = walk_vocabulary(&out, cases, &mut dispatch);
    write(&out.join("random.rs"), &dispatch.render(cases, seed, &coverage));
}

/// What `crd check` finds in `crd`, by the library calls it makes: decode
/// issues, CRD validation on create, and the structural condition.
fn check(crd: &serde_json::Value) -> Vec<String> {
    use crd_schema::crd::CustomResourceDefinition;
    use crd_schema::{structural, validation};
    let Some(mut parsed) = CustomResourceDefinition::from_manifest(crd) else { return vec!["not a CRD".to_owned()] };
    let mut out: Vec<String> = parsed.decode_issues.iter().map(|i| i.message("")).collect();
    parsed.prepare_for_create();
    out.extend(validation::validate_crd_create(&parsed).iter().map(ToString::to_string));
    let spec = &parsed.spec;
    let schemas: Vec<_> = (0..spec.versions.len()).map(|i| spec.version_schema(i)).collect();
    out.extend(
        structural::nonstructural_condition(spec.preserve_unknown_fields, &schemas).iter().map(|e| e.to_string()),
    );
    out
}

/// Walks the attribute vocabulary (`strategy::vocabulary`): keeps each
/// candidate the API server accepts alone, gathers a key's kept candidates
/// into one CRD (compiled with the drawn ones, after them), and returns
/// the coverage table's entries.
fn walk_vocabulary(out: &Path, first_index: usize, dispatch: &mut Dispatch) -> String {
    use strategy::vocabulary::{self, Candidate};
    let mut tried: Vec<(&str, crd_vocabulary::Place, usize, usize)> = Vec::new();
    let mut kept: Vec<(&str, Vec<Candidate>)> = Vec::new();
    for candidate in vocabulary::candidates() {
        let accepted = check(&vocabulary::alone(&candidate)).is_empty();
        match tried.iter_mut().find(|(a, p, _, _)| *a == candidate.attr && *p == candidate.place) {
            Some(entry) => {
                entry.2 += usize::from(accepted);
                entry.3 += 1;
            }
            None => tried.push((candidate.attr, candidate.place, usize::from(accepted), 1)),
        }
        if !accepted {
            continue;
        }
        match kept.iter_mut().find(|(a, _)| *a == candidate.attr) {
            Some((_, list)) => list.push(candidate),
            None => kept.push((candidate.attr, vec![candidate])),
        }
    }
    for (offset, (attr, candidates)) in kept.iter().enumerate() {
        let root = candidates.iter().find(|c| c.place == crd_vocabulary::Place::Type).map(|c| &c.schema);
        let properties = candidates
            .iter()
            .filter(|c| c.place != crd_vocabulary::Place::Type)
            .enumerate()
            .map(|(i, c)| (vocabulary::property(c, i), c.schema.clone()))
            .collect();
        let crd = vocabulary::crd(&vocabulary::kind(attr), vocabulary::root(root, properties));
        dispatch.add(out, first_index + offset, &crd);
    }
    let mut coverage = String::new();
    for (attr, place, accepted, all) in tried {
        let place = vocabulary::place_name(place);
        writeln!(coverage, "    ({attr:?}, {place:?}, {accepted}, {all}),").expect("write");
    }
    coverage
}
