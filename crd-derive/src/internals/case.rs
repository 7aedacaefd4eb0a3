//! serde's `rename_all` rules, applied exactly as serde_derive applies them:
//! variant names are taken as PascalCase, field names as snake_case.

/// One `rename_all` rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenameRule {
    /// `lowercase`
    Lower,
    /// `UPPERCASE`
    Upper,
    /// `PascalCase`
    Pascal,
    /// `camelCase`
    Camel,
    /// `snake_case`
    Snake,
    /// `SCREAMING_SNAKE_CASE`
    ScreamingSnake,
    /// `kebab-case`
    Kebab,
    /// `SCREAMING-KEBAB-CASE`
    ScreamingKebab,
}

const RULES: &[(&str, RenameRule)] = &[
    ("lowercase", RenameRule::Lower),
    ("UPPERCASE", RenameRule::Upper),
    ("PascalCase", RenameRule::Pascal),
    ("camelCase", RenameRule::Camel),
    ("snake_case", RenameRule::Snake),
    ("SCREAMING_SNAKE_CASE", RenameRule::ScreamingSnake),
    ("kebab-case", RenameRule::Kebab),
    ("SCREAMING-KEBAB-CASE", RenameRule::ScreamingKebab),
];

impl RenameRule {
    /// The rule serde knows by this name.
    pub fn from_name(name: &str) -> Option<Self> {
        RULES.iter().find(|(n, _)| *n == name).map(|(_, rule)| *rule)
    }

    /// A variant name (PascalCase in Rust) under this rule.
    pub fn apply_to_variant(self, variant: &str) -> String {
        match self {
            Self::Pascal => variant.to_owned(),
            Self::Lower => variant.to_ascii_lowercase(),
            Self::Upper => variant.to_ascii_uppercase(),
            Self::Camel => match variant.chars().next() {
                Some(first) => first.to_ascii_lowercase().to_string() + &variant[first.len_utf8()..],
                None => String::new(),
            },
            Self::Snake => {
                let mut snake = String::new();
                for (i, ch) in variant.char_indices() {
                    if i > 0 && ch.is_uppercase() {
                        snake.push('_');
                    }
                    snake.push(ch.to_ascii_lowercase());
                }
                snake
            }
            Self::ScreamingSnake => Self::Snake.apply_to_variant(variant).to_ascii_uppercase(),
            Self::Kebab => Self::Snake.apply_to_variant(variant).replace('_', "-"),
            Self::ScreamingKebab => Self::ScreamingSnake.apply_to_variant(variant).replace('_', "-"),
        }
    }

    /// A field name (snake_case in Rust) under this rule.
    pub fn apply_to_field(self, field: &str) -> String {
        match self {
            Self::Lower | Self::Snake => field.to_owned(),
            Self::Upper | Self::ScreamingSnake => field.to_ascii_uppercase(),
            Self::Pascal => {
                let mut pascal = String::new();
                let mut capitalize = true;
                for ch in field.chars() {
                    if ch == '_' {
                        capitalize = true;
                    } else if capitalize {
                        pascal.push(ch.to_ascii_uppercase());
                        capitalize = false;
                    } else {
                        pascal.push(ch);
                    }
                }
                pascal
            }
            Self::Camel => {
                let pascal = Self::Pascal.apply_to_field(field);
                match pascal.chars().next() {
                    Some(first) => first.to_ascii_lowercase().to_string() + &pascal[first.len_utf8()..],
                    None => pascal,
                }
            }
            Self::Kebab => field.replace('_', "-"),
            Self::ScreamingKebab => Self::ScreamingSnake.apply_to_field(field).replace('_', "-"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::RenameRule::{self, *};

    #[test]
    fn variants_follow_serde() {
        let cases: &[(&str, &[&str])] = &[
            ("Outcome", &["outcome", "OUTCOME", "Outcome", "outcome", "outcome", "OUTCOME", "outcome", "OUTCOME"]),
            (
                "VeryTasty",
                &[
                    "verytasty",
                    "VERYTASTY",
                    "VeryTasty",
                    "veryTasty",
                    "very_tasty",
                    "VERY_TASTY",
                    "very-tasty",
                    "VERY-TASTY",
                ],
            ),
            ("A", &["a", "A", "A", "a", "a", "A", "a", "A"]),
        ];
        let rules = [Lower, Upper, Pascal, Camel, Snake, ScreamingSnake, Kebab, ScreamingKebab];
        for (name, expected) in cases {
            for (rule, want) in rules.iter().zip(expected.iter()) {
                assert_eq!(rule.apply_to_variant(name), *want, "{rule:?} of {name}");
            }
        }
    }

    #[test]
    fn fields_follow_serde() {
        let cases: &[(&str, &[&str])] = &[
            ("outcome", &["outcome", "OUTCOME", "Outcome", "outcome", "outcome", "OUTCOME", "outcome", "OUTCOME"]),
            (
                "very_tasty",
                &[
                    "very_tasty",
                    "VERY_TASTY",
                    "VeryTasty",
                    "veryTasty",
                    "very_tasty",
                    "VERY_TASTY",
                    "very-tasty",
                    "VERY-TASTY",
                ],
            ),
            ("a", &["a", "A", "A", "a", "a", "A", "a", "A"]),
        ];
        let rules = [Lower, Upper, Pascal, Camel, Snake, ScreamingSnake, Kebab, ScreamingKebab];
        for (name, expected) in cases {
            for (rule, want) in rules.iter().zip(expected.iter()) {
                assert_eq!(rule.apply_to_field(name), *want, "{rule:?} of {name}");
            }
        }
    }

    #[test]
    fn names_parse() {
        assert_eq!(RenameRule::from_name("camelCase"), Some(Camel));
        assert_eq!(RenameRule::from_name("SCREAMING-KEBAB-CASE"), Some(ScreamingKebab));
        assert_eq!(RenameRule::from_name("Camel"), None);
    }
}
