//! `crd explain`.

use std::io::Write;

/// Runs `crd explain` with its arguments. `Err` is a usage mistake (the
/// caller prints it with the usage text).
pub fn command(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, String> {
    let _ = (args, out, err);
    Err("`crd explain` is not available yet".to_owned())
}
