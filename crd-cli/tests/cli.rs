//! The command line itself: help, version, completions and usage mistakes,
//! through `crd_cli::run` as the binary calls it; and `crd diff` end to end
//! (`cli/diff.rs`, in this binary so that it links no test binary more).

#[path = "cli/diff.rs"]
mod diff;

/// Runs `crd` with `args`; returns the exit code, stdout and stderr.
fn crd(args: &[&str]) -> (i32, String, String) {
    let args: Vec<String> = args.iter().map(|s| (*s).to_owned()).collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = crd_cli::run(&args, &mut out, &mut err);
    (code, String::from_utf8(out).expect("UTF-8 stdout"), String::from_utf8(err).expect("UTF-8 stderr"))
}

/// Every command with the options it takes besides the limits.
const COMMANDS: &[(&str, &[&str])] = &[
    ("check", &["--schema", "--format"]),
    ("prune", &["--crd", "--schema", "--version", "--root", "--no-default", "--format"]),
    ("validate", &["--crd", "--schema", "--old", "--format"]),
    ("openapi", &["--crd", "--group", "--version", "--v2", "-o, --output"]),
    ("explain", &["--crd", "--version", "--recursive"]),
    ("generate", &["--strict-enums", "--allow-non-structural", "--derive", "-o, --output"]),
    ("diff", &["--objects", "--allow", "--format"]),
    ("completions", &[]),
];

const LIMITS: &[&str] = &[
    "--max-input-bytes",
    "--max-depth",
    "--max-aliases",
    "--max-nodes",
    "--max-alias-nodes",
    "--max-properties",
    "--max-pattern-bytes",
];

#[test]
fn every_command_help_names_each_option() {
    for (command, options) in COMMANDS {
        for help in [&[*command, "--help"][..], &[*command, "-h"], &["help", *command]] {
            let (code, out, err) = crd(help);
            assert_eq!((code, err.as_str()), (0, ""), "{help:?}");
            assert!(out.contains(&format!("Usage: crd {command}")), "{help:?}: {out}");
            for option in options.iter().chain(LIMITS) {
                assert!(out.contains(option), "{help:?} does not name {option}: {out}");
            }
        }
    }
}

#[test]
fn the_tool_help_lists_every_command_and_limit() {
    for help in [&["help"][..], &["--help"], &["-h"]] {
        let (code, out, err) = crd(help);
        assert_eq!((code, err.as_str()), (0, ""), "{help:?}");
        for (command, _) in COMMANDS {
            assert!(out.contains(&format!("\n  {command} ")), "{help:?} does not list {command}: {out}");
        }
        for limit in LIMITS {
            assert!(out.contains(limit), "{help:?} does not name {limit}: {out}");
        }
        assert!(out.contains("Exit codes: 0 valid, 1 invalid, 2 could not run"), "{out}");
    }
    // Without a command: the help, as a usage mistake.
    let (code, out, err) = crd(&[]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("Usage: crd [OPTIONS] <COMMAND>"), "{err}");
}

#[test]
fn only_the_tool_has_a_version_flag() {
    let expected = format!("crd {}\n", env!("CARGO_PKG_VERSION"));
    for version in ["--version", "-V"] {
        assert_eq!(crd(&[version]), (0, expected.clone(), String::new()));
    }
    // `--version V` of a command picks a CRD version: it needs a value.
    let (code, out, err) = crd(&["explain", "--crd", "x.yaml", "widgets", "--version"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.starts_with("error: a value is required for '--version <V>'"), "{err}");
}

#[test]
fn completions_for_every_shell() {
    for (shell, marker) in [
        ("bash", "complete -F _crd"),
        ("zsh", "#compdef crd"),
        ("fish", "complete -c crd"),
        ("powershell", "Register-ArgumentCompleter"),
        ("elvish", "edit:completion:arg-completer[crd]"),
    ] {
        let (code, out, err) = crd(&["completions", shell]);
        assert_eq!((code, err.as_str()), (0, ""), "{shell}");
        assert!(out.contains(marker), "{shell}: {out}");
        assert!(out.contains("max-pattern-bytes") && out.contains("strict-enums"), "{shell}: {out}");
    }
    let (code, _, err) = crd(&["completions", "tcsh"]);
    assert_eq!(code, 2);
    assert!(err.contains("[possible values: bash, elvish, fish, powershell, zsh]"), "{err}");
}

#[test]
fn unknown_options_get_a_suggestion() {
    let (code, out, err) = crd(&["check", "--fromat", "json", "crd.yaml"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.starts_with("error: unexpected argument '--fromat' found\n"), "{err}");
    assert!(err.contains("tip: a similar argument exists: '--format'"), "{err}");
    assert!(err.contains("Usage: crd check"), "{err}");

    let (code, _, err) = crd(&["prune", "--max-dpeth", "5", "--crd", "crd.yaml", "in.yaml"]);
    assert_eq!(code, 2);
    assert!(err.contains("tip: a similar argument exists: '--max-depth'"), "{err}");

    let (code, _, err) = crd(&["chekc", "crd.yaml"]);
    assert_eq!(code, 2);
    assert!(err.contains("tip: a similar subcommand exists: 'check'"), "{err}");
}

#[test]
fn option_forms() {
    // `--option=value`, repeated options (the last wins) and options after
    // the inputs all parse; the run then fails on the missing file.
    for args in [
        &["check", "--format=json", "--format", "text", "/nonexistent/crd.yaml"][..],
        &["check", "/nonexistent/crd.yaml", "--max-depth=5", "--max-depth", "6"],
        &[
            "prune",
            "--crd",
            "/nonexistent/a.yaml",
            "--crd=/nonexistent/b.yaml",
            "/nonexistent/in.yaml",
            "--format=json",
        ],
        &["generate", "/nonexistent/crd.yaml", "-o", "/nonexistent/out.rs", "--derive=a::B", "--derive", "c::D"],
    ] {
        let (code, _, err) = crd(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains("/nonexistent/") && !err.contains("Usage:"), "{args:?}: {err}");
    }
}

#[test]
fn checks_after_parsing_keep_their_messages() {
    for (args, message) in [
        (&["prune", "--schema", "s.yaml", "--version", "v1", "in.yaml"][..], "`--version` needs `--crd`"),
        (&["prune", "--crd", "c.yaml", "--schema", "s.yaml", "in.yaml"], "`--crd` and `--schema` cannot be combined"),
        (&["prune", "in.yaml"], "`crd prune` needs `--crd PATH` or `--schema FILE`"),
        (
            &["validate", "--crd", "c.yaml", "--format", "xml", "in.yaml"],
            "unknown format `xml`; expected `text` or `json`",
        ),
        (
            &["prune", "--format", "toml", "--crd", "c.yaml", "in.yaml"],
            "unknown format `toml`; expected `yaml` or `json`",
        ),
        (&["openapi"], "`crd openapi` needs `--crd PATH` (a CRD file or directory)"),
    ] {
        let (code, out, err) = crd(args);
        assert_eq!((code, out.as_str()), (2, ""), "{args:?}");
        assert!(err.starts_with("error: ") && err.contains(message), "{args:?}: {err}");
    }
}
