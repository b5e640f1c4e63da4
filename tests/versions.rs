//! Each version's container rules (the versions page, `minecraft-versions.md`):
//! the long count on the wire, `getSerializedSize` and its bug, reads of a
//! count that does not match, global configurations' equality, `fill`, the
//! declared bit count, and the section's counters.

use paletted::{
    BitStorage, Error, Kind, Packed, PaletteKind, PalettedContainer, Rules, Section, StateTable,
    Strategy, UnknownVersion, Version,
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
fn the_strategy_keeps_its_size_and_26_3_is_the_default() {
    assert_eq!(std::mem::size_of::<Strategy>(), 12);
    assert_eq!(Strategy::block_states(35_723).rules(), Rules::V26_3);
    assert_eq!(Strategy::biomes(65).rules(), Rules::default());
    assert_eq!(Version::default(), Version::V26_3);
    assert_eq!(
        Version::LATEST.block_strategy(),
        Strategy::block_states(35_723)
    );
}

/// The versions page's table (`minecraft-versions.md`, "Every release from
/// 1.18 to 26.3"), its rows as the page has them: version, DataVersion,
/// protocol, block states, biomes, rules. 26.3's biomes are not in
/// minecraft-data; the recorded set's 65 stands there.
const PAGE: &str = "
| 1.18 | 2860 | 757 | 20,342 | 61 | 1.18–1.20.1 |
| 1.18.1 | 2865 | 757 | 20,342 | 61 | 1.18–1.20.1 |
| 1.18.2 | 2975 | 758 | 20,342 | 61 | 1.18–1.20.1 |
| 1.19 | 3105 | 759 | 21,448 | 63 | 1.18–1.20.1 |
| 1.19.1 | 3117 | 760 | 21,448 | 63 (1.19's data: no new blocks) | 1.18–1.20.1 |
| 1.19.2 | 3120 | 760 | 21,448 | 63 | 1.18–1.20.1 |
| 1.19.3 | 3218 | 761 | 23,232 | 63 | 1.18–1.20.1 |
| 1.19.4 | 3337 | 762 | 23,725 | 63 | 1.18–1.20.1 |
| 1.20 | 3463 | 763 | 24,135 | 64 | 1.18–1.20.1 |
| 1.20.1 | 3465 | 763 | 24,135 | 64 | 1.18–1.20.1 |
| 1.20.2 | 3578 | 764 | 24,276 | 64 | 1.20.2–1.21.4 |
| 1.20.3 | 3698 | 765 | 26,644 | 64 | 1.20.2–1.21.4 |
| 1.20.4 | 3700 | 765 | 26,644 | 64 | 1.20.2–1.21.4 |
| 1.20.5 | 3837 | 766 | 26,684 | 64 | 1.20.2–1.21.4 |
| 1.20.6 | 3839 | 766 | 26,684 | 64 | 1.20.2–1.21.4 |
| 1.21 | 3953 | 767 | 26,684 | 64 | 1.20.2–1.21.4 |
| 1.21.1 | 3955 | 767 | 26,684 | 64 | 1.20.2–1.21.4 |
| 1.21.2 | 4080 | 768 | 27,318 | 65 (1.21.3's data: same protocol) | 1.20.2–1.21.4 |
| 1.21.3 | 4082 | 768 | 27,318 | 65 | 1.20.2–1.21.4 |
| 1.21.4 | 4189 | 769 | 27,866 | 65 | 1.20.2–1.21.4 |
| 1.21.5 | 4325 | 770 | 27,914 | 65 | 1.21.5–1.21.8 |
| 1.21.6 | 4435 | 771 | 27,946 | 65 | 1.21.5–1.21.8 |
| 1.21.7 | 4438 | 772 | 27,946 | 65 (1.21.8's data: same protocol) | 1.21.5–1.21.8 |
| 1.21.8 | 4440 | 772 | 27,946 | 65 | 1.21.5–1.21.8 |
| 1.21.9 | 4554 | 773 | 29,671 | 65 | 1.21.9–1.21.11 |
| 1.21.10 | 4556 | 773 | 29,671 | 65 (1.21.9's data) | 1.21.9–1.21.11 |
| 1.21.11 | 4671 | 774 | 29,671 | 65 | 1.21.9–1.21.11 |
| 26.1 | 4786 | 775 | 29,873 | 65 | 26.1–26.2 |
| 26.1.1 | 4788 | 775 | 29,873 | 65 (26.1's data) | 26.1–26.2 |
| 26.1.2 | 4790 | 775 | 29,873 | 65 (26.1's data) | 26.1–26.2 |
| 26.2 | 4903 | 776 | 32,366 | 66 (adds `sulfur_caves`) | 26.1–26.2 |
| 26.3 | 5023 | 777 | 35,723 | 65 | 26.3 |
";

/// A row of [`PAGE`].
struct Row {
    name: String,
    data_version: u32,
    protocol: u32,
    block_states: u32,
    biomes: u32,
    rules: Rules,
}

fn page() -> Vec<Row> {
    let number = |cell: &str| -> u32 {
        let digits: String = cell
            .split(' ')
            .next()
            .unwrap()
            .chars()
            .filter(|c| *c != ',')
            .collect();
        digits.parse().unwrap_or_else(|_| panic!("{cell:?}"))
    };
    PAGE.lines()
        .filter(|l| !l.is_empty())
        .map(|line| {
            let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
            let rules = match cells[5] {
                "1.18–1.20.1" => Rules::V1_18_2,
                "1.20.2–1.21.4" => Rules::V1_20_2,
                "1.21.5–1.21.8" => Rules::V1_21_5,
                "1.21.9–1.21.11" => Rules::V1_21_9,
                "26.1–26.2" => Rules::V26_1,
                "26.3" => Rules::V26_3,
                other => panic!("rules {other:?}"),
            };
            Row {
                name: cells[0].to_owned(),
                data_version: number(cells[1]),
                protocol: number(cells[2]),
                block_states: number(cells[3]),
                biomes: number(cells[4]),
                rules,
            }
        })
        .collect()
}

#[test]
fn every_row_of_the_page_is_a_version_found_by_name_data_version_and_protocol() {
    let rows = page();
    assert_eq!(rows.len(), 32);
    let names: Vec<&str> = Version::ALL.iter().map(|v| v.name()).collect();
    let page_names: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(
        names, page_names,
        "Version::ALL is the page's table, in order"
    );
    for row in &rows {
        let v = Version::named(&row.name).unwrap_or_else(|| panic!("{} by name", row.name));
        assert_eq!(row.name.parse::<Version>(), Ok(v));
        assert_eq!(
            (
                v.name(),
                v.data_version(),
                v.protocol(),
                v.block_states(),
                v.biomes(),
                v.rules()
            ),
            (
                row.name.as_str(),
                row.data_version,
                row.protocol,
                row.block_states,
                row.biomes,
                row.rules
            )
        );
        assert_eq!(v.to_string(), row.name);
        assert_eq!(Version::for_data_version(row.data_version), Some(v));
        // A protocol shared by releases gives the newest of them.
        let newest = rows.iter().rfind(|r| r.protocol == row.protocol).unwrap();
        assert_eq!(
            Version::for_protocol(row.protocol).map(|v| v.name()),
            Some(newest.name.as_str()),
            "protocol {}",
            row.protocol
        );
        // And releases sharing a protocol share their registries and rules.
        let shared = Version::for_protocol(row.protocol).unwrap();
        assert_eq!(
            (shared.block_states(), shared.biomes(), shared.rules()),
            (v.block_states(), v.biomes(), v.rules()),
            "{v} and {shared}"
        );
    }
}

#[test]
fn the_real_worlds_data_versions_are_found() {
    // The DataVersion of every file in ../shared/real-worlds, read from the
    // files' chunks (each file has one).
    for (data_version, name) in [
        (2865, "1.18.1"),  // fastnbt-1.18.1-issue99.chunk.nbt
        (2975, "1.18.2"),  // prismarine-1.18.2-r.0.0.mca
        (3465, "1.20.1"),  // fastnbt-forge-1.20.1.chunk.nbt
        (3839, "1.20.6"),  // prismarine-1.20.6-r.0.0.mca
        (3955, "1.21.1"),  // prismarine-1.21.1-r.0.0.mca
        (4671, "1.21.11"), // minestom-1.21.11-r.*.mca
    ] {
        let v = Version::for_data_version(data_version)
            .unwrap_or_else(|| panic!("DataVersion {data_version}"));
        assert_eq!(v.name(), name);
    }
}

#[test]
fn an_unknown_version_is_an_error_that_lists_the_known_ones() {
    let err = "1.21.12".parse::<Version>().unwrap_err();
    assert_eq!(err, UnknownVersion::Name("1.21.12".into()));
    let listed: Vec<String> = Version::ALL.iter().map(|v| v.to_string()).collect();
    assert_eq!(
        err.to_string(),
        format!("unknown version `1.21.12` (known: {})", listed.join(", "))
    );
    assert_eq!(Version::named("1.17.1"), None);
    assert_eq!(Version::for_data_version(3466), None);
    assert_eq!(Version::for_protocol(778), None);
    let err = UnknownVersion::Protocol(778).to_string();
    assert!(
        err.starts_with("no known version has protocol 778 (known: 757 (1.18.1), 758 (1.18.2), "),
        "{err}"
    );
    assert!(err.ends_with(", 776 (26.2), 777 (26.3))"), "{err}");
    let err = UnknownVersion::DataVersion(1).to_string();
    assert!(
        err.starts_with("no known version has DataVersion 1 (known: 2860 (1.18), 2865 (1.18.1), "),
        "{err}"
    );
}

#[test]
fn six_rule_sets_change_where_the_page_says() {
    // The page's "What changes" table: long count, serialized-size bug,
    // global configurations equal, declared bits, fill, two counters.
    let table = |r: Rules| {
        (
            r.long_count(),
            r.serialized_size_bug(),
            r.global_configurations_equal(),
            r.declares_bits(),
            r.has_fill(),
            r.fluid_count(),
        )
    };
    let got: Vec<_> = Rules::ALL.into_iter().map(table).collect();
    assert_eq!(
        got,
        [
            (true, true, true, false, false, false),
            (true, false, true, false, false, false),
            (false, false, true, false, false, false),
            (false, false, false, true, false, false),
            (false, false, false, true, false, true),
            (false, false, false, true, true, true),
        ]
    );
    // Only 26.3 has `fill`: 26.1, 26.1.1, 26.1.2 and 26.2 do not.
    let with_fill: Vec<&str> = Version::ALL
        .iter()
        .filter(|v| v.rules().has_fill())
        .map(|v| v.name())
        .collect();
    assert_eq!(with_fill, ["26.3"]);
    let spans: Vec<&str> = Rules::ALL.iter().map(|r| r.span()).collect();
    assert_eq!(
        spans,
        [
            "1.18 to 1.20.1",
            "1.20.2 to 1.21.4",
            "1.21.5 to 1.21.8",
            "1.21.9 to 1.21.11",
            "26.1 to 26.2",
            "26.3"
        ]
    );
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
                // Strict and lenient reads give the container back (from 1.21.9 a
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
fn global_configurations_are_one_up_to_1_21_8() {
    // A global container read at byte 15, then a read at byte 33 cut short
    // in its longs: up to 1.21.8 the two configurations are equal, so the
    // read is in place and the first long is overwritten; from 1.21.9 they
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
fn fill_exists_only_in_26_3() {
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
            assert_eq!(
                err.to_string(),
                format!("fill does not exist in {}", v.rules().span())
            );
            assert_eq!(s, before, "{v}");
        }
    }
    assert!(!Version::V26_1.rules().has_fill());
    assert!(Version::V26_3.rules().has_fill());
}

#[test]
fn the_bit_count_is_declared_and_checked_from_1_21_9() {
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
fn a_section_sends_one_counter_up_to_1_21_11_and_two_from_26_1() {
    let kinds = StateTable::new(&[0], &[86]);
    for v in Version::ALL {
        let blocks = PalettedContainer::new(0, v.block_strategy());
        let biomes = PalettedContainer::new(1, v.biome_strategy());
        let mut section = Section::new(blocks, biomes, &kinds).unwrap();
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
