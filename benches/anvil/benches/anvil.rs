//! Region files to containers and back, `paletted::anvil` beside fastanvil
//! on the same files in the same run: `cd benches/anvil && cargo bench`.
//!
//! - `read/paletted`: region file bytes → every chunk decompressed, its NBT
//!   read (every key kept) and each section's block states and biomes
//!   unpacked into `PalettedContainer`s at the chunk's version.
//! - `read/fastanvil`: the same bytes → `fastanvil::Region`, every chunk
//!   decompressed and read as `JavaChunk` (sections' palettes and longs, which
//!   its `block(x, y, z)` reads from): fastanvil's way to a chunk's blocks.
//! - `write/paletted`: the chunks read → NBT (every container packed) →
//!   zlib → region file bytes.
//! - `write/fastanvil`: the chunks as `fastnbt::Value` (fastanvil's chunk
//!   type does not serialize; its docs send writers to `Value`) → NBT → zlib
//!   (fastanvil's `write_chunk`, level 1; ours writes Minecraft's default
//!   level 6) → region file bytes.
//!
//! Before criterion runs, the peak of live heap bytes over 1, 4 and 16
//! passes over the files, read one at a time, is printed: flat in the
//! number of files when nothing is kept from file to file but the names.
//!
//! The files: `rig/tests/worlds/*.mca` (1.18.2 to 1.21.11, 970 chunks).

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use paletted::anvil::{Chunk, Compression, FirstSeen, Region};
use paletted::Version;

/// Counts live heap bytes and their peak.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(live, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

fn files() -> Vec<(PathBuf, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rig/tests/worlds");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("rig/tests/worlds")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "mca"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).expect("readable");
            (p, bytes)
        })
        .collect()
}

/// The chunk's version: its DataVersion's, else (a release the version
/// table does not have yet) the newest known one before it.
fn version_for(dv: u32) -> Option<Version> {
    Version::for_data_version(dv).or_else(|| {
        Version::ALL
            .into_iter()
            .filter(|v| v.data_version() <= dv)
            .next_back()
    })
}

struct Ours {
    region: Region,
    chunks: Vec<(u8, u8, Chunk)>,
}

fn read_ours(path: &Path, bytes: &[u8], names: &mut (FirstSeen, FirstSeen)) -> Ours {
    let region = Region::from_bytes(path, bytes.to_vec()).expect("real regions read");
    let mut nbt = Vec::new();
    let chunks = region
        .chunks()
        .map(|(x, z)| {
            region.nbt_into(x, z, &mut nbt).expect("decompresses");
            let chunk =
                Chunk::read_with(&nbt, version_for, &mut names.0, &mut names.1).expect("reads");
            (x, z, chunk)
        })
        .collect();
    Ours { region, chunks }
}

fn write_ours(ours: &Ours, names: &(FirstSeen, FirstSeen)) -> Vec<u8> {
    let mut out = Region::new(ours.region.path());
    for (x, z, chunk) in &ours.chunks {
        let nbt = chunk.write(&names.0, &names.1).expect("writes");
        out.set(*x, *z, &nbt, Compression::Zlib);
    }
    out.to_bytes().0
}

fn read_fastanvil(bytes: &[u8]) -> Vec<(usize, usize, fastanvil::JavaChunk)> {
    let mut region = fastanvil::Region::from_stream(Cursor::new(bytes)).expect("reads");
    region
        .iter()
        .map(|c| {
            let c = c.expect("decompresses");
            (
                c.x,
                c.z,
                fastanvil::JavaChunk::from_bytes(&c.data).expect("parses"),
            )
        })
        .collect()
}

fn values_fastanvil(bytes: &[u8]) -> Vec<(usize, usize, fastnbt::Value)> {
    let mut region = fastanvil::Region::from_stream(Cursor::new(bytes)).expect("reads");
    region
        .iter()
        .map(|c| {
            let c = c.expect("decompresses");
            (c.x, c.z, fastnbt::from_bytes(&c.data).expect("parses"))
        })
        .collect()
}

fn write_fastanvil(chunks: &[(usize, usize, fastnbt::Value)]) -> Vec<u8> {
    let mut region = fastanvil::Region::create(Cursor::new(Vec::new())).expect("creates");
    for (x, z, value) in chunks {
        let nbt = fastnbt::to_bytes(value).expect("serializes");
        region.write_chunk(*x, *z, &nbt).expect("writes");
    }
    region.into_inner().expect("a Vec").into_inner()
}

/// Peak live heap bytes while `passes` passes over the files are read into
/// containers and written back, one file at a time.
fn peak(files: &[(PathBuf, Vec<u8>)], passes: usize) -> usize {
    let mut names = (FirstSeen::default(), FirstSeen::default());
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    for _ in 0..passes {
        for (path, bytes) in files {
            let ours = read_ours(path, bytes, &mut names);
            std::hint::black_box(write_ours(&ours, &names));
        }
    }
    PEAK.load(Ordering::Relaxed) - base
}

fn anvil(c: &mut Criterion) {
    let files = files();
    let total: usize = files.iter().map(|(_, b)| b.len()).sum();
    // Not under `--profile-time`, where it would be most of the profile.
    let profiling = std::env::args().any(|a| a == "--profile-time");
    for passes in [1, 4, 16].into_iter().filter(|_| !profiling) {
        let files_read = passes * files.len();
        println!(
            "memory: {files_read} files read and written, peak {:.1} MiB live",
            peak(&files, passes) as f64 / (1 << 20) as f64
        );
    }
    let mut g = c.benchmark_group("read");
    g.throughput(Throughput::Bytes(total as u64));
    g.bench_function("paletted", |b| {
        b.iter(|| {
            let mut names = (FirstSeen::default(), FirstSeen::default());
            for (path, bytes) in &files {
                std::hint::black_box(read_ours(path, bytes, &mut names));
            }
        })
    });
    g.bench_function("fastanvil", |b| {
        b.iter(|| {
            for (_, bytes) in &files {
                std::hint::black_box(read_fastanvil(bytes));
            }
        })
    });
    g.finish();
    let mut g = c.benchmark_group("write");
    g.throughput(Throughput::Bytes(total as u64));
    g.bench_function("paletted", |b| {
        b.iter_batched_ref(
            || {
                let mut names = (FirstSeen::default(), FirstSeen::default());
                let read: Vec<Ours> = files
                    .iter()
                    .map(|(p, bytes)| read_ours(p, bytes, &mut names))
                    .collect();
                (read, names)
            },
            |(read, names)| {
                for ours in read.iter() {
                    std::hint::black_box(write_ours(ours, names));
                }
            },
            BatchSize::LargeInput,
        )
    });
    g.bench_function("fastanvil", |b| {
        b.iter_batched_ref(
            || {
                files
                    .iter()
                    .map(|(_, bytes)| values_fastanvil(bytes))
                    .collect::<Vec<_>>()
            },
            |read| {
                for chunks in read.iter() {
                    std::hint::black_box(write_fastanvil(chunks));
                }
            },
            BatchSize::LargeInput,
        )
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .sample_size(10);
    targets = anvil
}
criterion_main!(benches);
