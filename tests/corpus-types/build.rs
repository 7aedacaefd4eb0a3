//! Shared build script of the generated-code test crates: generates Rust for
//! every CRD of the crate's folders (corpus projects under
//! `../shared/corpus/crds/`, or the repository's own `tests/hostile-crds`
//! and `tests/loose-crds`) into `OUT_DIR`, plus a `roundtrip` function that decodes an object into
//! the generated type matching its `apiVersion` and `kind` and encodes it
//! again. Splitting the corpus over several crates keeps each compilation
//! small enough for a 2-core machine and lets them build in parallel.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Which folders (relative to the workspace root) each crate holds.
const GROUPS: &[(&str, &[&str])] = &[
    ("corpus-argo-cd", &["../shared/corpus/crds/argoproj__argo-cd"]),
    ("corpus-cert-manager", &["../shared/corpus/crds/cert-manager__cert-manager"]),
    ("corpus-external-secrets", &["../shared/corpus/crds/external-secrets__external-secrets"]),
    (
        "corpus-flux-keda-velero",
        &[
            "../shared/corpus/crds/fluxcd__kustomize-controller",
            "../shared/corpus/crds/fluxcd__source-controller",
            "../shared/corpus/crds/kedacore__keda",
            "../shared/corpus/crds/vmware-tanzu__velero",
        ],
    ),
    ("corpus-controller-tools", &["../shared/corpus/crds/kubernetes-sigs__controller-tools"]),
    ("corpus-kyverno", &["../shared/corpus/crds/kyverno__kyverno"]),
    ("corpus-prometheus", &["../shared/corpus/crds/prometheus-operator__prometheus-operator"]),
    ("corpus-tekton", &["../shared/corpus/crds/tektoncd__pipeline"]),
    ("generated-hostile", &["tests/hostile-crds", "tests/loose-crds"]),
];

/// Folders of CRDs whose schemas are not structural, generated with
/// `Builder::allow_non_structural(true)`.
const LOOSE: &[&str] = &["tests/loose-crds"];

fn ident(name: &str) -> String {
    let mut out: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' }).collect();
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}

fn crd_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| {
            panic!(
                "cannot read {}: {e}. The corpus crates are generated from the shared data in \
                 `../shared` beside the repository; they are not default members, so `cargo build` \
                 works without it, but `cargo test --workspace` needs it",
                dir.display()
            )
        })
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml" || e == "json"))
        .collect();
    files.sort();
    files
}

fn main() {
    let package = std::env::var("CARGO_PKG_NAME").expect("CARGO_PKG_NAME");
    let projects = GROUPS
        .iter()
        .find(|(name, _)| *name == package)
        .map(|(_, p)| *p)
        .unwrap_or_else(|| panic!("no corpus group named {package}"));
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let root = manifest.join("../../..");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    let mut modules = String::new();
    let mut arms = String::new();
    let mut crd_calls = String::new();
    for folder in projects {
        println!("cargo:rerun-if-changed={}", root.join(folder).display());
        for file in crd_files(&root.join(folder)) {
            println!("cargo:rerun-if-changed={}", file.display());
            let text = crd_codegen::Builder::new()
                .crd(&file)
                .allow_non_structural(LOOSE.contains(folder))
                .generate()
                .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            let stem = file.file_stem().and_then(|s| s.to_str()).expect("file name");
            let module = ident(stem);
            std::fs::write(out.join(format!("{module}.rs")), text).expect("write generated file");
            writeln!(modules, "pub mod {module} {{ include!(concat!(env!(\"OUT_DIR\"), \"/{module}.rs\")); }}")
                .expect("write");
            let name = file.file_name().and_then(|s| s.to_str()).expect("file name");
            writeln!(crd_calls, "    out.extend({module}::crds().into_iter().map(|c| ({name:?}, c)));").expect("write");
            for loaded in crd_schema::crd::load(&file) {
                for (_, crd) in loaded.expect("corpus CRD loads").crds {
                    for version in &crd.spec.versions {
                        let (group, kind) = (&crd.spec.group, &crd.spec.names.kind);
                        let api_version =
                            if group.is_empty() { version.name.clone() } else { format!("{group}/{}", version.name) };
                        let type_name = crd_codegen::naming::kind_type_name(kind);
                        writeln!(arms, "        ({api_version:?}, {kind:?}) => Some(roundtrip_as::<{module}::{}::{type_name}>(value)),", crd_codegen::naming::snake(&version.name)).expect("write");
                    }
                }
            }
        }
    }
    let dispatch = format!(
        "{modules}
/// Decodes `value` into the generated type for `api_version` and `kind` and
/// encodes it again; `None` when this crate has no such type.
pub fn roundtrip(api_version: &str, kind: &str, value: ::serde_json::Value) -> ::std::option::Option<::std::result::Result<::serde_json::Value, ::std::string::String>> {{
    match (api_version, kind) {{
{arms}        _ => None,
    }}
}}

/// Every CRD of this crate rebuilt by the derive from its generated types
/// (`crds()` of each generated file), with the name of the file it came
/// from.
pub fn crds() -> ::std::vec::Vec<(&'static str, ::crd_schema::schema::CrdManifest)> {{
    let mut out = ::std::vec::Vec::new();
{crd_calls}    out
}}

fn roundtrip_as<T: ::serde::de::DeserializeOwned + ::serde::Serialize>(value: ::serde_json::Value) -> ::std::result::Result<::serde_json::Value, ::std::string::String> {{
    let typed: T = ::crd_schema::typed::from_value(value).map_err(|e| e.to_string())?;
    ::serde_json::to_value(&typed).map_err(|e| e.to_string())
}}
"
    );
    std::fs::write(out.join("corpus.rs"), dispatch).expect("write corpus.rs");
}
