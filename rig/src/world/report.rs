//! What a run found, per file and in total, and how it is printed.

use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

use paletted::Kind;

use super::check::{Difference, Finding};

/// Where something was found: as much of file, chunk, section, DataVersion
/// and container as applies.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Place {
    /// The file, as given or found.
    pub file: String,
    /// Absolute chunk coordinates.
    pub chunk: Option<(i32, i32)>,
    /// Section y.
    pub section_y: Option<i8>,
    /// The chunk's DataVersion.
    pub data_version: Option<i32>,
    /// Which container.
    pub kind: Option<Kind>,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.file)?;
        if let Some((x, z)) = self.chunk {
            write!(f, ", chunk ({x}, {z})")?;
        }
        if let Some(y) = self.section_y {
            write!(f, ", section y {y}")?;
        }
        if let Some(v) = self.data_version {
            write!(f, ", DataVersion {v}")?;
        }
        if let Some(k) = self.kind {
            f.write_str(match k {
                Kind::BlockStates => ", block_states",
                Kind::Biomes => ", biomes",
            })?;
        }
        Ok(())
    }
}

/// One kind of difference: how often, and the first seen.
#[derive(Clone, Debug)]
pub struct Seen {
    /// Containers with it.
    pub count: usize,
    /// The first one.
    pub example: Place,
    /// Its particulars.
    pub detail: String,
}

/// Counts for one file or for the whole run.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Files read.
    pub files: usize,
    /// Bytes of region (or chunk) files read.
    pub bytes: u64,
    /// Chunks read and parsed.
    pub chunks: usize,
    /// Chunks checked (DataVersion 2860 or later), by DataVersion.
    pub data_versions: BTreeMap<i32, usize>,
    /// Chunks before DataVersion 2860 (the pre-1.18 layout), not checked.
    pub chunks_old: usize,
    /// Chunks with pre-1.18 keys under a new DataVersion (upgrader-written).
    pub chunks_upgraded: usize,
    /// Sections checked (those with at least one container).
    pub sections: usize,
    /// Sections whose every container came back exactly.
    pub sections_identical: usize,
    /// Sections with neither container (light-only sections).
    pub sections_light_only: usize,
    /// Containers checked.
    pub containers: usize,
    /// Containers that came back exactly.
    pub containers_identical: usize,
    /// Differences in chunks the game saved through its normal path.
    pub differences: BTreeMap<Difference, Seen>,
    /// Differences in upgrader-written chunks: reported, not counted as ours.
    pub upgraded_differences: BTreeMap<Difference, Seen>,
    /// Unreadable input: place and reason, every one.
    pub bad_input: Vec<(Place, String)>,
}

impl Tally {
    /// Records a container's difference.
    pub fn difference(&mut self, place: &Place, finding: Finding, upgraded: bool) {
        let map = if upgraded {
            &mut self.upgraded_differences
        } else {
            &mut self.differences
        };
        map.entry(finding.difference)
            .and_modify(|s| s.count += 1)
            .or_insert_with(|| Seen {
                count: 1,
                example: place.clone(),
                detail: finding.detail,
            });
    }

    /// Adds another tally's counts (examples: the first one kept).
    pub fn add(&mut self, other: &Tally) {
        self.files += other.files;
        self.bytes += other.bytes;
        self.chunks += other.chunks;
        self.chunks_old += other.chunks_old;
        for (v, n) in &other.data_versions {
            *self.data_versions.entry(*v).or_insert(0) += n;
        }
        self.chunks_upgraded += other.chunks_upgraded;
        self.sections += other.sections;
        self.sections_identical += other.sections_identical;
        self.sections_light_only += other.sections_light_only;
        self.containers += other.containers;
        self.containers_identical += other.containers_identical;
        for (mine, theirs) in [
            (&mut self.differences, &other.differences),
            (&mut self.upgraded_differences, &other.upgraded_differences),
        ] {
            for (d, s) in theirs {
                mine.entry(*d)
                    .and_modify(|m| m.count += s.count)
                    .or_insert_with(|| s.clone());
            }
        }
        self.bad_input.extend(other.bad_input.iter().cloned());
    }

    /// Whether anything is wrong: a difference in a normally saved chunk, or
    /// unreadable input. Upgrader-written differences do not count.
    pub fn failed(&self) -> bool {
        !self.differences.is_empty() || !self.bad_input.is_empty()
    }

    /// Differences that point at the Rust containers rather than the input.
    pub fn ours(&self) -> usize {
        self.differences
            .iter()
            .filter(|(d, _)| !d.is_input())
            .map(|(_, s)| s.count)
            .sum()
    }
}

/// A whole run: each file's tally, the total and the time taken.
#[derive(Debug, Default)]
pub struct Report {
    /// Per file, in the order read.
    pub files: Vec<(String, Tally)>,
    /// Wall-clock time of the run.
    pub elapsed: Duration,
}

impl Report {
    /// Every file's counts together.
    pub fn total(&self) -> Tally {
        let mut total = Tally::default();
        for (_, t) in &self.files {
            total.add(t);
        }
        total
    }
}

fn summary(f: &mut fmt::Formatter<'_>, t: &Tally) -> fmt::Result {
    write!(
        f,
        "{} sections checked, {} identical ({} containers, {} identical); {} chunks",
        t.sections, t.sections_identical, t.containers, t.containers_identical, t.chunks
    )?;
    if !t.data_versions.is_empty() {
        let versions: Vec<String> = t.data_versions.keys().map(i32::to_string).collect();
        write!(f, " (DataVersion {})", versions.join(", "))?;
    }
    if t.chunks_old > 0 {
        write!(f, ", {} before DataVersion 2860 not checked", t.chunks_old)?;
    }
    if t.chunks_upgraded > 0 {
        write!(f, ", {} upgrader-written", t.chunks_upgraded)?;
    }
    if t.sections_light_only > 0 {
        write!(f, ", {} light-only sections", t.sections_light_only)?;
    }
    if !t.bad_input.is_empty() {
        write!(f, ", {} unreadable", t.bad_input.len())?;
    }
    Ok(())
}

fn differences(f: &mut fmt::Formatter<'_>, t: &Tally, indent: &str) -> fmt::Result {
    for (title, map) in [
        ("difference", &t.differences),
        ("upgrader-written, not counted", &t.upgraded_differences),
    ] {
        for (d, s) in map {
            writeln!(
                f,
                "{indent}{title}: {d}: {} containers; e.g. {}: {}",
                s.count, s.example, s.detail
            )?;
        }
    }
    Ok(())
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (file, t) in &self.files {
            write!(f, "{file}: ")?;
            summary(f, t)?;
            writeln!(f)?;
            differences(f, t, "  ")?;
            for (place, reason) in &t.bad_input {
                writeln!(f, "  unreadable: {place}: {reason}")?;
            }
        }
        let total = self.total();
        write!(f, "total: {} files, ", total.files)?;
        summary(f, &total)?;
        writeln!(f)?;
        differences(f, &total, "  ")?;
        if total.ours() > 0 {
            writeln!(
                f,
                "  {} of these differences point at the Rust containers, not the input",
                total.ours()
            )?;
        }
        let secs = self.elapsed.as_secs_f64().max(1e-9);
        writeln!(
            f,
            "throughput: {:.0} sections/s, {:.1} MB/s ({:.2} MB of region data in {:.3} s)",
            total.sections as f64 / secs,
            total.bytes as f64 / 1e6 / secs,
            total.bytes as f64 / 1e6,
            secs
        )
    }
}
