//! Minecraft's wire primitives: VarInts and big-endian longs, with reads that
//! fail as netty's buffer does when the input runs out.
//!
//! ```
//! use paletted::wire::{self, Reader};
//!
//! // A 26.x section's two counters (1,024 non-air blocks, no fluid), then a
//! // VarInt.
//! let mut out = vec![0x04, 0x00, 0x00, 0x00];
//! wire::write_varint(&mut out, 35_722);
//! let mut r = Reader::new(&out);
//! assert_eq!((r.i16(), r.i16(), r.varint()), (Ok(1024), Ok(0), Ok(35_722)));
//! let err = r.varint().unwrap_err();
//! assert_eq!(err.to_string(), "readerIndex(7) + length(1) exceeds writerIndex(7)");
//! ```

use crate::Error;

/// The most bytes a VarInt takes.
///
/// ```
/// use paletted::wire::{MAX_VARINT_LEN, Reader, varint_len};
///
/// assert_eq!(varint_len(u32::MAX), MAX_VARINT_LEN);
/// // A sixth byte is one too many.
/// let six = [0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
/// assert_eq!(Reader::new(&six).varint().unwrap_err().to_string(), "VarInt too big");
/// ```
pub const MAX_VARINT_LEN: usize = 5;

/// Bytes a VarInt of `v` takes: 1 to [`MAX_VARINT_LEN`].
///
/// ```
/// use paletted::wire::varint_len;
///
/// assert_eq!((varint_len(0), varint_len(127), varint_len(128)), (1, 1, 2));
/// // 26.3's highest block state id, as a hash-map palette sends it.
/// assert_eq!(varint_len(35_722), 3);
/// ```
#[inline]
pub fn varint_len(v: u32) -> usize {
    // One byte per started group of 7 bits, at least one.
    let bits = 32 - (v | 1).leading_zeros() as usize;
    bits.div_ceil(7)
}

/// Appends `v` as a VarInt: 7 bits a byte, low group first, the high bit set
/// on every byte but the last.
///
/// ```
/// use paletted::wire::write_varint;
///
/// let mut out = Vec::new();
/// write_varint(&mut out, 300);
/// assert_eq!(out, [0xac, 0x02]);
/// // Java's -1 (a null's id): all five bytes.
/// write_varint(&mut out, u32::MAX);
/// assert_eq!(&out[2..], &[0xff, 0xff, 0xff, 0xff, 0x0f]);
/// ```
#[inline]
pub fn write_varint(out: &mut Vec<u8>, mut v: u32) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// A cursor over untrusted bytes.
///
/// ```
/// use paletted::wire::Reader;
///
/// // A 26.x section's start: 4,096 non-air blocks, no fluid, then a
/// // single-value block container (bits 0) of state 1.
/// let bytes = [0x10, 0x00, 0x00, 0x00, 0x00, 0x01];
/// let mut r = Reader::new(&bytes);
/// assert_eq!((r.i16(), r.i16(), r.u8(), r.varint()), (Ok(4096), Ok(0), Ok(0), Ok(1)));
/// assert_eq!(r.remaining(), 0);
/// ```
#[derive(Debug)]
pub struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `buf`.
    ///
    /// ```
    /// use paletted::wire::Reader;
    ///
    /// let r = Reader::new(&[1, 2, 3]);
    /// assert_eq!((r.position(), r.remaining()), (0, 3));
    /// ```
    pub fn new(buf: &'a [u8]) -> Reader<'a> {
        Reader { buf, pos: 0 }
    }

    /// Bytes consumed so far.
    ///
    /// ```
    /// use paletted::wire::Reader;
    ///
    /// let mut r = Reader::new(&[0xac, 0x02, 7]);
    /// assert_eq!(r.varint(), Ok(300));
    /// assert_eq!(r.position(), 2);
    /// ```
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Bytes left.
    ///
    /// ```
    /// use paletted::wire::Reader;
    ///
    /// let mut r = Reader::new(&[0x10, 0x00, 4]);
    /// r.i16().unwrap();
    /// assert_eq!(r.remaining(), 1);
    /// ```
    pub fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }

    fn truncated(&self, needed: usize) -> Error {
        Error::Truncated {
            at: self.pos,
            needed,
            len: self.buf.len(),
        }
    }

    /// One byte.
    ///
    /// ```
    /// use paletted::wire::Reader;
    ///
    /// let mut r = Reader::new(&[16]);
    /// assert_eq!(r.u8(), Ok(16));
    /// let err = r.u8().unwrap_err();
    /// assert_eq!(err.to_string(), "readerIndex(1) + length(1) exceeds writerIndex(1)");
    /// ```
    #[inline]
    pub fn u8(&mut self) -> Result<u8, Error> {
        let b = *self.buf.get(self.pos).ok_or_else(|| self.truncated(1))?;
        self.pos += 1;
        Ok(b)
    }

    /// A big-endian short, as netty's `readShort` reads it.
    ///
    /// ```
    /// use paletted::wire::Reader;
    ///
    /// assert_eq!(Reader::new(&[0xff, 0xfe]).i16(), Ok(-2));
    /// let err = Reader::new(&[0x10]).i16().unwrap_err();
    /// assert_eq!(err.to_string(), "readerIndex(0) + length(2) exceeds writerIndex(1)");
    /// ```
    #[inline]
    pub fn i16(&mut self) -> Result<i16, Error> {
        let bytes = self
            .buf
            .get(self.pos..self.pos + 2)
            .ok_or_else(|| self.truncated(2))?;
        self.pos += 2;
        Ok(i16::from_be_bytes([bytes[0], bytes[1]]))
    }

    /// A VarInt, as Minecraft reads it: at most five bytes, the value as a
    /// Java int (so it may be negative).
    ///
    /// ```
    /// use paletted::wire::Reader;
    ///
    /// assert_eq!(Reader::new(&[0xac, 0x02]).varint(), Ok(300));
    /// // A Java int: five bytes of ones are -1.
    /// assert_eq!(Reader::new(&[0xff, 0xff, 0xff, 0xff, 0x0f]).varint(), Ok(-1));
    /// ```
    #[inline]
    pub fn varint(&mut self) -> Result<i32, Error> {
        let start = self.pos;
        let mut value: u32 = 0;
        for i in 0..MAX_VARINT_LEN {
            let b = self.u8()?;
            value |= u32::from(b & 0x7f) << (7 * i);
            if b & 0x80 == 0 {
                return Ok(value as i32);
            }
        }
        // Minecraft reads a sixth byte before it gives up.
        self.u8()?;
        Err(Error::VarIntTooBig { at: start })
    }

    /// Fills `longs` with big-endian longs, one at a time as netty does, so a
    /// short input leaves the longs it had room for overwritten.
    ///
    /// ```
    /// use paletted::wire::Reader;
    ///
    /// // Two longs and one byte of a third.
    /// let bytes = [0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2, 9];
    /// let mut longs = [7i64; 3];
    /// let err = Reader::new(&bytes).i64s_into(&mut longs).unwrap_err();
    /// assert_eq!(longs, [1, 2, 7]);
    /// assert_eq!(err.to_string(), "readerIndex(16) + length(8) exceeds writerIndex(17)");
    /// ```
    pub fn i64s_into(&mut self, longs: &mut [i64]) -> Result<(), Error> {
        let whole = (self.remaining() / 8).min(longs.len());
        from_be(
            &mut longs[..whole],
            &self.buf[self.pos..self.pos + whole * 8],
        );
        self.pos += whole * 8;
        if whole < longs.len() {
            return Err(self.truncated(8));
        }
        Ok(())
    }
}

impl Reader<'_> {
    /// Reads `n` longs and drops them, one at a time as netty does, so a
    /// short input fails at the first long it lacks.
    ///
    /// ```
    /// use paletted::wire::Reader;
    ///
    /// let bytes = [0u8; 20];
    /// let mut r = Reader::new(&bytes);
    /// assert_eq!(r.skip_i64s(2), Ok(()));
    /// assert_eq!(r.position(), 16);
    /// let err = r.skip_i64s(1).unwrap_err();
    /// assert_eq!(err.to_string(), "readerIndex(16) + length(8) exceeds writerIndex(20)");
    /// ```
    pub fn skip_i64s(&mut self, n: usize) -> Result<(), Error> {
        let whole = (self.remaining() / 8).min(n);
        self.pos += whole * 8;
        if whole < n {
            return Err(self.truncated(8));
        }
        Ok(())
    }
}

/// Appends `longs` as 8 big-endian bytes each.
///
/// ```
/// use paletted::wire::write_longs;
///
/// let mut out = Vec::new();
/// write_longs(&mut out, &[1, -1]);
/// assert_eq!(out, [0, 0, 0, 0, 0, 0, 0, 1, 255, 255, 255, 255, 255, 255, 255, 255]);
/// // A 4-bit section's 256 longs: 2,048 bytes.
/// out.clear();
/// write_longs(&mut out, &[0x0102_0304_0506_0708; 256]);
/// assert_eq!((out.len(), &out[2040..]), (2048, &[1, 2, 3, 4, 5, 6, 7, 8][..]));
/// ```
#[inline]
pub fn write_longs(out: &mut Vec<u8>, longs: &[i64]) {
    // A few longs (a biome section's list palettes take 1 to 4) cost less
    // appended one by one than zeroed first and swapped by the run-time
    // dispatch; both give the same bytes.
    if longs.len() <= 4 {
        longs
            .iter()
            .for_each(|l| out.extend_from_slice(&l.to_be_bytes()));
        return;
    }
    let start = out.len();
    out.resize(start + longs.len() * 8, 0);
    to_be(&mut out[start..], longs);
}

// The two byte swaps: the loops LLVM vectorises with a byte shuffle, which
// x86-64's baseline (SSE2) lacks, so each is also built for SSSE3 and AVX2
// and the best the CPU has is picked at run time (once, then cached).

/// `longs` into `dst` as 8 big-endian bytes each (`dst` holds 8 a long).
#[multiversion::multiversion(targets("x86_64+avx2", "x86_64+ssse3"))]
fn to_be(dst: &mut [u8], longs: &[i64]) {
    for (d, &l) in dst.chunks_exact_mut(8).zip(longs) {
        d.copy_from_slice(&l.to_be_bytes());
    }
}

/// `src`'s big-endian longs into `longs` (`src` holds 8 bytes a long).
#[multiversion::multiversion(targets("x86_64+avx2", "x86_64+ssse3"))]
fn from_be(longs: &mut [i64], src: &[u8]) {
    for (l, chunk) in longs.iter_mut().zip(src.chunks_exact(8)) {
        *l = i64::from_be_bytes(chunk.try_into().expect("8 bytes"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_round_trip_with_minecraft_lengths() {
        for (v, len) in [
            (0u32, 1),
            (127, 1),
            (128, 2),
            (16383, 2),
            (16384, 3),
            (u32::MAX, 5),
        ] {
            let mut out = Vec::new();
            write_varint(&mut out, v);
            assert_eq!(out.len(), len, "{v}");
            assert_eq!(varint_len(v), len, "{v}");
            assert_eq!(Reader::new(&out).varint().unwrap(), v as i32);
        }
    }

    #[test]
    fn a_sixth_varint_byte_is_too_big() {
        let bytes = [0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
        assert_eq!(
            Reader::new(&bytes).varint(),
            Err(Error::VarIntTooBig { at: 0 })
        );
        assert!(matches!(
            Reader::new(&bytes[..5]).varint(),
            Err(Error::Truncated {
                at: 5,
                needed: 1,
                len: 5
            })
        ));
    }

    #[test]
    fn short_long_input_overwrites_what_it_can() {
        let mut longs = [7i64; 3];
        let bytes = [0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2, 9];
        let err = Reader::new(&bytes).i64s_into(&mut longs).unwrap_err();
        assert_eq!(longs, [1, 2, 7]);
        assert_eq!(
            err,
            Error::Truncated {
                at: 16,
                needed: 8,
                len: 17
            }
        );
    }
}
