//! `rig diff`: every case through both sides, live: Minecraft's classes on the JVM (or the
//! test fixture) and the Rust containers, compared op by op, reported as `rig check` reports
//! a recording: each divergence in full, then a summary, then `N passed, M failed`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use harness::compare::first_divergence;
use harness::exec::Executor;
use harness::known::Known;
use harness::rust::RustExecutor;
use harness::store::Store;

use super::jvm_cases;
use crate::jvm::JvmArgs;

/// Arguments of `rig diff`.
#[derive(clap::Args, Default)]
pub struct Args {
    /// Case files or folders (default: cases/ops/).
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub jvm: JvmArgs,
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
    let (setup, mut jvm) = args.jvm.start()?;
    let jvm_name = format!("minecraft (jvm: {})", setup.source);
    let mut rust = RustExecutor::new();
    // Cases listed as known divergences (with their reason) count as expected, as in check.
    let known = Known::load(&Store::find().known_path()).map_err(|e| e.to_string())?;
    let mut expected_count = 0usize;
    let started = Instant::now();
    let (mut agree, mut diverge, mut failed, mut ops) = (0usize, 0usize, 0usize, 0usize);
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
        let on_jvm = jvm.run(&case);
        jvm_time += t.elapsed();
        let t = Instant::now();
        let on_rust = rust.run(&case);
        rust_time += t.elapsed();
        match (on_jvm, on_rust) {
            (Ok(expected), Ok(actual)) => {
                ops += case.ops.len();
                match first_divergence(&case, &expected, &actual) {
                    None => agree += 1,
                    Some(d) => match known.reason(&case.name) {
                        Some(reason) => {
                            expected_count += 1;
                            println!(
                                "case {}: op {}: {} diverges, as expected: {reason}",
                                case.name, d.op, d.op_text
                            );
                        }
                        None => {
                            diverge += 1;
                            println!("{}", d.report(&case, "minecraft (jvm)", "paletted (rust)"));
                        }
                    },
                }
            }
            (Err(e), _) => {
                if let Some(why) = jvm.unusable() {
                    return Err(format!("the JVM side cannot run: {why}"));
                }
                failed += 1;
                println!(
                    "case {} ({}): the JVM side failed: {e}\n",
                    case.name,
                    file.display()
                );
            }
            (_, Err(e)) => {
                failed += 1;
                println!(
                    "case {} ({}): the Rust side failed: {e}\n",
                    case.name,
                    file.display()
                );
            }
        }
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "rig diff: {} cases, {ops} ops through both sides in {secs:.2}s ({:.0} ops/s): \
         {agree} agree, {diverge} diverge, {failed} failed to run{}\n  jvm side: {jvm_name}\n  \
         time: jvm side {:.2}s (JVM start included), rust side {:.2}s",
        files.len(),
        ops as f64 / secs.max(1e-9),
        if jvm.crashes > 0 {
            format!(" ({} JVM crashes, each restarted)", jvm.crashes)
        } else {
            String::new()
        },
        jvm_time.as_secs_f64(),
        rust_time.as_secs_f64()
    );
    // The closing line `rig check` ends with too.
    if expected_count > 0 {
        println!(
            "{agree} passed, {} failed, {expected_count} expected",
            diverge + failed
        );
    } else {
        println!("{agree} passed, {} failed", diverge + failed);
    }
    Ok(diverge == 0 && failed == 0)
}
