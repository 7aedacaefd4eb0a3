//! kube-openapi's `Result`: the messages of a validation and its match
//! count, which decides which failing `anyOf`/`oneOf` branch is reported.

use std::collections::HashSet;

use serde_json::Value;

/// Which kube-openapi error a message is; the mapping to field errors
/// depends on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Code {
    /// Type and format mismatches (`InvalidTypeCode`).
    InvalidType,
    /// A missing required property.
    Required,
    /// `maxLength`.
    TooLong,
    /// `enum`.
    Enum,
    /// `maxItems`.
    MaxItems,
    /// `maxProperties`.
    TooManyProperties,
    /// Every other field message (`minLength`, `pattern`, bounds, ...).
    Field,
    /// Not a field message: junctor and number-range messages.
    Plain,
}

/// One message (kube-openapi's `errors.Validation`, or a plain error).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Message {
    pub code: Code,
    /// The value path in Go's form (`a.b[0]`, `.k` for root map keys).
    pub name: String,
    /// The value the error carries; `None` is Go's `nil`.
    pub value: Option<Value>,
    /// The limit of `maxLength`, `maxItems` and `maxProperties` messages.
    pub limit: i64,
    /// The allowed values of an `enum` message.
    pub values: Vec<Value>,
    /// The message text.
    pub text: String,
}

impl Message {
    /// A message with a value.
    pub fn new(code: Code, name: impl std::fmt::Display, value: Option<Value>, text: String) -> Self {
        Self { code, name: name.to_string(), value, limit: 0, values: Vec::new(), text }
    }

    /// A plain message, not tied to a field.
    pub fn plain(text: String) -> Self {
        Self::new(Code::Plain, "", None, text)
    }

    /// This message with a limit.
    #[must_use]
    pub fn with_limit(mut self, limit: i64) -> Self {
        self.limit = limit;
        self
    }
}

/// Messages, each text once, and the match count.
#[derive(Clone, Debug, Default)]
pub(crate) struct Outcome {
    pub messages: Vec<Message>,
    seen: HashSet<String>,
    pub count: usize,
}

impl Outcome {
    /// An outcome holding one message and no matches (`errorHelp.sErr`).
    pub fn error(message: Message) -> Self {
        let mut o = Self::default();
        o.add(message);
        o
    }

    /// A successful check, counted once.
    pub fn counted() -> Self {
        Self { count: 1, ..Self::default() }
    }

    /// Adds a message unless one with the same text is already there.
    pub fn add(&mut self, message: Message) {
        if self.seen.insert(message.text.clone()) {
            self.messages.push(message);
        }
    }

    /// Adds the other outcome's messages and match count.
    pub fn merge(&mut self, other: Outcome) {
        for m in other.messages {
            self.add(m);
        }
        self.count += other.count;
    }

    /// Counts one more match.
    pub fn inc(&mut self) {
        self.count += 1;
    }

    /// Whether no message was reported.
    pub fn is_valid(&self) -> bool {
        self.messages.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_texts_are_kept_once() {
        let mut a = Outcome::error(Message::plain("x".to_owned()));
        let mut b = Outcome::counted();
        b.add(Message::plain("x".to_owned()));
        b.add(Message::plain("y".to_owned()));
        a.merge(b);
        a.inc();
        assert_eq!(a.messages.len(), 2);
        assert_eq!(a.count, 2);
        assert!(!a.is_valid());
        assert!(Outcome::counted().is_valid());
    }
}
