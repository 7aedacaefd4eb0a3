//! "did you mean" hints for unknown attribute keys.

/// The candidate closest to `unknown`, if one is close enough to be a
/// likely typo: within an edit distance of a third of its length (at least
/// 2) once underscores and case are ignored, or starting with what was
/// written (`minlen` → `min_length`).
pub fn closest<'a>(unknown: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let wanted = normalise(unknown);
    let limit = (wanted.chars().count() / 3).max(2);
    candidates
        .into_iter()
        .filter_map(|candidate| {
            let normal = normalise(candidate);
            let distance = edit_distance(&wanted, &normal);
            let prefix = wanted.len() >= 3 && normal.starts_with(&wanted);
            (distance <= limit || prefix).then_some((distance, candidate))
        })
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate)
}

fn normalise(key: &str) -> String {
    key.chars().filter(|c| *c != '_' && *c != '-').flat_map(char::to_lowercase).collect()
}

/// Levenshtein distance over chars.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != *cb);
            current.push(substitution.min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEYS: &[&str] = &["min_length", "max_length", "min_items", "minimum", "type_", "enum_values", "pattern"];

    #[test]
    fn typos_find_their_key() {
        assert_eq!(closest("minlen", KEYS.iter().copied()), Some("min_length"));
        assert_eq!(closest("maxLength", KEYS.iter().copied()), Some("max_length"));
        assert_eq!(closest("minimun", KEYS.iter().copied()), Some("minimum"));
        assert_eq!(closest("type", KEYS.iter().copied()), Some("type_"));
        assert_eq!(closest("enum", KEYS.iter().copied()), Some("enum_values"));
        assert_eq!(closest("patern", KEYS.iter().copied()), Some("pattern"));
    }

    #[test]
    fn unrelated_words_find_nothing() {
        assert_eq!(closest("colour", KEYS.iter().copied()), None);
        assert_eq!(closest("x", KEYS.iter().copied()), None);
    }

    #[test]
    fn distance_counts_edits() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("same", "same"), 0);
    }
}
