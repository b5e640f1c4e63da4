//! Minecraft releases from 1.18 to 26.3, as data: each one's DataVersion,
//! protocol, registry sizes and the rules its containers follow where
//! versions differ.
//!
//! A [`Version`] names a release and its registries; its [`Rules`] say how
//! its containers differ from 26.3's. A [`Strategy`] carries the rules (one
//! byte, in what was padding), so a container made from
//! [`Version::block_strategy`] or [`Version::biome_strategy`] writes, reads, sizes and saves
//! itself as that version does, while `get` and `set` never look at them.
//! The facts are those of the versions page (`minecraft-versions.md`),
//! read from each version's classes and, for 1.20.1 and 1.21.3, seen
//! running; where a recording of a version disagrees, the recording wins.
//!
//! ```
//! use paletted::{PalettedContainer, Version};
//!
//! // One biome everywhere, sent by 1.20.1 and by 26.3: only the old version
//! // sends a count of longs (none here) after the palette.
//! let old = Version::named("1.20.1").unwrap();
//! let mut sent = Vec::new();
//! PalettedContainer::new(3, old.biome_strategy()).write(&mut sent);
//! assert_eq!(sent, [0, 3, 0]);
//! sent.clear();
//! PalettedContainer::new(3, Version::LATEST.biome_strategy()).write(&mut sent);
//! assert_eq!(sent, [0, 3]);
//! ```

use crate::{Configuration, Error, PaletteKind, Strategy};

/// Block states in 1.18.2 (the highest state id + 1).
///
/// ```
/// use paletted::Version;
/// use paletted::version::BLOCK_STATES_1_18_2;
///
/// assert_eq!(Version::V1_18_2.block_states(), BLOCK_STATES_1_18_2);
/// // A global block state takes 15 bits (2^15 = 32,768 ids).
/// assert_eq!(Version::V1_18_2.block_strategy().global_bits(), 15);
/// ```
pub const BLOCK_STATES_1_18_2: u32 = 20_342;
/// Biomes in 1.18.2.
///
/// ```
/// use paletted::{PaletteKind, Version};
/// use paletted::version::BIOMES_1_18_2;
///
/// let biomes = Version::V1_18_2.biome_strategy();
/// assert_eq!(biomes.registry_size(), BIOMES_1_18_2);
/// // Past the 3-bit linear palette, every biome is its 6-bit id.
/// let global = biomes.configuration(4);
/// assert_eq!((global.kind, global.bits), (PaletteKind::Global, 6));
/// ```
pub const BIOMES_1_18_2: u32 = 61;
/// Block states in 1.19.4.
///
/// ```
/// use paletted::{Strategy, Version};
/// use paletted::version::BLOCK_STATES_1_19_4;
///
/// assert_eq!(Version::V1_19_4.block_states(), BLOCK_STATES_1_19_4);
/// assert_eq!(Strategy::block_states(BLOCK_STATES_1_19_4).global_bits(), 15);
/// ```
pub const BLOCK_STATES_1_19_4: u32 = 23_725;
/// Biomes in 1.19.4: 64 keys, of which one is experimental and not
/// registered.
///
/// ```
/// use paletted::{PalettedContainer, Version};
/// use paletted::version::BIOMES_1_19_4;
///
/// // Id 63, the 64th key, is a biome in 1.20.1 but not in 1.19.4.
/// let mut c = PalettedContainer::new(0, Version::V1_19_4.biome_strategy());
/// let err = c.try_set(0, 0, 0, BIOMES_1_19_4).unwrap_err();
/// assert_eq!(err.to_string(), "Registry id 63 is not below the registry size 63");
/// let mut c = PalettedContainer::new(0, Version::V1_20_1.biome_strategy());
/// assert_eq!(c.try_set(0, 0, 0, BIOMES_1_19_4), Ok(()));
/// ```
pub const BIOMES_1_19_4: u32 = 63;
/// Block states in 1.20.1.
///
/// ```
/// use paletted::{PalettedContainer, Strategy};
/// use paletted::version::BLOCK_STATES_1_20_1;
///
/// // 300 distinct states: the global palette, 15 bits an id, 4 ids a long.
/// let blocks = Strategy::block_states(BLOCK_STATES_1_20_1);
/// let values: Vec<u32> = (0..4096).map(|i| i % 300).collect();
/// let mut sent = Vec::new();
/// PalettedContainer::from_values(blocks, &values).write(&mut sent);
/// assert_eq!(sent[0], 15);
/// assert_eq!(sent.len(), 1 + 4096 / 4 * 8);
/// ```
pub const BLOCK_STATES_1_20_1: u32 = 24_135;
/// Biomes in 1.20.1.
///
/// ```
/// use paletted::Strategy;
/// use paletted::version::{BIOMES_1_20_1, BIOMES_1_21_4};
///
/// // 64 biomes fill 6 bits exactly; the 65th, in 1.21.4, takes a seventh.
/// assert_eq!(Strategy::biomes(BIOMES_1_20_1).global_bits(), 6);
/// assert_eq!(Strategy::biomes(BIOMES_1_21_4).global_bits(), 7);
/// ```
pub const BIOMES_1_20_1: u32 = 64;
/// Block states in 1.21.4.
///
/// ```
/// use paletted::{Rules, Strategy, Version};
/// use paletted::version::BLOCK_STATES_1_21_4;
///
/// let blocks = Strategy::block_states(BLOCK_STATES_1_21_4).with_rules(Rules::V1_20_2);
/// assert_eq!(Version::V1_21_4.block_strategy(), blocks);
/// assert_eq!(blocks.global_bits(), 15);
/// ```
pub const BLOCK_STATES_1_21_4: u32 = 27_866;
/// Biomes in 1.21.4.
///
/// ```
/// use paletted::{PalettedContainer, Version};
/// use paletted::version::BIOMES_1_21_4;
///
/// let biomes = Version::V1_21_4.biome_strategy();
/// assert_eq!(biomes.registry_size(), BIOMES_1_21_4);
/// // 9 biomes: global, 7 bits an id, 9 ids a long; a count of 8 longs first.
/// let values: Vec<u32> = (0..64).map(|i| i % 9).collect();
/// let mut sent = Vec::new();
/// PalettedContainer::from_values(biomes, &values).write(&mut sent);
/// assert_eq!((&sent[..2], sent.len()), (&[7, 8][..], 2 + 8 * 8));
/// ```
pub const BIOMES_1_21_4: u32 = 65;
/// Block states in 26.1.
///
/// ```
/// use paletted::Strategy;
/// use paletted::version::{BLOCK_STATES_26_1, BLOCK_STATES_26_3};
///
/// // 26.3's new states pass 2^15: a global block state takes a 16th bit.
/// assert_eq!(Strategy::block_states(BLOCK_STATES_26_1).global_bits(), 15);
/// assert_eq!(Strategy::block_states(BLOCK_STATES_26_3).global_bits(), 16);
/// ```
pub const BLOCK_STATES_26_1: u32 = 29_873;
/// Biomes in 26.1.
///
/// ```
/// use paletted::Version;
/// use paletted::version::{BIOMES_26_1, BIOMES_26_3};
///
/// // 26.1 and 26.3 number their biomes alike (as the recorded set has it).
/// assert_eq!(BIOMES_26_1, BIOMES_26_3);
/// assert_eq!(Version::V26_1.biome_strategy().global_bits(), Version::V26_3.biome_strategy().global_bits());
/// ```
pub const BIOMES_26_1: u32 = 65;
/// Block states in 26.3.
///
/// ```
/// use paletted::{Configuration, PaletteKind, Strategy, Version};
/// use paletted::version::BLOCK_STATES_26_3;
///
/// let blocks = Strategy::block_states(BLOCK_STATES_26_3);
/// assert_eq!(blocks, Version::V26_3.block_strategy());
/// // Past the 8-bit hash map, every value is its 16-bit registry id.
/// let global = Configuration { kind: PaletteKind::Global, bits: 16, disk_bits: 9 };
/// assert_eq!(blocks.configuration(9), global);
/// ```
pub const BLOCK_STATES_26_3: u32 = 35_723;
/// Biomes in 26.3, as the recorded set uses them (minecraft-data has no
/// 26.3 biomes; the versions page thinks 66 or more likely, not confirmed).
///
/// ```
/// use paletted::PaletteKind::{Global, Linear, Single};
/// use paletted::Strategy;
/// use paletted::version::BIOMES_26_3;
///
/// let biomes = Strategy::biomes(BIOMES_26_3);
/// let ladder: Vec<_> = (0..=4).map(|b| biomes.configuration(b)).map(|c| (c.kind, c.bits)).collect();
/// assert_eq!(ladder, [(Single, 0), (Linear, 1), (Linear, 2), (Linear, 3), (Global, 7)]);
/// ```
pub const BIOMES_26_3: u32 = 65;

/// How the containers of a run of releases behave where releases differ.
/// Everything not named here is the same from 1.18 to 26.3: the palette
/// ladder, growth and resize order, `pack`, bit storage, `count` order.
///
/// Six runs, each named after a release in it (the versions page,
/// "What changes, version by version"), oldest first, so that they compare
/// in release order: the long count leaves the wire at 1.21.5; at 1.21.9
/// the saved form declares its bits and a global configuration remembers its
/// bits byte; a section sends a second counter from 26.1; `fill` comes at 26.3.
///
/// ```
/// use paletted::{Rules, Version};
///
/// let named = |name: &str| Version::named(name).unwrap().rules();
/// assert_eq!(named("1.18"), Rules::V1_18_2);
/// assert_eq!(named("1.21.4"), Rules::V1_20_2);
/// assert_eq!(named("1.21.8"), Rules::V1_21_5);
/// assert_eq!(named("1.21.11"), Rules::V1_21_9);
/// assert_eq!(named("26.2"), Rules::V26_1);
/// assert_eq!(Rules::default(), Rules::V26_3);
/// assert!(Rules::V1_21_5 < Rules::V26_3);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
#[non_exhaustive]
pub enum Rules {
    /// 1.18 to 1.20.1: the long array counted on the wire, the
    /// `getSerializedSize` bug, global configurations equal whatever their
    /// bits byte, no `fill`, no declared bit count, one counter a section.
    V1_18_2,
    /// 1.20.2 to 1.21.4: as 1.18.2 but with the serialized size fixed
    /// (snapshot 23w31a).
    V1_20_2,
    /// 1.21.5 to 1.21.8: as 1.20.2 but with no long count on the wire.
    V1_21_5,
    /// 1.21.9 to 1.21.11: `Strategy` at the top level; the saved form
    /// declares its bit count and a global configuration remembers its bits
    /// byte.
    V1_21_9,
    /// 26.1 to 26.2: as 1.21.9, and a section sends its fluid count too.
    V26_1,
    /// 26.3: as 26.1, with `BitStorage.fill`.
    #[default]
    V26_3,
}

impl Rules {
    /// Every run, oldest first.
    ///
    /// ```
    /// use paletted::Rules;
    ///
    /// assert_eq!(Rules::ALL.len(), 6);
    /// assert!(Rules::ALL.windows(2).all(|w| w[0] < w[1]));
    /// ```
    pub const ALL: [Rules; 6] = [
        Rules::V1_18_2,
        Rules::V1_20_2,
        Rules::V1_21_5,
        Rules::V1_21_9,
        Rules::V26_1,
        Rules::V26_3,
    ];

    /// The releases these rules cover, for messages.
    ///
    /// ```
    /// use paletted::{BitStorage, Rules};
    ///
    /// assert_eq!(Rules::V1_20_2.span(), "1.20.2 to 1.21.4");
    /// let err = BitStorage::new(4, 4096).try_fill_in(Rules::V1_18_2, 1).unwrap_err();
    /// assert_eq!(err.to_string(), "fill does not exist in 1.18 to 1.20.1");
    /// ```
    pub const fn span(self) -> &'static str {
        match self {
            Rules::V1_18_2 => "1.18 to 1.20.1",
            Rules::V1_20_2 => "1.20.2 to 1.21.4",
            Rules::V1_21_5 => "1.21.5 to 1.21.8",
            Rules::V1_21_9 => "1.21.9 to 1.21.11",
            Rules::V26_1 => "26.1 to 26.2",
            Rules::V26_3 => "26.3",
        }
    }

    /// Whether a VarInt count of longs comes between the palette and the
    /// longs on the wire (up to 1.21.4).
    ///
    /// Reading such a count, Minecraft takes the longs into the storage only
    /// when the count is the storage's length. A count of more than the
    /// unread bytes over 8 (measured before the count) fails with netty's
    /// `DecoderException`, after an in-place read has already overwritten
    /// the palette; any other count reads that many longs and drops them, so
    /// the new palette lies over the old storage (in place) or zeroed
    /// storage (a fresh configuration), with no error.
    /// [`PalettedContainer::read_lenient`](crate::PalettedContainer::read_lenient)
    /// does exactly that; [`PalettedContainer::read`](crate::PalettedContainer::read)
    /// refuses every count but the storage's length.
    ///
    /// ```
    /// use paletted::{PalettedContainer, Rules, Strategy};
    ///
    /// assert!(Rules::V1_20_2.long_count() && !Rules::V1_21_5.long_count());
    /// let biomes = Strategy::biomes(65).with_rules(Rules::V1_20_2);
    /// let mut sent = Vec::new();
    /// PalettedContainer::new(7, biomes).write(&mut sent);
    /// assert_eq!(sent, [0, 7, 0]); // the bits, the biome, a count of no longs
    /// // A count of 1 where the storage holds none, and no long after it.
    /// let mut c = PalettedContainer::new(0, biomes);
    /// let err = c.read_lenient(&[0, 9, 1]).unwrap_err();
    /// assert_eq!(err.to_string(), "LongArray with size 1 is bigger than allowed 0");
    /// assert_eq!(c.get(0, 0, 0), 9); // the palette was read in place first
    /// ```
    pub const fn long_count(self) -> bool {
        matches!(self, Rules::V1_18_2 | Rules::V1_20_2)
    }

    /// Whether `getSerializedSize` has the bug of 1.20.1 and before: it adds
    /// the VarInt size of the number of values (4,096 or 64) instead of that
    /// of the long count, and counts a byte for the global palette, which
    /// writes none. [`PalettedContainer::serialized_size`] gives what
    /// Minecraft computes, so here it is not the written length.
    ///
    /// [`PalettedContainer::serialized_size`]: crate::PalettedContainer::serialized_size
    ///
    /// ```
    /// use paletted::{PalettedContainer, Rules, Strategy};
    ///
    /// assert!(Rules::V1_18_2.serialized_size_bug() && !Rules::V1_20_2.serialized_size_bug());
    /// let blocks = Strategy::block_states(24_135);
    /// let c = PalettedContainer::new(1, blocks.with_rules(Rules::V1_18_2));
    /// let mut sent = Vec::new();
    /// c.write(&mut sent);
    /// assert_eq!(sent, [0, 1, 0]);
    /// // The VarInt of 4,096 (two bytes) counted, not that of 0 longs (one).
    /// assert_eq!(c.serialized_size(), 4);
    /// ```
    pub const fn serialized_size_bug(self) -> bool {
        matches!(self, Rules::V1_18_2)
    }

    /// Whether every global configuration equals every other whatever bits
    /// byte selected it (up to 1.21.8), so that a wire read of any byte past
    /// the palette widths reuses a global container in place. From 1.21.9 a
    /// global configuration remembers its byte.
    ///
    /// ```
    /// use paletted::{Rules, Strategy};
    ///
    /// // Bits bytes 9 and 33 both select the global palette of 15-bit ids.
    /// let blocks = Strategy::block_states(24_135);
    /// let (a, b) = (blocks.configuration(9), blocks.configuration(33));
    /// assert_eq!((a.bits, b.bits), (15, 15));
    /// assert_ne!(a, b); // each keeps its byte as `disk_bits`
    /// assert!(Rules::V1_21_5.global_configurations_equal());
    /// assert!(Rules::V1_21_5.same_configuration(a, b));
    /// assert!(!Rules::V1_21_9.global_configurations_equal());
    /// ```
    pub const fn global_configurations_equal(self) -> bool {
        matches!(self, Rules::V1_18_2 | Rules::V1_20_2 | Rules::V1_21_5)
    }

    /// Whether two configurations are equal, as these versions compare them.
    ///
    /// ```
    /// use paletted::{Rules, Strategy};
    ///
    /// let blocks = Strategy::block_states(35_723);
    /// // Bits 1 to 4 all select the 4-bit linear palette; 5 a hash map.
    /// assert!(Rules::V26_3.same_configuration(blocks.configuration(1), blocks.configuration(4)));
    /// assert!(!Rules::V26_3.same_configuration(blocks.configuration(4), blocks.configuration(5)));
    /// // Two global ones: the same up to 1.21.8 whatever the byte, not after.
    /// let (a, b) = (blocks.configuration(9), blocks.configuration(16));
    /// assert!(Rules::V1_18_2.same_configuration(a, b));
    /// assert!(!Rules::V26_3.same_configuration(a, b));
    /// ```
    pub fn same_configuration(self, a: Configuration, b: Configuration) -> bool {
        a == b
            || (self.global_configurations_equal()
                && a.kind == PaletteKind::Global
                && b.kind == PaletteKind::Global
                && a.bits == b.bits)
    }

    /// Whether `BitStorage.fill` exists (26.3 only, where it spreads the
    /// value over the whole long; 26.1 to 26.2 have none).
    ///
    /// ```
    /// use paletted::{BitStorage, Rules};
    ///
    /// let mut s = BitStorage::new(4, 4096);
    /// assert!(!Rules::V26_1.has_fill());
    /// let err = s.try_fill_in(Rules::V26_1, 9).unwrap_err();
    /// assert_eq!(err.to_string(), "fill does not exist in 26.1 to 26.2");
    /// assert_eq!(s.longs()[0], 0);
    /// assert!(Rules::V26_3.has_fill());
    /// s.try_fill_in(Rules::V26_3, 9).unwrap();
    /// assert_eq!(s.longs()[0] as u64, 0x9999_9999_9999_9999);
    /// ```
    pub const fn has_fill(self) -> bool {
        matches!(self, Rules::V26_3)
    }

    /// Whether the saved form declares its bit count, so that a mismatch is
    /// the error `Invalid bit count, calculated X, but container declared Y`
    /// (from 1.21.9; before, `pack` saves none and Minecraft's `unpack`,
    /// [`unpack_lenient`](crate::PalettedContainer::unpack_lenient) here, checks
    /// none; the strict `unpack` refuses a mismatch in every version).
    ///
    /// ```
    /// use paletted::{Packed, PalettedContainer, Rules, Version};
    ///
    /// assert!(Rules::V1_21_9.declares_bits() && !Rules::V1_21_5.declares_bits());
    /// let values: Vec<u32> = (0..4096).map(|i| i % 2).collect();
    /// let new = PalettedContainer::from_values(Version::V26_3.block_strategy(), &values);
    /// let old = PalettedContainer::from_values(Version::V1_20_1.block_strategy(), &values);
    /// assert_eq!((new.pack().bits, old.pack().bits), (4, -1));
    /// let wrong = Packed { bits: 5, ..new.pack() };
    /// let err = PalettedContainer::unpack_lenient(new.strategy(), wrong.clone()).unwrap_err();
    /// assert_eq!(err.to_string(), "Invalid bit count, calculated 4, but container declared 5");
    /// assert!(PalettedContainer::unpack_lenient(old.strategy(), wrong).is_ok());
    /// ```
    pub const fn declares_bits(self) -> bool {
        matches!(self, Rules::V1_21_9 | Rules::V26_1 | Rules::V26_3)
    }

    /// Whether a chunk section sends the fluid count after the non-empty
    /// block count (from 26.1; the versions page puts the second short in a
    /// 26.1 snapshot, DataVersion 4779).
    ///
    /// ```
    /// use paletted::{PalettedContainer, Section, StateTable, Version};
    ///
    /// let v = Version::V1_20_1;
    /// assert!(!v.rules().fluid_count());
    /// let kinds = StateTable::new(&[0], &[]);
    /// let blocks = PalettedContainer::new(1, v.block_strategy());
    /// let section = Section::new(blocks, PalettedContainer::new(0, v.biome_strategy()), &kinds).unwrap();
    /// let mut sent = Vec::new();
    /// section.write(&mut sent);
    /// // 4,096 non-air blocks, then at once the block states' bits byte.
    /// assert_eq!(&sent[..3], &[0x10, 0x00, 0]);
    /// ```
    pub const fn fluid_count(self) -> bool {
        matches!(self, Rules::V26_1 | Rules::V26_3)
    }
}

/// A Minecraft release: its name, DataVersion, protocol, registry sizes
/// and rules.
///
/// ```
/// use paletted::{PalettedContainer, Version};
///
/// let v = Version::V1_20_1;
/// assert_eq!((v.block_states(), v.biomes(), v.protocol()), (24_135, 64, 763));
/// // 1.20.1 sends a VarInt count of longs (256) before the longs.
/// let mut c = PalettedContainer::new(0, v.block_strategy());
/// c.set(0, 0, 0, 1);
/// let mut sent = Vec::new();
/// c.write(&mut sent);
/// assert_eq!(&sent[..6], &[4, 2, 0, 1, 0x80, 0x02]);
/// assert_eq!(sent.len(), 6 + 256 * 8);
/// assert_eq!(Version::default(), Version::V26_3);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Version {
    name: &'static str,
    data_version: u32,
    protocol: u32,
    block_states: u32,
    biomes: u32,
    rules: Rules,
}

/// One row of the versions page's table.
const fn row(
    name: &'static str,
    data_version: u32,
    protocol: u32,
    block_states: u32,
    biomes: u32,
    rules: Rules,
) -> Version {
    Version::new(name, data_version, protocol, block_states, biomes, rules)
}

impl Version {
    /// Every release from 1.18 to 26.3, oldest first: the versions page's
    /// table (`minecraft-versions.md`, from minecraft-data 3.119.0 and, for
    /// 26.2 and 26.3, its repository). 26.3's biomes are the recorded set's
    /// 65 ([`BIOMES_26_3`]).
    ///
    /// ```
    /// use paletted::Version;
    ///
    /// assert_eq!(Version::ALL.len(), 32);
    /// assert_eq!(Version::ALL[0].name(), "1.18");
    /// assert_eq!(Version::ALL.last(), Some(&Version::LATEST));
    /// assert!(Version::ALL.windows(2).all(|w| w[0].data_version() < w[1].data_version()));
    /// ```
    pub const ALL: [Version; 32] = {
        use Rules::*;
        [
            row("1.18", 2860, 757, 20_342, 61, V1_18_2),
            row("1.18.1", 2865, 757, 20_342, 61, V1_18_2),
            row(
                "1.18.2",
                2975,
                758,
                BLOCK_STATES_1_18_2,
                BIOMES_1_18_2,
                V1_18_2,
            ),
            row("1.19", 3105, 759, 21_448, 63, V1_18_2),
            row("1.19.1", 3117, 760, 21_448, 63, V1_18_2),
            row("1.19.2", 3120, 760, 21_448, 63, V1_18_2),
            row("1.19.3", 3218, 761, 23_232, 63, V1_18_2),
            row(
                "1.19.4",
                3337,
                762,
                BLOCK_STATES_1_19_4,
                BIOMES_1_19_4,
                V1_18_2,
            ),
            row("1.20", 3463, 763, 24_135, 64, V1_18_2),
            row(
                "1.20.1",
                3465,
                763,
                BLOCK_STATES_1_20_1,
                BIOMES_1_20_1,
                V1_18_2,
            ),
            row("1.20.2", 3578, 764, 24_276, 64, V1_20_2),
            row("1.20.3", 3698, 765, 26_644, 64, V1_20_2),
            row("1.20.4", 3700, 765, 26_644, 64, V1_20_2),
            row("1.20.5", 3837, 766, 26_684, 64, V1_20_2),
            row("1.20.6", 3839, 766, 26_684, 64, V1_20_2),
            row("1.21", 3953, 767, 26_684, 64, V1_20_2),
            row("1.21.1", 3955, 767, 26_684, 64, V1_20_2),
            row("1.21.2", 4080, 768, 27_318, 65, V1_20_2),
            row("1.21.3", 4082, 768, 27_318, 65, V1_20_2),
            row(
                "1.21.4",
                4189,
                769,
                BLOCK_STATES_1_21_4,
                BIOMES_1_21_4,
                V1_20_2,
            ),
            row("1.21.5", 4325, 770, 27_914, 65, V1_21_5),
            row("1.21.6", 4435, 771, 27_946, 65, V1_21_5),
            row("1.21.7", 4438, 772, 27_946, 65, V1_21_5),
            row("1.21.8", 4440, 772, 27_946, 65, V1_21_5),
            row("1.21.9", 4554, 773, 29_671, 65, V1_21_9),
            row("1.21.10", 4556, 773, 29_671, 65, V1_21_9),
            row("1.21.11", 4671, 774, 29_671, 65, V1_21_9),
            row("26.1", 4786, 775, BLOCK_STATES_26_1, BIOMES_26_1, V26_1),
            row("26.1.1", 4788, 775, 29_873, 65, V26_1),
            row("26.1.2", 4790, 775, 29_873, 65, V26_1),
            row("26.2", 4903, 776, 32_366, 66, V26_1),
            row("26.3", 5023, 777, BLOCK_STATES_26_3, BIOMES_26_3, V26_3),
        ]
    };

    /// 1.18.2 (DataVersion 2975).
    ///
    /// ```
    /// use paletted::{Rules, Version};
    ///
    /// let v = Version::V1_18_2;
    /// assert_eq!((v.name(), v.data_version(), v.rules()), ("1.18.2", 2975, Rules::V1_18_2));
    /// assert_eq!((v.block_states(), v.biomes()), (20_342, 61));
    /// ```
    pub const V1_18_2: Version = Version::ALL[2];
    /// 1.19.4 (DataVersion 3337).
    ///
    /// ```
    /// use paletted::Version;
    ///
    /// let v = Version::V1_19_4;
    /// assert_eq!((v.name(), v.data_version()), ("1.19.4", 3337));
    /// // 1.18.2's rules over larger registries.
    /// assert_eq!(v.rules(), Version::V1_18_2.rules());
    /// assert_eq!((v.block_states(), v.biomes()), (23_725, 63));
    /// ```
    pub const V1_19_4: Version = Version::ALL[7];
    /// 1.20.1 (DataVersion 3465), valence's version.
    ///
    /// ```
    /// use paletted::{Rules, Version};
    ///
    /// let v = Version::V1_20_1;
    /// assert_eq!(Version::named("1.20.1"), Some(v));
    /// assert_eq!(Version::for_data_version(3465), Some(v));
    /// assert_eq!(v.rules(), Rules::V1_18_2);
    /// ```
    pub const V1_20_1: Version = Version::ALL[9];
    /// 1.21.4 (DataVersion 4189), the last of the [`Rules::V1_20_2`]
    /// releases.
    ///
    /// ```
    /// use paletted::{PalettedContainer, Rules, Version};
    ///
    /// let v = Version::V1_21_4;
    /// assert_eq!((v.data_version(), v.rules()), (4189, Rules::V1_20_2));
    /// // Fixed since 1.20.2: the size computed is the length written.
    /// let c = PalettedContainer::new(1, v.block_strategy());
    /// let mut sent = Vec::new();
    /// c.write(&mut sent);
    /// assert_eq!((sent.len(), c.serialized_size()), (3, 3));
    /// ```
    pub const V1_21_4: Version = Version::ALL[19];
    /// 26.1 (DataVersion 4786).
    ///
    /// ```
    /// use paletted::{PalettedContainer, Version};
    ///
    /// let v = Version::V26_1;
    /// assert_eq!((v.data_version(), v.block_states(), v.biomes()), (4786, 29_873, 65));
    /// // No long count: one value is its bits byte and its id.
    /// let mut sent = Vec::new();
    /// PalettedContainer::new(1, v.block_strategy()).write(&mut sent);
    /// assert_eq!(sent, [0, 1]);
    /// ```
    pub const V26_1: Version = Version::ALL[27];
    /// 26.3 (DataVersion 5023), the recorded set's version.
    ///
    /// ```
    /// use paletted::{Strategy, Version};
    ///
    /// let v = Version::V26_3;
    /// assert_eq!((v.name(), v.data_version()), ("26.3", 5023));
    /// assert_eq!(v.block_strategy(), Strategy::block_states(35_723));
    /// assert_eq!(v.biome_strategy(), Strategy::biomes(65));
    /// ```
    pub const V26_3: Version = Version::ALL[31];
    /// The newest version covered, and the default: 26.3.
    ///
    /// ```
    /// use paletted::Version;
    ///
    /// assert_eq!(Version::LATEST, Version::V26_3);
    /// assert_eq!(Version::default(), Version::LATEST);
    /// ```
    pub const LATEST: Version = Version::V26_3;

    /// A version of these registry sizes following `rules`: a server's own
    /// registries, or a release this table does not have.
    ///
    /// ```
    /// use paletted::{Rules, Version};
    ///
    /// // A modded 26.3 server's registries: 40,000 states still take 16 bits.
    /// const MODDED: Version = Version::new("26.3-modded", 5023, 777, 40_000, 70, Rules::V26_3);
    /// assert_eq!(MODDED.block_strategy().global_bits(), 16);
    /// assert_eq!(MODDED.biome_strategy().global_bits(), 7);
    /// // Only the table's releases are found by DataVersion.
    /// assert_eq!(Version::for_data_version(5023), Some(Version::V26_3));
    /// ```
    ///
    /// # Panics
    /// If either registry is empty (at compile time, in a constant).
    pub const fn new(
        name: &'static str,
        data_version: u32,
        protocol: u32,
        block_states: u32,
        biomes: u32,
        rules: Rules,
    ) -> Version {
        assert!(
            block_states > 0 && biomes > 0,
            "a registry needs at least one value"
        );
        Version {
            name,
            data_version,
            protocol,
            block_states,
            biomes,
            rules,
        }
    }

    /// The release called `name` ("1.20.1", "26.3"); `name.parse()` gives
    /// an error listing the releases there are instead of `None`.
    ///
    /// ```
    /// use paletted::Version;
    ///
    /// assert_eq!(Version::named("26.3"), Some(Version::V26_3));
    /// assert_eq!(Version::named("1.21.6").map(|v| v.data_version()), Some(4435));
    /// assert_eq!(Version::named("1.21.12"), None);
    /// ```
    pub fn named(name: &str) -> Option<Version> {
        Version::ALL.into_iter().find(|v| v.name == name)
    }

    /// The release saved with this DataVersion, if one is.
    ///
    /// ```
    /// use paletted::Version;
    ///
    /// // A chunk saved with DataVersion 3465 is 1.20.1's.
    /// assert_eq!(Version::for_data_version(3465).map(|v| v.name()), Some("1.20.1"));
    /// assert_eq!(Version::for_data_version(3466), None);
    /// ```
    pub fn for_data_version(data_version: u32) -> Option<Version> {
        Version::ALL
            .into_iter()
            .find(|v| v.data_version == data_version)
    }

    /// The release that speaks this protocol, if one does. Where releases
    /// share a protocol (757: 1.18 and 1.18.1), the newest of them: the one
    /// a server of that protocol most likely runs. Releases sharing a
    /// protocol share their registries and rules, so for containers the
    /// choice does not matter.
    ///
    /// ```
    /// use paletted::Version;
    ///
    /// assert_eq!(Version::for_protocol(757).map(|v| v.name()), Some("1.18.1"));
    /// assert_eq!(Version::for_protocol(763), Some(Version::V1_20_1));
    /// assert_eq!(Version::for_protocol(756), None);
    /// ```
    pub fn for_protocol(protocol: u32) -> Option<Version> {
        Version::ALL.into_iter().rfind(|v| v.protocol == protocol)
    }

    /// The release's name.
    ///
    /// ```
    /// use paletted::Version;
    ///
    /// assert_eq!(Version::V1_21_4.name(), "1.21.4");
    /// assert_eq!(Version::V1_21_4.to_string(), "1.21.4");
    /// ```
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// The DataVersion its saves carry.
    ///
    /// ```
    /// use paletted::Version;
    ///
    /// assert_eq!(Version::V1_18_2.data_version(), 2975);
    /// ```
    pub const fn data_version(&self) -> u32 {
        self.data_version
    }

    /// The protocol number its clients and servers speak.
    ///
    /// ```
    /// use paletted::Version;
    ///
    /// assert_eq!((Version::V1_18_2.protocol(), Version::V26_3.protocol()), (758, 777));
    /// ```
    pub const fn protocol(&self) -> u32 {
        self.protocol
    }

    /// Block states: the highest state id + 1.
    ///
    /// ```
    /// use paletted::{PalettedContainer, Version};
    ///
    /// let v = Version::V1_20_1;
    /// assert_eq!(v.block_states(), 24_135);
    /// let mut c = PalettedContainer::new(0, v.block_strategy());
    /// assert_eq!(c.try_set(0, 0, 0, 24_134), Ok(()));
    /// let err = c.try_set(0, 0, 0, 24_135).unwrap_err();
    /// assert_eq!(err.to_string(), "Registry id 24135 is not below the registry size 24135");
    /// ```
    pub const fn block_states(&self) -> u32 {
        self.block_states
    }

    /// Biomes: the registry's length.
    ///
    /// ```
    /// use paletted::Version;
    ///
    /// let biomes = [Version::V1_18_2, Version::V1_19_4, Version::V1_20_1, Version::V1_21_4]
    ///     .map(|v| v.biomes());
    /// assert_eq!(biomes, [61, 63, 64, 65]);
    /// ```
    pub const fn biomes(&self) -> u32 {
        self.biomes
    }

    /// How its containers behave.
    ///
    /// ```
    /// use paletted::{Rules, Version};
    ///
    /// assert_eq!(Version::V1_21_4.rules(), Rules::V1_20_2);
    /// assert!(Version::V1_21_4.rules().long_count());
    /// assert!(!Version::V26_1.rules().long_count());
    /// ```
    pub const fn rules(&self) -> Rules {
        self.rules
    }

    /// The strategy of a section's block states in this version.
    ///
    /// ```
    /// use paletted::{Rules, Version};
    ///
    /// let blocks = Version::V1_20_1.block_strategy();
    /// assert_eq!((blocks.size(), blocks.registry_size(), blocks.global_bits()), (4096, 24_135, 15));
    /// assert_eq!(blocks.rules(), Rules::V1_18_2);
    /// ```
    pub fn block_strategy(&self) -> Strategy {
        Strategy::block_states(self.block_states).with_rules(self.rules)
    }

    /// The strategy of a section's biomes in this version.
    ///
    /// ```
    /// use paletted::{Rules, Version};
    ///
    /// let biomes = Version::V1_18_2.biome_strategy();
    /// assert_eq!((biomes.size(), biomes.registry_size(), biomes.global_bits()), (64, 61, 6));
    /// assert_eq!(biomes.rules(), Rules::V1_18_2);
    /// ```
    pub fn biome_strategy(&self) -> Strategy {
        Strategy::biomes(self.biomes).with_rules(self.rules)
    }
}

impl Default for Version {
    /// [`Version::LATEST`].
    fn default() -> Version {
        Version::LATEST
    }
}

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

impl std::str::FromStr for Version {
    type Err = UnknownVersion;

    /// [`Version::named`], or an error listing every release.
    fn from_str(name: &str) -> Result<Version, UnknownVersion> {
        Version::named(name).ok_or_else(|| UnknownVersion::Name(name.to_owned()))
    }
}

/// A release the table does not have, asked for by name, DataVersion or
/// protocol. Its message lists what the table does have, so that a typo or
/// a too-new release shows at once.
///
/// ```
/// use paletted::version::UnknownVersion;
/// use paletted::Version;
///
/// let err = "1.21.12".parse::<Version>().unwrap_err();
/// assert_eq!(err, UnknownVersion::Name("1.21.12".into()));
/// assert!(err.to_string().starts_with("unknown version `1.21.12` (known: 1.18, 1.18.1, 1.18.2,"));
/// assert!(err.to_string().ends_with(", 26.2, 26.3)"));
/// let by_dv = Version::for_data_version(3466).ok_or(UnknownVersion::DataVersion(3466));
/// assert!(by_dv.unwrap_err().to_string().contains("3465 (1.20.1), 3578 (1.20.2)"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum UnknownVersion {
    /// No release has this name.
    Name(String),
    /// No release saves this DataVersion.
    DataVersion(u32),
    /// No release speaks this protocol.
    Protocol(u32),
}

impl std::fmt::Display for UnknownVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (number, of): (u32, fn(&Version) -> u32) = match self {
            UnknownVersion::Name(name) => {
                write!(f, "unknown version `{name}` (known: ")?;
                for (i, v) in Version::ALL.iter().enumerate() {
                    let sep = if i == 0 { "" } else { ", " };
                    write!(f, "{sep}{v}")?;
                }
                return f.write_str(")");
            }
            UnknownVersion::DataVersion(n) => (*n, Version::data_version),
            UnknownVersion::Protocol(n) => (*n, Version::protocol),
        };
        let what = match self {
            UnknownVersion::Protocol(_) => "protocol",
            _ => "DataVersion",
        };
        write!(f, "no known version has {what} {number} (known: ")?;
        // One entry a number, naming its newest release (as `for_protocol`
        // does where releases share a protocol).
        let mut first = true;
        for (i, v) in Version::ALL.iter().enumerate() {
            let newest_of_number = Version::ALL.get(i + 1).is_none_or(|n| of(n) != of(v));
            if newest_of_number {
                let sep = if first { "" } else { ", " };
                write!(f, "{sep}{} ({v})", of(v))?;
                first = false;
            }
        }
        f.write_str(")")
    }
}

impl std::error::Error for UnknownVersion {}

/// `error`, from a strict read of bytes in the wire form of `blocks` and
/// `biomes`, with the releases whose wire form reads the same bytes whole
/// ([`Error::OtherVersion`]) when there are any: `reads_whole` says whether
/// a release's does (and gives the same bytes back when written). A release is tried only where its wire form differs
/// from the one read (the long count, the fluid count, the registry sizes,
/// which a strict read checks ids against), and each form once.
pub(crate) fn hint(
    error: Error,
    blocks: Strategy,
    biomes: Strategy,
    reads_whole: impl Fn(Version) -> bool,
) -> Error {
    let form = |rules: Rules, blocks: Strategy, biomes: Strategy| {
        let wire = (rules.long_count(), rules.fluid_count());
        (wire, blocks.registry_size(), biomes.registry_size())
    };
    let tried = form(blocks.rules(), blocks, biomes);
    let mut known: Vec<(_, bool)> = Vec::new();
    let mut fits: Vec<(Version, Version)> = Vec::new();
    let mut last_fit = false;
    for v in Version::ALL {
        let key = form(v.rules, v.block_strategy(), v.biome_strategy());
        let fit = key != tried
            && match known.iter().find(|(k, _)| *k == key) {
                Some(&(_, fit)) => fit,
                None => {
                    let fit = reads_whole(v);
                    known.push((key, fit));
                    fit
                }
            };
        match fits.last_mut() {
            Some((_, last)) if fit && last_fit => *last = v,
            _ if fit => fits.push((v, v)),
            _ => {}
        }
        last_fit = fit;
    }
    if fits.is_empty() {
        return error;
    }
    Error::OtherVersion {
        error: Box::new(error),
        read_as: blocks.rules(),
        fits,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn global_widths_are_the_pages() {
        // Blocks 15 bits up to 26.2 and 16 in 26.3; biomes 6 bits up to
        // 1.21.1 and 7 from 1.21.2.
        for v in Version::ALL {
            let blocks = if v.rules == Rules::V26_3 { 16 } else { 15 };
            let biomes = if v.data_version < 4080 { 6 } else { 7 };
            assert_eq!(v.block_strategy().global_bits(), blocks, "{v}");
            assert_eq!(v.biome_strategy().global_bits(), biomes, "{v}");
        }
    }

    #[test]
    fn global_configurations_compare_by_byte_from_1_21_9() {
        let s = Version::V1_20_1.block_strategy();
        let (a, b) = (s.configuration(9), s.configuration(33));
        assert_ne!(a, b);
        for rules in Rules::ALL {
            assert_eq!(rules.same_configuration(a, b), rules < Rules::V1_21_9);
        }
        let (l, h) = (s.configuration(4), s.configuration(5));
        assert!(!Rules::V1_18_2.same_configuration(l, h));
        assert!(Rules::V1_18_2.same_configuration(l, s.configuration(1)));
    }
}
