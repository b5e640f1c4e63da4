//! `BitStorage::from_longs` on arbitrary bits, sizes and longs: an `Err`, or a
//! storage whose every value is the documented unpacking of the longs (from
//! each long's low bits up, whole values only), and whose set, get_and_set
//! and fill act as they say. Never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use paletted::BitStorage;
use paletted_fuzz::Tape;

fuzz_target!(|data: &[u8]| {
    let mut t = Tape::new(data);
    let bits = u32::from(t.u8());
    let mode = t.u8();
    let raw_size = t.u32();
    let n = t.count(8);
    let longs: Vec<i64> = (0..n).map(|_| t.i64()).collect();
    // Half the inputs take a size that fits the longs given, so that the
    // success path is reached as often as the refusals.
    let size = match 64u32.checked_div(bits) {
        Some(per) if mode & 1 == 1 && per > 0 => {
            (longs.len() * per as usize).saturating_sub((raw_size % per) as usize)
        }
        // A 0-bit storage holds any size without longs; past 2^16 it only
        // costs time (every value is walked), so its sizes stay below.
        _ if bits == 0 => (raw_size % (1 << 16)) as usize,
        _ => raw_size as usize,
    };
    let Ok(mut s) = BitStorage::from_longs(bits, size, longs.clone()) else {
        return;
    };
    assert_eq!(s.len(), size);
    assert_eq!(s.bits(), bits);
    let mask = if bits == 0 {
        0
    } else {
        u64::MAX >> (64 - bits)
    };
    assert_eq!(u64::from(s.max_value()), mask);
    let expected = |i: usize| -> u32 {
        if bits == 0 {
            return 0;
        }
        let per = (64 / bits) as usize;
        ((longs[i / per] as u64 >> ((i % per) as u32 * bits)) & mask) as u32
    };
    let values = s.values();
    assert_eq!(values.len(), size);
    for (i, &v) in values.iter().enumerate() {
        assert_eq!(v, expected(i), "value {i}");
        assert_eq!(s.get(i), v, "get({i})");
    }
    let mut seen = 0;
    s.for_each(|i, v| {
        assert_eq!(i, seen);
        assert_eq!(v, values[i]);
        seen += 1;
    });
    assert_eq!(seen, size);
    if bits != 0 {
        assert_eq!(s.longs(), &longs[..], "longs kept exactly as given");
    }
    if size == 0 {
        return;
    }
    // A few writes from the rest of the input, each checked against a model.
    let mut model = values;
    while !t.is_empty() {
        let i = t.u32() as usize % size;
        let v = (t.u32() as u64 & mask) as u32;
        match t.u8() % 3 {
            0 => s.set(i, v),
            1 => assert_eq!(s.get_and_set(i, v), model[i], "get_and_set({i})"),
            _ => {
                s.fill(v);
                model.iter_mut().for_each(|m| *m = v);
            }
        }
        model[i] = v;
        assert_eq!(s.get(i), v);
    }
    assert_eq!(s.values(), model, "values after the writes");
});
