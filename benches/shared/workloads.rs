//! The benchmark workloads, shared by `cargo bench` (criterion, in
//! `benches/containers.rs`), `benches/alloc.rs` and `rig bench` (which include this file with
//! `#[path]`), so both time exactly the same work.
//!
//! Each workload owns its section and, when run, does one full pass (4,096
//! gets, one resize ladder, one write, ...) and returns a checksum, so the
//! optimiser cannot drop the work. `ops` says how many operations a pass
//! holds, to state the time per operation.
//!
//! The sections are realistic: the flat world's bottom section (layers
//! 88/10/10/9 over air, 4 bits), 17 values (5-bit hash map), 200 values
//! (8-bit hash map), 300 values (global: 16 bits in memory for 26.3's 35,723
//! block states, 9 bits on disk) and a biome container of 3 biomes out of 65.
//! Values are placed by a fixed pseudo-random sequence weighted towards the
//! first ids (as stone dominates a real section), and ids are spread over the
//! registry's first 29,000 so that their VarInts take 1 to 3 bytes, as real ids do.

#![allow(dead_code)]

use std::hint::black_box;

use paletted::{BitStorage, Packed, PalettedContainer, Strategy};

/// 26.3's block states.
pub const BLOCK_STATES: u32 = 35_723;
/// 26.3's biomes.
pub const BIOMES: u32 = 65;

/// One timed piece of work.
pub struct Workload {
    /// What is measured: `group/name`, e.g. `get/flat`.
    pub name: String,
    /// Operations in one pass (4,096 for a pass of gets over a section).
    pub ops: u64,
    /// One pass; returns a checksum.
    pub run: Box<dyn FnMut() -> u64>,
}

impl Workload {
    pub fn new(name: impl Into<String>, ops: u64, run: impl FnMut() -> u64 + 'static) -> Workload {
        Workload {
            name: name.into(),
            ops,
            run: Box::new(run),
        }
    }
}

/// A small fixed pseudo-random sequence (xorshift64*), so every run places
/// the same values.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Below `n`, weighted towards 0: the smaller of two draws.
    pub fn skewed(&mut self, n: u64) -> u64 {
        (self.next() % n).min(self.next() % n)
    }
}

/// The flat world's bottom section: bedrock (88), dirt (10) twice and grass
/// (9) over air, in 26.3's block states; a 4-bit linear palette.
pub fn flat() -> PalettedContainer {
    let mut c = PalettedContainer::new(0, Strategy::block_states(BLOCK_STATES));
    for x in 0..16 {
        for z in 0..16 {
            c.set(x, 0, z, 88);
            c.set(x, 1, z, 10);
            c.set(x, 2, z, 10);
            c.set(x, 3, z, 9);
        }
    }
    c
}

/// `n` distinct values out of the registry, each present at least once,
/// placed pseudo-randomly (weighted towards the first ones).
pub fn varied(strategy: Strategy, n: u32, seed: u64) -> PalettedContainer {
    let registry = strategy.registry_size();
    assert!(n >= 2 && n <= registry);
    // Distinct ids spread over the registry (over its first 29,000 ids for
    // block states: below 26.1's 29,873, so the peers, built for 26.1, hold
    // them too).
    let stride = (registry.min(29_000) / n).max(1);
    let ids: Vec<u32> = (0..n).map(|i| (i * stride + 1) % registry).collect();
    let mut c = PalettedContainer::new(ids[0], strategy);
    let size = strategy.size();
    let mut rng = Rng::new(seed);
    let mut order: Vec<usize> = (0..size).collect();
    // The first n positions (in a shuffled order) take every id once.
    for i in (1..size).rev() {
        order.swap(i, (rng.next() % (i as u64 + 1)) as usize);
    }
    for (k, &i) in order.iter().enumerate() {
        let v = if k < n as usize {
            ids[k]
        } else {
            ids[rng.skewed(u64::from(n)) as usize]
        };
        c.set_at(i, v);
    }
    let distinct = c.distinct().len();
    assert_eq!(distinct, n as usize, "every id placed");
    c
}

/// The sections the container workloads run on.
pub fn sections() -> Vec<(&'static str, PalettedContainer)> {
    let blocks = Strategy::block_states(BLOCK_STATES);
    vec![
        ("flat", flat()),
        ("17", varied(blocks, 17, 17)),
        ("200", varied(blocks, 200, 200)),
        ("300", varied(blocks, 300, 300)),
        ("biome3", varied(Strategy::biomes(BIOMES), 3, 3)),
    ]
}

/// The values now at each index, moved along by one: setting index i to
/// the value at i + 1 keeps the palette's set of values, so no resize.
fn shifted(c: &PalettedContainer) -> Vec<u32> {
    let n = c.strategy().size();
    (0..n).map(|i| c.get_at((i + 1) % n)).collect()
}

/// The big-endian copy of longs into bytes, the physical floor of `write`:
/// a byte-swap loop over a buffer sized first, the form the compiler turns
/// into vector shuffles where the target has them (glibc's memcpy is
/// pathologically slow for 4 to 8 KiB on some machines, so it is no floor).
#[inline(never)]
pub fn be_copy(longs: &[i64], out: &mut Vec<u8>) {
    out.clear();
    out.resize(longs.len() * 8, 0);
    for (dst, l) in out.chunks_exact_mut(8).zip(longs) {
        dst.copy_from_slice(&l.to_be_bytes());
    }
}

/// Every container workload on every section, the ladder, the floors and the
/// bit storage workloads.
pub fn all() -> Vec<Workload> {
    let mut w = Vec::new();
    for (name, section) in sections() {
        container_workloads(&mut w, name, section);
    }
    w.extend(ladders());
    w.extend(storage_workloads());
    w
}

fn container_workloads(w: &mut Vec<Workload>, name: &str, section: PalettedContainer) {
    let strategy = section.strategy();
    let size = strategy.size() as u64;
    let axis = strategy.axis_len();

    let c = section.clone();
    w.push(Workload::new(format!("get/{name}"), size, move || {
        let c = black_box(&c);
        let mut sum = 0u64;
        for y in 0..axis {
            for z in 0..axis {
                for x in 0..axis {
                    sum = sum.wrapping_add(u64::from(c.get(x, y, z)));
                }
            }
        }
        sum
    }));

    let mut c = section.clone();
    let values = shifted(&section);
    w.push(Workload::new(format!("set/{name}"), size, move || {
        let mut i = 0;
        for y in 0..axis {
            for z in 0..axis {
                for x in 0..axis {
                    c.set(x, y, z, values[i]);
                    i += 1;
                }
            }
        }
        black_box(&c);
        u64::from(c.bits())
    }));

    // A whole section built: `from_values` against the 4,096 `set`s in
    // index order it stands for (the same container, issue 24's 10x target).
    let values: Vec<u32> = (0..strategy.size()).map(|i| section.get_at(i)).collect();
    let vals = values.clone();
    w.push(Workload::new(
        format!("from_values/{name}"),
        size,
        move || {
            let c = PalettedContainer::from_values_with(0, strategy, black_box(&vals));
            u64::from(c.bits())
        },
    ));
    let vals = values;
    w.push(Workload::new(
        format!("from_sets/{name}"),
        size,
        move || {
            let mut c = PalettedContainer::new(0, strategy);
            for (i, &v) in black_box(&vals).iter().enumerate() {
                c.set_at(i, v);
            }
            u64::from(c.bits())
        },
    ));

    // Iteration against the storage's own `values()` (issue 24's 1.2x target).
    let c = section.clone();
    w.push(Workload::new(format!("iter/{name}"), size, move || {
        black_box(&c).iter().fold(0u64, |sum, (i, v)| {
            sum.wrapping_add(i as u64 ^ u64::from(v))
        })
    }));
    let c = section.clone();
    w.push(Workload::new(
        format!("positions/{name}"),
        size,
        move || {
            black_box(&c).positions().fold(0u64, |sum, (x, y, z, v)| {
                sum.wrapping_add((x ^ y ^ z) as u64 ^ u64::from(v))
            })
        },
    ));
    let c = section.clone();
    w.push(Workload::new(
        format!("storage_values/{name}"),
        size,
        move || {
            let values = black_box(&c).storage().values();
            values.iter().enumerate().fold(0u64, |sum, (i, &v)| {
                sum.wrapping_add(i as u64 ^ u64::from(v))
            })
        },
    ));

    let mut c = section.clone();
    let values = shifted(&section);
    w.push(Workload::new(
        format!("get_and_set/{name}"),
        size,
        move || {
            let mut sum = 0u64;
            let mut i = 0;
            for y in 0..axis {
                for z in 0..axis {
                    for x in 0..axis {
                        sum = sum.wrapping_add(u64::from(c.get_and_set(x, y, z, values[i])));
                        i += 1;
                    }
                }
            }
            sum
        },
    ));

    let c = section.clone();
    let mut out = Vec::with_capacity(c.serialized_size());
    w.push(Workload::new(format!("write/{name}"), 1, move || {
        out.clear();
        black_box(&c).write(&mut out);
        out.len() as u64
    }));

    let longs = section.storage().longs().to_vec();
    let mut out = Vec::with_capacity(longs.len() * 8);
    w.push(Workload::new(format!("be_copy/{name}"), 1, move || {
        be_copy(black_box(&longs), &mut out);
        out.len() as u64
    }));

    let c = section.clone();
    w.push(Workload::new(
        format!("serialized_size/{name}"),
        1,
        move || black_box(&c).serialized_size() as u64,
    ));

    let mut bytes = Vec::new();
    section.write(&mut bytes);
    let bytes_fresh = bytes.clone();
    let bytes_lenient = bytes.clone();
    w.push(Workload::new(format!("read/{name}"), 1, move || {
        // A client loading a chunk: a fresh container, then read.
        let mut c = PalettedContainer::new(0, strategy);
        let n = c
            .read(black_box(&bytes_fresh))
            .expect("own bytes read back");
        black_box(&c);
        n as u64
    }));

    let mut c = section.clone();
    w.push(Workload::new(
        format!("read_in_place/{name}"),
        1,
        move || {
            // The same configuration: Minecraft reuses palette and storage.
            let n = c.read(black_box(&bytes)).expect("own bytes read back");
            n as u64
        },
    ));

    let mut c = section.clone();
    w.push(Workload::new(
        format!("read_lenient/{name}"),
        1,
        move || {
            // Minecraft's own read, in place: no validation.
            let n = c
                .read_lenient(black_box(&bytes_lenient))
                .expect("own bytes read back");
            n as u64
        },
    ));

    let c = section.clone();
    w.push(Workload::new(format!("pack/{name}"), 1, move || {
        let p = black_box(&c).pack();
        p.palette.len() as u64
    }));

    let packed = section.pack();
    let p = packed.clone();
    w.push(Workload::new(format!("unpack/{name}"), 1, move || {
        let c = PalettedContainer::unpack(strategy, black_box(&p).clone()).expect("own pack");
        u64::from(c.bits())
    }));

    // Minecraft's own unpack: the palette kept as saved, no index checked
    // (what a peer that keeps a saved palette as it is does).
    let p = packed.clone();
    w.push(Workload::new(
        format!("unpack_lenient/{name}"),
        1,
        move || {
            let c = PalettedContainer::unpack_lenient(strategy, black_box(&p).clone())
                .expect("own pack");
            u64::from(c.bits())
        },
    ));

    // What unpack's input clone costs, to subtract from it.
    let p = packed;
    w.push(Workload::new(
        format!("clone_packed/{name}"),
        1,
        move || {
            let p: Packed = black_box(&p).clone();
            p.palette.len() as u64
        },
    ));

    let c = section;
    w.push(Workload::new(format!("counts/{name}"), 1, move || {
        black_box(&c).counts().len() as u64
    }));
}

/// The ladder of resizes: from one value to `n` distinct values set one at a
/// time (index k gets value k), so the container passes every palette kind:
/// block states single, 4-bit linear, 5..8-bit hash map, global; biomes
/// single, 1..3-bit linear, global.
pub fn ladder(strategy: Strategy, n: u32) -> PalettedContainer {
    let mut c = PalettedContainer::new(0, strategy);
    for k in 1..n {
        c.set_at(k as usize, k);
    }
    c
}

fn ladders() -> Vec<Workload> {
    let blocks = Strategy::block_states(BLOCK_STATES);
    let biomes = Strategy::biomes(BIOMES);
    vec![
        Workload::new("ladder/blocks300", 1, move || {
            let c = ladder(blocks, black_box(300));
            u64::from(c.bits())
        }),
        Workload::new("ladder/biomes20", 1, move || {
            let c = ladder(biomes, black_box(20));
            u64::from(c.bits())
        }),
    ]
}

/// A storage of 4,096 pseudo-random values of `bits` bits.
pub fn storage(bits: u32) -> BitStorage {
    let mut s = BitStorage::new(bits, 4096);
    let mut rng = Rng::new(u64::from(bits));
    for i in 0..4096 {
        s.set(i, (rng.next() & u64::from(s.max_value())) as u32);
    }
    s
}

fn storage_workloads() -> Vec<Workload> {
    let mut w = Vec::new();
    for bits in [4u32, 5, 9, 16] {
        let s = storage(bits);
        w.push(Workload::new(
            format!("storage_get/{bits}"),
            4096,
            move || {
                let s = black_box(&s);
                let mut sum = 0u64;
                for i in 0..4096 {
                    sum = sum.wrapping_add(u64::from(s.get(i)));
                }
                sum
            },
        ));
        let mut s = storage(bits);
        let values: Vec<u32> = storage(bits).values().into_iter().rev().collect();
        w.push(Workload::new(
            format!("storage_set/{bits}"),
            4096,
            move || {
                for (i, &v) in values.iter().enumerate() {
                    s.set(i, v);
                }
                black_box(&s);
                s.longs()[0] as u64
            },
        ));
        let mut s = storage(bits);
        let v = s.max_value() / 3;
        w.push(Workload::new(
            format!("storage_fill/{bits}"),
            1,
            move || {
                s.fill(black_box(v));
                s.longs()[0] as u64
            },
        ));
    }
    w
}
