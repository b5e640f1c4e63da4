//! `flat`: a superflat world's bottom section, and variations of its layers.

use paletted::{Kind, Strategy};

use super::{full_registry, Family, Sim};
use crate::draft::Draft;
use crate::rng::Rng;

pub const FAMILY: Family = Family {
    name: "flat",
    about: "a bottom section of layers over air: bits, get, counts, palette, get_all, write, \
            serialized_size, pack, unpack of the pack, then an unpack missing its data",
    variants,
    build,
};

fn variants() -> Vec<String> {
    vec!["bottom-section".into(), "random-layers".into()]
}

fn build(variant: &str, rng: &mut Rng, seed: u64, name: String) -> Draft {
    let registry = full_registry(Kind::BlockStates);
    let strategy = Strategy::block_states(registry);
    // Bedrock, dirt, dirt, grass over air; or 1..6 layers of random states.
    let layers: Vec<u32> = if variant == "bottom-section" {
        vec![88, 10, 10, 9]
    } else {
        let n = rng.range(1, 6) as usize;
        (0..n)
            .map(|_| rng.range(1, u64::from(registry) - 1) as u32)
            .collect()
    };
    let mut sim = Sim::new("flat", seed, name, strategy, 0);
    sim.draft.notes = format!("layers {layers:?} over 0, set x then z then layer");
    for x in 0..16 {
        for z in 0..16 {
            for (y, &v) in layers.iter().enumerate() {
                sim.set((x, y as i32, z), v);
            }
        }
    }
    sim.observe(&["bits"]);
    sim.draft.get((4, 1, 9));
    sim.draft.get((15, 15, 15));
    sim.observe(&[
        "counts",
        "palette",
        "get_all",
        "write",
        "serialized_size",
        "pack",
    ]);
    sim.unpack_own_pack();
    let distinct = sim.shadow.distinct();
    if distinct.len() > 1 {
        sim.draft.unpack(&distinct, None, -1);
    } else {
        sim.draft.unpack(&[1, 2], None, -1);
    }
    sim.draft
}
