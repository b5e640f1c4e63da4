//! A chunk column: its sections from the bottom of the world to the top,
//! and the section data a chunk packet sends for all of them.
//!
//! A chunk packet (`ClientboundLevelChunkWithLightPacket`) carries the
//! column's sections as one byte array: each section's wire form
//! ([`Section::write`]), bottom first, one for every 16 blocks of the
//! dimension's height. Minecraft sizes that array by the sections'
//! `getSerializedSize` and writes into it, so up to 1.20.1, whose size is
//! too large ([`Rules::serialized_size_bug`](crate::Rules::serialized_size_bug)),
//! zeros follow the last section; from 1.20.2 the sections fill it exactly.
//! [`Column::write`] sends that array and [`Column::from_wire`] reads it,
//! byte for byte as vanilla servers send it.

use crate::Error;
use crate::section::Section;
use crate::version::{Version, hint};

/// The lowest y a dimension may start at (`DimensionType.MIN_Y`).
const MIN_Y: i32 = -2032;
/// One past the highest y a dimension may reach (`DimensionType.MAX_Y` + 1).
const END_Y: i64 = 2032;

/// A chunk column of one version: where it starts (`min_y`) and its
/// sections, 16 blocks high each, bottom first, with their counters.
///
/// Invariant: `min_y` is a multiple of 16, the column lies within y -2032
/// to 2031, it has at least one section, and every section's block states
/// and biomes are of the column's version.
///
/// ```
/// use paletted::{Column, PalettedContainer, Section, StateTable, Version};
///
/// // An overworld column at 1.20.1: 24 sections from y = -64, stone in the lowest.
/// let v = Version::V1_20_1;
/// let kinds = StateTable::new(&[0], &[]);
/// let section = |state| {
///     let blocks = PalettedContainer::new(state, v.block_strategy());
///     Section::new(blocks, PalettedContainer::new(1, v.biome_strategy()), &kinds).unwrap()
/// };
/// let sections = (0..24).map(|i| section(if i == 0 { 1 } else { 0 })).collect();
/// let column = Column::new(v, -64, sections).unwrap();
/// assert_eq!((column.min_y(), column.height()), (-64, 384));
/// assert_eq!(column.section_at(-60).unwrap().non_empty_block_count(), 4096);
///
/// let mut sent = Vec::new();
/// column.write(&mut sent);
/// // 24 sections of 8 bytes, then one zero each: 1.20.1's size is one too large.
/// assert_eq!((sent.len(), column.serialized_size()), (24 * 9, 24 * 9));
/// assert_eq!(Column::from_wire(v, -64, 384, &sent), Ok(column));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Column {
    version: Version,
    min_y: i32,
    sections: Vec<Section>,
}

/// Whether a column from `min_y`, `height` blocks high, can exist.
fn check_shape(min_y: i32, height: u32) -> Result<usize, Error> {
    let fits = min_y % 16 == 0
        && height % 16 == 0
        && height >= 16
        && min_y >= MIN_Y
        && i64::from(min_y) + i64::from(height) <= END_Y;
    if fits {
        Ok(height as usize / 16)
    } else {
        Err(Error::ColumnShape { min_y, height })
    }
}

impl Column {
    /// A column of `version` from `min_y`, of these sections, bottom first.
    ///
    /// # Errors
    /// [`Error::ColumnShape`] if `min_y` is not a multiple of 16, there is
    /// no section, or the column passes y -2032 or 2031;
    /// [`Error::ColumnSection`] for a section whose containers are not
    /// `version`'s.
    ///
    /// ```
    /// use paletted::{Column, Error, PalettedContainer, Section, StateTable, Version};
    ///
    /// let kinds = StateTable::new(&[0], &[]);
    /// let v = Version::V26_3;
    /// let air = |v: Version| {
    ///     let blocks = PalettedContainer::new(0, v.block_strategy());
    ///     Section::new(blocks, PalettedContainer::new(0, v.biome_strategy()), &kinds).unwrap()
    /// };
    /// let err = Column::new(v, 0, vec![air(v), air(Version::V1_21_4)]).unwrap_err();
    /// assert_eq!(err, Error::ColumnSection { index: 1, version: v });
    /// assert_eq!(Column::new(v, 8, vec![air(v)]), Err(Error::ColumnShape { min_y: 8, height: 16 }));
    /// ```
    pub fn new(version: Version, min_y: i32, sections: Vec<Section>) -> Result<Column, Error> {
        let height = u32::try_from(sections.len())
            .ok()
            .and_then(|n| n.checked_mul(16))
            .unwrap_or(u32::MAX);
        check_shape(min_y, height)?;
        let (blocks, biomes) = (version.block_strategy(), version.biome_strategy());
        if let Some(index) = sections
            .iter()
            .position(|s| s.blocks().strategy() != blocks || s.biomes().strategy() != biomes)
        {
            return Err(Error::ColumnSection { index, version });
        }
        Ok(Column {
            version,
            min_y,
            sections,
        })
    }

    /// Reads a column of `version`, from `min_y` and `height` blocks high
    /// (the dimension's), from a chunk packet's section data: every section,
    /// strictly ([`Section::from_wire`]), then nothing but the zeros that
    /// fill the array up to the sections' serialized size. Positions in an
    /// error count from the array's first byte.
    ///
    /// ```
    /// use paletted::{Column, Error, Version};
    ///
    /// // The End at 26.3: 16 sections of air over biome 3, nothing after.
    /// let v = Version::V26_3;
    /// let sent: Vec<u8> = [0, 0, 0, 0, 0, 0, 0, 3].repeat(16);
    /// let column = Column::from_wire(v, 0, 256, &sent).unwrap();
    /// assert!(column.sections().iter().all(|s| s.has_only_air()));
    /// let mut again = Vec::new();
    /// column.write(&mut again);
    /// assert_eq!(again, sent);
    /// // A byte more is not a 26.3 column.
    /// let mut longer = sent.clone();
    /// longer.push(0);
    /// let err = Column::from_wire(v, 0, 256, &longer).unwrap_err();
    /// assert_eq!(err, Error::ColumnLength { used: 128, expected: 128, len: 129 });
    /// ```
    ///
    /// # Errors
    /// [`Error::ColumnShape`] for a shape no dimension has; a section's
    /// error as [`Section::from_wire`] gives it; [`Error::ColumnLength`] if
    /// the array is not the sections' serialized size or holds more than
    /// zeros after them. Where another release's wire form reads the bytes
    /// whole (and writes them back the same), [`Error::OtherVersion`] names
    /// those releases around the read's own error.
    pub fn from_wire(
        version: Version,
        min_y: i32,
        height: u32,
        bytes: &[u8],
    ) -> Result<Column, Error> {
        let count = check_shape(min_y, height)?;
        Column::from_wire_as(version, min_y, count, bytes).map_err(|error| {
            let (blocks, biomes) = (version.block_strategy(), version.biome_strategy());
            hint(error, blocks, biomes, |v| {
                Column::from_wire_as(v, min_y, count, bytes).is_ok_and(|column| {
                    let mut again = Vec::with_capacity(bytes.len());
                    column.write(&mut again);
                    again == bytes
                })
            })
        })
    }

    /// [`from_wire`](Column::from_wire) of `count` sections, with the read's
    /// own error.
    fn from_wire_as(
        version: Version,
        min_y: i32,
        count: usize,
        bytes: &[u8],
    ) -> Result<Column, Error> {
        let (blocks, biomes) = (version.block_strategy(), version.biome_strategy());
        let mut sections = Vec::with_capacity(count);
        let (mut used, mut expected) = (0, 0);
        for _ in 0..count {
            let (section, n) = Section::from_wire_as(blocks, biomes, &bytes[used..])
                .map_err(|e| e.shifted(used))?;
            used += n;
            expected += section.serialized_size();
            sections.push(section);
        }
        if bytes.len() != expected || bytes[used..].iter().any(|&b| b != 0) {
            return Err(Error::ColumnLength {
                used,
                expected,
                len: bytes.len(),
            });
        }
        Ok(Column {
            version,
            min_y,
            sections,
        })
    }

    /// Appends the section data a chunk packet sends: each section's wire
    /// form, bottom first, then zeros up to the sections' serialized size
    /// (none from 1.20.2).
    ///
    /// ```
    /// use paletted::{Column, Version};
    ///
    /// // One-value sections at 1.18.2: 8 bytes each, then a zero for each.
    /// let v = Version::V1_18_2;
    /// let sent: Vec<u8> = [0, 0, 0, 0, 0, 0, 1, 0].repeat(24).into_iter().chain([0; 24]).collect();
    /// let column = Column::from_wire(v, -64, 384, &sent).unwrap();
    /// let mut again = Vec::new();
    /// column.write(&mut again);
    /// assert_eq!(again, sent);
    /// ```
    ///
    /// # Panics
    /// As [`Section::write`].
    pub fn write(&self, out: &mut Vec<u8>) {
        let start = out.len();
        for section in &self.sections {
            section.write(out);
        }
        out.resize(start + self.serialized_size(), 0);
    }

    /// The bytes [`write`](Column::write) appends: the sections'
    /// serialized sizes added up, as Minecraft sizes the packet's array.
    ///
    /// ```
    /// use paletted::{Column, Version};
    ///
    /// let v = Version::V26_3;
    /// let column = Column::from_wire(v, 0, 16, &[0, 0, 0, 0, 0, 0, 0, 3]).unwrap();
    /// assert_eq!(column.serialized_size(), 8);
    /// ```
    ///
    /// # Panics
    /// As [`Section::serialized_size`].
    pub fn serialized_size(&self) -> usize {
        self.sections.iter().map(Section::serialized_size).sum()
    }

    /// The version whose wire form the column is in.
    ///
    /// ```
    /// use paletted::{Column, Version};
    ///
    /// let column = Column::from_wire(Version::V26_3, 0, 16, &[0, 0, 0, 0, 0, 0, 0, 3]).unwrap();
    /// assert_eq!(column.version(), Version::V26_3);
    /// ```
    pub fn version(&self) -> Version {
        self.version
    }

    /// The lowest y of the column (the dimension's `min_y`).
    ///
    /// ```
    /// use paletted::{Column, Version};
    ///
    /// let column = Column::from_wire(Version::V26_3, -16, 16, &[0, 0, 0, 0, 0, 0, 0, 3]).unwrap();
    /// assert_eq!(column.min_y(), -16);
    /// ```
    pub fn min_y(&self) -> i32 {
        self.min_y
    }

    /// The column's height in blocks: 16 for each section.
    ///
    /// ```
    /// use paletted::{Column, Version};
    ///
    /// let sent: Vec<u8> = [0, 0, 0, 0, 0, 0, 0, 3].repeat(4);
    /// let column = Column::from_wire(Version::V26_3, 0, 64, &sent).unwrap();
    /// assert_eq!((column.height(), column.sections().len()), (64, 4));
    /// ```
    pub fn height(&self) -> u32 {
        // At most 254 sections (4,064 blocks): a u32 holds it.
        self.sections.len() as u32 * 16
    }

    /// The sections, bottom first.
    ///
    /// ```
    /// use paletted::{Column, Version};
    ///
    /// let sent: Vec<u8> = [0, 0, 0, 0, 0, 0, 0, 3].repeat(2);
    /// let column = Column::from_wire(Version::V26_3, 0, 32, &sent).unwrap();
    /// assert_eq!(column.sections()[1].biomes().get(0, 0, 0), 3);
    /// ```
    pub fn sections(&self) -> &[Section] {
        &self.sections
    }

    /// The section holding block y `y`, if the column reaches it.
    ///
    /// ```
    /// use paletted::{Column, Version};
    ///
    /// let sent: Vec<u8> = [0, 0, 0, 0, 0, 0, 0, 3].repeat(2);
    /// let column = Column::from_wire(Version::V26_3, -16, 32, &sent).unwrap();
    /// assert_eq!(column.section_at(-16), Some(&column.sections()[0]));
    /// assert_eq!(column.section_at(15), Some(&column.sections()[1]));
    /// assert_eq!((column.section_at(-17), column.section_at(16)), (None, None));
    /// ```
    pub fn section_at(&self, y: i32) -> Option<&Section> {
        let index = (i64::from(y) - i64::from(self.min_y)).div_euclid(16);
        self.sections.get(usize::try_from(index).ok()?)
    }

    /// The sections, bottom first, to change and make a column of again
    /// with [`Column::new`].
    ///
    /// ```
    /// use paletted::{Column, StateTable, Version};
    ///
    /// let v = Version::V26_3;
    /// let column = Column::from_wire(v, 0, 16, &[0, 0, 0, 0, 0, 0, 0, 3]).unwrap();
    /// let mut sections = column.into_sections();
    /// sections[0].set(0, 0, 0, 1, &StateTable::new(&[0], &[]));
    /// let column = Column::new(v, 0, sections).unwrap();
    /// assert_eq!(column.sections()[0].non_empty_block_count(), 1);
    /// ```
    pub fn into_sections(self) -> Vec<Section> {
        self.sections
    }
}
