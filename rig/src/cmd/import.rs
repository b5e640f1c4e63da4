//! `rig import`: splits recordings (golden format) into op lists
//! (`cases/ops/<name>.json`) and snapshots (`snapshots/<name>.snap`).

use std::path::PathBuf;
use std::process::ExitCode;

use harness::recorded::Recorded;
use harness::store::{self, Store, StoreError};

/// Arguments of `rig import`.
#[derive(clap::Args)]
pub struct Args {
    /// Recorded case files (golden format), or folders of them.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Replace an existing case whose ops differ from the recording's, or a
    /// snapshot whose recorded results differ (without it, each result that
    /// would change is named and nothing is written).
    #[arg(long)]
    pub force: bool,
}

/// Who import says recorded a file that names no recorder itself.
pub const RECORDER: &str = "rig import of a golden-format file";

/// Runs `rig import`.
pub fn run(args: Args) -> ExitCode {
    let store = super::store();
    let (mut imported, mut unchanged, mut failed) = (0, 0, 0);
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
            Ok(true) => imported += 1,
            Ok(false) => unchanged += 1,
            Err(e) => {
                eprintln!("{e}");
                failed += 1;
            }
        }
    }
    if unchanged > 0 {
        println!("{imported} imported, {unchanged} unchanged, {failed} failed");
    } else {
        println!("{imported} imported, {failed} failed");
    }
    if failed > 0 || imported + unchanged == 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Files one recording; `false` when the store already held it as it is.
fn import_one(store: &Store, path: &std::path::Path, force: bool) -> Result<bool, String> {
    let shown = store.relative(path).to_path_buf();
    let text = store::read(path).map_err(|e| e.to_string())?;
    let recorded = Recorded::parse(&text, &shown).map_err(|e| e.to_string())?;
    if let Some(why) = store.refusal(&Store::provenance(&recorded, RECORDER, "")) {
        return Err(format!("{}: not imported: {why}", shown.display()));
    }
    store
        .import(&recorded, RECORDER, &shown.to_string_lossy(), force)
        .map(|filed| !filed.unchanged())
        .map_err(|e| match e {
            StoreError::Write(_) => format!("{}: {e}", shown.display()),
            e => format!("{}: not imported: {e}", shown.display()),
        })
}
