//! Decoding into generated (or any serde) types with errors that name the
//! JSON path of the offending value.
//!
//! Entry points: [`from_value`] and [`from_str`]. Generated types decode the
//! way the API server does (pruning, null pruning, defaulting); a value of
//! the wrong type is not silently changed but an error such as
//! `spec.replicas: invalid type: string "three", expected i32`.
//!
//! ```
//! #[derive(serde::Deserialize, Debug)]
//! struct Spec { replicas: i32 }
//! #[derive(serde::Deserialize, Debug)]
//! struct Foo { spec: Spec }
//!
//! let err = crd_schema::typed::from_value::<Foo>(serde_json::json!({"spec": {"replicas": "three"}})).unwrap_err();
//! assert_eq!(err.to_string(), "spec.replicas: invalid type: string \"three\", expected i32");
//! ```

use std::fmt;

#[cfg(feature = "engine")]
mod validate;
#[cfg(feature = "engine")]
pub use validate::Invalid;
#[cfg(feature = "engine")]
pub(crate) use validate::validate_typed;

use serde::de::DeserializeOwned;
use serde_json::Value;

/// A decoding error and where it happened.
#[derive(Debug)]
pub struct TypedError {
    path: String,
    message: String,
}

impl TypedError {
    /// The JSON path of the offending value (`spec.ports[0].port`; `.` for
    /// the whole document).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What is wrong with it.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for TypedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

impl std::error::Error for TypedError {}

fn typed_error(e: serde_path_to_error::Error<serde_json::Error>) -> TypedError {
    let path = e.path().to_string();
    TypedError { path, message: e.into_inner().to_string() }
}

/// Decodes `value` into `T`, naming the path of any ill-typed value.
///
/// Tracking the path makes decoding take about 1.5 times as long, so the
/// value is decoded without it first; only a value that fails is decoded
/// again, with the path tracked, to name where.
pub fn from_value<T: DeserializeOwned>(value: Value) -> Result<T, TypedError> {
    match T::deserialize(&value) {
        Ok(decoded) => Ok(decoded),
        Err(_) => serde_path_to_error::deserialize(value).map_err(typed_error),
    }
}

/// Decodes JSON text into `T`, naming the path of any ill-typed value. As
/// with [`from_value`], the path is tracked only when a first decoding
/// fails.
pub fn from_str<T: DeserializeOwned>(json: &str) -> Result<T, TypedError> {
    serde_json::from_str(json).or_else(|_| {
        let mut deserializer = serde_json::Deserializer::from_str(json);
        let value = serde_path_to_error::deserialize(&mut deserializer).map_err(typed_error)?;
        deserializer.end().map_err(|e| TypedError { path: ".".to_owned(), message: e.to_string() })?;
        Ok(value)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    struct Item {
        port: u16,
    }

    #[derive(Debug, Deserialize)]
    struct Spec {
        items: Vec<Item>,
    }

    #[test]
    fn errors_name_the_path() {
        let err = from_str::<Spec>(r#"{"items": [{"port": 1}, {"port": "x"}]}"#).unwrap_err();
        assert_eq!(err.path(), "items[1].port");
        assert!(err.message().starts_with("invalid type: string \"x\""), "{err}");
        let err = from_str::<Spec>("{} x").unwrap_err();
        assert_eq!(err.path(), ".");
        let err = from_value::<Spec>(serde_json::json!({"items": [{"port": 1}, {"port": 70000}]})).unwrap_err();
        assert_eq!(err.path(), "items[1].port");
        assert!(err.message().starts_with("invalid value: integer `70000`"), "{err}");
    }

    #[test]
    fn values_decode_as_serde_decodes_them() {
        // The first, path-free decoding is the result.
        let value = serde_json::json!({"items": [{"port": 80}, {"port": 443}]});
        let ports = |spec: Spec| spec.items.iter().map(|i| i.port).collect::<Vec<_>>();
        assert_eq!(ports(from_value(value.clone()).unwrap()), [80, 443]);
        assert_eq!(ports(from_str(&format!("{value} ")).unwrap()), [80, 443]);
    }
}
