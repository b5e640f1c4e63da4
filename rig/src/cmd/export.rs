//! `rig export`: joins op lists and their snapshots back into recordings
//! in the golden format, byte for byte as they were imported.

use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `rig export`.
#[derive(clap::Args)]
pub struct Args {
    /// Case names (`ladder/biomes-r8`); by default every case with a snapshot.
    pub cases: Vec<String>,
    /// The folder to write `<name>.json` files into.
    #[arg(long)]
    pub out: PathBuf,
}

/// Runs `rig export`.
pub fn run(args: Args) -> ExitCode {
    let store = super::store();
    let names: Vec<String> = if args.cases.is_empty() {
        store
            .entries()
            .into_iter()
            .filter(|e| e.snapshot.is_some())
            .map(|e| e.name)
            .collect()
    } else {
        args.cases.clone()
    };
    let (mut written, mut failed) = (0, 0);
    for name in &names {
        let result = harness::store::check_name(name)
            .and_then(|()| store.export(name))
            .and_then(|recorded| {
                let path = args.out.join(format!("{name}.json"));
                Ok(harness::atomic::write(&path, recorded.to_text())?)
            });
        match result {
            Ok(()) => written += 1,
            Err(e) => {
                eprintln!("{name}: {e}");
                failed += 1;
            }
        }
    }
    println!("{written} exported, {failed} failed");
    if failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
