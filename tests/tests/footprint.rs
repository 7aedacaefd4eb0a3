//! What users compile: a crate that holds only generated code pulls none of
//! the engine's crates, and the generator (a build dependency) pulls
//! neither the CLI nor CEL. Read from `cargo tree`, so a dependency added
//! without a feature gate fails here.

use std::path::Path;
use std::process::Command;

/// The normal dependencies of `package`, one `name vX.Y.Z` per line.
fn dependencies(package: &str) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let output = Command::new(env!("CARGO"))
        .args(["tree", "--offline", "-p", package, "-e", "normal", "--prefix", "none", "--format", "{p}"])
        .current_dir(root)
        .output()
        .expect("cargo tree runs");
    assert!(output.status.success(), "cargo tree -p {package}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout).lines().map(str::to_owned).collect()
}

fn crate_names(lines: &[String]) -> Vec<&str> {
    lines.iter().filter_map(|l| l.split_whitespace().next()).collect()
}

#[test]
fn generated_code_compiles_no_engine_crates() {
    let lines = dependencies("generated-hostile");
    let names = crate_names(&lines);
    assert!(names.contains(&"crd-schema") && names.contains(&"serde"), "{lines:#?}");
    for forbidden in
        ["regex", "serde-saphyr", "saphyr-parser", "kube-cel", "cel", "antlr4rust", "chrono", "crd-codegen"]
    {
        assert!(!names.contains(&forbidden), "generated code pulls {forbidden}: {lines:#?}");
    }
}

#[test]
fn the_generator_compiles_neither_the_cli_nor_cel() {
    let lines = dependencies("crd-codegen");
    let names = crate_names(&lines);
    assert!(names.contains(&"crd-schema") && names.contains(&"syn"), "{lines:#?}");
    for forbidden in ["crd-cli", "clap", "anyhow", "kube-cel", "cel", "antlr4rust"] {
        assert!(!names.contains(&forbidden), "crd-codegen pulls {forbidden}: {lines:#?}");
    }
}
