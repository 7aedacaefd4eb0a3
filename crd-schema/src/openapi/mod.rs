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
//!
//! Error policy: [`definitions`] and [`document`] fail only on a request
//! they cannot answer (no such version, several groups, ...), with an
//! [`OpenApiError`]; schemas that cannot be published are published as
//! `{"type": "object"}`, as the API server does.

mod document;
mod meta;
mod publish;

pub use document::{Format, document};
pub use meta::collect_refs;
pub use publish::{
    Definitions, Options, definition_name, definitions, filter_required, reference, to_openapi, to_v2, unfold,
};

/// Why [`definitions`] or [`document`] cannot build what was asked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OpenApiError {
    /// The CRD has no version of that name ([`definitions`]).
    #[error("CRD {group}/{kind} has no version {version:?}")]
    NoSuchVersion {
        /// The CRD's group.
        group: String,
        /// The CRD's kind.
        kind: String,
        /// The version asked for.
        version: String,
    },
    /// No CRD was given ([`document`]).
    #[error("no CRD given")]
    NoCrd,
    /// The CRDs belong to several groups ([`document`]).
    #[error("the CRDs belong to several groups ({}); a document covers one group", .groups.join(", "))]
    SeveralGroups {
        /// The groups, sorted.
        groups: Vec<String>,
    },
    /// No CRD of the group serves the version ([`document`]).
    #[error("no CRD of group {group} serves version {version:?} (served versions: {served})")]
    NotServed {
        /// The group.
        group: String,
        /// The version asked for.
        version: String,
        /// The versions the CRDs serve, as [`crate::crd::CrdSpec::served_by_any`]
        /// lists them.
        served: String,
    },
    /// Two CRDs of the group define the same definition name ([`document`]).
    #[error("{first} and {second} both define {name}: kinds must be unique in a group")]
    DuplicateKind {
        /// The first definer (`foos.example.com spec.names.kind`).
        first: String,
        /// The second definer.
        second: String,
        /// The definition name both produce.
        name: String,
    },
    /// The embedded `meta/v1` definitions do not parse (a bad edit of
    /// `meta-definitions.json`, which the tests catch).
    #[error("embedded meta-definitions.json: {message}")]
    EmbeddedDefinitions {
        /// The JSON parser's message.
        message: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_display_is_unchanged_text() {
        assert_eq!(OpenApiError::NoCrd.to_string(), "no CRD given");
        let several = OpenApiError::SeveralGroups { groups: vec!["a.io".to_owned(), "b.io".to_owned()] };
        assert_eq!(several.to_string(), "the CRDs belong to several groups (a.io, b.io); a document covers one group");
        let missing =
            OpenApiError::NoSuchVersion { group: "g.io".to_owned(), kind: "Foo".to_owned(), version: "v9".to_owned() };
        assert_eq!(missing.to_string(), "CRD g.io/Foo has no version \"v9\"");
    }
}
