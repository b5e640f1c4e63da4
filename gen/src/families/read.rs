//! `read`: bytes written by each palette kind read into a container of each
//! kind, chains of reads, truncated input and trailing bytes.

use paletted::{Kind, PaletteKind, Strategy};

use super::{full_registry, kind_name, kind_of, pos, written_by, Family, Sim};
use crate::draft::Draft;
use crate::rng::Rng;

pub const FAMILY: Family = Family {
    name: "read",
    about: "bytes written (by the Rust containers; only inputs) by each palette kind read into a \
            container of each kind, same and different linear/hash map widths, chains of reads, \
            input truncated in its longs, trailing bytes",
    variants,
    build,
};

fn kinds(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::BlockStates => &["single", "linear", "hashmap", "global"],
        Kind::Biomes => &["single", "linear", "global"],
    }
}

fn extras(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::BlockStates => &[
            "hashmap5-into-hashmap6",
            "hashmap6-into-hashmap5",
            "hashmap6-into-hashmap6",
            "hashmap7-into-hashmap8",
            "chain",
            "trailing",
            "truncated-hashmap6-into-hashmap6",
            "truncated-hashmap6-into-linear",
            "truncated-linear-into-linear",
            "truncated-global-into-single",
            "truncated-global-into-global",
        ],
        Kind::Biomes => &[
            "linear1-into-linear3",
            "linear2-into-linear1",
            "linear3-into-linear3",
            "chain",
            "trailing",
            "truncated-global-into-single",
            "truncated-linear2-into-linear2",
            "truncated-linear3-into-global",
        ],
    }
}

fn variants() -> Vec<String> {
    let mut v = Vec::new();
    for kind in [Kind::BlockStates, Kind::Biomes] {
        for from in kinds(kind) {
            for into in kinds(kind) {
                v.push(format!("{}-{from}-into-{into}", kind_name(kind)));
            }
        }
        for extra in extras(kind) {
            v.push(format!("{}-{extra}", kind_name(kind)));
        }
    }
    v
}

/// A number of distinct values that puts a container in the named palette.
fn distinct_for(rng: &mut Rng, kind: Kind, spec: &str) -> usize {
    let (lo, hi) = match (kind, spec) {
        (_, "single") => (1, 1),
        (Kind::BlockStates, "linear") => (2, 16),
        (Kind::BlockStates, "hashmap") => (17, 256),
        (Kind::BlockStates, "hashmap5") => (17, 32),
        (Kind::BlockStates, "hashmap6") => (33, 64),
        (Kind::BlockStates, "hashmap7") => (65, 128),
        (Kind::BlockStates, "hashmap8") => (129, 256),
        (Kind::BlockStates, _) => (257, 400),
        (Kind::Biomes, "linear") => (2, 8),
        (Kind::Biomes, "linear1") => (2, 2),
        (Kind::Biomes, "linear2") => (3, 4),
        (Kind::Biomes, "linear3") => (5, 8),
        (Kind::Biomes, _) => (9, 40),
    };
    rng.range(lo, hi) as usize
}

fn build(variant: &str, rng: &mut Rng, seed: u64, name: String) -> Draft {
    let kind = kind_of(variant);
    let rest = variant.split_once('-').map_or("", |(_, r)| r);
    let strategy = Strategy::with(kind, full_registry(kind));
    let registry = strategy.registry_size();
    let initial = rng.below(u64::from(registry)) as u32;
    let mut sim = Sim::new("read", seed, name, strategy, initial);

    if rest == "chain" || rest == "trailing" {
        let into = rng.pick(kinds(kind));
        let n = distinct_for(rng, kind, into);
        fill(rng, &mut sim, n);
        let reads = if rest == "chain" { rng.range(3, 5) } else { 1 };
        let mut froms = Vec::new();
        for _ in 0..reads {
            let from = rng.pick(kinds(kind));
            froms.push(from);
            let n = distinct_for(rng, kind, from);
            let (mut bytes, _) = written_by(rng, strategy, n);
            if rest == "trailing" {
                let extra = rng.range(1, 8);
                bytes.extend((0..extra).map(|_| rng.below(256) as u8));
            }
            sim.read(&bytes);
            look(rng, &mut sim);
        }
        sim.draft.notes = format!("bytes from containers of kinds {froms:?} read one after another into a {into} container");
        if rest == "trailing" {
            sim.draft.notes = format!(
                "bytes from a {} container followed by extra bytes, read into a {into} container",
                froms[0]
            );
        }
        grow(rng, &mut sim);
        return sim.draft;
    }

    let truncated = rest.starts_with("truncated-");
    let pair = rest.trim_start_matches("truncated-");
    let (from, into) = pair.split_once("-into-").unwrap_or(("single", "single"));
    let n_into = distinct_for(rng, kind, into);
    fill(rng, &mut sim, n_into);
    sim.observe(&["bits"]);
    let n_from = distinct_for(rng, kind, from);
    let (bytes, source) = written_by(rng, strategy, n_from);
    if truncated {
        // Cut inside the longs, past the palette: what a short packet holds.
        let header = bytes.len() - 8 * source.storage().longs().len();
        let cut = if bytes.len() > header {
            rng.range(header as u64, bytes.len() as u64 - 1) as usize
        } else {
            header
        };
        sim.read(&bytes[..cut]);
        sim.observe(&["bits", "write", "counts"]);
        sim.draft.notes = format!("the first {cut} of {} bytes of a {from} container ({n_from} values) read into a {into} container, then all of them", bytes.len());
    } else {
        sim.draft.notes = format!("bytes of a {from} container ({n_from} values) read into a {into} container ({n_into} values)");
    }
    sim.read(&bytes);
    look(rng, &mut sim);
    grow(rng, &mut sim);
    sim.draft
}

/// Puts `n` distinct values into the container (with a few repeats).
fn fill(rng: &mut Rng, sim: &mut Sim, n: usize) {
    let ids = rng.distinct_ids(n, sim.strategy.registry_size());
    let mut cells: Vec<usize> = (0..sim.strategy.size()).collect();
    rng.shuffle(&mut cells);
    for (k, &id) in ids.iter().skip(1).enumerate() {
        let p = super::pos_of(&sim.strategy, cells[k % cells.len()]);
        sim.put(rng, p, id);
    }
    if n > 1 {
        for _ in 0..rng.below(8) {
            let p = pos(rng, &sim.strategy);
            let v = ids[rng.below(n as u64) as usize];
            sim.put(rng, p, v);
        }
    }
}

/// Observations after a read.
fn look(rng: &mut Rng, sim: &mut Sim) {
    sim.observe(&["bits"]);
    if sim.shadow.palette_kind() != PaletteKind::Global {
        sim.observe(&["palette"]);
    }
    sim.observe(&["get_all", "write", "counts", "serialized_size"]);
    for _ in 0..2 {
        let p = pos(rng, &sim.strategy);
        sim.draft.get(p);
    }
}

/// New values after a read, to see the palette it left grow.
fn grow(rng: &mut Rng, sim: &mut Sim) {
    for _ in 0..rng.range(1, 4) {
        let p = pos(rng, &sim.strategy);
        let v = rng.below(u64::from(sim.strategy.registry_size())) as u32;
        sim.set(p, v);
    }
    sim.observe(&["bits"]);
    if sim.shadow.palette_kind() != PaletteKind::Global {
        sim.observe(&["palette"]);
    }
    sim.observe(&["write"]);
}
