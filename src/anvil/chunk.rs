//! A chunk's NBT and its sections' containers.

use std::collections::HashMap;

use super::nbt::{self, Compound, List, Mutf8, Tag};
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
    ids: HashMap<Vec<u8>, u32>,
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
}

/// A saved container as the chunk holds it: palette entries and longs.
#[derive(Clone, Copy, Debug)]
pub struct Saved<'a> {
    /// The palette entries, in saved order.
    pub palette: &'a [Tag],
    /// The packed indices, if saved.
    pub data: Option<&'a [i64]>,
}

/// A section as the chunk holds it, before any container is built.
#[derive(Clone, Copy, Debug)]
pub struct SavedSection<'a> {
    /// Its index in the chunk's `sections` list.
    pub index: usize,
    /// Section y (`Y`).
    pub y: i8,
    /// `block_states`, if present.
    pub block_states: Option<Saved<'a>>,
    /// `biomes`, if present.
    pub biomes: Option<Saved<'a>>,
}

fn wrong(expected: u8, found: &Tag) -> ErrorKind {
    ErrorKind::WrongType {
        expected,
        found: found.id(),
    }
}

fn saved<'a>(c: &'a Tag, key: &str) -> Result<Saved<'a>, Error> {
    let Tag::Compound(c) = c else {
        return Err(Error::new(wrong(10, c)).at_key(key));
    };
    let palette = match c.get("palette") {
        Some(Tag::List(l)) => l.items(),
        Some(other) => return Err(Error::new(wrong(9, other)).at_key(format!("{key}.palette"))),
        None => return Err(Error::new(ErrorKind::Missing).at_key(format!("{key}.palette"))),
    };
    let data = match c.get("data") {
        Some(Tag::LongArray(l)) => Some(&l[..]),
        Some(other) => return Err(Error::new(wrong(12, other)).at_key(format!("{key}.data"))),
        None => None,
    };
    Ok(Saved { palette, data })
}

/// A chunk's `DataVersion`.
///
/// # Errors
/// [`ErrorKind::Missing`] or [`ErrorKind::WrongType`], at key `DataVersion`.
pub fn data_version(root: &Compound) -> Result<i32, Error> {
    match root.get("DataVersion") {
        Some(Tag::Int(v)) => Ok(*v),
        Some(other) => Err(Error::new(wrong(3, other)).at_key("DataVersion")),
        None => Err(Error::new(ErrorKind::Missing).at_key("DataVersion")),
    }
}

/// The sections of a 1.18+ chunk's root compound, one result each (a bad
/// section does not hide the others), in list order.
///
/// # Errors
/// The `sections` list missing or not a list; per section, a missing `Y`,
/// or a container that is not a compound of a `palette` list and an
/// optional `data` long array, named by key path.
pub fn saved_sections(root: &Compound) -> Result<Vec<Result<SavedSection<'_>, Error>>, Error> {
    let list = match root.get("sections") {
        Some(Tag::List(l)) => l,
        Some(other) => return Err(Error::new(wrong(9, other)).at_key("sections")),
        None => return Err(Error::new(ErrorKind::Missing).at_key("sections")),
    };
    Ok(list
        .items()
        .iter()
        .enumerate()
        .map(|(index, s)| {
            let at = |key: &str| format!("sections[{index}]{key}");
            let Tag::Compound(s) = s else {
                return Err(Error::new(wrong(10, s)).at_key(at("")));
            };
            let y = match s.get("Y") {
                Some(Tag::Byte(y)) => *y,
                Some(other) => return Err(Error::new(wrong(1, other)).at_key(at(".Y"))),
                None => return Err(Error::new(ErrorKind::Missing).at_key(at(".Y"))),
            };
            let block_states = s
                .get("block_states")
                .map(|c| saved(c, &at(".block_states")))
                .transpose()?;
            let biomes = s
                .get("biomes")
                .map(|c| saved(c, &at(".biomes")))
                .transpose()?;
            Ok(SavedSection {
                index,
                y,
                block_states,
                biomes,
            })
        })
        .collect())
}

/// One section: its y and its containers.
#[derive(Clone, Debug)]
pub struct Section {
    /// The section's y (`Y`): blocks `16 * y` to `16 * y + 15`.
    pub y: i8,
    /// Its block states, at the chunk's version; `None` for a section saved
    /// without them (light only).
    pub block_states: Option<PalettedContainer>,
    /// Its biomes, likewise.
    pub biomes: Option<PalettedContainer>,
    index: usize,
    /// The ids of the palettes as read: a container whose `pack` gives
    /// these and the longs in the tree is written back untouched.
    read: [Option<Vec<u32>>; 2],
}

/// A chunk: its NBT, and its sections' block states and biomes as
/// containers at the strategies of the chunk's own version.
#[derive(Clone, Debug)]
pub struct Chunk {
    name: Mutf8,
    root: Compound,
    data_version: i32,
    version: Version,
    sections: Vec<Section>,
}

impl Chunk {
    /// Reads a chunk's (decompressed) NBT at the version its `DataVersion`
    /// names ([`Version::for_data_version`]).
    ///
    /// # Errors
    /// An [`Error`] naming the key: bytes that are not NBT, no
    /// `DataVersion`, one of an unknown version or before 1.18, and the
    /// errors of [`Chunk::read_at`].
    pub fn read(
        nbt: &[u8],
        blocks: &mut impl Registry,
        biomes: &mut impl Registry,
    ) -> Result<Chunk, Error> {
        let (name, root) = nbt::read(nbt).map_err(|e| Error::new(ErrorKind::Nbt(e)))?;
        let dv = data_version(&root)?;
        if dv < FIRST_DATA_VERSION {
            return Err(Error::new(ErrorKind::OldLayout(dv)).at_key("DataVersion"));
        }
        let version = u32::try_from(dv)
            .ok()
            .and_then(Version::for_data_version)
            .ok_or_else(|| Error::new(ErrorKind::UnknownDataVersion(dv)).at_key("DataVersion"))?;
        Chunk::build(name, root, dv, version, blocks, biomes)
    }

    /// Reads a chunk's NBT at `version`, whatever its `DataVersion` says
    /// (for a version the table does not have yet, or a modded registry).
    ///
    /// # Errors
    /// An [`Error`] naming the key: bytes that are not NBT, no
    /// `DataVersion`, a section or container of the wrong shape, a palette
    /// entry the registry refuses, or a container that does not unpack.
    pub fn read_at(
        nbt: &[u8],
        version: Version,
        blocks: &mut impl Registry,
        biomes: &mut impl Registry,
    ) -> Result<Chunk, Error> {
        let (name, root) = nbt::read(nbt).map_err(|e| Error::new(ErrorKind::Nbt(e)))?;
        let dv = data_version(&root)?;
        Chunk::build(name, root, dv, version, blocks, biomes)
    }

    fn build(
        name: Mutf8,
        root: Compound,
        data_version: i32,
        version: Version,
        blocks: &mut impl Registry,
        biomes: &mut impl Registry,
    ) -> Result<Chunk, Error> {
        let mut sections = Vec::new();
        for s in saved_sections(&root)? {
            let s = s?;
            let at = |key: &str| format!("sections[{}].{key}", s.index);
            let load =
                |saved: Option<Saved<'_>>,
                 key: &str,
                 strategy: Strategy,
                 registry: &mut dyn FnMut(&Tag) -> Result<u32, String>|
                 -> Result<(Option<PalettedContainer>, Option<Vec<u32>>), Error> {
                    let Some(saved) = saved else {
                        return Ok((None, None));
                    };
                    let ids = saved
                        .palette
                        .iter()
                        .enumerate()
                        .map(|(i, e)| {
                            registry(e).map_err(|r| {
                                Error::new(ErrorKind::Registry(r))
                                    .at_key(at(&format!("{key}.palette[{i}]")))
                            })
                        })
                        .collect::<Result<Vec<u32>, Error>>()?;
                    let packed = Packed::new(ids.clone(), saved.data.map(<[i64]>::to_vec));
                    let c = PalettedContainer::unpack(strategy, packed)
                        .map_err(|e| Error::new(ErrorKind::Container(e)).at_key(at(key)))?;
                    Ok((Some(c), Some(ids)))
                };
            let (b, bids) = load(
                s.block_states,
                "block_states",
                version.block_strategy(),
                &mut |e| blocks.id(e),
            )?;
            let (m, mids) = load(s.biomes, "biomes", version.biome_strategy(), &mut |e| {
                biomes.id(e)
            })?;
            sections.push(Section {
                y: s.y,
                block_states: b,
                biomes: m,
                index: s.index,
                read: [bids, mids],
            });
        }
        Ok(Chunk {
            name,
            root,
            data_version,
            version,
            sections,
        })
    }

    /// The chunk's NBT with its containers saved back: each container
    /// packed (palette in first-appearance order, as Minecraft saves) and
    /// its entries named by the registries. Every other key, and every
    /// container that `pack` gives back as read, is written as read.
    ///
    /// # Errors
    /// [`ErrorKind::Registry`] for an id the registry has no entry for.
    pub fn write(&self, blocks: &impl Registry, biomes: &impl Registry) -> Result<Vec<u8>, Error> {
        let mut root = std::borrow::Cow::Borrowed(&self.root);
        for s in &self.sections {
            for (k, (c, registry)) in [
                (&s.block_states, blocks as &dyn Registry),
                (&s.biomes, biomes as &dyn Registry),
            ]
            .into_iter()
            .enumerate()
            {
                let Some(c) = c else { continue };
                let key = ["block_states", "biomes"][k];
                let packed = c.pack();
                let tree = saved_sections_tree(&self.root, s.index, key);
                if s.read[k].as_ref() == Some(&packed.palette) && tree == packed.data.as_deref() {
                    continue;
                }
                let at = |what: &str| format!("sections[{}].{key}{what}", s.index);
                let entries = packed
                    .palette
                    .iter()
                    .enumerate()
                    .map(|(i, &id)| {
                        registry.entry(id).ok_or_else(|| {
                            Error::new(ErrorKind::Registry(format!("no entry for id {id}")))
                                .at_key(at(&format!(".palette[{i}]")))
                        })
                    })
                    .collect::<Result<Vec<Tag>, Error>>()?;
                let element = entries.first().map_or(10, Tag::id);
                let list = List::new(element, entries).ok_or_else(|| {
                    Error::new(ErrorKind::Registry("entries of mixed types".into()))
                        .at_key(at(".palette"))
                })?;
                let container = container_mut(root.to_mut(), s.index, key)?;
                container.insert("palette", Tag::List(list));
                match packed.data {
                    Some(longs) => container.insert_after("data", Tag::LongArray(longs), "palette"),
                    None => {
                        container.remove("data");
                    }
                }
            }
        }
        let mut out = Vec::new();
        nbt::write_named(&self.name, &root, &mut out);
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
        match (self.root.get("xPos"), self.root.get("zPos")) {
            (Some(Tag::Int(x)), Some(Tag::Int(z))) => Some((*x, *z)),
            _ => None,
        }
    }

    /// The sections, in the order saved.
    pub fn sections(&self) -> &[Section] {
        &self.sections
    }

    /// The sections, to change their containers (sections cannot be added
    /// or removed here: that is the NBT's business, through
    /// [`nbt_mut`](Self::nbt_mut) and a new read).
    pub fn sections_mut(&mut self) -> &mut [Section] {
        &mut self.sections
    }

    /// The chunk's NBT as read: every key, containers as read.
    pub fn nbt(&self) -> &Compound {
        &self.root
    }

    /// The chunk's NBT, to change keys other than the containers' (which
    /// [`write`](Self::write) sets from the containers).
    pub fn nbt_mut(&mut self) -> &mut Compound {
        &mut self.root
    }
}

/// The longs of the tree's container at `sections[index].key.data`.
fn saved_sections_tree<'a>(root: &'a Compound, index: usize, key: &str) -> Option<&'a [i64]> {
    match root.get("sections") {
        Some(Tag::List(l)) => match l.items().get(index) {
            Some(Tag::Compound(s)) => match s.get(key) {
                Some(Tag::Compound(c)) => match c.get("data") {
                    Some(Tag::LongArray(d)) => Some(d),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        },
        _ => None,
    }
}

/// The container compound at `sections[index].key`, which reading found
/// there (and [`Chunk::nbt_mut`] may have taken away since).
fn container_mut<'a>(
    root: &'a mut Compound,
    index: usize,
    key: &str,
) -> Result<&'a mut Compound, Error> {
    let gone = || Error::new(ErrorKind::Missing).at_key(format!("sections[{index}].{key}"));
    let Some(Tag::List(l)) = root.get_mut("sections") else {
        return Err(gone());
    };
    let Some(Tag::Compound(s)) = l.items_mut().get_mut(index) else {
        return Err(gone());
    };
    match s.get_mut(key) {
        Some(Tag::Compound(c)) => Ok(c),
        _ => Err(gone()),
    }
}
