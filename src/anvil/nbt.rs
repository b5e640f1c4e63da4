//! NBT as a tree that keeps what a chunk holds exactly: compound keys in
//! their order, strings as the modified UTF-8 bytes Java wrote, floats by
//! their bits, and the element type of empty lists.
//!
//! Why not fastnbt's `Value`: it keeps a compound in a `HashMap` and strings
//! as Rust strings, so a chunk read and written back comes out in another
//! order, and a string Java wrote with an encoded NUL or a surrogate pair
//! changes. Here a tree that was read writes back the same bytes.
//!
//! ```
//! use paletted::anvil::nbt::{self, Compound, Tag};
//!
//! let mut root = Compound::new();
//! root.insert("zPos", Tag::Int(-3));
//! root.insert("DataVersion", Tag::Int(3955));
//! let bytes = nbt::write("", &root);
//! let (name, back) = nbt::read(&bytes).unwrap();
//! assert_eq!((name.to_str().unwrap().as_ref(), &back), ("", &root));
//! // Keys stay in the order they were written, not sorted.
//! let keys: Vec<_> = back.iter().map(|(k, _)| k.to_string()).collect();
//! assert_eq!(keys, ["zPos", "DataVersion"]);
//! ```

use std::borrow::Cow;
use std::fmt;

/// The deepest nesting of compounds and lists Minecraft's reader accepts
/// (its `NbtAccounter` refuses depth > 512).
pub const MAX_DEPTH: usize = 512;

/// A string as NBT stores it: Java's modified UTF-8 (NUL as `C0 80`,
/// characters past U+FFFF as two encoded surrogates), kept as the bytes read.
///
/// ```
/// use paletted::anvil::nbt::Mutf8;
///
/// let s = Mutf8::from("minecraft:stone");
/// assert_eq!(s.as_bytes(), b"minecraft:stone");
/// // NUL takes two bytes in Java's form, and comes back.
/// let nul = Mutf8::from("a\0b");
/// assert_eq!(nul.as_bytes(), b"a\xc0\x80b");
/// assert_eq!(nul.to_str().unwrap(), "a\0b");
/// ```
#[derive(Clone)]
pub struct Mutf8(Repr);

/// Keys and names are short: up to 22 bytes live inline, with no allocation
/// (a chunk holds tens of thousands of them).
#[derive(Clone)]
enum Repr {
    Inline { len: u8, bytes: [u8; INLINE] },
    Heap(Box<[u8]>),
}

const INLINE: usize = 22;

impl Mutf8 {
    /// The string from bytes as read, unchecked: they may not decode.
    ///
    /// ```
    /// use paletted::anvil::nbt::Mutf8;
    ///
    /// // A lone surrogate: kept, but not a Rust string.
    /// let odd = Mutf8::from_bytes(vec![0xed, 0xa0, 0x80]);
    /// assert!(odd.to_str().is_none());
    /// ```
    pub fn from_bytes(bytes: Vec<u8>) -> Mutf8 {
        if bytes.len() <= INLINE {
            Mutf8::from_slice(&bytes)
        } else {
            Mutf8(Repr::Heap(bytes.into_boxed_slice()))
        }
    }

    pub(crate) fn from_slice(b: &[u8]) -> Mutf8 {
        if b.len() <= INLINE {
            let mut bytes = [0; INLINE];
            bytes[..b.len()].copy_from_slice(b);
            Mutf8(Repr::Inline {
                len: b.len() as u8,
                bytes,
            })
        } else {
            Mutf8(Repr::Heap(b.into()))
        }
    }

    /// The bytes as stored.
    ///
    /// ```
    /// use paletted::anvil::nbt::Mutf8;
    ///
    /// assert_eq!(Mutf8::from("é").as_bytes(), "é".as_bytes());
    /// ```
    pub fn as_bytes(&self) -> &[u8] {
        match &self.0 {
            Repr::Inline { len, bytes } => &bytes[..*len as usize],
            Repr::Heap(b) => b,
        }
    }

    /// The string, or `None` when the bytes are not modified UTF-8 that
    /// decodes (a lone surrogate, say).
    ///
    /// ```
    /// use paletted::anvil::nbt::Mutf8;
    ///
    /// // U+1F600 as Java writes it: two surrogates of three bytes each.
    /// let java = Mutf8::from("😀");
    /// assert_eq!(java.as_bytes().len(), 6);
    /// assert_eq!(java.to_str().unwrap(), "😀");
    /// ```
    pub fn to_str(&self) -> Option<Cow<'_, str>> {
        cesu8::from_java_cesu8(self.as_bytes()).ok()
    }

    /// Whether this is `s` (compared in the stored form).
    fn is(&self, s: &str) -> bool {
        if s.bytes().all(|b| b != 0 && b < 0x80) {
            self.as_bytes() == s.as_bytes()
        } else {
            self.as_bytes() == &*cesu8::to_java_cesu8(s)
        }
    }
}

impl From<&str> for Mutf8 {
    fn from(s: &str) -> Mutf8 {
        Mutf8::from_slice(&cesu8::to_java_cesu8(s))
    }
}

impl Default for Mutf8 {
    fn default() -> Mutf8 {
        Mutf8::from_slice(&[])
    }
}

impl PartialEq for Mutf8 {
    fn eq(&self, other: &Mutf8) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl Eq for Mutf8 {}

impl std::hash::Hash for Mutf8 {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_bytes().hash(state);
    }
}

impl PartialOrd for Mutf8 {
    fn partial_cmp(&self, other: &Mutf8) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Mutf8 {
    fn cmp(&self, other: &Mutf8) -> std::cmp::Ordering {
        self.as_bytes().cmp(other.as_bytes())
    }
}

impl fmt::Display for Mutf8 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.to_str() {
            Some(s) => f.write_str(&s),
            None => f.write_str(&String::from_utf8_lossy(self.as_bytes())),
        }
    }
}

impl fmt::Debug for Mutf8 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.to_string())
    }
}

/// One NBT value.
///
/// ```
/// use paletted::anvil::nbt::Tag;
///
/// assert_eq!(Tag::Int(5).id(), 3);
/// assert_eq!(Tag::LongArray(vec![]).id(), 12);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Tag {
    /// 1
    Byte(i8),
    /// 2
    Short(i16),
    /// 3
    Int(i32),
    /// 4
    Long(i64),
    /// 5
    Float(f32),
    /// 6
    Double(f64),
    /// 7, as unsigned bytes.
    ByteArray(Vec<u8>),
    /// 8
    String(Mutf8),
    /// 9
    List(List),
    /// 10
    Compound(Compound),
    /// 11
    IntArray(Vec<i32>),
    /// 12
    LongArray(Vec<i64>),
}

impl Tag {
    /// The tag's type id, 1 to 12.
    ///
    /// ```
    /// use paletted::anvil::nbt::{Compound, Tag};
    ///
    /// assert_eq!(Tag::Compound(Compound::new()).id(), 10);
    /// ```
    pub fn id(&self) -> u8 {
        match self {
            Tag::Byte(_) => 1,
            Tag::Short(_) => 2,
            Tag::Int(_) => 3,
            Tag::Long(_) => 4,
            Tag::Float(_) => 5,
            Tag::Double(_) => 6,
            Tag::ByteArray(_) => 7,
            Tag::String(_) => 8,
            Tag::List(_) => 9,
            Tag::Compound(_) => 10,
            Tag::IntArray(_) => 11,
            Tag::LongArray(_) => 12,
        }
    }
}

/// The name of a tag type, for messages.
pub(crate) fn type_name(id: u8) -> &'static str {
    match id {
        0 => "End",
        1 => "Byte",
        2 => "Short",
        3 => "Int",
        4 => "Long",
        5 => "Float",
        6 => "Double",
        7 => "Byte_Array",
        8 => "String",
        9 => "List",
        10 => "Compound",
        11 => "Int_Array",
        12 => "Long_Array",
        _ => "unknown",
    }
}

/// A list: its element type (kept even when empty, so that an empty list
/// writes back as read) and its elements.
///
/// ```
/// use paletted::anvil::nbt::{List, Tag};
///
/// let list = List::new(8, vec![Tag::String("minecraft:plains".into())]).unwrap();
/// assert_eq!((list.element(), list.len()), (8, 1));
/// // Every element must be of the list's type.
/// assert!(List::new(3, vec![Tag::Byte(1)]).is_none());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct List {
    element: u8,
    items: Vec<Tag>,
}

impl List {
    /// A list of `element` typed tags, or `None` if one is of another type.
    pub fn new(element: u8, items: Vec<Tag>) -> Option<List> {
        items
            .iter()
            .all(|t| t.id() == element)
            .then_some(List { element, items })
    }

    /// The element type id (0 for a list Java wrote empty and untyped).
    pub fn element(&self) -> u8 {
        self.element
    }

    /// The elements.
    pub fn items(&self) -> &[Tag] {
        &self.items
    }

    /// Elements in the list.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether it has none.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

/// A compound: keys and values in the order read or inserted.
///
/// ```
/// use paletted::anvil::nbt::{Compound, Tag};
///
/// let mut c = Compound::new();
/// c.insert("b", Tag::Byte(1));
/// c.insert("a", Tag::Byte(2));
/// // Replacing keeps the key's place.
/// c.insert("b", Tag::Byte(3));
/// assert_eq!(c.get("b"), Some(&Tag::Byte(3)));
/// assert_eq!(c.iter().next().map(|(k, _)| k.to_string()).as_deref(), Some("b"));
/// assert_eq!(c.remove("a"), Some(Tag::Byte(2)));
/// assert_eq!(c.len(), 1);
/// ```
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Compound(Vec<(Mutf8, Tag)>);

impl Compound {
    /// An empty compound.
    pub fn new() -> Compound {
        Compound(Vec::new())
    }

    /// The value under `key`.
    pub fn get(&self, key: &str) -> Option<&Tag> {
        self.0.iter().find(|(k, _)| k.is(key)).map(|(_, v)| v)
    }

    /// The value under `key`, to change.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Tag> {
        self.0.iter_mut().find(|(k, _)| k.is(key)).map(|(_, v)| v)
    }

    /// Sets `key` to `value`: in its place if present, else at the end.
    /// Gives the value it replaced.
    pub fn insert(&mut self, key: &str, value: Tag) -> Option<Tag> {
        match self.get_mut(key) {
            Some(old) => Some(std::mem::replace(old, value)),
            None => {
                self.0.push((Mutf8::from(key), value));
                None
            }
        }
    }

    /// Takes `key` out, keeping the others' order.
    pub fn remove(&mut self, key: &str) -> Option<Tag> {
        let at = self.0.iter().position(|(k, _)| k.is(key))?;
        Some(self.0.remove(at).1)
    }

    /// Keys and values in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&Mutf8, &Tag)> {
        self.0.iter().map(|(k, v)| (k, v))
    }

    /// Entries.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether it has none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// One step of the way to a tag: a compound's key or a list's index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    Key(Mutf8),
    Index(usize),
}

/// A way to a tag from the root, as `sections[3].block_states.palette`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub(crate) struct KeyPath(pub(crate) Vec<Step>);

impl fmt::Display for KeyPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, step) in self.0.iter().enumerate() {
            match step {
                Step::Key(k) if i == 0 => write!(f, "{k}")?,
                Step::Key(k) => write!(f, ".{k}")?,
                Step::Index(n) => write!(f, "[{n}]")?,
            }
        }
        Ok(())
    }
}

/// Why bytes are not NBT.
///
/// ```
/// use paletted::anvil::nbt::{self, NbtError};
///
/// // A compound whose first entry (an Int) is cut short.
/// let err = nbt::read(b"\x0a\x00\x00\x03\x00\x01x\x00").unwrap_err();
/// assert!(matches!(err, NbtError::Truncated { .. }));
/// assert_eq!(err.to_string(), "truncated NBT: x needs 4 bytes at byte 7, 1 left");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NbtError {
    /// The input ends inside a tag.
    Truncated {
        /// Where the tag being read is, as a key path.
        key: String,
        /// Bytes it needed.
        needed: usize,
        /// Where.
        at: usize,
        /// Bytes left there.
        left: usize,
    },
    /// The root is not a compound.
    RootNotCompound {
        /// Its type id.
        tag: u8,
    },
    /// A type id that is none of 1 to 12.
    BadTag {
        /// Where.
        key: String,
        /// The id.
        tag: u8,
        /// The byte offset.
        at: usize,
    },
    /// An array or list with a negative length.
    NegativeLength {
        /// Where.
        key: String,
        /// The length.
        len: i32,
    },
    /// A non-empty list of `End` elements, which Minecraft refuses too.
    UntypedList {
        /// Where.
        key: String,
    },
    /// Nesting past [`MAX_DEPTH`].
    TooDeep {
        /// Where the limit was passed.
        key: String,
    },
}

impl NbtError {
    /// The key path of the tag the error is in (empty for the root).
    pub fn key(&self) -> &str {
        match self {
            NbtError::RootNotCompound { .. } => "",
            NbtError::Truncated { key, .. }
            | NbtError::BadTag { key, .. }
            | NbtError::NegativeLength { key, .. }
            | NbtError::UntypedList { key }
            | NbtError::TooDeep { key } => key,
        }
    }
}

impl fmt::Display for NbtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = |key: &str| {
            if key.is_empty() {
                "the root".to_owned()
            } else {
                key.to_owned()
            }
        };
        match self {
            NbtError::Truncated {
                key,
                needed,
                at,
                left,
            } => write!(
                f,
                "truncated NBT: {} needs {needed} bytes at byte {at}, {left} left",
                name(key)
            ),
            NbtError::RootNotCompound { tag } => write!(
                f,
                "the root tag is a {} ({tag}), not a compound",
                type_name(*tag)
            ),
            NbtError::BadTag { key, tag, at } => {
                write!(f, "{}: unknown tag type {tag} at byte {at}", name(key))
            }
            NbtError::NegativeLength { key, len } => {
                write!(f, "{}: negative length {len}", name(key))
            }
            NbtError::UntypedList { key } => write!(
                f,
                "{}: a list of End elements that is not empty; Minecraft refuses it too (\"Missing type on ListTag\")",
                name(key)
            ),
            NbtError::TooDeep { key } => write!(
                f,
                "{}: NBT nested deeper than {MAX_DEPTH} levels; Minecraft refuses it too (\"Tried to read NBT tag with too high complexity, depth > 512\")",
                name(key)
            ),
        }
    }
}

impl std::error::Error for NbtError {}

/// An error on its way out of the reader, gathering its key path as the
/// recursion unwinds (nothing is built on the way in).
pub(crate) struct Failure {
    steps: Vec<Step>,
    make: Box<dyn FnOnce(String) -> NbtError>,
}

impl Failure {
    pub(crate) fn new(make: impl FnOnce(String) -> NbtError + 'static) -> Failure {
        Failure {
            steps: Vec::new(),
            make: Box::new(make),
        }
    }

    pub(crate) fn at(mut self, step: Step) -> Failure {
        self.steps.push(step);
        self
    }

    pub(crate) fn finish(mut self) -> NbtError {
        self.steps.reverse();
        (self.make)(KeyPath(self.steps).to_string())
    }
}

pub(crate) struct Reader<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) at: usize,
    /// Entries of the compounds being read, innermost last: each compound
    /// takes its own off the end in one allocation of the exact size.
    scratch: Vec<(Mutf8, Tag)>,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader {
            bytes,
            at: 0,
            scratch: Vec::new(),
        }
    }

    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8], Failure> {
        let left = self.bytes.len() - self.at;
        if n > left {
            let at = self.at;
            return Err(Failure::new(move |key| NbtError::Truncated {
                key,
                needed: n,
                at,
                left,
            }));
        }
        let s = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }

    pub(crate) fn array<const N: usize>(&mut self) -> Result<[u8; N], Failure> {
        Ok(self.take(N)?.try_into().expect("N bytes"))
    }

    pub(crate) fn u8(&mut self) -> Result<u8, Failure> {
        Ok(self.array::<1>()?[0])
    }

    pub(crate) fn string(&mut self) -> Result<Mutf8, Failure> {
        let n = u16::from_be_bytes(self.array()?) as usize;
        Ok(Mutf8::from_slice(self.take(n)?))
    }

    pub(crate) fn len(&mut self) -> Result<usize, Failure> {
        let len = i32::from_be_bytes(self.array()?);
        usize::try_from(len)
            .map_err(|_| Failure::new(move |key| NbtError::NegativeLength { key, len }))
    }

    /// A length whose elements take `size` bytes each, checked against the
    /// bytes left before anything is allocated.
    pub(crate) fn sized(&mut self, size: usize) -> Result<usize, Failure> {
        let n = self.len()?;
        let left = self.bytes.len() - self.at;
        if n.saturating_mul(size) > left {
            let at = self.at;
            return Err(Failure::new(move |key| NbtError::Truncated {
                key,
                needed: n.saturating_mul(size),
                at,
                left,
            }));
        }
        Ok(n)
    }

    pub(crate) fn payload(&mut self, tag: u8, depth: usize) -> Result<Tag, Failure> {
        Ok(match tag {
            1 => Tag::Byte(self.u8()? as i8),
            2 => Tag::Short(i16::from_be_bytes(self.array()?)),
            3 => Tag::Int(i32::from_be_bytes(self.array()?)),
            4 => Tag::Long(i64::from_be_bytes(self.array()?)),
            5 => Tag::Float(f32::from_bits(u32::from_be_bytes(self.array()?))),
            6 => Tag::Double(f64::from_bits(u64::from_be_bytes(self.array()?))),
            7 => {
                let n = self.sized(1)?;
                Tag::ByteArray(self.take(n)?.to_vec())
            }
            8 => Tag::String(self.string()?),
            9 => Tag::List(self.list(depth + 1)?),
            10 => Tag::Compound(self.compound(depth + 1)?),
            11 => {
                let n = self.sized(4)?;
                let raw = self.take(n * 4)?;
                Tag::IntArray(
                    raw.chunks_exact(4)
                        .map(|b| i32::from_be_bytes(b.try_into().expect("4 bytes")))
                        .collect(),
                )
            }
            12 => {
                let n = self.sized(8)?;
                let raw = self.take(n * 8)?;
                Tag::LongArray(
                    raw.chunks_exact(8)
                        .map(|b| i64::from_be_bytes(b.try_into().expect("8 bytes")))
                        .collect(),
                )
            }
            _ => {
                let at = self.at - 1;
                return Err(Failure::new(move |key| NbtError::BadTag { key, tag, at }));
            }
        })
    }

    /// A key, as its bytes in the input (no copy unless an error names it).
    pub(crate) fn key(&mut self) -> Result<&'a [u8], Failure> {
        let n = u16::from_be_bytes(self.array()?) as usize;
        self.take(n)
    }

    /// Walks over a tag's payload, checking it as [`payload`](Self::payload)
    /// would, building nothing.
    pub(crate) fn skip(&mut self, tag: u8, depth: usize) -> Result<(), Failure> {
        match tag {
            1 => self.take(1).map(drop),
            2 => self.take(2).map(drop),
            3 | 5 => self.take(4).map(drop),
            4 | 6 => self.take(8).map(drop),
            7 => {
                let n = self.sized(1)?;
                self.take(n).map(drop)
            }
            8 => self.key().map(drop),
            9 => {
                Self::deeper(depth + 1)?;
                let (element, n, fixed) = self.list_header()?;
                if let Some(size) = fixed {
                    return self.take(n * size).map(drop);
                }
                for i in 0..n {
                    self.skip(element, depth + 1)
                        .map_err(|e| e.at(Step::Index(i)))?;
                }
                Ok(())
            }
            10 => {
                Self::deeper(depth + 1)?;
                loop {
                    let tag = self.u8()?;
                    if tag == 0 {
                        return Ok(());
                    }
                    let key = self.key()?;
                    self.skip(tag, depth + 1)
                        .map_err(|e| e.at(Step::Key(Mutf8::from_slice(key))))?;
                }
            }
            11 => {
                let n = self.sized(4)?;
                self.take(n * 4).map(drop)
            }
            12 => {
                let n = self.sized(8)?;
                self.take(n * 8).map(drop)
            }
            _ => {
                let at = self.at - 1;
                Err(Failure::new(move |key| NbtError::BadTag { key, tag, at }))
            }
        }
    }

    pub(crate) fn deeper(depth: usize) -> Result<(), Failure> {
        if depth > MAX_DEPTH {
            return Err(Failure::new(|key| NbtError::TooDeep { key }));
        }
        Ok(())
    }

    /// A list's header, checked as Minecraft's reader checks it (no untyped
    /// list with entries, no unknown element tag): the element tag, the
    /// length, and the element's size where it is fixed. The length is
    /// bounded by the input left, at the element's size or 1 byte, so a
    /// forged length allocates nothing.
    fn list_header(&mut self) -> Result<(u8, usize, Option<usize>), Failure> {
        let element = self.u8()?;
        let fixed = match element {
            1 => Some(1),
            2 => Some(2),
            3 | 5 => Some(4),
            4 | 6 => Some(8),
            _ => None,
        };
        // Every other element takes at least 1 byte.
        let n = self.sized(fixed.unwrap_or(1))?;
        if element == 0 && n > 0 {
            return Err(Failure::new(|key| NbtError::UntypedList { key }));
        }
        if element > 12 {
            let at = self.at - 5;
            return Err(Failure::new(move |key| NbtError::BadTag {
                key,
                tag: element,
                at,
            }));
        }
        Ok((element, n, fixed))
    }

    pub(crate) fn list(&mut self, depth: usize) -> Result<List, Failure> {
        Self::deeper(depth)?;
        let (element, n, _) = self.list_header()?;
        let mut items = Vec::with_capacity(n);
        for i in 0..n {
            items.push(
                self.payload(element, depth)
                    .map_err(|e| e.at(Step::Index(i)))?,
            );
        }
        Ok(List { element, items })
    }

    pub(crate) fn compound(&mut self, depth: usize) -> Result<Compound, Failure> {
        Self::deeper(depth)?;
        let start = self.scratch.len();
        let entries = (|| loop {
            let tag = self.u8()?;
            if tag == 0 {
                return Ok(());
            }
            let key = self.string()?;
            match self.payload(tag, depth) {
                Ok(value) => self.scratch.push((key, value)),
                Err(e) => return Err(e.at(Step::Key(key))),
            }
        })();
        let entries_read = self.scratch.drain(start..).collect();
        entries.map(|()| Compound(entries_read))
    }
}

/// Reads a root compound (named, as files and chunks hold it): its name and
/// the compound. Bytes after it are not looked at, as Minecraft does.
///
/// # Errors
/// [`NbtError`], naming the key path of the tag where the input went wrong.
pub fn read(bytes: &[u8]) -> Result<(Mutf8, Compound), NbtError> {
    let mut r = Reader::new(bytes);
    let root = (|| {
        let tag = r.u8()?;
        if tag != 10 {
            return Err(Failure::new(move |_| NbtError::RootNotCompound { tag }));
        }
        let name = r.string()?;
        Ok((name, r.compound(1)?))
    })();
    root.map_err(Failure::finish)
}

/// Writes a root compound named `name`.
///
/// ```
/// use paletted::anvil::nbt::{self, Compound};
///
/// assert_eq!(nbt::write("", &Compound::new()), [10, 0, 0, 0]);
/// ```
pub fn write(name: &str, root: &Compound) -> Vec<u8> {
    let mut out = Vec::new();
    write_named(&Mutf8::from(name), root, &mut out);
    out
}

/// Writes a root compound whose name is kept as read.
pub(crate) fn write_named(name: &Mutf8, root: &Compound, out: &mut Vec<u8>) {
    out.push(10);
    string(name, out);
    compound(root, out);
}

/// Writes a compound's entry: type id, name, payload.
pub(crate) fn write_entry(name: &str, tag: &Tag, out: &mut Vec<u8>) {
    out.push(tag.id());
    string(&Mutf8::from(name), out);
    payload(tag, out);
}

/// Writes a tag as a list element would be, after its type id.
pub(crate) fn write_tag(tag: &Tag, out: &mut Vec<u8>) {
    out.push(tag.id());
    payload(tag, out);
}

fn string(s: &Mutf8, out: &mut Vec<u8>) {
    // A string read has at most 65,535 bytes; a longer one made here is cut
    // (Java refuses to write it).
    let b = s.as_bytes();
    let n = b.len().min(u16::MAX as usize);
    out.extend_from_slice(&(n as u16).to_be_bytes());
    out.extend_from_slice(&b[..n]);
}

fn compound(c: &Compound, out: &mut Vec<u8>) {
    for (k, v) in &c.0 {
        out.push(v.id());
        string(k, out);
        payload(v, out);
    }
    out.push(0);
}

fn payload(tag: &Tag, out: &mut Vec<u8>) {
    let len = |n: usize, out: &mut Vec<u8>| out.extend_from_slice(&(n as i32).to_be_bytes());
    match tag {
        Tag::Byte(v) => out.push(*v as u8),
        Tag::Short(v) => out.extend_from_slice(&v.to_be_bytes()),
        Tag::Int(v) => out.extend_from_slice(&v.to_be_bytes()),
        Tag::Long(v) => out.extend_from_slice(&v.to_be_bytes()),
        Tag::Float(v) => out.extend_from_slice(&v.to_bits().to_be_bytes()),
        Tag::Double(v) => out.extend_from_slice(&v.to_bits().to_be_bytes()),
        Tag::ByteArray(v) => {
            len(v.len(), out);
            out.extend_from_slice(v);
        }
        Tag::String(s) => string(s, out),
        Tag::List(l) => {
            out.push(l.element);
            len(l.items.len(), out);
            for item in &l.items {
                payload(item, out);
            }
        }
        Tag::Compound(c) => compound(c, out),
        Tag::IntArray(v) => {
            len(v.len(), out);
            out.reserve(v.len() * 4);
            for x in v {
                out.extend_from_slice(&x.to_be_bytes());
            }
        }
        Tag::LongArray(v) => {
            len(v.len(), out);
            out.reserve(v.len() * 8);
            for x in v {
                out.extend_from_slice(&x.to_be_bytes());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_the_key_path() {
        // {sections: [{Y: <cut>}]}
        let mut b = vec![10, 0, 0, 9, 0, 8];
        b.extend(b"sections");
        b.extend([10, 0, 0, 0, 1, 1, 0, 1, b'Y']);
        let err = read(&b).unwrap_err();
        assert_eq!(err.key(), "sections[0].Y");
    }

    #[test]
    fn deep_nesting_is_refused_not_overflowed() {
        let mut b = vec![10u8, 0, 0, 9, 0, 1, b'x'];
        for _ in 0..100_000 {
            b.extend([9u8, 0, 0, 0, 1]);
        }
        let err = read(&b).unwrap_err();
        assert!(matches!(err, NbtError::TooDeep { .. }), "{err}");
        assert!(err.to_string().contains("nested deeper than 512 levels"));
    }

    #[test]
    fn a_huge_declared_length_is_refused_before_allocating() {
        let b = [10u8, 0, 0, 12, 0, 1, b'l', 0x7f, 0xff, 0xff, 0xff];
        assert!(matches!(read(&b), Err(NbtError::Truncated { .. })));
    }
}
