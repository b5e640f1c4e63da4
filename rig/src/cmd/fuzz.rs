//! `rig fuzz`: generated cases (the `gen` families, seeded) through both sides, live. On the
//! first divergence the case is shrunk against the live JVM, saved as a regression case with
//! the JVM side's results as its snapshot, and the command says how to replay it.
//!
//! With `--executor CMD` an adapter takes the Rust containers' place. With `--reference
//! paletted` too, the Rust containers stand in for Minecraft (no JVM): the shrunk case is
//! saved as an op list awaiting recording, with no snapshot, since Rust results are never
//! truth.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use harness::case::Case;
use harness::compare::{compare, measure, run_dependent_count, Comparison};
use harness::exec::Executor;
use harness::snapshot::{Provenance, Snapshot};
use harness::store::Store;

use super::adapter::SideArgs;
use super::live::{self, Run, Sides};
use crate::jvm::{regimes, Answer, JvmArgs, Setup};

/// Arguments of `rig fuzz`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub jvm: JvmArgs,
    /// The seed (default: from the clock; printed first either way).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Run this long (such as 60s, 5m); the default when --cases is not given is 60s.
    #[arg(long, value_parser = parse_duration)]
    pub time: Option<Duration>,
    /// Run this many cases.
    #[arg(long)]
    pub cases: Option<usize>,
    /// Families to draw from (comma-separated; default: all of gen's default families).
    #[arg(long, value_delimiter = ',')]
    pub families: Vec<String>,
    /// The repository to save regression cases in (default: the one holding the current
    /// directory): cases/ops/regress/ and snapshots/regress/.
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    #[command(flatten)]
    pub sides: SideArgs,
    #[command(flatten)]
    pub jobs: super::Jobs,
}

/// A case on both sides, as the shrinker wants it.
fn both(sides: &mut Sides, case: &Case) -> (Run, Run) {
    let ran = sides.run(case);
    let reference = match ran.reference {
        Answer::Run(run) => run,
        Answer::Same => ran.tested.clone(),
    };
    (reference, ran.tested)
}

/// The two sides' names in a report.
fn labels(sides: &Sides) -> (String, String) {
    let reference = match &sides.jvm {
        Some(_) => "minecraft (jvm)".to_string(),
        None => "paletted (rust, standing in for minecraft)".to_string(),
    };
    let tested = match &sides.adapter {
        Some(a) => a.name(),
        None => "paletted (rust)".to_string(),
    };
    (reference, tested)
}

fn parse_duration(s: &str) -> Result<Duration, String> {
    let (num, unit) = s.split_at(s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len()));
    let n: u64 = num
        .parse()
        .map_err(|_| format!("{s:?} is not a duration such as 60s or 5m"))?;
    match unit {
        "" | "s" => Ok(Duration::from_secs(n)),
        "m" => Ok(Duration::from_secs(n * 60)),
        "h" => Ok(Duration::from_secs(n * 3600)),
        "ms" => Ok(Duration::from_millis(n)),
        _ => Err(format!("{s:?}: the unit is ms, s, m or h")),
    }
}

/// Runs `rig fuzz`.
pub fn run(args: Args) -> ExitCode {
    match fuzz(args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("rig fuzz: {e}");
            ExitCode::from(2)
        }
    }
}

fn fuzz(args: Args) -> Result<bool, String> {
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    });
    println!("rig fuzz: seed {seed}");
    let families: Vec<&'static gen::Family> = if args.families.is_empty() {
        gen::DEFAULT.iter().filter_map(|n| gen::family(n)).collect()
    } else {
        args.families
            .iter()
            .map(|n| gen::family(n).ok_or_else(|| format!("no family {n:?}")))
            .collect::<Result<_, _>>()?
    };
    let limit = match (args.time, args.cases) {
        (None, None) => Some(Duration::from_secs(60)),
        (t, _) => t,
    };
    let store = args.root.clone().map_or_else(Store::find, Store::at);
    let jobs = args.jobs.jvm_children(args.cases);
    let (setup, workers) = Sides::start(&args.jvm, &args.sides, jobs)?;
    let families = at_versions(families, setup.as_ref())?;

    // Cases are generated in one order whatever --jobs is, run on the workers, and judged
    // here in that order: the first divergence reported is the same at any --jobs.
    let generated = (0u64..)
        .flat_map(|round| {
            let round_seed = seed.wrapping_add(round);
            families.clone().into_iter().map(move |f| (round_seed, f))
        })
        .flat_map(|(round_seed, (family, version))| {
            match family.cases_at(round_seed, None, version) {
                Ok(cases) => cases.into_iter().map(Ok).collect::<Vec<_>>(),
                Err(e) => vec![Err(e)],
            }
        })
        .take(args.cases.unwrap_or(usize::MAX));
    let started = Instant::now();
    let mut last_report = Instant::now();
    let (mut cases, mut ops, mut unrunnable) = (0usize, 0usize, 0usize);
    // Ops whose result differed between the JVM's identity-hash regimes: never a divergence.
    let mut run_dependent = 0usize;
    // Cases with nothing compared (every op before the first unsupported state change
    // unsupported), the first one's reason; ops skipped as unsupported.
    let (mut unsupported, mut skipped) = (0usize, 0usize);
    let mut unsupported_why: Option<String> = None;
    let mut stopped: Option<String> = None;
    let mut found: Option<(Case, &'static str)> = None;
    // A case the regimes disagreed on where the model flags nothing: reported, never shrunk.
    let mut finding: Option<String> = None;
    let (reference, tested) = labels(&workers[0]);
    let mut workers = live::in_order(
        workers,
        live::BATCH,
        generated,
        |sides, generated: &[Result<Case, String>]| {
            let cases: Vec<_> = generated.iter().filter_map(|c| c.as_ref().ok()).collect();
            let mut ran = sides.run_batch(&cases).into_iter();
            generated
                .iter()
                .map(|c| {
                    c.as_ref()
                        .ok()
                        .map(|_| ran.next().expect("one result per case"))
                })
                .collect()
        },
        |case, ran| {
            if limit.is_some_and(|t| started.elapsed() >= t) {
                return false;
            }
            let (case, ran) = match (case, ran) {
                (Ok(case), Some(ran)) => (case, ran),
                (Err(e), _) => {
                    stopped = Some(e);
                    return false;
                }
                (Ok(_), None) => unreachable!("every generated case is run"),
            };
            if let Some(why) = ran.unusable() {
                stopped = Some(why);
                return false;
            }
            cases += 1;
            let unsupported_before = unsupported;
            let differs = match (&ran.reference, &ran.tested) {
                // The JVM answered exactly the other side's results.
                (Answer::Same, Ok(_)) => {
                    ops += case.ops.len();
                    None
                }
                (Answer::Run(Ok(on_jvm)), Ok(on_rust)) => {
                    // An op that can depend on the run is never a divergence.
                    let judged = live::judge(&case, on_jvm.clone(), on_rust);
                    run_dependent += judged.run_dependent;
                    if let Some(&op) = judged.unflagged.first() {
                        print!("{}", regimes::finding(&case, op, &judged.marked));
                        finding = Some(case.name.clone());
                        return false;
                    }
                    let (comparison, counts) = measure(&case, &judged.expected, on_rust);
                    ops += counts.compared;
                    skipped += counts.skipped;
                    match comparison {
                        Comparison::Differs(d) => Some(d),
                        Comparison::Unsupported {
                            op,
                            op_text,
                            reason,
                        } => {
                            unsupported += 1;
                            unsupported_why.get_or_insert_with(|| {
                                format!("{} op {op} ({op_text}): {reason}", case.name)
                            });
                            None
                        }
                        Comparison::Same => None,
                    }
                }
                _ => {
                    // A case either side cannot run is not a divergence; counted, and
                    // `rig diff` on it says why.
                    unrunnable += 1;
                    return true;
                }
            };
            if let Some(d) = differs {
                // The tested side's failed self-checks follow the divergence, never replace it.
                println!(
                    "{}{}",
                    d.report(&case, &reference, &tested),
                    harness::verdict::self_check_report(&case, &tested, &ran.self_checks, false)
                );
                let kind = case.ops.kind(d.op);
                found = Some((case, kind));
                return false;
            }
            if unsupported == unsupported_before && !ran.self_checks.is_empty() {
                // Every result agrees, but the tested side failed its own cross-checks: counted
                // with the cases that could not run, as before; `rig diff` on it shows them.
                unrunnable += 1;
                return true;
            }
            if last_report.elapsed() >= Duration::from_secs(5) {
                last_report = Instant::now();
                let secs = started.elapsed().as_secs_f64().max(1e-9);
                println!(
                    "rig fuzz: {cases} cases, {ops} ops, {:.0} cases/s, {:.0} ops/s",
                    cases as f64 / secs,
                    ops as f64 / secs
                );
            }
            true
        },
    );
    if let Some(why) = stopped {
        return Err(why);
    }
    if let Some(name) = finding {
        println!(
            "rig fuzz: stopped at {name}: a run-dependent result the model does not flag (seed {seed}; `rig diff` of the case shows it again)"
        );
        return Ok(false);
    }
    if let Some((case, kind)) = found {
        shrink_and_save(&case, kind, &mut workers[0], setup.as_ref(), &store, seed)?;
        return Ok(false);
    }
    let secs = started.elapsed().as_secs_f64().max(1e-9);
    let measured = cases - unsupported - unrunnable;
    let mut unmeasured = String::new();
    if unsupported > 0 {
        unmeasured.push_str(&format!(
            "; {unsupported} cases unsupported, nothing compared (first: {})",
            unsupported_why.as_deref().unwrap_or("")
        ));
    }
    if skipped > 0 {
        unmeasured.push_str(&format!("; {skipped} unsupported ops skipped"));
    }
    if run_dependent > 0 {
        unmeasured.push_str(&format!(
            "; {} (the result can depend on the JVM's identity hashes: any result agrees)",
            run_dependent_count(run_dependent)
        ));
    }
    if unrunnable > 0 {
        unmeasured.push_str(&format!(
            "; {unrunnable} cases could not run on one side (rig diff says why)"
        ));
    }
    if measured == 0 && cases > 0 {
        return Err(format!(
            "nothing compared: none of the {cases} cases could be compared{unmeasured}; seed {seed}"
        ));
    }
    let of = if measured == cases {
        format!("{cases} cases")
    } else {
        format!("{measured} of {cases} cases")
    };
    println!(
        "rig fuzz: no divergence in {of}, {ops} ops compared ({:.0} cases/s, {:.0} ops/s); seed {seed}{unmeasured}",
        cases as f64 / secs,
        ops as f64 / secs,
    );
    Ok(true)
}

/// The version each family's cases are generated at: its home version, or, when the JVM
/// side's classes refuse that, the first version they run at which the family means
/// something. A family with none is refused before any case is generated, saying why.
fn at_versions(
    families: Vec<&'static gen::Family>,
    setup: Option<&Setup>,
) -> Result<Vec<(&'static gen::Family, paletted::Version)>, String> {
    families
        .into_iter()
        .map(|f| {
            let Some(setup) = setup else {
                return Ok((f, f.home()));
            };
            let Some(why) = setup.classes.refuses(f.home()) else {
                return Ok((f, f.home()));
            };
            paletted::Version::ALL
                .into_iter()
                .find(|&v| f.means_something_at(v) && setup.classes.refuses(v).is_none())
                .map(|v| (f, v))
                .ok_or_else(|| {
                    let at: Vec<String> = paletted::Version::ALL
                        .iter()
                        .filter(|&&v| f.means_something_at(v))
                        .map(|v| v.to_string())
                        .collect();
                    format!(
                        "family {} means nothing at the classes' version: it runs at {} ({why})",
                        f.name,
                        at.join(", ")
                    )
                })
        })
        .collect()
}

/// Shrinks `case` while it still diverges at an op of the same kind (`kind`), so the
/// shrinker cannot slip onto a different difference, then saves it.
fn shrink_and_save(
    case: &Case,
    kind: &str,
    sides: &mut Sides,
    setup: Option<&Setup>,
    store: &Store,
    seed: u64,
) -> Result<(), String> {
    let predicate = |c: &Case| match both(sides, c) {
        (Ok(a), Ok(b)) => {
            // Never chases an op that can depend on the run.
            let a = live::judge(c, a, &b).expected;
            matches!(compare(c, &a, &b), Comparison::Differs(d) if c.ops.kind(d.op) == kind)
        }
        _ => false,
    };
    let shrunk = gen::shrink(case, predicate)?;
    let (reference, tested) = labels(sides);
    println!(
        "rig fuzz: shrunk {} from {} to {} ops against {reference} ({} runs)",
        case.name,
        shrunk.from_ops,
        shrunk.case.ops.len(),
        shrunk.tests
    );
    let dir = store.root().join("cases").join("ops").join("regress");
    let why = match setup {
        Some(setup) => format!("rig fuzz (seed {seed}) found {tested} disagreeing with {}", setup.source),
        None => format!("rig fuzz (seed {seed}) found {tested} disagreeing with the Rust containers (standing in for Minecraft; record it to know which is right)"),
    };
    let path = gen::shrink::write_regression(&shrunk, &case.name, &why, &dir)?;
    let text =
        fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let saved = Case::parse(&text, &path).map_err(|e| e.to_string())?;
    let (on_ref, on_tested) = both(sides, &saved);
    let results = on_ref.map_err(|e| format!("running the shrunk case on {reference}: {e}"))?;
    let tested_results = on_tested.map_err(|e| e.to_string())?;
    let judged = live::judge(&saved, results, &tested_results);
    if let Comparison::Differs(d) = compare(&saved, &judged.expected, &tested_results) {
        println!("{}", d.report(&saved, &reference, &tested));
    }
    // An op that can depend on the run is saved as such, never as one plain result.
    let results = judged.marked;
    let executor_flag = sides
        .adapter
        .as_ref()
        .map(|a| format!(" --executor '{}'", a.command()))
        .unwrap_or_default();
    let Some(setup) = setup else {
        // The Rust containers' results are never truth: no snapshot.
        println!(
            "rig fuzz: saved {} (awaiting recording: `rig record` it)\n  replay live:  rig diff {}{executor_flag} --reference paletted",
            path.display(),
            path.display()
        );
        return Ok(());
    };
    let mut provenance = Provenance::recording(&setup.source, "rig fuzz (JVM probe)")
        .with("seed", &seed.to_string());
    if let Some(v) = &setup.minecraft_version {
        provenance = provenance.with("minecraft_version", v);
    }
    if let Some(sha) = &setup.jar_sha1 {
        provenance = provenance.with("jar_sha1", sha);
    }
    let snap = store.snapshot_path(&saved.name);
    write(
        &snap,
        &Snapshot {
            provenance,
            results,
        }
        .to_text(&saved.name),
    )?;
    // `rig repro` reads the store of the folder it runs in; say where that is when it is
    // not this one.
    let here = Store::find().root().canonicalize().ok();
    let cd = match store.root().canonicalize() {
        Ok(root) if Some(&root) != here.as_ref() => format!("cd {} && ", root.display()),
        _ => String::new(),
    };
    let replay_check = format!("{cd}rig repro{executor_flag} {}", saved.name);
    println!(
        "rig fuzz: saved {} and {}\n  replay live:  rig diff {} {}{executor_flag}\n  replay from the snapshot:  {replay_check}",
        path.display(),
        snap.display(),
        path.display(),
        replay_flags(setup),
    );
    Ok(())
}

fn replay_flags(setup: &Setup) -> String {
    let mut s = String::new();
    for o in &setup.jvm_options {
        s.push_str(&format!(" --jvm-option={o}"));
    }
    match std::env::args().skip_while(|a| a != "--minecraft").nth(1) {
        Some(jar) => format!("--minecraft {jar}{s}"),
        None => format!(
            "--classpath {}{s}",
            crate::jvm::probe::join_classpath(&setup.classpath).unwrap_or_default()
        ),
    }
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    Ok(harness::atomic::write(path, text)?)
}
