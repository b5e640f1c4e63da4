//! `rig probe-server`: the child process that holds the JVM (started by `rig diff`, `record`
//! and `fuzz`, never by hand). Speaks length-prefixed JSON frames on stdin/stdout.

use std::process::ExitCode;

/// Arguments of `rig probe-server` (none: the parent sends a start frame).
#[derive(clap::Args, Default)]
pub struct Args {}

/// Serves cases until stdin closes.
pub fn run(_args: Args) -> ExitCode {
    match crate::jvm::server::serve_stdio() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}
