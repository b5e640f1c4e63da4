//! `rig check`, `import`, `export`, `repro` and `add` on a scratch store
//! built from real golden recordings.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn golden(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../cases/golden")
        .join(format!("{name}.json"))
}

/// A fresh, empty store (`cases/ops`, `snapshots`) in the temp folder.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rig-cli-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("cases/ops")).unwrap();
    std::fs::create_dir_all(dir.join("snapshots")).unwrap();
    dir
}

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
        String::from_utf8(stdout).unwrap(),
        String::from_utf8(stderr).unwrap(),
    )
}

fn import(dir: &Path, names: &[&str]) {
    for name in names {
        let (ok, out, err) = rig(dir, &["import", golden(name).to_str().unwrap()]);
        assert!(ok, "{out}{err}");
    }
}

#[test]
fn check_is_quiet_on_success_and_export_gives_the_recording_back() {
    let dir = scratch("ok");
    import(&dir, &["ladder/biomes-r1", "unpack/biomes-p9-badindex"]);
    let (ok, out, _) = rig(&dir, &["check"]);
    assert!(ok);
    assert_eq!(out, "2 passed, 0 failed\n");
    // No command at all is check.
    assert_eq!(rig(&dir, &[]).1, "2 passed, 0 failed\n");

    let (ok, _, err) = rig(&dir, &["export", "--out", "out"]);
    assert!(ok, "{err}");
    for name in ["ladder/biomes-r1", "unpack/biomes-p9-badindex"] {
        let exported = std::fs::read(dir.join("out").join(format!("{name}.json"))).unwrap();
        assert_eq!(exported, std::fs::read(golden(name)).unwrap(), "{name}");
    }
    // A recording given by path is checked against its own results.
    let (ok, out, _) = rig(
        &dir,
        &["check", golden("ladder/biomes-r1").to_str().unwrap()],
    );
    assert!(ok);
    assert_eq!(out, "1 passed, 0 failed\n");
}

#[test]
fn malformed_files_are_located_counted_and_the_run_goes_on() {
    let dir = scratch("malformed");
    import(&dir, &["ladder/biomes-r1", "unpack/biomes-p9-badindex"]);
    let case = dir.join("cases/ops/ladder/biomes-r1.json");
    let text = std::fs::read_to_string(&case).unwrap();
    std::fs::write(
        &case,
        text.replacen("\"op\":\"bits\"", "\"op\":\"bitz\"", 1),
    )
    .unwrap();
    let snap = dir.join("snapshots/unpack/biomes-p9-badindex.snap");
    let text = std::fs::read_to_string(&snap).unwrap();
    std::fs::write(&snap, text.replacen("{\"ok\":5}", "{\"ok\":5", 1)).unwrap();
    let (ok, out, _) = rig(&dir, &["check"]);
    assert!(!ok);
    assert!(out.contains("cases/ops/ladder/biomes-r1.json:1:"), "{out}");
    assert!(out.contains(": unknown op `bitz`"), "{out}");
    assert!(
        out.contains("snapshots/unpack/biomes-p9-badindex.snap:"),
        "{out}"
    );
    assert!(out.ends_with("0 passed, 2 failed\n"), "{out}");
}

#[test]
fn divergences_are_reported_and_known_ones_expected() {
    let dir = scratch("known");
    import(&dir, &["ladder/biomes-r1", "unpack/biomes-p9-badindex"]);
    // A result changed by hand stands in for a Rust bug.
    let snap = dir.join("snapshots/unpack/biomes-p9-badindex.snap");
    let text = std::fs::read_to_string(&snap).unwrap();
    std::fs::write(
        &snap,
        text.replacen("{\"ok\":[[5,64]]}", "{\"ok\":[[5,63]]}", 1),
    )
    .unwrap();
    let (ok, out, _) = rig(&dir, &["check", "--junit", "j.xml"]);
    assert!(!ok);
    assert!(
        out.contains("case unpack/biomes-p9-badindex: op 6 of 15 diverges: counts"),
        "{out}"
    );
    assert!(out.contains("8 later ops not compared"), "{out}");
    assert!(out.ends_with("1 passed, 1 failed\n"), "{out}");
    let junit = std::fs::read_to_string(dir.join("j.xml")).unwrap();
    assert!(junit.contains("tests=\"2\" failures=\"1\""), "{junit}");

    let (ok, out, _) = rig(&dir, &["repro", "unpack/biomes-p9-badindex"]);
    assert!(!ok);
    assert!(out.contains("op 6 of 15 diverges"), "{out}");
    assert!(out.contains("      5  pack"), "{out}");
    let (_, out, _) = rig(&dir, &["repro", "unpack/biomes-p9-badindex", "--op", "3"]);
    assert!(
        out.contains("op 3: bits") && out.contains("(match)"),
        "{out}"
    );

    std::fs::write(
        dir.join("cases/known-divergences.toml"),
        "[[known]]\ncase = \"unpack/biomes-p9-badindex\"\nreason = \"planted\"\n",
    )
    .unwrap();
    let (ok, out, _) = rig(&dir, &["check"]);
    assert!(ok, "{out}");
    assert!(out.ends_with("1 passed, 0 failed, 1 expected\n"), "{out}");

    // Fixed: the entry must go.
    std::fs::write(&snap, text).unwrap();
    let (ok, out, _) = rig(&dir, &["check"]);
    assert!(!ok);
    assert!(out.contains("remove the entry"), "{out}");
    assert!(out.ends_with("1 passed, 1 failed, 0 expected\n"), "{out}");
}

#[test]
fn snapshots_without_minecraft_provenance_are_refused() {
    let dir = scratch("gate");
    import(&dir, &["ladder/biomes-r1"]);
    let snap = dir.join("snapshots/ladder/biomes-r1.snap");
    let text = std::fs::read_to_string(&snap).unwrap();
    let start = text.find("info:").unwrap();
    let end = text.find("input_file:").unwrap();
    let rust = "info:\n  source: paletted Rust containers — NOT a recording\n  recorder: harness/tests/snapshots.rs\n";
    std::fs::write(&snap, format!("{}{rust}{}", &text[..start], &text[end..])).unwrap();
    let (ok, out, _) = rig(&dir, &["check"]);
    assert!(!ok);
    assert!(out.contains("refused"), "{out}");
    std::fs::write(&snap, format!("{}{}", &text[..start], &text[end..])).unwrap();
    let (ok, out, _) = rig(&dir, &["check"]);
    assert!(!ok);
    assert!(out.contains("no provenance"), "{out}");
}

#[test]
fn add_files_recordings_and_op_lists_awaiting_recording() {
    let dir = scratch("add");
    let (ok, out, err) = rig(
        &dir,
        &[
            "add",
            golden("ladder/biomes-r1").to_str().unwrap(),
            "--name",
            "small",
        ],
    );
    assert!(ok, "{out}{err}");
    assert!(dir.join("cases/ops/regress/small.json").is_file());
    assert!(dir.join("snapshots/regress/small.snap").is_file());
    let ops = dir.join("ops.json");
    std::fs::write(
        &ops,
        r#"{"name":"x","subject":{"kind":"storage","bits":5,"size":64},"ops":[{"op":"fill","value":31},{"op":"longs"}]}"#,
    )
    .unwrap();
    let (ok, out, err) = rig(&dir, &["add", ops.to_str().unwrap()]);
    assert!(ok, "{out}{err}");
    assert!(out.contains("awaiting recording"), "{out}");
    let (ok, out, err) = rig(&dir, &["check"]);
    assert!(ok);
    assert_eq!(out, "1 passed, 0 failed\n");
    assert!(err.contains("regress/ops"), "{err}");
    // An op Minecraft cannot be given is refused.
    std::fs::write(
        &ops,
        r#"{"name":"x","subject":{"kind":"container","strategy":"biomes","registry":4,"initial":0},"ops":[{"op":"set","x":0,"y":0,"z":0,"value":9}]}"#,
    )
    .unwrap();
    let (ok, _, err) = rig(&dir, &["add", ops.to_str().unwrap(), "--name", "bad"]);
    assert!(!ok);
    assert!(err.contains("not a valid case"), "{err}");
}
