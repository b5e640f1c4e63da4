//! Whole containers at once: built from every value
//! ([`from_values`](PalettedContainer::from_values)), and many values set
//! in one call ([`set_many`](PalettedContainer::set_many)).
//!
//! `from_values` gives exactly what `set`s of the values in index order
//! give, without making them. Such a run of sets never overwrites a value,
//! so no palette entry goes stale but the initial value, and every grow
//! copies the values set so far, then the initial value (still at every
//! index not yet reached), in first-appearance order. The container's last
//! configuration is therefore fixed by how many distinct values there are,
//! and its palette by where the value that forced the last grow first
//! appears: one pass finds the distinct values, the palette is built in its
//! final order, and the indices are packed once.

use super::{PalettedContainer, check_value, fail};
use crate::palette::{Palette, PaletteKind};
use crate::storage::BitStorage;
use crate::{Kind, Strategy};

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
            Kind::BlockStates => build::<4096, 512, 256>(initial, strategy, values),
            Kind::Biomes => build::<64, 16, 8>(initial, strategy, values),
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
fn capacity(kind: PaletteKind, bits: u32) -> usize {
    match kind {
        PaletteKind::Global => usize::MAX,
        _ => 1 << bits,
    }
}

/// The golden-ratio hash's home slot among `2^(32 - shift)`.
#[inline(always)]
fn home(value: u32, shift: u32) -> usize {
    (value.wrapping_add(1).wrapping_mul(0x9E37_79B9) >> shift) as usize
}

/// Values a run test covers: runs in a section (a layer of stone, of air)
/// are far longer, and a failed test costs little.
const RUN: usize = 32;

/// [`PalettedContainer::from_values_with`] for a container of `N` values
/// (checked; a multiple of [`RUN`]) whose largest list palette holds `MOST`
/// (at most 256: numbers fit a byte), with a table of `SLOTS` for the
/// distinct values (a power of two at least twice `MOST`, so at most half
/// full).
fn build<const N: usize, const SLOTS: usize, const MOST: usize>(
    initial: u32,
    strategy: Strategy,
    values: &[u32],
) -> PalettedContainer {
    let Ok(values) = <&[u32; N]>::try_from(values) else {
        unreachable!("the size was checked")
    };
    let registry = strategy.registry_size();
    // The largest list palette: past it, the configuration is global.
    let mut most = 1;
    let mut config = strategy.configuration(0);
    while config.kind != PaletteKind::Global && config.bits < 32 {
        most = capacity(config.kind, config.bits);
        config = strategy.configuration(config.bits + 1);
    }
    debug_assert!(
        most == MOST && 2 * MOST <= SLOTS && MOST <= 256,
        "{most} entries for {SLOTS} slots"
    );
    // Each distinct value's number in first-appearance order, the initial
    // value's 0 (it is in the palette from the start): `value + 1` in a
    // slot of `keys` (0: free), its number in `numbers`, and where each
    // first appears. A value is checked against the registry where it first
    // appears, which is where the sets would refuse it.
    let shift = 32 - SLOTS.trailing_zeros();
    let mut keys = [0u32; SLOTS];
    let mut numbers = [0u8; SLOTS];
    let mut found = [0u32; MOST];
    let mut first = [0u16; MOST];
    found[0] = initial;
    let mut distinct = 1;
    // Where the initial value first appears (N: nowhere). A run of it at
    // the start is never probed, so it is in the table from the start.
    let mut initial_at = N;
    if values[0] == initial {
        initial_at = 0;
        keys[home(initial, shift) & (SLOTS - 1)] = initial.wrapping_add(1);
    }
    let mut ids = [0u8; N];
    // Runs of RUN equal values, which tell the pack to look for runs.
    let mut runs = 0;
    let (mut last, mut last_id) = (initial, 0u8);
    for c in (0..N).step_by(RUN) {
        // Equal neighbours are the common case in a section (runs of
        // stone, air, water): no probe for them.
        let chunk = &values[c..c + RUN];
        if chunk.iter().fold(0, |any, &v| any | (v ^ last)) == 0 {
            ids[c..c + RUN].fill(last_id);
            runs += 1;
            continue;
        }
        for i in c..c + RUN {
            let v = values[i];
            if v != last {
                let key = v.wrapping_add(1);
                let mut pos = home(v, shift) & (SLOTS - 1);
                last_id = loop {
                    if keys[pos] == key {
                        break numbers[pos];
                    }
                    if keys[pos] == 0 {
                        if v >= registry {
                            check_value(&strategy, v);
                        }
                        let n = if v == initial {
                            initial_at = i;
                            0
                        } else if distinct == most {
                            return global(strategy, values);
                        } else {
                            found[distinct] = v;
                            first[distinct] = i as u16;
                            distinct += 1;
                            (distinct - 1) as u8
                        };
                        keys[pos] = key;
                        numbers[pos] = n;
                        break n;
                    }
                    pos = (pos + 1) & (SLOTS - 1);
                };
                last = v;
            }
            ids[i] = last_id;
        }
    }
    if distinct == 1 {
        return PalettedContainer::new(initial, strategy);
    }
    // The configuration the sets end in, and the palette's capacity before
    // its last grow: that grow was forced by value number `before`.
    let mut config = strategy.configuration(0);
    let mut before = 1;
    while capacity(config.kind, config.bits) < distinct {
        before = capacity(config.kind, config.bits);
        config = strategy.configuration(config.bits + 1);
    }
    // That grow copied the values set before it in first-appearance order,
    // then the initial value where it first appears among them (or after
    // them all): `at` values come before it.
    let at = if initial_at == N {
        before - 1
    } else {
        first[1..before].partition_point(|&f| (f as usize) < initial_at)
    };
    // The palette: the values in first-appearance order (the initial
    // value first), with the initial value moved to `at`.
    found[..=at].rotate_left(1);
    // Number k is palette id k - 1 up to the initial value, which moved
    // from 0 to `at`.
    let mut lut = [0u8; MOST];
    for (k, id) in lut.iter_mut().enumerate().take(distinct) {
        *id = match k {
            0 => at as u8,
            k if k <= at => k as u8 - 1,
            k => k as u8,
        };
    }
    PalettedContainer {
        strategy,
        config,
        palette: Palette::from_entries(config.kind, config.bits, registry, &found[..distinct]),
        storage: BitStorage::from_ids(config.bits, &ids, &lut, 2 * runs * RUN >= N),
    }
}

/// More distinct values than the largest list palette holds: the sets end
/// in the global configuration, whose storage holds the values themselves.
#[cold]
fn global(strategy: Strategy, values: &[u32]) -> PalettedContainer {
    // Those before the first probe past the list were checked; the first
    // value outside the registry is named, as the sets would name it.
    // (`max` vectorises; the search runs only to name the culprit).
    let registry = strategy.registry_size();
    if values.iter().copied().max().unwrap_or(0) >= registry {
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
