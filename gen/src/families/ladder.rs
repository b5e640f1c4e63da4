//! `ladder`: distinct values set one at a time, through every palette kind.

use paletted::{Kind, Strategy};

use super::{full_registry, kind_name, kind_of, pos_of, Family, Sim};
use crate::draft::Draft;
use crate::rng::Rng;

pub const FAMILY: Family = Family {
    name: "ladder",
    about: "distinct values set one at a time at consecutive indices past every palette boundary, \
            both strategies, registries from 1 up; bits after every set, palette/write/pack/counts \
            after every change of bits",
    variants,
    build,
};

const BLOCK_REGISTRIES: &[u32] = &[1, 2, 15, 16, 17, 255, 256, 257, 300, 4096, 35723];
const BIOME_REGISTRIES: &[u32] = &[1, 2, 3, 4, 5, 8, 9, 16, 64, 65, 67];

fn variants() -> Vec<String> {
    let mut v = Vec::new();
    for (kind, regs) in [
        (Kind::BlockStates, BLOCK_REGISTRIES),
        (Kind::Biomes, BIOME_REGISTRIES),
    ] {
        for r in regs {
            v.push(format!("{}-r{r}", kind_name(kind)));
        }
        // Random ids in random registries: the same ladder without 0, 1, 2...
        v.push(format!("{}-shuffled", kind_name(kind)));
        v.push(format!("{}-shuffled-full", kind_name(kind)));
    }
    v
}

fn build(variant: &str, rng: &mut Rng, seed: u64, name: String) -> Draft {
    let kind = kind_of(variant);
    let top = match kind {
        Kind::BlockStates => 300,
        Kind::Biomes => 20,
    };
    let (registry, ids): (u32, Vec<u32>) = if variant.ends_with("shuffled-full") {
        let r = full_registry(kind);
        (r, rng.distinct_ids(top.min(r as usize), r))
    } else if variant.ends_with("shuffled") {
        let r = rng.range(2, u64::from(full_registry(kind)) * 2) as u32;
        (r, rng.distinct_ids(top.min(r as usize), r))
    } else {
        let r: u32 = variant
            .rsplit("-r")
            .next()
            .and_then(|s| s.parse().ok())
            .unwrap_or(1);
        (r, (0..top.min(r as usize) as u32).collect())
    };
    let strategy = Strategy::with(kind, registry);
    let mut sim = Sim::new("ladder", seed, name, strategy, ids[0]);
    sim.draft.notes = "distinct values set at consecutive indices (x fastest, then z, then y); bits after \
                       every set; palette, write, pack, counts at the start and after every change of bits"
        .into();
    let look = ["palette", "write", "pack", "counts"];
    sim.observe(&["bits"]);
    sim.observe(&look);
    for (i, &id) in ids.iter().enumerate() {
        let before = sim.shadow.bits();
        sim.set(pos_of(&strategy, i), id);
        sim.observe(&["bits"]);
        if sim.shadow.bits() != before {
            sim.observe(&look);
        }
    }
    sim.observe(&["get_all", "serialized_size"]);
    sim.draft
}
