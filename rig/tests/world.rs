//! `rig world`: real region files, and region files built here, through
//! unpack and pack and back to their own palettes and longs.

#[allow(dead_code)]
#[path = "../src/world/mod.rs"]
mod world;
mod world_build;

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

use paletted::{BitStorage, Kind, Packed, PalettedContainer, Strategy};

use harness::case::{Case, ContainerOp, Ops};
use harness::exec::Executor;
use harness::outcome::Outcome;
use harness::rust::RustExecutor;
use world::check::Difference;
use world::report::Tally;
use world::{Options, World};
use world_build as build;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/worlds")
}

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("world")
        .join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn check(paths: &[PathBuf]) -> Tally {
    let (report, _) = world::run(paths, &Options::default());
    report.total()
}

#[test]
fn every_section_of_the_real_world_fixtures_round_trips_exactly() {
    let (report, _) = world::run(&[fixtures()], &Options::default());
    let total = report.total();
    assert!(total.bad_input.is_empty(), "{report}");
    assert!(total.differences.is_empty(), "{report}");
    assert!(total.upgraded_differences.is_empty(), "{report}");
    // Pinned, so that a fixture silently dropping out is noticed.
    assert_eq!(total.files, 7, "{report}");
    assert_eq!(total.chunks, 970, "{report}");
    assert_eq!(total.chunks_old, 0, "{report}");
    assert_eq!(total.sections, 23_280, "{report}");
    assert_eq!(total.sections_identical, 23_280, "{report}");
    assert_eq!(total.containers, 46_560, "{report}");
    assert_eq!(total.containers_identical, 46_560, "{report}");
    // The Starlight-saved chunk keeps a light-only section (no containers).
    assert_eq!(total.sections_light_only, 1, "{report}");
    let per_file: Vec<(String, usize)> = report
        .files
        .iter()
        .map(|(f, t)| {
            (
                Path::new(f)
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .into_owned(),
                t.sections,
            )
        })
        .collect();
    assert_eq!(
        per_file,
        [
            ("fastnbt-1.18.1-issue99.chunk.nbt".to_string(), 24),
            ("fastnbt-forge-1.20.1.chunk.nbt".to_string(), 24),
            ("minestom-1.21.11-r.-1.1.mca".to_string(), 2832),
            ("minestom-1.21.11-r.2.-1.mca".to_string(), 2880),
            ("prismarine-1.18.2-r.0.0.mca".to_string(), 6720),
            ("prismarine-1.20.6-r.0.0.mca".to_string(), 5400),
            ("prismarine-1.21.1-r.0.0.mca".to_string(), 5400),
        ]
    );
}

/// Block palettes of every size class (1, 2-16, 17-32 ... 129-256, more than
/// 256) and biome palettes of every class (1, 2, 3-4, 5-8, more than 8),
/// which real worlds rarely hold, in a region file built here.
fn wide_region(dir: &Path) -> PathBuf {
    let block_sizes = [
        1, 2, 16, 17, 32, 33, 64, 65, 128, 129, 200, 256, 257, 300, 1000, 4096,
    ];
    let biome_sizes = [1, 2, 3, 4, 5, 8, 9, 20, 64];
    let mut region = build::Region::new();
    for (i, &blocks) in block_sizes.iter().enumerate() {
        let sections = biome_sizes
            .iter()
            .enumerate()
            .map(|(y, &biomes)| {
                build::section(
                    y as i8 - 4,
                    &build::container(Kind::BlockStates, blocks, 100 * i as u32),
                    &build::container(Kind::Biomes, biomes, 0),
                )
            })
            .collect();
        region.good(i as u8, 0, &build::chunk(i as i32, 0, sections));
    }
    let path = dir.join("r.0.0.mca");
    fs::write(&path, region.bytes()).unwrap();
    path
}

#[test]
fn wide_block_palettes_and_every_biome_size_class_round_trip() {
    let dir = scratch("wide");
    let path = wide_region(&dir);
    let (report, world::Outcome { picked, .. }) = world::run(
        &[path],
        &Options {
            sample: Some(1000),
            ..Options::default()
        },
    );
    let total = report.total();
    assert!(total.bad_input.is_empty(), "{report}");
    assert!(total.differences.is_empty(), "{report}");
    assert_eq!(total.chunks, 16, "{report}");
    assert_eq!(total.sections, 16 * 9, "{report}");
    assert_eq!(total.sections_identical, 16 * 9, "{report}");
    // Every class present: blocks at 0, 4..8 bits on disk and global widths
    // 9, 10 and 12; biomes at 0..3 bits, then 4, 5 and 6.
    let classes: HashSet<(Kind, usize)> = picked
        .iter()
        .map(|p| (p.kind, p.packed.palette.len()))
        .collect();
    for n in [
        1, 2, 16, 17, 32, 33, 64, 65, 128, 129, 200, 256, 257, 300, 1000, 4096,
    ] {
        assert!(
            classes.contains(&(Kind::BlockStates, n)),
            "block palette of {n} missing"
        );
    }
    for n in [1, 2, 3, 4, 5, 8, 9, 20, 64] {
        assert!(
            classes.contains(&(Kind::Biomes, n)),
            "biome palette of {n} missing"
        );
    }
}

#[test]
fn a_sample_takes_from_every_palette_size_class() {
    let dir = scratch("sample");
    let path = wide_region(&dir);
    // 16 block classes by disk bits: 0, 4, 5, 6, 7, 8, 9, 10, 12; biomes: 0, 1, 2, 3, 4, 5, 6.
    let (_, world::Outcome { picked, .. }) = world::run(
        std::slice::from_ref(&path),
        &Options {
            sample: Some(16),
            ..Options::default()
        },
    );
    assert_eq!(picked.len(), 16);
    let bits = |p: &world::sample::Picked| {
        Strategy::with(p.kind, p.registry)
            .configuration_for_palette_len(p.packed.palette.len())
            .disk_bits
    };
    let classes: HashSet<(Kind, u32)> = picked.iter().map(|p| (p.kind, bits(p))).collect();
    assert_eq!(classes.len(), 16, "one per class: {classes:?}");
    // Same input, same sample.
    let (_, world::Outcome { picked: again, .. }) = world::run(
        &[path],
        &Options {
            sample: Some(16),
            ..Options::default()
        },
    );
    let places =
        |v: &[world::sample::Picked]| v.iter().map(|p| p.place.to_string()).collect::<Vec<_>>();
    assert_eq!(places(&picked), places(&again));
}

/// A saved form with its longs changed by `f`.
fn tampered(blocks: u32, f: impl FnOnce(&mut Packed)) -> Packed {
    let mut packed = build::container(Kind::BlockStates, blocks, 0).pack();
    f(&mut packed);
    packed
}

/// Lists the first two palette entries the other way round, the values
/// unchanged: no longer first-appearance order.
fn swap_first_two(p: &mut Packed) {
    p.palette.swap(0, 1);
    let mut s = BitStorage::from_longs(4, 4096, p.data.take().unwrap()).unwrap();
    for i in 0..4096 {
        match s.get(i) {
            0 => s.set(i, 1),
            1 => s.set(i, 0),
            _ => {}
        }
    }
    p.data = Some(s.into_longs());
}

fn biomes_one() -> Packed {
    PalettedContainer::new(0, Strategy::biomes(100)).pack()
}

#[test]
fn corrupt_input_is_reported_with_place_and_reason_and_the_run_goes_on() {
    let dir = scratch("corrupt");
    let good = |x: i32| build::chunk(x, 0, vec![build::plain_section(0), build::plain_section(1)]);
    let odd = |x: i32, blocks: Packed| {
        build::chunk(x, 0, vec![build::section_packed(0, blocks, biomes_one())])
    };
    let mut region = build::Region::new();
    region
        .good(0, 0, &good(0))
        .chunk(1, 0, 9, &build::compress(2, &build::nbt(&good(1))))
        .raw(2, 0, [0; 4], 2, &[])
        .raw(3, 0, 9000u32.to_be_bytes(), 2, &[1, 2, 3])
        .chunk(4, 0, 2, b"this is not zlib")
        .chunk(5, 0, 3, b"\x0a\x00\x00\x03not nbt at all")
        .location(6, 0, 400, 2)
        .location(7, 0, 1, 1)
        // An external chunk whose .mcc is missing, and one whose .mcc is there.
        .chunk(8, 0, 0x82, &[])
        .chunk(9, 0, 0x82, &[])
        .chunk(10, 0, 4, &build::compress(4, &build::nbt(&good(10))))
        .chunk(11, 0, 1, &build::compress(1, &build::nbt(&good(11))))
        .chunk(12, 0, 3, &build::nbt(&good(12)))
        .good(13, 0, &odd(13, tampered(5, |p| p.data = None)))
        .good(
            14,
            0,
            &odd(
                14,
                tampered(5, |p| {
                    p.data.as_mut().unwrap().pop();
                }),
            ),
        )
        .good(15, 0, &odd(15, tampered(5, |p| p.palette.truncate(4))))
        .good(16, 0, &odd(16, tampered(5, |p| p.palette.push(999))))
        // 17 entries: 5 bits, 12 values a long, the top 4 bits padding.
        .good(
            17,
            0,
            &odd(17, tampered(17, |p| p.data.as_mut().unwrap()[3] |= 1 << 63)),
        )
        .good(18, 0, &odd(18, tampered(5, swap_first_two)))
        .good(
            19,
            0,
            &odd(19, tampered(1, |p| p.data = Some(vec![0; 256]))),
        );
    let mut old = good(20);
    old.DataVersion = Some(2730);
    region.good(20, 0, &old);
    let mut versionless = good(21);
    versionless.DataVersion = None;
    region.good(21, 0, &versionless);
    // Upgrader-written: an unused entry there is reported but not counted as a failure.
    let mut upgraded = odd(22, tampered(5, |p| p.palette.push(998)));
    upgraded.below_zero_retrogen = Some(Default::default());
    region.good(22, 0, &upgraded);
    // Lists of lists 100,000 deep: fastnbt alone would overflow the stack.
    let mut deep = vec![10u8, 0, 0, 9, 0, 1, b'x'];
    for _ in 0..100_000 {
        deep.extend([9u8, 0, 0, 0, 1]);
    }
    deep.extend([0u8, 0, 0, 0, 0, 0]);
    region.chunk(23, 0, 3, &deep);
    let path = dir.join("r.0.0.mca");
    fs::write(&path, region.bytes()).unwrap();
    fs::write(
        dir.join("c.9.0.mcc"),
        build::compress(2, &build::nbt(&good(9))),
    )
    .unwrap();

    let mut w = World::new(&Options::default());
    let t = w.file(&path);
    let report = format!("{:?}", t.bad_input);
    let reason = |x: i32| -> String {
        t.bad_input
            .iter()
            .filter(|(p, _)| p.chunk == Some((x, 0)))
            .map(|(_, r)| r.clone())
            .collect::<Vec<_>>()
            .join("; ")
    };
    assert!(reason(1).contains("bad compression byte 9"), "{report}");
    assert!(reason(2).contains("chunk length is 0"), "{report}");
    assert!(
        reason(3).contains("chunk length 9000 runs past its sectors"),
        "{report}"
    );
    assert!(
        reason(4).contains("Zlib payload does not decompress"),
        "{report}"
    );
    assert!(reason(5).contains("chunk NBT does not parse"), "{report}");
    assert!(
        reason(6).contains("truncated: sectors 400..402 run past the end"),
        "{report}"
    );
    assert!(reason(7).contains("inside the header"), "{report}");
    assert!(reason(8).contains("c.8.0.mcc"), "{report}");
    assert!(reason(21).contains("no DataVersion"), "{report}");
    assert!(
        reason(23).contains("nested deeper than 512 levels"),
        "{report}"
    );
    assert_eq!(t.bad_input.len(), 10, "{report}");
    for x in [0, 9, 10, 11, 12] {
        assert_eq!(reason(x), "", "chunk {x} should read");
    }
    // Good chunks 0, 9-12 (2 sections each), odd ones 13-19 and 22 (1 each), 20 old.
    assert_eq!(t.chunks_old, 1);
    assert_eq!(t.chunks_upgraded, 1);
    assert_eq!(t.sections, 5 * 2 + 7 + 1);
    assert_eq!(t.sections_identical, 5 * 2);
    let expect = [
        (
            Difference::MissingData,
            13,
            "Missing values for non-zero storage",
        ),
        (Difference::WrongLongCount, 14, "got: 255 but expected: 256"),
        (
            Difference::IndexPastPalette,
            15,
            "Missing Palette entry for index 4.",
        ),
        (
            Difference::UnusedEntries,
            16,
            "1 of 6 entries unused, first at palette index 5",
        ),
        (Difference::PaddingBits, 17, "first in long 3: saved 0x8"),
        (
            Difference::PaletteOrder,
            18,
            "first out of order at palette index 0",
        ),
        (
            Difference::DataOnSingleEntry,
            19,
            "256 longs beside a palette of 1",
        ),
    ];
    for (d, x, detail) in expect {
        let seen = t
            .differences
            .get(&d)
            .unwrap_or_else(|| panic!("{d:?} missing: {:?}", t.differences));
        assert_eq!(seen.count, 1);
        assert_eq!(seen.example.chunk, Some((x, 0)));
        assert_eq!(seen.example.section_y, Some(0));
        assert_eq!(seen.example.data_version, Some(build::DATA_VERSION));
        assert_eq!(seen.example.kind, Some(Kind::BlockStates));
        assert!(seen.detail.contains(detail), "{d:?}: {}", seen.detail);
    }
    assert_eq!(t.differences.len(), expect.len());
    assert_eq!(t.ours(), 0);
    let upgraded = &t.upgraded_differences[&Difference::UnusedEntries];
    assert_eq!(upgraded.example.chunk, Some((22, 0)));
    assert!(t.failed());
}

#[test]
fn a_truncated_region_file_is_reported_and_the_next_file_still_read() {
    let dir = scratch("truncated");
    let short = dir.join("r.0.0.mca");
    fs::write(&short, vec![0u8; 100]).unwrap();
    // Cut inside its second chunk: the first still reads.
    let mut region = build::Region::new();
    for x in 0..2 {
        region.good(
            x,
            0,
            &build::chunk(x as i32, 0, vec![build::plain_section(0)]),
        );
    }
    let mut bytes = region.bytes();
    bytes.truncate(8192 + 4096 + 10);
    let cut = dir.join("r.1.0.mca");
    fs::write(&cut, &bytes).unwrap();
    let missing = dir.join("r.9.9.mca");
    let (report, _) = world::run(&[short.clone(), cut, missing], &Options::default());
    let t = report.total();
    let text = report.to_string();
    assert!(
        text.contains(
            "r.0.0.mca: truncated region file: 100 bytes, the header tables alone take 8192"
        ),
        "{text}"
    );
    assert!(
        text.contains("r.1.0.mca, chunk (33, 0): truncated: chunk length"),
        "{text}"
    );
    assert!(text.contains("r.9.9.mca: cannot read"), "{text}");
    assert_eq!(t.files, 2);
    assert_eq!(t.sections_identical, 1, "{text}");
    assert_eq!(t.bad_input.len(), 3, "{text}");
}

#[test]
fn export_writes_each_container_as_a_case_of_the_interchange_format() {
    let dir = scratch("export");
    let out = dir.join("cases");
    // A region file with varied sections (a flat world's are nearly all alike, and identical
    // sections are exported once).
    let file = fixtures().join("prismarine-1.21.1-r.0.0.mca");
    let (
        report,
        world::Outcome {
            picked, exported, ..
        },
    ) = world::run(
        &[file],
        &Options {
            export: Some(out.clone()),
            sample: Some(30),
            ..Options::default()
        },
    );
    assert!(!report.total().failed(), "{report}");
    assert_eq!((picked.len(), exported), (30, 30));
    let mut files = Vec::new();
    let mut stack = vec![out.clone()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(d).unwrap().flatten() {
            if e.file_type().unwrap().is_dir() {
                stack.push(e.path());
            } else {
                files.push(e.path());
            }
        }
    }
    assert_eq!(files.len(), 30);
    let mut rust = RustExecutor::new();
    for path in files {
        let text = fs::read_to_string(&path).unwrap();
        let case = Case::parse(&text, &path).unwrap();
        assert!(
            case.name.starts_with("world/prismarine-1.21.1-r.0.0/"),
            "{}",
            case.name
        );
        assert_eq!(out.join(format!("{}.json", case.name)), path);
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(json["format"], 1);
        assert!(json.get("results").is_none());
        let Ops::Container(ops) = &case.ops else {
            panic!("container ops expected")
        };
        let ContainerOp::Unpack {
            palette,
            data,
            bits,
        } = &ops[0]
        else {
            panic!("unpack first")
        };
        assert_eq!(*bits, -1);
        assert_eq!(
            json["origin"]["names"].as_array().unwrap().len(),
            palette.len()
        );
        // Through the Rust executor: every op succeeds, and pack gives back
        // the saved palette and longs.
        let results = rust.run(&case).unwrap();
        assert_eq!(results.len(), 8);
        let Outcome::Ok(pack) = &results[1] else {
            panic!("pack failed: {results:?}")
        };
        assert_eq!(pack["palette"], serde_json::json!(palette));
        assert_eq!(pack["data"], serde_json::json!(data));
        for r in &results {
            assert!(matches!(r, Outcome::Ok(_)), "{}: {r:?}", case.name);
        }
    }
}

#[test]
fn exported_wide_palettes_run_through_the_rust_executor() {
    let dir = scratch("wide-export");
    let path = wide_region(&dir);
    let out = dir.join("cases");
    let (
        report,
        world::Outcome {
            exported, dropped, ..
        },
    ) = world::run(
        &[path],
        &Options {
            export: Some(out.clone()),
            ..Options::default()
        },
    );
    assert!(!report.total().failed(), "{report}");
    // Identical sections are exported once: every container is one or the other.
    assert_eq!(exported + dropped, 16 * 9 * 2);
    assert!(dropped > 0);
    let mut rust = RustExecutor::new();
    let mut global = 0;
    let mut read = 0;
    let mut palettes = std::collections::BTreeSet::new();
    for x in 0..16 {
        for y in -4..5 {
            for kind in ["block_states", "biomes"] {
                let path = out.join(format!("world/r.0.0/{x}.0/{y}/{kind}.json"));
                let Ok(text) = fs::read_to_string(&path) else {
                    continue;
                };
                read += 1;
                let case = Case::parse(&text, &path).unwrap();
                let Ops::Container(ops) = &case.ops else {
                    unreachable!()
                };
                if let ContainerOp::Unpack { palette, .. } = &ops[0] {
                    palettes.insert((kind, palette.len()));
                }
                let results = rust.run(&case).unwrap();
                for r in &results {
                    assert!(matches!(r, Outcome::Ok(_)), "{}: {r:?}", case.name);
                }
                let Outcome::Ok(bits) = &results[7] else {
                    unreachable!()
                };
                // Global configurations: 16 bits in memory for 26.3's block
                // states, 7 for its 65 biomes.
                if bits == 16 || (kind == "biomes" && bits == 7) {
                    global += 1;
                }
            }
        }
    }
    assert_eq!(read, exported);
    // Block palettes of 257, 300, 1000 and 4096 entries; biome palettes of 9, 20 and 64
    // entries: each exported, in a global configuration.
    for want in [
        ("block_states", 257),
        ("block_states", 300),
        ("block_states", 1000),
        ("block_states", 4096),
        ("biomes", 9),
        ("biomes", 20),
        ("biomes", 64),
    ] {
        assert!(
            palettes.contains(&want),
            "{want:?} not exported: {palettes:?}"
        );
    }
    assert!(global >= 7, "{global}");
}

#[test]
fn a_world_folder_is_searched_for_region_folders_only() {
    let dir = scratch("folder");
    let one = |x: i32| {
        let mut r = build::Region::new();
        r.good(
            0,
            0,
            &build::chunk(x * 32, 0, vec![build::plain_section(0)]),
        );
        r.bytes()
    };
    for (sub, x) in [
        ("region", 0),
        ("DIM-1/region", 1),
        ("dimensions/minecraft/overworld/region", 2),
    ] {
        fs::create_dir_all(dir.join(sub)).unwrap();
        fs::write(dir.join(sub).join(format!("r.{x}.0.mca")), one(x)).unwrap();
    }
    // Entity and point-of-interest regions hold no sections: not read.
    fs::create_dir_all(dir.join("entities")).unwrap();
    fs::write(dir.join("entities/r.0.0.mca"), b"not a region").unwrap();
    let (files, bad) = world::inputs(std::slice::from_ref(&dir));
    assert!(bad.is_empty());
    let names: Vec<String> = files
        .iter()
        .map(|f| f.strip_prefix(&dir).unwrap().display().to_string())
        .collect();
    assert_eq!(
        names,
        [
            "DIM-1/region/r.1.0.mca",
            "dimensions/minecraft/overworld/region/r.2.0.mca",
            "region/r.0.0.mca"
        ]
    );
    let t = check(std::slice::from_ref(&dir));
    assert_eq!((t.sections, t.sections_identical), (3, 3));
    // Exported names keep the dimensions apart.
    let out = scratch("folder-export");
    let (
        _,
        world::Outcome {
            exported, dropped, ..
        },
    ) = world::run(
        std::slice::from_ref(&dir),
        &Options {
            export: Some(out.clone()),
            ..Options::default()
        },
    );
    // The three dimensions hold the same section: exported once, the others dropped.
    assert_eq!((exported, dropped), (2, 4));
    // The first met (files are read sorted) is the one kept.
    assert!(out
        .join("world/DIM-1/r.1.0/32.0/0/block_states.json")
        .is_file());
    let named = |file: &str, x: i32| {
        world::export::name(&world::sample::Picked::new(
            world::report::Place {
                file: dir.join(file).display().to_string(),
                chunk: Some((x, 0)),
                section_y: Some(0),
                ..Default::default()
            },
            paletted::Kind::Biomes,
            64,
            paletted::Packed {
                palette: vec![0],
                data: None,
                bits: -1,
            },
        ))
    };
    assert_eq!(
        named("region/r.0.0.mca", 0),
        "world/folder/r.0.0/0.0/0/biomes"
    );
    assert_eq!(
        named("dimensions/minecraft/overworld/region/r.2.0.mca", 64),
        "world/overworld/r.2.0/64.0/0/biomes"
    );
}

#[test]
fn the_command_prints_the_report_and_fails_on_bad_input() {
    let rig = env!("CARGO_BIN_EXE_rig");
    let out = std::process::Command::new(rig)
        .args(["world"])
        .arg(fixtures().join("minestom-1.21.11-r.-1.1.mca"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("total: 1 files, 2832 sections checked, 2832 identical (5664 containers, 5664 identical); 118 chunks (DataVersion 4671)"),
        "{text}"
    );
    assert!(text.contains("throughput: "), "{text}");
    // No progress bar when stderr is not a terminal.
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let dir = scratch("cli");
    let bad = dir.join("r.0.0.mca");
    fs::write(&bad, [0u8; 10]).unwrap();
    let out = std::process::Command::new(rig)
        .args(["world"])
        .arg(&bad)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("unreadable: "), "{text}");
    assert!(text.contains("truncated region file: 10 bytes"), "{text}");
}

#[test]
fn the_command_says_what_it_looked_for_when_it_finds_nothing() {
    let rig = env!("CARGO_BIN_EXE_rig");
    let world = |args: &[&std::ffi::OsStr]| {
        let out = std::process::Command::new(rig)
            .arg("world")
            .args(args)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let empty = scratch("nothing");
    let (code, err, _) = world(&[empty.as_os_str()]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("no region files in"), "{err}");
    assert!(
        err.contains("looked for .mca files in `region` folders"),
        "{err}"
    );
    // Region files in a folder not named region are passed over, and said so.
    let stray = scratch("stray");
    fs::create_dir_all(stray.join("dim")).unwrap();
    fs::copy(
        fixtures().join("minestom-1.21.11-r.2.-1.mca"),
        stray.join("dim/r.2.-1.mca"),
    )
    .unwrap();
    let (code, err, _) = world(&[stray.as_os_str()]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("passed over 1 .mca file(s) not in a `region` folder"),
        "{err}"
    );
    // --sample 0 is an error, not an empty sample.
    let file = fixtures().join("minestom-1.21.11-r.2.-1.mca");
    let (code, err, _) = world(&[file.as_os_str(), "--sample".as_ref(), "0".as_ref()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--sample 0"), "{err}");
    // Export drops identical sections and says how many.
    let out_dir = scratch("dedup");
    let (code, err, out) = world(&[file.as_os_str(), "--export".as_ref(), out_dir.as_os_str()]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("exported 2 cases into"), "{out}");
    assert!(
        out.contains("; 5758 containers identical to one already exported dropped"),
        "{out}"
    );
}
