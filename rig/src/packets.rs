//! Vanilla servers' chunk packets as truth for versions that have no recordings.
//!
//! The npm package `minecraft-packets` (installed by `tests/packets/install`, pinned with its
//! lockfile) holds `map_chunk` packets captured from vanilla servers. Every block-state and
//! biome container of every section sent there becomes a case at its capture's version:
//! `read` of the container's bytes, then `write`. What a server sent is a fact about that
//! version no one here wrote: `read` takes exactly the container's bytes, and `write` gives
//! them back (the server wrote them from the container the read rebuilds). The section's
//! boundaries come from reading it, and a capture whose sections do not add up to its buffer
//! is refused, so a wrong reader cannot shape its own truth.
//!
//! Only captures of a named version (`paletted::Version::named`) are taken: their registry
//! sizes are the crate's, checked against minecraft-data by `tests/packets.rs`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use harness::case::{to_hex, Case};
use harness::outcome::Outcome;
use paletted::{PalettedContainer, Section, Version};
use serde_json::{json, Value};

/// Where `tests/packets/install` puts the captures, under a checkout.
pub const CAPTURES: &str = "tests/packets/node_modules/minecraft-packets/minecraft-packets/data/pc";

/// The pinned package, for the truth's name.
pub const PACKAGE: &str = "minecraft-packets";

/// One container as a server sent it: the case and what the server's bytes say it gives.
pub struct PacketCase {
    pub case: Case,
    pub results: Vec<Outcome>,
}

/// Every distinct container of every capture of a named version under `dir` (a folder laid
/// out as `minecraft-packets`' `data/pc`), oldest version first.
pub fn cases(dir: &Path) -> Result<Vec<PacketCase>, String> {
    if !dir.is_dir() {
        return Err(format!(
            "{} is not there (run tests/packets/install)",
            dir.display()
        ));
    }
    let mut out = Vec::new();
    for version in Version::ALL {
        let folder = dir.join(version.name()).join("from-server/map_chunk");
        if !folder.is_dir() {
            continue;
        }
        let mut files: Vec<PathBuf> = std::fs::read_dir(&folder)
            .map_err(|e| format!("{}: {e}", folder.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        let mut seen = BTreeSet::new();
        for file in &files {
            capture(version, file, &mut seen, &mut out)?;
        }
    }
    if out.is_empty() {
        return Err(format!("{}: no capture of a named version", dir.display()));
    }
    Ok(out)
}

/// The containers of one capture not seen before at its version.
fn capture(
    version: Version,
    path: &Path,
    seen: &mut BTreeSet<(&'static str, Vec<u8>)>,
    out: &mut Vec<PacketCase>,
) -> Result<(), String> {
    let place = |what: String| format!("{}: {what}", path.display());
    let text = std::fs::read_to_string(path).map_err(|e| place(e.to_string()))?;
    let packet: Value = serde_json::from_str(&text).map_err(|e| place(e.to_string()))?;
    let bytes: Vec<u8> = packet["chunkData"]["data"]
        .as_array()
        .ok_or_else(|| place("no chunkData.data".into()))?
        .iter()
        .map(|b| b.as_u64().and_then(|b| u8::try_from(b).ok()))
        .collect::<Option<_>>()
        .ok_or_else(|| place("chunkData.data is not bytes".into()))?;
    let capture = path
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let (blocks, biomes) = (version.block_strategy(), version.biome_strategy());
    let header = if version.rules().fluid_count() { 4 } else { 2 };
    // Up to 1.20.1 a server sizes the buffer by the (too large) serialized size, so sections
    // end where their computed sizes add up to the buffer, and zeros follow the last one.
    let (mut at, mut computed, mut n) = (0, 0, 0);
    while computed < bytes.len() {
        let (section, used) = Section::from_wire(blocks, biomes, &bytes[at..])
            .map_err(|e| place(format!("section {n} (byte {at}): {e}")))?;
        let mut c = at + header;
        for (kind, container) in [
            ("block_states", section.blocks()),
            ("biomes", section.biomes()),
        ] {
            let len = written(container).len();
            let sent = bytes[c..c + len].to_vec();
            if seen.insert((kind, sent.clone())) {
                out.push(case(version, kind, &capture, n, sent)?);
            }
            c += len;
        }
        computed += section.serialized_size();
        at += used;
        n += 1;
    }
    if computed != bytes.len() || bytes[at..].iter().any(|&b| b != 0) {
        return Err(place(format!(
            "its sections do not add up to its {} bytes",
            bytes.len()
        )));
    }
    Ok(())
}

fn written(c: &PalettedContainer) -> Vec<u8> {
    let mut v = Vec::new();
    c.write(&mut v);
    v
}

fn case(
    version: Version,
    kind: &str,
    capture: &str,
    section: usize,
    sent: Vec<u8>,
) -> Result<PacketCase, String> {
    let registry = if kind == "biomes" {
        version.biomes()
    } else {
        version.block_states()
    };
    let hex = to_hex(&sent);
    let case = Case::from_json(&json!({
        "format": 1,
        "name": format!("packets/{}/{kind}-c{capture}-s{section}", version.name()),
        "source": format!(
            "a vanilla {} server's map_chunk packet ({PACKAGE}, data/pc/{}/from-server/map_chunk/{capture}.json), section {section}",
            version.name(),
            version.name()
        ),
        "subject": {"kind": "container", "strategy": kind, "registry": registry,
                    "initial": 0, "version": version.name()},
        "ops": [{"op": "read", "bytes": hex}, {"op": "write"}],
    }))?;
    Ok(PacketCase {
        case,
        results: vec![Outcome::Ok(json!(sent.len())), Outcome::Ok(json!(hex))],
    })
}
