//! The generator (`crd_codegen::Builder::generate`) on one source: any
//! output must parse as a Rust file, and an internal emit error (tokens
//! that do not parse) is a finding too.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = crd_fuzz::generate(data);
});
