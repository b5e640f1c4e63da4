//! `cargo bench --bench alloc`: checks that `get`, `set` without resize,
//! `get_and_set`, `write` into a buffer with room, `serialized_size`,
//! `read_lenient` into a container of the same configuration and the bit
//! storage workloads allocate nothing, by counting every call into a
//! global allocator while they run. Exits non-zero if any allocates.

use std::alloc::{GlobalAlloc, Layout, System};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};

#[path = "shared/workloads.rs"]
mod workloads;

/// The system allocator, counting allocations and reallocations.
struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        System.alloc(layout)
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        System.alloc_zeroed(layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        System.realloc(ptr, layout, new_size)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Workloads that must not allocate: the per-value accessors, iteration,
/// and writing into a buffer that already has room.
const NO_ALLOC: &[&str] = &[
    "get/",
    "iter/",
    "positions/",
    "set/",
    "get_and_set/",
    "write/",
    "serialized_size/",
    "read_lenient/",
    "be_copy/",
    "storage_get/",
    "storage_set/",
    "storage_fill/",
];

fn main() -> ExitCode {
    // `cargo bench` passes `--bench`; nothing else is understood.
    let mut failed = 0;
    let mut checked = 0;
    for mut w in workloads::all() {
        if !NO_ALLOC.iter().any(|p| w.name.starts_with(p)) {
            continue;
        }
        // The first pass may size buffers; count over the next ten.
        (w.run)();
        let before = ALLOCATIONS.load(Ordering::Relaxed);
        for _ in 0..10 {
            std::hint::black_box((w.run)());
        }
        let n = ALLOCATIONS.load(Ordering::Relaxed) - before;
        checked += 1;
        if n != 0 {
            failed += 1;
            println!(
                "{:<28} {n} allocations in 10 passes ({} ops each)",
                w.name, w.ops
            );
        }
    }
    println!("alloc: {} passed, {failed} failed", checked - failed);
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
