//! Field paths and field errors, rendered byte-for-byte like Kubernetes'
//! `k8s.io/apimachinery/pkg/util/validation/field`.
//!
//! Entry points: [`Path`] (built with [`Path::child`], [`Path::index`],
//! [`Path::key`]), [`FieldError`] and its constructors, and [`ErrorList`].
//! Everything here is plain data: problems found in schemas or objects are
//! returned as values, never raised.

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use crate::gofmt;

/// One step of a [`Path`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PathElement {
    /// A field name, joined with `.`. May itself contain dots.
    Name(String),
    /// An array index, rendered `[i]`.
    Index(usize),
    /// A map key, rendered `[key]` without quoting.
    Key(String),
}

/// A Kubernetes field path such as `spec.versions[0].schema`.
///
/// Walks over objects make a path for every node they visit and render one
/// only for an error, so a path shares its parent: [`Path::child`] costs one
/// allocation, not a copy of every step above it.
#[derive(Clone, Default)]
pub struct Path {
    last: Option<Arc<Step>>,
}

/// The last step of a path and the path before it.
struct Step {
    parent: Option<Arc<Step>>,
    element: PathElement,
}

impl Path {
    /// The empty path (rendered `<nil>`).
    pub fn root() -> Self {
        Self::default()
    }

    /// A path starting with one name.
    pub fn new(name: impl Into<String>) -> Self {
        Self::root().child(name)
    }

    /// This path followed by a field name.
    #[must_use]
    pub fn child(&self, name: impl Into<String>) -> Self {
        self.with(PathElement::Name(name.into()))
    }

    /// This path followed by an array index.
    #[must_use]
    pub fn index(&self, index: usize) -> Self {
        self.with(PathElement::Index(index))
    }

    /// This path followed by a map key.
    #[must_use]
    pub fn key(&self, key: impl Into<String>) -> Self {
        self.with(PathElement::Key(key.into()))
    }

    fn with(&self, element: PathElement) -> Self {
        Self { last: Some(Arc::new(Step { parent: self.last.clone(), element })) }
    }

    fn from_elements(elements: impl IntoIterator<Item = PathElement>) -> Self {
        elements.into_iter().fold(Self::root(), |path, element| path.with(element))
    }

    /// The steps of this path, first to last.
    pub fn elements(&self) -> Vec<&PathElement> {
        let mut out = Vec::new();
        let mut step = self.last.as_deref();
        while let Some(s) = step {
            out.push(&s.element);
            step = s.parent.as_deref();
        }
        out.reverse();
        out
    }

    /// The last step, `None` at the root.
    pub fn last(&self) -> Option<&PathElement> {
        self.last.as_deref().map(|s| &s.element)
    }

    /// The object keys and array indices this path walks in a document.
    /// Names may hold a rendered path (value validation names fields
    /// `spec.items[0].name`, scale paths `.spec.replicas`): they are split
    /// at `.` and `[...]`, a number in brackets being an index. Keys are
    /// taken literally.
    #[cfg(feature = "engine")]
    pub fn steps(&self) -> Vec<crate::yaml::Step> {
        use crate::yaml::Step;
        let mut steps = Vec::new();
        for element in self.elements() {
            match element {
                PathElement::Name(name) => {
                    for segment in name.split('.').filter(|s| !s.is_empty()) {
                        let (head, rest) = segment.split_once('[').unwrap_or((segment, ""));
                        if !head.is_empty() {
                            steps.push(Step::key(head));
                        }
                        for inside in rest.split('[').map(|s| s.trim_end_matches(']')).filter(|s| !s.is_empty()) {
                            steps.push(inside.parse().map_or_else(|_| Step::key(inside), Step::Index));
                        }
                    }
                }
                PathElement::Key(key) => steps.push(Step::Key(key.clone())),
                PathElement::Index(index) => steps.push(Step::Index(*index)),
            }
        }
        steps
    }

    /// Whether this is the empty path.
    pub fn is_root(&self) -> bool {
        self.last.is_none()
    }

    /// The rest of this path after `prefix`, if it starts with it.
    pub fn strip_prefix(&self, prefix: &Path) -> Option<Path> {
        let elements = self.elements();
        let rest = elements.strip_prefix(prefix.elements().as_slice())?;
        Some(Self::from_elements(rest.iter().map(|e| (*e).clone())))
    }

    /// This path followed by every step of `other`.
    #[must_use]
    pub fn join(&self, other: &Path) -> Self {
        other.elements().into_iter().fold(self.clone(), |path, element| path.with(element.clone()))
    }
}

impl fmt::Debug for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Path").field("elements", &self.elements()).finish()
    }
}

impl PartialEq for Path {
    fn eq(&self, other: &Self) -> bool {
        self.elements() == other.elements()
    }
}

impl Eq for Path {}

impl std::hash::Hash for Path {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.elements().hash(state);
    }
}

impl PartialOrd for Path {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Path {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.elements().cmp(&other.elements())
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_root() {
            return f.write_str("<nil>");
        }
        for (i, element) in self.elements().into_iter().enumerate() {
            match element {
                PathElement::Name(name) => {
                    if i > 0 {
                        f.write_str(".")?;
                    }
                    f.write_str(name)?;
                }
                PathElement::Index(index) => write!(f, "[{index}]")?,
                PathElement::Key(key) => write!(f, "[{key}]")?,
            }
        }
        Ok(())
    }
}

/// The kind of a [`FieldError`], as Kubernetes' `field.ErrorType`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ErrorType {
    /// `Not found`
    NotFound,
    /// `Required value`
    Required,
    /// `Duplicate value`
    Duplicate,
    /// `Invalid value`
    Invalid,
    /// `Unsupported value`
    NotSupported,
    /// `Forbidden`
    Forbidden,
    /// `Too long`
    TooLong,
    /// `Too many`
    TooMany,
    /// `Internal error`
    Internal,
    /// `Invalid value` (a type mismatch)
    TypeInvalid,
}

impl ErrorType {
    /// The text Kubernetes prints for this type.
    pub fn text(self) -> &'static str {
        match self {
            ErrorType::NotFound => "Not found",
            ErrorType::Required => "Required value",
            ErrorType::Duplicate => "Duplicate value",
            ErrorType::Invalid | ErrorType::TypeInvalid => "Invalid value",
            ErrorType::NotSupported => "Unsupported value",
            ErrorType::Forbidden => "Forbidden",
            ErrorType::TooLong => "Too long",
            ErrorType::TooMany => "Too many",
            ErrorType::Internal => "Internal error",
        }
    }

    /// The Go constant name (`FieldValueInvalid`, ...).
    pub fn go_name(self) -> &'static str {
        match self {
            ErrorType::NotFound => "FieldValueNotFound",
            ErrorType::Required => "FieldValueRequired",
            ErrorType::Duplicate => "FieldValueDuplicate",
            ErrorType::Invalid => "FieldValueInvalid",
            ErrorType::NotSupported => "FieldValueNotSupported",
            ErrorType::Forbidden => "FieldValueForbidden",
            ErrorType::TooLong => "FieldValueTooLong",
            ErrorType::TooMany => "FieldValueTooMany",
            ErrorType::Internal => "InternalError",
            ErrorType::TypeInvalid => "FieldValueTypeInvalid",
        }
    }

    /// Whether the bad value is part of the rendered text.
    fn shows_value(self) -> bool {
        !matches!(self, ErrorType::Required | ErrorType::Forbidden | ErrorType::TooLong | ErrorType::Internal)
    }
}

/// The offending value carried by a [`FieldError`].
#[derive(Clone, Debug, PartialEq)]
pub enum BadValue {
    /// No value (for types that never show one).
    None,
    /// A JSON value, rendered as Kubernetes renders Go values.
    Json(Value),
    /// An already rendered value (Go struct dumps and the like).
    Rendered(String),
}

impl BadValue {
    fn render(&self) -> String {
        match self {
            BadValue::None => "null".to_owned(),
            BadValue::Json(value) => gofmt::value(value),
            BadValue::Rendered(text) => text.clone(),
        }
    }
}

/// One problem found in a schema or an object, as Kubernetes' `field.Error`.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldError {
    /// Where the problem is.
    pub path: Path,
    /// What kind of problem it is.
    pub kind: ErrorType,
    /// The offending value, shown for the types that show one.
    pub value: BadValue,
    /// Free text appended after `: ` when non-empty.
    pub detail: String,
}

impl FieldError {
    fn make(path: &Path, kind: ErrorType, value: BadValue, detail: impl Into<String>) -> Self {
        Self { path: path.clone(), kind, value, detail: detail.into() }
    }

    /// `<path>: Required value[: detail]`
    pub fn required(path: &Path, detail: impl Into<String>) -> Self {
        Self::make(path, ErrorType::Required, BadValue::None, detail)
    }

    /// `<path>: Forbidden[: detail]`
    pub fn forbidden(path: &Path, detail: impl Into<String>) -> Self {
        Self::make(path, ErrorType::Forbidden, BadValue::None, detail)
    }

    /// `<path>: Invalid value: <value>[: detail]`
    pub fn invalid(path: &Path, value: impl Into<Value>, detail: impl Into<String>) -> Self {
        Self::make(path, ErrorType::Invalid, BadValue::Json(value.into()), detail)
    }

    /// `<path>: Invalid value: <rendered>[: detail]` with a pre-rendered value.
    pub fn invalid_rendered(path: &Path, rendered: impl Into<String>, detail: impl Into<String>) -> Self {
        Self::make(path, ErrorType::Invalid, BadValue::Rendered(rendered.into()), detail)
    }

    /// `<path>: Unsupported value: <value>: supported values: "a", "b"`
    pub fn not_supported(path: &Path, value: impl Into<Value>, supported: &[&str]) -> Self {
        let detail = if supported.is_empty() {
            String::new()
        } else {
            let quoted: Vec<String> = supported.iter().map(|s| gofmt::quote(s)).collect();
            format!("supported values: {}", quoted.join(", "))
        };
        Self::make(path, ErrorType::NotSupported, BadValue::Json(value.into()), detail)
    }

    /// `<path>: Duplicate value: <value>`
    pub fn duplicate(path: &Path, value: impl Into<Value>) -> Self {
        Self::make(path, ErrorType::Duplicate, BadValue::Json(value.into()), "")
    }

    /// `<path>: Internal error: <detail>`
    pub fn internal(path: &Path, detail: impl Into<String>) -> Self {
        Self::make(path, ErrorType::Internal, BadValue::None, detail)
    }

    /// A general constructor.
    pub fn new(path: &Path, kind: ErrorType, value: BadValue, detail: impl Into<String>) -> Self {
        Self::make(path, kind, value, detail)
    }

    /// The text after `<path>: `, as Go's `ErrorBody`.
    pub fn body(&self) -> String {
        let mut s = self.kind.text().to_owned();
        if self.kind.shows_value() {
            s.push_str(": ");
            s.push_str(&self.value.render());
        }
        if !self.detail.is_empty() {
            s.push_str(": ");
            s.push_str(&self.detail);
        }
        s
    }

    /// This error with `prefix` put in front of its path.
    #[must_use]
    pub fn prefixed(mut self, prefix: &Path) -> Self {
        self.path = prefix.join(&self.path);
        self
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.body())
    }
}

impl std::error::Error for FieldError {}

/// A list of field errors.
pub type ErrorList = Vec<FieldError>;

/// Renders a list like Kubernetes' aggregate: one error as itself, several
/// as `[e1, e2]` with duplicates removed.
pub fn aggregate(errors: &[FieldError]) -> String {
    let mut texts: Vec<String> = Vec::new();
    for error in errors {
        let text = error.to_string();
        if !texts.contains(&text) {
            texts.push(text);
        }
    }
    match texts.len() {
        1 => texts.remove(0),
        _ => format!("[{}]", texts.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(feature = "engine")]
    use crate::yaml::Step;
    use serde_json::json;

    #[cfg(feature = "engine")]
    #[test]
    fn rendered_paths_become_document_steps() {
        let steps_of = |p: &str| Path::new(p).steps();
        assert_eq!(
            steps_of("spec.items[0].name"),
            [Step::Key("spec".into()), Step::Key("items".into()), Step::Index(0), Step::Key("name".into())]
        );
        assert_eq!(steps_of(".spec.replicas"), [Step::Key("spec".into()), Step::Key("replicas".into())]);
        assert_eq!(
            steps_of("metadata.labels[app]"),
            [Step::Key("metadata".into()), Step::Key("labels".into()), Step::Key("app".into())]
        );
        assert!(Path::root().steps().is_empty());
        assert_eq!(
            Path::new("a").key("x.y").index(2).steps(),
            [Step::Key("a".into()), Step::Key("x.y".into()), Step::Index(2)]
        );
    }

    #[test]
    fn paths_render_like_kubernetes() {
        assert_eq!(Path::root().to_string(), "<nil>");
        let p = Path::new("spec").child("validation").child("openAPIV3Schema");
        assert_eq!(p.key("a.b[0]").child("type").to_string(), "spec.validation.openAPIV3Schema[a.b[0]].type");
        assert_eq!(Path::root().key("m").index(1).to_string(), "[m][1]");
        assert_eq!(Path::root().index(0).child("a").to_string(), "[0].a");
        assert_eq!(
            p.key("x").strip_prefix(&Path::new("spec").child("validation")).unwrap().to_string(),
            "openAPIV3Schema[x]"
        );
        assert_eq!(p.strip_prefix(&Path::new("status")), None);
    }

    #[test]
    fn errors_render_like_kubernetes() {
        let p = Path::new("a");
        assert_eq!(FieldError::required(&p, "").to_string(), "a: Required value");
        assert_eq!(FieldError::forbidden(&p, "x").to_string(), "a: Forbidden: x");
        assert_eq!(FieldError::invalid(&p, "a\nb", "bad").to_string(), "a: Invalid value: \"a\\nb\": bad");
        assert_eq!(FieldError::invalid(&p, json!(2.0), "d").to_string(), "a: Invalid value: 2: d");
        assert_eq!(FieldError::invalid(&p, json!(null), "d").to_string(), "a: Invalid value: null: d");
        assert_eq!(
            FieldError::invalid(&p, json!({"b": 1, "a": ["<", 1.5]}), "d").to_string(),
            "a: Invalid value: {\"a\":[\"\\u003c\",1.5],\"b\":1}: d"
        );
        assert_eq!(
            FieldError::not_supported(&p, "x", &["a", "b"]).to_string(),
            "a: Unsupported value: \"x\": supported values: \"a\", \"b\""
        );
    }

    #[test]
    fn aggregate_dedups() {
        let e = FieldError::required(&Path::new("a"), "");
        assert_eq!(aggregate(std::slice::from_ref(&e)), "a: Required value");
        let f = FieldError::required(&Path::new("b"), "");
        assert_eq!(aggregate(&[e.clone(), f, e]), "[a: Required value, b: Required value]");
    }
}
