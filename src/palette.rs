//! The four palette kinds: how a container turns values into the small
//! indices its storage holds.

use crate::Error;

/// Which palette a container uses now.
///
/// ```
/// use paletted::{PaletteKind, Strategy};
///
/// let (blocks, biomes) = (Strategy::block_states(35723), Strategy::biomes(65));
/// assert_eq!(blocks.configuration(5).kind, PaletteKind::HashMap);
/// // Biomes have no hash map: past 3 bits, the global palette.
/// assert_eq!(biomes.configuration(3).kind, PaletteKind::Linear);
/// assert_eq!(biomes.configuration(4).kind, PaletteKind::Global);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PaletteKind {
    /// One value for every position; no storage bits.
    Single,
    /// A short list scanned in order (block states: 4 bits; biomes: 1 to 3).
    Linear,
    /// A list with a hash of its entries (block states: 5 to 8 bits).
    HashMap,
    /// No palette: every value is its registry id.
    Global,
}

/// Java's `null` as a value: a slot of a linear palette's array that was
/// never written, uncovered by a wire read cut short (Minecraft's `get`
/// then returns null). Never a registry id: registries hold fewer than
/// 2^31 ids. On the wire it is sent as Minecraft sends a null's id, -1.
///
/// ```
/// use paletted::{NULL, PalettedContainer, Strategy};
///
/// // Three biomes: a 2-bit linear palette, whose fourth slot is never written.
/// let values: Vec<u32> = (0..64).map(|i| i % 3).collect();
/// let mut c = PalettedContainer::from_values(Strategy::biomes(65), &values);
/// // A read in place cut short after its count (4) and one id.
/// assert!(c.read_lenient(&[2, 4, 12]).is_err());
/// assert_eq!(c.palette(), [12, 1, 2, NULL]);
/// let mut sent = Vec::new();
/// c.write(&mut sent);
/// assert_eq!(&sent[..10], &[2, 4, 12, 1, 2, 0xff, 0xff, 0xff, 0xff, 0x0f]);
/// ```
pub const NULL: u32 = u32::MAX;

/// A palette's entries and lookup.
///
/// Invariants: `Linear::slots` is Minecraft's fixed array (`capacity`
/// slots, [`NULL`] where never written) and `size` its size field, which a
/// lenient wire read may leave negative or past the array's end;
/// `HashMap` entries are in index order (index = palette id), `capacity`
/// is `2^bits`, and `index` maps each distinct entry below `capacity` to
/// its first index. An entry may repeat (a loaded palette); a lookup finds
/// its first index. `HashMap` entries past `capacity` exist only after a
/// lenient wire read, as Minecraft's hash palette grows to hold whatever it
/// reads; they are not indexed (an id they have does not fit the storage,
/// so [`find`](Palette::find) must not give it), and are scanned for.
///
/// A tag byte rather than a niche in a field (`repr(u8)`): telling the kinds
/// apart is then one compare on every lookup.
#[derive(Clone, Debug)]
#[repr(u8)]
pub(crate) enum Palette {
    /// `None` is Minecraft's uninitialised single-value palette (loaded from
    /// an empty saved palette): reading it fails, the first `set` fills it.
    Single(Option<u32>),
    Linear {
        slots: Slots,
        size: i32,
    },
    HashMap {
        entries: Vec<u32>,
        index: IdIndex,
        capacity: usize,
    },
    Global {
        registry: u32,
    },
}

/// Java's exception for an array index outside the array.
fn array_index(index: i64, len: usize) -> Error {
    Error::ArrayIndex { index, len }
}

impl Palette {
    /// An empty palette of `kind` for `bits` bits.
    pub(crate) fn empty(kind: PaletteKind, bits: u32, registry: u32) -> Palette {
        let capacity = 1usize << bits.min(31);
        match kind {
            PaletteKind::Single => Palette::Single(None),
            PaletteKind::Linear => Palette::Linear {
                slots: Slots::new(capacity),
                size: 0,
            },
            PaletteKind::HashMap => Palette::HashMap {
                entries: Vec::with_capacity(capacity),
                index: IdIndex::with_capacity(capacity),
                capacity,
            },
            PaletteKind::Global => Palette::Global { registry },
        }
    }

    /// A palette of `kind` for `bits` bits holding `entries` as given (no
    /// more than a linear palette's array holds).
    pub(crate) fn from_entries(
        kind: PaletteKind,
        bits: u32,
        registry: u32,
        entries: &[u32],
    ) -> Palette {
        let mut palette = Palette::empty(kind, bits, registry);
        match &mut palette {
            Palette::Single(v) => *v = entries.first().copied(),
            Palette::Linear { slots, size } => {
                let n = entries.len().min(slots.len());
                slots[..n].copy_from_slice(&entries[..n]);
                *size = n as i32;
            }
            Palette::HashMap {
                entries: list,
                index,
                capacity,
            } => {
                // Callers pick the configuration for the entries' count.
                debug_assert!(entries.len() <= *capacity, "an overfull saved palette");
                list.extend_from_slice(entries);
                for (id, &v) in entries.iter().enumerate() {
                    index.insert_first(v, id as u32);
                }
            }
            Palette::Global { .. } => {}
        }
        palette
    }

    /// The list palettes' entries that exist (a linear palette's size cut
    /// to its array); `None` for the other kinds.
    #[inline(always)]
    pub(crate) fn list(&self) -> Option<&[u32]> {
        match self {
            Palette::Linear { slots, size } => {
                Some(&slots[..(*size).clamp(0, slots.len() as i32) as usize])
            }
            Palette::HashMap { entries, .. } => Some(entries),
            _ => None,
        }
    }

    /// Minecraft's `getSize`: 1 for a single value, set or not; a linear
    /// palette's size field as it is; the registry's size for the global
    /// palette.
    pub(crate) fn size(&self) -> i64 {
        match self {
            Palette::Single(_) => 1,
            Palette::Linear { size, .. } => i64::from(*size),
            Palette::HashMap { entries, .. } => entries.len() as i64,
            Palette::Global { registry } => i64::from(*registry),
        }
    }

    /// Entries there are to look up: [`size`](Self::size), none if negative.
    pub(crate) fn len(&self) -> usize {
        usize::try_from(self.size()).unwrap_or(0)
    }

    /// A linear palette whose size runs past its array: what walks its
    /// entries throws at the array's end.
    fn overrun(&self) -> Result<(), Error> {
        match self {
            Palette::Linear { slots, size } if *size as i64 > slots.len() as i64 => {
                Err(array_index(slots.len() as i64, slots.len()))
            }
            _ => Ok(()),
        }
    }

    /// The palette id of `value`, adding it if there is room; `Ok(None)`
    /// when the palette is full and the container must grow. As in
    /// Minecraft a hash palette adds the value before it asks to grow, and
    /// a linear palette whose size is negative or past its array throws.
    /// [`NULL`] finds the first null entry of a linear palette (or is added),
    /// and gets id 0 from a hash palette (an empty slot of its table) and
    /// from the global palette (an id the registry lacks).
    #[inline]
    pub(crate) fn id_for(&mut self, value: u32) -> Result<Option<u32>, Error> {
        match self {
            Palette::Single(slot @ None) => {
                *slot = Some(value);
                Ok(Some(0))
            }
            Palette::Single(Some(v)) => Ok((*v == value).then_some(0)),
            Palette::Linear { slots, size } => {
                let len = slots.len();
                let scan = (*size).clamp(0, len as i32) as usize;
                if let Some(i) = slots[..scan].iter().position(|&e| e == value) {
                    return Ok(Some(i as u32));
                }
                let n = i64::from(*size);
                if n > len as i64 {
                    Err(array_index(len as i64, len))
                } else if n < 0 {
                    Err(array_index(n, len))
                } else if (n as usize) < len {
                    slots[n as usize] = value;
                    *size += 1;
                    Ok(Some(n as u32))
                } else {
                    Ok(None)
                }
            }
            Palette::HashMap {
                entries,
                index,
                capacity,
            } => {
                if value == NULL {
                    return Ok(Some(0));
                }
                if let Some(i) = index
                    .get(value)
                    .or_else(|| overfull(entries, *capacity, value))
                {
                    return Ok(Some(i));
                }
                let id = entries.len();
                if id < *capacity {
                    index.insert(value, id as u32);
                }
                entries.push(value);
                Ok((id < *capacity).then_some(id as u32))
            }
            Palette::Global { registry } => Ok(Some(if value < *registry { value } else { 0 })),
        }
    }

    /// The palette id of `value` if the palette holds it and finding it
    /// changes nothing: what [`id_for`](Self::id_for) would give without
    /// adding. `value` is below the registry's size: every caller checks it
    /// first, so the global palette holds it.
    ///
    /// An id it gives is below the palette's capacity, so it fits a storage
    /// of the configuration's bits: the one id of a single value, a linear
    /// palette's slot, the registry's ids in the global bits. A hash
    /// palette's id past its capacity (one read overfull) is not found here,
    /// and [`id_for`](Self::id_for) gives it.
    #[inline(always)]
    pub(crate) fn find(&self, value: u32) -> Option<u32> {
        debug_assert!(value != NULL, "find is asked for registry ids only");
        match self {
            Palette::Single(Some(v)) => (*v == value).then_some(0),
            Palette::Single(None) => None,
            Palette::Linear { slots, size } => slots.find(value, *size),
            Palette::HashMap { index, .. } => index.get(value),
            Palette::Global { .. } => Some(value),
        }
    }

    /// The value for palette id `id` ([`NULL`] for a never-written slot).
    #[inline]
    pub(crate) fn value_for(&self, id: u32) -> Result<u32, Error> {
        match self {
            Palette::Single(Some(v)) if id == 0 => Ok(*v),
            Palette::Single(_) => Err(Error::MissingPaletteValue),
            Palette::Linear { slots, size } => {
                if i64::from(id) < i64::from(*size) {
                    slots
                        .value(id)
                        .ok_or_else(|| array_index(i64::from(id), slots.len()))
                } else {
                    Err(Error::Index { at: 0, index: id })
                }
            }
            Palette::HashMap { entries, .. } => entries
                .get(id as usize)
                .copied()
                .ok_or(Error::Index { at: 0, index: id }),
            Palette::Global { registry } => {
                if id < *registry {
                    Ok(id)
                } else {
                    Err(Error::Index { at: 0, index: id })
                }
            }
        }
    }

    /// Whether `value` may be present: the palette alone is asked.
    pub(crate) fn maybe_has(&self, value: u32) -> Result<bool, Error> {
        match self {
            Palette::Single(None) => Err(Error::Uninitialized),
            Palette::Single(Some(v)) => Ok(*v == value),
            Palette::Linear { .. } => {
                if self.list().is_some_and(|e| e.contains(&value)) {
                    return Ok(true);
                }
                self.overrun().map(|()| false)
            }
            Palette::HashMap {
                entries,
                index,
                capacity,
            } => Ok(index.get(value).is_some() || overfull(entries, *capacity, value).is_some()),
            Palette::Global { .. } => Ok(true),
        }
    }

    /// Every entry in palette order.
    pub(crate) fn entries(&self) -> Result<Vec<u32>, Error> {
        match self {
            Palette::Single(Some(v)) => Ok(vec![*v]),
            Palette::Single(None) => Err(Error::MissingPaletteValue),
            Palette::Linear { .. } | Palette::HashMap { .. } => {
                self.overrun()?;
                Ok(self.list().unwrap_or_default().to_vec())
            }
            Palette::Global { registry } => Ok((0..*registry).collect()),
        }
    }

    /// Whether two palettes hold the same entries in the same order (what
    /// [`entries`](Self::entries) would give), without listing a global
    /// palette's registry.
    pub(crate) fn same_entries(&self, other: &Palette) -> bool {
        match (self, other) {
            (Palette::Global { registry: a }, Palette::Global { registry: b }) => a == b,
            (Palette::Global { .. }, _) | (_, Palette::Global { .. }) => false,
            _ => self.entries() == other.entries(),
        }
    }

    /// Bytes the palette takes on the wire.
    pub(crate) fn wire_len(&self) -> Result<usize, Error> {
        use crate::wire::varint_len;
        match self {
            Palette::Single(None) => Err(Error::Uninitialized),
            Palette::Single(Some(v)) => Ok(varint_len(*v)),
            Palette::Linear { .. } | Palette::HashMap { .. } => {
                self.overrun()?;
                let entries = self.list().unwrap_or_default();
                Ok(varint_len(self.size() as u32)
                    + entries.iter().map(|&v| varint_len(v)).sum::<usize>())
            }
            Palette::Global { .. } => Ok(0),
        }
    }

    /// The palette's wire form, as the VarInts it is: the first (the one
    /// value, or the size; none for the global palette), then the entries.
    /// Fails as Minecraft's `write` does before it writes anything.
    #[inline]
    pub(crate) fn wire_parts(&self) -> Result<(Option<u32>, &[u32]), Error> {
        match self {
            Palette::Single(None) => Err(Error::Uninitialized),
            Palette::Single(Some(v)) => Ok((Some(*v), &[])),
            Palette::Linear { .. } | Palette::HashMap { .. } => {
                self.overrun()?;
                Ok((Some(self.size() as u32), self.list().unwrap_or_default()))
            }
            Palette::Global { .. } => Ok((None, &[])),
        }
    }
}

/// The most slots a linear palette has: block states' 4 bits (biomes' take
/// 1 to 3; every larger palette is a hash or the global one).
pub(crate) const LINEAR_MAX: usize = 16;

/// A linear palette's fixed array, held in the palette rather than on the
/// heap: a container of one then allocates only its longs, which a strict
/// read or unpack of a biome section makes anew every time.
///
/// Invariant: `len <= LINEAR_MAX`; the slots past `len` are never seen.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slots {
    array: [u32; LINEAR_MAX],
    len: u8,
}

impl Slots {
    /// `capacity` slots, each [`NULL`]; the strategy never asks for more
    /// than [`LINEAR_MAX`].
    fn new(capacity: usize) -> Slots {
        debug_assert!(capacity <= LINEAR_MAX, "a linear palette of {capacity}");
        Slots {
            array: [NULL; LINEAR_MAX],
            len: capacity.min(LINEAR_MAX) as u8,
        }
    }

    /// The value in slot `id`, if `id` is below the length. The index is
    /// masked to the array, a no-op under the invariant, so the one test
    /// is the length's.
    #[inline(always)]
    pub(crate) fn value(&self, id: u32) -> Option<u32> {
        (id < u32::from(self.len)).then(|| self.array[id as usize % LINEAR_MAX])
    }

    /// The first slot below `size` holding `value`, which is not
    /// [`NULL`]. The scan covers the whole fixed array, a loop of known
    /// length, and the first match in it is the first below the size
    /// whenever there is one; slots past `len` are never written, so they
    /// hold [`NULL`] and match nothing.
    #[inline(always)]
    fn find(&self, value: u32, size: i32) -> Option<u32> {
        self.array
            .iter()
            .position(|&e| e == value)
            .filter(|&i| (i as i64) < i64::from(size))
            .map(|i| i as u32)
    }
}

impl std::ops::Deref for Slots {
    type Target = [u32];
    #[inline(always)]
    fn deref(&self) -> &[u32] {
        &self.array[..usize::from(self.len)]
    }
}

impl std::ops::DerefMut for Slots {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [u32] {
        &mut self.array[..usize::from(self.len)]
    }
}

/// The first index past `capacity` holding `value`, in an overfull hash
/// palette's entries (none in any other).
#[cold]
fn overfull(entries: &[u32], capacity: usize, value: u32) -> Option<u32> {
    let rest = entries.get(capacity..)?;
    let k = rest.iter().position(|&e| e == value)?;
    u32::try_from(capacity + k).ok()
}

/// Value -> first palette id, for hash-map palettes: open addressing over a
/// power-of-two table at most half full, so lookups stay a probe or two and
/// never allocate.
#[derive(Clone, Debug)]
pub(crate) struct IdIndex {
    /// `(value + 1, id)`; a key of 0 marks a free slot.
    slots: Vec<(u32, u32)>,
    len: usize,
    /// 32 minus log2 of the slot count: the hash's top bits pick the slot.
    shift: u32,
}

impl IdIndex {
    fn with_capacity(entries: usize) -> IdIndex {
        // At most half full.
        let n = (entries * 2).next_power_of_two().max(4);
        IdIndex {
            slots: vec![(0, 0); n],
            len: 0,
            shift: 32 - n.trailing_zeros(),
        }
    }

    /// The home slot: the top bits of a Fibonacci hash (the low bits of the
    /// product cluster for ids an even stride apart).
    #[inline]
    fn slot(&self, value: u32) -> usize {
        (value.wrapping_add(1).wrapping_mul(0x9E37_79B9) >> self.shift) as usize
    }

    #[inline]
    fn get(&self, value: u32) -> Option<u32> {
        let key = value.wrapping_add(1);
        let mask = self.slots.len() - 1;
        let mut pos = self.slot(value);
        loop {
            let (k, id) = self.slots[pos];
            if k == key {
                return Some(id);
            }
            if k == 0 {
                return None;
            }
            pos = (pos + 1) & mask;
        }
    }

    /// Maps `value` to `id` unless it is mapped already (one probe
    /// sequence for both the look-up and the insertion).
    #[inline]
    pub(crate) fn insert_first(&mut self, value: u32, id: u32) {
        if (self.len + 1) * 2 > self.slots.len() {
            // The table grows first: the general path.
            if self.get(value).is_none() {
                self.insert(value, id);
            }
            return;
        }
        let key = value.wrapping_add(1);
        let mask = self.slots.len() - 1;
        let mut pos = self.slot(value);
        loop {
            let slot = &mut self.slots[pos];
            if slot.0 == key {
                return;
            }
            if slot.0 == 0 {
                *slot = (key, id);
                self.len += 1;
                return;
            }
            pos = (pos + 1) & mask;
        }
    }

    fn insert(&mut self, value: u32, id: u32) {
        if (self.len + 1) * 2 > self.slots.len() {
            let bigger = vec![(0, 0); self.slots.len() * 2];
            let old = std::mem::replace(&mut self.slots, bigger);
            self.len = 0;
            self.shift -= 1;
            for (k, id) in old.into_iter().filter(|&(k, _)| k != 0) {
                self.insert(k.wrapping_sub(1), id);
            }
        }
        let mask = self.slots.len() - 1;
        let mut pos = self.slot(value);
        while self.slots[pos].0 != 0 {
            pos = (pos + 1) & mask;
        }
        self.slots[pos] = (value.wrapping_add(1), id);
        self.len += 1;
    }

    pub(crate) fn clear(&mut self) {
        self.slots.fill((0, 0));
        self.len = 0;
    }
}
