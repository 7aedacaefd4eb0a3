//! `apiVersion`, `kind` and `metadata` of custom resources and of embedded
//! resources (`x-kubernetes-embedded-resource`), as
//! `k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta` with the
//! ObjectMeta decoding and validation of `k8s.io/apimachinery` beneath it.
//!
//! Entry points:
//! - [`coerce`]: makes `apiVersion`/`kind` strings and rewrites `metadata`
//!   in canonical ObjectMeta form, dropping (and reporting) unknown
//!   metadata fields (`coerce.rs`);
//! - [`validate`]: checks `apiVersion`, `kind` and `metadata` of every
//!   embedded resource (`validation.rs`), with [`validate_object_meta`] for
//!   an ObjectMeta alone;
//! - [`get_object_meta`] / [`decode_object_meta`]: ObjectMeta decoding with
//!   Go's decoder errors and the drop-malformed-fields mode (`decode.rs`),
//!   into the [`ObjectMeta`] model and its canonical JSON (`meta.rs`);
//! - [`Time`]: `metav1.Time` parsing and formatting (`time.rs`);
//! - [`names`]: the name, label and qualified-name checks with their exact
//!   messages.
//!
//! Error policy: problems in objects are data — [`FieldError`]s with
//! Kubernetes' exact text, or a [`DecodeError`] holding the Go decoder's
//! text. Nothing here panics on any input.
//!
//! [`FieldError`]: crate::field::FieldError

mod coerce;
mod decode;
mod meta;
pub mod names;
mod time;
mod validation;

pub use coerce::{CoerceOptions, coerce};
pub use decode::{DecodeError, DecodedObjectMeta, ObjectMetaOptions, decode_object_meta, get_object_meta};
pub use meta::{ManagedFieldsEntry, ObjectMeta, OwnerReference, set_object_meta};
pub use time::{Time, TimeParseError};
pub use validation::{
    NameFn, TOTAL_ANNOTATION_SIZE_LIMIT, validate, validate_embedded_resource, validate_object_meta,
    validate_object_meta_update,
};
