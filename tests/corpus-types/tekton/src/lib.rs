//! Generated types for some of the corpus CRDs, compiled with warnings
//! denied (design.md I5); see `../build.rs`.

#![deny(warnings)]
#![allow(missing_docs)]

include!(concat!(env!("OUT_DIR"), "/corpus.rs"));
