//! Minecraft's wire primitives: VarInts and big-endian longs, with reads that
//! fail as netty's buffer does when the input runs out.

use crate::Error;

/// The most bytes a VarInt takes.
pub const MAX_VARINT_LEN: usize = 5;

/// Bytes a VarInt of `v` takes: 1 to [`MAX_VARINT_LEN`].
#[inline]
pub fn varint_len(v: u32) -> usize {
    // One byte per started group of 7 bits, at least one.
    let bits = 32 - (v | 1).leading_zeros() as usize;
    bits.div_ceil(7)
}

/// Appends `v` as a VarInt: 7 bits a byte, low group first, the high bit set
/// on every byte but the last.
#[inline]
pub fn write_varint(out: &mut Vec<u8>, mut v: u32) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// A cursor over untrusted bytes.
#[derive(Debug)]
pub struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `buf`.
    pub fn new(buf: &'a [u8]) -> Reader<'a> {
        Reader { buf, pos: 0 }
    }

    /// Bytes consumed so far.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Bytes left.
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
    #[inline]
    pub fn u8(&mut self) -> Result<u8, Error> {
        let b = *self.buf.get(self.pos).ok_or_else(|| self.truncated(1))?;
        self.pos += 1;
        Ok(b)
    }

    /// A big-endian short, as netty's `readShort` reads it.
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
