use crate::palette::PaletteKind;
use crate::version::Rules;

/// Which of Minecraft's two container shapes a [`Strategy`] describes.
///
/// Each variant's discriminant is its axis bits, so that finding them is a
/// byte load on the paths every `get` and `set` takes.
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
/// (26.x's unless [`with_rules`](Self::with_rules) says otherwise), which
/// the wire and disk forms follow; `get` and `set` never look at them.
///
/// Invariant: `registry >= 1`, and `global_bits` is `ceillog2(registry)`.
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
    /// with 26.x's rules ([`Version::block_strategy`](crate::Version::block_strategy)
    /// for another version's).
    ///
    /// # Panics
    /// If `states` is 0.
    pub fn block_states(states: u32) -> Strategy {
        Strategy::with(Kind::BlockStates, states)
    }

    /// A section's biomes, 4 x 4 x 4, over a registry of `biomes`, with
    /// 26.x's rules.
    ///
    /// # Panics
    /// If `biomes` is 0.
    pub fn biomes(biomes: u32) -> Strategy {
        Strategy::with(Kind::Biomes, biomes)
    }

    /// The strategy of `kind` over a registry of `registry` values.
    ///
    /// # Panics
    /// If `registry` is 0.
    pub fn with(kind: Kind, registry: u32) -> Strategy {
        assert!(registry > 0, "a registry needs at least one value");
        Strategy {
            kind,
            rules: Rules::V26_1,
            registry,
            global_bits: ceillog2(u64::from(registry)),
        }
    }

    /// This strategy following another version's rules.
    pub fn with_rules(self, rules: Rules) -> Strategy {
        Strategy { rules, ..self }
    }

    /// The rules of the version it stands for.
    #[inline]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Block states or biomes.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// Bits per axis: 4 for block states, 2 for biomes.
    pub fn axis_bits(&self) -> u32 {
        self.kind as u32
    }

    /// Positions along one axis: 16 or 4.
    pub fn axis_len(&self) -> i32 {
        1 << self.axis_bits()
    }

    /// Values in a container: 4,096 or 64.
    pub fn size(&self) -> usize {
        1 << (3 * self.axis_bits())
    }

    /// The registry's size: ids run from 0 to this minus one.
    pub fn registry_size(&self) -> u32 {
        self.registry
    }

    /// Bits a registry id takes in memory: `ceillog2(registry_size)`.
    pub fn global_bits(&self) -> u32 {
        self.global_bits
    }

    /// Where a position is among the values: y, then z, then x.
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
    #[inline]
    pub fn java_index(&self, x: i32, y: i32, z: i32) -> i64 {
        let b = self.axis_bits();
        i64::from((y.wrapping_shl(b) | z).wrapping_shl(b) | x)
    }

    /// The configuration Minecraft picks for `bits` bits
    /// (`Strategy.getConfigurationForBitCount`).
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
