//! The container: a palette and a bit storage of indices into it, kept
//! together as Minecraft 26.3's `PalettedContainer` keeps them.
//!
//! This file holds the type, its invariants and the check of them; each
//! concern lives in a module of its own: reading and writing single values
//! and the whole-container queries ([`access`]), the move to a wider palette
//! ([`resize`]), the chunk packet's form ([`wire`]) and the region file's
//! ([`disk`]).

use crate::palette::{Palette, PaletteKind};
use crate::storage::BitStorage;
use crate::{Configuration, Error, Strategy};

mod access;
mod bulk;
mod disk;
mod iter;
mod resize;
mod wire;

pub use iter::Values;

/// A section's block states or biomes, as Minecraft 26.3's
/// `PalettedContainer` keeps them: a palette and a bit storage of indices
/// into it, which grow together exactly as Minecraft's do.
///
/// Invariants: `storage.len() == strategy.size()`;
/// `storage.bits() == config.bits`; the palette is of `config.kind`.
/// A container made by [`new`](Self::new), [`set`](Self::set),
/// [`unpack`](Self::unpack) or [`read`](Self::read) also has every stored
/// index inside its palette and an initialised single value. The lenient
/// loads ([`unpack_lenient`](Self::unpack_lenient),
/// [`read_lenient`](Self::read_lenient)) keep whatever Minecraft keeps, and
/// then the `try_` accessors fail where Minecraft throws; the plain
/// accessors panic with the same message.
///
/// ```
/// use paletted::PaletteKind::{Global, HashMap, Linear, Single};
/// use paletted::{PalettedContainer, Strategy};
///
/// // New values one after another: the palette climbs Minecraft's ladder.
/// let mut c = PalettedContainer::new(0, Strategy::block_states(35723));
/// let mut ladder = vec![(c.palette_kind(), c.bits())];
/// for v in 1..300 {
///     c.set_at(v as usize, v);
///     if c.bits() != ladder.last().unwrap().1 {
///         ladder.push((c.palette_kind(), c.bits()));
///     }
/// }
/// assert_eq!(ladder[..2], [(Single, 0), (Linear, 4)]);
/// assert_eq!(ladder[2..], [(HashMap, 5), (HashMap, 6), (HashMap, 7), (HashMap, 8), (Global, 16)]);
/// ```
#[derive(Clone, Debug)]
pub struct PalettedContainer {
    strategy: Strategy,
    config: Configuration,
    palette: Palette,
    storage: BitStorage,
}

/// The strict calls' panic, with the text of Minecraft's failure.
#[inline(never)]
#[cold]
fn fail(e: Error) -> ! {
    panic!("{e}")
}

/// `e` placed at `position`: a palette names the index it lacks, not where
/// it was stored.
fn at(e: Error, position: usize) -> Error {
    match e {
        Error::Index { index, .. } => Error::Index {
            at: position,
            index,
        },
        e => e,
    }
}

impl PalettedContainer {
    /// A container of `value` everywhere.
    ///
    /// ```
    /// use paletted::{PaletteKind, PalettedContainer, Strategy};
    ///
    /// let c = PalettedContainer::new(0, Strategy::block_states(35723));
    /// assert_eq!((c.palette_kind(), c.bits(), c.palette()), (PaletteKind::Single, 0, vec![0]));
    /// assert!(c.storage().longs().is_empty());
    /// let mut sent = Vec::new();
    /// c.write(&mut sent);
    /// assert_eq!(sent, [0, 0]); // 0 bits, then the one value: air
    /// ```
    ///
    /// # Panics
    /// If `value` is not below the registry's size.
    pub fn new(value: u32, strategy: Strategy) -> PalettedContainer {
        check_value(&strategy, value);
        let config = strategy.configuration(0);
        PalettedContainer {
            strategy,
            config,
            palette: Palette::Single(Some(value)),
            storage: BitStorage::new(0, strategy.size()),
        }
    }

    fn empty(strategy: Strategy, config: Configuration) -> PalettedContainer {
        PalettedContainer {
            strategy,
            config,
            palette: Palette::empty(config.kind, config.bits, strategy.registry_size()),
            storage: BitStorage::new(config.bits, strategy.size()),
        }
    }

    /// The container's strategy.
    ///
    /// ```
    /// use paletted::{PalettedContainer, Version};
    ///
    /// let c = PalettedContainer::new(1, Version::V1_20_1.block_strategy());
    /// assert_eq!(c.strategy(), Version::V1_20_1.block_strategy());
    /// assert_eq!(c.strategy().registry_size(), 24_135);
    /// ```
    pub fn strategy(&self) -> Strategy {
        self.strategy
    }

    /// The configuration in use now.
    ///
    /// ```
    /// use paletted::{Configuration, PaletteKind, PalettedContainer, Strategy};
    ///
    /// let blocks = Strategy::block_states(35723);
    /// let values: Vec<u32> = (0..4096).map(|i| i % 300).collect();
    /// let grown = PalettedContainer::from_values(blocks, &values);
    /// let global = Configuration { kind: PaletteKind::Global, bits: 16, disk_bits: 9 };
    /// assert_eq!(grown.configuration(), global);
    /// // Read from the wire, the global configuration is that of the bits byte.
    /// let mut sent = Vec::new();
    /// grown.write(&mut sent);
    /// let (read, _) = PalettedContainer::from_wire(blocks, &sent).unwrap();
    /// assert_eq!(read.configuration().disk_bits, 16);
    /// ```
    pub fn configuration(&self) -> Configuration {
        self.config
    }

    /// The palette kind in use now.
    ///
    /// ```
    /// use paletted::{PaletteKind, PalettedContainer, Strategy};
    ///
    /// let mut c = PalettedContainer::new(0, Strategy::biomes(65));
    /// c.set_at(1, 1);
    /// assert_eq!(c.palette_kind(), PaletteKind::Linear);
    /// // Nine biomes: past the 3-bit linear palette, the global one.
    /// (2..9).for_each(|i| c.set_at(i, i as u32));
    /// assert_eq!(c.palette_kind(), PaletteKind::Global);
    /// ```
    pub fn palette_kind(&self) -> PaletteKind {
        self.config.kind
    }

    /// Bits each value takes in memory and on the wire now.
    ///
    /// ```
    /// use paletted::{PalettedContainer, Strategy};
    ///
    /// let mut c = PalettedContainer::new(0, Strategy::biomes(65));
    /// let mut bits = vec![c.bits()];
    /// for v in 1..9 {
    ///     c.set_at(v as usize, v);
    ///     bits.push(c.bits());
    /// }
    /// assert_eq!(bits, [0, 1, 2, 2, 3, 3, 3, 3, 7]);
    /// ```
    pub fn bits(&self) -> u32 {
        self.storage.bits()
    }

    /// The storage of palette indices.
    ///
    /// ```
    /// use paletted::{PalettedContainer, Strategy};
    ///
    /// let mut c = PalettedContainer::new(0, Strategy::block_states(35723));
    /// c.set(0, 0, 0, 88);
    /// // The palette is [0, 88]: index 0 holds id 1, index 1 id 0, at 4 bits.
    /// let storage = c.storage();
    /// assert_eq!((storage.bits(), storage.get(0), storage.get(1)), (4, 1, 0));
    /// assert_eq!(storage.longs().len(), 256);
    /// ```
    pub fn storage(&self) -> &BitStorage {
        &self.storage
    }

    /// Checks what Minecraft would only find later: an unset single value,
    /// indices past the palette's end, ids outside the registry. The strict
    /// loads ([`read`](Self::read), [`unpack`](Self::unpack)) keep a
    /// container only if it passes, so every one of them holds the
    /// invariants above.
    fn validate(&self) -> Result<(), Error> {
        let registry = self.strategy.registry_size();
        match &self.palette {
            Palette::Single(None) => return Err(Error::Empty),
            Palette::Single(Some(v)) if *v >= registry => {
                return Err(Error::Id { id: *v, registry });
            }
            Palette::Single(_) => return Ok(()),
            _ => {}
        }
        let len = u32::try_from(self.palette.len()).unwrap_or(u32::MAX);
        match self.storage.find_at_least(len) {
            Some((_, id)) if matches!(self.palette, Palette::Global { .. }) => {
                Err(Error::Id { id, registry })
            }
            Some((at, index)) => Err(Error::Index { at, index }),
            None => Ok(()),
        }
    }
}

impl PartialEq for PalettedContainer {
    /// Equal when Minecraft could not tell them apart: same strategy,
    /// configuration, palette entries in order, and longs.
    fn eq(&self, other: &Self) -> bool {
        self.strategy == other.strategy
            && self
                .strategy
                .rules()
                .same_configuration(self.config, other.config)
            && self.palette.same_entries(&other.palette)
            && self.storage == other.storage
    }
}

impl Eq for PalettedContainer {}

/// The strict calls' check of a value, made before anything changes.
#[inline]
fn check_value(strategy: &Strategy, value: u32) {
    assert!(
        value < strategy.registry_size(),
        "value {value} is not below the registry size {}",
        strategy.registry_size()
    );
}
