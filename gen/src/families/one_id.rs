//! `one-id`: registries of one id (and two): the global configuration keeps
//! 0 bits in memory there, so every path that sizes storage from the
//! registry meets its edge.

use paletted::{Kind, Strategy};

use super::wire::{indices, pack_longs, reveal, section};
use super::{kind_name, kind_of, pos, Family, Sim};
use crate::draft::Draft;
use crate::rng::Rng;

pub const FAMILY: Family = Family {
    name: "one-id",
    about: "registries of 1 and 2 ids: sets, reads of single, list, global and negative bits \
            bytes, unpacks of repeated ids into list and global configurations, of an empty and a \
            one-entry palette; then every observation, set and get_and_set",
    variants,
    build,
};

const SCENARIOS: &[&str] = &[
    "grow",
    "read-single",
    "read-list",
    "read-global",
    "read-neg",
    "unpack-list",
    "unpack-global",
    "unpack-empty",
    "unpack-one",
];

fn variants() -> Vec<String> {
    let mut v = Vec::new();
    for kind in [Kind::BlockStates, Kind::Biomes] {
        for registry in [1, 2] {
            for s in SCENARIOS {
                v.push(format!("{}-r{registry}-{s}", kind_name(kind)));
            }
        }
    }
    v
}

fn build(variant: &str, rng: &mut Rng, seed: u64, name: String) -> Draft {
    let kind = kind_of(variant);
    let rest = variant.split_once("-r").map_or("", |(_, r)| r);
    let (registry, scenario) = rest.split_once('-').unwrap_or(("1", "grow"));
    let registry: u32 = registry.parse().unwrap_or(1);
    let strategy = Strategy::with(kind, registry);
    let initial = rng.below(u64::from(registry)) as u32;
    let mut sim = Sim::new("one-id", seed, name, strategy, initial);
    let size = strategy.size();
    let ids: Vec<u32> = (0..registry).collect();
    let global_byte = match kind {
        Kind::BlockStates => rng.range(9, 40) as u8,
        Kind::Biomes => rng.range(4, 40) as u8,
    };
    let list_byte = match kind {
        Kind::BlockStates => rng.range(1, 8) as u8,
        Kind::Biomes => rng.range(1, 3) as u8,
    };
    match scenario {
        "grow" => {
            for _ in 0..rng.range(2, 6) {
                let p = pos(rng, &strategy);
                let v = rng.below(u64::from(registry)) as u32;
                sim.put(rng, p, v);
                sim.observe(&["bits"]);
            }
        }
        "read-single" => {
            // Sometimes the id past the registry's one.
            let id = rng.below(u64::from(registry) + 1) as u32;
            sim.read(&section(&strategy, 0, 1, &[id], &[]));
        }
        "read-list" => {
            let n = rng.range(1, 3) as usize;
            let listed: Vec<u32> = (0..n)
                .map(|_| rng.below(u64::from(registry)) as u32)
                .collect();
            let values = indices(rng, size, n as u64);
            sim.read(&section(&strategy, list_byte, n as i32, &listed, &values));
        }
        "read-global" | "read-neg" => {
            let byte = if scenario == "read-neg" {
                rng.range(128, 255) as u8
            } else {
                global_byte
            };
            let mut bytes = vec![byte];
            // The global storage has 0 bits for one id: any longs are trailing.
            let bits = strategy.configuration(u32::from(byte)).bits;
            bytes.extend(super::wire::storage_bytes(
                bits,
                &indices(rng, size, u64::from(registry)),
            ));
            for _ in 0..rng.below(3) {
                bytes.push(rng.below(256) as u8);
            }
            sim.read(&bytes);
        }
        _ => {
            let (len, declared_ok) = match scenario {
                "unpack-list" => (rng.range(2, 16) as usize, true),
                "unpack-global" => match kind {
                    Kind::BlockStates => (rng.range(257, 300) as usize, true),
                    Kind::Biomes => (rng.range(9, 20) as usize, true),
                },
                "unpack-empty" => (0, false),
                _ => (1, false),
            };
            let palette: Vec<u32> = (0..len).map(|k| ids[k % ids.len()]).collect();
            let disk = strategy.configuration_for_palette_len(len).disk_bits;
            let data = if len == 0 && rng.chance(1, 2) {
                None
            } else {
                let bits = if disk == 0 {
                    rng.range(1, 4) as u32
                } else {
                    disk
                };
                Some(pack_longs(bits, &indices(rng, size, len as u64)))
            };
            let bits = if declared_ok && rng.chance(1, 2) {
                disk as i32
            } else {
                rng.pick(&[-1, 0, disk as i32])
            };
            sim.unpack(&palette, data.as_deref(), bits);
        }
    }
    sim.draft.notes = format!("a registry of {registry} ids: {scenario}");
    reveal(rng, &mut sim, &ids);
    sim.draft
}
