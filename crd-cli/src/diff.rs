//! `crd diff`: whether a new revision of CRDs is safe to apply over the
//! old one, and, with `--objects`, what it does to the objects stored
//! today.
//!
//! The comparison is the library's ([`crd_schema::diff`]); this module
//! reads both revisions (files or directories, CRDs paired by name), the
//! objects, prints the findings (rustc-like diagnostics located in the new
//! revision, with the old position as a note, or JSON) and picks the exit
//! code: 0 when no finding is an error (or every error's code is given
//! with `--allow`), 1 when one is, 2 when the tool could not run.

use std::io::Write;
use std::path::PathBuf;

use crd_schema::crd::{self, CustomResourceDefinition};
use crd_schema::diff::{Compared, Finding, Revision, Severity, StoredObject, diff_sets};
use crd_schema::yaml::Document;
use serde_json::{Value, json};

use super::check::Format;
use super::diag;

/// The parsed command line of `crd diff`.
#[derive(Debug)]
pub struct Args {
    /// The old revision: a CRD file or directory.
    pub old: PathBuf,
    /// The new revision.
    pub new: PathBuf,
    /// `--objects`: files or directories with the objects stored today.
    pub objects: Vec<PathBuf>,
    /// `--allow`: finding codes whose errors do not fail the run.
    pub allow: Vec<String>,
    /// `--format`
    pub format: Format,
}

/// The CRDs of one revision, each with its file and that file's source.
struct Side {
    crds: Vec<(String, std::rc::Rc<diag::Source>, Document, CustomResourceDefinition)>,
}

impl Side {
    fn load(path: &std::path::Path) -> Result<Self, String> {
        let mut crds = Vec::new();
        for loaded in super::load_crd_files(&[path], &path.display().to_string())? {
            let source = std::rc::Rc::new(diag::Source::new(loaded.text));
            for (doc, crd) in loaded.crds {
                crds.push((loaded.file.clone(), std::rc::Rc::clone(&source), doc, crd));
            }
        }
        Ok(Self { crds })
    }

    fn revisions(&self) -> Vec<Revision<'_>> {
        self.crds.iter().map(|(_, _, doc, crd)| Revision { crd, document: Some(doc) }).collect()
    }
}

/// The objects, each with its file and source.
type Objects = Vec<(String, std::rc::Rc<diag::Source>, Document)>;

fn load_objects(paths: &[PathBuf]) -> Result<Objects, String> {
    let mut out = Vec::new();
    for path in paths {
        for file in crd::manifest_files(path) {
            let file = file.map_err(|e| e.to_string())?;
            let (name, text, docs) = crd::read_documents_with(&file, &super::limits()).map_err(|e| e.to_string())?;
            let source = std::rc::Rc::new(diag::Source::new(text));
            out.extend(docs.into_iter().map(|d| (name.clone(), std::rc::Rc::clone(&source), d)));
        }
    }
    Ok(out)
}

/// Runs `crd diff`; returns the exit code.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<i32, String> {
    let (old, new) = (Side::load(&args.old)?, Side::load(&args.new)?);
    let objects = load_objects(&args.objects)?;
    let stored: Vec<StoredObject<'_>> =
        objects.iter().map(|(file, _, document)| StoredObject { file, document }).collect();
    let compared = diff_sets(&old.revisions(), &new.revisions(), &stored);
    let allowed = |f: &Finding| args.allow.iter().any(|a| a == f.code.as_str());
    let io = |e: std::io::Error| e.to_string();
    let report = Report { old: &old, new: &new, objects: &objects, compared: &compared };
    match args.format {
        Format::Text => report.text(&allowed, out).map_err(io)?,
        Format::Json => report.json(&allowed, out).map_err(io)?,
    }
    let failed = compared.iter().flat_map(|c| &c.findings).any(|f| f.severity == Severity::Error && !allowed(f));
    Ok(i32::from(failed))
}

struct Report<'r> {
    old: &'r Side,
    new: &'r Side,
    objects: &'r Objects,
    compared: &'r [Compared],
}

impl Report<'_> {
    /// The file and source where a finding is shown, its position, and
    /// the other position as a note.
    fn place(
        &self,
        c: &Compared,
        f: &Finding,
    ) -> (String, Option<std::rc::Rc<diag::Source>>, Option<crd_schema::yaml::Position>, Vec<String>) {
        let file =
            |side: &Side, i: Option<usize>| i.map(|i| (side.crds[i].0.clone(), std::rc::Rc::clone(&side.crds[i].1)));
        let mut notes = Vec::new();
        if let Some(object) = &f.object {
            let source =
                self.objects.iter().find(|(name, _, _)| *name == object.file).map(|(_, s, _)| std::rc::Rc::clone(s));
            notes.push(format!("object: {}", object.name));
            return (object.file.clone(), source, Some(object.at), notes);
        }
        let (old_file, new_file) = (file(self.old, c.old), file(self.new, c.new));
        if let (Some((name, _)), Some(at), Some(_)) = (&old_file, f.old_at, f.new_at) {
            notes.push(format!("old: {name}:{at}"));
        }
        match (new_file, f.new_at) {
            (Some((name, source)), Some(at)) => (name, Some(source), Some(at), notes),
            (new_file, _) => match old_file {
                Some((name, source)) if f.old_at.is_some() => (name, Some(source), f.old_at, notes),
                _ => (new_file.map(|(n, _)| n).unwrap_or_default(), None, None, notes),
            },
        }
    }

    fn text(&self, allowed: &dyn Fn(&Finding) -> bool, out: &mut dyn Write) -> std::io::Result<()> {
        let mut counts = [0usize; 3];
        let mut allowed_errors = 0;
        for c in self.compared {
            for f in &c.findings {
                let (file, source, at, mut notes) = self.place(c, f);
                if let Some(old) = &f.old {
                    notes.push(format!("was: {old}"));
                }
                if let Some(new) = &f.new {
                    notes.push(format!("now: {new}"));
                }
                let version = f.version.as_deref().map_or(String::new(), |v| format!("{v}: "));
                let headline = format!("{}: {version}{}: {}", f.crd, f.path, f.reason);
                let mut level = format!("{}[{}]", f.severity, f.code);
                if f.severity == Severity::Error && allowed(f) {
                    level.push_str(" (allowed)");
                    allowed_errors += 1;
                }
                let empty = diag::Source::new(String::new());
                let source = source.as_deref().unwrap_or(&empty);
                write!(out, "{}", diag::render(&level, &headline, &file, source, at, &notes))?;
                counts[f.severity as usize] += 1;
            }
        }
        let allowed = if allowed_errors > 0 { format!(" ({allowed_errors} allowed)") } else { String::new() };
        let objects: usize = self.compared.iter().map(|c| c.objects).sum();
        let objects = if self.objects.is_empty() { String::new() } else { format!(" and {objects} object(s)") };
        writeln!(
            out,
            "compared {} CRD(s){objects}: {} errors{allowed}, {} warnings, {} notes",
            self.compared.len(),
            counts[Severity::Error as usize],
            counts[Severity::Warning as usize],
            counts[Severity::Info as usize]
        )
    }

    fn json(&self, allowed: &dyn Fn(&Finding) -> bool, out: &mut dyn Write) -> std::io::Result<()> {
        let position = |side: &Side, i: Option<usize>, at: Option<crd_schema::yaml::Position>| match (i, at) {
            (Some(i), Some(at)) => Value::String(format!("{}:{at}", side.crds[i].0)),
            _ => Value::Null,
        };
        let entries: Vec<Value> = self
            .compared
            .iter()
            .flat_map(|c| c.findings.iter().map(move |f| (c, f)))
            .map(|(c, f)| {
                json!({
                    "code": f.code.as_str(), "severity": f.severity.as_str(), "allowed": allowed(f),
                    "crd": f.crd, "version": f.version, "path": f.path, "old": f.old, "new": f.new,
                    "reason": f.reason,
                    "oldAt": position(self.old, c.old, f.old_at), "newAt": position(self.new, c.new, f.new_at),
                    "object": f.object.as_ref().map(|o| json!({"file": o.file, "at": o.at.to_string(), "name": o.name})),
                })
            })
            .collect();
        let text = serde_json::to_string_pretty(&entries).map_err(std::io::Error::other)?;
        writeln!(out, "{text}")
    }
}
