//! The check of one saved container: what Minecraft guarantees for data its
//! own save path wrote.
//!
//! `pack` re-encodes the values in first-appearance order at the width the
//! palette size calls for, with no stale entries and zero bits above the
//! values; so for a container Minecraft saved itself, `pack(unpack(x))` is
//! `x`, palette and longs exactly. Anything else is a difference, named by
//! what it is (an unused entry, a padding bit, a missing long array ...).

use std::collections::HashSet;
use std::fmt;

use paletted::{BitStorage, Error, Packed, PaletteKind, PalettedContainer, Rules, Strategy};

/// The rules a chunk of DataVersion `dv` was saved under, where the versions
/// page pins them: a release's own DataVersion, one between two releases of
/// the same rules (a snapshot inside a run), or one past the newest. Between
/// two runs nothing is pinned: `None`, and the check keeps 26.3's rules there.
pub fn rules_for(dv: i32) -> Option<Rules> {
    let dv = u32::try_from(dv).ok()?;
    let all = paletted::Version::ALL;
    let before = all.iter().rfind(|v| v.data_version() <= dv)?.rules();
    match all.iter().find(|v| v.data_version() >= dv) {
        Some(after) if after.rules() != before => None,
        _ => Some(before),
    }
}

/// The bytes of a VarInt of `n`.
fn varint_len(n: usize) -> usize {
    let mut len = 1;
    let mut n = n >> 7;
    while n > 0 {
        len += 1;
        n >>= 7;
    }
    len
}

/// What `getSerializedSize` gives for a container that wrote `written`
/// bytes: the written length, except under the bug before 1.20.2, which
/// counts the VarInt of the number of values instead of the long count's,
/// and a byte for a global palette, which writes none.
fn expected_size(c: &PalettedContainer, written: usize) -> usize {
    if !c.strategy().rules().serialized_size_bug() {
        return written;
    }
    let global = usize::from(c.palette_kind() == PaletteKind::Global);
    written - varint_len(c.storage().longs().len()) + varint_len(c.strategy().size()) + global
}

/// What was found wrong with a saved container, one name a cause.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Difference {
    /// A palette with no entries.
    EmptyPalette,
    /// A palette of more than one entry and no long array.
    MissingData,
    /// A long array of the wrong length for the palette size.
    WrongLongCount,
    /// A stored index past the palette's end.
    IndexPastPalette,
    /// `unpack` refused the container for another reason.
    OtherRefusal,
    /// The same entry twice in the saved palette.
    DuplicateEntries,
    /// Saved palette entries that no position uses.
    UnusedEntries,
    /// Saved palette not in first-appearance order.
    PaletteOrder,
    /// A one-entry palette that carries longs anyway.
    DataOnSingleEntry,
    /// Same values, but bits set above the values in a long (or in the slots
    /// past the last value).
    PaddingBits,
    /// Same palette, different values: would be a bug of ours.
    LongsDiffer,
    /// `get_all` disagrees with the packed palette: a bug of ours.
    GetAll,
    /// `counts` disagrees with the packed palette or the size: a bug of ours.
    Counts,
    /// `write` wrote other than `serialized_size` bytes: a bug of ours.
    WriteSize,
}

impl Difference {
    /// Whether the container breaks a rule of Minecraft's save path (the
    /// input is odd) rather than showing a fault in the Rust containers.
    pub fn is_input(self) -> bool {
        !matches!(
            self,
            Difference::LongsDiffer
                | Difference::GetAll
                | Difference::Counts
                | Difference::WriteSize
        )
    }
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Difference::EmptyPalette => "empty palette",
            Difference::MissingData => "palette of several entries but no data",
            Difference::WrongLongCount => "long array of the wrong length",
            Difference::IndexPastPalette => "index past the palette's end",
            Difference::OtherRefusal => "unpack refused it",
            Difference::DuplicateEntries => "duplicate palette entries",
            Difference::UnusedEntries => "unused palette entries",
            Difference::PaletteOrder => "palette not in first-appearance order",
            Difference::DataOnSingleEntry => "one-entry palette with data",
            Difference::PaddingBits => "bits set above the values",
            Difference::LongsDiffer => "pack gave other values (bug of ours)",
            Difference::GetAll => "get_all differs from the packed palette (bug of ours)",
            Difference::Counts => "counts disagree with the palette (bug of ours)",
            Difference::WriteSize => "write length differs from serialized_size (bug of ours)",
        })
    }
}

/// A difference and what exactly it was in this container.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// Its kind.
    pub difference: Difference,
    /// The particulars (counts, first index, the error's message).
    pub detail: String,
}

impl Finding {
    fn new(difference: Difference, detail: impl Into<String>) -> Finding {
        Finding {
            difference,
            detail: detail.into(),
        }
    }
}

/// Checks one saved container: strict `unpack`, then `pack`, `write`,
/// `serialized_size`, `counts` and `distinct` (getAll), and compares.
/// `Ok(())` when it comes back exactly.
pub fn container(strategy: Strategy, saved: &Packed) -> Result<(), Finding> {
    let unpacked = PalettedContainer::unpack(strategy, saved.clone()).map_err(|e| refusal(&e))?;
    let packed = unpacked.pack();
    if packed.palette != saved.palette {
        return Err(palette_difference(saved, &packed));
    }
    if packed.data != saved.data {
        return Err(data_difference(strategy, saved, &packed));
    }
    let distinct = unpacked.distinct();
    if distinct != packed.palette {
        return Err(Finding::new(
            Difference::GetAll,
            format!("get_all {distinct:?}, pack palette {:?}", packed.palette),
        ));
    }
    let counts = unpacked.counts();
    let total: usize = counts.iter().map(|&(_, n)| n).sum();
    let mut ids: Vec<u32> = counts.iter().map(|&(id, _)| id).collect();
    let mut palette = packed.palette.clone();
    ids.sort_unstable();
    palette.sort_unstable();
    if total != strategy.size() || ids != palette {
        return Err(Finding::new(
            Difference::Counts,
            format!("counts {counts:?} over {total} values"),
        ));
    }
    let mut wire = Vec::with_capacity(unpacked.serialized_size());
    unpacked.write(&mut wire);
    if expected_size(&unpacked, wire.len()) != unpacked.serialized_size() {
        return Err(Finding::new(
            Difference::WriteSize,
            format!(
                "wrote {} bytes, serialized_size {}",
                wire.len(),
                unpacked.serialized_size()
            ),
        ));
    }
    Ok(())
}

fn refusal(e: &Error) -> Finding {
    let difference = match e {
        Error::Empty => Difference::EmptyPalette,
        Error::MissingData => Difference::MissingData,
        Error::Length { .. } | Error::StorageLength { .. } => Difference::WrongLongCount,
        Error::Index { .. } => Difference::IndexPastPalette,
        _ => Difference::OtherRefusal,
    };
    let detail = match e {
        Error::Index { at, .. } => format!("{e} (at position {at})"),
        _ => e.to_string(),
    };
    Finding::new(difference, detail)
}

fn palette_difference(saved: &Packed, packed: &Packed) -> Finding {
    let mut seen = HashSet::new();
    if let Some(dup) = saved.palette.iter().find(|id| !seen.insert(**id)) {
        return Finding::new(
            Difference::DuplicateEntries,
            format!(
                "id {dup} appears twice in a palette of {}",
                saved.palette.len()
            ),
        );
    }
    let used: HashSet<u32> = packed.palette.iter().copied().collect();
    let unused: Vec<u32> = saved
        .palette
        .iter()
        .copied()
        .filter(|id| !used.contains(id))
        .collect();
    if !unused.is_empty() {
        return Finding::new(
            Difference::UnusedEntries,
            format!(
                "{} of {} entries unused, first at palette index {}",
                unused.len(),
                saved.palette.len(),
                saved
                    .palette
                    .iter()
                    .position(|id| *id == unused[0])
                    .unwrap_or(0)
            ),
        );
    }
    let first = saved
        .palette
        .iter()
        .zip(&packed.palette)
        .position(|(a, b)| a != b)
        .unwrap_or(0);
    Finding::new(
        Difference::PaletteOrder,
        format!(
            "first out of order at palette index {first} of {}",
            saved.palette.len()
        ),
    )
}

fn data_difference(strategy: Strategy, saved: &Packed, packed: &Packed) -> Finding {
    let (Some(got), Some(want)) = (&saved.data, &packed.data) else {
        let longs = saved.data.as_ref().map_or(0, Vec::len);
        return Finding::new(
            Difference::DataOnSingleEntry,
            format!("{longs} longs beside a palette of {}", saved.palette.len()),
        );
    };
    let bits = strategy
        .configuration_for_palette_len(saved.palette.len())
        .disk_bits;
    let values = |longs: &[i64]| {
        BitStorage::from_longs(bits, strategy.size(), longs.to_vec()).map(|s| s.values())
    };
    let first_long = got.iter().zip(want).position(|(a, b)| a != b).unwrap_or(0);
    match (values(got), values(want)) {
        (Ok(a), Ok(b)) if a == b => Finding::new(
            Difference::PaddingBits,
            format!(
                "first in long {first_long}: saved {:#018x}, packed {:#018x}",
                got[first_long], want[first_long]
            ),
        ),
        _ => Finding::new(
            Difference::LongsDiffer,
            format!("first in long {first_long} of {}", got.len()),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use paletted::{Kind, Version};

    #[test]
    fn data_versions_pick_the_rules_they_were_saved_under() {
        assert_eq!(rules_for(2860), Some(Rules::V1_18_2));
        assert_eq!(rules_for(3465), Some(Rules::V1_18_2));
        assert_eq!(rules_for(3500), None);
        assert_eq!(rules_for(3578), Some(Rules::V1_20_2));
        assert_eq!(rules_for(4189), Some(Rules::V1_20_2));
        assert_eq!(rules_for(4671), Some(Rules::V1_21_9));
        assert_eq!(rules_for(4700), None);
        assert_eq!(rules_for(4903), Some(Rules::V26_1));
        assert_eq!(rules_for(5023), Some(Rules::V26_3));
        for v in Version::ALL {
            assert_eq!(rules_for(v.data_version() as i32), Some(v.rules()), "{v}");
        }
    }

    /// The page's figures: a single-value block container reports 4 and
    /// writes 3 before 1.20.2; a global one 8,196 against 8,195.
    #[test]
    fn saved_containers_check_at_the_buggy_sizes_too() {
        let s = Strategy::with(Kind::BlockStates, 24_135).with_rules(Rules::V1_18_2);
        let single = PalettedContainer::new(5, s);
        let mut wire = Vec::new();
        single.write(&mut wire);
        assert_eq!((wire.len(), expected_size(&single, wire.len())), (3, 4));
        let values: Vec<u32> = (0..4096).collect();
        let global = PalettedContainer::from_values(s, &values);
        let mut wire = Vec::new();
        global.write(&mut wire);
        assert_eq!(
            (wire.len(), expected_size(&global, wire.len())),
            (8195, 8196)
        );
        for c in [&single, &global] {
            assert_eq!(container(s, &c.pack()), Ok(()));
        }
    }
}
