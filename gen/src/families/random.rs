//! `random`: weighted random operations over a value span that widens, with
//! observations, reads and round trips in between.

use paletted::{Kind, PaletteKind, Strategy};

use super::{
    boundaries, boundary_span, full_registry, kind_name, kind_of, pos, written_by, Family, Sim,
};
use crate::draft::Draft;
use crate::rng::Rng;

pub const FAMILY: Family = Family {
    name: "random",
    about: "200-600 weighted random ops (set, get_and_set, get, observations, reads, round trips) over \
            a value span that widens toward and past palette boundaries; observations every 40-80 ops",
    variants,
    build,
};

fn variants() -> Vec<String> {
    let mut v = Vec::new();
    for kind in [Kind::BlockStates, Kind::Biomes] {
        for k in 0..6 {
            v.push(format!("{}-{k}", kind_name(kind)));
        }
        v.push(format!("{}-small-registry", kind_name(kind)));
    }
    v
}

#[derive(Clone, Copy)]
enum Op {
    Set,
    GetAndSet,
    Get,
    MaybeHas,
    Bare(&'static str),
    Palette,
    Read,
    ReadOwn,
    RoundTrip,
}

const WEIGHTS: &[(u32, Op)] = &[
    (50, Op::Set),
    (20, Op::GetAndSet),
    (8, Op::Get),
    (4, Op::MaybeHas),
    (3, Op::Bare("bits")),
    (2, Op::Bare("counts")),
    (2, Op::Bare("get_all")),
    (2, Op::Bare("write")),
    (1, Op::Bare("serialized_size")),
    (2, Op::Bare("pack")),
    (1, Op::Palette),
    (1, Op::Read),
    (1, Op::ReadOwn),
    (1, Op::RoundTrip),
];

fn build(variant: &str, rng: &mut Rng, seed: u64, name: String) -> Draft {
    let kind = kind_of(variant);
    let registry = if variant.ends_with("small-registry") {
        match kind {
            Kind::BlockStates => rng.range(2, 600) as u32,
            Kind::Biomes => rng.range(2, 20) as u32,
        }
    } else {
        full_registry(kind)
    };
    let strategy = Strategy::with(kind, registry);
    let top = *boundaries(kind).last().unwrap_or(&1);
    let pool = rng.distinct_ids(top.min(registry as usize), registry);
    let mut sim = Sim::new("random", seed, name, strategy, pool[0]);
    sim.draft.notes = "weighted random ops over a value span that widens every 50 ops toward and past \
                       palette boundaries; observations every 40..80 ops; a global palette is listed once"
        .into();
    let total = rng.range(200, 600) as usize;
    let mut span = rng.pick(&boundaries(kind)[..3]).min(pool.len());
    let mut next_look = rng.range(40, 80) as usize;
    let mut global_listed = false;
    for n in 0..total {
        if n % 50 == 0 && n > 0 {
            span = widen(rng, kind, span).min(pool.len());
        }
        let value = |rng: &mut Rng| pool[rng.below(span as u64) as usize];
        if n == next_look {
            next_look += rng.range(40, 80) as usize;
            sim.observe(&["bits", "counts", "get_all", "write", "pack"]);
            let v = value(rng);
            sim.draft.maybe_has(v);
            sim.draft.maybe_has(rng.below(u64::from(registry)) as u32);
            let p = pos(rng, &strategy);
            sim.draft.get(p);
            palette(&mut sim, &mut global_listed);
            continue;
        }
        match rng.weighted(WEIGHTS) {
            Op::Set => {
                let (p, v) = (pos(rng, &strategy), value(rng));
                sim.set(p, v)
            }
            Op::GetAndSet => {
                let (p, v) = (pos(rng, &strategy), value(rng));
                sim.get_and_set(p, v)
            }
            Op::Get => {
                let p = pos(rng, &strategy);
                sim.draft.get(p)
            }
            Op::MaybeHas => {
                let v = value(rng);
                sim.draft.maybe_has(v)
            }
            Op::Bare(op) => sim.draft.bare(op),
            Op::Palette => palette(&mut sim, &mut global_listed),
            Op::Read => {
                let n = boundary_span(rng, kind, registry).min(strategy.size());
                let (bytes, _) = written_by(rng, strategy, n);
                sim.read(&bytes);
            }
            Op::ReadOwn => {
                let mut bytes = Vec::new();
                if sim.shadow.try_write(&mut bytes).is_ok() {
                    sim.read(&bytes);
                }
            }
            Op::RoundTrip => sim.unpack_own_pack(),
        }
    }
    sim.observe(&["pack"]);
    sim.unpack_own_pack();
    sim.observe(&["write"]);
    sim.draft
}

/// The next value span: one of the next few boundaries, or now and then
/// three to six times wider.
fn widen(rng: &mut Rng, kind: Kind, span: usize) -> usize {
    let next: Vec<usize> = boundaries(kind)
        .iter()
        .copied()
        .filter(|&b| b > span)
        .take(3)
        .collect();
    if next.is_empty() || rng.chance(1, 6) {
        span * rng.range(3, 6) as usize
    } else {
        rng.pick(&next)
    }
}

/// A `palette` observation, once only for a global palette (it lists the
/// whole registry).
fn palette(sim: &mut Sim, global_listed: &mut bool) {
    if sim.shadow.palette_kind() == PaletteKind::Global {
        if *global_listed {
            return;
        }
        *global_listed = true;
    }
    sim.draft.bare("palette");
}
