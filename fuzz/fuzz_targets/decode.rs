//! The decode pipeline (`crd_schema::pipeline`): root type meta and
//! metadata, pruning, null pruning, ObjectMeta coercion, defaulting.
//!
//! Input: a schema part (a CRD or a bare `openAPIV3Schema`), then the
//! object, split at the first NUL byte (else at `\n---\n`). Schemas that are
//! not structural are skipped. A bare schema decodes its object as a
//! resource root when the object has an `apiVersion` and a `kind`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = crd_fuzz::decode(data);
});
