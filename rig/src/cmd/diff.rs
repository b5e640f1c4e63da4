//! `rig diff`: every case through both sides, live: Minecraft's classes on the JVM (or the
//! test fixture) and the Rust containers, compared op by op, reported as `rig check` reports
//! a recording: each divergence in full, then a summary, then `N passed, M failed`.
//!
//! With `--executor CMD` an adapter takes the Rust containers' place; with
//! `--reference paletted` too, the Rust containers take Minecraft's (no JVM needed), so an
//! adapter can be diffed on cases that have no recording.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use harness::compare::{compare, run_dependent_count, Comparison};
use harness::exec::Executor;
use harness::known::Known;
use harness::store::Store;

use super::adapter::{is_paletted, SideArgs};
use super::jvm_cases;
use super::live::{self, Sides};
use crate::jvm::{regimes, Answer, JvmArgs};

/// Arguments of `rig diff`.
#[derive(clap::Args, Default)]
pub struct Args {
    /// Case files or folders (default: cases/ops/).
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub jvm: JvmArgs,
    #[command(flatten)]
    pub sides: SideArgs,
    #[command(flatten)]
    pub jobs: super::Jobs,
}

/// Runs `rig diff`.
pub fn run(args: Args) -> ExitCode {
    match diff(args) {
        Ok(clean) if clean => ExitCode::SUCCESS,
        Ok(_) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("rig diff: {e}");
            ExitCode::from(2)
        }
    }
}

fn diff(args: Args) -> Result<bool, String> {
    let paths = if args.paths.is_empty() {
        vec![Store::find().root().join("cases").join("ops")]
    } else {
        args.paths.clone()
    };
    let files = jvm_cases::files(&paths)?;
    let jobs = args.jobs.jvm_children(Some(files.len()));
    // The reference side: the JVM, or the Rust containers standing in for it.
    let (setup, workers) = Sides::start(&args.jvm, &args.sides, jobs)?;
    let on_jvm = setup.is_some();
    let jvm_name = match &setup {
        Some(setup) => format!("minecraft (jvm: {})", setup.source),
        None => "paletted (Rust), standing in for Minecraft".to_string(),
    };
    let (ref_label, ref_side) = match on_jvm {
        true => ("minecraft (jvm)", "JVM"),
        false => ("paletted (rust)", "reference (Rust)"),
    };
    let first_adapter = workers[0].adapter.as_ref();
    let with_adapter = first_adapter.is_some();
    let (actual_label, actual_side) = match first_adapter {
        Some(a) => (a.name(), "adapter".to_string()),
        None => ("paletted (rust)".to_string(), "Rust".to_string()),
    };
    // Cases listed as known divergences (with their reason) count as expected, as in check;
    // the list is paletted's.
    let known = if is_paletted(first_adapter) {
        Known::load(&Store::find().known_path()).map_err(|e| e.to_string())?
    } else {
        Known::none()
    };
    let mut expected_count = 0usize;
    let started = Instant::now();
    let (mut agree, mut diverge, mut failed, mut ops) = (0usize, 0usize, 0usize, 0usize);
    let mut unsupported = 0usize;
    // Ops whose result can depend on the run (harness::hashdep flags them, or the JVM's
    // identity-hash regimes differed on them); cases with a regime disagreement the model
    // does not flag (findings, failures).
    let (mut run_dependent, mut findings) = (0usize, 0usize);
    let (mut jvm_time, mut rust_time) = (Duration::ZERO, Duration::ZERO);
    let mut stopped = None;
    // Each worker loads and runs its cases; they are reported here, in the files' order.
    let mut workers = live::in_order(
        workers,
        live::BATCH,
        files.iter(),
        |sides, files| {
            let loaded: Vec<_> = files.iter().map(|f| jvm_cases::load(f)).collect();
            let cases: Vec<_> = loaded.iter().filter_map(|c| c.as_ref().ok()).collect();
            let mut ran = sides.run_batch(&cases).into_iter();
            loaded
                .into_iter()
                .map(|c| c.map(|case| (case, ran.next().expect("one result per case"))))
                .collect()
        },
        |file, loaded: Result<_, String>| {
            let (case, mut ran) = match loaded {
                Ok(c) => c,
                Err(e) => {
                    println!("{e}");
                    failed += 1;
                    return true;
                }
            };
            jvm_time += ran.reference_time;
            rust_time += ran.tested_time;
            if let Some(why) = ran.adapter_unusable {
                stopped = Some(format!("the adapter cannot run: {why}"));
                return false;
            }
            // The tested side's failed self-checks, reported after the comparison.
            let mut self_checks = std::mem::take(&mut ran.self_checks);
            let agreed = agree;
            match (ran.reference, ran.tested) {
                // The JVM answered exactly the other side's results.
                (Answer::Same, _) => {
                    ops += case.ops.len();
                    agree += 1;
                }
                (Answer::Run(Ok(expected)), Ok(actual)) => {
                    ops += case.ops.len();
                    let judged = live::judge(&case, expected, &actual);
                    run_dependent += judged.run_dependent;
                    if !judged.unflagged.is_empty() {
                        findings += 1;
                        for &op in &judged.unflagged {
                            println!("{}", regimes::finding(&case, op, &judged.marked));
                        }
                        return true;
                    }
                    match compare(&case, &judged.expected, &actual) {
                        Comparison::Same => agree += 1,
                        Comparison::Unsupported { .. } => unsupported += 1,
                        Comparison::Differs(d) => match known.reason(&case.name) {
                            Some(reason) => {
                                expected_count += 1;
                                println!(
                                    "case {}: op {}: {} diverges, as expected: {reason}",
                                    case.label(),
                                    d.op,
                                    d.op_text
                                );
                            }
                            None => {
                                diverge += 1;
                                // The self-checks right after the divergence they follow.
                                let checks = harness::verdict::self_check_report(
                                    &case,
                                    &actual_label,
                                    &std::mem::take(&mut self_checks),
                                    false,
                                );
                                println!("{}{checks}", d.report(&case, ref_label, &actual_label));
                            }
                        },
                    }
                }
                (Answer::Run(Err(e)), _) => {
                    if let Some(why) = ran.jvm_unusable {
                        stopped = Some(format!("the JVM side cannot run: {why}"));
                        return false;
                    }
                    failed += 1;
                    println!(
                        "case {} ({}): the {ref_side} side failed: {e}\n",
                        case.label(),
                        file.display()
                    );
                }
                (_, Err(e)) => {
                    failed += 1;
                    println!(
                        "case {} ({}): the {actual_side} side failed: {e}\n",
                        case.label(),
                        file.display()
                    );
                }
            }
            if !self_checks.is_empty() {
                // Every result matched: the self-checks alone fail the case, as in rig check.
                if agree > agreed {
                    agree -= 1;
                    failed += 1;
                    println!(
                        "case {}: the {actual_side} side's self-check failed, though every result matches the {ref_side} side's",
                        case.label()
                    );
                }
                println!(
                    "{}",
                    harness::verdict::self_check_report(&case, &actual_label, &self_checks, false)
                );
            }
            true
        },
    );
    if let Some(why) = stopped {
        return Err(why);
    }
    let secs = started.elapsed().as_secs_f64();
    let crashes: usize = workers.iter().map(Sides::crashes).sum();
    let restarts: usize = workers.iter().map(Sides::restarts).sum();
    let mut notes = String::new();
    if crashes > 0 {
        notes.push_str(&format!(" ({crashes} JVM crashes, each restarted)"));
    }
    if restarts > 0 {
        notes.push_str(&format!(" ({restarts} adapter restarts)"));
    }
    if run_dependent > 0 {
        notes.push_str(&format!(
            "; {} (the result can depend on the JVM's identity hashes: any result agrees)",
            run_dependent_count(run_dependent)
        ));
    }
    if findings > 0 {
        notes.push_str(&format!(
            "; {findings} cases with a regime disagreement the model does not flag (findings)"
        ));
    }
    let (ref_time, actual_time) = match (on_jvm, with_adapter) {
        (true, false) => ("jvm side", "rust side"),
        (true, true) => ("jvm side", "adapter side"),
        (false, _) => ("reference side", "adapter side"),
    };
    println!(
        "rig diff: {} cases, {ops} ops through both sides in {secs:.2}s ({:.0} ops/s): \
         {agree} agree, {diverge} diverge, {failed} failed to run{}{notes}\n  {}: {jvm_name}\n  \
         time: {ref_time} {:.2}s{}, {actual_time} {:.2}s",
        files.len(),
        ops as f64 / secs.max(1e-9),
        if unsupported > 0 {
            format!(", {unsupported} unsupported")
        } else {
            String::new()
        },
        if on_jvm { "jvm side" } else { "reference" },
        jvm_time.as_secs_f64(),
        if on_jvm { " (JVM start included)" } else { "" },
        rust_time.as_secs_f64()
    );
    if let Some(a) = workers[0].adapter.as_ref() {
        println!("  adapter: {} (`{}`)", a.name(), a.command());
    }
    for a in workers.iter_mut().filter_map(|w| w.adapter.as_mut()) {
        if let Err(e) = a.finish() {
            eprintln!("rig diff: warning: {e}");
        }
    }
    let unsupported = if unsupported > 0 {
        format!(", {unsupported} unsupported")
    } else {
        String::new()
    };
    // The closing line `rig check` ends with too.
    if expected_count > 0 {
        println!(
            "{agree} passed, {} failed, {expected_count} expected{unsupported}",
            diverge + failed + findings
        );
    } else {
        println!(
            "{agree} passed, {} failed{unsupported}",
            diverge + failed + findings
        );
    }
    Ok(diverge == 0 && failed == 0 && findings == 0)
}
