//! Each version's container rules (the versions page, `minecraft-versions.md`):
//! the long count on the wire, `getSerializedSize` and its bug, reads of a
//! count that does not match, global configurations' equality, `fill`, the
//! declared bit count, and the section's counters.

use paletted::{
    BitStorage, Error, Kind, Packed, PaletteKind, PalettedContainer, Rules, Section, StateTable,
    Strategy, Version,
};

/// One of each palette kind, in `s`: single, linear, hash map, global.
fn one_of_each(s: Strategy) -> Vec<PalettedContainer> {
    let n = s.size() as u32;
    let distinct = |k: u32| -> Vec<u32> { (0..n).map(|i| i % k).collect() };
    let kinds: &[u32] = match s.kind() {
        Kind::BlockStates => &[1, 3, 20, 300],
        Kind::Biomes => &[1, 3, 8, 20],
    };
    kinds
        .iter()
        .map(|&k| PalettedContainer::from_values(s, &distinct(k)))
        .collect()
}

/// The same palette, storage and wire bytes.
fn same(a: &PalettedContainer, b: &PalettedContainer) -> bool {
    a.palette() == b.palette() && a.storage() == b.storage() && sent(a) == sent(b)
}

fn sent(c: &PalettedContainer) -> Vec<u8> {
    let mut out = Vec::new();
    c.write(&mut out);
    out
}

/// Where the palette ends in `bytes` (the bits byte and the palette's VarInts).
fn palette_end(c: &PalettedContainer) -> usize {
    let mut out = Vec::new();
    c.write(&mut out);
    let longs = 8 * c.storage().longs().len();
    let counted = c.strategy().rules().long_count();
    let count_len = if counted {
        paletted::wire::varint_len(c.storage().longs().len() as u32)
    } else {
        0
    };
    out.len() - longs - count_len
}

#[test]
fn the_strategy_keeps_its_size_and_26x_is_the_default() {
    assert_eq!(std::mem::size_of::<Strategy>(), 12);
    assert_eq!(Strategy::block_states(35_723).rules(), Rules::V26_1);
    assert_eq!(Strategy::biomes(65).rules(), Rules::default());
    assert_eq!(Version::default(), Version::V26_3);
    assert_eq!(
        Version::LATEST.block_strategy(),
        Strategy::block_states(35_723)
    );
}

#[test]
fn registry_sizes_are_the_pages() {
    let sizes: Vec<_> = Version::ALL
        .iter()
        .map(|v| (v.name(), v.data_version(), v.block_states(), v.biomes()))
        .collect();
    assert_eq!(
        sizes,
        [
            ("1.18.2", 2975, 20_342, 61),
            ("1.19.4", 3337, 23_725, 63),
            ("1.20.1", 3465, 24_135, 64),
            ("1.21.4", 4189, 27_866, 65),
            ("26.1", 4786, 29_873, 65),
            ("26.3", 5023, 35_723, 65),
        ]
    );
    let rules: Vec<_> = Version::ALL.iter().map(Version::rules).collect();
    use Rules::*;
    assert_eq!(rules, [V1_18_2, V1_18_2, V1_18_2, V1_20_2, V26_1, V26_1]);
}

#[test]
fn a_long_count_precedes_the_longs_up_to_1_21_4_and_not_in_26() {
    for v in Version::ALL {
        for s in [v.block_strategy(), v.biome_strategy()] {
            for c in one_of_each(s) {
                let bytes = sent(&c);
                let at = palette_end(&c);
                let longs = c.storage().longs();
                let mut count = Vec::new();
                paletted::wire::write_varint(&mut count, longs.len() as u32);
                let expected_count: &[u8] = if v.rules().long_count() { &count } else { &[] };
                assert_eq!(
                    &bytes[at..at + expected_count.len()],
                    expected_count,
                    "{v} {:?} {:?}",
                    s.kind(),
                    c.palette_kind()
                );
                let rest = &bytes[at + expected_count.len()..];
                assert_eq!(rest.len(), 8 * longs.len(), "{v}");
                for (chunk, &l) in rest.chunks(8).zip(longs) {
                    assert_eq!(chunk, l.to_be_bytes());
                }
                // Strict and lenient reads give the container back (a 26.x
                // global configuration also remembers the bits byte, which
                // `c` did not come from: compare what can be seen).
                let (back, used) = PalettedContainer::from_wire(s, &bytes).unwrap();
                assert_eq!(used, bytes.len(), "{v}");
                assert!(same(&back, &c), "{v} {:?}", c.palette_kind());
                let mut lenient = PalettedContainer::new(0, s);
                assert_eq!(lenient.read_lenient(&bytes), Ok(bytes.len()));
                assert!(same(&lenient, &c), "{v} {:?}", c.palette_kind());
            }
        }
    }
}

#[test]
fn the_exact_bytes_of_a_small_container_per_version() {
    let values: Vec<u32> = (0..64).map(|i| i % 2).collect();
    for (v, expected) in [
        (Version::V1_18_2, vec![1, 2, 0, 1, 1]),
        (Version::V1_20_1, vec![1, 2, 0, 1, 1]),
        (Version::V1_21_4, vec![1, 2, 0, 1, 1]),
        (Version::V26_1, vec![1, 2, 0, 1]),
        (Version::V26_3, vec![1, 2, 0, 1]),
    ] {
        let c = PalettedContainer::from_values(v.biome_strategy(), &values);
        let bytes = sent(&c);
        assert_eq!(&bytes[..bytes.len() - 8], expected, "{v}");
        assert_eq!(
            bytes[bytes.len() - 8..],
            0xaaaa_aaaa_aaaa_aaaau64.to_be_bytes()
        );
    }
}

#[test]
fn serialized_size_has_the_bug_up_to_1_20_1_and_is_exact_after() {
    for v in Version::ALL {
        for s in [v.block_strategy(), v.biome_strategy()] {
            for c in one_of_each(s) {
                let written = sent(&c).len();
                let bug = match (v.rules(), s.kind(), c.palette_kind()) {
                    (Rules::V1_18_2, Kind::BlockStates, PaletteKind::Single) => 1,
                    (Rules::V1_18_2, _, PaletteKind::Global) => 1,
                    _ => 0,
                };
                assert_eq!(
                    c.serialized_size(),
                    written + bug,
                    "{v} {:?} {:?}",
                    s.kind(),
                    c.palette_kind()
                );
            }
        }
    }
    // The page's own numbers, 1.20.1.
    let v = Version::V1_20_1;
    let single = PalettedContainer::new(0, v.block_strategy());
    assert_eq!((single.serialized_size(), sent(&single).len()), (4, 3));
    let [.., global] = &one_of_each(v.block_strategy())[..] else {
        unreachable!()
    };
    assert_eq!(global.palette_kind(), PaletteKind::Global);
    assert_eq!((global.serialized_size(), sent(global).len()), (8196, 8195));
    let [.., global] = &one_of_each(v.biome_strategy())[..] else {
        unreachable!()
    };
    assert_eq!((global.serialized_size(), sent(global).len()), (59, 58));
}

/// A 4-bit linear block container (palette [0, 1]) and its 1.20.1 bytes.
fn linear_1_20_1() -> (PalettedContainer, Vec<u8>) {
    let s = Version::V1_20_1.block_strategy();
    let values: Vec<u32> = (0..4096).map(|i| u32::from(i % 3 == 0)).collect();
    let c = PalettedContainer::from_values(s, &values);
    let bytes = sent(&c);
    assert_eq!(&bytes[..6], &[4, 2, 1, 0, 0x80, 0x02]);
    (c, bytes)
}

/// `bytes` (a 4-bit container's) with the long count `count` and `longs`
/// of its 256 longs, and `extra` zero bytes after.
fn recounted(bytes: &[u8], count: u32, longs: usize, extra: usize) -> Vec<u8> {
    let mut out = bytes[..4].to_vec();
    paletted::wire::write_varint(&mut out, count);
    out.extend_from_slice(&bytes[6..6 + 8 * longs]);
    out.resize(out.len() + extra, 0);
    out
}

#[test]
fn one_long_too_few_into_a_fresh_configuration_lies_over_zeroed_storage() {
    let (_, bytes) = linear_1_20_1();
    let short = recounted(&bytes, 255, 256, 0);
    let mut c = PalettedContainer::new(7, Version::V1_20_1.block_strategy());
    // 255 longs read and dropped: 8 bytes stay unread.
    assert_eq!(c.read_lenient(&short), Ok(short.len() - 8));
    assert_eq!(c.palette(), [1, 0]);
    assert_eq!(c.palette_kind(), PaletteKind::Linear);
    assert!(c.storage().longs().iter().all(|&l| l == 0));
    assert!(c.iter().all(|(_, v)| v == 1));
    // The strict read refuses it and keeps what it had.
    let mut strict = PalettedContainer::new(7, Version::V1_20_1.block_strategy());
    assert_eq!(
        strict.read(&short),
        Err(Error::LongCount {
            count: 255,
            expected: 256
        })
    );
    assert_eq!(strict, PalettedContainer::new(7, strict.strategy()));
}

#[test]
fn one_long_too_few_in_place_keeps_the_old_storage_under_the_new_palette() {
    let (old, bytes) = linear_1_20_1();
    let mut c = old.clone();
    // The same configuration (4-bit linear), a new palette [5, 6].
    let mut short = recounted(&bytes, 255, 256, 0);
    short[2..4].copy_from_slice(&[5, 6]);
    assert_eq!(c.read_lenient(&short), Ok(short.len() - 8));
    assert_eq!(c.palette(), [5, 6]);
    assert_eq!(c.storage(), old.storage());
    assert_eq!(c.get_at(0), 5);
    assert_eq!(c.get_at(1), 6);
    let mut strict = old.clone();
    assert!(matches!(
        strict.read(&short),
        Err(Error::LongCount { count: 255, .. })
    ));
    assert_eq!(strict, old);
}

#[test]
fn one_long_too_many_is_netty_s_decoder_exception() {
    let (old, bytes) = linear_1_20_1();
    let long = recounted(&bytes, 257, 256, 0);
    // Before the count: 2 + 256 x 8 bytes unread, room for 256 longs.
    let too_big = Err(Error::LongArrayTooBig {
        size: 257,
        allowed: 256,
    });
    assert_eq!(
        too_big.clone().unwrap_err().to_string(),
        "LongArray with size 257 is bigger than allowed 256"
    );
    // Into a fresh configuration: the container keeps what it had.
    let fresh = PalettedContainer::new(7, Version::V1_20_1.block_strategy());
    let mut c = fresh.clone();
    assert_eq!(c.read_lenient(&long), too_big);
    assert_eq!(c, fresh);
    // In place: the palette is already overwritten, the storage is not.
    let mut c = old.clone();
    let mut renamed = long.clone();
    renamed[2..4].copy_from_slice(&[5, 6]);
    assert_eq!(c.read_lenient(&renamed), too_big);
    assert_eq!(c.palette(), [5, 6]);
    assert_eq!(c.storage(), old.storage());
    // Strict: refused, unchanged.
    let mut c = old.clone();
    assert!(matches!(c.read(&renamed), Err(Error::LongCount { .. })));
    assert_eq!(c, old);
}

#[test]
fn one_long_too_many_with_room_reads_and_drops_them() {
    let (_, bytes) = linear_1_20_1();
    let long = recounted(&bytes, 257, 256, 8);
    let mut c = PalettedContainer::new(7, Version::V1_20_1.block_strategy());
    assert_eq!(c.read_lenient(&long), Ok(long.len()));
    assert_eq!(c.palette(), [1, 0]);
    assert!(c.storage().longs().iter().all(|&l| l == 0));
}

#[test]
fn a_count_past_the_bytes_or_cut_short_fails_as_netty_does() {
    let (_, bytes) = linear_1_20_1();
    let s = Version::V1_20_1.block_strategy();
    // 200 longs announced, 100 present: more than the bytes hold.
    let cut = recounted(&bytes, 200, 100, 0);
    let mut c = PalettedContainer::new(7, s);
    assert!(matches!(
        c.read_lenient(&cut),
        Err(Error::LongArrayTooBig {
            size: 200,
            allowed: 100
        })
    ));
    // Room before the count, none after it: 2 bytes of count, 8 x 10 - 1
    // bytes of longs and padding.
    let mut tight = bytes[..4].to_vec();
    paletted::wire::write_varint(&mut tight, 10);
    tight.resize(tight.len() + 8 * 10 - 1, 0);
    // Unread before the count: 1 + 79 = 80 bytes, room for 10.
    assert!(matches!(
        c.read_lenient(&tight),
        Err(Error::Truncated { needed: 8, .. })
    ));
    assert_eq!(c, PalettedContainer::new(7, s));
    // A negative count: Java's `new long[-1]` fails.
    let mut negative = bytes[..4].to_vec();
    paletted::wire::write_varint(&mut negative, u32::MAX);
    assert_eq!(
        c.read_lenient(&negative),
        Err(Error::NegativeLength { len: -1 })
    );
}

#[test]
fn global_configurations_are_one_up_to_1_21_4() {
    // A global container read at byte 15, then a read at byte 33 cut short
    // in its longs: up to 1.21.4 the two configurations are equal, so the
    // read is in place and the first long is overwritten; in 26.x they
    // differ and the failed read leaves the container as it was.
    for v in Version::ALL {
        let s = v.block_strategy();
        let [.., global] = &one_of_each(s)[..] else {
            unreachable!()
        };
        let longs = global.storage().longs().len();
        let mut cut = vec![33];
        if v.rules().long_count() {
            paletted::wire::write_varint(&mut cut, longs as u32);
        }
        cut.extend_from_slice(&(-1i64).to_be_bytes());
        let mut c = global.clone();
        assert!(matches!(c.read_lenient(&cut), Err(Error::Truncated { .. })));
        let overwritten = c.storage().longs()[0] == -1;
        assert_eq!(overwritten, v.rules().global_configurations_equal(), "{v}");
        assert_eq!(c.storage().longs()[1..], global.storage().longs()[1..]);
    }
}

#[test]
fn fill_exists_only_in_26() {
    for v in Version::ALL {
        let mut s = BitStorage::new(5, 64);
        s.set(3, 9);
        let before = s.clone();
        let got = s.try_fill_in(v.rules(), 1);
        if v.rules().has_fill() {
            assert_eq!(got, Ok(()), "{v}");
            assert!((0..64).all(|i| s.get(i) == 1));
        } else {
            let err = got.unwrap_err();
            assert_eq!(
                err,
                Error::Unsupported {
                    operation: "fill",
                    rules: v.rules()
                }
            );
            assert!(
                err.to_string().starts_with("fill does not exist in 1."),
                "{err}"
            );
            assert_eq!(s, before, "{v}");
        }
    }
    assert_eq!(Version::V26_1.rules(), Version::V26_3.rules());
}

#[test]
fn the_bit_count_is_declared_and_checked_only_in_26() {
    let values: Vec<u32> = (0..4096).map(|i| i % 20).collect();
    for v in Version::ALL {
        let s = v.block_strategy();
        let c = PalettedContainer::from_values(s, &values);
        let packed = c.pack();
        let declared = if v.rules().declares_bits() { 5 } else { -1 };
        assert_eq!(packed.bits, declared, "{v}");
        assert_eq!(PalettedContainer::unpack(s, packed.clone()).unwrap(), c);
        let wrong = Packed { bits: 6, ..packed };
        let mismatch = Err(Error::BitCount {
            calculated: 5,
            declared: 6,
        });
        // The strict load refuses the inconsistency in every version.
        assert_eq!(PalettedContainer::unpack(s, wrong.clone()), mismatch, "{v}");
        let lenient = PalettedContainer::unpack_lenient(s, wrong);
        if v.rules().declares_bits() {
            assert_eq!(lenient, mismatch, "{v}");
        } else {
            assert_eq!(lenient.unwrap(), c, "{v}");
        }
    }
}

#[test]
fn a_section_sends_one_counter_up_to_1_21_4_and_two_in_26() {
    let kinds = StateTable::new(&[0], &[86]);
    for v in Version::ALL {
        let blocks = PalettedContainer::new(0, v.block_strategy());
        let biomes = PalettedContainer::new(1, v.biome_strategy());
        let mut section = Section::new(blocks, biomes, &kinds);
        section.set(0, 0, 0, 1, &kinds);
        section.set(1, 0, 0, 86, &kinds);
        let mut out = Vec::new();
        section.write(&mut out);
        let containers = sent(section.blocks()).len() + sent(section.biomes()).len();
        let (head, fluids): (&[u8], i16) = if v.rules().fluid_count() {
            (&[0, 2, 0, 1], 1)
        } else {
            (&[0, 2], 0)
        };
        assert_eq!(&out[..head.len()], head, "{v}");
        assert_eq!(out.len(), head.len() + containers, "{v}");
        assert_eq!(
            section.serialized_size(),
            head.len() + section.blocks().serialized_size() + section.biomes().serialized_size(),
            "{v}"
        );
        let (back, used) =
            Section::from_wire(v.block_strategy(), v.biome_strategy(), &out).unwrap();
        assert_eq!(used, out.len());
        assert_eq!(back.non_empty_block_count(), 2);
        assert_eq!(back.fluid_count(), fluids);
        assert_eq!(back.blocks(), section.blocks());
        assert_eq!(back.biomes(), section.biomes());
    }
}
