//! Anvil worlds: region files, chunk NBT, and a chunk's sections as
//! [`PalettedContainer`](crate::PalettedContainer)s at the chunk's own version.
//!
//! Three layers, each usable alone:
//! - [`Region`]: a region file's sector table, timestamps and chunks
//!   (gzip, zlib, none, LZ4; in the file or in a `.mcc` beside it), read
//!   and written.
//! - [`nbt`]: an NBT tree that writes back the bytes it read (keys in their
//!   order, Java's modified UTF-8 strings kept as stored).
//! - [`Chunk`]: a chunk's NBT with its sections' block states and biomes as
//!   containers, at the strategies of the version its `DataVersion` names;
//!   palette entries become ids through a [`Registry`] the caller gives
//!   ([`FirstSeen`] numbers them as met). The NBT is walked once
//!   ([`outline`]) and only the containers are taken out; every other byte
//!   stays as read, so a chunk only read writes back as the same NBT.
//!
//! Errors name the file, the chunk (absolute x, z) and the NBT key path
//! where the input went wrong; no input panics.
//!
//! ```
//! use std::path::Path;
//! use paletted::anvil::{nbt, Chunk, Compression, FirstSeen, Region};
//! use paletted::anvil::nbt::{Compound, List, Tag};
//! use paletted::Version;
//!
//! // A 1.20.1 chunk with one section, stone at x = 0 and air elsewhere
//! // (4 bits an index, index 0 in the low bits), and one biome.
//! let state = |name: &str| {
//!     let mut c = Compound::new();
//!     c.insert("Name", Tag::String(name.into()));
//!     Tag::Compound(c)
//! };
//! let mut blocks = Compound::new();
//! blocks.insert("palette", Tag::List(List::new(10, vec![state("minecraft:stone"), state("minecraft:air")]).unwrap()));
//! blocks.insert("data", Tag::LongArray(vec![0x1111_1111_1111_1110; 256]));
//! let mut biomes = Compound::new();
//! biomes.insert("palette", Tag::List(List::new(8, vec![Tag::String("minecraft:plains".into())]).unwrap()));
//! let mut section = Compound::new();
//! section.insert("Y", Tag::Byte(-4));
//! section.insert("block_states", Tag::Compound(blocks));
//! section.insert("biomes", Tag::Compound(biomes));
//! let mut root = Compound::new();
//! root.insert("DataVersion", Tag::Int(3465));
//! root.insert("sections", Tag::List(List::new(10, vec![Tag::Compound(section)]).unwrap()));
//! let bytes = nbt::write("", &root);
//!
//! let (mut names, mut biome_names) = (FirstSeen::default(), FirstSeen::default());
//! let mut chunk = Chunk::read(&bytes, &mut names, &mut biome_names).unwrap();
//! assert_eq!(chunk.version(), Version::V1_20_1);
//! let stone = chunk.sections()[0].block_states.as_ref().unwrap();
//! assert_eq!((stone.get(0, 5, 9), stone.get(1, 0, 0)), (0, 1));
//! // Written back unchanged ...
//! assert_eq!(chunk.write(&names, &biome_names).unwrap(), bytes);
//! // ... or changed, through the same names.
//! chunk.sections_mut()[0].block_states.as_mut().unwrap().set(1, 0, 0, 0);
//! let changed = chunk.write(&names, &biome_names).unwrap();
//!
//! // Into a region file, and back.
//! let mut region = Region::new(Path::new("r.0.0.mca"));
//! region.set(0, 0, &changed, Compression::Zlib);
//! let (file, _) = region.to_bytes();
//! let back = Region::from_bytes(Path::new("r.0.0.mca"), file).unwrap();
//! assert_eq!(back.nbt(0, 0).unwrap(), Some(changed));
//! ```

mod chunk;
pub mod nbt;
mod region;

use std::fmt;
use std::path::{Path, PathBuf};

pub use chunk::{
    Chunk, FIRST_DATA_VERSION, FirstSeen, Outline, Registry, Saved, SavedSection, Section, outline,
};
pub use region::{Compression, HEADER, MAX_NBT, Region, SECTOR, region_coords};

/// What went wrong, where: the file, the chunk and the NBT key path, as far
/// as they are known.
///
/// ```
/// use std::path::Path;
/// use paletted::anvil::{Chunk, ErrorKind, FirstSeen};
///
/// // A chunk cut inside its first key.
/// let err = Chunk::read(b"\x0a\x00\x00\x03\x00\x0bDataVersion\x00",
///     &mut FirstSeen::default(), &mut FirstSeen::default()).unwrap_err();
/// assert!(matches!(err.kind(), ErrorKind::Nbt(_)));
/// assert_eq!(err.key(), "DataVersion");
/// let err = err.in_file(Path::new("r.0.0.mca")).in_chunk(3, -2);
/// assert_eq!(err.to_string(),
///     "r.0.0.mca, chunk (3, -2), DataVersion: truncated NBT: DataVersion needs 4 bytes at byte 17, 1 left");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Error {
    file: Option<PathBuf>,
    chunk: Option<(i32, i32)>,
    key: String,
    kind: ErrorKind,
}

impl Error {
    fn new(kind: ErrorKind) -> Error {
        let key = match &kind {
            ErrorKind::Nbt(e) => e.key().to_owned(),
            _ => String::new(),
        };
        Error {
            file: None,
            chunk: None,
            key,
            kind,
        }
    }

    fn at_key(mut self, key: impl Into<String>) -> Error {
        self.key = key.into();
        self
    }

    /// The error, naming the file it is in.
    pub fn in_file(mut self, path: &Path) -> Error {
        self.file = Some(path.to_path_buf());
        self
    }

    /// The error, naming the chunk (absolute x, z) it is in.
    pub fn in_chunk(mut self, x: i32, z: i32) -> Error {
        self.chunk = Some((x, z));
        self
    }

    /// The file, if known.
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// The chunk's absolute (x, z), if known.
    pub fn chunk(&self) -> Option<(i32, i32)> {
        self.chunk
    }

    /// The NBT key path (`sections[3].block_states.data`); empty when the
    /// error is not in a chunk's NBT.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut sep = "";
        if let Some(file) = &self.file {
            write!(f, "{}", file.display())?;
            sep = ", ";
        }
        if let Some((x, z)) = self.chunk {
            write!(f, "{sep}chunk ({x}, {z})")?;
            sep = ", ";
        }
        if !self.key.is_empty() {
            write!(f, "{sep}{}", self.key)?;
            sep = ", ";
        }
        if !sep.is_empty() {
            f.write_str(": ")?;
        }
        write!(f, "{}", self.kind)
    }
}

impl std::error::Error for Error {}

/// What went wrong reading or writing a region file or a chunk.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The file could not be read or written.
    Io(String),
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
        /// The other chunk, absolute (x, z).
        other: (i32, i32),
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
    /// The chunk's bytes are not NBT.
    Nbt(nbt::NbtError),
    /// A key the chunk needs is missing.
    Missing,
    /// A key holds a tag of another type.
    WrongType {
        /// The type id wanted.
        expected: u8,
        /// The type id found.
        found: u8,
    },
    /// A `DataVersion` before 1.18's layout ([`FIRST_DATA_VERSION`]).
    OldLayout(i32),
    /// A `DataVersion` no [`Version`](crate::Version) this crate knows has.
    UnknownDataVersion(i32),
    /// A section's container does not load (the crate's error, in Minecraft's words).
    Container(crate::Error),
    /// The registry refused a palette entry, or has no entry for an id.
    Registry(String),
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::Io(reason) => write!(f, "cannot read or write: {reason}"),
            ErrorKind::TruncatedHeader { len } => write!(
                f,
                "truncated region file: {len} bytes, the header tables alone take {HEADER}"
            ),
            ErrorKind::SectorInHeader { sector } => {
                write!(
                    f,
                    "location entry points at sector {sector}, inside the header"
                )
            }
            ErrorKind::SectorsPastEnd {
                sector,
                sectors,
                len,
            } => write!(
                f,
                "truncated: sectors {sector}..{} run past the end of the file ({len} bytes, {} sectors)",
                *sector as usize + *sectors as usize,
                len.div_ceil(SECTOR)
            ),
            ErrorKind::Overlap { other } => write!(
                f,
                "sectors overlap those of chunk ({}, {}) of the same region",
                other.0, other.1
            ),
            ErrorKind::EmptyChunk => {
                f.write_str("chunk length is 0: no compression byte and no data")
            }
            ErrorKind::LengthPastSectors { length, room } => write!(
                f,
                "chunk length {length} runs past its sectors, which hold {room} bytes"
            ),
            ErrorKind::TruncatedChunk { length, available } => write!(
                f,
                "truncated: chunk length {length}, but the file ends {available} bytes after it"
            ),
            ErrorKind::BadCompression { byte } => write!(
                f,
                "bad compression byte {byte} (0x{byte:02x}): known are 1 gzip, 2 zlib, 3 none, 4 lz4, +128 external"
            ),
            ErrorKind::External { path, reason } => {
                write!(f, "external chunk {}: {reason}", path.display())
            }
            ErrorKind::Decompress {
                compression,
                reason,
            } => write!(f, "{compression:?} payload does not decompress: {reason}"),
            ErrorKind::Nbt(e) => write!(f, "{e}"),
            ErrorKind::Missing => f.write_str("missing"),
            ErrorKind::WrongType { expected, found } => write!(
                f,
                "a {} where a {} belongs",
                nbt::type_name(*found),
                nbt::type_name(*expected)
            ),
            ErrorKind::OldLayout(dv) => write!(
                f,
                "DataVersion {dv} is before 1.18's chunk layout ({FIRST_DATA_VERSION})"
            ),
            ErrorKind::UnknownDataVersion(dv) => {
                write!(f, "DataVersion {dv} is not a version this crate knows")
            }
            ErrorKind::Container(e) => write!(f, "{e}"),
            ErrorKind::Registry(reason) => write!(f, "registry: {reason}"),
        }
    }
}
