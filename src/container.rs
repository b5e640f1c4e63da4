use crate::count;
use crate::palette::{palette_push, Palette, PaletteKind, NULL};
use crate::storage::BitStorage;
use crate::wire::{self, Reader};
use crate::{Configuration, Error, Packed, Strategy};

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
#[derive(Clone, Debug)]
pub struct PalettedContainer {
    strategy: Strategy,
    config: Configuration,
    palette: Palette,
    storage: BitStorage,
}

#[inline(never)]
#[cold]
fn fail(e: Error) -> ! {
    panic!("{e}")
}

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
    pub fn strategy(&self) -> Strategy {
        self.strategy
    }

    /// The configuration in use now.
    pub fn configuration(&self) -> Configuration {
        self.config
    }

    /// The palette kind in use now.
    pub fn palette_kind(&self) -> PaletteKind {
        self.config.kind
    }

    /// Bits each value takes in memory and on the wire now.
    pub fn bits(&self) -> u32 {
        self.storage.bits()
    }

    /// The storage of palette indices.
    pub fn storage(&self) -> &BitStorage {
        &self.storage
    }

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

    /// The value at index `i` (see [`Strategy::index`]).
    ///
    /// # Panics
    /// As [`get`](Self::get).
    #[inline]
    pub fn get_at(&self, i: usize) -> u32 {
        self.try_get_at(i).unwrap_or_else(|e| fail(e))
    }

    /// The value at a position as Minecraft's `get(x, y, z)` gives it: the
    /// index is computed in Java's `int` arithmetic
    /// ([`Strategy::java_index`]) and only it is range-checked. [`NULL`]
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
    fn store(&mut self, i: usize, value: u32) -> Result<(), Error> {
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
    fn check_call(&self, i: usize, value: u32) {
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

    /// The palette id of a value the palette lacks, growing the container
    /// when the palette is full.
    #[inline(never)]
    fn id_for(&mut self, value: u32) -> Result<u32, Error> {
        match self.palette.id_for(value)? {
            Some(id) => Ok(id),
            None => self.grow(value),
        }
    }

    /// Moves to the configuration of one more bit: the values still stored
    /// are copied in index order (so stale entries drop out and the rest keep
    /// their first-appearance order), then `value` is added last. A hash
    /// palette has already taken `value` when it asks to grow, so a failed
    /// grow leaves it there, as in Minecraft.
    #[cold]
    fn grow(&mut self, value: u32) -> Result<u32, Error> {
        let config = self.strategy.configuration(self.config.bits + 1);
        let mut next = PalettedContainer::empty(self.strategy, config);
        // A fresh palette of one more bit holds every value the old storage
        // can refer to (at most 2^bits), so adding them never fails.
        const ROOM: &str = "a grown palette holds every stored value";
        if let Palette::Single(Some(v)) = self.palette {
            let id = next.palette.id_for(v).ok().flatten().expect(ROOM);
            next.storage.fill(id);
        } else {
            // Old ids map to new ones; the first sight of an old id adds its
            // value to the new palette.
            let mut map: Vec<u32> = vec![u32::MAX; self.palette.len().clamp(1, 1 << 16)];
            let mut failure = None;
            let mut ids: Vec<u32> = Vec::with_capacity(self.storage.len());
            let (old_palette, next_palette, next_storage) =
                (&self.palette, &mut next.palette, &mut ids);
            self.storage.for_each(|i, old| {
                if failure.is_some() {
                    return;
                }
                let slot = map.get(old as usize).copied().unwrap_or(u32::MAX);
                let id = if slot != u32::MAX {
                    slot
                } else {
                    match old_palette.value_for(old) {
                        Ok(v) => {
                            let id = next_palette.id_for(v).ok().flatten().expect(ROOM);
                            if let Some(s) = map.get_mut(old as usize) {
                                *s = id;
                            }
                            id
                        }
                        Err(e) => {
                            failure = Some(at(e, i));
                            return;
                        }
                    }
                };
                next_storage.push(id);
            });
            if let Some(e) = failure {
                return Err(e);
            }
            next.storage = BitStorage::from_values(config.bits, ids.len(), &ids);
        }
        *self = next;
        Ok(self.palette.id_for(value).ok().flatten().expect(ROOM))
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

    /// Appends the container as `PalettedContainer.write` sends it: a byte of
    /// the bits, the palette (the one id; or the count and the ids; or
    /// nothing for the global palette) as VarInts, then every long, 8 bytes
    /// big-endian, with no count before them.
    ///
    /// # Panics
    /// If the container was loaded from an empty palette and not yet set.
    pub fn write(&self, out: &mut Vec<u8>) {
        self.try_write(out).unwrap_or_else(|e| fail(e))
    }

    /// [`write`](Self::write), or [`Error::Uninitialized`] (nothing written).
    /// Indices past the palette's end are sent as they are, as Minecraft does.
    pub fn try_write(&self, out: &mut Vec<u8>) -> Result<(), Error> {
        let (head, entries) = self.palette.wire_parts()?;
        let longs = self.storage.longs();
        // Room for the longest VarInts: the exact size costs a pass over
        // the palette, as much as writing it does.
        out.reserve(1 + wire::MAX_VARINT_LEN * (1 + entries.len()) + 8 * longs.len());
        out.push(self.storage.bits() as u8);
        if let Some(head) = head {
            wire::write_varint(out, head);
        }
        entries.iter().for_each(|&v| wire::write_varint(out, v));
        wire::write_longs(out, longs);
        Ok(())
    }

    /// Bytes [`write`](Self::write) appends.
    ///
    /// # Panics
    /// If the container was loaded from an empty palette and not yet set.
    pub fn serialized_size(&self) -> usize {
        self.try_serialized_size().unwrap_or_else(|e| fail(e))
    }

    /// [`serialized_size`](Self::serialized_size), or [`Error::Uninitialized`].
    pub fn try_serialized_size(&self) -> Result<usize, Error> {
        Ok(1 + self.palette.wire_len()? + 8 * self.storage.longs().len())
    }

    /// Reads the wire form from `bytes`, as a client does, and gives the
    /// bytes consumed (anything after the container is left alone).
    ///
    /// The bits byte picks the configuration; the container then holds
    /// exactly what Minecraft's `read` leaves on success. Untrusted bytes are
    /// checked: ids outside the registry, palettes longer than their kind
    /// holds, indices past the palette's end and short input are errors, and
    /// on any error the container is unchanged.
    pub fn read(&mut self, bytes: &[u8]) -> Result<usize, Error> {
        // On success this holds what Minecraft's in-place read leaves, so a
        // fresh container (kept only if valid) gives the same result.
        let mut r = Reader::new(bytes);
        let config = self.strategy.configuration_for_wire(r.u8()?);
        let mut next = PalettedContainer::empty(self.strategy, config);
        next.read_body(&mut r, true)?;
        next.validate()?;
        *self = next;
        Ok(r.position())
    }

    /// Reads the wire form exactly as Minecraft's `read` does, failures
    /// included: when the bits byte picks the configuration in use, the
    /// palette and longs are overwritten in place, so short input leaves
    /// what was read so far; otherwise a fresh palette and storage are read
    /// and kept only on success. Indices past the palette's end load and fail
    /// later, as in Minecraft. Never panics.
    pub fn read_lenient(&mut self, bytes: &[u8]) -> Result<usize, Error> {
        let mut r = Reader::new(bytes);
        let config = self.strategy.configuration_for_wire(r.u8()?);
        if config != self.config {
            let mut next = PalettedContainer::empty(self.strategy, config);
            next.read_body(&mut r, false)?;
            *self = next;
        } else {
            if let Palette::HashMap { entries, index, .. } = &mut self.palette {
                entries.clear();
                index.clear();
            }
            // Minecraft's in-place read reuses the palette object as it is.
            self.read_body(&mut r, false)?;
        }
        Ok(r.position())
    }

    /// Reads the palette, then the longs, into this container's own.
    fn read_body(&mut self, r: &mut Reader<'_>, strict: bool) -> Result<(), Error> {
        // Minecraft looks every palette id up in the registry as it reads it
        // and throws at the first one the registry lacks.
        let registry = self.strategy.registry_size();
        let id = |r: &mut Reader<'_>| -> Result<u32, Error> {
            let v = r.varint()? as u32;
            if v < registry {
                Ok(v)
            } else {
                Err(Error::Id { id: v, registry })
            }
        };
        match &mut self.palette {
            Palette::Single(v) => *v = Some(id(r)?),
            Palette::Linear { slots, size } => {
                let n = r.varint()?;
                let len = slots.len();
                if strict {
                    strict_count(n, len)?;
                }
                // Minecraft sets the size first, then overwrites its array
                // slot by slot; an id is read before its slot is checked.
                *size = n;
                for i in 0..n.max(0) as usize {
                    let v = id(r)?;
                    match slots.get_mut(i) {
                        Some(slot) => *slot = v,
                        None => {
                            return Err(Error::ArrayIndex {
                                index: i as i64,
                                len,
                            })
                        }
                    }
                }
            }
            Palette::HashMap { capacity, .. } => {
                let n = r.varint()?;
                if strict {
                    strict_count(n, *capacity)?;
                }
                for _ in 0..n.max(0) {
                    let v = id(r)?;
                    palette_push(&mut self.palette, v);
                }
            }
            Palette::Global { .. } => {}
        }
        r.i64s_into(self.storage.longs_mut())
    }

    /// Checks what Minecraft would only find later: an unset single value,
    /// indices past the palette's end, ids outside the registry.
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

    /// The container as `pack` saves it to a region file: a fresh palette of
    /// the values in the order they first appear from index 0 up (stale
    /// entries gone), and the indices at the on-disk width for that palette
    /// size (300 block states take 9 bits, not 16). One value: no longs.
    ///
    /// # Panics
    /// Where [`try_pack`](Self::try_pack) fails.
    pub fn pack(&self) -> Packed {
        self.try_pack().unwrap_or_else(|e| fail(e))
    }

    /// [`pack`](Self::pack), or the failure Minecraft throws for a leniently
    /// loaded container.
    pub fn try_pack(&self) -> Result<Packed, Error> {
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
    /// # Errors
    /// [`Error::BitCount`], [`Error::MissingData`], [`Error::Length`],
    /// [`Error::Empty`], [`Error::Index`], and [`Error::Id`] for an id
    /// outside the registry.
    pub fn unpack(strategy: Strategy, packed: Packed) -> Result<PalettedContainer, Error> {
        if packed.palette.is_empty() {
            PalettedContainer::check_bit_count(&strategy, &packed)?;
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
    pub fn unpack_lenient(strategy: Strategy, packed: Packed) -> Result<PalettedContainer, Error> {
        let config = PalettedContainer::check_bit_count(&strategy, &packed)?;
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

impl PartialEq for PalettedContainer {
    /// Equal when Minecraft could not tell them apart: same strategy,
    /// configuration, palette entries in order, and longs.
    fn eq(&self, other: &Self) -> bool {
        self.strategy == other.strategy
            && self.config == other.config
            && self.palette.same_entries(&other.palette)
            && self.storage == other.storage
    }
}

impl Eq for PalettedContainer {}

/// Whether no entry repeats (a loaded palette may repeat one) and none is
/// [`NULL`] (which a fresh palette gives no entry of its own).
fn distinct(entries: &[u32]) -> bool {
    let mut sorted = entries.to_vec();
    sorted.sort_unstable();
    sorted.windows(2).all(|w| w[0] != w[1]) && !entries.contains(&NULL)
}

/// The strict read's refusal of a palette count Minecraft takes as it is.
fn strict_count(n: i32, capacity: usize) -> Result<(), Error> {
    match usize::try_from(n) {
        Err(_) => Err(Error::NegativeLength { len: n }),
        Ok(len) if len > capacity => Err(Error::PaletteTooLong { len, capacity }),
        Ok(_) => Ok(()),
    }
}

#[inline]
fn check_value(strategy: &Strategy, value: u32) {
    assert!(
        value < strategy.registry_size(),
        "value {value} is not below the registry size {}",
        strategy.registry_size()
    );
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
