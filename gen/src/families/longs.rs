//! `longs`: the VarInt count of longs on the wire, up to 1.21.4. A
//! container of each palette kind writes itself at the version, then the
//! count is changed: one too few (8 bytes left unread), one too many (past
//! the bytes: `DecoderException`), one too many with 8 more bytes (read and
//! dropped), zero, far past the readable bytes, and negative; into a fresh
//! container and into one already in that configuration (reused in place).

use paletted::{Kind, PalettedContainer, Strategy};

use super::sizes::{distinct_for, filled, palettes};
use super::wire::varint;
use super::{full_registry, kind_name, kind_of, Family, Sim};
use crate::draft::Draft;
use crate::rng::Rng;

pub const FAMILY: Family = Family {
    name: "longs",
    about: "(versions up to 1.21.4) a container's own bytes with the long count one too few, \
            one too many, one too many with 8 more bytes, zero, past the readable bytes and \
            negative, fresh and in place; then bits, get, get_all, counts, write",
    variants,
    build,
};

const COUNTS: &[&str] = &["minus1", "plus1", "plus1room", "zero", "past", "neg"];

fn variants() -> Vec<String> {
    let mut v = Vec::new();
    for kind in [Kind::BlockStates, Kind::Biomes] {
        for palette in palettes(kind) {
            for count in COUNTS {
                for mode in ["fresh", "inplace"] {
                    v.push(format!("{}-{palette}-{count}-{mode}", kind_name(kind)));
                }
            }
        }
    }
    v
}

/// `c`'s bytes at its version with the long count replaced by `count`, and
/// `extra` zero longs after its longs.
fn recounted(c: &PalettedContainer, count: i32, extra: usize) -> Vec<u8> {
    let mut bytes = Vec::new();
    c.write(&mut bytes);
    let longs = c.storage().longs().len();
    let tail = 8 * longs;
    let head = bytes.len() - tail - varint(longs as i32).len();
    let mut out = bytes[..head].to_vec();
    out.extend(varint(count));
    out.extend_from_slice(&bytes[bytes.len() - tail..]);
    out.extend(std::iter::repeat_n(0u8, 8 * extra));
    out
}

fn build(variant: &str, rng: &mut Rng, seed: u64, name: String) -> Draft {
    let kind = kind_of(variant);
    let parts: Vec<&str> = variant.rsplitn(3, '-').collect();
    let (mode, class) = (parts[0], parts[1]);
    let palette = parts[2].rsplit('-').next().unwrap_or("single");
    let registry = full_registry(kind);
    let strategy = Strategy::with(kind, registry);
    let n = distinct_for(rng, kind, palette, registry);
    let mut sim = Sim::new("longs", seed, name, strategy, 0);
    let global = palette == "global";
    if mode == "inplace" {
        // A well-formed read of the same configuration first.
        let first = filled(rng, sim.strategy, n, global);
        let mut bytes = Vec::new();
        first.write(&mut bytes);
        sim.read(&bytes);
        sim.observe(&["bits"]);
    }
    let c = filled(rng, sim.strategy, n, global);
    let longs = c.storage().longs().len() as i32;
    let (count, extra) = match class {
        "minus1" => (longs - 1, 0),
        "plus1" => (longs + 1, 0),
        "plus1room" => (longs + 1, 1),
        "zero" => (0, 0),
        "past" => (rng.range(1 << 20, 1 << 28) as i32, 0),
        _ => (-(rng.range(1, 1 << 20) as i32), 0),
    };
    let bytes = recounted(&c, count, extra);
    sim.read(&bytes);
    sim.draft.notes = format!(
        "a {palette} container of {n} values ({longs} longs) read with a long count of {count}{}, \
         into a {}",
        if extra > 0 { " and 8 more bytes" } else { "" },
        if mode == "fresh" {
            "fresh container"
        } else {
            "container of that configuration"
        }
    );
    sim.draft.get((0, 0, 0));
    sim.observe(&["bits", "get_all", "counts"]);
    if !global {
        sim.observe(&["palette"]);
    }
    sim.observe(&["write"]);
    sim.draft
}
