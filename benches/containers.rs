//! `cargo bench --bench containers`: every workload of `workloads.rs` through
//! the Rust containers, with criterion. Short measurement by default (the
//! machines are small and shared); criterion's own flags override it, e.g.
//! `cargo bench --bench containers -- --warm-up-time 1 --measurement-time 2 get/`.
//! `benches/table.py` turns the results into BENCHMARKS.md's table.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};

#[path = "shared/workloads.rs"]
mod workloads;

fn containers(c: &mut Criterion) {
    for mut w in workloads::all() {
        c.bench_function(&w.name, |b| b.iter(&mut w.run));
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(1))
        .sample_size(30);
    targets = containers
}
criterion_main!(benches);
