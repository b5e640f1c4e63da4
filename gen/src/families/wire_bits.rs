//! `wire-bits`: wire reads whose bits byte is one `write` never sends:
//! between the ladder's widths, above the in-memory global width, and
//! negative as Java's signed byte (128..255); fresh, in place, one after
//! another, and one long short.

use paletted::{Kind, PaletteKind, Strategy};

use super::wire::{capacity, indices, palette_ids, read_in_place_first, reveal, section};
use super::{full_registry, kind_name, kind_of, Family, Sim};
use crate::draft::Draft;
use crate::rng::Rng;

pub const FAMILY: Family = Family {
    name: "wire-bits",
    about: "hand-built wire reads whose bits byte is off the ladder (blocks 1-3, 9-15, 17-127; \
            biomes 4-6, 8-127) or negative as a Java byte (128-255), fresh, in place, twice with \
            two such bytes, and one long short; then every observation, set and get_and_set",
    variants,
    build,
};

fn classes(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::BlockStates => &["low", "mid", "high", "neg", "ff"],
        Kind::Biomes => &["mid", "high", "neg", "ff"],
    }
}

fn variants() -> Vec<String> {
    let mut v = Vec::new();
    for kind in [Kind::BlockStates, Kind::Biomes] {
        for class in classes(kind) {
            for mode in ["fresh", "inplace", "twice", "short"] {
                v.push(format!("{}-{class}-{mode}", kind_name(kind)));
            }
        }
    }
    v
}

/// A bits byte of the class, for the full registries (blocks: ladder 0, 4-8,
/// 16; biomes: 0-3, 7).
fn byte_of(rng: &mut Rng, kind: Kind, class: &str) -> u8 {
    let (lo, hi) = match (kind, class) {
        (_, "ff") => (255, 255),
        (_, "neg") => (128, 254),
        (Kind::BlockStates, "low") => (1, 3),
        (Kind::BlockStates, "mid") => (9, 15),
        (Kind::BlockStates, _) => (17, 127),
        (Kind::Biomes, "mid") => (4, 6),
        (Kind::Biomes, _) => (8, 127),
    };
    rng.range(lo, hi) as u8
}

/// A well-formed rest of a section for `byte`: palette and storage of the
/// configuration it selects, with the ids it lists.
fn rest(rng: &mut Rng, strategy: &Strategy, byte: u8) -> (Vec<u8>, Vec<u32>) {
    let config = strategy.configuration(u32::from(byte));
    let registry = strategy.registry_size();
    let (ids, bound) = match config.kind {
        PaletteKind::Global => (Vec::new(), u64::from(registry)),
        _ => {
            let cap = capacity(config).unwrap_or(1);
            let n = rng.range(1, cap as u64) as usize;
            (palette_ids(rng, n, registry), n as u64)
        }
    };
    let values = indices(rng, strategy.size(), bound);
    (
        section(strategy, byte, ids.len() as i32, &ids, &values),
        ids,
    )
}

fn build(variant: &str, rng: &mut Rng, seed: u64, name: String) -> Draft {
    let kind = kind_of(variant);
    let parts: Vec<&str> = variant.rsplitn(3, '-').collect();
    let (mode, class) = (parts[0], parts[1]);
    let strategy = Strategy::with(kind, full_registry(kind));
    let initial = rng.below(u64::from(strategy.registry_size())) as u32;
    let mut sim = Sim::new("wire-bits", seed, name, strategy, initial);
    let byte = byte_of(rng, kind, class);
    if mode == "inplace" {
        read_in_place_first(rng, &mut sim, byte);
        sim.observe(&["bits", "write"]);
    }
    let (mut bytes, ids) = rest(rng, &strategy, byte);
    if mode == "short" {
        bytes.truncate(bytes.len().saturating_sub(8));
    }
    sim.read(&bytes);
    if mode == "twice" {
        sim.observe(&["bits", "write"]);
        let other = loop {
            let c = rng.pick(classes(kind));
            let b = byte_of(rng, kind, c);
            if b != byte {
                break b;
            }
        };
        let (mut again, _) = rest(rng, &strategy, other);
        // Sometimes one long short: a failed read into a fresh configuration
        // is thrown away whole.
        if rng.chance(1, 2) {
            again.truncate(again.len().saturating_sub(8));
        }
        sim.read(&again);
    }
    sim.draft.notes = format!("a read of bits byte {byte} ({class}), {mode}");
    reveal(rng, &mut sim, &ids);
    sim.draft
}
