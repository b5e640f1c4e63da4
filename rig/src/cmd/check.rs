//! `rig check`: placeholder until the harness lands.

use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `rig check`.
#[derive(clap::Args, Default)]
pub struct Args {
    /// Case files or folders; by default every case with a snapshot.
    pub paths: Vec<PathBuf>,
}

/// Runs `rig check`.
pub fn run(_args: Args) -> ExitCode {
    ExitCode::SUCCESS
}
