//! `spec.conversion`, as Go's `validateCustomResourceConversion` and
//! `validateConversionReviewVersions`: the strategy, the webhook client
//! configuration (through [`webhook`](super::webhook)) and the
//! ConversionReview versions the webhook understands.

use serde_json::Value;

use super::webhook;
use crate::crd::{Conversion, WebhookClientConfig};
use crate::field::{ErrorList, FieldError, Path};
use crate::objectmeta::names::is_dns1035_label;

/// The ConversionReview versions the API server can send, sorted as its
/// message lists them.
const ACCEPTED_REVIEW_VERSIONS: [&str; 2] = ["v1", "v1beta1"];

/// What an update relaxes about the conversion (see
/// [`ConversionOptions::for_update`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct ConversionOptions {
    /// One review version must be one the server sends.
    pub(super) require_recognized_review_version: bool,
    /// A `caBundle` without a usable certificate is accepted.
    pub(super) allow_invalid_ca_bundle: bool,
}

impl ConversionOptions {
    /// Creation requires a recognized review version and, the CRD not
    /// being established yet, accepts any `caBundle`.
    pub(super) const CREATE: Self = Self { require_recognized_review_version: true, allow_invalid_ca_bundle: true };

    /// An update requires a recognized review version only when the stored
    /// CRD has no conversion, no review versions or a recognized one; it
    /// accepts an invalid `caBundle` when the stored CRD is not established
    /// or its own `caBundle` is already invalid.
    pub(super) fn for_update(old: &crate::crd::CustomResourceDefinition) -> Self {
        let require_recognized_review_version = old.spec.conversion.as_ref().is_none_or(|c| {
            c.conversion_review_versions.is_empty()
                || c.conversion_review_versions.iter().any(|v| ACCEPTED_REVIEW_VERSIONS.contains(&v.as_str()))
        });
        let old_bundle =
            old.spec.conversion.as_ref().and_then(|c| c.webhook_client_config.as_ref()).map(|c| &c.ca_bundle);
        let allow_invalid_ca_bundle = !old.is_established()
            || old_bundle.is_some_and(|b| !b.is_empty() && webhook::validate_ca_bundle(&Path::root(), b).is_some());
        Self { require_recognized_review_version, allow_invalid_ca_bundle }
    }
}

/// The errors of `conversion` (nothing when absent) at `path`.
pub(super) fn validate_conversion(
    conversion: Option<&Conversion>,
    options: ConversionOptions,
    path: &Path,
) -> ErrorList {
    let Some(conversion) = conversion else { return ErrorList::new() };
    let mut errors = ErrorList::new();
    let strategy = path.child("strategy");
    match conversion.strategy.as_str() {
        "" => errors.push(FieldError::required(&strategy, "")),
        "None" | "Webhook" => {}
        other => errors.push(FieldError::not_supported(&strategy, other, &["None", "Webhook"])),
    }
    let config_path = path.child("webhookClientConfig");
    let versions_path = path.child("conversionReviewVersions");
    if conversion.strategy == "Webhook" {
        match &conversion.webhook_client_config {
            None => errors.push(FieldError::required(&config_path, "required when strategy is set to Webhook")),
            Some(config) => errors.extend(client_config(config, options, &config_path)),
        }
        let versions = &conversion.conversion_review_versions;
        errors.extend(review_versions(versions, options.require_recognized_review_version, &versions_path));
    } else {
        let detail = "should not be set when strategy is not set to Webhook";
        if conversion.webhook_client_config.is_some() {
            errors.push(FieldError::forbidden(&config_path, detail));
        }
        if !conversion.conversion_review_versions.is_empty() {
            errors.push(FieldError::forbidden(&versions_path, detail));
        }
    }
    errors
}

// Exactly one of `url` and `service`. Kubernetes hands the service's name
// and namespace to a check that takes namespace first, so an empty name
// is reported at `service.namespace` and the other way round; that is
// reproduced.
fn client_config(config: &WebhookClientConfig, options: ConversionOptions, path: &Path) -> ErrorList {
    let mut errors = match (&config.url, &config.service) {
        (Some(url), None) => webhook::validate_url(&path.child("url"), url, true),
        (None, Some(s)) => {
            webhook::validate_service(&path.child("service"), &s.name, &s.namespace, s.path.as_deref(), s.port)
        }
        _ => vec![FieldError::required(path, "exactly one of url or service is required")],
    };
    if !config.ca_bundle.is_empty() && !options.allow_invalid_ca_bundle {
        errors.extend(webhook::validate_ca_bundle(&path.child("caBundle"), &config.ca_bundle));
    }
    errors
}

// At least one version; a repeated one is only `duplicate version`; every
// other is a DNS-1035 label (one error per message); where required, one
// must be a version the server sends.
fn review_versions(versions: &[String], require_recognized: bool, path: &Path) -> ErrorList {
    if versions.is_empty() {
        return vec![FieldError::required(path, "")];
    }
    let mut errors = ErrorList::new();
    for (i, version) in versions.iter().enumerate() {
        if versions[..i].contains(version) {
            errors.push(FieldError::invalid(&path.index(i), version.as_str(), "duplicate version"));
            continue;
        }
        errors.extend(
            is_dns1035_label(version).into_iter().map(|m| FieldError::invalid(&path.index(i), version.as_str(), m)),
        );
    }
    if require_recognized && !versions.iter().any(|v| ACCEPTED_REVIEW_VERSIONS.contains(&v.as_str())) {
        let list = Value::Array(versions.iter().cloned().map(Value::String).collect());
        let detail = format!("must include at least one of {}", ACCEPTED_REVIEW_VERSIONS.join(", "));
        errors.push(FieldError::invalid(path, list, detail));
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crd::ServiceReference;

    fn texts(conversion: &Conversion, options: ConversionOptions) -> Vec<String> {
        validate_conversion(Some(conversion), options, &Path::new("spec").child("conversion"))
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    fn webhook(config: WebhookClientConfig, versions: &[&str]) -> Conversion {
        Conversion {
            strategy: "Webhook".into(),
            webhook_client_config: Some(config),
            conversion_review_versions: versions.iter().map(|v| (*v).to_owned()).collect(),
        }
    }

    #[test]
    fn service_name_and_namespace_are_swapped_as_in_kubernetes() {
        let service = ServiceReference { namespace: "ns".into(), name: String::new(), path: None, port: 443 };
        let config = WebhookClientConfig { service: Some(service), ..WebhookClientConfig::default() };
        assert_eq!(
            texts(&webhook(config, &["v1"]), ConversionOptions::CREATE),
            ["spec.conversion.webhookClientConfig.service.namespace: Required value"]
        );
    }

    #[test]
    fn review_versions_are_checked_one_by_one() {
        let config = WebhookClientConfig { url: Some("https://h".into()), ..WebhookClientConfig::default() };
        let got = texts(&webhook(config, &["v2", "v2", "V3"]), ConversionOptions::CREATE);
        assert_eq!(got.len(), 3, "{got:#?}");
        assert_eq!(got[0], "spec.conversion.conversionReviewVersions[1]: Invalid value: \"v2\": duplicate version");
        assert!(got[1].starts_with("spec.conversion.conversionReviewVersions[2]: Invalid value: \"V3\": a DNS-1035"));
        assert_eq!(
            got[2],
            "spec.conversion.conversionReviewVersions: Invalid value: [\"v2\",\"v2\",\"V3\"]: must include at least one of v1, v1beta1"
        );
    }

    #[test]
    fn ca_bundles_are_checked_only_when_not_allowed_invalid() {
        let config = WebhookClientConfig {
            url: Some("https://h".into()),
            ca_bundle: b"Cg==".to_vec(),
            ..WebhookClientConfig::default()
        };
        let conversion = webhook(config, &["v1"]);
        assert!(texts(&conversion, ConversionOptions::CREATE).is_empty());
        let strict = ConversionOptions { require_recognized_review_version: true, allow_invalid_ca_bundle: false };
        assert_eq!(
            texts(&conversion, strict),
            [
                "spec.conversion.webhookClientConfig.caBundle: Invalid value: \"Q2c9PQ==\": unable to parse bytes as PEM block"
            ]
        );
    }

    #[test]
    fn none_forbids_webhook_settings() {
        let conversion = Conversion {
            strategy: "None".into(),
            webhook_client_config: Some(WebhookClientConfig::default()),
            conversion_review_versions: vec!["v1".into()],
        };
        assert_eq!(
            texts(&conversion, ConversionOptions::CREATE),
            [
                "spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook",
                "spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook",
            ]
        );
    }
}
