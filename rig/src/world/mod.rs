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
//! Layers: `paletted::anvil` (region files, decompression, NBT, sections) →
//! [`chunk`] (what the check adds) →
//! [`check`] (one container) → [`report`]; [`sample`] picks what to export.

pub mod check;
pub mod chunk;
pub mod export;
pub mod registry;
pub mod report;
pub mod sample;

use std::fs;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use paletted::{Kind, Packed, Strategy};
use rayon::prelude::*;

use chunk::FIRST_DATA_VERSION;
use paletted::anvil::{self, Compression, ErrorKind, Region};
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
///
/// Files are read, parsed and checked in parallel (rayon, in the current
/// pool), but everything that depends on order (the numbering of names,
/// the tally, the sample, deduplication and export) runs in file and
/// chunk order, so a run's results do not depend on the number of threads.
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
}

/// A file read and taken apart into chunk plans, not yet numbered or tallied.
struct FileRead {
    /// The file's tally so far: its size, or why it could not be read.
    tally: Tally,
    plans: Vec<Plan>,
}

/// One chunk taken out of its NBT (on any thread): what the tally counts
/// and its sections' containers, owned, in the order the tally meets them.
/// Kept flat (one buffer of names a chunk), as a region holds a million names.
#[derive(Default)]
struct Plan {
    /// The chunk: file, coordinates and DataVersion as far as known.
    place: Place,
    /// Read and parsed (counted as a chunk).
    parsed: bool,
    /// Of a DataVersion before 2860: counted, not checked.
    old: bool,
    /// The DataVersion of a chunk that is checked.
    version: Option<i32>,
    /// Holds pre-1.18 keys (see [`chunk::upgrader_marks`]).
    upgraded: bool,
    steps: Vec<Step>,
    /// The sections' containers, in order.
    containers: Vec<Saved>,
    /// Every palette name of the chunk, end to end, and where each one ends.
    names: String,
    ends: Vec<usize>,
}

/// What a chunk adds to the tally, in order.
enum Step {
    /// Unreadable input.
    Bad(Place, String),
    /// A section with neither container.
    LightOnly,
    /// A section at this y whose containers (one or two) come next in the plan's.
    Section(i8, usize),
}

/// One saved container on its way through numbering, check and tally.
struct Saved {
    kind: Kind,
    /// Its palette: the indices of its names in the plan's; none when it has no palette.
    names: Option<std::ops::Range<usize>>,
    data: Option<Vec<i64>>,
    /// After numbering: the registry size and the packed form in run ids.
    numbered: Option<(u32, Packed)>,
    /// After the check.
    result: Option<Result<(), check::Finding>>,
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
        }
    }

    /// Checks one file: a region file, or one chunk's NBT (gzip, zlib or raw).
    #[allow(dead_code)] // the tests' and the fuzz target's way in
    pub fn file(&mut self, path: &Path) -> Tally {
        self.files(std::slice::from_ref(&path.to_path_buf()))
            .pop()
            .expect("one tally a file")
    }

    /// Checks several files side by side, one tally each, in order: the same
    /// tallies as checking them one after the other.
    pub fn files(&mut self, paths: &[PathBuf]) -> Vec<Tally> {
        let read = paths
            .par_iter()
            .map(|path| match fs::read(path) {
                Ok(bytes) => read(path, &bytes),
                Err(e) => FileRead {
                    tally: Tally {
                        files: 1,
                        bad_input: vec![(place_of(path), cannot_read(&e))],
                        ..Tally::default()
                    },
                    plans: Vec::new(),
                },
            })
            .collect();
        self.settle(read)
    }

    /// Checks a file's bytes already in memory, as [`file`](Self::file) would
    /// (the path names it; its extension and region coordinates count). The
    /// fuzz target reaches the reading through here.
    #[allow(dead_code)] // the tests' and the fuzz target's way in
    pub fn bytes(&mut self, path: &Path, bytes: &[u8]) -> Tally {
        self.settle(vec![read(path, bytes)])
            .pop()
            .expect("one tally a file")
    }

    /// Numbers the files' names in order, checks every container in
    /// parallel, then tallies, samples and exports in order.
    fn settle(&mut self, mut read: Vec<FileRead>) -> Vec<Tally> {
        for plan in read.iter_mut().flat_map(|f| &mut f.plans) {
            self.number(plan);
        }
        read.par_iter_mut()
            .flat_map(|f| f.plans.par_iter_mut())
            .for_each(|plan| {
                let rules = plan.version.and_then(check::rules_for).unwrap_or_default();
                for saved in &mut plan.containers {
                    if let Some((registry, packed)) = &saved.numbered {
                        // The saving version's rules: its wire form and sizes.
                        let strategy = Strategy::with(saved.kind, *registry).with_rules(rules);
                        saved.result = Some(check::container(strategy, packed));
                    }
                }
            });
        read.into_iter()
            .map(|f| {
                let mut tally = f.tally;
                for plan in f.plans {
                    self.tally(plan, &mut tally);
                }
                tally
            })
            .collect()
    }

    /// Gives the chunk's palette names their run ids, and each container its registry size.
    fn number(&mut self, plan: &mut Plan) {
        let Plan {
            containers,
            names,
            ends,
            ..
        } = plan;
        for saved in containers {
            let Some(range) = saved.names.take() else {
                continue;
            };
            let numbering = match saved.kind {
                Kind::BlockStates => &mut self.registries.blocks,
                Kind::Biomes => &mut self.registries.biomes,
            };
            let palette = range
                .map(|i| {
                    let start = if i == 0 { 0 } else { ends[i - 1] };
                    numbering.id(&names[start..ends[i]])
                })
                .collect();
            let packed = Packed {
                palette,
                data: saved.data.take(),
                bits: -1,
            };
            saved.numbered = Some((self.registries.size(saved.kind), packed));
        }
    }

    /// Adds a checked chunk to its file's tally.
    fn tally(&mut self, plan: Plan, tally: &mut Tally) {
        tally.chunks += usize::from(plan.parsed);
        tally.chunks_old += usize::from(plan.old);
        if let Some(version) = plan.version {
            *tally.data_versions.entry(version).or_insert(0) += 1;
            tally.chunks_upgraded += usize::from(plan.upgraded);
        }
        let mut containers = plan.containers.into_iter();
        for step in plan.steps {
            match step {
                Step::Bad(place, reason) => tally.bad_input.push((place, reason)),
                Step::LightOnly => tally.sections_light_only += 1,
                Step::Section(y, n) => {
                    tally.sections += 1;
                    let mut at = Place {
                        section_y: Some(y),
                        ..plan.place.clone()
                    };
                    let mut identical = true;
                    for saved in containers.by_ref().take(n) {
                        at.kind = Some(saved.kind);
                        identical &= self.container(&at, saved, plan.upgraded, tally);
                    }
                    tally.sections_identical += usize::from(identical);
                }
            }
        }
    }

    /// Tallies, samples and exports one checked container; whether it came back exactly.
    fn container(&mut self, at: &Place, saved: Saved, upgraded: bool, tally: &mut Tally) -> bool {
        let kind = saved.kind;
        let Some((registry, packed)) = saved.numbered else {
            tally
                .bad_input
                .push((at.clone(), "container has no palette".into()));
            return false;
        };
        tally.containers += 1;
        let rules = at
            .data_version
            .and_then(check::rules_for)
            .unwrap_or_default();
        let strategy = Strategy::with(kind, registry).with_rules(rules);
        let ok = match saved.result.expect("every numbered container is checked") {
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
                Err(e) => tally.bad_input.push((picked.place, e)),
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
    // A window of files at a time, one a thread: enough to keep every core busy on small
    // files, while only the window's chunks are held in memory.
    for window in files.chunks(rayon::current_num_threads().max(1)) {
        if let Some(bar) = &bar {
            bar.set_message(
                window[0]
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
            );
        }
        for (file, tally) in window.iter().zip(world.files(window)) {
            if let Some(bar) = &bar {
                bar.inc(tally.bytes);
            }
            report.files.push((file.display().to_string(), tally));
        }
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
/// decompressed and parsed by fastnbt into a full tree (`fastnbt::Value`),
/// in parallel as [`run`] reads. Returns chunks parsed, bytes read, failures
/// and the time taken.
pub fn parse_only(paths: &[PathBuf]) -> (usize, u64, usize, Duration) {
    let start = Instant::now();
    let (files, bad) = inputs(paths);
    let parse = |_, nbt: Result<&[u8], String>| {
        nbt.is_ok_and(|nbt| fastnbt::from_bytes::<fastnbt::Value>(nbt).is_ok())
    };
    let (chunks, bytes, failed) = files
        .par_iter()
        .map(|file| match fs::read(file) {
            Ok(bytes) => {
                let (parsed, read) = chunks(file, &bytes, &parse);
                let ok = parsed.iter().filter(|&&ok| ok).count();
                (ok, read, parsed.len() - ok)
            }
            Err(_) => (0, 0, 1),
        })
        .reduce(|| (0, 0, 0), |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2));
    (chunks, bytes, failed + bad.len(), start.elapsed())
}

/// A file read and every chunk of it planned (in parallel over a region file's chunks).
fn read(path: &Path, bytes: &[u8]) -> FileRead {
    let file = place_of(path);
    let (plans, read) = chunks(path, bytes, &|at, nbt| plan(&file, at, nbt));
    FileRead {
        tally: Tally {
            files: 1,
            bytes: read,
            ..Tally::default()
        },
        plans,
    }
}

/// Takes one chunk's decompressed NBT apart (through `paletted::anvil`'s
/// NBT tree and sections); `at` is where the region table put it.
fn plan(file: &Place, at: Option<(i32, i32)>, nbt: Result<&[u8], String>) -> Plan {
    let mut plan = Plan {
        place: Place {
            chunk: at,
            ..file.clone()
        },
        ..Plan::default()
    };
    let nbt = match nbt {
        Ok(nbt) => nbt,
        Err(e) => {
            plan.steps.push(Step::Bad(plan.place.clone(), e));
            return plan;
        }
    };
    let parsed = anvil::outline(nbt).map_err(|e| format!("chunk NBT does not parse: {}", e.kind()));
    let outline = match parsed {
        Ok(o) => o,
        Err(e) => {
            plan.steps.push(Step::Bad(plan.place.clone(), e));
            return plan;
        }
    };
    if let Some(position) = outline.position {
        plan.place.chunk = Some(position);
    }
    plan.parsed = true;
    let version = match outline.data_version {
        Ok(v) => v,
        Err(e) => {
            let reason = match e.kind() {
                ErrorKind::Missing => "chunk has no DataVersion".to_owned(),
                _ => e.to_string(),
            };
            plan.steps.push(Step::Bad(plan.place.clone(), reason));
            return plan;
        }
    };
    plan.place.data_version = Some(version);
    if version < FIRST_DATA_VERSION {
        plan.old = true;
        return plan;
    }
    plan.version = Some(version);
    let sections = match outline.sections {
        Ok(s) => s,
        Err(e) => {
            let reason = match e.kind() {
                ErrorKind::Missing => "chunk of the 1.18+ layout has no sections list".to_owned(),
                _ => e.to_string(),
            };
            plan.steps.push(Step::Bad(plan.place.clone(), reason));
            return plan;
        }
    };
    plan.upgraded = chunk::upgrader_marks(&outline.keys, &sections);
    let mut key = String::new();
    for section in sections {
        let section = match section {
            Ok(s) => s,
            Err(e) => {
                plan.steps
                    .push(Step::Bad(plan.place.clone(), e.to_string()));
                continue;
            }
        };
        let y = section.y;
        match (&section.block_states, &section.biomes) {
            (None, None) => {
                plan.steps.push(Step::LightOnly);
                continue;
            }
            (Some(_), None) | (None, Some(_)) => plan.steps.push(Step::Bad(
                Place {
                    section_y: Some(y),
                    ..plan.place.clone()
                },
                "section has only one of block_states and biomes".into(),
            )),
            _ => {}
        }
        let before = plan.containers.len();
        for (kind, saved) in [
            (Kind::BlockStates, section.block_states),
            (Kind::Biomes, section.biomes),
        ] {
            let Some(saved) = saved else { continue };
            let start = plan.ends.len();
            for i in 0..saved.palette_len() {
                let entry = saved.entry(nbt, i);
                let named = match (kind, &entry) {
                    (_, Err(_)) => None,
                    (Kind::BlockStates, Ok(entry)) => chunk::state_key(entry, &mut key),
                    (Kind::Biomes, Ok(entry)) => chunk::biome_name(entry).map(|n| key = n),
                };
                if named.is_none() {
                    let bad = Place {
                        section_y: Some(y),
                        kind: Some(kind),
                        ..plan.place.clone()
                    };
                    let what = harness::case::strategy_name(kind);
                    plan.steps.push(Step::Bad(
                        bad,
                        format!(
                            "sections[{}].{what}.palette[{i}]: not a palette entry",
                            section.index
                        ),
                    ));
                    key.clear();
                }
                plan.name(&key);
            }
            plan.containers.push(Saved {
                kind,
                names: Some(start..plan.ends.len()),
                data: saved.data,
                numbered: None,
                result: None,
            });
        }
        plan.steps
            .push(Step::Section(y, plan.containers.len() - before));
    }
    plan
}

impl Plan {
    /// Adds a palette name to the chunk's.
    fn name(&mut self, name: &str) {
        self.names.push_str(name);
        self.ends.push(self.names.len());
    }
}

/// What [`chunks`] hands each chunk to: where the region table put it
/// (absolute chunk coordinates), and its decompressed NBT or why there is none.
pub type ChunkFn<'f, T> = dyn Fn(Option<(i32, i32)>, Result<&[u8], String>) -> T + Sync + 'f;

/// Reads a file's bytes (a region file, or one chunk's NBT: gzip, zlib or
/// raw) and hands each chunk to `each`, in parallel over a region file's
/// chunks. The results come in file order: a file unreadable as a whole as
/// one failure with no chunk, else the unusable table entries, then the
/// chunks in table order. Also gives the bytes read (with `.mcc` files).
pub fn chunks<T: Send>(path: &Path, bytes: &[u8], each: &ChunkFn<'_, T>) -> (Vec<T>, u64) {
    if path.extension().is_some_and(|e| e == "mca") {
        let (out, external) = region(path, bytes, each);
        return (out, bytes.len() as u64 + external);
    }
    let compression = match bytes.first() {
        Some(0x1f) => Compression::Gzip,
        Some(0x78) => Compression::Zlib,
        _ => Compression::None,
    };
    let mut nbt = Vec::new();
    let out = match compression.decompress(bytes, &mut nbt) {
        Ok(()) => each(None, Ok(&nbt)),
        Err(e) => each(None, Err(e.to_string())),
    };
    (vec![out], bytes.len() as u64)
}

/// Every chunk of a region file (read by `paletted::anvil::Region`); also
/// the bytes of `.mcc` files read.
fn region<T: Send>(path: &Path, bytes: &[u8], each: &ChunkFn<'_, T>) -> (Vec<T>, u64) {
    let (region, bad) = match Region::scan(path, bytes.to_vec()) {
        Ok(s) => s,
        Err(e) => return (vec![each(None, Err(e.kind().to_string()))], 0),
    };
    let mut out: Vec<T> = bad
        .into_iter()
        .map(|e| each(e.chunk(), Err(e.kind().to_string())))
        .collect();
    let present: Vec<(u8, u8)> = region.chunks().collect();
    // A buffer for the decompressed NBT, kept from chunk to chunk on each thread.
    let read: Vec<(T, u64)> = present
        .par_iter()
        .map_init(Vec::new, |nbt, &(x, z)| {
            let at = Some(region.chunk_coords(x, z));
            let external_bytes = region.external_len(x, z);
            let out = match region.nbt_into(x, z, nbt) {
                Ok(_) => each(at, Ok(nbt)),
                Err(e) => each(at, Err(e.kind().to_string())),
            };
            (out, external_bytes)
        })
        .collect();
    let mut external = 0;
    for (t, n) in read {
        out.push(t);
        external += n;
    }
    (out, external)
}
