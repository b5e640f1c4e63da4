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

use harness::compare::{compare, Comparison};
use harness::exec::Executor;
use harness::known::Known;
use harness::rust::RustExecutor;
use harness::store::Store;

use super::adapter::Reference;
use super::adapter::{is_paletted, SideArgs};
use super::jvm_cases;
use crate::jvm::JvmArgs;

/// Arguments of `rig diff`.
#[derive(clap::Args, Default)]
pub struct Args {
    /// Case files or folders (default: cases/ops/).
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub jvm: JvmArgs,
    #[command(flatten)]
    pub sides: SideArgs,
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
    let mut adapter = args.sides.start(args.jvm.case_timeout)?;
    // The reference side: the JVM, or the Rust containers standing in for it.
    let (mut jvm, jvm_name) = match args.sides.reference {
        Reference::Minecraft => {
            let (setup, jvm) = args.jvm.start()?;
            let name = format!("minecraft (jvm: {})", setup.source);
            (Some(jvm), name)
        }
        Reference::Paletted => (
            None,
            "paletted (Rust), standing in for Minecraft".to_string(),
        ),
    };
    let (ref_label, ref_side) = match jvm {
        Some(_) => ("minecraft (jvm)", "JVM"),
        None => ("paletted (rust)", "reference (Rust)"),
    };
    let (actual_label, actual_side) = match &adapter {
        Some(a) => (a.name(), "adapter".to_string()),
        None => ("paletted (rust)".to_string(), "Rust".to_string()),
    };
    let mut rust = RustExecutor::new();
    // Cases listed as known divergences (with their reason) count as expected, as in check;
    // the list is paletted's.
    let known = if is_paletted(adapter.as_ref()) {
        Known::load(&Store::find().known_path()).map_err(|e| e.to_string())?
    } else {
        Known::none()
    };
    let mut expected_count = 0usize;
    let started = Instant::now();
    let (mut agree, mut diverge, mut failed, mut ops) = (0usize, 0usize, 0usize, 0usize);
    let mut unsupported = 0usize;
    let (mut jvm_time, mut rust_time) = (Duration::ZERO, Duration::ZERO);
    for file in &files {
        let case = match jvm_cases::load(file) {
            Ok(c) => c,
            Err(e) => {
                println!("{e}");
                failed += 1;
                continue;
            }
        };
        let t = Instant::now();
        let on_jvm = match jvm.as_mut() {
            Some(jvm) => jvm.run(&case),
            None => rust.run(&case),
        };
        jvm_time += t.elapsed();
        let t = Instant::now();
        let on_rust = match adapter.as_mut() {
            Some(a) => a.run(&case),
            None => rust.run(&case),
        };
        rust_time += t.elapsed();
        if let Some(why) = adapter.as_ref().and_then(|a| a.unusable()) {
            return Err(format!("the adapter cannot run: {why}"));
        }
        match (on_jvm, on_rust) {
            (Ok(expected), Ok(actual)) => {
                ops += case.ops.len();
                match compare(&case, &expected, &actual) {
                    Comparison::Same => agree += 1,
                    Comparison::Unsupported { .. } => unsupported += 1,
                    Comparison::Differs(d) => match known.reason(&case.name) {
                        Some(reason) => {
                            expected_count += 1;
                            println!(
                                "case {}: op {}: {} diverges, as expected: {reason}",
                                case.name, d.op, d.op_text
                            );
                        }
                        None => {
                            diverge += 1;
                            println!("{}", d.report(&case, ref_label, &actual_label));
                        }
                    },
                }
            }
            (Err(e), _) => {
                if let Some(why) = jvm.as_ref().and_then(|j| j.unusable()) {
                    return Err(format!("the JVM side cannot run: {why}"));
                }
                failed += 1;
                println!(
                    "case {} ({}): the {ref_side} side failed: {e}\n",
                    case.name,
                    file.display()
                );
            }
            (_, Err(e)) => {
                failed += 1;
                println!(
                    "case {} ({}): the {actual_side} side failed: {e}\n",
                    case.name,
                    file.display()
                );
            }
        }
    }
    let secs = started.elapsed().as_secs_f64();
    let crashes = jvm.as_ref().map_or(0, |j| j.crashes);
    let restarts = adapter.as_ref().map_or(0, |a| a.restarts);
    let mut notes = String::new();
    if crashes > 0 {
        notes.push_str(&format!(" ({crashes} JVM crashes, each restarted)"));
    }
    if restarts > 0 {
        notes.push_str(&format!(" ({restarts} adapter restarts)"));
    }
    let (ref_time, actual_time) = match (&jvm, &adapter) {
        (Some(_), None) => ("jvm side", "rust side"),
        (Some(_), Some(_)) => ("jvm side", "adapter side"),
        (None, _) => ("reference side", "adapter side"),
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
        if jvm.is_some() {
            "jvm side"
        } else {
            "reference"
        },
        jvm_time.as_secs_f64(),
        if jvm.is_some() {
            " (JVM start included)"
        } else {
            ""
        },
        rust_time.as_secs_f64()
    );
    if let Some(a) = adapter.as_mut() {
        println!("  adapter: {} (`{}`)", a.name(), a.command());
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
            diverge + failed
        );
    } else {
        println!("{agree} passed, {} failed{unsupported}", diverge + failed);
    }
    Ok(diverge == 0 && failed == 0)
}
