//! `paletted::anvil` on worlds built here and on broken ones: a changed
//! container is saved in its place, Java's strings and every compression
//! round-trip, and bad input is an error naming file, chunk and key. Real
//! worlds, which Minecraft saved, are `tests/recorded_worlds.rs`.

use std::fs;
use std::path::Path;

use paletted::anvil::nbt::{self, Compound, List, Tag};
use paletted::anvil::{Chunk, Compression, ErrorKind, FirstSeen, Region, Registry};
use paletted::{Error as ContainerError, Version};

/// A chunk of one section; `blocks` and `biomes` are (palette, data).
fn chunk_nbt(dv: i32, blocks: (Vec<Tag>, Option<Vec<i64>>), biomes: Vec<Tag>) -> Compound {
    let mut b = Compound::new();
    b.insert("palette", Tag::List(List::new(10, blocks.0).unwrap()));
    if let Some(d) = blocks.1 {
        b.insert("data", Tag::LongArray(d));
    }
    let mut m = Compound::new();
    m.insert("palette", Tag::List(List::new(8, biomes).unwrap()));
    let mut s = Compound::new();
    s.insert("Y", Tag::Byte(0));
    s.insert("block_states", Tag::Compound(b));
    s.insert("biomes", Tag::Compound(m));
    // A key this crate knows nothing of, after the containers.
    s.insert("SkyLight", Tag::ByteArray(vec![7; 2048]));
    let mut root = Compound::new();
    root.insert("DataVersion", Tag::Int(dv));
    root.insert("xPos", Tag::Int(1));
    root.insert("zPos", Tag::Int(-1));
    root.insert(
        "sections",
        Tag::List(List::new(10, vec![Tag::Compound(s)]).unwrap()),
    );
    root
}

fn state(name: &str) -> Tag {
    let mut c = Compound::new();
    c.insert("Name", Tag::String(name.into()));
    Tag::Compound(c)
}

fn plains() -> Vec<Tag> {
    vec![Tag::String("minecraft:plains".into())]
}

#[test]
fn a_changed_container_is_saved_in_its_place_and_every_other_key_kept() {
    let root = chunk_nbt(3465, (vec![state("minecraft:stone")], None), plains());
    let bytes = nbt::write("", &root);
    let (mut blocks, mut biomes) = (FirstSeen::default(), FirstSeen::default());
    let mut chunk = Chunk::read(&bytes, &mut blocks, &mut biomes).unwrap();
    assert_eq!(chunk.position(), Some((1, -1)));
    let dirt = blocks.id(&state("minecraft:dirt")).unwrap();
    chunk.sections_mut()[0]
        .block_states
        .as_mut()
        .unwrap()
        .set(2, 3, 4, dirt);
    let saved = chunk.write(&blocks, &biomes).unwrap();
    assert_ne!(saved, bytes);
    let (_, back) = nbt::read(&saved).unwrap();
    let Some(Tag::List(sections)) = back.get("sections") else {
        panic!()
    };
    let Tag::Compound(s) = &sections.items()[0] else {
        panic!()
    };
    let keys: Vec<String> = s.iter().map(|(k, _)| k.to_string()).collect();
    assert_eq!(keys, ["Y", "block_states", "biomes", "SkyLight"]);
    let Some(Tag::Compound(b)) = s.get("block_states") else {
        panic!()
    };
    let keys: Vec<String> = b.iter().map(|(k, _)| k.to_string()).collect();
    assert_eq!(keys, ["palette", "data"]);
    let again = Chunk::read(&saved, &mut blocks, &mut biomes).unwrap();
    let c = again.sections()[0].block_states.as_ref().unwrap();
    assert_eq!((c.get(2, 3, 4), c.get(0, 0, 0)), (dirt, 0));
    // And back to one state: `data` goes.
    chunk.sections_mut()[0]
        .block_states
        .as_mut()
        .unwrap()
        .set(2, 3, 4, 0);
    assert_eq!(chunk.write(&blocks, &biomes).unwrap(), bytes);
}

#[test]
fn java_strings_round_trip_byte_for_byte() {
    // NUL as C0 80, U+1F600 as two encoded surrogates, and a lone surrogate
    // (which Java writes, and no Rust string holds).
    let mut root = chunk_nbt(3465, (vec![state("minecraft:stone")], None), plains());
    root.insert(
        "a\0b😀",
        Tag::String(nbt::Mutf8::from_bytes(vec![0xed, 0xa0, 0x80])),
    );
    let bytes = nbt::write("", &root);
    assert!(bytes.windows(2).any(|w| w == [0xc0, 0x80]));
    let (mut blocks, mut biomes) = (FirstSeen::default(), FirstSeen::default());
    let chunk = Chunk::read(&bytes, &mut blocks, &mut biomes).unwrap();
    assert_eq!(chunk.write(&blocks, &biomes).unwrap(), bytes);
}

#[test]
fn every_compression_round_trips_in_the_file_and_outside_it() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("anvil-compression");
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    let path = dir.join("r.1.-2.mca");
    let small = nbt::write(
        "",
        &chunk_nbt(3465, (vec![state("minecraft:stone")], None), plains()),
    );
    // Past 255 sectors even compressed: Minecraft puts it in c.X.Z.mcc.
    let mut big_root = chunk_nbt(3465, (vec![state("minecraft:stone")], None), plains());
    let mut noise = 0x2545_f491_4f6c_dd1du64;
    let junk: Vec<u8> = (0..1_200_000)
        .map(|_| {
            noise ^= noise << 13;
            noise ^= noise >> 7;
            noise ^= noise << 17;
            noise as u8
        })
        .collect();
    big_root.insert("junk", Tag::ByteArray(junk));
    let big = nbt::write("", &big_root);
    let mut region = Region::new(&path);
    let all = [
        Compression::Gzip,
        Compression::Zlib,
        Compression::None,
        Compression::Lz4,
    ];
    for (i, c) in all.into_iter().enumerate() {
        region.set(i as u8, 0, &small, c);
        region.set(i as u8, 31, &big, c);
        region.set_timestamp(i as u8, 0, 1_700_000_000 + i as u32);
    }
    region.write(&path).unwrap();
    for i in 0..4 {
        assert!(dir.join(format!("c.{}.-33.mcc", 32 + i)).exists());
    }
    let back = Region::open(&path).unwrap();
    for (i, c) in all.into_iter().enumerate() {
        let i = i as u8;
        assert_eq!(back.compression(i, 0), Some(c));
        assert_eq!(back.timestamp(i, 0), 1_700_000_000 + u32::from(i));
        assert_eq!(
            back.nbt(i, 0).unwrap().as_deref(),
            Some(&small[..]),
            "{c:?}"
        );
        assert_eq!(
            back.nbt(i, 31).unwrap().as_deref(),
            Some(&big[..]),
            "{c:?} external"
        );
    }
    // Read and written again, unchanged: the same bytes, the same .mcc files.
    let (again, external) = back.to_bytes();
    assert_eq!(again, fs::read(&path).unwrap());
    assert_eq!(external.len(), 4);
}

fn region_with(chunk: &[u8], byte: u8) -> Vec<u8> {
    let mut bytes = vec![0u8; 8192];
    bytes[4..8].copy_from_slice(&[0, 0, 2, 1]); // chunk (1, 0) at sector 2
    bytes.extend_from_slice(&(chunk.len() as u32 + 1).to_be_bytes());
    bytes.push(byte);
    bytes.extend_from_slice(chunk);
    bytes.resize(3 * 4096, 0);
    bytes
}

#[test]
fn bad_input_names_the_file_the_chunk_and_the_key() {
    let path = Path::new("world/region/r.2.3.mca");
    let err = Region::from_bytes(path, vec![0; 100]).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::TruncatedHeader { len: 100 });
    assert_eq!(err.file(), Some(path));

    let err = Region::from_bytes(path, region_with(b"", 9)).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::BadCompression { byte: 9 });
    assert_eq!(err.chunk(), Some((65, 96)));
    assert_eq!(
        err.to_string(),
        "world/region/r.2.3.mca, chunk (65, 96): bad compression byte 9 (0x09): known are 1 gzip, 2 zlib, 3 none, 4 lz4, +128 external"
    );

    let mut cut = region_with(&[0; 5000], 2);
    cut.truncate(8192 + 100);
    let err = Region::from_bytes(path, cut).unwrap_err();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::TruncatedChunk { .. } | ErrorKind::LengthPastSectors { .. }
        ),
        "{err}"
    );

    let region = Region::from_bytes(path, region_with(b"not zlib", 2)).unwrap();
    let err = region.nbt(1, 0).unwrap_err();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::Decompress {
                compression: Compression::Zlib,
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(err.chunk(), Some((65, 96)));

    let region = Region::from_bytes(path, region_with(b"", 0x82)).unwrap();
    let err = region.nbt(1, 0).unwrap_err();
    assert!(err.to_string().contains("c.65.96.mcc"), "{err}");

    // A section whose longs are one short: the container's key, Minecraft's words.
    let root = chunk_nbt(
        3465,
        (vec![state("a"), state("b")], Some(vec![0; 255])),
        plains(),
    );
    let err = Chunk::read(
        &nbt::write("", &root),
        &mut FirstSeen::default(),
        &mut FirstSeen::default(),
    )
    .unwrap_err();
    assert_eq!(err.key(), "sections[0].block_states");
    assert_eq!(
        err.kind(),
        &ErrorKind::Container(ContainerError::Length {
            got: 255,
            expected: 256
        })
    );

    // The same chunk in a region file: the file, the chunk and the key.
    let mut region = Region::new(path);
    region.set(4, 5, &nbt::write("", &root), Compression::Zlib);
    let (bytes, _) = region.to_bytes();
    let region = Region::from_bytes(path, bytes).unwrap();
    let err = region
        .read_chunk(4, 5, &mut FirstSeen::default(), &mut FirstSeen::default())
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "world/region/r.2.3.mca, chunk (68, 101), sections[0].block_states: \
         Failed to read PalettedContainer: Invalid length given for storage, got: 255 but expected: 256"
    );

    // Truncated NBT inside the section: the key path down to the tag.
    let bytes = nbt::write(
        "",
        &chunk_nbt(3465, (vec![state("minecraft:stone")], None), plains()),
    );
    let cut_at = bytes.windows(4).position(|w| w == b"Name").unwrap() + 6;
    let err = Chunk::read(
        &bytes[..cut_at],
        &mut FirstSeen::default(),
        &mut FirstSeen::default(),
    )
    .unwrap_err();
    assert_eq!(err.key(), "sections[0].block_states.palette[0].Name");

    // Every cut of a real chunk is an error, never a panic.
    let real = Region::open(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("rig/tests/worlds/prismarine-1.21.1-r.0.0.mca"),
    )
    .unwrap();
    let (x, z) = real.chunks().next().unwrap();
    let nbt = real.nbt(x, z).unwrap().unwrap();
    for cut in (0..nbt.len()).step_by(97) {
        assert!(
            Chunk::read_with(
                &nbt[..cut],
                |_| Some(Version::V1_21_4),
                &mut FirstSeen::default(),
                &mut FirstSeen::default()
            )
            .is_err()
        );
    }

    // A missing DataVersion, and one before 1.18's layout.
    let mut root = chunk_nbt(3465, (vec![state("a")], None), plains());
    root.remove("DataVersion");
    let err = Chunk::read(
        &nbt::write("", &root),
        &mut FirstSeen::default(),
        &mut FirstSeen::default(),
    )
    .unwrap_err();
    assert_eq!(
        (err.key(), err.kind()),
        ("DataVersion", &ErrorKind::Missing)
    );
    let root = chunk_nbt(2730, (vec![state("a")], None), plains());
    let err = Chunk::read(
        &nbt::write("", &root),
        &mut FirstSeen::default(),
        &mut FirstSeen::default(),
    )
    .unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::OldLayout(2730));
}
