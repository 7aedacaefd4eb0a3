//! Validation of an object as `crd validate` does it
//! (`ResourceValidator::validate`): value validation, metadata, embedded
//! resources, list uniqueness and CEL rules, with ratcheting when an old
//! object is given.
//!
//! Input: a schema part (a CRD or a bare `openAPIV3Schema`), the object and
//! optionally the old object, split at NUL bytes (else at `\n---\n`).
//! Schemas that are not structural are skipped.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = crd_fuzz::validate(data);
});
