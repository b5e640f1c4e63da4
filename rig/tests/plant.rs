//! The contributor's loop against bugs planted in the real containers (the
//! `paletted` crate's `plant` feature, which rig's dev-dependencies turn on,
//! switched by `PALETTED_PLANT`): for each plant, `rig check` must fail and
//! report a failing case's divergence at its op with both results (never an
//! internal error in their place), `rig repro` of that case must show the
//! same, `rig shrink` must cut it against its recording to a smaller derived
//! recording holding Minecraft's results, `rig add` must file that (in a
//! scratch copy of the case's store) and `rig check` of it must fail with the
//! plant and pass without; with the plant off the case and the families pass.
//!
//! The loop is [`contributors_loop`]: a step a function, each asserting what
//! its command must say. No step starts a JVM: `java` is off their `PATH`.

use std::path::{Path, PathBuf};
use std::process::Command;

use harness::recorded::Recorded;
use harness::store::Store;

mod jvm_support;
mod scratch;

/// The bugs `src/plant.rs` plants.
const PLANTS: [&str; 4] = ["resize-order", "stale-entry", "wire-check", "storage-width"];

/// The families checked: small (151 cases, under two seconds in the test
/// profile), and between them every plant fails some of their cases.
const FAMILIES: [&str; 2] = ["cases/ops/boundaries", "cases/ops/lenient-after"];

/// The checkout, whose recorded cases and snapshots are checked.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Exit code, stdout and stderr of `rig ARGS` in the checkout, with
/// `plant` planted (or none).
fn rig(plant: Option<&str>, args: &[&str]) -> (Option<i32>, String, String) {
    rig_in(&root(), plant, args)
}

/// [`rig`] in `dir`, with no JVM to be found (no `java` on the `PATH`, no
/// `JAVA_HOME`).
fn rig_in(dir: &Path, plant: Option<&str>, args: &[&str]) -> (Option<i32>, String, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_rig"));
    command
        .args(args)
        .current_dir(dir)
        .env("PATH", "/nonexistent")
        .env_remove("JAVA_HOME");
    match plant {
        Some(p) => command.env("PALETTED_PLANT", p),
        None => command.env_remove("PALETTED_PLANT"),
    };
    let out = command.output().unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// A failing case `rig check` reported, as its report's first lines say.
#[derive(Debug)]
struct Finding {
    /// The case's name.
    name: String,
    /// The diverging op, and the case's op count.
    op: usize,
    ops: usize,
    /// The report's lines giving both results.
    recorded: String,
    actual: String,
}

/// Reads the first divergence report out of `rig check`'s or `rig
/// repro`'s output: `case NAME: op N of M diverges: ...`, then the recorded
/// and the Rust result.
fn first_divergence(out: &str) -> Option<Finding> {
    let lines: Vec<&str> = out.lines().collect();
    // A report in full: its results on the next lines (a failure shown on
    // one line has them on the same line).
    let at = (0..lines.len()).find(|&i| {
        lines[i].starts_with("case ")
            && lines[i].contains(" diverges: ")
            && lines
                .get(i + 1)
                .is_some_and(|l| l.starts_with("  recorded "))
    })?;
    let head = lines[at].strip_prefix("case ")?;
    let (name, rest) = head.split_once(": op ")?;
    let (op, rest) = rest.split_once(" of ")?;
    let (ops, _) = rest.split_once(" diverges: ")?;
    // A case name with a version label: `v1.21.4/... (1.21.4)`.
    let name = name.split(" (").next()?.to_string();
    Some(Finding {
        name,
        op: op.parse().ok()?,
        ops: ops.parse().ok()?,
        recorded: lines.get(at + 1)?.to_string(),
        actual: lines.get(at + 2)?.to_string(),
    })
}

/// No command may put an internal error in place of a comparison.
fn no_internal_error(what: &str, out: &str, err: &str) {
    for text in [out, err] {
        assert!(
            !text.contains("internal error") && !text.contains("could not run"),
            "{what}:\n{out}{err}"
        );
    }
}

/// `rig check` of the families with `plant`: it fails, and its first
/// failure is a divergence at an op, with both results.
fn check_finds(plant: &str) -> Finding {
    let (code, out, err) = rig(Some(plant), &[&["check"][..], &FAMILIES].concat());
    assert_eq!(code, Some(1), "{plant}: rig check must fail:\n{out}{err}");
    no_internal_error(plant, &out, &err);
    let found = first_divergence(&out)
        .unwrap_or_else(|| panic!("{plant}: no divergence reported:\n{out}{err}"));
    assert!(
        found.recorded.starts_with("  recorded ") && found.actual.starts_with("  paletted (Rust) "),
        "{plant}: {found:?}\n{out}"
    );
    assert!(found.op < found.ops, "{found:?}");
    found
}

/// `rig repro NAME` with `plant`: the same op and results.
fn repro_names(plant: &str, found: &Finding) {
    let (code, out, err) = rig(Some(plant), &["repro", &found.name]);
    assert_eq!(code, Some(1), "{plant}: rig repro must fail:\n{out}{err}");
    no_internal_error(plant, &out, &err);
    let again = first_divergence(&out)
        .unwrap_or_else(|| panic!("{plant}: rig repro shows no divergence:\n{out}{err}"));
    assert_eq!(
        (&again.name, again.op, &again.recorded, &again.actual),
        (&found.name, found.op, &found.recorded, &found.actual),
        "{plant}:\n{out}"
    );
}

/// Without the plant, the found case and the families pass.
fn passes_unplanted(found: &Finding) {
    let (code, out, err) = rig(None, &["repro", &found.name]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.contains(&format!("all {} ops match the recording", found.ops)),
        "{out}"
    );
    let (code, out, err) = rig(None, &[&["check"][..], &FAMILIES].concat());
    assert_eq!(code, Some(0), "{out}{err}");
}

/// The same op's results as `found`'s: the recorded and the Rust line.
fn same_results(what: &str, again: &Finding, found: &Finding, out: &str) {
    assert_eq!(
        (&again.recorded, &again.actual),
        (&found.recorded, &found.actual),
        "{what}:\n{out}"
    );
}

/// A scratch store holding the found case as the checkout has it (its op
/// list and snapshot), so the derived case is filed there, never in the
/// checkout's `cases/` or `snapshots/`.
fn scratch_with(plant: &str, found: &Finding) -> scratch::Scratch {
    let dir = scratch::store("plant", plant);
    let store = Store::at(root());
    for path in [
        store.case_path(&found.name),
        store.snapshot_path(&found.name),
    ] {
        let to = dir.join(path.strip_prefix(root()).unwrap());
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(&path, &to).unwrap();
    }
    dir
}

/// `rig shrink NAME` with `plant`, against the recording: a derived
/// recording, smaller than its parent, whose results are the parent's
/// recorded ones for the ops it keeps, ending at the found op; and the
/// shrunk case's divergence named with the same results. Gives the file.
fn shrink_keeps(plant: &str, found: &Finding, dir: &Path) -> (PathBuf, Recorded) {
    let (code, out, err) = rig_in(dir, Some(plant), &["shrink", &found.name, "--out", "out"]);
    assert_eq!(
        code,
        Some(0),
        "{plant}: rig shrink must succeed:\n{out}{err}"
    );
    no_internal_error(plant, &out, &err);
    assert!(
        err.contains(&format!("at the parent's op {}", found.op)),
        "{plant}:\n{err}"
    );
    let shrunk = first_divergence(&err)
        .unwrap_or_else(|| panic!("{plant}: rig shrink shows no divergence:\n{err}"));
    same_results(plant, &shrunk, found, &err);
    assert!(shrunk.ops < found.ops, "{plant}: not smaller: {shrunk:?}");
    assert_eq!(shrunk.op, shrunk.ops - 1, "{shrunk:?}");

    let file = err
        .lines()
        .find_map(|l| l.strip_prefix("rig shrink: wrote "))
        .and_then(|l| l.split(" (").next())
        .map(|f| dir.join(f))
        .unwrap_or_else(|| panic!("{plant}: no file written:\n{err}"));
    let derived = Recorded::parse(&std::fs::read_to_string(&file).unwrap(), &file).unwrap();
    let extra = &derived.case.extra;
    assert_eq!(extra["derived_from"], found.name.as_str(), "{plant}");
    let kept: Vec<usize> = serde_json::from_value(extra["parent_ops"].clone()).unwrap();
    assert_eq!(kept.last(), Some(&found.op), "{plant}: {kept:?}");
    let parent = Store::at(dir).export(&found.name).unwrap();
    let recorded: Vec<_> = kept.iter().map(|&i| parent.results[i].clone()).collect();
    assert_eq!(
        derived.results, recorded,
        "{plant}: not the recorded results"
    );
    assert_eq!(derived.case.ops, parent.case.ops.select(&kept), "{plant}");
    assert_eq!(shrunk.name, derived.case.name, "{plant}");
    (file, derived)
}

/// `rig add` files the derived recording (in the scratch store) and names
/// its divergence with the same results.
fn add_files(plant: &str, found: &Finding, dir: &Path, file: &Path, derived: &Recorded) {
    let (code, out, err) = rig_in(dir, Some(plant), &["add", file.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{plant}: rig add must succeed:\n{out}{err}");
    no_internal_error(plant, &out, &err);
    assert!(
        out.contains(&format!("a recording derived from {}", found.name)),
        "{plant}:\n{out}"
    );
    assert!(!out.contains("awaiting recording"), "{plant}:\n{out}");
    let added = first_divergence(&out)
        .unwrap_or_else(|| panic!("{plant}: rig add shows no divergence:\n{out}{err}"));
    assert_eq!(added.name, derived.case.name, "{plant}");
    same_results(plant, &added, found, &out);
    let store = Store::at(dir);
    assert!(store.snapshot_path(&derived.case.name).is_file(), "{plant}");
}

/// `rig check` of the kept case: it fails at its last op with the plant,
/// naming the same results, and passes without.
fn kept_case_checks(plant: &str, found: &Finding, dir: &Path, derived: &Recorded) {
    let regress = &["check", "cases/ops/regress"];
    let (code, out, err) = rig_in(dir, Some(plant), regress);
    assert_eq!(
        code,
        Some(1),
        "{plant}: the kept case must fail:\n{out}{err}"
    );
    no_internal_error(plant, &out, &err);
    let kept =
        first_divergence(&out).unwrap_or_else(|| panic!("{plant}: no divergence:\n{out}{err}"));
    assert_eq!(
        (&kept.name, kept.op, kept.ops),
        (
            &derived.case.name,
            derived.case.ops.len() - 1,
            derived.case.ops.len()
        ),
        "{plant}:\n{out}"
    );
    same_results(plant, &kept, found, &out);
    assert!(out.ends_with("0 passed, 1 failed\n"), "{plant}:\n{out}");
    let (code, out, err) = rig_in(dir, None, regress);
    assert_eq!(
        code,
        Some(0),
        "{plant}: the kept case must pass unplanted:\n{out}{err}"
    );
    assert!(out.ends_with("1 passed, 0 failed\n"), "{out}{err}");
}

/// The loop for one plant: check finds it, repro shows it, shrink cuts it
/// keeping its recorded results, add files it, and the kept case fails with
/// the plant and passes without; the found case passes without it too.
fn contributors_loop(plant: &str) -> Finding {
    let found = check_finds(plant);
    repro_names(plant, &found);
    let dir = scratch_with(plant, &found);
    let (file, derived) = shrink_keeps(plant, &found, &dir);
    add_files(plant, &found, &dir, &file, &derived);
    kept_case_checks(plant, &found, &dir, &derived);
    passes_unplanted(&found);
    found
}

#[test]
fn resize_order_is_found_at_its_op() {
    contributors_loop(PLANTS[0]);
}

#[test]
fn a_stale_entry_kept_is_found_at_its_op() {
    contributors_loop(PLANTS[1]);
}

#[test]
fn a_dropped_wire_check_is_found_at_its_op() {
    contributors_loop(PLANTS[2]);
}

#[test]
fn a_storage_width_off_by_one_is_found_at_its_op() {
    contributors_loop(PLANTS[3]);
}

/// A failure the executor's own cross-checks find alongside a divergence is
/// reported after it, naming its op; one they find alone (every result
/// matches) fails the case too, naming its op, and `rig repro` shows it.
#[test]
fn self_checks_are_reported_after_the_divergence_and_name_their_op() {
    let (_, out, _) = rig(Some("resize-order"), &["check", "--full", FAMILIES[0]]);
    let reports: Vec<&str> = out.split("\n\n").collect();
    let both = reports
        .iter()
        .find(|r| r.contains(" diverges: ") && r.contains("\nself-check: "))
        .unwrap_or_else(|| panic!("no divergence with a self-check:\n{out}"));
    let diverges = both.find(" diverges: ").unwrap();
    let check = both.find("\nself-check: ").unwrap();
    assert!(diverges < check, "{both}");
    assert!(both[check..].contains("\n  at op "), "{both}");
    let alone = reports
        .iter()
        .find(|r| r.contains(" self-check failed at op ") && !r.contains(" diverges: "))
        .unwrap_or_else(|| panic!("no case failing its self-checks alone:\n{out}"));
    let name = alone
        .strip_prefix("case ")
        .and_then(|r| r.split(": ").next())
        .unwrap();
    let (code, out, err) = rig(Some("resize-order"), &["repro", name]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("ops match the recording"), "{out}");
    assert!(
        out.contains("\nself-check: ") && out.contains("\n  at op "),
        "{out}"
    );
}

/// Many failures: the first five in full, then a line each, and a note
/// saying so; `--full` shows every one in full.
#[test]
fn many_failures_are_shown_five_in_full_then_a_line_each() {
    let (code, out, err) = rig(Some("resize-order"), &[&["check"][..], &FAMILIES].concat());
    assert_eq!(code, Some(1));
    let summary = out.lines().last().unwrap();
    let failed: usize = summary
        .split(", ")
        .nth(1)
        .and_then(|f| f.strip_suffix(" failed"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{summary}"));
    assert!(failed > 20, "{summary}");
    let in_full = out.matches("\nreplay: rig repro ").count();
    assert_eq!(in_full, 5, "{out}");
    let one_line = out.lines().filter(|l| l.starts_with("case ")).count();
    assert_eq!(one_line, failed, "{out}");
    // Five reports of a few lines each, and a line for each of the rest.
    assert!(out.lines().count() < 5 * 30 + failed, "{out}");
    assert!(err.contains("the first 5 are shown in full"), "{err}");
    let (_, full, _) = rig(
        Some("resize-order"),
        &[&["check", "--full"][..], &FAMILIES].concat(),
    );
    assert_eq!(full.matches("\nreplay: rig repro ").count(), failed);
}

/// `rig diff` against a JVM (the test fixture standing in for Minecraft) with
/// a plant whose self-checks also fail: the divergence is reported at its op
/// with both results, the self-checks after it, and never an internal error
/// or a side that "failed" in their place.
#[test]
fn rig_diff_reports_the_divergence_then_the_self_checks() {
    let Some(fx) = jvm_support::fixture() else {
        return;
    };
    let golden = scratch::golden("boundaries/biome-read-2-stale-new");
    let (code, out, err) = jvm_support::run(
        jvm_support::rig()
            .env("PALETTED_PLANT", "resize-order")
            .arg("diff")
            .arg(&golden)
            .args(["--classpath", fx.to_str().unwrap()]),
    );
    assert_eq!(code, 1, "{out}{err}");
    no_internal_error("rig diff", &out, &err);
    assert!(!out.contains("side failed"), "{out}");
    let diverges = out
        .find("case boundaries/biome-read-2-stale-new: op 36 of 38 diverges: counts\n  minecraft (jvm) ")
        .unwrap_or_else(|| panic!("{out}"));
    let check = out
        .find("\nself-check: ")
        .unwrap_or_else(|| panic!("no self-check shown:\n{out}"));
    assert!(diverges < check, "{out}");
    assert!(out[check..].contains("\n  at op "), "{out}");
}

/// `rig fuzz` against the fixture with a plant whose self-checks also fail:
/// it stops on the divergence (not on a case it counts as unrunnable),
/// shows the self-checks after it, and shrinks it.
#[test]
fn rig_fuzz_finds_the_divergence_whatever_the_self_checks_say() {
    let Some(fx) = jvm_support::fixture() else {
        return;
    };
    let dir = scratch::store("plant", "fuzz");
    let (code, out, err) = jvm_support::run(
        jvm_support::rig()
            .env("PALETTED_PLANT", "resize-order")
            .current_dir(&*dir)
            .args(["fuzz", "--seed", "1", "--time", "20s", "--classpath"])
            .arg(&fx)
            .arg("--root")
            .arg(&*dir),
    );
    assert_eq!(code, 1, "a find fails the run:\n{out}{err}");
    no_internal_error("rig fuzz", &out, &err);
    let diverges = out
        .find(" diverges: ")
        .unwrap_or_else(|| panic!("no divergence found:\n{out}{err}"));
    let check = out
        .find("\nself-check: ")
        .unwrap_or_else(|| panic!("no self-check shown:\n{out}"));
    let shrunk = out
        .find("\nrig fuzz: shrunk ")
        .unwrap_or_else(|| panic!("not shrunk:\n{out}"));
    assert!(diverges < check && check < shrunk, "{out}");
}
