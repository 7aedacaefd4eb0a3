//! Comparing actual error texts with a case's expectation.

use serde_json::Value;

/// Compares `actual` with the expected list `expected`, honouring
/// `errorsOrder` (`sorted` and `as-listed` compare in order, `unordered` as
/// a multiset).
pub fn texts(actual: &[String], expected: &[String], order: &str) -> Result<(), String> {
    let ok = if order == "unordered" {
        let mut a = actual.to_vec();
        let mut e = expected.to_vec();
        a.sort();
        e.sort();
        a == e
    } else {
        actual == expected
    };
    if ok { Ok(()) } else { Err(format!("  expected ({order}):\n{}\n  actual:\n{}", bullet(expected), bullet(actual))) }
}

/// The strings of a JSON array.
pub fn strings(v: &Value) -> Vec<String> {
    v.as_array().map(|a| a.iter().filter_map(|x| x.as_str().map(str::to_owned)).collect()).unwrap_or_default()
}

/// One line per item, indented.
pub fn bullet(items: &[String]) -> String {
    items.iter().map(|s| format!("    {s}")).collect::<Vec<_>>().join("\n")
}
