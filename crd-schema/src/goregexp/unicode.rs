//! Unicode data: simple case-folding orbits (Go's `unicode.SimpleFold`, and
//! `minFoldRune` of Go's `regexp/syntax/parse.go`), a table checked
//! against Rust's case mappings (`folds.rs`), and the `\p{...}` names (Go's `unicodeTable` in `parse.go`,
//! over Go's `unicode.Categories` and `unicode.Scripts`).

use std::collections::HashMap;
use std::sync::OnceLock;

use super::MAX_RUNE;

/// The smallest and largest runes that take part in case folding (Unicode 15).
pub(super) const MIN_FOLD: u32 = 0x41;
pub(super) const MAX_FOLD: u32 = 0x1_E943;

// ---- Case folding (Go's unicode.SimpleFold orbits).

/// The runes that take part in simple case folding, sorted, each with the
/// next rune of its orbit (Go's `SimpleFold`).
#[derive(Debug)]
pub(super) struct Folds {
    pub(super) runes: &'static [u32],
    pub(super) next: &'static [u32],
    /// The smallest and largest rune of each rune's orbit.
    pub(super) orbit_lo: &'static [u32],
    pub(super) orbit_hi: &'static [u32],
}

/// The orbits as a table built ahead of time (`folds.rs`, which the test
/// `the_fold_table_is_rusts_case_mapping` checks and `CRD_BLESS=1`
/// rewrites): building them at run time case-mapped every rune up to
/// U+1E943 once per process, a fifth of `crd generate` on a CRD with a
/// case-insensitive pattern.
pub(super) fn folds() -> &'static Folds {
    static FOLDS: Folds = Folds {
        runes: &super::folds::RUNES,
        next: &super::folds::NEXT,
        orbit_lo: &super::folds::ORBIT_LO,
        orbit_hi: &super::folds::ORBIT_HI,
    };
    &FOLDS
}

/// Go's `unicode.SimpleFold`: the next rune of `r`'s case-folding orbit.
pub(super) fn simple_fold(r: u32) -> u32 {
    let folds = folds();
    folds.runes.binary_search(&r).map_or(r, |i| folds.next[i])
}

/// Go's `minFoldRune`: the smallest rune of `r`'s orbit.
pub(super) fn min_fold_rune(r: u32) -> u32 {
    if !(MIN_FOLD..=MAX_FOLD).contains(&r) {
        return r;
    }
    let mut min = r;
    let mut f = simple_fold(r);
    while f != r {
        min = min.min(f);
        f = simple_fold(f);
    }
    min
}

// ---- Unicode tables, by their `\p{...}` names.

/// What a Unicode table holds: its ranges where they are small and stable,
/// else nothing (an opaque table).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Contents {
    Ranges(&'static [u32]),
    Opaque,
}

/// The extra runes Go's fold table for a Unicode table adds under `(?i)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Fold {
    None,
    /// A fold table whose contents are not embedded.
    Opaque,
    Extra(&'static [u32]),
}

#[derive(Debug, Clone, Copy)]
pub(super) struct UnicodeTable {
    pub(super) key: &'static str,
    pub(super) contents: Contents,
    pub(super) fold: Fold,
    /// `Assigned` is Go's `Cn` (unassigned) inverted.
    pub(super) inverted: bool,
}

/// Go's category names (`unicode.Categories`, plus `Cn` and `LC` of Go
/// 1.25), with the long aliases of Go 1.25's `unicode.CategoryAliases`.
const CATEGORIES: &[(&str, &[&str])] = &[
    ("C", &["Other"]),
    ("Cc", &["Control", "cntrl"]),
    ("Cf", &["Format"]),
    ("Cn", &["Unassigned"]),
    ("Co", &["Private_Use"]),
    ("Cs", &["Surrogate"]),
    ("L", &["Letter"]),
    ("LC", &["Cased_Letter"]),
    ("Ll", &["Lowercase_Letter"]),
    ("Lm", &["Modifier_Letter"]),
    ("Lo", &["Other_Letter"]),
    ("Lt", &["Titlecase_Letter"]),
    ("Lu", &["Uppercase_Letter"]),
    ("M", &["Mark", "Combining_Mark"]),
    ("Mc", &["Spacing_Mark"]),
    ("Me", &["Enclosing_Mark"]),
    ("Mn", &["Nonspacing_Mark"]),
    ("N", &["Number"]),
    ("Nd", &["Decimal_Number", "digit"]),
    ("Nl", &["Letter_Number"]),
    ("No", &["Other_Number"]),
    ("P", &["Punctuation", "punct"]),
    ("Pc", &["Connector_Punctuation"]),
    ("Pd", &["Dash_Punctuation"]),
    ("Pe", &["Close_Punctuation"]),
    ("Pf", &["Final_Punctuation"]),
    ("Pi", &["Initial_Punctuation"]),
    ("Po", &["Other_Punctuation"]),
    ("Ps", &["Open_Punctuation"]),
    ("S", &["Symbol"]),
    ("Sc", &["Currency_Symbol"]),
    ("Sk", &["Modifier_Symbol"]),
    ("Sm", &["Math_Symbol"]),
    ("So", &["Other_Symbol"]),
    ("Z", &["Separator"]),
    ("Zl", &["Line_Separator"]),
    ("Zp", &["Paragraph_Separator"]),
    ("Zs", &["Space_Separator"]),
];

/// Go's `unicode.Scripts` names (Unicode 15.0: Go 1.21 and later).
#[rustfmt::skip]
const SCRIPTS: &[&str] = &[
    "Adlam", "Ahom", "Anatolian_Hieroglyphs", "Arabic", "Armenian", "Avestan", "Balinese", "Bamum", "Bassa_Vah",
    "Batak", "Bengali", "Bhaiksuki", "Bopomofo", "Brahmi", "Braille", "Buginese", "Buhid", "Canadian_Aboriginal",
    "Carian", "Caucasian_Albanian", "Chakma", "Cham", "Cherokee", "Chorasmian", "Common", "Coptic", "Cuneiform",
    "Cypriot", "Cypro_Minoan", "Cyrillic", "Deseret", "Devanagari", "Dives_Akuru", "Dogra", "Duployan",
    "Egyptian_Hieroglyphs", "Elbasan", "Elymaic", "Ethiopic", "Georgian", "Glagolitic", "Gothic", "Grantha", "Greek",
    "Gujarati", "Gunjala_Gondi", "Gurmukhi", "Han", "Hangul", "Hanifi_Rohingya", "Hanunoo", "Hatran", "Hebrew",
    "Hiragana", "Imperial_Aramaic", "Inherited", "Inscriptional_Pahlavi", "Inscriptional_Parthian", "Javanese",
    "Kaithi", "Kannada", "Katakana", "Kawi", "Kayah_Li", "Kharoshthi", "Khitan_Small_Script", "Khmer", "Khojki",
    "Khudawadi", "Lao", "Latin", "Lepcha", "Limbu", "Linear_A", "Linear_B", "Lisu", "Lycian", "Lydian", "Mahajani",
    "Makasar", "Malayalam", "Mandaic", "Manichaean", "Marchen", "Masaram_Gondi", "Medefaidrin", "Meetei_Mayek",
    "Mende_Kikakui", "Meroitic_Cursive", "Meroitic_Hieroglyphs", "Miao", "Modi", "Mongolian", "Mro", "Multani",
    "Myanmar", "Nabataean", "Nag_Mundari", "Nandinagari", "New_Tai_Lue", "Newa", "Nko", "Nushu",
    "Nyiakeng_Puachue_Hmong", "Ogham", "Ol_Chiki", "Old_Hungarian", "Old_Italic", "Old_North_Arabian", "Old_Permic",
    "Old_Persian", "Old_Sogdian", "Old_South_Arabian", "Old_Turkic", "Old_Uyghur", "Oriya", "Osage", "Osmanya",
    "Pahawh_Hmong", "Palmyrene", "Pau_Cin_Hau", "Phags_Pa", "Phoenician", "Psalter_Pahlavi", "Rejang", "Runic",
    "Samaritan", "Saurashtra", "Sharada", "Shavian", "Siddham", "SignWriting", "Sinhala", "Sogdian", "Sora_Sompeng",
    "Soyombo", "Sundanese", "Syloti_Nagri", "Syriac", "Tagalog", "Tagbanwa", "Tai_Le", "Tai_Tham", "Tai_Viet",
    "Takri", "Tamil", "Tangsa", "Tangut", "Telugu", "Thaana", "Thai", "Tibetan", "Tifinagh", "Tirhuta", "Toto",
    "Ugaritic", "Vai", "Vithkuqi", "Wancho", "Warang_Citi", "Yezidi", "Yi", "Zanabazar_Square",
];

/// Tables with a fold table in Go (`unicode.FoldCategory`, `unicode.FoldScript`).
const FOLDED_TABLES: &[&str] = &["L", "LC", "Ll", "Lt", "Lu", "M", "Mn", "Common", "Greek", "Inherited"];

/// Tables small and stable enough to carry their exact ranges.
fn exact_contents(key: &str) -> Option<&'static [u32]> {
    Some(match key {
        "Any" => &[0, MAX_RUNE],
        "ASCII" => &[0, 0x7F],
        "Cc" => &[0x0, 0x1F, 0x7F, 0x9F],
        "Co" => &[0xE000, 0xF8FF, 0xF_0000, 0xF_FFFD, 0x10_0000, 0x10_FFFD],
        "Cs" => &[0xD800, 0xDFFF],
        "Z" => &[
            0x20, 0x20, 0xA0, 0xA0, 0x1680, 0x1680, 0x2000, 0x200A, 0x2028, 0x2029, 0x202F, 0x202F, 0x205F, 0x205F,
            0x3000, 0x3000,
        ],
        "Zl" => &[0x2028, 0x2028],
        "Zp" => &[0x2029, 0x2029],
        "Zs" => {
            &[0x20, 0x20, 0xA0, 0xA0, 0x1680, 0x1680, 0x2000, 0x200A, 0x202F, 0x202F, 0x205F, 0x205F, 0x3000, 0x3000]
        }
        _ => return None,
    })
}

/// Go 1.25's name matching: ASCII case, spaces, `_` and `-` do not count.
fn loose_name(name: &[u8]) -> Vec<u8> {
    name.iter().filter(|&&b| !matches!(b, b'_' | b'-' | b' ')).map(u8::to_ascii_lowercase).collect()
}

/// Looks up a `\p{...}` name as Go 1.25's `unicodeTable` does.
pub(super) fn unicode_table(name: &[u8]) -> Option<&'static UnicodeTable> {
    static TABLES: OnceLock<HashMap<Vec<u8>, UnicodeTable>> = OnceLock::new();
    TABLES.get_or_init(build_unicode_tables).get(&loose_name(name))
}

fn build_unicode_tables() -> HashMap<Vec<u8>, UnicodeTable> {
    let table = |key: &'static str| {
        let fold = match key {
            "Any" => Fold::Extra(&[0, MAX_RUNE]),
            "ASCII" => Fold::Extra(&[0x17F, 0x17F, 0x212A, 0x212A]),
            _ if FOLDED_TABLES.contains(&key) => Fold::Opaque,
            _ => Fold::None,
        };
        let contents = exact_contents(key).map_or(Contents::Opaque, Contents::Ranges);
        UnicodeTable { key, contents, fold, inverted: false }
    };
    let mut tables = HashMap::new();
    // Later insertions lose to earlier ones, as Go's lookup order has it:
    // specials, categories, scripts, then aliases.
    let mut add = |name: &str, t: UnicodeTable| {
        tables.entry(loose_name(name.as_bytes())).or_insert(t);
    };
    add("Any", table("Any"));
    add("Assigned", UnicodeTable { inverted: true, ..table("Cn") });
    add("ASCII", table("ASCII"));
    for &(key, _) in CATEGORIES {
        add(key, table(key));
    }
    for &key in SCRIPTS {
        add(key, table(key));
    }
    for &(key, aliases) in CATEGORIES {
        for alias in aliases {
            add(alias, table(key));
        }
    }
    tables
}
