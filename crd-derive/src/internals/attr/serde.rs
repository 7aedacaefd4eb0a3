//! The `#[serde(...)]` attributes that shape the JSON, read as serde reads
//! them. Mistakes in them are serde_derive's to report: anything this
//! module does not understand is skipped silently, so users never see the
//! same error twice.

use syn::meta::ParseNestedMeta;
use syn::{Attribute, ExprPath, LitStr, Token};

use super::parse;
use crate::internals::case::RenameRule;

/// Where a default comes from.
#[derive(Default)]
pub enum DefaultSource {
    /// No serde default.
    #[default]
    None,
    /// `#[serde(default)]`: `Default::default()`.
    Trait,
    /// `#[serde(default = "path")]`.
    Path(ExprPath),
}

impl DefaultSource {
    /// Whether there is a default.
    pub fn is_some(&self) -> bool {
        !matches!(self, Self::None)
    }
}

/// Serde attributes of a struct or enum.
#[derive(Default)]
pub struct Container {
    pub rename_all: Option<RenameRule>,
    pub rename_all_fields: Option<RenameRule>,
    pub default: DefaultSource,
    pub transparent: bool,
    pub tag: Option<String>,
    pub content: Option<String>,
    pub untagged: bool,
}

/// Serde attributes of a field.
#[derive(Default)]
pub struct Field {
    pub rename: Option<String>,
    pub default: DefaultSource,
    pub flatten: bool,
    /// `skip` or `skip_deserializing`: not in the JSON that is read.
    pub skip: bool,
    pub skip_serializing_if: Option<ExprPath>,
}

/// Serde attributes of an enum variant.
#[derive(Default)]
pub struct Variant {
    pub rename: Option<String>,
    pub rename_all: Option<RenameRule>,
    /// `skip` or `skip_deserializing`.
    pub skip: bool,
    pub other: bool,
    pub untagged: bool,
}

fn each_serde(attrs: &[Attribute], mut f: impl FnMut(&ParseNestedMeta<'_>) -> syn::Result<()>) {
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let _ = attr.parse_nested_meta(|meta| {
            f(&meta)?;
            // Whatever `f` left (values of keys it does not read) is skipped.
            if meta.input.peek(Token![=]) || meta.input.peek(syn::token::Paren) {
                parse::skip_value(meta.input);
            }
            Ok(())
        });
    }
}

fn string(meta: &ParseNestedMeta<'_>) -> syn::Result<String> {
    Ok(meta.value()?.parse::<LitStr>()?.value())
}

fn path(meta: &ParseNestedMeta<'_>) -> syn::Result<ExprPath> {
    meta.value()?.parse::<LitStr>()?.parse()
}

/// `name = "..."` or `name(serialize = "...", deserialize = "...")`: the
/// deserialize side, which is what the API server's objects must match.
fn deserialize_side(meta: &ParseNestedMeta<'_>) -> syn::Result<Option<String>> {
    if meta.input.peek(Token![=]) {
        return string(meta).map(Some);
    }
    let mut found = None;
    meta.parse_nested_meta(|inner| {
        let value = string(&inner)?;
        if inner.path.is_ident("deserialize") {
            found = Some(value);
        }
        Ok(())
    })?;
    Ok(found)
}

fn default(meta: &ParseNestedMeta<'_>) -> syn::Result<DefaultSource> {
    if meta.input.peek(Token![=]) { path(meta).map(DefaultSource::Path) } else { Ok(DefaultSource::Trait) }
}

fn rule(meta: &ParseNestedMeta<'_>) -> syn::Result<Option<RenameRule>> {
    Ok(deserialize_side(meta)?.and_then(|name| RenameRule::from_name(&name)))
}

/// The serde attributes of a struct or enum.
pub fn container(attrs: &[Attribute]) -> Container {
    let mut c = Container::default();
    each_serde(attrs, |meta| {
        let p = &meta.path;
        if p.is_ident("rename_all") {
            c.rename_all = rule(meta)?;
        } else if p.is_ident("rename_all_fields") {
            c.rename_all_fields = rule(meta)?;
        } else if p.is_ident("default") {
            c.default = default(meta)?;
        } else if p.is_ident("transparent") {
            c.transparent = true;
        } else if p.is_ident("tag") {
            c.tag = Some(string(meta)?);
        } else if p.is_ident("content") {
            c.content = Some(string(meta)?);
        } else if p.is_ident("untagged") {
            c.untagged = true;
        }
        Ok(())
    });
    c
}

/// The serde attributes of a field.
pub fn field(attrs: &[Attribute]) -> Field {
    let mut f = Field::default();
    each_serde(attrs, |meta| {
        let p = &meta.path;
        if p.is_ident("rename") {
            f.rename = deserialize_side(meta)?;
        } else if p.is_ident("default") {
            f.default = default(meta)?;
        } else if p.is_ident("flatten") {
            f.flatten = true;
        } else if p.is_ident("skip") || p.is_ident("skip_deserializing") {
            f.skip = true;
        } else if p.is_ident("skip_serializing_if") {
            f.skip_serializing_if = Some(path(meta)?);
        }
        Ok(())
    });
    f
}

/// The serde attributes of an enum variant.
pub fn variant(attrs: &[Attribute]) -> Variant {
    let mut v = Variant::default();
    each_serde(attrs, |meta| {
        let p = &meta.path;
        if p.is_ident("rename") {
            v.rename = deserialize_side(meta)?;
        } else if p.is_ident("rename_all") {
            v.rename_all = rule(meta)?;
        } else if p.is_ident("skip") || p.is_ident("skip_deserializing") {
            v.skip = true;
        } else if p.is_ident("other") {
            v.other = true;
        } else if p.is_ident("untagged") {
            v.untagged = true;
        }
        Ok(())
    });
    v
}
