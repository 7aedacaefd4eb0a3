//! `crd validate` end to end: every corpus sample against its CRD (accepted,
//! or an expected rejection with its reason), a mixed multi-document
//! manifest, updates with `--old`, bare schemas, output formats and exit
//! codes.

use std::path::{Path, PathBuf};

use crd_tests::{corpus_dir as corpus, crd, write_file as write};
use serde_json::Value;

fn scratch(name: &str) -> crd_tests::Scratch {
    crd_tests::scratch("validate-cli", name)
}

fn files_below(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("read dir") {
        let path = entry.expect("entry").path();
        if path.is_dir() { out.extend(files_below(&path)) } else { out.push(path) }
    }
    out.sort();
    out
}

fn reports(out: &str) -> Vec<Value> {
    serde_json::from_str::<Value>(out).expect("JSON output").as_array().expect("a list").clone()
}

// Why upstream samples are rejected. The API server would refuse each of
// them too: they are documentation snippets, not complete objects.
const NO_NAME: &str = "no metadata.name: a snippet that leaves naming to its chart or docs";
const MISSING_REQUIRED: &str = "the example omits a field the schema requires";
const ONE_OF_MANY: &str = "lists several alternatives (providers, generators) where the schema allows one per object";
const ONE_OF: &str = "matches none, or two, of the schema's oneOf alternatives";
const UNSERVED: &str = "an object of a version the CRD still lists but no longer serves (`served: false`)";
const EMPTY_PLACEHOLDER: &str = "a placeholder left empty where the schema needs at least one character";

/// The corpus samples the API server rejects: `(sample, error it must
/// report, reason)`. A listed sample that validates fails the test, so the
/// list cannot go stale.
const EXPECTED_REJECTIONS: &[(&str, &str, &str)] = &[
    ("argoproj__argo-cd/applications.argoproj.io/5.yaml", "metadata.name: Required value", NO_NAME),
    ("argoproj__argo-cd/applications.argoproj.io/6.yaml", "metadata.name: Required value", NO_NAME),
    (
        "argoproj__argo-cd/applicationsets.argoproj.io/10.yaml",
        "spec.generators[0].git.revision: Required value",
        MISSING_REQUIRED,
    ),
    (
        "argoproj__argo-cd/applicationsets.argoproj.io/7.yaml",
        "spec.template.spec.project: Required value",
        MISSING_REQUIRED,
    ),
    (
        "argoproj__argo-cd/applicationsets.argoproj.io/8.yaml",
        "spec.template.spec.project: Required value",
        MISSING_REQUIRED,
    ),
    (
        "external-secrets__external-secrets/acraccesstokens.generators.external-secrets.io/2.yaml",
        "metadata.name: Required value",
        NO_NAME,
    ),
    (
        "external-secrets__external-secrets/clusterexternalsecrets.external-secrets.io/1.yaml",
        "metadata.name: Required value",
        NO_NAME,
    ),
    (
        "external-secrets__external-secrets/clusterexternalsecrets.external-secrets.io/2.yaml",
        "does not serve version \"v1beta1\" (served: v1)",
        UNSERVED,
    ),
    (
        "external-secrets__external-secrets/clustergenerators.generators.external-secrets.io/2.yaml",
        "metadata.name: Required value",
        NO_NAME,
    ),
    (
        "external-secrets__external-secrets/clustersecretstores.external-secrets.io/10.yaml",
        "metadata.name: Required value",
        NO_NAME,
    ),
    (
        "external-secrets__external-secrets/clustersecretstores.external-secrets.io/6.yaml",
        "spec.provider: Too many: 5",
        ONE_OF_MANY,
    ),
    (
        "external-secrets__external-secrets/ecrauthorizationtokens.generators.external-secrets.io/2.yaml",
        "metadata.name: Required value",
        NO_NAME,
    ),
    (
        "external-secrets__external-secrets/fakes.generators.external-secrets.io/2.yaml",
        "metadata.name: Required value",
        NO_NAME,
    ),
    (
        "external-secrets__external-secrets/gcraccesstokens.generators.external-secrets.io/1.yaml",
        "spec.auth.secretRef.secretAccessKeySecretRef.key: Invalid value: \"\"",
        EMPTY_PLACEHOLDER,
    ),
    (
        "external-secrets__external-secrets/gcraccesstokens.generators.external-secrets.io/2.yaml",
        "metadata.name: Required value",
        NO_NAME,
    ),
    (
        "external-secrets__external-secrets/generatorstates.generators.external-secrets.io/1.yaml",
        "metadata.name: Required value",
        NO_NAME,
    ),
    (
        "external-secrets__external-secrets/githubaccesstokens.generators.external-secrets.io/2.yaml",
        "metadata.name: Required value",
        NO_NAME,
    ),
    (
        "external-secrets__external-secrets/gitlabdeploytokens.generators.external-secrets.io/2.yaml",
        "metadata.name: Required value",
        NO_NAME,
    ),
    (
        "external-secrets__external-secrets/grafanas.generators.external-secrets.io/3.yaml",
        "metadata.name: Required value",
        NO_NAME,
    ),
    (
        "external-secrets__external-secrets/passwords.generators.external-secrets.io/5.yaml",
        "metadata.name: Required value",
        NO_NAME,
    ),
    (
        "external-secrets__external-secrets/quayaccesstokens.generators.external-secrets.io/2.yaml",
        "metadata.name: Required value",
        NO_NAME,
    ),
    (
        "external-secrets__external-secrets/stssessiontokens.generators.external-secrets.io/2.yaml",
        "metadata.name: Required value",
        NO_NAME,
    ),
    (
        "external-secrets__external-secrets/uuids.generators.external-secrets.io/2.yaml",
        "metadata.name: Required value",
        NO_NAME,
    ),
    (
        "external-secrets__external-secrets/vaultdynamicsecrets.generators.external-secrets.io/1.yaml",
        "metadata.name: Required value",
        NO_NAME,
    ),
    (
        "external-secrets__external-secrets/webhooks.generators.external-secrets.io/1.yaml",
        "metadata.name: Required value",
        NO_NAME,
    ),
    ("kedacore__keda/scaledjobs.keda.sh/1.yaml", "spec.jobTargetRef.template: Required value", MISSING_REQUIRED),
    ("kyverno__kyverno/contexts.cli.kyverno.io/5.yaml", "spec.images[0].registry: Required value", MISSING_REQUIRED),
    ("kyverno__kyverno/contexts.cli.kyverno.io/6.yaml", "spec.images[0].registry: Required value", MISSING_REQUIRED),
    ("kyverno__kyverno/ephemeralreports.reports.kyverno.io/1.yaml", "metadata.name: Required value", NO_NAME),
    (
        "kyverno__kyverno/globalcontextentries.kyverno.io/10.yaml",
        "must validate one and only one schema (oneOf)",
        ONE_OF,
    ),
    (
        "kyverno__kyverno/globalcontextentries.kyverno.io/9.yaml",
        "must validate one and only one schema (oneOf)",
        ONE_OF,
    ),
    ("kyverno__kyverno/imagevalidatingpolicies.policies.kyverno.io/10.yaml", "spec: Required value", MISSING_REQUIRED),
    ("kyverno__kyverno/imagevalidatingpolicies.policies.kyverno.io/8.yaml", "spec: Required value", MISSING_REQUIRED),
    ("kyverno__kyverno/policyreports.wgpolicyk8s.io/1.yaml", "metadata.name: Required value", NO_NAME),
    ("kyverno__kyverno/policyreports.wgpolicyk8s.io/2.yaml", "metadata.name: Required value", NO_NAME),
    ("kyverno__kyverno/policyreports.wgpolicyk8s.io/3.yaml", "metadata.name: Required value", NO_NAME),
    ("kyverno__kyverno/policyreports.wgpolicyk8s.io/4.yaml", "metadata.name: Required value", NO_NAME),
    ("kyverno__kyverno/policyreports.wgpolicyk8s.io/5.yaml", "metadata.name: Required value", NO_NAME),
    ("kyverno__kyverno/policyreports.wgpolicyk8s.io/6.yaml", "metadata.name: Required value", NO_NAME),
    ("kyverno__kyverno/policyreports.wgpolicyk8s.io/7.yaml", "metadata.name: Required value", NO_NAME),
    ("kyverno__kyverno/policyreports.wgpolicyk8s.io/8.yaml", "metadata.name: Required value", NO_NAME),
    ("kyverno__kyverno/policyreports.wgpolicyk8s.io/9.yaml", "metadata.name: Required value", NO_NAME),
    (
        "kyverno__kyverno/updaterequests.kyverno.io/2.yaml",
        "spec.ruleContext[0].deleteDownstream: Required value",
        MISSING_REQUIRED,
    ),
    ("kyverno__kyverno/userinfoes.cli.kyverno.io/2.yaml", "metadata.name: Required value", NO_NAME),
    ("kyverno__kyverno/values.cli.kyverno.io/1.yaml", "metadata.name: Required value", NO_NAME),
    ("kyverno__kyverno/values.cli.kyverno.io/10.yaml", "metadata.name: Required value", NO_NAME),
    ("kyverno__kyverno/values.cli.kyverno.io/2.yaml", "metadata.name: Required value", NO_NAME),
    (
        "kyverno__kyverno/values.cli.kyverno.io/3.yaml",
        "subresources[0].parentResource.verbs: Required value",
        MISSING_REQUIRED,
    ),
    ("kyverno__kyverno/values.cli.kyverno.io/4.yaml", "metadata.name: Required value", NO_NAME),
    ("kyverno__kyverno/values.cli.kyverno.io/5.yaml", "metadata.name: Required value", NO_NAME),
    ("kyverno__kyverno/values.cli.kyverno.io/6.yaml", "metadata.name: Required value", NO_NAME),
    ("kyverno__kyverno/values.cli.kyverno.io/7.yaml", "metadata.name: Required value", NO_NAME),
    ("kyverno__kyverno/values.cli.kyverno.io/8.yaml", "metadata.name: Required value", NO_NAME),
    ("kyverno__kyverno/values.cli.kyverno.io/9.yaml", "metadata.name: Required value", NO_NAME),
    (
        "prometheus-operator__prometheus-operator/podmonitors.monitoring.coreos.com/2.yaml",
        "metadata.name: Required value",
        NO_NAME,
    ),
    (
        "prometheus-operator__prometheus-operator/servicemonitors.monitoring.coreos.com/6.yaml",
        "spec.selector: Required value",
        MISSING_REQUIRED,
    ),
];

#[test]
fn every_corpus_sample_is_accepted_or_an_expected_rejection() {
    let samples = files_below(&corpus().join("samples"));
    let crds = corpus().join("crds");
    let mut args = vec!["validate", "--format", "json", "--crd", crds.to_str().expect("path")];
    args.extend(samples.iter().map(|p| p.to_str().expect("path")));
    let (code, out, err) = crd(&args);
    let reports = reports(&out);
    assert_eq!(reports.len(), 419, "{err}");
    assert_eq!(code, 1, "some samples are expected rejections");
    let (mut valid, mut rejected, mut failures) = (0, 0, Vec::new());
    for report in &reports {
        let file = report["file"].as_str().expect("file");
        let sample = file.split("samples/").nth(1).expect("under samples/");
        let errors: Vec<&str> = report["errors"].as_array().expect("errors").iter().filter_map(Value::as_str).collect();
        let expected = EXPECTED_REJECTIONS.iter().find(|(s, _, _)| *s == sample);
        match (report["status"].as_str(), expected) {
            (Some("valid"), None) => valid += 1,
            (Some("invalid"), Some((_, needle, _))) if errors.iter().any(|e| e.contains(needle)) => rejected += 1,
            (status, Some((_, needle, why))) => failures
                .push(format!("{sample}: expected a rejection ({why}) naming {needle:?}, got {status:?}: {errors:?}")),
            (status, None) => failures.push(format!("{sample}: {status:?}: {errors:?}")),
        }
    }
    println!("corpus samples: {valid} valid, {rejected} expected rejections");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(rejected, EXPECTED_REJECTIONS.len());
}

const FOO_CRD: &str = "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: foos.example.com}
spec:
  group: example.com
  names: {plural: foos, kind: Foo}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer, minimum: 1, default: 1}
              mode: {type: string, enum: [fast, slow]}
              immutable:
                type: string
                x-kubernetes-validations:
                - rule: self == oldSelf
                  message: immutable is immutable
            x-kubernetes-validations:
            - rule: \"!has(self.mode) || self.mode != 'slow' || self.size < 10\"
              message: slow foos are small
          status: {type: object, properties: {ready: {type: boolean}}}
";

#[test]
fn a_mixed_manifest_validates_in_one_call() {
    let dir = scratch("mixed");
    let crds = write(&dir, "crd.yaml", FOO_CRD);
    let cert_crd = corpus().join("crds/cert-manager__cert-manager/certificates.cert-manager.io.yaml");
    let manifest = write(
        &dir,
        "manifest.yaml",
        "apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec: {selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}}, spec: {containers: [{name: web, image: nginx}]}}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: settings}
data: {a: b}
---
apiVersion: example.com/v1
kind: Foo
metadata: {name: good, namespace: team}
spec: {size: 3, extra: dropped}
---
apiVersion: cert-manager.io/v1
kind: Certificate
metadata: {name: tls}
spec: {secretName: tls, issuerRef: {name: ca}, dnsNames: [example.com]}
---
apiVersion: example.com/v1
kind: Foo
metadata: {name: Bad_Name}
spec: {size: 0, mode: medium}
---
apiVersion: example.com/v1
kind: Bar
metadata: {name: stray}
",
    );
    let (code, out, err) =
        crd(&["validate", "--format", "json", "--crd", &crds, "--crd", cert_crd.to_str().expect("path"), &manifest]);
    assert_eq!(code, 1, "{err}");
    let reports = reports(&out);
    let summary: Vec<(&str, &str, usize)> = reports
        .iter()
        .map(|r| {
            (
                r["kind"].as_str().unwrap_or("?"),
                r["status"].as_str().unwrap_or("?"),
                r["index"].as_u64().unwrap_or(99) as usize,
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("Deployment", "not-validated", 0),
            ("ConfigMap", "not-validated", 1),
            ("Foo", "valid", 2),
            ("Certificate", "valid", 3),
            ("Foo", "invalid", 4),
            ("Bar", "unknown", 5)
        ]
    );
    assert_eq!(reports[2]["unknownFields"], serde_json::json!(["spec.extra"]));
    let bad: Vec<&str> = reports[4]["errors"].as_array().expect("errors").iter().filter_map(Value::as_str).collect();
    assert!(bad.iter().any(|e| e.starts_with("metadata.name: Invalid value: \"Bad_Name\"")), "{bad:?}");
    assert!(
        bad.contains(&"spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1"),
        "{bad:?}"
    );
    assert!(bad.contains(&"spec.mode: Unsupported value: \"medium\": supported values: \"fast\", \"slow\""), "{bad:?}");
    assert_eq!(
        reports[5]["errors"][0],
        "no CRD given for kind \"Bar\" in group \"example.com\" (apiVersion \"example.com/v1\")"
    );
}

#[test]
fn lists_stand_for_their_items() {
    // `kubectl get -o yaml` writes a `List`; the API server's own list
    // kind (`FooList`) leaves its items' apiVersion and kind out, and
    // kubectl reads them as the list's.
    let dir = scratch("lists");
    let crds = write(&dir, "crd.yaml", FOO_CRD);
    let input = write(
        &dir,
        "lists.yaml",
        "apiVersion: v1
kind: List
items:
- apiVersion: example.com/v1
  kind: Foo
  metadata: {name: a}
  spec: {size: 2}
- apiVersion: example.com/v1
  kind: Foo
  metadata: {name: b}
  spec:
    size: 0
---
apiVersion: example.com/v1
kind: FooList
metadata: {resourceVersion: \"7\"}
items:
- metadata: {name: c}
  spec:
    mode: fast
    size: -1
",
    );
    let (code, out, err) = crd(&["validate", "--format", "json", "--crd", &crds, &input]);
    assert_eq!(code, 1, "{err}");
    let summary: Vec<(String, String, String, u64)> = reports(&out)
        .iter()
        .map(|r| {
            let text = |k: &str| r[k].as_str().unwrap_or("?").to_owned();
            (text("kind"), text("name"), text("status"), r["line"].as_u64().unwrap_or(0))
        })
        .collect();
    let row = |name: &str, status: &str, line| ("Foo".to_owned(), name.to_owned(), status.to_owned(), line);
    assert_eq!(summary, [row("a", "valid", 4), row("b", "invalid", 8), row("c", "invalid", 18)]);
    // Errors point into the item.
    let (_, out, _) = crd(&["validate", "--crd", &crds, &input]);
    assert!(
        out.contains(&format!("  {input}:12:11: spec.size: Invalid value: 0: spec.size in body should be")),
        "{out}"
    );
    assert!(
        out.contains(&format!("  {input}:21:11: spec.size: Invalid value: -1: spec.size in body should be")),
        "{out}"
    );
    assert!(out.ends_with("3 object(s): 1 valid, 2 invalid\n"), "{out}");
}

#[test]
fn text_output_points_at_the_field() {
    let dir = scratch("text");
    let crds = write(&dir, "crd.yaml", FOO_CRD);
    let input =
        write(&dir, "foo.yaml", "apiVersion: example.com/v1\nkind: Foo\nmetadata: {name: a}\nspec:\n  size: -5\n");
    let (code, out, _) = crd(&["validate", "--crd", &crds, &input]);
    assert_eq!(code, 1);
    assert!(
        out.contains(&format!("{input}:1:1: Foo default/a: invalid"))
            || out.contains(&format!("{input}:1:1: Foo/a: invalid")),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "  {input}:5:9: spec.size: Invalid value: -5: spec.size in body should be greater than or equal to 1"
        )),
        "{out}"
    );
    assert!(out.ends_with("1 object(s): 1 invalid\n"), "{out}");
}

#[test]
fn a_crd_among_the_inputs_defines_its_kind() {
    let dir = scratch("inline");
    let bundle = write(
        &dir,
        "bundle.yaml",
        &format!("{FOO_CRD}---\napiVersion: example.com/v1\nkind: Foo\nmetadata: {{name: a}}\n"),
    );
    let cert_crd = corpus().join("crds/cert-manager__cert-manager/certificates.cert-manager.io.yaml");
    let (code, out, err) = crd(&["validate", "--format", "json", "--crd", cert_crd.to_str().expect("path"), &bundle]);
    assert_eq!(code, 0, "{out}{err}");
    let statuses: Vec<String> = reports(&out).iter().map(|r| r["status"].as_str().unwrap_or("?").to_owned()).collect();
    assert_eq!(statuses, ["not-validated", "valid"]);
}

#[test]
fn cel_rules_run_on_creates_and_transition_rules_on_updates() {
    let dir = scratch("cel");
    let crds = write(&dir, "crd.yaml", FOO_CRD);
    let slow = write(
        &dir,
        "slow.yaml",
        "apiVersion: example.com/v1\nkind: Foo\nmetadata: {name: a}\nspec: {size: 20, mode: slow}\n",
    );
    let (code, out, _) = crd(&["validate", "--format", "json", "--crd", &crds, &slow]);
    assert_eq!(code, 1, "{out}");
    let errors = reports(&out)[0]["errors"].clone();
    assert_eq!(errors.as_array().map(Vec::len), Some(1), "{errors}");
    let error = errors[0].as_str().unwrap_or_default();
    assert!(error.starts_with("spec: Invalid value: ") && error.ends_with(": slow foos are small"), "{error}");

    let old = write(
        &dir,
        "old.yaml",
        "apiVersion: example.com/v1\nkind: Foo\nmetadata: {name: a}\nspec: {immutable: alpha}\n",
    );
    let new = write(
        &dir,
        "new.yaml",
        "apiVersion: example.com/v1\nkind: Foo\nmetadata: {name: a}\nspec: {immutable: beta}\n",
    );
    let (code, out, _) = crd(&["validate", "--format", "json", "--crd", &crds, "--old", &old, &new]);
    assert_eq!(code, 1, "{out}");
    let report = &reports(&out)[0];
    assert_eq!(report["operation"], "update");
    assert_eq!(
        report["errors"],
        serde_json::json!(["spec.immutable: Invalid value: \"beta\": immutable is immutable"])
    );
    // The same object as a create: the transition rule does not run.
    let (code, out, _) = crd(&["validate", "--crd", &crds, &new]);
    assert_eq!(code, 0, "{out}");
    // An unchanged update passes.
    let (code, out, _) = crd(&["validate", "--crd", &crds, "--old", &old, &old]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn bare_schemas_validate_values() {
    let dir = scratch("schema");
    let schema = write(&dir, "schema.yaml", "type: object\nproperties:\n  port: {type: integer, maximum: 65535}\n");
    let good = write(&dir, "good.yaml", "port: 80\nother: dropped\n");
    let bad = write(&dir, "bad.yaml", "port: 70000\n");
    let (code, out, _) = crd(&["validate", "--schema", &schema, &good]);
    assert_eq!(code, 0, "{out}");
    let (code, out, _) = crd(&["validate", "--format", "json", "--schema", &schema, &bad]);
    assert_eq!(code, 1);
    assert_eq!(
        reports(&out)[0]["errors"],
        serde_json::json!(["port: Invalid value: 70000: port in body should be less than or equal to 65535"])
    );
}

#[test]
fn exit_code_two_when_it_cannot_run() {
    let dir = scratch("exit2");
    let crds = write(&dir, "crd.yaml", FOO_CRD);
    let broken = write(&dir, "broken.yaml", "apiVersion: example.com/v1\nkind: [Foo\n");
    let (code, _, err) = crd(&["validate", "--crd", &crds, &broken]);
    assert_eq!(code, 2);
    assert!(err.contains("broken.yaml:"), "{err}");
    let (code, _, err) = crd(&["validate", &broken]);
    assert_eq!(code, 2);
    assert!(err.contains("needs `--crd PATH` or `--schema FILE`"), "{err}");
    let (code, _, err) = crd(&["validate", "--crd", &crds, "--format", "xml", &broken]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown format `xml`"), "{err}");
    let missing = dir.join("missing.yaml");
    let (code, _, err) = crd(&["validate", "--crd", &crds, missing.to_str().expect("path")]);
    assert_eq!(code, 2);
    assert!(err.contains("missing.yaml"), "{err}");
}

#[test]
fn crd_check_reports_rules_that_do_not_compile() {
    let dir = scratch("check-rules");
    let bad = FOO_CRD.replace("rule: self == oldSelf", "rule: self.nope == oldSelf").replace(
        "message: slow foos are small",
        "message: slow foos are small\n              messageExpression: \"1 + 1\"",
    );
    let crds = write(&dir, "crd.yaml", &bad);
    let (code, out, err) = crd(&["check", "--format", "json", &crds]);
    assert_eq!(code, 1, "{out}{err}");
    let text = out.clone();
    assert!(
        text.contains(
            "openAPIV3Schema.properties[spec].properties[immutable].x-kubernetes-validations[0].rule: Invalid value: "
        ) && text.contains("compilation failed: ERROR: <input>: type 'string' does not support field selection"),
        "{text}"
    );
    assert!(
        text.contains(
            "openAPIV3Schema.properties[spec].x-kubernetes-validations[0].messageExpression: Invalid value: "
        ) && text.contains("messageExpression must evaluate to a string"),
        "{text}"
    );
}

/// Updates ratchet as the server does: items of a `map` list correlate by
/// their keys, so reordering keeps an unchanged invalid item ratcheted,
/// while items of other lists correlate only as the whole list.
#[test]
fn map_list_items_ratchet_by_key_when_reordered() {
    let dir = scratch("ratchet");
    let crds = write(
        &dir,
        "crd.yaml",
        "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: bars.example.com}
spec:
  group: example.com
  names: {kind: Bar, plural: bars}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              ports:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  required: [name]
                  properties:
                    name: {type: string}
                    port: {type: integer, maximum: 100}
              tags:
                type: array
                items: {type: string, maxLength: 3}
",
    );
    let object = |ports: &str, tags: &str| {
        format!(
            "apiVersion: example.com/v1\nkind: Bar\nmetadata: {{name: b}}\nspec: {{ports: {ports}, tags: {tags}}}\n"
        )
    };
    let old = write(&dir, "old.yaml", &object("[{name: a, port: 999}, {name: b, port: 1}]", "[toolong]"));
    let reordered = write(&dir, "new.yaml", &object("[{name: b, port: 1}, {name: a, port: 999}]", "[toolong]"));
    let (code, out, _) = crd(&["validate", "--crd", &crds, "--old", &old, &reordered]);
    assert_eq!(code, 0, "{out}");

    let changed = write(&dir, "changed.yaml", &object("[{name: b, port: 1}, {name: a, port: 998}]", "[toolong, ok]"));
    let (code, out, _) = crd(&["validate", "--format", "json", "--crd", &crds, "--old", &old, &changed]);
    assert_eq!(code, 1, "{out}");
    assert_eq!(
        reports(&out)[0]["errors"],
        serde_json::json!([
            "spec.ports[1].port: Invalid value: 998: spec.ports[1].port in body should be less than or equal to 100",
            "spec.tags[0]: Too long: may not be more than 3 bytes"
        ])
    );
}
