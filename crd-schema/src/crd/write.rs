//! The internal layout as JSON, in v1beta1's spelling (the internal one):
//! what error values show of a CRD's versions.

use serde::Serialize;
use serde_json::{Map, Value, json};

use super::{CrdVersion, PrinterColumn};

impl CrdVersion {
    /// This version as JSON: absent and empty fields are left out.
    pub fn to_value(&self) -> Value {
        let mut m = Map::new();
        m.insert("name".into(), Value::String(self.name.clone()));
        m.insert("served".into(), Value::Bool(self.served));
        m.insert("storage".into(), Value::Bool(self.storage));
        if self.deprecated {
            m.insert("deprecated".into(), Value::Bool(true));
        }
        if let Some(warning) = &self.deprecation_warning {
            m.insert("deprecationWarning".into(), Value::String(warning.clone()));
        }
        if let Some(schema) = &self.schema {
            let inner = schema.open_api_v3_schema.as_ref().map(crate::wire::JSONSchemaProps::to_value);
            m.insert("schema".into(), inner.map_or_else(|| json!({}), |s| json!({"openAPIV3Schema": s})));
        }
        if let Some(subresources) = &self.subresources {
            m.insert("subresources".into(), shared_value(subresources));
        }
        if !self.additional_printer_columns.is_empty() {
            let columns = self.additional_printer_columns.iter().map(column_value).collect();
            m.insert("additionalPrinterColumns".into(), Value::Array(columns));
        }
        if !self.selectable_fields.is_empty() {
            m.insert("selectableFields".into(), shared_value(&self.selectable_fields));
        }
        Value::Object(m)
    }
}

// Subresources and selectable fields are spelled the same in every layout:
// their v1 serialisation, which cannot fail (string keys, no floats).
fn shared_value(part: &impl Serialize) -> Value {
    serde_json::to_value(part).unwrap_or(Value::Null)
}

// Printer columns are not: the internal layout spells the path `JSONPath`.
fn column_value(c: &PrinterColumn) -> Value {
    let mut m = Map::new();
    m.insert("name".into(), Value::String(c.name.clone()));
    m.insert("type".into(), Value::String(c.type_.clone()));
    for (key, value) in [("format", &c.format), ("description", &c.description)] {
        if !value.is_empty() {
            m.insert(key.into(), Value::String(value.clone()));
        }
    }
    if c.priority != 0 {
        m.insert("priority".into(), Value::from(c.priority));
    }
    m.insert("JSONPath".into(), Value::String(c.json_path.clone()));
    Value::Object(m)
}
