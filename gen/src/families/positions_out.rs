//! `positions-out`: `get`, `set` and `get_and_set` at positions outside an
//! axis: one past it, negative, far past it, and past the int range, where
//! Minecraft's index arithmetic wraps (sometimes back inside).

use paletted::{Kind, Strategy};

use super::{full_registry, kind_name, kind_of, pos, Family, Sim};
use crate::draft::{Draft, Pos};
use crate::rng::Rng;

pub const FAMILY: Family = Family {
    name: "positions-out",
    about: "get, set and get_and_set (of values the palette holds) at positions outside an axis: \
            one past it, -1, far past it, i32::MAX and i32::MIN, and y or z so large that the \
            index wraps back inside; then write, counts and get_all",
    variants,
    build,
};

const CLASSES: &[&str] = &[
    "x-past", "y-past", "z-past", "neg", "far", "int-max", "int-min", "wrap",
];

fn variants() -> Vec<String> {
    let mut v = Vec::new();
    for kind in [Kind::BlockStates, Kind::Biomes] {
        for class in CLASSES {
            for op in ["get", "set", "gas"] {
                v.push(format!("{}-{class}-{op}", kind_name(kind)));
            }
        }
    }
    v
}

/// A position of the class; the others coordinates inside.
fn outside(rng: &mut Rng, strategy: &Strategy, class: &str) -> Pos {
    let n = strategy.axis_len();
    let b = strategy.axis_bits();
    let (mut x, mut y, mut z) = pos(rng, strategy);
    let axis = rng.below(3);
    let mut put = |v: i32| match axis {
        0 => x = v,
        1 => y = v,
        _ => z = v,
    };
    match class {
        "x-past" => x = n,
        "y-past" => y = n,
        "z-past" => z = n,
        "neg" => put(-(rng.range(1, 3) as i32)),
        "far" => put(rng.range(n as u64 + 1, 1 << 20) as i32),
        "int-max" => put(i32::MAX),
        "int-min" => put(i32::MIN),
        // y << 2b (or z << b) past 32 bits: the index wraps to a small one.
        _ => {
            if rng.chance(1, 2) {
                y += 1 << (32 - 2 * b);
            } else {
                z += 1 << (32 - b);
            }
        }
    }
    (x, y, z)
}

fn build(variant: &str, rng: &mut Rng, seed: u64, name: String) -> Draft {
    let kind = kind_of(variant);
    let parts: Vec<&str> = variant.rsplitn(2, '-').collect();
    let op = parts[0];
    let class = parts[1].split_once('-').map_or("", |(_, c)| c);
    let strategy = Strategy::with(kind, full_registry(kind));
    let registry = strategy.registry_size();
    let initial = rng.below(u64::from(registry)) as u32;
    let mut sim = Sim::new("positions-out", seed, name, strategy, initial);
    let mut held = vec![initial];
    for _ in 0..rng.range(1, 4) {
        let v = rng.below(u64::from(registry)) as u32;
        let p = pos(rng, &strategy);
        sim.set(p, v);
        held.push(v);
    }
    for _ in 0..rng.range(1, 3) {
        let p = outside(rng, &strategy, class);
        // Values the palette holds: a value it lacks would be added (and
        // the palette grown) before Minecraft's index check throws.
        let v = rng.pick(&held);
        match op {
            "get" => sim.draft.get(p),
            "set" => sim.draft.set(p, v),
            _ => sim.draft.get_and_set(p, v),
        }
    }
    sim.observe(&["write", "counts", "get_all"]);
    sim.draft.notes = format!("{op} at positions {class} of the axis");
    sim.draft
}
