//! The shrinker, proved on planted bugs: a copy of the Rust executor with one
//! behaviour broken, and long generated cases that expose it.

use gen::plant::{Plant as Bug, Planted};
use gen::shrink::{disagrees_with_recording, executors_differ, shrink};
use harness::case::{Case, ContainerOp, Ops};
use harness::outcome::Outcome;
use harness::recorded::Recorded;
use harness::rust::RustExecutor;
use harness::verdict::{judge, Verdict};
use serde_json::Value;

/// The longest random-family cases of seed 1 that the bug shows in.
fn long_failing_case(bug: Bug) -> Case {
    let cases = gen::family("random").unwrap().cases(1, None).unwrap();
    let mut good = RustExecutor::new();
    let mut bad = Planted::new(bug);
    let mut differ = executors_differ(&mut good, &mut bad);
    cases
        .into_iter()
        .filter(|c| c.ops.len() >= 200 && differ(c))
        .max_by_key(|c| c.ops.len())
        .expect("a long random case the planted bug shows in")
}

fn shrink_planted(bug: Bug) -> (usize, Case, usize) {
    let case = long_failing_case(bug);
    let mut good = RustExecutor::new();
    let mut bad = Planted::new(bug);
    let shrunk = shrink(&case, executors_differ(&mut good, &mut bad)).unwrap();
    // Still diverges, and is 1-minimal.
    let mut good = RustExecutor::new();
    let mut bad = Planted::new(bug);
    let mut differ = executors_differ(&mut good, &mut bad);
    assert!(differ(&shrunk.case));
    for i in 0..shrunk.case.ops.len() {
        let Ops::Container(ops) = &shrunk.case.ops else {
            unreachable!()
        };
        let mut fewer = ops.clone();
        fewer.remove(i);
        let smaller = Case {
            ops: Ops::Container(fewer),
            ..shrunk.case.clone()
        };
        assert!(!differ(&smaller), "op {i} of the shrunk case could go");
    }
    eprintln!(
        "{}: {} ops -> {} ops in {} runs: {}",
        case.name,
        shrunk.from_ops,
        shrunk.case.ops.len(),
        shrunk.tests,
        shrunk.case.to_text()
    );
    (shrunk.from_ops, shrunk.case, shrunk.tests)
}

#[test]
fn reversed_counts_shrink_to_a_handful_of_ops() {
    let (from, case, _) = shrink_planted(Bug::CountOrder);
    assert!(from >= 200, "the failing case had {from} ops");
    assert!(
        case.ops.len() <= 5,
        "shrunk to {} ops: {}",
        case.ops.len(),
        case.to_text()
    );
    // Two distinct values are needed for an order, so: a set and a count.
    let Ops::Container(ops) = &case.ops else {
        panic!("a container case")
    };
    assert!(matches!(ops.last(), Some(ContainerOp::Counts)));
}

#[test]
fn short_write_shrinks_to_one_write() {
    let (from, case, _) = shrink_planted(Bug::ShortWrite);
    assert!(from >= 200, "the failing case had {from} ops");
    assert!(
        case.ops.len() <= 5,
        "shrunk to {} ops: {}",
        case.ops.len(),
        case.to_text()
    );
    let Ops::Container(ops) = &case.ops else {
        panic!("a container case")
    };
    assert_eq!(ops, &[ContainerOp::Write]);
}

#[test]
fn a_storage_bug_shrinks_to_one_op() {
    let case = gen::family("storage")
        .unwrap()
        .cases(1, None)
        .unwrap()
        .remove(20);
    let mut good = RustExecutor::new();
    let mut bad = Planted::new(Bug::LongBit);
    let shrunk = shrink(&case, executors_differ(&mut good, &mut bad)).unwrap();
    eprintln!(
        "{}: {} ops -> {} ops in {} runs",
        case.name,
        shrunk.from_ops,
        shrunk.case.ops.len(),
        shrunk.tests
    );
    assert!(shrunk.from_ops >= 50);
    assert_eq!(
        shrunk.case.ops,
        Ops::Storage(vec![harness::case::StorageOp::Longs])
    );
}

#[test]
fn shrinking_needs_a_divergence_to_start_from() {
    let case = gen::family("random")
        .unwrap()
        .cases(1, Some(1))
        .unwrap()
        .remove(0);
    let err = shrink(&case, |_| false).unwrap_err();
    assert!(err.contains("does not diverge"), "{err}");
}

#[test]
fn against_a_recording_only_observations_and_the_tail_go() {
    // A golden case with one recorded result altered stands for a Rust bug
    // showing at that op. Without Minecraft only cuts that leave the recorded
    // state alone are sound: the ops after it, and ops that only look.
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../cases/golden/random/block_states-s1.json"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let mut recorded = Recorded::parse(&text, std::path::Path::new(path)).unwrap();
    let at = (0..recorded.results.len())
        .filter(|&i| recorded.case.ops.kind(i) == "counts")
        .nth(1)
        .expect("a second counts op");
    if let Outcome::Ok(Value::Array(pairs)) = &mut recorded.results[at] {
        pairs.reverse();
    }
    let Ops::Container(all) = &recorded.case.ops else {
        panic!("a container case")
    };
    let changes = |ops: &[ContainerOp]| {
        ops.iter()
            .filter(|op| {
                matches!(
                    op,
                    ContainerOp::Set { .. }
                        | ContainerOp::GetAndSet { .. }
                        | ContainerOp::Unpack { .. }
                        | ContainerOp::Read { .. }
                )
            })
            .cloned()
            .collect::<Vec<_>>()
    };
    let mut expected = changes(&all[..at]);
    expected.push(ContainerOp::Counts);

    let quick = gen::shrink::shrink_recorded(&recorded, &mut RustExecutor::new()).unwrap();
    assert_eq!(quick.case.ops, Ops::Container(expected.clone()));
    eprintln!(
        "recorded: {} ops -> {} ops in {} runs",
        quick.from_ops,
        quick.case.ops.len(),
        quick.tests
    );

    // The generic shrinker with the same predicate agrees.
    let mut rust = RustExecutor::new();
    let shrunk = shrink(
        &recorded.case,
        disagrees_with_recording(&recorded, &mut rust),
    )
    .unwrap();
    assert_eq!(shrunk.case.ops, Ops::Container(expected));
}

#[test]
fn ddmin_finds_the_one_minimal_subset() {
    let items: Vec<u32> = (0..100).collect();
    let mut tests = 0;
    let kept = gen::shrink::ddmin(items, &mut |s: &[u32]| {
        tests += 1;
        s.contains(&17) && s.contains(&42) && s.contains(&90)
    });
    assert_eq!(kept, vec![17, 42, 90]);
    assert!(tests < 200, "{tests} tests");
}

#[test]
fn a_shrunk_case_is_written_as_an_op_list() {
    let case = gen::family("random")
        .unwrap()
        .cases(1, Some(1))
        .unwrap()
        .remove(0);
    let shrunk = gen::Shrunk {
        case: case.clone(),
        from_ops: 999,
        tests: 1,
    };
    let dir = std::env::temp_dir().join(format!("paletted-gen-shrink-{}", std::process::id()));
    let path = gen::shrink::write_regression(&shrunk, &case.name, "a test", &dir).unwrap();
    let back = Case::parse(&std::fs::read_to_string(&path).unwrap(), &path).unwrap();
    assert_eq!(back.ops, case.ops);
    assert!(back.name.starts_with("regress/"));
    assert!(back.extra["notes"]
        .as_str()
        .unwrap()
        .contains("results come only from Minecraft"));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_run_dependent_op_is_never_chased() {
    // The same altered counts op as above, but recorded as run-dependent: the Rust result is
    // one of its results, so nothing disagrees and there is nothing to shrink.
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../cases/golden/random/block_states-s1.json"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let mut recorded = Recorded::parse(&text, std::path::Path::new(path)).unwrap();
    let at = (0..recorded.results.len())
        .filter(|&i| recorded.case.ops.kind(i) == "counts")
        .nth(1)
        .expect("a second counts op");
    let mut other = recorded.results[at].clone();
    if let Outcome::Ok(Value::Array(pairs)) = &mut other {
        pairs.reverse();
    }
    assert_ne!(
        other, recorded.results[at],
        "the pairs are not a palindrome"
    );
    recorded.results[at] = Outcome::seen([other, recorded.results[at].clone()]);
    let err = gen::shrink::shrink_recorded(&recorded, &mut RustExecutor::new()).unwrap_err();
    assert!(err.contains("does not diverge"), "{err}");
    let mut rust = RustExecutor::new();
    let mut predicate = disagrees_with_recording(&recorded, &mut rust);
    assert!(!predicate(&recorded.case));
}

/// A golden recording of this repository.
fn golden(name: &str) -> Recorded {
    let path = format!("{}/../cases/golden/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    Recorded::parse(&text, std::path::Path::new(&path)).unwrap()
}

#[test]
fn a_recorded_case_shrinks_to_a_derived_recording_that_fails_only_with_the_bug() {
    // ladder/biomes-r9 opens with five ops that only look (bits, palette, write, pack,
    // counts); reversed counts first show at op 12, after the sets of values 0 and 1.
    let parent = golden("ladder/biomes-r9");
    assert_eq!(
        (0..5).map(|i| parent.case.ops.kind(i)).collect::<Vec<_>>(),
        ["bits", "palette", "write", "pack", "counts"]
    );
    let derived =
        gen::shrink::shrink_recorded(&parent, &mut Planted::new(Bug::CountOrder)).unwrap();
    assert_eq!(derived.kept, [5, 7, 12], "{}", derived.case.to_text());
    assert_eq!(derived.case.ops, parent.case.ops.select(&[5, 7, 12]));
    let recorded: Vec<Outcome> = [5, 7, 12]
        .iter()
        .map(|&i| parent.results[i].clone())
        .collect();
    assert_eq!(derived.results, recorded);

    // Written as a recording derived from its parent, with the parent's results.
    let recording = derived.recording(&parent, "a test");
    assert_eq!(recording.case.name, "regress/ladder-biomes-r9-shrunk");
    assert_eq!(recording.source, parent.source);
    assert_eq!(recording.results, recorded);
    let extra = &recording.case.extra;
    assert_eq!(extra["derived_from"], "ladder/biomes-r9");
    assert_eq!(extra["parent_ops"], serde_json::json!([5, 7, 12]));
    assert_eq!(
        extra["parent_sha256"],
        harness::store::fingerprint(&parent.case, &parent.results).as_str()
    );
    let back = Recorded::parse(&recording.to_text(), std::path::Path::new("x.json")).unwrap();
    assert_eq!(back.results, recorded);

    // It fails while the bug is in and passes once it is out.
    let none = harness::known::Known::none();
    let with_bug = judge(
        &mut Planted::new(Bug::CountOrder),
        &recording.case,
        &recording.results,
        &none,
    );
    assert!(with_bug.is_failure(), "{with_bug:?}");
    let fixed = judge(
        &mut RustExecutor::new(),
        &recording.case,
        &recording.results,
        &none,
    );
    assert_eq!(fixed, Verdict::Passed);
}

#[test]
fn a_divergence_at_palette_after_one_value_keeps_the_sets_and_the_palette() {
    // The recorded palette after the second value reversed stands for a resize that puts
    // the new value first: what is left is the two sets (the first sets the initial value,
    // still a state change to keep) and the palette.
    let mut parent = golden("ladder/biomes-r9");
    assert_eq!(parent.case.ops.kind(9), "palette");
    if let Outcome::Ok(Value::Array(ids)) = &mut parent.results[9] {
        ids.reverse();
    }
    let derived = gen::shrink::shrink_recorded(&parent, &mut RustExecutor::new()).unwrap();
    assert_eq!(derived.kept, [5, 7, 9]);
    let Ops::Container(ops) = &derived.case.ops else {
        panic!("a container case")
    };
    assert!(matches!(
        ops[..],
        [
            ContainerOp::Set { .. },
            ContainerOp::Set {
                x: 1,
                y: 0,
                z: 0,
                value: 1
            },
            ContainerOp::Palette
        ]
    ));
    assert_eq!(derived.results[2], parent.results[9]);
}

#[test]
fn against_a_recording_only_sound_candidates_are_tried() {
    // Every candidate the predicate sees is a prefix of the parent less observing ops,
    // handed with the parent's own results for its ops.
    let parent = golden("random/block_states-s1");
    let at = parent.case.ops.len() - 1;
    let mut seen = 0;
    let derived =
        gen::shrink::against_recording(&parent.case, &parent.results, at, |c, expected| {
            seen += 1;
            assert_eq!(c.ops.len(), expected.len());
            assert_eq!(c.subject, parent.case.subject);
            true
        });
    assert!(seen >= 1);
    // Everything that only observes before the last op goes; every state change stays.
    let changes: Vec<usize> = (0..at)
        .filter(|&i| parent.case.ops.changes_state(i))
        .chain([at])
        .collect();
    assert_eq!(derived.kept, changes);
}

#[test]
fn a_run_dependent_result_carries_over_as_it_is() {
    // The parent's op 7 (a set, kept) recorded as run-dependent: the derived recording
    // holds all of its results, in the golden file's `run_dependent` key.
    let mut parent = golden("ladder/biomes-r9");
    let seen = Outcome::seen([parent.results[7].clone(), Outcome::Ok(Value::from(1))]);
    parent.results[7] = seen.clone();
    let derived =
        gen::shrink::shrink_recorded(&parent, &mut Planted::new(Bug::CountOrder)).unwrap();
    assert_eq!(derived.kept, [5, 7, 12]);
    assert_eq!(derived.results[1], seen);
    let text = derived.recording(&parent, "a test").to_text();
    assert!(text.contains(r#""run_dependent":[{"op":1,"#), "{text}");
    let back = Recorded::parse(&text, std::path::Path::new("x.json")).unwrap();
    assert_eq!(back.results[1], seen);
}
