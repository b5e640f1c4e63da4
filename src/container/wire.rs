//! The wire form: the container as a chunk packet sends it.

use super::{PalettedContainer, fail};
use crate::palette::Palette;
use crate::wire::{self, Reader};
use crate::{Error, Strategy};

impl PalettedContainer {
    /// Appends the container as `PalettedContainer.write` sends it: a byte of
    /// the bits, the palette (the one id; or the count and the ids; or
    /// nothing for the global palette) as VarInts, then every long, 8 bytes
    /// big-endian. 26.x sends no count before the longs; up to 1.21.4
    /// ([`Rules::long_count`](crate::Rules::long_count)) a VarInt count of them comes first.
    ///
    /// ```
    /// use paletted::{PalettedContainer, Strategy};
    ///
    /// let mut c = PalettedContainer::new(0, Strategy::biomes(65));
    /// c.set(0, 0, 0, 7);
    /// let mut sent = Vec::new();
    /// c.write(&mut sent);
    /// // 1 bit; a palette of 2: 0 and 7; one long, holding id 1 at index 0.
    /// assert_eq!(sent, [1, 2, 0, 7, 0, 0, 0, 0, 0, 0, 0, 1]);
    /// ```
    ///
    /// # Panics
    /// If the container was loaded from an empty palette and not yet set.
    pub fn write(&self, out: &mut Vec<u8>) {
        self.try_write(out).unwrap_or_else(|e| fail(e))
    }

    /// [`write`](Self::write), or [`Error::Uninitialized`] (nothing written).
    /// Indices past the palette's end are sent as they are, as Minecraft does.
    ///
    /// ```
    /// use paletted::{Error, Packed, PalettedContainer, Strategy};
    ///
    /// let biomes = Strategy::biomes(65);
    /// let unset = PalettedContainer::unpack_lenient(biomes, Packed::new(vec![], None)).unwrap();
    /// let mut out = vec![9];
    /// assert_eq!(unset.try_write(&mut out), Err(Error::Uninitialized));
    /// assert_eq!(out, [9]); // nothing written
    /// ```
    pub fn try_write(&self, out: &mut Vec<u8>) -> Result<(), Error> {
        let (head, entries) = self.palette.wire_parts()?;
        let longs = self.storage.longs();
        let counted = self.strategy.rules().long_count();
        // Room for the longest VarInts: the exact size costs a pass over
        // the palette, as much as writing it does.
        out.reserve(
            1 + wire::MAX_VARINT_LEN * (1 + usize::from(counted) + entries.len()) + 8 * longs.len(),
        );
        out.push(self.storage.bits() as u8);
        if let Some(head) = head {
            wire::write_varint(out, head);
        }
        entries.iter().for_each(|&v| wire::write_varint(out, v));
        if counted {
            wire::write_varint(out, longs.len() as u32);
        }
        wire::write_longs(out, longs);
        Ok(())
    }

    /// Bytes [`write`](Self::write) appends, as `getSerializedSize` computes
    /// them. Up to 1.20.1 ([`Rules::serialized_size_bug`](crate::Rules::serialized_size_bug)) that is not the
    /// written length: Minecraft counts the VarInt of the number of values
    /// (4,096 or 64) where it writes that of the long count, and a byte for
    /// the global palette, which writes none.
    ///
    /// ```
    /// use paletted::{PalettedContainer, Strategy};
    ///
    /// // The flat world's bottom section: bits, 4 one-byte ids and their count,
    /// // 256 longs.
    /// let flat: Vec<u32> = (0..4096)
    ///     .map(|i| match i / 256 { 0 => 88, 1 | 2 => 10, 3 => 9, _ => 0 })
    ///     .collect();
    /// let c = PalettedContainer::from_values(Strategy::block_states(35723), &flat);
    /// let mut sent = Vec::new();
    /// c.write(&mut sent);
    /// assert_eq!((c.serialized_size(), sent.len()), (1 + 5 + 2048, 1 + 5 + 2048));
    /// ```
    ///
    /// # Panics
    /// If the container was loaded from an empty palette and not yet set.
    pub fn serialized_size(&self) -> usize {
        self.try_serialized_size().unwrap_or_else(|e| fail(e))
    }

    /// [`serialized_size`](Self::serialized_size), or [`Error::Uninitialized`].
    ///
    /// ```
    /// use paletted::{Error, Packed, PalettedContainer, Strategy};
    ///
    /// let biomes = Strategy::biomes(65);
    /// assert_eq!(PalettedContainer::new(7, biomes).try_serialized_size(), Ok(2));
    /// let unset = PalettedContainer::unpack_lenient(biomes, Packed::new(vec![], None)).unwrap();
    /// assert_eq!(unset.try_serialized_size(), Err(Error::Uninitialized));
    /// ```
    pub fn try_serialized_size(&self) -> Result<usize, Error> {
        let longs = self.storage.longs().len();
        let size = 1 + self.palette.wire_len()? + 8 * longs;
        let rules = self.strategy.rules();
        Ok(if !rules.long_count() {
            size
        } else if rules.serialized_size_bug() {
            let global = matches!(self.palette, Palette::Global { .. });
            size + wire::varint_len(self.storage.len() as u32) + usize::from(global)
        } else {
            size + wire::varint_len(longs as u32)
        })
    }

    /// Reads the wire form from `bytes`, as a client does, and gives the
    /// bytes consumed (anything after the container is left alone).
    ///
    /// The bits byte picks the configuration; the container then holds
    /// exactly what Minecraft's `read` leaves on success. Untrusted bytes are
    /// checked: ids outside the registry, palettes longer than their kind
    /// holds, indices past the palette's end, a long count (up to 1.21.4)
    /// other than the storage's length ([`Error::LongCount`]) and short
    /// input are errors, and on any error the container is unchanged.
    ///
    /// ```
    /// use paletted::{PalettedContainer, Strategy};
    ///
    /// let mut c = PalettedContainer::new(0, Strategy::biomes(65));
    /// // One biome, 7; the byte after it is not the container's.
    /// assert_eq!(c.read(&[0, 7, 0xaa]), Ok(2));
    /// assert_eq!(c.get(3, 3, 3), 7);
    /// let err = c.read(&[0, 65]).unwrap_err();
    /// assert_eq!(err.to_string(), "Registry id 65 is not below the registry size 65");
    /// assert_eq!(c.get(3, 3, 3), 7); // unchanged
    /// ```
    pub fn read(&mut self, bytes: &[u8]) -> Result<usize, Error> {
        // On success this holds what Minecraft's in-place read leaves, so a
        // fresh container (kept only if valid) gives the same result.
        let mut r = Reader::new(bytes);
        let config = self.strategy.configuration_for_wire(r.u8()?);
        let mut next = PalettedContainer::empty(self.strategy, config);
        next.read_body(&mut r, true)?;
        next.read_longs(&mut r, true)?;
        next.validate()?;
        *self = next;
        Ok(r.position())
    }

    /// A container read from its wire form: [`read`](Self::read) into a
    /// fresh container, with the bytes consumed.
    ///
    /// ```
    /// use paletted::{PalettedContainer, Strategy};
    ///
    /// let biomes = Strategy::biomes(65);
    /// let mut sent = Vec::new();
    /// PalettedContainer::new(7, biomes).write(&mut sent);
    /// let (c, used) = PalettedContainer::from_wire(biomes, &sent).unwrap();
    /// assert_eq!((c.get(0, 0, 0), used), (7, 2));
    /// ```
    ///
    /// # Errors
    /// As [`read`](Self::read).
    pub fn from_wire(
        strategy: Strategy,
        bytes: &[u8],
    ) -> Result<(PalettedContainer, usize), Error> {
        let mut c = PalettedContainer::new(0, strategy);
        let used = c.read(bytes)?;
        Ok((c, used))
    }

    /// Reads the wire form exactly as Minecraft's `read` does, failures
    /// included: when the bits byte picks the configuration in use, the
    /// palette and longs are overwritten in place, so short input leaves
    /// what was read so far; otherwise a fresh palette and storage are read
    /// and kept only on success. Indices past the palette's end load and fail
    /// later, as in Minecraft. Up to 1.21.4 the configurations compare as
    /// [`Rules::same_configuration`](crate::Rules::same_configuration) says, and a long count other than the
    /// storage's length is taken as [`Rules::long_count`](crate::Rules::long_count) describes: its
    /// longs dropped, or [`Error::LongArrayTooBig`]. Never panics.
    ///
    /// ```
    /// use paletted::{PalettedContainer, Strategy};
    ///
    /// // Four biomes: the 2-bit linear palette [0, 1, 2, 3].
    /// let values: Vec<u32> = (0..64).map(|i| i % 4).collect();
    /// let mut c = PalettedContainer::from_values(Strategy::biomes(65), &values);
    /// let bytes = [2, 3, 37]; // 2 bits again: a count of 3, one id, then nothing
    /// let mut strict = c.clone();
    /// assert!(strict.read(&bytes).is_err());
    /// assert_eq!(strict.palette(), [0, 1, 2, 3]);
    /// // In place, as Minecraft reads: the count and the first id stay.
    /// let err = c.read_lenient(&bytes).unwrap_err();
    /// assert_eq!(err.to_string(), "readerIndex(3) + length(1) exceeds writerIndex(3)");
    /// assert_eq!(c.palette(), [37, 1, 2]);
    /// ```
    pub fn read_lenient(&mut self, bytes: &[u8]) -> Result<usize, Error> {
        let mut r = Reader::new(bytes);
        let config = self.strategy.configuration_for_wire(r.u8()?);
        if !self
            .strategy
            .rules()
            .same_configuration(config, self.config)
        {
            let mut next = PalettedContainer::empty(self.strategy, config);
            next.read_body(&mut r, false)?;
            next.read_longs(&mut r, false)?;
            *self = next;
        } else {
            if let Palette::HashMap { entries, index, .. } = &mut self.palette {
                entries.clear();
                index.clear();
            }
            // Minecraft's in-place read reuses the palette object as it is.
            self.read_body(&mut r, false)?;
            self.read_longs(&mut r, false)?;
        }
        Ok(r.position())
    }

    /// Reads the palette into this container's own.
    fn read_body(&mut self, r: &mut Reader<'_>, strict: bool) -> Result<(), Error> {
        // Minecraft looks every palette id up in the registry as it reads it
        // and throws at the first one the registry lacks.
        let registry = self.strategy.registry_size();
        #[cfg(feature = "plant")]
        let registry = crate::plant::wire_registry(registry);
        let id = |r: &mut Reader<'_>| -> Result<u32, Error> {
            let v = r.varint()? as u32;
            if v < registry {
                Ok(v)
            } else {
                Err(Error::Id { id: v, registry })
            }
        };
        match &mut self.palette {
            Palette::Single(v) => *v = Some(id(r)?),
            Palette::Linear { slots, size } => {
                let n = r.varint()?;
                let len = slots.len();
                if strict {
                    strict_count(n, len)?;
                }
                // Minecraft sets the size first, then overwrites its array
                // slot by slot; an id is read before its slot is checked.
                *size = n;
                for i in 0..n.max(0) as usize {
                    let v = id(r)?;
                    match slots.get_mut(i) {
                        Some(slot) => *slot = v,
                        None => {
                            return Err(Error::ArrayIndex {
                                index: i as i64,
                                len,
                            });
                        }
                    }
                }
            }
            Palette::HashMap {
                entries,
                index,
                capacity,
            } => {
                let n = r.varint()?;
                if strict {
                    strict_count(n, *capacity)?;
                }
                // Every entry read is kept, as Minecraft's hash palette
                // grows to hold it; those past the capacity (a lenient
                // read, overfull) are not indexed (see `Palette`). A
                // repeated value keeps its first index.
                let n = n.max(0) as usize;
                for _ in 0..n.min(*capacity) {
                    let v = id(r)?;
                    index.insert_first(v, entries.len() as u32);
                    entries.push(v);
                }
                for _ in *capacity..n {
                    entries.push(id(r)?);
                }
            }
            Palette::Global { .. } => {}
        }
        Ok(())
    }

    /// Reads the longs into this container's storage, in its version's form.
    /// Apart from [`read_body`](Self::read_body), whose palette loop stays
    /// as small as it was before versions.
    #[inline]
    fn read_longs(&mut self, r: &mut Reader<'_>, strict: bool) -> Result<(), Error> {
        if self.strategy.rules().long_count() {
            self.read_counted_longs(r, strict)
        } else {
            r.i64s_into(self.storage.longs_mut())
        }
    }

    /// Reads a count of longs, then the longs, as `readLongArray` up to
    /// 1.21.4 does into the storage's array: only a count of the storage's
    /// length fills it; another is checked against the unread bytes (as
    /// they were before the count) and its longs are read and dropped.
    #[cold]
    #[inline(never)]
    fn read_counted_longs(&mut self, r: &mut Reader<'_>, strict: bool) -> Result<(), Error> {
        let allowed = r.remaining() / 8;
        let count = r.varint()?;
        let expected = self.storage.longs().len();
        if usize::try_from(count) == Ok(expected) {
            return r.i64s_into(self.storage.longs_mut());
        }
        if strict {
            return Err(Error::LongCount { count, expected });
        }
        match usize::try_from(count) {
            Ok(n) if n > allowed => Err(Error::LongArrayTooBig {
                size: count,
                allowed,
            }),
            Ok(n) => r.skip_i64s(n),
            // Java's `new long[count]` of a negative count.
            Err(_) => Err(Error::NegativeLength { len: count }),
        }
    }
}

/// The strict read's refusal of a palette count Minecraft takes as it is.
fn strict_count(n: i32, capacity: usize) -> Result<(), Error> {
    match usize::try_from(n) {
        Err(_) => Err(Error::NegativeLength { len: n }),
        Ok(len) if len > capacity => Err(Error::PaletteTooLong { len, capacity }),
        Ok(_) => Ok(()),
    }
}
