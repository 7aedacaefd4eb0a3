//! `crd check` on one source: CRD loading, CRD validation (CEL rules
//! compiled and costed), the NonStructuralSchema condition, bare-schema
//! checks for the other documents, and the rendered diagnostics.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = crd_fuzz::check(data);
});
