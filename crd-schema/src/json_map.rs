//! Key lookups in a JSON object (`serde_json::Map`), and which values the
//! pipeline's walks descend into. The map's index hashes every key with
//! SipHash; the objects the pipeline walks mostly have a handful of keys,
//! where comparing the keys in order is several times cheaper than hashing
//! one, so small objects are scanned and only larger ones use the index.

use serde_json::{Map, Value};

use crate::structural::same_text;

/// Keys up to which a lookup compares the keys in order.
const SCAN_LIMIT: usize = 8;

/// The value at `key`, as [`Map::get`].
pub(crate) fn get<'a>(map: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    if map.len() > SCAN_LIMIT {
        return map.get(key);
    }
    map.iter().find_map(|(k, v)| same_text(k, key).then_some(v))
}

/// The value at `key`, as [`Map::get_mut`].
pub(crate) fn get_mut<'a>(map: &'a mut Map<String, Value>, key: &str) -> Option<&'a mut Value> {
    if map.len() > SCAN_LIMIT {
        return map.get_mut(key);
    }
    map.iter_mut().find_map(|(k, v)| same_text(k, key).then_some(v))
}

/// Whether `key` is present, as [`Map::contains_key`].
pub(crate) fn contains_key(map: &Map<String, Value>, key: &str) -> bool {
    get(map, key).is_some()
}

/// Whether `value` has values below it (an object or an array): a walk
/// that acts only below a value passes over the others without looking
/// up their schema or entering their path.
pub(crate) fn is_container(value: &Value) -> bool {
    matches!(value, Value::Object(_) | Value::Array(_))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookups_agree_with_the_index_at_every_size() {
        for n in [0, 1, SCAN_LIMIT, SCAN_LIMIT + 1, 30] {
            let mut map: Map<String, Value> = (0..n).map(|i| (format!("k{i}"), Value::from(i))).collect();
            for i in 0..n {
                let key = format!("k{i}");
                assert_eq!(get(&map, &key), map.get(&key), "{n} keys");
                assert!(contains_key(&map, &key));
                *get_mut(&mut map, &key).unwrap() = Value::from(i + 100);
                assert_eq!(map[&key], Value::from(i + 100));
            }
            for absent in ["", "k", "kx", "k99"] {
                assert_eq!(get(&map, absent), None, "{n} keys");
                assert!(!contains_key(&map, absent));
                assert!(get_mut(&mut map, absent).is_none());
            }
        }
    }
}
