//! `#[crd(...)]`: what a root type knows about its CRD (docs/derive.md's
//! second table).

use syn::parse::ParseStream;
use syn::{Attribute, LitStr};

use super::parse::{self, Key};
use crate::internals::ctxt::Ctxt;

const KEYS: &[&str] = &[
    "group",
    "version",
    "kind",
    "plural",
    "singular",
    "list_kind",
    "short_names",
    "categories",
    "scope",
    "status",
    "scale",
    "printer_column",
    "selectable_field",
    "served",
    "storage",
    "deprecated",
    "deprecation_warning",
];

/// Keys that may be written more than once.
const REPEATABLE: &[&str] = &["printer_column", "selectable_field"];

/// The `#[crd(...)]` attributes of a type.
pub struct Crd {
    /// The first `crd` attribute's path, for errors about the whole.
    pub attr: syn::Path,
    /// Every key as written.
    pub keys: Vec<Key>,
    pub group: Option<LitStr>,
    pub version: Option<LitStr>,
    pub kind: Option<LitStr>,
    pub plural: Option<LitStr>,
    pub singular: Option<LitStr>,
    pub list_kind: Option<LitStr>,
    pub short_names: Vec<LitStr>,
    pub categories: Vec<LitStr>,
    pub scope: Option<LitStr>,
    pub status: bool,
    pub scale: Option<Scale>,
    pub printer_columns: Vec<PrinterColumn>,
    pub selectable_fields: Vec<LitStr>,
    pub served: Option<bool>,
    pub storage: Option<bool>,
    pub deprecated: bool,
    pub deprecation_warning: Option<LitStr>,
}

/// `scale(...)`.
pub struct Scale {
    pub spec_replicas_path: LitStr,
    pub status_replicas_path: LitStr,
    pub label_selector_path: Option<LitStr>,
}

/// `printer_column(...)`.
pub struct PrinterColumn {
    pub name: LitStr,
    pub type_: LitStr,
    pub json_path: LitStr,
    pub description: Option<LitStr>,
    pub format: Option<LitStr>,
    pub priority: Option<i32>,
}

/// The `#[crd(...)]` attributes of `attrs`, or `None` without any.
pub fn from_attrs(cx: &Ctxt, attrs: &[Attribute]) -> Option<Crd> {
    let mut crd: Option<Crd> = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident("crd")) {
        let crd = crd.get_or_insert_with(|| Crd::new(attr.path().clone()));
        if attr.meta.require_list().is_err() {
            cx.error_spanned_by(attr, "expected `#[crd(group = \"...\", version = \"...\", ...)]`");
            continue;
        }
        let parsed = attr.parse_args_with(|input: ParseStream<'_>| {
            parse::parse_list(cx, input, |key, input| crd.key(cx, key, input))
        });
        if let Err(error) = parsed {
            cx.syn_error(error);
        }
    }
    crd
}

impl Crd {
    fn new(attr: syn::Path) -> Self {
        Self {
            attr,
            keys: Vec::new(),
            group: None,
            version: None,
            kind: None,
            plural: None,
            singular: None,
            list_kind: None,
            short_names: Vec::new(),
            categories: Vec::new(),
            scope: None,
            status: false,
            scale: None,
            printer_columns: Vec::new(),
            selectable_fields: Vec::new(),
            served: None,
            storage: None,
            deprecated: false,
            deprecation_warning: None,
        }
    }

    // Keys are known and written once, except the repeatable ones.
    fn key(&mut self, cx: &Ctxt, key: &Key, input: ParseStream<'_>) -> syn::Result<()> {
        let Some(name) = KEYS.iter().copied().find(|k| key == k) else {
            return Err(parse::unknown(key, "crd", KEYS.iter().copied()));
        };
        if self.keys.iter().any(|k| k == name) && !REPEATABLE.contains(&name) {
            return Err(syn::Error::new(key.span(), format!("duplicate crd attribute `{name}`")));
        }
        self.keys.push(key.clone());
        match name {
            "group" => self.group = Some(parse::string(input, key)?),
            "version" => self.version = Some(parse::string(input, key)?),
            "kind" => self.kind = Some(parse::string(input, key)?),
            "plural" => self.plural = Some(parse::string(input, key)?),
            "singular" => self.singular = Some(parse::string(input, key)?),
            "list_kind" => self.list_kind = Some(parse::string(input, key)?),
            "short_names" => self.short_names = parse::strings(input, key)?,
            "categories" => self.categories = parse::strings(input, key)?,
            "scope" => self.scope = Some(parse::one_of(input, key, &["Namespaced", "Cluster"])?),
            "status" => parse::bare(input, key).map(|()| self.status = true)?,
            "scale" => self.scale = Some(scale(cx, input, key)?),
            "printer_column" => self.printer_columns.push(printer_column(cx, input, key)?),
            "selectable_field" => self.selectable_fields.push(parse::string(input, key)?),
            "served" => self.served = Some(parse::boolean(input, key)?),
            "storage" => self.storage = Some(parse::boolean(input, key)?),
            "deprecated" => self.deprecated = parse::flag(input, key)?,
            _ => self.deprecation_warning = Some(parse::string(input, key)?),
        }
        Ok(())
    }
}

// A missing sub-key is reported unless an unknown key was (then it was most
// likely the missing one misspelt); the placeholder is never emitted.
fn required(value: Option<LitStr>, complete: bool, key: &Key, what: &str, name: &str) -> syn::Result<LitStr> {
    match value {
        Some(value) => Ok(value),
        None if !complete => Ok(LitStr::new("", key.span())),
        None => Err(syn::Error::new(key.span(), format!("`{what}(...)` needs `{name} = \"...\"`"))),
    }
}

fn scale(cx: &Ctxt, input: ParseStream<'_>, key: &Key) -> syn::Result<Scale> {
    let content = parse::parens(input, key, "spec_replicas_path = \"...\", status_replicas_path = \"...\"")?;
    let [mut spec, mut status, mut selector] = [None, None, None];
    let keys = &["spec_replicas_path", "status_replicas_path", "label_selector_path"];
    let complete = parse::sub_keys(cx, &content, "scale", keys, |name, key, input| {
        let value = Some(parse::string(input, key)?);
        match name {
            "spec_replicas_path" => spec = value,
            "status_replicas_path" => status = value,
            _ => selector = value,
        }
        Ok(())
    })?;
    Ok(Scale {
        spec_replicas_path: required(spec, complete, key, "scale", "spec_replicas_path")?,
        status_replicas_path: required(status, complete, key, "scale", "status_replicas_path")?,
        label_selector_path: selector,
    })
}

const COLUMN_TYPES: &[&str] = &["integer", "number", "string", "boolean", "date"];
const COLUMN_FORMATS: &[&str] = &["int32", "int64", "float", "double", "byte", "date", "date-time", "password"];

fn printer_column(cx: &Ctxt, input: ParseStream<'_>, key: &Key) -> syn::Result<PrinterColumn> {
    let content = parse::parens(input, key, "name = \"...\", type_ = \"...\", json_path = \"...\"")?;
    let [mut name, mut type_, mut json_path, mut description, mut format] = [None, None, None, None, None];
    let mut priority = None;
    let keys = &["name", "type_", "json_path", "description", "format", "priority"];
    let complete = parse::sub_keys(cx, &content, "printer_column", keys, |which, key, input| {
        match which {
            "name" => name = Some(parse::string(input, key)?),
            "type_" => type_ = Some(parse::one_of(input, key, COLUMN_TYPES)?),
            "json_path" => json_path = Some(parse::string(input, key)?),
            "description" => description = Some(parse::string(input, key)?),
            "format" => format = Some(parse::one_of(input, key, COLUMN_FORMATS)?),
            _ => priority = Some(parse::int32(input, key)?),
        }
        Ok(())
    })?;
    Ok(PrinterColumn {
        name: required(name, complete, key, "printer_column", "name")?,
        type_: required(type_, complete, key, "printer_column", "type_")?,
        json_path: required(json_path, complete, key, "printer_column", "json_path")?,
        description,
        format,
        priority,
    })
}
