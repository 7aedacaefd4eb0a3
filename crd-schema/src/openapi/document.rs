//! The whole published document of a group-version.
//!
//! [`document`] assembles what `/openapi/v3/apis/<group>/<version>` serves
//! for the CRDs of one group (or, with [`Format::V2`], their part of the
//! aggregated Swagger 2.0 `/openapi/v2`): the routes `builder.go` registers
//! for each CRD version, laid out as kube-openapi's builders do (parameters
//! shared by every operation of a path move to the path; in v2, shared
//! parameters become `#/parameters/<name>-<hash>` references with
//! kube-openapi's names), the CRD definitions ([`super::definitions`]) and
//! the `meta/v1` definitions they refer to ([`super::meta`]). Object keys
//! are sorted at every depth, so equal input gives identical bytes.
//!
//! Errors ([`OpenApiError`]): CRDs of several groups, or no CRD serving the
//! version.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::LazyLock;

use serde_json::{Map, Value, json};

use super::OpenApiError;
use super::meta::{self, DELETE_OPTIONS, PATCH, SCALE, STATUS, V2_PREFIX, V3_PREFIX};
use super::publish::{self, Options};
use crate::crd::CrdSpec;

/// Which document to build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// OpenAPI 3.0, as `/openapi/v3/apis/<group>/<version>` serves it.
    V3,
    /// Swagger 2.0, as the aggregated `/openapi/v2` serves it (no defaults).
    V2,
}

/// The `info` of every CRD document (`builder.go`'s config).
const TITLE: &str = "Kubernetes CRD Swagger";
const INFO_VERSION: &str = "v0.1.0";

const JSON_YAML: &[&str] = &["application/json", "application/yaml"];
/// The patch types the CRD handler accepts (server-side apply is GA).
const PATCH_TYPES: &[&str] =
    &["application/json-patch+json", "application/merge-patch+json", "application/apply-patch+yaml"];

/// The document for `version` of the CRDs in `crds`, which must all have
/// the same group; CRDs that do not serve `version` are left out.
pub fn document(crds: &[CrdSpec], version: &str, format: Format) -> Result<Value, OpenApiError> {
    let group = single_group(crds)?;
    let serving: Vec<&CrdSpec> = crds.iter().filter(|c| serves(c, version)).collect();
    if serving.is_empty() {
        let served = CrdSpec::served_by_any(crds);
        return Err(OpenApiError::NotServed { group: group.to_owned(), version: version.to_owned(), served });
    }
    let v2 = format == Format::V2;
    let options = Options { v2, include_selectable_fields: true };
    let mut schemas: BTreeMap<String, Value> = BTreeMap::new();
    // Which CRD field named each definition, for the error on a clash.
    let mut definers: BTreeMap<String, String> = BTreeMap::new();
    let mut routes = Vec::new();
    for spec in serving {
        let defs = publish::definitions(spec, version, options)?;
        let (mut kind, mut list) = (defs.kind, defs.list);
        if v2 {
            // The aggregated v2 document drops defaults (kubectl's client-side
            // validation predates them); the v3 document keeps them.
            strip_defaults(&mut kind);
            strip_defaults(&mut list);
        }
        let crd = format!("{}.{group}", spec.names.plural);
        let named = [(defs.kind_name.clone(), kind, "kind"), (defs.list_name.clone(), list, "listKind")];
        for (name, schema, field) in named {
            let definer = format!("{crd} spec.names.{field}");
            if let Some(first) = definers.insert(name.clone(), definer.clone()) {
                return Err(OpenApiError::DuplicateKind { first, second: definer, name });
            }
            schemas.insert(name, schema);
        }
        routes.extend(resource_routes(spec, version, &defs.kind_name, &defs.list_name));
    }
    let mut paths = BTreeMap::new();
    for (path, path_routes) in by_path(routes) {
        paths.insert(path, path_item(&path_routes, v2));
    }

    let mut refs = Vec::new();
    for value in paths.values().chain(schemas.values()) {
        meta::collect_refs(value, &mut refs);
    }
    let prefix = if v2 { V2_PREFIX } else { V3_PREFIX };
    let targets: BTreeSet<&str> = refs.iter().filter_map(|r| r.strip_prefix(prefix)).collect();
    for (name, schema) in meta::closure(targets, v2)? {
        schemas.entry(name).or_insert(schema);
    }

    let mut doc = Map::new();
    let info = json!({"title": TITLE, "version": INFO_VERSION});
    let schemas: Map<String, Value> = schemas.into_iter().collect();
    let mut paths: Map<String, Value> = paths.into_iter().collect();
    if v2 {
        let parameters = share_parameters(&mut paths);
        doc.insert("swagger".to_owned(), json!("2.0"));
        doc.insert("info".to_owned(), info);
        doc.insert("paths".to_owned(), Value::Object(paths));
        doc.insert("definitions".to_owned(), Value::Object(schemas));
        if !parameters.is_empty() {
            doc.insert("parameters".to_owned(), Value::Object(parameters));
        }
    } else {
        doc.insert("openapi".to_owned(), json!("3.0.0"));
        doc.insert("info".to_owned(), info);
        doc.insert("paths".to_owned(), Value::Object(paths));
        doc.insert("components".to_owned(), json!({"schemas": schemas}));
    }
    // Keys sorted at every depth, as the API server's Go maps and the
    // checked-in Kubernetes specs have them.
    let mut doc = Value::Object(doc);
    crate::gofmt::sort_keys(&mut doc);
    Ok(doc)
}

/// The group of all of `crds`; an error when there are none or several.
fn single_group(crds: &[CrdSpec]) -> Result<&str, OpenApiError> {
    let groups: BTreeSet<&str> = crds.iter().map(|c| c.group.as_str()).collect();
    match groups.len() {
        0 => Err(OpenApiError::NoCrd),
        1 => Ok(crds[0].group.as_str()),
        _ => Err(OpenApiError::SeveralGroups { groups: groups.into_iter().map(str::to_owned).collect() }),
    }
}

fn serves(spec: &CrdSpec, version: &str) -> bool {
    spec.served_version(version).is_ok()
}

/// Removes `default` from every schema node (not from property names).
fn strip_defaults(schema: &mut Value) {
    meta::walk_schemas(schema, &mut |node| {
        node.remove("default");
    });
}

// ---------------------------------------------------------------------------
// Routes (`builder.go`'s `generateBuilder` and `buildRoute`).

/// Where a parameter goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum In {
    Body,
    Path,
    Query,
}

impl In {
    fn as_str(self) -> &'static str {
        match self {
            In::Body => "body",
            In::Path => "path",
            In::Query => "query",
        }
    }
}

/// A route parameter: a path or query parameter of a simple type, or the
/// body with the definition it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Param {
    name: String,
    location: In,
    description: String,
    /// `string`, `boolean` or `integer`; for the body, the definition name.
    ty: String,
    required: bool,
}

impl Param {
    fn query(name: &str, ty: &str, description: &str) -> Param {
        Param {
            name: name.to_owned(),
            location: In::Query,
            description: description.to_owned(),
            ty: ty.to_owned(),
            required: false,
        }
    }

    fn path(name: &str, description: String) -> Param {
        Param { name: name.to_owned(), location: In::Path, description, ty: "string".to_owned(), required: true }
    }

    fn body(definition: &str, required: bool) -> Param {
        Param {
            name: "body".to_owned(),
            location: In::Body,
            description: String::new(),
            ty: definition.to_owned(),
            required,
        }
    }

    fn key(&self) -> (&str, In) {
        (&self.name, self.location)
    }
}

/// One operation of a resource.
#[derive(Debug)]
struct Route {
    path: String,
    method: &'static str,
    description: String,
    operation_id: String,
    tag: String,
    /// `x-kubernetes-action`
    action: &'static str,
    /// `x-kubernetes-group-version-kind`
    gvk: Value,
    consumes: &'static [&'static str],
    params: Vec<Param>,
    /// Status code, description and definition of each response.
    responses: Vec<(u16, &'static str, String)>,
}

/// The CRD version's resource, with what every route of it shares.
struct Resource<'a> {
    group: &'a str,
    version: &'a str,
    kind: &'a str,
    namespaced: bool,
}

/// The routes of one CRD version, in `builder.go`'s order.
fn resource_routes(spec: &CrdSpec, version: &str, kind_def: &str, list_def: &str) -> Vec<Route> {
    let r = Resource { group: &spec.group, version, kind: &spec.names.kind, namespaced: spec.scope == "Namespaced" };
    let plural = &spec.names.plural;
    let mut root = format!("/apis/{}/{version}/{plural}", spec.group);
    let mut routes = Vec::new();
    if r.namespaced {
        let mut all = r.route(&root, "", "GET", "list", "list", list_def);
        all.operation_id = operation_id(&format!("list{}ForAllNamespaces", r.kind), &all.path);
        routes.push(all);
        root = format!("/apis/{}/{version}/namespaces/{{namespace}}/{plural}", spec.group);
    }
    routes.push(r.route(&root, "", "GET", "list", "list", list_def));
    routes.push(r.route(&root, "", "POST", "post", "create", kind_def).reads(kind_def));
    routes.push(r.route(&root, "", "DELETE", "deletecollection", "deletecollection", STATUS));
    routes.push(r.route(&root, "/{name}", "GET", "get", "read", kind_def));
    routes.push(r.route(&root, "/{name}", "PUT", "put", "replace", kind_def).reads(kind_def));
    routes.push(r.route(&root, "/{name}", "DELETE", "delete", "delete", STATUS));
    routes.push(r.route(&root, "/{name}", "PATCH", "patch", "patch", kind_def).reads(PATCH));
    let sub = spec.subresources_for_version(version);
    if sub.is_some_and(|s| s.status) {
        routes.push(r.route(&root, "/{name}/status", "GET", "get", "read", kind_def));
        routes.push(r.route(&root, "/{name}/status", "PUT", "put", "replace", kind_def).reads(kind_def));
        routes.push(r.route(&root, "/{name}/status", "PATCH", "patch", "patch", kind_def).reads(PATCH));
    }
    if sub.is_some_and(|s| s.scale.is_some()) {
        routes.push(r.route(&root, "/{name}/scale", "GET", "get", "read", SCALE));
        routes.push(r.route(&root, "/{name}/scale", "PUT", "put", "replace", SCALE).reads(SCALE));
        routes.push(r.route(&root, "/{name}/scale", "PATCH", "patch", "patch", SCALE).reads(PATCH));
    }
    routes
}

impl Resource<'_> {
    /// `buildRoute`: `suffix` is `""`, `/{name}` or `/{name}/<subresource>`;
    /// `action` is the `x-kubernetes-action`, `verb` the operation verb;
    /// `sample` the definition of the 200 response.
    fn route(
        &self,
        root: &str,
        suffix: &str,
        method: &'static str,
        action: &'static str,
        verb: &str,
        sample: &str,
    ) -> Route {
        let path = format!("{root}{suffix}");
        let sub = suffix.split('/').nth(2).unwrap_or("");
        let name = format!("{verb}{}{}{}", if self.namespaced { "Namespaced" } else { "" }, self.kind, title(sub));
        let mut params = vec![Param::query(
            "pretty",
            "string",
            "If 'true', then the output is pretty printed. Defaults to 'false' unless the user-agent indicates a browser or command-line HTTP tool (curl and wget).",
        )];
        if path.contains("{namespace}") {
            params.push(Param::path(
                "namespace",
                "object name and auth scope, such as for teams and projects".to_owned(),
            ));
        }
        if path.contains("{name}") {
            params.push(Param::path("name", format!("name of the {}", self.kind)));
        }
        params.extend(options_params(action));
        let mut responses = vec![(200, "OK", sample.to_owned())];
        match action {
            "post" => {
                responses.push((202, "Accepted", sample.to_owned()));
                responses.push((201, "Created", sample.to_owned()));
            }
            "delete" => {
                params.push(Param::body(DELETE_OPTIONS, false));
                responses.push((202, "Accepted", sample.to_owned()));
            }
            "put" => responses.push((201, "Created", sample.to_owned())),
            _ => {}
        }
        let (operation_id, tag) = operation_id_and_tag(&name, &path);
        Route {
            description: self.description(sub, verb),
            operation_id,
            tag,
            path,
            method,
            action,
            gvk: json!({"group": self.group, "version": self.version, "kind": self.kind}),
            consumes: if method == "PATCH" { PATCH_TYPES } else { JSON_YAML },
            params,
            responses,
        }
    }

    /// `descriptionFor`.
    fn description(&self, sub: &str, verb: &str) -> String {
        let kind = self.kind;
        let article = match verb {
            "list" => " objects of kind ".to_owned(),
            "read" | "replace" | "patch" => " the specified ".to_owned(),
            "create" | "delete" => article_for(kind),
            _ => String::new(),
        };
        let sub = if sub.is_empty() { String::new() } else { format!(" {sub} of") };
        match verb {
            "patch" => format!("partially update{sub}{article}{kind}"),
            "deletecollection" => {
                let sub = if sub.is_empty() { sub } else { format!("{sub} a") };
                format!("delete collection of{sub} {kind}")
            }
            _ => format!("{verb}{sub}{article}{kind}"),
        }
    }
}

impl Route {
    /// `Reads(sample)`: a required body holding `definition`.
    fn reads(mut self, definition: &str) -> Route {
        self.params.push(Param::body(definition, true));
        self
    }
}

/// `GetArticleForNoun(noun, " ")`: no article for plurals (but `...ss`).
fn article_for(noun: &str) -> String {
    if !noun.ends_with("ss") && noun.ends_with('s') {
        return " ".to_owned();
    }
    let vowel = noun.chars().next().is_some_and(|c| "aeiouAEIOU".contains(c));
    if vowel { " an ".to_owned() } else { " a ".to_owned() }
}

/// `strings.Title` of one word.
fn title(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// The query parameters of the options type of an action
/// (`endpoints.AddObjectParams`: the options struct's JSON fields, with
/// their Go doc).
fn options_params(action: &str) -> Vec<Param> {
    let q = |name: &str, ty: &str| Param::query(name, ty, parameter_doc(name));
    match action {
        "get" => vec![q("resourceVersion", "string")],
        "list" | "deletecollection" => vec![
            q("labelSelector", "string"),
            q("fieldSelector", "string"),
            q("watch", "boolean"),
            q("allowWatchBookmarks", "boolean"),
            q("resourceVersion", "string"),
            q("resourceVersionMatch", "string"),
            q("timeoutSeconds", "integer"),
            q("limit", "integer"),
            q("continue", "string"),
            q("sendInitialEvents", "boolean"),
        ],
        "put" | "post" => vec![q("dryRun", "string"), q("fieldManager", "string"), q("fieldValidation", "string")],
        "patch" => vec![
            q("dryRun", "string"),
            q("force", "boolean"),
            Param::query("fieldManager", "string", parameter_doc("fieldManager.patch")),
            q("fieldValidation", "string"),
        ],
        "delete" => vec![
            q("gracePeriodSeconds", "integer"),
            q("orphanDependents", "boolean"),
            q("propagationPolicy", "string"),
            q("dryRun", "string"),
            q("ignoreStoreReadErrorWithClusterBreakingPotential", "boolean"),
        ],
        _ => Vec::new(),
    }
}

/// `GetOperationIDAndTags`: the operation name gets the group (without
/// `.k8s.io`) and version spliced in after its verb; the tag is
/// `<group>_<version>` in lower camel case.
fn operation_id_and_tag(name: &str, path: &str) -> (String, String) {
    let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
    let group = parts.get(1).map_or("", |g| g.strip_suffix(".k8s.io").unwrap_or(g));
    let version = parts.get(2).copied().unwrap_or("");
    (operation_id(name, path), format!("{}_{}", valid_operation_id(group, false), valid_operation_id(version, false)))
}

fn operation_id(name: &str, path: &str) -> String {
    // The shortest verb that starts the name (`deletecollection` → `delete`).
    const VERBS: &[&str] =
        &["get", "log", "read", "replace", "patch", "delete", "watch", "connect", "proxy", "list", "create"];
    let verb = VERBS.iter().filter(|v| name.starts_with(**v)).min_by_key(|v| v.len()).copied().unwrap_or("");
    let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
    let group = parts.get(1).map_or("", |g| g.strip_suffix(".k8s.io").unwrap_or(g));
    let version = parts.get(2).copied().unwrap_or("");
    let capital = !verb.is_empty();
    let prefix = format!("{verb}{}{}", valid_operation_id(group, capital), valid_operation_id(version, true));
    format!("{prefix}{}", valid_operation_id(&name[verb.len()..], true))
}

/// `ToValidOperationID`: drops punctuation, and upper-cases the letter
/// after it (and the first one when `capitalize_first`).
fn valid_operation_id(s: &str, capitalize_first: bool) -> String {
    let mut out = String::new();
    let mut capitalize = capitalize_first;
    for (i, c) in s.char_indices() {
        if c.is_alphabetic() || c == '_' || (i != 0 && c.is_numeric()) {
            if capitalize {
                out.extend(c.to_uppercase());
                capitalize = false;
            } else {
                out.push(c);
            }
        } else {
            capitalize = true;
        }
    }
    out
}

/// Routes grouped by path (sorted).
fn by_path(routes: Vec<Route>) -> BTreeMap<String, Vec<Route>> {
    let mut out: BTreeMap<String, Vec<Route>> = BTreeMap::new();
    for route in routes {
        out.entry(route.path.clone()).or_default().push(route);
    }
    out
}

// ---------------------------------------------------------------------------
// Rendering (kube-openapi `builder` for v2, `builder3` for v3).

/// A path item: the parameters every operation has move to the path
/// (`findCommonParameters`), each operation keeps the rest; both lists
/// sorted by name, then location.
fn path_item(routes: &[Route], v2: bool) -> Value {
    let mut common: Vec<&Param> = Vec::new();
    if let Some(first) = routes.first() {
        for p in &first.params {
            let everywhere = routes.iter().all(|r| r.params.iter().any(|q| q.key() == p.key()));
            if p.location != In::Body && everywhere {
                common.push(p);
            }
        }
    }
    common.sort_by(|a, b| a.key().cmp(&b.key()));
    let mut item = Map::new();
    item.insert("parameters".to_owned(), Value::Array(common.iter().map(|p| param_json(p, v2)).collect()));
    for route in routes {
        let mut own: Vec<&Param> = route
            .params
            .iter()
            .filter(|p| !common.iter().any(|c| c.key() == p.key()))
            .filter(|p| v2 || p.location != In::Body)
            .collect();
        own.sort_by(|a, b| a.key().cmp(&b.key()));
        item.insert(route.method.to_lowercase(), operation(route, &own, v2));
    }
    Value::Object(item)
}

fn operation(route: &Route, params: &[&Param], v2: bool) -> Value {
    let prefix = if v2 { V2_PREFIX } else { V3_PREFIX };
    let schema = |definition: &str| json!({"$ref": format!("{prefix}{definition}")});
    let mut op = Map::new();
    op.insert("description".to_owned(), json!(route.description));
    op.insert("operationId".to_owned(), json!(route.operation_id));
    op.insert("tags".to_owned(), json!([route.tag]));
    op.insert("x-kubernetes-action".to_owned(), json!(route.action));
    op.insert("x-kubernetes-group-version-kind".to_owned(), route.gvk.clone());
    if !params.is_empty() {
        op.insert("parameters".to_owned(), Value::Array(params.iter().map(|p| param_json(p, v2)).collect()));
    }
    let mut responses = Map::new();
    for (code, description, definition) in &route.responses {
        let response = if v2 {
            json!({"description": description, "schema": schema(definition)})
        } else {
            let content: Map<String, Value> =
                JSON_YAML.iter().map(|t| ((*t).to_owned(), json!({"schema": schema(definition)}))).collect();
            json!({"description": description, "content": content})
        };
        responses.insert(code.to_string(), response);
    }
    responses.insert("401".to_owned(), json!({"description": "Unauthorized"}));
    op.insert("responses".to_owned(), Value::Object(responses));
    if v2 {
        op.insert("consumes".to_owned(), json!(route.consumes));
        op.insert("produces".to_owned(), json!(JSON_YAML));
        op.insert("schemes".to_owned(), json!(["https"]));
    } else if let Some(body) = route.params.iter().find(|p| p.location == In::Body) {
        let content: Map<String, Value> =
            route.consumes.iter().map(|t| ((*t).to_owned(), json!({"schema": schema(&body.ty)}))).collect();
        let mut request = Map::from_iter([("content".to_owned(), Value::Object(content))]);
        if body.required {
            request.insert("required".to_owned(), json!(true));
        }
        op.insert("requestBody".to_owned(), Value::Object(request));
    }
    Value::Object(op)
}

/// A parameter object: v2 keeps the type beside the name, v3 puts it in a
/// `schema`; kube-openapi marks every single-valued parameter
/// `uniqueItems`.
fn param_json(p: &Param, v2: bool) -> Value {
    let mut m = Map::new();
    if !p.description.is_empty() {
        m.insert("description".to_owned(), json!(p.description));
    }
    m.insert("name".to_owned(), json!(p.name));
    m.insert("in".to_owned(), json!(p.location.as_str()));
    if p.required {
        m.insert("required".to_owned(), json!(true));
    }
    match (p.location, v2) {
        (In::Body, _) => {
            m.insert("schema".to_owned(), json!({"$ref": format!("{V2_PREFIX}{}", p.ty)}));
        }
        (_, true) => {
            m.insert("type".to_owned(), json!(p.ty));
            m.insert("uniqueItems".to_owned(), json!(true));
        }
        (_, false) => {
            m.insert("schema".to_owned(), json!({"type": p.ty, "uniqueItems": true}));
        }
    }
    Value::Object(m)
}

// ---------------------------------------------------------------------------
// Shared v2 parameters (kube-openapi `builder/parameters.go`).

/// Replaces every shareable parameter of the v2 `paths` by a reference to
/// `#/parameters/<name>-<hash>` and returns those parameters. Not shared:
/// `name` (its description names the kind), `dryRun` and `fieldValidation`
/// (kubectl looked for them inline), and bodies that hold a CRD's own
/// definition. The hash is kube-openapi's: FNV-1 (64 bit) of the
/// parameter's Go JSON encoding, first 6 bytes, URL-safe base64; so the
/// names are those of the API server's own document.
fn share_parameters(paths: &mut Map<String, Value>) -> Map<String, Value> {
    let mut shared: BTreeMap<String, (String, Value)> = BTreeMap::new();
    visit_parameters(paths, &mut |p| {
        if let Some(key) = shareable_key(p) {
            shared.entry(key).or_insert_with(|| (String::new(), p.clone()));
        }
    });
    // Named in the order of their encodings, so hash collisions resolve
    // the same way every time.
    let mut names: BTreeMap<String, Value> = BTreeMap::new();
    for (key, (name, param)) in shared.iter_mut() {
        let base = param.get("name").and_then(Value::as_str).unwrap_or("param").to_owned();
        let mut candidate = format!("{base}-{}", hash_name(key));
        let mut i = 0;
        while names.contains_key(&candidate) {
            i += 1;
            candidate = format!("{base}-{i}");
        }
        names.insert(candidate.clone(), param.clone());
        *name = candidate;
    }
    visit_parameters(paths, &mut |p| {
        if let Some((name, _)) = shareable_key(p).and_then(|k| shared.get(&k)) {
            *p = json!({"$ref": format!("#/parameters/{name}")});
        }
    });
    names.into_iter().collect()
}

/// Calls `f` on every parameter of every operation and path.
fn visit_parameters(paths: &mut Map<String, Value>, f: &mut dyn FnMut(&mut Value)) {
    for item in paths.values_mut() {
        let Value::Object(item) = item else { continue };
        for (key, value) in item.iter_mut() {
            let params = if key == "parameters" { Some(value) } else { value.get_mut("parameters") };
            if let Some(Value::Array(params)) = params {
                params.iter_mut().for_each(&mut *f);
            }
        }
    }
}

/// The Go JSON encoding of a shareable parameter, `None` when it is not.
fn shareable_key(p: &Value) -> Option<String> {
    let field = |k: &str| p.get(k).and_then(Value::as_str);
    let (name, location) = (field("name")?, field("in")?);
    if p.get("$ref").is_some()
        || (name == "name" && matches!(location, "query" | "path"))
        || (location == "query" && matches!(name, "fieldValidation" | "dryRun"))
    {
        return None;
    }
    let schema_ref = p.get("schema").and_then(|s| s.get("$ref")).and_then(Value::as_str);
    if location == "body" && !schema_ref.is_some_and(|r| r.starts_with("#/definitions/io.k8s.apimachinery")) {
        return None;
    }
    Some(go_json(p))
}

/// A parameter as Go's `spec.Parameter` marshals it: the validations
/// (`uniqueItems`), then the simple schema (`type`), then `description`,
/// `name`, `in`, `required`, `schema`.
fn go_json(p: &Value) -> String {
    let mut fields = Vec::new();
    if p.get("uniqueItems") == Some(&Value::Bool(true)) {
        fields.push("\"uniqueItems\":true".to_owned());
    }
    for key in ["type", "description", "name", "in"] {
        if let Some(s) = p.get(key).and_then(Value::as_str).filter(|s| !s.is_empty()) {
            fields.push(format!("\"{key}\":{}", go_string(s)));
        }
    }
    if p.get("required") == Some(&Value::Bool(true)) {
        fields.push("\"required\":true".to_owned());
    }
    if let Some(r) = p.get("schema").and_then(|s| s.get("$ref")).and_then(Value::as_str) {
        fields.push(format!("\"schema\":{{\"$ref\":{}}}", go_string(r)));
    }
    format!("{{{}}}", fields.join(","))
}

/// A JSON string as Go's `encoding/json` writes it (HTML-safe escaping).
fn go_string(s: &str) -> String {
    let mut out = String::new();
    crate::gofmt::write_json_string(s, &mut out);
    out
}

/// kube-openapi's `base64Hash`: FNV-1 64 of the text, first 6 bytes,
/// URL-safe base64 (8 characters).
fn hash_name(text: &str) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        hash ^= u64::from(byte);
    }
    let bytes = hash.to_be_bytes();
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::new();
    for chunk in bytes[..6].chunks(3) {
        let n = (u32::from(chunk[0]) << 16) | (u32::from(chunk[1]) << 8) | u32::from(chunk[2]);
        for shift in [18, 12, 6, 0] {
            out.push(char::from(ALPHABET[((n >> shift) & 63) as usize]));
        }
    }
    out
}

/// The options' field documentation (`types_swagger_doc_generated.go`)
/// by query parameter name (`fieldManager.patch` for the patch options'
/// own text): data, in `parameter-docs.json` beside this file.
fn parameter_doc(name: &str) -> &'static str {
    static DOCS: LazyLock<BTreeMap<String, String>> =
        LazyLock::new(|| serde_json::from_str(include_str!("parameter-docs.json")).unwrap_or_default());
    DOCS.get(name).map_or("", String::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crd::CustomResourceDefinition;

    fn crd(scope: &str) -> CrdSpec {
        let manifest = json!({
            "apiVersion": "apiextensions.k8s.io/v1",
            "kind": "CustomResourceDefinition",
            "metadata": {"name": "widgets.example.com"},
            "spec": {
                "group": "example.com",
                "scope": scope,
                "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
                "versions": [
                    {"name": "v1beta1", "served": true, "storage": false,
                     "schema": {"openAPIV3Schema": {"type": "object"}}},
                    {"name": "v1", "served": true, "storage": true,
                     "subresources": {"status": {}, "scale": {"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas"}},
                     "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                         "spec": {"type": "object", "properties": {
                             "replicas": {"type": "integer", "default": 1},
                             "default": {"type": "string", "default": "x"}}}}}}},
                    {"name": "v2alpha1", "served": false, "storage": false},
                ],
            },
        });
        CustomResourceDefinition::from_manifest(&manifest).map(|c| c.spec).unwrap_or_default()
    }

    #[test]
    fn clashing_kinds_name_the_fields() {
        let mut same = crd("Namespaced");
        same.names.list_kind = "Widget".to_owned();
        let err = document(&[same], "v1", Format::V3).unwrap_err().to_string();
        assert_eq!(
            err,
            "widgets.example.com spec.names.kind and widgets.example.com spec.names.listKind both define \
             com.example.v1.Widget: kinds must be unique in a group"
        );
        let mut other = crd("Namespaced");
        other.names.plural = "gadgets".to_owned();
        let err = document(&[crd("Namespaced"), other], "v1", Format::V3).unwrap_err().to_string();
        assert!(
            err.starts_with("widgets.example.com spec.names.kind and gadgets.example.com spec.names.kind"),
            "{err}"
        );
    }

    #[test]
    fn shared_parameter_names_are_kube_openapis() {
        // The names in Kubernetes' own api/openapi-spec/swagger.json.
        let expected = [
            ("pretty", "pretty-tJGM1-ng"),
            ("allowWatchBookmarks", "allowWatchBookmarks-HC2hJt-J"),
            ("continue", "continue-QfD61s0i"),
            ("fieldSelector", "fieldSelector-xIcQKXFG"),
            ("labelSelector", "labelSelector-5Zw57w4C"),
            ("limit", "limit-1NfNmdNH"),
            ("resourceVersion", "resourceVersion-5WAnf1kx"),
            ("resourceVersionMatch", "resourceVersionMatch-t8XhRHeC"),
            ("sendInitialEvents", "sendInitialEvents-rLXlEK_k"),
            ("timeoutSeconds", "timeoutSeconds-yvYezaOC"),
            ("watch", "watch-XNNPZGbK"),
            ("force", "force-tOGGb0Yi"),
            ("gracePeriodSeconds", "gracePeriodSeconds--K5HaBOS"),
            ("orphanDependents", "orphanDependents-uRB25kX5"),
            ("propagationPolicy", "propagationPolicy-6jk3prlO"),
        ];
        let mut params: Vec<Param> = ["list", "patch", "delete"].iter().flat_map(|a| options_params(a)).collect();
        params.push(Param::query("pretty", "string", "If 'true', then the output is pretty printed. Defaults to 'false' unless the user-agent indicates a browser or command-line HTTP tool (curl and wget)."));
        for (name, shared) in expected {
            let p = params.iter().find(|p| p.name == name).map(|p| param_json(p, true)).unwrap_or_default();
            assert_eq!(format!("{name}-{}", hash_name(&go_json(&p))), shared);
        }
        let namespace = param_json(
            &Param::path("namespace", "object name and auth scope, such as for teams and projects".to_owned()),
            true,
        );
        assert_eq!(hash_name(&go_json(&namespace)), "vgWSWtn3");
        let managers: Vec<String> = [parameter_doc("fieldManager"), parameter_doc("fieldManager.patch")]
            .iter()
            .map(|d| hash_name(&go_json(&param_json(&Param::query("fieldManager", "string", d), true))))
            .collect();
        assert_eq!(managers, ["Qy4HdaTW", "7c6nTn1T"]);
    }

    #[test]
    fn every_options_parameter_is_documented() {
        for action in ["get", "list", "put", "patch", "delete"] {
            for param in options_params(action) {
                assert!(!param.description.is_empty(), "{action} {}", param.name);
            }
        }
        let docs: BTreeMap<String, String> = serde_json::from_str(include_str!("parameter-docs.json")).unwrap();
        assert_eq!(docs.len(), 19, "every text in parameter-docs.json is used");
        assert_eq!(hash_name(&go_json(&param_json(&Param::body(DELETE_OPTIONS, false), true))), "2Y1dVQaQ");
        assert_eq!(hash_name(&go_json(&param_json(&Param::body(PATCH, true), true))), "78PwaGsr");
    }

    #[test]
    fn go_strings_escape_like_encoding_json() {
        assert_eq!(go_string("a<b>&\"\\\n\u{1}'"), r#""a\u003cb\u003e\u0026\"\\\n\u0001'""#);
    }

    #[test]
    fn operation_ids_and_descriptions_follow_the_api_server() {
        let (id, tag) =
            operation_id_and_tag("deletecollectionAPIService", "/apis/apiregistration.k8s.io/v1/apiservices");
        assert_eq!((id.as_str(), tag.as_str()), ("deleteApiregistrationV1CollectionAPIService", "apiregistration_v1"));
        let (id, tag) = operation_id_and_tag(
            "readNamespacedIssuerStatus",
            "/apis/cert-manager.io/v1/namespaces/{namespace}/issuers/{name}/status",
        );
        assert_eq!((id.as_str(), tag.as_str()), ("readCertManagerIoV1NamespacedIssuerStatus", "certManagerIo_v1"));
        let r = Resource { group: "g", version: "v1", kind: "Issuer", namespaced: true };
        assert_eq!(r.description("", "create"), "create an Issuer");
        assert_eq!(r.description("", "list"), "list objects of kind Issuer");
        assert_eq!(r.description("status", "read"), "read status of the specified Issuer");
        assert_eq!(r.description("scale", "patch"), "partially update scale of the specified Issuer");
        assert_eq!(r.description("", "deletecollection"), "delete collection of Issuer");
        let plural = Resource { kind: "Endpoints", ..r };
        assert_eq!(plural.description("", "delete"), "delete Endpoints");
    }

    #[test]
    fn v3_document_has_the_resource_routes() {
        let doc = document(&[crd("Namespaced")], "v1", Format::V3).unwrap_or_default();
        let paths: Vec<&String> = doc["paths"].as_object().map(|p| p.keys().collect()).unwrap_or_default();
        assert_eq!(
            paths,
            [
                "/apis/example.com/v1/namespaces/{namespace}/widgets",
                "/apis/example.com/v1/namespaces/{namespace}/widgets/{name}",
                "/apis/example.com/v1/namespaces/{namespace}/widgets/{name}/scale",
                "/apis/example.com/v1/namespaces/{namespace}/widgets/{name}/status",
                "/apis/example.com/v1/widgets",
            ]
        );
        let all = &doc["paths"]["/apis/example.com/v1/widgets"];
        assert_eq!(all["get"]["operationId"], "listExampleComV1WidgetForAllNamespaces");
        assert_eq!(all["parameters"].as_array().map(Vec::len), Some(11), "every list parameter is common");
        let scale = &doc["paths"]["/apis/example.com/v1/namespaces/{namespace}/widgets/{name}/scale"];
        assert_eq!(
            scale["put"]["requestBody"]["content"]["application/json"]["schema"]["$ref"],
            "#/components/schemas/io.k8s.api.autoscaling.v1.Scale"
        );
        assert!(doc["components"]["schemas"]["io.k8s.api.autoscaling.v1.ScaleSpec"].is_object());
        let kind = &doc["components"]["schemas"]["com.example.v1.Widget"];
        assert_eq!(kind["properties"]["spec"]["properties"]["replicas"]["default"], 1);
    }

    #[test]
    fn v2_document_shares_parameters_and_drops_defaults() {
        let doc = document(&[crd("Cluster")], "v1", Format::V2).unwrap_or_default();
        assert_eq!(doc["swagger"], "2.0");
        assert!(doc["parameters"]["pretty-tJGM1-ng"].is_object());
        assert!(doc["parameters"]["body-78PwaGsr"].is_object());
        let spec = &doc["definitions"]["com.example.v1.Widget"]["properties"]["spec"];
        assert!(spec["properties"]["replicas"].get("default").is_none());
        assert!(spec["properties"]["default"].is_object(), "a property named default stays");
        let put = &doc["paths"]["/apis/example.com/v1/widgets/{name}"]["put"];
        assert_eq!(put["parameters"][0]["schema"]["$ref"], "#/definitions/com.example.v1.Widget");
        assert_eq!(put["parameters"][1]["name"], "dryRun", "dryRun stays inline");
    }

    #[test]
    fn errors_name_groups_and_versions() {
        let mut other = crd("Cluster");
        other.group = "other.io".to_owned();
        let err = document(&[crd("Cluster"), other], "v1", Format::V3).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(err.contains("several groups (example.com, other.io)"), "{err}");
        let err = document(&[crd("Cluster")], "v2alpha1", Format::V3).err().map(|e| e.to_string()).unwrap_or_default();
        assert_eq!(err, "no CRD of group example.com serves version \"v2alpha1\" (served versions: v1, v1beta1)");
        assert_eq!(document(&[], "v1", Format::V3).err().map(|e| e.to_string()).as_deref(), Some("no CRD given"));
    }

    #[test]
    fn same_input_same_bytes() {
        let a = serde_json::to_string(&document(&[crd("Namespaced")], "v1", Format::V2).unwrap_or_default());
        let b = serde_json::to_string(&document(&[crd("Namespaced")], "v1", Format::V2).unwrap_or_default());
        assert_eq!(a.ok(), b.ok());
    }
}
