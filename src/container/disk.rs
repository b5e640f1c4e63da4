//! The disk form: the container as a region file saves it (`Packed`).

use super::{PalettedContainer, at, fail};
use crate::count;
use crate::palette::{NULL, Palette, PaletteKind};
use crate::storage::BitStorage;
use crate::{Configuration, Error, Packed, Strategy};

impl PalettedContainer {
    /// The container as `pack` saves it to a region file: a fresh palette of
    /// the values in the order they first appear from index 0 up (stale
    /// entries gone), and the indices at the on-disk width for that palette
    /// size (300 block states take 9 bits, not 16). One value: no longs.
    ///
    /// ```
    /// use paletted::{Packed, PalettedContainer, Strategy};
    ///
    /// let blocks = Strategy::block_states(35723);
    /// let values: Vec<u32> = (0..4096).map(|i| 1000 + i % 300).collect();
    /// let c = PalettedContainer::from_values(blocks, &values);
    /// assert_eq!(c.bits(), 16); // registry ids in memory
    /// let saved = c.pack();
    /// assert_eq!((saved.palette.len(), saved.bits), (300, 9));
    /// assert_eq!(saved.data.map(|longs| longs.len()), Some(586)); // 7 indices a long
    /// let one = Packed { palette: vec![5], data: None, bits: 0 };
    /// assert_eq!(PalettedContainer::new(5, blocks).pack(), one);
    /// ```
    ///
    /// # Panics
    /// Where [`try_pack`](Self::try_pack) fails.
    pub fn pack(&self) -> Packed {
        self.try_pack().unwrap_or_else(|e| fail(e))
    }

    /// [`pack`](Self::pack), or the failure Minecraft throws for a leniently
    /// loaded container. Before 26.x the saved form declares no bit count,
    /// so there `bits` is -1.
    ///
    /// ```
    /// use paletted::{Packed, PalettedContainer, Strategy, Version};
    ///
    /// let old = PalettedContainer::new(5, Version::V1_20_1.block_strategy());
    /// assert_eq!(old.try_pack().map(|p| p.bits), Ok(-1));
    /// // A save whose index at position 0 (15) is past its palette of two.
    /// let mut data = vec![0i64; 256];
    /// data[0] = 0xf;
    /// let blocks = Strategy::block_states(35723);
    /// let c = PalettedContainer::unpack_lenient(blocks, Packed::new(vec![7, 8], Some(data))).unwrap();
    /// assert_eq!(c.try_pack().unwrap_err().to_string(), "Missing Palette entry for index 15.");
    /// ```
    pub fn try_pack(&self) -> Result<Packed, Error> {
        let mut packed = self.pack_declared()?;
        if !self.strategy.rules().declares_bits() {
            packed.bits = -1;
        }
        Ok(packed)
    }

    fn pack_declared(&self) -> Result<Packed, Error> {
        let size = self.storage.len();
        let mut palette: Vec<u32> = Vec::new();
        let mut indices: Vec<u32> = Vec::with_capacity(size);
        if let Palette::Single(_) = self.palette {
            palette.push(self.palette.value_for(0)?);
            indices.resize(size, 0);
        } else if let Some(packed) = self.pack_nibbles() {
            return Ok(packed);
        } else if let Some(fast) = self.pack_list_fast(&mut palette, &mut indices) {
            fast?;
        } else {
            let mut lookup = FirstAppearance::new(&self.palette, self.strategy.registry_size());
            let mut failure = None;
            self.storage.for_each(|i, id| {
                if failure.is_some() {
                    return;
                }
                match lookup.index(&self.palette, id, &mut palette) {
                    Ok(n) => indices.push(n),
                    Err(e) => failure = Some(at(e, i)),
                }
            });
            if let Some(e) = failure {
                return Err(e);
            }
        }
        let config = self.strategy.configuration_for_palette_len(palette.len());
        let bits = config.disk_bits;
        let data = (bits != 0).then(|| BitStorage::from_values(bits, size, &indices).into_longs());
        Ok(Packed {
            palette,
            data,
            bits: bits as i32,
        })
    }

    /// `pack` of a 4-bit list palette of distinct entries whose values all
    /// have entries, a byte (two values) at a time: one pass finds the
    /// first appearances, a second maps every byte through a table built
    /// from them. `None` where that does not apply (the general path then
    /// does the work, and reports any bad index).
    fn pack_nibbles(&self) -> Option<Packed> {
        let entries = self.palette.list()?;
        if self.storage.bits() != 4 || self.storage.len() % 16 != 0 || !distinct(entries) {
            return None;
        }
        let order = count::first_nibbles(&self.storage, entries.len());
        let mut seen = 0u32;
        let mut map = [0u8; 16];
        let mut palette = Vec::with_capacity(order.len());
        for (n, &id) in order.iter().enumerate() {
            let value = *entries.get(id as usize)?;
            if value == NULL {
                return None;
            }
            seen |= 1 << id;
            map[id as usize] = n as u8;
            palette.push(value);
        }
        let config = self.strategy.configuration_for_palette_len(palette.len());
        if palette.len() == 1 {
            // The scan stopped at the first value; Minecraft looks every
            // stored index up, so one past the palette (an in-place read cut
            // short in its longs keeps the old indices) must still fail.
            if self.storage.find_at_least(entries.len() as u32).is_some() {
                return None;
            }
            return Some(Packed {
                palette,
                data: None,
                bits: config.disk_bits as i32,
            });
        }
        if config.disk_bits != 4 {
            return None;
        }
        // Each byte maps to its new byte; bit 8 marks a value never seen
        // above (an index past the palette, met after the scan stopped).
        let mut table = [0u16; 256];
        for (byte, slot) in table.iter_mut().enumerate() {
            let (lo, hi) = (byte & 15, byte >> 4);
            let unseen = (seen >> lo) & (seen >> hi) & 1 == 0;
            *slot = u16::from(map[lo] | (map[hi] << 4)) | (u16::from(unseen) << 8);
        }
        let mut unseen = 0u16;
        let data = self
            .storage
            .longs()
            .iter()
            .map(|&long| {
                let bytes = (long as u64).to_le_bytes().map(|b| {
                    let t = table[usize::from(b)];
                    unseen |= t;
                    t as u8
                });
                u64::from_le_bytes(bytes) as i64
            })
            .collect();
        if unseen & 0x100 != 0 {
            return None;
        }
        Some(Packed {
            palette,
            data: Some(data),
            bits: 4,
        })
    }

    /// First-appearance re-encoding for list palettes without repeated
    /// entries: a table from old id to new index, filled on first sight.
    /// `None` when the palette is not such a list.
    fn pack_list_fast(
        &self,
        palette: &mut Vec<u32>,
        indices: &mut Vec<u32>,
    ) -> Option<Result<(), Error>> {
        let entries = self.palette.list()?;
        if entries.len() > 256 {
            return None;
        }
        if !distinct(entries) {
            return None;
        }
        let mut map = [u32::MAX; 256];
        let mut bad = None;
        self.storage.each(|id| {
            let i = indices.len();
            let slot = &mut map[id as usize & 255];
            if *slot == u32::MAX {
                if (id as usize) < entries.len() {
                    *slot = palette.len() as u32;
                    palette.push(entries[id as usize]);
                } else if bad.is_none() {
                    bad = Some(Error::Index { at: i, index: id });
                }
            }
            indices.push(*slot);
        });
        Some(bad.map_or(Ok(()), Err))
    }

    /// The container a region file's palette and longs describe, as
    /// Minecraft's `unpack` reads it, with every failure Minecraft defers to
    /// later reported now: an empty palette is [`Error::Empty`] and an index
    /// past the palette's end is [`Error::Index`].
    ///
    /// ```
    /// use paletted::{Packed, PalettedContainer, Strategy};
    ///
    /// // Two biomes, 1 bit each: index 1 holds palette id 1.
    /// let biomes = Strategy::biomes(65);
    /// let c = PalettedContainer::unpack(biomes, Packed::new(vec![1, 2], Some(vec![0b10]))).unwrap();
    /// assert_eq!((c.get_at(0), c.get_at(1), c.get_at(2)), (1, 2, 1));
    /// // An empty palette: Minecraft loads it and fails later; here, now.
    /// let err = PalettedContainer::unpack(biomes, Packed::new(vec![], None)).unwrap_err();
    /// assert_eq!(err.to_string(), "Empty palette");
    /// ```
    ///
    /// # Errors
    /// [`Error::BitCount`] (in every version: a declared count that
    /// disagrees with the palette is inconsistent even where Minecraft's
    /// saves declare none), [`Error::MissingData`], [`Error::Length`],
    /// [`Error::Empty`], [`Error::Index`], and [`Error::Id`] for an id
    /// outside the registry.
    pub fn unpack(strategy: Strategy, packed: Packed) -> Result<PalettedContainer, Error> {
        PalettedContainer::check_bit_count(&strategy, &packed)?;
        if packed.palette.is_empty() {
            return Err(Error::Empty);
        }
        let container = PalettedContainer::unpack_lenient(strategy, packed)?;
        // The global configuration's ids come from the saved palette, whose
        // every entry was checked against the registry: nothing to find.
        if container.palette_kind() != PaletteKind::Global {
            container.validate()?;
        }
        Ok(container)
    }

    fn check_bit_count(strategy: &Strategy, packed: &Packed) -> Result<Configuration, Error> {
        let config = strategy.configuration_for_palette_len(packed.palette.len());
        if packed.bits != -1 && packed.bits != config.disk_bits as i32 {
            return Err(Error::BitCount {
                calculated: config.disk_bits,
                declared: packed.bits,
            });
        }
        Ok(config)
    }

    /// [`unpack`](Self::unpack) exactly as Minecraft does it: an empty
    /// palette loads as an unset single value, and with a palette kept as
    /// saved an index past its end loads and fails when read. Only the
    /// global configuration translates indices on load, so there an index
    /// past the palette's end is an error now, as Minecraft throws it then.
    /// Before 26.x a declared bit count is not looked at.
    ///
    /// ```
    /// use paletted::{Packed, PalettedContainer, Strategy};
    ///
    /// // An empty palette loads, as an unset single value.
    /// let blocks = Strategy::block_states(35723);
    /// let mut c = PalettedContainer::unpack_lenient(blocks, Packed::new(vec![], None)).unwrap();
    /// assert_eq!(c.try_get(0, 0, 0).unwrap_err().to_string(), "Missing Palette entry for id 0.");
    /// assert_eq!(c.try_write(&mut Vec::new()).unwrap_err().to_string(), "Use of an uninitialized palette");
    /// // The first set fills it, everywhere.
    /// c.set(0, 0, 0, 9);
    /// assert_eq!(c.get(15, 15, 15), 9);
    /// ```
    pub fn unpack_lenient(strategy: Strategy, packed: Packed) -> Result<PalettedContainer, Error> {
        let config = if strategy.rules().declares_bits() {
            PalettedContainer::check_bit_count(&strategy, &packed)?
        } else {
            strategy.configuration_for_palette_len(packed.palette.len())
        };
        let registry = strategy.registry_size();
        if let Some(&id) = packed.palette.iter().find(|&&id| id >= registry) {
            return Err(Error::Id { id, registry });
        }
        let size = strategy.size();
        if config.bits == 0 {
            // No bits in memory (a single value, or the global palette of a
            // registry of one id): the data, if any, is not looked at.
            return Ok(PalettedContainer {
                strategy,
                config,
                palette: Palette::from_entries(config.kind, 0, registry, &packed.palette),
                storage: BitStorage::new(0, size),
            });
        }
        let data = packed.data.ok_or(Error::MissingData)?;
        let length = |e| match e {
            Error::StorageLength { got, expected } => Error::Length { got, expected },
            e => e,
        };
        if config.kind != PaletteKind::Global {
            let storage = BitStorage::from_longs(config.bits, size, data).map_err(length)?;
            let palette =
                Palette::from_entries(config.kind, config.bits, registry, &packed.palette);
            return Ok(PalettedContainer {
                strategy,
                config,
                palette,
                storage,
            });
        }
        let saved = BitStorage::from_longs(config.disk_bits, size, data).map_err(length)?;
        let storage = saved
            .translate(config.bits, &packed.palette)
            .map_err(|(at, index)| Error::Index { at, index })?;
        Ok(PalettedContainer {
            strategy,
            config,
            palette: Palette::Global { registry },
            storage,
        })
    }
}

/// Whether no entry repeats (a loaded palette may repeat one) and none is
/// [`NULL`] (which a fresh palette gives no entry of its own).
fn distinct(entries: &[u32]) -> bool {
    let mut sorted = entries.to_vec();
    sorted.sort_unstable();
    sorted.windows(2).all(|w| w[0] != w[1]) && !entries.contains(&NULL)
}

/// Maps old palette ids to first-appearance indices for `pack`.
struct FirstAppearance {
    /// Old id -> new index + 1 (0 = not seen yet).
    by_id: Vec<u32>,
    /// Value -> new index + 1, for palettes that repeat a value.
    by_value: std::collections::HashMap<u32, u32>,
}

impl FirstAppearance {
    fn new(palette: &Palette, registry: u32) -> FirstAppearance {
        let ids = match palette {
            Palette::Global { .. } => registry as usize,
            _ => palette.len(),
        };
        FirstAppearance {
            by_id: vec![0; ids.min(1 << 26)],
            by_value: Default::default(),
        }
    }

    #[inline]
    fn index(&mut self, palette: &Palette, id: u32, out: &mut Vec<u32>) -> Result<u32, Error> {
        if let Some(&n) = self.by_id.get(id as usize) {
            if n != 0 {
                return Ok(n - 1);
            }
        }
        let value = palette.value_for(id)?;
        if value == NULL {
            // A fresh hash palette gives a null the id of an empty slot of
            // its table, 0, and takes no entry for it.
            if let Some(slot) = self.by_id.get_mut(id as usize) {
                *slot = 1;
            }
            return Ok(0);
        }
        let n = if let (Palette::Global { .. }, true) = (palette, (id as usize) < self.by_id.len())
        {
            // Global ids are values: no two ids share one, and the table
            // remembers this one.
            out.push(value);
            out.len() as u32
        } else {
            *self.by_value.entry(value).or_insert_with(|| {
                out.push(value);
                out.len() as u32
            })
        };
        if let Some(slot) = self.by_id.get_mut(id as usize) {
            *slot = n;
        }
        Ok(n - 1)
    }
}
