//! cert-manager's `Certificate`, generated from its CRD by `build.rs`, used
//! with `kube::Api` and `kube::runtime::Controller` exactly like a
//! k8s-openapi type ([`controller`] is a whole auditor).
//!
//! Running it needs no cluster: it decodes a manifest the way the API server
//! would (unknown fields dropped, defaults applied) and shows how an `Api`
//! would be built.

mod certificates {
    include!(concat!(env!("OUT_DIR"), "/certificates.rs"));
}
pub mod controller;

use certificates::v1::Certificate;
use kube::{Api, Client};

/// Lists the certificates of a namespace (needs a cluster; not called here).
pub async fn list(client: Client, namespace: &str) -> kube::Result<Vec<Certificate>> {
    let api: Api<Certificate> = Api::namespaced(client, namespace);
    Ok(api.list(&Default::default()).await?.items)
}

const MANIFEST: &str = r#"{
  "apiVersion": "cert-manager.io/v1",
  "kind": "Certificate",
  "metadata": {"name": "example", "namespace": "default"},
  "spec": {
    "secretName": "example-tls",
    "dnsNames": ["example.com"],
    "issuerRef": {"name": "letsencrypt", "kind": "ClusterIssuer"},
    "notAField": true
  }
}"#;

fn main() -> Result<(), serde_json::Error> {
    let certificate: Certificate = serde_json::from_str(MANIFEST)?;
    println!(
        "{} {}",
        <Certificate as k8s_openapi::Resource>::API_VERSION,
        <Certificate as k8s_openapi::Resource>::KIND
    );
    println!("{}", serde_json::to_string_pretty(&certificate)?);
    Ok(())
}
