//! Tests of the Go regexp syntax checker: Go's error texts for rejected
//! patterns and acceptance of valid ones, as Go's `regexp/syntax`
//! (`parse_test.go`) decides them.

use super::unicode::{min_fold_rune, simple_fold};
use super::*;

fn err(pattern: &str) -> String {
    check(pattern).expect_err(pattern).to_string()
}

#[test]
fn syntax_error_display_is_go_text() {
    let e = check("+").expect_err("+");
    assert_eq!(e, SyntaxError { code: ErrorCode::MissingRepeatArgument, expr: "+".to_owned() });
    assert_eq!(e.to_string(), "error parsing regexp: missing argument to repetition operator: `+`");
}

fn go(code: &str, fragment: &str) -> String {
    format!("error parsing regexp: {code}: `{fragment}`")
}

/// Each case's text was produced by Go's regexp.Compile.
fn assert_errors(cases: &[(&str, &str, &str)]) {
    for &(pattern, code, fragment) in cases {
        assert_eq!(check(pattern).map_err(|e| e.to_string()), Err(go(code, fragment)), "pattern {pattern:?}");
    }
}

#[test]
fn kubernetes_known_texts() {
    assert_eq!(err("+"), "error parsing regexp: missing argument to repetition operator: `+`");
    assert_eq!(err("["), "error parsing regexp: missing closing ]: `[`");
}

#[test]
fn missing_repeat_argument() {
    let code = "missing argument to repetition operator";
    assert_errors(&[
        ("*", code, "*"),
        ("?", code, "?"),
        ("*?", code, "*?"),
        ("{2}", code, "{2}"),
        ("a|*", code, "*"),
        ("(*)", code, "*"),
        ("(?i)*", code, "*"),
        ("(?:+)", code, "+"),
        (r"\Q\E*", code, "*"),
    ]);
    // A repetition applies to anchors and empty groups.
    for pattern in ["^*", "$+", r"\b*", "()+", "(?:)*", "a*(?i)*"] {
        assert_eq!(check(pattern), Ok(()), "{pattern}");
    }
}

#[test]
fn invalid_nested_repetition() {
    let code = "invalid nested repetition operator";
    assert_errors(&[
        ("a**", code, "**"),
        ("a*?*", code, "*?*"),
        ("a+?+?", code, "+?+?"),
        ("a{2}{3}", code, "{2}{3}"),
        ("a{2}*", code, "{2}*"),
        ("a++", code, "++"),
    ]);
}

#[test]
fn invalid_repeat_count() {
    let code = "invalid repeat count";
    assert_errors(&[
        ("a{1001}", code, "{1001}"),
        ("a{2,1}", code, "{2,1}"),
        ("a{1000,1001}", code, "{1000,1001}"),
        ("a{99999999999}", code, "{99999999999}"),
        ("a{1,99999999999}", code, "{1,99999999999}"),
        // Counts are checked before the nesting of operators.
        ("a*{2000}", code, "{2000}"),
        // Nested counts multiply.
        ("(?:[a-z]{4}){0,251}", code, "{0,251}"),
        ("(?:a{10}){101}", code, "{101}"),
        ("((((((((((x{2}){2}){2}){2}){2}){2}){2}){2}){2}){2})", code, "{2}"),
    ]);
    for pattern in ["a{1000}", "(?:[a-z]{4}){0,250}", "((((((((((x{2}){2}){2}){2}){2}){2}){2}){2}){2}))"] {
        assert_eq!(check(pattern), Ok(()), "{pattern}");
    }
}

#[test]
fn braces_that_are_not_repeats_are_literals() {
    for pattern in ["{", "}", "a{", "a{,5}", "a{1", "a{1,", "a{1,2", "x{1001", "a{01}", "a{-1}", "{}", "a{ 1}"] {
        assert_eq!(check(pattern), Ok(()), "{pattern}");
    }
}

#[test]
fn missing_closing_bracket() {
    let code = "missing closing ]";
    assert_errors(&[
        ("[a-z", code, "[a-z"),
        ("[]", code, "[]"),
        ("[^]", code, "[^]"),
        (r"[\d", code, r"[\d"),
        ("abc[", code, "["),
        ("[[:alpha:]", code, "[[:alpha:]"),
        ("x[a-", code, "[a-"),
    ]);
}

#[test]
fn parentheses() {
    assert_errors(&[
        (")", "unexpected )", ")"),
        ("a)", "unexpected )", "a)"),
        ("(a))", "unexpected )", "(a))"),
        ("a|b)", "unexpected )", "a|b)"),
        ("(", "missing closing )", "("),
        ("(a|b", "missing closing )", "(a|b"),
        ("a(b(c)", "missing closing )", "a(b(c)"),
        ("(?i:a", "missing closing )", "(?i:a"),
    ]);
}

#[test]
fn invalid_escapes() {
    let code = "invalid escape sequence";
    assert_errors(&[
        (r"\8", code, r"\8"),
        (r"\q", code, r"\q"),
        (r"\1", code, r"\1"),
        (r"\9", code, r"\9"),
        (r"\é", code, r"\é"),
        (r"\C", code, r"\C"),
        (r"\Z", code, r"\Z"),
        (r"\x", code, r"\x"),
        (r"\xA", code, r"\xA"),
        (r"\xG1", code, r"\xG1"),
        (r"\x{", code, r"\x{"),
        (r"\x{}", code, r"\x{}"),
        (r"\x{110000}", code, r"\x{110000"),
        (r"\x{12G}", code, r"\x{12G"),
        (r"\x{41", code, r"\x{41"),
        (r"[\b]", code, r"\b"),
        (r"[\Q]", code, r"\Q"),
        (r"[a-\d]", code, r"\d"),
    ]);
    assert_eq!(err("\\"), go("trailing backslash at end of expression", ""));
    assert_eq!(err("a\\"), "error parsing regexp: trailing backslash at end of expression: ``");
    assert_eq!(err(r"\\\"), go("trailing backslash at end of expression", ""));
}

#[test]
fn class_ranges_and_names() {
    let code = "invalid character class range";
    assert_errors(&[
        ("[z-a]", code, "z-a"),
        ("[a-Z]", code, "a-Z"),
        ("(?i)[a-Z]", code, "a-Z"),
        (r"[\x{10}-\x01]", code, r"\x{10}-\x01"),
        // Go reports unknown POSIX names with this code too, never with
        // "invalid character class".
        ("[[:foo:]]", code, "[:foo:]"),
        ("[[:^foo:]]", code, "[:^foo:]"),
        (r"\p", code, r"\p"),
        (r"\p{", code, r"\p{"),
        (r"\p{Foo}", code, r"\p{Foo}"),
        (r"\pX", code, r"\pX"),
        (r"\p{Greek", code, r"\p{Greek"),
        (r"\P{^Foo}", code, r"\P{^Foo}"),
        (r"[\p{Foo}]", code, r"\p{Foo}"),
        (r"\p{Latn}", code, r"\p{Latn}"),
    ]);
}

#[test]
fn perl_syntax() {
    let code = "invalid or unsupported Perl syntax";
    assert_errors(&[
        ("(?=a)", code, "(?="),
        ("(?!a)", code, "(?!"),
        ("(?", code, "(?"),
        ("(?i", code, "(?i"),
        ("(?x)", code, "(?x"),
        ("(?-)", code, "(?-)"),
        ("(?i-)", code, "(?i-)"),
        ("(?--i)", code, "(?--"),
        ("(?P=n)", code, "(?P"),
        ("(?P", code, "(?P"),
        ("(?P<", code, "(?P"),
        ("(?<", code, "(?<"),
        ("(?'n'a)", code, "(?'"),
        ("(?#comment)", code, "(?#"),
        ("a(?i-s:b", "missing closing )", "a(?i-s:b"),
    ]);
}

#[test]
fn named_captures() {
    let code = "invalid named capture";
    assert_errors(&[
        ("(?P<>a)", code, "(?P<>"),
        ("(?P<a b>a)", code, "(?P<a b>"),
        ("(?P<name", code, "(?P<name"),
        ("(?<>a)", code, "(?<>"),
        ("(?<name", code, "(?<name"),
        ("(?<é>a)", code, "(?<é>"),
        // Since Go 1.22 `(?<` starts a name, so look-behind reads as a
        // name without its `>`: the rest of the pattern is quoted.
        ("(?<=a)b", code, "(?<=a)b"),
        (r"x(?<!MMI)\.csv", code, r"(?<!MMI)\.csv"),
    ]);
    for pattern in ["(?P<name>a)", "(?<name>a)", "(?P<1>a)", "(?P<_x9>a)(?P<_x9>b)"] {
        assert_eq!(check(pattern), Ok(()), "{pattern}");
    }
}

#[test]
fn invalid_utf8() {
    let expect = |pattern: &[u8], fragment: &str| {
        assert_eq!(check_bytes(pattern).map_err(|e| e.to_string()), Err(go("invalid UTF-8", fragment)), "{pattern:?}");
    };
    expect(b"a\xffb", "\u{fffd}b");
    expect(b"[\xff]", "\u{fffd}]");
    expect(b"\\\xff", "\u{fffd}");
    expect(b"\\Q\xff\\E", "\u{fffd}");
    expect(b"(?P<a\xff>x)", "\u{fffd}");
    // A UTF-8 encoded surrogate is invalid too.
    expect(b"\xed\xa0\x80", "\u{fffd}\u{fffd}\u{fffd}");
    assert_eq!(check_bytes("é\u{fffd}".as_bytes()), Ok(()));
}

#[test]
fn valid_patterns() {
    let patterns = [
        // Real CRD patterns.
        r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$",
        r"^(([0-9]+(\.[0-9]+)?(ms|s|m|h))+)$",
        r"^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$",
        r"^[^\s]+$",
        r"\p{L}",
        r"^(?:[01]?\d|2[0-3]):[0-5]\d$",
        r"^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$",
        r"^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[a-zA-Z0-9]([-a-zA-Z0-9_.]*[a-zA-Z0-9])?$",
        r"^(https?|oci)://[^\s/$.?#].[^\s]*$",
        r"^[0-9]+(\.[0-9]+){0,2}$",
        r"(?i)^(true|false|yes|no)$",
        r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$",
        // The syntax RE2 accepts.
        "",
        "|",
        "(|)",
        r"\d\D\w\W\s\S\b\B\A\z",
        r"\pL\PL\pN\p{Greek}\P{Greek}\p{^Greek}\P{^Lu}\p{Any}\p{Zl}",
        r"[\pL\p{Han}\d_-]",
        r"\Q.*+?\E",
        r"\Qunterminated",
        "(?i)abc",
        "(?i:a)b(?-i:c)(?s).(?m)^$(?U)a*(?ims-U:x)",
        "(?:a|b)",
        "[[:alpha:]][[:^digit:]][[:word:]][[:xdigit:]]",
        "[^a-z]",
        "[]a]",
        "[a-]",
        "[-a]",
        "[a-b-c]",
        r"\x{10FFFF}\x41\x{0041}\x{D800}",
        r"\0\01\012\0123\177",
        r"\12",
        r"\a\f\t\n\r\v",
        r"\.\*\+\?\(\)\[\]\{\}\|\^\$\\\-\_\#\&\~\/\<\>\:\=\!",
        "a{2}b{2,}c{2,3}d{0}e{0,0}f{1000}g*?h+?i??j{2}?",
        "é+Δ*[α-ω]",
        "(a)(?:b)(?P<c>c)(?<d>d)",
    ];
    for pattern in patterns {
        assert_eq!(check(pattern), Ok(()), "{pattern}");
    }
}

#[test]
fn unicode_names_are_matched_loosely() {
    // Go 1.25 ignores case, spaces, `_` and `-` and knows the aliases.
    for pattern in [
        r"\p{greek}",
        r"\p{Uppercase_Letter}",
        r"\p{upper case-let ter}",
        r"\p{ASCII}",
        r"\p{Assigned}",
        r"\pl",
        r"\p{Old_Italic}",
        r"\p{olditalic}",
    ] {
        assert_eq!(check(pattern), Ok(()), "{pattern}");
    }
}

#[test]
fn nesting_depth() {
    let code = "expression nests too deeply";
    let open = |n| "(".repeat(n) + &")".repeat(n);
    assert_eq!(check(&open(999)), Ok(()));
    assert_eq!(err(&open(1000)), go(code, &open(1000)));
    let stars = |n| "(?:".repeat(n) + &")*".repeat(n);
    assert_eq!(check(&stars(999)), Ok(()));
    assert_eq!(err(&stars(1000)), go(code, &stars(1000)));
    // Wide is not deep.
    assert_eq!(check(&format!("({})", "|".repeat(12345))), Ok(()));
    // Factoring `\d\d...1|\d\d...2` nests one level per shared `\d`.
    let factored = |n| format!("{}1|{}2", r"\d".repeat(n), r"\d".repeat(n));
    assert_eq!(check(&factored(999)), Ok(()));
    assert_eq!(err(&factored(1000)), go(code, &factored(1000)));
    assert_eq!(err(&factored(5000)), go(code, &factored(5000)));
    let prefixes = (1..1000).map(|i| "q".repeat(i) + "z").collect::<Vec<_>>().join("|");
    assert_eq!(err(&prefixes), go(code, &prefixes));
}

#[test]
fn expression_too_large() {
    let code = "expression too large";
    // The compiled size estimate: 1000 copies of a literal of 3355 runes fit, 3356 do not.
    let literal = |n| format!("(?:{}){{1000}}", "a".repeat(n));
    assert_eq!(check(&literal(3355)), Ok(()));
    assert_eq!(err(&literal(3356)), go(code, &literal(3356)));
    let nested = format!("({}){{1000}}", "(xx?)".repeat(1000));
    assert_eq!(err(&nested), go(code, &nested));
    let repeated = "(xx?){1000}".repeat(1000);
    assert_eq!(err(&repeated), go(code, &repeated));
    // The rune budget, spent by pushing the same literal again at each group level.
    let wrapped = |n| "(?:".repeat(n) + &"a".repeat(5000) + &")".repeat(n);
    assert_eq!(err(&wrapped(6700)), go(code, &wrapped(6700)));
}

/// Patterns of 1 MB, shaped to hit the quadratic corners of a naive
/// parser, each get Go's answer without overflowing the stack. (How
/// fast is not a test's business: a quadratic corner shows as minutes
/// here.)
#[test]
fn large_inputs_get_go_answers() {
    const MB: usize = 1 << 20;
    let missing_paren = Some("error parsing regexp: missing closing ): ");
    let too_deep = Some("error parsing regexp: expression nests too deeply: ");
    let shapes: Vec<(&str, String, Option<&str>)> = vec![
        ("literal", "a".repeat(MB), None),
        ("open groups", "(".repeat(MB), missing_paren),
        ("balanced groups", "(".repeat(MB / 2) + &")".repeat(MB / 2), too_deep),
        ("non-capturing groups", "(?:".repeat(MB / 8) + &".".repeat(MB / 4) + &")".repeat(MB / 8), None),
        (
            "sized re-pushes",
            "x{1000}".to_string() + &"(?:".repeat(MB / 8) + &".".repeat(MB / 4) + &")".repeat(MB / 8),
            None,
        ),
        ("posix openers", "[".to_string() + &"[:".repeat(MB / 2), Some("error parsing regexp: missing closing ]: ")),
        ("prefix chain", (1..1400).map(|i| "q".repeat(i)).collect::<Vec<_>>().join("|"), too_deep),
        ("class chain", format!("{}1|{}2", r"\d".repeat(MB / 4), r"\d".repeat(MB / 4)), too_deep),
        ("alternatives", (0..MB / 8).map(|i| format!("w{i}")).collect::<Vec<_>>().join("|"), None),
        ("folded classes", r"(?i)[\x{42}-\x{1e942}]".repeat(MB / 22), None),
        ("unicode classes", r"\pL".repeat(MB / 3), None),
        ("repeats", "(?:a{2}){3}".repeat(MB / 11), None),
        ("named openers", "(?P<a>".repeat(MB / 6), missing_paren),
    ];
    for (name, pattern, want) in shapes {
        match (check(&pattern), want) {
            (Ok(()), None) => {}
            (Err(e), Some(prefix)) => assert!(e.to_string().starts_with(prefix), "{name}: {e}"),
            (got, _) => panic!("{name}: {:?}, want {want:?}", got.map_err(|e| e.to_string())),
        }
    }
}

#[test]
fn case_folding_orbits() {
    assert_eq!(simple_fold(u32::from('A')), u32::from('a'));
    assert_eq!(simple_fold(u32::from('a')), u32::from('A'));
    assert_eq!(simple_fold(u32::from('K')), u32::from('k'));
    assert_eq!(simple_fold(u32::from('k')), 0x212A);
    assert_eq!(simple_fold(0x212A), u32::from('K'));
    assert_eq!(simple_fold(u32::from('s')), 0x17F);
    assert_eq!(simple_fold(0x131), 0x131);
    assert_eq!(min_fold_rune(0x3C2), 0x3A3);
    assert_eq!(simple_fold(u32::from('1')), u32::from('1'));
}
