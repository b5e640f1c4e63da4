//! `rig import`: splits recordings (golden format) into op lists
//! (`cases/ops/<name>.json`) and snapshots (`snapshots/<name>.snap`).

use std::path::PathBuf;
use std::process::ExitCode;

use harness::recorded::Recorded;
use harness::store::{self, Store};

/// Arguments of `rig import`.
#[derive(clap::Args)]
pub struct Args {
    /// Recorded case files (golden format), or folders of them.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Replace an existing case whose ops differ from the recording's.
    #[arg(long)]
    pub force: bool,
}

/// Who import says recorded a file that names no recorder itself.
pub const RECORDER: &str = "rig import of a golden-format file";

/// Runs `rig import`.
pub fn run(args: Args) -> ExitCode {
    let store = super::store();
    let (mut imported, mut failed) = (0, 0);
    for path in &args.paths {
        if !path.exists() {
            eprintln!("{}: no such file or folder", path.display());
            failed += 1;
        } else if store::json_files(path).is_empty() {
            eprintln!(
                "{}: no recordings to import (looked for *.json files{})",
                path.display(),
                if path.is_dir() { ", recursively" } else { "" }
            );
            failed += 1;
        }
    }
    for path in args.paths.iter().flat_map(|p| store::json_files(p)) {
        match import_one(&store, &path, args.force) {
            Ok(()) => imported += 1,
            Err(e) => {
                eprintln!("{e}");
                failed += 1;
            }
        }
    }
    println!("{imported} imported, {failed} failed");
    if failed > 0 || imported == 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn import_one(store: &Store, path: &std::path::Path, force: bool) -> Result<(), String> {
    let shown = store.relative(path).to_path_buf();
    let text = store::read(path).map_err(|e| e.to_string())?;
    let recorded = Recorded::parse(&text, &shown).map_err(|e| e.to_string())?;
    if let Some(why) = store.refusal(&Store::provenance(&recorded, RECORDER, "")) {
        return Err(format!("{}: not imported: {why}", shown.display()));
    }
    let existing = store.case_path(&recorded.case.name);
    if !force && existing.is_file() {
        let old = store::read(&existing).map_err(|e| e.to_string())?;
        if old != recorded.case.to_text() {
            return Err(format!(
                "{}: not imported: {} exists with other ops (--force replaces it)",
                shown.display(),
                store.relative(&existing).display()
            ));
        }
    }
    store
        .import(&recorded, RECORDER, &shown.to_string_lossy())
        .map(|_| ())
        .map_err(|e| format!("{}: {e}", shown.display()))
}
