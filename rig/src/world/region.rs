//! Anvil region files (`r.X.Z.mca`): the sector table, each chunk's header
//! and its decompression.
//!
//! Why a walker of our own: the maintained region crates (fastanvil 0.32,
//! mca 2.1) read the table fine but neither follows the external-chunk flag
//! (compression byte + 128, payload in `c.X.Z.mcc`), and both index or
//! subtract past the input on a zero or short chunk header, which panics on
//! the corrupt files this command must report instead. The table itself is
//! 1,024 four-byte entries; decompression is left to `flate2` (zlib, gzip)
//! and `lz4-java-wrc` (Minecraft's LZ4 block stream), the crates those
//! region crates use too.

use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Bytes in a sector; the location and timestamp tables take one each.
pub const SECTOR: usize = 4096;
/// Bytes of the two header tables.
pub const HEADER: usize = 2 * SECTOR;

/// One occupied entry of the location table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// Chunk x inside the region, 0..32.
    pub local_x: u8,
    /// Chunk z inside the region, 0..32.
    pub local_z: u8,
    /// First sector of the chunk.
    pub sector: u32,
    /// Sectors the table gives it.
    pub sectors: u8,
}

/// How a chunk's payload is compressed (the low 7 bits of its header byte).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    /// 1
    Gzip,
    /// 2, what Minecraft writes by default.
    Zlib,
    /// 3
    None,
    /// 4, Minecraft's LZ4 block stream (`region-file-compression=lz4`).
    Lz4,
}

impl Compression {
    fn from_byte(byte: u8) -> Option<Compression> {
        match byte {
            1 => Some(Compression::Gzip),
            2 => Some(Compression::Zlib),
            3 => Some(Compression::None),
            4 => Some(Compression::Lz4),
            _ => None,
        }
    }
}

/// Why a region file or one of its chunks could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RegionError {
    /// The file is shorter than its two header tables.
    TruncatedHeader {
        /// Bytes in the file.
        len: usize,
    },
    /// A location entry points into the header tables.
    SectorInHeader {
        /// The sector it points at.
        sector: u32,
    },
    /// A location entry reaches past the end of the file.
    SectorsPastEnd {
        /// First sector.
        sector: u32,
        /// Sectors claimed.
        sectors: u8,
        /// Bytes in the file.
        len: usize,
    },
    /// A location entry whose sectors overlap another chunk's.
    Overlap {
        /// The other chunk, region-local (x, z).
        other: (u8, u8),
    },
    /// The chunk's length field is zero: no compression byte, no payload.
    EmptyChunk,
    /// The chunk's length field runs past the sectors the table gives it.
    LengthPastSectors {
        /// Payload length declared (compression byte included).
        length: u32,
        /// Bytes its sectors hold after the 4-byte length.
        room: usize,
    },
    /// The chunk's length field runs past the end of the file.
    TruncatedChunk {
        /// Payload length declared (compression byte included).
        length: u32,
        /// Bytes the file holds after the 4-byte length.
        available: usize,
    },
    /// A compression byte that is none of 1-4 (with or without the external flag).
    BadCompression {
        /// The byte.
        byte: u8,
    },
    /// An external chunk whose `.mcc` file could not be read.
    External {
        /// The file looked for.
        path: PathBuf,
        /// The reason.
        reason: String,
    },
    /// The payload did not decompress.
    Decompress {
        /// The scheme tried.
        compression: Compression,
        /// The decoder's reason.
        reason: String,
    },
}

impl fmt::Display for RegionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RegionError::TruncatedHeader { len } => write!(
                f,
                "truncated region file: {len} bytes, the header tables alone take {HEADER}"
            ),
            RegionError::SectorInHeader { sector } => {
                write!(f, "location entry points at sector {sector}, inside the header")
            }
            RegionError::SectorsPastEnd {
                sector,
                sectors,
                len,
            } => write!(
                f,
                "truncated: sectors {sector}..{} run past the end of the file ({len} bytes, {} sectors)",
                *sector as usize + *sectors as usize,
                len.div_ceil(SECTOR)
            ),
            RegionError::Overlap { other } => write!(
                f,
                "sectors overlap those of chunk ({}, {}) of the same region",
                other.0, other.1
            ),
            RegionError::EmptyChunk => f.write_str("chunk length is 0: no compression byte and no data"),
            RegionError::LengthPastSectors { length, room } => write!(
                f,
                "chunk length {length} runs past its sectors, which hold {room} bytes"
            ),
            RegionError::TruncatedChunk { length, available } => write!(
                f,
                "truncated: chunk length {length}, but the file ends {available} bytes after it"
            ),
            RegionError::BadCompression { byte } => write!(
                f,
                "bad compression byte {byte} (0x{byte:02x}): known are 1 gzip, 2 zlib, 3 none, 4 lz4, +128 external"
            ),
            RegionError::External { path, reason } => {
                write!(f, "external chunk {}: {reason}", path.display())
            }
            RegionError::Decompress {
                compression,
                reason,
            } => write!(f, "{compression:?} payload does not decompress: {reason}"),
        }
    }
}

impl std::error::Error for RegionError {}

/// A location entry that cannot be read: its region-local (x, z) and why.
pub type BadSlot = ((u8, u8), RegionError);

/// The occupied slots of a region file, in table order, and the entries that
/// were unusable (with their region-local coordinates).
///
/// Only a file too short for its header fails as a whole; a bad entry costs
/// just its own chunk.
pub fn slots(bytes: &[u8]) -> Result<(Vec<Slot>, Vec<BadSlot>), RegionError> {
    if bytes.len() < HEADER {
        return Err(RegionError::TruncatedHeader { len: bytes.len() });
    }
    let mut good = Vec::new();
    let mut bad = Vec::new();
    for (i, entry) in bytes[..SECTOR].chunks_exact(4).enumerate() {
        let sector = u32::from_be_bytes([0, entry[0], entry[1], entry[2]]);
        let sectors = entry[3];
        let place = ((i % 32) as u8, (i / 32) as u8);
        if sector == 0 && sectors == 0 {
            continue;
        }
        let slot = Slot {
            local_x: place.0,
            local_z: place.1,
            sector,
            sectors,
        };
        if sector < 2 {
            bad.push((place, RegionError::SectorInHeader { sector }));
        } else if (sector as usize + sectors as usize) * SECTOR
            > bytes.len().div_ceil(SECTOR) * SECTOR
            || sector as usize * SECTOR + 4 > bytes.len()
        {
            bad.push((
                place,
                RegionError::SectorsPastEnd {
                    sector,
                    sectors,
                    len: bytes.len(),
                },
            ));
        } else {
            good.push(slot);
        }
    }
    // Overlaps: sort by first sector and compare neighbours. The later one in
    // file order is reported, the earlier one is still read.
    let mut order: Vec<usize> = (0..good.len()).collect();
    order.sort_by_key(|&i| good[i].sector);
    let mut overlapping = vec![None; good.len()];
    let mut reach: Option<(u32, usize)> = None;
    for &i in &order {
        let s = good[i];
        if let Some((end, j)) = reach {
            if s.sector < end {
                overlapping[i] = Some((good[j].local_x, good[j].local_z));
            }
        }
        let end = s.sector + s.sectors as u32;
        if reach.is_none_or(|(e, _)| end > e) {
            reach = Some((end, i));
        }
    }
    let mut kept = Vec::with_capacity(good.len());
    for (slot, other) in good.into_iter().zip(overlapping) {
        match other {
            Some(other) => bad.push(((slot.local_x, slot.local_z), RegionError::Overlap { other })),
            None => kept.push(slot),
        }
    }
    bad.sort_by_key(|(p, _)| (p.1, p.0));
    Ok((kept, bad))
}

/// Where a chunk's compressed payload is.
pub enum Payload<'a> {
    /// In the region file itself.
    Inline(Compression, &'a [u8]),
    /// In `c.X.Z.mcc` beside the region file, with this compression.
    External(Compression),
}

/// Reads a slot's chunk header: its compression and where the payload is.
pub fn payload(bytes: &[u8], slot: Slot) -> Result<Payload<'_>, RegionError> {
    let start = slot.sector as usize * SECTOR;
    // `slots` made sure the 4 length bytes are in the file.
    let length = u32::from_be_bytes(bytes[start..start + 4].try_into().expect("4 bytes"));
    if length == 0 {
        return Err(RegionError::EmptyChunk);
    }
    let room = (slot.sectors as usize * SECTOR).saturating_sub(4);
    let end = start + 4 + length as usize;
    if length as usize > room {
        return Err(RegionError::LengthPastSectors { length, room });
    }
    if end > bytes.len() {
        return Err(RegionError::TruncatedChunk {
            length,
            available: bytes.len() - (start + 4),
        });
    }
    let byte = bytes[start + 4];
    let compression =
        Compression::from_byte(byte & 0x7f).ok_or(RegionError::BadCompression { byte })?;
    if byte & 0x80 != 0 {
        Ok(Payload::External(compression))
    } else {
        Ok(Payload::Inline(compression, &bytes[start + 5..end]))
    }
}

/// The `.mcc` file Minecraft writes beside `region` for an oversized chunk at
/// absolute chunk coordinates (x, z).
pub fn external_path(region: &Path, x: i32, z: i32) -> PathBuf {
    region.with_file_name(format!("c.{x}.{z}.mcc"))
}

/// The most a chunk's NBT may decompress to. Real chunks take a few MB at
/// most; the cap keeps a crafted payload (a few KB that inflate to GBs)
/// from taking the machine's memory.
pub const MAX_NBT: u64 = 256 << 20;

/// Decompresses `data` into `out` (cleared first).
pub fn decompress(
    compression: Compression,
    data: &[u8],
    out: &mut Vec<u8>,
) -> Result<(), RegionError> {
    out.clear();
    let limit = MAX_NBT + 1;
    let result = match compression {
        Compression::Gzip => flate2::read::GzDecoder::new(data)
            .take(limit)
            .read_to_end(out),
        Compression::Zlib => flate2::read::ZlibDecoder::new(data)
            .take(limit)
            .read_to_end(out),
        Compression::None => {
            out.extend_from_slice(data);
            Ok(data.len())
        }
        Compression::Lz4 => lz4_java_wrc::Lz4BlockInput::new(data)
            .take(limit)
            .read_to_end(out),
    };
    let fail = |reason: String| RegionError::Decompress {
        compression,
        reason,
    };
    result.map_err(|e| fail(e.to_string()))?;
    if out.len() as u64 > MAX_NBT {
        return Err(fail(format!("it inflates past {} MiB", MAX_NBT >> 20)));
    }
    Ok(())
}

/// The region coordinates in a file name `r.X.Z.mca`, if it is one.
pub fn region_coords(path: &Path) -> Option<(i32, i32)> {
    let name = path.file_name()?.to_str()?;
    let mut parts = name.strip_suffix(".mca")?.rsplit('.');
    let z = parts.next()?.parse().ok()?;
    let x = parts.next()?.parse().ok()?;
    Some((x, z))
}
