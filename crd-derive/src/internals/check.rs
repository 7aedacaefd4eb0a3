//! Checks across attributes, after parsing and before expansion (serde's
//! `check`). Each reports at the offending token; none stops the others.

use super::ast::{Container, CrdForm, Data, Field, Style, Variant};
use super::attr::crd::Crd;
use super::attr::schema::Keywords;
use super::ctxt::Ctxt;
use super::repr::EnumRepr;

/// Every check of the container.
pub fn check(cx: &Ctxt, cont: &Container<'_>) {
    keywords(cx, &cont.schema);
    crd_root(cx, cont);
    match &cont.data {
        Data::Struct(style, fields) => {
            tuple_struct(cx, cont, *style, fields);
            fields.iter().for_each(|f| field(cx, f));
        }
        Data::Enum(variants) => enum_(cx, cont, variants),
    }
}

/// The checks of one keyword list and of the lists nested in it.
fn keywords(cx: &Ctxt, kw: &Keywords) {
    one_spelling(cx, kw);
    default_conflicts(cx, kw);
    skip_alone(cx, kw);
    list_map_keys(cx, kw);
    schema_source(cx, kw);
    for (_, nested) in &kw.nested {
        keywords(cx, nested);
    }
}

// Two keys that write one keyword (`default` and `default_json`,
// `enum_values` and `enum_values_json`, per crd-vocabulary's table): the
// second would silently replace the first.
fn one_spelling(cx: &Ctxt, kw: &Keywords) {
    let mut seen: Vec<(&str, String)> = Vec::new();
    for key in &kw.keys {
        let name = key.to_string();
        let Some(json) = crd_vocabulary::find(&name, true).and_then(|k| k.json) else { continue };
        if crd_vocabulary::for_keyword(json).nth(1).is_none() {
            continue;
        }
        match seen.iter().find(|(written, _)| *written == json) {
            Some((_, first)) => {
                cx.error_spanned_by(key, format!("`{key}` conflicts with `{first}`: both write the schema's `{json}`"));
            }
            None => seen.push((json, name)),
        }
    }
}

// `no_default` says there is no default: `default` or `default_json`
// beside it contradicts it.
fn default_conflicts(cx: &Ctxt, kw: &Keywords) {
    let Some(first) = kw.keys.iter().find(|k| *k == "default" || *k == "default_json") else { return };
    if let Some(key) = kw.key("no_default") {
        cx.error_spanned_by(key, format!("`{key}` conflicts with `{first}`: a field has one default or none"));
    }
}

// A skipped field or variant is not in the schema, so any other keyword
// on it would be silently lost.
fn skip_alone(cx: &Ctxt, kw: &Keywords) {
    if kw.has("skip") {
        for key in kw.keys.iter().filter(|k| *k != "skip") {
            cx.error_spanned_by(key, format!("`{key}` conflicts with `skip`: a skipped field is not in the schema"));
        }
    }
}

// x-kubernetes-list-map-keys is only valid on a list of type map (the API
// server rejects it otherwise).
fn list_map_keys(cx: &Ctxt, kw: &Keywords) {
    if let Some(key) = kw.key("list_map_keys")
        && kw.list_type.as_deref() != Some("map")
    {
        cx.error_spanned_by(key, "`list_map_keys` needs `list_type = \"map\"`");
    }
}

// A field's schema comes from its type, from `schema_with` or from
// schemars: one source only.
fn schema_source(cx: &Ctxt, kw: &Keywords) {
    if let (Some(_), Some(key)) = (kw.key("schema_with"), kw.key("schemars")) {
        cx.error_spanned_by(key, "`schemars` conflicts with `schema_with`: a field's schema has one source");
    }
}

// `#[crd]` describes a custom resource: an object with apiVersion, kind,
// metadata, so only a struct with named fields; group and version have no
// default; a deprecation warning is only shown for a deprecated version;
// `namespaced` and a cluster scope contradict each other.
fn crd_root(cx: &Ctxt, cont: &Container<'_>) {
    let Some(crd) = &cont.crd else { return };
    if !matches!(cont.data, Data::Struct(Style::Named, _)) || cont.serde.transparent {
        let message = "`#[crd(...)]` needs a struct with named fields: a custom resource is a JSON object \
                       (apiVersion, kind, metadata, spec, ...)";
        cx.error_spanned_by(&crd.attr, message);
    }
    for (value, name) in [(&crd.group, "group"), (&crd.version, "version")] {
        if value.is_none() {
            cx.error_spanned_by(&crd.attr, format!("`#[crd(...)]` needs `{name} = \"...\"`"));
        }
    }
    if let Some(key) = crd.keys.iter().find(|k| *k == "deprecation_warning")
        && !crd.deprecated
    {
        cx.error_spanned_by(key, "`deprecation_warning` needs `deprecated`: only deprecated versions warn");
    }
    if let (Some(key), Some(scope)) = (&crd.namespaced, &crd.scope)
        && scope.value() == "Cluster"
    {
        cx.error_spanned_by(key, "`namespaced` conflicts with `scope = \"Cluster\"`: a resource has one scope");
    }
    match cont.crd_form() {
        Some(CrdForm::Spec) => spec_first(cx, cont, crd),
        _ => root_form(cx, crd),
    }
}

// The spec-first form generates the root named by `kind` (or `root`), so
// `kind` must be given and the root's name differ from the spec's own. Its
// scope must be written out: kube-derive's default is cluster-scoped and
// the root form's namespaced, so a silent default would surprise one side.
// The root holds `status: Option<T>`, so `status` names T.
fn spec_first(cx: &Ctxt, cont: &Container<'_>, crd: &Crd) {
    match &crd.kind {
        None => cx.error_spanned_by(
            &crd.attr,
            "`#[crd(...)]` on a struct without `metadata` is the spec-first form and needs `kind = \"...\"`, \
             the name of the root type it generates; a root type has a `metadata` field",
        ),
        Some(kind) if crd.root.is_none() && cont.ident == kind.value().as_str() => cx.error_spanned_by(
            kind,
            "`kind` names this struct, which has no `metadata` field: give the root type a \
             `metadata: ObjectMeta` field, or put `#[crd(...)]` on the spec struct",
        ),
        Some(_) => {}
    }
    if let Some(root) = crd.root.as_ref().filter(|root| *root == cont.ident) {
        cx.error_spanned_by(root, "`root` names this struct: the generated root needs a name of its own");
    }
    if crd.scope.is_none() && crd.namespaced.is_none() {
        cx.error_spanned_by(
            &crd.attr,
            "the spec-first `#[crd(...)]` form needs its scope written out: `namespaced` or \
             `scope = \"Cluster\"` (kube-derive's default is cluster-scoped)",
        );
    }
    if crd.status
        && crd.status_type.is_none()
        && let Some(key) = crd.keys.iter().find(|k| *k == "status")
    {
        cx.error_spanned_by(key, "name the status type: `status = \"DatabaseStatus\"`");
    }
    if !cont.original.generics.params.is_empty() {
        cx.error_spanned_by(&cont.original.generics, "the spec-first `#[crd(...)]` form takes no generics");
    }
}

// The root form writes its own fields: the status type is its `status`
// field's, and its derives, doc comment and name are its own.
fn root_form(cx: &Ctxt, crd: &Crd) {
    if let Some(status) = &crd.status_type {
        cx.error_spanned_by(
            status,
            "on a root type `status` is a flag (the status type is the `status` field's): write `status` alone",
        );
    }
    for key in crd.keys.iter() {
        let hint = match key.to_string().as_str() {
            "derive" => "write `#[derive(...)]` on it",
            "doc" => "write a doc comment on it",
            "root" => "its name is the one it is declared with",
            "attr" => "write the attribute on it",
            _ => continue,
        };
        cx.error_spanned_by(
            key,
            format!(
                "`{key}` is for the root the spec-first form generates; this type is the root (it has \
                 `metadata`): {hint}"
            ),
        );
    }
}

// A tuple struct of several fields is a JSON array of mixed types, which
// a structural schema cannot describe (a newtype is its field).
fn tuple_struct(cx: &Ctxt, cont: &Container<'_>, style: Style, fields: &[Field<'_>]) {
    if style == Style::Tuple && fields.len() != 1 {
        let message = "a tuple struct is a JSON array of mixed types, which a structural schema cannot describe; \
                       hint: use named fields, or a newtype `struct Name(T);`";
        cx.error_spanned_by(cont.ident, message);
    }
}

// Field keywords describe the field's property: a field serde skips has
// none, and a flattened field has none of its own (its properties join the
// parent's), so only the schema's source may be given there.
fn field(cx: &Ctxt, field: &Field<'_>) {
    keywords(cx, &field.schema);
    let describes = |k: &&syn::Ident| *k != "skip" && *k != "schema_with" && *k != "schemars";
    if field.serde.skip {
        for key in field.schema.keys.iter().filter(|k| *k != "skip") {
            cx.error_spanned_by(key, format!("`{key}` on a field that serde skips: it is not in the schema"));
        }
    } else if field.serde.flatten {
        for key in field.schema.keys.iter().filter(describes) {
            let message = format!(
                "`{key}` on a flattened field: its properties join the parent's, so it has no schema of its own"
            );
            cx.error_spanned_by(key, message);
        }
    }
}

// Enum shapes come from repr.rs; keywords on a variant describe the
// variant's property, which only an externally tagged enum has.
fn enum_(cx: &Ctxt, cont: &Container<'_>, variants: &[Variant<'_>]) {
    for variant in variants {
        keywords(cx, &variant.schema);
        variant.fields.iter().for_each(|f| field(cx, f));
    }
    match EnumRepr::of(cont.ident, &cont.serde, variants) {
        Err(errors) => errors.into_iter().for_each(|e| cx.syn_error(e)),
        Ok(EnumRepr::External(_)) => {}
        Ok(_) => {
            for key in variants.iter().flat_map(|v| v.schema.keys.iter().filter(|k| *k != "skip")) {
                let message = format!(
                    "`{key}` on a variant: variant keywords describe the variant's property, which only an \
                     externally tagged enum with data has; put them on the enum or on the fields"
                );
                cx.error_spanned_by(key, message);
            }
        }
    }
}
