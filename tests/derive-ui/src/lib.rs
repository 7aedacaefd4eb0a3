//! Compile-fail tests of `#[derive(CustomResourceSchema)]` live in
//! `tests/derive_ui.rs` and `ui/`; this library is empty.
