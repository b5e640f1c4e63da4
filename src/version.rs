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

use crate::{Configuration, PaletteKind, Strategy};

/// Block states in 1.18.2 (the highest state id + 1).
pub const BLOCK_STATES_1_18_2: u32 = 20_342;
/// Biomes in 1.18.2.
pub const BIOMES_1_18_2: u32 = 61;
/// Block states in 1.19.4.
pub const BLOCK_STATES_1_19_4: u32 = 23_725;
/// Biomes in 1.19.4: 64 keys, of which one is experimental and not
/// registered.
pub const BIOMES_1_19_4: u32 = 63;
/// Block states in 1.20.1.
pub const BLOCK_STATES_1_20_1: u32 = 24_135;
/// Biomes in 1.20.1.
pub const BIOMES_1_20_1: u32 = 64;
/// Block states in 1.21.4.
pub const BLOCK_STATES_1_21_4: u32 = 27_866;
/// Biomes in 1.21.4.
pub const BIOMES_1_21_4: u32 = 65;
/// Block states in 26.1.
pub const BLOCK_STATES_26_1: u32 = 29_873;
/// Biomes in 26.1.
pub const BIOMES_26_1: u32 = 65;
/// Block states in 26.3.
pub const BLOCK_STATES_26_3: u32 = 35_723;
/// Biomes in 26.3, as the recorded set uses them (the versions page gives
/// 65 to 67, not confirmed).
pub const BIOMES_26_3: u32 = 65;

/// How the containers of a run of versions behave where versions differ.
/// Everything not named here is the same from 1.18.2 to 26.3: the palette
/// ladder, growth and resize order, `pack`, bit storage, `count` order.
///
/// Versions from 1.21.5 to the last 1.21.x are not covered: the long count
/// left the wire somewhere between 1.21.5 and 1.21.7, and which of the
/// other 26.x rules they follow is not known here.
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
    pub const fn serialized_size_bug(self) -> bool {
        matches!(self, Rules::V1_18_2)
    }

    /// Whether every global configuration equals every other whatever bits
    /// byte selected it (up to 1.21.4), so that a wire read of any byte past
    /// the palette widths reuses a global container in place. From 26.x a
    /// global configuration remembers its byte.
    pub const fn global_configurations_equal(self) -> bool {
        !matches!(self, Rules::V26_1)
    }

    /// Whether two configurations are equal, as these versions compare them.
    pub fn same_configuration(self, a: Configuration, b: Configuration) -> bool {
        a == b
            || (self.global_configurations_equal()
                && a.kind == PaletteKind::Global
                && b.kind == PaletteKind::Global
                && a.bits == b.bits)
    }

    /// Whether `BitStorage.fill` exists (26.x only; 26.3 spreads the value
    /// over the whole long, and 26.1 is taken to do the same).
    pub const fn has_fill(self) -> bool {
        matches!(self, Rules::V26_1)
    }

    /// Whether the saved form declares its bit count, so that a mismatch is
    /// the error `Invalid bit count, calculated X, but container declared Y`
    /// (26.x only; before, `pack` saves none and `unpack` checks none).
    pub const fn declares_bits(self) -> bool {
        matches!(self, Rules::V26_1)
    }

    /// Whether a chunk section sends the fluid count after the non-empty
    /// block count (26.x). The captures of 1.18.2 to 1.20.1 send the block
    /// count alone; the versions page puts the second short after 1.21.4
    /// without pinning the version, so 1.20.2 to 1.21.4 are taken to send
    /// one, as before.
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
    pub const V1_18_2: Version = Version::new(
        "1.18.2",
        2975,
        BLOCK_STATES_1_18_2,
        BIOMES_1_18_2,
        Rules::V1_18_2,
    );
    /// 1.19.4 (DataVersion 3337).
    pub const V1_19_4: Version = Version::new(
        "1.19.4",
        3337,
        BLOCK_STATES_1_19_4,
        BIOMES_1_19_4,
        Rules::V1_18_2,
    );
    /// 1.20.1 (DataVersion 3465), valence's version.
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
    pub const V1_21_4: Version = Version::new(
        "1.21.4",
        4189,
        BLOCK_STATES_1_21_4,
        BIOMES_1_21_4,
        Rules::V1_20_2,
    );
    /// 26.1 (DataVersion 4786).
    pub const V26_1: Version =
        Version::new("26.1", 4786, BLOCK_STATES_26_1, BIOMES_26_1, Rules::V26_1);
    /// 26.3 (DataVersion 5023), the recorded set's version.
    pub const V26_3: Version =
        Version::new("26.3", 5023, BLOCK_STATES_26_3, BIOMES_26_3, Rules::V26_1);
    /// The newest version covered, and the default: 26.3.
    pub const LATEST: Version = Version::V26_3;
    /// Every named version, oldest first.
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
    pub fn named(name: &str) -> Option<Version> {
        Version::ALL.into_iter().find(|v| v.name == name)
    }

    /// The named version saved with this DataVersion, if one is.
    pub fn for_data_version(data_version: u32) -> Option<Version> {
        Version::ALL
            .into_iter()
            .find(|v| v.data_version == data_version)
    }

    /// The release's name.
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// The DataVersion its saves carry.
    pub const fn data_version(&self) -> u32 {
        self.data_version
    }

    /// Block states: the highest state id + 1.
    pub const fn block_states(&self) -> u32 {
        self.block_states
    }

    /// Biomes: the registry's length.
    pub const fn biomes(&self) -> u32 {
        self.biomes
    }

    /// How its containers behave.
    pub const fn rules(&self) -> Rules {
        self.rules
    }

    /// The strategy of a section's block states in this version.
    pub fn block_strategy(&self) -> Strategy {
        Strategy::block_states(self.block_states).with_rules(self.rules)
    }

    /// The strategy of a section's biomes in this version.
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
