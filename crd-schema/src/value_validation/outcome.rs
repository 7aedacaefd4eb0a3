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
///
/// Every check of every node returns one, and nearly all are empty, so an
/// outcome allocates nothing until it holds a message (a set per outcome
/// cost a quarter of value validation); the texts already held are
/// searched in place up to [`SCANNED_MESSAGES`], and through a set built
/// past that.
///
/// A quiet outcome keeps no messages, only whether there would have been
/// one: a junctor tries its branches quietly, since a passing branch, the
/// common case, discards the failing branches' messages, and building
/// their texts and paths was a fifth of value validation.
#[derive(Clone, Debug, Default)]
pub(crate) struct Outcome {
    pub messages: Vec<Message>,
    seen: Option<HashSet<String>>,
    pub count: usize,
    quiet: bool,
    failed: bool,
}

/// Messages up to which a new text is compared with each held one.
const SCANNED_MESSAGES: usize = 16;

impl Outcome {
    /// An empty outcome that keeps no messages.
    pub fn quiet() -> Self {
        Self { quiet: true, ..Self::default() }
    }

    /// Whether this outcome keeps no messages.
    pub fn is_quiet(&self) -> bool {
        self.quiet
    }

    /// Reports a failure: adds its message, built only here, unless one
    /// with the same text is already there; a quiet outcome only notes it.
    pub fn report(&mut self, message: impl FnOnce() -> Message) {
        if self.quiet {
            self.failed = true;
        } else {
            self.add(message());
        }
    }

    // Adds a message unless one with the same text is already there.
    fn add(&mut self, message: Message) {
        let new = match &mut self.seen {
            Some(seen) => seen.insert(message.text.clone()),
            None if self.messages.len() < SCANNED_MESSAGES => !self.messages.iter().any(|m| m.text == message.text),
            None => {
                let mut seen: HashSet<String> = self.messages.iter().map(|m| m.text.clone()).collect();
                let new = seen.insert(message.text.clone());
                self.seen = Some(seen);
                new
            }
        };
        if new {
            self.messages.push(message);
        }
    }

    /// Adds the other outcome's messages and match count.
    #[inline]
    pub fn merge(&mut self, other: Outcome) {
        self.count += other.count;
        self.failed |= other.failed;
        if other.messages.is_empty() {
            // Nearly every check's outcome: nothing to add, and nothing
            // to free.
            return;
        }
        if self.messages.is_empty() {
            // The other's messages are distinct already.
            self.messages = other.messages;
            self.seen = other.seen;
        } else {
            for m in other.messages {
                self.add(m);
            }
        }
    }

    /// Counts one more match.
    pub fn inc(&mut self) {
        self.count += 1;
    }

    /// The outcome of one check that adds into an outcome.
    #[cfg(test)]
    pub fn of(check: impl FnOnce(&mut Outcome)) -> Outcome {
        let mut out = Outcome::default();
        check(&mut out);
        out
    }

    /// Whether no message was reported.
    pub fn is_valid(&self) -> bool {
        self.messages.is_empty() && !self.failed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_texts_are_kept_once() {
        let mut a = Outcome::default();
        a.add(Message::plain("x".to_owned()));
        let mut b = Outcome::default();
        b.inc();
        b.add(Message::plain("x".to_owned()));
        b.add(Message::plain("y".to_owned()));
        a.merge(b);
        a.inc();
        assert_eq!(a.messages.len(), 2);
        assert_eq!(a.count, 2);
        assert!(!a.is_valid());
        let mut empty = Outcome::default();
        empty.inc();
        a.merge(empty);
        assert_eq!((a.messages.len(), a.count), (2, 3), "an outcome without messages adds its count only");
        assert!(Outcome::default().is_valid());
    }

    #[test]
    fn many_texts_are_kept_once_past_the_scan() {
        let mut a = Outcome::default();
        for round in 0..2 {
            let mut b = Outcome::default();
            for i in 0..40 {
                b.add(Message::plain(format!("m{}", i % 30)));
            }
            assert_eq!(b.messages.len(), 30);
            a.merge(b);
            assert_eq!(a.messages.len(), 30, "round {round}");
        }
        a.add(Message::plain("m0".to_owned()));
        a.add(Message::plain("new".to_owned()));
        assert_eq!(a.messages.len(), 31);
    }

    #[test]
    fn a_quiet_outcome_notes_failures_without_building_messages() {
        let mut quiet = Outcome::quiet();
        quiet.inc();
        assert!(quiet.is_valid());
        quiet.report(|| unreachable!("a quiet outcome builds no message"));
        assert!(!quiet.is_valid() && quiet.messages.is_empty());
        assert_eq!(quiet.count, 1);
        let mut loud = Outcome::default();
        loud.merge(quiet);
        assert!(!loud.is_valid(), "merging keeps the failure");
        assert_eq!(loud.count, 1);
        let mut loud = Outcome::default();
        loud.report(|| Message::plain("x".to_owned()));
        assert_eq!(loud.messages.len(), 1);
    }
}
