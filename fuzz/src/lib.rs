//! What the fuzz targets share: a byte tape that turns fuzz input into
//! strategies, saved containers and op lists (and back, for the seed
//! corpora), and the checks a strictly loaded container must pass.
//!
//! The tape is a plain format rather than `arbitrary`'s so that the seed
//! builder can write recorded cases into it exactly: [`encode_case`] then
//! [`decode_case`] gives the case back (values in their registry, sizes
//! inside [`MAX_STORAGE`]). Every read past the end gives zeros, so every
//! input decodes to something.

use harness::case::{Case, ContainerOp, Ops, StorageOp, Subject};
use paletted::{Kind, Packed, PalettedContainer, Strategy, Version};
use serde_json::Map;

/// Most values a storage subject or load of the tape holds: beyond this the
/// run is allocation, not logic (a `values` of 2^26 is 256 MB).
pub const MAX_STORAGE: u32 = 1 << 16;

/// Most ops one input runs: beyond this an input is only slower.
pub const MAX_OPS: usize = 512;

/// Largest registry whose container a `palette` op lists: a global palette
/// lists every id, and 2^32 - 1 of them take 16 GB. Over it, the op code of
/// `palette` reads as `bits`.
pub const MAX_LISTED_REGISTRY: u32 = 1 << 16;

/// Reads fuzz input as a tape of bytes, VarInts and longs.
pub struct Tape<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Tape<'a> {
    /// A tape over `bytes`.
    pub fn new(bytes: &'a [u8]) -> Tape<'a> {
        Tape { bytes, at: 0 }
    }

    /// Whether the input is used up.
    pub fn is_empty(&self) -> bool {
        self.at >= self.bytes.len()
    }

    /// Bytes left.
    pub fn remaining(&self) -> usize {
        self.bytes.len().saturating_sub(self.at)
    }

    /// One byte (0 past the end).
    pub fn u8(&mut self) -> u8 {
        let b = self.bytes.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }

    /// An unsigned LEB128 of up to ten bytes.
    pub fn uvar(&mut self) -> u64 {
        let mut v = 0u64;
        for shift in (0..70).step_by(7) {
            let b = self.u8();
            v |= u64::from(b & 0x7f).checked_shl(shift).unwrap_or(0);
            if b & 0x80 == 0 {
                break;
            }
        }
        v
    }

    /// A zigzag LEB128.
    pub fn svar(&mut self) -> i64 {
        let v = self.uvar();
        ((v >> 1) as i64) ^ -((v & 1) as i64)
    }

    /// A u32 (the low 32 bits of a VarInt).
    pub fn u32(&mut self) -> u32 {
        self.uvar() as u32
    }

    /// An i32 (the low 32 bits of a zigzag VarInt).
    pub fn i32(&mut self) -> i32 {
        self.svar() as i32
    }

    /// A long, 8 bytes little-endian.
    pub fn i64(&mut self) -> i64 {
        let mut b = [0u8; 8];
        for x in &mut b {
            *x = self.u8();
        }
        i64::from_le_bytes(b)
    }

    /// A count, capped by what the rest of the input could describe at
    /// `min_bytes` each, so a short input never asks for a huge allocation.
    pub fn count(&mut self, min_bytes: usize) -> usize {
        let n = self.uvar().min(usize::MAX as u64) as usize;
        n.min(self.remaining() / min_bytes.max(1))
    }

    /// `n` raw bytes (fewer at the end).
    pub fn bytes(&mut self, n: usize) -> &'a [u8] {
        let start = self.at.min(self.bytes.len());
        let end = start.saturating_add(n).min(self.bytes.len());
        self.at = start + n;
        &self.bytes[start..end]
    }

    /// Everything left.
    pub fn rest(&mut self) -> &'a [u8] {
        let start = self.at.min(self.bytes.len());
        self.at = self.bytes.len();
        &self.bytes[start..]
    }
}

/// Writes the tape [`Tape`] reads.
#[derive(Default)]
pub struct Writer {
    /// The bytes so far.
    pub out: Vec<u8>,
}

impl Writer {
    /// One byte.
    pub fn u8(&mut self, b: u8) {
        self.out.push(b);
    }

    /// An unsigned LEB128.
    pub fn uvar(&mut self, mut v: u64) {
        loop {
            let b = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                return self.out.push(b);
            }
            self.out.push(b | 0x80);
        }
    }

    /// A zigzag LEB128.
    pub fn svar(&mut self, v: i64) {
        self.uvar(((v << 1) ^ (v >> 63)) as u64)
    }

    /// A long, 8 bytes little-endian.
    pub fn i64(&mut self, v: i64) {
        self.out.extend_from_slice(&v.to_le_bytes())
    }

    /// Raw bytes.
    pub fn bytes(&mut self, b: &[u8]) {
        self.out.extend_from_slice(b)
    }
}

/// A strategy: a byte (its low bit picks biomes) and the registry size
/// (0 reads as 1).
pub fn strategy(t: &mut Tape<'_>) -> Strategy {
    let kind = if t.u8() & 1 == 1 {
        Kind::Biomes
    } else {
        Kind::BlockStates
    };
    Strategy::with(kind, t.u32().max(1))
}

/// Writes what [`strategy`] reads.
pub fn write_strategy(w: &mut Writer, kind: Kind, registry: u32) {
    w.u8(u8::from(kind == Kind::Biomes));
    w.uvar(u64::from(registry));
}

/// A saved container: the palette (raw ids, so some are outside the
/// registry), a flag byte (odd: data follows), the longs, and the declared
/// bits.
pub fn packed(t: &mut Tape<'_>) -> Packed {
    let n = t.count(1);
    let palette = (0..n).map(|_| t.u32()).collect();
    let data = (t.u8() & 1 == 1).then(|| {
        let n = t.count(8);
        (0..n).map(|_| t.i64()).collect()
    });
    let bits = t.i32();
    Packed {
        palette,
        data,
        bits,
    }
}

/// Writes what [`packed`] reads.
pub fn write_packed(w: &mut Writer, palette: &[u32], data: Option<&[i64]>, bits: i32) {
    w.uvar(palette.len() as u64);
    for &id in palette {
        w.uvar(u64::from(id));
    }
    match data {
        Some(longs) => {
            w.u8(1);
            w.uvar(longs.len() as u64);
            for &l in longs {
                w.i64(l);
            }
        }
        None => w.u8(0),
    }
    w.svar(i64::from(bits));
}

/// Op codes of the tape, in [`ContainerOp`]'s order.
const CONTAINER_OPS: u8 = 13;
/// Storage op codes, in [`StorageOp`]'s order.
const STORAGE_OPS: u8 = 9;

/// A case from the tape: a subject byte (0 block states, 1 biomes, 2 a
/// storage), the subject's fields, then ops until the input ends. Values
/// given to a container are reduced into its registry (an id outside it is
/// a case Java cannot express); positions, indices and storage values are
/// as they come, so the out-of-range paths are reached.
pub fn decode_case(bytes: &[u8]) -> Case {
    let mut t = Tape::new(bytes);
    let which = t.u8() % 3;
    let (subject, ops) = if which < 2 {
        let kind = if which == 1 {
            Kind::Biomes
        } else {
            Kind::BlockStates
        };
        let registry = t.u32().max(1);
        let initial = t.u32() % registry;
        let mut ops = Vec::new();
        while !t.is_empty() && ops.len() < MAX_OPS {
            ops.push(container_op(&mut t, registry));
        }
        (
            Subject::Container {
                strategy: kind,
                registry,
                initial,
                version: Version::V26_3,
            },
            Ops::Container(ops),
        )
    } else {
        let bits = u32::from(t.u8()) % 33;
        let size = t.u32() % (MAX_STORAGE + 1);
        let mut ops = Vec::new();
        while !t.is_empty() && ops.len() < MAX_OPS {
            ops.push(storage_op(&mut t));
        }
        (
            Subject::Storage {
                bits,
                size,
                version: Version::V26_3,
            },
            Ops::Storage(ops),
        )
    };
    Case {
        name: "fuzz/input".into(),
        subject,
        ops,
        extra: Map::new(),
    }
}

fn id(t: &mut Tape<'_>, registry: u32) -> i64 {
    i64::from(t.u32() % registry)
}

fn container_op(t: &mut Tape<'_>, registry: u32) -> ContainerOp {
    match t.u8() % CONTAINER_OPS {
        0 => ContainerOp::Set {
            x: t.i32(),
            y: t.i32(),
            z: t.i32(),
            value: id(t, registry),
        },
        1 => ContainerOp::Get {
            x: t.i32(),
            y: t.i32(),
            z: t.i32(),
        },
        2 => ContainerOp::GetAndSet {
            x: t.i32(),
            y: t.i32(),
            z: t.i32(),
            value: id(t, registry),
        },
        4 if registry <= MAX_LISTED_REGISTRY => ContainerOp::Palette,
        3 | 4 => ContainerOp::Bits,
        5 => ContainerOp::Counts,
        6 => ContainerOp::GetAll,
        7 => ContainerOp::MaybeHas {
            value: id(t, registry),
        },
        8 => ContainerOp::Write,
        9 => ContainerOp::SerializedSize,
        10 => ContainerOp::Pack,
        11 => {
            let p = packed(t);
            ContainerOp::Unpack {
                palette: p.palette.iter().map(|&v| i64::from(v % registry)).collect(),
                data: p.data,
                bits: p.bits,
            }
        }
        _ => {
            let n = t.count(1);
            ContainerOp::Read {
                bytes: t.bytes(n).to_vec(),
            }
        }
    }
}

fn storage_op(t: &mut Tape<'_>) -> StorageOp {
    match t.u8() % STORAGE_OPS {
        0 => {
            let bits = t.i32();
            let size = t.i32();
            // Sizes past the tape's limit only allocate; negative and
            // over-2^26 sizes stay (they are refused before any allocation).
            let size = if (0..=1 << 26).contains(&size) {
                size % (MAX_STORAGE as i32 + 1)
            } else {
                size
            };
            let n = t.count(8);
            StorageOp::Load {
                bits,
                size,
                longs: (0..n).map(|_| t.i64()).collect(),
            }
        }
        1 => StorageOp::Get { index: t.i32() },
        2 => StorageOp::Set {
            index: t.i32(),
            value: t.svar(),
        },
        3 => StorageOp::GetAndSet {
            index: t.i32(),
            value: t.svar(),
        },
        4 => StorageOp::Fill { value: t.svar() },
        5 => StorageOp::Values,
        6 => StorageOp::Longs,
        7 => StorageOp::Bits,
        _ => StorageOp::Size,
    }
}

/// Writes `case` as [`decode_case`] reads it, or `None` when the tape
/// cannot say it (a storage beyond [`MAX_STORAGE`], more than
/// [`MAX_OPS`] ops, a value outside the registry, a `palette` op over a
/// registry beyond [`MAX_LISTED_REGISTRY`]).
pub fn encode_case(case: &Case) -> Option<Vec<u8>> {
    let mut w = Writer::default();
    if case.ops.len() > MAX_OPS {
        return None;
    }
    match (&case.subject, &case.ops) {
        (
            &Subject::Container {
                strategy,
                registry,
                initial,
                version: Version::V26_3,
            },
            Ops::Container(ops),
        ) => {
            w.u8(u8::from(strategy == Kind::Biomes));
            w.uvar(u64::from(registry));
            w.uvar(u64::from(initial));
            for op in ops {
                write_container_op(&mut w, op, registry)?;
            }
        }
        (
            &Subject::Storage {
                bits,
                size,
                version: Version::V26_3,
            },
            Ops::Storage(ops),
        ) => {
            if size > MAX_STORAGE {
                return None;
            }
            w.u8(2);
            w.u8(bits as u8);
            w.uvar(u64::from(size));
            for op in ops {
                write_storage_op(&mut w, op)?;
            }
        }
        _ => return None,
    }
    Some(w.out)
}

fn write_id(w: &mut Writer, value: i64, registry: u32) -> Option<()> {
    let v = u32::try_from(value).ok().filter(|&v| v < registry)?;
    w.uvar(u64::from(v));
    Some(())
}

fn write_position(w: &mut Writer, x: i32, y: i32, z: i32) {
    for c in [x, y, z] {
        w.svar(i64::from(c));
    }
}

fn write_container_op(w: &mut Writer, op: &ContainerOp, registry: u32) -> Option<()> {
    match op {
        ContainerOp::Set { x, y, z, value } => {
            w.u8(0);
            write_position(w, *x, *y, *z);
            write_id(w, *value, registry)?;
        }
        ContainerOp::Get { x, y, z } => {
            w.u8(1);
            write_position(w, *x, *y, *z);
        }
        ContainerOp::GetAndSet { x, y, z, value } => {
            w.u8(2);
            write_position(w, *x, *y, *z);
            write_id(w, *value, registry)?;
        }
        ContainerOp::Bits => w.u8(3),
        ContainerOp::Palette if registry <= MAX_LISTED_REGISTRY => w.u8(4),
        ContainerOp::Palette => return None,
        ContainerOp::Counts => w.u8(5),
        ContainerOp::GetAll => w.u8(6),
        ContainerOp::MaybeHas { value } => {
            w.u8(7);
            write_id(w, *value, registry)?;
        }
        ContainerOp::Write => w.u8(8),
        ContainerOp::SerializedSize => w.u8(9),
        ContainerOp::Pack => w.u8(10),
        ContainerOp::Unpack {
            palette,
            data,
            bits,
        } => {
            w.u8(11);
            let ids = palette
                .iter()
                .map(|&v| u32::try_from(v).ok().filter(|&v| v < registry))
                .collect::<Option<Vec<u32>>>()?;
            write_packed(w, &ids, data.as_deref(), *bits);
        }
        ContainerOp::Read { bytes } => {
            w.u8(12);
            w.uvar(bytes.len() as u64);
            w.bytes(bytes);
        }
    }
    Some(())
}

fn write_storage_op(w: &mut Writer, op: &StorageOp) -> Option<()> {
    match op {
        StorageOp::Load { bits, size, longs } => {
            if (MAX_STORAGE as i32 + 1..=1 << 26).contains(size) {
                return None;
            }
            w.u8(0);
            w.svar(i64::from(*bits));
            w.svar(i64::from(*size));
            w.uvar(longs.len() as u64);
            for &l in longs {
                w.i64(l);
            }
        }
        StorageOp::Get { index } => {
            w.u8(1);
            w.svar(i64::from(*index));
        }
        StorageOp::Set { index, value } => {
            w.u8(2);
            w.svar(i64::from(*index));
            w.svar(*value);
        }
        StorageOp::GetAndSet { index, value } => {
            w.u8(3);
            w.svar(i64::from(*index));
            w.svar(*value);
        }
        StorageOp::Fill { value } => {
            w.u8(4);
            w.svar(*value);
        }
        StorageOp::Values => w.u8(5),
        StorageOp::Longs => w.u8(6),
        StorageOp::Bits => w.u8(7),
        StorageOp::Size => w.u8(8),
    }
    Some(())
}

/// What must hold of a container that `unpack` or `read` accepted: every
/// strict accessor answers without a panic, every value is in the
/// registry, `counts` tallies what `get_at` sees, `distinct` and `pack`'s
/// palette are the values in first-appearance order, and `write` then
/// `read`, and `pack` then `unpack`, give the same values back.
pub fn check_valid(c: &PalettedContainer) {
    let strategy = c.strategy();
    let size = strategy.size();
    let values: Vec<u32> = (0..size).map(|i| c.get_at(i)).collect();
    let registry = strategy.registry_size();
    assert!(
        values.iter().all(|&v| v < registry),
        "a value outside the registry"
    );
    let a = strategy.axis_len();
    for (i, &v) in values.iter().enumerate().step_by(97) {
        let (x, y, z) = (i as i32 % a, i as i32 / (a * a), i as i32 / a % a);
        assert_eq!(c.get(x, y, z), v, "get and get_at differ at {i}");
    }

    let mut first = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for &v in &values {
        if seen.insert(v) {
            first.push(v);
        }
    }
    // A saved palette may repeat a value (Minecraft keeps it as saved), and
    // then `distinct` and `counts` go by palette id: compare them by value.
    let mut distinct = c.distinct();
    let mut once = std::collections::HashSet::new();
    distinct.retain(|&v| once.insert(v));
    assert_eq!(distinct, first, "distinct is not first-appearance order");

    let mut tally = std::collections::HashMap::<u32, usize>::new();
    for &v in &values {
        *tally.entry(v).or_default() += 1;
    }
    let mut counted = std::collections::HashMap::<u32, usize>::new();
    for (v, n) in c.counts() {
        *counted.entry(v).or_default() += n;
    }
    assert_eq!(counted, tally, "counts");

    // A global palette lists every registry id (16 GB for 2^32 - 1 of them):
    // only list palettes are listed here.
    let global = c.palette_kind() == paletted::PaletteKind::Global;
    let palette = if global { Vec::new() } else { c.palette() };
    for &v in &first {
        assert!(c.maybe_has(v), "maybe_has({v}) is false for a stored value");
        assert!(
            global || palette.contains(&v),
            "palette lacks stored value {v}"
        );
    }

    let mut wire = Vec::new();
    c.write(&mut wire);
    assert_eq!(wire.len(), c.serialized_size(), "serialized_size");
    // A global palette over a tiny registry keeps fewer bits than its
    // configuration's number (0 for one id), so its bits byte selects another
    // configuration: as in Minecraft, that does not read back.
    if strategy.configuration(c.bits()) == c.configuration() {
        let mut back = PalettedContainer::new(0, strategy);
        let n = back
            .read(&wire)
            .unwrap_or_else(|e| panic!("read of write's bytes failed: {e}"));
        assert_eq!(n, wire.len(), "read consumed less than write gave");
        assert!(
            (0..size).all(|i| back.get_at(i) == values[i]),
            "write then read changed values"
        );
    }

    let packed = c.pack();
    assert_eq!(
        packed.palette, first,
        "pack's palette is not first-appearance"
    );
    let back = PalettedContainer::unpack(strategy, packed)
        .unwrap_or_else(|e| panic!("unpack of pack's result failed: {e}"));
    assert!(
        (0..size).all(|i| back.get_at(i) == values[i]),
        "pack then unpack changed values"
    );
}

/// `a == b` without `PartialEq`'s listing of a global palette (it lists
/// every registry id: 15 GB for a registry of 2^32 - 1, see CRASHES.md):
/// two global containers are the same when their configuration and
/// storage are.
pub fn same(a: &PalettedContainer, b: &PalettedContainer) -> bool {
    let global = paletted::PaletteKind::Global;
    if a.palette_kind() == global && b.palette_kind() == global {
        a.strategy() == b.strategy()
            && a.configuration() == b.configuration()
            && a.storage() == b.storage()
    } else {
        a == b
    }
}

/// `paletted::anvil` on arbitrary bytes (a region file when `path` ends in
/// `.mca`, else one chunk's NBT): every read is an error or a value, never a
/// panic, and what reads writes back as read. NBT that parses writes back as
/// the bytes it was read from; a region written back from what was read reads
/// back the same chunks; a chunk read at a version writes NBT that reads
/// again at that version (a container `pack` normalizes may change, but only
/// to what Minecraft would save, which reads).
pub fn anvil_round_trip(path: &std::path::Path, bytes: &[u8]) {
    use paletted::anvil::{Region, nbt};
    let chunk = |data: &[u8]| {
        if let Ok((name, root)) = nbt::read(data) {
            let mut again = vec![10u8];
            again.extend_from_slice(&(name.as_bytes().len() as u16).to_be_bytes());
            again.extend_from_slice(name.as_bytes());
            let whole = nbt::write("", &root);
            again.extend_from_slice(&whole[3..]);
            assert!(data.starts_with(&again), "NBT read and written differs from its input");
        }
        chunk_at(data, Version::V1_20_1);
        chunk_at(data, Version::V26_3);
    };
    if path.extension().is_some_and(|e| e == "mca") {
        let Ok((region, _)) = Region::scan(path, bytes.to_vec()) else {
            return;
        };
        let (written, _) = region.to_bytes();
        let again = Region::from_bytes(path, written).expect("a region written reads");
        let mut nbt = Vec::new();
        for (x, z) in region.chunks() {
            let read = region.nbt(x, z).ok().flatten();
            let external = region.external_len(x, z) > 0;
            if !external {
                assert_eq!(again.nbt(x, z).ok().flatten(), read, "chunk ({x}, {z}) after a write");
            }
            if region.nbt_into(x, z, &mut nbt).is_ok() {
                chunk(&nbt);
            }
        }
    } else {
        chunk(bytes);
    }
}

fn chunk_at(data: &[u8], version: Version) {
    use paletted::anvil::{Chunk, FirstSeen};
    let (mut blocks, mut biomes) = (FirstSeen::default(), FirstSeen::default());
    let Ok(chunk) = Chunk::read_with(data, |_| Some(version), &mut blocks, &mut biomes) else {
        return;
    };
    let written = chunk.write(&blocks, &biomes).expect("FirstSeen names every id it gave");
    let again = Chunk::read_with(&written, |_| Some(version), &mut blocks, &mut biomes)
        .expect("a chunk written reads again");
    assert_eq!(again.write(&blocks, &biomes).ok(), Some(written), "a second write differs");
}
