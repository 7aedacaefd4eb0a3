//! Structs and enums, with their serde attributes (the "Fields" table of
//! the contract) and their derives.

use std::borrow::Cow;
use std::sync::Arc;

use proc_macro2::TokenStream;
use quote::quote;

use super::frame::is_path_char;
use super::layout::described::{Argument, Body, Derive, Described, FieldItem, Ty, TypeItem, Variant};
use super::templates::Template;
use super::{
    Ctx, DeriveList, attribute, defaults, derived_fn, ident, last_segment, resource, schema_attrs, string_literal,
};
use crate::naming::bare;
use crate::typespace::{EnumDef, EnumDefault, Field, Slot, StructDef, TypeDef, TypeId, TypeKind, TypeRef};

/// The item(s) of one named type: the type and, wrapped in `const _`, its
/// impls.
pub(super) fn type_def(ctx: &Ctx<'_>, id: TypeId) -> TokenStream {
    let Some(def) = ctx.space.get(id) else { return quote!() };
    match &def.kind {
        TypeKind::Struct(s) => struct_def(ctx, def, s),
        TypeKind::Enum(e) => enum_def(ctx, def, e),
    }
}

/// `#[derive(...)]` with the base derives (paths or `Default`) followed by
/// the user's extras that are not already there, and whether its
/// arguments repeat one as clippy's `duplicated_attributes` keys them
/// (an extra named as a base derive is not added). A list of plain paths
/// is built once per file and list of base derives (a handful per file)
/// and shared by the file's runs; one that needs tokens is built where it
/// is used.
fn derive_attr(ctx: &Ctx<'_>, base: &[&'static str]) -> (Derive, bool) {
    let mut lists = ctx.paths.derive_lists.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let known = lists.iter().find(|list| list.base == base).map(|list| (list.paths.clone(), list.repeats));
    if let Some((Some(paths), repeats)) = known {
        return (Derive::Paths(paths), repeats);
    }
    // The texts as tokens print, without spaces: the base derives are
    // written so, the options' paths are kept so (`Paths`).
    let mut texts: Vec<String> = base.iter().map(|path| (*path).to_owned()).collect();
    texts.push(format!("{}::CustomResourceSchema", ctx.paths.crd_schema_text));
    for (name, extra) in &ctx.paths.derives {
        if !texts.iter().any(|text| last_segment(text) == name) {
            texts.push(extra.clone());
        }
    }
    let paths: Vec<TokenStream> = texts.iter().filter_map(|text| text.parse().ok()).collect();
    let attr = attribute("derive", paths);
    let repeats = schema_attrs::repeats_arguments(attr.clone());
    let plain: Option<Arc<[String]>> = texts.iter().all(|t| t.chars().all(is_path_char)).then(|| texts.into());
    if known.is_none() {
        lists.push(DeriveList { base: base.to_vec(), paths: plain.clone(), repeats });
    }
    match plain {
        Some(paths) => (Derive::Paths(paths), repeats),
        None => (Derive::Tokens(attr), repeats),
    }
}

fn struct_def(ctx: &Ctx<'_>, def: &TypeDef, s: &StructDef) -> TokenStream {
    let name = ident(&def.name);
    let base: &[&'static str] = if s.has_default && !defaults::needs_impl(s) {
        &["Clone", "Debug", "Default", "PartialEq", "::serde::Serialize", "::serde::Deserialize"]
    } else {
        &["Clone", "Debug", "PartialEq", "::serde::Serialize", "::serde::Deserialize"]
    };
    let (derive, derive_repeats) = derive_attr(ctx, base);
    let crd = match (&s.resource, &s.crd) {
        (Some(resource), Some(crd)) => schema_attrs::crd_attr(resource, crd),
        _ => quote!(),
    };
    let schema = schema_attrs::type_attr(ctx, &s.schema);
    let mut fields: Vec<FieldItem> = s.fields.iter().map(|f| field(ctx, &def.name, f)).collect();
    fields.extend(s.flatten.as_deref().map(|f| FieldItem {
        doc: vec![
            Cow::Borrowed(" Fields the schema does not list, kept as the API server keeps"),
            Cow::Borrowed(" them (`x-kubernetes-preserve-unknown-fields`)."),
        ],
        serde: vec![Argument::Flag("flatten")],
        attrs: schema_attrs::flatten_attr(s),
        name: f.to_owned(),
        ty: ctx.ty_of(&TypeRef::Map(Box::new(TypeRef::Value))),
    }));
    // The derive's keys (`derive:...`) are apart from the others'.
    let duplicated = (derive_repeats || schema_attrs::repeats_arguments(quote!(#crd #schema))).then(duplicated_allow);
    let impls = [defaults::impls(ctx, &name, s), resource::constructor(ctx, &name, s)];
    let impls = if impls.iter().all(TokenStream::is_empty) { quote!() } else { quote!(const _: () = { #(#impls)* };) };
    let item = TypeItem {
        doc: ctx.doc_placeholder(&def.doc),
        derive,
        attrs: TokenStream::from_iter([crd, schema, duplicated.unwrap_or_default()]),
        name: def.name.clone(),
        body: Body::Fields(fields),
    };
    TokenStream::from_iter([ctx.describe(Described::Type(item)), impls])
}

fn field(ctx: &Ctx<'_>, parent: &str, f: &Field) -> FieldItem {
    let inner = ctx.ty_of(&f.ty);
    let mut args: Vec<Argument> = Vec::new();
    if bare(&f.ident) != f.json {
        args.push(Argument::Value("rename", f.json.clone()));
    }
    let skip = || Argument::Value("skip_serializing_if", "::std::option::Option::is_none".to_owned());
    let option = |inner| Ty::Generic("::std::option::Option", vec![inner]);
    let null_pruned_map = f.ty.null_pruned_map() && f.item_default.is_none();
    // `deserialize_<field>` (from `defaults.rs`) decodes fields with a
    // default and fields whose own items or values have one.
    let own_fn = |prefix: &str| format!("{parent}::{}", derived_fn(prefix, &f.ident));
    let deserialize = (f.item_default.is_some() || matches!(f.slot, Slot::Defaulted(_)))
        .then(|| Argument::Value("deserialize_with", own_fn("deserialize")));
    let ty = match &f.slot {
        Slot::Required => {
            if null_pruned_map {
                args.push(Argument::Value("deserialize_with", ctx.helper("map_without_nulls")));
            }
            args.extend(deserialize);
            inner
        }
        Slot::DefaultWhenAbsent => {
            args.push(Argument::Flag("default"));
            inner
        }
        Slot::Optional => {
            args.push(Argument::Flag("default"));
            if null_pruned_map {
                args.push(Argument::Value("deserialize_with", ctx.helper("option_map_without_nulls")));
            }
            args.extend(deserialize);
            args.push(skip());
            option(inner)
        }
        Slot::Defaulted(_) => {
            args.push(Argument::Value("default", own_fn("default")));
            args.extend(deserialize);
            inner
        }
        Slot::NullableDefaulted(_) => {
            args.push(Argument::Value("default", own_fn("default")));
            if null_pruned_map && deserialize.is_none() {
                args.push(Argument::Value("deserialize_with", ctx.helper("option_map_without_nulls")));
            }
            args.extend(deserialize);
            option(inner)
        }
        Slot::Nullable => {
            // A nullable map still loses its `null` values (null pruning).
            let helper = ctx.helper(if null_pruned_map { "double_option_map_without_nulls" } else { "double_option" });
            args.push(Argument::Flag("default"));
            args.push(deserialize.unwrap_or(Argument::Value("deserialize_with", helper)));
            args.push(skip());
            option(option(inner))
        }
    };
    let wrappers = match f.slot {
        Slot::Required | Slot::DefaultWhenAbsent | Slot::Defaulted(_) => 0,
        Slot::Optional | Slot::NullableDefaulted(_) => 1,
        Slot::Nullable => 2,
    };
    let allow = ctx.complex(&f.ty, wrappers).then(|| quote!(#[allow(clippy::type_complexity)]));
    let schema = schema_attrs::field_attr(f);
    // clippy keys each argument by its attribute's name, and serde's are
    // each written once: only `#[schema]` can repeat one.
    let duplicated = (!schema.is_empty() && schema_attrs::repeats_arguments(schema.clone())).then(duplicated_allow);
    FieldItem {
        doc: ctx.doc_placeholder(&f.doc).map(Cow::Owned).into_iter().collect(),
        serde: args,
        attrs: TokenStream::from_iter([schema, allow.unwrap_or_default(), duplicated.unwrap_or_default()]),
        name: f.ident.clone(),
        ty,
    }
}

/// clippy's `duplicated_attributes` looks at one item's or field's
/// attributes at a time, so the allowance goes where they repeat.
fn duplicated_allow() -> TokenStream {
    quote!(#[allow(clippy::duplicated_attributes)])
}

fn enum_def(ctx: &Ctx<'_>, def: &TypeDef, e: &EnumDef) -> TokenStream {
    let name = ident(&def.name);
    let default_variant = match e.default {
        Some(EnumDefault::Variant(i)) => Some(i),
        Some(EnumDefault::Unknown(_)) | None => None,
    };
    let mut base = vec!["Clone", "Debug"];
    if default_variant.is_some() {
        base.push("Default");
    }
    base.extend(["PartialEq", "Eq", "Hash", "PartialOrd", "Ord", "::serde::Serialize"]);
    // An open enum decodes through `__private::string_enum` (see there);
    // a strict one keeps serde's derive, whose error lists the variants.
    if e.catch_all.is_none() {
        base.push("::serde::Deserialize");
    }
    let (derive, _) = derive_attr(ctx, &base);
    let schema = schema_attrs::type_attr(ctx, &serde_json::Map::new());
    let variants = e.variants.iter().enumerate().map(|(i, (variant, json))| Variant {
        doc: None,
        default: default_variant == Some(i),
        // A raw name (`r#type`) is spelt apart from its value too.
        serde: (variant != json).then(|| Argument::Value("rename", json.clone())),
        name: variant.clone(),
        field: None,
    });
    let catch_all = e.catch_all.iter().map(|c| Variant {
        doc: Some(" A value this version of the schema does not list."),
        default: false,
        serde: Some(Argument::Flag("untagged")),
        name: c.clone(),
        field: Some(ctx.ty_of(&TypeRef::String)),
    });
    let allow = variant_names_lint(&def.name, e).then(|| quote!(#[allow(clippy::enum_variant_names)]));
    let item = TypeItem {
        doc: ctx.doc_placeholder(&def.doc),
        derive,
        attrs: TokenStream::from_iter([schema, allow.unwrap_or_default()]),
        name: def.name.clone(),
        body: Body::Variants(variants.chain(catch_all).collect()),
    };
    let default_impl = match (&e.default, &e.catch_all) {
        (Some(EnumDefault::Unknown(value)), Some(c)) => {
            let c = ident(c);
            quote! {
                const _: () = {
                    impl ::std::default::Default for #name {
                        fn default() -> Self {
                            Self::#c(::std::string::String::from(#value))
                        }
                    }
                };
            }
        }
        _ => quote!(),
    };
    let deserialize = e.catch_all.as_deref().map(|c| {
        let c = ident(c);
        let arms = e.variants.iter().map(|(variant, json)| (string_literal(json), ident(variant).to_string()));
        let template = Template::OpenEnum { arms: arms.collect(), catch_all: c.to_string() };
        if let Some((text, used)) = template.text(ctx.depth, &def.name, &ctx.paths.crd_schema_text, ctx.table) {
            return ctx.describe(Described::Text { text, used });
        }
        let crd_schema = &ctx.crd_schema;
        let arms = e.variants.iter().map(|(variant, json)| {
            let variant = ident(variant);
            quote!(#json => Self::#variant)
        });
        quote! {
            const _: () = {
                impl<'de> ::serde::Deserialize<'de> for #name {
                    fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
                    where
                        D: ::serde::Deserializer<'de>,
                    {
                        #crd_schema::__private::string_enum(deserializer, |value| match value {
                            #(#arms,)*
                            _ => Self::#c(::std::string::String::from(value)),
                        })
                    }
                }
            };
        }
    });
    TokenStream::from_iter([ctx.describe(Described::Type(item)), default_impl, deserialize.unwrap_or_default()])
}

/// Whether clippy's `enum_variant_names` may fire: a variant starting or
/// ending with the enum's name, or (with three or more variants, all of
/// several words, and no catch-all) a common first or last word. Erring on
/// the side of the allow costs nothing; a warning fails `-D warnings`.
fn variant_names_lint(enum_name: &str, e: &EnumDef) -> bool {
    let names: Vec<&str> = e.variants.iter().map(|(v, _)| v.as_str()).collect();
    if names.iter().any(|v| v.len() > enum_name.len() && (v.starts_with(enum_name) || v.ends_with(enum_name))) {
        return true;
    }
    let count = names.len() + usize::from(e.catch_all.is_some());
    if count < 3 || e.catch_all.is_some() {
        return false;
    }
    let words: Vec<Vec<String>> = names.iter().map(|v| camel_words(v)).collect();
    if words.iter().any(|w| w.len() < 2) {
        return false;
    }
    let same = |pick: fn(&Vec<String>) -> Option<&String>| words.iter().all(|w| pick(w) == pick(&words[0]));
    same(|w| w.first()) || same(|w| w.last())
}

/// Splits `FooBar2Baz` at capitals, as clippy's `camel_case_split`.
fn camel_words(name: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for c in name.chars() {
        match words.last_mut() {
            Some(word) if !c.is_ascii_uppercase() => word.push(c),
            _ => words.push(c.to_string()),
        }
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(variants: &[&str], catch_all: bool) -> EnumDef {
        EnumDef {
            variants: variants.iter().map(|v| ((*v).to_owned(), v.to_lowercase())).collect(),
            catch_all: catch_all.then(|| "Unknown".to_owned()),
            default: None,
        }
    }

    #[test]
    fn nullable_maps_drop_null_values() {
        // Found by the random schemas (tests/random-schemas): nullable maps
        // kept `null` values, which then failed to decode.
        let crd = r#"{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "ws.example.com"}, "spec": {"group": "example.com", "scope": "Namespaced",
            "names": {"kind": "W", "plural": "ws"}, "versions": [{"name": "v1", "served": true, "storage": true,
            "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                "a": {"type": "object", "nullable": true, "additionalProperties": {"type": "integer"}},
                "b": {"type": "object", "nullable": true, "default": {}, "additionalProperties": {"type": "integer"}}}}}}]}}"#;
        let code = crate::Builder::new().crd_source("w.json", crd).generate().unwrap();
        let helper = |field: &str| {
            let before = code.split(field).next().unwrap_or_default();
            let rest = before.rsplit("deserialize_with = \"").next().unwrap_or_default();
            rest.split('"').next().unwrap_or_default().to_owned()
        };
        assert_eq!(helper("pub a:"), "::crd_schema::__private::double_option_map_without_nulls", "{code}");
        assert_eq!(helper("pub b:"), "::crd_schema::__private::option_map_without_nulls", "{code}");
    }

    /// The code for a `Widget` whose root has `properties` and `required`.
    fn widget(properties: &str, required: &str) -> String {
        let crd = format!(
            r#"{{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {{"name": "widgets.example.com"}}, "spec": {{"group": "example.com", "scope": "Namespaced",
            "names": {{"kind": "Widget", "plural": "widgets"}}, "versions": [{{"name": "v1", "served": true,
            "storage": true, "schema": {{"openAPIV3Schema": {{"type": "object", "required": {required},
            "properties": {properties}}}}}}}]}}}}"#
        );
        crate::Builder::new().crd_source("w.json", &crd).generate().unwrap()
    }

    /// The text of item `item` (`pub struct WidgetSpec`) up to the next
    /// item, with the attributes before it.
    fn item<'a>(code: &'a str, item: &str) -> &'a str {
        let start = code.find(item).unwrap_or_else(|| panic!("{item}: {code}"));
        let start = code[..start].rfind("\n\n").unwrap_or(0);
        let end = code[start + 2..].find("\n\n").map_or(code.len(), |e| start + 2 + e);
        &code[start..end]
    }

    #[test]
    fn an_enum_without_schema_default_has_no_default() {
        // Issue 18: the first variant was the default of every enum, so a
        // required colour without default defaulted to `Red`.
        let code = widget(
            r#"{"spec": {"type": "object", "required": ["colour"], "properties": {
                "colour": {"type": "string", "enum": ["red", "green"]},
                "shade": {"type": "string", "enum": ["light", "dark"]}}}}"#,
            "[]",
        );
        for name in ["WidgetSpecColour", "WidgetSpecShade"] {
            let e = item(&code, &format!("pub enum {name} {{"));
            assert!(!e.contains("Default") && !e.contains("#[default]"), "{e}");
            assert!(!code.contains(&format!("Default for {name}")), "{code}");
        }
        // A required field without a value has no default: neither has its
        // struct. The optional spec of the root is `None` by default.
        let spec = item(&code, "pub struct WidgetSpec {");
        assert!(!spec.contains("Default"), "{spec}");
        assert!(!code.contains("Default for WidgetSpec "), "{code}");
        assert!(code.contains("impl Default for Widget {"), "{code}");
        // An optional enum without default is fine: `None`.
        let code = widget(
            r#"{"spec": {"type": "object", "properties": {"colour": {"type": "string", "enum": ["red"]}}}}"#,
            "[]",
        );
        assert!(item(&code, "pub struct WidgetSpec {").contains("Default,"), "{code}");
    }

    #[test]
    fn a_root_without_default_still_has_a_constructor() {
        // `spec` required, and no value for its required enum: no `Default`
        // for the root, and `new` spells out the other fields (the derive
        // writes it for roots with only `spec` and `status`).
        let code = widget(
            r#"{"spec": {"type": "object", "required": ["colour"], "properties": {
                "colour": {"type": "string", "enum": ["red", "green"]}}},
                "operation": {"type": "object", "properties": {"retries": {"type": "integer", "default": 2}}},
                "phase": {"type": "string", "default": "new"}}"#,
            r#"["spec"]"#,
        );
        assert!(!code.contains("Default for Widget "), "{code}");
        let new =
            code.split("pub fn new(name: &str, spec: WidgetSpec) -> Self {").nth(1).unwrap_or_else(|| panic!("{code}"));
        let new = &new[..new.find("\n        }\n").unwrap_or(new.len())];
        let new: String = new.split_whitespace().collect();
        let inits = [
            "Self{api_version:String::from(<SelfasResource>::API_VERSION),",
            "kind:String::from(<SelfasResource>::KIND),",
            "metadata:ObjectMeta{",
            "},spec,operation:Default::default(),phase:Self::default_phase(),}",
        ];
        for init in inits {
            assert!(new.contains(init), "{init}: {new}");
        }
    }

    #[test]
    fn an_enum_with_schema_default_defaults_to_it() {
        let code = widget(
            r#"{"spec": {"type": "object", "required": ["colour"], "properties": {
                "colour": {"type": "string", "enum": ["red", "green"], "default": "green"},
                "shade": {"type": "string", "enum": ["light"], "default": "pale"}}}}"#,
            "[]",
        );
        let colour = item(&code, "pub enum WidgetSpecColour {");
        assert!(colour.contains("    Default,"), "{colour}");
        assert!(colour.contains("#[default]\n        #[serde(rename = \"green\")]\n        Green,"), "{colour}");
        // An unlisted default is held by the catch-all.
        assert!(code.contains("Self::Unknown(String::from(\"pale\"))"), "{code}");
        // The struct's `Default` is the schema's.
        assert!(code.contains("colour: Self::default_colour(),"), "{code}");
        assert!(
            code.contains("fn default_colour() -> WidgetSpecColour {\n                WidgetSpecColour::Green"),
            "{code}"
        );
    }

    #[test]
    fn a_json_default_of_a_type_without_default_is_decoded_as_an_option() {
        let code = widget(
            r#"{"spec": {"type": "object", "properties": {"mode": {"type": "object",
                "default": {"kind": "fast", "tags": ["a"]}, "required": ["kind"], "properties": {
                "kind": {"type": "string", "enum": ["fast", "slow"]},
                "tags": {"type": "array", "items": {"type": "string"}}}}}}}"#,
            "[]",
        );
        let code: String = code.split_whitespace().collect();
        assert!(code.contains("staticDEFAULT:::crd_schema::__private::DefaultCell<WidgetSpecMode>="), "{code}");
        assert!(code.contains("DefaultCell::new(r#\"{\"kind\":\"fast\",\"tags\":[\"a\"]}\"#"), "{code}");
        assert!(code.contains("DEFAULT.decoded().expect("), "{code}");
        // The struct holding it has a `Default` all the same.
        assert!(code.contains("implDefaultforWidgetSpec{"), "{code}");
    }

    #[test]
    fn an_object_of_scalars_default_is_a_struct_literal() {
        // What decoding the default gives: listed values (wrapped as each
        // field's slot needs), the field's own default where it is left
        // out, `None` for the rest; unknown keys are pruned.
        let code = widget(
            r#"{"spec": {"type": "object", "properties": {"mode": {"type": "object",
                "default": {"kind": "fast", "retries": 3, "ratio": 0.5, "gone": true, "note": "n"},
                "required": ["kind"], "properties": {
                "kind": {"type": "string", "enum": ["fast", "slow"]},
                "retries": {"type": "integer", "default": 1},
                "ratio": {"type": "number", "nullable": true},
                "label": {"type": "string", "default": "x"},
                "note": {"type": "string"},
                "other": {"type": "string"}}}}}}"#,
            "[]",
        );
        let function = item(&code, "fn default_mode() -> WidgetSpecMode {");
        let function: String = function.split_whitespace().collect();
        let literal = "WidgetSpecMode{kind:WidgetSpecModeKind::Fast,retries:3,ratio:Option::Some(Option::Some(0.5)),\
                       label:WidgetSpecMode::default_label(),note:Option::Some(String::from(\"n\")),\
                       other:Option::None,}";
        assert!(function.contains(literal), "{function}");
        assert!(!function.contains("DefaultCell"), "{function}");
        // A `null`, or a required field left out, needs decoding.
        for default in [r#"{"kind": null}"#, "{}"] {
            let code = widget(
                &format!(
                    r#"{{"spec": {{"type": "object", "properties": {{"mode": {{"type": "object", "default": {default},
                    "required": ["kind"], "properties": {{"kind": {{"type": "string"}}}}}}}}}}}}"#
                ),
                "[]",
            );
            let function = item(&code, "fn default_mode() -> WidgetSpecMode {");
            assert!(function.contains("DefaultCell"), "{default}: {function}");
        }
    }

    #[test]
    fn enum_variant_names_is_predicted() {
        assert!(variant_names_lint("Mode", &e(&["ReadOnce", "ReadMany", "ReadAll"], false)));
        assert!(variant_names_lint("Mode", &e(&["OnceRead", "ManyRead", "AllRead"], false)));
        assert!(!variant_names_lint("Mode", &e(&["ReadOnce", "ReadMany", "ReadAll"], true)));
        assert!(!variant_names_lint("Mode", &e(&["ReadOnce", "ReadMany"], false)));
        assert!(!variant_names_lint("Mode", &e(&["ReadOnce", "Write", "ReadAll"], false)));
        assert!(variant_names_lint("Mode", &e(&["ModeA", "B"], true)));
        assert_eq!(camel_words("FooBar2Baz"), ["Foo", "Bar2", "Baz"]);
    }
}
