//! `--export DIR`: saved containers as cases of the interchange format
//! (ops only, no results), for anyone with Minecraft's jar to record with
//! `rig record`.
//!
//! Each case unpacks the saved palette (run ids) and longs, then asks for
//! everything the Rust check looked at: pack, write, serialized_size,
//! counts, get_all, palette and bits. The file, chunk, section, DataVersion
//! and palette names go in an `origin` key, which readers keep and ignore.

use std::fs;
use std::path::{Path, PathBuf};

use paletted::Kind;
use serde_json::{json, Value};

use super::registry::Registries;
use super::sample::Picked;

/// The case's name: `world/<file stem>/<chunk x>.<chunk z>/<section y>/<kind>`.
pub fn name(picked: &Picked) -> String {
    let p = &picked.place;
    let stem = Path::new(&p.file)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = stem
        .strip_suffix(".mca")
        .or_else(|| stem.strip_suffix(".nbt"))
        .unwrap_or(&stem)
        .replace(['/', '\\', ' '], "_");
    let (x, z) = p.chunk.unwrap_or((0, 0));
    format!(
        "world/{stem}/{x}.{z}/{}/{}",
        p.section_y.unwrap_or(0),
        strategy_name(picked.kind)
    )
}

fn strategy_name(kind: Kind) -> &'static str {
    match kind {
        Kind::BlockStates => "block_states",
        Kind::Biomes => "biomes",
    }
}

/// The case as interchange JSON.
pub fn case(picked: &Picked, registries: &Registries) -> Value {
    let packed = &picked.packed;
    let names = registries.names(picked.kind);
    let p = &picked.place;
    json!({
        "format": 1,
        "name": name(picked),
        "subject": {
            "kind": "container",
            "strategy": strategy_name(picked.kind),
            "registry": picked.registry,
            "initial": 0,
        },
        "ops": [
            {"op": "unpack", "palette": packed.palette, "data": packed.data, "bits": packed.bits},
            {"op": "pack"},
            {"op": "write"},
            {"op": "serialized_size"},
            {"op": "counts"},
            {"op": "get_all"},
            {"op": "palette"},
            {"op": "bits"},
        ],
        "origin": {
            "file": p.file,
            "chunk": p.chunk.map(|(x, z)| [x, z]),
            "section_y": p.section_y,
            "data_version": p.data_version,
            "names": packed.palette.iter().map(|id| names.name(*id)).collect::<Vec<_>>(),
            "ids": "numbered in the order the run first met each name, not Minecraft's registry ids",
        },
    })
}

/// Writes the case under `dir` as `<name>.json`.
pub fn write(dir: &Path, picked: &Picked, registries: &Registries) -> Result<(), String> {
    let path: PathBuf = dir.join(format!("{}.json", name(picked)));
    let text = serde_json::to_string_pretty(&case(picked, registries)).expect("JSON of plain values");
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    fs::write(&path, text + "\n").map_err(|e| format!("cannot write {}: {e}", path.display()))
}
