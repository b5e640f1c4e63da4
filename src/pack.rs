/// A container as a region file saves it (Minecraft's `PackedData`): the
/// palette, the longs (none for a palette of one entry) and the bits a value
/// takes in them.
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
    pub fn new(palette: Vec<u32>, data: Option<Vec<i64>>) -> Packed {
        Packed {
            palette,
            data,
            bits: -1,
        }
    }
}
