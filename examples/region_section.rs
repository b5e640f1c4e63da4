//! Every section of a region file loaded into containers and saved back:
//! `cargo run --features anvil --example region_section -- IN.mca OUT.mca`.
//!
//! Block-state and biome names stay the server's business: this example
//! numbers them as it meets them ([`FirstSeen`]), loads each chunk at the
//! version its DataVersion names, and saves each container with `pack`.
//! Minecraft saves in first-appearance order, so a chunk it wrote comes back
//! as the same NBT, and an untouched region file as the same bytes; the
//! example counts the chunks that did not.

use std::error::Error;
use std::path::Path;

use paletted::anvil::{Chunk, Compression, FirstSeen, Region};

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, output] = &args[..] else {
        return Err("usage: region_section IN.mca OUT.mca".into());
    };
    let region = Region::open(Path::new(input))?;
    // Chunks that come back as read keep their sectors and bytes.
    let mut out = region.clone();
    let (mut blocks, mut biomes) = (FirstSeen::default(), FirstSeen::default());
    let (mut sections, mut changed) = (0, 0);
    let mut nbt = Vec::new();
    for (x, z) in region.chunks() {
        region.nbt_into(x, z, &mut nbt)?;
        let (cx, cz) = region.chunk_coords(x, z);
        let chunk = Chunk::read(&nbt, &mut blocks, &mut biomes)
            .map_err(|e| e.in_file(Path::new(input)).in_chunk(cx, cz))?;
        sections += chunk.sections().len();
        let saved = chunk.write(&blocks, &biomes)?;
        if saved != nbt {
            changed += 1;
            out.set(
                x,
                z,
                &saved,
                region.compression(x, z).unwrap_or(Compression::Zlib),
            );
        }
    }
    out.write(Path::new(output))?;
    println!(
        "{} chunks, {sections} sections, {changed} chunks saved otherwise: {output}",
        region.len()
    );
    Ok(())
}
