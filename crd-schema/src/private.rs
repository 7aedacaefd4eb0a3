//! Support code that generated types call; not a public API.
//!
//! Each helper reproduces one step of the API server's decode pipeline
//! inside serde: `null` handling of defaulted and nullable fields, null
//! pruning in maps, and schema defaults decoded through the field's own
//! type (so nested defaults apply and unknown fields are pruned).

use std::collections::BTreeMap;
use std::sync::OnceLock;

pub use crate::schema::derive_support::*;
#[cfg(feature = "k8s-openapi")]
pub use k8s_openapi;
#[cfg(feature = "kube")]
pub use kube_core;
pub use serde;

use serde::de::{Deserialize, DeserializeOwned, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

/// A schema default (JSON text embedded by the generator), decoded
/// through `T` on first use and cloned afterwards: decoding through `T`
/// prunes it and applies nested defaults as the API server does when it
/// loads a schema for serving. Each generated default function holds one
/// in a `static`, so a list of objects that all lack a defaulted `status`
/// parses the JSON once per process, and a lookup costs no hashing.
///
/// The generator only embeds defaults that decode; a default that does not
/// (which `crd check` reports) is `None` from [`DefaultCell::decoded`] and
/// `T::default()` from [`DefaultCell::get`], never a panic in user code.
#[derive(Debug)]
pub struct DefaultCell<T> {
    json: &'static str,
    value: OnceLock<Option<T>>,
}

impl<T> DefaultCell<T> {
    /// The default written as `json`, not decoded yet.
    pub const fn new(json: &'static str) -> Self {
        Self { json, value: OnceLock::new() }
    }
}

impl<T: DeserializeOwned + Clone> DefaultCell<T> {
    /// The decoded default, `None` when it does not decode. Decoding may
    /// reach other cells (nested defaults), never this one.
    pub fn decoded(&self) -> Option<T> {
        self.value.get_or_init(|| serde_json::from_str(self.json).ok()).clone()
    }
}

impl<T: DeserializeOwned + Clone + Default> DefaultCell<T> {
    /// The decoded default, `T::default()` when it does not decode.
    pub fn get(&self) -> T {
        self.decoded().unwrap_or_default()
    }
}

/// Decodes an open string enum (one with a catch-all variant) from any
/// string, by `variant`, which maps every string to a value. Hand-written
/// instead of serde's derive, whose untagged catch-all buffers every value
/// before matching it: this reads the string once and generates less code.
pub fn string_enum<'de, D, T>(deserializer: D, variant: fn(&str) -> T) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
{
    struct Visitor<T>(fn(&str) -> T);
    impl<T> serde::de::Visitor<'_> for Visitor<T> {
        type Value = T;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a string")
        }
        fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<T, E> {
            Ok((self.0)(value))
        }
    }
    deserializer.deserialize_str(Visitor(variant))
}

/// A field with a default that is not nullable: `null` gets the default,
/// as the API server's defaulting does.
pub fn null_as<'de, D, T>(deserializer: D, default: fn() -> T) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Ok(Option::<T>::deserialize(deserializer)?.unwrap_or_else(default))
}

/// A nullable field without default: absent is `None`, `null` is
/// `Some(None)`.
pub fn double_option<'de, D, T>(deserializer: D) -> Result<Option<Option<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(deserializer).map(Some)
}

/// A map whose values are neither nullable nor defaulted: `null` values are
/// dropped (null pruning).
pub fn map_without_nulls<'de, D, T>(deserializer: D) -> Result<BTreeMap<String, T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    deserializer.deserialize_map(NullsInMap(|| None))
}

/// [`map_without_nulls`] for an optional map (`null` is absent).
pub fn option_map_without_nulls<'de, D, T>(deserializer: D) -> Result<Option<BTreeMap<String, T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    deserializer.deserialize_option(OrNull(NullsInMap(|| None)))
}

/// [`map_without_nulls`] for a nullable map without default: absent is
/// `None`, `null` is `Some(None)`, and a map loses its `null` values.
pub fn double_option_map_without_nulls<'de, D, T>(
    deserializer: D,
) -> Result<Option<Option<BTreeMap<String, T>>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    option_map_without_nulls(deserializer).map(Some)
}

/// An array whose items are not nullable and have a schema default: a
/// `null` item becomes the default, as the API server's defaulting does.
pub fn vec_null_as<'de, D, T>(deserializer: D, default: fn() -> T) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    deserializer.deserialize_seq(NullsInSeq(default))
}

/// [`vec_null_as`] for an optional array (`null` is absent).
pub fn option_vec_null_as<'de, D, T>(deserializer: D, default: fn() -> T) -> Result<Option<Vec<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    deserializer.deserialize_option(OrNull(NullsInSeq(default)))
}

/// A map whose values are not nullable and have a schema default: a `null`
/// value becomes the default (defaulting runs before null pruning).
pub fn map_null_as<'de, D, T>(deserializer: D, default: fn() -> T) -> Result<BTreeMap<String, T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    deserializer.deserialize_map(NullsInMap(move || Some(default())))
}

/// [`map_null_as`] for an optional map (`null` is absent).
pub fn option_map_null_as<'de, D, T>(
    deserializer: D,
    default: fn() -> T,
) -> Result<Option<BTreeMap<String, T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    deserializer.deserialize_option(OrNull(NullsInMap(move || Some(default()))))
}

// The helpers above read each map or array once, into the collection they
// return: decoding into `Option` values first and filtering after built
// every collection twice.

/// Reads a map, giving each `null` value what the function returns: a
/// default, or `None` to drop the key (a later duplicate of a key replaces
/// an earlier one, `null` included, as in the dynamic path).
struct NullsInMap<F>(F);

impl<'de, T, F> Visitor<'de> for NullsInMap<F>
where
    T: Deserialize<'de>,
    F: Fn() -> Option<T>,
{
    type Value = BTreeMap<String, T>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a map")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Self::Value, A::Error> {
        let mut map = BTreeMap::new();
        while let Some((key, value)) = access.next_entry::<String, Option<T>>()? {
            match value.or_else(&self.0) {
                Some(value) => map.insert(key, value),
                None => map.remove(&key),
            };
        }
        Ok(map)
    }
}

impl<'de, T, F> DeserializeSeed<'de> for NullsInMap<F>
where
    T: Deserialize<'de>,
    F: Fn() -> Option<T>,
{
    type Value = BTreeMap<String, T>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_map(self)
    }
}

/// Reads an array, giving each `null` item the default.
struct NullsInSeq<T>(fn() -> T);

/// Items reserved ahead from an array's size hint, so a hostile hint
/// cannot reserve unbounded memory.
const MAX_RESERVED_ITEMS: usize = 4096;

impl<'de, T: Deserialize<'de>> Visitor<'de> for NullsInSeq<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a sequence")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut access: A) -> Result<Self::Value, A::Error> {
        let mut items = Vec::with_capacity(access.size_hint().unwrap_or(0).min(MAX_RESERVED_ITEMS));
        while let Some(item) = access.next_element::<Option<T>>()? {
            items.push(item.unwrap_or_else(self.0));
        }
        Ok(items)
    }
}

impl<'de, T: Deserialize<'de>> DeserializeSeed<'de> for NullsInSeq<T> {
    type Value = Vec<T>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

/// `null` (or nothing) as `None`, anything else through the seed.
struct OrNull<S>(S);

impl<'de, S: DeserializeSeed<'de>> Visitor<'de> for OrNull<S> {
    type Value = Option<S::Value>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("option")
    }

    fn visit_none<E: serde::de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        self.0.deserialize(deserializer).map(Some)
    }
}

/// Implemented by the derive for every struct with named fields: what a
/// spec-first root's `status = "..."` must name, since the status
/// subresource holds an object.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the status of a custom resource: it is not a struct with named fields \
               and `#[derive(CustomResourceSchema)]`",
    label = "named in `status = \"...\"`"
)]
pub trait DerivedStruct {}

/// The value of `CustomResourceExt::crd_manifest()`: the derived manifest as
/// k8s-openapi's type.
///
/// # Panics
///
/// When the manifest does not convert ([`IntoK8sError`](crate::schema::IntoK8sError)):
/// only a `schema_with` function that writes a keyword of the wrong JSON
/// type does that, a bug in the program rather than in its input, and
/// kube-core's `crd()` returns no `Result`.
#[cfg(feature = "kube")]
pub fn k8s_crd(
    manifest: crate::schema::CrdManifest,
) -> k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition {
    match manifest.into_k8s() {
        Ok(crd) => crd,
        Err(error) => panic!("{error}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Default, PartialEq, Deserialize)]
    struct Inner {
        #[serde(default = "Inner::default_a", deserialize_with = "Inner::deserialize_a")]
        a: i64,
        #[serde(default, deserialize_with = "double_option")]
        n: Option<Option<String>>,
        #[serde(default, deserialize_with = "option_map_without_nulls")]
        m: Option<BTreeMap<String, i64>>,
    }

    impl Inner {
        fn default_a() -> i64 {
            7
        }
        fn deserialize_a<'de, D: Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
            null_as(d, Self::default_a)
        }
    }

    #[test]
    fn nulls_behave_like_the_api_server() {
        let v: Inner = serde_json::from_str(r#"{"a": null, "n": null, "m": {"x": null, "y": 1}}"#).unwrap();
        assert_eq!(v, Inner { a: 7, n: Some(None), m: Some(BTreeMap::from([("y".to_owned(), 1)])) });
        let v: Inner = serde_json::from_str("{}").unwrap();
        assert_eq!(v, Inner { a: 7, n: None, m: None });
        // A later duplicate replaces the earlier value, `null` too.
        let v: Inner = serde_json::from_str(r#"{"m": {"x": 1, "x": null, "y": null, "y": 2}}"#).unwrap();
        assert_eq!(v.m, Some(BTreeMap::from([("y".to_owned(), 2)])));
        let error = serde_json::from_str::<Inner>(r#"{"m": [1]}"#).unwrap_err().to_string();
        assert!(error.contains("expected a map"), "{error}");
    }

    #[test]
    fn nullable_maps_lose_null_values() {
        // Found by the random schemas (tests/random-schemas): a nullable map
        // failed to decode a `null` value, which null pruning drops.
        #[derive(Debug, PartialEq, Deserialize)]
        struct Nullable {
            #[serde(default, deserialize_with = "double_option_map_without_nulls")]
            m: Option<Option<BTreeMap<String, i64>>>,
        }
        let v: Nullable = serde_json::from_str(r#"{"m": {"x": null, "y": 1}}"#).unwrap();
        assert_eq!(v.m, Some(Some(BTreeMap::from([("y".to_owned(), 1)]))));
        let v: Nullable = serde_json::from_str(r#"{"m": null}"#).unwrap();
        assert_eq!(v.m, Some(None));
        let v: Nullable = serde_json::from_str("{}").unwrap();
        assert_eq!(v.m, None);
    }

    fn seven() -> i64 {
        7
    }

    #[test]
    fn null_items_and_values_get_the_default() {
        let mut de = serde_json::Deserializer::from_str("[1, null, 3]");
        assert_eq!(vec_null_as(&mut de, seven).unwrap(), [1, 7, 3]);
        let mut de = serde_json::Deserializer::from_str("[null]");
        assert_eq!(option_vec_null_as(&mut de, seven).unwrap(), Some(vec![7]));
        let mut de = serde_json::Deserializer::from_str("null");
        assert_eq!(option_vec_null_as(&mut de, seven).unwrap(), None);
        let mut de = serde_json::Deserializer::from_str("null");
        assert!(vec_null_as(&mut de, seven).is_err(), "a required array is not null");
        let mut de = serde_json::Deserializer::from_str(r#"{"a": null, "b": 2}"#);
        let expected = BTreeMap::from([("a".to_owned(), 7), ("b".to_owned(), 2)]);
        assert_eq!(map_null_as(&mut de, seven).unwrap(), expected);
        let mut de = serde_json::Deserializer::from_str(r#"{"a": null, "b": 2}"#);
        assert_eq!(option_map_null_as(&mut de, seven).unwrap(), Some(expected));
        let mut de = serde_json::Deserializer::from_str("null");
        assert_eq!(option_map_null_as(&mut de, seven).unwrap(), None);
        let mut de = serde_json::Deserializer::from_str(r#"["x"]"#);
        assert!(vec_null_as(&mut de, seven).is_err(), "other values still have to decode");
    }

    #[test]
    fn defaults_decode_through_the_type() {
        static MAP: DefaultCell<BTreeMap<String, i64>> = DefaultCell::new(r#"{"a": 1}"#);
        assert_eq!(MAP.get()["a"], 1);
        static WRONG: DefaultCell<i64> = DefaultCell::new("\"not a number\"");
        assert_eq!(WRONG.get(), 0, "a default that does not decode falls back to `Default`");
        assert_eq!(WRONG.decoded(), None);
    }

    #[test]
    fn string_enums_take_any_string_and_nothing_else() {
        #[derive(Debug, PartialEq)]
        enum Colour {
            Red,
            Unknown(String),
        }
        impl<'de> Deserialize<'de> for Colour {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                string_enum(d, |s| match s {
                    "red" => Colour::Red,
                    other => Colour::Unknown(other.to_owned()),
                })
            }
        }
        assert_eq!(serde_json::from_str::<Colour>(r#""red""#).unwrap(), Colour::Red);
        assert_eq!(serde_json::from_str::<Colour>(r#""r\u0065d""#).unwrap(), Colour::Red, "escaped");
        assert_eq!(serde_json::from_str::<Colour>(r#""pink""#).unwrap(), Colour::Unknown("pink".into()));
        let error = serde_json::from_str::<Colour>("3").unwrap_err().to_string();
        assert!(error.contains("expected a string"), "{error}");
        assert!(serde_json::from_value::<Colour>(serde_json::json!(null)).is_err());
    }

    #[test]
    fn nested_defaults_decode_inside_the_outer_one() {
        #[derive(Clone, Debug, Default, PartialEq, serde::Deserialize)]
        struct Inner {
            #[serde(default = "Inner::default_n")]
            n: i64,
        }
        impl Inner {
            fn default_n() -> i64 {
                static DEFAULT: DefaultCell<i64> = DefaultCell::new("7");
                DEFAULT.get()
            }
        }
        #[derive(Clone, Debug, Default, PartialEq, serde::Deserialize)]
        struct Outer {
            #[serde(default)]
            inner: Inner,
        }
        static OUTER: DefaultCell<Outer> = DefaultCell::new(r#"{"inner": {}}"#);
        // The outer cell decodes while the inner one is first used; then
        // both give their value again, on any thread.
        for _ in 0..2 {
            assert_eq!(OUTER.get().inner.n, 7, "the nested default, decoded inside the outer one");
        }
        let other = std::thread::spawn(|| OUTER.get()).join().unwrap();
        assert_eq!(other.inner.n, 7);
    }
}
