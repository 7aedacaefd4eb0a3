//! The `crd` command line tool.

use std::io::Write;

/// Runs the tool with `args` (without the program name); returns the exit code.
pub fn run(_args: &[String], _out: &mut dyn Write, _err: &mut dyn Write) -> i32 {
    0
}
