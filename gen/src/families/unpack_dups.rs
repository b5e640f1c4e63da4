//! `unpack-dups`: unpacks whose palette lists an id more than once, at every
//! palette-size class: a list palette keeps the repeats as entries, a hash
//! map or the global translation may not, and what `get`, `counts` and
//! `pack` then say shows which.

use paletted::{Kind, Strategy};

use super::wire::{indices, pack_longs, reveal};
use super::{full_registry, kind_name, kind_of, Family, Sim};
use crate::draft::Draft;
use crate::rng::Rng;

pub const FAMILY: Family = Family {
    name: "unpack-dups",
    about: "unpacks of palettes with repeated ids (all one id, pairs, one repeat) at every \
            palette-size class, data of the right length with indices to every entry, bits \
            declared or not; then every observation, set and get_and_set",
    variants,
    build,
};

fn sizes(kind: Kind) -> &'static [usize] {
    match kind {
        Kind::BlockStates => &[2, 16, 17, 32, 33, 256, 257, 300],
        Kind::Biomes => &[2, 4, 5, 8, 9, 20],
    }
}

fn variants() -> Vec<String> {
    let mut v = Vec::new();
    for kind in [Kind::BlockStates, Kind::Biomes] {
        for n in sizes(kind) {
            for pattern in ["same", "pairs", "one"] {
                v.push(format!("{}-p{n}-{pattern}", kind_name(kind)));
            }
        }
    }
    v
}

fn build(variant: &str, rng: &mut Rng, seed: u64, name: String) -> Draft {
    let kind = kind_of(variant);
    let parts: Vec<&str> = variant.rsplitn(3, '-').collect();
    let (pattern, n) = (parts[0], parts[1]);
    let len: usize = n.trim_start_matches('p').parse().unwrap_or(2);
    let registry = if rng.chance(1, 2) {
        full_registry(kind)
    } else {
        300
    };
    let strategy = Strategy::with(kind, registry);
    let initial = rng.below(u64::from(registry)) as u32;
    let mut sim = Sim::new("unpack-dups", seed, name, strategy, initial);
    let distinct = match pattern {
        "same" => 1,
        "pairs" => len.div_ceil(2),
        _ => len - 1,
    };
    let ids = rng.distinct_ids(distinct, registry);
    let mut palette: Vec<u32> = match pattern {
        "same" => vec![ids[0]; len],
        "pairs" => (0..len).map(|k| ids[k / 2]).collect(),
        _ => {
            let mut p = ids.clone();
            let dup = rng.pick(&ids);
            p.insert(rng.below(p.len() as u64 + 1) as usize, dup);
            p
        }
    };
    if pattern == "pairs" && rng.chance(1, 2) {
        rng.shuffle(&mut palette);
    }
    let disk = strategy.configuration_for_palette_len(len).disk_bits;
    let data = pack_longs(disk, &indices(rng, strategy.size(), len as u64));
    let bits = if rng.chance(1, 2) { -1 } else { disk as i32 };
    sim.unpack(&palette, (disk > 0).then_some(&data[..]), bits);
    sim.draft.notes =
        format!("an unpack of {len} palette entries, {distinct} distinct ids ({pattern})");
    reveal(rng, &mut sim, &ids);
    sim.draft
}
