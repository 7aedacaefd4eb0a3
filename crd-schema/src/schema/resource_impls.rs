//! The kube-rs traits of a `#[crd(...)]` root: k8s-openapi's `Resource`,
//! `ListableResource` and `Metadata` (feature `k8s-openapi`), which make
//! `kube::Api<T>`, `Controller`, `watcher` and `ResourceExt` work, and
//! kube-core's `CustomResourceExt` (feature `kube`).
//!
//! The derive emits one call of [`__resource_impls!`](crate::__resource_impls)
//! per root, for derived and generated roots alike. The impls are macros of
//! this crate, not tokens of the derive, because whether they exist depends
//! on this crate's features: a `#[cfg(feature = ...)]` in the derive's
//! output would be read against the features of the user's crate. Without
//! the features the macros expand to nothing.

/// The k8s-openapi (and, with feature `kube`, kube-core) impls of a root
/// type. `metadata: [field]` names the `ObjectMeta` field; a root without
/// one (`metadata: []`) gets `Resource` and `ListableResource` only.
#[cfg(feature = "k8s-openapi")]
#[doc(hidden)]
#[macro_export]
macro_rules! __resource_impls {
    (
        impl [$($impl_generics:tt)*] for [$($ty:tt)*] where [$($where_clause:tt)*],
        api_version: $api_version:literal,
        scope: $scope:ident,
        crd_name: $crd_name:literal,
        metadata: [] $(,)?
    ) => {
        impl $($impl_generics)* $crate::__private::k8s_openapi::Resource for $($ty)* $($where_clause)* {
            const API_VERSION: &'static str = $api_version;
            const GROUP: &'static str = <Self as $crate::schema::CustomResource>::GROUP;
            const KIND: &'static str = <Self as $crate::schema::CustomResource>::KIND;
            const VERSION: &'static str = <Self as $crate::schema::CustomResource>::VERSION;
            const URL_PATH_SEGMENT: &'static str = <Self as $crate::schema::CustomResource>::PLURAL;
            type Scope = $crate::__private::k8s_openapi::$scope;
        }

        impl $($impl_generics)* $crate::__private::k8s_openapi::ListableResource for $($ty)* $($where_clause)* {
            const LIST_KIND: &'static str = <Self as $crate::schema::CustomResource>::LIST_KIND;
        }
    };
    (
        impl [$($impl_generics:tt)*] for [$($ty:tt)*] where [$($where_clause:tt)*],
        api_version: $api_version:literal,
        scope: $scope:ident,
        crd_name: $crd_name:literal,
        metadata: [$metadata:ident] $(,)?
    ) => {
        $crate::__resource_impls! {
            impl [$($impl_generics)*] for [$($ty)*] where [$($where_clause)*],
            api_version: $api_version,
            scope: $scope,
            crd_name: $crd_name,
            metadata: [],
        }

        impl $($impl_generics)* $crate::__private::k8s_openapi::Metadata for $($ty)* $($where_clause)* {
            type Ty = $crate::__private::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

            fn metadata(&self) -> &<Self as $crate::__private::k8s_openapi::Metadata>::Ty {
                &self.$metadata
            }

            fn metadata_mut(&mut self) -> &mut <Self as $crate::__private::k8s_openapi::Metadata>::Ty {
                &mut self.$metadata
            }
        }

        $crate::__kube_impls! {
            impl [$($impl_generics)*] for [$($ty)*] where [$($where_clause)*],
            crd_name: $crd_name,
        }
    };
}

/// Without feature `k8s-openapi` a root has none of these impls.
#[cfg(not(feature = "k8s-openapi"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __resource_impls {
    ($($tokens:tt)*) => {};
}

/// kube-core's `CustomResourceExt` of a root with metadata: `crd()` is
/// [`CustomResource::crd_manifest`](crate::schema::CustomResource::crd_manifest)
/// converted to k8s-openapi's `CustomResourceDefinition`.
#[cfg(feature = "kube")]
#[doc(hidden)]
#[macro_export]
macro_rules! __kube_impls {
    (
        impl [$($impl_generics:tt)*] for [$($ty:tt)*] where [$($where_clause:tt)*],
        crd_name: $crd_name:literal $(,)?
    ) => {
        impl $($impl_generics)* $crate::__private::kube_core::CustomResourceExt for $($ty)* $($where_clause)* {
            fn crd() -> $crate::__private::k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition {
                $crate::__private::k8s_crd(<Self as $crate::schema::CustomResource>::crd_manifest())
            }

            fn crd_name() -> &'static str {
                $crd_name
            }

            fn api_resource() -> $crate::__private::kube_core::ApiResource {
                $crate::__private::kube_core::ApiResource::erase::<Self>(&())
            }

            fn shortnames() -> &'static [&'static str] {
                <Self as $crate::schema::CustomResource>::SHORT_NAMES
            }
        }
    };
}

/// Without feature `kube` a root does not implement `CustomResourceExt`.
#[cfg(not(feature = "kube"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __kube_impls {
    ($($tokens:tt)*) => {};
}

/// The spec-first `#[crd]` form generates a root whose `metadata` is
/// k8s-openapi's `ObjectMeta`, so it needs feature `k8s-openapi`.
#[cfg(feature = "k8s-openapi")]
#[doc(hidden)]
#[macro_export]
macro_rules! __require_k8s_openapi {
    () => {};
}

/// Without feature `k8s-openapi`: the error says which feature to enable.
#[cfg(not(feature = "k8s-openapi"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __require_k8s_openapi {
    () => {
        ::core::compile_error!(
            "the spec-first `#[crd(...)]` form generates a root with k8s-openapi's `ObjectMeta`: \
             enable crd-schema's feature `k8s-openapi`"
        );
    };
}
