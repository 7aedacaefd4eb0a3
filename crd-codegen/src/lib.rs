//! The CRD → Rust generator and the `crd` command line tool.
//!
//! Entry points: [`cli::run`], which the `crd` binary calls.

pub mod cli;
