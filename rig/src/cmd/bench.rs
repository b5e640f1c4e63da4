//! `rig bench`: the benchmark workloads (the same ones `cargo bench` runs,
//! from `benches/shared/workloads.rs`) through the Rust containers, timed
//! here, and with `--minecraft` or `--classpath` through the Java classes,
//! timed inside the JVM by the probe (`Bench.java`: after JIT warm-up, so
//! neither JNI nor the pipe is counted against Java), printed side by side.
//! The JNI round trip of an empty request is reported on its own line.
//!
//! Each Java workload runs in a fresh JVM, so every call site sees one
//! palette kind (the best case, as issue 5's reference figures were taken).
//! The table's `MC ref` column holds those reference figures (measured on
//! another machine), labelled as such, never as measured here.

use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use paletted::{Kind, PalettedContainer};
use serde_json::{json, Value};

use crate::jvm::{JvmArgs, JvmExecutor, Setup};

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

/// What the Java column says where it has no figure for a workload.
enum Java {
    /// Timed inside the JVM: ns per pass.
    Timed(f64),
    /// The workload has no Java counterpart; why.
    NotExpressible(&'static str),
    /// The probe failed on it (the reason went to stderr).
    Failed,
}

/// The probe's timing request for a workload (PROTOCOL.md, "The probe (JVM side)"), or why
/// the workload has no Java counterpart. The section travels as its written bytes, which the
/// probe reads into a fresh container: the same palette order and storage as the Rust side.
fn java_request(
    name: &str,
    sections: &[(&'static str, PalettedContainer)],
    time_ms: u64,
) -> Result<String, &'static str> {
    let (group, rest) = name.split_once('/').unwrap_or((name, ""));
    let subject = match group {
        "be_copy" => return Err("n/a: floor"),
        "clone_packed" => return Err("n/a: helper"),
        // The bulk and iteration APIs and their floors are this crate's own.
        "from_values" | "from_sets" | "iter" | "positions" | "storage_values" => {
            return Err("n/a: Rust API")
        }
        // The probe times Minecraft's one read as `read` and `read_in_place`.
        "read_lenient" => return Err("n/a: not measured"),
        "ladder" => match rest {
            "blocks300" => format!("ladder block_states {} 300", workloads::BLOCK_STATES),
            "biomes20" => format!("ladder biomes {} 20", workloads::BIOMES),
            _ => return Err("n/a: unknown ladder"),
        },
        "storage_get" | "storage_set" | "storage_fill" => {
            let bits: u32 = rest.parse().map_err(|_| "n/a: unknown storage")?;
            let s = workloads::storage(bits);
            let mut line = format!("storage {bits} {} {}", s.len(), s.longs().len());
            for l in s.longs() {
                line.push_str(&format!(" {l}"));
            }
            line
        }
        _ => {
            let (_, c) = sections
                .iter()
                .find(|(n, _)| *n == rest)
                .ok_or("n/a: unknown section")?;
            let kind = match c.strategy().kind() {
                Kind::BlockStates => "block_states",
                Kind::Biomes => "biomes",
            };
            let mut bytes = Vec::new();
            c.write(&mut bytes);
            let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
            format!("container {kind} {} {hex}", c.strategy().registry_size())
        }
    };
    Ok(format!("bench {group} {time_ms}\n{subject}"))
}

/// The Java column's label: what the classes are.
fn java_label(setup: &Setup, fixture: bool) -> String {
    if fixture || setup.fixture {
        return "test fixture (not Minecraft)".into();
    }
    match (&setup.minecraft_version, &setup.jar_sha1) {
        (Some(v), Some(sha)) => format!("Minecraft {v} (jar SHA-1 {sha})"),
        (None, Some(sha)) => format!("Minecraft jar SHA-1 {sha}"),
        _ => setup.source.clone(),
    }
}

/// Times the Java side of each workload, one fresh JVM each; `None` (with the reason on
/// stderr) when the JVM side cannot run at all. Also returns the JNI round-trip line, and
/// whether the JVM loads the test fixture's marker class.
fn java_side(
    setup: &Setup,
    names: &[String],
    time_ms: u64,
) -> Option<(Vec<Java>, Option<String>, bool)> {
    let mut setup = setup.clone();
    // Benchmarks want the full JIT (C2); the rig's default is C1 only. A user's
    // --jvm-option comes later and wins.
    setup
        .jvm_options
        .insert(0, "-XX:TieredStopAtLevel=4".to_string());
    let mut jvm = match JvmExecutor::new(&setup) {
        Ok(j) => j,
        Err(e) => {
            eprintln!("rig bench: Java side not timed: {e}");
            return None;
        }
    };
    let fixture = match jvm.loads_fixture() {
        Ok(f) => f,
        Err(e) => {
            eprintln!("rig bench: Java side not timed: {e}");
            return None;
        }
    };
    jvm.shutdown();
    let sections = workloads::sections();
    let mut out = Vec::new();
    for name in names {
        let cell = match java_request(name, &sections, time_ms) {
            Err(why) => Java::NotExpressible(why),
            Ok(request) => {
                eprintln!("rig bench: Java {name}");
                let answer = jvm.call(&json!({ "case": request }));
                jvm.shutdown();
                match answer {
                    Ok(a) => match a.get("ns_per_pass").and_then(Value::as_f64) {
                        Some(ns) => Java::Timed(ns),
                        None => {
                            eprintln!("rig bench: Java {name}: unexpected answer {a}");
                            Java::Failed
                        }
                    },
                    Err(e) => {
                        eprintln!("rig bench: Java {name}: {e}");
                        if let Some(why) = jvm.unusable() {
                            eprintln!("rig bench: Java side not timed: {why}");
                            return None;
                        }
                        Java::Failed
                    }
                }
            }
        };
        out.push(cell);
    }
    // The round trip of an empty request: inside the child (JNI alone), and from here
    // (pipe + frames + JNI).
    let round_trip = (|| -> Result<String, String> {
        let inside = jvm.call(&json!({ "time_empty": 20_000 }))?;
        let jni = inside
            .get("ns_per_call")
            .and_then(Value::as_f64)
            .ok_or("no ns_per_call in the answer")?;
        let calls = 2_000;
        for _ in 0..calls / 10 {
            jvm.call(&json!({ "case": "ping" }))?;
        }
        let start = Instant::now();
        for _ in 0..calls {
            jvm.call(&json!({ "case": "ping" }))?;
        }
        let piped = start.elapsed().as_nanos() as f64 / f64::from(calls);
        Ok(format!(
            "JNI round trip of an empty request: {jni:.0} ns inside the probe server (Probe.run \
             via JNI, mean of 20,000 after 20,000 to warm up); {:.1} us from rig (pipe, frames \
             and JNI, mean of {calls}). Neither is in the Java column.",
            piped / 1000.0
        ))
    })();
    jvm.shutdown();
    let round_trip = match round_trip {
        Ok(line) => Some(line),
        Err(e) => {
            eprintln!("rig bench: JNI round trip not timed: {e}");
            None
        }
    };
    Some((out, round_trip, fixture))
}

/// Runs `rig bench`.
pub fn run(args: Args) -> ExitCode {
    let java_asked = args.jvm.minecraft.is_some()
        || args.jvm.classpath.is_some()
        || std::env::var_os("MINECRAFT_JAR").is_some_and(|v| !v.is_empty());
    let setup = if java_asked {
        match args.jvm.setup() {
            Ok(setup) => Some(setup),
            Err(e) => {
                eprintln!("rig bench: Java side not timed ({e}); printing the Rust side alone");
                None
            }
        }
    } else {
        eprintln!("rig bench: no --minecraft or --classpath: the Rust side alone");
        None
    };

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
    let names: Vec<String> = rows.iter().map(|r| r.0.clone()).collect();
    let java = setup
        .as_ref()
        .and_then(|s| java_side(s, &names, args.time_ms.max(1)));
    // write/X as a multiple of be_copy/X, the big-endian copy of its longs.
    let floor = |name: &str| {
        let section = name.strip_prefix("write/")?;
        let copy = format!("be_copy/{section}");
        rows.iter().find(|r| r.0 == copy).map(|r| r.2.median)
    };
    if let Some(setup) = &setup {
        let fixture = java.as_ref().is_some_and(|j| j.2);
        println!("Java column: {}", java_label(setup, fixture));
        println!("Java classes: {}", setup.source);
    }
    println!(
        "{:<24} {:>6} {:>12} {:>10} {:>12} {:>9} {:>12} {:>11} {:>9}",
        "workload",
        "ops",
        "Rust ns/pass",
        "Rust ns/op",
        "Java ns/op",
        "Java/Rust",
        "MC ref ns/op",
        "MC ref/Rust",
        "x floor"
    );
    for (k, (name, ops, t)) in rows.iter().enumerate() {
        let per_op = t.median / *ops as f64;
        let reference = minecraft_reference(name);
        let dash = || "-".to_string();
        let (java_cell, ratio) = match java.as_ref().map(|j| &j.0[k]) {
            None => (dash(), dash()),
            Some(Java::Timed(ns)) => {
                let java_op = ns / *ops as f64;
                (format!("{java_op:.2}"), format!("{:.1}x", java_op / per_op))
            }
            Some(Java::NotExpressible(why)) => (why.to_string(), dash()),
            Some(Java::Failed) => ("failed".to_string(), dash()),
        };
        println!(
            "{:<24} {:>6} {:>12.1} {:>10.2} {:>12} {:>9} {:>12} {:>11} {:>9}",
            name,
            ops,
            t.median,
            per_op,
            java_cell,
            ratio,
            reference.map_or_else(dash, |r| format!("{r}")),
            reference.map_or_else(dash, |r| format!("{:.1}x", r / per_op)),
            floor(name).map_or_else(dash, |f| format!("{:.2}", t.median / f)),
        );
    }
    if let Some(line) = java.as_ref().and_then(|j| j.1.as_ref()) {
        println!("\n{line}");
    }
    let java_note = if java.is_some() {
        "`Java ns/op`: timed inside the JVM by the probe, a fresh JVM (full JIT) a workload, \
         median of ~1 ms batches after >= 300 ms of warm-up; Java's `write` fills a fresh \
         buffer each pass (as a chunk packet does), Rust's reuses one. `Java/Rust` is their \
         ratio (above 1: Rust is faster). `n/a: floor` and `n/a: helper` rows are Rust-side \
         measuring aids with no Java counterpart; `read_lenient/*` is not measured on the \
         Java side (Minecraft's read is the `read` rows)."
    } else {
        "`Java ns/op`: not measured (give --minecraft JAR or --classpath CP)."
    };
    println!(
        "\nns/pass: median of ~1 ms batches over {} ms a workload. {java_note} `MC ref`: \
         Minecraft's figures from issue 5, measured on another machine: a reference, not this \
         run. `be_copy/*` is the physical floor of `write/*` (a big-endian copy of the same \
         longs).",
        budget.as_millis()
    );
    ExitCode::SUCCESS
}
