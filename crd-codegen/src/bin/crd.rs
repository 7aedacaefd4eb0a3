//! The `crd` command line tool.

use crd_schema::limits::Limits;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // A stack deep enough for documents nested as deep as `--max-depth`
    // allows; the memory is reserved, and only used by deep documents.
    let worker = std::thread::Builder::new()
        .name("crd".to_owned())
        .stack_size(Limits::STACK_BYTES)
        .spawn(move || crd_codegen::cli::run(&args, &mut std::io::stdout(), &mut std::io::stderr()));
    let code = match worker.map(std::thread::JoinHandle::join) {
        Ok(Ok(code)) => code,
        // The panic message is already on stderr.
        Ok(Err(_)) => 101,
        Err(e) => {
            eprintln!("error: cannot start the worker thread: {e}");
            2
        }
    };
    std::process::exit(code);
}
