//! `rig check`, `import`, `export`, `repro` and `add` on a scratch store
//! built from real golden recordings.

use std::path::Path;
use std::process::{Command, Output};

mod scratch;

use scratch::{golden, Scratch};

fn scratch(test: &str) -> Scratch {
    scratch::store("cli", test)
}

#[test]
fn scratch_stores_are_removed_and_not_in_the_system_temp_folder() {
    let s = scratch("gone");
    let path = s.to_path_buf();
    assert!(
        !path.starts_with(std::env::temp_dir()) || path.starts_with(env!("CARGO_TARGET_TMPDIR"))
    );
    drop(s);
    assert!(!path.exists());
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
fn check_of_nothing_fails_unless_allowed() {
    let dir = scratch("empty");
    let (ok, out, err) = rig(&dir, &["check"]);
    assert!(!ok, "{out}{err}");
    assert!(err.contains("no case was checked"), "{err}");
    assert!(err.contains("--allow-empty"), "{err}");
    let (ok, out, err) = rig(&dir, &["check", "--allow-empty"]);
    assert!(ok, "{out}{err}");
    assert_eq!(out, "0 passed, 0 failed\n");
    // An empty folder given by path, and a folder of op lists awaiting recording.
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    let (ok, _, err) = rig(&dir, &["check", "empty"]);
    assert!(!ok);
    assert!(
        err.contains("no case was checked: nothing recorded in empty"),
        "{err}"
    );
    std::fs::create_dir_all(dir.join("cases/ops/regress")).unwrap();
    std::fs::write(dir.join("cases/ops/regress/a.json"), AWAITING).unwrap();
    let (ok, _, err) = rig(&dir, &["check"]);
    assert!(!ok);
    // Quiet: a count; the names only with --verbose.
    assert!(
        err.contains("1 awaiting recording, not counted (--verbose names them)"),
        "{err}"
    );
    assert!(!err.contains("regress/a"), "{err}");
    let (ok, _, err) = rig(&dir, &["check", "--verbose"]);
    assert!(!ok);
    assert!(
        err.contains("1 awaiting recording, not counted: regress/a"),
        "{err}"
    );
}

const AWAITING: &str = r#"{"name":"regress/a","subject":{"kind":"storage","bits":5,"size":64},"ops":[{"op":"fill","value":31},{"op":"longs"}]}"#;

#[test]
fn malformed_cases_awaiting_recording_are_failures() {
    let dir = scratch("awaiting");
    import(&dir, &["ladder/biomes-r1"]);
    std::fs::create_dir_all(dir.join("cases/ops/regress")).unwrap();
    let bad = [
        ("syntax", AWAITING.replacen("\"ops\":[", "\"ops\":[[", 1), "syntax.json:1:"),
        ("op", AWAITING.replacen("\"longs\"", "\"lungs\"", 1), "unknown op `lungs`"),
        (
            "value",
            r#"{"name":"regress/value","subject":{"kind":"container","strategy":"biomes","registry":4,"initial":0},"ops":[{"op":"set","x":0,"y":0,"z":0,"value":9}]}"#.to_string(),
            "regress/value.json: awaiting recording, but not a valid case",
        ),
    ];
    for (name, text, _) in &bad {
        std::fs::write(dir.join(format!("cases/ops/regress/{name}.json")), text).unwrap();
    }
    for args in [&["check"][..], &["check", "cases/ops"][..]] {
        let (ok, out, err) = rig(&dir, args);
        assert!(!ok, "{args:?}: {out}{err}");
        for (_, _, says) in &bad {
            assert!(out.contains(says), "{args:?}: {says}: {out}");
        }
        assert!(out.ends_with("1 passed, 3 failed\n"), "{args:?}: {out}");
    }
}

#[test]
fn a_broken_known_divergences_file_is_reported_with_its_place() {
    let dir = scratch("known-broken");
    import(&dir, &["ladder/biomes-r1"]);
    let known = dir.join("cases/known-divergences.toml");
    for (text, says) in [
        ("[[known]]\ncase = \"ladder/biomes-r1\"\nreason = \"x\"\noops\n", "cases/known-divergences.toml:4:"),
        ("[[known]]\ncase = \"ladder/biomes-r1\"\n", "cases/known-divergences.toml:1:1: missing field `reason`"),
        (
            "[[known]]\ncase = \"ladder/biomes-r1\"\nreason = \"x\"\n[[known]]\ncase = \"ladder/biomes-r1\"\nreason = \"y\"\n",
            "cases/known-divergences.toml:5:8: known[1]: `ladder/biomes-r1` is listed twice",
        ),
        (
            "[[known]]\ncase = \"ladder/gone\"\nreason = \"x\"\n",
            "cases/known-divergences.toml:2:8: known[0]: `ladder/gone` names no case",
        ),
    ] {
        std::fs::write(&known, text).unwrap();
        let (ok, out, err) = rig(&dir, &["check"]);
        assert!(!ok, "{text}: {out}{err}");
        assert!(out.contains(says), "{text}: {out}");
        assert!(out.ends_with(" 1 failed\n") || out.contains(" 1 failed,"), "{out}");
    }
}

#[test]
fn leftover_snap_new_files_are_warned_about() {
    let dir = scratch("snapnew");
    import(&dir, &["ladder/biomes-r1"]);
    std::fs::write(dir.join("snapshots/ladder/biomes-r1.snap.new"), "x").unwrap();
    let (ok, _, err) = rig(&dir, &["check"]);
    assert!(ok);
    assert!(
        err.contains("warning: snapshots/ladder/biomes-r1.snap.new: left by the insta test"),
        "{err}"
    );
    assert!(err.contains("rig repro ladder/biomes-r1"), "{err}");
}

#[test]
fn sources_not_listed_as_trusted_are_refused_naming_the_snapshot_and_source() {
    let dir = scratch("untrusted");
    let mut text = std::fs::read_to_string(golden("ladder/biomes-r1")).unwrap();
    let trusted = harness::trusted::Trusted::load(&dir.join("cases/trusted-sources.toml")).unwrap();
    text = text.replacen(&trusted.sources[0], "Minecraft 26.3 trust me", 1);
    std::fs::write(dir.join("rec.json"), &text).unwrap();
    let (ok, _, err) = rig(&dir, &["import", "rec.json"]);
    assert!(!ok);
    assert!(
        err.contains("rec.json: not imported: source `Minecraft 26.3 trust me` is not listed in cases/trusted-sources.toml"),
        "{err}"
    );
    let (ok, _, err) = rig(&dir, &["add", "rec.json"]);
    assert!(!ok);
    assert!(
        err.contains("is not listed in cases/trusted-sources.toml"),
        "{err}"
    );
    let (ok, out, _) = rig(&dir, &["check", "rec.json"]);
    assert!(!ok);
    assert!(
        out.contains("rec.json: refused: source `Minecraft 26.3 trust me`"),
        "{out}"
    );
    // A snapshot edited to that source is refused the same way.
    import(&dir, &["ladder/biomes-r1"]);
    let snap = dir.join("snapshots/ladder/biomes-r1.snap");
    let s = std::fs::read_to_string(&snap).unwrap();
    std::fs::write(
        &snap,
        s.replacen(&trusted.sources[0], "Minecraft 26.3 trust me", 1),
    )
    .unwrap();
    let (ok, out, _) = rig(&dir, &["check"]);
    assert!(!ok);
    assert!(
        out.contains("snapshots/ladder/biomes-r1.snap: refused: source `Minecraft 26.3 trust me` is not listed"),
        "{out}"
    );
    // With no trusted-sources file, nothing is truth.
    std::fs::write(&snap, s).unwrap();
    std::fs::remove_file(dir.join("cases/trusted-sources.toml")).unwrap();
    let (ok, out, _) = rig(&dir, &["check"]);
    assert!(!ok, "{out}");
}

#[test]
fn import_of_nothing_says_why() {
    let dir = scratch("import-nothing");
    let (ok, _, err) = rig(&dir, &["import", "/nonexistent/x.json"]);
    assert!(!ok);
    assert!(
        err.contains("/nonexistent/x.json: no such file or folder"),
        "{err}"
    );
    std::fs::create_dir_all(dir.join("nothing")).unwrap();
    let (ok, _, err) = rig(&dir, &["import", "nothing"]);
    assert!(!ok);
    assert!(
        err.contains("nothing: no recordings to import (looked for *.json files, recursively)"),
        "{err}"
    );
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
    assert!(
        out.contains("snapshot: snapshots/unpack/biomes-p9-badindex.snap\n"),
        "{out}"
    );
    let junit = std::fs::read_to_string(dir.join("j.xml")).unwrap();
    assert!(junit.contains("tests=\"2\" failures=\"1\""), "{junit}");
    assert!(junit.contains(" timestamp=\"20"), "{junit}");
    assert!(junit.contains("name=\"unpack/biomes-p9-badindex\" file=\"cases/ops/unpack/biomes-p9-badindex.json\" time=\""), "{junit}");
    assert!(
        junit.contains("replay: rig repro unpack/biomes-p9-badindex"),
        "{junit}"
    );
    // The replay command printed works as printed.
    let replay = out
        .lines()
        .find_map(|l| l.strip_prefix("replay: "))
        .expect("a replay line");
    let words: Vec<&str> = replay.split(' ').collect();
    assert_eq!(words[0], "rig");
    let (ok, again, err) = rig(&dir, &words[1..]);
    assert!(!ok, "{err}");
    assert!(
        again.contains("op 6 of 15 diverges: counts"),
        "{again}{err}"
    );

    let (ok, out, _) = rig(&dir, &["repro", "unpack/biomes-p9-badindex"]);
    assert!(!ok);
    assert!(out.contains("op 6 of 15 diverges"), "{out}");
    assert!(out.contains("      5  pack"), "{out}");
    let (_, out, _) = rig(&dir, &["repro", "unpack/biomes-p9-badindex", "--op", "3"]);
    assert!(
        out.contains("op 3: bits") && out.contains("(match)"),
        "{out}"
    );
    // The --op view puts the recorded result first, as the divergence view does.
    let (_, out, _) = rig(&dir, &["repro", "unpack/biomes-p9-badindex", "--op", "6"]);
    let (rec, ours) = (
        out.find("  recorded ").unwrap(),
        out.find("  paletted (Rust)").unwrap(),
    );
    assert!(rec < ours, "{out}");
    // The whole case on request; context lines shortened like divergence lines.
    let (_, out, _) = rig(
        &dir,
        &["repro", "unpack/biomes-p9-badindex", "--context", "100"],
    );
    assert!(out.contains("      0  "), "{out}");
    assert!(!out.contains("earlier ops"), "{out}");
    let (_, out, _) = rig(
        &dir,
        &["repro", "ladder/biomes-r1", "--op", "5", "--context", "0"],
    );
    assert!(
        out.contains("5 earlier ops (--context 5 shows them)"),
        "{out}"
    );
    let flat = scratch("repro-flat");
    import(&flat, &["flat/bottom-section"]);
    let (_, out, _) = rig(
        &flat,
        &[
            "repro",
            "flat/bottom-section",
            "--op",
            "1030",
            "--context",
            "1",
        ],
    );
    let write = out.lines().find(|l| l.contains("  1029  write")).unwrap();
    assert!(write.ends_with("… (4117 chars)"), "{write}");
    let (ok, _, err) = rig(&dir, &["repro", "/nonexistent.json"]);
    assert!(!ok);
    assert!(err.contains("/nonexistent.json: no such file"), "{err}");

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
    assert!(
        out.contains("rig record cases/ops/regress/ops.json --minecraft JAR"),
        "{out}"
    );
    assert!(!out.contains("rig import"), "{out}");
    let (ok, out, err) = rig(&dir, &["check"]);
    assert!(ok);
    assert_eq!(out, "1 passed, 0 failed\n");
    assert!(err.contains("1 awaiting recording"), "{err}");
    // An op Minecraft cannot be given is refused.
    std::fs::write(
        &ops,
        r#"{"name":"x","subject":{"kind":"container","strategy":"biomes","registry":4,"initial":0},"ops":[{"op":"set","x":0,"y":0,"z":0,"value":9}]}"#,
    )
    .unwrap();
    let (ok, _, err) = rig(&dir, &["add", ops.to_str().unwrap(), "--name", "bad"]);
    assert!(!ok);
    assert!(err.contains("not a valid case"), "{err}");
    assert!(
        err.contains("ops.json:1:96: ops[0]: not a valid case"),
        "{err}"
    );
}

#[test]
fn coverage_counts_each_case_once_and_checks_families_first() {
    let dir = scratch("coverage");
    import(&dir, &["ladder/biomes-r1", "unpack/biomes-p9-badindex"]);
    // The golden copies beside the op lists, as in this repository.
    std::fs::create_dir_all(dir.join("cases/golden/ladder")).unwrap();
    std::fs::copy(
        golden("ladder/biomes-r1"),
        dir.join("cases/golden/ladder/biomes-r1.json"),
    )
    .unwrap();
    let (_, out, _) = rig(&dir, &["coverage"]);
    let last = out.lines().last().unwrap_or("");
    assert!(last.starts_with("2 cases, "), "{last}");
    // Given twice, counted once.
    let (_, out, err) = rig(&dir, &["coverage", "cases/ops", "cases/golden"]);
    assert!(
        out.lines().last().unwrap().starts_with("2 cases, "),
        "{out}"
    );
    assert!(
        err.contains("1 case(s) met twice by name were counted once"),
        "{err}"
    );
    // A wrong family: the error alone, before any table.
    let (ok, out, err) = rig(&dir, &["coverage", "--families", "nope"]);
    assert!(!ok);
    assert_eq!(out, "");
    assert!(err.contains("no family \"nope\""), "{err}");
}

#[test]
fn outside_a_checkout_rig_says_which_tree_it_uses() {
    // The system temp folder is outside this checkout (cargo's is inside it).
    let outside = Scratch(std::env::temp_dir().join(format!("rig-outside-{}", std::process::id())));
    std::fs::create_dir_all(&*outside).unwrap();
    let (ok, out, err) = rig(&outside, &["repro", "ladder/biomes-r1", "--op", "0"]);
    assert!(ok, "{out}{err}");
    let tree = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .unwrap();
    assert!(
        err.contains(&format!(
            "using the tree rig was built from: {}",
            tree.display()
        )),
        "{err}"
    );
    // Inside a checkout, nothing is said.
    let inside = scratch("inside");
    import(&inside, &["ladder/biomes-r1"]);
    let (_, _, err) = rig(&inside, &["repro", "ladder/biomes-r1", "--op", "0"]);
    assert!(!err.contains("using the tree"), "{err}");
}

#[test]
fn run_dependent_ops_pass_on_any_result_and_are_counted_apart() {
    let dir = scratch("rundep");
    // A real recording whose `bits` (op 0) is marked run-dependent: its
    // recorded result and one the containers never give.
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(golden("ladder/biomes-r1")).unwrap())
            .unwrap();
    let bits = v["results"][0].clone();
    v["run_dependent"] = serde_json::json!([{"op": 0, "any_of": [bits, {"ok": 7}]}]);
    let file = dir.join("rundep.json");
    std::fs::write(&file, v.to_string()).unwrap();
    let (ok, out, err) = rig(&dir, &["import", file.to_str().unwrap()]);
    assert!(ok, "{out}{err}");
    let (ok, out, err) = rig(&dir, &["check"]);
    assert!(ok, "{out}{err}");
    assert_eq!(out, "1 passed, 0 failed\n");
    assert!(err.contains("1 run-dependent op "), "{err}");

    // Neither of its results: the case fails.
    v["results"][0] = serde_json::json!({"ok": 6});
    v["run_dependent"] = serde_json::json!([{"op": 0, "any_of": [{"ok": 6}, {"ok": 7}]}]);
    std::fs::write(&file, v.to_string()).unwrap();
    let (ok, out, _) = rig(&dir, &["check", file.to_str().unwrap()]);
    assert!(!ok);
    assert!(out.ends_with("0 passed, 1 failed\n"), "{out}");
}

#[test]
fn gen_into_a_reader_that_stops_early_exits_quietly() {
    use std::io::Read as _;
    let mut child = Command::new(env!("CARGO_BIN_EXE_rig"))
        .args(["gen", "default"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut head = [0u8; 16];
    child.stdout.take().unwrap().read_exact(&mut head).unwrap();
    // The pipe is closed here, as `| head` closes it.
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}
