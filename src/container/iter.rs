//! Every value with its place, in Minecraft's index order, without
//! allocating: the storage's longs are read one at a time and each index
//! looked up in the palette as [`get_at`](PalettedContainer::get_at) looks
//! it up.

use std::iter::FusedIterator;

use super::{PalettedContainer, fail};
use crate::Kind;
use crate::palette::Palette;

impl PalettedContainer {
    /// Every `(index, value)`, index 0 first: what
    /// [`get_at`](Self::get_at) gives for each index (see
    /// [`Strategy::index`](crate::Strategy::index) for the order: y, then
    /// z, then x).
    ///
    /// ```
    /// use paletted::{PalettedContainer, Strategy};
    ///
    /// let biomes = Strategy::biomes(65);
    /// let mut c = PalettedContainer::new(3, biomes);
    /// c.set(1, 0, 0, 9);
    /// let first: Vec<(usize, u32)> = c.iter().take(3).collect();
    /// assert_eq!(first, [(0, 3), (1, 9), (2, 3)]);
    /// assert_eq!(c.iter().len(), 64);
    /// ```
    ///
    /// # Panics
    /// While iterating, where [`get_at`](Self::get_at) would panic: at an
    /// index without a palette entry, in a leniently loaded container.
    pub fn iter(&self) -> Values<'_> {
        let per = 64u32.checked_div(self.storage.bits()).unwrap_or(u32::MAX);
        Values {
            container: self,
            longs: self.storage.longs().iter(),
            long: 0,
            left: if self.storage.bits() == 0 {
                u32::MAX
            } else {
                0
            },
            per,
            bits: self.storage.bits(),
            mask: u64::from(self.storage.max_value()),
            index: 0,
            end: self.storage.len(),
            list: match &self.palette {
                Palette::Linear { slots, size } => {
                    &slots[..(*size).clamp(0, slots.len() as i32) as usize]
                }
                Palette::HashMap { entries, .. } => entries,
                _ => &[],
            },
            global: match self.palette {
                Palette::Global { registry } => registry,
                _ => 0,
            },
            single: match self.palette {
                Palette::Single(v) => v,
                _ => None,
            },
        }
    }

    /// Every `(x, y, z, value)`, in [`iter`](Self::iter)'s order: x
    /// fastest, then z, then y.
    ///
    /// ```
    /// use paletted::{PalettedContainer, Strategy};
    ///
    /// let blocks = Strategy::block_states(35723);
    /// let mut c = PalettedContainer::new(0, blocks);
    /// c.set(5, 2, 7, 1);
    /// let stone: Vec<_> = c.positions().filter(|p| p.3 == 1).collect();
    /// assert_eq!(stone, [(5, 2, 7, 1)]);
    /// assert_eq!(c.positions().nth(17), Some((1, 0, 1, 0)));
    /// ```
    ///
    /// # Panics
    /// As [`iter`](Self::iter).
    pub fn positions(&self) -> impl ExactSizeIterator<Item = (i32, i32, i32, u32)> + '_ {
        Positions {
            values: self.iter(),
        }
    }

    /// How each id stored from long `from` on finds its value, when every
    /// one of them has an entry (a list palette's are copied to `table`,
    /// indexed by id); `None` when some id has none, or there are no bits.
    fn entries_from<const T: usize>(&self, from: usize, table: &mut [u32; T]) -> Option<Entries> {
        let storage = &self.storage;
        if let Palette::Global { registry } = self.palette {
            return (!storage.any_at_least_from(from, registry)).then_some(Entries::Ids);
        }
        let list = self.palette.list()?;
        let bound = u32::try_from(list.len()).unwrap_or(u32::MAX);
        if storage.bits() > T.trailing_zeros() || storage.any_at_least_from(from, bound) {
            return None;
        }
        let n = list.len().min(T);
        table[..n].copy_from_slice(&list[..n]);
        Some(Entries::Table)
    }
}

/// Entries of a block-state container's table: a list palette's ids take at
/// most 8 bits.
const BLOCK_TABLE: usize = 256;
/// Entries of a biome container's table: at most 3 bits.
const BIOME_TABLE: usize = 16;

/// How every id left to visit finds its value, once each is known to have
/// an entry: no test on the way.
enum Entries {
    /// Through the table [`PalettedContainer::entries_from`] filled.
    Table,
    /// The id is the value (the global palette).
    Ids,
}

/// The iterator of [`PalettedContainer::iter`]: each index with its value.
///
/// ```
/// use paletted::{PalettedContainer, Strategy, Values};
///
/// let mut c = PalettedContainer::new(3, Strategy::biomes(65));
/// c.set_at(63, 9);
/// let mut values: Values<'_> = c.iter();
/// assert_eq!(values.next(), Some((0, 3)));
/// assert_eq!(values.len(), 63);
/// assert_eq!(values.last(), Some((63, 9)));
/// ```
#[derive(Clone, Debug)]
pub struct Values<'a> {
    container: &'a PalettedContainer,
    longs: std::slice::Iter<'a, i64>,
    /// The current long, shifted so its next value is in the low bits.
    long: u64,
    /// Values left in `long` (`u32::MAX` with 0 bits: there are no longs).
    left: u32,
    per: u32,
    bits: u32,
    mask: u64,
    index: usize,
    end: usize,
    /// A list palette's entries that exist (else empty).
    list: &'a [u32],
    /// The global palette's registry size (else 0).
    global: u32,
    /// A single-value palette's value.
    single: Option<u32>,
}

impl Values<'_> {
    /// The value for palette id `id` at index `i`: the palette's own
    /// answer, and its panic for an id without an entry.
    #[inline(always)]
    fn value(&self, id: u32, i: usize) -> u32 {
        if let Some(&v) = self.list.get(id as usize) {
            return v;
        }
        if id < self.global {
            return id;
        }
        match self.single {
            Some(v) if id == 0 => v,
            _ => self.container.get_at_or_fail(i),
        }
    }

    /// The rest, from a long's start: a copy of the loop for each width.
    #[inline(always)]
    fn whole_longs<const T: usize, B, F>(self, acc: B, mut f: F) -> B
    where
        F: FnMut(B, (usize, u32)) -> B,
    {
        let (start, n) = (self.index, self.end - self.index);
        if n == 0 {
            return acc;
        }
        let storage = &self.container.storage;
        let from = storage.longs().len() - self.longs.len();
        let mut i = start;
        let mut table = [0; T];
        let mut item = |id| {
            i += 1;
            (i - 1, id)
        };
        match self.container.entries_from(from, &mut table) {
            Some(Entries::Table) => {
                storage.fold_from(from, n, acc, |acc, id| f(acc, item(table[id as usize % T])))
            }
            Some(Entries::Ids) => storage.fold_from(from, n, acc, |acc, id| f(acc, item(id))),
            None => storage.fold_from(from, n, acc, |acc, id| {
                let (i, _) = item(id);
                f(acc, (i, self.value(id, i)))
            }),
        }
    }
}

impl Iterator for Values<'_> {
    type Item = (usize, u32);

    #[inline]
    fn next(&mut self) -> Option<(usize, u32)> {
        let i = self.index;
        if i >= self.end {
            return None;
        }
        if self.left == 0 {
            self.long = *self.longs.next()? as u64;
            self.left = self.per;
        }
        let id = (self.long & self.mask) as u32;
        self.long = self.long.checked_shr(self.bits).unwrap_or(0);
        self.left -= 1;
        self.index = i + 1;
        Some((i, self.value(id, i)))
    }

    /// A long at a time: the inner loop over one long's values has no
    /// refill test, which `for_each`, `sum` and the like then inherit.
    /// Where every id left has an entry (checked first, a long at a time),
    /// each is looked up with no test at all.
    #[inline]
    fn fold<B, F: FnMut(B, (usize, u32)) -> B>(mut self, init: B, mut f: F) -> B {
        let mut acc = init;
        if let (0, Some(v)) = (self.bits, self.single) {
            return (self.index..self.end).fold(acc, |acc, i| f(acc, (i, v)));
        }
        // The current long's rest (every value, with no bits to store).
        while self.left > 0 {
            match self.next() {
                Some(item) => acc = f(acc, item),
                None => return acc,
            }
        }
        match self.container.strategy.kind() {
            Kind::BlockStates => self.whole_longs::<BLOCK_TABLE, B, F>(acc, f),
            Kind::Biomes => self.whole_longs::<BIOME_TABLE, B, F>(acc, f),
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.end - self.index;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Values<'_> {}

impl FusedIterator for Values<'_> {}

impl PalettedContainer {
    /// `get_at(i)` where the iterator's own lookup found no entry: the
    /// palette's failure, as [`get_at`](Self::get_at) panics with it.
    #[cold]
    #[inline(never)]
    fn get_at_or_fail(&self, i: usize) -> u32 {
        self.try_get_at(i).unwrap_or_else(|e| fail(e))
    }
}

/// The iterator of [`PalettedContainer::positions`]: [`Values`] with each
/// index as its coordinates.
#[derive(Clone, Debug)]
struct Positions<'a> {
    values: Values<'a>,
}

impl Positions<'_> {
    /// The position of index `i`, with its value.
    #[inline(always)]
    fn at(&self, (i, v): (usize, u32)) -> (i32, i32, i32, u32) {
        let b = self.values.container.strategy.axis_bits();
        let mask = (1usize << b) - 1;
        (
            (i & mask) as i32,
            (i >> (2 * b)) as i32,
            ((i >> b) & mask) as i32,
            v,
        )
    }

    /// The rest from a layer's start (one y), `CHUNK` values (whole
    /// layers) at a time: their values decoded into a buffer, then visited
    /// row by row, so that each coordinate is a loop's counter rather than
    /// worked out from the index. Where some id left has no entry, the
    /// values' own fold.
    #[inline(always)]
    fn layers<const AXIS: usize, const CHUNK: usize, const T: usize, B, F>(
        self,
        init: B,
        mut f: F,
    ) -> B
    where
        F: FnMut(B, (i32, i32, i32, u32)) -> B,
    {
        let c = self.values.container;
        let storage = &c.storage;
        let range = (self.values.index, self.values.end);
        let mut table = [0; T];
        let entries = match storage.bits() {
            0 => None,
            bits => c.entries_from(range.0 / (64 / bits as usize), &mut table),
        };
        let mut buf = [0; CHUNK];
        match (entries, self.values.single) {
            (Some(Entries::Table), _) => {
                by_layers::<AXIS, _, _>(range, &mut buf, init, f, |at, buf| {
                    storage.decode_into(at, buf, |id| table[id as usize % T])
                })
            }
            (Some(Entries::Ids), _) => {
                by_layers::<AXIS, _, _>(range, &mut buf, init, f, |at, buf| {
                    storage.decode_into(at, buf, |id| id)
                })
            }
            (None, Some(v)) if storage.bits() == 0 => {
                by_layers::<AXIS, _, _>(range, &mut buf, init, f, |_, buf| buf.fill(v))
            }
            _ => {
                let this = &self;
                self.values
                    .clone()
                    .fold(init, |acc, item| f(acc, this.at(item)))
            }
        }
    }
}

/// Visits the indices `start..end` (whole layers of `AXIS * AXIS`) with
/// their coordinates, a buffer's worth at a time, which `fill` first
/// writes the values of.
#[inline(always)]
fn by_layers<const AXIS: usize, B, F>(
    (start, end): (usize, usize),
    buf: &mut [u32],
    init: B,
    mut f: F,
    mut fill: impl FnMut(usize, &mut [u32]),
) -> B
where
    F: FnMut(B, (i32, i32, i32, u32)) -> B,
{
    let mut acc = init;
    let mut at = start;
    let most = buf.len();
    while at < end {
        let buf = &mut buf[..(end - at).min(most)];
        fill(at, buf);
        for (k, layer) in buf.chunks_exact(AXIS * AXIS).enumerate() {
            let y = (at / (AXIS * AXIS) + k) as i32;
            for (z, row) in layer.chunks_exact(AXIS).enumerate() {
                for (x, &v) in row.iter().enumerate() {
                    acc = f(acc, (x as i32, y, z as i32, v));
                }
            }
        }
        at += buf.len();
    }
    acc
}

impl Iterator for Positions<'_> {
    type Item = (i32, i32, i32, u32);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let item = self.values.next()?;
        Some(self.at(item))
    }

    /// One value at a time to a layer's start, then [`layers`](Positions::layers).
    #[inline]
    fn fold<B, F: FnMut(B, Self::Item) -> B>(mut self, init: B, mut f: F) -> B {
        let layer = 1 << (2 * self.values.container.strategy.axis_bits());
        let mut acc = init;
        while self.values.index % layer != 0 {
            match self.next() {
                Some(item) => acc = f(acc, item),
                None => return acc,
            }
        }
        match self.values.container.strategy.kind() {
            Kind::BlockStates => self.layers::<16, 256, BLOCK_TABLE, B, F>(acc, f),
            Kind::Biomes => self.layers::<4, 64, BIOME_TABLE, B, F>(acc, f),
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.values.size_hint()
    }
}

impl ExactSizeIterator for Positions<'_> {}

impl FusedIterator for Positions<'_> {}
