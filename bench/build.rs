//! Generates the benchmark subjects into `OUT_DIR/subjects.rs`: for each CRD
//! of [`CRDS`], the module crd-codegen emits for it (`typed_<crd>`) and plain
//! serde structs of the same shape (`plain_<crd>`), plus [`CASES`], one per
//! version with a schema.
//!
//! The plain structs are what a hand-written or naively generated type
//! would be: every property an `Option` (required, non-nullable ones not), `String` for
//! enums, a flattened map where unknown fields are preserved, no default
//! functions, no null handling. They decode the same JSON; the difference
//! in time is what pruning nulls and defaulting cost.

use std::fmt::Write as _;
use std::path::PathBuf;

use crd_schema::structural::{Structural, StructuralOrBool};

/// Corpus CRDs with samples, chosen for their defaults (external-secrets 36,
/// service monitors 21), size and variety; relative to `corpus/crds`.
const CRDS: &[&str] = &[
    "cert-manager__cert-manager/certificates.cert-manager.io.yaml",
    "external-secrets__external-secrets/externalsecrets.external-secrets.io.yaml",
    "fluxcd__kustomize-controller/kustomizations.kustomize.toolkit.fluxcd.io.yaml",
    "fluxcd__source-controller/helmcharts.source.toolkit.fluxcd.io.yaml",
    "kedacore__keda/scaledobjects.keda.sh.yaml",
    "prometheus-operator__prometheus-operator/servicemonitors.monitoring.coreos.com.yaml",
    "tektoncd__pipeline/pipelines.tekton.dev.yaml",
];

fn ident(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' }).collect()
}

/// Plain serde structs for one schema, named `T0`, `T1`, ... (the root is
/// `Root`), fields `f0`, `f1`, ... renamed to their JSON names.
#[derive(Default)]
struct Plain {
    out: String,
    types: usize,
}

impl Plain {
    fn ty(&mut self, s: &Structural) -> String {
        if s.extensions.x_int_or_string {
            return "::k8s_openapi::apimachinery::pkg::util::intstr::IntOrString".to_owned();
        }
        match s.generic.type_.as_str() {
            "object" if !s.properties.is_empty() || s.extensions.x_embedded_resource => {
                let name = format!("T{}", self.types);
                self.types += 1;
                self.object(&name, s, false);
                name
            }
            "object" => match &s.additional_properties {
                Some(StructuralOrBool::Structural(values)) => {
                    format!("::std::collections::BTreeMap<::std::string::String, {}>", self.ty(values))
                }
                _ if s.extensions.x_preserve_unknown_fields => "::serde_json::Value".to_owned(),
                Some(StructuralOrBool::Bool(true)) => {
                    "::std::collections::BTreeMap<::std::string::String, ::serde_json::Value>".to_owned()
                }
                _ => {
                    let name = format!("T{}", self.types);
                    self.types += 1;
                    self.object(&name, s, false);
                    name
                }
            },
            "array" => match &s.items {
                Some(items) => format!("::std::vec::Vec<{}>", self.ty(items)),
                None => "::std::vec::Vec<::serde_json::Value>".to_owned(),
            },
            "string" => "::std::string::String".to_owned(),
            "integer" if s.value_validation.format == "int32" => "i32".to_owned(),
            "integer" => "i64".to_owned(),
            "number" => "f64".to_owned(),
            "boolean" => "bool".to_owned(),
            _ => "::serde_json::Value".to_owned(),
        }
    }

    fn object(&mut self, name: &str, s: &Structural, root: bool) {
        let required = s.value_validation.required.clone().unwrap_or_default();
        let mut fields = String::new();
        let type_meta = root || s.extensions.x_embedded_resource;
        if type_meta {
            let (string, meta) = if root {
                ("::std::string::String", "::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta")
            } else {
                (
                    "::std::option::Option<::std::string::String>",
                    "::std::option::Option<::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta>",
                )
            };
            writeln!(fields, "    #[serde(rename = \"apiVersion\")]\n    pub api_version: {string},").expect("write");
            writeln!(fields, "    pub kind: {string},").expect("write");
            writeln!(fields, "    #[serde(default)]\n    pub metadata: {meta},").expect("write");
        }
        for (i, (json, property)) in s.properties.iter().enumerate() {
            if type_meta && matches!(json.as_str(), "apiVersion" | "kind" | "metadata") {
                continue;
            }
            let ty = self.ty(property);
            let ty = if required.contains(json) && !property.generic.nullable {
                ty
            } else {
                format!("::std::option::Option<{ty}>")
            };
            writeln!(fields, "    #[serde(rename = {json:?})]\n    pub f{i}: {ty},").expect("write");
        }
        if s.extensions.x_preserve_unknown_fields {
            fields.push_str(
                "    #[serde(flatten)]\n    pub rest: ::std::collections::BTreeMap<::std::string::String, ::serde_json::Value>,\n",
            );
        }
        writeln!(
            self.out,
            "#[derive(Debug, ::serde::Deserialize, ::serde::Serialize)]\npub struct {name} {{\n{fields}}}"
        )
        .expect("write");
    }
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let crds_dir = manifest.join("../../shared/corpus/crds");
    assert!(
        crds_dir.is_dir(),
        "{} does not exist: the benchmarks are generated from the shared corpus in `../shared` beside \
         the repository; crd-bench is not a default member, so `cargo build` works without it",
        crds_dir.display()
    );
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    let mut subjects = String::new();
    let mut cases = String::new();
    for file in CRDS {
        let path = crds_dir.join(file);
        println!("cargo:rerun-if-changed={}", path.display());
        let module = ident(file.rsplit('/').next().unwrap_or(file).trim_end_matches(".yaml"));
        let typed = crd_codegen::Builder::new().crd(&path).generate().unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(out.join(format!("typed_{module}.rs")), typed).expect("write generated file");
        writeln!(subjects, "/// Generated by crd-codegen from `{file}`.\npub mod typed_{module} {{ include!(concat!(env!(\"OUT_DIR\"), \"/typed_{module}.rs\")); }}").expect("write");
        writeln!(subjects, "/// Plain serde structs of `{file}`'s schemas.\npub mod plain_{module} {{").expect("write");
        for loaded in crd_schema::crd::load(&path) {
            for (_, crd) in loaded.unwrap_or_else(|e| panic!("{e}")).crds {
                let spec = &crd.spec;
                for (i, version) in spec.versions.iter().enumerate() {
                    let Some(schema) = spec.version_schema(i) else { continue };
                    let structural = crd_schema::resource::serving_schema(schema, &crd.metadata.name)
                        .unwrap_or_else(|e| panic!("{e}"));
                    let mut plain = Plain::default();
                    plain.object("Root", &structural, true);
                    let v = crd_codegen::naming::snake(&version.name);
                    writeln!(subjects, "    /// Version `{}`.\n    pub mod {v} {{\n{}    }}", version.name, plain.out)
                        .expect("write");
                    let typed_root =
                        format!("typed_{module}::{v}::{}", crd_codegen::naming::kind_type_name(&spec.names.kind));
                    let plain_root = format!("plain_{module}::{v}::Root");
                    let api_version = format!("{}/{}", spec.group, version.name);
                    writeln!(
                        cases,
                        "    Case {{ name: \"{module}/{}\", crd_file: {file:?}, api_version: {api_version:?}, kind: {:?}, version: {:?},
        typed: |json| decode::<{typed_root}>(json), typed_paths: |json| decode_paths::<{typed_root}>(json),
        plain: |json| decode::<{plain_root}>(json), typed_value: |json| encode::<{typed_root}>(json) }},",
                        version.name, spec.names.kind, version.name
                    )
                    .expect("write");
                }
            }
        }
        subjects.push_str("}\n");
    }
    writeln!(subjects, "/// Every benchmarked CRD version.\npub const CASES: &[Case] = &[\n{cases}];").expect("write");
    std::fs::write(out.join("subjects.rs"), subjects).expect("write subjects.rs");
}
