//! `storage`: `SimpleBitStorage`/`ZeroBitStorage` of every width 0..=32.

use super::Family;
use crate::draft::Draft;
use crate::rng::Rng;

pub const FAMILY: Family = Family {
    name: "storage",
    about: "bit storage of every width 0-32 at size 4096, and sizes 1, 64, 256, 300 and a random one \
            for widths 1, 5, 9, 31, 32: get/set/get_and_set, fill, values, longs, loads of the right \
            length and one too few or many, out-of-range indices and values",
    variants,
    build,
};

fn variants() -> Vec<String> {
    let mut v: Vec<String> = (0..=32).map(|b| format!("bits-{b}")).collect();
    for b in [1, 5, 9, 31, 32] {
        for n in ["1", "64", "256", "300", "random"] {
            v.push(format!("bits-{b}-n{n}"));
        }
    }
    v
}

/// Longs `bits`-wide values take in a storage of `size`.
fn longs_for(bits: u32, size: usize) -> usize {
    64u32
        .checked_div(bits)
        .map_or(0, |per| size.div_ceil(per as usize))
}

fn build(variant: &str, rng: &mut Rng, seed: u64, name: String) -> Draft {
    let mut parts = variant.trim_start_matches("bits-").split("-n");
    let bits: u32 = parts.next().and_then(|b| b.parse().ok()).unwrap_or(1);
    let size: usize = match parts.next() {
        None => 4096,
        Some("random") => rng.range(1, 5000) as usize,
        Some(n) => n.parse().unwrap_or(1),
    };
    let mut d = Draft::storage("storage", seed, name, bits, size);
    // `fill` came with 26.3; earlier storages have none.
    let has_fill = super::at_version().rules().has_fill();
    d.notes = format!("bit storage of {bits} bits, {size} values");
    // Java ints: a 32-bit storage holds values up to 2^31 - 1 there.
    let max: i64 = if bits == 0 {
        0
    } else {
        ((1i64 << bits) - 1).min(i64::from(i32::MAX))
    };
    let n = longs_for(bits, size);
    let index = |rng: &mut Rng| -> i64 {
        match rng.below(8) {
            0 => 0,
            1 => size as i64 - 1,
            2 | 3 => super::long_edge(rng, bits, size) as i64,
            _ => rng.below(size as u64) as i64,
        }
    };
    let value = |rng: &mut Rng| -> i64 {
        match rng.below(6) {
            0 => 0,
            1 => max,
            2 => (max - 1).max(0),
            _ => rng.range(0, max as u64) as i64,
        }
    };
    let random_ops = |d: &mut Draft, rng: &mut Rng, count: usize| {
        for _ in 0..count {
            match rng.below(10) {
                0..=3 => d.s_get(index(rng)),
                4..=6 => d.s_set(index(rng), value(rng)),
                _ => d.s_get_and_set(index(rng), value(rng)),
            }
        }
    };
    for op in ["bits", "size", "longs"] {
        d.bare(op);
    }
    let k = rng.range(30, 60) as usize;
    random_ops(&mut d, rng, k);
    d.bare("values");
    d.bare("longs");
    if has_fill {
        d.fill(value(rng));
    }
    for _ in 0..3 {
        d.s_get(index(rng));
    }
    d.bare("longs");

    // A load of the right length with every bit random.
    let longs: Vec<i64> = (0..n).map(|_| rng.next_i64()).collect();
    d.load(bits, size, &longs);
    for op in ["bits", "size", "values", "longs"] {
        d.bare(op);
    }
    let k = rng.range(15, 30) as usize;
    random_ops(&mut d, rng, k);
    d.bare("values");
    d.bare("longs");

    // Loads of the wrong length (for 0 bits any longs are accepted).
    let fewer = n.saturating_sub(1);
    let short: Vec<i64> = (0..if bits == 0 { 1 } else { fewer })
        .map(|_| rng.next_i64())
        .collect();
    if bits == 0 || n > 0 {
        d.load(bits, size, &short);
    }
    let long: Vec<i64> = (0..n + 1 + usize::from(bits == 0))
        .map(|_| rng.next_i64())
        .collect();
    d.load(bits, size, &long);

    // Out of range: indices just past each end, values just past the mask.
    d.s_get(size as i64);
    d.s_get(-1);
    let over = if bits >= 31 { -1 } else { max + 1 };
    d.s_set(index(rng), over);
    d.s_get_and_set(size as i64, 0);
    d.s_set(-1, 0);
    if has_fill {
        d.fill(-1);
        d.fill(max);
    }
    d.bare("longs");
    d
}
