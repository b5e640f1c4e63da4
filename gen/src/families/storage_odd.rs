//! `storage-odd`: bit storage loaded at widths and sizes other than the
//! subject's: 0 and 1 values, odd sizes, sizes past a section, every kind of
//! width and widths Minecraft refuses; loads of the right length and one
//! long off; then the edges of every op.

use super::Family;
use crate::draft::Draft;
use crate::rng::Rng;

pub const FAMILY: Family = Family {
    name: "storage-odd",
    about: "storage loads at other widths (0, 1, 2-16, 17-31, 32, and 33, 64, -1, i32::MIN) and \
            sizes (0, 1, odd, 4096, past 4096) than the subject's, right length or one long off; \
            then get, set, get_and_set and fill at the index and value edges, values, longs",
    variants,
    build,
};

const WIDTHS: &[&str] = &["w0", "w1", "wsmall", "wbig", "w32", "wbad"];
const SIZES: &[&str] = &["n0", "n1", "nodd", "n4096", "nlarge"];

fn variants() -> Vec<String> {
    let mut v = Vec::new();
    for w in WIDTHS {
        for n in SIZES {
            v.push(format!("{w}-{n}"));
        }
    }
    v
}

fn build(variant: &str, rng: &mut Rng, seed: u64, name: String) -> Draft {
    let (w, n) = variant.split_once('-').unwrap_or(("w1", "n1"));
    let bits: i64 = match w {
        "w0" => 0,
        "w1" => 1,
        "wsmall" => rng.range(2, 16) as i64,
        "wbig" => rng.range(17, 31) as i64,
        "w32" => 32,
        _ => {
            let other = rng.range(34, 1000) as i64;
            rng.pick(&[33, 64, -1, i64::from(i32::MIN), other])
        }
    };
    let size: i64 = match n {
        "n0" => 0,
        "n1" => 1,
        "nodd" => rng.range(1, 150) as i64 * 2 + 1,
        "n4096" => 4096,
        _ => rng.range(4097, 5000) as i64,
    };
    // The subject: some other shape.
    let (sbits, ssize) = (rng.range(0, 32) as u32, rng.pick(&[1usize, 64, 300, 4096]));
    let mut d = Draft::storage("storage-odd", seed, name, sbits, ssize);
    d.notes = format!("a {sbits}-bit storage of {ssize} loaded as {bits} bits, {size} values");
    let per = if (1..=32).contains(&bits) {
        64 / bits
    } else {
        0
    };
    let right = if per == 0 { 0 } else { (size + per - 1) / per };
    let longs = match rng.below(6) {
        0 => right + 1,
        1 => (right - 1).max(0),
        _ => right,
    };
    let longs: Vec<i64> = (0..longs).map(|_| rng.next_i64()).collect();
    d.load_raw(bits, size, &longs);
    for op in ["bits", "size", "longs"] {
        d.bare(op);
    }
    // The storage in use now: the load's, if Minecraft took it.
    let took = (0..=32).contains(&bits) && (bits == 0 || longs.len() as i64 == right);
    let (bits, size) = if took {
        (bits, size)
    } else {
        (i64::from(sbits), ssize as i64)
    };
    let max = if bits == 0 {
        0
    } else {
        ((1i64 << bits) - 1).min(i64::from(i32::MAX))
    };
    let last = (size - 1).max(0);
    for index in [0, last, size, -1] {
        d.s_get(index);
    }
    d.s_set(last, max);
    d.s_set(0, if bits >= 31 { -1 } else { max + 1 });
    d.s_get_and_set(last, rng.range(0, max as u64) as i64);
    d.s_get_and_set(size, 0);
    if super::at_version().rules().has_fill() {
        d.fill(rng.range(0, max as u64) as i64);
    }
    d.s_get(last);
    d.bare("longs");
    if size <= 4096 {
        d.bare("values");
    }
    d
}
