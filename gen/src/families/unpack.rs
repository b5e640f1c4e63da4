//! `unpack`: saved containers of every palette size class, good and bad.

use paletted::{Kind, Packed, PaletteKind, PalettedContainer, Strategy};

use super::{full_registry, kind_name, kind_of, pos, pos_of, Family, Sim};
use crate::draft::Draft;
use crate::rng::Rng;

pub const FAMILY: Family = Family {
    name: "unpack",
    about: "unpack of every palette size class for both strategies with random padding bits: correct \
            data, missing data, a long too few or too many, an index past the palette, declared bits \
            that match and that don't, empty and one-entry palettes; then reads, writes and sets",
    variants,
    build,
};

const OUTCOMES: &[&str] = &[
    "ok",
    "missing",
    "short",
    "long",
    "badindex",
    "declared-match",
    "declared-mismatch",
];
const ODD: &[&str] = &[
    "empty",
    "empty-with-data",
    "empty-declared-4",
    "p1-ok",
    "p1-declared-match",
    "p1-declared-mismatch",
    "p1-extra-longs",
    "p1-extra-longs-256",
];

/// Palette sizes per strategy; `0` stands for a random size, `-r` suffixes
/// mark a small registry.
fn sizes(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::BlockStates => &[
            "p2",
            "p3",
            "p16",
            "p17",
            "p32",
            "p33",
            "p256",
            "p257",
            "p300",
            "prandom",
            "r300-prandom",
        ],
        Kind::Biomes => &[
            "p2", "p3", "p4", "p5", "p8", "p9", "p16", "p65", "prandom", "r9-p9",
        ],
    }
}

fn variants() -> Vec<String> {
    let mut v = Vec::new();
    for kind in [Kind::BlockStates, Kind::Biomes] {
        for odd in ODD {
            v.push(format!("{}-{odd}", kind_name(kind)));
        }
        for size in sizes(kind) {
            for outcome in OUTCOMES {
                v.push(format!("{}-{size}-{outcome}", kind_name(kind)));
            }
        }
    }
    v
}

fn build(variant: &str, rng: &mut Rng, seed: u64, name: String) -> Draft {
    let kind = kind_of(variant);
    let rest = variant.split_once('-').map_or("", |(_, r)| r);
    let registry = if rest.starts_with("r300") {
        300
    } else if rest.starts_with("r9") {
        9
    } else {
        full_registry(kind)
    };
    let strategy = Strategy::with(kind, registry);
    let initial = rng.below(u64::from(registry)) as u32;
    let mut sim = Sim::new("unpack", seed, name, strategy, initial);
    let size = strategy.size();

    if let Some(odd) = ODD.iter().find(|o| **o == rest) {
        let (palette, data, bits) = odd_input(rng, &strategy, odd);
        sim.draft.notes = format!("unpack {odd}");
        unpack(&mut sim, &palette, data.as_deref(), bits);
        after(rng, &mut sim, &palette);
        return sim.draft;
    }

    let (size_part, outcome) = rest.rsplit_once('-').map_or((rest, "ok"), |(s, o)| {
        // "declared-match" and "declared-mismatch" hold a '-'.
        if o == "match" || o == "mismatch" {
            let (s2, _) = s.rsplit_once('-').unwrap_or((s, ""));
            (
                s2,
                if o == "match" {
                    "declared-match"
                } else {
                    "declared-mismatch"
                },
            )
        } else {
            (s, o)
        }
    });
    let mut p = match size_part.rsplit('-').next().unwrap_or("p2") {
        "prandom" => rng.range(2, u64::from(registry).min(1024)) as usize,
        s => s.trim_start_matches('p').parse().unwrap_or(2),
    };
    p = p.min(registry as usize).max(2);
    let mut bits = strategy.configuration_for_palette_len(p).disk_bits;
    if outcome == "badindex" && p == 1 << bits {
        // No index past the end fits: use one entry fewer (or more, from 2).
        p = if p == 2 { 3 } else { p - 1 };
        p = p.min(registry as usize);
        bits = strategy.configuration_for_palette_len(p).disk_bits;
    }
    let palette = rng.distinct_ids(p, registry);
    let mut indices: Vec<u32> = (0..size)
        .map(|_| match rng.below(4) {
            0 => 0,
            _ => rng.below(p as u64) as u32,
        })
        .collect();
    // Every palette entry used at least once where there is room.
    let mut order: Vec<usize> = (0..size).collect();
    rng.shuffle(&mut order);
    for (k, &i) in order.iter().take(p.min(size)).enumerate() {
        indices[i] = k as u32;
    }
    if outcome == "badindex" && (p as u64) < (1u64 << bits) {
        let bad = rng.range(p as u64, (1u64 << bits) - 1) as u32;
        let at = if rng.chance(1, 2) {
            rng.below(size as u64) as usize
        } else {
            size - 1
        };
        indices[at] = bad;
    }
    let mut longs = pack_indices(rng, &indices, bits);
    let mut declared = -1;
    match outcome {
        "missing" => {
            sim.draft.notes = format!("unpack {p} entries without data");
            unpack(&mut sim, &palette, None, -1);
            after(rng, &mut sim, &palette);
            return sim.draft;
        }
        "short" => {
            longs.pop();
        }
        "long" => longs.push(rng.next_i64()),
        "declared-match" => declared = bits as i32,
        "declared-mismatch" => {
            declared = if bits > 1 && rng.chance(1, 2) {
                bits as i32 - 1
            } else {
                bits as i32 + 1
            };
        }
        _ => {}
    }
    sim.draft.notes = format!("unpack {p} entries at {bits} bits on disk: {outcome}");
    unpack(&mut sim, &palette, Some(&longs), declared);
    after(rng, &mut sim, &palette);
    sim.draft
}

/// Inputs of the empty and one-entry variants.
fn odd_input(rng: &mut Rng, strategy: &Strategy, odd: &str) -> (Vec<u32>, Option<Vec<i64>>, i32) {
    let one = vec![rng.below(u64::from(strategy.registry_size())) as u32];
    let random_longs = |rng: &mut Rng, n: usize| (0..n).map(|_| rng.next_i64()).collect::<Vec<_>>();
    match odd {
        "empty" => (vec![], None, -1),
        "empty-with-data" => {
            let n = rng.range(1, 3) as usize;
            (vec![], Some(random_longs(rng, n)), 0)
        }
        "empty-declared-4" => (vec![], None, 4),
        "p1-ok" => (one, None, -1),
        "p1-declared-match" => (one, None, 0),
        "p1-declared-mismatch" => (one, None, rng.range(1, 5) as i32),
        "p1-extra-longs" => {
            let n = rng.range(1, 4) as usize;
            (one, Some(random_longs(rng, n)), -1)
        }
        _ => (one, Some(random_longs(rng, 256)), -1),
    }
}

/// Packs indices at `bits` a value, none spanning two longs, with every bit
/// above the values random (Minecraft keeps them as given).
fn pack_indices(rng: &mut Rng, indices: &[u32], bits: u32) -> Vec<i64> {
    let per = (64 / bits) as usize;
    let n = indices.len().div_ceil(per);
    let mut longs = Vec::with_capacity(n);
    for chunk in indices.chunks(per) {
        let used = chunk.len() as u32 * bits;
        let mut word: u64 = if used < 64 {
            rng.next_u64() & !((1u64 << used) - 1)
        } else {
            0
        };
        for (k, &v) in chunk.iter().enumerate() {
            word |= u64::from(v) << (k as u32 * bits);
        }
        longs.push(word as i64);
    }
    longs
}

fn unpack(sim: &mut Sim, palette: &[u32], data: Option<&[i64]>, bits: i32) {
    sim.draft.unpack(palette, data, bits);
    let packed = Packed {
        palette: palette.to_vec(),
        data: data.map(<[i64]>::to_vec),
        bits,
    };
    if let Ok(c) = PalettedContainer::unpack_lenient(sim.strategy, packed) {
        sim.shadow = c;
    }
}

/// What is looked at after an unpack, and sets that grow it further.
fn after(rng: &mut Rng, sim: &mut Sim, palette: &[u32]) {
    let global = sim.shadow.palette_kind() == PaletteKind::Global;
    sim.observe(&["bits"]);
    if !global {
        sim.observe(&["palette"]);
    }
    sim.observe(&["write", "pack", "counts", "get_all", "serialized_size"]);
    let last = pos_of(&sim.strategy, sim.strategy.size() - 1);
    sim.draft.get(last);
    for _ in 0..2 {
        let p = pos(rng, &sim.strategy);
        sim.draft.get(p);
    }
    let registry = sim.strategy.registry_size();
    let known = palette.first().copied().unwrap_or(0);
    sim.draft.maybe_has(known);
    sim.draft.maybe_has(rng.below(u64::from(registry)) as u32);
    for k in 0..3 {
        let v = if k == 0 {
            known
        } else {
            rng.below(u64::from(registry)) as u32
        };
        let p = pos(rng, &sim.strategy);
        sim.set(p, v);
    }
    sim.observe(&["bits"]);
    if !global && sim.shadow.palette_kind() != PaletteKind::Global {
        sim.observe(&["palette"]);
    }
    sim.observe(&["write", "pack"]);
}
