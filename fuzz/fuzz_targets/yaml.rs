//! The YAML/JSON reader alone: any text either parses or is an error.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    crd_fuzz::yaml(data);
});
