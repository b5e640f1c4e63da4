//! `cargo bench --bench instructions`: runs each workload of `workloads.rs`
//! a fixed number of passes inside one function, `measured`, so that
//! `valgrind --tool=callgrind` can count the instructions of the passes
//! alone (setup excluded): instruction counts are steady on a shared,
//! noisy machine where timings are not. `benches/instructions.sh` runs it
//! under callgrind and prints instructions a pass and the target ratios.
//!
//! Arguments (after `--`): optional passes (default 20), then name prefixes
//! to keep (default all). Prints one workload name a line, in the order the
//! measured calls run.

use std::hint::black_box;

#[path = "shared/workloads.rs"]
mod workloads;

/// The passes callgrind counts: one call per workload, so each call's cost
/// is one dump (`--dump-after`).
#[inline(never)]
fn measured(run: &mut dyn FnMut() -> u64, passes: u32) -> u64 {
    let mut sum = 0u64;
    for _ in 0..passes {
        sum = sum.wrapping_add(black_box(run()));
    }
    sum
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let (passes, filters) = match args.first().and_then(|a| a.parse::<u32>().ok()) {
        Some(n) => (n, &args[1..]),
        None => (20, &args[..]),
    };
    let mut sum = 0u64;
    for mut w in workloads::all() {
        if !filters.is_empty() && !filters.iter().any(|f| w.name.starts_with(f.as_str())) {
            continue;
        }
        // One pass first, outside the count: buffers reach their size.
        sum = sum.wrapping_add((w.run)());
        println!("{} {}", w.name, w.ops);
        sum = sum.wrapping_add(measured(&mut w.run, passes));
    }
    black_box(sum);
}
