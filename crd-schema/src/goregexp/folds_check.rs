//! Checks the case-folding table (`folds.rs`) against the orbits built
//! from Rust's case mappings, and rewrites it with `CRD_BLESS=1`.

use super::unicode::{MAX_FOLD, MIN_FOLD};

/// The orbits as four columns, as `folds.rs` holds them.
#[derive(Debug, PartialEq)]
struct Table {
    runes: Vec<u32>,
    next: Vec<u32>,
    orbit_lo: Vec<u32>,
    orbit_hi: Vec<u32>,
}

/// Runes Rust's tables case-map but Go's do not: the Turkic dotted and
/// dotless i (excluded from simple case folding) and the case pairs added
/// after Unicode 15, Go's edition.
fn fold_excluded(c: u32) -> bool {
    matches!(c, 0x130 | 0x131 | 0x1C89 | 0x1C8A | 0xA7CB..=0xA7CD | 0xA7DA..=0xA7DC | 0x10D50..=0x10D65 | 0x10D70..=0x10D85)
}

/// Builds the orbits from Rust's one-to-one case mappings: runes joined by
/// a single-rune lower- or uppercase mapping share an orbit.
fn build_folds() -> Table {
    fn find(parent: &mut [u32], mut c: u32) -> u32 {
        while parent[c as usize] != c {
            let up = parent[parent[c as usize] as usize];
            parent[c as usize] = up;
            c = up;
        }
        c
    }
    fn single(mut mapping: impl Iterator<Item = char>) -> Option<u32> {
        let c = mapping.next()?;
        mapping.next().is_none().then_some(u32::from(c))
    }
    let foldable = |c: u32| (MIN_FOLD..=MAX_FOLD).contains(&c) && !fold_excluded(c);
    let mut parent: Vec<u32> = (0..=MAX_FOLD).collect();
    for c in MIN_FOLD..=MAX_FOLD {
        let Some(ch) = char::from_u32(c).filter(|_| foldable(c)) else { continue };
        for other in [single(ch.to_lowercase()), single(ch.to_uppercase())].into_iter().flatten() {
            if other != c && foldable(other) {
                let (a, b) = (find(&mut parent, c), find(&mut parent, other));
                parent[a.max(b) as usize] = a.min(b);
            }
        }
    }
    let mut members: Vec<(u32, u32)> = (MIN_FOLD..=MAX_FOLD).map(|c| (find(&mut parent, c), c)).collect();
    members.sort_unstable();
    // (rune, next in orbit, orbit's first, orbit's last)
    let mut entries: Vec<(u32, u32, u32, u32)> = Vec::new();
    for orbit in members.chunk_by(|a, b| a.0 == b.0).filter(|orbit| orbit.len() > 1) {
        let (lo, hi) = (orbit[0].1, orbit[orbit.len() - 1].1);
        for (i, &(_, c)) in orbit.iter().enumerate() {
            entries.push((c, orbit[(i + 1) % orbit.len()].1, lo, hi));
        }
    }
    entries.sort_unstable();
    Table {
        runes: entries.iter().map(|e| e.0).collect(),
        next: entries.iter().map(|e| e.1).collect(),
        orbit_lo: entries.iter().map(|e| e.2).collect(),
        orbit_hi: entries.iter().map(|e| e.3).collect(),
    }
}

/// `folds.rs` for `table`.
fn render(table: &Table) -> String {
    let column = |name: &str, doc: &str, values: &[u32]| {
        let mut out = format!("/// {doc}\n#[rustfmt::skip]\npub(super) static {name}: [u32; {}] = [\n", values.len());
        for line in values.chunks(10) {
            let cells: Vec<String> = line.iter().map(|v| format!("0x{v:05X}")).collect();
            out.push_str(&format!("    {},\n", cells.join(", ")));
        }
        out.push_str("];\n");
        out
    };
    [
        "//! Go's simple case-folding orbits (`unicode.SimpleFold`, Unicode 15): one\n//! row per rune that \
         folds, sorted by rune. @generated: `CRD_BLESS=1 cargo\n//! test -p crd-schema --features engine \
         folds_check` rewrites it.\n"
            .to_owned(),
        column("RUNES", "The runes that take part in case folding.", &table.runes),
        column("NEXT", "The next rune of each rune's orbit.", &table.next),
        column("ORBIT_LO", "The smallest rune of each rune's orbit.", &table.orbit_lo),
        column("ORBIT_HI", "The largest rune of each rune's orbit.", &table.orbit_hi),
    ]
    .join("\n")
}

#[test]
fn the_fold_table_is_rusts_case_mapping() {
    let text = render(&build_folds());
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/goregexp/folds.rs");
    if std::env::var_os("CRD_BLESS").is_some() {
        std::fs::write(&path, &text).expect("write folds.rs");
    }
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(current == text, "src/goregexp/folds.rs is stale: rewrite it with CRD_BLESS=1");
    // Go's orbits: K, k and the Kelvin sign; S, s and the long s.
    let table = build_folds();
    let next = |r: u32| table.runes.binary_search(&r).map(|i| table.next[i]).ok();
    assert_eq!((next(0x4B), next(0x6B), next(0x212A)), (Some(0x6B), Some(0x212A), Some(0x4B)));
    assert_eq!((next(0x53), next(0x73), next(0x17F)), (Some(0x73), Some(0x17F), Some(0x53)));
    assert_eq!(next(0x130), None, "the Turkic dotted I does not fold in Go");
}
