//! Every case in `cases/ops` through the Rust containers, asserted against
//! its snapshot in `snapshots/` with insta.
//!
//! The snapshots hold Minecraft's recorded results. When a change to the
//! Rust containers makes a case diverge, this test fails and insta writes
//! `snapshots/<name>.snap.new` with the Rust results. Those carry the
//! provenance below, so if anyone `cargo insta accept`s them, `rig check`
//! (and `every_snapshot_passes_the_provenance_gate` here) refuses the
//! accepted snapshot: Rust output never becomes truth by review.
//!
//! Insta compares the results only, never the metadata (a comparator,
//! below, that also holds under `INSTA_REQUIRE_FULL_MATCH`), so the Rust
//! provenance set here does not make recorded snapshots fail when the
//! results agree; and it compares them by the protocol's rules, so a
//! third-party exception message (netty's, Validate's) counts by class.

use std::path::{Path, PathBuf};

use harness::case::Case;
use harness::compare::matches;
use harness::exec::Executor;
use harness::known::{self, Known};
use harness::outcome::Outcome;
use harness::rust::RustExecutor;
use harness::snapshot::{self, Snapshot, RUST_SOURCE, TEST_SOURCE};
use harness::store::Store;
use insta::internals::Content;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .unwrap()
}

/// The provenance of results this test computes: refused by the gate.
fn rust_provenance() -> Content {
    Content::Map(vec![
        (Content::from("source"), Content::from(RUST_SOURCE)),
        (Content::from("recorder"), Content::from(TEST_SOURCE)),
    ])
}

/// Compares the results as the protocol does (`harness::compare::matches`:
/// exactly, but third-party exception messages by class only), and never
/// the metadata, also where insta is told to: the provenance differs by
/// design between a recording and the Rust side.
struct ProtocolComparator;

impl insta::Comparator for ProtocolComparator {
    fn matches(&self, reference: &insta::Snapshot, test: &insta::Snapshot) -> bool {
        let text = |s: &insta::Snapshot| s.contents().as_text().map(|t| t.to_string());
        let (Some(expected), Some(actual)) = (text(reference), text(test)) else {
            return insta::DefaultComparator.matches(reference, test);
        };
        let parse = |body: &str| -> Option<Vec<Outcome>> {
            body.lines().map(|l| serde_json::from_str(l).ok()).collect()
        };
        match (parse(&expected), parse(&actual)) {
            (Some(e), Some(a)) => {
                e.len() == a.len() && e.iter().zip(&a).all(|(e, a)| matches(e, a))
            }
            _ => expected == actual,
        }
    }

    fn matches_fully(&self, reference: &insta::Snapshot, test: &insta::Snapshot) -> bool {
        self.matches(reference, test)
    }

    fn dyn_clone(&self) -> Box<dyn insta::Comparator> {
        Box::new(ProtocolComparator)
    }
}

/// What to do about diverging cases, as PROTOCOL.md says ("The insta
/// workflow"); it ends the test's output, after insta's own hint to review
/// or accept, which must not be followed here.
fn guidance(diverging: &[String]) -> String {
    let mut s = format!(
        "{} case(s) diverge from their recorded (Minecraft) results:\n",
        diverging.len()
    );
    for name in diverging {
        s.push_str(&format!("  {name}: rig repro {name}\n"));
    }
    s.push_str(
        "Ignore insta's hint above: do NOT run `cargo insta review`/`accept` or set \
         INSTA_UPDATE; Rust results are never truth, and `rig check` refuses an accepted \
         snapshot (PROTOCOL.md, \"The insta workflow\").\n\
         For each case: read `rig repro NAME`, fix the Rust code (or, if Minecraft really \
         does that, list the case in cases/known-divergences.toml with the reason), then \
         delete snapshots/NAME.snap.new.",
    );
    s
}

#[test]
fn the_failure_text_follows_the_protocol_not_insta() {
    let text = guidance(&["ladder/biomes-r8".into()]);
    assert!(
        text.contains("ladder/biomes-r8: rig repro ladder/biomes-r8"),
        "{text}"
    );
    assert!(text.contains("do NOT run `cargo insta review`"), "{text}");
    assert!(text.contains("cases/known-divergences.toml"), "{text}");
    assert!(text.contains("delete snapshots/NAME.snap.new"), "{text}");
    let protocol = std::fs::read_to_string(root().join("PROTOCOL.md")).unwrap();
    assert!(protocol.contains("### The insta workflow"));
}

#[test]
fn cases_match_their_snapshots() {
    let root = root();
    let known = Known::load(&root.join(known::PATH)).unwrap_or_else(|e| panic!("{e}"));
    let diverging = std::sync::Mutex::new(Vec::new());
    // Every case, its failure kept and the next one run, as `insta::glob!`
    // does (without the glob feature's regex engine in the tests' build).
    let mut failures = Vec::new();
    for path in harness::store::json_files(&root.join("cases/ops")) {
        let path = path.as_path();
        let checked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let text = std::fs::read_to_string(path).unwrap();
            let case = Case::parse(&text, path).unwrap_or_else(|e| panic!("{e}"));
            // No snapshot: awaiting recording. Rust results are not to be
            // offered as a first snapshot.
            if !snapshot::path_for(&root, &case.name).is_file() {
                return;
            }
            // A known divergence differs from its snapshot by definition; rig
            // check and tests/golden.rs hold it to its entry.
            if known.reason(&case.name).is_some() {
                return;
            }
            // A case the Rust side cannot run fails like a divergence, and the run goes on.
            let results = match RustExecutor::new().run(&case) {
                Ok(r) => r,
                Err(e) => {
                    println!("{}: could not run on the Rust containers: {e}", case.name);
                    diverging.lock().unwrap().push(case.name.clone());
                    return;
                }
            };
            let (dir, stem) = match case.name.rsplit_once('/') {
                Some((dir, stem)) => (root.join("snapshots").join(dir), stem),
                None => (root.join("snapshots"), case.name.as_str()),
            };
            let mut settings = insta::Settings::clone_current();
            settings.remove_snapshot_suffix();
            settings.set_prepend_module_to_snapshot(false);
            settings.set_snapshot_path(dir);
            settings.set_omit_expression(true);
            settings.set_raw_info(&rust_provenance());
            settings.set_comparator(Box::new(ProtocolComparator));
            if let Ok(recorded) = Snapshot::load(&snapshot::path_for(&root, &case.name)) {
                let same = recorded.results.len() == results.len()
                    && recorded
                        .results
                        .iter()
                        .zip(&results)
                        .all(|(e, a)| matches(e, a));
                if !same {
                    diverging.lock().unwrap().push(case.name.clone());
                }
            }
            settings.set_input_file(path);
            settings.bind(|| {
                insta::assert_snapshot!(stem, snapshot::body(&results));
            });
        }));
        if let Err(panic) = checked {
            failures.push(panic);
        }
    }
    let diverging = diverging.into_inner().unwrap();
    if !diverging.is_empty() {
        panic!("{}", guidance(&diverging));
    }
    if let Some(panic) = failures.into_iter().next() {
        std::panic::resume_unwind(panic);
    }
}

#[test]
fn every_snapshot_passes_the_provenance_gate() {
    let store = Store::at(root());
    let trusted = store.trusted().unwrap_or_else(|e| panic!("{e}"));
    let mut refused = Vec::new();
    for entry in store.entries() {
        if let Some(path) = entry.snapshot {
            let snap = Snapshot::load(&path).unwrap_or_else(|e| panic!("{e}"));
            // A derived snapshot (rig shrink) is checked against its parent, as rig check does.
            let text = std::fs::read_to_string(&entry.case).unwrap();
            let case =
                harness::case::Case::parse(&text, &entry.case).unwrap_or_else(|e| panic!("{e}"));
            if let Some(why) = store.gate(&trusted, &case, &snap.results, &snap.provenance) {
                refused.push(format!("{}: {why}", path.display()));
            }
        }
    }
    assert!(refused.is_empty(), "{}", refused.join("\n"));
}

#[test]
fn export_of_the_imported_golden_set_is_the_golden_set() {
    let store = Store::at(root());
    let golden = root().join("cases/golden");
    let files = harness::store::json_files(&golden);
    assert_eq!(files.len(), store.recorded_set().cases);
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let name = file
            .strip_prefix(&golden)
            .unwrap()
            .with_extension("")
            .to_string_lossy()
            .replace('\\', "/");
        let exported = store.export(&name).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            exported.to_text() == text,
            "{name}: export differs from the golden file"
        );
    }
}
