//! `roundtrip`: random containers packed, unpacked, written and packed again.

use paletted::{Kind, Strategy};

use super::{boundary_span, full_registry, kind_name, kind_of, pos, Family, Sim};
use crate::draft::Draft;
use crate::rng::Rng;

pub const FAMILY: Family = Family {
    name: "roundtrip",
    about:
        "random containers with a number of distinct values near a palette boundary: write, pack, \
            unpack of the pack, then write and pack again",
    variants,
    build,
};

fn variants() -> Vec<String> {
    let mut v = Vec::new();
    for kind in [Kind::BlockStates, Kind::Biomes] {
        for k in 0..8 {
            v.push(format!("{}-{k}", kind_name(kind)));
        }
    }
    v
}

fn build(variant: &str, rng: &mut Rng, seed: u64, name: String) -> Draft {
    let kind = kind_of(variant);
    let registry = if rng.chance(1, 4) {
        rng.range(2, u64::from(full_registry(kind))) as u32
    } else {
        full_registry(kind)
    };
    let strategy = Strategy::with(kind, registry);
    let n = boundary_span(rng, kind, registry);
    let ids = rng.distinct_ids(n, registry);
    let mut sim = Sim::new("roundtrip", seed, name, strategy, ids[0]);
    sim.draft.notes =
        format!("a random container ({n} distinct values), then write, pack, unpack, write, pack");
    let sets = rng.range(n as u64, n as u64 + 300) as usize;
    for k in 0..sets {
        let v = if k < n {
            ids[k]
        } else {
            ids[rng.below(n as u64) as usize]
        };
        let p = pos(rng, &strategy);
        sim.put(rng, p, v);
    }
    sim.observe(&["bits", "write", "pack"]);
    sim.unpack_own_pack();
    sim.observe(&["bits"]);
    if sim.shadow.palette_kind() != paletted::PaletteKind::Global {
        sim.observe(&["palette"]);
    }
    sim.observe(&["get_all", "counts", "write", "pack"]);
    sim.draft
}
