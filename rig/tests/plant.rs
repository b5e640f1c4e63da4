//! The contributor's loop against bugs planted in the real containers (the
//! `paletted` crate's `plant` feature, which rig's dev-dependencies turn on,
//! switched by `PALETTED_PLANT`): for each plant, `rig check` must fail and
//! report a failing case's divergence at its op with both results (never an
//! internal error in their place), `rig repro` of that case must show the
//! same, and with the plant off the case and the families pass.
//!
//! The loop is [`contributors_loop`]: a step a function, each asserting what
//! its command must say. Shrinking and adding the found case are the next
//! steps (issue 33, item 4); they belong there.

use std::path::{Path, PathBuf};
use std::process::Command;

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
    let mut command = Command::new(env!("CARGO_BIN_EXE_rig"));
    command.args(args).current_dir(root());
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

/// The loop for one plant: check finds it, repro shows it, and the case
/// passes without it. (To come: shrink the case keeping its recorded
/// results, add it, and check that it fails with the plant and passes
/// without.)
fn contributors_loop(plant: &str) -> Finding {
    let found = check_finds(plant);
    repro_names(plant, &found);
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
