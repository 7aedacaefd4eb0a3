//! Generated types for the hostile CRDs of tests/hostile-crds and the CRDs
//! that are not structural of tests/loose-crds, compiled with warnings
//! denied (design.md I5); see `../build.rs`.

#![deny(warnings)]
#![allow(missing_docs)]

include!(concat!(env!("OUT_DIR"), "/corpus.rs"));
