//! rustc-like diagnostics: a headline, the file position, and a snippet of
//! the source line with a caret under the offending column.

use crd_schema::field::Path;
use crd_schema::yaml::{Position, Spans, Step};

/// Turns a Kubernetes field path of a CRD into the document path it came
/// from. Names may hold dots (`openAPIV3Schema.type`); hoisted v1 paths
/// (`spec.validation`, `spec.subresources`) point into the first version.
pub fn document_steps(path: &Path, hoisted_from_v1: bool) -> Vec<Step> {
    let mut steps = path.steps();
    if hoisted_from_v1 && steps.len() >= 2 && steps[0] == Step::Key("spec".into()) {
        let into_version = |rest: &str| {
            vec![Step::Key("spec".into()), Step::Key("versions".into()), Step::Index(0), Step::Key(rest.into())]
        };
        let replaced = match &steps[1] {
            Step::Key(k) if k == "validation" => Some(into_version("schema")),
            Step::Key(k) if k == "subresources" => Some(into_version("subresources")),
            _ => None,
        };
        if let Some(mut head) = replaced {
            head.extend(steps.drain(2..));
            steps = head;
        }
    }
    steps
}

/// The position of `steps` in a document, or of its nearest ancestor.
pub fn locate(spans: &Spans, steps: &[Step]) -> Option<Position> {
    spans.nearest(steps)
}

/// Renders one diagnostic.
pub fn render(level: &str, message: &str, file: &str, text: &str, at: Option<Position>, notes: &[String]) -> String {
    let mut out = format!("{level}: {message}\n");
    match at {
        Some(pos) if pos.line > 0 => {
            let gutter = pos.line.to_string().len();
            let pad = " ".repeat(gutter);
            out.push_str(&format!("{pad}--> {file}:{}:{}\n", pos.line, pos.column));
            if let Some(line) = text.lines().nth((pos.line - 1) as usize) {
                let line = truncate(line, 160);
                let caret_at = (pos.column.saturating_sub(1) as usize).min(line.chars().count());
                out.push_str(&format!("{pad} |\n{} | {line}\n{pad} | {}^\n", pos.line, " ".repeat(caret_at)));
            }
        }
        _ => out.push_str(&format!(" --> {file}\n")),
    }
    for note in notes {
        out.push_str(&format!(" = {note}\n"));
    }
    out
}

fn truncate(line: &str, max: usize) -> String {
    if line.chars().count() <= max { line.to_owned() } else { line.chars().take(max).collect::<String>() + "…" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hoisted_paths_point_into_the_first_version() {
        let path = Path::new("spec").child("validation").child("openAPIV3Schema").child("properties").key("a.b");
        let steps = document_steps(&path, true);
        let keys: Vec<String> = steps
            .iter()
            .map(|s| match s {
                Step::Key(k) => k.clone(),
                Step::Index(i) => i.to_string(),
            })
            .collect();
        assert_eq!(keys, ["spec", "versions", "0", "schema", "openAPIV3Schema", "properties", "a.b"]);
    }

    #[test]
    fn snippet_has_a_caret() {
        let text = "a:\n  type: bogus\n";
        let out = render("error", "bad", "f.yaml", text, Some(Position { line: 2, column: 9 }), &[]);
        assert_eq!(out, "error: bad\n --> f.yaml:2:9\n  |\n2 |   type: bogus\n  |         ^\n");
    }
}
