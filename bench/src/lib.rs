//! Subjects and inputs of the benchmarks (design.md §9); the benchmarks are
//! in `benches/`, `cargo xtask bench` runs them and writes
//! `docs/benchmarks.md`.
//!
//! Inputs come from `../shared/corpus` beside the workspace: each case's
//! samples, repeated into one list of [`LIST_ITEMS`] objects.

use std::any::Any;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crd_schema::crd::{self, CustomResourceDefinition};
use crd_schema::pipeline;
use crd_schema::structural::Structural;
use serde::de::DeserializeOwned;
use serde_json::Value;

include!(concat!(env!("OUT_DIR"), "/subjects.rs"));

/// How many objects each case's list holds.
pub const LIST_ITEMS: usize = 500;

/// A decoded list, kept whole so that the benchmark drops it outside the
/// timed loop.
pub type Decoded = Box<dyn Any>;

/// The `items` of a `List`; every other field is ignored.
#[derive(Debug, serde::Deserialize, serde::Serialize)]
pub struct List<T> {
    /// The objects.
    pub items: Vec<T>,
}

/// One CRD version and its three decoders.
#[derive(Debug)]
pub struct Case {
    /// `<crd>/<version>`, the benchmark argument.
    pub name: &'static str,
    /// The CRD file, relative to `corpus/crds`.
    pub crd_file: &'static str,
    /// The objects' `apiVersion`.
    pub api_version: &'static str,
    /// The objects' `kind`.
    pub kind: &'static str,
    /// The version's name.
    pub version: &'static str,
    /// `serde_json::from_str` into a list of the generated type.
    pub typed: fn(&str) -> Result<Decoded, String>,
    /// `crd_schema::typed::from_str` (errors name their path) into the same.
    pub typed_paths: fn(&str) -> Result<Decoded, String>,
    /// `serde_json::from_str` into a list of the plain structs.
    pub plain: fn(&str) -> Result<Decoded, String>,
    /// The typed decoding encoded again, to compare with the dynamic path.
    pub typed_value: fn(&str) -> Result<Value, String>,
}

fn decode<T: DeserializeOwned + 'static>(json: &str) -> Result<Decoded, String> {
    serde_json::from_str::<List<T>>(json).map(|l| Box::new(l) as Decoded).map_err(|e| e.to_string())
}

fn decode_paths<T: DeserializeOwned + 'static>(json: &str) -> Result<Decoded, String> {
    crd_schema::typed::from_str::<List<T>>(json).map(|l| Box::new(l) as Decoded).map_err(|e| e.to_string())
}

fn encode<T: DeserializeOwned + serde::Serialize>(json: &str) -> Result<Value, String> {
    let list = serde_json::from_str::<List<T>>(json).map_err(|e| e.to_string())?;
    serde_json::to_value(list).map_err(|e| e.to_string())
}

/// `../shared/corpus` beside the workspace.
pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus")
}

/// Every manifest file below `dir`, sorted.
pub fn files_below(dir: &Path) -> Vec<PathBuf> {
    crd::manifest_files(dir).into_iter().flatten().collect()
}

/// Every sample object of the corpus, in file order (read once).
pub fn samples() -> &'static [Value] {
    static SAMPLES: OnceLock<Vec<Value>> = OnceLock::new();
    SAMPLES.get_or_init(|| {
        let mut out = Vec::new();
        for file in files_below(&corpus_dir().join("samples")) {
            if let Ok((_, _, docs)) = crd::read_documents(&file) {
                out.extend(docs.into_iter().map(|d| d.value));
            }
        }
        assert!(out.len() > 400, "the corpus at {} is missing", corpus_dir().display());
        out
    })
}

/// Every CRD of the corpus.
pub fn corpus_crds() -> Vec<CustomResourceDefinition> {
    let mut crds = Vec::new();
    for loaded in crd::load(&corpus_dir().join("crds")).into_iter().flatten() {
        crds.extend(loaded.crds.into_iter().map(|(_, c)| c));
    }
    crds
}

/// A case's input: its samples repeated into a list, and the version's
/// serving schema for the dynamic path.
#[derive(Debug)]
pub struct Input {
    /// The case.
    pub case: &'static Case,
    /// The list as JSON text.
    pub json: String,
    /// The schema the dynamic path prunes and defaults with.
    pub schema: Structural,
}

impl Input {
    /// The input of the case named `name`; `Err` says why there is none.
    pub fn load(name: &str, samples: &[Value]) -> Result<Self, String> {
        let case = CASES.iter().find(|c| c.name == name).ok_or_else(|| format!("no case {name}"))?;
        let path = corpus_dir().join("crds").join(case.crd_file);
        let loaded = crd::load(&path).into_iter().next().ok_or("no CRD")?.map_err(|e| e.to_string())?;
        let (_, crd) = loaded.crds.into_iter().next().ok_or("no CRD")?;
        let index = crd.spec.versions.iter().position(|v| v.name == case.version).ok_or("no version")?;
        let props = crd.spec.version_schema(index).ok_or("no schema")?;
        let schema = crd_schema::resource::serving_schema(props, &crd.metadata.name).map_err(|e| e.to_string())?;
        // Samples the server would store as they are and all three
        // decoders take, with typed and dynamic agreeing (design.md I2).
        let mine: Vec<&Value> = samples
            .iter()
            .filter(|s| s.get("apiVersion") == Some(&Value::from(case.api_version)))
            .filter(|s| s.get("kind") == Some(&Value::from(case.kind)))
            .filter(|s| {
                let one = list_json(&[(*s).clone()]);
                let dynamic = dynamic_one((*s).clone(), &schema);
                let typed = (case.typed_value)(&one);
                (case.plain)(&one).is_ok()
                    && matches!((dynamic, typed), (Ok(d), Ok(t)) if t.get("items").and_then(|i| i.get(0)) == Some(&d))
            })
            .collect();
        if mine.is_empty() {
            return Err(format!("{name}: no sample decodes"));
        }
        let items: Vec<Value> = mine.iter().cycle().take(LIST_ITEMS).map(|v| (*v).clone()).collect();
        Ok(Self { case, json: list_json(&items), schema })
    }

    /// The dynamic path: parse the list into a `Value`, then run the
    /// server's decode pipeline (prune, prune nulls, coerce metadata,
    /// default) on every item.
    pub fn dynamic(&self) -> Result<Vec<Value>, String> {
        let mut list: Value = serde_json::from_str(&self.json).map_err(|e| e.to_string())?;
        let items = match list.get_mut("items") {
            Some(Value::Array(items)) => std::mem::take(items),
            _ => return Err("no items".to_owned()),
        };
        items.into_iter().map(|item| dynamic_one(item, &self.schema)).collect()
    }

    /// Fails when the typed decoding and the dynamic path disagree on this
    /// input (design.md I2): the two benchmarks must do the same work.
    pub fn check(&self) -> Result<(), String> {
        let typed = (self.case.typed_value)(&self.json)?;
        let dynamic = self.dynamic()?;
        (self.case.plain)(&self.json)?;
        if typed.get("items").and_then(Value::as_array) != Some(&dynamic) {
            return Err(format!("{}: typed and dynamic decoding differ", self.case.name));
        }
        Ok(())
    }
}

fn list_json(items: &[Value]) -> String {
    serde_json::json!({"apiVersion": "v1", "kind": "List", "items": items}).to_string()
}

fn dynamic_one(item: Value, schema: &Structural) -> Result<Value, String> {
    pipeline::decode(item, Some(schema), &pipeline::Options::default()).map(|d| d.object).map_err(|e| e.to_string())
}

/// The names of the cases that have samples.
pub fn case_names() -> Vec<&'static str> {
    let samples = samples();
    CASES.iter().filter(|c| Input::load(c.name, samples).is_ok()).map(|c| c.name).collect()
}
