//! The order in which Minecraft's `count` reports values.
//!
//! Minecraft tallies palette indices into a fastutil `Int2IntOpenHashMap`
//! built with the default capacity (16) and load factor (0.75), then reports
//! the entries in the map's own iteration order. That order is a function of
//! the keys' insertion order alone (a tally's later increments never move a
//! key), so this module rebuilds the table's layout from that order:
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

/// fastutil's `HashCommon.maxFill`: how many keys a table of `n` slots takes
/// before it grows.
fn max_fill(n: usize) -> usize {
    ((n as f32 * LOAD_FACTOR).ceil() as usize).min(n - 1)
}

/// The key layout of an `Int2IntOpenHashMap` (values are not needed to know
/// the order).
///
/// Invariant: `slots.len()` is a power of two; 0 marks a free slot; every
/// non-zero key is in exactly one slot, reachable by linear probing from
/// `mix(key) & mask`; `size` counts the keys, key 0 included.
struct Layout {
    slots: Vec<i32>,
    has_zero: bool,
    size: usize,
    max_fill: usize,
}

impl Layout {
    fn new() -> Layout {
        let n = array_size(DEFAULT_EXPECTED);
        Layout {
            slots: vec![0; n],
            has_zero: false,
            size: 0,
            max_fill: max_fill(n),
        }
    }

    fn place(slots: &mut [i32], key: i32) {
        let mask = slots.len() - 1;
        let mut pos = mix(key) as usize & mask;
        while slots[pos] != 0 {
            pos = (pos + 1) & mask;
        }
        slots[pos] = key;
    }

    /// Inserts a key not yet present.
    fn insert_new(&mut self, key: i32) {
        if key == 0 {
            self.has_zero = true;
        } else {
            Layout::place(&mut self.slots, key);
        }
        let before = self.size;
        self.size += 1;
        if before >= self.max_fill {
            self.rehash(array_size(self.size + 1));
        }
    }

    fn rehash(&mut self, n: usize) {
        let mut slots = vec![0; n];
        for &key in self.slots.iter().rev().filter(|&&k| k != 0) {
            Layout::place(&mut slots, key);
        }
        self.slots = slots;
        self.max_fill = max_fill(n);
    }

    fn iteration_order(&self) -> impl Iterator<Item = i32> + '_ {
        let zero = self.has_zero.then_some(0);
        zero.into_iter()
            .chain(self.slots.iter().rev().copied().filter(|&k| k != 0))
    }
}

/// `(key, count)` in the iteration order of a map that received `keys` in
/// this order.
fn in_map_order(keys: &[u32], count: impl Fn(u32) -> u32) -> Vec<(u32, usize)> {
    let mut layout = Layout::new();
    for &key in keys {
        layout.insert_new(key as i32);
    }
    layout
        .iteration_order()
        .map(|key| (key as u32, count(key as u32) as usize))
        .collect()
}

/// Tallies `indices` and gives `(index, count)` in the order Minecraft's
/// `count` reports them.
pub(crate) fn tally(storage: &BitStorage, len: usize) -> Vec<(u32, usize)> {
    if storage.bits() == 4 && len <= 16 && !storage.is_empty() {
        return tally_nibbles(storage, len);
    }
    tally_general(storage, len)
}

/// [`tally`] for any storage: a value at a time.
fn tally_general(storage: &BitStorage, len: usize) -> Vec<(u32, usize)> {
    // Dense tally first (cheap), remembering first appearances, then lay the
    // keys out in the order the map would have received them.
    let mut counts: Vec<u32> = Vec::new();
    let mut first_seen: Vec<u32> = Vec::new();
    let mut sparse: std::collections::HashMap<u32, u32> = std::collections::HashMap::new();
    let dense_limit = 1usize << 16;
    if len <= dense_limit {
        counts = vec![0; len.max(1)];
    }
    storage.for_each(|_, index| {
        let slot = if (index as usize) < counts.len() {
            &mut counts[index as usize]
        } else {
            sparse.entry(index).or_insert(0)
        };
        if *slot == 0 {
            first_seen.push(index);
        }
        *slot += 1;
    });
    in_map_order(&first_seen, |key| {
        if (key as usize) < counts.len() {
            counts[key as usize]
        } else {
            sparse[&key]
        }
    })
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

/// [`tally`] for 4-bit storages of at most 16 palette ids, a byte (two
/// values) at a time: first appearances from a scan that stops once every
/// id has appeared, counts from per-byte tallies (four tables, so runs of
/// one byte do not wait on each other) folded into per-id counts.
fn tally_nibbles(storage: &BitStorage, len: usize) -> Vec<(u32, usize)> {
    let size = storage.len();
    let longs = storage.longs();
    let full = size / 16;
    let first_seen = first_nibbles(storage, len);
    let mut pairs = [[0u32; 256]; 4];
    let mut add = |long: u64, run: u32| {
        for k in 0..8 {
            pairs[k & 3][((long >> (8 * k)) & 0xFF) as usize] += run;
        }
    };
    let mut run = (0u64, 0u32);
    for &long in &longs[..full] {
        let long = long as u64;
        if run.1 != 0 && long == run.0 {
            run.1 += 1;
        } else {
            add(run.0, run.1);
            run = (long, 1);
        }
    }
    add(run.0, run.1);
    let mut counts = [0u32; 16];
    for table in &pairs {
        for (byte, &n) in table.iter().enumerate() {
            counts[byte & 15] += n;
            counts[byte >> 4] += n;
        }
    }
    // The last long's values past a whole long, one by one; nibbles past
    // the storage's end are not values.
    if let Some(&last) = longs.get(full) {
        for i in 0..size - full * 16 {
            counts[((last as u64 >> (4 * i)) & 15) as usize] += 1;
        }
    }
    if counts[len..].iter().any(|&n| n != 0) {
        // An index past the palette (a lenient load): the general tally
        // reports it as Minecraft would.
        return tally_general(storage, len);
    }
    in_map_order(&first_seen, |key| counts[key as usize])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order(keys: &[u32]) -> Vec<u32> {
        let mut storage = BitStorage::new(16, keys.len());
        keys.iter()
            .enumerate()
            .for_each(|(i, &k)| storage.set(i, k));
        tally(&storage, 1 << 16)
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
    }

    #[test]
    fn the_nibble_tally_agrees_with_the_general_one() {
        let mut seed = 7u64;
        let mut next = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as u32
        };
        for size in [1, 15, 16, 17, 64, 100, 4095, 4096, 3 * 1365] {
            for len in [1, 2, 5, 16] {
                let mut storage = BitStorage::new(4, size);
                for i in 0..size {
                    // Layers of whole equal longs, runs of one value, and
                    // a spread.
                    let v = match size % 3 {
                        0 if i < size / 2 => (i as u32 / 256) % len,
                        _ if next() % 4 == 0 => next() % len,
                        _ => (i as u32 / 7) % len,
                    };
                    storage.set(i, v);
                }
                assert_eq!(
                    tally_nibbles(&storage, len as usize),
                    tally_general(&storage, len as usize),
                    "size {size} palette {len}"
                );
            }
        }
        // An index past the palette falls back to the general tally.
        let mut storage = BitStorage::new(4, 64);
        storage.set(40, 9);
        assert_eq!(tally(&storage, 3), tally_general(&storage, 3));
    }
}
