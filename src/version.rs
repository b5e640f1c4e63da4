//! Minecraft versions from 1.18.2 to 26.3, as data: each one's registry
//! sizes and the rules its containers follow where versions differ.
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

use crate::{Configuration, PaletteKind, Strategy};

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
/// // 26.1 and 26.3 keep their biomes in the same containers.
/// assert_eq!(BIOMES_26_1, BIOMES_26_3);
/// assert_eq!(Version::V26_1.biome_strategy(), Version::V26_3.biome_strategy());
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
/// Biomes in 26.3, as the recorded set uses them (the versions page gives
/// 65 to 67, not confirmed).
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

/// How the containers of a run of versions behave where versions differ.
/// Everything not named here is the same from 1.18.2 to 26.3: the palette
/// ladder, growth and resize order, `pack`, bit storage, `count` order.
///
/// Versions from 1.21.5 to the last 1.21.x are not covered: the long count
/// left the wire somewhere between 1.21.5 and 1.21.7, and which of the
/// other 26.x rules they follow is not known here.
///
/// ```
/// use paletted::{Rules, Version};
///
/// let rules: Vec<Rules> = Version::ALL.iter().map(|v| v.rules()).collect();
/// assert_eq!(
///     rules,
///     [Rules::V1_18_2, Rules::V1_18_2, Rules::V1_18_2, Rules::V1_20_2, Rules::V26_1, Rules::V26_1]
/// );
/// assert_eq!(Rules::default(), Rules::V26_1);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(u8)]
#[non_exhaustive]
pub enum Rules {
    /// 1.18.2 to 1.20.1: the long array counted on the wire, the
    /// `getSerializedSize` bug, global configurations equal whatever their
    /// bits byte, no `fill`, no declared bit count, one counter a section.
    V1_18_2,
    /// 1.20.2 to 1.21.4: as 1.18.2 but with the serialized size fixed
    /// (snapshot 23w31a).
    V1_20_2,
    /// 26.x (26.1 and 26.3): no long count, the exact size, a global
    /// configuration per bits byte, `fill`, a declared bit count on disk,
    /// two counters a section.
    #[default]
    V26_1,
}

impl Rules {
    /// The versions these rules cover, for messages.
    ///
    /// ```
    /// use paletted::{BitStorage, Rules};
    ///
    /// assert_eq!(Rules::V1_20_2.span(), "1.20.2 to 1.21.4");
    /// let err = BitStorage::new(4, 4096).try_fill_in(Rules::V1_18_2, 1).unwrap_err();
    /// assert_eq!(err.to_string(), "fill does not exist in 1.18.2 to 1.20.1");
    /// ```
    pub const fn span(self) -> &'static str {
        match self {
            Rules::V1_18_2 => "1.18.2 to 1.20.1",
            Rules::V1_20_2 => "1.20.2 to 1.21.4",
            Rules::V26_1 => "26.x",
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
    /// assert!(Rules::V1_20_2.long_count() && !Rules::V26_1.long_count());
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
        !matches!(self, Rules::V26_1)
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
    /// byte selected it (up to 1.21.4), so that a wire read of any byte past
    /// the palette widths reuses a global container in place. From 26.x a
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
    /// assert!(Rules::V1_20_2.global_configurations_equal());
    /// assert!(Rules::V1_20_2.same_configuration(a, b));
    /// assert!(!Rules::V26_1.global_configurations_equal());
    /// ```
    pub const fn global_configurations_equal(self) -> bool {
        !matches!(self, Rules::V26_1)
    }

    /// Whether two configurations are equal, as these versions compare them.
    ///
    /// ```
    /// use paletted::{Rules, Strategy};
    ///
    /// let blocks = Strategy::block_states(35_723);
    /// // Bits 1 to 4 all select the 4-bit linear palette; 5 a hash map.
    /// assert!(Rules::V26_1.same_configuration(blocks.configuration(1), blocks.configuration(4)));
    /// assert!(!Rules::V26_1.same_configuration(blocks.configuration(4), blocks.configuration(5)));
    /// // Two global ones: the same up to 1.21.4 whatever the byte, not in 26.x.
    /// let (a, b) = (blocks.configuration(9), blocks.configuration(16));
    /// assert!(Rules::V1_18_2.same_configuration(a, b));
    /// assert!(!Rules::V26_1.same_configuration(a, b));
    /// ```
    pub fn same_configuration(self, a: Configuration, b: Configuration) -> bool {
        a == b
            || (self.global_configurations_equal()
                && a.kind == PaletteKind::Global
                && b.kind == PaletteKind::Global
                && a.bits == b.bits)
    }

    /// Whether `BitStorage.fill` exists (26.x only; 26.3 spreads the value
    /// over the whole long, and 26.1 is taken to do the same).
    ///
    /// ```
    /// use paletted::{BitStorage, Rules};
    ///
    /// let mut s = BitStorage::new(4, 4096);
    /// assert!(!Rules::V1_20_2.has_fill());
    /// let err = s.try_fill_in(Rules::V1_20_2, 9).unwrap_err();
    /// assert_eq!(err.to_string(), "fill does not exist in 1.20.2 to 1.21.4");
    /// assert_eq!(s.longs()[0], 0);
    /// assert!(Rules::V26_1.has_fill());
    /// s.try_fill_in(Rules::V26_1, 9).unwrap();
    /// assert_eq!(s.longs()[0] as u64, 0x9999_9999_9999_9999);
    /// ```
    pub const fn has_fill(self) -> bool {
        matches!(self, Rules::V26_1)
    }

    /// Whether the saved form declares its bit count, so that a mismatch is
    /// the error `Invalid bit count, calculated X, but container declared Y`
    /// (26.x only; before, `pack` saves none and Minecraft's `unpack`,
    /// [`unpack_lenient`](crate::PalettedContainer::unpack_lenient) here, checks
    /// none; the strict `unpack` refuses a mismatch in every version).
    ///
    /// ```
    /// use paletted::{Packed, PalettedContainer, Rules, Version};
    ///
    /// assert!(Rules::V26_1.declares_bits() && !Rules::V1_18_2.declares_bits());
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
        matches!(self, Rules::V26_1)
    }

    /// Whether a chunk section sends the fluid count after the non-empty
    /// block count (26.x). The captures of 1.18.2 to 1.20.1 send the block
    /// count alone; the versions page puts the second short after 1.21.4
    /// without pinning the version, so 1.20.2 to 1.21.4 are taken to send
    /// one, as before.
    ///
    /// ```
    /// use paletted::{PalettedContainer, Section, StateTable, Version};
    ///
    /// let v = Version::V1_20_1;
    /// assert!(!v.rules().fluid_count());
    /// let kinds = StateTable::new(&[0], &[]);
    /// let blocks = PalettedContainer::new(1, v.block_strategy());
    /// let section = Section::new(blocks, PalettedContainer::new(0, v.biome_strategy()), &kinds);
    /// let mut sent = Vec::new();
    /// section.write(&mut sent);
    /// // 4,096 non-air blocks, then at once the block states' bits byte.
    /// assert_eq!(&sent[..3], &[0x10, 0x00, 0]);
    /// ```
    pub const fn fluid_count(self) -> bool {
        matches!(self, Rules::V26_1)
    }
}

/// A Minecraft release: its name, DataVersion, registry sizes and rules.
///
/// ```
/// use paletted::{PalettedContainer, Version};
///
/// let v = Version::V1_20_1;
/// assert_eq!((v.block_states(), v.biomes()), (24_135, 64));
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
    block_states: u32,
    biomes: u32,
    rules: Rules,
}

impl Version {
    /// 1.18.2 (DataVersion 2975).
    ///
    /// ```
    /// use paletted::{Rules, Version};
    ///
    /// let v = Version::V1_18_2;
    /// assert_eq!((v.name(), v.data_version(), v.rules()), ("1.18.2", 2975, Rules::V1_18_2));
    /// assert_eq!((v.block_states(), v.biomes()), (20_342, 61));
    /// ```
    pub const V1_18_2: Version = Version::new(
        "1.18.2",
        2975,
        BLOCK_STATES_1_18_2,
        BIOMES_1_18_2,
        Rules::V1_18_2,
    );
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
    pub const V1_19_4: Version = Version::new(
        "1.19.4",
        3337,
        BLOCK_STATES_1_19_4,
        BIOMES_1_19_4,
        Rules::V1_18_2,
    );
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
    pub const V1_20_1: Version = Version::new(
        "1.20.1",
        3465,
        BLOCK_STATES_1_20_1,
        BIOMES_1_20_1,
        Rules::V1_18_2,
    );
    /// 1.21.4 (DataVersion 4189), the last of the [`Rules::V1_20_2`]
    /// versions. Those from 1.20.2 on behave alike and differ in their
    /// registries; for another of them, [`Version::new`] with its sizes.
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
    pub const V1_21_4: Version = Version::new(
        "1.21.4",
        4189,
        BLOCK_STATES_1_21_4,
        BIOMES_1_21_4,
        Rules::V1_20_2,
    );
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
    pub const V26_1: Version =
        Version::new("26.1", 4786, BLOCK_STATES_26_1, BIOMES_26_1, Rules::V26_1);
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
    pub const V26_3: Version =
        Version::new("26.3", 5023, BLOCK_STATES_26_3, BIOMES_26_3, Rules::V26_1);
    /// The newest version covered, and the default: 26.3.
    ///
    /// ```
    /// use paletted::Version;
    ///
    /// assert_eq!(Version::LATEST, Version::V26_3);
    /// assert_eq!(Version::default(), Version::LATEST);
    /// assert_eq!(Version::ALL.last(), Some(&Version::LATEST));
    /// ```
    pub const LATEST: Version = Version::V26_3;
    /// Every named version, oldest first.
    ///
    /// ```
    /// use paletted::Version;
    ///
    /// let names: Vec<&str> = Version::ALL.iter().map(|v| v.name()).collect();
    /// assert_eq!(names, ["1.18.2", "1.19.4", "1.20.1", "1.21.4", "26.1", "26.3"]);
    /// ```
    pub const ALL: [Version; 6] = [
        Version::V1_18_2,
        Version::V1_19_4,
        Version::V1_20_1,
        Version::V1_21_4,
        Version::V26_1,
        Version::V26_3,
    ];

    /// A version of these registry sizes following `rules`: another release
    /// of a covered run (1.19.2, 1.21.1), or a server's own registries.
    ///
    /// ```
    /// use paletted::{Rules, Version};
    ///
    /// // A modded 26.3 server's registries: 40,000 states still take 16 bits.
    /// const MODDED: Version = Version::new("26.3-modded", 5023, 40_000, 70, Rules::V26_1);
    /// assert_eq!(MODDED.block_strategy().global_bits(), 16);
    /// assert_eq!(MODDED.biome_strategy().global_bits(), 7);
    /// // Only the named versions are found by DataVersion.
    /// assert_eq!(Version::for_data_version(5023), Some(Version::V26_3));
    /// ```
    ///
    /// # Panics
    /// If either registry is empty (at compile time, in a constant).
    pub const fn new(
        name: &'static str,
        data_version: u32,
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
            block_states,
            biomes,
            rules,
        }
    }

    /// The named version called `name` ("1.20.1", "26.3").
    ///
    /// ```
    /// use paletted::Version;
    ///
    /// assert_eq!(Version::named("26.3"), Some(Version::V26_3));
    /// // 1.21.5 to the last 1.21.x are not covered.
    /// assert_eq!(Version::named("1.21.5"), None);
    /// ```
    pub fn named(name: &str) -> Option<Version> {
        Version::ALL.into_iter().find(|v| v.name == name)
    }

    /// The named version saved with this DataVersion, if one is.
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
    /// assert!(Version::ALL.windows(2).all(|w| w[0].data_version() < w[1].data_version()));
    /// ```
    pub const fn data_version(&self) -> u32 {
        self.data_version
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
    /// let biomes = Version::ALL.map(|v| v.biomes());
    /// assert_eq!(biomes, [61, 63, 64, 65, 65, 65]);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn global_widths_are_the_pages() {
        let widths: Vec<_> = Version::ALL
            .iter()
            .map(|v| {
                (
                    v.block_strategy().global_bits(),
                    v.biome_strategy().global_bits(),
                )
            })
            .collect();
        assert_eq!(
            widths,
            [(15, 6), (15, 6), (15, 6), (15, 7), (15, 7), (16, 7)]
        );
    }

    #[test]
    fn names_and_data_versions_find_their_version() {
        for v in Version::ALL {
            assert_eq!(Version::named(v.name()), Some(v));
            assert_eq!(Version::for_data_version(v.data_version()), Some(v));
            assert_eq!(v.to_string(), v.name());
        }
        assert_eq!(Version::named("1.21.5"), None);
        assert_eq!(Version::for_data_version(3466), None);
        assert_eq!(
            Strategy::block_states(35_723),
            Version::LATEST.block_strategy()
        );
        assert_eq!(Strategy::biomes(65), Version::LATEST.biome_strategy());
    }

    #[test]
    fn global_configurations_compare_by_byte_only_in_26() {
        let s = Version::V1_20_1.block_strategy();
        let (a, b) = (s.configuration(9), s.configuration(33));
        assert_ne!(a, b);
        assert!(Rules::V1_18_2.same_configuration(a, b));
        assert!(Rules::V1_20_2.same_configuration(a, b));
        assert!(!Rules::V26_1.same_configuration(a, b));
        let (l, h) = (s.configuration(4), s.configuration(5));
        assert!(!Rules::V1_18_2.same_configuration(l, h));
        assert!(Rules::V1_18_2.same_configuration(l, s.configuration(1)));
    }
}
