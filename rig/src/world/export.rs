//! `--export DIR`: saved containers as cases of the interchange format
//! (ops only, no results), for anyone with Minecraft's jar to record with
//! `rig record`.
//!
//! Each case unpacks the saved palette (run ids) and longs, then asks for
//! everything the Rust check looked at: pack, write, serialized_size,
//! counts, get_all, palette and bits. The file, chunk, section, DataVersion
//! and palette names go in an `origin` key, which readers keep and ignore.

use std::path::{Path, PathBuf};

use harness::case::{Case, ContainerOp, Ops, Subject};
use serde_json::{json, Map};

use super::registry::Registries;
use super::sample::Picked;

/// The case's name: `world/<file>/<chunk x>.<chunk z>/<section y>/<kind>`,
/// where `<file>` is the file name without `.mca`/`.nbt`, after the
/// dimension's folder when the file sits in a `region` folder (so that
/// `DIM-1/region/r.0.0.mca` and `region/r.0.0.mca` of one world differ).
pub fn name(picked: &Picked) -> String {
    let p = &picked.place;
    let path = Path::new(&p.file);
    let clean = |s: &str| s.replace(['/', '\\', ' '], "_");
    let file = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut stem = clean(
        file.strip_suffix(".mca")
            .or_else(|| file.strip_suffix(".nbt"))
            .unwrap_or(&file),
    );
    let parent = path.parent();
    if parent
        .and_then(Path::file_name)
        .is_some_and(|n| n == "region")
    {
        if let Some(dimension) = parent.and_then(Path::parent).and_then(Path::file_name) {
            stem = format!("{}/{stem}", clean(&dimension.to_string_lossy()));
        }
    }
    let (x, z) = p.chunk.unwrap_or((0, 0));
    format!(
        "world/{stem}/{x}.{z}/{}/{}",
        p.section_y.unwrap_or(0),
        harness::case::strategy_name(picked.kind)
    )
}

/// The container as a case: unpack the saved form, then observe it.
pub fn case(picked: &Picked, registries: &Registries) -> Case {
    let packed = &picked.packed;
    let names = registries.names(picked.kind);
    let p = &picked.place;
    let mut extra = Map::new();
    extra.insert("generator".into(), json!("rig world"));
    extra.insert(
        "origin".into(),
        json!({
            "file": p.file,
            "chunk": p.chunk.map(|(x, z)| [x, z]),
            "section_y": p.section_y,
            "data_version": p.data_version,
            "names": packed.palette.iter().map(|id| names.name(*id)).collect::<Vec<_>>(),
            "ids": "numbered in the order the run first met each name, not Minecraft's registry ids",
        }),
    );
    Case {
        name: name(picked),
        subject: Subject::Container {
            strategy: picked.kind,
            registry: picked.registry,
            initial: 0,
            // The saving version when it is a named one, else 26.3 as before.
            version: p
                .data_version
                .and_then(|dv| u32::try_from(dv).ok())
                .and_then(paletted::Version::for_data_version)
                .unwrap_or(paletted::Version::V26_3),
        },
        ops: Ops::Container(vec![
            ContainerOp::Unpack {
                palette: packed.palette.iter().map(|&id| i64::from(id)).collect(),
                data: packed.data.clone(),
                bits: packed.bits,
            },
            ContainerOp::Pack,
            ContainerOp::Write,
            ContainerOp::SerializedSize,
            ContainerOp::Counts,
            ContainerOp::GetAll,
            ContainerOp::Palette,
            ContainerOp::Bits,
        ]),
        extra,
    }
}

/// Writes the case under `dir` as `<name>.json`.
pub fn write(dir: &Path, picked: &Picked, registries: &Registries) -> Result<(), String> {
    let path: PathBuf = dir.join(format!("{}.json", name(picked)));
    Ok(harness::atomic::write(
        &path,
        case(picked, registries).to_text(),
    )?)
}
