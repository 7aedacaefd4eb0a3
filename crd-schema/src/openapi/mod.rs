//! Publishing: the OpenAPI the API server serves for a CRD (KEP-692), as
//! `k8s.io/apiextensions-apiserver/pkg/controller/openapi`.
//!
//! Entry points:
//! - [`definitions`]: the published definitions of one CRD version, the
//!   kind (`io.k8s.<reversed group>.<version>.<Kind>`) and its list, in the
//!   v3 or the v2 form (`publish.rs`);
//! - the steps on their own, for callers and tests: [`unfold`]
//!   (int-or-string), [`to_v2`] (the v2 filter), [`to_openapi`] (structural
//!   form → OpenAPI JSON) and [`filter_required`].

mod publish;

pub use publish::{
    Definitions, Options, definition_name, definitions, filter_required, reference, to_openapi, to_v2, unfold,
};
