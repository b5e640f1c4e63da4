//! Single values read and written, Minecraft's way (`try_`) and the
//! strict way, and the whole-container queries: the palette, the counts,
//! the distinct values.

use super::{PalettedContainer, at, check_value, fail};
use crate::Error;
use crate::count;
use crate::palette::Palette;

impl PalettedContainer {
    /// The value at a position.
    ///
    /// ```
    /// use paletted::{PalettedContainer, Strategy};
    ///
    /// let mut c = PalettedContainer::new(0, Strategy::block_states(35723));
    /// c.set(3, 0, 5, 88);
    /// assert_eq!((c.get(3, 0, 5), c.get(5, 0, 3)), (88, 0));
    /// ```
    ///
    /// # Panics
    /// If the position is outside the container, or the container was loaded
    /// leniently and Minecraft would throw here.
    #[inline]
    pub fn get(&self, x: i32, y: i32, z: i32) -> u32 {
        let i = self.strategy.index(x, y, z);
        // The index is inside by construction: no second check.
        self.lookup(self.storage.get_in_range(i), i)
            .unwrap_or_else(|e| fail(e))
    }

    /// The value at index `i` (see [`Strategy::index`](crate::Strategy::index)).
    ///
    /// ```
    /// use paletted::{PalettedContainer, Strategy};
    ///
    /// let blocks = Strategy::block_states(35723);
    /// let mut c = PalettedContainer::new(0, blocks);
    /// c.set(3, 0, 5, 88);
    /// assert_eq!(blocks.index(3, 0, 5), 83); // z * 16 + x on the bottom layer
    /// assert_eq!(c.get_at(83), 88);
    /// ```
    ///
    /// # Panics
    /// As [`get`](Self::get).
    #[inline]
    pub fn get_at(&self, i: usize) -> u32 {
        self.try_get_at(i).unwrap_or_else(|e| fail(e))
    }

    /// The value at a position as Minecraft's `get(x, y, z)` gives it: the
    /// index is computed in Java's `int` arithmetic
    /// ([`Strategy::java_index`](crate::Strategy::java_index)) and only it is range-checked. [`NULL`](crate::NULL)
    /// for a never-written slot of a leniently read linear palette.
    ///
    /// ```
    /// use paletted::{PalettedContainer, Strategy};
    ///
    /// let mut c = PalettedContainer::new(0, Strategy::block_states(35723));
    /// c.set(0, 0, 1, 88);
    /// // x = 16 is not checked on its own: it runs into the next row, (0, 0, 1).
    /// assert_eq!(c.try_get(16, 0, 0), Ok(88));
    /// let err = c.try_get(0, 16, 0).unwrap_err();
    /// assert_eq!(err.to_string(), "The value 4096 is not in the specified inclusive range of 0 to 4095");
    /// ```
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for an index outside the container; for a
    /// leniently loaded container, the failure Minecraft throws
    /// ([`Error::Index`], [`Error::MissingPaletteValue`],
    /// [`Error::ArrayIndex`]).
    #[inline]
    pub fn try_get(&self, x: i32, y: i32, z: i32) -> Result<u32, Error> {
        self.get_java(self.strategy.java_index(x, y, z))
    }

    /// The value at index `i`, as [`try_get`](Self::try_get).
    ///
    /// ```
    /// use paletted::{Error, Packed, PalettedContainer, Strategy};
    ///
    /// // A save whose index at position 0 (15) is past its palette of two.
    /// let mut data = vec![0i64; 256];
    /// data[0] = 0xf;
    /// let saved = Packed::new(vec![7, 8], Some(data));
    /// let c = PalettedContainer::unpack_lenient(Strategy::block_states(35723), saved).unwrap();
    /// assert_eq!(c.try_get_at(1), Ok(7));
    /// assert_eq!(c.try_get_at(0), Err(Error::Index { at: 0, index: 15 }));
    /// assert_eq!(c.try_get_at(0).unwrap_err().to_string(), "Missing Palette entry for index 15.");
    /// ```
    #[inline]
    pub fn try_get_at(&self, i: usize) -> Result<u32, Error> {
        self.get_java(i64::try_from(i).unwrap_or(i64::MAX))
    }

    #[inline]
    fn get_java(&self, i: i64) -> Result<u32, Error> {
        let id = self.storage.try_get(i)?;
        self.lookup(id, i as usize)
    }

    /// The value for palette id `id`, stored at `i`: the list palettes'
    /// common case inline, every other case (and every failure) through the
    /// palette.
    #[inline(always)]
    fn lookup(&self, id: u32, i: usize) -> Result<u32, Error> {
        // Two tests, not a jump table: an indirect jump on every get costs
        // more than the tests it replaces.
        if let Palette::HashMap { entries, .. } = &self.palette {
            if let Some(&v) = entries.get(id as usize) {
                return Ok(v);
            }
        } else if let Palette::Linear { slots, size } = &self.palette {
            if i64::from(id) < i64::from(*size) {
                if let Some(&v) = slots.get(id as usize) {
                    return Ok(v);
                }
            }
        }
        self.palette.value_for(id).map_err(|e| at(e, i))
    }

    /// Sets the value at a position, growing the palette if the value is new.
    ///
    /// ```
    /// use paletted::{PalettedContainer, Strategy};
    ///
    /// let mut c = PalettedContainer::new(0, Strategy::block_states(35723));
    /// c.set(0, 0, 0, 88);
    /// // Air and bedrock: the 4-bit linear palette.
    /// assert_eq!((c.palette(), c.bits()), (vec![0, 88], 4));
    /// assert_eq!(c.get(0, 0, 0), 88);
    /// ```
    ///
    /// # Panics
    /// If the position is outside the container or `value` is not below the
    /// registry's size (nothing is changed first), or the container was
    /// loaded leniently and Minecraft would throw here.
    #[inline(always)]
    pub fn set(&mut self, x: i32, y: i32, z: i32, value: u32) {
        let i = self.strategy.index(x, y, z);
        check_value(&self.strategy, value);
        self.store(i, value).unwrap_or_else(|e| fail(e))
    }

    /// Sets the value at index `i`.
    ///
    /// ```
    /// use paletted::{PalettedContainer, Strategy};
    ///
    /// let mut c = PalettedContainer::new(0, Strategy::block_states(35723));
    /// // Indices 0 to 255 are the bottom layer: bedrock.
    /// (0..256).for_each(|i| c.set_at(i, 88));
    /// assert_eq!((c.get(15, 0, 15), c.get(0, 1, 0)), (88, 0));
    /// assert_eq!(c.counts(), [(0, 3840), (88, 256)]);
    /// ```
    ///
    /// # Panics
    /// As [`set`](Self::set).
    #[inline(always)]
    pub fn set_at(&mut self, i: usize, value: u32) {
        self.check_call(i, value);
        self.store(i, value).unwrap_or_else(|e| fail(e))
    }

    /// Sets the value at a position as Minecraft's `set(x, y, z, value)`
    /// does: the palette takes the value first (growing if it is new), then
    /// the storage checks the index, so a position outside the container
    /// can still grow the palette before it fails.
    ///
    /// ```
    /// use paletted::{PalettedContainer, Strategy};
    ///
    /// let mut c = PalettedContainer::new(0, Strategy::block_states(35723));
    /// let err = c.try_set(0, 16, 0, 88).unwrap_err();
    /// assert_eq!(err.to_string(), "The value 4096 is not in the specified inclusive range of 0 to 4095");
    /// // The palette took 88 (and grew) before the index failed.
    /// assert_eq!(c.palette(), [0, 88]);
    /// assert_eq!(c.distinct(), [0]);
    /// ```
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for an index outside the container or a palette
    /// id past the storage's width (a hash palette read overfull);
    /// [`Error::Id`] for a value outside the registry (nothing changed);
    /// for a leniently loaded container, the failure Minecraft throws.
    #[inline]
    pub fn try_set(&mut self, x: i32, y: i32, z: i32, value: u32) -> Result<(), Error> {
        self.set_java(self.strategy.java_index(x, y, z), value)
    }

    /// [`try_set`](Self::try_set) at index `i`.
    ///
    /// ```
    /// use paletted::{Error, PalettedContainer, Strategy};
    ///
    /// let mut c = PalettedContainer::new(0, Strategy::biomes(65));
    /// assert_eq!(c.try_set_at(0, 65), Err(Error::Id { id: 65, registry: 65 }));
    /// assert_eq!(c.palette(), [0]); // nothing changed
    /// assert_eq!(c.try_set_at(63, 64), Ok(()));
    /// assert_eq!(c.get(3, 3, 3), 64);
    /// ```
    #[inline]
    pub fn try_set_at(&mut self, i: usize, value: u32) -> Result<(), Error> {
        self.set_java(i64::try_from(i).unwrap_or(i64::MAX), value)
    }

    #[inline]
    fn set_java(&mut self, i: i64, value: u32) -> Result<(), Error> {
        let id = self.id_to_store(value)?;
        self.storage.try_set(i, i64::from(id))
    }

    /// Sets the value at a position and gives the one it replaced.
    ///
    /// ```
    /// use paletted::{PalettedContainer, Strategy};
    ///
    /// let mut c = PalettedContainer::new(0, Strategy::block_states(35723));
    /// assert_eq!(c.get_and_set(7, 3, 7, 1), 0);
    /// assert_eq!(c.get_and_set(7, 3, 7, 9), 1);
    /// assert_eq!(c.get(7, 3, 7), 9);
    /// ```
    ///
    /// # Panics
    /// As [`set`](Self::set).
    #[inline(always)]
    pub fn get_and_set(&mut self, x: i32, y: i32, z: i32, value: u32) -> u32 {
        let i = self.strategy.index(x, y, z);
        check_value(&self.strategy, value);
        self.swap(i, value).unwrap_or_else(|e| fail(e))
    }

    /// Sets the value at index `i` and gives the one it replaced.
    ///
    /// ```
    /// use paletted::{PalettedContainer, Strategy};
    ///
    /// let mut c = PalettedContainer::new(1, Strategy::biomes(65));
    /// assert_eq!(c.get_and_set_at(63, 40), 1);
    /// assert_eq!(c.get_and_set_at(63, 41), 40);
    /// assert_eq!(c.palette(), [1, 40, 41]); // 40 stays, stale
    /// ```
    ///
    /// # Panics
    /// As [`set`](Self::set).
    #[inline(always)]
    pub fn get_and_set_at(&mut self, i: usize, value: u32) -> u32 {
        self.check_call(i, value);
        self.swap(i, value).unwrap_or_else(|e| fail(e))
    }

    /// Sets the value at a position and gives the one it replaced, as
    /// Minecraft's `getAndSet` does: as [`try_set`](Self::try_set), and the
    /// new value is stored even when the old index has no palette entry;
    /// then the error is returned.
    ///
    /// ```
    /// use paletted::{Packed, PalettedContainer, Strategy};
    ///
    /// // A save whose index at position 0 (15) is past its palette of two.
    /// let mut data = vec![0i64; 256];
    /// data[0] = 0xf;
    /// let saved = Packed::new(vec![7, 8], Some(data));
    /// let mut c = PalettedContainer::unpack_lenient(Strategy::block_states(35723), saved).unwrap();
    /// let err = c.try_get_and_set(0, 0, 0, 8).unwrap_err();
    /// assert_eq!(err.to_string(), "Missing Palette entry for index 15.");
    /// assert_eq!(c.get(0, 0, 0), 8); // stored all the same
    /// ```
    #[inline]
    pub fn try_get_and_set(&mut self, x: i32, y: i32, z: i32, value: u32) -> Result<u32, Error> {
        self.get_and_set_java(self.strategy.java_index(x, y, z), value)
    }

    /// [`try_get_and_set`](Self::try_get_and_set) at index `i`.
    ///
    /// ```
    /// use paletted::{PalettedContainer, Strategy};
    ///
    /// let mut c = PalettedContainer::new(4, Strategy::biomes(65));
    /// assert_eq!(c.try_get_and_set_at(63, 9), Ok(4));
    /// let err = c.try_get_and_set_at(64, 9).unwrap_err();
    /// assert_eq!(err.to_string(), "The value 64 is not in the specified inclusive range of 0 to 63");
    /// ```
    #[inline]
    pub fn try_get_and_set_at(&mut self, i: usize, value: u32) -> Result<u32, Error> {
        self.get_and_set_java(i64::try_from(i).unwrap_or(i64::MAX), value)
    }

    fn get_and_set_java(&mut self, i: i64, value: u32) -> Result<u32, Error> {
        let id = self.id_to_store(value)?;
        let old = self.storage.try_get_and_set(i, i64::from(id))?;
        self.palette.value_for(old).map_err(|e| at(e, i as usize))
    }

    /// The strict `set`'s core once its checks pass (`i` inside, `value`
    /// in the registry): Minecraft's store, with no index check left to
    /// make.
    ///
    /// An id the palette finds fits the storage (see [`Palette::find`]), so
    /// only a new id, or one of an overfull palette, meets the storage's
    /// check of the value.
    #[inline(always)]
    pub(super) fn store(&mut self, i: usize, value: u32) -> Result<(), Error> {
        match self.palette.find(value) {
            Some(id) => {
                self.storage.put_fitting(i, id);
                Ok(())
            }
            None => {
                let id = self.id_for(value)?;
                self.storage.set_in_range(i, i64::from(id))
            }
        }
    }

    /// [`store`](Self::store), giving the value replaced.
    #[inline(always)]
    fn swap(&mut self, i: usize, value: u32) -> Result<u32, Error> {
        let old = match self.palette.find(value) {
            Some(id) => self.storage.replace_fitting(i, id),
            None => {
                let id = self.id_for(value)?;
                self.storage.get_and_set_in_range(i, i64::from(id))?
            }
        };
        self.lookup(old, i)
    }

    /// The strict calls' checks, made before anything changes.
    #[inline(always)]
    pub(super) fn check_call(&self, i: usize, value: u32) {
        assert!(
            i < self.strategy.size(),
            "index {i} is outside a container of {}",
            self.strategy.size()
        );
        check_value(&self.strategy, value);
    }

    /// The palette id to store for `value`, growing the container when the
    /// palette is full. A value the palette holds is found without a
    /// change (the common case, inline).
    #[inline(always)]
    fn id_to_store(&mut self, value: u32) -> Result<u32, Error> {
        let registry = self.strategy.registry_size();
        if value >= registry {
            return Err(Error::Id {
                id: value,
                registry,
            });
        }
        self.palette_id(value)
    }

    /// The palette id of `value`, known to be in the registry: found, or
    /// added.
    #[inline(always)]
    fn palette_id(&mut self, value: u32) -> Result<u32, Error> {
        match self.palette.find(value) {
            Some(id) => Ok(id),
            None => self.id_for(value),
        }
    }

    /// Every palette entry in palette order, stale ones included; every
    /// registry id for the global palette.
    ///
    /// ```
    /// use paletted::{PalettedContainer, Strategy};
    ///
    /// let mut c = PalettedContainer::new(0, Strategy::block_states(35723));
    /// c.set(0, 0, 0, 88);
    /// c.set(0, 0, 0, 0);
    /// // 88 is stored nowhere, but stays in the palette until a resize or `pack`.
    /// assert_eq!(c.palette(), [0, 88]);
    /// assert_eq!(c.distinct(), [0]);
    /// assert_eq!(c.pack().palette, [0]);
    /// ```
    ///
    /// # Panics
    /// If the container was loaded from an empty palette and not yet set.
    pub fn palette(&self) -> Vec<u32> {
        self.try_palette().unwrap_or_else(|e| fail(e))
    }

    /// [`palette`](Self::palette), or [`Error::MissingPaletteValue`].
    ///
    /// ```
    /// use paletted::{Error, Packed, PalettedContainer, Strategy};
    ///
    /// let biomes = Strategy::biomes(65);
    /// let unset = PalettedContainer::unpack_lenient(biomes, Packed::new(vec![], None)).unwrap();
    /// assert_eq!(unset.try_palette(), Err(Error::MissingPaletteValue));
    /// assert_eq!(PalettedContainer::new(3, biomes).try_palette(), Ok(vec![3]));
    /// ```
    pub fn try_palette(&self) -> Result<Vec<u32>, Error> {
        self.palette.entries()
    }

    /// Each value present and how many times, in the order Minecraft's
    /// `count` reports them: one pair for a palette of one entry, otherwise
    /// the iteration order of the fastutil map Minecraft tallies into (not
    /// palette order: the flat world's section gives 0, 10, 88, 9).
    ///
    /// ```
    /// use paletted::{PalettedContainer, Strategy};
    ///
    /// // The flat world's bottom section, set over air in index order.
    /// let flat: Vec<u32> = (0..4096)
    ///     .map(|i| match i / 256 { 0 => 88, 1 | 2 => 10, 3 => 9, _ => 0 })
    ///     .collect();
    /// let c = PalettedContainer::from_values_with(0, Strategy::block_states(35723), &flat);
    /// assert_eq!(c.palette(), [0, 88, 10, 9]);
    /// assert_eq!(c.counts(), [(0, 3072), (10, 512), (88, 256), (9, 256)]);
    /// ```
    ///
    /// # Panics
    /// Where [`try_counts`](Self::try_counts) fails.
    pub fn counts(&self) -> Vec<(u32, usize)> {
        self.try_counts().unwrap_or_else(|e| fail(e))
    }

    /// [`counts`](Self::counts), or the failure Minecraft throws for a
    /// leniently loaded container.
    ///
    /// ```
    /// use paletted::{Packed, PalettedContainer, Strategy};
    ///
    /// let blocks = Strategy::block_states(35723);
    /// assert_eq!(PalettedContainer::new(1, blocks).try_counts(), Ok(vec![(1, 4096)]));
    /// // A save whose index at position 0 (15) is past its palette of two.
    /// let mut data = vec![0i64; 256];
    /// data[0] = 0xf;
    /// let c = PalettedContainer::unpack_lenient(blocks, Packed::new(vec![7, 8], Some(data))).unwrap();
    /// assert_eq!(c.try_counts().unwrap_err().to_string(), "Missing Palette entry for index 15.");
    /// ```
    pub fn try_counts(&self) -> Result<Vec<(u32, usize)>, Error> {
        if self.palette.size() == 1 {
            return Ok(vec![(self.palette.value_for(0)?, self.storage.len())]);
        }
        let mut counts = count::tally(&self.storage, self.palette.len());
        for (id, _) in &mut counts {
            *id = self.palette.value_for(*id)?;
        }
        Ok(counts)
    }

    /// The distinct values stored, in the order they first appear from index
    /// 0 up (Minecraft's `getAll`).
    ///
    /// ```
    /// use paletted::{PalettedContainer, Strategy};
    ///
    /// // The flat world's bottom section, set over air in index order.
    /// let flat: Vec<u32> = (0..4096)
    ///     .map(|i| match i / 256 { 0 => 88, 1 | 2 => 10, 3 => 9, _ => 0 })
    ///     .collect();
    /// let c = PalettedContainer::from_values_with(0, Strategy::block_states(35723), &flat);
    /// assert_eq!(c.palette(), [0, 88, 10, 9]);
    /// assert_eq!(c.distinct(), [88, 10, 9, 0]);
    /// ```
    ///
    /// # Panics
    /// Where [`try_distinct`](Self::try_distinct) fails.
    pub fn distinct(&self) -> Vec<u32> {
        self.try_distinct().unwrap_or_else(|e| fail(e))
    }

    /// [`distinct`](Self::distinct), or the failure Minecraft throws for a
    /// leniently loaded container.
    ///
    /// ```
    /// use paletted::{Packed, PalettedContainer, Strategy};
    ///
    /// let biomes = Strategy::biomes(65);
    /// let unset = PalettedContainer::unpack_lenient(biomes, Packed::new(vec![], None)).unwrap();
    /// assert_eq!(unset.try_distinct().unwrap_err().to_string(), "Missing Palette entry for id 0.");
    /// assert_eq!(PalettedContainer::new(3, biomes).try_distinct(), Ok(vec![3]));
    /// ```
    pub fn try_distinct(&self) -> Result<Vec<u32>, Error> {
        // Only a single-value palette is asked for its one value; a list
        // palette of one entry looks every stored index up.
        if let Palette::Single(_) = self.palette {
            return Ok(vec![self.palette.value_for(0)?]);
        }
        let mut seen = SeenSet::new(self.palette.len());
        let mut ids = Vec::new();
        self.storage.each(|id| {
            if seen.insert(id) {
                ids.push(id);
            }
        });
        ids.into_iter()
            .map(|id| self.palette.value_for(id))
            .collect()
    }

    /// Whether `value` may be present, asking the palette alone: stale
    /// entries say yes, and the global palette always does.
    ///
    /// ```
    /// use paletted::{PalettedContainer, Strategy};
    ///
    /// let biomes = Strategy::biomes(65);
    /// let mut c = PalettedContainer::new(0, biomes);
    /// c.set_at(0, 7);
    /// c.set_at(0, 0);
    /// assert!(c.maybe_has(7)); // stored nowhere, but in the palette
    /// assert!(!c.maybe_has(8));
    /// // The global palette says yes to every id.
    /// let nine: Vec<u32> = (0..64).map(|i| i % 9).collect();
    /// assert!(PalettedContainer::from_values(biomes, &nine).maybe_has(64));
    /// ```
    ///
    /// # Panics
    /// If the container was loaded from an empty palette and not yet set.
    pub fn maybe_has(&self, value: u32) -> bool {
        self.try_maybe_has(value).unwrap_or_else(|e| fail(e))
    }

    /// [`maybe_has`](Self::maybe_has), or [`Error::Uninitialized`].
    ///
    /// ```
    /// use paletted::{Packed, PalettedContainer, Strategy};
    ///
    /// let biomes = Strategy::biomes(65);
    /// let unset = PalettedContainer::unpack_lenient(biomes, Packed::new(vec![], None)).unwrap();
    /// assert_eq!(unset.try_maybe_has(0).unwrap_err().to_string(), "Use of an uninitialized palette");
    /// assert_eq!(PalettedContainer::new(3, biomes).try_maybe_has(3), Ok(true));
    /// ```
    pub fn try_maybe_has(&self, value: u32) -> Result<bool, Error> {
        self.palette.maybe_has(value)
    }
}

/// Which palette ids have been seen: a bit set over the ids a storage can hold.
struct SeenSet {
    words: Vec<u64>,
    overflow: std::collections::HashSet<u32>,
}

impl SeenSet {
    fn new(len: usize) -> SeenSet {
        SeenSet {
            words: vec![0; len.min(1 << 20).div_ceil(64).max(1)],
            overflow: Default::default(),
        }
    }

    fn insert(&mut self, id: u32) -> bool {
        let (w, b) = (id as usize / 64, id % 64);
        match self.words.get_mut(w) {
            Some(word) => {
                let fresh = *word & (1 << b) == 0;
                *word |= 1 << b;
                fresh
            }
            None => self.overflow.insert(id),
        }
    }
}
