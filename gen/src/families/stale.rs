//! `stale`: palette entries overwritten until nothing refers to them, then a
//! new value forces a resize that drops them.

use paletted::{Kind, PaletteKind, Strategy};

use super::{full_registry, kind_name, kind_of, pos, Family, Sim};
use crate::draft::Draft;
use crate::rng::Rng;

pub const FAMILY: Family = Family {
    name: "stale",
    about: "entries overwritten until nothing refers to them (the initial value too), then a new value \
            forces a resize; palette, bits, counts, write, pack before and after, through linear, hash map \
            and global palettes",
    variants,
    build,
};

/// `(name, resizes to go through, victims per level (0 = all but one), background first)`.
const SHAPES: &[(&str, usize, usize, bool)] = &[
    ("linear-one", 1, 1, false),
    ("linear-all", 1, 0, false),
    ("hashmap", 4, 3, false),
    ("to-global", 9, 2, false),
    ("background", 2, 1, true),
    ("small-registry-to-global", 9, 1, false),
];

fn variants() -> Vec<String> {
    let mut v = Vec::new();
    for kind in [Kind::BlockStates, Kind::Biomes] {
        for (shape, ..) in SHAPES {
            if kind == Kind::Biomes && *shape == "hashmap" {
                v.push("biomes-multi".to_string());
                continue;
            }
            v.push(format!("{}-{shape}", kind_name(kind)));
        }
    }
    v
}

fn build(variant: &str, rng: &mut Rng, seed: u64, name: String) -> Draft {
    let kind = kind_of(variant);
    let shape = variant.split_once('-').map_or("", |(_, s)| s);
    let &(_, resizes, victims, background) = SHAPES
        .iter()
        .find(|s| s.0 == shape)
        .unwrap_or(&("multi", 3, 2, false));
    let registry = if shape.starts_with("small-registry") {
        match kind {
            Kind::BlockStates => rng.range(257, 320) as u32,
            Kind::Biomes => rng.range(9, 12) as u32,
        }
    } else {
        full_registry(kind)
    };
    let strategy = Strategy::with(kind, registry);
    let initial = rng.below(u64::from(registry)) as u32;
    let mut sim = Sim::new("stale", seed, name, strategy, initial);
    sim.draft.notes = "palette entries overwritten until nothing refers to them, then a value not in the \
                       palette forces a resize; palette, bits, counts, write, pack before and after each resize"
        .into();
    let look = ["palette", "bits", "counts", "write", "pack"];

    if background {
        // Every cell overwritten: the initial value goes stale.
        let Some(a) = fresh(rng, &sim) else {
            return sim.draft;
        };
        for i in 0..strategy.size() {
            let p = super::pos_of(&strategy, i);
            sim.put(rng, p, a);
        }
        sim.observe(&look);
    }

    if sim.shadow.palette_kind() == PaletteKind::Single {
        // Into a linear palette first: a single value has nothing to go stale.
        if let Some(v) = fresh(rng, &sim) {
            let p = unused_pos(rng, &sim);
            sim.put(rng, p, v);
        }
    }
    for _ in 0..resizes {
        if sim.shadow.palette_kind() == PaletteKind::Global {
            break;
        }
        // Fill the palette to its capacity.
        let cap = capacity(&sim);
        while sim.shadow.palette().len() < cap {
            let Some(v) = fresh(rng, &sim) else { break };
            let p = unused_pos(rng, &sim);
            sim.put(rng, p, v);
        }
        // Make some entries stale: every cell holding them gets a survivor.
        // The background (the value most cells hold) survives: staling it
        // is the `background` variant's job, and takes thousands of sets.
        let survivor = background_value(&sim);
        let mut order: Vec<u32> = sim
            .shadow
            .palette()
            .into_iter()
            .filter(|&v| v != survivor)
            .collect();
        rng.shuffle(&mut order);
        let k = if victims == 0 {
            order.len()
        } else {
            victims.min(order.len())
        };
        let doomed = &order[..k];
        for i in 0..strategy.size() {
            if doomed.contains(&sim.shadow.get_at(i)) {
                let p = super::pos_of(&strategy, i);
                sim.put(rng, p, survivor);
            }
        }
        sim.observe(&look);
        // A value the palette lacks: the resize drops the stale entries.
        let Some(v) = fresh(rng, &sim) else { break };
        let p = pos(rng, &strategy);
        sim.put(rng, p, v);
        sim.observe(&look);
        sim.observe(&["get_all"]);
    }
    sim.unpack_own_pack();
    sim.draft
}

/// How many entries the current palette holds before it resizes.
fn capacity(sim: &Sim) -> usize {
    match sim.shadow.palette_kind() {
        PaletteKind::Single => 1,
        PaletteKind::Global => usize::MAX,
        _ => 1 << sim.shadow.bits(),
    }
}

/// The value most cells hold.
fn background_value(sim: &Sim) -> u32 {
    let mut counts = std::collections::HashMap::new();
    for i in 0..sim.strategy.size() {
        *counts.entry(sim.shadow.get_at(i)).or_insert(0usize) += 1;
    }
    counts
        .into_iter()
        .max_by_key(|&(v, n)| (n, std::cmp::Reverse(v)))
        .map_or(0, |(v, _)| v)
}

/// An id the palette does not hold, if any.
fn fresh(rng: &mut Rng, sim: &Sim) -> Option<u32> {
    let palette = sim.shadow.palette();
    let registry = sim.strategy.registry_size();
    for _ in 0..64 {
        let v = rng.below(u64::from(registry)) as u32;
        if !palette.contains(&v) {
            return Some(v);
        }
    }
    (0..registry).find(|v| !palette.contains(v))
}

/// A position still holding the initial value if one is easy to find, so a
/// new value does not overwrite (and stale) another by accident.
fn unused_pos(rng: &mut Rng, sim: &Sim) -> (i32, i32, i32) {
    let first = sim.shadow.get_at(0);
    for _ in 0..16 {
        let p = pos(rng, &sim.strategy);
        if sim.shadow.get_at(sim.strategy.index(p.0, p.1, p.2)) == first {
            return p;
        }
    }
    pos(rng, &sim.strategy)
}
