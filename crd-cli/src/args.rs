//! The command line of `crd`, as clap (derive) definitions.
//!
//! Entry point: [`parse`], which turns the arguments into an [`Invocation`]:
//! the task with its checked options, and the limits. Parsing goes in two
//! steps, as the rest of the workspace does (parse, then check): clap reads
//! the syntax into [`Cli`], then `Command::check` applies the rules clap
//! cannot express (`--crd` or `--schema`, and which options go with which)
//! and builds each command module's own `Args`.
//!
//! Error policy: every usage mistake is a [`clap::Error`] (exit code 2),
//! whether clap found it or the checks did, so that all of them read alike:
//! the message, the command's usage and a pointer to `--help`. `--help`,
//! `help` and `--version` are clap "errors" too, meant for stdout with exit
//! code 0. The limit options keep the tool's own messages
//! ("max-depth must be at most 1024").

use std::ffi::OsStr;
use std::marker::PhantomData;
use std::path::PathBuf;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Arg, ArgMatches, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use clap_complete::Shell;
use crd_schema::diff::Code;
use crd_schema::limits::{Limit, Limits};

use super::{check, diff, explain, generate, openapi, prune, validate};

/// `crd [limits] <command> [options]`.
#[derive(Debug, Parser)]
#[command(
    name = "crd",
    version,
    about = "Check, prune, validate, explain, diff and generate Rust types from Kubernetes CRDs, without a cluster",
    after_help = "Every command takes the limit options (--max-*): a larger input is an error naming the file, \
                  the place and the limit.\n\nExit codes: 0 valid, 1 invalid, 2 could not run.",
    subcommand_required = true,
    arg_required_else_help = true
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
    /// The `--max-*` options, global so that every command takes them.
    #[command(flatten)]
    pub limits: LimitArgs,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check CRDs (files or directories) as the API server would
    Check(CheckArgs),
    /// Print what the API server stores for each object (pruned and defaulted)
    Prune(PruneArgs),
    /// Tell whether the API server would accept each object (all checks, CEL rules included)
    Validate(ValidateArgs),
    /// Print the OpenAPI document the API server publishes for the CRDs' group-version
    Openapi(OpenapiArgs),
    /// Print field documentation like `kubectl explain`
    Explain(ExplainArgs),
    /// Generate Rust types whose serde decoding is the API server's pruning and defaulting
    Generate(GenerateArgs),
    /// Tell whether a new revision of CRDs is safe to apply over the old one
    ///
    /// Exit codes: 0 no error-severity finding (or each one's code given with --allow),
    /// 1 an error-severity finding, 2 could not run.
    Diff(DiffArgs),
    /// Print the completion script for a shell to stdout
    ///
    /// For example `crd completions bash > ~/.local/share/bash-completion/completions/crd`,
    /// or `crd completions zsh > "${fpath[1]}/_crd"`.
    Completions {
        /// The shell to complete for.
        shell: Shell,
    },
}

/// `crd check`.
#[derive(Debug, clap::Args)]
#[command(
    args_override_self = true,
    override_usage = "crd check [--format text|json] PATH...\n       crd check --schema [--format text|json] FILE..."
)]
pub struct CheckArgs {
    /// Check bare openAPIV3Schema documents instead of CRDs (schema checks only).
    #[arg(long)]
    pub schema: bool,
    /// Output: rustc-like diagnostics, or a JSON list of {file, name, version, errors, warnings}.
    #[arg(long, value_name = "FORMAT", default_value = "text", value_parser = FormatParser::<check::Format>::new())]
    pub format: check::Format,
    /// CRD files (YAML or JSON, one or more documents each; a `List` counts as its items) or directories, searched recursively
    /// for .yaml, .yml and .json files; schema files with --schema.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
}

/// `crd prune`.
#[derive(Debug, clap::Args)]
#[command(
    args_override_self = true,
    override_usage = "crd prune --crd PATH... [--version V] [--no-default] [--format yaml|json] INPUT...\n       \
                      crd prune --schema FILE [--root] [--no-default] [--format yaml|json] INPUT..."
)]
pub struct PruneArgs {
    /// A CRD file or directory (repeatable); objects are matched to a CRD by the group of their
    /// apiVersion and their kind.
    #[arg(long = "crd", value_name = "PATH")]
    pub crds: Vec<PathBuf>,
    /// A bare openAPIV3Schema file to prune against, instead of CRDs.
    #[arg(long, value_name = "FILE")]
    pub schema: Option<PathBuf>,
    /// The CRD version whose schema applies (with --crd); by default the version each object's
    /// apiVersion names.
    #[arg(long, value_name = "V")]
    pub version: Option<String>,
    /// With --schema: the objects are whole resources (apiVersion, kind, metadata).
    #[arg(long)]
    pub root: bool,
    /// Do not apply the schema's defaults.
    #[arg(long)]
    pub no_default: bool,
    /// Output: a multi-document YAML stream, or one compact JSON document per line.
    #[arg(long, value_name = "FORMAT", default_value = "yaml", value_parser = FormatParser::<prune::Format>::new())]
    pub format: prune::Format,
    /// The objects: YAML or JSON files, one or more documents each (a `List`, as `kubectl get -o yaml` writes, counts as its items).
    #[arg(required = true, value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,
}

/// `crd validate`.
#[derive(Debug, clap::Args)]
#[command(
    args_override_self = true,
    override_usage = "crd validate --crd PATH... [--old FILE]... [--format text|json] INPUT...\n       \
                      crd validate --schema FILE [--old FILE]... [--format text|json] INPUT..."
)]
pub struct ValidateArgs {
    /// A CRD file or directory (repeatable); objects are matched to a CRD by the group of their
    /// apiVersion and their kind.
    #[arg(long = "crd", value_name = "PATH")]
    pub crds: Vec<PathBuf>,
    /// A bare openAPIV3Schema file to validate values against, instead of CRDs.
    #[arg(long, value_name = "FILE")]
    pub schema: Option<PathBuf>,
    /// A file with the objects' previous state (repeatable): an object found there (same
    /// apiVersion, kind, namespace and name) is validated as an update, so transition rules run.
    #[arg(long, value_name = "FILE")]
    pub old: Vec<PathBuf>,
    /// Output: rustc-like diagnostics, or a JSON list with one entry per object.
    #[arg(long, value_name = "FORMAT", default_value = "text", value_parser = FormatParser::<check::Format>::new())]
    pub format: check::Format,
    /// The objects: YAML or JSON files, one or more documents each (a `List`, as `kubectl get -o yaml` writes, counts as its items).
    #[arg(required = true, value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,
}

/// `crd diff`.
#[derive(Debug, clap::Args)]
#[command(
    args_override_self = true,
    override_usage = "crd diff [--format text|json] [--allow CODE]... OLD NEW [--objects PATH...]"
)]
pub struct DiffArgs {
    /// The old revision: a CRD file or a directory of them (CRDs are paired by name).
    #[arg(value_name = "OLD")]
    pub old: PathBuf,
    /// The new revision: a CRD file or a directory of them.
    #[arg(value_name = "NEW")]
    pub new: PathBuf,
    /// The objects stored today (files or directories): each is run through the new revision
    /// as an update that changes nothing, as a fresh create, and through pruning.
    #[arg(long, value_name = "PATH", num_args = 1..)]
    pub objects: Vec<PathBuf>,
    /// Accept the error-severity findings of this code (repeatable): they are still reported,
    /// but do not fail the run.
    #[arg(long, value_name = "CODE", value_parser = PossibleValuesParser::new(Code::ALL.iter().map(|c| c.as_str())))]
    pub allow: Vec<String>,
    /// Output: rustc-like diagnostics, or a JSON list of findings.
    #[arg(long, value_name = "FORMAT", default_value = "text", value_parser = FormatParser::<check::Format>::new())]
    pub format: check::Format,
}

/// `crd openapi`.
#[derive(Debug, clap::Args)]
#[command(
    args_override_self = true,
    override_usage = "crd openapi --crd PATH... [--group G] [--version V] [--v2] [-o FILE]"
)]
pub struct OpenapiArgs {
    /// A CRD file or directory (repeatable).
    #[arg(long = "crd", value_name = "PATH")]
    pub crds: Vec<PathBuf>,
    /// The group to publish, when the CRDs span several.
    #[arg(long, value_name = "G")]
    pub group: Option<String>,
    /// The version to publish; by default the preferred served version of the group.
    #[arg(long, value_name = "V")]
    pub version: Option<String>,
    /// Print Swagger 2.0 (the CRDs' part of /openapi/v2) instead of OpenAPI 3.0.
    #[arg(long)]
    pub v2: bool,
    /// Write the document to FILE instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// More CRD files or directories, as with --crd.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
}

/// `crd explain`.
#[derive(Debug, clap::Args)]
#[command(
    args_override_self = true,
    override_usage = "crd explain --crd PATH... [--version V] [--recursive] RESOURCE[.FIELD...]"
)]
pub struct ExplainArgs {
    /// A CRD file or directory (repeatable).
    #[arg(long = "crd", value_name = "PATH", required = true)]
    pub crds: Vec<PathBuf>,
    /// The served version to explain; by default the one kubectl prefers.
    #[arg(long, value_name = "V")]
    pub version: Option<String>,
    /// Print the field tree below the path, without descriptions.
    #[arg(long)]
    pub recursive: bool,
    /// A CRD's plural, singular, kind or short name (or plural.group), then a field path:
    /// `widgets`, `widgets.spec.size`.
    #[arg(value_name = "RESOURCE[.FIELD...]")]
    pub resource: String,
}

/// `crd generate`.
#[derive(Debug, clap::Args)]
#[command(
    args_override_self = true,
    override_usage = "crd generate [--strict-enums] [--allow-non-structural] [--derive PATH]... [-o FILE|DIR] PATH..."
)]
pub struct GenerateArgs {
    /// Make an unlisted enum value a decoding error instead of an `Unknown(String)` variant.
    #[arg(long)]
    pub strict_enums: bool,
    /// Generate serde_json::Value, with a warning, for each schema node that is not structural
    /// instead of failing.
    #[arg(long)]
    pub allow_non_structural: bool,
    /// One more derive for every generated struct and enum, as a path (repeatable):
    /// `schemars::JsonSchema`.
    #[arg(long = "derive", value_name = "PATH")]
    pub derives: Vec<String>,
    /// Write to FILE, or with a DIR (an existing directory, or a path ending in /) one file per
    /// input file; files are written only when their content changed. Default: stdout.
    #[arg(short, long, value_name = "FILE|DIR")]
    pub output: Option<PathBuf>,
    /// CRD files or directories, searched recursively.
    #[arg(required = true, value_name = "PATH")]
    pub inputs: Vec<PathBuf>,
}

/// A checked command line.
#[derive(Debug)]
pub struct Invocation {
    /// What to run.
    pub task: Task,
    /// The `--max-*` limits.
    pub limits: Limits,
}

impl Invocation {
    /// Whether the task needs a stack of [`Limits::STACK_BYTES`] for
    /// documents as deep as `--max-depth` allows. `generate` does not: the
    /// generator takes one itself for deep documents only
    /// ([`with_stack_for`](crd_schema::limits::with_stack_for)), and a new
    /// thread for shallow ones costs more than its start.
    pub fn needs_deep_stack(&self) -> bool {
        !matches!(self.task, Task::Generate(_) | Task::Completions(_))
    }
}

/// A command with its checked options: each command module's own `Args`.
#[derive(Debug)]
pub enum Task {
    /// `crd check`.
    Check(CheckArgs),
    /// `crd prune`.
    Prune(prune::Args),
    /// `crd validate`.
    Validate(validate::Args),
    /// `crd openapi`.
    Openapi(openapi::Args),
    /// `crd explain`.
    Explain(explain::Args),
    /// `crd generate`.
    Generate(generate::Args),
    /// `crd diff`.
    Diff(diff::Args),
    /// `crd completions`.
    Completions(Shell),
}

/// Parses `args` (without the program name). `Err` is a usage mistake, or
/// the help or version text that was asked for: [`clap::Error::use_stderr`]
/// says which stream it belongs on, [`clap::Error::exit_code`] the code.
pub fn parse(args: &[String]) -> Result<Invocation, clap::Error> {
    let mut cli = Cli::command();
    let argv = std::iter::once("crd").chain(args.iter().map(String::as_str));
    let matches = cli.try_get_matches_from_mut(argv).map_err(|e| in_our_words(e, &mut cli, args))?;
    let parsed = Cli::from_arg_matches(&matches).map_err(|e| e.format(&mut cli))?;
    let name = matches.subcommand_name();
    let mut mistake = |message: String| usage_error(&mut cli, name, message);
    let limits = parsed.limits.resolve(args).map_err(&mut mistake)?;
    let task = parsed.command.check().map_err(mistake)?;
    Ok(Invocation { task, limits })
}

/// The completion script for `shell`.
pub fn completions(shell: Shell) -> Vec<u8> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "crd", &mut script);
    script
}

/// A usage mistake found after parsing, rendered as clap renders its own:
/// the message, then the usage of `command` (the tool's without one).
fn usage_error(cli: &mut clap::Command, command: Option<&str>, message: String) -> clap::Error {
    match command.and_then(|name| cli.find_subcommand_mut(name)) {
        Some(sub) => sub.error(ErrorKind::ValueValidation, message),
        None => cli.error(ErrorKind::ValueValidation, message),
    }
}

/// clap's error in the tool's terms: a limit option at the end of the
/// arguments "needs a value" (the tool's words), and every usage mistake
/// shows the usage, including those clap prints without (a missing or
/// invalid value).
fn in_our_words(mut e: clap::Error, cli: &mut clap::Command, args: &[String]) -> clap::Error {
    if !e.use_stderr() {
        return e;
    }
    let command = args.iter().find(|a| cli.find_subcommand(a.as_str()).is_some()).map(String::as_str);
    let no_value = matches!(e.get(ContextKind::InvalidValue), Some(ContextValue::String(v)) if v.is_empty());
    if let (ErrorKind::InvalidValue, true, Some(ContextValue::String(arg))) =
        (e.kind(), no_value, e.get(ContextKind::InvalidArg))
    {
        let flag = arg.split(' ').next().unwrap_or_default();
        if flag.strip_prefix("--").and_then(Limit::from_name).is_some() {
            let message = format!("`{flag}` needs a value");
            return usage_error(cli, command, message);
        }
    }
    if e.get(ContextKind::Usage).is_none() {
        let usage = match command.and_then(|name| cli.find_subcommand_mut(name)) {
            Some(sub) => sub.render_usage(),
            None => cli.render_usage(),
        };
        e.insert(ContextKind::Usage, ContextValue::StyledStr(usage));
    }
    e
}

impl Command {
    /// Applies the rules clap cannot express; `Err` is the usage mistake.
    fn check(self) -> Result<Task, String> {
        Ok(match self {
            Command::Check(args) => Task::Check(args),
            Command::Prune(args) => Task::Prune(args.try_into()?),
            Command::Validate(args) => Task::Validate(args.try_into()?),
            Command::Openapi(args) => Task::Openapi(args.try_into()?),
            Command::Explain(args) => Task::Explain(args),
            Command::Generate(args) => Task::Generate(args),
            Command::Diff(DiffArgs { old, new, objects, allow, format }) => {
                Task::Diff(diff::Args { old, new, objects, allow, format })
            }
            Command::Completions { shell } => Task::Completions(shell),
        })
    }
}

impl TryFrom<PruneArgs> for prune::Args {
    type Error = String;

    // Against CRDs or against one bare schema; `--version` picks a CRD
    // version, so it needs CRDs.
    fn try_from(args: PruneArgs) -> Result<Self, String> {
        let PruneArgs { crds, schema, version, root, no_default, format, inputs } = args;
        let target = match (crds.is_empty(), schema) {
            (false, None) => prune::Target::Crd { paths: crds, version },
            (true, Some(path)) if version.is_none() => prune::Target::Schema { path, root },
            (true, Some(_)) => return Err("`--version` needs `--crd`".to_owned()),
            (true, None) => return Err("`crd prune` needs `--crd PATH` or `--schema FILE`".to_owned()),
            (false, Some(_)) => return Err("`--crd` and `--schema` cannot be combined".to_owned()),
        };
        Ok(prune::Args { target, no_default, format, inputs })
    }
}

impl TryFrom<ValidateArgs> for validate::Args {
    type Error = String;

    // Against CRDs or against one bare schema.
    fn try_from(args: ValidateArgs) -> Result<Self, String> {
        let ValidateArgs { crds, schema, old, format, inputs } = args;
        let target = match (crds.is_empty(), schema) {
            (false, None) => validate::Target::Crd(crds),
            (true, Some(path)) => validate::Target::Schema(path),
            (true, None) => return Err("`crd validate` needs `--crd PATH` or `--schema FILE`".to_owned()),
            (false, Some(_)) => return Err("`--crd` and `--schema` cannot be combined".to_owned()),
        };
        Ok(validate::Args { target, old, format, inputs })
    }
}

impl TryFrom<OpenapiArgs> for openapi::Args {
    type Error = String;

    // Bare paths are CRD paths too; one of either is needed.
    fn try_from(args: OpenapiArgs) -> Result<Self, String> {
        let OpenapiArgs { mut crds, group, version, v2, output, paths } = args;
        crds.extend(paths);
        if crds.is_empty() {
            return Err("`crd openapi` needs `--crd PATH` (a CRD file or directory)".to_owned());
        }
        Ok(openapi::Args { crds, version, group, v2, output })
    }
}

/// The `--max-*` options, one per [`Limit`], made from [`Limit::ALL`] so
/// that the names and defaults are crd-schema's. Values are kept as text
/// and checked by [`LimitArgs::resolve`], which words the errors.
#[derive(Debug, Default)]
pub struct LimitArgs {
    given: Vec<(Limit, String)>,
}

impl LimitArgs {
    /// What each limit bounds, for `--help`.
    fn help(limit: Limit) -> String {
        let what = match limit {
            Limit::InputBytes => "Largest file, in bytes",
            Limit::Depth => "Deepest nesting of a document",
            Limit::Aliases => "Most YAML aliases and anchors in a file",
            Limit::Nodes => "Most YAML nodes in a file, aliases expanded",
            Limit::AliasNodes => "Most YAML nodes that alias expansion adds to a file",
            Limit::Properties => "Most properties in one schema, all levels",
            Limit::PatternBytes => "Longest `pattern` of a schema, in bytes",
        };
        match limit {
            Limit::Depth => format!("{what} (at most {})", Limits::MAX_DEPTH_CEILING),
            _ => what.to_owned(),
        }
    }

    /// The limits: the defaults, with the given ones set by
    /// [`Limits::set`], which checks them in the order of `args` (the
    /// command line), so that the first mistake is the one reported.
    pub fn resolve(&self, args: &[String]) -> Result<Limits, String> {
        let mut given: Vec<&(Limit, String)> = self.given.iter().collect();
        // clap keeps the last of repeated options; clap's indices restart
        // in each command, so the order comes from the arguments.
        given.sort_by_key(|(limit, _)| {
            let (flag, inline) = (format!("--{}", limit.name()), format!("--{}=", limit.name()));
            args.iter().rposition(|a| *a == flag || a.starts_with(&inline))
        });
        let mut limits = Limits::default();
        for (limit, value) in given {
            let name = limit.name();
            let number =
                value.parse::<usize>().map_err(|_| format!("`--{name}` needs a whole number, not `{value}`"))?;
            limits.set(*limit, number).map_err(|e| e.to_string())?;
        }
        Ok(limits)
    }
}

impl FromArgMatches for LimitArgs {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let given = Limit::ALL
            .into_iter()
            .filter_map(|limit| matches.get_one::<String>(limit.name()).map(|value| (limit, value.clone())))
            .collect();
        Ok(LimitArgs { given })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl clap::Args for LimitArgs {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        Limit::ALL.into_iter().fold(cmd, |cmd, limit| {
            cmd.arg(
                Arg::new(limit.name())
                    .long(limit.name())
                    .value_name("N")
                    .global(true)
                    // `--max-aliases -1` is a bad number, not an unknown option.
                    .allow_hyphen_values(true)
                    .help_heading("Limits")
                    .help(format!("{} [default: {}]", Self::help(limit), Limits::DEFAULT.get(limit))),
            )
        })
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

/// The value parser of `--format`: the formats of `F`, and for any other
/// value the tool's message ("unknown format `xml`; expected `text` or
/// `json`") within clap's.
#[derive(Clone, Debug)]
struct FormatParser<F>(PhantomData<F>);

impl<F> FormatParser<F> {
    fn new() -> Self {
        FormatParser(PhantomData)
    }
}

impl<F: ValueEnum + Clone + Send + Sync + 'static> TypedValueParser for FormatParser<F> {
    type Value = F;

    fn parse_ref(&self, cmd: &clap::Command, arg: Option<&Arg>, value: &OsStr) -> Result<F, clap::Error> {
        let parse = |text: &str| {
            F::from_str(text, false).map_err(|_| {
                let names: Vec<String> = F::value_variants()
                    .iter()
                    .filter_map(ValueEnum::to_possible_value)
                    .map(|v| format!("`{}`", v.get_name()))
                    .collect();
                format!("unknown format `{text}`; expected {}", names.join(" or "))
            })
        };
        parse.parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(F::value_variants().iter().filter_map(ValueEnum::to_possible_value)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_definitions_are_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn limits_keep_their_order_and_messages() {
        let parse = |args: &[&str]| parse(&args.iter().map(|a| (*a).to_owned()).collect::<Vec<_>>());
        let invocation = parse(&["check", "--max-depth=7", "x", "--max-nodes", "9"]).expect("valid");
        assert_eq!((invocation.limits.max_depth, invocation.limits.max_nodes), (7, 9));
        let err = parse(&["--max-aliases", "x", "check", "--max-depth", "0", "x"]).expect_err("two bad limits");
        assert!(err.to_string().starts_with("error: `--max-aliases` needs a whole number, not `x`\n"), "{err}");
    }
}
