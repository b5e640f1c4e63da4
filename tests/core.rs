//! What the golden cases do not reach: misuse panics, the 2^26 limit, every
//! error of `read`, `unpack` and `from_longs`, and untrusted input that must
//! give an `Err`, never a panic.

use paletted::{BitStorage, Error, NULL, Packed, PaletteKind, PalettedContainer, Strategy};

const BLOCKS: u32 = 35723;

fn blocks() -> Strategy {
    Strategy::block_states(BLOCKS)
}

/// A container holding `n` distinct values 0..n, set one at a time.
fn with_values(strategy: Strategy, n: u32) -> PalettedContainer {
    let mut c = PalettedContainer::new(0, strategy);
    for v in 0..n {
        c.set_at(v as usize, v);
    }
    c
}

fn written(c: &PalettedContainer) -> Vec<u8> {
    let mut out = Vec::new();
    c.write(&mut out);
    out
}

/// A tiny deterministic generator, so failures reproduce.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

// --- misuse panics ---------------------------------------------------------

#[test]
#[should_panic(expected = "a registry needs at least one value")]
fn an_empty_registry_panics() {
    Strategy::biomes(0);
}

#[test]
#[should_panic(expected = "value 35723 is not below the registry size 35723")]
fn a_value_outside_the_registry_panics_at_new() {
    PalettedContainer::new(BLOCKS, blocks());
}

#[test]
#[should_panic(expected = "value 65 is not below the registry size 65")]
fn a_value_outside_the_registry_panics_at_set() {
    PalettedContainer::new(0, Strategy::biomes(65)).set(0, 0, 0, 65);
}

#[test]
#[should_panic(expected = "position (16, 0, 0) is outside a container of 16 x 16 x 16")]
fn a_position_outside_the_container_panics() {
    PalettedContainer::new(0, blocks()).get(16, 0, 0);
}

#[test]
#[should_panic(expected = "position (0, -1, 0) is outside a container of 4 x 4 x 4")]
fn a_negative_position_panics() {
    PalettedContainer::new(0, Strategy::biomes(65)).get(0, -1, 0);
}

#[test]
#[should_panic(expected = "The value 4096 is not in the specified inclusive range of 0 to 4095")]
fn an_index_outside_the_container_panics() {
    PalettedContainer::new(0, blocks()).get_at(4096);
}

#[test]
#[should_panic(expected = "The value 16 is not in the specified inclusive range of 0 to 15")]
fn a_storage_value_too_wide_panics() {
    BitStorage::new(4, 10).set(0, 16);
}

#[test]
#[should_panic(expected = "The value 10 is not in the specified inclusive range of 0 to 9")]
fn a_storage_index_outside_panics() {
    BitStorage::new(4, 10).get(10);
}

#[test]
#[should_panic(expected = "bits must be 0 to 32")]
fn more_than_32_bits_panics() {
    BitStorage::new(33, 1);
}

#[test]
#[should_panic(expected = "size at most 2^26")]
fn more_than_2_26_values_panics() {
    BitStorage::new(1, (1 << 26) + 1);
}

#[test]
#[should_panic(expected = "Missing Palette entry for id 0.")]
fn reading_an_unset_single_value_panics_in_the_plain_accessor() {
    let c = PalettedContainer::unpack_lenient(blocks(), Packed::new(vec![], None)).unwrap();
    c.get(0, 0, 0);
}

// --- the 2^26 limit ----------------------------------------------------------

#[test]
fn the_largest_storage_finds_its_last_values() {
    for bits in [1, 3, 7, 21] {
        let size = 1 << 26;
        let mut s = BitStorage::new(bits, size);
        let top = s.max_value();
        for i in [0, 1, size / 3, size - 2, size - 1] {
            s.set(i, top - (i as u32 & 1));
        }
        for i in [0, 1, size / 3, size - 2, size - 1] {
            assert_eq!(s.get(i), top - (i as u32 & 1), "bits {bits} index {i}");
        }
        let per_long = 64 / bits as usize;
        assert_eq!(s.longs().len(), size.div_ceil(per_long));
    }
}

#[test]
fn from_longs_refuses_what_new_panics_on() {
    assert_eq!(
        BitStorage::from_longs(33, 4, vec![]),
        Err(Error::StorageShape { bits: 33, size: 4 })
    );
    assert_eq!(
        BitStorage::from_longs(1, (1 << 26) + 1, vec![]),
        Err(Error::StorageShape {
            bits: 1,
            size: (1 << 26) + 1
        })
    );
    let e = BitStorage::from_longs(5, 4096, vec![0; 341]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "Invalid length given for storage, got: 341 but expected: 342"
    );
    // Zero bits keep no longs, whatever is given (ZeroBitStorage).
    assert_eq!(
        BitStorage::from_longs(0, 9, vec![1, 2]).unwrap().longs(),
        &[] as &[i64]
    );
}

#[test]
fn fill_spreads_into_the_spare_high_bits() {
    let mut s = BitStorage::new(5, 12);
    s.fill(0b10011);
    // 12 values of 5 bits use 60 bits; the top 4 hold the low bits of one more.
    let long = s.longs()[0] as u64;
    assert_eq!(long >> 60, 0b0011);
    assert!(s.values().iter().all(|&v| v == 0b10011));
}

// --- unpack errors -------------------------------------------------------------

#[test]
fn unpack_reports_every_error_with_minecrafts_message() {
    let b = blocks();
    let cases: Vec<(Packed, Error, &str)> = vec![
        (Packed::new(vec![], None), Error::Empty, "Empty palette"),
        (
            Packed::new(vec![1, 2], None),
            Error::MissingData,
            "Missing values for non-zero storage",
        ),
        (
            Packed::new(vec![1, 2], Some(vec![0; 255])),
            Error::Length {
                got: 255,
                expected: 256,
            },
            "Failed to read PalettedContainer: Invalid length given for storage, got: 255 but expected: 256",
        ),
        (
            Packed {
                palette: vec![1, 2],
                data: Some(vec![0; 256]),
                bits: 5,
            },
            Error::BitCount {
                calculated: 4,
                declared: 5,
            },
            "Invalid bit count, calculated 4, but container declared 5",
        ),
        (
            Packed::new(
                vec![1, 2],
                Some({
                    let mut d = vec![0; 256];
                    d[1] = 3 << 8;
                    d
                }),
            ),
            Error::Index { at: 18, index: 3 },
            "Missing Palette entry for index 3.",
        ),
        (
            Packed::new(vec![1, BLOCKS], Some(vec![0; 256])),
            Error::Id {
                id: BLOCKS,
                registry: BLOCKS,
            },
            "Registry id 35723 is not below the registry size 35723",
        ),
    ];
    for (packed, error, message) in cases {
        let got = PalettedContainer::unpack(b, packed.clone()).unwrap_err();
        assert_eq!(got, error, "{packed:?}");
        assert_eq!(got.to_string(), message);
    }
}

#[test]
fn global_unpack_reports_a_bad_index_even_when_lenient() {
    let palette: Vec<u32> = (0..300).collect();
    let mut data = vec![0i64; 586];
    data[0] = 511; // index 511 at position 0, past 300 entries
    let e =
        PalettedContainer::unpack_lenient(blocks(), Packed::new(palette, Some(data))).unwrap_err();
    assert_eq!(e, Error::Index { at: 0, index: 511 });
}

#[test]
fn lenient_unpack_defers_what_strict_unpack_refuses() {
    let mut data = vec![0i64; 256];
    data[0] = 0xF; // index 15 at position 0, palette of 2
    let packed = Packed::new(vec![7, 8], Some(data));
    assert!(PalettedContainer::unpack(blocks(), packed.clone()).is_err());
    let c = PalettedContainer::unpack_lenient(blocks(), packed).unwrap();
    assert_eq!(c.try_get_at(0), Err(Error::Index { at: 0, index: 15 }));
    assert_eq!(c.try_get_at(1), Ok(7));
    // Minecraft sends the bad index as it is.
    assert_eq!(c.try_write(&mut Vec::new()), Ok(()));
    assert!(c.try_pack().is_err());
    assert!(c.try_counts().is_err());
}

// --- read errors ---------------------------------------------------------------

#[test]
fn read_reports_every_error_and_leaves_the_container_unchanged() {
    let linear = written(&with_values(blocks(), 3));
    let hashmap = written(&with_values(blocks(), 40));
    let global = written(&with_values(blocks(), 300));
    let mut too_long_linear = vec![4, 17];
    (0..17).for_each(|v| too_long_linear.push(v));
    let mut too_long_hashmap = vec![5, 33];
    (0..33).for_each(|v| too_long_hashmap.push(v));
    let mut bad_index = linear.clone();
    let longs_at = bad_index.len() - 2048;
    bad_index[longs_at + 7] = 0x0F; // index 15 in a palette of 3
    let mut bad_global_id = global.clone();
    bad_global_id[1] = 0xFF; // the first long's top bits: an id past 35,722
    bad_global_id[2] = 0xFF;

    let cases: Vec<(&str, Vec<u8>, Error)> = vec![
        (
            "no bytes",
            vec![],
            Error::Truncated {
                at: 0,
                needed: 1,
                len: 0,
            },
        ),
        (
            "single without its id",
            vec![0],
            Error::Truncated {
                at: 1,
                needed: 1,
                len: 1,
            },
        ),
        (
            "a VarInt cut short",
            vec![0, 0x80],
            Error::Truncated {
                at: 2,
                needed: 1,
                len: 2,
            },
        ),
        (
            "a VarInt of six bytes",
            vec![0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01],
            Error::VarIntTooBig { at: 1 },
        ),
        (
            "a negative palette length",
            vec![4, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F],
            Error::NegativeLength { len: -1 },
        ),
        (
            "longs cut short",
            linear[..linear.len() - 3].to_vec(),
            Error::Truncated {
                at: linear.len() - 8,
                needed: 8,
                len: linear.len() - 3,
            },
        ),
        (
            "a hash-map palette cut short",
            hashmap[..10].to_vec(),
            Error::Truncated {
                at: 10,
                needed: 1,
                len: 10,
            },
        ),
        (
            "a linear palette too long",
            too_long_linear,
            Error::PaletteTooLong {
                len: 17,
                capacity: 16,
            },
        ),
        (
            "a hash-map palette too long",
            too_long_hashmap,
            Error::PaletteTooLong {
                len: 33,
                capacity: 32,
            },
        ),
        (
            "a single id outside the registry",
            vec![0, 0x8B, 0x97, 0x02],
            Error::Id {
                id: 35723,
                registry: BLOCKS,
            },
        ),
        (
            "an index past the palette",
            bad_index,
            Error::Index { at: 0, index: 15 },
        ),
        (
            "a global id outside the registry",
            bad_global_id,
            Error::Id {
                id: 65535,
                registry: BLOCKS,
            },
        ),
    ];
    for (what, bytes, error) in cases {
        let mut c = with_values(blocks(), 20);
        let before = c.clone();
        assert_eq!(c.read(&bytes), Err(error), "{what}");
        assert_eq!(c, before, "{what}: the container changed");
    }
}

#[test]
fn read_gives_bytes_consumed_and_ignores_trailing_bytes() {
    for n in [1, 2, 16, 17, 256, 257, 300] {
        let source = with_values(blocks(), n);
        let mut bytes = written(&source);
        let len = bytes.len();
        bytes.extend_from_slice(&[1, 2, 3]);
        let mut c = PalettedContainer::new(5, blocks());
        assert_eq!(c.read(&bytes), Ok(len), "{n} values");
        assert_eq!(written(&c), written(&source));
        assert_eq!(c.serialized_size(), len);
    }
}

#[test]
fn lenient_read_in_place_keeps_what_it_read_before_the_end() {
    // Same configuration: the linear palette is overwritten slot by slot.
    let mut c = with_values(Strategy::biomes(65), 4); // linear, 2 bits: [0, 1, 2, 3]
    let e = c.read_lenient(&[2, 3, 37]).unwrap_err();
    assert!(matches!(e, Error::Truncated { .. }));
    assert_eq!(c.palette(), [37, 1, 2]);
    // A different configuration is read aside and dropped on failure.
    let mut c = with_values(Strategy::biomes(65), 4);
    c.read_lenient(&[1, 2, 9]).unwrap_err();
    assert_eq!(c.palette(), [0, 1, 2, 3]);
}

// --- untrusted input never panics -------------------------------------------

#[test]
fn random_bytes_into_read_never_panic() {
    let mut rng = Rng(1);
    let seeds: Vec<Vec<u8>> = [0, 1, 3, 17, 40, 300]
        .iter()
        .map(|&n| written(&with_values(blocks(), n.max(1))))
        .collect();
    for round in 0..3000 {
        let mut bytes = seeds[round % seeds.len()].clone();
        for _ in 0..rng.below(6) {
            match rng.below(4) {
                0 if !bytes.is_empty() => {
                    let i = rng.below(bytes.len() as u64) as usize;
                    bytes[i] = rng.next() as u8;
                }
                1 => bytes.truncate(rng.below(bytes.len() as u64 + 1) as usize),
                2 if !bytes.is_empty() => bytes[0] = rng.below(256) as u8,
                _ => bytes.push(rng.next() as u8),
            }
        }
        for strategy in [blocks(), Strategy::biomes(65), Strategy::block_states(3)] {
            let mut c = with_values(strategy, 2);
            let _ = c.read(&bytes);
            let mut c = with_values(strategy, 2);
            if c.read_lenient(&bytes).is_ok() {
                // Whatever loaded answers with values or errors, not panics.
                let _ = c.try_counts();
                let _ = c.try_pack();
                let _ = c.try_distinct();
                let _ = c.try_write(&mut Vec::new());
                let _ = c.try_get_and_set_at(0, 1);
            }
        }
    }
}

#[test]
fn random_packed_data_into_unpack_never_panics() {
    let mut rng = Rng(2);
    for _ in 0..3000 {
        let strategy = if rng.below(2) == 0 {
            blocks()
        } else {
            Strategy::biomes(65)
        };
        let len = match rng.below(4) {
            0 => rng.below(3),
            1 => rng.below(20),
            _ => rng.below(400),
        } as usize;
        let palette: Vec<u32> = (0..len)
            .map(|_| rng.below(u64::from(strategy.registry_size()) + 2) as u32)
            .collect();
        let longs = rng.below(700) as usize;
        let data = (rng.below(5) != 0).then(|| (0..longs).map(|_| rng.next() as i64).collect());
        let bits = if rng.below(3) == 0 {
            rng.below(40) as i32 - 5
        } else {
            -1
        };
        let packed = Packed {
            palette,
            data,
            bits,
        };
        if let Ok(c) = PalettedContainer::unpack(strategy, packed.clone()) {
            let _ = (c.pack(), c.counts(), written(&c));
        }
        if let Ok(mut c) = PalettedContainer::unpack_lenient(strategy, packed) {
            let _ = (
                c.try_pack(),
                c.try_counts(),
                c.try_distinct(),
                c.try_palette(),
            );
            let _ = c.try_set_at(1, 1);
        }
    }
}

#[test]
fn random_longs_into_from_longs_never_panic() {
    let mut rng = Rng(3);
    for _ in 0..2000 {
        let bits = rng.below(36) as u32;
        let size = rng.below(5000) as usize;
        let n = rng.below(400) as usize;
        if let Ok(s) =
            BitStorage::from_longs(bits, size, (0..n).map(|_| rng.next() as i64).collect())
        {
            let _ = s.values();
        }
    }
}

// --- growth ----------------------------------------------------------------------

#[test]
fn the_ladders_climb_as_minecraft_does() {
    let steps = |strategy: Strategy, upto: u32| {
        let mut c = PalettedContainer::new(0, strategy);
        let mut seen = vec![(c.palette_kind(), c.bits())];
        for v in 1..upto {
            c.set_at(v as usize, v);
            if seen.last() != Some(&(c.palette_kind(), c.bits())) {
                seen.push((c.palette_kind(), c.bits()));
            }
        }
        seen
    };
    use PaletteKind::*;
    assert_eq!(
        steps(blocks(), 300),
        [
            (Single, 0),
            (Linear, 4),
            (HashMap, 5),
            (HashMap, 6),
            (HashMap, 7),
            (HashMap, 8),
            (Global, 16)
        ]
    );
    assert_eq!(
        steps(Strategy::biomes(65), 20),
        [
            (Single, 0),
            (Linear, 1),
            (Linear, 2),
            (Linear, 3),
            (Global, 7)
        ]
    );
    assert_eq!(
        steps(Strategy::block_states(257), 257).last(),
        Some(&(Global, 9))
    );
}

#[test]
fn a_resize_drops_stale_entries_and_adds_the_new_value_last() {
    // The behaviour reference's example: [0, 100..114] full at 4 bits, 0
    // stored only late; setting 200 at 4095 gives [100..114, 0, 200].
    let mut c = PalettedContainer::new(0, blocks());
    for i in 0..4095 {
        c.set_at(i, 100 + (i % 15) as u32);
    }
    c.set_at(4000, 0);
    assert_eq!(c.palette_kind(), PaletteKind::Linear);
    c.set_at(4095, 200);
    let mut want: Vec<u32> = (100..115).collect();
    want.extend([0, 200]);
    assert_eq!(c.palette(), want);
    assert_eq!(c.bits(), 5);
}

#[test]
fn pack_uses_the_disk_width_and_unpack_restores_the_values() {
    for (strategy, n, bits) in [
        (blocks(), 300, 9),
        (blocks(), 17, 5),
        (Strategy::biomes(65), 9, 4),
        (Strategy::biomes(65), 3, 2),
    ] {
        let c = with_values(strategy, n);
        let packed = c.pack();
        assert_eq!(packed.bits, bits, "{n} values");
        let back = PalettedContainer::unpack(strategy, packed.clone()).unwrap();
        assert_eq!(back.pack(), packed);
        for i in 0..strategy.size() {
            assert_eq!(back.get_at(i), c.get_at(i));
        }
    }
}

#[test]
fn lenient_read_stops_at_an_id_outside_the_registry() {
    let strategy = Strategy::biomes(65);
    let mut c = with_values(strategy, 4); // linear, 2 bits: [0, 1, 2, 3]
    // Count 3, then ids 9 and 70: the read throws at 70, as Minecraft's
    // registry lookup does, with 9 already in place.
    let e = c.read_lenient(&[2, 3, 9, 70, 1]).unwrap_err();
    assert_eq!(
        e,
        Error::Id {
            id: 70,
            registry: 65
        }
    );
    assert_eq!(c.palette(), [9, 1, 2]);
    // Growing afterwards neither panics nor keeps the bad id.
    c.set_at(0, 40);
    c.set_at(1, 41);
    assert!(c.palette().iter().all(|&v| v < 65));
}

#[test]
fn lenient_reads_in_place_keep_minecrafts_fixed_linear_array() {
    let strategy = Strategy::biomes(65);
    let mut c = with_values(strategy, 5); // linear, 3 bits: [0, 1, 2, 3, 4]
    // Count 2 shrinks the palette; the old slots stay in the array. The
    // longs put index 5 at position 0, past the palette's end.
    let mut shrink = vec![3, 2, 10, 11];
    let mut longs = vec![0u8; 8 * 22];
    longs[7] = 5;
    shrink.extend(&longs);
    c.read_lenient(&shrink).unwrap();
    assert_eq!(c.palette(), [10, 11]);
    assert_eq!(c.try_get_at(0), Err(Error::Index { at: 0, index: 5 }));
    // Count 7 cut short after one id uncovers the old slots 2..4, and slots
    // 5 and 6, never written, are Java nulls: index 5 gives null, as
    // Minecraft's `get` does (lenient-after/*-nullslots-* recordings).
    c.read_lenient(&[3, 7, 12]).unwrap_err();
    assert_eq!(c.try_palette().unwrap(), [12, 11, 2, 3, 4, NULL, NULL]);
    assert_eq!(c.try_get_at(0), Ok(NULL));
    assert_eq!(c.try_get_at(1), Ok(12));
    // The eighth slot takes a value; the ninth grows the container to the
    // global palette, where a null gets id 0.
    c.try_set_at(10, 20).unwrap();
    assert_eq!(c.bits(), 3);
    c.try_set_at(11, 21).unwrap();
    assert_eq!(c.palette_kind(), PaletteKind::Global);
    assert_eq!(c.try_get_at(0), Ok(0));
    assert_eq!(c.try_get_at(10), Ok(20));
}

#[test]
fn pack_of_a_palette_that_repeats_an_entry_merges_by_value() {
    // A loaded palette [5, 7, 5]: ids 0 and 2 are the same value.
    let mut data = vec![0i64; 256];
    data[0] = 0x210; // positions 0, 1, 2 hold ids 0, 1, 2
    let c = PalettedContainer::unpack(blocks(), Packed::new(vec![5, 7, 5], Some(data))).unwrap();
    assert_eq!(c.get_at(2), 5);
    let packed = c.pack();
    assert_eq!(packed.palette, [5, 7]);
    let back = PalettedContainer::unpack(blocks(), packed).unwrap();
    assert_eq!((back.get_at(0), back.get_at(1), back.get_at(2)), (5, 7, 5));
}

#[test]
fn pack_of_4_bit_sections_matches_a_value_by_value_reference() {
    let mut rng = Rng(9);
    for round in 0..200 {
        let distinct = 1 + rng.below(15) as u32;
        let mut c = PalettedContainer::new(0, blocks());
        // Force the 4-bit linear palette, then fill with `distinct` values
        // (some entries may go stale).
        for v in 0..15 {
            c.set_at(v as usize, 1000 + v);
        }
        for i in 0..4096 {
            let v = if rng.below(3) == 0 {
                rng.below(u64::from(distinct))
            } else {
                (i as u64 / 97) % u64::from(distinct)
            };
            c.set_at(i, 1000 + v as u32);
        }
        assert_eq!(c.bits(), 4);
        // The reference: first appearances from index 0 up, then indices.
        let mut want_palette: Vec<u32> = Vec::new();
        for i in 0..4096 {
            let v = c.get_at(i);
            if !want_palette.contains(&v) {
                want_palette.push(v);
            }
        }
        let packed = c.pack();
        assert_eq!(packed.palette, want_palette, "round {round}");
        let back = PalettedContainer::unpack(blocks(), packed).unwrap();
        for i in 0..4096 {
            assert_eq!(back.get_at(i), c.get_at(i), "round {round} index {i}");
        }
    }
}

#[test]
fn pack_finds_an_index_past_the_palette_after_every_entry_appeared() {
    // Palette [7, 8]: ids 0 and 1 both appear in the first long, then
    // position 100 holds index 15.
    let mut data = vec![0i64; 256];
    data[0] = 0x10;
    data[100 / 16] = 0xF << (4 * (100 % 16));
    let c =
        PalettedContainer::unpack_lenient(blocks(), Packed::new(vec![7, 8], Some(data))).unwrap();
    assert_eq!(c.try_pack(), Err(Error::Index { at: 100, index: 15 }));
    assert_eq!(
        c.try_counts().unwrap_err(),
        Error::Index { at: 0, index: 15 }
    );
}

#[test]
fn strict_unpack_ignores_the_padding_bits_above_the_values() {
    // 20 entries: 5 bits, 12 values a long, 4 padding bits set in every long.
    let palette: Vec<u32> = (100..120).collect();
    let data = vec![0xF000_0000_0000_0000u64 as i64 | 0x21; 342];
    let c = PalettedContainer::unpack(blocks(), Packed::new(palette, Some(data.clone()))).unwrap();
    assert_eq!((c.get_at(0), c.get_at(1), c.get_at(2)), (101, 101, 100));
    // Kept as loaded, padding included, as Minecraft keeps them.
    assert_eq!(c.storage().longs(), &data[..]);
}
