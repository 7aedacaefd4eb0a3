//! One `additionalPrinterColumns` entry, as Go's
//! `ValidateCustomResourceColumnDefinition`.

use super::subresources::simple_json_path;
use crate::crd::PrinterColumn;
use crate::field::{ErrorList, FieldError, Path};

/// The column types `kubectl get` can print, sorted as Kubernetes lists
/// them in its message. (crd-derive, which cannot depend on this crate,
/// checks its attributes against its own copy.)
pub const PRINTER_COLUMN_TYPES: [&str; 5] = ["boolean", "date", "integer", "number", "string"];

/// The formats a printer column may name, sorted as Kubernetes lists them.
pub const PRINTER_COLUMN_FORMATS: [&str; 8] =
    ["byte", "date", "date-time", "double", "float", "int32", "int64", "password"];

/// The errors of column `column` at `path`: a name, a known type, a known
/// format when one is set, and a simple JSON path (at `JSONPath`, the
/// internal spelling).
pub(super) fn validate_column(column: &PrinterColumn, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    if column.name.is_empty() {
        errors.push(FieldError::required(&path.child("name"), ""));
    }
    let types = format!("must be one of {}", PRINTER_COLUMN_TYPES.join(","));
    if column.type_.is_empty() {
        errors.push(FieldError::required(&path.child("type"), types));
    } else if !PRINTER_COLUMN_TYPES.contains(&column.type_.as_str()) {
        errors.push(FieldError::invalid(&path.child("type"), column.type_.as_str(), types));
    }
    if !column.format.is_empty() && !PRINTER_COLUMN_FORMATS.contains(&column.format.as_str()) {
        let formats = format!("must be one of {}", PRINTER_COLUMN_FORMATS.join(","));
        errors.push(FieldError::invalid(&path.child("format"), column.format.as_str(), formats));
    }
    let json_path = path.child("JSONPath");
    if column.json_path.is_empty() {
        errors.push(FieldError::required(&json_path, ""));
    } else {
        errors.extend(simple_json_path(&column.json_path, &json_path));
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_is_checked() {
        let column = PrinterColumn {
            type_: "int".into(),
            format: "uuid".into(),
            json_path: "spec".into(),
            ..PrinterColumn::default()
        };
        let got: Vec<String> = validate_column(&column, &Path::new("c")).iter().map(ToString::to_string).collect();
        assert_eq!(
            got,
            [
                "c.name: Required value",
                "c.type: Invalid value: \"int\": must be one of boolean,date,integer,number,string",
                "c.format: Invalid value: \"uuid\": must be one of byte,date,date-time,double,float,int32,int64,password",
                "c.JSONPath: Invalid value: \"spec\": must be a simple json path starting with .",
            ]
        );
        let empty: Vec<String> =
            validate_column(&PrinterColumn::default(), &Path::new("c")).iter().map(ToString::to_string).collect();
        assert_eq!(empty[1], "c.type: Required value: must be one of boolean,date,integer,number,string");
    }
}
