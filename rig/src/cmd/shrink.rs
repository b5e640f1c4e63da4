//! `rig shrink`: cuts a diverging recorded case down to a regression case.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use harness::recorded::Recorded;
use harness::rust::RustExecutor;

/// Arguments of `rig shrink`.
#[derive(clap::Args)]
pub struct Args {
    /// A recorded case (golden format, with results) on which the Rust
    /// containers disagree with the recording.
    pub case: PathBuf,
    /// Write the shrunk op list to this folder (otherwise it is printed).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Runs `rig shrink`.
///
/// Recorded results hold only for the recorded op list, so against a
/// recording the sound cuts leave the recorded state alone: the case ends at
/// the first op the Rust side disagrees on, and keeps every op before it
/// that changes the subject (observations go). A live-Minecraft predicate
/// (`gen::shrink::shrink` takes any) cuts further.
pub fn run(args: Args) -> ExitCode {
    let text = match std::fs::read_to_string(&args.case) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("rig shrink: cannot read {}: {e}", args.case.display());
            return ExitCode::FAILURE;
        }
    };
    let recorded = match Recorded::parse(&text, &args.case) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("rig shrink: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut rust = RustExecutor::new();
    let shrunk = match gen::shrink::shrink_recorded(&recorded, &mut rust) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("rig shrink: {}: {e}", args.case.display());
            return ExitCode::FAILURE;
        }
    };
    eprintln!(
        "rig shrink: {} from {} to {} ops ({} runs): the ops that change the subject, up to the first the Rust containers disagree on",
        recorded.case.name,
        shrunk.from_ops,
        shrunk.case.ops.len(),
        shrunk.tests
    );
    let why = "the Rust containers disagree with the recorded result of the last op";
    match &args.out {
        Some(dir) => {
            match gen::shrink::write_regression(&shrunk, &recorded.case.name, why, Path::new(dir)) {
                Ok(path) => {
                    eprintln!(
                        "rig shrink: wrote {} (file it with `rig add`)",
                        path.display()
                    );
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("rig shrink: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        None => {
            let case = gen::shrink::as_regression(&shrunk, &recorded.case.name, why);
            print!("{}", case.to_text());
            ExitCode::SUCCESS
        }
    }
}
