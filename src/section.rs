//! A chunk section as a chunk packet sends it: `LevelChunkSection`'s wire
//! form in the block states' version, its sent counters kept up to date by
//! [`Section::set`].
//!
//! Minecraft keeps four counters per section. 26.x sends two: the non-empty
//! (non-air) block count and the fluid count, each a big-endian short;
//! 1.18 to 1.21.11 send the non-empty count alone
//! ([`Rules::fluid_count`](crate::Rules::fluid_count)). Then come the
//! block-state container and the biome container. A client takes the
//! counts as sent and never recounts, so [`Section::read`] does the same;
//! [`Section::recount`] is the server's recount after a load from disk.

use crate::wire::Reader;
use crate::{Error, Kind, PalettedContainer, Strategy};

/// Which block states count as air and which hold a fluid: the two facts a
/// section's counters need. Registry ids are the server's, so the server
/// says; a [`StateTable`] or a pair of closures will do.
///
/// ```
/// use paletted::{BlockKinds, PalettedContainer, Section, Strategy};
///
/// // A server's own registry: 0 is air, 86 to 101 hold water (say).
/// struct Registry;
/// impl BlockKinds for Registry {
///     fn is_air(&self, state: u32) -> bool { state == 0 }
///     fn has_fluid(&self, state: u32) -> bool { (86..=101).contains(&state) }
/// }
/// let blocks = PalettedContainer::from_values(Strategy::block_states(35723), &[90; 4096]);
/// let section = Section::new(blocks, PalettedContainer::new(0, Strategy::biomes(65)), &Registry).unwrap();
/// assert_eq!((section.non_empty_block_count(), section.fluid_count()), (4096, 4096));
/// ```
pub trait BlockKinds {
    /// Whether `state` is air (`BlockState.isAir`): not counted as non-empty.
    ///
    /// ```
    /// use paletted::{BlockKinds, StateTable};
    ///
    /// // A pair of closures, air first: no fluid anywhere here.
    /// let kinds = (|s: u32| s == 0, |_: u32| false);
    /// assert!(kinds.is_air(0) && !kinds.is_air(1));
    /// assert!(StateTable::new(&[0], &[]).is_air(0));
    /// ```
    fn is_air(&self, state: u32) -> bool;
    /// Whether `state` holds a fluid (its fluid state is not empty).
    ///
    /// ```
    /// use paletted::{BlockKinds, StateTable};
    ///
    /// let kinds = StateTable::new(&[0], &[86]);
    /// assert!(kinds.has_fluid(86) && !kinds.has_fluid(0));
    /// // Water is not air: it counts as a non-empty block too.
    /// assert!(!kinds.is_air(86));
    /// ```
    fn has_fluid(&self, state: u32) -> bool;
}

impl<A: Fn(u32) -> bool, F: Fn(u32) -> bool> BlockKinds for (A, F) {
    fn is_air(&self, state: u32) -> bool {
        (self.0)(state)
    }
    fn has_fluid(&self, state: u32) -> bool {
        (self.1)(state)
    }
}

/// [`BlockKinds`] as two bit sets over the registry's ids.
///
/// ```
/// use paletted::{BlockKinds, StateTable};
///
/// let kinds = StateTable::new(&[0], &[86]);
/// assert!(kinds.is_air(0) && !kinds.is_air(86));
/// // Ids in neither list, however large, are neither.
/// assert!(!kinds.is_air(35_722) && !kinds.has_fluid(35_722));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StateTable {
    air: Vec<u64>,
    fluid: Vec<u64>,
}

fn bitset(ids: &[u32]) -> Vec<u64> {
    let len = ids
        .iter()
        .map(|&id| id as usize / 64 + 1)
        .max()
        .unwrap_or(0);
    let mut set = vec![0; len];
    ids.iter()
        .for_each(|&id| set[id as usize / 64] |= 1 << (id % 64));
    set
}

fn contains(set: &[u64], id: u32) -> bool {
    set.get(id as usize / 64)
        .is_some_and(|w| w & (1 << (id % 64)) != 0)
}

impl StateTable {
    /// The states in `air` are air; those in `fluid` hold a fluid (water,
    /// lava, waterlogged blocks). Every other state is neither.
    ///
    /// ```
    /// use paletted::{PalettedContainer, Section, StateTable, Strategy};
    ///
    /// let kinds = StateTable::new(&[0], &[86, 87]);
    /// // Water below y = 8, air above.
    /// let values: Vec<u32> = (0..4096).map(|i| if i < 2048 { 86 } else { 0 }).collect();
    /// let blocks = PalettedContainer::from_values(Strategy::block_states(35723), &values);
    /// let section = Section::new(blocks, PalettedContainer::new(1, Strategy::biomes(65)), &kinds).unwrap();
    /// assert_eq!((section.non_empty_block_count(), section.fluid_count()), (2048, 2048));
    /// ```
    pub fn new(air: &[u32], fluid: &[u32]) -> StateTable {
        StateTable {
            air: bitset(air),
            fluid: bitset(fluid),
        }
    }
}

impl BlockKinds for StateTable {
    fn is_air(&self, state: u32) -> bool {
        contains(&self.air, state)
    }
    fn has_fluid(&self, state: u32) -> bool {
        contains(&self.fluid, state)
    }
}

/// A chunk section: its block states, its biomes, and the two counters a
/// chunk packet sends.
///
/// Invariant: after [`new`](Section::new) or [`recount`](Section::recount),
/// and through every [`set`](Section::set) with the same [`BlockKinds`], the
/// counters are the section's non-air and fluid blocks. After
/// [`read`](Section::read) they are what the sender said, as on a client.
/// Counters are Java shorts and change as Java's do (wrapping).
///
/// ```
/// use paletted::{PalettedContainer, Section, StateTable, Strategy};
///
/// // The server's registry says which ids are air and which hold a fluid;
/// // here 0 is air and 86 is water.
/// let kinds = StateTable::new(&[0], &[86]);
/// let blocks = PalettedContainer::new(0, Strategy::block_states(35723));
/// let biomes = PalettedContainer::new(1, Strategy::biomes(65));
/// let mut section = Section::new(blocks, biomes, &kinds).unwrap();
/// section.set(0, 0, 0, 1, &kinds);
/// section.set(1, 0, 0, 86, &kinds);
/// assert_eq!((section.non_empty_block_count(), section.fluid_count()), (2, 1));
///
/// let mut sent = Vec::new();
/// section.write(&mut sent);
/// assert_eq!(&sent[..4], &[0, 2, 0, 1]);
/// assert_eq!(sent.len(), section.serialized_size());
/// let (back, used) = Section::from_wire(section.blocks().strategy(), section.biomes().strategy(), &sent).unwrap();
/// assert_eq!((back, used), (section, sent.len()));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    non_empty: i16,
    fluids: i16,
    blocks: PalettedContainer,
    biomes: PalettedContainer,
}

impl Section {
    /// A section of these containers, its counters counted from the block
    /// states (as Minecraft's `recalcBlockCounts` does after a load).
    ///
    /// # Errors
    /// [`Error::SectionKind`] for biomes given as block states or the other
    /// way round, and [`Error::SectionRules`] for containers of two
    /// versions' rules: a section is sent in one version's wire form.
    ///
    /// ```
    /// use paletted::{Error, PalettedContainer, Section, StateTable, Version};
    ///
    /// let kinds = StateTable::new(&[0], &[]);
    /// let biomes = PalettedContainer::new(1, Version::V26_3.biome_strategy());
    /// let err = Section::new(biomes.clone(), biomes, &kinds).unwrap_err();
    /// assert_eq!(err.to_string(), "A section's block states container was given one of biomes");
    /// let old = PalettedContainer::new(0, Version::V1_20_1.block_strategy());
    /// let new = PalettedContainer::new(1, Version::V26_3.biome_strategy());
    /// let err = Section::new(old, new, &kinds).unwrap_err();
    /// assert!(matches!(err, Error::SectionRules { .. }), "{err}");
    /// ```
    ///
    /// ```
    /// use paletted::{PalettedContainer, Section, StateTable, Strategy};
    ///
    /// // The flat world's bottom section: 1,024 blocks under air.
    /// let flat: Vec<u32> = (0..4096)
    ///     .map(|i| match i / 256 { 0 => 88, 1 | 2 => 10, 3 => 9, _ => 0 })
    ///     .collect();
    /// let blocks = PalettedContainer::from_values(Strategy::block_states(35723), &flat);
    /// let biomes = PalettedContainer::new(1, Strategy::biomes(65));
    /// let kinds = StateTable::new(&[0], &[]);
    /// let section = Section::new(blocks, biomes, &kinds).unwrap();
    /// assert_eq!((section.non_empty_block_count(), section.fluid_count()), (1024, 0));
    /// ```
    pub fn new(
        blocks: PalettedContainer,
        biomes: PalettedContainer,
        kinds: &impl BlockKinds,
    ) -> Result<Section, Error> {
        check_pair(blocks.strategy(), biomes.strategy())?;
        let mut section = Section {
            non_empty: 0,
            fluids: 0,
            blocks,
            biomes,
        };
        section.recount(kinds);
        Ok(section)
    }

    /// Counts the non-air and fluid blocks again, a palette entry at a time.
    ///
    /// ```
    /// use paletted::{PalettedContainer, Section, StateTable, Strategy};
    ///
    /// let kinds = StateTable::new(&[0], &[]);
    /// let blocks = PalettedContainer::new(1, Strategy::block_states(35723));
    /// let mut section = Section::new(blocks, PalettedContainer::new(0, Strategy::biomes(65)), &kinds).unwrap();
    /// let mut sent = Vec::new();
    /// section.write(&mut sent);
    /// sent[..2].copy_from_slice(&7i16.to_be_bytes()); // a sender that says 7
    /// section.read(&sent).unwrap();
    /// assert_eq!(section.non_empty_block_count(), 7); // as a client keeps it
    /// section.recount(&kinds);
    /// assert_eq!(section.non_empty_block_count(), 4096);
    /// ```
    ///
    /// # Panics
    /// If the block states were loaded from an empty palette and not yet set.
    pub fn recount(&mut self, kinds: &impl BlockKinds) {
        let (mut non_empty, mut fluids) = (0i16, 0i16);
        for (state, n) in self.blocks.counts() {
            // At most 4,096 of each: a short holds them.
            let n = n as i16;
            if !kinds.is_air(state) {
                non_empty += n;
            }
            if kinds.has_fluid(state) {
                fluids += n;
            }
        }
        (self.non_empty, self.fluids) = (non_empty, fluids);
    }

    /// The block state at a position.
    ///
    /// ```
    /// use paletted::{PalettedContainer, Section, StateTable, Strategy};
    ///
    /// let kinds = StateTable::new(&[0], &[]);
    /// let air = PalettedContainer::new(0, Strategy::block_states(35723));
    /// let mut section = Section::new(air, PalettedContainer::new(1, Strategy::biomes(65)), &kinds).unwrap();
    /// section.set(4, 0, 9, 88, &kinds);
    /// assert_eq!((section.get(4, 0, 9), section.get(9, 0, 4)), (88, 0));
    /// ```
    ///
    /// # Panics
    /// As [`PalettedContainer::get`].
    pub fn get(&self, x: i32, y: i32, z: i32) -> u32 {
        self.blocks.get(x, y, z)
    }

    /// Sets a block state and gives the one it replaced, adjusting both
    /// counters from the two (`LevelChunkSection.setBlockState`).
    ///
    /// ```
    /// use paletted::{PalettedContainer, Section, StateTable, Strategy};
    ///
    /// let kinds = StateTable::new(&[0], &[86]); // 0 is air, 86 water
    /// let air = PalettedContainer::new(0, Strategy::block_states(35723));
    /// let mut section = Section::new(air, PalettedContainer::new(1, Strategy::biomes(65)), &kinds).unwrap();
    /// assert_eq!(section.set(0, 0, 0, 86, &kinds), 0); // water over air
    /// assert_eq!((section.non_empty_block_count(), section.fluid_count()), (1, 1));
    /// assert_eq!(section.set(0, 0, 0, 1, &kinds), 86); // then a solid block
    /// assert_eq!((section.non_empty_block_count(), section.fluid_count()), (1, 0));
    /// ```
    ///
    /// # Panics
    /// As [`PalettedContainer::get_and_set`].
    pub fn set(&mut self, x: i32, y: i32, z: i32, state: u32, kinds: &impl BlockKinds) -> u32 {
        let old = self.blocks.get_and_set(x, y, z, state);
        let delta = |was: bool, is: bool| i16::from(is) - i16::from(was);
        self.non_empty = self
            .non_empty
            .wrapping_add(delta(!kinds.is_air(old), !kinds.is_air(state)));
        self.fluids = self
            .fluids
            .wrapping_add(delta(kinds.has_fluid(old), kinds.has_fluid(state)));
        old
    }

    /// The non-empty (non-air) block count, as sent.
    ///
    /// ```
    /// use paletted::{PalettedContainer, Section, StateTable, Strategy};
    ///
    /// let kinds = StateTable::new(&[0], &[]);
    /// let full = PalettedContainer::new(1, Strategy::block_states(35723));
    /// let mut section = Section::new(full, PalettedContainer::new(1, Strategy::biomes(65)), &kinds).unwrap();
    /// assert_eq!(section.non_empty_block_count(), 4096);
    /// section.set(0, 0, 0, 0, &kinds);
    /// assert_eq!(section.non_empty_block_count(), 4095);
    /// ```
    pub fn non_empty_block_count(&self) -> i16 {
        self.non_empty
    }

    /// The fluid count, as sent; after a [`read`](Section::read) of a version
    /// that sends none, 0.
    ///
    /// ```
    /// use paletted::{Section, Version};
    ///
    /// // 1.20.1 sends the non-empty count alone: 4,096, then two single-value
    /// // containers, each with a count of no longs.
    /// let v = Version::V1_20_1;
    /// let bytes = [0x10, 0x00, 0, 1, 0, 0, 1, 0];
    /// let (section, _) = Section::from_wire(v.block_strategy(), v.biome_strategy(), &bytes).unwrap();
    /// assert_eq!((section.non_empty_block_count(), section.fluid_count()), (4096, 0));
    /// ```
    pub fn fluid_count(&self) -> i16 {
        self.fluids
    }

    /// Whether the section holds only air (`hasOnlyAir`): a non-empty count of 0.
    ///
    /// ```
    /// use paletted::{PalettedContainer, Section, StateTable, Strategy};
    ///
    /// let kinds = StateTable::new(&[0], &[]);
    /// let air = PalettedContainer::new(0, Strategy::block_states(35723));
    /// let mut section = Section::new(air, PalettedContainer::new(1, Strategy::biomes(65)), &kinds).unwrap();
    /// assert!(section.has_only_air());
    /// section.set(8, 8, 8, 1, &kinds);
    /// assert!(!section.has_only_air());
    /// ```
    pub fn has_only_air(&self) -> bool {
        self.non_empty == 0
    }

    /// The block states. There is no `blocks_mut`: a change there would
    /// bypass the counters; use [`set`](Section::set).
    ///
    /// ```
    /// use paletted::{PalettedContainer, Section, StateTable, Strategy};
    ///
    /// let kinds = StateTable::new(&[0], &[]);
    /// let air = PalettedContainer::new(0, Strategy::block_states(35723));
    /// let mut section = Section::new(air, PalettedContainer::new(1, Strategy::biomes(65)), &kinds).unwrap();
    /// section.set(8, 8, 8, 1, &kinds);
    /// assert_eq!(section.blocks().counts(), [(0, 4095), (1, 1)]);
    /// ```
    pub fn blocks(&self) -> &PalettedContainer {
        &self.blocks
    }

    /// The biomes.
    ///
    /// ```
    /// use paletted::{PalettedContainer, Section, StateTable, Strategy};
    ///
    /// let air = PalettedContainer::new(0, Strategy::block_states(35723));
    /// let kinds = StateTable::new(&[0], &[]);
    /// let section = Section::new(air, PalettedContainer::new(1, Strategy::biomes(65)), &kinds).unwrap();
    /// assert_eq!(section.biomes().get(3, 3, 3), 1);
    /// assert_eq!(section.biomes().strategy().size(), 64);
    /// ```
    pub fn biomes(&self) -> &PalettedContainer {
        &self.biomes
    }

    /// The biomes, to change: they count towards nothing.
    ///
    /// ```
    /// use paletted::{PalettedContainer, Section, StateTable, Strategy};
    ///
    /// let air = PalettedContainer::new(0, Strategy::block_states(35723));
    /// let kinds = StateTable::new(&[0], &[]);
    /// let mut section = Section::new(air, PalettedContainer::new(1, Strategy::biomes(65)), &kinds).unwrap();
    /// section.biomes_mut().set(0, 0, 0, 40);
    /// assert_eq!(section.biomes().get(0, 0, 0), 40);
    /// assert!(section.has_only_air()); // still: biomes count towards nothing
    /// ```
    pub fn biomes_mut(&mut self) -> &mut PalettedContainer {
        &mut self.biomes
    }

    /// The two containers.
    ///
    /// ```
    /// use paletted::{PalettedContainer, Section, StateTable, Strategy};
    ///
    /// let air = PalettedContainer::new(0, Strategy::block_states(35723));
    /// let kinds = StateTable::new(&[0], &[]);
    /// let section = Section::new(air, PalettedContainer::new(1, Strategy::biomes(65)), &kinds).unwrap();
    /// let (blocks, biomes) = section.into_parts();
    /// assert_eq!((blocks.get(0, 0, 0), biomes.get(0, 0, 0)), (0, 1));
    /// ```
    pub fn into_parts(self) -> (PalettedContainer, PalettedContainer) {
        (self.blocks, self.biomes)
    }

    /// Whether the fluid count is sent: it is in the block states' version.
    fn sends_fluids(&self) -> bool {
        self.blocks.strategy().rules().fluid_count()
    }

    /// Appends the section as `LevelChunkSection.write` sends it: the
    /// non-empty count and, in 26.x, the fluid count (big-endian shorts),
    /// the block states, the biomes, each in its strategy's version.
    ///
    /// ```
    /// use paletted::{PalettedContainer, Section, StateTable, Strategy};
    ///
    /// // The flat world's bottom section, and one biome.
    /// let flat: Vec<u32> = (0..4096)
    ///     .map(|i| match i / 256 { 0 => 88, 1 | 2 => 10, 3 => 9, _ => 0 })
    ///     .collect();
    /// let blocks = PalettedContainer::from_values(Strategy::block_states(35723), &flat);
    /// let kinds = StateTable::new(&[0], &[]);
    /// let section = Section::new(blocks, PalettedContainer::new(1, Strategy::biomes(65)), &kinds).unwrap();
    /// let mut sent = Vec::new();
    /// section.write(&mut sent);
    /// // 1,024 non-air blocks, no fluid; 4 bits and a palette of 4.
    /// assert_eq!(&sent[..10], &[4, 0, 0, 0, 4, 4, 88, 10, 9, 0]);
    /// assert_eq!(&sent[sent.len() - 2..], &[0, 1]); // the biome
    /// ```
    ///
    /// # Panics
    /// As [`PalettedContainer::write`].
    pub fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.non_empty.to_be_bytes());
        if self.sends_fluids() {
            out.extend_from_slice(&self.fluids.to_be_bytes());
        }
        self.blocks.write(out);
        self.biomes.write(out);
    }

    /// Bytes [`write`](Section::write) appends (`getSerializedSize`): the
    /// counters and each container's
    /// [`serialized_size`](PalettedContainer::serialized_size), which up to
    /// 1.20.1 is not what it writes.
    ///
    /// ```
    /// use paletted::{PalettedContainer, Section, StateTable, Version};
    ///
    /// let v = Version::V1_20_1;
    /// let blocks = PalettedContainer::new(0, v.block_strategy());
    /// let kinds = StateTable::new(&[0], &[]);
    /// let section = Section::new(blocks, PalettedContainer::new(1, v.biome_strategy()), &kinds).unwrap();
    /// let mut sent = Vec::new();
    /// section.write(&mut sent);
    /// assert_eq!(sent, [0, 0, 0, 0, 0, 0, 1, 0]); // each container with a count of no longs
    /// // 1.20.1 counts the VarInts of 4,096 and 64 there instead: one byte more.
    /// assert_eq!(section.serialized_size(), 9);
    /// ```
    ///
    /// # Panics
    /// As [`PalettedContainer::serialized_size`].
    pub fn serialized_size(&self) -> usize {
        let counters = if self.sends_fluids() { 4 } else { 2 };
        counters + self.blocks.serialized_size() + self.biomes.serialized_size()
    }

    /// Reads a section as a client does and gives the bytes consumed: the
    /// counts as sent, then each container as [`PalettedContainer::read`]
    /// reads it. On any error the section is unchanged, and positions in the
    /// error count from the section's first byte.
    ///
    /// ```
    /// use paletted::{PalettedContainer, Section, StateTable, Strategy};
    ///
    /// let air = PalettedContainer::new(0, Strategy::block_states(35723));
    /// let kinds = StateTable::new(&[0], &[]);
    /// let mut section = Section::new(air, PalettedContainer::new(1, Strategy::biomes(65)), &kinds).unwrap();
    /// let before = section.clone();
    /// // Two counters and the block states, then biomes cut short before their id.
    /// let err = section.read(&[0, 0, 0, 0, 0, 0, 0]).unwrap_err();
    /// assert_eq!(err.to_string(), "readerIndex(7) + length(1) exceeds writerIndex(7)");
    /// assert_eq!(section, before);
    /// // Block state 1 everywhere, sent with a count of 1: kept as sent.
    /// assert_eq!(section.read(&[0, 1, 0, 0, 0, 1, 0, 2]), Ok(8));
    /// assert_eq!((section.non_empty_block_count(), section.get(5, 5, 5)), (1, 1));
    /// ```
    pub fn read(&mut self, bytes: &[u8]) -> Result<usize, Error> {
        let (section, used) =
            Section::from_wire(self.blocks.strategy(), self.biomes.strategy(), bytes)?;
        *self = section;
        Ok(used)
    }

    /// A section read from its wire form, with the bytes consumed. The
    /// block states' version says whether a fluid count is sent.
    ///
    /// ```
    /// use paletted::{Section, Version};
    ///
    /// // 1.20.1: the non-empty count alone, then block state 1 and biome 1, each
    /// // with a count of no longs.
    /// let v = Version::V1_20_1;
    /// let bytes = [0x10, 0x00, 0, 1, 0, 0, 1, 0, 0xaa];
    /// let (section, used) = Section::from_wire(v.block_strategy(), v.biome_strategy(), &bytes).unwrap();
    /// assert_eq!(used, 8);
    /// assert_eq!((section.get(0, 0, 0), section.biomes().get(0, 0, 0)), (1, 1));
    /// ```
    ///
    /// # Errors
    /// As [`read`](Section::read); [`Error::SectionKind`] and
    /// [`Error::SectionRules`] as [`new`](Section::new). Where the read fails
    /// but another release's wire form reads the bytes whole (and writes
    /// them back the same), [`Error::OtherVersion`] names those releases
    /// around the read's own error.
    pub fn from_wire(
        blocks: Strategy,
        biomes: Strategy,
        bytes: &[u8],
    ) -> Result<(Section, usize), Error> {
        check_pair(blocks, biomes)?;
        Section::from_wire_as(blocks, biomes, bytes).map_err(|error| {
            // Another form fits if it reads the bytes whole and writes them
            // back as they were, as every section a server sends does (a
            // cut section can read whole by chance, but not canonically).
            crate::version::hint(error, blocks, biomes, |v| {
                Section::from_wire_as(v.block_strategy(), v.biome_strategy(), bytes).is_ok_and(
                    |(section, used)| {
                        let mut again = Vec::with_capacity(bytes.len());
                        section.write(&mut again);
                        used == bytes.len() && again == bytes
                    },
                )
            })
        })
    }

    /// [`from_wire`](Section::from_wire) of strategies already checked as
    /// a pair, with the read's own error.
    pub(crate) fn from_wire_as(
        blocks: Strategy,
        biomes: Strategy,
        bytes: &[u8],
    ) -> Result<(Section, usize), Error> {
        let mut r = Reader::new(bytes);
        let non_empty = r.i16()?;
        let fluids = if blocks.rules().fluid_count() {
            r.i16()?
        } else {
            0
        };
        let mut at = r.position();
        let (blocks, used) =
            PalettedContainer::from_wire(blocks, &bytes[at..]).map_err(|e| e.shifted(at))?;
        at += used;
        let (biomes, used) =
            PalettedContainer::from_wire(biomes, &bytes[at..]).map_err(|e| e.shifted(at))?;
        let section = Section {
            non_empty,
            fluids,
            blocks,
            biomes,
        };
        Ok((section, at + used))
    }
}

/// Whether `blocks` and `biomes` can be a section's: block states and
/// biomes, of one version's rules.
pub(crate) fn check_pair(blocks: Strategy, biomes: Strategy) -> Result<(), Error> {
    for (place, strategy, kind) in [
        ("block states", blocks, Kind::BlockStates),
        ("biomes", biomes, Kind::Biomes),
    ] {
        if strategy.kind() != kind {
            return Err(Error::SectionKind {
                place,
                given: strategy.kind(),
            });
        }
    }
    if blocks.rules() != biomes.rules() {
        return Err(Error::SectionRules {
            blocks: blocks.rules(),
            biomes: biomes.rules(),
        });
    }
    Ok(())
}
