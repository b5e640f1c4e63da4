use crate::palette::PaletteKind;
use crate::version::Rules;

/// Which of Minecraft's two container shapes a [`Strategy`] describes.
///
/// Each variant's discriminant is its axis bits, so that finding them is a
/// byte load on the paths every `get` and `set` takes.
///
/// ```
/// use paletted::{Kind, Strategy};
///
/// assert_eq!(Strategy::block_states(35723).kind(), Kind::BlockStates);
/// assert_eq!(Strategy::with(Kind::Biomes, 65), Strategy::biomes(65));
/// // The discriminant is the axis bits: 16 and 4 positions an axis.
/// assert_eq!((Kind::BlockStates as u32, Kind::Biomes as u32), (4, 2));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Kind {
    /// A section's block states: 16 x 16 x 16.
    BlockStates = 4,
    /// A section's biomes: 4 x 4 x 4.
    Biomes = 2,
}

/// The palette kind and widths a container uses for one bit count
/// (Minecraft's `Configuration`).
///
/// Only the global configuration has two widths: in memory every value is a
/// registry id (`bits`), on disk it is an index into the saved palette
/// (`disk_bits`).
///
/// ```
/// use paletted::{Configuration, PaletteKind, Strategy};
///
/// let blocks = Strategy::block_states(35723);
/// // 300 states: a 16-bit id each in memory, a 9-bit index into the saved
/// // palette on disk.
/// let global = Configuration { kind: PaletteKind::Global, bits: 16, disk_bits: 9 };
/// assert_eq!(blocks.configuration_for_palette_len(300), global);
/// let hash = blocks.configuration(6);
/// assert_eq!((hash.kind, hash.bits, hash.disk_bits), (PaletteKind::HashMap, 6, 6));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Configuration {
    /// The palette kind.
    pub kind: PaletteKind,
    /// Bits a value takes in memory and on the wire.
    pub bits: u32,
    /// Bits a value takes in a saved (packed) container.
    pub disk_bits: u32,
}

/// A container's shape and registry: how many values it holds, how positions
/// map to indices, and which palette a number of bits gets.
///
/// It also carries the [`Rules`] of the Minecraft version it stands for
/// (26.3's unless [`with_rules`](Self::with_rules) says otherwise), which
/// the wire and disk forms follow; `get` and `set` never look at them.
///
/// Invariant: `registry >= 1`, and `global_bits` is `ceillog2(registry)`.
///
/// ```
/// use paletted::{PalettedContainer, Strategy};
///
/// let biomes = Strategy::biomes(65);
/// assert_eq!((biomes.axis_len(), biomes.size(), biomes.global_bits()), (4, 64, 7));
/// let mut c = PalettedContainer::new(0, biomes);
/// c.set(1, 2, 3, 40);
/// assert_eq!(c.get_at(biomes.index(1, 2, 3)), 40);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Strategy {
    kind: Kind,
    // A byte after `kind`, where there was padding: the size is unchanged.
    rules: Rules,
    registry: u32,
    global_bits: u32,
}

/// The fewest bits that number `n` values (Minecraft's `Mth.ceillog2`).
pub(crate) fn ceillog2(n: u64) -> u32 {
    if n <= 1 {
        0
    } else {
        64 - (n - 1).leading_zeros()
    }
}

impl Strategy {
    /// A section's block states, 16 x 16 x 16, over a registry of `states`,
    /// with 26.3's rules ([`Version::block_strategy`](crate::Version::block_strategy)
    /// for another version's).
    ///
    /// ```
    /// use paletted::{Rules, Strategy, Version};
    ///
    /// let blocks = Strategy::block_states(35723);
    /// assert_eq!((blocks.size(), blocks.registry_size()), (16 * 16 * 16, 35723));
    /// assert_eq!(blocks.rules(), Rules::V26_3);
    /// assert_eq!(blocks, Version::V26_3.block_strategy());
    /// ```
    ///
    /// # Panics
    /// If `states` is 0.
    pub fn block_states(states: u32) -> Strategy {
        Strategy::with(Kind::BlockStates, states)
    }

    /// A section's biomes, 4 x 4 x 4, over a registry of `biomes`, with
    /// 26.3's rules.
    ///
    /// ```
    /// use paletted::{Rules, Strategy, Version};
    ///
    /// let biomes = Strategy::biomes(65);
    /// assert_eq!((biomes.size(), biomes.registry_size()), (4 * 4 * 4, 65));
    /// assert_eq!(biomes.rules(), Rules::V26_3);
    /// assert_eq!(biomes, Version::V26_3.biome_strategy());
    /// ```
    ///
    /// # Panics
    /// If `biomes` is 0.
    pub fn biomes(biomes: u32) -> Strategy {
        Strategy::with(Kind::Biomes, biomes)
    }

    /// The strategy of `kind` over a registry of `registry` values.
    ///
    /// ```
    /// use paletted::{Kind, Strategy};
    ///
    /// assert_eq!(Strategy::with(Kind::BlockStates, 35723), Strategy::block_states(35723));
    /// // A registry of one id: even a global id takes no bits.
    /// assert_eq!(Strategy::with(Kind::Biomes, 1).global_bits(), 0);
    /// ```
    ///
    /// # Panics
    /// If `registry` is 0.
    pub fn with(kind: Kind, registry: u32) -> Strategy {
        assert!(registry > 0, "a registry needs at least one value");
        Strategy {
            kind,
            rules: Rules::V26_3,
            registry,
            global_bits: ceillog2(u64::from(registry)),
        }
    }

    /// This strategy following another version's rules.
    ///
    /// ```
    /// use paletted::{PalettedContainer, Rules, Strategy, Version};
    ///
    /// let old = Strategy::block_states(24_135).with_rules(Rules::V1_18_2);
    /// assert_eq!(old, Version::V1_20_1.block_strategy());
    /// let mut sent = Vec::new();
    /// PalettedContainer::new(5, old).write(&mut sent);
    /// assert_eq!(sent, [0, 5, 0]); // 1.20.1's count of longs comes last
    /// ```
    pub fn with_rules(self, rules: Rules) -> Strategy {
        Strategy { rules, ..self }
    }

    /// The rules of the version it stands for.
    ///
    /// ```
    /// use paletted::{Rules, Strategy, Version};
    ///
    /// assert_eq!(Strategy::biomes(65).rules(), Rules::V26_3);
    /// assert_eq!(Version::V1_21_4.biome_strategy().rules(), Rules::V1_20_2);
    /// ```
    #[inline]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Block states or biomes.
    ///
    /// ```
    /// use paletted::{Kind, Strategy, Version};
    ///
    /// assert_eq!(Strategy::biomes(65).kind(), Kind::Biomes);
    /// assert_eq!(Version::V1_18_2.block_strategy().kind(), Kind::BlockStates);
    /// ```
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// Bits per axis: 4 for block states, 2 for biomes.
    ///
    /// ```
    /// use paletted::Strategy;
    ///
    /// let (blocks, biomes) = (Strategy::block_states(35723), Strategy::biomes(65));
    /// assert_eq!((blocks.axis_bits(), biomes.axis_bits()), (4, 2));
    /// // One step up in y skips a whole layer: 2 x axis_bits of indices.
    /// assert_eq!(blocks.index(0, 1, 0), 1 << (2 * blocks.axis_bits()));
    /// ```
    pub fn axis_bits(&self) -> u32 {
        self.kind as u32
    }

    /// Positions along one axis: 16 or 4.
    ///
    /// ```
    /// use paletted::Strategy;
    ///
    /// let biomes = Strategy::biomes(65);
    /// assert_eq!(biomes.axis_len(), 4);
    /// let last = biomes.axis_len() - 1;
    /// assert_eq!(biomes.index(last, last, last), biomes.size() - 1);
    /// ```
    pub fn axis_len(&self) -> i32 {
        1 << self.axis_bits()
    }

    /// Values in a container: 4,096 or 64.
    ///
    /// ```
    /// use paletted::{PalettedContainer, Strategy};
    ///
    /// let (blocks, biomes) = (Strategy::block_states(35723), Strategy::biomes(65));
    /// assert_eq!((blocks.size(), biomes.size()), (4096, 64));
    /// assert_eq!(PalettedContainer::new(0, biomes).iter().len(), 64);
    /// ```
    pub fn size(&self) -> usize {
        1 << (3 * self.axis_bits())
    }

    /// The registry's size: ids run from 0 to this minus one.
    ///
    /// ```
    /// use paletted::{PalettedContainer, Strategy};
    ///
    /// let biomes = Strategy::biomes(65);
    /// assert_eq!(biomes.registry_size(), 65);
    /// // A global palette lists every id of the registry.
    /// let nine: Vec<u32> = (0..64).map(|i| i % 9).collect();
    /// assert_eq!(PalettedContainer::from_values(biomes, &nine).palette().len(), 65);
    /// ```
    pub fn registry_size(&self) -> u32 {
        self.registry
    }

    /// Bits a registry id takes in memory: `ceillog2(registry_size)`.
    ///
    /// ```
    /// use paletted::Strategy;
    ///
    /// assert_eq!(Strategy::block_states(35723).global_bits(), 16);
    /// // 2^15 ids fit 15 bits; one more takes 16.
    /// assert_eq!(Strategy::block_states(32_768).global_bits(), 15);
    /// assert_eq!(Strategy::block_states(32_769).global_bits(), 16);
    /// ```
    pub fn global_bits(&self) -> u32 {
        self.global_bits
    }

    /// Where a position is among the values: y, then z, then x.
    ///
    /// ```
    /// use paletted::Strategy;
    ///
    /// // y, then z, then x: 256 a layer and 16 a row for block states.
    /// assert_eq!(Strategy::block_states(35723).index(1, 2, 3), 2 * 256 + 3 * 16 + 1);
    /// assert_eq!(Strategy::biomes(65).index(1, 2, 3), 2 * 16 + 3 * 4 + 1);
    /// ```
    ///
    /// # Panics
    /// Unless each coordinate is inside the container.
    #[inline]
    pub fn index(&self, x: i32, y: i32, z: i32) -> usize {
        let (b, n) = (self.axis_bits(), self.axis_len());
        // One test for all three: a negative coordinate has its top bit set.
        if (x | y | z) as u32 >= n as u32 {
            outside(x, y, z, n);
        }
        ((((y as usize) << b) | z as usize) << b) | x as usize
    }

    /// The index Minecraft's `getIndex` computes for a position, in Java's
    /// `int` arithmetic: `((y << b | z) << b) | x`, wrapping, no coordinate
    /// checked on its own. Outside the container it can be anything,
    /// negative included.
    ///
    /// ```
    /// use paletted::Strategy;
    ///
    /// let blocks = Strategy::block_states(35723);
    /// // x = 16 runs into the next row: the index of (0, 0, 1).
    /// assert_eq!(blocks.java_index(16, 0, 0), blocks.index(0, 0, 1) as i64);
    /// assert_eq!(blocks.java_index(-1, 0, 0), -1);
    /// assert_eq!(blocks.java_index(0, 16, 0), 4096);
    /// ```
    #[inline]
    pub fn java_index(&self, x: i32, y: i32, z: i32) -> i64 {
        let b = self.axis_bits();
        i64::from((y.wrapping_shl(b) | z).wrapping_shl(b) | x)
    }

    /// The configuration Minecraft picks for `bits` bits
    /// (`Strategy.getConfigurationForBitCount`).
    ///
    /// ```
    /// use paletted::PaletteKind::{Global, HashMap, Linear, Single};
    /// use paletted::Strategy;
    ///
    /// let blocks = Strategy::block_states(35723);
    /// let ladder: Vec<_> = (0..=9).map(|b| blocks.configuration(b)).map(|c| (c.kind, c.bits)).collect();
    /// assert_eq!(
    ///     ladder,
    ///     [
    ///         (Single, 0), (Linear, 4), (Linear, 4), (Linear, 4), (Linear, 4),
    ///         (HashMap, 5), (HashMap, 6), (HashMap, 7), (HashMap, 8), (Global, 16),
    ///     ]
    /// );
    /// ```
    pub fn configuration(&self, bits: u32) -> Configuration {
        let simple = |kind, bits| Configuration {
            kind,
            bits,
            disk_bits: bits,
        };
        match (self.kind, bits) {
            (_, 0) => simple(PaletteKind::Single, 0),
            (Kind::BlockStates, 1..=4) => simple(PaletteKind::Linear, 4),
            (Kind::BlockStates, 5..=8) => simple(PaletteKind::HashMap, bits),
            (Kind::Biomes, 1..=3) => simple(PaletteKind::Linear, bits),
            _ => Configuration {
                kind: PaletteKind::Global,
                bits: self.global_bits,
                disk_bits: bits,
            },
        }
    }

    /// The configuration for a palette of `len` entries
    /// (`Strategy.getConfigurationForPaletteSize`): that of the fewest bits
    /// that number them.
    ///
    /// ```
    /// use paletted::Strategy;
    ///
    /// // The widths `pack` saves at, by palette size.
    /// let blocks = Strategy::block_states(35723);
    /// let disk = |n| blocks.configuration_for_palette_len(n).disk_bits;
    /// assert_eq!([1, 2, 16, 17, 256, 257, 300].map(disk), [0, 4, 4, 5, 8, 9, 9]);
    /// let biomes = Strategy::biomes(65);
    /// let disk = |n| biomes.configuration_for_palette_len(n).disk_bits;
    /// assert_eq!([2, 3, 5, 9].map(disk), [1, 2, 3, 4]);
    /// ```
    pub fn configuration_for_palette_len(&self, len: usize) -> Configuration {
        self.configuration(ceillog2(len as u64))
    }

    /// The configuration a wire bits byte selects. Minecraft reads the byte
    /// as a signed Java byte, so 128..=255 select the global configuration;
    /// every byte past the palette widths is a configuration of its own
    /// (its `disk_bits` is the byte), so two of them never share storage.
    pub(crate) fn configuration_for_wire(&self, byte: u8) -> Configuration {
        self.configuration(u32::from(byte))
    }
}

#[cold]
#[inline(never)]
fn outside(x: i32, y: i32, z: i32, n: i32) -> ! {
    panic!("position ({x}, {y}, {z}) is outside a container of {n} x {n} x {n}")
}
