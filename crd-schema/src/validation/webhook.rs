//! Webhook client configurations, as `k8s.io/apiserver/pkg/util/webhook`:
//! `ValidateWebhookURL`, `ValidateWebhookService` and `ValidateCABundle`.

use serde_json::Value;

use super::pem;
use crate::field::{ErrorList, FieldError, Path};
use crate::gourl as url;
use crate::objectmeta::names::is_dns1123_subdomain;

/// What the URL errors add about the expected form.
const FORM: &str = "; desired format: https://host[/path]";

/// The errors of webhook URL `url` at `path`: a URL that does not parse is
/// one `Required` error; otherwise each problem (a scheme other than
/// `https` when `force_https`, no host, user information, a fragment, a
/// query) is one error.
pub(super) fn validate_url(path: &Path, raw: &str, force_https: bool) -> ErrorList {
    let parsed = match url::parse(raw) {
        Ok(parsed) => parsed,
        Err(e) => return vec![FieldError::required(path, format!("url must be a valid URL: {e}{FORM}"))],
    };
    let mut errors = ErrorList::new();
    if force_https && parsed.scheme != "https" {
        let detail = format!("'https' is the only allowed URL scheme{FORM}");
        errors.push(FieldError::invalid(path, parsed.scheme.as_str(), detail));
    }
    if parsed.host.is_empty() {
        errors.push(FieldError::invalid(path, parsed.host.as_str(), format!("host must be specified{FORM}")));
    }
    if let Some(user) = &parsed.user {
        errors.push(FieldError::invalid(path, user.as_str(), "user information is not permitted in the URL"));
    }
    if !parsed.fragment.is_empty() {
        errors.push(FieldError::invalid(path, parsed.fragment.as_str(), "fragments are not permitted in the URL"));
    }
    if !parsed.raw_query.is_empty() {
        let detail = "query parameters are not permitted in the URL";
        errors.push(FieldError::invalid(path, parsed.raw_query.as_str(), detail));
    }
    errors
}

/// The errors of a webhook service at `path`: a name, a namespace, a port
/// in 1-65535, and a path of non-empty DNS-1123 subdomain segments.
///
/// The parameters are in Go's order, namespace before name; note that CRD
/// validation passes them the other way round (see `conversion.rs`).
pub(super) fn validate_service(
    path: &Path,
    namespace: &str,
    name: &str,
    service_path: Option<&str>,
    port: i32,
) -> ErrorList {
    let mut errors = ErrorList::new();
    if name.is_empty() {
        errors.push(FieldError::required(&path.child("name"), ""));
    }
    if namespace.is_empty() {
        errors.push(FieldError::required(&path.child("namespace"), ""));
    }
    if !(1..=65535).contains(&port) {
        let detail = "port is not valid: must be between 1 and 65535, inclusive";
        errors.push(FieldError::invalid(&path.child("port"), port, detail));
    }
    if let Some(service_path) = service_path {
        errors.extend(service_path_errors(&path.child("path"), service_path));
    }
    errors
}

// `/` and `""` are fine; otherwise the path starts with `/` and every
// segment between slashes (one trailing slash allowed) is a non-empty
// DNS-1123 subdomain; `//` is only `segment[0] may not be empty`.
fn service_path_errors(path: &Path, value: &str) -> ErrorList {
    if value.is_empty() || value == "/" {
        return ErrorList::new();
    }
    let invalid = |detail: String| FieldError::invalid(path, value, detail);
    if value == "//" {
        return vec![invalid("segment[0] may not be empty".to_owned())];
    }
    let mut errors = ErrorList::new();
    if !value.starts_with('/') {
        errors.push(invalid("must start with a '/'".to_owned()));
    }
    // Go drops the first byte whatever it is (here: the first character).
    let rest = value.get(value.chars().next().map_or(0, char::len_utf8)..).unwrap_or_default();
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    for (i, segment) in rest.split('/').enumerate() {
        if segment.is_empty() {
            errors.push(invalid(format!("segment[{i}] may not be empty")));
            continue;
        }
        errors.extend(is_dns1123_subdomain(segment).into_iter().map(|m| invalid(format!("segment[{i}]: {m}"))));
    }
    errors
}

/// The error of a `caBundle` that holds no usable certificate, with the
/// text of client-go's TLS setup: the blocks are read in order; data that
/// is no PEM block, or a certificate block that does not parse, is named;
/// otherwise no certificate was found. The value shows as base64.
pub(super) fn validate_ca_bundle(path: &Path, bundle: &[u8]) -> Option<FieldError> {
    let problem = ca_bundle_problem(bundle)?;
    let shown = Value::String(base64_text(bundle));
    Some(FieldError::invalid(path, shown, problem))
}

// A bundle is good when one header-less CERTIFICATE block parses; else the
// first problem met while reading the blocks.
fn ca_bundle_problem(bundle: &[u8]) -> Option<String> {
    let mut rest = bundle;
    let mut first_problem = None;
    while !rest.is_empty() {
        let Some((block, next)) = pem::decode(rest) else {
            first_problem.get_or_insert_with(|| "unable to parse bytes as PEM block".to_owned());
            break;
        };
        rest = next;
        if block.type_ != "CERTIFICATE" || block.has_headers {
            continue;
        }
        match pem::check_certificate(&block.bytes) {
            Ok(()) => return None,
            Err(e) => {
                first_problem.get_or_insert_with(|| format!("failed to parse certificate: {e}"));
            }
        }
    }
    Some(first_problem.unwrap_or_else(|| "no valid certificate authority data seen".to_owned()))
}

fn base64_text(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(errors: &[FieldError]) -> Vec<String> {
        errors.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn urls() {
        let path = Path::new("u");
        assert!(validate_url(&path, "https://example.com/webhook", true).is_empty());
        assert_eq!(
            texts(&validate_url(&path, "", true)),
            [
                "u: Invalid value: \"\": 'https' is the only allowed URL scheme; desired format: https://host[/path]",
                "u: Invalid value: \"\": host must be specified; desired format: https://host[/path]",
            ]
        );
        assert_eq!(
            texts(&validate_url(&path, "https://a@h/?q=1#f", true)),
            [
                "u: Invalid value: \"a\": user information is not permitted in the URL",
                "u: Invalid value: \"f\": fragments are not permitted in the URL",
                "u: Invalid value: \"q=1\": query parameters are not permitted in the URL",
            ]
        );
        assert_eq!(
            texts(&validate_url(&path, "::", true)),
            [
                "u: Required value: url must be a valid URL: parse \"::\": missing protocol scheme; desired format: https://host[/path]"
            ]
        );
    }

    #[test]
    fn services() {
        let path = Path::new("s");
        assert_eq!(
            texts(&validate_service(&path, "", "", Some("a//b/"), 0)),
            [
                "s.name: Required value",
                "s.namespace: Required value",
                "s.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive",
                "s.path: Invalid value: \"a//b/\": must start with a '/'",
                "s.path: Invalid value: \"a//b/\": segment[0] may not be empty",
                "s.path: Invalid value: \"a//b/\": segment[1] may not be empty",
            ]
        );
        assert_eq!(
            texts(&validate_service(&path, "n", "m", Some("//"), 443)),
            ["s.path: Invalid value: \"//\": segment[0] may not be empty"]
        );
        let bad = texts(&validate_service(&path, "n", "m", Some("/A"), 443));
        assert!(bad[0].starts_with("s.path: Invalid value: \"/A\": segment[0]: a lowercase RFC 1123 subdomain"));
    }

    #[test]
    fn ca_bundles() {
        let path = Path::new("c");
        assert_eq!(
            texts(&validate_ca_bundle(&path, b"Cg==").into_iter().collect::<Vec<_>>()),
            ["c: Invalid value: \"Q2c9PQ==\": unable to parse bytes as PEM block"]
        );
        let key = b"-----BEGIN KEY-----\nAA==\n-----END KEY-----\n";
        assert_eq!(ca_bundle_problem(key).as_deref(), Some("no valid certificate authority data seen"));
        let broken = b"-----BEGIN CERTIFICATE-----\nAA==\n-----END CERTIFICATE-----\n";
        assert_eq!(
            ca_bundle_problem(broken).as_deref(),
            Some("failed to parse certificate: x509: malformed certificate")
        );
        let good = b"-----BEGIN CERTIFICATE-----\nMAgwADAAAwIAAA==\n-----END CERTIFICATE-----\n";
        assert_eq!(ca_bundle_problem(good), None);
    }
}
