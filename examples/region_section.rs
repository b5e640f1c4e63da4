//! Every section of a region file loaded into containers and saved back:
//! `cargo run --example region_section -- IN.mca OUT.mca`.
//!
//! Block-state and biome names stay the server's business: this example
//! numbers them as it meets them, loads each section's `block_states` and
//! `biomes` with `unpack`, and writes `pack`'s palette and longs back in
//! their place. Minecraft saves in first-appearance order, so a section it
//! wrote comes back unchanged; the example counts those that did not.

use std::collections::HashMap;
use std::error::Error;
use std::io::{Read, Write};

use fastnbt::{LongArray, Value};
use flate2::{Compression, read::ZlibDecoder, write::ZlibEncoder};
use paletted::{Packed, PalettedContainer, Strategy};

/// Names (with their properties) as this example numbers them.
#[derive(Default)]
struct Registry {
    ids: HashMap<String, u32>,
    entries: Vec<Value>,
}

impl Registry {
    fn id(&mut self, entry: &Value) -> u32 {
        let key = format!("{entry:?}");
        let next = self.entries.len() as u32;
        *self.ids.entry(key).or_insert_with(|| {
            self.entries.push(entry.clone());
            next
        })
    }
}

/// A container's compound through `unpack` and `pack`; whether it changed.
fn round_trip(
    c: &mut HashMap<String, Value>,
    strategy: Strategy,
    reg: &mut Registry,
) -> Result<bool, Box<dyn Error>> {
    let Some(Value::List(palette)) = c.get("palette") else {
        return Err("a container without a palette list".into());
    };
    let palette: Vec<u32> = palette.iter().map(|e| reg.id(e)).collect();
    let data = match c.get("data") {
        Some(Value::LongArray(longs)) => Some(longs.to_vec()),
        _ => None,
    };
    let before = (palette.clone(), data.clone());
    let saved = PalettedContainer::unpack(strategy, Packed::new(palette, data))?.pack();
    c.insert(
        "palette".into(),
        Value::List(
            saved
                .palette
                .iter()
                .map(|&id| reg.entries[id as usize].clone())
                .collect(),
        ),
    );
    match &saved.data {
        Some(longs) => c.insert(
            "data".into(),
            Value::LongArray(LongArray::new(longs.clone())),
        ),
        None => c.remove("data"),
    };
    Ok(before != (saved.palette, saved.data))
}

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, output] = &args[..] else {
        return Err("usage: region_section IN.mca OUT.mca".into());
    };
    let region = std::fs::read(input)?;
    if region.len() < 8192 {
        return Err(format!(
            "{input}: {} bytes, shorter than a region header",
            region.len()
        )
        .into());
    }
    // Registry sizes big enough for any id this example hands out.
    let (blocks, biomes) = (Strategy::block_states(1 << 20), Strategy::biomes(1 << 12));
    let (mut names, mut biome_names) = (Registry::default(), Registry::default());
    let mut out = vec![0u8; 8192];
    out[4096..8192].copy_from_slice(&region[4096..8192]);
    let (mut sections, mut changed) = (0, 0);
    for slot in 0..1024 {
        let entry = u32::from_be_bytes(region[slot * 4..slot * 4 + 4].try_into()?);
        let (offset, count) = ((entry >> 8) as usize * 4096, (entry & 0xff) as usize);
        if count == 0 {
            continue;
        }
        let chunk = region
            .get(offset..offset + 5)
            .ok_or("a chunk past the file's end")?;
        let len = u32::from_be_bytes(chunk[..4].try_into()?) as usize;
        if chunk[4] != 2 {
            return Err(format!(
                "slot {slot}: compression {} (this example reads zlib only)",
                chunk[4]
            )
            .into());
        }
        let payload = region
            .get(offset + 5..offset + 4 + len)
            .ok_or("a chunk cut short")?;
        let mut nbt = Vec::new();
        ZlibDecoder::new(payload).read_to_end(&mut nbt)?;
        let mut root: Value = fastnbt::from_bytes(&nbt)?;
        if let Value::Compound(top) = &mut root {
            if let Some(Value::List(list)) = top.get_mut("sections") {
                for section in list {
                    let Value::Compound(section) = section else {
                        continue;
                    };
                    for (key, strategy, reg) in [
                        ("block_states", blocks, &mut names),
                        ("biomes", biomes, &mut biome_names),
                    ] {
                        if let Some(Value::Compound(c)) = section.get_mut(key) {
                            changed += usize::from(round_trip(c, strategy, reg)?);
                        }
                    }
                    sections += 1;
                }
            }
        }
        let mut z = ZlibEncoder::new(Vec::new(), Compression::default());
        z.write_all(&fastnbt::to_bytes(&root)?)?;
        let z = z.finish()?;
        let at = out.len();
        out.extend_from_slice(&(z.len() as u32 + 1).to_be_bytes());
        out.push(2);
        out.extend_from_slice(&z);
        out.resize(out.len().div_ceil(4096) * 4096, 0);
        let entry = ((at / 4096) as u32) << 8 | ((out.len() - at) / 4096) as u32;
        out[slot * 4..slot * 4 + 4].copy_from_slice(&entry.to_be_bytes());
    }
    std::fs::write(output, &out)?;
    println!("{sections} sections, {changed} containers saved in another order: {output}");
    Ok(())
}
