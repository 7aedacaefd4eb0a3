//! Enums, by representation (internals/repr.rs): a string enum, objects
//! with hoisted properties for the tagged forms, int-or-string.

use proc_macro2::TokenStream;
use quote::quote;

use super::field::{self, FieldContext};
use super::{Paths, json_schema, with_statements};
use crate::internals::ast::{Container, Style, Variant};
use crate::internals::json::{Json, Object};
use crate::internals::repr::EnumRepr;

/// The schema expression of an enum (before the type's doc and keywords).
pub fn body(paths: &Paths, cont: &Container<'_>, variants: &[Variant<'_>]) -> TokenStream {
    // The checks ran EnumRepr::of already: an error here cannot happen,
    // and an empty object is a harmless answer if it did.
    match EnumRepr::of(cont.ident, &cont.serde, variants) {
        Ok(EnumRepr::Strings(listed)) => json_schema(paths, &string_enum(&listed)),
        Ok(EnumRepr::External(variants)) => external(paths, &variants),
        Ok(EnumRepr::Internal { tag, variants }) => internal(paths, tag, &variants),
        Ok(EnumRepr::Adjacent { tag, content, variants }) => adjacent(paths, cont, tag, content, &variants),
        Ok(EnumRepr::IntOrString) => json_schema(paths, &int_or_string()),
        Err(_) => json_schema(paths, &Json::Object(Object::new())),
    }
}

/// `type: string` with the variants' names as `enum`; a `#[serde(other)]`
/// variant accepts any name, so then there is no `enum`.
fn string_enum(variants: &[&Variant<'_>]) -> Json {
    let mut schema = Object::new();
    schema.insert("type", Json::str("string"));
    if !variants.iter().any(|v| v.serde.other) {
        schema.insert("enum", Json::strings(variants.iter().map(|v| v.name.as_str())));
    }
    Json::Object(schema)
}

fn int_or_string() -> Json {
    let branch = |t: &str| {
        let mut branch = Object::new();
        branch.insert("type", Json::str(t));
        Json::Object(branch)
    };
    let mut schema = Object::new();
    schema.insert("x-kubernetes-int-or-string", Json::Bool(true));
    schema.insert("anyOf", Json::Array(vec![branch("integer"), branch("string")]));
    Json::Object(schema)
}

/// `oneOf` of one `required` set per name.
fn one_of_required<'n>(names: impl Iterator<Item = &'n str>) -> String {
    let sets = names
        .map(|name| {
            let mut set = Object::new();
            set.insert("required", Json::strings([name]));
            Json::Object(set)
        })
        .collect();
    let mut overlay = Object::new();
    overlay.insert("oneOf", Json::Array(sets));
    overlay.to_json()
}

/// What a data variant holds: a newtype's type, or an object of the
/// struct variant's fields.
fn content(paths: &Paths, variant: &Variant<'_>) -> TokenStream {
    if let (Style::Tuple, Some(inner)) = (variant.style, variant.present_fields().next()) {
        return field::schema(paths, inner, FieldContext::variant());
    }
    let private = paths.private();
    let statements = field::add_all(paths, variant.fields.iter(), FieldContext::variant(), false);
    quote!({
        let mut object = #private::Object::new();
        #(#statements)*
        object.finish()
    })
}

// Externally tagged: one property per variant (its content, with the
// variant's doc and keywords), exactly one of which is present.
fn external(paths: &Paths, variants: &[&Variant<'_>]) -> TokenStream {
    let private = paths.private();
    let properties = variants.iter().map(|variant| {
        let schema = super::finish(paths, content(paths, variant), &variant.doc, &variant.schema);
        let name = &variant.name;
        quote!(object.property(#name, #schema, false);)
    });
    let one_of = one_of_required(variants.iter().map(|v| v.name.as_str()));
    quote!({
        let mut object = #private::Object::new();
        #(#properties)*
        let mut s = object.finish();
        #private::merge(&mut s, #one_of);
        s
    })
}

/// The tag property: a required string naming the variant.
fn tag_property(paths: &Paths, tag: &str, variants: &[&Variant<'_>]) -> TokenStream {
    let tag_schema = json_schema(paths, &string_enum(variants));
    quote!(object.property(#tag, #tag_schema, true);)
}

// Internally tagged: the tag plus every variant's fields (a newtype
// variant's content's) hoisted into one object, none required by itself;
// when a variant requires fields, a `oneOf` of one rule per variant (its
// tag value and its required fields) says so. With a `#[serde(other)]`
// variant any tag is accepted, so there are no rules.
fn internal(paths: &Paths, tag: &str, variants: &[&Variant<'_>]) -> TokenStream {
    let private = paths.private();
    let tag_property = tag_property(paths, tag, variants);
    let open = variants.iter().any(|v| v.serde.other);
    let hoisted = variants.iter().map(|variant| {
        let content = content(paths, variant);
        let name = &variant.name;
        if open { quote!(object.hoist_all(#content);) } else { quote!(object.hoist_variant(#tag, #name, #content);) }
    });
    quote!({
        let mut object = #private::Object::new();
        #tag_property
        #(#hoisted)*
        object.finish()
    })
}

// Adjacently tagged: the tag plus the content, whose schema unites the
// data variants' contents; when every variant has data the content is
// present (a `oneOf` of one `required` set).
fn adjacent(
    paths: &Paths,
    cont: &Container<'_>,
    tag: &str,
    content_name: &str,
    variants: &[&Variant<'_>],
) -> TokenStream {
    let private = paths.private();
    let tag_property = tag_property(paths, tag, variants);
    let data: Vec<&&Variant<'_>> = variants.iter().filter(|v| v.style != Style::Unit).collect();
    let contents = data.iter().map(|variant| content(paths, variant));
    let enum_name = cont.ident.to_string();
    let content_property = (!data.is_empty()).then(
        || quote!(object.property(#content_name, #private::union(#enum_name, ::std::vec![#(#contents),*]), false);),
    );
    let mut statements = Vec::new();
    if data.len() == variants.len() {
        let one_of = one_of_required([content_name].into_iter());
        statements.push(quote!(#private::merge(&mut s, #one_of);));
    }
    let object = quote!({
        let mut object = #private::Object::new();
        #tag_property
        #content_property
        object.finish()
    });
    with_statements(object, &statements)
}
