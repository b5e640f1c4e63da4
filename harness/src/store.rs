//! The repository's case store: op lists in `cases/ops/<name>.json`, their
//! recorded results in `snapshots/<name>.snap`. Import splits a recording
//! (golden format) into the two; export joins them back.

use std::path::{Path, PathBuf};

use crate::case::Case;
use crate::error::ParseError;
use crate::known;
use crate::limits;
use crate::recorded::Recorded;
use crate::snapshot::{Provenance, Snapshot};

/// Keys of a recording's extra top-level fields that describe the
/// recording itself; import copies them into the snapshot's provenance.
const PROVENANCE_KEYS: [&str; 3] = ["recorder", "minecraft_version", "jar_sha1"];

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

    /// Writes a recording as `cases/ops/<name>.json` and
    /// `snapshots/<name>.snap`; gives the two paths.
    pub fn import(
        &self,
        recorded: &Recorded,
        recorder: &str,
        imported_from: &str,
    ) -> Result<(PathBuf, PathBuf), String> {
        check_name(&recorded.case.name)?;
        let (case_text, snap_text) = Store::split(recorded, recorder, imported_from);
        let case_path = self.case_path(&recorded.case.name);
        let snap_path = self.snapshot_path(&recorded.case.name);
        write(&case_path, &case_text)?;
        write(&snap_path, &snap_text)?;
        Ok((case_path, snap_path))
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

fn write(path: &Path, text: &str) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
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
