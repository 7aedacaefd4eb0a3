//! How an enum appears in JSON (serde's representations), and which of
//! those a structural schema can describe. [`EnumRepr::of`] is the one
//! place that decides; the checks report its errors and the expansion
//! follows its answer.

use syn::{GenericArgument, PathArguments, Type};

use super::ast::{Style, Variant};
use super::attr::serde;

/// The JSON shape of an enum.
pub enum EnumRepr<'v, 'a> {
    /// Unit variants only: a string from the listed variants.
    Strings(Vec<&'v Variant<'a>>),
    /// `{"Variant": content}`, data variants only.
    External(Vec<&'v Variant<'a>>),
    /// `{"tag": "Variant", ...fields}`.
    Internal { tag: &'v str, variants: Vec<&'v Variant<'a>> },
    /// `{"tag": "Variant", "content": content}`.
    Adjacent { tag: &'v str, content: &'v str, variants: Vec<&'v Variant<'a>> },
    /// `#[serde(untagged)]` with one integer and one string variant.
    IntOrString,
}

/// What a newtype holds, as far as its spelling tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scalar {
    Integer,
    String,
}

/// A shape a structural schema cannot describe: the error, at the token.
pub type ReprError = syn::Error;

impl<'v, 'a> EnumRepr<'v, 'a> {
    /// The representation of an enum with `variants` under `serde`.
    pub fn of(
        ident: &syn::Ident,
        serde: &'v serde::Container,
        variants: &'v [Variant<'a>],
    ) -> Result<Self, Vec<ReprError>> {
        let present: Vec<&Variant<'a>> = variants.iter().filter(|v| v.is_present()).collect();
        if present.is_empty() {
            let message = "an enum without (deserializable) variants has no values, so it has no schema";
            return Err(vec![syn::Error::new(ident.span(), message)]);
        }
        if serde.untagged {
            return int_or_string(ident, &present).map(|()| Self::IntOrString);
        }
        let mut errors = Vec::new();
        let tagged: Vec<&Variant<'a>> = present.iter().copied().filter(|v| !v.serde.untagged).collect();
        for variant in present.iter().filter(|v| v.serde.untagged) {
            if !is_catch_all(variant, serde, &tagged) {
                errors.push(error(variant, UNTAGGED_VARIANT));
            }
        }
        for variant in tagged.iter().filter(|v| v.style == Style::Tuple && v.present_fields().count() != 1) {
            errors.push(error(variant, TUPLE_VARIANT));
        }
        let repr = match (&serde.tag, &serde.content) {
            (Some(tag), Some(content)) => Self::Adjacent { tag, content, variants: tagged },
            (Some(tag), None) => Self::Internal { tag, variants: tagged },
            _ => external(tagged, &mut errors),
        };
        if errors.is_empty() { Ok(repr) } else { Err(errors) }
    }
}

const UNTAGGED_VARIANT: &str = "an untagged variant makes the value one shape or another, which a structural \
schema cannot describe; the only untagged variant allowed is a `String` catch-all (`#[serde(untagged)] Other(String)`) \
after unit variants";

const TUPLE_VARIANT: &str = "a tuple variant is an array of mixed types, which a structural schema cannot \
describe; hint: use named fields (`Variant { a: A, b: B }`) or a newtype variant";

const MIXED_VARIANT: &str = "this unit variant is a string in JSON while the other variants are objects, which a \
structural schema cannot describe; hint: write it as an empty struct variant (`Variant {}`), or tag the enum \
(`#[serde(tag = \"type\")]`)";

fn error(variant: &Variant<'_>, message: &str) -> syn::Error {
    syn::Error::new(variant.ident.span(), message)
}

// Externally tagged: unit variants only are a string enum, data variants
// only are objects with one property per variant; a mix is a string or an
// object, which is not structural.
fn external<'v, 'a>(tagged: Vec<&'v Variant<'a>>, errors: &mut Vec<syn::Error>) -> EnumRepr<'v, 'a> {
    let units: Vec<&Variant<'a>> = tagged.iter().copied().filter(|v| v.style == Style::Unit).collect();
    if units.len() == tagged.len() {
        return EnumRepr::Strings(units.into_iter().filter(|v| !v.serde.other).collect());
    }
    errors.extend(units.iter().map(|v| error(v, MIXED_VARIANT)));
    EnumRepr::External(tagged)
}

// The generator's catch-all: a newtype of a string, untagged, in an
// externally tagged enum whose other variants are all unit variants.
fn is_catch_all(variant: &Variant<'_>, serde: &serde::Container, tagged: &[&Variant<'_>]) -> bool {
    serde.tag.is_none()
        && tagged.iter().all(|v| v.style == Style::Unit)
        && newtype_scalar(variant) == Some(Scalar::String)
}

// Untagged enums are int-or-string or nothing: exactly two newtype
// variants, one of an integer type and one of a string type, because any
// other mix of shapes has no structural schema.
fn int_or_string(ident: &syn::Ident, present: &[&Variant<'_>]) -> Result<(), Vec<syn::Error>> {
    let hint = "untagged enums are structural only as int-or-string: one integer newtype variant and one \
                string newtype variant (or use k8s-openapi's `IntOrString`)";
    let mut errors = Vec::new();
    let mut seen = Vec::new();
    for variant in present {
        match newtype_scalar(variant) {
            Some(kind) if !seen.contains(&kind) => seen.push(kind),
            Some(kind) => {
                let kind = if kind == Scalar::Integer { "integer" } else { "string" };
                errors.push(error(variant, &format!("a second {kind} variant; {hint}")));
            }
            None => errors.push(error(variant, &format!("this variant is neither an integer nor a string; {hint}"))),
        }
    }
    if errors.is_empty() && seen.len() != 2 {
        errors.push(syn::Error::new(ident.span(), format!("a single variant is not int-or-string; {hint}")));
    }
    if errors.is_empty() { Ok(()) } else { Err(errors) }
}

/// The scalar a newtype variant holds, when its type is spelled as one.
pub fn newtype_scalar(variant: &Variant<'_>) -> Option<Scalar> {
    let mut fields = variant.present_fields();
    match (variant.style, fields.next(), fields.next()) {
        (Style::Tuple, Some(field), None) => scalar(field.ty),
        _ => None,
    }
}

/// Whether `ty` is spelled as an integer (`i32`, `u64`, ...) or a string
/// (`String`, `&str`, `char`, `Cow<str>`, `Box<str>`).
pub fn scalar(ty: &Type) -> Option<Scalar> {
    match ty {
        Type::Reference(r) => scalar(&r.elem),
        Type::Group(g) => scalar(&g.elem),
        Type::Paren(p) => scalar(&p.elem),
        Type::Path(p) if p.qself.is_none() => {
            let last = p.path.segments.last()?;
            let name = last.ident.to_string();
            match name.as_str() {
                "i8" | "i16" | "i32" | "i64" | "i128" | "isize" | "u8" | "u16" | "u32" | "u64" | "u128" | "usize" => {
                    Some(Scalar::Integer)
                }
                "String" | "str" | "char" => Some(Scalar::String),
                "Cow" | "Box" | "Rc" | "Arc" => match &last.arguments {
                    PathArguments::AngleBracketed(args) => args.args.iter().find_map(|arg| match arg {
                        GenericArgument::Type(inner) => scalar(inner),
                        _ => None,
                    }),
                    _ => None,
                },
                _ => None,
            }
        }
        _ => None,
    }
}

/// Whether `ty` is spelled `Option<...>` (for fields whose schema does not
/// come from their type: `schema_with`, `schemars`).
pub fn is_option(ty: &Type) -> bool {
    match ty {
        Type::Group(g) => is_option(&g.elem),
        Type::Paren(p) => is_option(&p.elem),
        Type::Path(p) if p.qself.is_none() => p.path.segments.last().is_some_and(|s| s.ident == "Option"),
        _ => false,
    }
}
