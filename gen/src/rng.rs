//! The generator's own pseudo-random numbers.
//!
//! SplitMix64 (Steele, Lea and Flood), written here rather than taken from a
//! crate so that a seed gives the same case bytes forever: no dependency
//! update can change the stream. Only the generator uses it; nothing here is
//! meant for cryptography.

/// A SplitMix64 stream. Same seed, same numbers, on every platform.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// A stream from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    /// A stream for one case of a family: the family's seed mixed with the
    /// case's number and a salt, so neighbouring cases share no prefix.
    pub fn for_case(seed: u64, case: u64, salt: &str) -> Rng {
        let mut mix = Rng::new(seed ^ 0x5bd1_e995_u64.wrapping_mul(case.wrapping_add(1)));
        for b in salt.bytes() {
            mix.state ^= u64::from(b);
            mix.next_u64();
        }
        Rng::new(mix.next_u64())
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A signed 64-bit value with every bit random (for longs).
    pub fn next_i64(&mut self) -> i64 {
        self.next_u64() as i64
    }

    /// Uniform-enough in `0..n` (multiply-shift; the bias is below 2^-32 for
    /// the small `n` used here). `n` must be positive.
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "Rng::below(0)");
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// In `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo + 1)
    }

    /// True `num` times in `den`.
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        self.below(den) < num
    }

    /// One element of a non-empty slice.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }

    /// One element of a non-empty slice of `(weight, item)`, by weight.
    pub fn weighted<T: Copy>(&mut self, items: &[(u32, T)]) -> T {
        let total: u64 = items.iter().map(|&(w, _)| u64::from(w)).sum();
        let mut roll = self.below(total);
        for &(w, item) in items {
            if roll < u64::from(w) {
                return item;
            }
            roll -= u64::from(w);
        }
        unreachable!("roll below the total weight")
    }

    /// Fisher-Yates, in place.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }

    /// `n` distinct ids below `registry`, in random order (`n <= registry`).
    pub fn distinct_ids(&mut self, n: usize, registry: u32) -> Vec<u32> {
        assert!(n as u64 <= u64::from(registry));
        if (n as u64) * 2 > u64::from(registry) {
            let mut all: Vec<u32> = (0..registry).collect();
            self.shuffle(&mut all);
            all.truncate(n);
            return all;
        }
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::with_capacity(n);
        while out.len() < n {
            let id = self.below(u64::from(registry)) as u32;
            if seen.insert(id) {
                out.push(id);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_matches_its_published_first_outputs() {
        // First outputs of SplitMix64 from seed 0 (reference implementation).
        let mut r = Rng::new(0);
        assert_eq!(r.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(r.next_u64(), 0x6e78_9e6a_a1b9_65f4);
    }

    #[test]
    fn below_stays_in_range_and_distinct_ids_are_distinct() {
        let mut r = Rng::new(7);
        for n in 1..50 {
            assert!(r.below(n) < n);
        }
        let ids = r.distinct_ids(60, 65);
        let set: std::collections::HashSet<_> = ids.iter().collect();
        assert_eq!(set.len(), 60);
        assert!(ids.iter().all(|&i| i < 65));
    }
}
