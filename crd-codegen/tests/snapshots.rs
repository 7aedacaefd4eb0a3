//! Generated code for representative CRDs, compared byte for byte with the
//! checked-in files in `tests/snapshots/`. `CRD_BLESS=1 cargo test -p
//! crd-codegen --test snapshots` rewrites them (`cargo xtask bless`).
//!
//! The bundled example's output is not repeated here: it is checked in as
//! `examples/widgets/src/generated.rs` and pinned by `cargo xtask gen
//! --check`. The CRDs: cert-manager certificates (a large real v1
//! schema), tekton customruns (two versions, embedded resources and
//! preserved fields), controller-tools foos (v1beta1 with a top-level
//! `spec.validation`), argo workflows (v1beta1 without schema) and
//! controller-tools enums.

use std::path::{Path, PathBuf};

const CASES: &[&str] = &[
    "corpus/crds/cert-manager__cert-manager/certificates.cert-manager.io.yaml",
    "corpus/crds/tektoncd__pipeline/customruns.tekton.dev.yaml",
    "corpus/crds/kubernetes-sigs__controller-tools/foos.bar.example.com.yaml",
    "corpus/crds/argoproj__argo-cd/workflows.argoproj.io.yaml",
    "corpus/crds/kubernetes-sigs__controller-tools/enums.testdata.kubebuilder.io.yaml",
];

/// `examples/...` is in this repository, `corpus/...` in the shared folder
/// beside it.
fn input(case: &str) -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    match case.strip_prefix("corpus/") {
        Some(rest) => manifest.join("../../shared/corpus").join(rest),
        None => manifest.join("..").join(case),
    }
}

fn snapshot(case: &str) -> PathBuf {
    let stem = Path::new(case).file_stem().and_then(|s| s.to_str()).unwrap_or(case);
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots").join(format!("{stem}.rs"))
}

#[test]
fn generated_code_matches_snapshots() {
    let bless = std::env::var_os("CRD_BLESS").is_some_and(|v| v == "1");
    let mut stale = Vec::new();
    for case in CASES {
        let path = input(case);
        assert!(
            path.exists(),
            "{} does not exist: this test reads the CRD corpus of the shared data, which lives in \
             `../shared` beside the repository; put it there to run it",
            path.display()
        );
        let code = crd_codegen::Builder::new().crd(&path).generate().unwrap_or_else(|e| panic!("{case}: {e}"));
        let again = crd_codegen::Builder::new().crd(&path).generate().unwrap();
        assert_eq!(code, again, "{case}: output is not deterministic");
        let file = snapshot(case);
        let old = std::fs::read_to_string(&file).unwrap_or_default();
        if old == code {
            continue;
        }
        if bless {
            std::fs::write(&file, &code).unwrap();
        } else {
            stale.push(file.display().to_string());
        }
    }
    assert!(stale.is_empty(), "snapshots differ (rerun with CRD_BLESS=1 to update):\n{}", stale.join("\n"));
}
