//! Vanilla servers' chunk packets as truth: bytes no one here wrote.
//!
//! The npm package `minecraft-packets` (pinned in `tests/packets/`, with
//! its lockfile; `tests/packets/install` runs `npm ci`) holds five
//! captured `map_chunk` packets for each of 1.18.2, 1.19, 1.19.2, 1.19.3,
//! 1.19.4 and 1.20.1. Every section of every capture is read at its
//! version (the block count, then both containers, strictly), written back
//! byte for byte, and read again (and into a section already held); the
//! block count sent is checked against the non-air blocks of its block
//! states, as `Section::new` counts them and as `set` keeps count, with the
//! air states taken from that version's tables in `minecraft-data` (pinned
//! alongside), not typed here. Each capture is also read whole as a
//! `Column` and written back byte for byte, padding included.
//!
//! Without the packages the test says so and passes; with
//! `PALETTED_PACKETS_REQUIRED` set (as CI sets it) it fails instead.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use paletted::{BlockKinds as _, Column, Error, PalettedContainer, Section, StateTable, Version};
use serde_json::Value;

/// The captured versions, oldest first.
const CAPTURED: [&str; 6] = ["1.18.2", "1.19", "1.19.2", "1.19.3", "1.19.4", "1.20.1"];

/// The block names `BlockState.isAir` holds for.
const AIR_BLOCKS: [&str; 3] = ["air", "cave_air", "void_air"];

fn modules() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packets/node_modules")
}

/// Said outside the test harness's capture, so that it shows in a run.
fn say(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

fn json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A version's registries and air states, from minecraft-data's tables.
struct Registry {
    version: Version,
    air: StateTable,
    /// The air states' ids (`air`'s).
    air_ids: Vec<u32>,
}

fn registry(data: &Path, name: &'static str) -> Registry {
    let paths = json(&data.join("dataPaths.json"));
    let folder = |key: &str| {
        let p = paths["pc"][name][key]
            .as_str()
            .unwrap_or_else(|| panic!("minecraft-data has no {key} for {name}"));
        data.join(p)
    };
    let blocks = json(&folder("blocks").join("blocks.json"));
    let blocks = blocks.as_array().expect("blocks.json is an array");
    let state = |b: &Value, key: &str| b[key].as_u64().expect("a state id") as u32;
    let states = blocks.iter().map(|b| state(b, "maxStateId")).max().unwrap() + 1;
    let air: Vec<u32> = blocks
        .iter()
        .filter(|b| AIR_BLOCKS.contains(&b["name"].as_str().unwrap_or("")))
        .flat_map(|b| state(b, "minStateId")..=state(b, "maxStateId"))
        .collect();
    assert_eq!(air.len(), AIR_BLOCKS.len(), "{name}: air states {air:?}");
    let biomes = json(&folder("biomes").join("biomes.json"))
        .as_array()
        .expect("biomes.json is an array")
        .len() as u32;
    let protocols = json(&data.join("pc/common/protocolVersions.json"));
    let data_version = protocols
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["minecraftVersion"] == name)
        .and_then(|p| p["dataVersion"].as_u64())
        .unwrap_or_else(|| panic!("minecraft-data has no DataVersion for {name}"))
        as u32;
    // Every captured version is in the crate's table, and the tables the
    // versions page took its numbers from agree with it.
    let version = Version::named(name).unwrap_or_else(|| panic!("{name} is not in Version::ALL"));
    assert_eq!(
        (
            version.data_version(),
            version.block_states(),
            version.biomes()
        ),
        (data_version, states, biomes),
        "{name}: the crate's registry sizes against minecraft-data's"
    );
    Registry {
        version,
        air: StateTable::new(&air, &[]),
        air_ids: air,
    }
}

/// What one version's captures held.
#[derive(Default)]
struct Tally {
    captures: usize,
    sections: usize,
    non_air: u64,
    /// Bytes `getSerializedSize` counted and `write` did not write.
    padding: usize,
}

/// The counters against the count the server sent (the section's first
/// two bytes): counted by `Section::new` from the block states, and kept by
/// `set` while an all-air section takes every block state in turn, then
/// loses them again. These versions send no fluid count, and the tables
/// name no fluid: the fluid count stays 0.
fn check_counters(reg: &Registry, place: &str, section: &Section, sent: &[u8]) {
    let count = i16::from_be_bytes([sent[0], sent[1]]);
    assert_eq!(
        section.non_empty_block_count(),
        count,
        "{place}: the count read"
    );
    assert_eq!(section.fluid_count(), 0, "{place}: a fluid count none sent");
    let (blocks, biomes) = (section.blocks().clone(), section.biomes().clone());
    let air = reg.air_ids[0];
    for &id in &reg.air_ids {
        assert!(
            reg.air.is_air(id) && !reg.air.has_fluid(id),
            "{place}: air {id}"
        );
    }
    let counted = Section::new(blocks.clone(), biomes.clone(), &reg.air).unwrap();
    assert_eq!(counted.non_empty_block_count(), count, "{place}: counted");
    assert_eq!(counted.has_only_air(), count == 0, "{place}: only air");
    // The same kinds as a pair of predicates.
    let kinds = (|s| reg.air.is_air(s), |_| false);
    let mut built = Section::new(
        PalettedContainer::new(air, blocks.strategy()),
        biomes,
        &kinds,
    )
    .unwrap();
    assert!(built.has_only_air() && built.non_empty_block_count() == 0);
    let n = blocks.strategy().axis_len();
    let positions = (0..n).flat_map(|y| (0..n).flat_map(move |z| (0..n).map(move |x| (x, y, z))));
    for (x, y, z) in positions.clone() {
        let state = section.get(x, y, z);
        assert_eq!(state, blocks.get(x, y, z), "{place}: get");
        assert_eq!(
            built.set(x, y, z, state, &kinds),
            air,
            "{place}: set gives the old state"
        );
    }
    assert_eq!(
        built.non_empty_block_count(),
        count,
        "{place}: counted by sets"
    );
    assert_eq!(built.fluid_count(), 0, "{place}: fluids counted by sets");
    assert_eq!(
        built.has_only_air(),
        count == 0,
        "{place}: only air after sets"
    );
    for (x, y, z) in positions {
        built.set(x, y, z, air, &reg.air);
    }
    assert!(
        built.has_only_air() && built.non_empty_block_count() == 0,
        "{place}: all air again"
    );
    assert_eq!(built.fluid_count(), 0, "{place}: no fluids again");
}

fn check_capture(reg: &Registry, path: &Path, tally: &mut Tally) {
    let packet = json(path);
    let bytes: Vec<u8> = packet["chunkData"]["data"]
        .as_array()
        .unwrap_or_else(|| panic!("{}: no chunkData", path.display()))
        .iter()
        .map(|b| b.as_u64().expect("a byte") as u8)
        .collect();
    let (blocks, biomes) = (reg.version.block_strategy(), reg.version.biome_strategy());
    // Minecraft sizes the buffer by `getSerializedSize` and writes into it,
    // so up to 1.20.1 its bug leaves zeros at the end: the sections end
    // where their computed sizes add up to the buffer, not their bytes.
    let (mut at, mut computed, mut n) = (0, 0, 0);
    let mut sections = Vec::new();
    while computed < bytes.len() {
        let place = format!("{} section {n} (byte {at})", path.display());
        let (section, used) = Section::from_wire(blocks, biomes, &bytes[at..])
            .unwrap_or_else(|e| panic!("{place}: read: {e}"));
        let sent = &bytes[at..at + used];
        let mut again = Vec::new();
        section.write(&mut again);
        assert!(again == sent, "{place}: written back, the bytes differ");
        let (reread, used_again) = Section::from_wire(blocks, biomes, &again)
            .unwrap_or_else(|e| panic!("{place}: read again: {e}"));
        assert!(
            reread == section && used_again == used,
            "{place}: read again, the section differs"
        );
        // Each container alone, strict and lenient, as the section holds it.
        let mut c = if reg.version.rules().fluid_count() {
            4
        } else {
            2
        };
        for (container, strategy) in [(section.blocks(), blocks), (section.biomes(), biomes)] {
            let mut one = Vec::new();
            container.write(&mut one);
            assert_eq!(&sent[c..c + one.len()], one, "{place}: a container's bytes");
            let mut lenient = PalettedContainer::new(0, strategy);
            assert_eq!(
                lenient.read_lenient(&sent[c..]),
                Ok(one.len()),
                "{place}: lenient read"
            );
            assert!(&lenient == container, "{place}: lenient read differs");
            c += one.len();
        }
        // The count the server sent against the block states' non-air ones.
        let mut counted = section.clone();
        counted.recount(&reg.air);
        assert_eq!(
            counted.non_empty_block_count(),
            section.non_empty_block_count(),
            "{place}: the sent block count against the non-air blocks"
        );
        check_counters(reg, &place, &section, sent);
        // A client's read into a section it holds: the same section and length.
        let mut reused = reread.clone();
        assert_eq!(reused.read(sent), Ok(used), "{place}: read into a section");
        assert!(
            reused == section,
            "{place}: read into a section, it differs"
        );
        tally.non_air += section.non_empty_block_count() as u64;
        tally.padding += section.serialized_size() - used;
        computed += section.serialized_size();
        at += used;
        n += 1;
        sections.push(section);
    }
    assert_eq!(
        computed,
        bytes.len(),
        "{}: the sections' serialized sizes against the buffer",
        path.display()
    );
    assert!(
        bytes[at..].iter().all(|&b| b == 0),
        "{}: the {} bytes after the sections are not all zero",
        path.display(),
        bytes.len() - at
    );
    check_column(reg, path, &bytes, sections);
    tally.captures += 1;
    tally.sections += n;
}

/// The whole capture as one `Column`: read from the packet's bytes at its
/// version into the sections read one by one, written back byte for byte
/// (padding included); read as 26.3, an error that names its version.
fn check_column(reg: &Registry, path: &Path, bytes: &[u8], sections: Vec<Section>) {
    let place = path.display();
    // The packet does not say its dimension; its section count does: the
    // overworld's 24 from y = -64, or the nether's and the end's 16 from 0.
    let min_y = match sections.len() {
        24 => -64,
        16 => 0,
        n => panic!("{place}: {n} sections, no vanilla dimension's"),
    };
    let height = sections.len() as u32 * 16;
    let column = Column::from_wire(reg.version, min_y, height, bytes)
        .unwrap_or_else(|e| panic!("{place}: the column: {e}"));
    assert!(
        column.sections() == sections,
        "{place}: the column's sections"
    );
    assert_eq!((column.min_y(), column.height()), (min_y, height));
    let mut again = Vec::new();
    column.write(&mut again);
    assert!(again == bytes, "{place}: the column written back differs");
    assert_eq!(column.serialized_size(), bytes.len(), "{place}");
    assert_eq!(
        Column::new(reg.version, min_y, sections).as_ref(),
        Ok(&column),
        "{place}: the column made of its sections"
    );
    // Read as the newest version: the read's error, with a hint that names
    // the capture's version among those whose wire form fits.
    let err = Column::from_wire(Version::LATEST, min_y, height, bytes).unwrap_err();
    let Error::OtherVersion { fits, .. } = &err else {
        panic!("{place}: read as {}: no hint: {err}", Version::LATEST)
    };
    let named = |v: Version| {
        fits.iter()
            .any(|(a, b)| (a.data_version()..=b.data_version()).contains(&v.data_version()))
    };
    assert!(named(reg.version), "{place}: {err}");
    assert!(!named(Version::LATEST), "{place}: {err}");
}

#[test]
fn every_captured_section_round_trips_with_its_block_count() {
    let root = modules();
    let packets = root.join("minecraft-packets/minecraft-packets/data/pc");
    let data = root.join("minecraft-data/minecraft-data/data");
    if !packets.is_dir() || !data.is_dir() {
        let why = format!(
            "{} is not installed (run tests/packets/install)",
            root.display()
        );
        if std::env::var_os("PALETTED_PACKETS_REQUIRED").is_some() {
            panic!("real packets: {why}, and PALETTED_PACKETS_REQUIRED is set");
        }
        say(&format!("real packets: skipped, {why}"));
        return;
    }
    for name in CAPTURED {
        let reg = registry(&data, name);
        let dir = packets.join(name).join("from-server/map_chunk");
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        assert!(!files.is_empty(), "{}: no captures", dir.display());
        let mut tally = Tally::default();
        for file in &files {
            check_capture(&reg, file, &mut tally);
        }
        say(&format!(
            "real packets {name} ({} rules): {} captures, {} sections, block states and biomes \
             read, written back byte for byte and read again, and as columns; block counts right ({} non-air); \
             buffers sized by serialized_size ({} bytes over what was written)",
            reg.version.rules().span(),
            tally.captures,
            tally.sections,
            tally.non_air,
            tally.padding
        ));
    }
}
