//! The recorded gate's real worlds: every chunk Minecraft saved (the region
//! files of `rig/tests/worlds`, and `../shared/real-worlds` where it is
//! present) loads through `paletted::anvil` at its own DataVersion and
//! writes back as the same NBT, and an untouched region file as the same
//! bytes. Minecraft's own files are the truth here, so cargo-mutants runs
//! this test with the golden and snapshots tests (`.cargo/mutants.toml`).

use std::fs;
use std::path::{Path, PathBuf};

use paletted::Version;
use paletted::anvil::{Chunk, FirstSeen, Region};

/// The real-world files: the repository's copy, and the shared folder's
/// (held-back worlds go there) when it is present.
fn real_worlds() -> Vec<PathBuf> {
    let mut files = Vec::new();
    let ours = Path::new(env!("CARGO_MANIFEST_DIR")).join("rig/tests/worlds");
    for dir in [ours, PathBuf::from("../shared/real-worlds")] {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let known = files.iter().any(|f: &PathBuf| {
                f.file_name().is_some_and(|n| *n == *name) && fs::read(f).ok() == fs::read(&p).ok()
            });
            if (name.ends_with(".mca") || name.ends_with(".nbt")) && !known {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

/// Reads a chunk at its own version and checks it writes back unchanged.
fn round_trip(file: &Path, at: &str, nbt: &[u8], versions: &mut Vec<(String, i32)>) {
    let (mut blocks, mut biomes) = (FirstSeen::default(), FirstSeen::default());
    let chunk = Chunk::read(nbt, &mut blocks, &mut biomes)
        .unwrap_or_else(|e| panic!("{}: {at}: {e}", file.display()));
    assert_eq!(
        Version::for_data_version(chunk.data_version() as u32),
        Some(chunk.version())
    );
    // The release the chunk is read at is the one its DataVersion names in
    // the versions page's table, not a neighbour or the newest.
    assert_eq!(
        chunk.version().data_version(),
        chunk.data_version() as u32,
        "{}: {at}",
        file.display()
    );
    assert!(!chunk.sections().is_empty());
    let back = chunk.write(&blocks, &biomes).unwrap();
    assert!(
        back == nbt,
        "{}: {at}: NBT differs after a read and write",
        file.display()
    );
    let v = (chunk.version().name().to_owned(), chunk.data_version());
    if !versions.contains(&v) {
        versions.push(v);
    }
}

#[test]
fn every_real_world_chunk_loads_at_its_own_version_and_writes_back_unchanged() {
    let files = real_worlds();
    // The repository's five region files always; the shared folder's (seven
    // files, 1.18.1 to 1.21.11) where it sits beside the checkout, as in CI.
    assert!(files.len() >= 5, "{files:?}");
    let (mut chunks, mut versions) = (0, Vec::new());
    for file in &files {
        let bytes = fs::read(file).unwrap();
        if file.extension().is_some_and(|e| e == "nbt") {
            round_trip(file, "chunk", &bytes, &mut versions);
            chunks += 1;
            continue;
        }
        let region = Region::from_bytes(file, bytes.clone()).unwrap();
        let mut nbt = Vec::new();
        for (x, z) in region.chunks() {
            assert!(region.nbt_into(x, z, &mut nbt).unwrap());
            round_trip(file, &format!("chunk ({x}, {z})"), &nbt, &mut versions);
            chunks += 1;
        }
        // Nothing changed: the same file, byte for byte.
        let (written, external) = region.to_bytes();
        assert!(external.is_empty());
        assert!(written == bytes, "{}: region bytes differ", file.display());
    }
    assert!(chunks >= 970, "{chunks}");
    versions.sort();
    assert!(versions.len() >= 5, "{versions:?}");
}
