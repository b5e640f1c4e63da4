//! `wire-cut`: wire input cut short at every kind of place: before the bits
//! byte (no input), inside the count's VarInt, inside an id's VarInt,
//! between ids, inside a long, at a long's edge, before the longs and, where
//! the version sends one (before 1.21.5), inside the count of longs; into a
//! fresh container and one whose configuration the read reuses; and, in
//! place, a read of fewer entries than the one before cut in its longs,
//! which leaves old indices past the new palette's end.

use paletted::{Kind, PaletteKind, Strategy};

use super::wire::{
    bytes_for, capacity, indices, long_count, packed_bytes, padded_varint, palette_ids,
    read_in_place_first, reveal, varint,
};
use super::{at_version, full_registry, kind_name, kind_of, Family, Sim};
use crate::draft::Draft;
use crate::rng::Rng;

pub const FAMILY: Family = Family {
    name: "wire-cut",
    about: "wire input cut short in the bits byte (empty), inside the count or an id (multi-byte \
            VarInts), between ids, inside a long, at a long's edge and before the longs, for every \
            palette kind, fresh and in place; then every observation, set and get_and_set",
    variants,
    build,
};

fn rungs(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::BlockStates => &["single", "lin", "hm", "global"],
        Kind::Biomes => &["single", "lin", "global"],
    }
}

/// Where a read of `rung` is cut; `longcount` (inside the VarInt count of
/// longs) only where the version sends one.
fn places(rung: &str) -> Vec<&'static str> {
    let mut places = match rung {
        "single" => vec!["bits", "id"],
        "global" => vec!["bits", "longmid", "longedge", "nolongs"],
        _ => vec![
            "bits", "count", "id", "ids", "longmid", "longedge", "nolongs",
        ],
    };
    if rung != "single" && at_version().rules().long_count() {
        places.push("longcount");
    }
    places
}

fn variants() -> Vec<String> {
    let mut v = Vec::new();
    for kind in [Kind::BlockStates, Kind::Biomes] {
        for rung in rungs(kind) {
            for place in places(rung) {
                for mode in ["fresh", "inplace", "fewer"] {
                    if mode == "fewer" && !fewer_applies(rung, place) {
                        continue;
                    }
                    v.push(format!("{}-{rung}-{place}-{mode}", kind_name(kind)));
                }
            }
        }
    }
    v
}

/// A read of fewer list entries than the one before, cut once its palette
/// is in: the palette is replaced, the old storage stays (in part).
fn fewer_applies(rung: &str, place: &str) -> bool {
    matches!(rung, "lin" | "hm") && matches!(place, "longmid" | "longedge" | "nolongs")
}

fn build(variant: &str, rng: &mut Rng, seed: u64, name: String) -> Draft {
    let kind = kind_of(variant);
    let parts: Vec<&str> = variant.rsplitn(4, '-').collect();
    let (mode, place, rung) = (parts[0], parts[1], parts[2]);
    let strategy = Strategy::with(kind, full_registry(kind));
    let registry = strategy.registry_size();
    let initial = rng.below(u64::from(registry)) as u32;
    let mut sim = Sim::new("wire-cut", seed, name, strategy, initial);
    let byte = match (rung, kind) {
        ("lin", Kind::BlockStates) => rng.range(1, 4) as u8,
        ("lin", Kind::Biomes) => rng.range(1, 3) as u8,
        ("hm", _) => rng.range(5, 8) as u8,
        _ => rng.pick(&bytes_for(&strategy, rung)),
    };
    let config = strategy.configuration(u32::from(byte));
    let before = if mode == "fresh" {
        0
    } else {
        let before = read_in_place_first(rng, &mut sim, byte).len();
        sim.observe(&["bits"]);
        before
    };
    let n = match capacity(config) {
        Some(_) if mode == "fewer" => rng.range(1, before as u64 - 1) as usize,
        Some(cap) => rng.range(2.min(cap as u64), cap as u64) as usize,
        None => 1,
    };
    let ids = palette_ids(rng, n, registry);
    let bound = match config.kind {
        PaletteKind::Global => u64::from(registry),
        _ => n as u64,
    };
    let longs = packed_bytes(config.bits, &indices(rng, strategy.size(), bound));
    // Before 1.21.5 the longs follow their count.
    let count = long_count(longs.len() / 8);
    // The bytes up to the cut.
    let mut bytes = Vec::new();
    if place != "bits" {
        bytes.push(byte);
        match (config.kind, place) {
            (PaletteKind::Single, _) => {
                let v = padded_varint(ids[0] as i32, rng.range(2, 5) as usize);
                bytes.extend(&v[..rng.range(1, v.len() as u64 - 1) as usize]);
            }
            (_, "count") => {
                let v = padded_varint(n as i32, rng.range(2, 5) as usize);
                bytes.extend(&v[..rng.range(1, v.len() as u64 - 1) as usize]);
            }
            (PaletteKind::Global, _) => {}
            (_, "id") => {
                bytes.extend(varint(n as i32));
                let at = rng.below(n as u64) as usize;
                list(rng, &mut bytes, &ids, Some(at));
            }
            (_, "ids") => {
                bytes.extend(varint(n as i32));
                let upto = rng.below(n as u64) as usize;
                for &id in &ids[..upto] {
                    bytes.extend(varint(id as i32));
                }
            }
            _ => {
                bytes.extend(varint(n as i32));
                list(rng, &mut bytes, &ids, None);
            }
        }
        match place {
            "longmid" => {
                let at = 8 * rng.below(longs.len() as u64 / 8) as usize + rng.range(1, 7) as usize;
                bytes.extend(&count);
                bytes.extend(&longs[..at]);
            }
            "longedge" => {
                let at = 8 * rng.below(longs.len() as u64 / 8) as usize;
                bytes.extend(&count);
                bytes.extend(&longs[..at]);
            }
            "longcount" => {
                // Padded so that even a one-long storage's count can be cut inside.
                let v = padded_varint((longs.len() / 8) as i32, rng.range(2, 5) as usize);
                bytes.extend(&v[..rng.range(1, v.len() as u64 - 1) as usize]);
            }
            _ => {}
        }
    }
    sim.read(&bytes);
    sim.draft.notes = format!(
        "a {}-byte read (bits byte {byte}, a {rung} palette) cut at the {place}, {mode}",
        bytes.len()
    );
    reveal(rng, &mut sim, &ids);
    sim.draft
}

/// The ids as VarInts, the one at `cut` padded to several bytes and cut
/// inside.
fn list(rng: &mut Rng, bytes: &mut Vec<u8>, ids: &[u32], cut: Option<usize>) {
    for (k, &id) in ids.iter().enumerate() {
        if Some(k) == cut {
            let v = padded_varint(id as i32, rng.range(2, 5) as usize);
            let keep = rng.range(1, v.len() as u64 - 1) as usize;
            bytes.extend(&v[..keep]);
            return;
        }
        bytes.extend(varint(id as i32));
    }
}
