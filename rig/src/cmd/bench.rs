//! `rig bench`: the benchmark workloads (the same ones `cargo bench` runs,
//! from `benches/shared/workloads.rs`) through the Rust containers, timed
//! here, printed as a table beside Minecraft's figures.
//!
//! The Java column needs the JVM probe to time a workload inside the JVM
//! (after JIT warm-up, so JNI is not counted against Java). The probe has no
//! timing op yet, so with `--minecraft` or `--classpath` the command says so
//! and prints the Rust side alone; the table's Minecraft column holds the
//! reference figures of issue 5 (measured on another machine), labelled as
//! such, never as measured here.

use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use crate::jvm::JvmArgs;

#[path = "../../../benches/shared/workloads.rs"]
mod workloads;

/// Arguments of `rig bench`.
#[derive(clap::Args, Default)]
pub struct Args {
    /// Only workloads whose name contains one of these (e.g. `get/` `flat`).
    pub filter: Vec<String>,
    /// Time spent measuring each workload, in milliseconds.
    #[arg(long, default_value_t = 200)]
    pub time_ms: u64,
    /// The Java side (`--minecraft JAR` or `--classpath CP`).
    #[command(flatten)]
    pub jvm: JvmArgs,
}

/// Minecraft's figures from issue 5 (JIT-warmed, best case, on the issue
/// author's machine), in ns per op as this table counts ops: a reference,
/// not a measurement of this run.
fn minecraft_reference(name: &str) -> Option<f64> {
    let section = name.split('/').nth(1).unwrap_or("");
    let block = section != "biome3";
    Some(match name.split('/').next()? {
        "get" if block => 6.0,
        "set" if block => 21.0,
        _ if name == "write/flat" => 470.0,
        _ if name == "write/300" => 1_900.0,
        _ if name == "pack/flat" => 11_000.0,
        _ if name == "pack/300" => 160_000.0,
        _ if name == "counts/flat" => 7_600.0,
        _ if name == "ladder/blocks300" => 300_000.0,
        _ => return None,
    })
}

/// One workload's time for a pass: the median of the batches measured.
struct Timing {
    median: f64,
}

/// Runs passes in batches of at least ~1 ms for `budget`; ns per pass.
fn time(run: &mut dyn FnMut() -> u64, budget: Duration) -> Timing {
    // Warm up, and find how many passes make a batch of about 1 ms.
    let mut per_batch = 1u64;
    loop {
        let t = Instant::now();
        for _ in 0..per_batch {
            black_box(run());
        }
        if t.elapsed() >= Duration::from_millis(1) || per_batch >= 1 << 30 {
            break;
        }
        per_batch *= 2;
    }
    let mut batches = Vec::new();
    let start = Instant::now();
    while start.elapsed() < budget || batches.len() < 5 {
        let t = Instant::now();
        for _ in 0..per_batch {
            black_box(run());
        }
        batches.push(t.elapsed().as_nanos() as f64 / per_batch as f64);
    }
    batches.sort_by(f64::total_cmp);
    Timing {
        median: batches[batches.len() / 2],
    }
}

/// Runs `rig bench`.
pub fn run(args: Args) -> ExitCode {
    let java_asked = args.jvm.minecraft.is_some()
        || args.jvm.classpath.is_some()
        || std::env::var_os("MINECRAFT_JAR").is_some_and(|v| !v.is_empty());
    if java_asked {
        match args.jvm.setup() {
            Ok(setup) => eprintln!(
                "rig bench: Java side not timed: the JVM probe has no op that times a workload \
                 inside the JVM yet (class path from {}); printing the Rust side alone",
                setup.source
            ),
            Err(e) => {
                eprintln!("rig bench: Java side not timed ({e}); printing the Rust side alone")
            }
        }
    } else {
        eprintln!("rig bench: no --minecraft or --classpath: the Rust side alone");
    }

    let budget = Duration::from_millis(args.time_ms.max(1));
    let mut all = workloads::all();
    all.retain(|w| {
        args.filter.is_empty() || args.filter.iter().any(|f| w.name.contains(f.as_str()))
    });
    if all.is_empty() {
        eprintln!("rig bench: no workload matches {:?}", args.filter);
        return ExitCode::from(2);
    }

    let mut rows = Vec::new();
    for mut w in all {
        let t = time(&mut w.run, budget);
        rows.push((w.name, w.ops, t));
    }
    // write/X as a multiple of be_copy/X, the big-endian copy of its longs.
    let floor = |name: &str| {
        let section = name.strip_prefix("write/")?;
        let copy = format!("be_copy/{section}");
        rows.iter().find(|r| r.0 == copy).map(|r| r.2.median)
    };
    println!(
        "{:<24} {:>6} {:>12} {:>10} {:>10} {:>12} {:>11} {:>9}",
        "workload",
        "ops",
        "Rust ns/pass",
        "Rust ns/op",
        "Java ns/op",
        "MC ref ns/op",
        "MC ref/Rust",
        "x floor"
    );
    for (name, ops, t) in &rows {
        let per_op = t.median / *ops as f64;
        let reference = minecraft_reference(name);
        let dash = || "-".to_string();
        println!(
            "{:<24} {:>6} {:>12.1} {:>10.2} {:>10} {:>12} {:>11} {:>9}",
            name,
            ops,
            t.median,
            per_op,
            "-",
            reference.map_or_else(dash, |r| format!("{r}")),
            reference.map_or_else(dash, |r| format!("{:.1}x", r / per_op)),
            floor(name).map_or_else(dash, |f| format!("{:.2}", t.median / f)),
        );
    }
    println!(
        "\nns/pass: median of ~1 ms batches over {} ms a workload. `Java ns/op`: not measured \
         (no timing op in the JVM probe). `MC ref`: Minecraft's figures from issue 5, measured \
         on another machine: a reference, not this run. `be_copy/*` is the physical floor of \
         `write/*` (a big-endian copy of the same longs).",
        budget.as_millis()
    );
    ExitCode::SUCCESS
}
