//! `Section`: the counters through every kind of change, the 26.x wire form,
//! and reads of untrusted bytes.

use paletted::{Error, PalettedContainer, Section, StateTable, Strategy};

const AIR: [u32; 3] = [0, 12, 13];
const FLUID: [u32; 2] = [86, 87];

fn kinds() -> StateTable {
    StateTable::new(&AIR, &FLUID)
}

fn empty() -> Section {
    Section::new(
        PalettedContainer::new(0, Strategy::block_states(35723)),
        PalettedContainer::new(1, Strategy::biomes(65)),
        &kinds(),
    )
    .unwrap()
}

#[test]
fn set_keeps_both_counters_what_a_recount_gives() {
    let k = kinds();
    let mut s = empty();
    let mut x = 7u32;
    for i in 0..20_000u32 {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        let state = [0, 1, 12, 13, 86, 87, 88, 300 + (x >> 20) % 400][(x >> 8) as usize % 8];
        let at = (x >> 4) as usize % 4096;
        let before = s.get((at & 15) as i32, (at >> 8) as i32, ((at >> 4) & 15) as i32);
        let old = s.set(
            (at & 15) as i32,
            (at >> 8) as i32,
            ((at >> 4) & 15) as i32,
            state,
            &k,
        );
        assert_eq!(old, before);
        if i % 997 == 0 {
            let mut again = s.clone();
            again.recount(&k);
            assert_eq!(
                (again.non_empty_block_count(), again.fluid_count()),
                (s.non_empty_block_count(), s.fluid_count())
            );
        }
    }
    let mut again = s.clone();
    again.recount(&k);
    assert_eq!(again, s);
}

#[test]
fn a_full_section_counts_4096_and_closures_serve_as_kinds() {
    let blocks = PalettedContainer::from_values(Strategy::block_states(35723), &[86; 4096]);
    let k = (|s: u32| s == 0, |s: u32| s == 86);
    let s = Section::new(blocks, PalettedContainer::new(0, Strategy::biomes(65)), &k).unwrap();
    assert_eq!((s.non_empty_block_count(), s.fluid_count()), (4096, 4096));
    assert!(!s.has_only_air());
    assert!(empty().has_only_air());
}

#[test]
fn the_wire_form_is_two_shorts_then_the_containers() {
    let k = kinds();
    let mut s = empty();
    s.set(3, 4, 5, 88, &k);
    s.set(3, 5, 5, 86, &k);
    s.biomes_mut().set(1, 1, 1, 40);
    let mut sent = Vec::new();
    s.write(&mut sent);
    let (mut blocks, mut biomes) = (Vec::new(), Vec::new());
    s.blocks().write(&mut blocks);
    s.biomes().write(&mut biomes);
    assert_eq!(sent, [&[0, 2, 0, 1][..], &blocks, &biomes].concat());
    assert_eq!(sent.len(), s.serialized_size());

    // Trailing bytes are left for the next section.
    sent.extend_from_slice(&[9, 9]);
    let mut back = empty();
    assert_eq!(back.read(&sent), Ok(sent.len() - 2));
    assert_eq!(back, s);
}

#[test]
fn read_takes_the_counts_as_sent_and_set_wraps_them_as_java_shorts() {
    let k = kinds();
    let mut sent = vec![0x80, 0x00, 0xff, 0xff];
    empty().blocks().write(&mut sent);
    empty().biomes().write(&mut sent);
    let mut s = empty();
    s.read(&sent).unwrap();
    assert_eq!((s.non_empty_block_count(), s.fluid_count()), (i16::MIN, -1));
    s.set(0, 0, 0, 86, &k);
    assert_eq!(
        (s.non_empty_block_count(), s.fluid_count()),
        (i16::MIN + 1, 0)
    );
    s.set(0, 0, 0, 0, &k);
    s.set(0, 0, 1, 0, &k);
    assert_eq!(s.non_empty_block_count(), i16::MIN);
    s.recount(&k);
    assert_eq!((s.non_empty_block_count(), s.fluid_count()), (0, 0));
}

#[test]
fn a_bad_read_leaves_the_section_and_places_the_error_in_the_section() {
    let k = kinds();
    let mut s = empty();
    s.set(1, 1, 1, 88, &k);
    let mut sent = Vec::new();
    s.write(&mut sent);
    let mut target = empty();
    target.set(2, 2, 2, 5, &k);
    let kept = target.clone();

    for cut in 0..sent.len() {
        let err = target.read(&sent[..cut]).unwrap_err();
        assert!(
            matches!(err, Error::Truncated { len, .. } if len == cut),
            "cut at {cut}: {err:?}"
        );
        if let Error::Truncated { at, needed, .. } = err {
            assert!(at + needed > cut, "cut at {cut}: {err:?}");
        }
        assert_eq!(target, kept, "cut at {cut}");
    }

    // An id past the registry in the biomes: their error, nothing changed.
    let mut bad = sent[..4 + s.blocks().serialized_size()].to_vec();
    bad.extend_from_slice(&[0, 100]);
    assert!(target.read(&bad).is_err());
    assert_eq!(target, kept);
}

#[test]
fn new_and_from_wire_refuse_containers_of_the_wrong_kind_or_of_two_versions() {
    use paletted::{Kind, Rules, Version};
    let k = kinds();
    let (v, old) = (Version::V26_3, Version::V1_20_1);
    let blocks = PalettedContainer::new(1, v.block_strategy());
    let biomes = PalettedContainer::new(1, v.biome_strategy());
    // Biomes as block states, block states as biomes, both swapped.
    for (b, m, place, given) in [
        (&biomes, &biomes, "block states", Kind::Biomes),
        (&blocks, &blocks, "biomes", Kind::BlockStates),
        (&biomes, &blocks, "block states", Kind::Biomes),
    ] {
        let want = Error::SectionKind { place, given };
        assert_eq!(Section::new(b.clone(), m.clone(), &k), Err(want.clone()));
        let sent = [0, 0, 0, 0, 0, 1, 0, 1];
        assert_eq!(
            Section::from_wire(b.strategy(), m.strategy(), &sent),
            Err(want)
        );
    }
    // 1.20.1's block states with 26.3's biomes: two wire forms in one section.
    let old_blocks = PalettedContainer::new(1, old.block_strategy());
    let err = Section::new(old_blocks.clone(), biomes.clone(), &k).unwrap_err();
    assert_eq!(
        err,
        Error::SectionRules {
            blocks: Rules::V1_18_2,
            biomes: Rules::V26_3
        }
    );
    assert_eq!(
        err.to_string(),
        "A section's block states follow the rules of 1.18 to 1.20.1 and its biomes those of 26.3: both must be one version's"
    );
    assert_eq!(
        Section::from_wire(old.block_strategy(), v.biome_strategy(), &[0; 8]),
        Err(err)
    );
    // 26.1's and 26.3's differ too (`fill`), though their wire forms agree.
    let b26_1 = PalettedContainer::new(1, Version::V26_1.block_strategy());
    assert!(matches!(
        Section::new(b26_1, biomes, &k),
        Err(Error::SectionRules { .. })
    ));
}

/// A 1.20.1 section of two block states (4-bit linear) and one biome.
fn section_1_20_1() -> Vec<u8> {
    let v = paletted::Version::V1_20_1;
    let values: Vec<u32> = (0..4096).map(|i| if i % 5 == 0 { 9 } else { 0 }).collect();
    let blocks = PalettedContainer::from_values(v.block_strategy(), &values);
    let s = Section::new(
        blocks,
        PalettedContainer::new(1, v.biome_strategy()),
        &kinds(),
    )
    .unwrap();
    let mut sent = Vec::new();
    s.write(&mut sent);
    sent
}

#[test]
fn a_strict_read_of_another_versions_bytes_says_which_versions_they_fit() {
    use paletted::{Rules, Version};
    let sent = section_1_20_1();
    let v = Version::V26_3;
    let err = Section::from_wire(v.block_strategy(), v.biome_strategy(), &sent).unwrap_err();
    let Error::OtherVersion {
        error,
        read_as,
        fits,
    } = &err
    else {
        panic!("{err:?}")
    };
    // The read's own error, as Minecraft would give it, inside.
    assert!(matches!(**error, Error::Truncated { .. }), "{error:?}");
    assert_eq!(*read_as, Rules::V26_3);
    let runs: Vec<(&str, &str)> = fits.iter().map(|(a, b)| (a.name(), b.name())).collect();
    assert_eq!(runs, [("1.18", "1.21.4")]);
    assert_eq!(
        err.to_string(),
        format!("{error} (read in 26.3's wire form; the bytes read whole in 1.18 to 1.21.4's)")
    );
    // Read at its own version, it is fine; read into a held 26.3 section, the
    // same hint.
    let old = Version::V1_20_1;
    let (back, used) =
        Section::from_wire(old.block_strategy(), old.biome_strategy(), &sent).unwrap();
    assert_eq!((used, back.non_empty_block_count()), (sent.len(), 820));
    let mut held = Section::new(
        PalettedContainer::new(0, v.block_strategy()),
        PalettedContainer::new(0, v.biome_strategy()),
        &kinds(),
    )
    .unwrap();
    assert_eq!(held.read(&sent), Err(err));

    // 26.3's bytes read as 1.20.1: they fit 26.1 to 26.3's forms.
    let values: Vec<u32> = (0..4096).map(|i| if i % 5 == 0 { 9 } else { 0 }).collect();
    let s = Section::new(
        PalettedContainer::from_values(v.block_strategy(), &values),
        PalettedContainer::new(1, v.biome_strategy()),
        &kinds(),
    )
    .unwrap();
    let mut new = Vec::new();
    s.write(&mut new);
    let err = Section::from_wire(old.block_strategy(), old.biome_strategy(), &new).unwrap_err();
    assert!(
        err.to_string().ends_with(
            " (read in 1.18 to 1.20.1's wire form; the bytes read whole in 26.1 to 26.3's)"
        ),
        "{err}"
    );
}

#[test]
fn bytes_no_version_reads_whole_keep_the_plain_error() {
    use paletted::Version;
    let v = Version::V1_20_1;
    let mut sent = section_1_20_1();
    sent.truncate(sent.len() - 1);
    let err = Section::from_wire(v.block_strategy(), v.biome_strategy(), &sent).unwrap_err();
    assert!(matches!(err, Error::Truncated { .. }), "{err:?}");
}

#[test]
fn a_column_refuses_shapes_no_dimension_has_and_sections_of_another_version() {
    use paletted::{Column, Version};
    let v = Version::V26_3;
    let one = [0, 0, 0, 0, 0, 0, 0, 3];
    for (min_y, height) in [
        (8, 16),
        (0, 0),
        (0, 8),
        (-2048, 16),
        (2032, 16),
        (2016, 32),
        (0, u32::MAX),
    ] {
        let err = Column::from_wire(v, min_y, height, &one).unwrap_err();
        assert_eq!(err, Error::ColumnShape { min_y, height });
    }
    // The extremes a dimension may take: y -2032 to 2031.
    let all = one.repeat(254);
    assert_eq!(
        Column::from_wire(v, -2032, 4064, &all).unwrap().height(),
        4064
    );
    assert!(matches!(
        Column::new(v, 0, Vec::new()),
        Err(Error::ColumnShape { height: 0, .. })
    ));
    let sections = Column::from_wire(v, -2032, 4064, &all)
        .unwrap()
        .into_sections();
    let mut more = sections.clone();
    more.push(sections[0].clone());
    assert!(matches!(
        Column::new(v, -2032, more),
        Err(Error::ColumnShape { height: 4080, .. })
    ));
    // A section of 26.1 in a 26.3 column.
    let other = Column::from_wire(Version::V26_1, 0, 16, &[0, 0, 0, 0, 0, 0, 0, 3]).unwrap();
    let mut mixed = sections[..2].to_vec();
    mixed.extend(other.into_sections());
    assert_eq!(
        Column::new(v, 0, mixed),
        Err(Error::ColumnSection {
            index: 2,
            version: v
        })
    );
}

#[test]
fn a_column_is_its_sections_then_zeros_up_to_their_serialized_size() {
    use paletted::{Column, Version};
    // 1.20.1: each one-value section writes 8 bytes and counts 9.
    let v = Version::V1_20_1;
    let section = [0, 0, 0, 0, 0, 0, 1, 0];
    let padded: Vec<u8> = section.repeat(24).into_iter().chain([0; 24]).collect();
    let column = Column::from_wire(v, -64, 384, &padded).unwrap();
    let mut sent = Vec::new();
    column.write(&mut sent);
    assert_eq!(sent, padded);
    // Without the padding, or with something else in it: not 1.20.1's. The
    // bare sections are 1.20.2 to 1.21.4's form, whose size is exact.
    let bare = section.repeat(24);
    let length = Error::ColumnLength {
        used: 192,
        expected: 216,
        len: 192,
    };
    let err = Column::from_wire(v, -64, 384, &bare).unwrap_err();
    let Error::OtherVersion { error, fits, .. } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(**error, length);
    let fits: Vec<_> = fits.iter().map(|(a, b)| (a.name(), b.name())).collect();
    assert_eq!(fits, [("1.20.2", "1.21.4")]);
    assert_eq!(
        length.to_string(),
        "Column data of 192 bytes: its sections take 192 and their serialized size is 216, which only zeros may fill"
    );
    let mut dirty = padded.clone();
    *dirty.last_mut().unwrap() = 1;
    assert!(matches!(
        Column::from_wire(v, -64, 384, &dirty),
        Err(Error::ColumnLength { used: 192, .. })
    ));
    // Cut short: the error's positions count from the column's first byte.
    let cut = &padded[..8 * 5 + 3];
    assert_eq!(
        Column::from_wire(v, -64, 384, cut),
        Err(Error::Truncated {
            at: 43,
            needed: 1,
            len: 43
        })
    );
}
