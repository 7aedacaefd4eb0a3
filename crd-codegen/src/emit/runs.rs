//! The version modules' types laid out in runs: each module's types are
//! split into runs of about equal size, and each run is laid out on its
//! own, on as many threads as the machine offers ([`crate::parallel`])
//! when the file is large enough to pay for them (a profile of `crd
//! generate` put emission at 40–60% of its time, all of it on one core).
//! A run's structs and enums (described by the emitter, not built as
//! tokens), the impls of a fixed shape and the blocks of defaults are
//! laid out by [`layout`], the other impls between them by syn and
//! prettyplease.
//!
//! prettyplease lays out each item of a module on its own, starting at the
//! module's indentation, so a run laid out inside as many wrapper modules
//! as the real ones, and the wrappers' lines cut off, is the text the
//! whole module would have had. The corpus tests compare the output with
//! the checked-in generated code byte for byte.

use std::ops::Range;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::{Ctx, Docs, Paths, layout, paths, types};
use crate::error::{Error, Result};
use crate::typespace::{CrdSpace, TypeId, TypeKind, VersionSpace};

/// One version module to emit.
pub(super) struct Module<'a> {
    pub crd: &'a CrdSpace,
    pub version: &'a VersionSpace,
    /// Its short paths ([`paths::table`]).
    pub table: Vec<paths::Short>,
}

/// A version module's types, laid out.
pub(super) struct Body {
    /// Their text, indented for the module.
    pub text: String,
    /// Which paths of the module's table they use.
    pub used: Vec<bool>,
}

/// How a file's bodies are laid out: on how many threads, in runs of
/// about how many fields and variants.
#[derive(Clone, Copy, Debug)]
pub(super) struct Plan {
    pub threads: usize,
    pub run_weight: usize,
}

/// About how many fields and variants make one run, at least.
const RUN_WEIGHT: usize = 24;

/// Files with fewer fields and variants than this are laid out on the
/// calling thread alone. A helper thread costs more than its start: its
/// allocations grow a heap of their own, and each of its runs builds the
/// emitter's context again. Timed on two cores, interleaved, best of
/// nine: files of 50 to 115 took 9–14% less time laid out on one thread
/// (cert-manager's CertificateRequest, flux's GitRepository, velero's
/// Backup), those of 150 to 340 about the same either way (Certificate,
/// ServiceMonitor, ClusterIssuer), larger ones 5–10% less on two.
const PARALLEL_WEIGHT: usize = 160;

impl Plan {
    /// The plan for `modules` on this machine: one run per module on the
    /// calling thread for a small file, else several runs per thread, so
    /// that a large run last does not leave the other threads idle.
    pub fn for_file(modules: &[Module<'_>]) -> Plan {
        let total: usize = modules.iter().flat_map(|m| &m.version.space.types).map(weight).sum();
        let one = Plan { threads: 1, run_weight: usize::MAX };
        if total < PARALLEL_WEIGHT {
            return one;
        }
        match crate::parallel::available() {
            1 => one,
            threads => Plan { threads, run_weight: RUN_WEIGHT.max(total / (threads * 4)) },
        }
    }
}

/// A run: some consecutive types of one module.
struct Run {
    module: usize,
    types: Range<usize>,
}

/// The bodies of `modules`, each `depth` modules deep in the file.
pub(super) fn bodies(modules: &[Module<'_>], depth: usize, paths: &Paths, plan: Plan) -> Result<Vec<Body>> {
    let runs: Vec<Run> = modules
        .iter()
        .enumerate()
        .flat_map(|(n, m)| split(n, &m.version.space.types.iter().map(weight).collect::<Vec<_>>(), plan.run_weight))
        .collect();
    let laid =
        crate::parallel::map(plan.threads, &runs, |run| lay_out(&modules[run.module], run.types.clone(), depth, paths));
    let mut out: Vec<Body> =
        modules.iter().map(|m| Body { text: String::new(), used: vec![false; m.table.len()] }).collect();
    for (run, laid) in runs.iter().zip(laid) {
        let (text, used) = laid?;
        let body = &mut out[run.module];
        body.text.push_str(&text);
        paths::mark(&mut body.used, &used);
    }
    Ok(out)
}

/// What a type costs to lay out, roughly: its fields or variants.
fn weight(def: &crate::typespace::TypeDef) -> usize {
    1 + match &def.kind {
        TypeKind::Struct(s) => s.fields.len(),
        TypeKind::Enum(e) => e.variants.len(),
    }
}

/// A module's types (their `weights`) in consecutive runs of about
/// `run_weight` each; one run for a module without types, which yields
/// an empty body.
fn split(module: usize, weights: &[usize], run_weight: usize) -> Vec<Run> {
    let mut runs = Vec::new();
    let (mut start, mut sum) = (0, 0_usize);
    for (i, w) in weights.iter().enumerate() {
        sum = sum.saturating_add(*w);
        if sum >= run_weight {
            runs.push(Run { module, types: start..i + 1 });
            (start, sum) = (i + 1, 0);
        }
    }
    if start < weights.len() || runs.is_empty() {
        runs.push(Run { module, types: start..weights.len() });
    }
    runs
}

/// The text of `types` of `module`, and the short paths it uses.
fn lay_out(module: &Module<'_>, types: Range<usize>, depth: usize, file_paths: &Paths) -> Result<(String, Vec<bool>)> {
    if types.is_empty() {
        return Ok((String::new(), vec![false; module.table.len()]));
    }
    let docs = Docs::default();
    let ctx = Ctx::new(&module.version.space, &docs, file_paths, depth, &module.table)?;
    let emit = || -> TokenStream { types.clone().map(|i| types::type_def(&ctx, TypeId(i))).collect() };
    let items = emit();
    if let Some(text) = ctx.unlexed.take() {
        return Err(Error::Emit { crd: module.crd.name.clone(), message: format!("the type `{text}` does not lex") });
    }
    let laid = items_text(items, depth, &module.table, &mut ctx.described.borrow_mut(), &module.crd.name)?;
    // The layout takes the described items' attributes as it goes; for
    // prettyplease the items are emitted again.
    let (text, used) = match laid {
        Some(laid) => laid,
        None => {
            ctx.described.borrow_mut().clear();
            let items = emit();
            through_prettyplease(items, depth, &module.table, &ctx.described.borrow(), &module.crd.name)?
        }
    };
    Ok((docs.expand(&text), used))
}

/// The text of `items` (with the markers of `described` items), `depth`
/// modules deep, with the paths of `table` short, and which of those it
/// uses: laid out by [`layout`], the blocks whose shapes it does not know
/// by prettyplease; `None` when it does not know an attribute's shape.
/// The crate's own tests lay out every block by prettyplease too, and
/// compare.
fn items_text(
    items: TokenStream,
    depth: usize,
    table: &[paths::Short],
    described: &mut [layout::described::Described],
    label: &str,
) -> Result<Option<(String, Vec<bool>)>> {
    #[cfg(test)]
    let (reference, shown) = (through_prettyplease(items.clone(), depth, table, described, label)?, items.to_string());
    let Some((pieces, mut used)) = layout::items(items, depth, table, described) else {
        #[cfg(test)]
        panic!("items of a shape the layout does not know: {shown}");
        #[cfg(not(test))]
        return Ok(None);
    };
    let laid = (assemble(pieces, depth, label, table, &mut used)?, used);
    #[cfg(test)]
    assert_eq!(laid, reference, "the items laid out without syn differ from prettyplease's");
    Ok(Some(laid))
}

/// The text of `items` laid out by prettyplease alone, with the paths of
/// `table` short, and which of those it uses; the markers of `described`
/// items replaced by their text (the crate's tests check that
/// prettyplease leaves that text as it is).
fn through_prettyplease(
    items: TokenStream,
    depth: usize,
    table: &[paths::Short],
    described: &[layout::described::Described],
    label: &str,
) -> Result<(String, Vec<bool>)> {
    let mut used = vec![false; table.len()];
    let text = wrapped_unparse(paths::rewrite(items, table, &mut used), depth, label)?;
    if described.is_empty() {
        return Ok((text, used));
    }
    let (texts, described_used) = layout::described::texts(described, depth, table).ok_or_else(|| Error::Emit {
        crd: label.to_owned(),
        message: "a type's attributes are of a shape the layout does not know".to_owned(),
    })?;
    #[cfg(test)]
    for text in &texts {
        let tokens = text.parse().expect("a described item lexes");
        assert_eq!(&wrapped_unparse(tokens, depth, label)?, text, "prettyplease lays out a described item otherwise");
    }
    paths::mark(&mut used, &described_used);
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    Ok((super::fill_markers(&text, layout::described::MARKER, &texts), used))
}

/// The text of `pieces` in order: those left to prettyplease are laid
/// out together, their paths shortened by `table` (marking `used`), with
/// a marker item in place of each of the others, which is then replaced
/// by its text.
fn assemble(
    pieces: Vec<layout::Piece>,
    depth: usize,
    label: &str,
    table: &[paths::Short],
    used: &mut [bool],
) -> Result<String> {
    let mut texts = Vec::new();
    let mut tokens = TokenStream::new();
    let mut left = false;
    for piece in pieces {
        match piece {
            layout::Piece::Text(text) => {
                let marker = format_ident!("{ITEM_MARKER}{}", texts.len());
                tokens.extend(quote!(struct #marker;));
                texts.push(text);
            }
            layout::Piece::Tokens(item) => {
                tokens.extend(paths::rewrite(item, table, used));
                left = true;
            }
        }
    }
    if !left {
        return Ok(texts.concat());
    }
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    Ok(super::fill_markers(&wrapped_unparse(tokens, depth, label)?, ITEM_MARKER, &texts))
}

/// The name of a marker item, before its index: laid out as the line
/// `struct __crd_codegen_item_3;`.
const ITEM_MARKER: &str = "__crd_codegen_item_";

/// `tokens` laid out by prettyplease inside `depth` modules, and the
/// modules' own lines cut off.
fn wrapped_unparse(mut tokens: TokenStream, depth: usize, label: &str) -> Result<String> {
    for _ in 0..depth {
        tokens = quote!(mod run { #tokens });
    }
    Ok(without_wrappers(&unparse(tokens, label)?, depth).to_owned())
}

/// `text` without its first and last `depth` lines.
fn without_wrappers(text: &str, depth: usize) -> &str {
    let mut start = 0;
    for _ in 0..depth {
        start = text[start..].find('\n').map_or(text.len(), |i| start + i + 1);
    }
    let mut end = text.len();
    for _ in 0..depth {
        end = text[..end.saturating_sub(1)].rfind('\n').map_or(0, |i| i + 1);
    }
    &text[start..end.max(start)]
}

/// `tokens` as a file laid out by prettyplease; `label` names what they
/// were emitted for in the error of tokens that do not parse.
pub(super) fn unparse(tokens: TokenStream, label: &str) -> Result<String> {
    let file =
        syn::parse2::<syn::File>(tokens).map_err(|e| Error::Emit { crd: label.to_owned(), message: e.to_string() })?;
    Ok(prettyplease::unparse(&file))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_cover_every_type_once_in_order() {
        let weights = [3, 70, 1, 1, 1, 80, 2];
        let runs = split(0, &weights, 64);
        let covered: Vec<usize> = runs.iter().flat_map(|r| r.types.clone()).collect();
        assert_eq!(covered, (0..weights.len()).collect::<Vec<_>>());
        assert_eq!(runs.iter().map(|r| r.types.clone()).collect::<Vec<_>>(), [0..2, 2..6, 6..7]);
        let empty = split(0, &[], 64);
        assert_eq!((empty.len(), empty[0].types.is_empty()), (1, true));
        assert_eq!(split(0, &weights, usize::MAX).len(), 1);
    }

    /// Items whose attributes, fields, types and default functions sit on
    /// either side of every width prettyplease breaks at, `depth` modules
    /// deep (deep enough for its least line space to matter).
    fn boundary_items(pad: usize) -> TokenStream {
        let name = "n".repeat(pad);
        let text = "t".repeat(pad);
        let field = format_ident!("field_{name}");
        let ty = format_ident!("T{name}");
        let default_fn = format_ident!("default_{name}");
        let deserialize_fn = format_ident!("deserialize_{name}");
        let literal_fn = format_ident!("literal_{name}");
        quote! {
            struct __crd_codegen_described_0;
            const _: () = {
                impl #ty {
                    #[allow(clippy::type_complexity)]
                    fn #default_fn() -> ::std::vec::Vec<::std::collections::BTreeMap<::std::string::String, #ty>> {
                        static DEFAULT: ::crd_schema::__private::DefaultCell<::std::vec::Vec<#ty>> = ::crd_schema::__private::DefaultCell::new(#text);
                        ::crd_schema::__private::read(DEFAULT, -3, #text, ::std::option::Option::Some(#ty { n: 1 }))
                    }
                    fn #deserialize_fn<'de, D>(deserializer: D) -> ::std::result::Result<::std::option::Option<#ty>, D::Error>
                    where
                        D: ::serde::Deserializer<'de>,
                    {
                        ::crd_schema::__private::null_as(deserializer, Self::#default_fn)
                    }
                    fn #literal_fn() -> #ty {
                        #ty { #field: ::std::option::Option::Some(#text), r#type: -1.5, rest: Empty {}, x: true }
                    }
                }
                impl ::std::default::Default for #ty {
                    fn default() -> Self { Self { #field: ::std::option::Option::None, r#type: None, rest: Default::default() } }
                }
            };
            struct __crd_codegen_described_1;
            const _: () = {
                impl<'de> ::serde::Deserialize<'de> for #ty {
                    fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
                    where
                        D: ::serde::Deserializer<'de>,
                    {
                        ::crd_schema::__private::string_enum(deserializer, |value| match value {
                            #text => Self::A,
                            "a" => Self::#literal_fn,
                            _ => Self::Unknown(::std::string::String::from(value)),
                        })
                    }
                }
            };
            struct __crd_codegen_described_2;
            struct __crd_codegen_described_3;
        }
    }

    /// The items of [`boundary_items`]' markers: a struct and enums whose
    /// doc comments, attributes, fields, variants and types sit on either
    /// side of every width prettyplease breaks at, and an empty struct.
    fn boundary_described(pad: usize) -> Vec<layout::described::Described> {
        use layout::described::{Argument, Body, Derive, Described, FieldItem, Ty, TypeItem, Variant};
        let (name, text) = ("n".repeat(pad), "t".repeat(pad));
        let path = |full: &'static str| Ty::Path(full.into());
        let option = |inner| Ty::Generic("::std::option::Option", vec![inner]);
        let map = |value| Ty::Generic("::std::collections::BTreeMap", vec![path("::std::string::String"), value]);
        let field = |name: String, serde, attrs, ty| FieldItem { doc: Vec::new(), serde, attrs, name, ty };
        let derived = ["Clone", "Debug", "::serde::Serialize", "::serde::Deserialize", "schemars::JsonSchema"];
        let described = TypeItem {
            doc: Some("@doc#0".to_owned()),
            derive: Derive::Paths(derived.iter().map(|d| d.to_string()).collect()),
            attrs: quote! {
                #[doc = " One line with trailing spaces.   "]
                #[doc = ""]
                #[crd(group = "example.com", short_names = ["a", #text], printer_column(name = #text, priority = -1))]
                #[schema(items(description = #text, list_type = "map"), minimum = 1.5, flag)]
            },
            name: format!("T{name}"),
            body: Body::Fields(vec![
                FieldItem {
                    doc: vec!["@doc#1".into()],
                    ..field(
                        format!("field_{name}"),
                        vec![
                            Argument::Value("rename", text.clone()),
                            Argument::Flag("default"),
                            Argument::Value("skip_serializing_if", "::std::option::Option::is_none".to_owned()),
                        ],
                        TokenStream::new(),
                        option(map(Ty::Generic("::std::vec::Vec", vec![Ty::Path(format!("T{name}").into())]))),
                    )
                },
                field(
                    "r#type".to_owned(),
                    vec![
                        Argument::Value("default", "Self::default_x".to_owned()),
                        Argument::Value("deserialize_with", "::crd_schema::__private::double_option".to_owned()),
                    ],
                    quote!(#[allow(clippy::type_complexity)]),
                    option(option(path("::serde_json::Value"))),
                ),
                FieldItem {
                    doc: vec![" Fields the schema does not list.".into()],
                    ..field(
                        "rest".to_owned(),
                        vec![Argument::Flag("flatten")],
                        TokenStream::new(),
                        map(path("::serde_json::Value")),
                    )
                },
            ]),
        };
        let empty = TypeItem {
            doc: None,
            derive: Derive::Paths(Vec::new().into()),
            attrs: TokenStream::new(),
            name: "Empty".to_owned(),
            body: Body::Fields(Vec::new()),
        };
        let variant = |name: String, serde, field| Variant { doc: None, default: false, serde, name, field };
        let open = TypeItem {
            doc: Some("@doc#0".to_owned()),
            derive: Derive::Tokens(quote! {
                #[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, ::serde::Serialize)]
            }),
            attrs: quote!(#[allow(clippy::enum_variant_names)]),
            name: format!("D{name}"),
            body: Body::Variants(vec![
                Variant {
                    default: true,
                    ..variant(format!("A{name}"), Some(Argument::Value("rename", text.clone())), None)
                },
                variant("B".to_owned(), Some(Argument::Value("rename", format!("{text} \"q\" é\t"))), None),
                variant("r#type".to_owned(), Some(Argument::Value("rename", "type".to_owned())), None),
                Variant {
                    doc: Some(" A value this version of the schema does not list."),
                    ..variant(format!("U{name}"), Some(Argument::Flag("untagged")), Some(path("::std::string::String")))
                },
            ]),
        };
        let strict = TypeItem {
            doc: None,
            derive: Derive::Paths(["Clone".to_owned(), "::serde::Deserialize".to_owned()].into()),
            attrs: TokenStream::new(),
            name: format!("E{name}"),
            body: Body::Variants(vec![
                variant(format!("X{name}"), None, None),
                variant("Value".to_owned(), None, Some(path("::serde_json::Value"))),
            ]),
        };
        [described, open, empty, strict].map(Described::Type).into()
    }

    #[test]
    fn items_are_laid_out_as_prettyplease_does_at_every_width() {
        let defined = ["Value"].into_iter().collect();
        let table = paths::table(&defined, "::crd_schema", "::k8s_openapi");
        for depth in [1, 2, 9] {
            for pad in 0..90 {
                // Compares with prettyplease (`items_text`, under `cfg(test)`).
                let (text, used) = items_text(boundary_items(pad), depth, &table, &mut boundary_described(pad), "test")
                    .expect("the items lay out")
                    .expect("of known shapes");
                assert!(text.contains("pub struct T") && used.iter().any(|u| *u), "{text}");
                assert!(text.contains(&format!("pub enum D{}", "n".repeat(pad))), "{text}");
                // All of them laid out without prettyplease.
                let (pieces, _) = layout::items(boundary_items(pad), depth, &table, &mut boundary_described(pad))
                    .expect("known shapes");
                assert!(pieces.iter().all(|p| matches!(p, layout::Piece::Text(_))), "{text}");
            }
        }
    }

    #[test]
    fn every_corpus_crd_is_laid_out_as_prettyplease_does() {
        // Each item is laid out both ways and compared (`items_text`).
        let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/crds");
        let mut files = 0;
        for project in std::fs::read_dir(&corpus).expect("the shared corpus is beside the workspace") {
            for file in std::fs::read_dir(project.expect("a corpus entry").path()).expect("a corpus project") {
                let path = file.expect("a corpus file").path();
                crate::Builder::new().crd(&path).generate().unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                files += 1;
            }
        }
        assert!(files > 100, "{files} corpus CRDs");
    }

    #[test]
    fn wrapper_lines_are_cut_off() {
        let text = "mod run {\n    mod run {\n        struct A;\n        struct B;\n    }\n}\n";
        assert_eq!(without_wrappers(text, 2), "        struct A;\n        struct B;\n");
        assert_eq!(without_wrappers("mod run {\n    struct A;\n}\n", 1), "    struct A;\n");
    }
}
