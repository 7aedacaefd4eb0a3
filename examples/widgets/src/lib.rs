//! Typed `Widget` resources, generated from
//! `examples/crds/widgets.example.com.yaml` by `cargo xtask gen` and checked
//! in (`cargo xtask gen --check` fails when this copy is stale).
//!
//! Decoding with serde does what the API server does before storing a
//! Widget: unknown fields are dropped and defaults applied.
//!
//! ```
//! use example_widgets::v1::Widget;
//!
//! let widget: Widget = serde_json::from_str(r#"{
//!     "apiVersion": "example.com/v1", "kind": "Widget",
//!     "metadata": {"name": "w"},
//!     "spec": {"colour": "red", "shape": "round"}
//! }"#).unwrap();
//! // `size` is defaulted; the unknown `shape` is gone.
//! assert_eq!(widget.spec.as_ref().map(|s| s.size), Some(3));
//! assert!(!serde_json::to_string(&widget).unwrap().contains("shape"));
//! ```

#![allow(missing_docs)]

include!("generated.rs");
