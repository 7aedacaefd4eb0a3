//! Timestamps as `metav1.Time` reads and writes them: parsed with Go's
//! `time.Parse(time.RFC3339, s)` (including its leniency and its error
//! texts) and written in UTC with second precision.
//!
//! Entry points: [`Time::parse_rfc3339`] and [`Time::to_rfc3339`]. Parsing
//! never panics; a bad input is a [`TimeParseError`], Go's
//! `*time.ParseError`, displayed with Go's text.

/// Seconds from the Unix epoch to `0001-01-01T00:00:00Z`, Go's zero time.
const ZERO_UNIX: i64 = -62_135_596_800;

/// The layout of `time.RFC3339`, quoted in parse errors.
const LAYOUT: &str = "2006-01-02T15:04:05Z07:00";

/// Why [`Time::parse_rfc3339`] failed: Go's `*time.ParseError`, displayed
/// as Go's `Error()` renders it (strings quoted as `strconv.Quote` does for
/// ASCII, other bytes as `\x..`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeParseError {
    /// An element of the layout does not match the input:
    /// `parsing time "2020/01/01" as "2006-01-02T15:04:05Z07:00": cannot
    /// parse "/01/01" as "-"`.
    #[error(
        "parsing time {} as {}: cannot parse {} as {}",
        quote(.value.as_bytes()),
        quote(LAYOUT.as_bytes()),
        quote(.value_elem),
        quote(.layout_elem.as_bytes())
    )]
    Element {
        /// The whole input.
        value: String,
        /// The input from where the element failed (bytes: the cut may fall
        /// inside a character, as in Go).
        value_elem: Vec<u8>,
        /// The layout element (`2006`, `-`, `Z07:00`, ...).
        layout_elem: &'static str,
    },
    /// A field out of range or extra text: `parsing time
    /// "2020-13-01T00:00:00Z": month out of range`.
    #[error("parsing time {}{message}", quote(.value.as_bytes()))]
    Message {
        /// The whole input.
        value: String,
        /// Go's message, with its leading `: ` (`: month out of range`,
        /// `: extra text: "x"`).
        message: String,
    },
}

/// An instant: seconds since the Unix epoch and nanoseconds within the
/// second. The default is Go's zero time (`0001-01-01T00:00:00Z`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Time {
    unix: i64,
    nanos: u32,
}

impl Default for Time {
    fn default() -> Self {
        Self::ZERO
    }
}

impl Time {
    /// Go's zero `time.Time`.
    pub const ZERO: Time = Time { unix: ZERO_UNIX, nanos: 0 };

    /// The instant `unix` seconds (plus `nanos`) after the Unix epoch.
    pub fn from_unix(unix: i64, nanos: u32) -> Self {
        Self { unix: unix.saturating_add(i64::from(nanos / 1_000_000_000)), nanos: nanos % 1_000_000_000 }
    }

    /// Seconds since the Unix epoch.
    pub fn unix(&self) -> i64 {
        self.unix
    }

    /// Nanoseconds within the second.
    pub fn nanos(&self) -> u32 {
        self.nanos
    }

    /// Whether this is Go's zero time (which `metav1.Time` writes as `null`).
    pub fn is_zero(&self) -> bool {
        *self == Self::ZERO
    }

    /// Parses `s` as Go's `time.Parse(time.RFC3339, s)` does.
    pub fn parse_rfc3339(s: &str) -> Result<Time, TimeParseError> {
        Parser { all: s.as_bytes(), rest: s.as_bytes() }.parse()
    }

    /// Go's `t.UTC().Format(time.RFC3339)`: `2006-01-02T15:04:05Z`, no
    /// fraction; years outside 0..=9999 as Go prints them (`-0001`, `10000`).
    pub fn to_rfc3339(&self) -> String {
        let days = self.unix.div_euclid(86_400);
        let secs = self.unix.rem_euclid(86_400);
        let (year, month, day) = civil_from_days(days);
        let year_text = if year < 0 { format!("-{:04}", -year) } else { format!("{year:04}") };
        format!("{year_text}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z", secs / 3600, secs % 3600 / 60, secs % 60)
    }
}

/// The date fields of a parse, before the zone is applied.
#[derive(Default)]
struct Fields {
    year: i64,
    month: i64,
    day: i64,
    hour: i64,
    minute: i64,
    second: i64,
    nanos: u32,
    offset: i64,
}

/// Why one layout element failed: Go's `ParseError` without the layout and
/// value, which are always the same here.
enum Failure<'a> {
    /// `cannot parse "<value>" as "<layout element>"`.
    Element(&'a [u8], &'static str),
    /// `: <what> out of range`, `: extra text: "..."`.
    Message(String),
}

struct Parser<'a> {
    all: &'a [u8],
    rest: &'a [u8],
}

impl<'a> Parser<'a> {
    // The layout is walked element by element as Go's general parser does
    // (its RFC 3339 fast path accepts a subset with the same results): a
    // literal that does not match reports the remaining input; an element
    // that does not parse reports the input it started at; a field out of
    // range reports only its name.
    fn parse(mut self) -> Result<Time, TimeParseError> {
        // The input came in as a `&str`: the conversion loses nothing.
        let all = self.all;
        let value = || String::from_utf8_lossy(all).into_owned();
        self.fields().map(to_time).map_err(|failure| match failure {
            Failure::Element(value_elem, layout_elem) => {
                TimeParseError::Element { value: value(), value_elem: value_elem.to_vec(), layout_elem }
            }
            Failure::Message(message) => TimeParseError::Message { value: value(), message },
        })
    }

    fn fields(&mut self) -> Result<Fields, Failure<'a>> {
        let mut f = Fields { year: self.long_year()?, ..Fields::default() };
        self.literal("-")?;
        f.month = self.number("01", true, |m| (1..=12).contains(&m), "month")?;
        self.literal("-")?;
        f.day = self.number("02", true, |_| true, "day")?;
        self.literal("T")?;
        f.hour = self.number("15", false, |h| (0..24).contains(&h), "hour")?;
        self.literal(":")?;
        f.minute = self.number("04", true, |m| (0..60).contains(&m), "minute")?;
        self.literal(":")?;
        f.second = self.number("05", true, |s| (0..60).contains(&s), "second")?;
        f.nanos = self.fraction();
        f.offset = self.zone()?;
        if !self.rest.is_empty() {
            return Err(Failure::Message(format!(": extra text: {}", quote(self.rest))));
        }
        if f.day < 1 || f.day > days_in(f.month, f.year) {
            return Err(Failure::Message(": day out of range".to_owned()));
        }
        Ok(f)
    }

    // `2006`: four bytes starting with a digit, all digits.
    fn long_year(&mut self) -> Result<i64, Failure<'a>> {
        let hold = self.rest;
        match hold.get(..4) {
            Some(digits) if digits.iter().all(u8::is_ascii_digit) => {
                self.rest = &hold[4..];
                Ok(digits.iter().fold(0, |n, d| n * 10 + i64::from(d - b'0')))
            }
            _ => Err(Failure::Element(hold, "2006")),
        }
    }

    fn literal(&mut self, text: &'static str) -> Result<(), Failure<'a>> {
        match self.rest.strip_prefix(text.as_bytes()) {
            Some(rest) => {
                self.rest = rest;
                Ok(())
            }
            None => Err(Failure::Element(self.rest, text)),
        }
    }

    // Go's `getnum`: one or two digits (two when `fixed`), then the range
    // check of the element.
    fn number(
        &mut self,
        element: &'static str,
        fixed: bool,
        in_range: fn(i64) -> bool,
        name: &str,
    ) -> Result<i64, Failure<'a>> {
        let (n, rest) = getnum(self.rest, fixed).ok_or(Failure::Element(self.rest, element))?;
        self.rest = rest;
        if in_range(n) { Ok(n) } else { Err(Failure::Message(format!(": {name} out of range"))) }
    }

    // A fraction after the seconds is accepted although the layout has
    // none: `.` or `,` and digits, of which the first nine count.
    fn fraction(&mut self) -> u32 {
        let r = self.rest;
        if r.len() < 2 || !matches!(r[0], b'.' | b',') || !r[1].is_ascii_digit() {
            return 0;
        }
        let n = 1 + r[1..].iter().take_while(|c| c.is_ascii_digit()).count();
        self.rest = &r[n..];
        let digits = &r[1..n.min(10)];
        let value = digits.iter().fold(0u32, |v, d| v * 10 + u32::from(d - b'0'));
        value * 10u32.pow(9 - digits.len() as u32)
    }

    // `Z07:00`: `Z`, or a sign, two digits, `:`, two digits. Offsets up to
    // 24 hours and 60 minutes are accepted, as Go does.
    fn zone(&mut self) -> Result<i64, Failure<'a>> {
        let hold = self.rest;
        if let Some(rest) = hold.strip_prefix(b"Z") {
            self.rest = rest;
            return Ok(0);
        }
        if hold.len() < 6 || hold[3] != b':' {
            return Err(Failure::Element(hold, "Z07:00"));
        }
        self.rest = &hold[6..];
        let hours = getnum(&hold[1..3], true);
        let minutes = hours.and_then(|_| getnum(&hold[4..6], true));
        let (hr, mm) = (hours.map_or(0, |h| h.0), minutes.map_or(0, |m| m.0));
        if mm > 60 {
            return Err(Failure::Message(": time zone offset minute out of range".to_owned()));
        }
        if hr > 24 {
            return Err(Failure::Message(": time zone offset hour out of range".to_owned()));
        }
        let offset = (hr * 60 + mm) * 60;
        match (hold[0], minutes) {
            (b'+', Some(_)) => Ok(offset),
            (b'-', Some(_)) => Ok(-offset),
            _ => Err(Failure::Element(hold, "Z07:00")),
        }
    }
}

// Go's `getnum`: the value of one or two leading digits and the rest.
fn getnum(s: &[u8], fixed: bool) -> Option<(i64, &[u8])> {
    let d0 = *s.first().filter(|c| c.is_ascii_digit())?;
    match s.get(1).filter(|c| c.is_ascii_digit()) {
        Some(d1) => Some((i64::from(d0 - b'0') * 10 + i64::from(d1 - b'0'), &s[2..])),
        None if fixed => None,
        None => Some((i64::from(d0 - b'0'), &s[1..])),
    }
}

fn to_time(f: Fields) -> Time {
    let days = days_from_civil(f.year, f.month, f.day);
    let unix = days * 86_400 + f.hour * 3600 + f.minute * 60 + f.second - f.offset;
    Time { unix, nanos: f.nanos }
}

fn is_leap(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

fn days_in(month: i64, year: i64) -> i64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's
// algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

// The `quote` of Go's time package: bytes below space or above ASCII as
// `\xNN`, `"` and `\` escaped, everything else as is.
fn quote(s: &[u8]) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for &b in s {
        match b {
            b'"' | b'\\' => {
                out.push('\\');
                out.push(char::from(b));
            }
            0x20..=0x7f => out.push(char::from(b)),
            _ => out.push_str(&format!("\\x{b:02x}")),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utc(s: &str) -> String {
        Time::parse_rfc3339(s).map(|t| t.to_rfc3339()).unwrap_or_else(|e| e.to_string())
    }

    #[test]
    fn parse_error_display_is_go_text() {
        let element = Time::parse_rfc3339("2020/01/01").unwrap_err();
        assert_eq!(
            element,
            TimeParseError::Element {
                value: "2020/01/01".to_owned(),
                value_elem: b"/01/01".to_vec(),
                layout_elem: "-"
            }
        );
        assert_eq!(
            element.to_string(),
            r#"parsing time "2020/01/01" as "2006-01-02T15:04:05Z07:00": cannot parse "/01/01" as "-""#
        );
        let message = Time::parse_rfc3339("2020-13-01T00:00:00Z").unwrap_err();
        assert!(matches!(&message, TimeParseError::Message { message, .. } if message == ": month out of range"));
        assert_eq!(message.to_string(), r#"parsing time "2020-13-01T00:00:00Z": month out of range"#);
    }

    #[test]
    fn parses_and_normalizes_to_utc() {
        assert_eq!(utc("2020-01-01T01:00:00+01:00"), "2020-01-01T00:00:00Z");
        assert_eq!(utc("2020-02-29T23:30:00-01:00"), "2020-03-01T00:30:00Z");
        assert_eq!(utc("2020-01-01T00:00:00.999999999Z"), "2020-01-01T00:00:00Z");
        assert_eq!(utc("2020-01-01T1:00:00Z"), "2020-01-01T01:00:00Z");
        assert_eq!(utc("1970-01-01T00:00:00Z"), "1970-01-01T00:00:00Z");
        assert_eq!(utc("0000-01-01T00:00:00+01:00"), "-0001-12-31T23:00:00Z");
        assert_eq!(utc("9999-12-31T23:00:00-01:00"), "10000-01-01T00:00:00Z");
    }

    #[test]
    fn zero_time() {
        assert!(Time::parse_rfc3339("0001-01-01T00:00:00Z").unwrap().is_zero());
        assert!(Time::parse_rfc3339("0001-01-01T01:00:00+01:00").unwrap().is_zero());
        assert!(!Time::parse_rfc3339("0001-01-01T00:00:00.5Z").unwrap().is_zero());
        assert!(Time::default().is_zero());
        assert_eq!(Time::from_unix(0, 1_500_000_000), Time::from_unix(1, 500_000_000));
    }

    #[test]
    fn errors_read_like_go() {
        assert_eq!(utc("a"), r#"parsing time "a" as "2006-01-02T15:04:05Z07:00": cannot parse "a" as "2006""#);
        assert_eq!(
            utc("2020/01/01"),
            r#"parsing time "2020/01/01" as "2006-01-02T15:04:05Z07:00": cannot parse "/01/01" as "-""#
        );
        assert_eq!(utc("2020-13-01T00:00:00Z"), r#"parsing time "2020-13-01T00:00:00Z": month out of range"#);
        assert_eq!(utc("2021-02-29T00:00:00Z"), r#"parsing time "2021-02-29T00:00:00Z": day out of range"#);
        assert_eq!(utc("2020-01-01T24:00:00Z"), r#"parsing time "2020-01-01T24:00:00Z": hour out of range"#);
        assert_eq!(utc("2020-01-01T00:00:00Zx"), r#"parsing time "2020-01-01T00:00:00Zx": extra text: "x""#);
        assert_eq!(
            utc("2020-01-01T00:00:00"),
            r#"parsing time "2020-01-01T00:00:00" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "Z07:00""#
        );
        assert_eq!(
            utc("2020-01-01T00:00:00*01:00"),
            "parsing time \"2020-01-01T00:00:00*01:00\" as \"2006-01-02T15:04:05Z07:00\": \
             cannot parse \"*01:00\" as \"Z07:00\""
        );
        assert_eq!(
            utc("2020-01-01T00:00:00+25:00"),
            r#"parsing time "2020-01-01T00:00:00+25:00": time zone offset hour out of range"#
        );
        assert_eq!(
            utc("é"),
            r#"parsing time "\xc3\xa9" as "2006-01-02T15:04:05Z07:00": cannot parse "\xc3\xa9" as "2006""#
        );
    }

    #[test]
    fn never_panics_on_short_or_odd_input() {
        for s in ["", "2", "2020-", "2020-1", "2020-01-01T", "2020-01-01T00:00:00+", "2020-01-01T00:00:00.", "9999-99"]
        {
            assert!(Time::parse_rfc3339(s).is_err(), "{s}");
        }
    }
}
