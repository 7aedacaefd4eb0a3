//! Random structural CRDs and the Rust the generator makes of them,
//! compiled with warnings denied (design.md I5).
//!
//! The build script (`build.rs`) draws the CRDs with [`strategy`] from a
//! seed and generates their types; this crate exports them as
//! [`roundtrip`] and [`crds`], with the CRDs' JSON in [`SOURCES`]. The
//! tests in `tests/random_schemas.rs` check I2 (typed = dynamic) and I3
//! (round trip) on them with random objects from [`strategy::value`].

#![deny(warnings)]
#![allow(missing_docs)]

pub mod strategy;

include!(concat!(env!("OUT_DIR"), "/random.rs"));
