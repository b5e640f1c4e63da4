//! Every golden case (`cases/golden/`, unchanged copies of the shared
//! recordings) through the Rust containers, every result compared; and each
//! file read and written back byte for byte.

use std::path::{Path, PathBuf};

use harness::known::{self, Known};
use harness::recorded::Recorded;
use harness::rust::RustExecutor;
use harness::verdict::{judge, Verdict};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn golden_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "json") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(&root().join("cases/golden"), &mut files);
    files.sort();
    files
}

/// The number of recordings in the golden set, as found on disk.
fn golden_cases() -> usize {
    harness::store::Store::at(root()).recorded_set().cases
}

#[test]
fn golden_files_round_trip_byte_for_byte() {
    let files = golden_files();
    assert_eq!(files.len(), golden_cases());
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let recorded = Recorded::parse(&text, &path).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            recorded.to_text() == text,
            "{} does not round-trip",
            path.display()
        );
    }
}

#[test]
fn every_golden_case_matches_through_the_rust_containers() {
    let known = Known::load(&root().join(known::PATH)).unwrap_or_else(|e| panic!("{e}"));
    let mut exec = RustExecutor::new();
    let (mut passed, mut expected, mut failures) = (0, 0, Vec::new());
    let files = golden_files();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let recorded = Recorded::parse(&text, path).unwrap_or_else(|e| panic!("{e}"));
        match judge(&mut exec, &recorded.case, &recorded.results, &known) {
            Verdict::Passed => passed += 1,
            Verdict::Expected { .. } => expected += 1,
            Verdict::Failed(report) => failures.push(report),
            // The Rust containers answer every op; this would be a bug.
            Verdict::Unsupported { summary } => failures.push(format!(
                "case {}: unsupported by the Rust containers: {summary}",
                recorded.case.name
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{}\n{passed} passed, {} failed, {expected} expected",
        failures.join("\n"),
        failures.len()
    );
    assert_eq!(passed + expected, golden_cases());
}
