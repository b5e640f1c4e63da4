//! `wire-varint`: VarInts Minecraft's writer never sends: padded to five
//! bytes, five bytes by value, six and more (too big), cut off inside, and
//! ids at and just past the registry, in the single id, the count and a
//! list id.

use paletted::{Configuration, Kind, PaletteKind, Strategy};

use super::wire::{
    capacity, indices, padded_varint, palette_ids, read_in_place_first, reveal, storage_bytes,
    varint,
};
use super::{full_registry, kind_name, kind_of, Family, Sim};
use crate::draft::Draft;
use crate::rng::Rng;

pub const FAMILY: Family = Family {
    name: "wire-varint",
    about: "hand-built wire reads with a VarInt padded to five bytes, five bytes by value, six or \
            more bytes, cut off inside, or an id at or past the registry, in a single-value id, a \
            list palette's count or one of its ids; registries up to 2^21 + 1 (ids of 4-5 bytes)",
    variants,
    build,
};

const ID_FORMS: &[&str] = &["pad5", "big5", "pad6", "long", "eof", "last", "reg"];
const COUNT_FORMS: &[&str] = &["pad5", "pad6", "long", "eof", "max5"];

fn variants() -> Vec<String> {
    let mut v = Vec::new();
    for kind in [Kind::BlockStates, Kind::Biomes] {
        for (place, forms) in [
            ("single", ID_FORMS),
            ("count", COUNT_FORMS),
            ("id", ID_FORMS),
        ] {
            for form in forms {
                v.push(format!("{}-{place}-{form}", kind_name(kind)));
            }
        }
    }
    v
}

/// The odd VarInt of a form for `value` (what a well-formed writer would
/// send there), and whether the input ends right after it.
fn odd(rng: &mut Rng, form: &str, value: i32, registry: u32) -> (Vec<u8>, bool) {
    match form {
        "pad5" => (padded_varint(value, 5), false),
        "big5" => (varint(rng.range(1 << 28, i32::MAX as u64) as i32), false),
        "max5" => (varint(i32::MAX), false),
        "pad6" => (padded_varint(value, 6), false),
        "long" => (padded_varint(value, rng.range(7, 12) as usize), false),
        "eof" => {
            // Continuation bits set to the end of the input.
            let n = rng.range(1, 4) as usize;
            (vec![0x80 | (rng.below(128) as u8); n], true)
        }
        "last" => {
            let len = rng.range(1, 5) as usize;
            (padded_varint(registry as i32 - 1, len), false)
        }
        _ => {
            let len = rng.range(1, 5) as usize;
            (padded_varint(registry as i32, len), false)
        }
    }
}

fn build(variant: &str, rng: &mut Rng, seed: u64, name: String) -> Draft {
    let kind = kind_of(variant);
    let parts: Vec<&str> = variant.rsplitn(3, '-').collect();
    let (form, place) = (parts[0], parts[1]);
    let registry = if rng.chance(1, 3) {
        (1 << 21) + 1
    } else {
        full_registry(kind)
    };
    let strategy = Strategy::with(kind, registry);
    let initial = rng.below(u64::from(registry)) as u32;
    let mut sim = Sim::new("wire-varint", seed, name, strategy, initial);
    let byte: u8 = match (place, kind) {
        ("single", _) => 0,
        (_, Kind::BlockStates) => rng.range(1, 8) as u8,
        (_, Kind::Biomes) => rng.range(1, 3) as u8,
    };
    let config: Configuration = strategy.configuration(u32::from(byte));
    let inplace = rng.chance(1, 2);
    if inplace {
        read_in_place_first(rng, &mut sim, byte);
    }
    let cap = capacity(config).unwrap_or(1);
    let count = rng.range(1, cap as u64) as usize;
    let ids = palette_ids(rng, count, registry);
    let mut bytes = vec![byte];
    let mut ended = false;
    match place {
        "single" => {
            let (v, end) = odd(rng, form, ids[0] as i32, registry);
            bytes.extend(v);
            ended = end;
        }
        "count" => {
            let (v, end) = odd(rng, form, count as i32, registry);
            bytes.extend(v);
            ended = end;
            if !end {
                ids.iter().for_each(|&id| bytes.extend(varint(id as i32)));
            }
        }
        _ => {
            bytes.extend(varint(count as i32));
            let at = rng.below(count as u64) as usize;
            for (k, &id) in ids.iter().enumerate() {
                if k == at {
                    let (v, end) = odd(rng, form, id as i32, registry);
                    bytes.extend(v);
                    if end {
                        ended = true;
                        break;
                    }
                } else {
                    bytes.extend(varint(id as i32));
                }
            }
        }
    }
    if !ended {
        let bound = if config.kind == PaletteKind::Single {
            1
        } else {
            count as u64
        };
        bytes.extend(storage_bytes(
            config.bits,
            &indices(rng, strategy.size(), bound),
        ));
    }
    sim.read(&bytes);
    sim.draft.notes = format!(
        "a read (bits byte {byte}, registry {registry}, {}) with a {form} VarInt in the {place}",
        if inplace { "in place" } else { "fresh" }
    );
    reveal(rng, &mut sim, &ids);
    sim.draft
}
