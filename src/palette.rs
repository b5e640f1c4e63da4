//! The four palette kinds: how a container turns values into the small
//! indices its storage holds.

use crate::Error;

/// Which palette a container uses now.
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

/// A Java `null` left in a linear palette's array by a truncated wire read.
pub(crate) const NULL: u32 = u32::MAX;

/// A palette's entries and lookup.
///
/// Invariants: `Linear`/`HashMap` entries are in index order (index = palette
/// id) and `capacity` is `2^bits`; an entry may repeat (a loaded palette), and
/// a lookup finds its first index; `HashMap::index` maps each distinct entry
/// to its first index. Entries past `capacity` exist only after a lenient
/// wire read, as Minecraft's hash palette grows to hold whatever it reads.
#[derive(Clone, Debug)]
pub(crate) enum Palette {
    /// `None` is Minecraft's uninitialised single-value palette (loaded from
    /// an empty saved palette): reading it fails, the first `set` fills it.
    Single(Option<u32>),
    Linear {
        entries: Vec<u32>,
        /// The slots of Minecraft's fixed array past `entries`, nearest
        /// last: a wire read that shrinks the palette leaves its old
        /// entries there, and one that grows it again uncovers them (a
        /// missing slot is a Java null).
        tail: Vec<u32>,
        capacity: usize,
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

impl Palette {
    /// An empty palette of `kind` for `bits` bits.
    pub(crate) fn empty(kind: PaletteKind, bits: u32, registry: u32) -> Palette {
        let capacity = 1usize << bits.min(31);
        match kind {
            PaletteKind::Single => Palette::Single(None),
            PaletteKind::Linear => Palette::Linear {
                entries: Vec::with_capacity(capacity),
                tail: Vec::new(),
                capacity,
            },
            PaletteKind::HashMap => Palette::HashMap {
                entries: Vec::with_capacity(capacity),
                index: IdIndex::with_capacity(capacity),
                capacity,
            },
            PaletteKind::Global => Palette::Global { registry },
        }
    }

    /// A palette of `kind` for `bits` bits holding `entries` as given.
    pub(crate) fn from_entries(
        kind: PaletteKind,
        bits: u32,
        registry: u32,
        entries: &[u32],
    ) -> Palette {
        let mut palette = Palette::empty(kind, bits, registry);
        match &mut palette {
            Palette::Single(v) => *v = entries.first().copied(),
            Palette::Linear { entries: e, .. } => e.extend_from_slice(entries),
            Palette::HashMap { .. } => entries.iter().for_each(|&v| palette_push(&mut palette, v)),
            Palette::Global { .. } => {}
        }
        palette
    }

    /// Entries, as Minecraft's `getSize` counts them (1 for a single value,
    /// set or not; the registry's size for the global palette).
    pub(crate) fn len(&self) -> usize {
        match self {
            Palette::Single(_) => 1,
            Palette::Linear { entries, .. } | Palette::HashMap { entries, .. } => entries.len(),
            Palette::Global { registry } => *registry as usize,
        }
    }

    /// The palette id of `value`, adding it if there is room; `None` when the
    /// palette is full and the container must grow.
    #[inline]
    pub(crate) fn id_for(&mut self, value: u32) -> Option<u32> {
        match self {
            Palette::Single(slot @ None) => {
                *slot = Some(value);
                Some(0)
            }
            Palette::Single(Some(v)) => (*v == value).then_some(0),
            Palette::Linear {
                entries,
                tail,
                capacity,
            } => {
                if let Some(i) = entries.iter().position(|&e| e == value) {
                    Some(i as u32)
                } else if entries.len() < *capacity {
                    entries.push(value);
                    tail.pop();
                    Some(entries.len() as u32 - 1)
                } else {
                    None
                }
            }
            Palette::HashMap {
                entries,
                index,
                capacity,
            } => {
                if let Some(i) = index.get(value) {
                    Some(i)
                } else if entries.len() < *capacity {
                    index.insert(value, entries.len() as u32);
                    entries.push(value);
                    Some(entries.len() as u32 - 1)
                } else {
                    None
                }
            }
            Palette::Global { .. } => Some(value),
        }
    }

    /// The palette id of `value` if the palette holds it; never changes it.
    #[inline(always)]
    pub(crate) fn find(&self, value: u32) -> Option<u32> {
        match self {
            Palette::Single(Some(v)) => (*v == value).then_some(0),
            Palette::Single(None) => None,
            Palette::Linear { entries, .. } => {
                entries.iter().position(|&e| e == value).map(|i| i as u32)
            }
            Palette::HashMap { index, .. } => index.get(value),
            Palette::Global { .. } => Some(value),
        }
    }

    /// The value for palette id `id`.
    #[inline]
    pub(crate) fn value_for(&self, id: u32) -> Result<u32, Error> {
        match self {
            Palette::Single(Some(v)) if id == 0 => Ok(*v),
            Palette::Single(_) => Err(Error::MissingPaletteValue),
            // A Java null left by a truncated read has no value either.
            Palette::Linear { entries, .. } | Palette::HashMap { entries, .. } => entries
                .get(id as usize)
                .copied()
                .filter(|&v| v != NULL)
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
            Palette::Linear { entries, .. } => Ok(entries.contains(&value)),
            Palette::HashMap { index, .. } => Ok(index.get(value).is_some()),
            Palette::Global { .. } => Ok(true),
        }
    }

    /// Every entry in palette order.
    pub(crate) fn entries(&self) -> Result<Vec<u32>, Error> {
        match self {
            Palette::Single(Some(v)) => Ok(vec![*v]),
            Palette::Single(None) => Err(Error::MissingPaletteValue),
            Palette::Linear { entries, .. } | Palette::HashMap { entries, .. } => {
                Ok(entries.clone())
            }
            Palette::Global { registry } => Ok((0..*registry).collect()),
        }
    }

    /// Bytes the palette takes on the wire.
    pub(crate) fn wire_len(&self) -> Result<usize, Error> {
        use crate::wire::varint_len;
        match self {
            Palette::Single(None) => Err(Error::Uninitialized),
            Palette::Single(Some(v)) => Ok(varint_len(*v)),
            Palette::Linear { entries, .. } | Palette::HashMap { entries, .. } => {
                Ok(varint_len(entries.len() as u32)
                    + entries.iter().map(|&v| varint_len(v)).sum::<usize>())
            }
            Palette::Global { .. } => Ok(0),
        }
    }

    /// Appends the palette's wire form.
    pub(crate) fn write(&self, out: &mut Vec<u8>) -> Result<(), Error> {
        use crate::wire::write_varint;
        match self {
            Palette::Single(None) => return Err(Error::Uninitialized),
            Palette::Single(Some(v)) => write_varint(out, *v),
            Palette::Linear { entries, .. } | Palette::HashMap { entries, .. } => {
                write_varint(out, entries.len() as u32);
                entries.iter().for_each(|&v| write_varint(out, v));
            }
            Palette::Global { .. } => {}
        }
        Ok(())
    }
}

/// Appends `value` to a list palette whatever its capacity, as a wire read
/// does; a repeated value keeps its first index for lookups.
pub(crate) fn palette_push(palette: &mut Palette, value: u32) {
    match palette {
        Palette::Linear { entries, tail, .. } => {
            entries.push(value);
            tail.pop();
        }
        Palette::HashMap { entries, index, .. } => {
            if index.get(value).is_none() {
                index.insert(value, entries.len() as u32);
            }
            entries.push(value);
        }
        Palette::Single(v) => *v = Some(value),
        Palette::Global { .. } => {}
    }
}

/// Sets a linear palette's size as Minecraft's wire read does: slots leave
/// and rejoin the fixed array's tail as they are.
pub(crate) fn linear_set_len(entries: &mut Vec<u32>, tail: &mut Vec<u32>, len: usize) {
    while entries.len() > len {
        tail.extend(entries.pop());
    }
    while entries.len() < len {
        entries.push(tail.pop().unwrap_or(NULL));
    }
}

/// Value -> first palette id, for hash-map palettes: open addressing over a
/// power-of-two table at most half full, so lookups stay a probe or two and
/// never allocate.
#[derive(Clone, Debug)]
pub(crate) struct IdIndex {
    /// `(value + 1, id)`; a key of 0 marks a free slot.
    slots: Vec<(u32, u32)>,
    len: usize,
}

impl IdIndex {
    fn with_capacity(entries: usize) -> IdIndex {
        IdIndex {
            slots: vec![(0, 0); (entries * 2).next_power_of_two().max(4)],
            len: 0,
        }
    }

    #[inline]
    fn slot(&self, value: u32) -> usize {
        (value.wrapping_add(1).wrapping_mul(0x9E37_79B9) >> 7) as usize & (self.slots.len() - 1)
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

    fn insert(&mut self, value: u32, id: u32) {
        if (self.len + 1) * 2 > self.slots.len() {
            let bigger = vec![(0, 0); self.slots.len() * 2];
            let old = std::mem::replace(&mut self.slots, bigger);
            self.len = 0;
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
