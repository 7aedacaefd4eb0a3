//! Schema defaults: `default_<field>` / `deserialize_<field>` functions and
//! the hand-written `Default` impls.
//!
//! A scalar default that fits its Rust type is written as a literal (fast,
//! and readable in the generated code), and so is an object of such
//! scalars, as a struct literal that fills the fields it leaves out as
//! decoding would; anything else — arrays, maps, values that do not fit —
//! is decoded from its JSON through the field's own type, once per
//! process, by a `static` `DefaultCell` in its default function, which
//! applies nested defaults and prunes unknown fields as the API server
//! does.

use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};
use serde_json::Value;

use super::{Ctx, derived_fn, ident};
use crate::typespace::{Field, Slot, Special, StructDef, TypeId, TypeKind, TypeRef};

/// Whether the struct's `Default` is written by hand (a field has a schema
/// default, or it is a root whose `apiVersion`/`kind` are filled in); a
/// struct without `Default` has neither impl nor derive.
pub(super) fn needs_impl(s: &StructDef) -> bool {
    s.resource.is_some() || s.fields.iter().any(|f| matches!(f.slot, Slot::Defaulted(_) | Slot::NullableDefaulted(_)))
}

/// The inherent default functions and the `Default` impl, if any.
pub(super) fn impls(ctx: &Ctx<'_>, name: &Ident, s: &StructDef) -> TokenStream {
    let fns: Vec<TokenStream> = s.fields.iter().filter_map(|f| field_fns(ctx, f)).collect();
    let inherent = if fns.is_empty() { quote!() } else { quote!(impl #name { #(#fns)* }) };
    if !s.has_default || !needs_impl(s) {
        return inherent;
    }
    let values = s.fields.iter().map(|f| {
        let field = ident(&f.ident);
        let value = field_default(ctx, s, f);
        quote!(#field: #value)
    });
    let flatten = s.flatten.as_deref().map(|f| {
        let f = ident(f);
        quote!(#f: ::std::default::Default::default(),)
    });
    quote! {
        #inherent

        impl ::std::default::Default for #name {
            fn default() -> Self {
                Self {
                    #(#values,)*
                    #flatten
                }
            }
        }
    }
}

/// The value of field `f` of struct `s` in `s`'s `Default` (and in a
/// root's constructor): its schema default, the root's `apiVersion` and
/// `kind`, else its type's `Default`.
pub(super) fn field_default(ctx: &Ctx<'_>, s: &StructDef, f: &Field) -> TokenStream {
    let k8s = &ctx.k8s;
    match filled(s, f) {
        None => {
            let function = derived_fn("default", &f.ident);
            quote!(Self::#function())
        }
        Some(Filled::ApiVersion) => quote!(::std::string::String::from(<Self as #k8s::Resource>::API_VERSION)),
        Some(Filled::Kind) => quote!(::std::string::String::from(<Self as #k8s::Resource>::KIND)),
        Some(Filled::Default) => quote!(::std::default::Default::default()),
    }
}

/// What a resource's `Default` puts in a field other than its schema
/// default.
#[derive(Clone, Copy)]
enum Filled {
    ApiVersion,
    Kind,
    Default,
}

/// What [`field_default`] puts in field `f`, unless it is the field's own
/// schema default (`None`).
fn filled(s: &StructDef, f: &Field) -> Option<Filled> {
    match (&f.slot, f.special) {
        (Slot::Defaulted(_) | Slot::NullableDefaulted(_), _) => None,
        (_, Some(Special::ApiVersion)) if s.resource.is_some() => Some(Filled::ApiVersion),
        (_, Some(Special::Kind)) if s.resource.is_some() => Some(Filled::Kind),
        _ => Some(Filled::Default),
    }
}

/// `default_<field>`; `item_default_<field>` when the field's own items or
/// values have a default; `deserialize_<field>` for those and for
/// non-nullable defaulted fields (which give the default for `null` too).
fn field_fns(ctx: &Ctx<'_>, f: &Field) -> Option<TokenStream> {
    let (default, nullable) = match &f.slot {
        Slot::Defaulted(value) => (Some(value), false),
        Slot::NullableDefaulted(value) => (Some(value), true),
        _ => (None, false),
    };
    let item = f.item_default.as_ref().and_then(|value| match &f.ty {
        TypeRef::Vec(item) => Some((item, value, "vec_null_as")),
        TypeRef::Map(item) => Some((item, value, "map_null_as")),
        _ => None,
    });
    if default.is_none() && item.is_none() {
        return None;
    }
    let crd_schema = &ctx.crd_schema;
    let ty = ctx.ty(&f.ty);
    let default_fn = derived_fn("default", &f.ident);
    let item_fn = derived_fn("item_default", &f.ident);
    let deserialize_fn = derived_fn("deserialize", &f.ident);
    let mut fns = Vec::new();
    if let Some(value) = default {
        let (cell, expr) = default_expr(ctx, &f.ty, value);
        // As for `deserialize_<field>` below.
        let allow = ctx.complex(&f.ty, 2).then(|| quote!(#[allow(clippy::type_complexity)]));
        let (ret, expr) = if nullable {
            (quote!(::std::option::Option<#ty>), quote!(::std::option::Option::Some(#expr)))
        } else {
            (ty.clone(), expr)
        };
        fns.push(quote! {
            #allow
            fn #default_fn() -> #ret {
                #cell
                #expr
            }
        });
    }
    if let Some((item, value, _)) = item {
        let (cell, expr) = default_expr(ctx, item, value);
        let allow = ctx.complex(item, 0).then(|| quote!(#[allow(clippy::type_complexity)]));
        let item = ctx.ty(item);
        fns.push(quote! {
            #allow
            fn #item_fn() -> #item {
                #cell
                #expr
            }
        });
    }
    // What `deserialize_<field>` returns and does; a nullable defaulted
    // field without item default needs none (`Option` keeps `null`).
    let body = match (&f.slot, item) {
        (Slot::Defaulted(_), Some((_, _, helper))) => {
            let helper = format_ident!("option_{helper}");
            quote! {
                ::std::result::Result::Ok(
                    #crd_schema::__private::#helper(deserializer, Self::#item_fn)?.unwrap_or_else(Self::#default_fn),
                )
            }
        }
        (Slot::Defaulted(_), None) if f.ty.null_pruned_map() => quote! {
            ::std::result::Result::Ok(
                #crd_schema::__private::option_map_without_nulls(deserializer)?.unwrap_or_else(Self::#default_fn),
            )
        },
        (Slot::Defaulted(_), None) => quote!(#crd_schema::__private::null_as(deserializer, Self::#default_fn)),
        (Slot::Required | Slot::DefaultWhenAbsent, Some((_, _, helper))) => {
            let helper = format_ident!("{helper}");
            quote!(#crd_schema::__private::#helper(deserializer, Self::#item_fn))
        }
        (Slot::Optional | Slot::NullableDefaulted(_), Some((_, _, helper))) => {
            let helper = format_ident!("option_{helper}");
            quote!(#crd_schema::__private::#helper(deserializer, Self::#item_fn))
        }
        (Slot::Nullable, Some((_, _, helper))) => {
            let helper = format_ident!("option_{helper}");
            quote!(#crd_schema::__private::#helper(deserializer, Self::#item_fn).map(::std::option::Option::Some))
        }
        _ => return Some(quote!(#(#fns)*)),
    };
    let (ret, wrappers) = match f.slot {
        Slot::Required | Slot::DefaultWhenAbsent | Slot::Defaulted(_) => (ty, 0),
        Slot::Optional | Slot::NullableDefaulted(_) => (quote!(::std::option::Option<#ty>), 1),
        Slot::Nullable => (quote!(::std::option::Option<::std::option::Option<#ty>>), 2),
    };
    // `Result<_, D::Error>` scores at most as two more wrappers.
    let allow = ctx.complex(&f.ty, wrappers + 2).then(|| quote!(#[allow(clippy::type_complexity)]));
    fns.push(quote! {
        #allow
        fn #deserialize_fn<'de, D>(deserializer: D) -> ::std::result::Result<#ret, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            #body
        }
    });
    Some(quote!(#(#fns)*))
}

/// The expression for a default `value` of type `ty`, and the `static`
/// it reads (none for a literal), both for the body of a default function.
fn default_expr(ctx: &Ctx<'_>, ty: &TypeRef, value: &Value) -> (TokenStream, TokenStream) {
    if let Some(literal) = literal(ctx, ty, value) {
        return (quote!(), literal);
    }
    let crd_schema = &ctx.crd_schema;
    let json = raw_string(&value.to_string());
    let rust_ty = ctx.ty(ty);
    let cell = quote! {
        static DEFAULT: #crd_schema::__private::DefaultCell<#rust_ty> = #crd_schema::__private::DefaultCell::new(#json);
    };
    if ctx.space.has_default(ty) {
        return (cell, quote!(DEFAULT.get()));
    }
    // A type without `Default` (a required enum without schema default
    // inside) has no fallback for a default that does not decode. Such a
    // default decodes: the API server accepts a CRD only if its defaults
    // validate against their schemas (all but those under
    // `additionalProperties`), so they hold every required field with a
    // listed value.
    let expr =
        quote!(DEFAULT.decoded().expect("the API server accepts only defaults that validate against their schema"));
    (cell, expr)
}

/// A literal for a scalar default that fits its type exactly, or for an
/// object of such ([`struct_literal`]).
fn literal(ctx: &Ctx<'_>, ty: &TypeRef, value: &Value) -> Option<TokenStream> {
    match ty {
        TypeRef::I64 => value.as_i64().map(int),
        TypeRef::I32 => value.as_i64().filter(|v| i32::try_from(*v).is_ok()).map(int),
        TypeRef::F64 => value.as_f64().filter(|v| v.is_finite()).map(float),
        TypeRef::Bool => value.as_bool().map(|b| quote!(#b)),
        TypeRef::String => value.as_str().map(|s| quote!(::std::string::String::from(#s))),
        TypeRef::Named(id) => {
            let e = match &ctx.space.get(*id)?.kind {
                TypeKind::Enum(e) => e,
                TypeKind::Struct(s) => return struct_literal(ctx, *id, s, value),
            };
            let name = ctx.name(*id);
            let s = value.as_str()?;
            match e.variants.iter().find(|(_, json)| json == s) {
                Some((variant, _)) => {
                    let variant = ident(variant);
                    Some(quote!(#name::#variant))
                }
                None => {
                    let catch_all = ident(e.catch_all.as_deref()?);
                    Some(quote!(#name::#catch_all(::std::string::String::from(#s))))
                }
            }
        }
        _ => None,
    }
}

/// A struct literal for an object default whose values are all literals
/// (an object of scalars, or of such objects): what decoding it through
/// the struct gives, without decoding. Fields it leaves out take what
/// decoding gives an absent field: their own default, else `None`. None
/// when decoding could give something else: a `null` value, a required
/// field left out, a struct that keeps unknown fields or is a resource.
fn struct_literal(ctx: &Ctx<'_>, id: TypeId, s: &StructDef, value: &Value) -> Option<TokenStream> {
    let object = value.as_object()?;
    if s.flatten.is_some() || s.resource.is_some() || s.fields.iter().any(|f| f.special.is_some()) {
        return None;
    }
    let name = ctx.name(id);
    let fields = s.fields.iter().map(|f| {
        let field = ident(&f.ident);
        let value = match object.get(&f.json) {
            Some(value) => {
                let literal = literal(ctx, &f.ty, value)?;
                match f.slot {
                    Slot::Required | Slot::DefaultWhenAbsent | Slot::Defaulted(_) => literal,
                    Slot::Optional | Slot::NullableDefaulted(_) => quote!(::std::option::Option::Some(#literal)),
                    Slot::Nullable => quote!(::std::option::Option::Some(::std::option::Option::Some(#literal))),
                }
            }
            None => match f.slot {
                Slot::Required => return None,
                Slot::Defaulted(_) | Slot::NullableDefaulted(_) => {
                    let function = derived_fn("default", &f.ident);
                    quote!(#name::#function())
                }
                Slot::Optional | Slot::Nullable => quote!(::std::option::Option::None),
                Slot::DefaultWhenAbsent => quote!(::std::default::Default::default()),
            },
        };
        Some(quote!(#field: #value))
    });
    let fields = fields.collect::<Option<Vec<_>>>()?;
    Some(quote!(#name { #(#fields),* }))
}

fn int(v: i64) -> TokenStream {
    let abs = Literal::u64_unsuffixed(v.unsigned_abs());
    if v < 0 { quote!(-#abs) } else { quote!(#abs) }
}

fn float(v: f64) -> TokenStream {
    // `{:?}` is the shortest text that reads back as `v` (no
    // `excessive_precision`), and always has a `.` or an exponent.
    let text = format!("{:?}", v.abs());
    let lit = text.parse::<Literal>().unwrap_or_else(|_| Literal::f64_unsuffixed(v.abs()));
    if v.is_sign_negative() { quote!(-#lit) } else { quote!(#lit) }
}

/// `r#"..."#` with as few hashes as the text needs (none when it has no
/// quote), so clippy's `needless_raw_string_hashes` stays quiet.
fn raw_string(text: &str) -> Literal {
    let mut hashes = 0;
    while text.contains(&format!("\"{}", "#".repeat(hashes))) && hashes < 256 {
        hashes += 1;
    }
    let h = "#".repeat(hashes);
    format!("r{h}\"{text}\"{h}").parse::<Literal>().unwrap_or_else(|_| Literal::string(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_strings_use_the_fewest_hashes() {
        assert_eq!(raw_string("3").to_string(), "r\"3\"");
        assert_eq!(raw_string("{\"a\":1}").to_string(), "r#\"{\"a\":1}\"#");
        assert_eq!(raw_string("\"#x\"").to_string(), "r##\"\"#x\"\"##");
    }

    #[test]
    fn numbers() {
        assert_eq!(int(-3).to_string(), "- 3");
        assert_eq!(int(i64::MIN).to_string(), "- 9223372036854775808");
        assert_eq!(float(1.0).to_string(), "1.0");
        assert_eq!(float(-0.5).to_string(), "- 0.5");
        assert_eq!(float(1e300).to_string(), "1e300");
    }
}
