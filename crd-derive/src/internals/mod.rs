//! Parse → model → check, as serde_derive's `internals`: `attr` reads the
//! attributes, `ast` models the input, `repr` decides enum shapes, `check`
//! reports what cannot be a structural schema; errors collect in `ctxt`.

pub mod ast;
pub mod attr;
pub mod case;
pub mod check;
pub mod ctxt;
pub mod json;
pub mod repr;
pub mod suggest;
