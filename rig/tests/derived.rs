//! A shrunk recorded case keeps Minecraft's results: `rig shrink` writes it as
//! a recording derived from its parent, `rig add` files it, and `rig check`
//! counts it only after checking it against the parent, so it cannot be
//! forged. No JVM is involved.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use gen::plant::{Plant, Planted};
use harness::known::Known;
use harness::store::Store;
use harness::verdict::{judge, Verdict};
use serde_json::Value;

mod scratch;

use scratch::{golden, Scratch};

fn rig(dir: &Path, args: &[&str]) -> (bool, String, String) {
    let Output {
        status,
        stdout,
        stderr,
    } = Command::new(env!("CARGO_BIN_EXE_rig"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    (
        status.success(),
        String::from_utf8_lossy(&stdout).into_owned(),
        String::from_utf8_lossy(&stderr).into_owned(),
    )
}

const NAME: &str = "regress/ladder-biomes-r9-shrunk";
const SNAP: &str = "snapshots/regress/ladder-biomes-r9-shrunk.snap";

/// A store holding ladder/biomes-r9, its shrunk case written to `out/` by
/// `rig shrink --plant count-order`; gives the shrunk file.
fn shrunk(test: &str) -> (Scratch, PathBuf) {
    let dir = scratch::store("derived", test);
    let parent = golden("ladder/biomes-r9");
    let (ok, out, err) = rig(&dir, &["import", parent.to_str().unwrap()]);
    assert!(ok, "{out}{err}");
    let (ok, out, err) = rig(
        &dir,
        &[
            "shrink",
            "ladder/biomes-r9",
            "--plant",
            "count-order",
            "--out",
            "out",
        ],
    );
    assert!(ok, "{out}{err}");
    assert!(err.contains("from 41 to 3 ops"), "{err}");
    let file = dir.join("out/ladder-biomes-r9-shrunk.json");
    (dir, file)
}

fn json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Rewrites a file's text with `edit`.
fn edit(path: &Path, edit: impl FnOnce(String) -> String) {
    let text = std::fs::read_to_string(path).unwrap();
    let edited = edit(text.clone());
    assert_ne!(edited, text, "the edit changed nothing");
    std::fs::write(path, edited).unwrap();
}

#[test]
fn a_shrunk_recorded_case_is_filed_with_its_results_and_counted() {
    let (dir, file) = shrunk("filed");
    // The shrunk case is a recording: the parent's results for its kept ops, the five
    // leading observations gone.
    let v = json(&file);
    assert_eq!(v["derived_from"], "ladder/biomes-r9");
    assert_eq!(v["parent_ops"], serde_json::json!([5, 7, 12]));
    let ops: Vec<&str> = v["ops"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["op"].as_str().unwrap())
        .collect();
    assert_eq!(ops, ["set", "set", "counts"]);
    let parent = json(&golden("ladder/biomes-r9"));
    for (k, i) in [5, 7, 12].into_iter().enumerate() {
        assert_eq!(v["results"][k], parent["results"][i]);
    }

    let (ok, out, err) = rig(&dir, &["add", file.to_str().unwrap()]);
    assert!(ok, "{out}{err}");
    assert!(
        out.contains("a recording derived from ladder/biomes-r9"),
        "{out}"
    );
    assert!(!out.contains("awaiting recording"), "{out}");
    assert!(dir.join(SNAP).is_file());

    // Counted by rig check: it passes with the bug out...
    let (ok, out, err) = rig(&dir, &["check", "--verbose"]);
    assert!(ok, "{out}{err}");
    assert!(out.ends_with("2 passed, 0 failed\n"), "{out}{err}");
    assert!(!err.contains("awaiting recording"), "{err}");
    // ...its snapshot passes the gate rig check applies, and it fails with the bug in.
    let store = Store::at(&*dir);
    let recorded = store.export(NAME).unwrap();
    let snap = harness::snapshot::Snapshot::load(&dir.join(SNAP)).unwrap();
    let trusted = store.trusted().unwrap();
    assert_eq!(
        store.gate(
            &trusted,
            &recorded.case,
            &recorded.results,
            &snap.provenance
        ),
        None
    );
    let with_bug = judge(
        &mut Planted::new(Plant::CountOrder),
        &recorded.case,
        &recorded.results,
        &Known::none(),
    );
    assert!(with_bug.is_failure(), "{with_bug:?}");
    assert_eq!(
        judge(
            &mut harness::rust::RustExecutor::new(),
            &recorded.case,
            &recorded.results,
            &Known::none()
        ),
        Verdict::Passed
    );
}

/// `rig check` of the store fails, naming the derived snapshot and `why`.
fn refused(dir: &Path, why: &str) {
    let (ok, out, err) = rig(dir, &["check"]);
    assert!(!ok, "{out}{err}");
    assert!(
        out.contains(&format!(
            "{SNAP}: refused: derived from `ladder/biomes-r9`: {why}"
        )),
        "{out}{err}"
    );
    assert!(
        out.ends_with("1 passed, 1 failed\n") || out.ends_with("0 passed, 1 failed\n"),
        "{out}"
    );
}

#[test]
fn a_forged_derived_snapshot_is_refused() {
    let (dir, file) = shrunk("forged");
    let (ok, out, err) = rig(&dir, &["add", file.to_str().unwrap()]);
    assert!(ok, "{out}{err}");
    let snap = dir.join(SNAP);
    let original = std::fs::read_to_string(&snap).unwrap();

    // An edited result: the bug's answer written in as if Minecraft gave it.
    edit(&snap, |t| t.replace("[[0,63],[1,1]]", "[[1,1],[0,63]]"));
    refused(
        &dir,
        "its result for op 2 (`counts`, the parent's op 12) is {\"ok\":[[1,1],[0,63]]}, the parent's recorded result is {\"ok\":[[0,63],[1,1]]}",
    );

    // Kept ops named elsewhere in the parent.
    std::fs::write(&snap, &original).unwrap();
    edit(&snap, |t| t.replace("\"[5,7,12]\"", "\"[5,7,17]\""));
    refused(
        &dir,
        "its op 2 (`counts`) is not the parent's op 17 (`pack`)",
    );

    // A state change left out: op 5 sets the initial value, so leaving it out of the
    // derivation would claim results for a state Minecraft never saw.
    std::fs::write(&snap, &original).unwrap();
    let case = dir.join("cases/ops").join(format!("{NAME}.json"));
    edit(&case, |t| {
        t.replacen(r#"{"op":"set","x":0,"y":0,"z":0,"value":0},"#, "", 1)
    });
    edit(&snap, |t| {
        t.replace("\"[5,7,12]\"", "\"[7,12]\"")
            .replacen("{\"ok\":null}\n", "", 1)
    });
    refused(
        &dir,
        "it leaves out the parent's op 5 (`set (0,0,0) = 0`), which changes state",
    );
}

#[test]
fn a_derived_snapshot_needs_its_parent_unchanged_and_trusted() {
    let (dir, file) = shrunk("parent");
    let (ok, out, err) = rig(&dir, &["add", file.to_str().unwrap()]);
    assert!(ok, "{out}{err}");
    let parent = dir.join("snapshots/ladder/biomes-r9.snap");
    let original = std::fs::read_to_string(&parent).unwrap();

    // The parent's provenance not trusted: its source unlisted.
    edit(&parent, |t| {
        t.replace(
            "source: \"Minecraft 26.3",
            "source: \"Minecraft 26.3 trust me",
        )
    });
    let (ok, out, err) = rig(&dir, &["check"]);
    assert!(!ok, "{out}{err}");
    assert!(
        out.contains(&format!(
            "{SNAP}: refused: derived from `ladder/biomes-r9`: the parent is not truth: snapshots/ladder/biomes-r9.snap: source `Minecraft 26.3 trust me"
        )),
        "{out}"
    );

    // The parent's recorded results changed since.
    std::fs::write(&parent, &original).unwrap();
    edit(&parent, |t| t.replacen("{\"ok\":0}\n", "{\"ok\":1}\n", 1));
    let (ok, out, err) = rig(&dir, &["check"]);
    assert!(!ok, "{out}{err}");
    assert!(
        out.contains("the parent's ops or results changed since"),
        "{out}"
    );

    // No parent at all.
    std::fs::remove_file(&parent).unwrap();
    let (ok, out, err) = rig(&dir, &["check"]);
    assert!(!ok, "{out}{err}");
    assert!(
        out.contains(&format!(
            "{SNAP}: refused: derived from `ladder/biomes-r9`: the parent has no recorded results (no snapshots/ladder/biomes-r9.snap)"
        )),
        "{out}"
    );
}

#[test]
fn add_refuses_a_forged_derived_recording() {
    let (dir, file) = shrunk("add-forged");
    edit(&file, |t| t.replace("[[0,63],[1,1]]", "[[1,1],[0,63]]"));
    let (ok, out, err) = rig(&dir, &["add", file.to_str().unwrap()]);
    assert!(!ok, "{out}{err}");
    assert!(
        err.contains("refused: derived from `ladder/biomes-r9`: its result for op 2"),
        "{err}"
    );
    assert!(!dir.join(SNAP).exists());
    // Without its parent in the store, nothing is filed either.
    let (dir2, file2) = shrunk("add-orphan");
    std::fs::remove_file(dir2.join("cases/ops/ladder/biomes-r9.json")).unwrap();
    let (ok, _, err) = rig(&dir2, &["add", file2.to_str().unwrap()]);
    assert!(!ok);
    assert!(
        err.contains("the parent is not in the store (no cases/ops/ladder/biomes-r9.json)"),
        "{err}"
    );
}
