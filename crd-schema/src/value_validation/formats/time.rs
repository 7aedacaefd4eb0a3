//! `date`, `datetime` and `duration` (kube-openapi's `strfmt`).

/// `date`: Go's `time.Parse("2006-01-02", s)`: four-digit year, two-digit
/// month and day, an existing day.
pub(super) fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let number = |range: std::ops::Range<usize>| -> Option<u32> {
        b[range].iter().try_fold(0u32, |acc, d| d.is_ascii_digit().then(|| acc * 10 + u32::from(d - b'0')))
    };
    let (Some(year), Some(month), Some(day)) = (number(0..4), number(5..7), number(8..10)) else { return false };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

/// `datetime`: lower-cased and split at every `t`, the first part is a
/// date and the second matches
/// `^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$`
/// with hours up to 23 and minutes and seconds up to 59 (any later parts
/// are ignored, as kube-openapi does).
pub(super) fn is_date_time(s: &str) -> bool {
    if s.len() < 4 {
        return false;
    }
    let lower = s.to_ascii_lowercase();
    let mut parts = lower.split('t');
    let (Some(date), Some(time)) = (parts.next(), parts.next()) else { return false };
    is_date(date) && is_time(time)
}

fn is_time(t: &str) -> bool {
    let b = t.as_bytes();
    if b.len() < 9 || b[2] != b':' || b[5] != b':' {
        return false;
    }
    let two = |i: usize| b[i].is_ascii_digit() && b[i + 1].is_ascii_digit();
    if !(two(0) && two(3) && two(6)) || &t[0..2] > "23" || &t[3..5] > "59" || &t[6..8] > "59" {
        return false;
    }
    let rest = &t[8..];
    is_zone(rest) || fraction_then_zone(rest)
}

// `(.[0-9]+)` followed by the zone: any character but a newline, digits.
fn fraction_then_zone(rest: &str) -> bool {
    let mut chars = rest.chars();
    match chars.next() {
        Some(c) if c != '\n' => {
            let after = chars.as_str();
            let digits = after.bytes().take_while(u8::is_ascii_digit).count();
            digits > 0 && is_zone(&after[digits..])
        }
        _ => false,
    }
}

fn is_zone(z: &str) -> bool {
    let b = z.as_bytes();
    z == "z"
        || (b.len() == 6
            && matches!(b[0], b'+' | b'-')
            && b[1].is_ascii_digit()
            && b[2].is_ascii_digit()
            && b[3] == b':'
            && b[4].is_ascii_digit()
            && b[5].is_ascii_digit())
}

/// `duration`: Go's `time.ParseDuration`, or else the Scala-like form
/// `^\s*(?:\d+\s*[A-Za-zµ]+\s*)+$` where some unit is known (`ns`, `us`,
/// `ms`, `s`, `m`, `h`, `d`, `w` and their long names) and every number
/// fits an `int`.
pub(super) fn is_duration(s: &str) -> bool {
    go_duration_nanos(s).is_some() || scala_duration(s)
}

/// Go's `time.ParseDuration`: `[-+]?([0-9]*(\.[0-9]*)?[a-z]+)+` with the
/// units `ns`, `us`, `µs`, `μs`, `ms`, `s`, `m`, `h`, within ±2^63
/// nanoseconds; the duration in nanoseconds, Go's rounding included.
pub(crate) fn go_duration_nanos(s: &str) -> Option<i64> {
    let (neg, mut rest) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if rest == "0" {
        return Some(0);
    }
    if rest.is_empty() {
        return None;
    }
    let mut total: u64 = 0;
    while !rest.is_empty() {
        let (nanos, tail) = duration_term(rest)?;
        total = total.checked_add(nanos).filter(|t| *t <= 1 << 63)?;
        rest = tail;
    }
    if neg {
        // -2^63 is the one magnitude that only fits negated.
        Some(0i64.wrapping_sub_unsigned(total))
    } else {
        i64::try_from(total).ok()
    }
}

// One `number unit` term: its nanoseconds and the rest of the text.
fn duration_term(s: &str) -> Option<(u64, &str)> {
    let b = s.as_bytes();
    if !(b[0] == b'.' || b[0].is_ascii_digit()) {
        return None;
    }
    let int_len = b.iter().take_while(|c| c.is_ascii_digit()).count();
    let mut whole: u64 = 0;
    for d in &b[..int_len] {
        whole = whole.checked_mul(10)?.checked_add(u64::from(d - b'0'))?;
        if whole > 1 << 63 {
            return None;
        }
    }
    let mut i = int_len;
    let (mut fraction, mut scale, mut frac_len) = (0u64, 1f64, 0usize);
    if b.get(i) == Some(&b'.') {
        (fraction, scale, frac_len) = leading_fraction(&b[i + 1..]);
        i += 1 + frac_len;
    }
    if int_len == 0 && frac_len == 0 {
        return None;
    }
    let unit_len = b[i..].iter().take_while(|&&c| c != b'.' && !c.is_ascii_digit()).count();
    let unit = unit_nanos(&s[i..i + unit_len])?;
    let mut v = whole.checked_mul(unit).filter(|v| *v <= 1 << 63)?;
    if fraction > 0 {
        // Go adds `uint64(float64(f) * (float64(unit) / scale))`.
        v = v.checked_add((fraction as f64 * (unit as f64 / scale)) as u64).filter(|v| *v <= 1 << 63)?;
    }
    Some((v, &s[i + unit_len..]))
}

// Go's `leadingFraction`: the digits' value (frozen once it would pass
// 2^63), the matching power of ten, and the number of digits.
fn leading_fraction(b: &[u8]) -> (u64, f64, usize) {
    let (mut fraction, mut scale, mut overflow) = (0u64, 1f64, false);
    let len = b.iter().take_while(|c| c.is_ascii_digit()).count();
    for d in &b[..len] {
        let next = fraction.checked_mul(10).and_then(|f| f.checked_add(u64::from(d - b'0')));
        match next {
            Some(n) if !overflow && n <= 1 << 63 => {
                fraction = n;
                scale *= 10.0;
            }
            _ => overflow = true,
        }
    }
    (fraction, scale, len)
}

fn unit_nanos(unit: &str) -> Option<u64> {
    Some(match unit {
        "ns" => 1,
        "us" | "\u{b5}s" | "\u{3bc}s" => 1_000,
        "ms" => 1_000_000,
        "s" => 1_000_000_000,
        "m" => 60_000_000_000,
        "h" => 3_600_000_000_000,
        _ => return None,
    })
}

// Go's `\s`.
fn is_go_space(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\x0C' | '\r' | ' ')
}

// The Scala-like form: `number unit` groups with optional white space;
// valid when every number fits an `int` and some unit is known.
fn scala_duration(s: &str) -> bool {
    let mut rest = s.trim_start_matches(is_go_space);
    if rest.is_empty() {
        return false;
    }
    let mut known = false;
    while !rest.is_empty() {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 || rest[..digits].parse::<i64>().is_err() {
            return false;
        }
        rest = rest[digits..].trim_start_matches(is_go_space);
        let letters = rest.chars().take_while(|c| c.is_ascii_alphabetic() || *c == '\u{b5}').map(char::len_utf8).sum();
        if letters == 0 {
            return false;
        }
        known |= scala_unit_known(&rest[..letters].to_lowercase());
        rest = rest[letters..].trim_start_matches(is_go_space);
    }
    known
}

// A unit is known when it equals a variant, or starts with the last (long)
// variant of its group.
fn scala_unit_known(unit: &str) -> bool {
    const UNITS: &[&[&str]] = &[
        &["ns", "nano"],
        &["us", "\u{b5}s", "micro"],
        &["ms", "milli"],
        &["s", "sec"],
        &["m", "min"],
        &["h", "hr", "hour"],
        &["d", "day"],
        &["w", "wk", "week"],
    ];
    UNITS.iter().any(|variants| {
        variants.iter().enumerate().any(|(i, v)| unit == *v || (i == variants.len() - 1 && unit.starts_with(v)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert!(is_date("2006-01-02") && is_date("2000-02-29") && is_date("0000-02-29"));
        assert!(!is_date("2006-13-02") && !is_date("1900-02-29") && !is_date("2006-1-02") && !is_date("2006-01-02x"));
    }

    #[test]
    fn date_times() {
        assert!(is_date_time("2014-12-15T19:30:20.000Z") && is_date_time("2014-12-15t19:30:20+01:00"));
        assert!(is_date_time("2014-12-15T19:30:20Z") && is_date_time("2014-12-15T19:30:20x5Z"));
        assert!(!is_date_time("2014-12-15T24:30:20Z") && !is_date_time("2014-12-15 19:30:20Z"));
        assert!(!is_date_time("2014-12-15T19:30:20") && !is_date_time("2014-12-15T19:30:20.Z"));
    }

    #[test]
    fn durations() {
        for ok in ["1h30m", "-1.5s", "0", "+3ms", ".5h", "2 days", "3 weeks 4 hours", " 5 min ", "1ns1xyz", "100µs"] {
            assert!(is_duration(ok), "{ok}");
        }
        for bad in [
            "",
            "1",
            "h",
            "1x",
            "-",
            "10000000000000000000h",
            "9223372036854775808ns",
            "1.s.",
            "99999999999999999999 days",
        ] {
            assert!(!is_duration(bad), "{bad}");
        }
        assert!(is_duration("-9223372036854775808ns"));
    }
}
