use std::fmt;

/// Why a container or storage could not be built from untrusted input, or
/// why an operation on a leniently loaded container failed.
///
/// `Display` gives Minecraft's own message wherever Minecraft has one, so a
/// result from this crate and one recorded from Minecraft compare as text.
///
/// ```
/// use paletted::{Error, Packed, PalettedContainer, Strategy};
///
/// // Two biomes take 1 bit each: one long, not two.
/// let packed = Packed::new(vec![1, 2], Some(vec![0; 2]));
/// let err = PalettedContainer::unpack(Strategy::biomes(65), packed).unwrap_err();
/// assert_eq!(err, Error::Length { got: 2, expected: 1 });
/// assert_eq!(
///     err.to_string(),
///     "Failed to read PalettedContainer: Invalid length given for storage, got: 2 but expected: 1"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Error {
    /// A saved palette with no entries. Minecraft loads it and fails when a
    /// value is read; [`crate::PalettedContainer::unpack`] refuses it up front.
    Empty,
    /// A saved palette of more than one entry with no longs.
    MissingData,
    /// A saved container whose longs are not as many as its values take.
    Length {
        /// Longs given.
        got: usize,
        /// Longs the values take.
        expected: usize,
    },
    /// A saved container whose declared bits differ from those its palette
    /// size calls for on disk.
    BitCount {
        /// Bits the palette size calls for.
        calculated: u32,
        /// Bits the saved container declared.
        declared: i32,
    },
    /// A stored index past the palette's end: at position `at`, index `index`.
    Index {
        /// The position in the container.
        at: usize,
        /// The palette index stored there.
        index: u32,
    },
    /// A registry id that is not below the registry's size.
    Id {
        /// The id.
        id: u32,
        /// The registry's size.
        registry: u32,
    },
    /// A palette with more entries than its kind holds.
    PaletteTooLong {
        /// Entries given.
        len: usize,
        /// Entries the palette kind holds.
        capacity: usize,
    },
    /// Bit storage built from the wrong number of longs
    /// (Minecraft's `SimpleBitStorage.InitializationException`).
    StorageLength {
        /// Longs given.
        got: usize,
        /// Longs the values take.
        expected: usize,
    },
    /// Bit storage asked for more than 32 bits or more than 2^26 values.
    StorageShape {
        /// Bits asked for.
        bits: u32,
        /// Values asked for.
        size: usize,
    },
    /// A single-value palette with no value (loaded from an empty palette)
    /// asked for its value.
    MissingPaletteValue,
    /// A single-value palette with no value asked to write itself.
    Uninitialized,
    /// The input ended before the container did.
    Truncated {
        /// Where the read needed bytes.
        at: usize,
        /// How many it needed.
        needed: usize,
        /// How many the input had.
        len: usize,
    },
    /// A VarInt longer than five bytes.
    VarIntTooBig {
        /// Where the VarInt started.
        at: usize,
    },
    /// A negative length read from the wire.
    NegativeLength {
        /// The length read.
        len: i32,
    },
    /// A Java array index outside the array (`ArrayIndexOutOfBoundsException`):
    /// a linear palette whose size a wire read left negative or past its
    /// fixed array, walked or added to.
    ArrayIndex {
        /// The index used.
        index: i64,
        /// The array's length.
        len: usize,
    },
    /// A long count on the wire (up to 1.21.4) that is not the storage's
    /// length. Minecraft takes it and drops the longs; the strict read
    /// refuses it.
    LongCount {
        /// The count read.
        count: i32,
        /// Longs the storage holds.
        expected: usize,
    },
    /// A long count on the wire past what the unread bytes can hold
    /// (netty's `DecoderException` from `readLongArray`).
    LongArrayTooBig {
        /// The count read.
        size: i32,
        /// The unread bytes over 8, before the count.
        allowed: usize,
    },
    /// An operation the version does not have (`fill` before 26.x).
    Unsupported {
        /// The operation.
        operation: &'static str,
        /// The versions without it.
        rules: crate::Rules,
    },
    /// A section given a container of the wrong kind: biomes as its block
    /// states, or block states as its biomes.
    SectionKind {
        /// The place the container was given for: "block states" or "biomes".
        place: &'static str,
        /// The kind of container given.
        given: crate::Kind,
    },
    /// A section given containers that follow two versions' rules: both
    /// must be one version's, as its wire form is.
    SectionRules {
        /// The block states' rules.
        blocks: crate::Rules,
        /// The biomes' rules.
        biomes: crate::Rules,
    },
    /// A strict read that failed in one version's wire form, of bytes that
    /// other releases' wire forms read whole: most likely bytes of one of
    /// those, read as the wrong version. `error` is the read's own error.
    OtherVersion {
        /// The error of the read as asked.
        error: Box<Error>,
        /// The rules the bytes were read with.
        read_as: crate::Rules,
        /// The releases whose wire form reads the bytes whole, as runs of
        /// consecutive releases (first, last), oldest first.
        fits: Vec<(crate::Version, crate::Version)>,
    },
    /// A chunk column of a shape no dimension has: `min_y` and `height`
    /// must be multiples of 16, the height at least 16, and the column
    /// within y -2032 to 2031.
    ColumnShape {
        /// The lowest y asked for.
        min_y: i32,
        /// The height asked for.
        height: u32,
    },
    /// A chunk column given a section whose containers are not of the
    /// column's version.
    ColumnSection {
        /// The section's index, from the bottom.
        index: usize,
        /// The column's version.
        version: crate::Version,
    },
    /// A chunk packet's section data that is not its sections followed by
    /// zeros up to their serialized size (how Minecraft sizes the array).
    ColumnLength {
        /// Bytes the sections took.
        used: usize,
        /// The sections' serialized size: the array's length.
        expected: usize,
        /// The array's length.
        len: usize,
    },
    /// A value outside an inclusive range (commons-lang3 `Validate`'s
    /// `IllegalArgumentException`, Minecraft's range check): a storage index
    /// or value, or a position outside the container.
    OutOfRange {
        /// The value checked.
        value: i64,
        /// The least allowed.
        min: i64,
        /// The most allowed.
        max: i64,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Empty => f.write_str("Empty palette"),
            Error::MissingData => f.write_str("Missing values for non-zero storage"),
            Error::Length { got, expected } => write!(
                f,
                "Failed to read PalettedContainer: Invalid length given for storage, got: {got} but expected: {expected}"
            ),
            Error::BitCount {
                calculated,
                declared,
            } => write!(
                f,
                "Invalid bit count, calculated {calculated}, but container declared {declared}"
            ),
            Error::Index { index, .. } => write!(f, "Missing Palette entry for index {index}."),
            Error::Id { id, registry } => {
                write!(
                    f,
                    "Registry id {id} is not below the registry size {registry}"
                )
            }
            Error::PaletteTooLong { len, capacity } => {
                write!(f, "Palette of {len} entries, but its kind holds {capacity}")
            }
            Error::StorageLength { got, expected } => write!(
                f,
                "Invalid length given for storage, got: {got} but expected: {expected}"
            ),
            Error::StorageShape { bits, size } => write!(
                f,
                "Bit storage of {size} values at {bits} bits: bits must be 0 to 32 and size at most 2^26"
            ),
            Error::MissingPaletteValue => f.write_str("Missing Palette entry for id 0."),
            Error::Uninitialized => f.write_str("Use of an uninitialized palette"),
            Error::Truncated { at, needed, len } => write!(
                f,
                "readerIndex({at}) + length({needed}) exceeds writerIndex({len})"
            ),
            Error::VarIntTooBig { .. } => f.write_str("VarInt too big"),
            Error::NegativeLength { len } => write!(f, "Negative length {len} read from the wire"),
            Error::ArrayIndex { index, len } => {
                write!(f, "Index {index} out of bounds for length {len}")
            }
            Error::LongCount { count, expected } => write!(
                f,
                "Long array count {count}, but the storage holds {expected} longs"
            ),
            Error::LongArrayTooBig { size, allowed } => write!(
                f,
                "LongArray with size {size} is bigger than allowed {allowed}"
            ),
            Error::Unsupported { operation, rules } => {
                write!(f, "{operation} does not exist in {}", rules.span())
            }
            Error::SectionKind { place, given } => {
                let given = match given {
                    crate::Kind::BlockStates => "block states",
                    crate::Kind::Biomes => "biomes",
                };
                write!(f, "A section's {place} container was given one of {given}")
            }
            Error::SectionRules { blocks, biomes } => write!(
                f,
                "A section's block states follow the rules of {} and its biomes those of {}: both must be one version's",
                blocks.span(),
                biomes.span()
            ),
            Error::OtherVersion {
                error,
                read_as,
                fits,
            } => {
                write!(
                    f,
                    "{error} (read in {}'s wire form; the bytes read whole in ",
                    read_as.span()
                )?;
                for (i, (first, last)) in fits.iter().enumerate() {
                    let sep = if i == 0 { "" } else { ", " };
                    if first == last {
                        write!(f, "{sep}{first}")?;
                    } else {
                        write!(f, "{sep}{first} to {last}")?;
                    }
                }
                f.write_str("'s)")
            }
            Error::ColumnShape { min_y, height } => write!(
                f,
                "A column from y {min_y}, {height} blocks high: both must be multiples of 16, the height at least 16, within y -2032 to 2031"
            ),
            Error::ColumnSection { index, version } => write!(
                f,
                "Section {index} of a {version} column is not of {version}'s block states and biomes"
            ),
            Error::ColumnLength {
                used,
                expected,
                len,
            } => write!(
                f,
                "Column data of {len} bytes: its sections take {used} and their serialized size is {expected}, which only zeros may fill"
            ),
            Error::OutOfRange { value, min, max } => write!(
                f,
                "The value {value} is not in the specified inclusive range of {min} to {max}"
            ),
        }
    }
}

impl std::error::Error for Error {}

impl Error {
    /// The error as seen from `by` bytes earlier: positions in a container's
    /// bytes become positions in the section (or packet) around it.
    pub(crate) fn shifted(self, by: usize) -> Error {
        match self {
            Error::Truncated { at, needed, len } => Error::Truncated {
                at: at + by,
                needed,
                len: len + by,
            },
            Error::VarIntTooBig { at } => Error::VarIntTooBig { at: at + by },
            Error::OtherVersion {
                error,
                read_as,
                fits,
            } => Error::OtherVersion {
                error: Box::new(error.shifted(by)),
                read_as,
                fits,
            },
            other => other,
        }
    }
}
