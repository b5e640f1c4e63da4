//! What the untrusted-input families share: hand-built wire bytes (VarInts of
//! any length, palettes of any count, storage of any width), and the
//! observations that reveal what a load left behind.
//!
//! Rust's own `write` never produces these bytes, which is the point: the
//! families that use only written bytes never reached the over-full palette
//! that once panicked (issue 9).

use paletted::{Configuration, Kind, PaletteKind, Strategy};

use super::{at_version, pos, Sim};
use crate::rng::Rng;

/// Minecraft's VarInt of `v` (as an unsigned 32-bit pattern, so a negative
/// value takes five bytes).
pub(crate) fn varint(v: i32) -> Vec<u8> {
    padded_varint(v, 0)
}

/// The VarInt of `v` in at least `len` bytes: the shortest form, then
/// continuation bytes of zero until `len` (a five-byte 0 is `8080808000`).
/// Past five bytes it is what Minecraft calls too big.
pub(crate) fn padded_varint(v: i32, len: usize) -> Vec<u8> {
    let mut u = v as u32;
    let mut out = Vec::new();
    loop {
        let low = (u & 0x7f) as u8;
        u >>= 7;
        out.push(low);
        if u == 0 {
            break;
        }
    }
    while out.len() < len {
        out.push(0);
    }
    let n = out.len();
    for b in &mut out[..n - 1] {
        *b |= 0x80;
    }
    out
}

/// Values of `bits` bits packed into longs as Minecraft's storage holds them
/// (64/bits a long, none spanning two), big-endian bytes.
pub(crate) fn packed_bytes(bits: u32, values: &[u64]) -> Vec<u8> {
    longs_bytes(&pack_longs(bits, values))
}

/// Values packed into longs (64/bits a long).
pub(crate) fn pack_longs(bits: u32, values: &[u64]) -> Vec<i64> {
    if bits == 0 {
        return Vec::new();
    }
    let per = (64 / bits) as usize;
    let mask = if bits == 64 {
        u64::MAX
    } else {
        (1 << bits) - 1
    };
    values
        .chunks(per)
        .map(|chunk| {
            let mut l = 0u64;
            for (k, &v) in chunk.iter().enumerate() {
                l |= (v & mask) << (k as u32 * bits);
            }
            l as i64
        })
        .collect()
}

/// The storage as the version's wire sends it: the longs, after their count
/// (a VarInt) in versions that send one (before 1.21.5). Old readers take
/// the count from the input, which is where they are most fragile.
pub(crate) fn storage_bytes(bits: u32, values: &[u64]) -> Vec<u8> {
    let longs = pack_longs(bits, values);
    let mut out = long_count(longs.len());
    out.extend(longs_bytes(&longs));
    out
}

/// The VarInt count of `n` longs where the version sends one, else nothing.
pub(crate) fn long_count(n: usize) -> Vec<u8> {
    if at_version().rules().long_count() {
        varint(n as i32)
    } else {
        Vec::new()
    }
}

/// Longs as the wire writes them: 8 bytes big-endian each, no count.
pub(crate) fn longs_bytes(longs: &[i64]) -> Vec<u8> {
    longs.iter().flat_map(|l| l.to_be_bytes()).collect()
}

/// `size` random indices below `bound` (at least 1), the storage values of
/// a load.
pub(crate) fn indices(rng: &mut Rng, size: usize, bound: u64) -> Vec<u64> {
    let bound = bound.max(1);
    (0..size).map(|_| rng.below(bound)).collect()
}

/// How many values a list palette of this configuration holds (`2^bits`);
/// `None` for single and global.
pub(crate) fn capacity(config: Configuration) -> Option<usize> {
    matches!(config.kind, PaletteKind::Linear | PaletteKind::HashMap).then(|| 1usize << config.bits)
}

/// The bits bytes that select a configuration of `kind` on the wire, for
/// the named rung (`single`, `lin4`, `lin1`..`lin3`, `hm5`..`hm8`,
/// `global`): every byte Minecraft maps there, not only the one `write`
/// sends.
pub(crate) fn bytes_for(strategy: &Strategy, rung: &str) -> Vec<u8> {
    match (strategy.kind(), rung) {
        (_, "single") => vec![0],
        (Kind::BlockStates, "lin4") => vec![1, 2, 3, 4],
        (Kind::BlockStates, r) if r.starts_with("hm") => vec![r[2..].parse().unwrap_or(5)],
        (Kind::Biomes, r) if r.starts_with("lin") => vec![r[3..].parse().unwrap_or(1)],
        (Kind::BlockStates, _) => vec![strategy.global_bits().max(9) as u8],
        (Kind::Biomes, _) => vec![strategy.global_bits().max(4) as u8],
    }
}

/// Distinct registry ids for a palette of `count` entries (as many distinct
/// as the registry has, then repeats).
pub(crate) fn palette_ids(rng: &mut Rng, count: usize, registry: u32) -> Vec<u32> {
    let distinct = count.min(registry as usize);
    let mut ids = rng.distinct_ids(distinct, registry);
    while ids.len() < count {
        ids.push(rng.below(u64::from(registry)) as u32);
    }
    ids
}

/// The bytes of a whole section: the bits byte, then for the configuration
/// it selects the palette as given (`count` announced, `ids` written, which
/// need not agree), then the storage of that configuration holding `values`.
pub(crate) fn section(
    strategy: &Strategy,
    byte: u8,
    count: i32,
    ids: &[u32],
    values: &[u64],
) -> Vec<u8> {
    let config = strategy.configuration(u32::from(byte));
    let mut out = vec![byte];
    match config.kind {
        PaletteKind::Single => out.extend(varint(ids.first().map_or(0, |&v| v as i32))),
        PaletteKind::Linear | PaletteKind::HashMap => {
            out.extend(varint(count));
            for &id in ids {
                out.extend(varint(id as i32));
            }
        }
        PaletteKind::Global => {}
    }
    out.extend(storage_bytes(config.bits, values));
    out
}

/// Puts the container into the configuration `byte` selects first, with a
/// well-formed read of that configuration (so the odd read that follows
/// reuses it in place), and returns the ids it holds.
pub(crate) fn read_in_place_first(rng: &mut Rng, sim: &mut Sim, byte: u8) -> Vec<u32> {
    let strategy = sim.strategy;
    let config = strategy.configuration(u32::from(byte));
    let registry = strategy.registry_size();
    let n = match capacity(config) {
        Some(cap) => rng.range(2.min(cap as u64), cap as u64) as usize,
        None => 1,
    };
    let ids = palette_ids(rng, n, registry);
    let values = match config.kind {
        PaletteKind::Global => indices(rng, strategy.size(), u64::from(registry)),
        _ => indices(rng, strategy.size(), n as u64),
    };
    let bytes = section(&strategy, byte, n as i32, &ids, &values);
    sim.read(&bytes);
    ids
}

/// The ops that reveal what a load left: every observation, then lookups,
/// a `get_and_set` and a `set` of a value the read listed (`listed`, when
/// it holds valid ids) and of one it did not, and the observations again.
pub(crate) fn reveal(rng: &mut Rng, sim: &mut Sim, listed: &[u32]) {
    let strategy = sim.strategy;
    let registry = strategy.registry_size();
    // A global palette of a big registry lists every id: too long to record
    // in every case.
    let palette = |sim: &Sim| sim.shadow.palette_kind() != PaletteKind::Global || registry <= 1024;
    sim.observe(&["bits"]);
    if palette(sim) {
        sim.observe(&["palette"]);
    }
    sim.observe(&["get_all", "counts", "write", "serialized_size", "pack"]);
    let valid: Vec<u32> = listed.iter().copied().filter(|&v| v < registry).collect();
    if let Some(&v) = valid.last() {
        sim.draft.maybe_has(v);
    }
    let absent = rng.below(u64::from(registry)) as u32;
    sim.draft.maybe_has(absent);
    for _ in 0..2 {
        let p = pos(rng, &strategy);
        sim.draft.get(p);
    }
    if !valid.is_empty() {
        // The last listed id sits at the highest palette index: where an
        // over-full palette's index stops fitting the storage.
        let v = valid[valid.len() - 1];
        let p = pos(rng, &strategy);
        sim.get_and_set(p, v);
        let v = rng.pick(&valid);
        let p = pos(rng, &strategy);
        sim.set(p, v);
    }
    let p = pos(rng, &strategy);
    sim.set(p, absent);
    sim.observe(&["bits"]);
    if palette(sim) {
        sim.observe(&["palette"]);
    }
    sim.observe(&["counts", "write", "pack"]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_are_minecrafts() {
        assert_eq!(varint(0), [0]);
        assert_eq!(varint(127), [0x7f]);
        assert_eq!(varint(128), [0x80, 0x01]);
        assert_eq!(varint(-1), [0xff, 0xff, 0xff, 0xff, 0x0f]);
        assert_eq!(padded_varint(0, 5), [0x80, 0x80, 0x80, 0x80, 0x00]);
        assert_eq!(padded_varint(3, 6).len(), 6);
    }

    /// A well-formed section built at a version reads back there, and only
    /// there when the version sends a long count: the count is where the
    /// forms differ.
    #[test]
    fn a_section_is_in_its_versions_wire_form() {
        use paletted::{PalettedContainer, Version};
        let values: Vec<u64> = (0..4096).map(|i| (i % 3) as u64).collect();
        for v in [Version::V1_20_1, Version::V1_21_4, Version::V26_3] {
            let strategy = Strategy::block_states(v.block_states()).with_rules(v.rules());
            let bytes = super::super::AT.with(|at| {
                let before = at.replace(v);
                let bytes = section(&strategy, 4, 3, &[7, 8, 9], &values);
                at.set(before);
                bytes
            });
            let mut c = PalettedContainer::new(0, strategy);
            c.read(&bytes).unwrap();
            assert_eq!(c.get_at(4095), [7, 8, 9][4095 % 3], "at {v}");
            let mut again = Vec::new();
            c.write(&mut again);
            assert_eq!(again, bytes, "at {v}");
            let long_count = v.rules().long_count();
            let mut other = PalettedContainer::new(0, strategy.with_rules(Version::V26_3.rules()));
            assert_eq!(other.read(&bytes).is_ok(), !long_count, "at {v}");
        }
    }

    #[test]
    fn packing_puts_the_first_value_in_the_low_bits() {
        assert_eq!(pack_longs(4, &[1, 2]), [0x21]);
        assert_eq!(pack_longs(5, &[1; 13]).len(), 2);
    }
}
