//! Anvil region files (`r.X.Z.mca`): the sector table, each chunk's header,
//! its compression, and chunks stored outside the file (`c.X.Z.mcc`).
//!
//! A region file is a 4 KiB table of 1,024 locations (3 bytes of first
//! sector, 1 of sector count), a 4 KiB table of timestamps, then each
//! chunk in whole 4 KiB sectors: a 4-byte length, a compression byte and
//! the compressed NBT. A compression byte with 128 added says the chunk did
//! not fit in 255 sectors and lives in `c.X.Z.mcc` beside the region file.
//!
//! Reading keeps the file's bytes, so that a chunk that was not replaced is
//! written back from its own sectors: a region read and written with no
//! change comes out byte for byte (when no free sector held stale bytes).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use super::{Chunk, Error, ErrorKind, Registry};

/// Bytes in a sector; the location and timestamp tables take one each.
pub const SECTOR: usize = 4096;
/// Bytes of the two header tables.
pub const HEADER: usize = 2 * SECTOR;
/// The most a chunk's NBT may decompress to. Real chunks take a few MB at
/// most; the cap keeps a crafted payload (a few KB that inflate to GBs)
/// from taking the machine's memory.
pub const MAX_NBT: u64 = 256 << 20;

/// How a chunk's payload is compressed (the low 7 bits of its header byte).
///
/// ```
/// use paletted::anvil::Compression;
///
/// let nbt = b"\x0a\x00\x00\x00".repeat(100);
/// for c in [Compression::Gzip, Compression::Zlib, Compression::None, Compression::Lz4] {
///     let packed = c.compress(&nbt);
///     let mut back = Vec::new();
///     c.decompress(&packed, &mut back).unwrap();
///     assert_eq!(back, nbt, "{c:?}");
/// }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Compression {
    /// 1
    Gzip,
    /// 2, what Minecraft writes by default.
    Zlib,
    /// 3
    None,
    /// 4, Minecraft's LZ4 (`region-file-compression=lz4`, 1.20.5 on): the
    /// block stream of lz4-java's `LZ4BlockOutputStream`.
    Lz4,
}

impl Compression {
    /// The scheme of a compression byte's low 7 bits.
    ///
    /// ```
    /// use paletted::anvil::Compression;
    ///
    /// assert_eq!(Compression::from_id(2), Some(Compression::Zlib));
    /// assert_eq!(Compression::from_id(9), None);
    /// ```
    pub fn from_id(id: u8) -> Option<Compression> {
        match id {
            1 => Some(Compression::Gzip),
            2 => Some(Compression::Zlib),
            3 => Some(Compression::None),
            4 => Some(Compression::Lz4),
            _ => None,
        }
    }

    /// The scheme's id in a chunk header.
    ///
    /// ```
    /// use paletted::anvil::Compression;
    ///
    /// assert_eq!(Compression::Lz4.id(), 4);
    /// ```
    pub fn id(self) -> u8 {
        match self {
            Compression::Gzip => 1,
            Compression::Zlib => 2,
            Compression::None => 3,
            Compression::Lz4 => 4,
        }
    }

    /// `data` decompressed into `out` (cleared first), at most [`MAX_NBT`] bytes.
    ///
    /// # Errors
    /// [`ErrorKind::Decompress`] when the payload is not of this scheme or
    /// inflates past [`MAX_NBT`].
    pub fn decompress(self, data: &[u8], out: &mut Vec<u8>) -> Result<(), ErrorKind> {
        out.clear();
        let limit = MAX_NBT + 1;
        let result = match self {
            Compression::Gzip => flate2::read::GzDecoder::new(data)
                .take(limit)
                .read_to_end(out),
            Compression::Zlib => inflate(data, out, limit),
            Compression::None => {
                out.extend_from_slice(data);
                Ok(data.len())
            }
            Compression::Lz4 => lz4_java_wrc::Lz4BlockInput::new(data)
                .take(limit)
                .read_to_end(out),
        };
        let fail = |reason: String| ErrorKind::Decompress {
            compression: self,
            reason,
        };
        result.map_err(|e| fail(e.to_string()))?;
        if out.len() as u64 > MAX_NBT {
            return Err(fail(format!("it inflates past {} MiB", MAX_NBT >> 20)));
        }
        Ok(())
    }

    /// `nbt` compressed as Minecraft writes this scheme (default levels).
    pub fn compress(self, nbt: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(nbt.len() / 4 + 64);
        match self {
            Compression::Gzip => {
                let mut e = flate2::write::GzEncoder::new(out, flate2::Compression::default());
                e.write_all(nbt).expect("writes to a Vec");
                e.finish().expect("writes to a Vec")
            }
            Compression::Zlib => {
                let mut e = flate2::write::ZlibEncoder::new(out, flate2::Compression::default());
                e.write_all(nbt).expect("writes to a Vec");
                e.finish().expect("writes to a Vec")
            }
            Compression::None => nbt.to_vec(),
            Compression::Lz4 => {
                {
                    let mut e = lz4_java_wrc::Lz4BlockOutput::new(&mut out);
                    e.write_all(nbt).expect("writes to a Vec");
                    e.flush().expect("writes to a Vec");
                }
                // The end mark `LZ4BlockOutputStream.finish` writes: an empty
                // raw block (method 0x10 with the 64 KiB block's level 6).
                out.extend_from_slice(b"LZ4Block");
                out.push(0x16);
                out.extend_from_slice(&[0; 12]);
                out
            }
        }
    }
}

thread_local! {
    /// One zlib state a thread, reset for each chunk: a fresh one is 40 KB
    /// to allocate and clear, as long as inflating a small chunk takes.
    static INFLATE: std::cell::RefCell<flate2::Decompress> =
        std::cell::RefCell::new(flate2::Decompress::new(true));
}

/// `data` (zlib) inflated onto `out`, stopping past `limit` bytes.
fn inflate(data: &[u8], out: &mut Vec<u8>, limit: u64) -> std::io::Result<usize> {
    use flate2::{FlushDecompress, Status};
    let fail =
        |reason: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, reason.to_owned());
    INFLATE.with_borrow_mut(|z| {
        z.reset(true);
        loop {
            if out.len() == out.capacity() {
                out.reserve((data.len() * 4).clamp(1 << 15, 1 << 22));
            }
            let (read, wrote) = (z.total_in(), z.total_out());
            let rest = data.get(read as usize..).unwrap_or_default();
            match z.decompress_vec(rest, out, FlushDecompress::None) {
                Ok(Status::StreamEnd) => return Ok(out.len()),
                Ok(_)
                    if z.total_in() == read
                        && z.total_out() == wrote
                        && out.len() < out.capacity() =>
                {
                    return Err(fail("unexpected end of the zlib stream"));
                }
                Ok(_) => {}
                Err(e) => return Err(fail(&e.to_string())),
            }
            if out.len() as u64 >= limit {
                return Ok(out.len());
            }
        }
    })
}

/// Where a chunk's bytes are.
#[derive(Clone, Debug)]
enum Body {
    /// In the region file read, at these sectors; an external chunk's
    /// payload is in its `.mcc` file.
    Read {
        sector: u32,
        sectors: u8,
        external: bool,
    },
    /// Set since: the compressed payload.
    New { data: Vec<u8> },
}

#[derive(Clone, Debug)]
struct Slot {
    compression: Compression,
    body: Body,
}

/// A region file's chunks: read from a file, changed, written back.
///
/// Chunks are named by region-local (x, z), each 0 to 31; a method given
/// one outside that range panics (a caller's bug, not bad input: input
/// never names a chunk by number).
///
/// ```
/// use std::path::Path;
/// use paletted::anvil::{Compression, Region};
///
/// let mut region = Region::new(Path::new("r.-1.2.mca"));
/// region.set(3, 4, b"\x0a\x00\x00\x00", Compression::Zlib);
/// let (bytes, external) = region.to_bytes();
/// assert!(external.is_empty());
/// let back = Region::from_bytes(Path::new("r.-1.2.mca"), bytes).unwrap();
/// assert_eq!(back.nbt(3, 4).unwrap().as_deref(), Some(&b"\x0a\x00\x00\x00"[..]));
/// // Absolute chunk coordinates come from the file name.
/// assert_eq!(back.chunk_coords(3, 4), (-29, 68));
/// ```
#[derive(Clone, Debug)]
pub struct Region {
    path: PathBuf,
    coords: Option<(i32, i32)>,
    bytes: Vec<u8>,
    slots: Vec<Option<Slot>>,
    timestamps: Vec<u32>,
}

impl Region {
    /// An empty region that will be written at `path` (its name, `r.X.Z.mca`,
    /// gives the chunks' absolute coordinates and the `.mcc` files' names).
    pub fn new(path: &Path) -> Region {
        Region {
            path: path.to_path_buf(),
            coords: region_coords(path),
            bytes: Vec::new(),
            slots: vec![None; 1024],
            timestamps: vec![0; 1024],
        }
    }

    /// Reads the region file at `path`, and the `.mcc` files of its external chunks.
    ///
    /// # Errors
    /// An [`Error`] naming the file (and the chunk, for a bad entry).
    pub fn open(path: &Path) -> Result<Region, Error> {
        let bytes = std::fs::read(path)
            .map_err(|e| Error::new(ErrorKind::Io(e.to_string())).in_file(path))?;
        Region::from_bytes(path, bytes)
    }

    /// Reads a region file's bytes; `path` names it (for errors, the chunks'
    /// coordinates and the `.mcc` files beside it). Every entry must read.
    ///
    /// # Errors
    /// The first entry that does not read, as [`Region::scan`] reports it.
    pub fn from_bytes(path: &Path, bytes: Vec<u8>) -> Result<Region, Error> {
        let (region, mut bad) = Region::scan(path, bytes)?;
        match bad.is_empty() {
            true => Ok(region),
            false => Err(bad.swap_remove(0)),
        }
    }

    /// Reads a region file's bytes, keeping the chunks whose entries read,
    /// and the errors of those that do not (in table order): only a file too
    /// short for its header fails as a whole. The payloads are decompressed
    /// later, by [`nbt`](Self::nbt).
    ///
    /// ```
    /// use std::path::Path;
    /// use paletted::anvil::{ErrorKind, Region};
    ///
    /// let mut bytes = vec![0u8; 8192];
    /// bytes[4..8].copy_from_slice(&[0, 0, 1, 1]); // chunk (1, 0) at sector 1: the header
    /// let (region, bad) = Region::scan(Path::new("r.0.0.mca"), bytes).unwrap();
    /// assert_eq!(region.len(), 0);
    /// assert_eq!(bad[0].chunk(), Some((1, 0)));
    /// assert_eq!(bad[0].kind(), &ErrorKind::SectorInHeader { sector: 1 });
    /// let err = Region::scan(Path::new("r.0.0.mca"), vec![0; 10]).unwrap_err();
    /// assert_eq!(err.to_string(), "r.0.0.mca: truncated region file: 10 bytes, the header tables alone take 8192");
    /// ```
    ///
    /// # Errors
    /// [`ErrorKind::TruncatedHeader`] for a file shorter than its two tables.
    pub fn scan(path: &Path, bytes: Vec<u8>) -> Result<(Region, Vec<Error>), Error> {
        if bytes.len() < HEADER {
            return Err(Error::new(ErrorKind::TruncatedHeader { len: bytes.len() }).in_file(path));
        }
        let mut region = Region::new(path);
        for (i, t) in bytes[SECTOR..HEADER].chunks_exact(4).enumerate() {
            region.timestamps[i] = u32::from_be_bytes(t.try_into().expect("4 bytes"));
        }
        region.bytes = bytes;
        let mut bad = Vec::new();
        let mut found = Vec::new();
        for i in 0..1024 {
            let e = &region.bytes[i * 4..i * 4 + 4];
            let sector = u32::from_be_bytes([0, e[0], e[1], e[2]]);
            let sectors = e[3];
            if sector == 0 && sectors == 0 {
                continue;
            }
            match region.entry(sector, sectors) {
                Ok(slot) => found.push((i, sector, sectors, slot)),
                Err(kind) => bad.push((i, kind)),
            }
        }
        // Overlaps: sorted by first sector, each entry against the farthest
        // reach before it. The later one in sector order is refused.
        found.sort_by_key(|&(_, sector, _, _)| sector);
        let mut reach: Option<(u32, usize)> = None;
        for (i, sector, sectors, slot) in found {
            if let Some((_, j)) = reach.filter(|&(end, _)| sector < end) {
                let other = region.chunk_coords((j % 32) as u8, (j / 32) as u8);
                bad.push((i, ErrorKind::Overlap { other }));
                continue;
            }
            let end = sector + u32::from(sectors);
            if reach.is_none_or(|(e, _)| end > e) {
                reach = Some((end, i));
            }
            region.slots[i] = Some(slot);
        }
        bad.sort_by_key(|&(i, _)| i);
        let errors = bad
            .into_iter()
            .map(|(i, kind)| {
                let (x, z) = region.chunk_coords((i % 32) as u8, (i / 32) as u8);
                Error::new(kind).in_file(path).in_chunk(x, z)
            })
            .collect();
        Ok((region, errors))
    }

    /// One location entry's chunk header, checked against the file.
    fn entry(&self, sector: u32, sectors: u8) -> Result<Slot, ErrorKind> {
        let len = self.bytes.len();
        let start = sector as usize * SECTOR;
        if sector < 2 {
            return Err(ErrorKind::SectorInHeader { sector });
        }
        if (sector as usize + sectors as usize) * SECTOR > len.div_ceil(SECTOR) * SECTOR
            || start + 4 > len
        {
            return Err(ErrorKind::SectorsPastEnd {
                sector,
                sectors,
                len,
            });
        }
        let length = u32::from_be_bytes(self.bytes[start..start + 4].try_into().expect("4 bytes"));
        if length == 0 {
            return Err(ErrorKind::EmptyChunk);
        }
        let room = (sectors as usize * SECTOR).saturating_sub(4);
        if length as usize > room {
            return Err(ErrorKind::LengthPastSectors { length, room });
        }
        if start + 4 + length as usize > len {
            return Err(ErrorKind::TruncatedChunk {
                length,
                available: len - (start + 4),
            });
        }
        let byte = self.bytes[start + 4];
        let compression =
            Compression::from_id(byte & 0x7f).ok_or(ErrorKind::BadCompression { byte })?;
        let external = byte & 0x80 != 0;
        Ok(Slot {
            compression,
            body: Body::Read {
                sector,
                sectors,
                external,
            },
        })
    }

    /// The absolute chunk coordinates of region-local (x, z): from the
    /// file's name when it is `r.X.Z.mca`, else the local ones.
    pub fn chunk_coords(&self, x: u8, z: u8) -> (i32, i32) {
        match self.coords {
            Some((rx, rz)) => (rx * 32 + i32::from(x), rz * 32 + i32::from(z)),
            None => (i32::from(x), i32::from(z)),
        }
    }

    /// The region-local (x, z) of the chunks present, in table order.
    pub fn chunks(&self) -> impl Iterator<Item = (u8, u8)> + '_ {
        self.slots
            .iter()
            .enumerate()
            .filter(|(_, s)| s.is_some())
            .map(|(i, _)| ((i % 32) as u8, (i / 32) as u8))
    }

    /// Chunks present.
    pub fn len(&self) -> usize {
        self.slots.iter().filter(|s| s.is_some()).count()
    }

    /// Whether no chunk is present.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The file this region was read from or will be written to.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Bytes of the region file read (0 for a new region).
    pub fn file_len(&self) -> usize {
        self.bytes.len()
    }

    fn index(x: u8, z: u8) -> usize {
        assert!(
            x < 32 && z < 32,
            "region-local chunk ({x}, {z}) is outside 0..32"
        );
        usize::from(z) * 32 + usize::from(x)
    }

    /// The compression of chunk (x, z), if present.
    pub fn compression(&self, x: u8, z: u8) -> Option<Compression> {
        self.slots[Region::index(x, z)]
            .as_ref()
            .map(|s| s.compression)
    }

    /// The timestamp of chunk (x, z) (seconds since 1970, as the game wrote it).
    pub fn timestamp(&self, x: u8, z: u8) -> u32 {
        self.timestamps[Region::index(x, z)]
    }

    /// Sets the timestamp of chunk (x, z).
    pub fn set_timestamp(&mut self, x: u8, z: u8, seconds: u32) {
        self.timestamps[Region::index(x, z)] = seconds;
    }

    /// Decompresses chunk (x, z) into `out` (cleared first); `false` when
    /// the region has no such chunk. Reads its `.mcc` file if it is external.
    ///
    /// # Errors
    /// An [`Error`] naming the file and chunk: the `.mcc` unreadable, or the
    /// payload does not decompress.
    pub fn nbt_into(&self, x: u8, z: u8, out: &mut Vec<u8>) -> Result<bool, Error> {
        let Some(slot) = &self.slots[Region::index(x, z)] else {
            return Ok(false);
        };
        let (cx, cz) = self.chunk_coords(x, z);
        let name = |e: ErrorKind| Error::new(e).in_file(&self.path).in_chunk(cx, cz);
        let mut external = Vec::new();
        let data: &[u8] = match &slot.body {
            Body::New { data } => data,
            Body::Read {
                sector,
                external: false,
                ..
            } => {
                let start = *sector as usize * SECTOR;
                let length =
                    u32::from_be_bytes(self.bytes[start..start + 4].try_into().expect("4 bytes"));
                &self.bytes[start + 5..start + 4 + length as usize]
            }
            Body::Read { external: true, .. } => {
                let mcc = self.external_path(cx, cz).map_err(name)?;
                std::fs::File::open(&mcc)
                    .and_then(|mut f| f.read_to_end(&mut external))
                    .map_err(|e| {
                        name(ErrorKind::External {
                            path: mcc,
                            reason: e.to_string(),
                        })
                    })?;
                &external
            }
        };
        slot.compression.decompress(data, out).map_err(name)?;
        Ok(true)
    }

    /// Chunk (x, z) decompressed and read at its version ([`Chunk::read`]);
    /// `None` when absent.
    ///
    /// # Errors
    /// An [`Error`] naming the file, the chunk (absolute x, z) and, for a
    /// fault in its NBT, the key path.
    pub fn read_chunk(
        &self,
        x: u8,
        z: u8,
        blocks: &mut impl Registry,
        biomes: &mut impl Registry,
    ) -> Result<Option<Chunk>, Error> {
        let Some(nbt) = self.nbt(x, z)? else {
            return Ok(None);
        };
        let (cx, cz) = self.chunk_coords(x, z);
        Chunk::read(&nbt, blocks, biomes)
            .map(Some)
            .map_err(|e| e.in_file(&self.path).in_chunk(cx, cz))
    }

    /// Chunk (x, z)'s NBT, decompressed; `None` when absent.
    ///
    /// # Errors
    /// As [`nbt_into`](Self::nbt_into).
    pub fn nbt(&self, x: u8, z: u8) -> Result<Option<Vec<u8>>, Error> {
        let mut out = Vec::new();
        Ok(self.nbt_into(x, z, &mut out)?.then_some(out))
    }

    /// Bytes of `.mcc` files this chunk reads (0 when it is in the region file).
    pub fn external_len(&self, x: u8, z: u8) -> u64 {
        match self.slots[Region::index(x, z)].as_ref().map(|s| &s.body) {
            Some(Body::Read { external: true, .. }) => {
                let (cx, cz) = self.chunk_coords(x, z);
                self.external_path(cx, cz)
                    .ok()
                    .and_then(|p| std::fs::metadata(p).ok())
                    .map_or(0, |m| m.len())
            }
            _ => 0,
        }
    }

    /// The `.mcc` file of the chunk at absolute (x, z).
    fn external_path(&self, x: i32, z: i32) -> Result<PathBuf, ErrorKind> {
        let path = self.path.with_file_name(format!("c.{x}.{z}.mcc"));
        if self.coords.is_none() {
            return Err(ErrorKind::External {
                path,
                reason: "the region file's name gives no region coordinates".into(),
            });
        }
        Ok(path)
    }

    /// Sets chunk (x, z) to `nbt` compressed with `compression` (the
    /// timestamp is left to [`set_timestamp`](Self::set_timestamp)).
    pub fn set(&mut self, x: u8, z: u8, nbt: &[u8], compression: Compression) {
        let data = compression.compress(nbt);
        self.slots[Region::index(x, z)] = Some(Slot {
            compression,
            body: Body::New { data },
        });
    }

    /// Removes chunk (x, z).
    pub fn remove(&mut self, x: u8, z: u8) {
        let i = Region::index(x, z);
        self.slots[i] = None;
        self.timestamps[i] = 0;
    }

    /// The region file's bytes and the external chunks' `.mcc` files (file
    /// name, bytes). Chunks read and not set since keep their sectors and
    /// bytes, and free sectors the bytes they had; chunks set go in the
    /// first free run of sectors that holds them, as Minecraft allocates,
    /// or in a `.mcc` file when they need more than 255 sectors.
    pub fn to_bytes(&self) -> (Vec<u8>, Vec<(String, Vec<u8>)>) {
        // The file read as it was, so that free sectors keep their stale
        // bytes as Minecraft leaves them; the location table is rebuilt.
        let mut out = self.bytes.clone();
        out.resize(out.len().max(HEADER), 0);
        out[..SECTOR].fill(0);
        let mut used = vec![true, true];
        let mut external = Vec::new();
        let mark = |used: &mut Vec<bool>, from: usize, n: usize| {
            if used.len() < from + n {
                used.resize(from + n, false);
            }
            used[from..from + n].fill(true);
        };
        // First the chunks that keep their place.
        for (i, slot) in self.slots.iter().enumerate() {
            let Some(Slot {
                body:
                    Body::Read {
                        sector,
                        sectors,
                        external: ext,
                    },
                ..
            }) = slot
            else {
                continue;
            };
            let (start, n) = (*sector as usize, *sectors as usize);
            let from = start * SECTOR;
            let to = ((start + n) * SECTOR).min(self.bytes.len());
            if out.len() < to {
                out.resize(to, 0);
            }
            out[from..to].copy_from_slice(&self.bytes[from..to]);
            mark(&mut used, start, n);
            out[i * 4..i * 4 + 4]
                .copy_from_slice(&((*sector << 8) | *sectors as u32).to_be_bytes());
            if *ext {
                let (x, z) = self.chunk_coords((i % 32) as u8, (i / 32) as u8);
                if let Ok(path) = self.external_path(x, z) {
                    if let Ok(bytes) = std::fs::read(&path) {
                        external.push((format!("c.{x}.{z}.mcc"), bytes));
                    }
                }
            }
        }
        // Then the chunks set, first fit.
        for (i, slot) in self.slots.iter().enumerate() {
            let Some(Slot {
                compression,
                body: Body::New { data },
            }) = slot
            else {
                continue;
            };
            let mut chunk = Vec::with_capacity(data.len() + 5);
            let n = (data.len() + 5).div_ceil(SECTOR);
            let byte = compression.id();
            if n > 255 {
                let (x, z) = self.chunk_coords((i % 32) as u8, (i / 32) as u8);
                external.push((format!("c.{x}.{z}.mcc"), data.clone()));
                chunk.extend_from_slice(&1u32.to_be_bytes());
                chunk.push(byte | 0x80);
            } else {
                chunk.extend_from_slice(&(data.len() as u32 + 1).to_be_bytes());
                chunk.push(byte);
                chunk.extend_from_slice(data);
            }
            let n = chunk.len().div_ceil(SECTOR);
            let mut start = 2;
            while start < used.len() {
                if used[start..(start + n).min(used.len())].iter().all(|u| !u) {
                    break;
                }
                start += 1;
            }
            mark(&mut used, start, n);
            let from = start * SECTOR;
            if out.len() < from + n * SECTOR {
                out.resize(from + n * SECTOR, 0);
            }
            out[from..from + chunk.len()].copy_from_slice(&chunk);
            out[from + chunk.len()..from + n * SECTOR].fill(0);
            out[i * 4..i * 4 + 4]
                .copy_from_slice(&(((start as u32) << 8) | n as u32).to_be_bytes());
        }
        for (i, t) in self.timestamps.iter().enumerate() {
            out[SECTOR + i * 4..SECTOR + i * 4 + 4].copy_from_slice(&t.to_be_bytes());
        }
        (out, external)
    }

    /// Writes the region file to `path`, and its external chunks' `.mcc`
    /// files beside it.
    ///
    /// # Errors
    /// [`ErrorKind::Io`], naming the file that could not be written.
    pub fn write(&self, path: &Path) -> Result<(), Error> {
        let (bytes, external) = self.to_bytes();
        let io = |p: &Path, e: std::io::Error| Error::new(ErrorKind::Io(e.to_string())).in_file(p);
        std::fs::write(path, bytes).map_err(|e| io(path, e))?;
        for (name, bytes) in external {
            let p = path.with_file_name(name);
            std::fs::write(&p, bytes).map_err(|e| io(&p, e))?;
        }
        Ok(())
    }
}

/// The region coordinates in a file name `r.X.Z.mca`, if it is one.
///
/// ```
/// use std::path::Path;
/// use paletted::anvil::region_coords;
///
/// assert_eq!(region_coords(Path::new("world/region/r.-1.2.mca")), Some((-1, 2)));
/// assert_eq!(region_coords(Path::new("chunk.nbt")), None);
/// ```
pub fn region_coords(path: &Path) -> Option<(i32, i32)> {
    let name = path.file_name()?.to_str()?;
    let mut parts = name.strip_suffix(".mca")?.rsplit('.');
    let z = parts.next()?.parse().ok()?;
    let x = parts.next()?.parse().ok()?;
    Some((x, z))
}
