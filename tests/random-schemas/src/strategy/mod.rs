//! Proptest strategies for random structural CRDs and for objects of their
//! schemas. The build script includes this module by path to draw the CRDs
//! it generates Rust for; the tests use it through the library.
//!
//! Entry points: [`crd`] (a v1 CRD around one or two random schemas),
//! [`draw`] (CRDs from a seed, deterministically, as the build script does),
//! [`value::resource`] (random objects for a schema) and
//! [`value::KNOWN_DIFFERENCES`] (the shapes objects avoid).

pub mod schema;
pub mod value;
pub mod vocabulary;

use proptest::prelude::*;
use proptest::sample::select;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::{Value, json};

/// The API group of every random CRD.
pub const GROUP: &str = "random.example.com";

/// How many levels of structs, maps and arrays a schema nests below `spec`.
const DEPTH: u32 = 3;

/// A `(kind, plural)` pair for the `index`-th CRD: `Random<index>`.
pub fn names(index: usize) -> (String, String) {
    (format!("Random{index}"), format!("random{index}s"))
}

/// A random CRD named by `index` with one or two versions (the second
/// with its own schema or the same one) and the CRD-level fields that
/// generated types carry: scope, short names, categories, the status
/// subresource and printer columns.
pub fn crd(index: usize) -> BoxedStrategy<Value> {
    let (kind, plural) = names(index);
    (
        schema::root(DEPTH),
        proptest::option::weighted(0.3, (any::<bool>(), schema::root(DEPTH - 1))),
        select(&["Namespaced", "Cluster"][..]),
        any::<(bool, bool, bool)>(),
        proptest::option::weighted(0.2, select(&["Removed in v2: use */ instead", "deprecated ✓"][..])),
    )
        .prop_map(move |(first, second, scope, (short, status, columns), deprecation)| {
            let version = |name: &str, storage: bool, schema: &Value| {
                let mut v = json!({"name": name, "served": true, "storage": storage,
                    "schema": {"openAPIV3Schema": schema}});
                if status {
                    v["subresources"] = json!({"status": {}});
                }
                if columns {
                    v["additionalPrinterColumns"] = json!([
                        {"name": "Age", "type": "date", "jsonPath": ".metadata.creationTimestamp"},
                        {"name": "Name", "type": "string", "jsonPath": ".metadata.name", "description": "The `name` */", "priority": 1},
                    ]);
                }
                v
            };
            let mut versions = vec![version("v1", true, &first)];
            if let Some((same, other)) = second {
                let mut old = version("v1beta1", false, if same { &first } else { &other });
                if let Some(warning) = deprecation {
                    old["deprecated"] = json!(true);
                    old["deprecationWarning"] = json!(warning);
                }
                versions.push(old);
            }
            let mut names = json!({"kind": kind, "plural": plural, "singular": plural.trim_end_matches('s'),
                "listKind": format!("{kind}List")});
            if short {
                names["shortNames"] = json!([format!("rnd{index}")]);
                names["categories"] = json!(["random"]);
            }
            json!({
                "apiVersion": "apiextensions.k8s.io/v1",
                "kind": "CustomResourceDefinition",
                "metadata": {"name": format!("{plural}.{GROUP}")},
                "spec": {"group": GROUP, "names": names, "scope": scope, "versions": versions},
            })
        })
        .boxed()
}

/// A deterministic runner with `config` for `seed`.
pub fn runner(config: Config, seed: u64) -> TestRunner {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &bytes))
}

/// `cases` random CRDs (`Random0`, `Random1`, ...) drawn from `seed`; the
/// same arguments always give the same CRDs.
pub fn draw(seed: u64, cases: usize) -> Vec<Value> {
    let mut runner = runner(Config::default(), seed);
    (0..cases)
        .map(|index| crd(index).new_tree(&mut runner).expect("the CRD strategy rejects nothing").current())
        .collect()
}

/// `Some` of a value of `strategy` with probability `p` (0 and 1
/// included, which `proptest::option::weighted` refuses).
fn maybe<S>(p: f64, strategy: S) -> BoxedStrategy<Option<S::Value>>
where
    S: Strategy + 'static,
    S::Value: Clone,
{
    if p <= 0.0 {
        Just(None).boxed()
    } else if p >= 1.0 {
        strategy.prop_map(Some).boxed()
    } else {
        proptest::option::weighted(p, strategy).boxed()
    }
}
