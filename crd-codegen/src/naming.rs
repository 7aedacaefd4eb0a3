//! Rust names for JSON names: fields, types, enum variants and modules.
//!
//! Entry points: [`snake`] and [`camel`] turn any string into a valid,
//! lint-clean identifier; [`Names`] hands out unique names within one scope
//! (the fields of a struct, the types of a module, the variants of an enum).
//! Nothing here fails: every input, however odd, gets a name.
//!
//! The rules, in order:
//! 1. Non-ASCII characters become words of their own (`é` → `u00e9`), so
//!    identifiers stay ASCII (no `non_ascii_idents`/`uncommon_codepoints`
//!    surprises) and two different names rarely collide.
//! 2. A name without a single ASCII letter or digit is spelled out from its
//!    punctuation (`*` → `star`, `-` → `dash`); the empty name is `empty`.
//! 3. Plural acronyms stay one word (`podIPs` → `pod_ips`, not `pod_i_ps`).
//! 4. heck splits words (case changes and any other punctuation); names
//!    that do not mix cases, or are plain lowerCamelCase, are split the
//!    same way directly.
//! 5. A leading digit gets a prefix (`_` for snake case, `V` for camel
//!    case); in camel case two words that meet digit to digit keep an
//!    underscore between them (`1.0` → `V1_0`, not `V10`).
//! 6. Keywords become raw identifiers (`r#type`); `self`, `super`, `crate`
//!    and `Self` cannot be raw and get a trailing underscore instead.
//! 7. [`Names::claim`] adds `_2`, `_3`, ... (snake) or `2`, `3`, ... (camel)
//!    in claim order, i.e. schema order, when a name is taken.

use foldhash::{HashMap, HashSet};

use heck::ToSnakeCase;

/// Keywords that can be written as raw identifiers (strict and reserved
/// keywords of edition 2024).
const RAW_KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "do", "dyn", "else", "enum",
    "extern", "false", "final", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "macro", "match", "mod", "move",
    "mut", "override", "priv", "pub", "ref", "return", "static", "struct", "trait", "true", "try", "type", "typeof",
    "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

/// Keywords that cannot be raw identifiers.
const NON_RAW_KEYWORDS: &[&str] = &["self", "super", "crate", "Self", "_"];

/// Words for punctuation, used when a name holds nothing else.
fn punctuation_word(c: char) -> Option<&'static str> {
    Some(match c {
        '*' => "star",
        '-' => "dash",
        '+' => "plus",
        '/' => "slash",
        '\\' => "backslash",
        '.' => "dot",
        ',' => "comma",
        '=' => "eq",
        '<' => "lt",
        '>' => "gt",
        '!' => "bang",
        '?' => "question",
        '~' => "tilde",
        '@' => "at",
        '#' => "hash",
        '$' => "dollar",
        '%' => "percent",
        '&' => "amp",
        '|' => "pipe",
        ':' => "colon",
        ';' => "semicolon",
        '^' => "caret",
        '_' => "underscore",
        '\'' => "quote",
        '"' => "dquote",
        '`' => "backtick",
        '(' | ')' => "paren",
        '[' | ']' => "bracket",
        '{' | '}' => "brace",
        ' ' => "space",
        _ => return None,
    })
}

/// Rules 1-3: a string heck can split into ASCII words.
fn prepare(name: &str) -> String {
    if !name.chars().any(|c| c.is_ascii_alphanumeric() || !c.is_ascii()) {
        if name.is_empty() {
            return "empty".to_owned();
        }
        let words: Vec<String> = name
            .chars()
            .map(|c| punctuation_word(c).map_or_else(|| format!("u{:04x}", u32::from(c)), str::to_owned))
            .collect();
        return words.join(" ");
    }
    let mut out = String::with_capacity(name.len());
    let chars: Vec<char> = name.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_ascii() {
            out.push_str(&format!(" u{:04x} ", u32::from(c)));
        } else if c == 's' && is_plural_acronym_end(&chars, i) {
            out.push('S');
        } else if c.is_ascii_alphanumeric() {
            out.push(c);
        } else {
            out.push(' ');
        }
    }
    out
}

/// Whether the `s` at `i` ends an acronym of two or more capitals (`IPs`,
/// `CIDRs`) rather than starting a word.
fn is_plural_acronym_end(chars: &[char], i: usize) -> bool {
    let caps = chars[..i].iter().rev().take_while(|c| c.is_ascii_uppercase()).count();
    let next_is_lower = chars.get(i + 1).is_some_and(|c| c.is_ascii_lowercase());
    caps >= 2 && !next_is_lower
}

/// The snake-case words of `name` (rules 1-4), never empty.
fn snake_words(name: &str) -> Vec<String> {
    single_case_words(name).unwrap_or_else(|| words_by_heck(name))
}

/// [`snake_words`] of any name, through heck.
fn words_by_heck(name: &str) -> Vec<String> {
    let snake = prepare(name).to_snake_case();
    let words: Vec<String> = snake.split('_').filter(|w| !w.is_empty()).map(str::to_owned).collect();
    if words.is_empty() { vec!["empty".to_owned()] } else { words }
}

/// The words of an ASCII name whose letters are all of one case
/// (`keda.scaledobject.ready.v1`, `HTTP_PROXY`), as rules 1-4 give them:
/// such a name has no non-ASCII character and no plural acronym (rules 1
/// and 3), and heck breaks a run of letters and digits only where the case
/// changes, so the words are the runs between other characters,
/// lower-cased. Enum values are mostly of this kind, and heck's general
/// walk costs more than the rest of their naming. `None` for other names,
/// and for names without a letter or digit (rule 2).
fn single_case_words(name: &str) -> Option<Vec<String>> {
    let bytes = name.as_bytes();
    let mixed = bytes.iter().any(u8::is_ascii_uppercase) && bytes.iter().any(u8::is_ascii_lowercase);
    if !name.is_ascii() || mixed || !bytes.iter().any(u8::is_ascii_alphanumeric) {
        return None;
    }
    Some(
        name.split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_ascii_lowercase)
            .collect(),
    )
}

/// Whether `name` is plain lowerCamelCase (`secretName`, `spec`): ASCII
/// letters, a lowercase first, no two capitals together. Most property
/// names are; rules 1-4 split such a name before each capital and nowhere
/// else, which [`snake`] and [`camel`] then do directly.
fn is_plain_lower_camel(name: &str) -> bool {
    let bytes = name.as_bytes();
    bytes.first().is_some_and(u8::is_ascii_lowercase)
        && bytes.iter().all(u8::is_ascii_alphabetic)
        && !bytes.windows(2).any(|pair| pair.iter().all(u8::is_ascii_uppercase))
}

/// A snake-case identifier for `name` (field and module names).
pub fn snake(name: &str) -> String {
    if !is_plain_lower_camel(name) {
        return snake_by_the_rules(name);
    }
    let mut out = String::with_capacity(name.len() + 4);
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    keyword_safe(out)
}

/// [`snake`] by rules 1-6, for any name.
fn snake_by_the_rules(name: &str) -> String {
    let joined = snake_words(name).join("_");
    let prefixed = if joined.starts_with(|c: char| c.is_ascii_digit()) { format!("_{joined}") } else { joined };
    keyword_safe(prefixed)
}

/// An UpperCamelCase identifier for `name` (type and variant names).
pub fn camel(name: &str) -> String {
    if !is_plain_lower_camel(name) {
        return camel_by_the_rules(name);
    }
    let mut out = name.to_owned();
    out[..1].make_ascii_uppercase();
    keyword_safe(out)
}

/// [`camel`] by rules 1-6, for any name.
fn camel_by_the_rules(name: &str) -> String {
    let mut out = String::new();
    for word in snake_words(name) {
        let meets_digits =
            out.ends_with(|c: char| c.is_ascii_digit()) && word.starts_with(|c: char| c.is_ascii_digit());
        if meets_digits {
            out.push('_');
        }
        let mut chars = word.chars();
        if let Some(first) = chars.next() {
            out.push(first.to_ascii_uppercase());
            out.push_str(chars.as_str());
        }
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'V');
    }
    keyword_safe(out)
}

/// The root type's name: the CRD's `kind` itself when it is a plain Rust
/// identifier (`OCIRepository` stays `OCIRepository`, as users write it),
/// else its [`camel`] form.
pub fn kind_type_name(kind: &str) -> String {
    let plain = kind.starts_with(|c: char| c.is_ascii_uppercase())
        && kind.chars().all(|c| c.is_ascii_alphanumeric())
        && !NON_RAW_KEYWORDS.contains(&kind);
    if plain { kind.to_owned() } else { camel(kind) }
}

/// Longest nested type name built by prefixing the parent's name; longer
/// ones restart from the root type's name, so deep schemas neither produce
/// unreadable names nor file names too long for rustdoc.
pub const MAX_TYPE_NAME: usize = 80;

/// The name wanted for the type of a property whose [`camel`] form is
/// `property`, in type `parent` (`WidgetSpec` + `Parts` →
/// `WidgetSpecParts`), shortened to `root` + property when it would exceed
/// [`MAX_TYPE_NAME`].
pub fn nested_type_name(parent: &str, root: &str, property: &str) -> String {
    // Only a whole identifier can be a keyword: `self` gives `SpecSelf`, not
    // `SpecSelf_` (whose nested types, `SpecSelf_Ref`, would not be camel case).
    let property = bare(property);
    let property = property.strip_suffix('_').filter(|p| NON_RAW_KEYWORDS.contains(p)).unwrap_or(property);
    let full = format!("{parent}{property}");
    if full.len() <= MAX_TYPE_NAME {
        return full;
    }
    let short = format!("{root}{property}");
    if short.len() <= MAX_TYPE_NAME { short } else { short.chars().take(MAX_TYPE_NAME).collect() }
}

/// Rule 6.
fn keyword_safe(name: String) -> String {
    if RAW_KEYWORDS.contains(&name.as_str()) {
        format!("r#{name}")
    } else if NON_RAW_KEYWORDS.contains(&name.as_str()) {
        format!("{name}_")
    } else {
        name
    }
}

/// An identifier without its `r#` prefix: the name serde sees, and the
/// stem of derived names (`default_type` for `r#type`).
pub fn bare(ident: &str) -> &str {
    ident.strip_prefix("r#").unwrap_or(ident)
}

/// The case of the names a [`Names`] scope hands out, which decides how a
/// collision suffix is attached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Case {
    /// `foo_bar` → `foo_bar_2`.
    Snake,
    /// `FooBar` → `FooBar2`, `V1` → `V1_2`.
    Camel,
}

/// One scope of unique identifiers. Names are compared without `r#`.
#[derive(Clone, Debug)]
pub struct Names {
    case: Case,
    taken: HashSet<String>,
}

/// A function of strings worked out once per distinct input: a large
/// schema repeats the same few hundred property names and descriptions
/// thousands of times.
#[derive(Debug)]
pub struct Memo {
    work: fn(&str) -> String,
    known: HashMap<String, String>,
}

impl Memo {
    /// A memo of `work`.
    pub fn new(work: fn(&str) -> String) -> Self {
        Self { work, known: HashMap::default() }
    }

    /// `work` of `input`.
    pub fn of(&mut self, input: &str) -> &str {
        if !self.known.contains_key(input) {
            self.known.insert(input.to_owned(), (self.work)(input));
        }
        self.known.get(input).map_or("", String::as_str)
    }
}

/// [`snake`] and [`camel`] forms of names, each worked out once.
#[derive(Debug)]
pub struct Spellings {
    snake: Memo,
    camel: Memo,
}

impl Default for Spellings {
    fn default() -> Self {
        Self { snake: Memo::new(snake), camel: Memo::new(camel) }
    }
}

impl Spellings {
    /// [`snake`] of `name`.
    pub fn snake(&mut self, name: &str) -> &str {
        self.snake.of(name)
    }

    /// [`camel`] of `name`.
    pub fn camel(&mut self, name: &str) -> &str {
        self.camel.of(name)
    }
}

impl Names {
    /// An empty scope.
    pub fn new(case: Case) -> Self {
        Self { case, taken: HashSet::default() }
    }

    /// Whether `ident` is already taken.
    pub fn contains(&self, ident: &str) -> bool {
        self.taken.contains(bare(ident))
    }

    /// Takes `wanted` (an identifier from [`snake`] or [`camel`]) or, when
    /// it is taken, the first free suffixed form (rule 7).
    pub fn claim(&mut self, wanted: &str) -> String {
        if self.taken.insert(bare(wanted).to_owned()) {
            return wanted.to_owned();
        }
        let stem = bare(wanted).trim_end_matches('_');
        let separator = match self.case {
            Case::Snake => "_",
            Case::Camel if stem.ends_with(|c: char| c.is_ascii_digit()) => "_",
            Case::Camel => "",
        };
        (2u64..)
            .map(|n| format!("{stem}{separator}{n}"))
            .find(|candidate| self.taken.insert(candidate.clone()))
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_lower_camel_names_are_split_as_the_rules_split_them() {
        // Every name of one to six letters over `a`, `b`, `A`, `B`, and
        // some real ones: wherever the shortcut applies, it agrees.
        let mut names: Vec<String> = vec![String::new()];
        let mut checked = 0;
        for _ in 0..6 {
            names = names.iter().flat_map(|n| ["a", "b", "A", "B"].map(|c| format!("{n}{c}"))).collect();
            for name in names.iter().map(String::as_str).chain(["secretName", "type", "self", "podIPs", "dnsNames"]) {
                if is_plain_lower_camel(name) {
                    assert_eq!(
                        (snake(name), camel(name)),
                        (snake_by_the_rules(name), camel_by_the_rules(name)),
                        "{name}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000, "{checked}");
        assert!(!is_plain_lower_camel("podIPs") && !is_plain_lower_camel("v1") && !is_plain_lower_camel("Spec"));
        assert_eq!((snake("type"), camel("self")), ("r#type".to_owned(), "Self_".to_owned()));
        assert_eq!((snake("secretName"), camel("secretName")), ("secret_name".to_owned(), "SecretName".to_owned()));
    }

    #[test]
    fn single_case_names_are_split_as_heck_splits_them() {
        // Every name of one to five characters over letters of both
        // cases, a digit, punctuation and a non-ASCII letter: wherever the
        // shortcut applies, it agrees.
        let mut names: Vec<String> = vec![String::new()];
        let mut checked = 0;
        for _ in 0..5 {
            names = names
                .iter()
                .flat_map(|n| ["a", "s", "B", "S", "1", ".", "_", "é"].map(|c| format!("{n}{c}")))
                .collect();
            for name in &names {
                if let Some(words) = single_case_words(name) {
                    assert_eq!(words, words_by_heck(name), "{name}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 5000, "{checked}");
        assert_eq!(
            single_case_words("keda.scaledobject.ready.v1"),
            Some(["keda", "scaledobject", "ready", "v1"].map(String::from).to_vec())
        );
        assert_eq!(camel("HTTP_PROXY"), "HttpProxy");
        assert!(
            single_case_words("podIPs").is_none()
                && single_case_words("é").is_none()
                && single_case_words("-").is_none()
        );
    }

    #[test]
    fn kinds_keep_their_spelling() {
        assert_eq!(kind_type_name("OCIRepository"), "OCIRepository");
        assert_eq!(kind_type_name("UUID"), "UUID");
        assert_eq!(kind_type_name("my-kind"), "MyKind");
        assert_eq!(kind_type_name("Self"), "Self_");
    }

    #[test]
    fn nested_names_of_keywords_have_no_underscore() {
        // Found by the random schemas (tests/random-schemas): a property
        // `self` with a nested object gave `SpecSelf_Ref`, which rustc's
        // `non_camel_case_types` rejects.
        let nested_type_name = |parent: &str, root: &str, json: &str| nested_type_name(parent, root, &camel(json));
        assert_eq!(nested_type_name("Spec", "W", "self"), "SpecSelf");
        assert_eq!(nested_type_name("SpecSelf", "W", "$ref"), "SpecSelfRef");
        assert_eq!(nested_type_name("Spec", "W", "crate"), "SpecCrate");
        assert_eq!(nested_type_name("Spec", "W", "type"), "SpecType");
    }

    #[test]
    fn nested_names_are_bounded() {
        assert_eq!(nested_type_name("WidgetSpec", "Widget", "Parts"), "WidgetSpecParts");
        let long = "A".repeat(78);
        assert_eq!(nested_type_name(&long, "Widget", "Level9"), "WidgetLevel9");
        assert!(nested_type_name(&long, &"B".repeat(90), "X").len() <= MAX_TYPE_NAME);
    }

    #[test]
    fn spellings_are_snake_and_camel() {
        let mut spellings = Spellings::default();
        for name in ["podIPs", "self", "x-kubernetes", "9lives", "type", "podIPs"] {
            assert_eq!(spellings.snake(name), snake(name), "{name}");
            assert_eq!(spellings.camel(name), camel(name), "{name}");
        }
        assert_eq!((spellings.snake.known.len(), spellings.camel.known.len()), (5, 5));
    }

    #[test]
    fn snake_case_fields() {
        let cases = [
            ("apiVersion", "api_version"),
            ("spec", "spec"),
            ("podIPs", "pod_ips"),
            ("CIDRs", "cidrs"),
            ("externalIPs", "external_ips"),
            ("URLsList", "urls_list"),
            ("ipFamilyPolicy", "ip_family_policy"),
            ("x-y", "x_y"),
            ("limits.nvidia.com/gpu", "limits_nvidia_com_gpu"),
            ("HTTPHeaders", "http_headers"),
            ("tls", "tls"),
            ("already_snake", "already_snake"),
            ("$ref", "r#ref"),
            ("123", "_123"),
            ("1st", "_1st"),
            ("", "empty"),
            ("-", "dash"),
            ("*", "star"),
            ("->", "dash_gt"),
            ("café", "caf_u00e9"),
            ("日本", "u65e5_u672c"),
        ];
        for (input, want) in cases {
            assert_eq!(snake(input), want, "snake({input:?})");
        }
    }

    #[test]
    fn keywords() {
        assert_eq!(snake("type"), "r#type");
        assert_eq!(snake("Type"), "r#type");
        assert_eq!(snake("async"), "r#async");
        assert_eq!(snake("gen"), "r#gen");
        assert_eq!(snake("self"), "self_");
        assert_eq!(snake("super"), "super_");
        assert_eq!(snake("crate"), "crate_");
        assert_eq!(snake("Self"), "self_");
        assert_eq!(snake("_"), "underscore");
        assert_eq!(camel("self"), "Self_");
        assert_eq!(bare("r#type"), "type");
        assert_eq!(bare("kind"), "kind");
    }

    #[test]
    fn camel_case_types_and_variants() {
        let cases = [
            ("spec", "Spec"),
            ("red", "Red"),
            ("ReadWriteOnce", "ReadWriteOnce"),
            ("TCP", "Tcp"),
            ("podIPs", "PodIps"),
            ("x-y", "XY"),
            ("1.0", "V1_0"),
            ("v1.2.3", "V1_2_3"),
            ("123", "V123"),
            ("", "Empty"),
            ("*", "Star"),
            ("=", "Eq"),
            ("!=", "BangEq"),
            ("limits.nvidia.com/gpu", "LimitsNvidiaComGpu"),
            ("ÄÖ", "U00c4U00d6"),
            ("Unknown", "Unknown"),
        ];
        for (input, want) in cases {
            assert_eq!(camel(input), want, "camel({input:?})");
        }
    }

    #[test]
    fn every_name_is_an_identifier() {
        let inputs = ["", " ", "\t", "a b", "--x--", "0", "_", "__", "r#type", "é", "a\u{0}b", "💥", "A_B", "_1"];
        for input in inputs {
            for name in [snake(input), camel(input)] {
                let parsed: Result<syn::Ident, _> = syn::parse_str(&name);
                assert!(parsed.is_ok(), "{input:?} gave {name:?}");
                assert!(name.is_ascii(), "{input:?} gave {name:?}");
            }
        }
    }

    #[test]
    fn collisions_get_suffixes_in_claim_order() {
        let mut fields = Names::new(Case::Snake);
        assert_eq!(fields.claim(&snake("x-y")), "x_y");
        assert_eq!(fields.claim(&snake("x_y")), "x_y_2");
        assert_eq!(fields.claim(&snake("xY")), "x_y_3");
        assert_eq!(fields.claim(&snake("type")), "r#type");
        assert_eq!(fields.claim(&snake("Type")), "type_2");
        assert_eq!(fields.claim(&snake("self")), "self_");
        assert_eq!(fields.claim(&snake("Self")), "self_2");
        assert!(fields.contains("r#type"));

        let mut types = Names::new(Case::Camel);
        assert_eq!(types.claim("SpecFooBar"), "SpecFooBar");
        assert_eq!(types.claim("SpecFooBar"), "SpecFooBar2");
        assert_eq!(types.claim("SpecFooBar"), "SpecFooBar3");
        assert_eq!(types.claim("V1"), "V1");
        assert_eq!(types.claim("V1"), "V1_2");
    }
}
