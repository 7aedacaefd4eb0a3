//! The `crd` command line tool.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // A stack deep enough for documents nested as deep as `--max-depth`
    // allows; the memory is reserved, and only used by deep documents.
    let code =
        crd_schema::limits::with_deep_stack(|| crd_cli::run(&args, &mut std::io::stdout(), &mut std::io::stderr()));
    std::process::exit(code);
}
