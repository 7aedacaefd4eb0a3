//! String formats: which ones Kubernetes recognises per version
//! (`formats.go`: `StripUnsupportedFormatsPostProcessorForVersion`,
//! `GetUnrecognizedFormats`), and the format validator over kube-openapi's
//! `strfmt.Default` registry.
//!
//! Format names are compared after removing every `-` (go-openapi's name
//! normalisation), so `date-time` is `datetime`; case matters.

mod email;
mod net;
mod text;
mod time;

pub(crate) use time::go_duration_nanos;

use super::CompatibilityVersion;
use super::outcome::Outcome;
use super::types::invalid_type;
use super::walk::At;

// The string formats of Kubernetes 1.0, normalised.
const FORMATS_1_0: &[&str] = &[
    "bsonobjectid",
    "uri",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "cidr",
    "mac",
    "uuid",
    "uuid3",
    "uuid4",
    "uuid5",
    "isbn",
    "isbn10",
    "isbn13",
    "creditcard",
    "ssn",
    "hexcolor",
    "rgbcolor",
    "byte",
    "password",
    "date",
    "duration",
    "datetime",
];

// The string formats added in Kubernetes 1.34, normalised.
const FORMATS_1_34: &[&str] = &["k8sshortname", "k8slongname"];

fn normalize(format: &str) -> String {
    format.replace('-', "")
}

// Whether a string format is supported at `version`.
fn string_format_supported(format: &str, version: CompatibilityVersion) -> bool {
    let name = normalize(format);
    FORMATS_1_0.contains(&name.as_str())
        || (version >= CompatibilityVersion { major: 1, minor: 34 } && FORMATS_1_34.contains(&name.as_str()))
}

/// Whether Kubernetes recognises `format` on a schema with these types at
/// `version`: `int32`/`int64` for a single `integer`, `float`/`double` for
/// a single `number`, the string formats for `string`, no type or several
/// types, nothing for other types. The empty format counts as recognised.
pub fn is_recognized_format(types: &[String], format: &str, version: CompatibilityVersion) -> bool {
    if format.is_empty() {
        return true;
    }
    let single = match types {
        [t] => t.as_str(),
        _ => "",
    };
    match single {
        "" | "string" => string_format_supported(format, version),
        "integer" => matches!(format, "int32" | "int64"),
        "number" => matches!(format, "float" | "double"),
        _ => false,
    }
}

/// Kubernetes' `GetUnrecognizedFormats`: the format, if it is not
/// recognised (see [`is_recognized_format`]).
pub fn unrecognized_formats(types: &[String], format: &str, version: CompatibilityVersion) -> Vec<String> {
    if is_recognized_format(types, format, version) { Vec::new() } else { vec![format.to_owned()] }
}

/// The format a node keeps for validation: unrecognised ones are removed.
pub(crate) fn strip_unsupported(format: &str, types: &[String], version: CompatibilityVersion) -> String {
    if is_recognized_format(types, format, version) { format.to_owned() } else { String::new() }
}

/// Validates a string against a format of the registry; `false` when the
/// format is not in the registry (the validator does not apply). Counts no
/// match.
pub(crate) fn check(format: &str, path: &At<'_>, s: &str, out: &mut Outcome) -> bool {
    // Most nodes have no format: nothing to normalise.
    if format.is_empty() {
        return false;
    }
    let Some(valid) = validates(&normalize(format), s) else { return false };
    if !valid {
        out.report(|| invalid_type(path, format, s));
    }
    true
}

// kube-openapi's `strfmt.Default` registry, by normalised name.
fn validates(name: &str, s: &str) -> Option<bool> {
    Some(match name {
        "bsonobjectid" => text::is_bson_object_id(s),
        "uri" => crate::gourl::parse_request_uri(s).is_ok(),
        "email" => email::is_email(s),
        "hostname" => text::is_hostname(s),
        "ipv4" => net::is_ipv4(s),
        "ipv6" => net::is_ipv6(s),
        "cidr" => net::is_cidr(s),
        "mac" => net::is_mac(s),
        "uuid" => text::is_uuid(s, None),
        "uuid3" => text::is_uuid(s, Some('3')),
        "uuid4" => text::is_uuid(s, Some('4')),
        "uuid5" => text::is_uuid(s, Some('5')),
        "isbn" => text::is_isbn10(s) || text::is_isbn13(s),
        "isbn10" => text::is_isbn10(s),
        "isbn13" => text::is_isbn13(s),
        "creditcard" => text::is_credit_card(s),
        "ssn" => text::is_ssn(s),
        "hexcolor" => text::is_hex_color(s),
        "rgbcolor" => text::is_rgb_color(s),
        "byte" => text::is_base64(s),
        "password" => true,
        "date" => time::is_date(s),
        "datetime" => time::is_date_time(s),
        "duration" => time::is_duration(s),
        "k8sshortname" => text::is_short_name(s),
        "k8slongname" => text::is_long_name(s),
        "k8sipsloppy" => net::is_ip_sloppy(s),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The path `f` of the tests' messages.
    const F: At<'static> = At::Property(&At::Root, "f");
    use serde_json::Value;

    // The value of a format error: the string itself.
    fn error_value(outcome: &Outcome) -> Option<Value> {
        outcome.messages.first().and_then(|m| m.value.clone())
    }

    fn strings(types: &[&str]) -> Vec<String> {
        types.iter().map(|t| (*t).to_owned()).collect()
    }

    #[test]
    fn recognition_by_type_and_version() {
        let v1_0 = CompatibilityVersion { major: 1, minor: 0 };
        let v1_33 = CompatibilityVersion { major: 1, minor: 33 };
        assert!(is_recognized_format(&strings(&["string"]), "date-time", v1_0));
        assert!(is_recognized_format(&strings(&["string"]), "bson-object-id", v1_0));
        assert!(!is_recognized_format(&strings(&["string"]), "Date", v1_0));
        assert!(!is_recognized_format(&strings(&["string"]), "date_time", v1_0));
        assert!(!is_recognized_format(&strings(&["string"]), "k8s-short-name", v1_33));
        assert!(is_recognized_format(&strings(&["string"]), "k8sshortname", CompatibilityVersion::LATEST));
        assert!(is_recognized_format(&strings(&["integer"]), "int32", v1_0));
        assert!(!is_recognized_format(&strings(&["integer"]), "uint32", v1_0));
        assert!(!is_recognized_format(&strings(&["number"]), "float32", v1_0));
        assert!(!is_recognized_format(&strings(&["array"]), "date", v1_0));
        assert!(is_recognized_format(&strings(&["string", "null"]), "email", v1_0));
        assert_eq!(unrecognized_formats(&[], "x", v1_0), vec!["x"]);
        assert!(unrecognized_formats(&[], "", v1_0).is_empty());
    }

    #[test]
    fn check_reports_the_format_as_written() {
        let mut out = Outcome::default();
        assert!(check("k8s-short-name", &F, "A", &mut out));
        assert_eq!(out.messages[0].text, "f in body must be of type k8s-short-name: \"A\"");
        assert_eq!(error_value(&out), Some(Value::String("A".to_owned())));
        let mut out = Outcome::default();
        assert!(check("date", &F, "2006-01-02", &mut out) && out.is_valid());
        assert!(!check("int32", &F, "x", &mut out));
        assert!(!check("", &F, "x", &mut out));
    }
}
