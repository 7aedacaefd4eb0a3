//! kubectl's explain template (`k8s.io/kubectl/pkg/explain/v2/templates/
//! plaintext.tmpl`), one method per sub-template: `output`,
//! `description`, `fieldList`, `fieldDetail`, `typeGuess`, and the
//! `extractEnum` and external-docs sections.

use serde_json::{Map, Value};

use super::MAX_DEPTH;
use super::gotemplate::{go_v, indent, resolve_ref, sorted, truthy, wrap};

/// The largest output the renderer produces (a `--recursive` walk over a
/// hostile document can grow exponentially).
const MAX_OUTPUT: usize = 64 << 20;

/// The template's sub-templates, as methods. Each returns what the
/// template would emit, or the message of a template error.
pub(super) struct Renderer<'a> {
    document: &'a Value,
    recursive: bool,
}

type Step<T> = Result<T, String>;

impl<'a> Renderer<'a> {
    /// A renderer over `document`; `recursive` is `--recursive`.
    pub(super) fn new(document: &'a Value, recursive: bool) -> Self {
        Self { document, recursive }
    }

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
    pub(super) fn output(&self, schema: &'a Value, history: &[&'a str], path: &[String], depth: usize) -> Step<String> {
        let depth = Self::deeper(depth)?;
        let resolved = self.resolve(schema);
        let Some((first, rest)) = path.split_first() else {
            return self.described(resolved, depth);
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

    /// The end of the `output` template's path: the DESCRIPTION section
    /// (`<empty>` without one), the external docs and the FIELDS section.
    fn described(&self, resolved: &'a Value, depth: usize) -> Step<String> {
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
        Ok(out)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enums_in_both_views() {
        let schema = serde_json::json!({"type": "string", "enum": ["A", "", 1000000, true, 1.5]});
        assert_eq!(extract_enum(&schema, true, None, 0), "ENUM:\n    A\n    \"\"\n    1e+06\n    true\n    1.5");
        assert_eq!(extract_enum(&schema, false, Some(4), 2), "  enum: A, \"\", 1e+06, true, ....");
        assert_eq!(extract_enum(&serde_json::json!({"enum": []}), true, None, 0), "");
    }

    #[test]
    fn defaults_are_our_addition() {
        let text = |default| default_text(&serde_json::json!({"default": default}));
        assert_eq!(text(serde_json::json!("a")), Some("a".to_owned()));
        assert_eq!(text(serde_json::json!("")), Some("\"\"".to_owned()));
        assert_eq!(text(serde_json::json!({"b": [1]})), Some("{\"b\":[1]}".to_owned()));
        assert_eq!(text(serde_json::Value::Null), None);
    }
}
