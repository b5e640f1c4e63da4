//! Real worlds as a case source: every section Minecraft saved in a region
//! file, through `unpack` and `pack` and back to its own palette and longs.
//!
//! The golden cases were recorded from a stand-in of Minecraft's classes;
//! region files were written by the game itself, so they are a second,
//! independent source of truth. For every chunk of DataVersion 2860 (1.18)
//! or later, each section's `block_states` and `biomes` become a saved
//! container (palette names numbered by [`registry`]), checked by
//! [`check::container`], tallied in a [`report::Report`], and optionally
//! written out as cases ([`export`]) for anyone with the jar to record.
//!
//! Layers: [`region`] (sector table, decompression) → [`chunk`] (NBT) →
//! [`check`] (one container) → [`report`]; [`sample`] picks what to export.

pub mod check;
pub mod chunk;
pub mod export;
pub mod region;
pub mod registry;
pub mod report;
pub mod sample;

use std::fs;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use paletted::{Kind, Packed, Strategy};

use chunk::{Chunk, FIRST_DATA_VERSION};
use region::{Payload, RegionError};
use registry::Registries;
use report::{Place, Report, Tally};
use sample::Sampler;

/// What a run does besides checking.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Write the containers as cases into this folder.
    pub export: Option<PathBuf>,
    /// Export only this many containers, spread over the palette size classes.
    pub sample: Option<usize>,
    /// Show a progress bar (only drawn when stderr is a terminal).
    pub progress: bool,
}

/// The files a run reads, from the paths given: a `.mca` or chunk `.nbt`
/// file as is; a folder's own `.mca` and `.nbt` files, and every `.mca` in
/// a folder named `region` below it (a world's dimensions). Sorted, so runs
/// are repeatable. Paths that do not exist come back as unreadable input.
pub fn inputs(paths: &[PathBuf]) -> (Vec<PathBuf>, Vec<(Place, String)>) {
    let (files, bad, _) = inputs_and_skipped(paths);
    (files, bad)
}

/// [`inputs`], and the `.mca` files left out because they sit below a folder given but not
/// in a `region` folder (a world's `entities/` and `poi/` hold no block data), so a run that
/// finds nothing can say what it passed over.
pub fn inputs_and_skipped(paths: &[PathBuf]) -> (Vec<PathBuf>, Vec<(Place, String)>, Vec<PathBuf>) {
    let mut files = Vec::new();
    let mut bad = Vec::new();
    let mut skipped = Vec::new();
    for path in paths {
        match fs::metadata(path) {
            Ok(m) if m.is_dir() => {
                let mut found = Vec::new();
                collect(path, true, &mut found, &mut bad, &mut skipped);
                found.sort();
                files.extend(found);
            }
            Ok(_) => files.push(path.clone()),
            Err(e) => bad.push((place_of(path), cannot_read(&e))),
        }
    }
    skipped.sort();
    (files, bad, skipped)
}

fn collect(
    dir: &Path,
    top: bool,
    found: &mut Vec<PathBuf>,
    bad: &mut Vec<(Place, String)>,
    skipped: &mut Vec<PathBuf>,
) {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => return bad.push((place_of(dir), format!("cannot list folder: {e}"))),
    };
    let in_region = dir.file_name().is_some_and(|n| n == "region");
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            collect(&path, false, found, bad, skipped);
        } else if (top || in_region) && name.ends_with(".mca") || top && name.ends_with(".nbt") {
            found.push(path);
        } else if name.ends_with(".mca") {
            skipped.push(path);
        }
    }
}

fn cannot_read(e: &std::io::Error) -> String {
    format!("cannot read: {e}")
}

fn place_of(path: &Path) -> Place {
    Place {
        file: path.display().to_string(),
        ..Place::default()
    }
}

/// One run over many files: the numbering of names, the sample and the
/// export folder carry from file to file.
pub struct World {
    registries: Registries,
    sampler: Option<Sampler>,
    export: Option<PathBuf>,
    exported: usize,
    /// Digests of the containers exported so far: identical sections (a flat world has
    /// thousands) are exported once.
    seen: std::collections::HashSet<[u8; 32]>,
    /// Containers not exported because an identical one was.
    dropped: usize,
    reader: Reader,
    key: String,
}

impl World {
    /// A run with these options.
    pub fn new(options: &Options) -> World {
        World {
            registries: Registries::default(),
            sampler: options.sample.map(Sampler::new),
            export: options.export.clone(),
            exported: 0,
            seen: std::collections::HashSet::new(),
            dropped: 0,
            reader: Reader::default(),
            key: String::new(),
        }
    }

    /// Checks one file: a region file, or one chunk's NBT (gzip, zlib or raw).
    pub fn file(&mut self, path: &Path) -> Tally {
        match fs::read(path) {
            Ok(bytes) => self.bytes(path, &bytes),
            Err(e) => Tally {
                files: 1,
                bad_input: vec![(place_of(path), cannot_read(&e))],
                ..Tally::default()
            },
        }
    }

    /// Checks a file's bytes already in memory, as [`file`](Self::file) would
    /// (the path names it; its extension and region coordinates count). The
    /// fuzz target reaches the reading through here.
    pub fn bytes(&mut self, path: &Path, bytes: &[u8]) -> Tally {
        let mut tally = Tally {
            files: 1,
            ..Tally::default()
        };
        let file = place_of(path);
        let mut reader = std::mem::take(&mut self.reader);
        let read = reader.bytes(path, bytes, &mut |at, nbt| match nbt {
            Ok(nbt) => self.chunk(&file, at, nbt, &mut tally),
            Err(reason) => tally.bad_input.push((
                Place {
                    chunk: at,
                    ..file.clone()
                },
                reason,
            )),
        });
        self.reader = reader;
        tally.bytes = read;
        tally
    }

    /// Checks one chunk's decompressed NBT; `at` is where the region table put it.
    fn chunk(&mut self, file: &Place, at: Option<(i32, i32)>, nbt: &[u8], tally: &mut Tally) {
        let mut place = Place {
            chunk: at,
            ..file.clone()
        };
        let parsed: Chunk<'_> = match chunk::parse(nbt) {
            Ok(c) => c,
            Err(e) => return tally.bad_input.push((place, e)),
        };
        if let (Some(x), Some(z)) = (parsed.x_pos, parsed.z_pos) {
            place.chunk = Some((x, z));
        }
        tally.chunks += 1;
        let Some(version) = parsed.data_version else {
            return tally
                .bad_input
                .push((place, "chunk has no DataVersion".into()));
        };
        place.data_version = Some(version);
        if version < FIRST_DATA_VERSION {
            tally.chunks_old += 1;
            return;
        }
        *tally.data_versions.entry(version).or_insert(0) += 1;
        let upgraded = parsed.upgrader_marks();
        tally.chunks_upgraded += usize::from(upgraded);
        let Some(sections) = &parsed.sections else {
            return tally.bad_input.push((
                place,
                "chunk of the 1.18+ layout has no sections list".into(),
            ));
        };
        for section in sections {
            let Some(y) = section.y else {
                tally
                    .bad_input
                    .push((place.clone(), "section has no Y".into()));
                continue;
            };
            let mut at = Place {
                section_y: Some(y),
                ..place.clone()
            };
            match (&section.block_states, &section.biomes) {
                (None, None) => {
                    tally.sections_light_only += 1;
                    continue;
                }
                (Some(_), None) | (None, Some(_)) => tally.bad_input.push((
                    at.clone(),
                    "section has only one of block_states and biomes".into(),
                )),
                _ => {}
            }
            tally.sections += 1;
            let mut identical = true;
            if let Some(states) = &section.block_states {
                at.kind = Some(Kind::BlockStates);
                let palette = states.palette.as_ref().map(|p| {
                    p.iter()
                        .map(|s| {
                            s.key_into(&mut self.key);
                            self.registries.blocks.id(&self.key)
                        })
                        .collect()
                });
                identical &= self.container(&at, palette, states.data.as_ref(), upgraded, tally);
            }
            if let Some(biomes) = &section.biomes {
                at.kind = Some(Kind::Biomes);
                let palette = biomes
                    .palette
                    .as_ref()
                    .map(|p| p.iter().map(|n| self.registries.biomes.id(n)).collect());
                identical &= self.container(&at, palette, biomes.data.as_ref(), upgraded, tally);
            }
            tally.sections_identical += usize::from(identical);
        }
    }

    /// Checks, samples and exports one container; whether it came back exactly.
    fn container(
        &mut self,
        at: &Place,
        palette: Option<Vec<u32>>,
        data: Option<&fastnbt::borrow::LongArray<'_>>,
        upgraded: bool,
        tally: &mut Tally,
    ) -> bool {
        let kind = at.kind.expect("container place has a kind");
        let Some(palette) = palette else {
            tally
                .bad_input
                .push((at.clone(), "container has no palette".into()));
            return false;
        };
        tally.containers += 1;
        let registry = self.registries.size(kind);
        let strategy = Strategy::with(kind, registry);
        let packed = Packed {
            palette,
            data: data.map(chunk::longs),
            bits: -1,
        };
        let ok = match check::container(strategy, &packed) {
            Ok(()) => {
                tally.containers_identical += 1;
                true
            }
            Err(finding) => {
                tally.difference(at, finding, upgraded);
                false
            }
        };
        let bits = strategy
            .configuration_for_palette_len(packed.palette.len())
            .disk_bits;
        // Identical sections (a flat world has thousands) are sampled and exported once.
        if (self.sampler.is_some() || self.export.is_some())
            && !self.first_of_its_kind(kind, registry, &packed)
        {
            self.dropped += 1;
            return ok;
        }
        if let Some(sampler) = &mut self.sampler {
            sampler.offer(sample::class(kind, bits), at, kind, registry, || {
                packed.clone()
            });
        } else if let Some(dir) = &self.export {
            let picked = sample::Picked::new(at.clone(), kind, registry, packed);
            match export::write(dir, &picked, &self.registries) {
                Ok(()) => self.exported += 1,
                Err(e) => tally.bad_input.push((at.clone(), e)),
            }
        }
        ok
    }

    /// Whether no container with this kind, registry, palette and longs was met before.
    fn first_of_its_kind(&mut self, kind: Kind, registry: u32, packed: &Packed) -> bool {
        use sha2::{Digest, Sha256};
        let mut h = Sha256::new();
        h.update(format!("{kind:?} {registry} {} ", packed.palette.len()));
        for id in &packed.palette {
            h.update(id.to_le_bytes());
        }
        h.update([u8::from(packed.data.is_some())]);
        for l in packed.data.iter().flatten() {
            h.update(l.to_le_bytes());
        }
        self.seen.insert(h.finalize().into())
    }

    /// Ends the run: writes the sample, if any, into the export folder
    /// (write failures go into `tally`) and returns it, so that the command
    /// can list it when there is no export folder.
    pub fn finish(&mut self, tally: &mut Tally) -> Vec<sample::Picked> {
        let Some(sampler) = self.sampler.take() else {
            return Vec::new();
        };
        let picked = sampler.finish();
        if let Some(dir) = &self.export {
            for p in &picked {
                match export::write(dir, p, &self.registries) {
                    Ok(()) => self.exported += 1,
                    Err(e) => tally.bad_input.push((p.place.clone(), e)),
                }
            }
        }
        picked
    }

    /// Containers written as cases so far.
    pub fn exported(&self) -> usize {
        self.exported
    }

    /// Containers not written because an identical one was.
    pub fn dropped(&self) -> usize {
        self.dropped
    }
}

/// What a run did besides its report.
pub struct Outcome {
    /// The sample, if one was asked for.
    pub picked: Vec<sample::Picked>,
    /// Cases exported.
    pub exported: usize,
    /// Containers not exported because an identical one was.
    pub dropped: usize,
    /// Files read.
    pub files: usize,
    /// `.mca` files passed over (not in a `region` folder).
    pub skipped: Vec<PathBuf>,
}

/// Checks every file under `paths`; the report and what else the run did.
pub fn run(paths: &[PathBuf], options: &Options) -> (Report, Outcome) {
    let start = Instant::now();
    let (files, bad, skipped) = inputs_and_skipped(paths);
    let mut report = Report::default();
    if !bad.is_empty() {
        let t = Tally {
            bad_input: bad,
            ..Tally::default()
        };
        report.files.push(("(paths)".into(), t));
    }
    let total: u64 = files
        .iter()
        .filter_map(|f| fs::metadata(f).ok())
        .map(|m| m.len())
        .sum();
    let bar = (options.progress && std::io::stderr().is_terminal()).then(|| {
        let bar = indicatif::ProgressBar::new(total);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:30} {bytes}/{total_bytes} {bytes_per_sec} {wide_msg}",
            )
            .expect("static template"),
        );
        bar
    });
    let mut world = World::new(options);
    for file in &files {
        if let Some(bar) = &bar {
            bar.set_message(
                file.file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
            );
        }
        let tally = world.file(file);
        if let Some(bar) = &bar {
            bar.inc(tally.bytes);
        }
        report.files.push((file.display().to_string(), tally));
    }
    let mut tail = Tally::default();
    let picked = world.finish(&mut tail);
    if !tail.bad_input.is_empty() {
        report.files.push(("(export)".into(), tail));
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    report.elapsed = start.elapsed();
    let outcome = Outcome {
        picked,
        exported: world.exported(),
        dropped: world.dropped(),
        files: files.len(),
        skipped,
    };
    (report, outcome)
}

/// The NBT crate alone, for timing: every chunk of every file read,
/// decompressed and parsed by fastnbt into a full tree (`fastnbt::Value`).
/// Returns chunks parsed, bytes read, failures and the time taken.
pub fn parse_only(paths: &[PathBuf]) -> (usize, u64, usize, Duration) {
    let start = Instant::now();
    let (files, bad) = inputs(paths);
    let (mut chunks, mut bytes, mut failed) = (0, 0, bad.len());
    let mut reader = Reader::default();
    for file in files {
        bytes += reader.file(&file, &mut |_, nbt| match nbt
            .map(fastnbt::from_bytes::<fastnbt::Value>)
        {
            Ok(Ok(_)) => chunks += 1,
            _ => failed += 1,
        });
    }
    (chunks, bytes, failed, start.elapsed())
}

/// Reads files into chunk NBT, with buffers kept from chunk to chunk.
#[derive(Default)]
pub struct Reader {
    nbt: Vec<u8>,
    external: Vec<u8>,
}

/// What a [`Reader`] hands on for each chunk: where the region table put it
/// (absolute chunk coordinates), and its decompressed NBT or why there is none.
pub type ChunkSink<'s> = dyn FnMut(Option<(i32, i32)>, Result<&[u8], String>) + 's;

impl Reader {
    /// Reads `path` (a region file, or one chunk's NBT: gzip, zlib or raw)
    /// and hands each chunk to `sink`; a file that cannot be read at all
    /// comes as one failure with no chunk. Returns the bytes read.
    pub fn file(&mut self, path: &Path, sink: &mut ChunkSink<'_>) -> u64 {
        match fs::read(path) {
            Ok(bytes) => self.bytes(path, &bytes, sink),
            Err(e) => {
                sink(None, Err(cannot_read(&e)));
                0
            }
        }
    }

    /// As [`file`](Self::file), for the file's bytes already read.
    pub fn bytes(&mut self, path: &Path, bytes: &[u8], sink: &mut ChunkSink<'_>) -> u64 {
        if path.extension().is_some_and(|e| e == "mca") {
            return bytes.len() as u64 + self.region(path, bytes, sink);
        }
        let compression = match bytes.first() {
            Some(0x1f) => region::Compression::Gzip,
            Some(0x78) => region::Compression::Zlib,
            _ => region::Compression::None,
        };
        let mut nbt = std::mem::take(&mut self.nbt);
        match region::decompress(compression, bytes, &mut nbt) {
            Ok(()) => sink(None, Ok(&nbt)),
            Err(e) => sink(None, Err(e.to_string())),
        }
        self.nbt = nbt;
        bytes.len() as u64
    }

    /// Every chunk of a region file; returns the bytes of `.mcc` files read.
    fn region(&mut self, path: &Path, bytes: &[u8], sink: &mut ChunkSink<'_>) -> u64 {
        let coords = region::region_coords(path);
        // Absolute chunk coordinates when the file name gives the region's.
        let absolute = |x: u8, z: u8| match coords {
            Some((rx, rz)) => (rx * 32 + x as i32, rz * 32 + z as i32),
            None => (x as i32, z as i32),
        };
        let (slots, bad) = match region::slots(bytes) {
            Ok(s) => s,
            Err(e) => {
                sink(None, Err(e.to_string()));
                return 0;
            }
        };
        for ((x, z), e) in bad {
            sink(Some(absolute(x, z)), Err(e.to_string()));
        }
        let mut external_bytes = 0;
        let mut nbt = std::mem::take(&mut self.nbt);
        for slot in slots {
            let (cx, cz) = absolute(slot.local_x, slot.local_z);
            let read = region::payload(bytes, slot).and_then(|p| match p {
                Payload::Inline(c, data) => region::decompress(c, data, &mut nbt),
                Payload::External(c) => {
                    let mcc = region::external_path(path, cx, cz);
                    if coords.is_none() {
                        return Err(RegionError::External {
                            path: mcc,
                            reason: "the region file's name gives no region coordinates".into(),
                        });
                    }
                    let mut ext = std::mem::take(&mut self.external);
                    ext.clear();
                    let result = fs::File::open(&mcc)
                        .and_then(|mut f| std::io::Read::read_to_end(&mut f, &mut ext))
                        .map_err(|e| RegionError::External {
                            path: mcc.clone(),
                            reason: e.to_string(),
                        })
                        .and_then(|n| {
                            external_bytes += n as u64;
                            region::decompress(c, &ext, &mut nbt)
                        });
                    self.external = ext;
                    result
                }
            });
            match read {
                Ok(()) => sink(Some((cx, cz)), Ok(&nbt)),
                Err(e) => sink(Some((cx, cz)), Err(e.to_string())),
            }
        }
        self.nbt = nbt;
        external_bytes
    }
}
