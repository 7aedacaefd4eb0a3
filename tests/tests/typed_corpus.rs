//! design.md I2, typed = dynamic: decoding into the generated types and
//! encoding again gives exactly what the API server's pipeline stores, for
//! every corpus sample and for random well-typed objects of every CRD
//! version (numbers compared by value: `number` fields are `f64`).

use std::path::{Path, PathBuf};

use crd_schema::crd::{self, CustomResourceDefinition};
use crd_schema::pipeline::{self, Options};
use crd_schema::structural::{Structural, new_structural};
use crd_schema::{defaulting, value_validation};
use crd_tests::first_difference;
use crd_tests::objects::{Rng, generate};
use serde_json::Value;

type Roundtrip = fn(&str, &str, Value) -> Option<Result<Value, String>>;

/// Every crate of generated types.
const CRATES: &[Roundtrip] = &[
    corpus_argo_cd::roundtrip,
    corpus_cert_manager::roundtrip,
    corpus_controller_tools::roundtrip,
    corpus_external_secrets::roundtrip,
    corpus_flux_keda_velero::roundtrip,
    corpus_kyverno::roundtrip,
    corpus_prometheus::roundtrip,
    corpus_tekton::roundtrip,
    generated_hostile::roundtrip,
];

fn typed(api_version: &str, kind: &str, value: Value) -> Result<Value, String> {
    CRATES
        .iter()
        .find_map(|roundtrip| roundtrip(api_version, kind, value.clone()))
        .unwrap_or_else(|| panic!("no generated type for {api_version} {kind}"))
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A CRD version's schema as the API server serves it.
struct Served {
    crd: String,
    api_version: String,
    kind: String,
    schema: Option<Structural>,
    options: Options,
}

fn served_versions(crd: &CustomResourceDefinition) -> Vec<Served> {
    let spec = &crd.spec;
    let options = Options { preserve_unknown_fields: spec.preserve_unknown_fields == Some(true), ..Options::default() };
    (0..spec.versions.len())
        .map(|i| {
            let schema = spec.version_schema(i).map(|s| {
                let mut s = new_structural(s).expect("structural");
                defaulting::prune_defaults(&mut s).expect("defaults prune");
                s
            });
            Served {
                crd: crd.metadata.name.clone(),
                api_version: format!("{}/{}", spec.group, spec.versions[i].name),
                kind: spec.names.kind.clone(),
                schema,
                options,
            }
        })
        .collect()
}

fn crds(dir: &Path) -> Vec<CustomResourceDefinition> {
    crd::load(dir).into_iter().flat_map(|l| l.expect("CRD loads").crds.into_iter().map(|(_, c)| c)).collect()
}

/// Whether the API server would accept the stored form of an object: its
/// metadata names it and value validation passes.
fn accepted(served: &Served, stored: &Value) -> bool {
    let named = ["name", "generateName"].iter().any(|k| stored["metadata"][k].as_str().is_some_and(|n| !n.is_empty()));
    named
        && served
            .schema
            .as_ref()
            .is_none_or(|s| value_validation::validate(stored, s, &crd_schema::field::Path::root()).is_empty())
}

/// Compares the typed path with the pipeline for one object the API server
/// would accept; returns `Ok(false)` for an object it would reject (the
/// typed path must still not panic on it).
fn compare(served: &Served, object: Value, what: &str) -> Result<bool, String> {
    let mut expected = pipeline::decode(object.clone(), served.schema.as_ref(), &served.options)
        .map_err(|e| format!("{what}: the pipeline refused it: {e}"))?
        .object;
    let typed = typed(&served.api_version, &served.kind, object);
    if !accepted(served, &expected) {
        return Ok(false);
    }
    if served.options.preserve_unknown_fields {
        // Documented difference (docs/generated-code.md, known difference
        // 3): with spec.preserveUnknownFields the server keeps nulls of
        // non-nullable fields; typed fields cannot hold them.
        defaulting::prune_nulls(&mut expected, served.schema.as_ref());
    }
    match typed {
        Ok(actual) => match first_difference(&actual, &expected) {
            None => Ok(true),
            Some(path) => Err(format!(
                "{what} ({}): typed and dynamic differ at {path}\n  typed:   {actual}\n  dynamic: {expected}",
                served.crd
            )),
        },
        Err(error) => Err(format!("{what} ({}): an accepted object failed to decode: {error}", served.crd)),
    }
}

#[test]
fn every_corpus_sample_decodes_to_what_the_api_server_stores() {
    let corpus = root().join("../shared/corpus");
    let (mut equal, mut rejected, mut failures) = (0, 0, Vec::new());
    for crd in crds(&corpus.join("crds")) {
        let versions = served_versions(&crd);
        let dir = std::fs::read_dir(corpus.join("samples"))
            .expect("samples")
            .flatten()
            .map(|e| e.path().join(&crd.metadata.name))
            .find(|p| p.is_dir());
        let Some(dir) = dir else { continue };
        for loaded in crd::load(&dir) {
            let loaded = loaded.expect("sample loads");
            let docs = crd::source_documents(&loaded.file, &loaded.text).expect("sample parses");
            for doc in docs {
                let api_version = doc.value["apiVersion"].as_str().unwrap_or_default().to_owned();
                let served = versions.iter().find(|v| v.api_version == api_version).expect("sample version is served");
                match compare(served, doc.value, &loaded.file) {
                    Ok(true) => equal += 1,
                    Ok(false) => rejected += 1,
                    Err(e) => failures.push(e),
                }
            }
        }
    }
    println!("samples: {equal} equal, {rejected} that the API server would reject");
    assert!(failures.is_empty(), "{} samples differ:\n{}", failures.len(), failures.join("\n"));
    assert_eq!(equal + rejected, 419);
}

#[test]
fn random_objects_of_every_version_decode_to_what_the_api_server_stores() {
    let (mut checked, mut failures) = (0, Vec::new());
    for served in all_versions() {
        for seed in 0..12 {
            let object = generate(served.schema.as_ref(), &served.api_version, &served.kind, &mut Rng::new(seed));
            match compare(served, object, &format!("{} seed {seed}", served.api_version)) {
                Ok(true) => checked += 1,
                Ok(false) => {}
                Err(e) => failures.push(e),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} random objects differ:\n{}",
        failures.len(),
        failures.iter().take(20).cloned().collect::<Vec<_>>().join("\n")
    );
    // Random strings rarely satisfy patterns and formats, so only part of
    // the objects are ones the API server would accept; those are compared.
    println!("random objects compared: {checked} of {}", 12 * all_versions().len());
    assert!(checked >= 500, "{checked}");
}

/// Every served version of the corpus and of tests/hostile-crds, loaded once.
fn all_versions() -> &'static [Served] {
    static VERSIONS: std::sync::OnceLock<Vec<Served>> = std::sync::OnceLock::new();
    VERSIONS.get_or_init(|| {
        let mut folders = vec![root().join("tests/hostile-crds")];
        folders.extend(
            std::fs::read_dir(root().join("../shared/corpus/crds")).expect("corpus").flatten().map(|e| e.path()),
        );
        folders.sort();
        folders.iter().flat_map(|f| crds(f)).flat_map(|c| served_versions(&c)).collect()
    })
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 512, failure_persistence: None, ..Default::default() })]

    /// The same property driven by proptest: a random version and seed, so a
    /// failure shrinks to the smallest seed that shows it.
    #[test]
    fn typed_equals_dynamic_for_random_versions_and_seeds(index in 0usize..10_000, seed in proptest::prelude::any::<u64>()) {
        let versions = all_versions();
        let served = &versions[index % versions.len()];
        let object = generate(served.schema.as_ref(), &served.api_version, &served.kind, &mut Rng::new(seed));
        let outcome = compare(served, object, &format!("{} seed {seed}", served.api_version));
        proptest::prop_assert!(outcome.is_ok(), "{}", outcome.err().unwrap_or_default());
    }
}

#[test]
fn ill_typed_objects_fail_with_the_json_path() {
    let object = serde_json::json!({"apiVersion": "cert-manager.io/v1", "kind": "Certificate",
        "metadata": {"name": "c"}, "spec": {"secretName": "s", "issuerRef": {"name": 42}}});
    let error = typed("cert-manager.io/v1", "Certificate", object).expect_err("ill-typed");
    assert!(error.starts_with("spec.issuerRef.name: invalid type: integer `42`"), "{error}");
}

/// `Kind::new(name, spec)` on a generated root with a top-level field
/// besides the usual five (Argo CD's `operation`): the generator writes it,
/// filling the rest from the schema's `Default`.
#[test]
fn generated_roots_of_any_shape_have_a_constructor() {
    use corpus_argo_cd::applications_argoproj_io::v1alpha1::{Application, ApplicationSpec};

    let spec: ApplicationSpec =
        serde_json::from_value(serde_json::json!({"destination": {"namespace": "apps"}, "project": "default"}))
            .expect("a minimal Application spec decodes");
    let application = Application::new("guestbook", spec.clone());
    assert_eq!(application.metadata.name.as_deref(), Some("guestbook"));
    assert_eq!((application.api_version.as_str(), application.kind.as_str()), ("argoproj.io/v1alpha1", "Application"));
    assert_eq!(application.spec, spec);
    assert!(application.operation.is_none() && application.status.is_none());
}

/// tests/loose-crds (generated with `allow_non_structural`): a node that is
/// not structural is a `serde_json::Value`, so whatever it holds decodes
/// and encodes unchanged, as the API server stores it; the structural
/// nodes around it keep their types.
#[test]
fn values_under_non_structural_nodes_are_kept_as_is() {
    use serde_json::json;
    for value in [json!("one"), json!(["one", "two"])] {
        let union = json!({"apiVersion": "example.com/v1", "kind": "Union", "metadata": {"name": "u"},
            "spec": {"name": "n", "value": value, "list": [1, true], "labels": {"a": "x", "b": ["y", 2]}}});
        assert_eq!(typed("example.com/v1", "Union", union.clone()), Ok(union));
    }
    let gadget = json!({"apiVersion": "example.com/v1", "kind": "Gadget", "metadata": {"name": "g"},
        "spec": {"replicas": 2, "ports": [80, "http"], "config": {"a": "x", "extra": {"b": 1}}, "other": true},
        "status": {"ready": true}});
    assert_eq!(typed("example.com/v1", "Gadget", gadget.clone()), Ok(gadget));
    let ill_typed = json!({"apiVersion": "example.com/v1", "kind": "Union", "metadata": {"name": "u"},
        "spec": {"name": 1}});
    let error = typed("example.com/v1", "Union", ill_typed).expect_err("`name` is structural: a string");
    assert!(error.starts_with("spec.name: invalid type: integer `1`"), "{error}");
}
