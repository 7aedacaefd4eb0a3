//! Go's textual forms of durations and timestamps: `time.ParseDuration`,
//! kube-openapi's `strfmt` parsers for the schema formats `duration`,
//! `date` and `date-time`, and the strings cel-go makes of both.

use chrono::{DateTime, FixedOffset, NaiveDate, NaiveDateTime, TimeDelta, Utc};

/// Go's `time.ParseDuration` (the format checks' parser): a signed
/// sequence of decimal numbers with units `ns`, `us` (`µs`, `μs`), `ms`,
/// `s`, `m`, `h`, such as `1h30m` or `-1.5s`; `0` alone is allowed. `None`
/// on any syntax error or overflow.
pub(crate) fn parse_go_duration(s: &str) -> Option<TimeDelta> {
    crate::value_validation::go_duration_nanos(s).map(TimeDelta::nanoseconds)
}

/// The schema format `duration` (kube-openapi `strfmt.ParseDuration`): Go's
/// syntax, or a sequence of `<integer><unit>` with units `ns`, `us`, `ms`,
/// `s`, `m`, `h`, `d`, `w` (also spelled out) and optional spaces.
pub(crate) fn parse_schema_duration(s: &str) -> Option<TimeDelta> {
    if let Some(d) = parse_go_duration(s) {
        return Some(d);
    }
    let mut total = TimeDelta::zero();
    let mut found = false;
    let mut rest = s.trim_start();
    while !rest.is_empty() {
        let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
        if digits == 0 {
            return None;
        }
        let factor: i64 = rest[..digits].parse().ok()?;
        let after = rest[digits..].trim_start();
        let unit_len = after.find(|c: char| !(c.is_alphabetic())).unwrap_or(after.len());
        let unit = after[..unit_len].to_ascii_lowercase();
        let one = match unit.trim_end_matches('s') {
            "n" | "nano" | "nanosecond" => TimeDelta::nanoseconds(1),
            "u" | "µ" | "micro" | "microsecond" => TimeDelta::microseconds(1),
            "m" if unit == "ms" => TimeDelta::milliseconds(1),
            "milli" | "millisecond" => TimeDelta::milliseconds(1),
            "" | "sec" | "second" => TimeDelta::seconds(1),
            "m" | "min" | "minute" => TimeDelta::minutes(1),
            "h" | "hr" | "hour" => TimeDelta::hours(1),
            "d" | "day" => TimeDelta::days(1),
            "w" | "wk" | "week" => TimeDelta::weeks(1),
            _ => return None,
        };
        total = total.checked_add(&one.checked_mul(i32::try_from(factor).ok()?)?)?;
        found = true;
        rest = after[unit_len..].trim_start();
    }
    found.then_some(total)
}

/// The schema format `date`: `YYYY-MM-DD`, at midnight UTC.
pub(crate) fn parse_date(s: &str) -> Option<DateTime<FixedOffset>> {
    let date = NaiveDate::parse_from_str(s, "%Y-%m-%d").ok()?;
    Some(date.and_hms_opt(0, 0, 0)?.and_utc().fixed_offset())
}

/// The schema format `date-time` (kube-openapi `strfmt.ParseDateTime`):
/// RFC 3339, also without seconds, without a colon in the offset, or
/// without an offset (UTC).
pub(crate) fn parse_date_time(s: &str) -> Option<DateTime<FixedOffset>> {
    if let Ok(t) = DateTime::parse_from_rfc3339(s) {
        return Some(t);
    }
    for layout in ["%Y-%m-%dT%H:%M:%S%.f%z", "%Y-%m-%dT%H:%M%z", "%Y-%m-%dT%H:%M%:z"] {
        if let Ok(t) = DateTime::parse_from_str(s, layout) {
            return Some(t);
        }
    }
    let s = s.strip_suffix('Z').unwrap_or(s);
    for layout in ["%Y-%m-%dT%H:%M:%S%.f", "%Y-%m-%dT%H:%M"] {
        if let Ok(t) = NaiveDateTime::parse_from_str(s, layout) {
            return Some(t.and_utc().fixed_offset());
        }
    }
    None
}

/// CEL's `timestamp(string)`: RFC 3339.
pub(crate) fn parse_timestamp(s: &str) -> Option<DateTime<FixedOffset>> {
    DateTime::parse_from_rfc3339(s).ok()
}

/// Go's `time.RFC3339Nano` form, fraction without trailing zeros.
pub(crate) fn format_timestamp(t: &DateTime<FixedOffset>) -> String {
    let mut out = t.format("%Y-%m-%dT%H:%M:%S").to_string();
    let nanos = t.timestamp_subsec_nanos();
    if nanos > 0 {
        let fraction = format!("{nanos:09}");
        out.push('.');
        out.push_str(fraction.trim_end_matches('0'));
    }
    if t.offset().local_minus_utc() == 0 {
        out.push('Z');
    } else {
        out.push_str(&t.format("%:z").to_string());
    }
    out
}

/// cel-go's string of a duration: seconds in plain decimal, then `s`.
pub(crate) fn format_duration(d: &TimeDelta) -> String {
    let nanos = d.num_nanoseconds().unwrap_or(i64::MAX);
    format!("{}s", nanos as f64 / 1e9)
}

/// The valid range of CEL timestamps: years 1 to 9999.
pub(crate) fn timestamp_in_range(t: &DateTime<FixedOffset>) -> bool {
    let utc = t.with_timezone(&Utc);
    let min = NaiveDate::from_ymd_opt(1, 1, 1).and_then(|d| d.and_hms_opt(0, 0, 0));
    let max = NaiveDate::from_ymd_opt(10000, 1, 1).and_then(|d| d.and_hms_opt(0, 0, 0));
    match (min, max) {
        (Some(min), Some(max)) => utc.naive_utc() >= min && utc.naive_utc() < max,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_durations() {
        assert_eq!(parse_go_duration("1h30m"), Some(TimeDelta::minutes(90)));
        assert_eq!(parse_go_duration("-1.5s"), Some(TimeDelta::milliseconds(-1500)));
        assert_eq!(parse_go_duration("0"), Some(TimeDelta::zero()));
        assert_eq!(parse_go_duration("1"), None);
        assert_eq!(parse_go_duration(""), None);
        assert_eq!(parse_go_duration("1d"), None);
        assert_eq!(parse_schema_duration("1d"), Some(TimeDelta::days(1)));
        assert_eq!(parse_schema_duration("2 weeks"), Some(TimeDelta::weeks(2)));
    }

    #[test]
    fn timestamps() {
        let t = parse_date_time("2024-01-02T03:04:05.500Z").unwrap();
        assert_eq!(format_timestamp(&t), "2024-01-02T03:04:05.5Z");
        assert_eq!(format_timestamp(&parse_date("2024-01-02").unwrap()), "2024-01-02T00:00:00Z");
        assert!(parse_date_time("2024-01-02").is_none());
        assert_eq!(format_duration(&TimeDelta::milliseconds(1500)), "1.5s");
    }
}
