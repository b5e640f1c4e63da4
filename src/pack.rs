/// A container as a region file saves it (Minecraft's `PackedData`): the
/// palette, the longs (none for a palette of one entry) and the bits a value
/// takes in them.
///
/// ```
/// use paletted::{PalettedContainer, Strategy};
///
/// // The flat world's bottom section as a region file saves it.
/// let flat: Vec<u32> = (0..4096)
///     .map(|i| match i / 256 { 0 => 88, 1 | 2 => 10, 3 => 9, _ => 0 })
///     .collect();
/// let saved = PalettedContainer::from_values(Strategy::block_states(35723), &flat).pack();
/// assert_eq!(saved.palette, [88, 10, 9, 0]);
/// assert_eq!(saved.bits, 4);
/// assert_eq!(saved.data.map(|longs| longs.len()), Some(256));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Packed {
    /// Registry ids, in the order the values first appear.
    pub palette: Vec<u32>,
    /// The packed indices; `None` for a palette of one entry.
    pub data: Option<Vec<i64>>,
    /// Bits a value takes in `data`, or `-1` when not declared (region files
    /// written before Minecraft recorded it).
    pub bits: i32,
}

impl Packed {
    /// A saved container that does not declare its bits.
    ///
    /// ```
    /// use paletted::{Packed, PalettedContainer, Strategy};
    ///
    /// // An older save's section of one state: one entry, no longs, no bits.
    /// let packed = Packed::new(vec![1], None);
    /// assert_eq!(packed.bits, -1);
    /// let c = PalettedContainer::unpack(Strategy::block_states(35723), packed).unwrap();
    /// assert_eq!(c.get(8, 8, 8), 1);
    /// ```
    pub fn new(palette: Vec<u32>, data: Option<Vec<i64>>) -> Packed {
        Packed {
            palette,
            data,
            bits: -1,
        }
    }
}
