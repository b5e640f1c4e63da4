//! `rig coverage`: which palette transitions, storage widths, op kinds and
//! error kinds a set of cases reaches; non-zero exit when one is missing.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use gen::Coverage;
use harness::case::Case;

/// Arguments of `rig coverage`.
#[derive(clap::Args)]
pub struct Args {
    /// Case files or folders (op lists or recorded files). Default: `cases/ops` (every case
    /// once; `cases/golden` holds copies of the same cases), unless `--families` is given.
    /// A case name met twice is counted once.
    pub paths: Vec<PathBuf>,
    /// Measure generated cases too: a family name or `default`; repeatable.
    #[arg(long = "families")]
    pub families: Vec<String>,
    /// The seed for `--families`.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Runs `rig coverage`.
pub fn run(args: Args) -> ExitCode {
    // A wrong family name is a usage error: said before any work or table.
    let mut families = Vec::new();
    for name in &args.families {
        let names: Vec<&str> = if name == "default" {
            gen::DEFAULT.to_vec()
        } else {
            name.split(',').collect()
        };
        for n in names {
            match gen::family(n) {
                Some(f) => families.push(f),
                None => {
                    eprintln!(
                        "rig coverage: no family {n:?} (`rig gen list` lists them; `default` is the generator's default set)"
                    );
                    return ExitCode::from(2);
                }
            }
        }
    }
    let mut cov = Coverage::new();
    let mut bad = 0usize;
    let mut paths = args.paths.clone();
    if paths.is_empty() && args.families.is_empty() {
        paths.push(super::store().root().join("cases").join("ops"));
    }
    let mut names = std::collections::HashSet::new();
    let mut twice = 0usize;
    let mut files = Vec::new();
    for p in &paths {
        if let Err(e) = collect(p, &mut files) {
            eprintln!("rig coverage: {e}");
            bad += 1;
        }
    }
    for file in &files {
        match std::fs::read_to_string(file)
            .map_err(|e| format!("{}: {e}", file.display()))
            .and_then(|t| Case::parse(&t, file).map_err(|e| e.to_string()))
        {
            Ok(case) if !names.insert(case.name.clone()) => twice += 1,
            Ok(case) => cov.add(&case),
            Err(e) => {
                eprintln!("rig coverage: {e}");
                bad += 1;
            }
        }
    }
    for family in families {
        match family.cases(args.seed, None) {
            Ok(cases) => cases.iter().for_each(|c| cov.add(c)),
            Err(e) => {
                eprintln!("rig coverage: {e}");
                bad += 1;
            }
        }
    }
    print!("{}", cov.table());
    if twice > 0 {
        eprintln!("rig coverage: {twice} case(s) met twice by name were counted once");
    }
    for f in &cov.failed {
        eprintln!("rig coverage: could not run {f}");
    }
    if cov.missing().is_empty() && bad == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Every `.json` file at or under `path`, sorted.
fn collect(path: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if meta.is_file() {
        out.push(path.to_path_buf());
        return Ok(());
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
        .map_err(|e| format!("{}: {e}", path.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for e in entries {
        if e.is_dir() {
            collect(&e, out)?;
        } else if e.extension().is_some_and(|x| x == "json") {
            out.push(e);
        }
    }
    Ok(())
}
