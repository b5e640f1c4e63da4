//! `rig repro`: runs one case and shows its first divergence in full, with
//! the ops leading to it, or the result of one op; through the Rust
//! containers, or an adapter with `--executor`. The executor's own
//! cross-checks that failed (self-checks) are shown after the comparison.

use std::path::Path;
use std::process::ExitCode;

use harness::case::Case;
use harness::compare::{bounded_diff, matches, measure, one_line, Comparison};
use harness::exec::Executor;
use harness::outcome::Outcome;
use harness::recorded::Recorded;
use harness::rust::RustExecutor;
use harness::snapshot::Snapshot;
use harness::store::{self, Store};

/// Arguments of `rig repro`.
#[derive(clap::Args)]
pub struct Args {
    /// A case name (`ladder/biomes-r8`), or a case or recording file.
    pub case: String,
    /// Show this op's result (and the recorded one) instead of the first divergence.
    #[arg(long)]
    pub op: Option<usize>,
    #[command(flatten)]
    pub adapter: super::adapter::AdapterArgs,
    /// How many ops to show before the one that matters (a number at least the case's
    /// length shows the whole case).
    #[arg(long, value_name = "N", default_value_t = 8)]
    pub context: usize,
    /// Show whole results and diffs, and every self-check (by default lists
    /// are cut to their first differences).
    #[arg(long)]
    pub full: bool,
}

/// Runs `rig repro`: the comparison, then the self-checks; exit 1 if
/// either fails.
pub fn run(args: Args) -> ExitCode {
    // A case given as a file brings its checkout's store, as with `rig check`.
    let store = super::store_for(&[std::path::PathBuf::from(&args.case)]);
    let (case, recorded) = match load(&store, &args.case) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("rig repro: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut adapter = match args.adapter.start() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("rig repro: {e}");
            return ExitCode::from(2);
        }
    };
    let mut rust = RustExecutor::new();
    let exec: &mut dyn Executor = match adapter.as_mut() {
        Some(a) => a,
        None => &mut rust,
    };
    let checked = match exec.run_checked(&case) {
        Ok(c) => c,
        Err(e) => {
            eprintln!(
                "rig repro: {}: could not run on {}: {e}",
                case.label(),
                exec.name()
            );
            return ExitCode::FAILURE;
        }
    };
    println!(
        "case {}: {} ({} ops)",
        case.name,
        case.subject,
        case.ops.len()
    );
    if recorded.is_none() {
        println!("no recorded results (awaiting recording): showing the Rust results only");
    }
    let expected = recorded.as_deref().unwrap_or(&[]);
    let actual = &checked.results;
    let code = compared(
        &args,
        &case,
        recorded.is_some(),
        expected,
        actual,
        &exec.name(),
    );
    let checks =
        harness::verdict::self_check_report(&case, &exec.name(), &checked.self_checks, args.full);
    print!("{checks}");
    if checks.is_empty() {
        code
    } else {
        ExitCode::FAILURE
    }
}

/// Shows the comparison of `actual` with `expected` (the first divergence,
/// or `--op`'s result); exit 1 if they differ.
fn compared(
    args: &Args,
    case: &Case,
    recorded: bool,
    expected: &[Outcome],
    actual: &[Outcome],
    name: &str,
) -> ExitCode {
    match args.op {
        Some(n) if n >= case.ops.len() => {
            eprintln!("rig repro: op {n}: the case has {} ops", case.ops.len());
            ExitCode::FAILURE
        }
        Some(n) => {
            leading(case, actual, n, args.context);
            println!("op {n}: {}", case.ops.text(n));
            // The divergence report's order: recorded first, then ours.
            let width = name.len().max("recorded".len());
            if let Some(e) = expected.get(n) {
                println!("  {:<width$}  {}", "recorded", one_line(e));
            }
            let Some(got) = actual.get(n) else {
                println!(
                    "  {name:<width$}  (no result: the run stopped at or before this op; see the self-check below)"
                );
                return ExitCode::FAILURE;
            };
            println!("  {:<width$}  {}", name, one_line(got));
            if let Some(e) = expected.get(n) {
                if matches(e, got) {
                    println!("  (match)");
                } else {
                    print!("{}", bounded_diff(case.ops.kind(n), e, got, args.full));
                    return ExitCode::FAILURE;
                }
            }
            ExitCode::SUCCESS
        }
        None => match measure(case, expected, actual) {
            (Comparison::Differs(d), _) if recorded => {
                leading(case, actual, d.op, args.context);
                print!("{}", d.report_with(case, "recorded", name, args.full));
                ExitCode::FAILURE
            }
            (
                Comparison::Unsupported {
                    op,
                    op_text,
                    reason,
                },
                _,
            ) if recorded => {
                leading(case, actual, op, args.context);
                println!(
                    "op {op}: {op_text}: unsupported by {}: {reason}\n(no op before it changes state, nor could be compared: the case is counted unsupported)",
                    name
                );
                ExitCode::SUCCESS
            }
            (_, counts) => {
                if recorded {
                    if counts.compared == case.ops.len() {
                        println!("all {} ops match the recording", case.ops.len());
                    } else {
                        println!(
                            "all {} compared ops match the recording; {} unsupported op(s) that change no state skipped",
                            counts.compared, counts.skipped
                        );
                        if let Some((op, reason)) = &counts.ended {
                            println!(
                                "op {op}: {}: unsupported by {}: {reason}\n(it changes state: op {op} on are not compared)",
                                case.ops.text(*op),
                                name
                            );
                        }
                    }
                } else {
                    for (i, a) in actual.iter().enumerate() {
                        println!("  {i:>5}  {:<40} {}", case.ops.text(i), one_line(a));
                    }
                }
                ExitCode::SUCCESS
            }
        },
    }
}

/// The `context` ops before op `n`, with their (matching) results, shortened as the
/// divergence lines are.
fn leading(case: &Case, actual: &[Outcome], n: usize, context: usize) {
    let from = n.saturating_sub(context);
    if from > 0 {
        println!("  ... {from} earlier ops (--context {n} shows them)");
    }
    for (i, result) in actual.iter().enumerate().take(n).skip(from) {
        println!("  {i:>5}  {:<40} {}", case.ops.text(i), one_line(result));
    }
}

/// The case, and its recorded results when there are any, from a case name
/// (`ladder/biomes-r8`) or a case or recording file.
pub(crate) fn load(store: &Store, arg: &str) -> Result<(Case, Option<Vec<Outcome>>), String> {
    let as_path = Path::new(arg);
    if as_path.is_file() {
        let text = store::read(as_path).map_err(|e| e.to_string())?;
        if Recorded::has_results(&text) {
            let r = Recorded::parse(&text, as_path).map_err(|e| e.to_string())?;
            return Ok((r.case, Some(r.results)));
        }
        let case = Case::parse(&text, as_path).map_err(|e| e.to_string())?;
        let results = snapshot_of(store, &case)?;
        return Ok((case, results));
    }
    // A path that names no file is not a case name either.
    if as_path.is_absolute() || arg.starts_with("./") || arg.starts_with("../") {
        return Err(format!("{arg}: no such file"));
    }
    let name = arg.trim_end_matches(".json");
    if arg.ends_with(".json") && !store.case_path(name).is_file() {
        return Err(format!(
            "{arg}: no such file, and no case `{name}` in {}",
            store.relative(&store.root().join("cases/ops")).display()
        ));
    }
    store::check_name(name)?;
    let path = store.case_path(name);
    // A container from a captured packet (`rig conformance` names them so), its truth the
    // bytes the server sent.
    if name.starts_with("packets/") && !path.is_file() {
        let dir = store.root().join(crate::packets::CAPTURES);
        return crate::packets::cases(&dir)?
            .into_iter()
            .find(|p| p.case.name == name)
            .map(|p| (p.case, Some(p.results)))
            .ok_or_else(|| {
                format!(
                    "no container `{name}` in the captures under {}",
                    dir.display()
                )
            });
    }
    if !path.is_file() {
        return Err(format!(
            "no case `{name}` (no {})",
            store.relative(&path).display()
        ));
    }
    let text = store::read(&path).map_err(|e| e.to_string())?;
    let case = Case::parse(&text, store.relative(&path)).map_err(|e| e.to_string())?;
    let results = snapshot_of(store, &case)?;
    Ok((case, results))
}

fn snapshot_of(store: &Store, case: &Case) -> Result<Option<Vec<Outcome>>, String> {
    let path = store.snapshot_path(&case.name);
    if !path.is_file() {
        return Ok(None);
    }
    let snap = Snapshot::load(store.relative(&path))
        .or_else(|_| Snapshot::load(&path))
        .map_err(|e| e.to_string())?;
    let gate = store
        .trusted()
        .map(|t| store.gate(&t, case, &snap.results, &snap.provenance));
    if let Some(why) = gate.unwrap_or_else(|e| Some(e.to_string())) {
        eprintln!(
            "warning: {}: {why}; its results are shown but are not truth",
            store.relative(&path).display()
        );
    }
    if snap.results.len() != case.ops.len() {
        return Err(format!(
            "{}: {} results for {} ops",
            store.relative(&path).display(),
            snap.results.len(),
            case.ops.len()
        ));
    }
    Ok(Some(snap.results))
}
