//! Reading the case files a JVM-side command is given: files, or folders walked for `*.json`,
//! in path order. Recorded files keep their results (for `--against-recorded` style uses).

use std::fs;
use std::path::{Path, PathBuf};

use harness::case::Case;

/// Every `*.json` under the paths (a file is taken as it is), sorted within each folder.
pub fn files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            walk(p, &mut out)?;
        } else if p.is_file() {
            out.push(p.clone());
        } else {
            return Err(format!("{}: no such file or folder", p.display()));
        }
    }
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(|e| format!("cannot list {}: {e}", dir.display()))?
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for e in entries {
        if e.is_dir() {
            walk(&e, out)?;
        } else if e.extension().is_some_and(|x| x == "json") {
            out.push(e);
        }
    }
    Ok(())
}

/// Parses one case file (its results, if any, are not needed here).
pub fn load(path: &Path) -> Result<Case, String> {
    let text =
        fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Case::parse(&text, path).map_err(|e| e.to_string())
}
