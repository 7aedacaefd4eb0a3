//! `crd explain`: what `kubectl explain` prints for a resource or one of
//! its fields, for CRDs that are not on any cluster.
//!
//! Entry points: [`command`], the CLI, and [`render`], the library function
//! that works on the OpenAPI v3 document of a group-version as kubectl does
//! (the document `crd_schema::openapi::document` builds, or one fetched
//! from `/openapi/v3/apis/<group>/<version>`).
//!
//! [`render`] reproduces kubectl's `plaintext` template
//! (`k8s.io/kubectl/pkg/explain/v2/templates/plaintext.tmpl`) step by step,
//! including the Go template semantics its output depends on: empty maps,
//! lists and strings are false, map keys come in sorted order, descriptions
//! are wrapped by go-wordwrap (v1.0.1) and numbers print as Go's `%v` of a
//! float64. Like kubectl it prints no default values.
//!
//! Error policy: usage mistakes are found before [`command`] runs
//! (`crate::args`); anything that goes wrong while running (unreadable
//! CRD, unknown resource, unknown field) is written to `err` as
//! `error: ...` with kubectl's wording, and the exit code is 2. Nothing
//! panics on any document: cyclic `$ref`s stop as kubectl's history stops
//! them (or, where kubectl has none, at the first repeat), and nesting
//! deeper than [`MAX_DEPTH`] is an error.

use std::fmt;
use std::io::Write;

use crd_schema::crd::CustomResourceDefinition;
use crd_schema::gofmt;
use crd_schema::openapi::{self, Format};
use serde_json::{Map, Value};

/// The deepest nesting of schemas (properties, items, map values, `allOf`
/// and `$ref`s) that [`render`] follows before giving up.
pub const MAX_DEPTH: usize = 256;

/// The largest output [`render`] produces (a `--recursive` walk over a
/// hostile document can grow exponentially).
const MAX_OUTPUT: usize = 64 << 20;

/// Why [`render`] failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExplainError {
    /// kubectl's message, without the `error: ` that kubectl prefixes.
    pub message: String,
    /// What kubectl has already written to stdout when it fails: the
    /// GROUP/KIND/VERSION header, since its template streams its output.
    pub printed: String,
}

impl fmt::Display for ExplainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ExplainError {}

/// Explains the kind `gvk` (group, version, kind) of `document`, an OpenAPI
/// v3 document, or the field at `path` below it, as `kubectl explain`
/// prints it; `recursive` is `--recursive`. The kind is the schema of
/// `components.schemas` whose `x-kubernetes-group-version-kind` names it.
///
/// A `path` that names no field fails with kubectl's message, which names
/// the path's last element (`field "foo" does not exist`).
pub fn render(
    document: &Value,
    gvk: (&str, &str, &str),
    path: &[String],
    recursive: bool,
) -> Result<String, ExplainError> {
    let (group, version, kind) = gvk;
    let mut out = String::new();
    if !group.is_empty() {
        out.push_str(&format!("GROUP:      {group}\n"));
    }
    out.push_str(&format!("KIND:       {kind}\nVERSION:    {version}\n\n"));
    let fail = |message: String, printed: &str| ExplainError { message, printed: printed.to_owned() };
    let Some(schema) = kind_schema(document, gvk) else {
        return Err(fail(
            format!("GVK map[group:{group} kind:{kind} version:{version}] not found in OpenAPI schema"),
            &out,
        ));
    };
    let renderer = Renderer { document, recursive };
    let text = renderer.output(schema, &[], path, 0).map_err(|message| fail(message, &out))?;
    if text.is_empty() {
        // `%v` between literal quotes: nothing in the name is escaped.
        let last = path.last().map(String::as_str).unwrap_or_default();
        return Err(fail(format!("field \"{last}\" does not exist"), &out));
    }
    out.push_str(&text);
    out.push('\n');
    Ok(out)
}

/// The first schema, in key order, of `components.schemas` whose
/// `x-kubernetes-group-version-kind` list holds exactly `gvk`.
fn kind_schema<'a>(document: &'a Value, (group, version, kind): (&str, &str, &str)) -> Option<&'a Value> {
    let schemas = document.get("components")?.get("schemas")?.as_object()?;
    let matches = |entry: &Value| {
        entry.as_object().is_some_and(|e| {
            e.len() == 3
                && e.get("group").and_then(Value::as_str) == Some(group)
                && e.get("version").and_then(Value::as_str) == Some(version)
                && e.get("kind").and_then(Value::as_str) == Some(kind)
        })
    };
    sorted(schemas).into_iter().map(|(_, schema)| schema).find(|schema| {
        schema.get("x-kubernetes-group-version-kind").and_then(Value::as_array).is_some_and(|l| l.iter().any(matches))
    })
}

/// The template's sub-templates, as methods. Each returns what the
/// template would emit, or the message of a template error.
struct Renderer<'a> {
    document: &'a Value,
    recursive: bool,
}

type Step<T> = Result<T, String>;

impl<'a> Renderer<'a> {
    /// `depth + 1`, or an error past [`MAX_DEPTH`].
    fn deeper(depth: usize) -> Step<usize> {
        if depth >= MAX_DEPTH {
            return Err(format!("schema nesting exceeds {MAX_DEPTH} levels"));
        }
        Ok(depth + 1)
    }

    /// `or (resolveRef $ref $.Document) $.schema`: the schema a `$ref`
    /// points to when it resolves to a non-empty object, else `schema`.
    fn resolve(&self, schema: &'a Value) -> &'a Value {
        reference(schema).and_then(|r| resolve_ref(self.document, r)).filter(|v| truthy(Some(v))).unwrap_or(schema)
    }

    /// The `output` template: follows `path` through properties, array
    /// items, map values and `allOf` alternatives (in that order of
    /// preference), printing the FIELD line at the last step, then the
    /// description and the field list. Empty when the path leads nowhere.
    fn output(&self, schema: &'a Value, history: &[&'a str], path: &[String], depth: usize) -> Step<String> {
        let depth = Self::deeper(depth)?;
        let resolved = self.resolve(schema);
        let Some((first, rest)) = path.split_first() else {
            let mut description = String::new();
            self.description(resolved, &mut Vec::new(), &mut description, depth)?;
            if description.is_empty() {
                description.push_str("<empty>");
            }
            let mut out = format!("DESCRIPTION:\n{}\n", indent(4, &wrap(76, &description)));
            let docs = external_docs(resolved, 0, 4, 76);
            if !docs.is_empty() {
                out.push('\n');
                out.push_str(&docs);
            }
            let mut fields = String::new();
            self.field_list(resolved, 1, &[], &mut fields, depth)?;
            if !fields.is_empty() {
                out.push_str("FIELDS:\n");
                out.push_str(&fields);
            }
            return Ok(out);
        };
        let own = reference(schema);
        if own.is_some_and(|r| history.contains(&r)) {
            return Ok(String::new()); // a cycle
        }
        let next: Vec<&str> = history.iter().copied().chain(own).collect();
        if let Some(field) =
            object(resolved, "properties").and_then(|p| p.get(first.as_str())).filter(|f| truthy(Some(f)))
        {
            let mut out = String::new();
            if rest.is_empty() {
                let kind = self.type_guess(field, depth)?;
                let mut sections = extract_enum(field, true, None, 0);
                if let Some(default) = default_text(field) {
                    if !sections.is_empty() {
                        sections.push('\n');
                    }
                    sections.push_str(&format!("DEFAULT:\n    {}", default.replace('\n', "\n    ")));
                }
                out = format!("FIELD: {first} <{kind}>\n{sections}\n\n");
            }
            // A property starts a fresh history: the same type may recur below.
            out.push_str(&self.output(field, &[], rest, depth)?);
            return Ok(out);
        }
        if let Some(items) = schema_at(resolved, "items") {
            return self.output(items, &next, path, depth);
        }
        if let Some(values) = map_values(resolved) {
            return self.output(values, &next, path, depth);
        }
        for alternative in array(resolved, "allOf") {
            let out = self.output(alternative, &next, path, depth)?;
            if !out.is_empty() {
                return Ok(out);
            }
        }
        Ok(String::new())
    }

    /// The `description` template: the schema's description and those of
    /// its `allOf` alternatives, array items and map values, each followed
    /// by a line break. kubectl has no cycle check here; a `$ref` already
    /// on the chain is not followed again.
    fn description(&self, schema: &'a Value, chain: &mut Vec<&'a str>, out: &mut String, depth: usize) -> Step<()> {
        let depth = Self::deeper(depth)?;
        let own = reference(schema);
        if own.is_some_and(|r| chain.contains(&r)) {
            return Ok(());
        }
        let resolved = self.resolve(schema);
        if !truthy(Some(resolved)) {
            return Ok(());
        }
        chain.extend(own);
        if let Some(text) = resolved.get("description").filter(|d| truthy(Some(d))) {
            out.push_str(&go_v(text));
            out.push('\n');
        }
        for alternative in array(resolved, "allOf") {
            self.description(alternative, chain, out, depth)?;
        }
        if let Some(items) = schema_at(resolved, "items") {
            self.description(items, chain, out, depth)?;
        }
        if let Some(values) = map_values(resolved) {
            self.description(values, chain, out, depth)?;
        }
        if own.is_some() {
            chain.pop();
        }
        Ok(())
    }

    /// The `fieldList` template: one entry per property in key order
    /// (with the properties below each one when recursive), then those of
    /// `allOf` alternatives, array items and map values at the same level.
    fn field_list(
        &self,
        schema: &'a Value,
        level: usize,
        history: &[&'a str],
        out: &mut String,
        depth: usize,
    ) -> Step<()> {
        let depth = Self::deeper(depth)?;
        let own = reference(schema);
        if own.is_some_and(|r| history.contains(&r)) {
            return Ok(()); // a cycle
        }
        let next: Vec<&str> = history.iter().copied().chain(own).collect();
        let resolved = self.resolve(schema);
        if let Some(properties) = object(resolved, "properties") {
            for (name, field) in sorted(properties) {
                self.field_detail(resolved, name, field, level, out, depth)?;
                if out.len() > MAX_OUTPUT {
                    return Err(format!("output exceeds {} MiB", MAX_OUTPUT >> 20));
                }
                if self.recursive {
                    self.field_list(field, level + 1, &next, out, depth)?;
                }
            }
        }
        for alternative in array(resolved, "allOf") {
            self.field_list(alternative, level, &next, out, depth)?;
        }
        if let Some(items) = schema_at(resolved, "items") {
            self.field_list(items, level, &next, out, depth)?;
        }
        if let Some(values) = map_values(resolved) {
            self.field_list(values, level, &next, out, depth)?;
        }
        Ok(())
    }

    /// The `fieldDetail` template: `name<TAB><type>`, ` -required-`, and
    /// unless recursive the enum values and the wrapped description.
    fn field_detail(
        &self,
        parent: &Value,
        name: &str,
        field: &'a Value,
        level: usize,
        out: &mut String,
        depth: usize,
    ) -> Step<()> {
        let amount = level * 2;
        out.push_str(&indent(amount, name));
        out.push_str(&format!("\t<{}>", self.type_guess(field, depth)?));
        let required = parent.get("required").and_then(Value::as_array);
        if required.is_some_and(|r| r.iter().any(|n| n.as_str() == Some(name))) {
            out.push_str(" -required-");
        }
        let values = extract_enum(field, false, Some(4), amount);
        if !values.is_empty() {
            out.push('\n');
            out.push_str(&values);
        }
        if let Some(default) = default_text(field) {
            out.push('\n');
            out.push_str(&indent(amount, &format!("default: {default}")));
        }
        out.push('\n');
        if !self.recursive {
            let text = field
                .get("description")
                .filter(|d| truthy(Some(d)))
                .map_or_else(|| "<no description>".to_owned(), go_v);
            out.push_str(&indent(amount + 2, &wrap(78 - width_of(amount), &text)));
            out.push('\n');
            let docs = external_docs(field, amount + 2, amount + 4, 76 - width_of(amount));
            if !docs.is_empty() {
                out.push('\n');
                out.push_str(&docs);
            }
            out.push('\n');
        }
        Ok(())
    }

    /// The `typeGuess` template: `[]T` for arrays, `map[string]T` for maps,
    /// a lone `allOf` alternative's type, the last dotted segment of a
    /// `$ref` to an object (`ObjectMeta`) or the type of a `$ref` to a
    /// scalar, `Object` for objects and schemas without a type.
    fn type_guess(&self, schema: &'a Value, depth: usize) -> Step<String> {
        let depth = Self::deeper(depth)?;
        let Some(map) = schema.as_object().filter(|m| !m.is_empty()) else {
            return Err("template: error calling fail: expected schema argument to subtemplate 'typeguess'".to_owned());
        };
        if let Some(items) = map.get("items").filter(|i| truthy(Some(i))) {
            return Ok(format!("[]{}", self.type_guess(items, depth)?));
        }
        if let Some(values) = map_values(schema) {
            return Ok(format!("map[string]{}", self.type_guess(values, depth)?));
        }
        if let Some([only]) = map.get("allOf").and_then(Value::as_array).map(Vec::as_slice)
            && !truthy(map.get("properties"))
        {
            return self.type_guess(only, depth);
        }
        if let Some(target) = map.get("$ref").filter(|r| truthy(Some(r))) {
            let target = go_v(target);
            let referred = resolve_ref(self.document, &target).filter(|r| truthy(Some(r)));
            let referred_type = referred.and_then(|r| r.get("type")).filter(|t| truthy(Some(t)));
            return Ok(match referred_type {
                Some(t) if t != "object" => go_v(t),
                _ => {
                    let name = target.rsplit('/').next().unwrap_or_default();
                    let last = name.rsplit('.').next().unwrap_or_default();
                    if last.is_empty() { "Object" } else { last }.to_owned()
                }
            });
        }
        Ok(match map.get("type").filter(|t| truthy(Some(t))) {
            Some(t) if t == "object" => "Object".to_owned(),
            Some(t) => go_v(t),
            None => "Object".to_owned(),
        })
    }
}

/// The `extractEnum` template. The long view (a FIELD line) lists every
/// value on its own line under `ENUM:`; the short view (a field list
/// entry) puts up to `limit` values on one line after `enum: `.
fn extract_enum(schema: &Value, long: bool, limit: Option<usize>, amount: usize) -> String {
    let Some(values) = schema.get("enum").filter(|e| truthy(Some(e))).and_then(Value::as_array) else {
        return String::new();
    };
    let mut out = if long { "ENUM:".to_owned() } else { format!("{}enum: ", " ".repeat(amount)) };
    for (index, value) in values.iter().enumerate() {
        if limit.is_some_and(|limit| index >= limit) {
            out.push_str(", ....");
            break;
        }
        if long {
            out.push_str("\n    ");
        } else if index > 0 {
            out.push_str(", ");
        }
        match value {
            Value::String(s) if s.is_empty() => out.push_str("\"\""),
            other => out.push_str(&go_v(other)),
        }
    }
    out
}

/// The `externalDocs` section: `EXTERNAL DOCS:` `amount` columns in, then
/// the description wrapped at `width` and `URL: <url>`, `inner` columns in;
/// empty without `externalDocs`.
fn external_docs(schema: &Value, amount: usize, inner: usize, width: i64) -> String {
    let Some(docs) = schema.get("externalDocs").filter(|d| truthy(Some(d))) else {
        return String::new();
    };
    let mut out = format!("{}\n", indent(amount, "EXTERNAL DOCS:"));
    if let Some(text) = docs.get("description").filter(|d| truthy(Some(d))) {
        out.push_str(&indent(inner, &wrap(width, &go_v(text))));
        out.push('\n');
    }
    if let Some(url) = docs.get("url").filter(|u| truthy(Some(u))) {
        out.push_str(&indent(inner, &format!("URL: {}", go_v(url))));
        out.push('\n');
    }
    out
}

/// An indentation as a signed width (Go's template arithmetic may go
/// negative for deep fields; `wrap` treats that as no limit).
fn width_of(amount: usize) -> i64 {
    i64::try_from(amount).unwrap_or(i64::MAX / 2)
}

/// The schema's `default` as the field list and FIELD view show it (our
/// addition; kubectl's template prints no defaults): strings bare (`""`
/// when empty), everything else as compact JSON.
fn default_text(schema: &Value) -> Option<String> {
    match schema.get("default")? {
        Value::Null => None,
        Value::String(s) if s.is_empty() => Some("\"\"".to_owned()),
        Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}

/// A non-empty `$ref` string.
fn reference(schema: &Value) -> Option<&str> {
    schema.get("$ref").and_then(Value::as_str).filter(|r| !r.is_empty())
}

/// kubectl's `resolveRef`: only local references (`#/a/b`) resolve, by
/// walking the document's objects along the unescaped fragment's non-empty
/// segments.
fn resolve_ref<'a>(document: &'a Value, target: &str) -> Option<&'a Value> {
    let fragment = percent_decode(target.strip_prefix('#')?)?;
    if fragment.is_empty() {
        return None;
    }
    let mut current = document.as_object().map(|_| document)?;
    for segment in fragment.split('/').filter(|s| !s.is_empty()) {
        current = current.get(segment).filter(|v| v.is_object())?;
    }
    Some(current)
}

/// Go's URL fragment unescaping: `%XX` sequences decoded, a malformed one
/// (or one that decodes to invalid UTF-8) makes the reference unusable.
fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b == b'%' {
            let hex = bytes.get(i + 1..i + 3)?;
            let hex = std::str::from_utf8(hex).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Go template truth: absent, `null`, `false`, `0`, and empty strings,
/// lists and maps are false.
fn truthy(value: Option<&Value>) -> bool {
    match value {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_f64().is_some_and(|f| f != 0.0),
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(a)) => !a.is_empty(),
        Some(Value::Object(o)) => !o.is_empty(),
    }
}

/// `schema[key]` when it is a non-empty object (a sub-schema the template
/// would follow).
fn schema_at<'a>(schema: &'a Value, key: &str) -> Option<&'a Value> {
    schema.get(key).filter(|v| v.as_object().is_some_and(|o| !o.is_empty()))
}

/// `schema[key]` as an object.
fn object<'a>(schema: &'a Value, key: &str) -> Option<&'a Map<String, Value>> {
    schema.get(key).and_then(Value::as_object)
}

/// The elements of `schema[key]` when it is a list.
fn array<'a>(schema: &'a Value, key: &str) -> &'a [Value] {
    schema.get(key).and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

/// `additionalProperties` when it is a schema rather than a boolean.
fn map_values(schema: &Value) -> Option<&Value> {
    schema_at(schema, "additionalProperties")
}

/// A map's entries in Go's `range` order: keys sorted bytewise.
fn sorted(map: &Map<String, Value>) -> Vec<(&str, &Value)> {
    let mut entries: Vec<(&str, &Value)> = map.iter().map(|(k, v)| (k.as_str(), v)).collect();
    entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
    entries
}

/// Go's `%v` of a value decoded by `encoding/json` into `interface{}`
/// (every number a float64).
fn go_v(value: &Value) -> String {
    gofmt::v(value, gofmt::Numbers::Float64)
}

/// The template's `indent`: `amount` spaces before the text and after each
/// line break in it.
fn indent(amount: usize, text: &str) -> String {
    let pad = " ".repeat(amount);
    format!("{pad}{}", text.replace('\n', &format!("\n{pad}")))
}

/// go-wordwrap's `WrapString` as of v1.0.1, which kubectl uses: lines
/// break at white space only (a no-break space is not one) and never
/// inside a word, so a word longer than the limit stays whole on a line of
/// its own; explicit line breaks stay; white space at a break, or trailing
/// white space that does not fit, is dropped. Widths count characters. A
/// limit of zero or less does not wrap.
fn wrap(limit: i64, text: &str) -> String {
    let Ok(limit) = usize::try_from(limit) else {
        return text.to_owned();
    };
    if limit == 0 {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len() + text.len() / 64);
    // The width already on the current line, and the pending white space
    // and word with their widths.
    let mut line = 0;
    let (mut space, mut space_width) = (String::new(), 0);
    let (mut word, mut word_width) = (String::new(), 0);
    for c in text.chars() {
        if c == '\n' {
            if !word.is_empty() || line + space_width <= limit {
                out.push_str(&space);
            }
            out.push_str(&word);
            (space, space_width, word, word_width) = (String::new(), 0, String::new(), 0);
            out.push('\n');
            line = 0;
        } else if c.is_whitespace() && c != '\u{a0}' {
            if space.is_empty() || !word.is_empty() {
                line += space_width + word_width;
                out.push_str(&space);
                out.push_str(&word);
                (space, space_width, word, word_width) = (String::new(), 0, String::new(), 0);
            }
            space.push(c);
            space_width += 1;
        } else {
            word.push(c);
            word_width += 1;
            if line + space_width + word_width > limit && word_width < limit {
                out.push('\n');
                line = 0;
                (space, space_width) = (String::new(), 0);
            }
        }
    }
    if !word.is_empty() || line + space_width <= limit {
        out.push_str(&space);
    }
    out.push_str(&word);
    out
}

/// The command line of `crd explain`: clap's definition is all it needs.
pub use super::args::ExplainArgs as Args;

/// Runs `crd explain`; returns the exit code. Failures are written to
/// `err` and give exit code 2.
pub fn command(args: &Args, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let (printed, failure) = match run(args) {
        Ok(text) => (text, None),
        Err(e) => (e.printed, Some(e.message)),
    };
    let message = match (failure, out.write_all(printed.as_bytes()).and_then(|()| out.flush())) {
        (None, Ok(())) => return 0,
        (Some(message), _) => message,
        (None, Err(e)) => e.to_string(),
    };
    // Nothing useful is left to do when stderr itself fails.
    let _ = writeln!(err, "error: {message}");
    2
}

/// Loads the CRDs, finds the resource and version, builds the document and
/// renders it.
fn run(args: &Args) -> Result<String, ExplainError> {
    let plain = |message: String| ExplainError { message, printed: String::new() };
    let crds = super::prune::load_crds(&args.crds).map_err(plain)?;
    let (crd, fields) = find_resource(&crds, &args.resource).map_err(plain)?;
    let spec = &crd.spec;
    let version = match &args.version {
        Some(v) if spec.served_version(v).is_ok() => v.as_str(),
        Some(v) => {
            let (group, plural) = (&spec.group, &spec.names.plural);
            return Err(plain(format!("couldn't find resource for \"{group}/{v}, Resource={plural}\"")));
        }
        None => openapi::preferred_version(spec)
            .ok_or_else(|| plain(format!("CRD {} serves no version", crd.metadata.name)))?,
    };
    let document =
        openapi::document(std::slice::from_ref(spec), version, Format::V3).map_err(|e| plain(e.to_string()))?;
    render(&document, (&spec.group, version, &spec.names.kind), &fields, args.recursive)
}

/// The CRD that `input`'s first dotted segment names (plural, singular,
/// short name or kind, case-insensitively; CRDs that serve no version are
/// not discoverable), and the field path after it. As kubectl's
/// `SplitAndParseResourceRequestWithMatchingPrefix`, `plural.group` is
/// recognised when the input starts with it; otherwise the first match
/// wins and the field path is everything after the first dot.
fn find_resource<'c>(
    crds: &'c [CustomResourceDefinition],
    input: &str,
) -> Result<(&'c CustomResourceDefinition, Vec<String>), String> {
    let input = input.strip_suffix('.').unwrap_or(input);
    let mut parts = input.split('.');
    let name = parts.next().unwrap_or_default().to_lowercase();
    let names = |crd: &CustomResourceDefinition| {
        let n = &crd.spec.names;
        [&n.plural, &n.singular, &n.kind].into_iter().chain(&n.short_names).any(|s| s.to_lowercase() == name)
    };
    let found: Vec<&CustomResourceDefinition> =
        crds.iter().filter(|c| c.spec.served_versions().next().is_some() && names(c)).collect();
    for crd in &found {
        let group_resource = match crd.spec.group.as_str() {
            "" => crd.spec.names.plural.clone(),
            group => format!("{}.{group}", crd.spec.names.plural),
        };
        if let Some(rest) = input.strip_prefix(&group_resource) {
            // kubectl drops the character after the prefix, whatever it is.
            let mut chars = rest.chars();
            let fields = match chars.next() {
                None => Vec::new(),
                Some(_) => chars.as_str().split('.').map(str::to_owned).collect(),
            };
            return Ok((crd, fields));
        }
    }
    match found.first() {
        Some(crd) => Ok((crd, parts.map(str::to_owned).collect())),
        None => Err(format!("the server doesn't have a resource type {}", gofmt::quote(&name))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_breaks_at_white_space_only() {
        assert_eq!(wrap(4, "ab"), "ab");
        assert_eq!(wrap(4, "abcdefgh"), "abcdefgh");
        assert_eq!(wrap(4, "ab cd ef"), "ab\ncd\nef");
        assert_eq!(wrap(4, "ab cdefg hijkl"), "ab\ncdefg\nhijkl");
        assert_eq!(wrap(4, "ab cde"), "ab\ncde");
        assert_eq!(wrap(7, "ab cd\u{a0}ef"), "ab\ncd\u{a0}ef");
    }

    #[test]
    fn wrap_keeps_line_breaks_and_drops_spaces_that_do_not_fit() {
        assert_eq!(wrap(4, "ab\nc\t d\n ef"), "ab\nc\t d\n ef");
        assert_eq!(wrap(4, "abc     \nd   ef   "), "abc\nd\nef");
        assert_eq!(wrap(4, "ab cd ef\n"), "ab\ncd\nef\n");
        assert_eq!(wrap(4, "\nab cd\n\n\nef\n"), "\nab\ncd\n\n\nef\n");
        assert_eq!(wrap(4, "é é é é "), "é é\né é ");
        assert_eq!(wrap(0, "a b"), "a b");
        assert_eq!(wrap(-3, "a b"), "a b");
    }

    #[test]
    fn long_urls_go_on_a_line_of_their_own() {
        let text = "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";
        assert_eq!(
            wrap(76, text),
            "Standard object's metadata. More info:\nhttps://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"
        );
    }

    #[test]
    fn enums_in_both_views() {
        let schema = serde_json::json!({"type": "string", "enum": ["A", "", 1000000, true, 1.5]});
        assert_eq!(extract_enum(&schema, true, None, 0), "ENUM:\n    A\n    \"\"\n    1e+06\n    true\n    1.5");
        assert_eq!(extract_enum(&schema, false, Some(4), 2), "  enum: A, \"\", 1e+06, true, ....");
        assert_eq!(extract_enum(&serde_json::json!({"enum": []}), true, None, 0), "");
    }

    #[test]
    fn references_resolve_locally_only() {
        let doc = serde_json::json!({"components": {"schemas": {"a.b": {"type": "string"}, "e": {}}}});
        assert_eq!(resolve_ref(&doc, "#/components/schemas/a.b"), Some(&serde_json::json!({"type": "string"})));
        assert_eq!(resolve_ref(&doc, "#/components/schemas/a%2Eb"), Some(&serde_json::json!({"type": "string"})));
        assert_eq!(resolve_ref(&doc, "#/components/schemas/x"), None);
        assert_eq!(resolve_ref(&doc, "#/components/schemas/%zz"), None);
        assert_eq!(resolve_ref(&doc, "http://x/y#/components"), None);
        assert_eq!(resolve_ref(&doc, "#"), None);
        assert!(resolve_ref(&doc, "#/").is_some());
    }
}
