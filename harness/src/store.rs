//! The repository's case store: op lists in `cases/ops/<name>.json`, their
//! recorded results in `snapshots/<name>.snap`. Import splits a recording
//! (golden format) into the two; export joins them back.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use crate::case::Case;
use crate::error::ParseError;
use crate::known;
use crate::limits;
use crate::outcome::Outcome;
use crate::recorded::Recorded;
use crate::snapshot::{Provenance, Snapshot};

/// Keys of a recording's extra top-level fields that describe the
/// recording itself; import copies them into the snapshot's provenance.
const PROVENANCE_KEYS: [&str; 6] = [
    "recorder",
    "minecraft_version",
    "jar_sha1",
    DERIVED_FROM,
    PARENT_SHA256,
    PARENT_OPS,
];

/// The provenance key naming the parent of a derived recording (see [`Derivation`]).
pub const DERIVED_FROM: &str = "derived_from";
/// The provenance key holding the parent's [`fingerprint`] when it was derived from.
pub const PARENT_SHA256: &str = "parent_sha256";
/// The provenance key listing the kept ops' indices in the parent, as a JSON list.
pub const PARENT_OPS: &str = "parent_ops";

/// How many derivations deep a chain of derived recordings may go.
const DERIVED_DEPTH: usize = 8;

/// A recording derived from another by leaving ops out (`rig shrink` of a
/// recorded case, no Minecraft involved): it keeps the parent's subject, the
/// parent's ops at [`Derivation::ops`] and their recorded results.
///
/// Those results are Minecraft's only because every op left out before the
/// last kept one only observes (it changes nothing a later op sees), so its
/// results are truth only once checked against the parent ([`Store::gate`]);
/// the trusted sources alone never accept it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Derivation {
    /// The parent's case name.
    pub parent: String,
    /// The parent's [`fingerprint`] when the case was derived.
    pub sha256: String,
    /// Where each kept op sits in the parent, in order.
    pub ops: Vec<usize>,
}

impl Derivation {
    /// The derivation a provenance names: `None` when it names none, an
    /// error when its keys are malformed.
    pub fn of(provenance: &Provenance) -> Option<Result<Derivation, String>> {
        let parent = provenance.get(DERIVED_FROM)?.to_string();
        let sha256 = provenance.get(PARENT_SHA256).unwrap_or("").to_string();
        if sha256.len() != 64 || !sha256.chars().all(|c| c.is_ascii_hexdigit()) {
            return Some(Err(format!(
                "`{PARENT_SHA256}: {sha256}` is not a SHA-256 (64 hex digits)"
            )));
        }
        let ops = provenance.get(PARENT_OPS).unwrap_or("");
        let Ok(ops) = serde_json::from_str::<Vec<usize>>(ops) else {
            return Some(Err(format!(
                "`{PARENT_OPS}: {ops}` is not a list of op indices"
            )));
        };
        Some(Ok(Derivation {
            parent,
            sha256,
            ops,
        }))
    }

    /// Writes the derivation into a recording's top-level keys, which
    /// [`Store::provenance`] carries into its snapshot.
    pub fn annotate(&self, extra: &mut Map<String, Value>) {
        extra.insert(DERIVED_FROM.into(), Value::from(self.parent.as_str()));
        extra.insert(PARENT_SHA256.into(), Value::from(self.sha256.as_str()));
        extra.insert(PARENT_OPS.into(), Value::from(self.ops.clone()));
    }
}

/// The SHA-256 (hex) of a recording's subject, ops and results: what a
/// derived recording pins its parent by. Names, notes and provenance are
/// left out, so a golden file and its import into the store agree.
pub fn fingerprint(case: &Case, results: &[Outcome]) -> String {
    let mut h = Sha256::new();
    h.update(case.subject.to_json().to_string());
    h.update("\n");
    for i in 0..case.ops.len() {
        h.update(case.ops.to_json(i).to_string());
        h.update("\n");
    }
    h.update(crate::snapshot::body(results));
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// The store under a repository root.
#[derive(Clone, Debug)]
pub struct Store {
    root: PathBuf,
}

/// One case file found in the store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The name (`ladder/biomes-r8`).
    pub name: String,
    /// The op list.
    pub case: PathBuf,
    /// The snapshot, when one exists.
    pub snapshot: Option<PathBuf>,
}

impl Store {
    /// The store at `root`.
    pub fn at(root: impl Into<PathBuf>) -> Store {
        Store { root: root.into() }
    }

    /// The store of the repository holding the current directory (the
    /// nearest folder up with `cases/ops`), else of this source tree.
    pub fn find() -> Store {
        let here = std::env::current_dir().unwrap_or_default();
        for dir in here.ancestors() {
            if dir.join("cases").join("ops").is_dir() {
                return Store::at(dir);
            }
        }
        Store::at(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
    }

    /// The repository root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// `cases/ops/<name>.json`.
    pub fn case_path(&self, name: &str) -> PathBuf {
        crate::snapshot::case_path(&self.root, name)
    }

    /// `snapshots/<name>.snap`.
    pub fn snapshot_path(&self, name: &str) -> PathBuf {
        crate::snapshot::path_for(&self.root, name)
    }

    /// `cases/known-divergences.toml`.
    pub fn known_path(&self) -> PathBuf {
        self.root.join(known::PATH)
    }

    /// `cases/trusted-sources.toml`.
    pub fn trusted_path(&self) -> PathBuf {
        self.root.join(crate::trusted::PATH)
    }

    /// The trusted provenances (`cases/trusted-sources.toml`).
    pub fn trusted(&self) -> Result<crate::trusted::Trusted, ParseError> {
        crate::trusted::Trusted::load(&self.trusted_path())
    }

    /// Why the gate refuses `provenance` as truth here (malformed or
    /// unlisted, see [`crate::trusted`]), or `None`.
    pub fn refusal(&self, provenance: &Provenance) -> Option<String> {
        match self.trusted() {
            Ok(t) => t.refusal(provenance),
            Err(e) => Some(format!("the trusted sources cannot be read: {e}")),
        }
    }

    /// Why these results are not truth here, or `None`: a derived recording
    /// ([`Derivation`]) must hold its parent's ops and recorded results at
    /// the kept indices, leave out before its last kept op only ops that
    /// observe, and have a parent that is truth itself; any other goes
    /// through the trusted sources ([`crate::trusted::Trusted::refusal`]).
    pub fn gate(
        &self,
        trusted: &crate::trusted::Trusted,
        case: &Case,
        results: &[Outcome],
        provenance: &Provenance,
    ) -> Option<String> {
        self.gate_at(trusted, case, results, provenance, 0)
    }

    fn gate_at(
        &self,
        trusted: &crate::trusted::Trusted,
        case: &Case,
        results: &[Outcome],
        provenance: &Provenance,
        depth: usize,
    ) -> Option<String> {
        let Some(derivation) = Derivation::of(provenance) else {
            return trusted.refusal(provenance);
        };
        if let Some(why) = provenance.refusal() {
            return Some(why);
        }
        let why = match derivation {
            Err(why) => why,
            Ok(d) => {
                let why = self.derived_refusal(trusted, case, results, &d, depth)?;
                format!("derived from `{}`: {why}", d.parent)
            }
        };
        Some(why)
    }

    /// Why a derived recording is not its parent's ops and results.
    fn derived_refusal(
        &self,
        trusted: &crate::trusted::Trusted,
        case: &Case,
        results: &[Outcome],
        d: &Derivation,
        depth: usize,
    ) -> Option<String> {
        if depth >= DERIVED_DEPTH {
            return Some(format!("more than {DERIVED_DEPTH} derivations deep"));
        }
        if let Err(why) = check_name(&d.parent) {
            return Some(why);
        }
        let case_path = self.case_path(&d.parent);
        let snap_path = self.snapshot_path(&d.parent);
        let (case_shown, snap_shown) = (
            self.relative(&case_path).display().to_string(),
            self.relative(&snap_path).display().to_string(),
        );
        if !case_path.is_file() {
            return Some(format!(
                "the parent is not in the store (no {case_shown}): import or add it first"
            ));
        }
        if !snap_path.is_file() {
            return Some(format!(
                "the parent has no recorded results (no {snap_shown})"
            ));
        }
        let parent = match read(&case_path).and_then(|t| Case::parse(&t, Path::new(&case_shown))) {
            Ok(c) => c,
            Err(e) => return Some(e.to_string()),
        };
        let snap = match read(&snap_path).and_then(|t| Snapshot::parse(&t, Path::new(&snap_shown)))
        {
            Ok(s) => s,
            Err(e) => return Some(e.to_string()),
        };
        if snap.results.len() != parent.ops.len() {
            return Some(format!(
                "{snap_shown} has {} results for {} ops",
                snap.results.len(),
                parent.ops.len()
            ));
        }
        let now = fingerprint(&parent, &snap.results);
        if now != d.sha256 {
            return Some(format!(
                "the parent's ops or results changed since ({PARENT_SHA256} {}, now {now}): shrink it again",
                d.sha256
            ));
        }
        if case.subject != parent.subject {
            return Some("its subject is not the parent's".into());
        }
        if d.ops.len() != case.ops.len() || results.len() != case.ops.len() {
            return Some(format!(
                "{} kept ops named in {PARENT_OPS} and {} results for {} ops",
                d.ops.len(),
                results.len(),
                case.ops.len()
            ));
        }
        if d.ops.windows(2).any(|w| w[0] >= w[1]) || d.ops.iter().any(|&i| i >= parent.ops.len()) {
            return Some(format!(
                "{PARENT_OPS} are not increasing indices below the parent's {} ops",
                parent.ops.len()
            ));
        }
        for (k, &i) in d.ops.iter().enumerate() {
            if case.ops.to_json(k) != parent.ops.to_json(i) {
                return Some(format!(
                    "its op {k} (`{}`) is not the parent's op {i} (`{}`)",
                    case.ops.text(k),
                    parent.ops.text(i)
                ));
            }
            if results[k] != snap.results[i] {
                return Some(format!(
                    "its result for op {k} (`{}`, the parent's op {i}) is {}, the parent's recorded result is {}",
                    case.ops.text(k),
                    results[k],
                    snap.results[i]
                ));
            }
        }
        let last = d.ops.last().copied().unwrap_or(0);
        if let Some(i) =
            (0..last).find(|i| parent.ops.changes_state(*i) && d.ops.binary_search(i).is_err())
        {
            return Some(format!(
                "it leaves out the parent's op {i} (`{}`), which changes state: the kept results hold only when every op left out before the last kept one only observes",
                parent.ops.text(i)
            ));
        }
        self.gate_at(trusted, &parent, &snap.results, &snap.provenance, depth + 1)
            .map(|why| format!("the parent is not truth: {snap_shown}: {why}"))
    }

    /// A path relative to the root where it is under it, for messages.
    pub fn relative<'p>(&self, path: &'p Path) -> &'p Path {
        path.strip_prefix(&self.root).unwrap_or(path)
    }

    /// Every op list under `cases/ops`, sorted by name.
    pub fn entries(&self) -> Vec<Entry> {
        let ops = self.root.join("cases").join("ops");
        json_files(&ops)
            .into_iter()
            .filter_map(|case| {
                let rel = case.strip_prefix(&ops).ok()?.with_extension("");
                let name = rel.to_str()?.replace('\\', "/");
                let snap = self.snapshot_path(&name);
                Some(Entry {
                    snapshot: snap.is_file().then_some(snap),
                    name,
                    case,
                })
            })
            .collect()
    }

    /// Snapshots with no op list beside them.
    pub fn orphan_snapshots(&self) -> Vec<PathBuf> {
        let snaps = self.root.join("snapshots");
        files_with(&snaps, "snap")
            .into_iter()
            .filter(|p| {
                let Ok(rel) = p.strip_prefix(&snaps) else {
                    return false;
                };
                let name = rel.with_extension("");
                !self
                    .case_path(&name.to_string_lossy().replace('\\', "/"))
                    .is_file()
            })
            .collect()
    }

    /// `.snap.new` files under `snapshots/`: what the insta test leaves
    /// for a diverging case (Rust results, never truth).
    pub fn pending_snapshots(&self) -> Vec<PathBuf> {
        files_with(&self.root.join("snapshots"), "new")
            .into_iter()
            .filter(|p| p.to_string_lossy().ends_with(".snap.new"))
            .collect()
    }

    /// The provenance a recording's snapshot gets: its `source`, the
    /// recorder (the file's own `recorder` key, else `recorder`), its
    /// `minecraft_version` and `jar_sha1` keys, and where it came from.
    pub fn provenance(recorded: &Recorded, recorder: &str, imported_from: &str) -> Provenance {
        let mut provenance = Provenance::recording(&recorded.source, recorder);
        for key in PROVENANCE_KEYS {
            if let Some(v) = recorded.case.extra.get(key) {
                let v = v.as_str().map_or_else(|| v.to_string(), str::to_string);
                provenance = provenance.with(key, &v);
            }
        }
        provenance.with("imported_from", imported_from)
    }

    /// Splits a recording into its op list and its snapshot texts.
    /// `imported_from` says where it came from, for the provenance.
    pub fn split(recorded: &Recorded, recorder: &str, imported_from: &str) -> (String, String) {
        let snapshot = Snapshot {
            provenance: Store::provenance(recorded, recorder, imported_from),
            results: recorded.results.clone(),
        };
        (
            recorded.case.to_text(),
            snapshot.to_text(&recorded.case.name),
        )
    }

    /// Joins an op list and its snapshot back into a recording; the
    /// recording's `source` is the snapshot's provenance `source`.
    pub fn join(case: Case, snapshot: Snapshot) -> Result<Recorded, String> {
        let source = snapshot
            .provenance
            .get("source")
            .ok_or_else(|| format!("the snapshot of {} names no source", case.name))?
            .to_string();
        if snapshot.results.len() != case.ops.len() {
            return Err(format!(
                "the snapshot of {} has {} results for {} ops",
                case.name,
                snapshot.results.len(),
                case.ops.len()
            ));
        }
        Ok(Recorded {
            case,
            source,
            results: snapshot.results,
            format: crate::case::FORMAT,
        })
    }

    /// Files a recording as `cases/ops/<name>.json` and
    /// `snapshots/<name>.snap` (see [`Store::put`]).
    pub fn import(
        &self,
        recorded: &Recorded,
        recorder: &str,
        imported_from: &str,
        force: bool,
    ) -> Result<Filed, StoreError> {
        let snapshot = Snapshot {
            provenance: Store::provenance(recorded, recorder, imported_from),
            results: recorded.results.clone(),
        };
        self.put(&recorded.case, Some(&snapshot), force)
    }

    /// Files a case and, when given, its snapshot, all or nothing: both are
    /// written to temporaries first and renamed together, so a failure
    /// leaves the tree as it was (never a case without its snapshot).
    ///
    /// Recorded results change only on purpose: without `force`, an
    /// existing case with other ops, or a snapshot with other results, is
    /// refused, naming each result that would change. A file whose content
    /// would not change is not written at all; a snapshot with the same
    /// results keeps its provenance (where it was imported or recorded
    /// from does not churn), unless the gate refuses the old one and
    /// accepts the new.
    pub fn put(
        &self,
        case: &Case,
        snapshot: Option<&Snapshot>,
        force: bool,
    ) -> Result<Filed, StoreError> {
        check_name(&case.name).map_err(StoreError::Name)?;
        let case_path = self.case_path(&case.name);
        let snap_path = self.snapshot_path(&case.name);
        let case_text = case.to_text();
        let old_text = std::fs::read_to_string(&case_path).ok();
        let old_case = old_text
            .as_deref()
            .and_then(|t| Case::parse(t, &case_path).ok());
        let same_ops = old_case.as_ref().is_some_and(|old| same_ops(old, case));
        let other_ops = old_text.is_some() && !same_ops;
        if other_ops && !force {
            return Err(StoreError::OtherOps(
                self.relative(&case_path).to_path_buf(),
            ));
        }
        let mut filed = Filed::default();
        let mut batch = crate::atomic::Batch::new();
        if old_text.as_deref() != Some(case_text.as_str()) {
            batch.add(&case_path, &case_text)?;
            filed.case = Some(case_path);
        }
        if let Some(new) = snapshot {
            let write = match Snapshot::load(&snap_path) {
                Err(_) => true,
                Ok(_) if force || other_ops => true,
                Ok(old) if old.results != new.results => {
                    return Err(StoreError::Results {
                        snapshot: self.relative(&snap_path).to_path_buf(),
                        changes: changes(&case.name, &old.results, &new.results),
                    })
                }
                Ok(old) => {
                    self.refusal(&old.provenance).is_some()
                        && self.refusal(&new.provenance).is_none()
                }
            };
            let text = new.to_text(&case.name);
            if write && std::fs::read_to_string(&snap_path).ok() != Some(text.clone()) {
                batch.add(&snap_path, &text)?;
                filed.snapshot = Some(snap_path);
            }
        }
        batch.commit()?;
        Ok(filed)
    }

    /// The first case in the store, other than `except`, with the same
    /// subject and ops as `case`.
    pub fn same_as(&self, case: &Case, except: &str) -> Option<Entry> {
        self.entries().into_iter().find(|e| {
            e.name != except
                && std::fs::read_to_string(&e.case)
                    .ok()
                    .and_then(|t| Case::parse(&t, &e.case).ok())
                    .is_some_and(|other| same_ops(&other, case))
        })
    }

    /// The recorded set: every recording under `cases/golden`, and their ops.
    /// Tests derive their expected counts from it, so importing recordings
    /// needs no test edit.
    pub fn recorded_set(&self) -> RecordedSet {
        let files = json_files(&self.root.join("cases").join("golden"));
        let ops = files
            .iter()
            .filter_map(|f| std::fs::read_to_string(f).ok())
            .filter_map(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .map(|v| v["ops"].as_array().map_or(0, Vec::len))
            .sum();
        RecordedSet {
            cases: files.len(),
            ops,
        }
    }

    /// Reads the op list and snapshot of `name` and joins them.
    pub fn export(&self, name: &str) -> Result<Recorded, String> {
        let case_path = self.case_path(name);
        let text = std::fs::read_to_string(&case_path)
            .map_err(|e| format!("{}: {e}", case_path.display()))?;
        let case = Case::parse(&text, self.relative(&case_path)).map_err(|e| e.to_string())?;
        let snapshot = Snapshot::load(&self.snapshot_path(name)).map_err(|e| e.to_string())?;
        Store::join(case, snapshot)
    }
}

/// Reads a file, or says why not as a [`ParseError`] at its start; one
/// past [`limits::FILE_BYTES`] is refused unread.
pub fn read(path: &Path) -> Result<String, ParseError> {
    use std::io::Read as _;
    let fail = |m: String| ParseError::at(path, "", 0, "", m);
    let file = std::fs::File::open(path).map_err(|e| fail(format!("cannot read: {e}")))?;
    let mut bytes = Vec::new();
    // `take`, not the length the file claims: a pipe or a growing file has none.
    file.take(limits::FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| fail(format!("cannot read: {e}")))?;
    if bytes.len() as u64 > limits::FILE_BYTES {
        return Err(fail(format!(
            "more than {} bytes, the limit of a case, recording or snapshot file (PROTOCOL.md, \"Limits\"); not read",
            limits::FILE_BYTES
        )));
    }
    String::from_utf8(bytes).map_err(|e| fail(format!("cannot read: not UTF-8 ({e})")))
}

/// Whether two cases run the same ops on the same subject (names, notes
/// and other extra keys aside).
pub fn same_ops(a: &Case, b: &Case) -> bool {
    a.subject == b.subject && a.ops == b.ops
}

/// The size of the recorded set ([`Store::recorded_set`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordedSet {
    /// Recordings.
    pub cases: usize,
    /// Ops over all of them.
    pub ops: usize,
}

/// What [`Store::put`] wrote: `None` for a file left as it was.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filed {
    /// The case file, when written.
    pub case: Option<PathBuf>,
    /// The snapshot, when written.
    pub snapshot: Option<PathBuf>,
}

impl Filed {
    /// Whether nothing was written.
    pub fn unchanged(&self) -> bool {
        self.case.is_none() && self.snapshot.is_none()
    }
}

/// One recorded result a write would change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// The case.
    pub case: String,
    /// The op's index.
    pub op: usize,
    /// The recorded result (`None`: the op has none).
    pub old: Option<Outcome>,
    /// The result that would replace it.
    pub new: Option<Outcome>,
}

impl std::fmt::Display for Change {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let show = |o: &Option<Outcome>| o.as_ref().map_or("(none)".into(), Outcome::to_string);
        write!(
            f,
            "{} op {}: {} → {}",
            self.case,
            self.op,
            show(&self.old),
            show(&self.new)
        )
    }
}

fn changes(case: &str, old: &[Outcome], new: &[Outcome]) -> Vec<Change> {
    (0..old.len().max(new.len()))
        .filter(|&i| old.get(i) != new.get(i))
        .map(|i| Change {
            case: case.to_string(),
            op: i,
            old: old.get(i).cloned(),
            new: new.get(i).cloned(),
        })
        .collect()
}

/// Why [`Store::put`] filed nothing.
#[derive(Debug)]
pub enum StoreError {
    /// The case name is not a plain relative path.
    Name(String),
    /// A case of that name exists with other ops (or subject).
    OtherOps(PathBuf),
    /// The snapshot holds other results.
    Results {
        /// The snapshot.
        snapshot: PathBuf,
        /// Each result that would change.
        changes: Vec<Change>,
    },
    /// A write failed; the tree is as it was.
    Write(crate::atomic::WriteError),
}

impl From<crate::atomic::WriteError> for StoreError {
    fn from(e: crate::atomic::WriteError) -> StoreError {
        StoreError::Write(e)
    }
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::Name(e) => write!(f, "{e}"),
            StoreError::OtherOps(path) => write!(
                f,
                "{} exists with other ops (--force replaces it)",
                path.display()
            ),
            StoreError::Results { snapshot, changes } => {
                write!(
                    f,
                    "{} holds other recorded results; --force replaces them. {} would change:",
                    snapshot.display(),
                    changes.len()
                )?;
                for c in changes {
                    write!(f, "\n  {c}")?;
                }
                Ok(())
            }
            StoreError::Write(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for StoreError {}

impl From<StoreError> for String {
    fn from(e: StoreError) -> String {
        e.to_string()
    }
}

/// A case name is a relative path of plain segments: letters, digits,
/// `-`, `_`, `.`; no empty or dot-only segment (names become file paths).
pub fn check_name(name: &str) -> Result<(), String> {
    let ok = !name.is_empty()
        && name.split('/').all(|seg| {
            !seg.is_empty()
                && !seg.chars().all(|c| c == '.')
                && seg
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
        });
    if ok {
        Ok(())
    } else {
        Err(format!(
            "case name `{name}` is not a relative path of letters, digits, `-`, `_` and `.`"
        ))
    }
}

/// Every `.json` file under `dir` (or `dir` itself when it is one), sorted.
pub fn json_files(dir: &Path) -> Vec<PathBuf> {
    files_with(dir, "json")
}

fn files_with(dir: &Path, ext: &str) -> Vec<PathBuf> {
    fn walk(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, ext, out);
            } else if path.extension().is_some_and(|e| e == ext) {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    if dir.is_file() {
        out.push(dir.to_path_buf());
    } else {
        walk(dir, ext, &mut out);
    }
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_plain_relative_paths() {
        assert!(check_name("ladder/biomes-r8").is_ok());
        assert!(check_name("regress/a_b.c").is_ok());
        for bad in ["", "/abs", "a//b", "../x", "a/./b", "a b", "a\\b"] {
            assert!(check_name(bad).is_err(), "{bad}");
        }
    }
}
