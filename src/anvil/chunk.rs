//! A chunk's NBT and its sections' containers.

use std::collections::HashMap;
use std::ops::Range;

use super::nbt::{self, Failure, List, Mutf8, NbtError, Reader, Step, Tag};
use super::{Error, ErrorKind};
use crate::{Packed, PalettedContainer, Strategy, Version};

/// The first DataVersion with the 1.18 layout (root `sections`, each holding
/// `block_states` and `biomes` containers): 21w43a.
pub const FIRST_DATA_VERSION: i32 = 2860;

/// Palette entries to registry ids and back: a block state's compound
/// (`Name`, `Properties`) or a biome's name string, as the chunk holds it.
///
/// A server gives its own registry; [`FirstSeen`] numbers entries as met.
///
/// ```
/// use paletted::anvil::nbt::Tag;
/// use paletted::anvil::Registry;
///
/// /// Two biomes, by name.
/// struct Biomes;
/// impl Registry for Biomes {
///     fn id(&mut self, entry: &Tag) -> Result<u32, String> {
///         match entry {
///             Tag::String(s) if s.as_bytes() == b"minecraft:plains" => Ok(0),
///             Tag::String(s) if s.as_bytes() == b"minecraft:desert" => Ok(1),
///             other => Err(format!("unknown biome {other:?}")),
///         }
///     }
///     fn entry(&self, id: u32) -> Option<Tag> {
///         ["minecraft:plains", "minecraft:desert"].get(id as usize).map(|&n| Tag::String(n.into()))
///     }
/// }
/// assert_eq!(Biomes.id(&Tag::String("minecraft:desert".into())), Ok(1));
/// ```
pub trait Registry {
    /// The id of a palette entry.
    ///
    /// # Errors
    /// Why the entry has no id (the message goes into the chunk's error).
    fn id(&mut self, entry: &Tag) -> Result<u32, String>;
    /// The palette entry of `id`, as it is to be saved.
    fn entry(&self, id: u32) -> Option<Tag>;
    /// The id of a palette entry given as NBT (its type id, then its
    /// payload as stored), when the registry can tell without the entry
    /// being built; `None` has the entry built and given to
    /// [`id`](Self::id). A chunk's palettes repeat the same few entries,
    /// so this saves most of the building. The default builds every one.
    fn id_of_nbt(&mut self, nbt: &[u8]) -> Option<u32> {
        let _ = nbt;
        None
    }
}

/// FNV-1a over a palette entry's bytes: short keys, hashed often, no
/// attacker (they are one chunk's own palette entries).
#[derive(Clone, Copy, Debug)]
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }
}

/// Ids handed out in the order entries are first met; each entry saved back
/// exactly as it was first read (so a block state's property order stays).
///
/// ```
/// use paletted::anvil::nbt::Tag;
/// use paletted::anvil::{FirstSeen, Registry};
///
/// let mut r = FirstSeen::default();
/// let plains = Tag::String("minecraft:plains".into());
/// let desert = Tag::String("minecraft:desert".into());
/// assert_eq!((r.id(&desert), r.id(&plains), r.id(&desert)), (Ok(0), Ok(1), Ok(0)));
/// assert_eq!(r.entry(1), Some(plains));
/// assert_eq!(r.len(), 2);
/// ```
#[derive(Clone, Debug, Default)]
pub struct FirstSeen {
    ids: HashMap<Vec<u8>, u32, std::hash::BuildHasherDefault<Fnv>>,
    entries: Vec<Tag>,
    key: Vec<u8>,
}

impl FirstSeen {
    /// Entries numbered so far.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl Registry for FirstSeen {
    fn id(&mut self, entry: &Tag) -> Result<u32, String> {
        // The entry's NBT bytes are its key: equal entries, equal bytes.
        self.key.clear();
        nbt::write_tag(entry, &mut self.key);
        if let Some(&id) = self.ids.get(&self.key) {
            return Ok(id);
        }
        let id =
            u32::try_from(self.entries.len()).map_err(|_| "more than 2^32 entries".to_owned())?;
        self.ids.insert(self.key.clone(), id);
        self.entries.push(entry.clone());
        Ok(id)
    }

    fn entry(&self, id: u32) -> Option<Tag> {
        self.entries.get(id as usize).cloned()
    }

    fn id_of_nbt(&mut self, nbt: &[u8]) -> Option<u32> {
        self.ids.get(nbt).copied()
    }
}
/// A saved container as the chunk holds it: palette entries and longs, and
/// where they are in the chunk's bytes.
#[derive(Clone, Debug)]
pub struct Saved {
    /// The palette's element type, and each entry's payload in the chunk's bytes.
    element: u8,
    entries: Vec<Range<usize>>,
    /// The packed indices, if saved.
    pub data: Option<Vec<i64>>,
    /// The bytes of the `palette` entry (type, name, payload), and of `data`.
    palette_span: Range<usize>,
    data_span: Option<Range<usize>>,
}

impl Saved {
    /// Entries in the palette.
    pub fn palette_len(&self) -> usize {
        self.entries.len()
    }

    /// Palette entry `i` as NBT (type id, payload), from the chunk's bytes
    /// `nbt` that were outlined.
    pub fn entry_nbt(&self, nbt: &[u8], i: usize, out: &mut Vec<u8>) {
        out.clear();
        out.push(self.element);
        out.extend_from_slice(&nbt[self.entries[i].clone()]);
    }

    /// Palette entry `i`, built from the chunk's bytes `nbt` that were outlined.
    ///
    /// # Errors
    /// [`ErrorKind::Nbt`] if `nbt` is not the bytes outlined.
    pub fn entry(&self, nbt: &[u8], i: usize) -> Result<Tag, Error> {
        let span = self.entries[i].clone();
        let mut r = Reader::new(nbt.get(span).unwrap_or_default());
        r.payload(self.element, 5)
            .map_err(|f| Error::new(ErrorKind::Nbt(f.finish())))
    }
}

/// A section as the chunk holds it, before any container is built.
#[derive(Clone, Debug)]
pub struct SavedSection {
    /// Its index in the chunk's `sections` list.
    pub index: usize,
    /// Section y (`Y`).
    pub y: i8,
    /// Its keys, in order (a checker looks for pre-1.18 ones).
    pub keys: Vec<Mutf8>,
    /// `block_states`, if present.
    pub block_states: Option<Saved>,
    /// `biomes`, if present.
    pub biomes: Option<Saved>,
}

/// A chunk's NBT walked once: every tag checked (as [`nbt::read`] checks
/// them), the few a chunk's containers need taken out, the rest passed
/// over without being built.
#[derive(Clone, Debug)]
pub struct Outline {
    /// The root's keys, in order.
    pub keys: Vec<Mutf8>,
    /// `DataVersion`, or why there is none.
    pub data_version: Result<i32, Error>,
    /// `xPos` and `zPos`, if both are ints.
    pub position: Option<(i32, i32)>,
    /// The sections, one result each (a bad section does not hide the
    /// others), or why there is no `sections` list.
    pub sections: Result<Vec<Result<SavedSection, Error>>, Error>,
    /// The bytes of the root compound.
    len: usize,
}

fn wrong(expected: u8, found: u8) -> ErrorKind {
    ErrorKind::WrongType { expected, found }
}

/// Walks a chunk's NBT into its [`Outline`].
///
/// ```
/// use paletted::anvil::{nbt, outline};
/// use paletted::anvil::nbt::{Compound, Tag};
///
/// let mut root = Compound::new();
/// root.insert("DataVersion", Tag::Int(3955));
/// root.insert("Heightmaps", Tag::Compound(Compound::new()));
/// let o = outline(&nbt::write("", &root)).unwrap();
/// assert_eq!(o.data_version, Ok(3955));
/// assert_eq!(o.keys.len(), 2);
/// assert_eq!(o.sections.unwrap_err().key(), "sections");
/// ```
///
/// # Errors
/// [`ErrorKind::Nbt`] when the bytes are not NBT, naming the key path.
pub fn outline(bytes: &[u8]) -> Result<Outline, Error> {
    let mut r = Reader::new(bytes);
    let walked = (|| {
        let tag = r.u8()?;
        if tag != 10 {
            return Err(Failure::new(move |_| NbtError::RootNotCompound { tag }));
        }
        r.key()?;
        Reader::deeper(1)?;
        let mut keys = Vec::new();
        let mut data_version = Err(Error::new(ErrorKind::Missing).at_key("DataVersion"));
        let (mut x, mut z) = (None, None);
        let mut sections = Err(Error::new(ErrorKind::Missing).at_key("sections"));
        loop {
            let tag = r.u8()?;
            if tag == 0 {
                break;
            }
            let key = r.key()?;
            let at = |e: Failure| e.at(Step::Key(Mutf8::from_slice(key)));
            keys.push(Mutf8::from_slice(key));
            match (key, tag) {
                (b"DataVersion", 3) => data_version = Ok(int(&mut r).map_err(at)?),
                (b"DataVersion", _) => {
                    data_version = Err(Error::new(wrong(3, tag)).at_key("DataVersion"));
                    r.skip(tag, 1).map_err(at)?;
                }
                (b"xPos", 3) => x = Some(int(&mut r).map_err(at)?),
                (b"zPos", 3) => z = Some(int(&mut r).map_err(at)?),
                (b"sections", 9) => sections = Ok(section_list(&mut r).map_err(at)?),
                (b"sections", _) => {
                    sections = Err(Error::new(wrong(9, tag)).at_key("sections"));
                    r.skip(tag, 1).map_err(at)?;
                }
                _ => r.skip(tag, 1).map_err(at)?,
            }
        }
        let sections = match sections {
            Ok(Some(s)) => Ok(s),
            Ok(None) => Err(Error::new(wrong(10, 0)).at_key("sections")),
            Err(e) => Err(e),
        };
        Ok(Outline {
            keys,
            data_version,
            position: x.zip(z),
            sections,
            len: r.at,
        })
    })();
    walked.map_err(|f| Error::new(ErrorKind::Nbt(f.finish())))
}

fn int(r: &mut Reader<'_>) -> Result<i32, Failure> {
    Ok(i32::from_be_bytes(r.array()?))
}

/// The `sections` list's payload: `None` when its elements are not compounds.
fn section_list(r: &mut Reader<'_>) -> Result<Option<Vec<Result<SavedSection, Error>>>, Failure> {
    // The list is at depth 2, its compounds at 3, as `nbt::read` counts.
    Reader::deeper(2)?;
    let start = r.at;
    let element = r.u8()?;
    let n = r.sized(1)?;
    if element != 10 && n > 0 {
        r.at = start;
        r.skip(9, 1)?;
        return Ok(None);
    }
    let mut out = Vec::with_capacity(n);
    for index in 0..n {
        out.push(section(r, index).map_err(|e| e.at(Step::Index(index)))?);
    }
    Ok(Some(out))
}

/// One section compound: its semantic faults are the result's error; a
/// fault in the NBT itself is the walk's.
fn section(r: &mut Reader<'_>, index: usize) -> Result<Result<SavedSection, Error>, Failure> {
    Reader::deeper(3)?;
    let path = |key: &str| format!("sections[{index}]{key}");
    let mut fault: Option<Error> = None;
    let mut y = None;
    let mut keys = Vec::new();
    let mut containers: [Option<Saved>; 2] = [None, None];
    loop {
        let tag = r.u8()?;
        if tag == 0 {
            break;
        }
        let key = r.key()?;
        let at = |e: Failure| e.at(Step::Key(Mutf8::from_slice(key)));
        keys.push(Mutf8::from_slice(key));
        let which = match key {
            b"block_states" => Some(0),
            b"biomes" => Some(1),
            _ => None,
        };
        match (key, tag, which) {
            (b"Y", 1, _) => y = Some(r.u8().map_err(at)? as i8),
            (_, 10, Some(k)) => {
                let name = ["block_states", "biomes"][k];
                match container(r).map_err(at)? {
                    Ok(saved) => containers[k] = Some(saved),
                    Err((kind, sub)) => {
                        fault.get_or_insert(
                            Error::new(kind).at_key(path(&format!(".{name}.{sub}"))),
                        );
                    }
                }
            }
            (_, _, Some(k)) => {
                let name = ["block_states", "biomes"][k];
                fault.get_or_insert(Error::new(wrong(10, tag)).at_key(path(&format!(".{name}"))));
                r.skip(tag, 3).map_err(at)?;
            }
            (b"Y", _, None) => {
                fault.get_or_insert(Error::new(wrong(1, tag)).at_key(path(".Y")));
                r.skip(tag, 3).map_err(at)?;
            }
            _ => r.skip(tag, 3).map_err(at)?,
        }
    }
    if let Some(e) = fault {
        return Ok(Err(e));
    }
    let Some(y) = y else {
        return Ok(Err(Error::new(ErrorKind::Missing).at_key(path(".Y"))));
    };
    let [block_states, biomes] = containers;
    Ok(Ok(SavedSection {
        index,
        y,
        keys,
        block_states,
        biomes,
    }))
}

/// A container compound (at depth 4): its `palette` list and `data` longs.
#[allow(clippy::type_complexity)]
fn container(r: &mut Reader<'_>) -> Result<Result<Saved, (ErrorKind, &'static str)>, Failure> {
    Reader::deeper(4)?;
    let mut palette = None;
    let mut data = None;
    let mut fault = None;
    loop {
        let entry = r.at;
        let tag = r.u8()?;
        if tag == 0 {
            break;
        }
        let key = r.key()?;
        let at = |e: Failure| e.at(Step::Key(Mutf8::from_slice(key)));
        match (key, tag) {
            (b"palette", 9) => {
                Reader::deeper(5).map_err(at)?;
                let element = r.u8().map_err(at)?;
                let list_start = r.at - 1;
                let n = r.sized(1).map_err(at)?;
                let mut entries = Vec::with_capacity(n);
                if element == 0 && n > 0 {
                    r.at = list_start;
                    r.skip(9, 4).map_err(at)?;
                }
                if element > 12 {
                    r.at = list_start;
                    r.skip(9, 4).map_err(at)?;
                }
                for i in 0..n {
                    let from = r.at;
                    r.skip(element, 5).map_err(|e| at(e.at(Step::Index(i))))?;
                    entries.push(from..r.at);
                }
                palette = Some((element, entries, entry..r.at));
            }
            (b"data", 12) => {
                let n = r.sized(8).map_err(at)?;
                let raw = r.take(n * 8).map_err(at)?;
                let longs = raw
                    .chunks_exact(8)
                    .map(|b| i64::from_be_bytes(b.try_into().expect("8 bytes")))
                    .collect();
                data = Some((longs, entry..r.at));
            }
            (b"palette", _) => {
                fault.get_or_insert((wrong(9, tag), "palette"));
                r.skip(tag, 4).map_err(at)?;
            }
            (b"data", _) => {
                fault.get_or_insert((wrong(12, tag), "data"));
                r.skip(tag, 4).map_err(at)?;
            }
            _ => r.skip(tag, 4).map_err(at)?,
        }
    }
    if let Some(fault) = fault {
        return Ok(Err(fault));
    }
    let Some((element, entries, palette_span)) = palette else {
        return Ok(Err((ErrorKind::Missing, "palette")));
    };
    let (data, data_span) = match data {
        Some((d, s)) => (Some(d), Some(s)),
        None => (None, None),
    };
    Ok(Ok(Saved {
        element,
        entries,
        data,
        palette_span,
        data_span,
    }))
}

/// A saved container through the registry and `unpack`: the container and
/// what [`Chunk::write`] needs to tell whether it changed.
fn load(
    nbt: &[u8],
    index: usize,
    saved: Option<Saved>,
    strategy: Strategy,
    registry: &mut impl Registry,
    key: &mut Vec<u8>,
) -> Result<(Option<PalettedContainer>, Option<Read>), Error> {
    let Some(saved) = saved else {
        return Ok((None, None));
    };
    let name = match strategy.kind() {
        crate::Kind::BlockStates => "block_states",
        crate::Kind::Biomes => "biomes",
    };
    let at = |what: &str| format!("sections[{index}].{name}{what}");
    let mut ids = Vec::with_capacity(saved.palette_len());
    for i in 0..saved.palette_len() {
        saved.entry_nbt(nbt, i, key);
        let id = match registry.id_of_nbt(key) {
            Some(id) => id,
            None => {
                let entry = saved
                    .entry(nbt, i)
                    .map_err(|e| e.at_key(at(&format!(".palette[{i}]"))))?;
                registry.id(&entry).map_err(|r| {
                    Error::new(ErrorKind::Registry(r)).at_key(at(&format!(".palette[{i}]")))
                })?
            }
        };
        ids.push(id);
    }
    let packed = Packed::new(ids.clone(), saved.data);
    let c = PalettedContainer::unpack(strategy, packed)
        .map_err(|e| Error::new(ErrorKind::Container(e)).at_key(at("")))?;
    Ok((Some(c), Some((ids, saved.palette_span, saved.data_span))))
}

/// One section: its y and its containers.
///
/// A container is written back where it was read: one set where the
/// section had none, or set to `None`, leaves the NBT as read there.
#[derive(Clone, Debug)]
pub struct Section {
    /// The section's y (`Y`): blocks `16 * y` to `16 * y + 15`.
    pub y: i8,
    /// Its block states, at the chunk's version; `None` for a section saved
    /// without them (light only).
    pub block_states: Option<PalettedContainer>,
    /// Its biomes, likewise.
    pub biomes: Option<PalettedContainer>,
    /// For each container read: the palette's ids and where its `palette`
    /// and `data` entries are in the chunk's bytes.
    read: [Option<Read>; 2],
}

/// A container as read: its palette's ids, and the byte spans of its
/// `palette` and `data` entries.
type Read = (Vec<u32>, Range<usize>, Option<Range<usize>>);

/// A chunk: its NBT as read, and its sections' block states and biomes as
/// containers at the strategies of the chunk's own version.
///
/// Only the containers are taken out of the NBT; the rest stays as the
/// bytes read, so [`write`](Self::write) gives back the same bytes for a
/// chunk whose containers `pack` as they were read, and otherwise those
/// bytes with only the containers' `palette` and `data` entries replaced.
#[derive(Clone, Debug)]
pub struct Chunk {
    raw: Vec<u8>,
    data_version: i32,
    version: Version,
    position: Option<(i32, i32)>,
    sections: Vec<Section>,
}

impl Chunk {
    /// Reads a chunk's (decompressed) NBT at the version its `DataVersion`
    /// names ([`Version::for_data_version`]).
    ///
    /// # Errors
    /// An [`Error`] naming the key: bytes that are not NBT, no
    /// `DataVersion`, one before 1.18 or of an unknown version, a section
    /// or container of the wrong shape, a palette entry the registry
    /// refuses, or a container that does not unpack.
    pub fn read(
        nbt: &[u8],
        blocks: &mut impl Registry,
        biomes: &mut impl Registry,
    ) -> Result<Chunk, Error> {
        Chunk::read_with(nbt, Version::for_data_version, blocks, biomes)
    }

    /// Reads a chunk's NBT at the version `version` gives for its
    /// `DataVersion` (for a release the table does not have yet, or a
    /// modded server's registries).
    ///
    /// ```
    /// use paletted::anvil::{nbt, Chunk, ErrorKind, FirstSeen};
    /// use paletted::anvil::nbt::{Compound, List, Tag};
    /// use paletted::Version;
    ///
    /// let mut root = Compound::new();
    /// root.insert("DataVersion", Tag::Int(9999));
    /// root.insert("sections", Tag::List(List::new(10, vec![]).unwrap()));
    /// let bytes = nbt::write("", &root);
    /// let (mut b, mut m) = (FirstSeen::default(), FirstSeen::default());
    /// let err = Chunk::read(&bytes, &mut b, &mut m).unwrap_err();
    /// assert_eq!(err.kind(), &ErrorKind::UnknownDataVersion(9999));
    /// let chunk = Chunk::read_with(&bytes, |_| Some(Version::LATEST), &mut b, &mut m).unwrap();
    /// assert_eq!(chunk.version(), Version::LATEST);
    /// ```
    ///
    /// # Errors
    /// As [`read`](Self::read); [`ErrorKind::UnknownDataVersion`] when
    /// `version` gives `None`.
    pub fn read_with(
        nbt: &[u8],
        version: impl FnOnce(u32) -> Option<Version>,
        blocks: &mut impl Registry,
        biomes: &mut impl Registry,
    ) -> Result<Chunk, Error> {
        let outline = outline(nbt)?;
        let dv = outline.data_version?;
        if dv < FIRST_DATA_VERSION {
            return Err(Error::new(ErrorKind::OldLayout(dv)).at_key("DataVersion"));
        }
        let version = version(dv as u32)
            .ok_or_else(|| Error::new(ErrorKind::UnknownDataVersion(dv)).at_key("DataVersion"))?;
        let mut sections = Vec::new();
        let mut key = Vec::new();
        for s in outline.sections? {
            let s = s?;
            let (b, b_read) = load(
                nbt,
                s.index,
                s.block_states,
                version.block_strategy(),
                blocks,
                &mut key,
            )?;
            let (m, m_read) = load(
                nbt,
                s.index,
                s.biomes,
                version.biome_strategy(),
                biomes,
                &mut key,
            )?;
            sections.push(Section {
                y: s.y,
                block_states: b,
                biomes: m,
                read: [b_read, m_read],
            });
        }
        Ok(Chunk {
            raw: nbt[..outline.len].to_vec(),
            data_version: dv,
            version,
            position: outline.position,
            sections,
        })
    }

    /// The chunk's NBT with its containers saved back: each container
    /// packed (palette in first-appearance order, as Minecraft saves) and
    /// its entries named by the registries. Every other byte, and every
    /// container that `pack` gives back as read, is written as read.
    ///
    /// # Errors
    /// [`ErrorKind::Registry`] for an id the registry has no entry for.
    pub fn write(&self, blocks: &impl Registry, biomes: &impl Registry) -> Result<Vec<u8>, Error> {
        // (where, what goes there instead), in byte order.
        let mut patches: Vec<(Range<usize>, Vec<u8>)> = Vec::new();
        for (i, s) in self.sections.iter().enumerate() {
            for (k, (c, registry)) in [
                (&s.block_states, blocks as &dyn Registry),
                (&s.biomes, biomes as &dyn Registry),
            ]
            .into_iter()
            .enumerate()
            {
                let (Some(c), Some((ids, palette_span, data_span))) = (c, &s.read[k]) else {
                    continue;
                };
                let packed = c.pack();
                // `data` as read: type, name (4 bytes), count, longs.
                let same_data = match (&packed.data, data_span) {
                    (None, None) => true,
                    (Some(longs), Some(span)) => {
                        span.len() == 11 + longs.len() * 8
                            && self.raw[span.start + 11..span.end]
                                .chunks_exact(8)
                                .zip(longs)
                                .all(|(b, l)| b == l.to_be_bytes())
                    }
                    _ => false,
                };
                if *ids == packed.palette && same_data {
                    continue;
                }
                let key = ["block_states", "biomes"][k];
                let at = |what: &str| format!("sections[{i}].{key}{what}");
                let entries = packed
                    .palette
                    .iter()
                    .enumerate()
                    .map(|(n, &id)| {
                        registry.entry(id).ok_or_else(|| {
                            Error::new(ErrorKind::Registry(format!("no entry for id {id}")))
                                .at_key(at(&format!(".palette[{n}]")))
                        })
                    })
                    .collect::<Result<Vec<Tag>, Error>>()?;
                let element = entries.first().map_or(10, Tag::id);
                let list = List::new(element, entries).ok_or_else(|| {
                    Error::new(ErrorKind::Registry("entries of mixed types".into()))
                        .at_key(at(".palette"))
                })?;
                let mut palette = Vec::new();
                nbt::write_entry("palette", &Tag::List(list), &mut palette);
                let data = packed.data.map(|longs| {
                    let mut out = Vec::with_capacity(longs.len() * 8 + 11);
                    nbt::write_entry("data", &Tag::LongArray(longs), &mut out);
                    out
                });
                match (data_span, data) {
                    (Some(span), data) => {
                        patches.push((palette_span.clone(), palette));
                        patches.push((span.clone(), data.unwrap_or_default()));
                    }
                    (None, Some(data)) => {
                        palette.extend_from_slice(&data);
                        patches.push((palette_span.clone(), palette));
                    }
                    (None, None) => patches.push((palette_span.clone(), palette)),
                }
            }
        }
        patches.sort_by_key(|(span, _)| span.start);
        let mut out = Vec::with_capacity(self.raw.len());
        let mut from = 0;
        for (span, bytes) in patches {
            out.extend_from_slice(&self.raw[from..span.start]);
            out.extend_from_slice(&bytes);
            from = span.end;
        }
        out.extend_from_slice(&self.raw[from..]);
        Ok(out)
    }

    /// The chunk's `DataVersion`.
    pub fn data_version(&self) -> i32 {
        self.data_version
    }

    /// The version its containers follow.
    pub fn version(&self) -> Version {
        self.version
    }

    /// The chunk's absolute (x, z) from `xPos` and `zPos`, if it has them.
    pub fn position(&self) -> Option<(i32, i32)> {
        self.position
    }

    /// The sections, in the order saved.
    pub fn sections(&self) -> &[Section] {
        &self.sections
    }

    /// The sections, to change their containers (sections cannot be added
    /// or removed here).
    pub fn sections_mut(&mut self) -> &mut [Section] {
        &mut self.sections
    }

    /// The chunk's NBT as read (containers as read): [`nbt::read`] gives
    /// every key of it.
    pub fn nbt(&self) -> &[u8] {
        &self.raw
    }
}
