//! The order in which Minecraft's `count` reports values.
//!
//! Minecraft tallies palette indices into a fastutil `Int2IntOpenHashMap`
//! built with the default capacity (16) and load factor (0.75), then reports
//! the entries in the map's own iteration order. That order is a function of
//! the keys' insertion order alone (a tally's later increments never move a
//! key), so this module rebuilds the table's layout from that order (a
//! storage's values are tallied a run of equal longs at a time, or into a
//! small table first, then added to the map in first-appearance order):
//! open addressing with linear probing over a power-of-two array, fastutil's
//! `HashCommon.mix` as the hash, key 0 kept outside the array, a rehash into
//! the next size once the table holds its maximum fill (re-inserting the old
//! keys from the highest slot down), and iteration that yields key 0 first,
//! then the slots from the highest down.

use crate::BitStorage;

const LOAD_FACTOR: f32 = 0.75;
const DEFAULT_EXPECTED: usize = 16;

/// fastutil's `HashCommon.mix`: the key times the 32-bit golden ratio, its
/// high half folded into its low half.
#[inline]
fn mix(x: i32) -> u32 {
    let h = (x as u32).wrapping_mul(0x9E37_79B9);
    h ^ (h >> 16)
}

/// fastutil's `HashCommon.arraySize`: the table size for `expected` keys.
fn array_size(expected: usize) -> usize {
    let wanted = (expected as f32 / LOAD_FACTOR).ceil() as usize;
    wanted.next_power_of_two().max(2)
}

/// fastutil's `HashCommon.maxFill`, `ceil(n * 0.75)` capped at `n - 1`: how
/// many keys a table of `n` slots takes before it grows. In integers, as it
/// is asked on every new key: a table's size is a power of two, so `n / 4`
/// is exact from 4 slots up, and 2 slots give the cap, 1.
fn max_fill(n: usize) -> usize {
    (n - n / 4).min(n - 1)
}

/// An `Int2IntOpenHashMap` that only ever adds to counts, laid out as
/// fastutil lays it out, so that its iteration order is Minecraft's.
///
/// Invariant: `slots.len()` is a power of two; key 0 marks a free slot
/// (key 0 itself is kept outside, its count in `zero`); every non-zero key
/// is in exactly one slot, `(key, count)`, reachable by linear probing from
/// `mix(key) & mask`; `size` counts the keys, key 0 included (when `zero`
/// is non-zero).
struct Tally {
    slots: Vec<(i32, u32)>,
    /// The table before the last rehash, kept for its allocation.
    spare: Vec<(i32, u32)>,
    zero: u32,
    size: usize,
}

impl Tally {
    fn new() -> Tally {
        Tally::for_keys(0)
    }

    /// A map that will take `keys` keys: its tables are allocated once, at
    /// the largest size they reach (`array_size(keys + 1)` at most).
    fn for_keys(keys: usize) -> Tally {
        let n = array_size(DEFAULT_EXPECTED);
        let room = array_size(keys + 1).max(n);
        let mut slots = Vec::with_capacity(room);
        slots.resize(n, (0, 0));
        Tally {
            slots,
            spare: Vec::with_capacity(room),
            zero: 0,
            size: 0,
        }
    }

    /// fastutil's `addTo(key, n)` for `n > 0`: a new key takes the first
    /// free slot of its probe sequence, and the table grows once it holds
    /// its maximum fill.
    #[inline(always)]
    fn add(&mut self, key: i32, n: u32) {
        if key == 0 {
            let new = self.zero == 0;
            self.zero += n;
            if new {
                self.grew();
            }
            return;
        }
        let mask = self.slots.len() - 1;
        let mut pos = mix(key) as usize & mask;
        loop {
            match &mut self.slots[pos] {
                (0, _) => break,
                (k, count) if *k == key => {
                    *count += n;
                    return;
                }
                _ => pos = (pos + 1) & mask,
            }
        }
        self.slots[pos] = (key, n);
        self.grew();
    }

    /// One more key: rehashed into the next size once the table held its
    /// maximum fill before it.
    fn grew(&mut self) {
        let before = self.size;
        self.size += 1;
        if before >= max_fill(self.slots.len()) {
            self.rehash(array_size(self.size + 1));
        }
    }

    /// Moves every key into a table of `n` slots, from the highest slot
    /// down, as fastutil's `rehash` does.
    #[cold]
    fn rehash(&mut self, n: usize) {
        let mut slots = std::mem::take(&mut self.spare);
        slots.clear();
        slots.resize(n, (0, 0));
        let mask = n - 1;
        for &(key, count) in self.slots.iter().rev() {
            if key != 0 {
                let mut pos = mix(key) as usize & mask;
                while slots[pos].0 != 0 {
                    pos = (pos + 1) & mask;
                }
                slots[pos] = (key, count);
            }
        }
        self.spare = std::mem::replace(&mut self.slots, slots);
    }

    /// `(key, count)` in iteration order: key 0 first, then the slots from
    /// the highest down.
    fn into_counts(self) -> Vec<(u32, usize)> {
        let mut out = Vec::with_capacity(self.size);
        if self.zero != 0 {
            out.push((0, self.zero as usize));
        }
        for &(k, n) in self.slots.iter().rev() {
            if k != 0 {
                out.push((k as u32, n as usize));
            }
        }
        out
    }
}

/// Tallies a storage's palette ids and gives `(id, count)` in the order
/// Minecraft's `count` reports them. `palette_len`, the ids its palette
/// holds, only tells the tally when it may stop looking for new ids.
pub(crate) fn tally(storage: &BitStorage, palette_len: usize) -> Vec<(u32, usize)> {
    type ByWidth = fn(&BitStorage, usize) -> Vec<(u32, usize)>;
    /// [`tally_bytes`] for each width it takes, 1 to 8 bits.
    const BY_WIDTH: [ByWidth; 8] = [
        tally_bytes::<1>,
        tally_bytes::<2>,
        tally_bytes::<3>,
        tally_bytes::<4>,
        tally_bytes::<5>,
        tally_bytes::<6>,
        tally_bytes::<7>,
        tally_bytes::<8>,
    ];
    match BY_WIDTH.get(storage.bits().wrapping_sub(1) as usize) {
        Some(by_width) => by_width(storage, palette_len),
        None => tally_wide(storage),
    }
}

/// The storage's longs as runs of equal longs, `(long, repeats, values)`:
/// whole longs first, then the partial last long alone (its unused high
/// bits are not values). Layers of one block are runs of whole longs, and
/// a repeated long brings no first appearance, so each run's values are
/// counted once, times its repeats. Needs `bits > 0`.
fn runs(storage: &BitStorage) -> impl Iterator<Item = (u64, u32, usize)> + '_ {
    let per = (64 / storage.bits()) as usize;
    let size = storage.len();
    let (whole, last) = storage.longs().split_at(size / per);
    let mut whole = whole.iter().map(|&l| l as u64).peekable();
    std::iter::from_fn(move || {
        let long = whole.next()?;
        let mut repeats = 1;
        while whole.next_if_eq(&long).is_some() {
            repeats += 1;
        }
        Some((long, repeats, per))
    })
    .chain(last.first().map(move |&l| (l as u64, 1, size % per)))
}

/// Id `k` of `long`, `BITS` bits each from the lowest.
#[inline(always)]
fn id_in<const BITS: u32>(long: u64, k: usize) -> usize {
    ((long >> (k as u32 * BITS)) & ((1 << BITS) - 1)) as usize
}

/// Calls `f` with each of the first `values` ids of `long`; a whole long's
/// loop has a constant count, so it unrolls.
#[inline(always)]
fn each_id<const BITS: u32>(long: u64, values: usize, mut f: impl FnMut(usize)) {
    let per = (64 / BITS) as usize;
    if values == per {
        for k in 0..per {
            f(id_in::<BITS>(long, k));
        }
    } else {
        for k in 0..values {
            f(id_in::<BITS>(long, k));
        }
    }
}

/// [`tally`] for storages of `BITS` = 1 to 8 bits, where every id a long
/// can hold (ids past the palette too, from a lenient load) has a slot in
/// one small table. One pass over the [`runs`] counts, and notes each id
/// the first time its count leaves 0 until `palette_len` ids are noted;
/// the rest of the pass only counts. The noted ids go into the map first;
/// any id counted but not noted first appears after all of them (only a
/// lenient load stores one), so a scan for those in storage order follows.
fn tally_bytes<const BITS: u32>(storage: &BitStorage, palette_len: usize) -> Vec<(u32, usize)> {
    let mut counts = [0u32; 256];
    let mut order = [0u8; 256];
    let mut noted = 0;
    let all = palette_len.min(1 << BITS);
    let mut rest = runs(storage);
    for (long, repeats, values) in rest.by_ref() {
        each_id::<BITS>(long, values, |id| {
            if counts[id] == 0 {
                order[noted] = id as u8;
                noted += 1;
            }
            counts[id] += repeats;
        });
        if noted >= all {
            break;
        }
    }
    for (long, repeats, values) in rest {
        each_id::<BITS>(long, values, |id| counts[id] += repeats);
    }
    let distinct = counts[..1 << BITS].iter().filter(|&&n| n != 0).count();
    let mut tally = Tally::for_keys(distinct);
    for &id in &order[..noted] {
        let id = usize::from(id);
        tally.add(id as i32, std::mem::take(&mut counts[id]));
    }
    if noted < distinct {
        'scan: for (long, _, values) in runs(storage) {
            for k in 0..values {
                let id = id_in::<BITS>(long, k);
                if counts[id] != 0 {
                    tally.add(id as i32, std::mem::take(&mut counts[id]));
                    if tally.size == distinct {
                        break 'scan;
                    }
                }
            }
        }
    }
    tally.into_counts()
}

/// [`tally`] for 0 bits (every value 0) and for 9 to 32 (a global
/// palette, whose ids span a registry): straight into the map, a run's
/// long at a time.
fn tally_wide(storage: &BitStorage) -> Vec<(u32, usize)> {
    let mut tally = Tally::new();
    let bits = storage.bits();
    if bits == 0 {
        if !storage.is_empty() {
            tally.add(0, storage.len() as u32);
        }
        return tally.into_counts();
    }
    let mask = storage.max_value() as u64;
    for (long, repeats, values) in runs(storage) {
        let mut rest = long;
        for _ in 0..values {
            tally.add((rest & mask) as i32, repeats);
            rest >>= bits;
        }
    }
    tally.into_counts()
}

/// The ids of a 4-bit storage in the order they first appear, from index 0
/// up, a byte (two values) at a time: repeated longs (a layer of one block
/// is 16 of them) are skipped, and the scan stops once every id below `len`
/// has appeared. Ids at or past `len` (a lenient load) are listed too.
pub(crate) fn first_nibbles(storage: &BitStorage, len: usize) -> Vec<u32> {
    let size = storage.len();
    let longs = storage.longs();
    let full = size / 16;
    let all: u32 = (1u32 << len.min(16)) - 1;
    let mut seen = 0u32;
    let mut order: Vec<u32> = Vec::with_capacity(16);
    let mut note = |id: u64, seen: &mut u32| {
        if *seen & (1 << id) == 0 {
            *seen |= 1 << id;
            order.push(id as u32);
        }
    };
    let mut previous = None;
    for &long in &longs[..full] {
        if seen & all == all {
            break;
        }
        if previous.replace(long) == Some(long) {
            continue;
        }
        let long = long as u64;
        for k in 0..8 {
            let byte = (long >> (8 * k)) & 0xFF;
            if ((1u32 << (byte & 15)) | (1u32 << (byte >> 4))) & !seen != 0 {
                note(byte & 15, &mut seen);
                note(byte >> 4, &mut seen);
            }
        }
    }
    if let Some(&last) = longs.get(full) {
        for i in 0..size - full * 16 {
            note((last as u64 >> (4 * i)) & 15, &mut seen);
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order(keys: &[u32]) -> Vec<u32> {
        let mut storage = BitStorage::new(16, keys.len());
        keys.iter()
            .enumerate()
            .for_each(|(i, &k)| storage.set(i, k));
        tally(&storage, keys.len())
            .into_iter()
            .map(|(k, _)| k)
            .collect()
    }

    #[test]
    fn flat_world_order() {
        // Palette [0, 88, 10, 9]: Minecraft reports 0, 10, 88, 9.
        assert_eq!(order(&[0, 1, 2, 3]), [0, 2, 1, 3]);
    }

    #[test]
    fn growth_keeps_every_key_once() {
        let keys: Vec<u32> = (0..5000).map(|i| (i * 7919) % 65536).collect();
        let mut got = order(&keys);
        got.sort_unstable();
        let mut want = keys.clone();
        want.sort_unstable();
        want.dedup();
        assert_eq!(got, want);
    }

    #[test]
    fn fastutil_sizes() {
        assert_eq!(array_size(16), 32);
        assert_eq!(max_fill(32), 24);
        assert_eq!(array_size(26), 64);
        assert_eq!(max_fill(2), 1);
        for n in (1..=26).map(|k| 1usize << k) {
            let fastutil = ((n as f32 * LOAD_FACTOR).ceil() as usize).min(n - 1);
            assert_eq!(max_fill(n), fastutil, "{n} slots");
        }
    }

    /// Minecraft's tally: every value added to the map one at a time, in
    /// index order.
    fn value_by_value(storage: &BitStorage) -> Vec<(u32, usize)> {
        let mut map = Tally::new();
        storage.for_each(|_, id| map.add(id as i32, 1));
        map.into_counts()
    }

    #[test]
    fn the_tally_by_runs_agrees_with_a_value_by_value_one() {
        let mut seed = 11u64;
        let mut next = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as u32
        };
        for bits in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 21, 31, 32] {
            let max = u32::MAX.checked_shr(32 - bits).unwrap_or(0);
            for size in [0, 1, 12, 13, 15, 16, 17, 64, 100, 4095, 4096] {
                // One id, a few, a palette's worth, and ids across the
                // whole width (a global palette, or a lenient load).
                for spread in [1, 3, 17, 300, u32::MAX] {
                    let mut storage = BitStorage::new(bits, size);
                    // Layers of whole equal longs, runs of one value, and
                    // scattered ones.
                    for i in 0..size {
                        let v = match next() % 4 {
                            _ if i < size / 2 => i as u32 / 256,
                            0 => next(),
                            _ => i as u32 / 7,
                        };
                        storage.set(i, (v % spread) & max);
                    }
                    // Palette lengths that stop noting first appearances
                    // early, late and never.
                    for palette_len in [0, 1, 2, 17, 256] {
                        assert_eq!(
                            tally(&storage, palette_len),
                            value_by_value(&storage),
                            "bits {bits} size {size} spread {spread} palette {palette_len}"
                        );
                    }
                }
            }
        }
    }
}
