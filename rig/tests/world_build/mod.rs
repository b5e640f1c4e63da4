//! Builds region files in Minecraft's layout for the `rig world` tests:
//! chunks of the 1.18+ layout whose containers are the paletted crate's own
//! `pack` output (fine here: the check is a round trip), and raw sector
//! tables for corrupt input.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::io::Write;

use fastnbt::LongArray;
use paletted::{Kind, Packed, PalettedContainer, Strategy};
use serde::Serialize;

/// 1.21.11's DataVersion, as the Minestom fixtures carry.
pub const DATA_VERSION: i32 = 4671;

/// A chunk's root compound.
#[derive(Serialize, Clone)]
#[allow(non_snake_case)]
pub struct ChunkNbt {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub DataVersion: Option<i32>,
    pub xPos: i32,
    pub zPos: i32,
    pub yPos: i32,
    pub Status: String,
    pub sections: Vec<SectionNbt>,
    /// A pre-1.18 key: marks the chunk as upgrader-written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub below_zero_retrogen: Option<BTreeMap<String, String>>,
}

/// A section.
#[derive(Serialize, Clone)]
#[allow(non_snake_case)]
pub struct SectionNbt {
    pub Y: i8,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block_states: Option<BlockStatesNbt>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub biomes: Option<BiomesNbt>,
}

/// A saved block-state container.
#[derive(Serialize, Clone)]
pub struct BlockStatesNbt {
    pub palette: Vec<StateNbt>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<LongArray>,
}

/// A block-state palette entry.
#[derive(Serialize, Clone)]
#[allow(non_snake_case)]
pub struct StateNbt {
    pub Name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub Properties: Option<BTreeMap<String, String>>,
}

/// A saved biome container.
#[derive(Serialize, Clone)]
pub struct BiomesNbt {
    pub palette: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<LongArray>,
}

/// A made-up block state for id `id`: a name for every 4 ids, a property
/// telling them apart (so property handling is exercised too).
pub fn state(id: u32) -> StateNbt {
    StateNbt {
        Name: format!("test:block_{}", id / 4),
        Properties: (!id.is_multiple_of(4)).then(|| {
            BTreeMap::from([
                (
                    "facing".to_string(),
                    ["north", "east", "south"][(id % 4 - 1) as usize].to_string(),
                ),
                ("lit".to_string(), "false".to_string()),
            ])
        }),
    }
}

/// A made-up biome name for id `id`.
pub fn biome(id: u32) -> String {
    format!("test:biome_{id}")
}

/// A container of `kind` holding exactly `distinct` values (ids
/// `base..base + distinct`), scattered so that first appearance is not id order.
pub fn container(kind: Kind, distinct: u32, base: u32) -> PalettedContainer {
    let strategy = Strategy::with(kind, 40_000);
    let size = strategy.size();
    let mut c = PalettedContainer::new(base, strategy);
    let mut state = 0x2545_f491_4f6c_dd1d_u64 ^ u64::from(distinct);
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    // Every value once, at a shuffled position ...
    let mut order: Vec<usize> = (0..size).collect();
    for i in (1..size).rev() {
        order.swap(i, (next() % (i as u64 + 1)) as usize);
    }
    for v in 0..distinct {
        c.set_at(order[v as usize], base + distinct - 1 - v);
    }
    // ... then the rest filled from the same values.
    for &i in &order[distinct as usize..] {
        c.set_at(i, base + (next() % u64::from(distinct)) as u32);
    }
    c
}

/// A section from two containers, through `pack` as the game saves them.
pub fn section(y: i8, blocks: &PalettedContainer, biomes: &PalettedContainer) -> SectionNbt {
    let b = blocks.pack();
    let m = biomes.pack();
    SectionNbt {
        Y: y,
        block_states: Some(BlockStatesNbt {
            palette: b.palette.iter().map(|&id| state(id)).collect(),
            data: b.data.map(LongArray::new),
        }),
        biomes: Some(BiomesNbt {
            palette: m.palette.iter().map(|&id| biome(id)).collect(),
            data: m.data.map(LongArray::new),
        }),
    }
}

/// A section straight from packed forms (for deliberately odd ones).
pub fn section_packed(y: i8, blocks: Packed, biomes: Packed) -> SectionNbt {
    SectionNbt {
        Y: y,
        block_states: Some(BlockStatesNbt {
            palette: blocks.palette.iter().map(|&id| state(id)).collect(),
            data: blocks.data.map(LongArray::new),
        }),
        biomes: Some(BiomesNbt {
            palette: biomes.palette.iter().map(|&id| biome(id)).collect(),
            data: biomes.data.map(LongArray::new),
        }),
    }
}

/// A plain section: stone over one biome.
pub fn plain_section(y: i8) -> SectionNbt {
    section(
        y,
        &PalettedContainer::new(1, Strategy::block_states(40_000)),
        &PalettedContainer::new(0, Strategy::biomes(100)),
    )
}

/// A chunk at (x, z) of the 1.18+ layout.
pub fn chunk(x: i32, z: i32, sections: Vec<SectionNbt>) -> ChunkNbt {
    ChunkNbt {
        DataVersion: Some(DATA_VERSION),
        xPos: x,
        zPos: z,
        yPos: -4,
        Status: "minecraft:full".into(),
        sections,
        below_zero_retrogen: None,
    }
}

/// The chunk's NBT bytes (unnamed root compound).
pub fn nbt(chunk: &ChunkNbt) -> Vec<u8> {
    fastnbt::to_bytes(chunk).expect("test chunk serializes")
}

/// `nbt` compressed with a region compression byte (1 gzip, 2 zlib, 3 none, 4 lz4).
pub fn compress(scheme: u8, nbt: &[u8]) -> Vec<u8> {
    match scheme {
        1 => {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(nbt).unwrap();
            e.finish().unwrap()
        }
        2 => {
            let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(nbt).unwrap();
            e.finish().unwrap()
        }
        4 => {
            let mut out = Vec::new();
            {
                let mut e = lz4_java_wrc::Lz4BlockOutput::new(&mut out);
                e.write_all(nbt).unwrap();
                e.flush().unwrap();
            }
            out
        }
        _ => nbt.to_vec(),
    }
}

/// A region file under construction: chunks appended sector by sector, and
/// location entries that can be set to anything.
#[derive(Default)]
pub struct Region {
    locations: Vec<(u8, u8, u32, u8)>,
    body: Vec<u8>,
}

impl Region {
    /// An empty region.
    pub fn new() -> Region {
        Region::default()
    }

    /// Appends a chunk as Minecraft writes it: 4-byte length (compression
    /// byte included), the compression byte, the payload, zero padding to a
    /// whole sector.
    pub fn chunk(&mut self, x: u8, z: u8, byte: u8, payload: &[u8]) -> &mut Region {
        self.raw(
            x,
            z,
            (payload.len() as u32 + 1).to_be_bytes(),
            byte,
            payload,
        )
    }

    /// Appends a chunk with a given length field.
    pub fn raw(&mut self, x: u8, z: u8, length: [u8; 4], byte: u8, payload: &[u8]) -> &mut Region {
        let sector = 2 + (self.body.len() / 4096) as u32;
        let start = self.body.len();
        self.body.extend_from_slice(&length);
        self.body.push(byte);
        self.body.extend_from_slice(payload);
        let sectors = (self.body.len() - start).div_ceil(4096);
        self.body.resize(start + sectors * 4096, 0);
        self.locations.push((x, z, sector, sectors as u8));
        self
    }

    /// Appends a good chunk of the 1.18+ layout, zlib-compressed.
    pub fn good(&mut self, x: u8, z: u8, c: &ChunkNbt) -> &mut Region {
        self.chunk(x, z, 2, &compress(2, &nbt(c)))
    }

    /// Sets a location entry to anything.
    pub fn location(&mut self, x: u8, z: u8, sector: u32, sectors: u8) -> &mut Region {
        self.locations.push((x, z, sector, sectors));
        self
    }

    /// The file's bytes.
    pub fn bytes(&self) -> Vec<u8> {
        let mut out = vec![0u8; 8192];
        for &(x, z, sector, sectors) in &self.locations {
            let i = 4 * (x as usize + 32 * z as usize);
            out[i..i + 3].copy_from_slice(&sector.to_be_bytes()[1..]);
            out[i + 3] = sectors;
        }
        out.extend_from_slice(&self.body);
        out
    }
}
