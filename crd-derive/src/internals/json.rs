//! The JSON the derive writes at compile time (overlays of schema keywords,
//! the tag enums of tagged enums) and reads from `default_json` /
//! `example_json`. The derive cannot depend on serde_json (it would tie the
//! proc macro to the runtime's), so this is a small model, writer and
//! RFC 8259 parser.

use std::fmt::Write as _;

/// A JSON value; numbers keep their (valid JSON) text, objects their order.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Number(String),
    String(String),
    Array(Vec<Json>),
    Object(Object),
}

/// A JSON object in insertion order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Object(Vec<(String, Json)>);

impl Object {
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets `key`, replacing an earlier value in its place.
    pub fn insert(&mut self, key: &str, value: Json) {
        match self.0.iter_mut().find(|(k, _)| k == key) {
            Some((_, slot)) => *slot = value,
            None => self.0.push((key.to_owned(), value)),
        }
    }

    pub fn get(&self, key: &str) -> Option<&Json> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    pub fn get_mut(&mut self, key: &str) -> Option<&mut Json> {
        self.0.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The entries in order.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &Json)> {
        self.0.iter().map(|(k, v)| (k, v))
    }

    /// The object as JSON text.
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        write_object(&mut out, self);
        out
    }
}

impl Json {
    /// A string value.
    pub fn str(s: &str) -> Self {
        Self::String(s.to_owned())
    }

    /// An array of strings.
    pub fn strings<'a>(items: impl IntoIterator<Item = &'a str>) -> Self {
        Self::Array(items.into_iter().map(Self::str).collect())
    }

    /// An integer.
    pub fn int(n: i64) -> Self {
        Self::Number(n.to_string())
    }

    /// The value as JSON text.
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        write_value(&mut out, self);
        out
    }
}

fn write_value(out: &mut String, value: &Json) {
    match value {
        Json::Null => out.push_str("null"),
        Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Json::Number(n) => out.push_str(n),
        Json::String(s) => write_string(out, s),
        Json::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(out, item);
            }
            out.push(']');
        }
        Json::Object(object) => write_object(out, object),
    }
}

fn write_object(out: &mut String, object: &Object) {
    out.push('{');
    for (i, (key, value)) in object.0.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_string(out, key);
        out.push(':');
        write_value(out, value);
    }
    out.push('}');
}

fn write_string(out: &mut String, s: &str) {
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Parses JSON text (one value, surrounding whitespace allowed); the error
/// says what was expected and at which byte.
pub fn parse(text: &str) -> Result<Json, String> {
    let mut parser = Parser { bytes: text.as_bytes(), text, pos: 0, depth: 0 };
    let value = parser.value()?;
    parser.skip_whitespace();
    if parser.pos < parser.bytes.len() {
        return Err(parser.fail("end of input"));
    }
    Ok(value)
}

struct Parser<'a> {
    bytes: &'a [u8],
    text: &'a str,
    pos: usize,
    depth: usize,
}

/// Nesting deeper than this is refused rather than risking the stack of
/// the compiler.
const MAX_DEPTH: usize = 128;

impl Parser<'_> {
    fn fail(&self, expected: &str) -> String {
        format!("expected {expected} at byte {}", self.pos)
    }

    fn skip_whitespace(&mut self) {
        while self.bytes.get(self.pos).is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn eat(&mut self, literal: &str) -> bool {
        let found = self.text[self.pos..].starts_with(literal);
        if found {
            self.pos += literal.len();
        }
        found
    }

    fn value(&mut self) -> Result<Json, String> {
        self.skip_whitespace();
        match self.bytes.get(self.pos) {
            Some(b'{') => self.nested(Self::object),
            Some(b'[') => self.nested(Self::array),
            Some(b'"') => self.string().map(Json::String),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ if self.eat("true") => Ok(Json::Bool(true)),
            _ if self.eat("false") => Ok(Json::Bool(false)),
            _ if self.eat("null") => Ok(Json::Null),
            _ => Err(self.fail("a JSON value")),
        }
    }

    fn nested(&mut self, parse: fn(&mut Self) -> Result<Json, String>) -> Result<Json, String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(format!("nesting deeper than {MAX_DEPTH} at byte {}", self.pos));
        }
        let value = parse(self);
        self.depth -= 1;
        value
    }

    fn object(&mut self) -> Result<Json, String> {
        self.pos += 1;
        let mut object = Object::new();
        self.skip_whitespace();
        if self.eat("}") {
            return Ok(Json::Object(object));
        }
        loop {
            self.skip_whitespace();
            if self.bytes.get(self.pos) != Some(&b'"') {
                return Err(self.fail("a string key"));
            }
            let key = self.string()?;
            self.skip_whitespace();
            if !self.eat(":") {
                return Err(self.fail("`:`"));
            }
            let value = self.value()?;
            object.insert(&key, value);
            self.skip_whitespace();
            if self.eat("}") {
                return Ok(Json::Object(object));
            }
            if !self.eat(",") {
                return Err(self.fail("`,` or `}`"));
            }
        }
    }

    fn array(&mut self) -> Result<Json, String> {
        self.pos += 1;
        let mut items = Vec::new();
        self.skip_whitespace();
        if self.eat("]") {
            return Ok(Json::Array(items));
        }
        loop {
            items.push(self.value()?);
            self.skip_whitespace();
            if self.eat("]") {
                return Ok(Json::Array(items));
            }
            if !self.eat(",") {
                return Err(self.fail("`,` or `]`"));
            }
        }
    }

    fn string(&mut self) -> Result<String, String> {
        self.pos += 1;
        let mut out = String::new();
        loop {
            let rest = &self.text[self.pos..];
            let Some(ch) = rest.chars().next() else { return Err(self.fail("`\"`")) };
            self.pos += ch.len_utf8();
            match ch {
                '"' => return Ok(out),
                '\\' => out.push(self.escape()?),
                c if u32::from(c) < 0x20 => return Err(self.fail("an escaped control character")),
                c => out.push(c),
            }
        }
    }

    fn escape(&mut self) -> Result<char, String> {
        let Some(&b) = self.bytes.get(self.pos) else { return Err(self.fail("an escape")) };
        self.pos += 1;
        Ok(match b {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => return self.unicode_escape(),
            _ => return Err(self.fail("a valid escape")),
        })
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let digits = self.text.get(self.pos..self.pos + 4).ok_or_else(|| self.fail("four hex digits"))?;
        let code = u32::from_str_radix(digits, 16).map_err(|_| self.fail("four hex digits"))?;
        self.pos += 4;
        Ok(code)
    }

    fn unicode_escape(&mut self) -> Result<char, String> {
        let high = self.hex4()?;
        let code = if (0xD800..0xDC00).contains(&high) {
            if !self.eat("\\u") {
                return Err(self.fail("a low surrogate"));
            }
            let low = self.hex4()?;
            if !(0xDC00..0xE000).contains(&low) {
                return Err(self.fail("a low surrogate"));
            }
            0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
        } else {
            high
        };
        char::from_u32(code).ok_or_else(|| self.fail("a Unicode scalar value"))
    }

    // RFC 8259 numbers: `-`? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
    fn number(&mut self) -> Result<Json, String> {
        let start = self.pos;
        self.eat("-");
        if !self.eat("0") && self.digits() == 0 {
            return Err(self.fail("a digit"));
        }
        if self.eat(".") && self.digits() == 0 {
            return Err(self.fail("a digit after `.`"));
        }
        if self.eat("e") || self.eat("E") {
            let _ = self.eat("+") || self.eat("-");
            if self.digits() == 0 {
                return Err(self.fail("an exponent"));
            }
        }
        Ok(Json::Number(self.text[start..self.pos].to_owned()))
    }

    fn digits(&mut self) -> usize {
        let start = self.pos;
        while self.bytes.get(self.pos).is_some_and(u8::is_ascii_digit) {
            self.pos += 1;
        }
        self.pos - start
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_trip() {
        for text in [r#"{"a":[1,-2.5,3e10,true,false,null],"b":{"c":"d\"e\\f\n"}}"#, "[]", "{}", "0", r#""\u0001""#] {
            let value = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(value.to_json(), text);
        }
    }

    #[test]
    fn escapes_decode() {
        assert_eq!(parse(r#""\u00e9\ud83d\ude00\/""#), Ok(Json::str("é😀/")));
        assert_eq!(parse(" [ 1 , 2 ] "), Ok(Json::Array(vec![Json::int(1), Json::int(2)])));
    }

    #[test]
    fn bad_json_is_refused() {
        for text in ["", "{", "[1,]", "01", "1.", "{a:1}", "tru", "\"x", "1 2", "\"\\x\"", "-"] {
            assert!(parse(text).is_err(), "{text}");
        }
        assert_eq!(parse("[1,]"), Err("expected a JSON value at byte 3".to_owned()));
        let deep = "[".repeat(200);
        assert!(parse(&deep).is_err_and(|e| e.contains("nesting")));
    }

    #[test]
    fn objects_keep_order_and_replace() {
        let mut object = Object::new();
        object.insert("b", Json::int(1));
        object.insert("a", Json::int(2));
        object.insert("b", Json::int(3));
        assert_eq!(object.to_json(), r#"{"b":3,"a":2}"#);
    }
}
