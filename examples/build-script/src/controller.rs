//! A Certificate auditor on kube-rs, over the generated `Certificate`: it
//! watches cert-manager's Certificates, checks each spec for mistakes, and
//! records the findings in an annotation with server-side apply, behind a
//! finalizer that removes nothing but shows the cleanup hook.
//!
//! What to report is the pure function [`audit`], unit-tested without a
//! cluster; [`reconcile`] only talks to the API server.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt as _;
use kube::api::{Patch, PatchParams};
use kube::runtime::controller::Action;
use kube::runtime::finalizer::{self, Event, finalizer};
use kube::runtime::{Controller, watcher};
use kube::{Api, Client, ResourceExt as _};

use crate::certificates::v1::Certificate;

/// The field manager of every apply, and the finalizer's name.
pub const MANAGER: &str = "certificate-auditor.example.com";
/// The annotation that holds the findings.
pub const FINDINGS: &str = "certificate-auditor.example.com/findings";

/// Why a reconciliation failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The API server refused or could not be reached.
    #[error("Kubernetes API: {0}")]
    Kube(#[from] kube::Error),
    /// Adding or removing the finalizer, or the reconciliation inside it.
    #[error("finalizer: {0}")]
    Finalizer(#[source] Box<finalizer::Error<Error>>),
}

/// Audits every Certificate of the cluster until the watch ends.
pub async fn run(client: Client) {
    Controller::new(Api::<Certificate>::all(client.clone()), watcher::Config::default())
        .run(reconcile, |_, _, _| Action::requeue(Duration::from_secs(60)), Arc::new(client))
        .for_each(|result| async move {
            if let Err(error) = result {
                eprintln!("audit failed: {error}");
            }
        })
        .await;
}

/// Records the findings of one Certificate, behind the finalizer.
pub async fn reconcile(certificate: Arc<Certificate>, client: Arc<Client>) -> Result<Action, Error> {
    let namespace = certificate.namespace().unwrap_or_default();
    let api: Api<Certificate> = Api::namespaced((*client).clone(), &namespace);
    finalizer(&api, MANAGER, certificate, |event| async {
        match event {
            Event::Apply(certificate) => {
                let findings = audit(&certificate).join("; ");
                let patch = serde_json::json!({
                    "apiVersion": "cert-manager.io/v1",
                    "kind": "Certificate",
                    "metadata": {"annotations": {FINDINGS: findings}},
                });
                let params = PatchParams::apply(MANAGER).force();
                api.patch(&certificate.name_any(), &params, &Patch::Apply(&patch)).await?;
                Ok(Action::requeue(Duration::from_secs(3600)))
            }
            Event::Cleanup(_) => Ok(Action::await_change()),
        }
    })
    .await
    .map_err(|error| Error::Finalizer(Box::new(error)))
}

/// What is wrong with a Certificate's spec, in words; empty when nothing is.
pub fn audit(certificate: &Certificate) -> Vec<String> {
    let Some(spec) = &certificate.spec else { return vec!["no spec".to_owned()] };
    let mut findings = Vec::new();
    let names = spec.dns_names.as_ref().map_or(0, Vec::len) + spec.ip_addresses.as_ref().map_or(0, Vec::len);
    if names == 0 && spec.common_name.is_none() && spec.uris.as_ref().is_none_or(Vec::is_empty) {
        findings.push("names no subject: no dnsNames, ipAddresses, uris or commonName".to_owned());
    }
    let wildcards: BTreeMap<&str, ()> =
        spec.dns_names.iter().flatten().filter(|n| n.starts_with("*.")).map(|n| (n.as_str(), ())).collect();
    if let Some(first) = wildcards.keys().next() {
        findings.push(format!("issues a wildcard certificate ({first})"));
    }
    if spec.secret_name.is_empty() {
        findings.push("has an empty secretName".to_owned());
    }
    findings
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::certificates::v1::CertificateSpec;

    fn certificate(spec: serde_json::Value) -> Certificate {
        let manifest = serde_json::json!({
            "apiVersion": "cert-manager.io/v1", "kind": "Certificate",
            "metadata": {"name": "web"}, "spec": spec,
        });
        serde_json::from_value(manifest).expect("a Certificate")
    }

    #[test]
    fn a_certificate_with_names_and_a_secret_passes() {
        let spec =
            serde_json::json!({"secretName": "web-tls", "dnsNames": ["example.com"], "issuerRef": {"name": "ca"}});
        assert_eq!(audit(&certificate(spec)), Vec::<String>::new());
    }

    #[test]
    fn findings_name_each_mistake() {
        let spec = serde_json::json!({"secretName": "", "issuerRef": {"name": "ca"}});
        assert_eq!(
            audit(&certificate(spec)),
            ["names no subject: no dnsNames, ipAddresses, uris or commonName", "has an empty secretName"]
        );
        let spec = serde_json::json!({"secretName": "s", "dnsNames": ["*.example.com"], "issuerRef": {"name": "ca"}});
        assert_eq!(audit(&certificate(spec)), ["issues a wildcard certificate (*.example.com)"]);
    }

    #[test]
    fn the_constructor_gives_an_auditable_certificate() {
        let spec =
            CertificateSpec { secret_name: "t".to_owned(), common_name: Some("a".to_owned()), ..Default::default() };
        let built = Certificate::new("web", spec);
        assert_eq!(built.name_any(), "web");
        assert!(audit(&built).is_empty());
    }
}
