//! Publishing: the OpenAPI the API server serves for a CRD (KEP-692), as
//! `k8s.io/apiextensions-apiserver/pkg/controller/openapi`.
//!
//! Entry points:
//! - [`definitions`]: the published definitions of one CRD version, the
//!   kind (`io.k8s.<reversed group>.<version>.<Kind>`) and its list, in the
//!   v3 or the v2 form (`publish.rs`);
//! - [`document`]: the whole OpenAPI v3 document, or Swagger 2.0, that
//!   `/openapi/v3/apis/<group>/<version>` (resp. the v2 aggregate) serves
//!   for a group-version: paths of the resources and their subresources,
//!   the CRD definitions and the `meta/v1` definitions they refer to
//!   (`document.rs`, `meta.rs`);
//! - the steps on their own, for callers and tests: [`unfold`]
//!   (int-or-string), [`to_v2`] (the v2 filter), [`to_openapi`] (structural
//!   form → OpenAPI JSON) and [`filter_required`]; [`collect_refs`] lists
//!   the references of a document.

mod document;
mod meta;
mod publish;

pub use document::{Format, document, preferred_version};
pub use meta::collect_refs;
pub use publish::{
    Definitions, Options, definition_name, definitions, filter_required, reference, to_openapi, to_v2, unfold,
};
