//! Whole containers at once: built from every value
//! ([`from_values`](PalettedContainer::from_values)), and many values set
//! in one call ([`set_many`](PalettedContainer::set_many)).
//!
//! `from_values` gives exactly what `set`s of the values in index order
//! give, without making them. Such a run of sets never overwrites a value,
//! so no palette entry goes stale but the initial value, and every grow
//! copies the values set so far, then the initial value (still at every
//! index not yet reached), in first-appearance order. The palette the sets
//! hold at any index is therefore the values met so far in first-appearance
//! order, with the initial value where the last grow put it: one pass
//! numbers each value as that palette does (renumbering what it has
//! numbered at a grow that moves the initial value, which happens early in
//! a section: the palette is full only after its first values), and the
//! numbers are packed once. A biome container's 64 values are met a value
//! at a time instead, each value's places one word's bits, and only the
//! last grow's palette numbers them.

use std::cell::RefCell;

use super::{PalettedContainer, check_value, fail};
use crate::palette::{Palette, PaletteKind};
use crate::storage::BitStorage;
use crate::{Configuration, Kind, Strategy};

impl PalettedContainer {
    /// The container that `set`s of `values` in index order give, starting
    /// from `values[0]` everywhere: [`from_values_with`](Self::from_values_with)
    /// with the first value as the initial one, so a section of one value
    /// has a single-value palette.
    ///
    /// ```
    /// use paletted::{PaletteKind, PalettedContainer, Strategy};
    ///
    /// let blocks = Strategy::block_states(35723);
    /// // Stone below y = 8, air above.
    /// let values: Vec<u32> = (0..4096).map(|i| if i < 2048 { 1 } else { 0 }).collect();
    /// let c = PalettedContainer::from_values(blocks, &values);
    /// assert_eq!(c.palette(), [1, 0]);
    /// assert_eq!(c.palette_kind(), PaletteKind::Linear);
    /// assert_eq!(c.get(3, 7, 3), 1);
    /// ```
    ///
    /// # Panics
    /// Unless there are exactly [`Strategy::size`] values, each below the
    /// registry's size.
    pub fn from_values(strategy: Strategy, values: &[u32]) -> PalettedContainer {
        let first = values.first().copied().unwrap_or(0);
        PalettedContainer::from_values_with(first, strategy, values)
    }

    /// The container that [`new(initial, strategy)`](Self::new) followed by
    /// `set_at(i, values[i])` for every index from 0 up gives: the same
    /// palette in the same order, the same configuration, the same longs.
    /// The initial value stays in the palette (as a stale entry, if no
    /// value equals it), as it does after those sets.
    ///
    /// ```
    /// use paletted::{PalettedContainer, Strategy};
    ///
    /// let biomes = Strategy::biomes(65);
    /// let values = [7; 64];
    /// let built = PalettedContainer::from_values_with(0, biomes, &values);
    /// let mut set = PalettedContainer::new(0, biomes);
    /// (0..64).for_each(|i| set.set_at(i, 7));
    /// assert_eq!(built, set);
    /// assert_eq!(built.palette(), [0, 7]);
    /// ```
    ///
    /// # Panics
    /// Unless there are exactly [`Strategy::size`] values and `initial` and
    /// each value are below the registry's size.
    pub fn from_values_with(initial: u32, strategy: Strategy, values: &[u32]) -> PalettedContainer {
        assert!(
            values.len() == strategy.size(),
            "{} values for a container of {}",
            values.len(),
            strategy.size()
        );
        check_value(&strategy, initial);
        match strategy.kind() {
            Kind::BlockStates => build(initial, strategy, values),
            Kind::Biomes => biomes(initial, strategy, values),
        }
    }

    /// Sets `(index, value)` pairs in order, each exactly as
    /// [`set_at`](Self::set_at) sets it (the palette grows where the sets
    /// would grow it), without a call's checks and dispatch for each.
    ///
    /// ```
    /// use paletted::{PalettedContainer, Strategy};
    ///
    /// let blocks = Strategy::block_states(35723);
    /// let mut c = PalettedContainer::new(0, blocks);
    /// // A column of stone at x = 2, z = 5.
    /// c.set_many((0..16).map(|y| (blocks.index(2, y, 5), 1)));
    /// assert_eq!(c.get(2, 9, 5), 1);
    /// assert_eq!(c.counts(), [(0, 4080), (1, 16)]);
    /// ```
    ///
    /// # Panics
    /// At the first pair whose index is outside the container or whose
    /// value is not below the registry's size, with the pairs before it
    /// set (as the sets in order would leave them), or where
    /// [`set_at`](Self::set_at) panics on a leniently loaded container.
    pub fn set_many(&mut self, sets: impl IntoIterator<Item = (usize, u32)>) {
        for (i, value) in sets {
            self.check_call(i, value);
            self.store(i, value).unwrap_or_else(|e| fail(e));
        }
    }
}

/// Capacity of a configuration's palette: what it holds before the next
/// new value makes it grow (the global palette never does).
fn capacity(config: Configuration) -> usize {
    match config.kind {
        PaletteKind::Global => usize::MAX,
        _ => 1 << config.bits,
    }
}

/// The capacity of the largest list palette: past it, the configuration is
/// global.
fn largest_list(strategy: Strategy) -> usize {
    let mut most = 1;
    let mut config = strategy.configuration(0);
    while config.kind != PaletteKind::Global && config.bits < 32 {
        most = capacity(config);
        config = strategy.configuration(config.bits + 1);
    }
    most
}

/// The entries of a biome container's largest list palette.
const BIOME_MOST: usize = 8;

/// [`PalettedContainer::from_values_with`] for a biome container: 64
/// values, so the places of each are one word's bits. The values are met
/// in first-appearance order, a value's places found at once; the grows
/// are only counted, and the palette they leave (the values in
/// first-appearance order, the initial value where the last grow put it)
/// numbers each value once, its places going into the bit planes of its id.
fn biomes(initial: u32, strategy: Strategy, values: &[u32]) -> PalettedContainer {
    let Ok(values) = <&[u32; 64]>::try_from(values) else {
        unreachable!("the size was checked")
    };
    debug_assert_eq!(largest_list(strategy), BIOME_MOST);
    let Some(Met {
        values: met,
        distinct,
        before_initial,
    }) = meet(values, initial, strategy)
    else {
        return global(strategy, values);
    };
    if distinct == 0 {
        return PalettedContainer::new(initial, strategy);
    }
    // Each grow puts the initial value after the values met before it, or
    // where it first appears if that is earlier.
    let mut config = strategy.configuration(0);
    let mut at = 0;
    for k in 0..distinct {
        if k + 1 == capacity(config) {
            config = strategy.configuration(config.bits + 1);
            at = k.min(before_initial);
        }
    }
    let mut palette = [initial; BIOME_MOST];
    let mut planes = [0; 3];
    let mut elsewhere = u64::MAX;
    for (k, &(v, places)) in met[..distinct].iter().enumerate() {
        let id = k + usize::from(k >= at);
        palette[id] = v;
        elsewhere &= !places;
        for (j, plane) in planes.iter_mut().enumerate() {
            *plane |= places & 0u64.wrapping_sub((id >> j & 1) as u64);
        }
    }
    for (j, plane) in planes.iter_mut().enumerate() {
        *plane |= elsewhere & 0u64.wrapping_sub((at >> j & 1) as u64);
    }
    let bits = config.bits;
    PalettedContainer {
        strategy,
        config,
        palette: Palette::from_entries(
            config.kind,
            bits,
            strategy.registry_size(),
            &palette[..=distinct],
        ),
        storage: BitStorage::from_planes(bits, &planes[..bits as usize]),
    }
}

/// A biome container's values but the initial one, in first-appearance
/// order, each with its places; and how many of them first appear before
/// the initial value (`BIOME_MOST` if it does not appear).
struct Met {
    values: [(u32, u64); BIOME_MOST],
    distinct: usize,
    before_initial: usize,
}

/// The values of a biome container met in first-appearance order, each
/// checked against the registry where the sets would check it; `None`
/// once there are more than its largest list palette holds. Built for
/// AVX2 as well (the compares of [`places_of`]), chosen at run time.
#[multiversion::multiversion(targets("x86_64+avx2"))]
fn meet(values: &[u32; 64], initial: u32, strategy: Strategy) -> Option<Met> {
    let mut met = Met {
        values: [(initial, 0); BIOME_MOST],
        distinct: 0,
        before_initial: BIOME_MOST,
    };
    let mut rest = u64::MAX;
    while rest != 0 {
        let v = values[rest.trailing_zeros() as usize];
        let places = places_of(values, v);
        rest &= !places;
        if v == initial {
            met.before_initial = met.distinct;
            continue;
        }
        check_value(&strategy, v);
        if met.distinct == BIOME_MOST - 1 {
            return None;
        }
        met.values[met.distinct] = (v, places);
        met.distinct += 1;
    }
    Some(met)
}

/// The places of `values` that hold `v`, a bit each: a byte of 0 or 1 a
/// place (compares the compiler vectorises), then each eight bytes' low
/// bits gathered into the top byte by one multiply (byte `i`'s bit lands
/// on bit `56 + i`, no two products overlap).
#[inline(always)]
fn places_of(values: &[u32; 64], v: u32) -> u64 {
    let mut flags = [0u8; 64];
    for (flag, &w) in flags.iter_mut().zip(values) {
        *flag = u8::from(w == v);
    }
    flags
        .chunks_exact(8)
        .enumerate()
        .fold(0, |places, (k, eight)| {
            let eight = u64::from_le_bytes(eight.try_into().unwrap_or([0; 8]));
            places | (eight.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * k)
        })
}

/// A section's block states.
const SECTION: usize = 4096;

/// Values numbered at a time (at most 128: their ids are joined into
/// words as a block).
const BLOCK: usize = 128;

/// Values tested at once for a run of one value (a multiple of 16 that
/// divides `BLOCK`: a section's layers of stone or air are runs of 32 and
/// far longer).
const RUN: usize = 32;

/// The entries of a section's largest list palette (a power of two, at
/// most 256: numbers fit a byte).
const MOST: usize = 256;

/// Slots of the hashed table of numbers: a power of two at least twice
/// `MOST`, so at most half full.
const HASHED: usize = 512;

const _: () = assert!(
    SECTION % BLOCK == 0 && BLOCK <= 128 && BLOCK % RUN == 0 && RUN % 16 == 0,
    "blocks of whole runs, of whole loops of 16"
);
const _: () = assert!(MOST.is_power_of_two() && MOST <= 256 && 2 * MOST <= HASHED);

/// [`PalettedContainer::from_values_with`] for a section's block states,
/// numbered `BLOCK` values at a time. The table of numbers is the thread's
/// direct one for registries up to 2^16 values, else a hashed one.
fn build(initial: u32, strategy: Strategy, values: &[u32]) -> PalettedContainer {
    let Ok(values) = <&[u32; SECTION]>::try_from(values) else {
        unreachable!("the size was checked")
    };
    debug_assert_eq!(largest_list(strategy), MOST);
    let direct = (strategy.registry_size() as usize <= DIRECT).then(|| {
        DIRECT_SLOTS.try_with(|slots| {
            let mut slots = slots.try_borrow_mut().ok()?;
            number::<DIRECT, true>(&mut slots, initial, strategy, values)
        })
    });
    let numbered = match direct {
        Some(Ok(numbered)) => numbered,
        // (Only while the thread's locals are being destroyed is there no
        // direct table; the hashed one serves then.)
        _ => number::<HASHED, false>(&mut [0; HASHED], initial, strategy, values),
    };
    match numbered {
        None => global(strategy, values),
        Some(Numbered { palette: None, .. }) => PalettedContainer::new(initial, strategy),
        Some(Numbered {
            config,
            palette: Some(palette),
            ids,
        }) => PalettedContainer {
            strategy,
            config,
            palette,
            storage: BitStorage::from_id_words(config.bits, SECTION, ids),
        },
    }
}

/// What numbering every value gives: the configuration the sets end in,
/// its palette (none for the initial value alone), and each value's id in
/// it, a byte each, eight to a word.
struct Numbered {
    config: Configuration,
    palette: Option<Palette>,
    ids: Vec<i64>,
}

/// Slots of the direct table: a value below 2^16 is its own slot (26.3's
/// block states number 35,723).
const DIRECT: usize = 1 << 16;

thread_local! {
    /// The direct table, one a thread: 64 KiB that a call would cost more
    /// to clear than to number its values with, so it is never cleared and
    /// only trusted where `found` confirms it ([`Numbers`]).
    static DIRECT_SLOTS: RefCell<Box<[u8; DIRECT]>> = RefCell::new(
        vec![0; DIRECT].into_boxed_slice().try_into().unwrap_or_else(|_| unreachable!()),
    );
}

/// The numbering of [`build`], with a table of `SLOTS` slots: direct
/// (`DIRECT`: a value is its own slot, and the table is the thread's, with
/// what earlier calls left in it) or hashed (free slots hold 0); `None`
/// past the largest list palette.
fn number<const SLOTS: usize, const DIRECT: bool>(
    slots: &mut [u8; SLOTS],
    initial: u32,
    strategy: Strategy,
    values: &[u32; SECTION],
) -> Option<Numbered> {
    let mut table = Numbers::<SLOTS, DIRECT>::new(slots, initial, strategy, values);
    if !scan::<SLOTS, DIRECT>(&mut table, values) {
        return None;
    }
    let config = table.config;
    let palette = (table.distinct > 1).then(|| {
        let found = &table.found[..table.distinct];
        Palette::from_entries(config.kind, config.bits, strategy.registry_size(), found)
    });
    Some(Numbered {
        config,
        palette,
        ids: table.words,
    })
}

/// Numbers every value into `table.words`, `BLOCK` values at a time, a
/// run of `RUN` at a time; false once there are more distinct values than
/// the largest list palette holds. Built for AVX2 as well (the run test),
/// chosen at run time.
#[multiversion::multiversion(targets("x86_64+avx2"))]
fn scan<const SLOTS: usize, const DIRECT: bool>(
    table: &mut Numbers<SLOTS, DIRECT>,
    values: &[u32; SECTION],
) -> bool {
    let home = Numbers::<SLOTS, DIRECT>::home;
    for block in (0..SECTION).step_by(BLOCK) {
        for at in (0..BLOCK).step_by(RUN) {
            let start = block + at;
            let Ok(run) = <&[u32; RUN]>::try_from(&values[start..start + RUN]) else {
                unreachable!("runs of RUN")
            };
            let v = run[0];
            if run[RUN - 1] == v && run.iter().fold(0, |any, &w| any | (w ^ v)) == 0 {
                // A run of one value (a layer of stone, of air).
                let n = table.number(start, v, home(v));
                table.ids[at..at + RUN].fill(n);
            } else {
                // (Loops of 16: each unrolls whole.)
                for q in (0..RUN).step_by(16) {
                    let Ok(part) = <&[u32; 16]>::try_from(&run[q..q + 16]) else {
                        unreachable!("RUN is a multiple of 16")
                    };
                    for (k, &v) in part.iter().enumerate() {
                        table.ids[at + q + k] = table.number(start + q + k, v, home(v));
                    }
                }
            }
        }
        if table.distinct > MOST {
            return false;
        }
        let mut words = [0; BLOCK / 8];
        for (k, word) in words.iter_mut().enumerate() {
            *word = i64::from_le_bytes(table.ids[8 * k..8 * k + 8].try_into().unwrap_or([0; 8]));
        }
        table.words.extend_from_slice(&words);
    }
    true
}

/// The values met so far, numbered as the palette the sets have built by
/// then numbers them: in first-appearance order, with the initial value
/// (in the palette from the start) at `at`. Only a grow moves it, and
/// then every value is renumbered (the table, and the numbers given so
/// far); so the numbers at the end are the palette ids.
///
/// A value is found when `found` at its slot's number is itself: no value
/// stands for another, and a value outside the registry is never in
/// `found`, so it is always new, and refused there.
///
/// Hashed, a slot holds the number of the value whose probe ends there, or,
/// free, the initial value's; the initial value never takes a slot, and
/// every probe for it ends at a free one. Direct (`DIRECT`), a value below
/// 2^16 is its own slot, and the table is not cleared between calls: a slot
/// no value of this call has written holds any number, and `found` at it
/// is another value (`found` holds this call's values at their numbers,
/// each of whose slots holds its number, and the initial value past them,
/// whose slot is written first).
struct Numbers<'a, const SLOTS: usize, const DIRECT: bool> {
    slots: &'a mut [u8; SLOTS],
    /// The value numbered k, for each k below `distinct`; the initial value
    /// past them. A number indexes it masked (`MOST` is a power of two):
    /// no bounds check.
    found: [u32; MOST],
    /// Where the m-th distinct value other than the initial one first
    /// appears.
    first: [u16; MOST],
    /// How many values are numbered, the initial one included; one more
    /// than `MOST` once past the largest list palette.
    distinct: usize,
    /// The initial value's number.
    at: u8,
    /// The configuration the sets are in.
    config: Configuration,
    /// How many distinct values other than the initial one first appear
    /// before it, once it is found among the first `searched` values.
    before_initial: Option<usize>,
    searched: usize,
    strategy: Strategy,
    initial: u32,
    values: &'a [u32],
    /// The numbers of the blocks of values done, a byte each, eight to a
    /// word ([`BitStorage::from_id_words`]), and of the block being
    /// numbered.
    words: Vec<i64>,
    ids: [u8; BLOCK],
}

impl<'a, const SLOTS: usize, const DIRECT: bool> Numbers<'a, SLOTS, DIRECT> {
    fn new(
        slots: &'a mut [u8; SLOTS],
        initial: u32,
        strategy: Strategy,
        values: &'a [u32],
    ) -> Self {
        // The initial value's number, 0, where its probe ends.
        slots[Self::home(initial)] = 0;
        Numbers {
            slots,
            found: [initial; MOST],
            first: [0; MOST],
            distinct: 1,
            at: 0,
            config: strategy.configuration(0),
            before_initial: None,
            searched: 0,
            strategy,
            initial,
            values,
            words: Vec::with_capacity(values.len() / 8),
            ids: [0; BLOCK],
        }
    }

    /// The slot where the probe for `v` starts: the value itself, direct;
    /// else the top bits of its golden-ratio hash.
    #[inline(always)]
    fn home(v: u32) -> usize {
        match DIRECT {
            true => v as usize % SLOTS,
            false => (v.wrapping_mul(0x9E37_79B9) >> (32 - SLOTS.trailing_zeros())) as usize,
        }
    }

    /// The number of `v`, at index `i`, whose probe starts at slot `home`:
    /// a new value gets the next one. The value in its home slot is tested
    /// here; the probe beyond it (another value holds the slot, or `v` is
    /// new) is out of line, which lets the loops over the values unroll.
    /// Direct, the home slot is the value's alone: a value not there is
    /// new (or outside the registry), with no probe.
    #[inline(always)]
    fn number(&mut self, i: usize, v: u32, home: usize) -> u8 {
        let n = self.slots[home];
        if self.found[usize::from(n) % MOST] == v {
            n
        } else if DIRECT {
            self.add(i, v, home)
        } else {
            self.probe(i, v, home)
        }
    }

    /// [`number`](Self::number) past the home slot.
    #[inline(never)]
    fn probe(&mut self, i: usize, v: u32, home: usize) -> u8 {
        let mut pos = home;
        loop {
            let n = self.slots[pos];
            if self.found[usize::from(n) % MOST] == v {
                return n;
            }
            if n == self.at {
                return self.add(i, v, pos);
            }
            pos = (pos + 1) % SLOTS;
        }
    }

    /// A value met for the first time, at index `i`, whose probe ended at
    /// free slot `pos`. It is checked against the registry here, where the
    /// sets would refuse it; it gets the next number, after a grow if the
    /// palette is full. Past the largest list palette, `distinct` passes
    /// `MOST` and the numbers are no longer wanted.
    #[cold]
    #[inline(never)]
    fn add(&mut self, i: usize, v: u32, pos: usize) -> u8 {
        if self.distinct > MOST {
            return 0;
        }
        check_value(&self.strategy, v);
        let n = self.distinct;
        if n == MOST {
            self.distinct += 1;
            return 0;
        }
        if n == capacity(self.config) {
            self.grow(i);
        }
        self.first[n - 1] = i as u16;
        self.found[n] = v;
        self.slots[pos] = n as u8;
        self.distinct += 1;
        n as u8
    }

    /// The sets' grow at index `i`: the next configuration, whose palette
    /// takes the values set so far in first-appearance order, with the
    /// initial value where it first appears among them, or after them all
    /// (it is still at index `i` and on).
    fn grow(&mut self, i: usize) {
        let full = capacity(self.config);
        self.config = self.strategy.configuration(self.config.bits + 1);
        if self.before_initial.is_none() {
            let from = self.searched;
            if let Some(k) = first_index(&self.values[from..i], self.initial) {
                let seen = &self.first[..self.distinct - 1];
                self.before_initial = Some(seen.partition_point(|&f| usize::from(f) < from + k));
            }
            self.searched = i;
        }
        // (Those before the initial value were all met by then: at most
        // `full - 1`, the values but the initial one in a full palette.)
        let at = self.before_initial.unwrap_or(full - 1) as u8;
        if at != self.at {
            // The numbers given so far: the blocks done, and this one's
            // (its places not numbered yet are left as they are, or are
            // numbered later); then the table.
            renumber_bytes(&mut self.ids, self.at, at);
            if !self.words.is_empty() {
                renumber_words(&mut self.words, self.at, at);
            }
            let initial = self.found[usize::from(self.at)];
            for n in self.at..at {
                self.found[usize::from(n)] = self.found[usize::from(n) + 1];
            }
            self.found[usize::from(at)] = initial;
            match DIRECT {
                true => {
                    for (n, &v) in self.found[..self.distinct].iter().enumerate() {
                        self.slots[Self::home(v)] = n as u8;
                    }
                }
                false => renumber_bytes(self.slots, self.at, at),
            }
            self.at = at;
        }
    }
}

/// The ids in `bytes` renumbered for the initial value's move from number
/// `from` to `to` (not before it): `from` becomes `to`, the numbers
/// between move down one. Built for AVX2 as well.
#[multiversion::multiversion(targets("x86_64+avx2"))]
fn renumber_bytes(bytes: &mut [u8], from: u8, to: u8) {
    for n in bytes {
        // Past `from` and up to `to`: one less.
        let between = n.wrapping_sub(from).wrapping_sub(1) < to - from;
        *n = if *n == from {
            to
        } else {
            *n - u8::from(between)
        };
    }
}

/// [`renumber_bytes`] of the ids in `words`, a byte each: `from` (below
/// `to`, at most 127) becomes `to`, those above it up to `to` one less.
/// Every id is below 128 (the grow to 8 bits comes with number 128), so
/// each byte's top bit is free to carry its tests: the sum of the id and
/// `0x7F - t` sets it exactly where the id is past `t`, and stays inside
/// the byte.
fn renumber_words(words: &mut [i64], from: u8, to: u8) {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const TOP: u64 = ONES << 7;
    debug_assert!(from < to && to < 128);
    let above = |t: u8| (0x7F - u64::from(t)) * ONES;
    let (over_from, over_to) = (above(from), above(to));
    let at_least_from = from.checked_sub(1).map(above);
    for word in words {
        let x = *word as u64;
        debug_assert_eq!(x & TOP, 0, "ids below 128");
        let past = |add: u64| (x + add) & TOP;
        let past_from = past(over_from);
        let down = (past_from & !past(over_to)) >> 7;
        let at_from = at_least_from.map_or(TOP, past) & !past_from;
        *word = (x - down + (at_from >> 7) * u64::from(to - from)) as i64;
    }
}

/// Where `value` first appears in `values`, if it does: runs of 32 tested
/// whole (a test the compiler vectorises), then the one that holds it
/// searched.
fn first_index(values: &[u32], value: u32) -> Option<usize> {
    let mut start = 0;
    for chunk in values.chunks(32) {
        if chunk.iter().fold(false, |any, &v| any | (v == value)) {
            return chunk.iter().position(|&v| v == value).map(|k| start + k);
        }
        start += chunk.len();
    }
    None
}

/// More distinct values than the largest list palette holds: the sets end
/// in the global configuration, whose storage holds the values themselves.
#[cold]
fn global(strategy: Strategy, values: &[u32]) -> PalettedContainer {
    // Those before the first probe past the list were checked; the first
    // value outside the registry is named, as the sets would name it.
    // (The fold of `max` vectorises; the search runs only to name the
    // culprit.)
    let registry = strategy.registry_size();
    if values.iter().fold(0, |most, &v| most.max(v)) >= registry {
        let bad = values.iter().copied().find(|&v| v >= registry);
        check_value(&strategy, bad.unwrap_or(registry));
    }
    let mut config = strategy.configuration(0);
    while config.kind != PaletteKind::Global {
        config = strategy.configuration(config.bits + 1);
    }
    PalettedContainer {
        strategy,
        config,
        palette: Palette::empty(config.kind, config.bits, strategy.registry_size()),
        storage: BitStorage::from_values(config.bits, values.len(), values),
    }
}
