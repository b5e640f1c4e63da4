//! Every value with its place, in Minecraft's index order, without
//! allocating: the storage's longs are read one at a time and each index
//! looked up in the palette as [`get_at`](PalettedContainer::get_at) looks
//! it up.

use std::iter::FusedIterator;

use super::{fail, PalettedContainer};
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
        let b = self.strategy.axis_bits();
        let mask = (1usize << b) - 1;
        self.iter().map(move |(i, v)| {
            (
                (i & mask) as i32,
                (i >> (2 * b)) as i32,
                ((i >> b) & mask) as i32,
                v,
            )
        })
    }
}

/// The iterator of [`PalettedContainer::iter`]: each index with its value.
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
    #[inline]
    fn fold<B, F: FnMut(B, (usize, u32)) -> B>(mut self, init: B, mut f: F) -> B {
        let mut acc = init;
        // The current long's rest (every value, with no bits to store).
        while self.left > 0 {
            match self.next() {
                Some(item) => acc = f(acc, item),
                None => return acc,
            }
        }
        // Whole longs from here on, a copy of the loop for each width.
        let (start, n) = (self.index, self.end - self.index);
        if n == 0 {
            return acc;
        }
        let from = self.container.storage.longs().len() - self.longs.len();
        let mut i = start;
        let this = &self;
        self.container.storage.fold_from(from, n, acc, |acc, id| {
            let item = (i, this.value(id, i));
            i += 1;
            f(acc, item)
        })
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
