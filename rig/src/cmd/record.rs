//! `rig record`: runs cases through the JVM side and writes what it gave as snapshots
//! (`snapshots/<name>.snap`, with provenance: the jar's version and SHA-1, or `--source`), and
//! with `--golden DIR` as golden-format files too. Results from the test fixture say so, and
//! `rig check` refuses them as Minecraft truth. Each case runs under every identity-hash
//! regime ([`crate::jvm::regimes`]); an op the Rust side's model flags as able to depend on
//! the run ([`harness::hashdep`]) is recorded as any of what they gave, never as a fact, and
//! a disagreement on an op it does not flag is reported as a finding, not recorded.

use std::path::PathBuf;
use std::process::ExitCode;

use harness::exec::Executor;
use harness::recorded::Recorded;
use harness::snapshot::{Provenance, Snapshot};
use harness::store::Store;

use super::jvm_cases;
use crate::jvm::{regimes, JvmArgs};

/// Arguments of `rig record`.
#[derive(clap::Args, Default)]
pub struct Args {
    /// Case files or folders (default: cases/ops/).
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub jvm: JvmArgs,
    /// Also write each recording, golden format, as DIR/<name>.json.
    #[arg(long, value_name = "DIR")]
    pub golden: Option<PathBuf>,
    /// The repository whose cases/ops and snapshots/ to write (default: the one holding the
    /// current directory).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// Replace existing snapshots whose results differ (never needed for new cases).
    #[arg(long)]
    pub force: bool,
}

/// Runs `rig record`.
pub fn run(args: Args) -> ExitCode {
    match record(args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("rig record: {e}");
            ExitCode::from(2)
        }
    }
}

fn record(args: Args) -> Result<bool, String> {
    let store = args.root.clone().map_or_else(Store::find, Store::at);
    let paths = if args.paths.is_empty() {
        vec![store.root().join("cases").join("ops")]
    } else {
        args.paths.clone()
    };
    let files = jvm_cases::files(&paths)?;
    let (setup, mut jvm) = args.jvm.start()?;
    if setup.fixture {
        eprintln!("rig record: the class path is the rig's test fixture; these records say so and are never Minecraft truth");
    }
    let mut provenance = Provenance::recording(&setup.source, "rig record (JVM probe)");
    if let Some(v) = &setup.minecraft_version {
        provenance = provenance.with("minecraft_version", v);
    }
    if let Some(sha) = &setup.jar_sha1 {
        provenance = provenance.with("jar_sha1", sha);
    }
    let (mut written, mut failed) = (0usize, 0usize);
    // Ops whose result differed between the JVM's identity-hash regimes, kept as any of them.
    let mut run_dependent = 0usize;
    for file in &files {
        let case = match jvm_cases::load(file) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("{e}");
                failed += 1;
                continue;
            }
        };
        let results = match jvm.run(&case) {
            Ok(r) => r,
            Err(e) => {
                if let Some(why) = jvm.unusable() {
                    return Err(format!("the JVM side cannot run: {why}"));
                }
                eprintln!(
                    "case {} ({}): the JVM side failed: {e}",
                    case.label(),
                    file.display()
                );
                failed += 1;
                continue;
            }
        };
        // An op that can depend on the run is recorded as any of what the regimes gave,
        // even when they agreed; a disagreement the model does not flag is not recorded.
        let marked = regimes::mark(&case, results);
        if !marked.unflagged.is_empty() {
            for &op in &marked.unflagged {
                eprint!("{}", regimes::finding(&case, op, &marked.results));
            }
            failed += 1;
            continue;
        }
        run_dependent += marked.run_dependent;
        let results = marked.results;
        harness::store::check_name(&case.name).map_err(|e| format!("{}: {e}", file.display()))?;
        let snapshot = Snapshot {
            provenance: provenance
                .clone()
                .with("recorded_from", &file.display().to_string()),
            results: results.clone(),
        };
        let snap_path = store.snapshot_path(&case.name);
        if let Err(why) = may_replace(&store, &snap_path, &snapshot) {
            eprintln!("case {}: {why}", case.name);
            failed += 1;
            continue;
        }
        match store.put(&case, Some(&snapshot), args.force) {
            Ok(_) => {}
            Err(e @ harness::store::StoreError::Write(_)) => return Err(e.to_string()),
            Err(e) => {
                eprintln!("case {}: {e}", case.name);
                failed += 1;
                continue;
            }
        }
        if let Some(dir) = &args.golden {
            // The provenance goes with the file, so an import of it is held to the same
            // gate: `rig record` results are truth only through a listed jar.
            let mut case = case.clone();
            for key in ["recorder", "minecraft_version", "jar_sha1"] {
                if let Some(v) = provenance.get(key) {
                    case.extra.insert(key.into(), v.into());
                }
            }
            let recorded = Recorded {
                case,
                source: setup.source.clone(),
                results,
                format: harness::case::FORMAT,
            };
            harness::atomic::write(
                &dir.join(format!("{}.json", recorded.case.name)),
                recorded.to_text(),
            )?;
        }
        written += 1;
    }
    if let Some(why) = store.refusal(&provenance) {
        eprintln!("rig record: warning: rig check will not take these snapshots as truth: {why}");
    }
    println!(
        "rig record: {written} of {} cases recorded from {}{}{}",
        files.len(),
        setup.source,
        if run_dependent > 0 {
            format!(
                "; {} (recorded as any of the results the identity-hash regimes gave)",
                harness::compare::run_dependent_count(run_dependent)
            )
        } else {
            String::new()
        },
        if failed > 0 {
            format!("; {failed} failed")
        } else {
            String::new()
        }
    );
    Ok(failed == 0)
}

/// Whether a new snapshot may replace the one at `path`: one the provenance gate accepts (a
/// recording from Minecraft) is never replaced by one it refuses (the fixture, an unnamed
/// class path). Different results replace it only with `--force` ([`Store::put`]).
fn may_replace(store: &Store, path: &std::path::Path, new: &Snapshot) -> Result<(), String> {
    let Ok(old) = Snapshot::load(path) else {
        return Ok(());
    };
    if store.refusal(&old.provenance).is_none() {
        if let Some(why) = store.refusal(&new.provenance) {
            return Err(format!(
                "not replacing {}, a recording from Minecraft, with results the provenance gate refuses ({why})",
                path.display()
            ));
        }
    }
    Ok(())
}
