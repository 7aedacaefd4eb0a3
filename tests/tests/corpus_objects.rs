//! Random well-typed objects for every corpus CRD version go through the
//! API server's decode pipeline, and decoding is idempotent on them.

use std::path::PathBuf;

use crd_schema::crd;
use crd_schema::pipeline::{self, Options};
use crd_schema::structural::new_structural;
use crd_tests::objects::{Rng, generate};

#[test]
fn random_objects_of_every_corpus_version_decode_idempotently() {
    let corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/crds");
    let mut versions = 0;
    for loaded in crd::load(&corpus) {
        let loaded = loaded.expect("corpus CRD loads");
        for (_, crd) in &loaded.crds {
            let spec = &crd.spec;
            for (i, version) in spec.versions.iter().enumerate() {
                let schema = spec.version_schema(i).map(|s| new_structural(s).expect("corpus schema is structural"));
                let api_version = format!("{}/{}", spec.group, version.name);
                let options = Options {
                    preserve_unknown_fields: spec.preserve_unknown_fields == Some(true),
                    ..Options::default()
                };
                for seed in 0..8 {
                    let object = generate(schema.as_ref(), &api_version, &spec.names.kind, &mut Rng::new(seed));
                    let once = pipeline::decode(object, schema.as_ref(), &options)
                        .unwrap_or_else(|e| panic!("{} {}: {e}", crd.metadata.name, version.name));
                    let twice =
                        pipeline::decode(once.object.clone(), schema.as_ref(), &options).expect("decodes again");
                    assert_eq!(once.object, twice.object, "{} {} seed {seed}", crd.metadata.name, version.name);
                    assert!(
                        twice.unknown_fields.is_empty(),
                        "{} {}: {:?}",
                        crd.metadata.name,
                        version.name,
                        twice.unknown_fields
                    );
                }
                versions += 1;
            }
        }
    }
    assert_eq!(versions, 162);
}
