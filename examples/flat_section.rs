//! A superflat bottom section built in one call and sent as a chunk packet
//! sends it: `cargo run --example flat_section`.
//!
//! Bedrock, two layers of dirt and grass over air. The block-state ids are
//! this example's (a server takes them from its registry): 0 air, 79 bedrock,
//! 10 dirt, 9 grass block; 1 is the plains biome.

use paletted::{PalettedContainer, Section, StateTable, Strategy};

const AIR: u32 = 0;
const BEDROCK: u32 = 79;
const DIRT: u32 = 10;
const GRASS: u32 = 9;
const PLAINS: u32 = 1;

fn main() {
    let blocks = Strategy::block_states(35723);
    let biomes = Strategy::biomes(65);
    // Index order is y, then z, then x: each layer is 256 values in a row.
    let layers = [BEDROCK, DIRT, DIRT, GRASS];
    let values: Vec<u32> = (0..blocks.size())
        .map(|i| layers.get(i / 256).copied().unwrap_or(AIR))
        .collect();
    let kinds = StateTable::new(&[AIR], &[]);
    let section = Section::new(
        PalettedContainer::from_values(blocks, &values),
        PalettedContainer::new(PLAINS, biomes),
        &kinds,
    )
    .expect("block states and biomes of one version");

    let mut packet = Vec::with_capacity(section.serialized_size());
    section.write(&mut packet);
    assert_eq!(packet.len(), section.serialized_size());
    println!(
        "{} non-air blocks, {} bits a block, palette {:?}: {} bytes on the wire",
        section.non_empty_block_count(),
        section.blocks().bits(),
        section.blocks().palette(),
        packet.len()
    );
    // What a client reads back is the same section.
    let (read, _) = Section::from_wire(blocks, biomes, &packet).expect("our own bytes");
    assert_eq!(read, section);
}
