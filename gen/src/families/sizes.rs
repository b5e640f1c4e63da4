//! `sizes`: a container of each palette kind at the version the families
//! build at, written, sized and read back: the wire form and the
//! `serialized_size` of every palette kind (the pre-1.20.2 size counts the
//! VarInt of the number of values and a byte for the global palette), and a
//! global palette over the version's whole registry, its last id included.

use paletted::{Kind, PalettedContainer, Strategy};

use super::{full_registry, kind_name, kind_of, pos_of, Family, Sim};
use crate::draft::Draft;
use crate::rng::Rng;

pub const FAMILY: Family = Family {
    name: "sizes",
    about: "a container of each palette kind (single, linear, hash map, global) over the \
            version's registry: bits, write, serialized_size, then a read of its own bytes, \
            serialized_size, write and counts again",
    variants,
    build,
};

/// The palette kinds of a strategy kind (biomes have no hash map).
pub(crate) fn palettes(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::BlockStates => &["single", "linear", "hashmap", "global"],
        Kind::Biomes => &["single", "linear", "global"],
    }
}

fn variants() -> Vec<String> {
    let mut v = Vec::new();
    for kind in [Kind::BlockStates, Kind::Biomes] {
        for palette in palettes(kind) {
            v.push(format!("{}-{palette}", kind_name(kind)));
        }
    }
    v
}

/// How many distinct values put a container of `kind` in `palette`'s
/// configuration: at its edges or inside.
pub(crate) fn distinct_for(rng: &mut Rng, kind: Kind, palette: &str, registry: u32) -> usize {
    let (lo, hi) = match (kind, palette) {
        (_, "single") => (1, 1),
        (Kind::BlockStates, "linear") => (2, 16),
        (Kind::BlockStates, "hashmap") => (17, 256),
        (Kind::BlockStates, _) => (257, 400),
        (Kind::Biomes, "linear") => (2, 8),
        (Kind::Biomes, _) => (9, 24),
    };
    let n = match rng.below(3) {
        0 => lo,
        1 => hi,
        _ => rng.range(lo as u64, hi as u64) as usize,
    };
    n.min(registry as usize)
}

/// A container of `n` distinct values of the registry, every one present,
/// the last id of the registry among them when `last` (a global palette's
/// widest id).
pub(crate) fn filled(rng: &mut Rng, strategy: Strategy, n: usize, last: bool) -> PalettedContainer {
    let registry = strategy.registry_size();
    let mut ids = rng.distinct_ids(n, registry);
    if last && !ids.contains(&(registry - 1)) {
        let k = ids.len() - 1;
        ids[k] = registry - 1;
    }
    let mut c = PalettedContainer::new(ids[0], strategy);
    let size = strategy.size();
    let mut order: Vec<usize> = (0..size).collect();
    rng.shuffle(&mut order);
    for (k, &id) in ids.iter().enumerate().skip(1) {
        c.set_at(order[k % size], id);
    }
    c
}

fn build(variant: &str, rng: &mut Rng, seed: u64, name: String) -> Draft {
    let kind = kind_of(variant);
    let palette = variant.rsplit('-').next().unwrap_or("single");
    let registry = full_registry(kind);
    let strategy = Strategy::with(kind, registry);
    let n = distinct_for(rng, kind, palette, registry);
    let global = palette == "global";
    let built = filled(rng, strategy, n, global);
    let values: Vec<u32> = (0..strategy.size()).map(|i| built.get_at(i)).collect();
    let mut sim = Sim::new("sizes", seed, name, strategy, values[0]);
    sim.draft.notes = format!(
        "{n} distinct values of a registry of {registry} (a {palette} palette), set in index \
         order{}; then its own bytes read back in place",
        if global {
            ", the registry's last id among them"
        } else {
            ""
        }
    );
    for (i, &v) in values.iter().enumerate() {
        if v != values[0] {
            sim.set(pos_of(&sim.strategy, i), v);
        }
    }
    sim.observe(&["bits", "serialized_size", "write"]);
    let mut bytes = Vec::new();
    sim.shadow.write(&mut bytes);
    sim.read(&bytes);
    sim.observe(&["bits", "serialized_size", "write", "counts"]);
    sim.draft
}
