//! All-or-nothing file writes: the rig's files (case files, snapshots,
//! golden exports, reports) are the store of truth, so a full disk or a
//! read-only folder must leave each one as it was or as intended, never cut.
//!
//! A write goes to a temporary file in the target's folder (same file
//! system, so the rename is atomic), is synced, renamed over the target, and
//! the folder is synced so the rename survives a crash. [`Batch`] does the
//! same for several files at once and undoes the renames done so far when
//! one fails, so a case is never left without its snapshot. A process killed
//! mid-write leaves its temporaries behind: the next write into that folder
//! removes those whose process is gone ([`sweep`]).

use std::collections::HashSet;
use std::fmt;
use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// A write that failed: which file, at which step, and why.
#[derive(Debug)]
pub struct WriteError {
    /// The file that was to be written.
    pub path: PathBuf,
    /// What was being done (`create folder`, `write`, `rename`, ...).
    pub step: &'static str,
    /// The I/O error.
    pub source: io::Error,
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot write {} ({}: {}); it is left as it was",
            self.path.display(),
            self.step,
            self.source
        )
    }
}

impl std::error::Error for WriteError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

impl From<WriteError> for String {
    fn from(e: WriteError) -> String {
        e.to_string()
    }
}

/// Writes `bytes` to `path` all or nothing (creating its folder).
pub fn write(path: &Path, bytes: impl AsRef<[u8]>) -> Result<(), WriteError> {
    let mut batch = Batch::new();
    batch.add(path, bytes)?;
    batch.commit()
}

/// Files written to temporaries, renamed over their targets together by
/// [`Batch::commit`]; dropping an uncommitted batch removes the temporaries.
#[derive(Default)]
pub struct Batch {
    staged: Vec<Staged>,
}

struct Staged {
    target: PathBuf,
    temp: PathBuf,
}

impl Batch {
    /// An empty batch.
    pub fn new() -> Batch {
        Batch::default()
    }

    /// Writes `bytes` to a synced temporary beside `path` (creating the
    /// folder); nothing at `path` changes until [`Batch::commit`].
    pub fn add(&mut self, path: &Path, bytes: impl AsRef<[u8]>) -> Result<(), WriteError> {
        let fail = |step, source| WriteError {
            path: path.to_path_buf(),
            step,
            source,
        };
        let dir = parent(path);
        fs::create_dir_all(dir).map_err(|e| fail("create folder", e))?;
        sweep(dir);
        let temp = temp_beside(path, "tmp");
        let written = (|| {
            let mut file = fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&temp)?;
            file.write_all(bytes.as_ref())?;
            file.sync_all()
        })();
        if let Err(e) = written {
            let _ = fs::remove_file(&temp);
            return Err(fail("write", e));
        }
        self.staged.push(Staged {
            target: path.to_path_buf(),
            temp,
        });
        Ok(())
    }

    /// Renames every temporary over its target, in order. When one rename
    /// fails, the targets already replaced get their old content back (or
    /// are removed when they are new), so the tree is as it was.
    pub fn commit(mut self) -> Result<(), WriteError> {
        let staged = std::mem::take(&mut self.staged);
        // (target, backup of its old content) for each rename done.
        let mut done: Vec<(PathBuf, Option<PathBuf>)> = Vec::new();
        let mut result = Ok(());
        for (i, s) in staged.iter().enumerate() {
            // A hard link keeps the old content without copying it (so it
            // needs no space on a full disk).
            let backup = if staged.len() > 1 && s.target.is_file() {
                let b = temp_beside(&s.target, "old");
                match fs::hard_link(&s.target, &b) {
                    Ok(()) => Some(b),
                    Err(e) => {
                        result = Err(WriteError {
                            path: s.target.clone(),
                            step: "keep the old file",
                            source: e,
                        });
                        break;
                    }
                }
            } else {
                None
            };
            if let Err(e) = fs::rename(&s.temp, &s.target) {
                if let Some(b) = backup {
                    let _ = fs::remove_file(b);
                }
                result = Err(WriteError {
                    path: s.target.clone(),
                    step: "rename",
                    source: e,
                });
                for t in &staged[i..] {
                    let _ = fs::remove_file(&t.temp);
                }
                break;
            }
            done.push((s.target.clone(), backup));
        }
        if result.is_err() {
            for s in &staged {
                let _ = fs::remove_file(&s.temp);
            }
            for (target, backup) in done.iter().rev() {
                let _ = match backup {
                    Some(b) => fs::rename(b, target),
                    None => fs::remove_file(target),
                };
            }
            return result;
        }
        for (target, backup) in &done {
            if let Some(b) = backup {
                let _ = fs::remove_file(b);
            }
            // The rename is on disk once its folder is synced.
            if let Err(e) = File::open(parent(target)).and_then(|d| d.sync_all()) {
                return Err(WriteError {
                    path: target.clone(),
                    step: "sync folder",
                    source: e,
                });
            }
        }
        Ok(())
    }
}

impl Drop for Batch {
    fn drop(&mut self) {
        for s in &self.staged {
            let _ = fs::remove_file(&s.temp);
        }
    }
}

fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Removes the temporaries in `dir` ([`temp_beside`]'s names) whose process is no longer
/// alive: left by a write that was killed. Once a folder a process: a folder only gains
/// such leftovers when a process dies. Where it cannot be told whether a process lives
/// (no `/proc`), nothing is removed.
fn sweep(dir: &Path) {
    static SWEPT: Mutex<Option<HashSet<PathBuf>>> = Mutex::new(None);
    {
        let mut swept = SWEPT.lock().unwrap_or_else(|p| p.into_inner());
        if !swept
            .get_or_insert_with(HashSet::new)
            .insert(dir.to_path_buf())
        {
            return;
        }
    }
    let proc = Path::new("/proc");
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    if !proc.join("self").exists() {
        return;
    }
    let me = std::process::id();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(temp_pid) else {
            continue;
        };
        if pid != me && !proc.join(pid.to_string()).exists() {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// The process id in a temporary's name (`.<name>.<pid>-<n>.tmp` or `.old`), if it is one.
fn temp_pid(name: &str) -> Option<u32> {
    let rest = name.strip_prefix('.')?;
    let rest = rest
        .strip_suffix(".tmp")
        .or_else(|| rest.strip_suffix(".old"))?;
    let (_, tag) = rest.rsplit_once('.')?;
    let (pid, n) = tag.split_once('-')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (digits(pid) && digits(n)).then(|| pid.parse().ok())?
}

/// `.<name>.<pid>-<n>.<what>` beside `path`: hidden, unique to this
/// process and call, and never a `.json` or `.snap` the store would list.
fn temp_beside(path: &Path, what: &str) -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    parent(path).join(format!(".{name}.{}-{n}.{what}", std::process::id()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(test: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("atomic-{}-{test}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn a_write_replaces_and_leaves_no_temporary() {
        let d = dir("replace");
        let f = d.join("a/b.snap");
        write(&f, "one").unwrap();
        write(&f, "two").unwrap();
        assert_eq!(fs::read_to_string(&f).unwrap(), "two");
        assert_eq!(fs::read_dir(d.join("a")).unwrap().count(), 1);
        fs::remove_dir_all(d).unwrap();
    }

    #[test]
    fn a_killed_writer_s_temporaries_are_swept_by_the_next_write_there() {
        let d = dir("sweep");
        // A process that has exited: its id names no live process.
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        let stale = d.join(format!(".b.json.{dead}-3.tmp"));
        let stale_old = d.join(format!(".b.snap.{dead}-4.old"));
        let live = d.join(format!(".c.json.{}-9.tmp", std::process::id()));
        let other = d.join(".notes.tmp");
        for f in [&stale, &stale_old, &live, &other] {
            fs::write(f, "x").unwrap();
        }
        write(&d.join("b.json"), "new").unwrap();
        assert!(!stale.exists() && !stale_old.exists());
        assert!(live.exists() && other.exists());
        assert_eq!(fs::read_to_string(d.join("b.json")).unwrap(), "new");
        assert_eq!(temp_pid(".a.json.12-0.tmp"), Some(12));
        assert_eq!(temp_pid(".a.json.12-.tmp"), None);
        assert_eq!(temp_pid("a.json.12-0.tmp"), None);
        fs::remove_dir_all(d).unwrap();
    }

    #[test]
    fn a_failed_rename_undoes_the_batch() {
        let d = dir("undo");
        let first = d.join("case.json");
        fs::write(&first, "old").unwrap();
        let mut batch = Batch::new();
        batch.add(&first, "new").unwrap();
        // A folder where the second file goes: the rename over it fails.
        let second = d.join("snap");
        fs::create_dir_all(second.join("x")).unwrap();
        batch.add(&second, "new").unwrap();
        assert!(batch.commit().is_err());
        assert_eq!(fs::read_to_string(&first).unwrap(), "old");
        let mut left: Vec<_> = fs::read_dir(&d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
            .collect();
        left.sort();
        assert_eq!(left, ["case.json", "snap"]);
        fs::remove_dir_all(d).unwrap();
    }
}
