//! `rig shrink`: cuts a diverging case down to a regression case.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use gen::plant::{Plant, Planted};
use harness::case::Case;
use harness::exec::Executor;
use harness::recorded::Recorded;
use harness::rust::RustExecutor;
use harness::store::{self, Store};

/// Arguments of `rig shrink`.
#[derive(clap::Args)]
pub struct Args {
    /// A case name (`ladder/biomes-r8`, its snapshot holding the results),
    /// or a recorded case file (golden format), on which the Rust containers
    /// disagree with the recording; with `--plant`, any case or op list.
    pub case: String,
    /// Write the shrunk case to this folder (otherwise it is printed).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Shrink a copy of the Rust executor with this planted bug instead
    /// (count-order, short-write, long-bit): proves the shrinker. Against
    /// the recording when the case has one, else against the Rust containers.
    #[arg(long)]
    pub plant: Option<String>,
}

/// Runs `rig shrink`.
///
/// A recorded case shrinks without Minecraft ([`gen::shrink::shrink_recorded`]):
/// to the first op the Rust side disagrees on, less the ops before it that
/// only observe, so the kept ops keep their recorded results. It is written
/// as a recording derived from its parent, which `rig add` files and `rig
/// check` verifies against the parent. An op list with no results shrinks
/// only with `--plant`, the Rust containers standing in for Minecraft, as
/// an op list awaiting recording.
pub fn run(args: Args) -> ExitCode {
    match shrink(&args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("rig shrink: {e}");
            ExitCode::FAILURE
        }
    }
}

fn shrink(args: &Args) -> Result<ExitCode, String> {
    let path = Path::new(&args.case);
    let store = super::store();
    let plant = match &args.plant {
        Some(name) => {
            let names: Vec<&str> = Plant::ALL.iter().map(|(n, _)| *n).collect();
            Some(
                Plant::named(name)
                    .ok_or_else(|| format!("no plant {name:?} (one of {})", names.join(", ")))?,
            )
        }
        None => None,
    };
    let (case, recorded) = load(&store, &args.case)?;
    let Some(recorded) = recorded else {
        let Some(plant) = plant else {
            return Err(format!(
                "{} holds no recorded results, so nothing to disagree with: record it, shrink it against a live Minecraft, or use --plant",
                path.display()
            ));
        };
        return ops_only(args, &case, plant);
    };
    let (mut exec, tested): (Box<dyn Executor>, String) = match plant {
        Some(p) => (
            Box::new(Planted::new(p)),
            format!(
                "a copy of the Rust containers with the planted bug {}",
                args.plant.as_deref().unwrap_or_default()
            ),
        ),
        None => (Box::new(RustExecutor::new()), "the Rust containers".into()),
    };
    // The error names the case already.
    let derived = gen::shrink::shrink_recorded(&recorded, exec.as_mut())?;
    let last = derived.kept.last().copied().unwrap_or(0);
    let why = format!("{tested} first disagree with the recording at the parent's op {last}");
    let recording = derived.recording(&recorded, &why);
    eprintln!(
        "rig shrink: {} from {} to {} ops ({} runs): kept the parent's ops {} with their recorded results; {why}",
        recorded.case.name,
        derived.from_ops,
        derived.case.ops.len(),
        derived.tests,
        indices(&derived.kept)
    );
    // The shrunk case's divergence, as `rig check` will report it, and the self-checks after.
    eprint!("{}", divergence(exec.as_mut(), &recording));
    write(args, &recording.case.name, &recording.to_text())
}

/// `recording`'s divergence on `exec`, reported as `rig check` does (the op, the recorded
/// result and `exec`'s), then `exec`'s failed self-checks.
fn divergence(exec: &mut dyn Executor, recording: &Recorded) -> String {
    let case = &recording.case;
    let Ok(checked) = exec.run_checked(case) else {
        return String::new();
    };
    let name = exec.name();
    let report = match harness::compare::measure(case, &recording.results, &checked.results).0 {
        harness::compare::Comparison::Differs(d) => d.report_with(case, "recorded", &name, false),
        _ => String::new(),
    };
    let checks = harness::verdict::self_check_report(case, &name, &checked.self_checks, false);
    format!("{report}{checks}")
}

/// `--plant` on a case with no results: the Rust containers stand in for
/// Minecraft, so only the ops are kept (results come only from Minecraft).
fn ops_only(args: &Args, case: &Case, plant: Plant) -> Result<ExitCode, String> {
    let (mut rust, mut planted) = (RustExecutor::new(), Planted::new(plant));
    let shrunk = gen::shrink(case, gen::shrink::executors_differ(&mut rust, &mut planted))
        .map_err(|e| format!("{}: {e}", args.case))?;
    let why = format!(
        "the Rust containers and a copy with the planted bug {} disagree",
        args.plant.as_deref().unwrap_or_default()
    );
    eprintln!(
        "rig shrink: {} from {} to {} ops ({} runs)",
        case.name,
        shrunk.from_ops,
        shrunk.case.ops.len(),
        shrunk.tests
    );
    let regression = gen::shrink::as_regression(&shrunk, &case.name, &why);
    write(args, &regression.name, &regression.to_text())
}

/// Writes the shrunk case to `--out`, or prints it.
fn write(args: &Args, name: &str, text: &str) -> Result<ExitCode, String> {
    match &args.out {
        Some(dir) => {
            let file = name.rsplit('/').next().unwrap_or(name);
            let written = dir.join(format!("{file}.json"));
            harness::atomic::write(&written, text)?;
            eprintln!(
                "rig shrink: wrote {} (file it with `rig add {}`)",
                written.display(),
                written.display()
            );
        }
        None => print!("{text}"),
    }
    Ok(ExitCode::SUCCESS)
}

/// The case, and the recording it is part of when it has results: a
/// recording file, or a store case with its snapshot (its `source` from the
/// snapshot's provenance).
fn load(store: &Store, arg: &str) -> Result<(Case, Option<Recorded>), String> {
    let as_path = Path::new(arg);
    if as_path.is_file() {
        let text = store::read(as_path).map_err(|e| e.to_string())?;
        if Recorded::has_results(&text) {
            let r = Recorded::parse(&text, as_path).map_err(|e| e.to_string())?;
            return Ok((r.case.clone(), Some(r)));
        }
    }
    let (case, results) = super::repro::load(store, arg)?;
    let Some(results) = results else {
        return Ok((case, None));
    };
    let snapshot = store.snapshot_path(&case.name);
    let source = harness::snapshot::Snapshot::load(&snapshot)
        .ok()
        .and_then(|s| s.provenance.get("source").map(str::to_string))
        .unwrap_or_default();
    let recorded = Recorded {
        case: case.clone(),
        source,
        results,
        format: harness::case::FORMAT,
    };
    Ok((case, Some(recorded)))
}

/// `0-32, 34, 36`: ascending op indices, runs of three or more as ranges,
/// so a long kept prefix stays one short line.
pub(crate) fn indices(kept: &[usize]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < kept.len() {
        let mut j = i;
        while j + 1 < kept.len() && kept[j + 1] == kept[j] + 1 {
            j += 1;
        }
        if j >= i + 2 {
            parts.push(format!("{}-{}", kept[i], kept[j]));
        } else {
            parts.extend(kept[i..=j].iter().map(usize::to_string));
        }
        i = j + 1;
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    #[test]
    fn kept_ops_read_as_ranges() {
        assert_eq!(super::indices(&[5, 7, 12]), "5, 7, 12");
        let mut kept: Vec<usize> = (0..=32).collect();
        kept.extend([34, 36, 37, 40, 41, 42]);
        assert_eq!(super::indices(&kept), "0-32, 34, 36, 37, 40-42");
        assert_eq!(super::indices(&[]), "");
    }
}
