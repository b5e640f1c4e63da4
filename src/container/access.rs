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
    #[inline]
    pub fn try_get_and_set(&mut self, x: i32, y: i32, z: i32, value: u32) -> Result<u32, Error> {
        self.get_and_set_java(self.strategy.java_index(x, y, z), value)
    }

    /// [`try_get_and_set`](Self::try_get_and_set) at index `i`.
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
    /// # Panics
    /// If the container was loaded from an empty palette and not yet set.
    pub fn palette(&self) -> Vec<u32> {
        self.try_palette().unwrap_or_else(|e| fail(e))
    }

    /// [`palette`](Self::palette), or [`Error::MissingPaletteValue`].
    pub fn try_palette(&self) -> Result<Vec<u32>, Error> {
        self.palette.entries()
    }

    /// Each value present and how many times, in the order Minecraft's
    /// `count` reports them: one pair for a palette of one entry, otherwise
    /// the iteration order of the fastutil map Minecraft tallies into (not
    /// palette order: the flat world's section gives 0, 10, 88, 9).
    ///
    /// # Panics
    /// Where [`try_counts`](Self::try_counts) fails.
    pub fn counts(&self) -> Vec<(u32, usize)> {
        self.try_counts().unwrap_or_else(|e| fail(e))
    }

    /// [`counts`](Self::counts), or the failure Minecraft throws for a
    /// leniently loaded container.
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
    /// # Panics
    /// Where [`try_distinct`](Self::try_distinct) fails.
    pub fn distinct(&self) -> Vec<u32> {
        self.try_distinct().unwrap_or_else(|e| fail(e))
    }

    /// [`distinct`](Self::distinct), or the failure Minecraft throws for a
    /// leniently loaded container.
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
    /// # Panics
    /// If the container was loaded from an empty palette and not yet set.
    pub fn maybe_has(&self, value: u32) -> bool {
        self.try_maybe_has(value).unwrap_or_else(|e| fail(e))
    }

    /// [`maybe_has`](Self::maybe_has), or [`Error::Uninitialized`].
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
