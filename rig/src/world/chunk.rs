//! A chunk's NBT, as far as the check needs it: DataVersion, position, and
//! each section's `block_states` and `biomes` palettes and longs.
//!
//! Parsed with fastnbt's serde deserializer into borrowed structs: every key
//! not named here is skipped without being built, and the long arrays stay
//! as slices of the decompressed buffer until a section is checked.

use std::borrow::Cow;
use std::collections::BTreeMap;

use fastnbt::borrow::LongArray;
use serde::de::IgnoredAny;
use serde::Deserialize;

/// The first DataVersion with the 1.18 layout (root `sections`, each holding
/// `block_states` and `biomes` containers): 21w43a.
pub const FIRST_DATA_VERSION: i32 = 2860;

/// A chunk's root compound.
#[derive(Deserialize)]
pub struct Chunk<'a> {
    /// The chunk layout's version.
    #[serde(rename = "DataVersion")]
    pub data_version: Option<i32>,
    /// Absolute chunk x.
    #[serde(rename = "xPos")]
    pub x_pos: Option<i32>,
    /// Absolute chunk z.
    #[serde(rename = "zPos")]
    pub z_pos: Option<i32>,
    /// The sections, bottom up (not relied on).
    #[serde(borrow)]
    pub sections: Option<Vec<Section<'a>>>,
    /// Pre-1.18 root compound; its presence under a 1.18+ DataVersion marks a
    /// chunk a world upgrader left half converted.
    #[serde(rename = "Level")]
    pub level: Option<IgnoredAny>,
    /// Written by the 1.18 upgrader for chunks saved before the world went
    /// below y = 0.
    pub below_zero_retrogen: Option<IgnoredAny>,
}

/// One 16-block-high section.
#[derive(Deserialize)]
pub struct Section<'a> {
    /// Section y.
    #[serde(rename = "Y")]
    pub y: Option<i8>,
    /// The 4,096 block states.
    #[serde(borrow)]
    pub block_states: Option<BlockStates<'a>>,
    /// The 64 biomes.
    #[serde(borrow)]
    pub biomes: Option<Biomes<'a>>,
    /// Pre-1.18 block palette key (upgrader leftover).
    #[serde(rename = "Palette")]
    pub old_palette: Option<IgnoredAny>,
    /// Pre-1.18 block longs key (upgrader leftover).
    #[serde(rename = "BlockStates")]
    pub old_states: Option<IgnoredAny>,
}

/// A saved block-state container.
#[derive(Deserialize)]
pub struct BlockStates<'a> {
    /// Block states, in the order saved.
    #[serde(borrow)]
    pub palette: Option<Vec<BlockState<'a>>>,
    /// The packed indices.
    #[serde(borrow)]
    pub data: Option<LongArray<'a>>,
}

/// A saved biome container.
#[derive(Deserialize)]
pub struct Biomes<'a> {
    /// Biome names, in the order saved.
    #[serde(borrow)]
    pub palette: Option<Vec<Cow<'a, str>>>,
    /// The packed indices.
    #[serde(borrow)]
    pub data: Option<LongArray<'a>>,
}

/// One block-state palette entry.
#[derive(Deserialize)]
pub struct BlockState<'a> {
    /// `minecraft:oak_stairs`.
    #[serde(rename = "Name", borrow)]
    pub name: Cow<'a, str>,
    /// Property values; all strings. Sorted here so that one state has one key.
    #[serde(rename = "Properties", borrow)]
    pub properties: Option<BTreeMap<Cow<'a, str>, Cow<'a, str>>>,
}

impl BlockState<'_> {
    /// The state as one string, `name[key=value,...]` with keys sorted, into `out`.
    pub fn key_into(&self, out: &mut String) {
        out.clear();
        out.push_str(&self.name);
        if let Some(props) = self.properties.as_ref().filter(|p| !p.is_empty()) {
            out.push('[');
            for (i, (k, v)) in props.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(k);
                out.push('=');
                out.push_str(v);
            }
            out.push(']');
        }
    }
}

impl Chunk<'_> {
    /// Whether the chunk still holds pre-1.18 keys: one a world upgrader
    /// rewrote, whose sections the game's normal save path did not write.
    pub fn upgrader_marks(&self) -> bool {
        self.level.is_some()
            || self.below_zero_retrogen.is_some()
            || self
                .sections
                .iter()
                .flatten()
                .any(|s| s.old_palette.is_some() || s.old_states.is_some())
    }
}

/// Parses a chunk's decompressed NBT.
pub fn parse(nbt: &[u8]) -> Result<Chunk<'_>, String> {
    fastnbt::from_bytes(nbt).map_err(|e| format!("chunk NBT does not parse: {e}"))
}

/// The longs of a saved container, in order.
pub fn longs(array: &LongArray<'_>) -> Vec<i64> {
    array.iter().collect()
}
