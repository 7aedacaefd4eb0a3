//! Validating values of derived or generated types
//! ([`CustomResourceSchema::validate`](crate::schema::CustomResourceSchema::validate),
//! feature `engine`): the value is serialized and run through the API
//! server's path ([`ResourceValidator`]), with one validator per type,
//! prepared on first use and kept for the process.

use std::any::TypeId;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use serde::Serialize;
use serde_json::Value;

use crate::crd::CustomResourceDefinition;
use crate::field::{ErrorList, FieldError, Path};
use crate::resource::{ResourceValidator, serving_schema};
use crate::schema::{CustomResourceSchema, schema_for};
use crate::wire::JSONSchemaProps;

/// The errors of a value the API server would refuse
/// ([`CustomResourceSchema::validate`]):
/// never empty; displayed one error per line, as Kubernetes prints them.
#[derive(Clone, Debug, PartialEq)]
pub struct Invalid(pub ErrorList);

impl std::fmt::Display for Invalid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, error) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{error}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Invalid {}

type Prepared = Arc<Result<ResourceValidator, String>>;

// One validator per type, prepared on first use.
fn prepared<T: CustomResourceSchema + 'static>() -> Prepared {
    static CACHE: OnceLock<Mutex<HashMap<TypeId, Prepared>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Mutex::default);
    let key = TypeId::of::<T>();
    if let Some(found) = cache.lock().unwrap_or_else(PoisonError::into_inner).get(&key) {
        return Arc::clone(found);
    }
    let made = Arc::new(prepare_for::<T>());
    cache.lock().unwrap_or_else(PoisonError::into_inner).insert(key, Arc::clone(&made));
    made
}

fn prepare_for<T: CustomResourceSchema>() -> Result<ResourceValidator, String> {
    let name = std::any::type_name::<T>();
    if let Some(manifest) = T::root_crd() {
        // A root's CRD has the root's version only, which is the spec's
        // `version` once converted.
        let crd = CustomResourceDefinition::from(&manifest);
        return ResourceValidator::from_crd(&crd, &crd.spec.version).map_err(|e| e.to_string());
    }
    let schema = JSONSchemaProps::from_value(&Value::Object(schema_for::<T>()))
        .map_err(|e| format!("the schema of {name} does not decode: {e}"))?;
    serving_schema(&schema, name).map(ResourceValidator::for_schema).map_err(|e| e.to_string())
}

/// Typed validation: `value` (and `old`) serialized and run through the
/// server path with `T`'s prepared validator.
pub(crate) fn validate_typed<T>(value: &T, old: Option<&T>) -> Result<(), Invalid>
where
    T: CustomResourceSchema + Serialize + 'static,
{
    let internal = |detail: String| Invalid(vec![FieldError::internal(&Path::root(), detail)]);
    let prepared = prepared::<T>();
    let validator = prepared.as_ref().as_ref().map_err(|e| internal(e.clone()))?;
    let to_value = |v: &T| serde_json::to_value(v).map_err(|e| internal(format!("the value does not serialize: {e}")));
    let object = to_value(value)?;
    let outcome = match old {
        Some(old) => validator.update(object, to_value(old)?),
        None => validator.create(object),
    };
    if outcome.errors.is_empty() { Ok(()) } else { Err(Invalid(outcome.errors)) }
}
