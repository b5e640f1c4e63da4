use crate::{Error, Rules};

/// `$body` with `$w` bound to the width `$bits` (1 to 32), as a constant
/// for each width from 1 to 12 bits: every list palette's indices, in
/// memory and on disk, and a global palette's saved ones. The functions it
/// drives are always inlined, so their shifts are then by constants and
/// their loops over a long unroll.
macro_rules! with_width {
    ($bits:expr, $w:ident => $body:expr) => {
        with_width!(@arms $bits, $w, $body, 1 2 3 4 5 6 7 8 9 10 11 12)
    };
    (@arms $bits:expr, $w:ident, $body:expr, $($n:literal)*) => {
        match $bits {
            $($n => {
                let $w = $n;
                $body
            })*
            $w => $body,
        }
    };
}

#[inline(never)]
#[cold]
fn fail(e: Error) -> ! {
    panic!("{e}")
}

/// The most values a [`BitStorage`] holds: the multiply-and-shift that finds
/// a value's long is exact only below this.
pub const MAX_SIZE: usize = 1 << 26;

/// Values of 0 to 32 bits packed into longs as Minecraft's `SimpleBitStorage`
/// packs them: from each long's low bits up, as many whole values as fit, so
/// none spans two longs. With 0 bits it is `ZeroBitStorage`: no longs, every
/// value 0.
///
/// Invariants: `bits <= 32`; `size <= MAX_SIZE`; `longs.len()` is
/// `ceil(size / (64 / bits))` (0 with 0 bits); `mask` is `2^bits - 1`;
/// `divide` is `ceil(2^32 / values_per_long)`, so that
/// `(i * divide) >> 32 == i / values_per_long` for every `i < 2^26`.
///
/// ```
/// use paletted::BitStorage;
///
/// // 5 bits: 12 values a long, none across two, so 4,096 take 342 longs.
/// let mut s = BitStorage::new(5, 4096);
/// assert_eq!(s.longs().len(), 342);
/// s.set(12, 31);
/// assert_eq!(s.longs()[1], 31); // value 12 starts the second long
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BitStorage {
    longs: Vec<i64>,
    size: u32,
    bits: u8,
    values_per_long: u8,
    mask: u64,
    divide: u64,
}

/// Longs needed for `size` values of `bits` bits.
pub(crate) fn longs_for(bits: u32, size: usize) -> usize {
    match 64u32.checked_div(bits) {
        Some(per_long) => size.div_ceil(per_long as usize),
        None => 0,
    }
}

impl BitStorage {
    #[inline]
    fn shape(bits: u32, size: usize, longs: Vec<i64>) -> BitStorage {
        let values_per_long = 64u32.checked_div(bits).unwrap_or(64);
        BitStorage {
            longs,
            size: size as u32,
            bits: bits as u8,
            values_per_long: values_per_long as u8,
            mask: if bits == 0 {
                0
            } else {
                u64::MAX >> (64 - bits)
            },
            divide: (1u64 << 32).div_ceil(u64::from(values_per_long)),
        }
    }

    fn check_shape(bits: u32, size: usize) -> Result<(), Error> {
        if bits > 32 || size > MAX_SIZE {
            Err(Error::StorageShape { bits, size })
        } else {
            Ok(())
        }
    }

    /// `size` zeros of `bits` bits each.
    ///
    /// ```
    /// use paletted::BitStorage;
    ///
    /// let s = BitStorage::new(4, 4096);
    /// assert_eq!((s.len(), s.longs().len()), (4096, 256));
    /// assert!(s.values().iter().all(|&v| v == 0));
    /// // No bits (ZeroBitStorage): no longs at all.
    /// assert!(BitStorage::new(0, 4096).longs().is_empty());
    /// ```
    ///
    /// # Panics
    /// Unless `bits` is 0 to 32 and `size` at most 2^26.
    pub fn new(bits: u32, size: usize) -> BitStorage {
        if let Err(e) = BitStorage::check_shape(bits, size) {
            panic!("{e}");
        }
        BitStorage::shape(bits, size, vec![0; longs_for(bits, size)])
    }

    /// The values packed in `longs`, kept exactly as given (bits above the
    /// last value of each long included).
    ///
    /// ```
    /// use paletted::BitStorage;
    ///
    /// // Kept as given: 12 values of 5 bits, and the 4 bits above them.
    /// let s = BitStorage::from_longs(5, 12, vec![-1]).unwrap();
    /// assert_eq!((s.get(11), s.longs()), (31, &[-1][..]));
    /// let err = BitStorage::from_longs(5, 4096, vec![0; 341]).unwrap_err();
    /// assert_eq!(err.to_string(), "Invalid length given for storage, got: 341 but expected: 342");
    /// let err = BitStorage::from_longs(33, 4, vec![]).unwrap_err();
    /// let shape = "Bit storage of 4 values at 33 bits: bits must be 0 to 32 and size at most 2^26";
    /// assert_eq!(err.to_string(), shape);
    /// ```
    ///
    /// # Errors
    /// [`Error::StorageLength`] unless there are as many longs as the values
    /// take (with 0 bits, any longs are ignored, as `ZeroBitStorage` does);
    /// [`Error::StorageShape`] unless `bits` is 0 to 32 and `size` at most 2^26.
    pub fn from_longs(bits: u32, size: usize, longs: Vec<i64>) -> Result<BitStorage, Error> {
        BitStorage::check_shape(bits, size)?;
        if bits == 0 {
            return Ok(BitStorage::shape(0, size, Vec::new()));
        }
        let expected = longs_for(bits, size);
        if longs.len() != expected {
            return Err(Error::StorageLength {
                got: longs.len(),
                expected,
            });
        }
        Ok(BitStorage::shape(bits, size, longs))
    }

    /// Packs `values` (each must fit in `bits`; exactly `size` of them) a
    /// long at a time, without locating each value on its own.
    pub(crate) fn from_values(bits: u32, size: usize, values: &[u32]) -> BitStorage {
        debug_assert_eq!(values.len(), size);
        if bits == 0 {
            return BitStorage::new(0, size);
        }
        // (16 bits too: a global palette's for 26.3's block states.)
        let longs = match bits {
            16 => pack_values(values, 16),
            _ => with_width!(bits, w => pack_values(values, w)),
        };
        BitStorage::shape(bits, size, longs)
    }

    /// A storage of `size` ids of `bits` bits (1 to 8) given as bytes,
    /// eight to a word from its low byte up (`words` holds `size / 8` of
    /// them, rounded up; bytes past `size` are 0), packed in place: the
    /// words' allocation becomes the longs'.
    pub(crate) fn from_id_words(bits: u32, size: usize, words: Vec<i64>) -> BitStorage {
        debug_assert!((1..=8).contains(&bits) && words.len() == size.div_ceil(8));
        match bits {
            1 => pack_words::<1>(size, words),
            2 => pack_words::<2>(size, words),
            3 => pack_words::<3>(size, words),
            4 => pack_words::<4>(size, words),
            5 => pack_words::<5>(size, words),
            6 => pack_words::<6>(size, words),
            7 => pack_words::<7>(size, words),
            _ => pack_words::<8>(size, words),
        }
    }

    /// 64 values of `bits` bits (1 to 3) given as bit planes: bit `k` of
    /// `planes[j]` is bit `j` of value `k` (a biome container numbered a
    /// mask of places at a time).
    pub(crate) fn from_planes(bits: u32, planes: &[u64]) -> BitStorage {
        debug_assert!((1..=3).contains(&bits) && planes.len() == bits as usize);
        match bits {
            1 => plane_longs::<1>(planes),
            2 => plane_longs::<2>(planes),
            _ => plane_longs::<3>(planes),
        }
    }

    /// Bits each value takes.
    ///
    /// ```
    /// use paletted::{PalettedContainer, Strategy};
    ///
    /// let mut c = PalettedContainer::new(0, Strategy::block_states(35723));
    /// assert_eq!(c.storage().bits(), 0);
    /// c.set(0, 0, 0, 1);
    /// assert_eq!(c.storage().bits(), 4); // the linear palette's 4 bits
    /// ```
    #[inline]
    pub fn bits(&self) -> u32 {
        u32::from(self.bits)
    }

    /// How many values there are.
    ///
    /// ```
    /// use paletted::{BitStorage, PalettedContainer, Strategy};
    ///
    /// // 4,096 values even with no bits to store them in.
    /// assert_eq!(PalettedContainer::new(0, Strategy::block_states(35723)).storage().len(), 4096);
    /// assert_eq!(BitStorage::new(7, 64).len(), 64);
    /// ```
    #[inline]
    pub fn len(&self) -> usize {
        self.size as usize
    }

    /// Whether there are no values at all.
    ///
    /// ```
    /// use paletted::BitStorage;
    ///
    /// assert!(BitStorage::new(4, 0).is_empty());
    /// assert!(!BitStorage::new(0, 64).is_empty()); // 64 zeros, no longs
    /// ```
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.size == 0
    }

    /// The largest value that fits: `2^bits - 1`.
    ///
    /// ```
    /// use paletted::BitStorage;
    ///
    /// assert_eq!(BitStorage::new(5, 64).max_value(), 31);
    /// assert_eq!(BitStorage::new(0, 64).max_value(), 0);
    /// assert_eq!(BitStorage::new(32, 2).max_value(), u32::MAX);
    /// ```
    #[inline]
    pub fn max_value(&self) -> u32 {
        self.mask as u32
    }

    /// The long holding value `i`, and the shift of the value inside it.
    #[inline(always)]
    fn locate(&self, i: usize) -> (usize, u32) {
        let cell = ((i as u64 * self.divide) >> 32) as usize;
        let shift = (i - cell * usize::from(self.values_per_long)) as u32 * u32::from(self.bits);
        (cell, shift)
    }

    /// Minecraft's first check, `Validate.inclusiveBetween(0, size - 1, i)`
    /// (the value's against the mask, [`check_value`](Self::check_value),
    /// comes second). Both take Java longs, so a negative index or value
    /// fails as it does there.
    #[inline(always)]
    fn check_index(&self, i: i64) -> Result<usize, Error> {
        let last = i64::from(self.size) - 1;
        if (0..=last).contains(&i) {
            Ok(i as usize)
        } else {
            Err(Error::OutOfRange {
                value: i,
                min: 0,
                max: last,
            })
        }
    }

    #[inline(always)]
    fn check_value(&self, v: i64) -> Result<(), Error> {
        if (0..=self.mask as i64).contains(&v) {
            Ok(())
        } else {
            Err(Error::OutOfRange {
                value: v,
                min: 0,
                max: self.mask as i64,
            })
        }
    }

    /// The value at `i`, known to be below `len()` (a wrong `i` gives 0 or
    /// another value, never UB).
    #[inline(always)]
    pub(crate) fn get_in_range(&self, i: usize) -> u32 {
        let (cell, shift) = self.locate(i);
        match self.longs.get(cell) {
            Some(&l) => ((l as u64 >> shift) & self.mask) as u32,
            None => 0,
        }
    }

    /// The value at `i`, or Minecraft's range failure ([`Error::OutOfRange`]).
    ///
    /// ```
    /// use paletted::BitStorage;
    ///
    /// let s = BitStorage::new(4, 4096);
    /// assert_eq!(s.try_get(4095), Ok(0));
    /// let err = s.try_get(-1).unwrap_err();
    /// assert_eq!(err.to_string(), "The value -1 is not in the specified inclusive range of 0 to 4095");
    /// ```
    #[inline]
    pub fn try_get(&self, i: i64) -> Result<u32, Error> {
        Ok(self.get_in_range(self.check_index(i)?))
    }

    /// Sets the value at `i`, or fails as Minecraft's range checks do
    /// ([`Error::OutOfRange`], index first), changing nothing.
    ///
    /// ```
    /// use paletted::BitStorage;
    ///
    /// let mut s = BitStorage::new(4, 4096);
    /// assert_eq!(s.try_set(0, 15), Ok(()));
    /// let err = s.try_set(0, 16).unwrap_err();
    /// assert_eq!(err.to_string(), "The value 16 is not in the specified inclusive range of 0 to 15");
    /// // The index is checked first.
    /// let err = s.try_set(4096, 16).unwrap_err();
    /// assert_eq!(err.to_string(), "The value 4096 is not in the specified inclusive range of 0 to 4095");
    /// assert_eq!(s.get(0), 15);
    /// ```
    #[inline]
    pub fn try_set(&mut self, i: i64, v: i64) -> Result<(), Error> {
        let i = self.check_index(i)?;
        self.set_in_range(i, v)
    }

    /// Sets the value at `i` and gives the one it replaced, or fails as
    /// [`try_set`](Self::try_set) does.
    ///
    /// ```
    /// use paletted::BitStorage;
    ///
    /// let mut s = BitStorage::new(4, 4096);
    /// assert_eq!(s.try_get_and_set(3, 9), Ok(0));
    /// assert_eq!(s.try_get_and_set(3, 2), Ok(9));
    /// let err = s.try_get_and_set(3, -1).unwrap_err();
    /// assert_eq!(err.to_string(), "The value -1 is not in the specified inclusive range of 0 to 15");
    /// assert_eq!(s.get(3), 2);
    /// ```
    #[inline]
    pub fn try_get_and_set(&mut self, i: i64, v: i64) -> Result<u32, Error> {
        let i = self.check_index(i)?;
        self.get_and_set_in_range(i, v)
    }

    /// [`try_set`](Self::try_set) at an `i` known to be below `len()`:
    /// only the value is checked.
    #[inline(always)]
    pub(crate) fn set_in_range(&mut self, i: usize, v: i64) -> Result<(), Error> {
        self.check_value(v)?;
        self.put_fitting(i, v as u32);
        Ok(())
    }

    /// [`try_get_and_set`](Self::try_get_and_set) at an `i` known to be
    /// below `len()`: only the value is checked.
    #[inline(always)]
    pub(crate) fn get_and_set_in_range(&mut self, i: usize, v: i64) -> Result<u32, Error> {
        self.check_value(v)?;
        Ok(self.replace_fitting(i, v as u32))
    }

    /// Stores `v` at an `i` below `len()`, `v` known to fit the bits: no
    /// check is made.
    #[inline(always)]
    pub(crate) fn put_fitting(&mut self, i: usize, v: u32) {
        debug_assert!(
            u64::from(v) <= self.mask,
            "{v} does not fit {} bits",
            self.bits
        );
        let (cell, shift) = self.locate(i);
        // Only a 0-bit storage has no long here, and its one value, 0, is
        // what every position holds already.
        if let Some(long) = self.longs.get_mut(cell) {
            *long = ((*long as u64 & !(self.mask << shift)) | (u64::from(v) << shift)) as i64;
        }
    }

    /// [`put_fitting`](Self::put_fitting), giving the value replaced.
    #[inline(always)]
    pub(crate) fn replace_fitting(&mut self, i: usize, v: u32) -> u32 {
        let old = self.get_in_range(i);
        self.put_fitting(i, v);
        old
    }

    /// The value at `i`.
    ///
    /// ```
    /// use paletted::BitStorage;
    ///
    /// // From the low bits up: 0x21 holds 1, then 2.
    /// let s = BitStorage::from_longs(4, 32, vec![0x21, 0]).unwrap();
    /// assert_eq!((s.get(0), s.get(1), s.get(2)), (1, 2, 0));
    /// ```
    ///
    /// # Panics
    /// Unless `i < len()`.
    #[inline]
    pub fn get(&self, i: usize) -> u32 {
        self.try_get(i as i64).unwrap_or_else(|e| fail(e))
    }

    /// Sets the value at `i`.
    ///
    /// ```
    /// use paletted::BitStorage;
    ///
    /// let mut s = BitStorage::new(4, 32);
    /// s.set(1, 3);
    /// s.set(16, 15);
    /// assert_eq!(s.longs(), &[0x30, 0xf]); // value 16 opens the second long
    /// ```
    ///
    /// # Panics
    /// Unless `i < len()` and `v` fits in the bits.
    #[inline]
    pub fn set(&mut self, i: usize, v: u32) {
        self.try_set(i as i64, i64::from(v))
            .unwrap_or_else(|e| fail(e))
    }

    /// Sets the value at `i` and gives the one it replaced.
    ///
    /// ```
    /// use paletted::BitStorage;
    ///
    /// let mut s = BitStorage::new(3, 64);
    /// assert_eq!(s.get_and_set(10, 7), 0);
    /// assert_eq!(s.get_and_set(10, 5), 7);
    /// assert_eq!(s.get(10), 5);
    /// ```
    ///
    /// # Panics
    /// Unless `i < len()` and `v` fits in the bits.
    #[inline]
    pub fn get_and_set(&mut self, i: usize, v: u32) -> u32 {
        self.try_get_and_set(i as i64, i64::from(v))
            .unwrap_or_else(|e| fail(e))
    }

    /// Sets every value to `v` as Minecraft's `fill` does: one long is built
    /// by doubling `v` (OR-ing in itself shifted by bits, 2 x bits, 4 x bits,
    /// ... while the shift is below 64) and every long gets it, so when the
    /// bits do not divide 64 the bits above each long's last value hold the
    /// low bits of one more `v`.
    ///
    /// ```
    /// use paletted::BitStorage;
    ///
    /// let mut s = BitStorage::new(5, 12);
    /// s.fill(0b10011);
    /// assert!(s.values().iter().all(|&v| v == 0b10011));
    /// // 12 values use 60 bits; the top 4 hold the low bits of a 13th.
    /// assert_eq!(s.longs()[0] as u64 >> 60, 0b0011);
    /// ```
    ///
    /// # Panics
    /// Unless `v` fits in the bits.
    pub fn fill(&mut self, v: u32) {
        self.try_fill(i64::from(v)).unwrap_or_else(|e| fail(e))
    }

    /// [`fill`](Self::fill), or Minecraft's range failure for `v`.
    ///
    /// ```
    /// use paletted::BitStorage;
    ///
    /// // With no bits, only 0 fits.
    /// let mut s = BitStorage::new(0, 4096);
    /// assert_eq!(s.try_fill(0), Ok(()));
    /// let err = s.try_fill(1).unwrap_err();
    /// assert_eq!(err.to_string(), "The value 1 is not in the specified inclusive range of 0 to 0");
    /// ```
    pub fn try_fill(&mut self, v: i64) -> Result<(), Error> {
        self.check_value(v)?;
        if self.bits == 0 {
            return Ok(());
        }
        let mut pattern = v as u64;
        let mut shift = u32::from(self.bits);
        while shift < 64 {
            pattern |= pattern << shift;
            shift *= 2;
        }
        self.longs.fill(pattern as i64);
        Ok(())
    }

    /// [`try_fill`](Self::try_fill) in a version with `rules`: before 26.3
    /// there is no `fill` ([`Rules::has_fill`]), so [`Error::Unsupported`]
    /// and nothing changes.
    ///
    /// ```
    /// use paletted::{BitStorage, Error, Rules};
    ///
    /// let mut s = BitStorage::new(2, 32);
    /// let err = s.try_fill_in(Rules::V1_18_2, 3).unwrap_err();
    /// assert_eq!(err, Error::Unsupported { operation: "fill", rules: Rules::V1_18_2 });
    /// assert_eq!(s.longs(), &[0]);
    /// s.try_fill_in(Rules::V26_3, 3).unwrap();
    /// assert_eq!(s.longs(), &[-1]); // 32 values of 0b11: every bit set
    /// ```
    pub fn try_fill_in(&mut self, rules: Rules, v: i64) -> Result<(), Error> {
        if !rules.has_fill() {
            return Err(Error::Unsupported {
                operation: "fill",
                rules,
            });
        }
        self.try_fill(v)
    }

    /// The first value at least `bound`, with its index; none to look for
    /// when every value the bits hold is below `bound`.
    pub(crate) fn find_at_least(&self, bound: u32) -> Option<(usize, u32)> {
        AtLeast::new(self.bits(), bound)?.find(&self.longs, self.len())
    }

    /// Every value, in order.
    ///
    /// ```
    /// use paletted::BitStorage;
    ///
    /// let s = BitStorage::from_longs(4, 16, vec![0x0123_4567_89ab_cdef]).unwrap();
    /// // From the long's low bits up.
    /// assert_eq!(s.values(), (0..16).rev().collect::<Vec<u32>>());
    /// ```
    pub fn values(&self) -> Vec<u32> {
        let mut out = Vec::with_capacity(self.len());
        self.each(|v| out.push(v));
        out
    }

    /// Calls `f(index, value)` for every value, in index order, a long at a
    /// time. One loop whatever the width: the callers' closures are large
    /// (`grow`'s, `pack`'s general path), and a copy of each for every width
    /// cost more than the constant shifts saved (the ladder 5-8% more
    /// instructions).
    ///
    /// ```
    /// use paletted::BitStorage;
    ///
    /// let mut s = BitStorage::new(3, 64);
    /// s.set(5, 7);
    /// s.set(40, 2);
    /// let mut set = Vec::new();
    /// s.for_each(|i, v| if v != 0 { set.push((i, v)) });
    /// assert_eq!(set, [(5, 7), (40, 2)]);
    /// ```
    #[inline]
    pub fn for_each(&self, mut f: impl FnMut(usize, u32)) {
        let size = self.len();
        if self.bits == 0 {
            return (0..size).for_each(|i| f(i, 0));
        }
        let per = usize::from(self.values_per_long);
        let mut i = 0;
        for &long in &self.longs {
            let mut long = long as u64;
            let end = (i + per).min(size);
            while i < end {
                f(i, (long & self.mask) as u32);
                long >>= self.bits;
                i += 1;
            }
        }
    }

    /// Calls `f` with every value, in order: [`for_each`](Self::for_each)
    /// without the index, for small closures on hot paths, built for each
    /// common width (see `with_width`).
    #[inline]
    pub(crate) fn each(&self, mut f: impl FnMut(u32)) {
        match self.bits {
            0 => (0..self.len()).for_each(|_| f(0)),
            bits => with_width!(u32::from(bits), w => each_value(&self.longs, w, self.len(), f)),
        }
    }

    /// Folds `f` over `size` values from the start of long `from` on, a copy
    /// of the loop for each width (for callers whose closure is small, such
    /// as iteration's). There are bits.
    #[inline]
    pub(crate) fn fold_from<B>(
        &self,
        from: usize,
        size: usize,
        init: B,
        f: impl FnMut(B, u32) -> B,
    ) -> B {
        debug_assert!(self.bits > 0);
        let longs = &self.longs[from..];
        with_width!(u32::from(self.bits), w => fold_shifting(longs, w, size, init, f))
    }

    /// Writes `map(v)` of each value at `start..start + out.len()` into
    /// `out`, in order, a long at a time (a copy of the loop for each width,
    /// each whole long unrolled). There are bits, and the range is inside.
    #[inline]
    pub(crate) fn decode_into(&self, start: usize, out: &mut [u32], map: impl Fn(u32) -> u32) {
        debug_assert!(self.bits > 0 && start + out.len() <= self.len());
        with_width!(u32::from(self.bits), w => decode(&self.longs, w, start, out, map))
    }

    /// Whether some value from long `from` on is at least `bound` (values
    /// past the size, in the last long's padding, are not looked at).
    pub(crate) fn any_at_least_from(&self, from: usize, bound: u32) -> bool {
        let rest = self
            .len()
            .saturating_sub(from * usize::from(self.values_per_long));
        AtLeast::new(self.bits(), bound)
            .is_some_and(|t| t.find(&self.longs[from..], rest).is_some())
    }

    /// A storage of `bits` bits holding `map[v]` for each value `v` here,
    /// in order; or the first index whose value is past `map`'s end, with
    /// that value. This storage has bits (a global configuration's saved
    /// indices take 4 or more).
    pub(crate) fn translate(&self, bits: u32, map: &[u32]) -> Result<BitStorage, (usize, u32)> {
        debug_assert!(self.bits > 0, "translate needs values with bits");
        let size = self.len();
        // Every value is checked against the map first, a long at a time, so
        // the loop below only maps and packs.
        if let Some(first) = self.find_at_least(u32::try_from(map.len()).unwrap_or(u32::MAX)) {
            return Err(first);
        }
        let mut longs = Vec::with_capacity(longs_for(bits, size));
        // The ids since the last full long, from bit 0 up, and where the
        // next goes: a long is full once another would pass bit 63 (with
        // no bits, never: no longs, as a 0-bit storage has).
        let (mut acc, mut shift, last) = (0u64, 0u32, 64 - bits);
        let mut put = |id: u32| {
            acc |= u64::from(id) << shift;
            shift += bits;
            if shift > last {
                longs.push(acc as i64);
                (acc, shift) = (0, 0);
            }
        };
        self.each(|v| put(map[v as usize]));
        if shift != 0 {
            longs.push(acc as i64);
        }
        Ok(BitStorage::shape(bits, size, longs))
    }

    /// The longs, as Minecraft's `getRaw` gives them.
    ///
    /// ```
    /// use paletted::{PalettedContainer, Strategy};
    ///
    /// let mut c = PalettedContainer::new(0, Strategy::biomes(65));
    /// c.set_at(0, 7);
    /// // 1 bit a biome: index 0 holds palette id 1.
    /// assert_eq!(c.storage().longs(), &[1]);
    /// let mut sent = Vec::new();
    /// c.write(&mut sent);
    /// assert_eq!(&sent[4..], &1i64.to_be_bytes()); // after the bits, 2, 0 and 7
    /// ```
    #[inline]
    pub fn longs(&self) -> &[i64] {
        &self.longs
    }

    /// The longs, for reading into in place.
    #[inline]
    pub(crate) fn longs_mut(&mut self) -> &mut [i64] {
        &mut self.longs
    }

    /// The longs, moved out.
    ///
    /// ```
    /// use paletted::BitStorage;
    ///
    /// let mut s = BitStorage::new(4, 4096);
    /// s.set(0, 9);
    /// let longs = s.clone().into_longs();
    /// assert_eq!((longs.len(), longs[0]), (256, 9));
    /// assert_eq!(BitStorage::from_longs(4, 4096, longs), Ok(s));
    /// ```
    pub fn into_longs(self) -> Vec<i64> {
        self.longs
    }
}

/// `values` (each below `2^bits`, `bits` 1 to 32) packed as many to a long
/// as fit, from each long's low bits up.
#[inline(always)]
fn pack_values(values: &[u32], bits: u32) -> Vec<i64> {
    let per = (64 / bits) as usize;
    let long = |chunk: &[u32]| {
        chunk
            .iter()
            .enumerate()
            .fold(0u64, |acc, (k, &v)| acc | u64::from(v) << (k as u32 * bits)) as i64
    };
    let whole = values.chunks_exact(per);
    let rest = whole.remainder();
    let mut longs: Vec<i64> = whole.map(long).collect();
    if !rest.is_empty() {
        longs.push(long(rest));
    }
    longs
}

/// [`BitStorage::from_id_words`] for a width of `BITS`: each word's ids
/// squeezed together, then the pieces joined into longs (with 8 bits, the
/// words are the longs).
fn pack_words<const BITS: u32>(size: usize, mut words: Vec<i64>) -> BitStorage {
    if BITS < 8 {
        squeeze_words(&mut words, BITS);
        join::<BITS>(&mut words, size);
    }
    let longs = longs_for(BITS, size);
    words.truncate(longs);
    // Room for fewer than 64 longs is not worth a reallocation.
    if words.capacity() - longs >= 64 {
        words.shrink_to_fit();
    }
    BitStorage::shape(BITS, size, words)
}

/// [`BitStorage::from_planes`] at a width of `BITS`: each long's bits of
/// each plane spread `BITS` apart, plane `j` `j` bits up.
fn plane_longs<const BITS: u32>(planes: &[u64]) -> BitStorage {
    let per = 64 / BITS;
    let low = u64::MAX >> (64 - per);
    let planes = &planes[..BITS as usize];
    let mut longs = Vec::with_capacity(64usize.div_ceil(per as usize));
    for c in 0..64u32.div_ceil(per) {
        let mut long = 0;
        for (j, &plane) in planes.iter().enumerate() {
            long |= spread::<BITS>(plane >> (c * per) & low) << j;
        }
        longs.push(long as i64);
    }
    BitStorage::shape(BITS, 64, longs)
}

/// The low `64 / BITS` bits of `x`, bit `k` moved to bit `BITS * k` (the
/// bits between 0): halves moved apart, then quarters, and so on down to
/// single bits.
#[inline(always)]
fn spread<const BITS: u32>(x: u64) -> u64 {
    match BITS {
        1 => x,
        2 => {
            let x = (x | x << 16) & 0x0000_FFFF_0000_FFFF;
            let x = (x | x << 8) & 0x00FF_00FF_00FF_00FF;
            let x = (x | x << 4) & 0x0F0F_0F0F_0F0F_0F0F;
            let x = (x | x << 2) & 0x3333_3333_3333_3333;
            (x | x << 1) & 0x5555_5555_5555_5555
        }
        _ => {
            let x = (x | x << 32) & 0x001F_0000_0000_FFFF;
            let x = (x | x << 16) & 0x001F_0000_FF00_00FF;
            let x = (x | x << 8) & 0x100F_00F0_0F00_F00F;
            let x = (x | x << 4) & 0x10C3_0C30_C30C_30C3;
            (x | x << 2) & 0x1249_2492_4924_9249
        }
    }
}

/// Each word's eight ids of `bits` bits (a byte each) squeezed together
/// ([`squeeze`]), built for AVX2 as well (four words at a time) and
/// chosen at run time.
#[multiversion::multiversion(targets("x86_64+avx2"))]
fn squeeze_words(words: &mut [i64], bits: u32) {
    macro_rules! widths {
        ($($b:literal)*) => {
            match bits {
                $($b => words.iter_mut().for_each(|w| *w = squeeze(*w as u64, $b) as i64),)*
                _ => {}
            }
        };
    }
    widths!(1 2 3 4 5 6 7);
}

/// Eight ids of `bits` bits (1 to 8), a byte each from the low one up, as
/// `8 x bits` bits: neighbours merged in 16-bit lanes, then in 32-bit
/// lanes, then the two halves.
#[inline(always)]
fn squeeze(x: u64, bits: u32) -> u64 {
    const EVEN_BYTES: u64 = 0x00FF_00FF_00FF_00FF;
    const EVEN_PAIRS: u64 = 0x0000_FFFF_0000_FFFF;
    let x = (x & EVEN_BYTES) | ((x & !EVEN_BYTES) >> (8 - bits));
    let x = (x & EVEN_PAIRS) | ((x & !EVEN_PAIRS) >> (16 - 2 * bits));
    (x & 0xFFFF_FFFF) | ((x >> 32) << (4 * bits))
}

/// The longs of `size` values of `BITS` bits (1 to 8) from `pieces`, each
/// eight values back to back ([`squeeze`]), written over the pieces from
/// the start (long `c` only reads pieces from `c` on).
#[inline(never)]
fn join<const BITS: u32>(pieces: &mut [i64], size: usize) {
    let per = (64 / BITS) as usize;
    let longs = size.div_ceil(per);
    // Eight longs at a time, so the shifts are constants (every eight
    // longs hold whole pieces): their pieces are all read before the longs
    // are written (the next eight longs' pieces start at or after the
    // next long).
    let mut c = 0;
    while (c + 8) * per <= size {
        let src = &pieces[c * per / 8..(c + 8) * per / 8];
        let mut longs = [0; 8];
        for (k, long) in longs.iter_mut().enumerate() {
            *long = join_long::<BITS>(src, k, per) as i64;
        }
        pieces[c..c + 8].copy_from_slice(&longs);
        c += 8;
    }
    // Then whole longs one at a time, and the last, if part of one.
    while (c + 1) * per <= size {
        pieces[c] = join_long::<BITS>(pieces, c, per) as i64;
        c += 1;
    }
    if c < longs {
        pieces[c] = join_long::<BITS>(pieces, c, size - c * per) as i64;
    }
}

/// Long `c` of values packed `BITS` wide from `pieces` of eight, its
/// first `n` values (the rest of the long 0).
#[inline(always)]
fn join_long<const BITS: u32>(pieces: &[i64], c: usize, n: usize) -> u64 {
    let first = c * (64 / BITS) as usize;
    let (j, skip) = (first / 8, (first % 8) as u32 * BITS);
    let want = n as u32 * BITS;
    let mut long = pieces[j] as u64 >> skip;
    let mut have = 8 * BITS - skip;
    let mut k = 1;
    while have < want {
        long |= (pieces[j + k] as u64) << have;
        have += 8 * BITS;
        k += 1;
    }
    if have > want {
        long &= u64::MAX >> (64 - want);
    }
    long
}

/// Calls `f` with each of the first `size` values packed `bits` wide (1 to
/// 32) in `longs`, in order. Always inlined: given a constant width, the
/// shifts are by constants and a whole long's loop unrolls.
#[inline(always)]
fn each_value(longs: &[i64], bits: u32, size: usize, mut f: impl FnMut(u32)) {
    let per = (64 / bits) as usize;
    let mask = u64::MAX >> (64 - bits);
    let value = |long: u64, j: usize| ((long >> (j as u32 * bits)) & mask) as u32;
    for (c, &long) in longs.iter().enumerate() {
        let long = long as u64;
        if (c + 1) * per <= size {
            (0..per).for_each(|j| f(value(long, j)));
        } else {
            (0..size - c * per).for_each(|j| f(value(long, j)));
        }
    }
}

/// [`BitStorage::decode_into`] at a constant width: the first long from
/// the value at `start`, then whole longs, each a loop of known length
/// over constant shifts, then the last long's first values.
#[inline(always)]
fn decode(longs: &[i64], bits: u32, start: usize, out: &mut [u32], map: impl Fn(u32) -> u32) {
    let per = (64 / bits) as usize;
    let mask = u64::MAX >> (64 - bits);
    let (mut cell, skip) = (start / per, start % per);
    let mut done = 0;
    let part = |out: &mut [u32], long: i64, skip: usize| {
        let mut long = (long as u64) >> (skip as u32 * bits);
        for slot in out {
            *slot = map((long & mask) as u32);
            long >>= bits;
        }
    };
    if skip != 0 {
        done = (per - skip).min(out.len());
        part(&mut out[..done], longs[cell], skip);
        cell += 1;
    }
    let whole = (out.len() - done) / per;
    let (body, tail) = out[done..].split_at_mut(whole * per);
    for (dst, &long) in body.chunks_exact_mut(per).zip(&longs[cell..cell + whole]) {
        for (j, slot) in dst.iter_mut().enumerate() {
            *slot = map(((long as u64 >> (j as u32 * bits)) & mask) as u32);
        }
    }
    if !tail.is_empty() {
        part(tail, longs[cell + whole], 0);
    }
}

/// [`each_value`] as a fold, shifting each long down as it goes: through
/// iteration's palette lookup this takes 6-12% fewer instructions than
/// `each_value`'s shift by a multiple of the width, which is the cheaper
/// one for a plain copy (`values`, 16% fewer).
#[inline(always)]
fn fold_shifting<B>(
    longs: &[i64],
    bits: u32,
    size: usize,
    init: B,
    mut f: impl FnMut(B, u32) -> B,
) -> B {
    let per = (64 / bits) as usize;
    let mask = u64::MAX >> (64 - bits);
    let mut acc = init;
    for (c, &long) in longs.iter().enumerate() {
        let n = per.min(size - c * per);
        let mut long = long as u64;
        for _ in 0..n {
            acc = f(acc, (long & mask) as u32);
            long >>= bits % 64;
        }
    }
    acc
}

/// A whole-long test for "some value of `bits` bits is at least `bound`",
/// so that validating indices against a palette of `bound` entries costs a
/// few word operations a long (and vectorises), and the exact place is
/// looked for only in a long that fails.
///
/// The values at even places are masked out in place, and those at odd
/// places shifted down onto them, so each value has `bits` free bits above
/// it; adding `2^bits - bound` to every value carries into its lowest free
/// bit exactly when the value is at least `bound`, and never further (the
/// sum is below `2^(bits + 1)`). Padding above a long's last value is
/// masked off. The highest carry bit is below 64: with an odd number of
/// values a long, they take fewer than 64 bits.
#[derive(Clone, Copy, Debug)]
struct AtLeast {
    bits: u32,
    per: usize,
    bound: u32,
    mask: u64,
    even: u64,
    odd: u64,
    add_even: u64,
    add_odd: u64,
    carry: u64,
}

/// `ONES[s]` holds a 1 every `s` bits from bit 0 (for `s` from 1 to 64),
/// worked out once at compile time: a strict read or unpack of a small
/// section would otherwise spend more on its masks than on its longs.
const ONES: [u64; 65] = {
    let mut table = [0u64; 65];
    let mut step = 1;
    while step <= 64 {
        let mut bit = 0;
        while bit < 64 {
            table[step] |= 1 << bit;
            bit += step;
        }
        step += 1;
    }
    table
};

/// A 1 every `step` bits from bit 0, `count` of them (`count * step` may
/// pass 64 by less than a step: the ones past bit 63 are dropped).
fn lanes(step: u32, count: usize) -> u64 {
    let ones = ONES[step as usize];
    match u32::try_from(count).ok().and_then(|c| c.checked_mul(step)) {
        Some(used) if used < 64 => ones & ((1 << used) - 1),
        _ => ones,
    }
}

impl AtLeast {
    /// The test for values of `bits` bits against `bound`; `None` when no
    /// value can fail it (no bits, or `bound` past the largest value).
    fn new(bits: u32, bound: u32) -> Option<AtLeast> {
        if bits == 0 || bits > 32 {
            return None;
        }
        let mask = u64::MAX >> (64 - bits);
        if u64::from(bound) > mask {
            return None;
        }
        let per = (64 / bits) as usize;
        let add = (mask + 1) - u64::from(bound);
        // A 1 at the low bit of every even-numbered value's place; the odd
        // ones are shifted down onto the same places, so they take the
        // even places that have an odd value above them.
        let evens = lanes(2 * bits, per.div_ceil(2));
        let odds = lanes(2 * bits, per / 2);
        // Each lane's product stays inside its 2 x bits places.
        let t = AtLeast {
            bits,
            per,
            bound,
            mask,
            even: evens * mask,
            odd: odds * mask,
            add_even: evens * add,
            add_odd: odds * add,
            carry: evens << bits,
        };
        Some(t)
    }

    /// Non-zero when some value of `long` (padding excluded) is at least
    /// the bound.
    #[inline(always)]
    fn over(&self, long: u64) -> u64 {
        let even = (long & self.even) + self.add_even;
        let odd = ((long >> self.bits) & self.odd) + self.add_odd;
        (even | odd) & self.carry
    }

    /// The first value at least the bound, with its index, among the
    /// `longs` of a storage of `size` values (values past `size` are not
    /// looked at).
    fn find(&self, longs: &[i64], size: usize) -> Option<(usize, u32)> {
        let from = first_over(self, longs)?;
        for (k, &long) in longs.iter().enumerate().skip(from) {
            if self.over(long as u64) == 0 {
                continue;
            }
            let start = k * self.per;
            let mut rest = long as u64;
            for i in start..(start + self.per).min(size) {
                let v = (rest & self.mask) as u32;
                if v >= self.bound {
                    return Some((i, v));
                }
                rest >>= self.bits;
            }
        }
        None
    }
}

/// Where the first eight longs (or the last few) start in which some value
/// is at least `test`'s bound: eight longs OR-ed together at a time,
/// branch-free, in vector registers, built for AVX2 as well and picked at
/// run time as the byte swaps are. Only the last long holds values past the
/// storage's size, so the exact search from here ends within these eight
/// longs: at a value, or at the storage's end.
#[multiversion::multiversion(targets("x86_64+avx2"))]
fn first_over(test: &AtLeast, longs: &[i64]) -> Option<usize> {
    let any = |chunk: &[i64]| chunk.iter().fold(0, |a, &l| a | test.over(l as u64)) != 0;
    let mut chunks = longs.chunks_exact(8);
    if let Some(c) = chunks.position(any) {
        return Some(c * 8);
    }
    let rest = chunks.remainder();
    any(rest).then_some(longs.len() - rest.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multiply_and_shift_divides_exactly_below_2_26() {
        for bits in 1..=32 {
            let s = BitStorage::shape(bits, 0, Vec::new());
            let per = u64::from(s.values_per_long);
            let mut probes: Vec<u64> = (0..4096).collect();
            for k in 1..(MAX_SIZE as u64 / per) {
                if k % 997 == 0 || k > MAX_SIZE as u64 / per - 3 {
                    probes.extend([k * per - 1, k * per, k * per + 1]);
                }
            }
            probes.push(MAX_SIZE as u64 - 1);
            for i in probes.into_iter().filter(|&i| i < MAX_SIZE as u64) {
                let (cell, shift) = s.locate(i as usize);
                assert_eq!(cell as u64, i / per, "bits {bits} index {i}");
                assert_eq!(u64::from(shift), (i % per) * u64::from(bits));
            }
        }
    }

    #[test]
    fn the_whole_long_test_finds_what_a_value_at_a_time_finds() {
        let mut seed = 0x1234_5678u64;
        for bits in 1..=32u32 {
            let max = u64::MAX >> (64 - bits);
            for size in [1usize, 7, 64, 100, 4096] {
                let mut bounds: Vec<u64> = vec![0, 1, 2, 3, max / 2, max / 2 + 1, max, max + 1];
                bounds.retain(|&b| b <= u64::from(u32::MAX));
                for &bound in &bounds {
                    for plant in [None, Some(0), Some(size / 2), Some(size - 1)] {
                        let mut s = BitStorage::new(bits, size);
                        for i in 0..size {
                            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
                            // Mostly below the bound, so planted values decide.
                            let v = if bound == 0 { 0 } else { (seed >> 33) % bound };
                            s.set(i, v.min(max) as u32);
                        }
                        if let Some(at) = plant {
                            s.set(at, max as u32);
                        }
                        // Bits above each long's last value (padding, and
                        // values past the end) must not count.
                        let per = 64 / bits as usize;
                        if per * bits as usize != 64 || size % per != 0 {
                            let last = s.longs.len() - 1;
                            s.longs[last] |= !0 << (bits as usize * (size - last * per)).min(63);
                            for l in &mut s.longs {
                                if per * (bits as usize) < 64 {
                                    *l |= !0 << (per * bits as usize);
                                }
                            }
                        }
                        let want = (0..size)
                            .map(|i| (i, s.get(i)))
                            .find(|&(_, v)| u64::from(v) >= bound);
                        assert_eq!(
                            s.find_at_least(bound as u32),
                            want,
                            "bits {bits} size {size} bound {bound} plant {plant:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn from_values_packs_as_set_does() {
        for bits in 1..=32u32 {
            for size in [1, 63, 64, 65, 4096] {
                let max = u64::MAX >> (64 - bits);
                let values: Vec<u32> = (0..size as u64)
                    .map(|i| (i.wrapping_mul(0x9E37_79B9_7F4A_7C15) & max) as u32)
                    .collect();
                let mut one_by_one = BitStorage::new(bits, size);
                values
                    .iter()
                    .enumerate()
                    .for_each(|(i, &v)| one_by_one.set(i, v));
                assert_eq!(
                    BitStorage::from_values(bits, size, &values),
                    one_by_one,
                    "bits {bits} size {size}"
                );
            }
        }
    }

    /// The pack of byte ids, eight to a word, at every width and at sizes
    /// whose last long or word is part full, against `from_values`.
    #[test]
    fn from_id_words_packs_as_from_values_does() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for bits in 1..=8u32 {
            for size in [1, 7, 8, 9, 63, 64, 65, 100, 1000, 4095, 4096] {
                let ids: Vec<u8> = (0..size)
                    .map(|_| {
                        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
                        (seed >> 56) as u8 & (u8::MAX >> (8 - bits))
                    })
                    .collect();
                let words: Vec<i64> = ids
                    .chunks(8)
                    .map(|c| {
                        let mut word = [0; 8];
                        word[..c.len()].copy_from_slice(c);
                        i64::from_le_bytes(word)
                    })
                    .collect();
                let values: Vec<u32> = ids.iter().map(|&id| u32::from(id)).collect();
                assert_eq!(
                    BitStorage::from_id_words(bits, size, words),
                    BitStorage::from_values(bits, size, &values),
                    "bits {bits} size {size}"
                );
            }
        }
    }

    #[test]
    fn from_planes_packs_as_from_values_does() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for bits in 1..=3u32 {
            for _ in 0..200 {
                let planes: Vec<u64> = (0..bits)
                    .map(|_| {
                        seed = seed
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        seed ^ seed >> 29
                    })
                    .collect();
                let values: Vec<u32> = (0..64)
                    .map(|k| {
                        (0..bits).fold(0, |v, j| v | ((planes[j as usize] >> k & 1) as u32) << j)
                    })
                    .collect();
                assert_eq!(
                    BitStorage::from_planes(bits, &planes),
                    BitStorage::from_values(bits, 64, &values),
                    "bits {bits} planes {planes:x?}"
                );
            }
        }
    }

    #[test]
    fn translate_maps_each_value_or_names_the_first_outside() {
        for from in [1u32, 4, 9, 15] {
            for to in [0u32, 1, 5, 16, 32] {
                for size in [1, 64, 65, 4096] {
                    let mut s = BitStorage::new(from, size);
                    let max = s.max_value();
                    for i in 0..size {
                        s.set(i, (i as u32).wrapping_mul(2_654_435_761) >> 7 & max);
                    }
                    let to_max = u32::MAX.checked_shr(32 - to).unwrap_or(0);
                    let map: Vec<u32> = (0..=max).map(|v| v.wrapping_mul(31) & to_max).collect();
                    let want: Vec<u32> = s.values().iter().map(|&v| map[v as usize]).collect();
                    assert_eq!(
                        s.translate(to, &map),
                        Ok(BitStorage::from_values(to, size, &want)),
                        "{from} -> {to} bits, size {size}"
                    );
                    // A map one short: the first index holding the top value.
                    let cut = &map[..max as usize];
                    let first = s.values().iter().position(|&v| v == max);
                    assert_eq!(
                        s.translate(to, cut).err(),
                        first.map(|i| (i, max)),
                        "{from} -> {to} bits, size {size}, cut"
                    );
                }
            }
        }
    }
}
