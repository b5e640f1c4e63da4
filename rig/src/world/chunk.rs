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
    within_depth(nbt, MAX_DEPTH)?;
    fastnbt::from_bytes(nbt).map_err(|e| format!("chunk NBT does not parse: {e}"))
}

/// The deepest nesting of compounds and lists that Minecraft's own NBT
/// reader accepts.
pub const MAX_DEPTH: usize = 512;

/// Refuses NBT nested deeper than `max`.
///
/// fastnbt deserializes recursively with no depth limit, so a small crafted
/// chunk (lists of lists, five bytes a level) would overflow the stack and
/// abort the whole run. This walk keeps its own stack and only skips over
/// payloads; anything malformed is left for fastnbt to report.
pub fn within_depth(nbt: &[u8], max: usize) -> Result<(), String> {
    enum Frame {
        Compound,
        List(u8, i64),
    }
    let mut at = 0usize;
    // Each helper gives None on truncation: fastnbt reports that better.
    let skip = |at: &mut usize, n: usize| -> Option<()> {
        let end = at.checked_add(n).filter(|&e| e <= nbt.len())?;
        *at = end;
        Some(())
    };
    let byte = |at: &mut usize| -> Option<u8> {
        let b = *nbt.get(*at)?;
        *at += 1;
        Some(b)
    };
    let u16_at = |at: &mut usize| -> Option<usize> {
        let b = nbt.get(*at..*at + 2)?;
        *at += 2;
        Some(u16::from_be_bytes([b[0], b[1]]) as usize)
    };
    let i32_at = |at: &mut usize| -> Option<i64> {
        let b = nbt.get(*at..*at + 4)?;
        *at += 4;
        Some(i64::from(i32::from_be_bytes([b[0], b[1], b[2], b[3]])))
    };
    let fixed = |tag: u8| -> Option<usize> {
        Some(match tag {
            1 => 1,
            2 => 2,
            3 | 5 => 4,
            4 | 6 => 8,
            _ => return None,
        })
    };
    let mut walk = || -> Option<Result<(), String>> {
        if byte(&mut at)? != 10 {
            return None;
        }
        let n = u16_at(&mut at)?;
        skip(&mut at, n)?;
        let mut stack = vec![Frame::Compound];
        while let Some(top) = stack.last_mut() {
            let tag = match top {
                Frame::Compound => {
                    let tag = byte(&mut at)?;
                    if tag == 0 {
                        stack.pop();
                        continue;
                    }
                    let n = u16_at(&mut at)?;
                    skip(&mut at, n)?;
                    tag
                }
                Frame::List(tag, remaining) => {
                    if *remaining <= 0 {
                        stack.pop();
                        continue;
                    }
                    if let Some(size) = fixed(*tag) {
                        skip(&mut at, size.checked_mul(*remaining as usize)?)?;
                        stack.pop();
                        continue;
                    }
                    *remaining -= 1;
                    *tag
                }
            };
            match tag {
                7 => {
                    let n = i32_at(&mut at)?;
                    skip(&mut at, usize::try_from(n).ok()?)?;
                }
                8 => {
                    let n = u16_at(&mut at)?;
                    skip(&mut at, n)?;
                }
                9 => {
                    let inner = byte(&mut at)?;
                    let n = i32_at(&mut at)?;
                    if inner == 0 && n > 0 {
                        // fastnbt panics on these; Minecraft refuses them.
                        return Some(Err(format!(
                            "chunk NBT has a list of {n} TAG_End elements (at byte {at}); Minecraft refuses it too (\"Missing type on ListTag\")"
                        )));
                    }
                    stack.push(Frame::List(inner, n));
                }
                10 => stack.push(Frame::Compound),
                11 | 12 => {
                    let n = usize::try_from(i32_at(&mut at)?).ok()?;
                    skip(&mut at, n.checked_mul(if tag == 11 { 4 } else { 8 })?)?;
                }
                t => skip(&mut at, fixed(t)?)?,
            }
            if stack.len() > max {
                return Some(Err(format!(
                    "chunk NBT nested deeper than {max} levels (at byte {at}); Minecraft refuses it too"
                )));
            }
        }
        Some(Ok(()))
    };
    walk().unwrap_or(Ok(()))
}

/// The longs of a saved container, in order.
pub fn longs(array: &LongArray<'_>) -> Vec<i64> {
    array.iter().collect()
}
