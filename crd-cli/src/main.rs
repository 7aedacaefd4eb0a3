//! The `crd` command line tool.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mut out, mut err) = (std::io::stdout(), std::io::stderr());
    let code = match crd_cli::parse(&args, &mut out, &mut err) {
        // A stack deep enough for documents nested as deep as `--max-depth`
        // allows; the memory is reserved, and only used by deep documents.
        Ok(invocation) if invocation.needs_deep_stack() => crd_schema::limits::with_deep_stack(|| {
            crd_cli::execute(&invocation, &mut std::io::stdout(), &mut std::io::stderr())
        }),
        Ok(invocation) => crd_cli::execute(&invocation, &mut out, &mut err),
        Err(code) => code,
    };
    std::process::exit(code);
}
