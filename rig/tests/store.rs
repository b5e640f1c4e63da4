//! The store guards the recorded results: `rig import`, `add` and `record`
//! never replace a result silently, write nothing when nothing changes, and
//! leave the tree as it was when a write fails (a full disk, a read-only
//! folder).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, SystemTime};

use serde_json::Value;

mod scratch;

use scratch::{golden, Scratch};

fn scratch(test: &str) -> Scratch {
    scratch::store("store", test)
}

fn output(cmd: &mut Command) -> (bool, String, String) {
    let Output {
        status,
        stdout,
        stderr,
    } = cmd.output().unwrap();
    (
        status.success(),
        String::from_utf8_lossy(&stdout).into_owned(),
        String::from_utf8_lossy(&stderr).into_owned(),
    )
}

fn rig(dir: &Path, args: &[&str]) -> (bool, String, String) {
    output(
        Command::new(env!("CARGO_BIN_EXE_rig"))
            .args(args)
            .current_dir(dir),
    )
}

fn import(dir: &Path, file: &Path, extra: &[&str]) -> (bool, String, String) {
    let mut args = vec!["import", file.to_str().unwrap()];
    args.extend_from_slice(extra);
    rig(dir, &args)
}

/// `flat/bottom-section` with its results edited by `edit`, written to `dir/name`.
fn edited(dir: &Path, name: &str, edit: impl FnOnce(&mut Value)) -> PathBuf {
    let mut v: Value =
        serde_json::from_str(&std::fs::read_to_string(golden("flat/bottom-section")).unwrap())
            .unwrap();
    edit(&mut v);
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    path
}

/// The last op's result made `{"ok":3}` (it is an error in the recording).
fn fake_last(v: &mut Value) {
    let results = v["results"].as_array_mut().unwrap();
    let last = results.len() - 1;
    assert_ne!(results[last], serde_json::json!({"ok": 3}));
    results[last] = serde_json::json!({"ok": 3});
}

const CASE: &str = "cases/ops/flat/bottom-section.json";
const SNAP: &str = "snapshots/flat/bottom-section.snap";

#[test]
fn import_refuses_to_replace_a_recorded_result_without_force() {
    let dir = scratch("refuse");
    let (ok, out, err) = import(&dir, &golden("flat/bottom-section"), &[]);
    assert!(ok, "{out}{err}");
    let before = std::fs::read(dir.join(SNAP)).unwrap();
    let fake = edited(&dir, "fake.json", fake_last);
    let (ok, out, err) = import(&dir, &fake, &[]);
    assert!(!ok, "a changed result was imported silently:\n{out}{err}");
    assert!(
        err.contains(r#"flat/bottom-section op 1034: {"error":"Missing values for non-zero storage"} → {"ok":3}"#),
        "{err}"
    );
    assert!(err.contains("--force"), "{err}");
    assert_eq!(std::fs::read(dir.join(SNAP)).unwrap(), before);
    // On purpose, it is replaced.
    let (ok, out, err) = import(&dir, &fake, &["--force"]);
    assert!(ok, "{out}{err}");
    assert!(std::fs::read_to_string(dir.join(SNAP))
        .unwrap()
        .ends_with("{\"ok\":3}\n"));
}

#[test]
fn an_unchanged_import_writes_nothing() {
    let dir = scratch("unchanged");
    let (ok, out, err) = import(&dir, &golden("flat/bottom-section"), &[]);
    assert!(ok, "{out}{err}");
    // Older than any write this test could make.
    let old = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000);
    let files = [dir.join(CASE), dir.join(SNAP)];
    for f in &files {
        std::fs::File::options()
            .write(true)
            .open(f)
            .unwrap()
            .set_modified(old)
            .unwrap();
    }
    let bytes: Vec<Vec<u8>> = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
    // The same recording from another place: `imported_from` must not churn.
    let copy = edited(&dir, "copy.json", |_| {});
    let (ok, out, err) = import(&dir, &copy, &[]);
    assert!(ok, "{out}{err}");
    assert_eq!(out, "0 imported, 1 unchanged, 0 failed\n");
    for (f, b) in files.iter().zip(&bytes) {
        assert_eq!(&std::fs::read(f).unwrap(), b, "{} changed", f.display());
        let mtime = std::fs::metadata(f).unwrap().modified().unwrap();
        assert_eq!(mtime, old, "{} was rewritten", f.display());
    }
    // Other notes are no other ops: the case file takes them, the results stay.
    let noted = edited(&dir, "noted.json", |v| {
        v["notes"] = "a note".into();
    });
    let (ok, out, err) = import(&dir, &noted, &[]);
    assert!(ok, "{out}{err}");
    assert!(!err.contains("other ops"), "{err}");
    assert_eq!(std::fs::read(&files[1]).unwrap(), bytes[1]);
    assert!(std::fs::read_to_string(&files[0])
        .unwrap()
        .contains("a note"));
}

#[test]
fn add_refuses_a_case_identical_to_a_recording() {
    let dir = scratch("same");
    let (ok, out, err) = import(&dir, &golden("flat/bottom-section"), &[]);
    assert!(ok, "{out}{err}");
    let golden = golden("flat/bottom-section");
    let (ok, out, err) = rig(&dir, &["add", golden.to_str().unwrap()]);
    assert!(!ok, "an identical case was filed again:\n{out}{err}");
    assert!(
        err.contains("same subject and ops as flat/bottom-section (recorded)"),
        "{err}"
    );
    assert!(!dir.join("cases/ops/regress/bottom-section.json").exists());
}

#[test]
fn add_names_each_result_it_would_change() {
    let dir = scratch("add-force");
    let src = golden("flat/bottom-section");
    let (ok, out, err) = rig(&dir, &["add", src.to_str().unwrap(), "--name", "b"]);
    assert!(ok, "{out}{err}");
    // Again, as it is: nothing written, and said so.
    let (ok, out, err) = rig(&dir, &["add", src.to_str().unwrap(), "--name", "b"]);
    assert!(ok, "{out}{err}");
    assert!(out.contains("nothing written"), "{out}");
    let fake = edited(&dir, "fake.json", fake_last);
    let (ok, out, err) = rig(
        &dir,
        &["add", fake.to_str().unwrap(), "--name", "b", "--force"],
    );
    assert!(ok, "{out}{err}");
    let (ok, _, err) = rig(&dir, &["add", src.to_str().unwrap(), "--name", "b"]);
    assert!(!ok);
    assert!(
        err.contains(r#"regress/b op 1034: {"ok":3} → {"error":"#),
        "{err}"
    );
}

#[test]
fn shrink_takes_a_case_name() {
    let dir = scratch("shrink");
    let (ok, out, err) = import(&dir, &golden("ladder/biomes-r1"), &[]);
    assert!(ok, "{out}{err}");
    // The Rust containers agree with it: found by name, nothing to shrink.
    let (ok, out, err) = rig(&dir, &["shrink", "ladder/biomes-r1"]);
    assert!(!ok);
    assert!(!err.contains("cannot read"), "{out}{err}");
    assert!(err.contains("rig shrink: "), "{err}");
    let (ok, _, err) = rig(&dir, &["shrink", "ladder/nope"]);
    assert!(!ok);
    assert!(err.contains("no case `ladder/nope`"), "{err}");
}

/// Runs `script` in a user and mount namespace (`unshare -rm`), or gives
/// why the machine cannot make one.
fn in_namespace(dir: &Path, script: &str) -> Result<(bool, String, String), String> {
    let probe = output(Command::new("unshare").args(["-rm", "true"]));
    if !probe.0 {
        return Err(format!("unshare -rm fails here: {}", probe.2.trim()));
    }
    Ok(output(
        Command::new("unshare")
            .args(["-rm", "sh", "-c", script])
            .env("RIG", env!("CARGO_BIN_EXE_rig"))
            .current_dir(dir),
    ))
}

/// Files in `dir` (recursively) whose names are not `.json` or `.snap`:
/// temporaries left behind.
fn strays(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(strays(&p));
        } else if !p
            .extension()
            .is_some_and(|x| x == "json" || x == "snap" || x == "toml")
        {
            out.push(p);
        }
    }
    out
}

#[test]
fn a_full_disk_leaves_the_snapshot_intact() {
    let dir = scratch("full");
    // A store on a 256 KiB tmpfs; the disk is filled, then an import needs more.
    std::fs::create_dir_all(dir.join("disk")).unwrap();
    let (ok, out, err) = import(&dir, &golden("flat/bottom-section"), &[]);
    assert!(ok, "{out}{err}");
    let before = std::fs::read(dir.join(SNAP)).unwrap();
    let bigger = edited(&dir, "bigger.json", |v| {
        let results = v["results"].as_array_mut().unwrap();
        let last = results.len() - 1;
        results[last] = serde_json::json!({ "ok": vec![0; 6000] });
    });
    let script = format!(
        "mount -t tmpfs -o size=256k tmpfs disk && cp -r cases snapshots disk/ && \
         (dd if=/dev/zero of=disk/fill bs=1024 2>/dev/null; true) && \
         cd disk && \"$RIG\" import --force {}; echo \"rc=$?\"; cd .. && \
         mkdir out && cp -r disk/cases disk/snapshots out/",
        bigger.display()
    );
    let (_, out, err) = match in_namespace(&dir, &script) {
        Ok(r) => r,
        Err(why) => {
            println!("SKIPPED a_full_disk_leaves_the_snapshot_intact: {why}");
            return;
        }
    };
    if err.contains("mount:") {
        println!("SKIPPED a_full_disk_leaves_the_snapshot_intact: cannot mount a tmpfs: {err}");
        return;
    }
    assert!(out.contains("rc=1"), "the import did not fail:\n{out}{err}");
    assert!(
        err.contains("No space left on device") && err.contains("left as it was"),
        "{err}"
    );
    let after = std::fs::read(dir.join("out").join(SNAP)).unwrap();
    assert_eq!(after.len(), before.len(), "the snapshot was cut");
    assert_eq!(after, before);
    assert_eq!(strays(&dir.join("out")), Vec::<PathBuf>::new());
}

#[test]
fn a_read_only_snapshots_folder_leaves_no_half_case() {
    let dir = scratch("readonly");
    let src = golden("flat/bottom-section");
    // Root ignores file modes, so the folder is made read-only by a bind mount.
    let script = format!(
        "mount --bind snapshots snapshots && mount -o remount,bind,ro snapshots && \
         \"$RIG\" add {} --name half; echo \"rc=$?\"; \
         \"$RIG\" import {}; echo \"rc=$?\"",
        src.display(),
        src.display()
    );
    let (_, out, err) = match in_namespace(&dir, &script) {
        Ok(r) => r,
        Err(why) => {
            println!("SKIPPED a_read_only_snapshots_folder_leaves_no_half_case: {why}");
            return;
        }
    };
    if err.contains("mount:") {
        println!(
            "SKIPPED a_read_only_snapshots_folder_leaves_no_half_case: cannot bind-mount: {err}"
        );
        return;
    }
    assert_eq!(
        out.matches("rc=1").count(),
        2,
        "add and import did not both fail:\n{out}{err}"
    );
    assert!(err.contains("Read-only file system"), "{err}");
    assert!(!dir.join("cases/ops/regress/half.json").exists(), "{err}");
    assert!(!dir.join(CASE).exists(), "{err}");
    assert_eq!(strays(&dir.join("cases")), Vec::<PathBuf>::new());
    // A retry, once the folder is writable, is not told the name exists.
    let (ok, out, err) = rig(&dir, &["add", src.to_str().unwrap(), "--name", "half"]);
    assert!(ok, "{out}{err}");
}
