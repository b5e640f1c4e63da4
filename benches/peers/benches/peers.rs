//! `paletted` beside the published Rust crates that implement Minecraft's
//! paletted containers, in one criterion run: each workload of
//! `../../shared/workloads.rs` is a criterion group (`get/flat`, ...) with
//! one function per crate (`paletted`, `azalea`, `oxidized`), built from the
//! same section.
//!
//! A peer without the API for a workload has no function in its group, and
//! the run says so at the start (no silent skips). azalea-world needs nightly
//! features, so it is behind the `azalea` feature (see `../run.sh`).

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};

#[path = "../../shared/workloads.rs"]
mod workloads;

#[cfg(feature = "azalea")]
mod azalea {
    //! azalea-world 0.16: sections are built through its public fields (its
    //! `set` never reaches vanilla's layouts: it grows 1, 2, 3 bits linear
    //! and goes global at 9 bits).

    use std::hint::black_box;
    use std::io::Cursor;

    use azalea_block::BlockState;
    use azalea_core::position::{ChunkSectionBiomePos, ChunkSectionBlockPos};
    use azalea_registry::data::Biome;
    use azalea_world::palette::{Palette, PalettedContainer, PalletedContainerKind, SectionPos};
    use azalea_world::BitStorage;
    use paletted::{PaletteKind, Strategy};

    use crate::workloads::{self, Workload};

    /// What azalea-world cannot do, and why.
    pub const CANNOT: &str = "azalea-world 0.16: no serialized_size (no such API), \
        no pack/unpack (no disk form), no counts (no such API), no read_in_place \
        (its read always builds a new container), no storage_fill (no such API)";

    fn section<S: PalletedContainerKind>(c: &paletted::PalettedContainer) -> PalettedContainer<S> {
        let bits = c.bits() as u8;
        let value = |v: &u32| S::try_from(*v).unwrap_or_default();
        let palette = match c.palette_kind() {
            PaletteKind::Single => Palette::SingleValue(value(&c.palette()[0])),
            PaletteKind::Linear => Palette::Linear(c.palette().iter().map(value).collect()),
            PaletteKind::HashMap => Palette::Hashmap(c.palette().iter().map(value).collect()),
            PaletteKind::Global => Palette::Global,
        };
        let data: Box<[u64]> = c.storage().longs().iter().map(|&l| l as u64).collect();
        let storage = BitStorage::new(bits as usize, c.strategy().size(), Some(data))
            .expect("same shape as paletted's");
        let a = PalettedContainer {
            bits_per_entry: bits,
            palette,
            storage,
        };
        for i in 0..c.strategy().size() {
            assert_eq!(
                a.get_at_index(i).into(),
                c.get_at(i),
                "azalea section at {i}"
            );
        }
        a
    }

    fn container<S: PalletedContainerKind + 'static>(
        w: &mut Vec<Workload>,
        name: &str,
        c: &paletted::PalettedContainer,
    ) {
        let size = c.strategy().size() as u64;
        let axis = c.strategy().axis_len() as usize;
        let pos = move |x: usize, y: usize, z: usize| S::SectionPos::new(x, y, z);
        let values: Vec<S> = (0..size as usize)
            .map(|i| S::try_from(c.get_at((i + 1) % size as usize)).unwrap_or_default())
            .collect();

        let a = section::<S>(c);
        w.push(Workload::new(format!("get/{name}"), size, move || {
            let a = black_box(&a);
            let mut sum = 0u64;
            for y in 0..axis {
                for z in 0..axis {
                    for x in 0..axis {
                        sum = sum.wrapping_add(u64::from(a.get(pos(x, y, z)).into()));
                    }
                }
            }
            sum
        }));

        let mut a = section::<S>(c);
        let v = values.clone();
        w.push(Workload::new(format!("set/{name}"), size, move || {
            let mut i = 0;
            for y in 0..axis {
                for z in 0..axis {
                    for x in 0..axis {
                        a.set(pos(x, y, z), v[i]);
                        i += 1;
                    }
                }
            }
            black_box(&a);
            u64::from(a.bits_per_entry)
        }));

        let mut a = section::<S>(c);
        let v = values;
        w.push(Workload::new(
            format!("get_and_set/{name}"),
            size,
            move || {
                let mut sum = 0u64;
                let mut i = 0;
                for y in 0..axis {
                    for z in 0..axis {
                        for x in 0..axis {
                            sum = sum
                                .wrapping_add(u64::from(a.get_and_set(pos(x, y, z), v[i]).into()));
                            i += 1;
                        }
                    }
                }
                sum
            },
        ));

        let a = section::<S>(c);
        let mut out = Vec::with_capacity(c.serialized_size());
        w.push(Workload::new(format!("write/{name}"), 1, move || {
            out.clear();
            black_box(&a)
                .write(&mut out)
                .expect("a Vec takes every byte");
            out.len() as u64
        }));

        let mut bytes = Vec::new();
        c.write(&mut bytes);
        w.push(Workload::new(format!("read/{name}"), 1, move || {
            let mut cursor = Cursor::new(black_box(&bytes[..]));
            let a = PalettedContainer::<S>::read(&mut cursor).expect("paletted's bytes");
            black_box(&a);
            cursor.position()
        }));
    }

    pub fn workloads() -> Vec<Workload> {
        let mut w = Vec::new();
        for (name, c) in workloads::sections() {
            match c.strategy().kind() {
                paletted::Kind::BlockStates => container::<BlockState>(&mut w, name, &c),
                paletted::Kind::Biomes => container::<Biome>(&mut w, name, &c),
            }
        }
        w.push(Workload::new("ladder/blocks300", 1, || {
            let mut a = PalettedContainer::<BlockState>::new();
            for k in 1..black_box(300u32) {
                a.set_at_index(k as usize, BlockState::try_from(k).unwrap_or_default());
            }
            u64::from(a.bits_per_entry)
        }));
        w.push(Workload::new("ladder/biomes20", 1, || {
            let mut a = PalettedContainer::<Biome>::new();
            for k in 1..black_box(20u32) {
                a.set_at_index(k as usize, Biome::from(k));
            }
            u64::from(a.bits_per_entry)
        }));
        for bits in [4u32, 5, 9, 16] {
            let ours = workloads::storage(bits);
            let data: Box<[u64]> = ours.longs().iter().map(|&l| l as u64).collect();
            let s = BitStorage::new(bits as usize, 4096, Some(data)).expect("same shape");
            w.push(Workload::new(
                format!("storage_get/{bits}"),
                4096,
                move || {
                    let s = black_box(&s);
                    let mut sum = 0u64;
                    for i in 0..4096 {
                        sum = sum.wrapping_add(s.get(i));
                    }
                    sum
                },
            ));
            let data: Box<[u64]> = ours.longs().iter().map(|&l| l as u64).collect();
            let mut s = BitStorage::new(bits as usize, 4096, Some(data)).expect("same shape");
            let values: Vec<u64> = ours.values().into_iter().rev().map(u64::from).collect();
            w.push(Workload::new(
                format!("storage_set/{bits}"),
                4096,
                move || {
                    for (i, &v) in values.iter().enumerate() {
                        s.set(i, v);
                    }
                    black_box(&s);
                    s.data[0]
                },
            ));
        }
        let _ = Strategy::block_states(1);
        let _ = (
            ChunkSectionBlockPos { x: 0, y: 0, z: 0 },
            ChunkSectionBiomePos { x: 0, y: 0, z: 0 },
        );
        w
    }
}

mod oxidized {
    //! oxidized-chunks 0.1.0-dev: sections are built by its own disk load
    //! (`from_nbt_data`) from paletted's pack. Its global palette is 15 bits
    //! (26.1's 29,873 states), paletted's 16 (26.3's 35,723).

    use std::hint::black_box;

    use oxidized_chunks::bit_storage::BitStorage;
    use oxidized_chunks::paletted_container::{PalettedContainer, Strategy};
    use paletted::Kind;

    use crate::workloads::{self, Workload};

    /// What oxidized-chunks cannot do, and why.
    pub const CANNOT: &str = "oxidized-chunks 0.1.0-dev: no serialized_size, counts or \
        storage_fill (no such API), no read_in_place (its read always builds a new \
        container); its pack (`to_nbt_data`) of a linear or hash-map section copies the \
        palette as it is instead of re-encoding in first-appearance order as Minecraft's \
        pack does, so pack/flat, pack/17, pack/200 and pack/biome3 time less work than \
        paletted's; its write allocates a fresh Vec each call (no API to write into a buffer)";

    fn section(c: &paletted::PalettedContainer) -> (Strategy, PalettedContainer) {
        let strategy = match c.strategy().kind() {
            Kind::BlockStates => Strategy::BlockStates,
            Kind::Biomes => Strategy::Biomes,
        };
        let packed = c.pack();
        let o = PalettedContainer::from_nbt_data(
            strategy,
            packed.palette,
            packed.data.as_deref().unwrap_or(&[]),
        )
        .expect("paletted's pack loads");
        let axis = c.strategy().axis_len();
        for y in 0..axis {
            for z in 0..axis {
                for x in 0..axis {
                    let got = o.get(x as usize, y as usize, z as usize).expect("inside");
                    assert_eq!(got, c.get(x, y, z), "oxidized section at {x} {y} {z}");
                }
            }
        }
        (strategy, o)
    }

    fn container(w: &mut Vec<Workload>, name: &str, c: &paletted::PalettedContainer) {
        let size = c.strategy().size() as u64;
        let axis = c.strategy().axis_len() as usize;
        let values: Vec<u32> = (0..size as usize)
            .map(|i| c.get_at((i + 1) % size as usize))
            .collect();

        let (strategy, o) = section(c);
        w.push(Workload::new(format!("get/{name}"), size, move || {
            let o = black_box(&o);
            let mut sum = 0u64;
            for y in 0..axis {
                for z in 0..axis {
                    for x in 0..axis {
                        sum = sum.wrapping_add(u64::from(o.get(x, y, z).expect("inside")));
                    }
                }
            }
            sum
        }));

        let (_, mut o) = section(c);
        let v = values.clone();
        w.push(Workload::new(format!("set/{name}"), size, move || {
            let mut i = 0;
            for y in 0..axis {
                for z in 0..axis {
                    for x in 0..axis {
                        o.set(x, y, z, v[i]).expect("inside");
                        i += 1;
                    }
                }
            }
            black_box(&o);
            u64::from(o.bits_per_entry())
        }));

        let (_, mut o) = section(c);
        let v = values;
        w.push(Workload::new(
            format!("get_and_set/{name}"),
            size,
            move || {
                let mut sum = 0u64;
                let mut i = 0;
                for y in 0..axis {
                    for z in 0..axis {
                        for x in 0..axis {
                            sum = sum.wrapping_add(u64::from(
                                o.get_and_set(x, y, z, v[i]).expect("inside"),
                            ));
                            i += 1;
                        }
                    }
                }
                sum
            },
        ));

        let (_, o) = section(c);
        let bytes = o.write_to_bytes();
        w.push(Workload::new(format!("write/{name}"), 1, move || {
            black_box(&o).write_to_bytes().len() as u64
        }));

        w.push(Workload::new(format!("read/{name}"), 1, move || {
            let mut input = black_box(&bytes[..]);
            let o = PalettedContainer::read_from_bytes(strategy, &mut input).expect("own bytes");
            black_box(&o);
            input.len() as u64
        }));

        let (_, o) = section(c);
        w.push(Workload::new(format!("pack/{name}"), 1, move || {
            let (palette, _longs) = black_box(&o).to_nbt_data();
            palette.len() as u64
        }));

        let (_, o) = section(c);
        let (palette, longs) = o.to_nbt_data();
        w.push(Workload::new(format!("unpack/{name}"), 1, move || {
            let o = PalettedContainer::from_nbt_data(strategy, black_box(&palette).clone(), &longs)
                .expect("own pack");
            u64::from(o.bits_per_entry())
        }));
    }

    pub fn workloads() -> Vec<Workload> {
        let mut w = Vec::new();
        for (name, c) in workloads::sections() {
            container(&mut w, name, &c);
        }
        for (name, strategy, n, axis_bits) in [
            ("ladder/blocks300", Strategy::BlockStates, 300u32, 4),
            ("ladder/biomes20", Strategy::Biomes, 20, 2),
        ] {
            let mask = (1usize << axis_bits) - 1;
            w.push(Workload::new(name, 1, move || {
                let mut o = PalettedContainer::new(strategy, 0);
                for k in 1..black_box(n) as usize {
                    let (x, z, y) = (k & mask, (k >> axis_bits) & mask, k >> (2 * axis_bits));
                    o.set(x, y, z, k as u32).expect("inside");
                }
                u64::from(o.bits_per_entry())
            }));
        }
        for bits in [4u32, 5, 9, 16] {
            let ours = workloads::storage(bits);
            let raw: Vec<u64> = ours.longs().iter().map(|&l| l as u64).collect();
            let s = BitStorage::from_raw(bits as u8, 4096, raw.clone()).expect("same shape");
            w.push(Workload::new(
                format!("storage_get/{bits}"),
                4096,
                move || {
                    let s = black_box(&s);
                    let mut sum = 0u64;
                    for i in 0..4096 {
                        sum = sum.wrapping_add(s.get(i).expect("inside"));
                    }
                    sum
                },
            ));
            let mut s = BitStorage::from_raw(bits as u8, 4096, raw).expect("same shape");
            let values: Vec<u64> = ours.values().into_iter().rev().map(u64::from).collect();
            w.push(Workload::new(
                format!("storage_set/{bits}"),
                4096,
                move || {
                    for (i, &v) in values.iter().enumerate() {
                        s.set(i, v).expect("fits");
                    }
                    black_box(&s);
                    s.raw()[0]
                },
            ));
        }
        w
    }
}

fn peers(c: &mut Criterion) {
    // Every crate's workloads, grouped by name in paletted's order.
    let mut crates: Vec<(&str, Vec<workloads::Workload>)> = vec![
        ("paletted", workloads::all()),
        ("oxidized", oxidized::workloads()),
    ];
    eprintln!("peers: {}", oxidized::CANNOT);
    #[cfg(feature = "azalea")]
    {
        crates.push(("azalea", azalea::workloads()));
        eprintln!("peers: {}", azalea::CANNOT);
    }
    #[cfg(not(feature = "azalea"))]
    eprintln!(
        "peers: azalea-world skipped: built without the `azalea` feature (azalea-world 0.16 \
         needs nightly features; run `RUSTC_BOOTSTRAP=1 cargo bench --features azalea`, or ./run.sh)"
    );
    let names: Vec<String> = crates[0].1.iter().map(|w| w.name.clone()).collect();
    for name in names {
        let mut group = c.benchmark_group(&name);
        for (krate, ws) in &mut crates {
            // The peers' reads and unpacks validate no palette index: beside
            // paletted's strict `read` and `unpack`, they are timed again
            // beside `read_lenient` and `unpack_lenient`, Minecraft's own,
            // which do the same work.
            let theirs = match name.split_once("_lenient/") {
                Some((op, section)) if *krate != "paletted" => format!("{op}/{section}"),
                _ => name.clone(),
            };
            if let Some(w) = ws.iter_mut().find(|w| w.name == theirs) {
                group.bench_function(*krate, |b| b.iter(&mut w.run));
            }
        }
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(1))
        .sample_size(30);
    targets = peers
}
criterion_main!(benches);
