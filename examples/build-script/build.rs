//! Generates Rust types for cert-manager's Certificate CRD into `OUT_DIR`.

fn main() {
    if let Err(e) =
        crd_codegen::Builder::new().crd("crds/certificates.cert-manager.io.yaml").file_name("certificates.rs").compile()
    {
        // A build script reports failure by panicking; the message says why.
        panic!("generating Rust from the Certificate CRD failed: {e}");
    }
}
