//! `wire-count`: wire reads whose palette count is 0, 1, negative, just and
//! far over what the palette kind holds, and huge, fresh and in place.

use paletted::{Kind, Strategy};

use super::wire::{
    bytes_for, capacity, indices, palette_ids, read_in_place_first, reveal, section,
};
use super::{full_registry, kind_name, kind_of, Family, Sim};
use crate::draft::Draft;
use crate::rng::Rng;

pub const FAMILY: Family = Family {
    name: "wire-count",
    about: "hand-built wire reads of each list palette width whose count is 0, 1, negative, \
            i32::MIN, just and far over the palette's capacity, huge and i32::MAX, into a fresh \
            container and one in that configuration; then every observation, set and get_and_set",
    variants,
    build,
};

fn rungs(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::BlockStates => &["lin4", "hm5", "hm6", "hm7", "hm8"],
        Kind::Biomes => &["lin1", "lin2", "lin3"],
    }
}

const COUNTS: &[&str] = &[
    "c0", "c1", "neg1", "neg", "min", "over1", "over", "huge", "max",
];

fn variants() -> Vec<String> {
    let mut v = Vec::new();
    for kind in [Kind::BlockStates, Kind::Biomes] {
        for rung in rungs(kind) {
            for count in COUNTS {
                for mode in ["fresh", "inplace"] {
                    v.push(format!("{}-{rung}-{count}-{mode}", kind_name(kind)));
                }
            }
        }
    }
    v
}

fn build(variant: &str, rng: &mut Rng, seed: u64, name: String) -> Draft {
    let kind = kind_of(variant);
    let parts: Vec<&str> = variant.rsplitn(4, '-').collect();
    let (mode, class, rung) = (parts[0], parts[1], parts[2]);
    let strategy = Strategy::with(kind, full_registry(kind));
    let registry = strategy.registry_size();
    let initial = rng.below(u64::from(registry)) as u32;
    let mut sim = Sim::new("wire-count", seed, name, strategy, initial);
    let byte = rng.pick(&bytes_for(&strategy, rung));
    let config = strategy.configuration(u32::from(byte));
    let cap = capacity(config).unwrap_or(1);
    if mode == "inplace" {
        read_in_place_first(rng, &mut sim, byte);
        sim.observe(&["bits"]);
    }
    let count: i64 = match class {
        "c0" => 0,
        "c1" => 1,
        "neg1" => -1,
        "neg" => -(rng.range(2, 1000) as i64),
        "min" => i64::from(i32::MIN),
        "over1" => cap as i64 + 1,
        "over" => rng.range(cap as u64 + 2, 2 * cap as u64 + 3) as i64,
        "huge" => rng.range(1000, 1 << 24) as i64,
        _ => i64::from(i32::MAX),
    };
    // Ids written: as many as announced when that is small, else a few (the
    // reader then takes the longs for ids, or runs out of input).
    let written = if (1..=2 * cap as i64 + 3).contains(&count) {
        count as usize
    } else if count > 0 {
        rng.below(cap as u64 + 1) as usize
    } else {
        0
    };
    let ids = palette_ids(rng, written, registry);
    let bound = count.clamp(1, cap as i64) as u64;
    let bound = if count <= 0 { cap as u64 } else { bound };
    let values = indices(rng, strategy.size(), bound);
    let bytes = section(&strategy, byte, count as i32, &ids, &values);
    sim.read(&bytes);
    sim.draft.notes = format!(
        "a read of bits byte {byte} (a {rung} palette, capacity {cap}) announcing {count} ids, \
         {written} written, into a {}",
        if mode == "fresh" {
            "fresh container"
        } else {
            "container of that configuration"
        }
    );
    reveal(rng, &mut sim, &ids);
    sim.draft
}
