//! Builds the seed corpora: `seeds <repo root> <out dir>` writes
//! `<out>/<target>/<hash>` for every fuzz target, from
//!
//! - the op lists under `cases/ops/` (whole cases for `lenient_ops` and
//!   `strict_lenient`; each `read` op's bytes, `unpack` op's fields and
//!   storage `load` for `read`, `unpack` and `from_longs`);
//! - small recorded files, op lists, snapshots and the known-divergences
//!   file, as text, for the parsers;
//! - the real-world fixtures (`rig/tests/worlds`): chunk NBT as it is, and
//!   region files cut to one chunk each, for `world`; their containers,
//!   as `rig world --export` would write them, for `unpack`.
//!
//! Each corpus keeps at most [`PER_TARGET`] inputs of at most [`MAX_SEED`]
//! bytes, the smallest first per family, so that the committed seeds stay
//! small. Run by `fuzz/seeds.sh` (`cargo run --release --example seeds`).

use std::collections::{BTreeMap, HashSet};
use std::fs;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use harness::case::{Case, ContainerOp, Ops, StorageOp, Subject};
use paletted::Kind;
use paletted_fuzz::{encode_case, write_packed, write_strategy, Writer};

#[allow(dead_code, unused_imports)]
#[path = "../../rig/src/world/mod.rs"]
mod world;

/// Largest seed kept: a global-palette read or unpack fits.
const MAX_SEED: usize = 12 << 10;
/// Largest world seed: a real chunk of a few sections fits.
const MAX_WORLD_SEED: usize = 64 << 10;
/// Most seeds a target keeps.
const PER_TARGET: usize = 160;

/// The inputs found for each target, by family (the folder under
/// `cases/ops`), to be cut down to size fairly.
#[derive(Default)]
struct Corpora {
    by_target: BTreeMap<&'static str, BTreeMap<String, Vec<Vec<u8>>>>,
}

impl Corpora {
    fn add(&mut self, target: &'static str, family: &str, input: Vec<u8>) {
        let most = if target == "world" {
            MAX_WORLD_SEED
        } else {
            MAX_SEED
        };
        if input.len() <= most {
            self.by_target
                .entry(target)
                .or_default()
                .entry(family.to_string())
                .or_default()
                .push(input);
        }
    }

    /// Writes each target's seeds: round-robin over families, smallest
    /// first, distinct inputs only, up to [`PER_TARGET`].
    fn write(self, out: &Path) -> std::io::Result<()> {
        for (target, families) in self.by_target {
            let dir = out.join(target);
            let _ = fs::remove_dir_all(&dir);
            fs::create_dir_all(&dir)?;
            let mut lists: Vec<Vec<Vec<u8>>> = families
                .into_values()
                .map(|mut v| {
                    v.sort_by_key(|s| std::cmp::Reverse(s.len()));
                    v
                })
                .collect();
            let mut seen = HashSet::new();
            while seen.len() < PER_TARGET && lists.iter().any(|l| !l.is_empty()) {
                for list in &mut lists {
                    if seen.len() >= PER_TARGET {
                        break;
                    }
                    if let Some(input) = list.pop() {
                        let mut h = std::collections::hash_map::DefaultHasher::new();
                        input.hash(&mut h);
                        let name = format!("{:016x}", h.finish());
                        if seen.insert(name.clone()) {
                            fs::write(dir.join(name), &input)?;
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

fn files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, ext, out);
        } else if p.extension().is_some_and(|e| e == ext) {
            out.push(p);
        }
    }
    out.sort();
}

fn family(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .ok()
        .and_then(|p| p.components().next())
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The seeds one case gives.
fn from_case(c: &mut Corpora, fam: &str, case: &Case) {
    if let Some(tape) = encode_case(case) {
        c.add("lenient_ops", fam, tape.clone());
        if matches!(case.subject, Subject::Container { .. }) {
            c.add("strict_lenient", fam, tape);
        }
    }
    match (&case.subject, &case.ops) {
        (
            &Subject::Container {
                strategy,
                registry,
                initial,
                ..
            },
            Ops::Container(ops),
        ) => {
            for op in ops {
                match op {
                    ContainerOp::Read { bytes } => {
                        let mut w = Writer::default();
                        write_strategy(&mut w, strategy, registry);
                        w.uvar(u64::from(initial));
                        w.bytes(bytes);
                        c.add("read", fam, w.out);
                    }
                    ContainerOp::Unpack {
                        palette,
                        data,
                        bits,
                    } => {
                        let ids: Vec<u32> = palette.iter().map(|&v| v as u32).collect();
                        c.add(
                            "unpack",
                            fam,
                            unpack_seed(strategy, registry, &ids, data.as_deref(), *bits),
                        );
                    }
                    _ => {}
                }
            }
        }
        (_, Ops::Storage(ops)) => {
            for op in ops {
                if let StorageOp::Load { bits, size, longs } = op {
                    let mut w = Writer::default();
                    w.u8(*bits as u8);
                    w.u8(0);
                    w.uvar(u64::from(*size as u32));
                    w.uvar(longs.len() as u64);
                    for &l in longs {
                        w.i64(l);
                    }
                    c.add("from_longs", fam, w.out);
                }
            }
        }
        _ => {}
    }
}

fn unpack_seed(
    kind: Kind,
    registry: u32,
    palette: &[u32],
    data: Option<&[i64]>,
    bits: i32,
) -> Vec<u8> {
    let mut w = Writer::default();
    write_strategy(&mut w, kind, registry);
    write_packed(&mut w, palette, data, bits);
    w.out
}

/// A region file of one chunk: the chunk's sectors moved to sector 2 and
/// the location table pointing at them alone.
fn one_chunk_regions(bytes: &[u8], most: usize) -> Vec<Vec<u8>> {
    const SECTOR: usize = 4096;
    let mut out = Vec::new();
    if bytes.len() < 2 * SECTOR {
        return out;
    }
    for slot in 0..1024 {
        let e = &bytes[slot * 4..slot * 4 + 4];
        let offset =
            (usize::from(e[0]) << 16 | usize::from(e[1]) << 8 | usize::from(e[2])) * SECTOR;
        let count = usize::from(e[3]);
        if offset < 2 * SECTOR || count == 0 || offset + count * SECTOR > bytes.len() {
            continue;
        }
        let mut r = vec![0u8; 2 * SECTOR];
        r[slot * 4..slot * 4 + 4].copy_from_slice(&[0, 0, 2, e[3]]);
        r[SECTOR + slot * 4..SECTOR + slot * 4 + 4]
            .copy_from_slice(&bytes[SECTOR + slot * 4..SECTOR + slot * 4 + 4]);
        r.extend_from_slice(&bytes[offset..offset + count * SECTOR]);
        // The chunk's own length: the sector's padding past it is not needed.
        let len = u32::from_be_bytes(bytes[offset..offset + 4].try_into().unwrap()) as usize;
        r.truncate((2 * SECTOR + 4 + len).min(r.len()));
        out.push(r);
        if out.len() >= most {
            break;
        }
    }
    out
}

fn run(root: &Path, out: &Path) -> Result<(), String> {
    let mut c = Corpora::default();
    let ops_root = root.join("cases/ops");
    let mut cases = Vec::new();
    files(&ops_root, "json", &mut cases);
    if cases.is_empty() {
        return Err(format!("{}: no op lists found", ops_root.display()));
    }
    for path in &cases {
        let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let case = Case::parse(&text, path).map_err(|e| e.to_string())?;
        let fam = family(&ops_root, path);
        from_case(&mut c, &fam, &case);
        c.add("parse_case", &fam, text.into_bytes());
    }
    for (dir, ext, target) in [
        ("cases/golden", "json", "parse_case"),
        ("snapshots", "snap", "parse_snapshot"),
    ] {
        let base = root.join(dir);
        let mut found = Vec::new();
        files(&base, ext, &mut found);
        for path in found {
            let bytes = fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            c.add(target, &format!("{dir}/{}", family(&base, &path)), bytes);
        }
    }
    let known = root.join(harness::known::PATH);
    let text = fs::read(&known).map_err(|e| format!("{}: {e}", known.display()))?;
    c.add("parse_known", "file", text);
    c.add(
        "parse_known",
        "made",
        b"[[known]]\ncase = \"random/biomes-s3\"\nreason = \"count order differs (issue 12)\"\n\n[[known]]\ncase = 'a/b'\nreason = '''two\nlines'''\n".to_vec(),
    );

    let worlds = root.join("rig/tests/worlds");
    let mut found = Vec::new();
    files(&worlds, "nbt", &mut found);
    files(&worlds, "mca", &mut found);
    for path in &found {
        let bytes = fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.ends_with(".nbt") {
            c.add("world", &name, [&[1u8][..], &bytes].concat());
        } else {
            for r in one_chunk_regions(&bytes, 6) {
                c.add("world", &name, [&[0u8][..], &r].concat());
            }
        }
    }
    // The real worlds' containers, as `rig world --export` writes them.
    let export = std::env::temp_dir().join(format!("paletted-seeds-{}", std::process::id()));
    let _ = fs::remove_dir_all(&export);
    let options = world::Options {
        export: Some(export.clone()),
        sample: Some(96),
        progress: false,
    };
    let exported = world::run(&found, &options).1.exported;
    let mut exported_cases = Vec::new();
    files(&export, "json", &mut exported_cases);
    for path in &exported_cases {
        let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let case = Case::parse(&text, path).map_err(|e| e.to_string())?;
        from_case(&mut c, "real-worlds", &case);
    }
    let _ = fs::remove_dir_all(&export);
    if exported == 0 {
        return Err(format!("{}: no containers exported", worlds.display()));
    }
    c.write(out).map_err(|e| format!("{}: {e}", out.display()))
}

fn main() -> ExitCode {
    let args: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let [root, out] = &args[..] else {
        eprintln!("usage: seeds <repository root> <out dir>");
        return ExitCode::from(2);
    };
    match run(root, out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("seeds: {e}");
            ExitCode::FAILURE
        }
    }
}
