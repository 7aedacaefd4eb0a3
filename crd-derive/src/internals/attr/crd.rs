//! `#[crd(...)]`: what a root type knows about its CRD (docs/derive.md's
//! second table). The keys of kube-derive's `#[kube(...)]` that mean the
//! same are accepted under kube-derive's spelling too (`namespaced`,
//! `shortname`, `category`, `printcolumn`, `selectable`; `annotation` and
//! `label` are spelt as there), so that moving an operator over changes the
//! attribute's name and little else.

use proc_macro2::{Ident, Span};
use syn::parse::ParseStream;
use syn::punctuated::Punctuated;
use syn::{Attribute, LitStr, Token};

use super::parse::{self, Key};
use crate::internals::ctxt::Ctxt;
use crate::internals::json::Json;

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
    "namespaced",
    "shortname",
    "category",
    "printcolumn",
    "selectable",
    "derive",
    "doc",
    "annotation",
    "label",
    "root",
    "attr",
];

/// Keys that may be written more than once.
const REPEATABLE: &[&str] = &[
    "printer_column",
    "selectable_field",
    "shortname",
    "category",
    "printcolumn",
    "selectable",
    "derive",
    "annotation",
    "label",
    "attr",
];

/// The attributes of the spec-first form's root that the derive writes,
/// which `attr = "..."` may not set.
const OWN_ROOT_ATTRS: &[&str] = &["derive", "serde", "schema", "crd"];

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
    /// `namespaced` as written (kube-derive's spelling of
    /// `scope = "Namespaced"`).
    pub namespaced: Option<Key>,
    pub status: bool,
    /// `status = "Type"`: the spec-first form's status type.
    pub status_type: Option<LitStr>,
    /// `derive = "Trait"`: more derives for the root the spec-first form
    /// generates.
    pub derives: Vec<LitStr>,
    /// `doc = "..."`: the generated root's doc comment.
    pub doc: Option<LitStr>,
    /// `root = "Name"`: the name of the root the spec-first form
    /// generates (default: the kind), spanned at the string.
    pub root: Option<Ident>,
    /// `attr = "..."`: more attributes for the root the spec-first form
    /// generates, each the inside of `#[...]`, with its string's span.
    pub attrs: Vec<(syn::Meta, Span)>,
    pub scale: Option<Scale>,
    pub printer_columns: Vec<PrinterColumn>,
    pub selectable_fields: Vec<LitStr>,
    pub served: Option<bool>,
    pub storage: Option<bool>,
    pub deprecated: bool,
    pub deprecation_warning: Option<LitStr>,
    /// `annotation("key", "value")`: the CRD's `metadata.annotations`.
    pub annotations: Vec<(LitStr, LitStr)>,
    /// `label("key", "value")`: the CRD's `metadata.labels`.
    pub labels: Vec<(LitStr, LitStr)>,
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
            namespaced: None,
            status: false,
            status_type: None,
            derives: Vec::new(),
            doc: None,
            root: None,
            attrs: Vec::new(),
            scale: None,
            printer_columns: Vec::new(),
            selectable_fields: Vec::new(),
            served: None,
            storage: None,
            deprecated: false,
            deprecation_warning: None,
            annotations: Vec::new(),
            labels: Vec::new(),
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
            "short_names" => self.short_names.extend(parse::strings(input, key)?),
            "shortname" => self.short_names.push(parse::string(input, key)?),
            "categories" => self.categories.extend(parse::strings(input, key)?),
            "category" => self.categories.push(parse::string(input, key)?),
            "scope" => self.scope = Some(parse::one_of(input, key, &["Namespaced", "Cluster"])?),
            "namespaced" => parse::bare(input, key).map(|()| self.namespaced = Some(key.clone()))?,
            "status" => {
                self.status = true;
                if input.peek(Token![=]) {
                    self.status_type = Some(parse::string(input, key)?);
                }
            }
            "scale" if input.peek(Token![=]) => self.scale = Some(scale_json(input, key)?),
            "scale" => self.scale = Some(scale(cx, input, key)?),
            "printer_column" => self.printer_columns.push(printer_column(cx, input, key)?),
            "printcolumn" if input.peek(syn::token::Paren) => {
                self.printer_columns.push(printer_column(cx, input, key)?);
            }
            "printcolumn" => self.printer_columns.push(printcolumn(input, key)?),
            "selectable_field" | "selectable" => self.selectable_fields.push(parse::string(input, key)?),
            "served" => self.served = Some(parse::flag(input, key)?),
            "storage" => self.storage = Some(parse::flag(input, key)?),
            "deprecated" => {
                self.deprecated = true;
                if input.peek(Token![=]) {
                    self.deprecation_warning = Some(parse::string(input, key)?);
                }
            }
            "derive" => self.derives.push(parse::string(input, key)?),
            "doc" => self.doc = Some(parse::string(input, key)?),
            "root" => self.root = Some(root_name(input, key)?),
            "attr" => self.attrs.push(root_attr(input, key)?),
            "annotation" => key_value(input, key, &mut self.annotations)?,
            "label" => key_value(input, key, &mut self.labels)?,
            _ => self.deprecation_warning = Some(parse::string(input, key)?),
        }
        Ok(())
    }

    /// `spec.scope`: `scope` as written, else `Namespaced` for `namespaced`
    /// and by default.
    pub fn scope(&self) -> String {
        self.scope.as_ref().map_or_else(|| "Namespaced".to_owned(), LitStr::value)
    }
}

// `root = "Name"`: an identifier, spanned at the string.
fn root_name(input: ParseStream<'_>, key: &Key) -> syn::Result<Ident> {
    let lit = parse::string(input, key)?;
    let mut ident = syn::parse_str::<Ident>(&lit.value()).map_err(|_| {
        syn::Error::new(lit.span(), "`root` names the generated root type: a Rust identifier such as `Database`")
    })?;
    ident.set_span(lit.span());
    Ok(ident)
}

// `attr = "..."`: the inside of one attribute the derive does not write
// itself.
fn root_attr(input: ParseStream<'_>, key: &Key) -> syn::Result<(syn::Meta, Span)> {
    let lit = parse::string(input, key)?;
    let meta = syn::parse_str::<syn::Meta>(&lit.value()).map_err(|_| {
        syn::Error::new(lit.span(), "`attr` is the inside of an attribute: `attr = \"allow(deprecated)\"`")
    })?;
    if OWN_ROOT_ATTRS.iter().any(|name| meta.path().is_ident(name)) {
        return Err(syn::Error::new(
            lit.span(),
            "`attr` cannot set the root's `derive`, `serde`, `schema` or `crd` attributes, which the derive \
             writes: use `derive = \"Trait\"` for a derive",
        ));
    }
    Ok((meta, lit.span()))
}

// `annotation("key", "value")` or `label("key", "value")`, kube-derive's
// form: two strings, the key not stated before. The parentheses are read
// whole, so a wrong list is one error, in our words.
fn key_value(input: ParseStream<'_>, key: &Key, pairs: &mut Vec<(LitStr, LitStr)>) -> syn::Result<()> {
    let content = parse::parens(input, key, "\"key\", \"value\"")?;
    let tokens: proc_macro2::TokenStream = content.parse()?;
    let strings = syn::parse::Parser::parse2(Punctuated::<LitStr, Token![,]>::parse_terminated, tokens);
    let Some([name, value]) = strings.ok().and_then(|s| <[LitStr; 2]>::try_from(Vec::from_iter(s)).ok()) else {
        return Err(syn::Error::new(key.span(), format!("`{key}` takes two strings: `{key}(\"key\", \"value\")`")));
    };
    if pairs.iter().any(|(k, _)| k.value() == name.value()) {
        return Err(syn::Error::new(name.span(), format!("duplicate {key} `{}`", name.value())));
    }
    pairs.push((name, value));
    Ok(())
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

/// A JSON object written as a string (kube-derive's older `printcolumn`
/// and `scale` values), with its keys checked against `keys`.
struct JsonObject {
    object: crate::internals::json::Object,
    span: proc_macro2::Span,
    key: String,
}

impl JsonObject {
    fn parse(input: ParseStream<'_>, key: &Key, keys: &[&str]) -> syn::Result<Self> {
        let text = parse::string(input, key)?;
        let this = |object| Self { object, span: text.span(), key: key.to_string() };
        let json = crate::internals::json::parse(&text.value())
            .map_err(|e| this(Default::default()).error(format!("not valid JSON: {e}")))?;
        let Json::Object(object) = json else {
            return Err(this(Default::default()).error(format!("expected a JSON object with {}", keys.join(", "))));
        };
        let parsed = this(object);
        if let Some((name, _)) = parsed.object.iter().find(|(name, _)| !keys.contains(&name.as_str())) {
            let hint = match crate::internals::suggest::closest(name, keys.iter().copied()) {
                Some(close) => format!("did you mean `{close}`?"),
                None => format!("the keys are {}", keys.join(", ")),
            };
            return Err(parsed.error(format!("unknown key `{name}`; {hint}")));
        }
        Ok(parsed)
    }

    fn error(&self, message: String) -> syn::Error {
        syn::Error::new(self.span, format!("`{}`: {message}", self.key))
    }

    fn string(&self, name: &str) -> syn::Result<Option<LitStr>> {
        match self.object.get(name) {
            None => Ok(None),
            Some(Json::String(s)) => Ok(Some(LitStr::new(s, self.span))),
            Some(_) => Err(self.error(format!("`{name}` must be a string"))),
        }
    }

    fn needed(&self, name: &str) -> syn::Result<LitStr> {
        self.string(name)?.ok_or_else(|| self.error(format!("needs `\"{name}\"`")))
    }
}

// kube-derive's `scale = r#"{"specReplicasPath": ..., "statusReplicasPath": ...}"#`.
fn scale_json(input: ParseStream<'_>, key: &Key) -> syn::Result<Scale> {
    let json = JsonObject::parse(input, key, &["specReplicasPath", "statusReplicasPath", "labelSelectorPath"])?;
    Ok(Scale {
        spec_replicas_path: json.needed("specReplicasPath")?,
        status_replicas_path: json.needed("statusReplicasPath")?,
        label_selector_path: json.string("labelSelectorPath")?,
    })
}

// kube-derive's `printcolumn = r#"{"name": ..., "type": ..., "jsonPath": ...}"#`:
// the column as JSON, with the API's field names.
fn printcolumn(input: ParseStream<'_>, key: &Key) -> syn::Result<PrinterColumn> {
    let json = JsonObject::parse(input, key, &["name", "type", "jsonPath", "description", "format", "priority"])?;
    let error = |message: String| json.error(message);
    let string = |name: &str| json.string(name);
    let needed = |name: &str| json.needed(name);
    let object = &json.object;
    let type_ = needed("type")?;
    if !COLUMN_TYPES.contains(&type_.value().as_str()) {
        return Err(error(format!("`type` is one of {}", COLUMN_TYPES.join(", "))));
    }
    let format = string("format")?;
    if format.as_ref().is_some_and(|f| !COLUMN_FORMATS.contains(&f.value().as_str())) {
        return Err(error(format!("`format` is one of {}", COLUMN_FORMATS.join(", "))));
    }
    let priority = match object.get("priority") {
        None => None,
        Some(Json::Number(n)) => Some(n.parse::<i32>().map_err(|_| error("`priority` is an int32".to_owned()))?),
        Some(_) => return Err(error("`priority` must be a number".to_owned())),
    };
    Ok(PrinterColumn {
        name: needed("name")?,
        type_,
        json_path: needed("jsonPath")?,
        description: string("description")?,
        format,
        priority,
    })
}
