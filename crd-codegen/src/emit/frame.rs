//! The frame of a generated file: the version modules with their doc and
//! `use` block, a module per CRD when there are several, and the `crd()`
//! and `crds()` functions. Each module's types stand in it as one marker
//! line, replaced by the runs' text ([`super::runs`]).
//!
//! The frame is written as text, as prettyplease lays it out when every
//! line fits: it has no other shape, and prettyplease breaks a line only
//! where it would pass its margin. A frame with a longer line (a file of
//! many CRDs, whose `crds()` lists them all), or with a name that a `///`
//! comment cannot hold, is parsed and laid out by prettyplease instead.
//! The crate's tests lay out every frame both ways and compare.

use std::fmt::Write as _;

use super::{paths, runs};
use crate::error::{Error, Result};
use crate::naming::{Case, Names};
use crate::typespace::CrdSpace;

/// The name of a module body's marker item, before the body's index: the
/// frame holds it as the line `struct __crd_codegen_body_3;`.
pub(super) const BODY_MARKER: &str = "__crd_codegen_body_";

/// The widest line written as it is; prettyplease's margin is 89 columns,
/// so no line this short is one it would break.
pub(super) const WIDEST: usize = 80;

/// The laid-out frame of `crds`, whose version `modules` use the short
/// paths `used` (one list per module, in order); `crd_schema` is the
/// checked path of the `crd-schema` crate as written.
pub(super) fn frame(
    crds: &[CrdSpace],
    modules: &[runs::Module<'_>],
    used: &[&[bool]],
    crd_schema: &str,
    label: &str,
) -> Result<String> {
    let text = write(crds, modules, used, crd_schema);
    #[cfg(test)]
    if text.fits {
        assert_eq!(text.out, through_prettyplease(&text.out, label)?, "the frame written differs from prettyplease's");
    }
    if text.fits { Ok(text.out) } else { through_prettyplease(&text.out, label) }
}

/// The frame's text as [`frame`] describes it, written as prettyplease
/// lays it out when every line fits.
fn write(crds: &[CrdSpace], modules: &[runs::Module<'_>], used: &[&[bool]], crd_schema: &str) -> Text {
    let mut text = Text::new(0);
    text.fits = crd_schema.chars().all(is_path_char);
    let mut numbered = modules.iter().zip(used).enumerate();
    let mut names = Names::new(Case::Snake);
    let mut crd_paths = Vec::new();
    for crd in crds {
        let several = crds.len() > 1;
        if several {
            let module = names.claim(&crd.module);
            for line in format!("The CustomResourceDefinition `{}`.", crd.name).lines() {
                text.doc(false, line);
            }
            text.line(&format!("pub mod {module} {{"));
            text.depth += 1;
            crd_paths.push(format!("{module}::crd()"));
        } else {
            crd_paths.push("crd()".to_owned());
        }
        for (n, (module, used)) in numbered.by_ref().take(crd.versions.len()) {
            version(&mut text, module, used, n);
        }
        let roots: Vec<String> = crd
            .versions
            .iter()
            .map(|v| format!("{}::{}", v.module, v.space.types.first().map(|t| t.name.as_str()).unwrap_or_default()))
            .collect();
        text.doc(false, &format!("`{}` with every version, as the derive rebuilds it from these types.", crd.name));
        text.line("#[allow(dead_code)]");
        text.line(&format!("pub fn crd() -> {crd_schema}::schema::CrdManifest {{"));
        text.depth += 1;
        text.line(&format!("{crd_schema}::merge_crds!({})", roots.join(", ")));
        text.close();
        if several {
            text.close();
        }
    }
    text.doc(false, "Every CustomResourceDefinition of this file, rebuilt from the");
    text.doc(false, "generated types.");
    text.line("#[allow(dead_code)]");
    text.line(&format!("pub fn crds() -> ::std::vec::Vec<{crd_schema}::schema::CrdManifest> {{"));
    text.depth += 1;
    text.line(&format!("::std::vec![{}]", crd_paths.join(", ")));
    text.close();
    text
}

/// A version module: its doc, its `use` block and the marker of its
/// `n`th body.
fn version(text: &mut Text, module: &runs::Module<'_>, used: &[bool], n: usize) {
    let kind = module.version.space.types.first().map(|t| t.name.as_str()).unwrap_or_default();
    text.line(&format!("pub mod {} {{", module.version.module));
    text.depth += 1;
    // An inner doc, so that the link resolves inside the module.
    let doc = format!("Version `{}` of `{}`: the resource is [`{kind}`].", module.version.version, module.crd.name);
    text.doc(true, &doc);
    for line in paths::uses(&module.table, used) {
        text.line(&line);
    }
    text.line(&format!("struct {BODY_MARKER}{n};"));
    text.close();
}

/// Text written as prettyplease lays it out, and whether it is: the
/// frame's, or a [`super::templates`] block's.
pub(super) struct Text {
    pub out: String,
    /// How many levels deep the next line is.
    depth: usize,
    /// No line so far is too wide, and every doc is a `///` comment.
    pub fits: bool,
}

impl Text {
    pub fn new(depth: usize) -> Text {
        Text { out: String::new(), depth, fits: true }
    }

    fn line(&mut self, line: &str) {
        self.line_at(0, line);
    }

    /// `line`, `level` levels deeper than the current depth.
    pub fn line_at(&mut self, level: usize, line: &str) {
        let indent = 4 * (self.depth + level);
        self.fits &= indent + line.len() <= WIDEST;
        let _ = writeln!(self.out, "{:indent$}{line}", "");
    }

    /// `}` at one level less.
    fn close(&mut self) {
        self.depth -= 1;
        self.line("}");
    }

    /// A doc attribute whose value is a space and `text`, as prettyplease
    /// writes it: a `///` (`//!` when `inner`) comment, trailing spaces
    /// trimmed. A line break or carriage return would end the comment, so
    /// such a doc is written as an attribute and left to prettyplease.
    fn doc(&mut self, inner: bool, text: &str) {
        let indent = 4 * self.depth;
        if text.contains(['\n', '\r']) {
            self.fits = false;
            let bang = if inner { "!" } else { "" };
            let _ = writeln!(self.out, "{:indent$}#{bang}[doc = {:?}]", "", format!(" {text}"));
        } else {
            let mark = if inner { "//!" } else { "///" };
            let _ = writeln!(self.out, "{:indent$}{}", "", format!("{mark} {text}").trim_end_matches(' '));
        }
    }
}

/// Whether `c` may appear in a path written as it is.
pub(super) fn is_path_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == ':'
}

/// `text` parsed and laid out by prettyplease.
fn through_prettyplease(text: &str, label: &str) -> Result<String> {
    let tokens = text.parse().map_err(|e| Error::Emit { crd: label.to_owned(), message: format!("{e}") })?;
    runs::unparse(tokens, label)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    /// A CRD of two versions, modelled.
    fn crd_space() -> CrdSpace {
        let version = |name: &str, storage: bool| {
            serde_json::json!({"name": name, "served": true, "storage": storage,
                "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": {"type": "object"}}}}})
        };
        let crd = serde_json::json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "widgets.example.com"}, "spec": {"group": "example.com", "scope": "Namespaced",
            "names": {"kind": "Widget", "plural": "widgets"}, "versions": [version("v1", true), version("v1beta1", false)]}});
        let loaded = crd_schema::crd::parse_source_with("w.json", crd.to_string().as_bytes(), &Default::default())
            .expect("the CRD reads");
        CrdSpace::new(&loaded.crds[0].1, Default::default()).expect("the CRD models")
    }

    /// The frame of `crds` written, with every short path used.
    fn written(crds: &[CrdSpace], crd_schema: &str) -> Text {
        let modules: Vec<runs::Module<'_>> = crds
            .iter()
            .flat_map(|crd| crd.versions.iter().map(move |version| (crd, version)))
            .map(|(crd, version)| {
                let table = paths::table(&BTreeSet::new(), crd_schema, "::k8s_openapi");
                runs::Module { crd, version, table }
            })
            .collect();
        let used: Vec<Vec<bool>> = modules.iter().map(|m| vec![true; m.table.len()]).collect();
        let used: Vec<&[bool]> = used.iter().map(Vec::as_slice).collect();
        write(crds, &modules, &used, crd_schema)
    }

    #[test]
    fn frames_that_fit_are_written_as_prettyplease_lays_them_out() {
        let base = crd_space();
        let mut wide = 0;
        // Names and paths on either side of the widest line written.
        for length in (10..90).step_by(3) {
            for crd_schema in ["::crd_schema", "crate::schema", "crd_schema"] {
                for count in [1, 2, 5] {
                    let crds: Vec<CrdSpace> = (0..count)
                        .map(|i| {
                            let mut crd = base.clone();
                            crd.module = format!("{}{i}", "w".repeat(length / 2));
                            crd.versions[0].space.types[0].name = format!("W{}", "x".repeat(length));
                            crd
                        })
                        .collect();
                    let text = written(&crds, crd_schema);
                    if text.fits {
                        let laid = through_prettyplease(&text.out, "test").expect("the frame parses");
                        assert_eq!(text.out, laid, "{length} {crd_schema} {count}");
                    } else {
                        wide += 1;
                    }
                }
            }
        }
        assert!(wide > 0, "some frames are too wide to be written");
        assert!(written(&[base], "::crd_schema").fits, "a plain frame is written as it is");
    }

    #[test]
    fn names_a_comment_cannot_hold_are_left_to_prettyplease() {
        let mut crd = crd_space();
        crd.name = "widgets\n.example.com".to_owned();
        crd.versions[0].version = "v1\r".to_owned();
        let text = written(std::slice::from_ref(&crd), "::crd_schema");
        assert!(!text.fits);
        let laid = through_prettyplease(&text.out, "test").expect("the frame parses");
        assert!(laid.contains("widgets\n.example.com") || laid.contains("/**"), "{laid}");
        let raw = written(&[crd_space()], "::r#match");
        assert!(!raw.fits, "a path that is not plain is left to prettyplease");
        let laid = through_prettyplease(&raw.out, "test").expect("the frame parses");
        assert!(laid.contains("::r#match::merge_crds!(v1::Widget, v1beta1::Widget)"), "{laid}");
    }
}
