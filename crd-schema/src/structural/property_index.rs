//! The name → position index of a schema node's properties, shared by the
//! structural form ([`Structural::property`](super::Structural::property))
//! and value validation's nodes: a few properties are scanned, more are
//! looked up in an index built on the first lookup that needs it.

use std::sync::OnceLock;

/// Properties up to which a lookup scans the list: a few are found faster
/// by a scan than by hashing the name.
const SCAN_LIMIT: usize = 8;

/// A node's property index, built on first use. A clone starts empty (it
/// is built again when needed) and every index equals every other, so it
/// never makes two nodes differ. An index built before the properties
/// changed length is not used, and the name found is checked, so a list
/// changed afterwards is still searched correctly (by a scan).
#[derive(Default)]
pub struct PropertyIndex(OnceLock<(usize, foldhash::HashMap<String, usize>)>);

impl PropertyIndex {
    /// Where property `name` sits in `properties`.
    pub fn position<T>(&self, properties: &[(String, T)], name: &str) -> Option<usize> {
        let scan = || properties.iter().position(|(k, _)| same_text(k, name));
        if properties.len() <= SCAN_LIMIT {
            return scan();
        }
        let (len, index) = self.0.get_or_init(|| {
            let positions = properties.iter().enumerate().map(|(i, (k, _))| (k.clone(), i)).collect();
            (properties.len(), positions)
        });
        if *len != properties.len() {
            return scan();
        }
        match index.get(name) {
            Some(&i) if properties.get(i).is_some_and(|(k, _)| k == name) => Some(i),
            Some(_) => scan(),
            None => None,
        }
    }
}

/// `a == b` for the short names of schemas (property names, types),
/// which mostly differ in length or first byte: those are compared before
/// the bytes, since most comparisons of a scan fail.
pub(crate) fn same_text(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.as_bytes().first() == b.as_bytes().first() && a == b
}

super::derived_on_first_use!(PropertyIndex);

#[cfg(test)]
mod tests {
    use super::*;

    fn properties(n: usize) -> Vec<(String, usize)> {
        (0..n).map(|i| (format!("p{i}"), i)).collect()
    }

    #[test]
    fn scanned_and_indexed_lookups_agree() {
        for n in [0, 3, SCAN_LIMIT, SCAN_LIMIT + 1, 40] {
            let list = properties(n);
            let index = PropertyIndex::default();
            for i in 0..n {
                assert_eq!(index.position(&list, &format!("p{i}")), Some(i), "{n} properties");
            }
            assert_eq!(index.position(&list, "absent"), None);
        }
    }

    #[test]
    fn a_list_changed_after_the_index_is_still_searched() {
        let mut list = properties(20);
        let index = PropertyIndex::default();
        assert_eq!(index.position(&list, "p19"), Some(19));
        list.swap(0, 19);
        assert_eq!(index.position(&list, "p19"), Some(0), "same length, moved");
        list.push(("new".to_owned(), 20));
        assert_eq!(index.position(&list, "new"), Some(20), "longer");
    }
}
