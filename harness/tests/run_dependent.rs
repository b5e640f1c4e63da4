//! A run-dependent op's results travel whole: a golden file's `run_dependent` key becomes
//! the snapshot's `{"any_of": [..]}` line on import and comes back on export, and the
//! comparison takes any of them.

use std::path::Path;

use harness::compare::{compare, Comparison};
use harness::outcome::Outcome;
use harness::recorded::Recorded;
use harness::snapshot::Snapshot;
use harness::store::Store;

const GOLDEN: &str = r#"{"format":1,"name":"rundep/t","source":"Minecraft 26.3 (test)","subject":{"kind":"container","strategy":"biomes","registry":4,"initial":0},"ops":[{"op":"set","x":0,"y":0,"z":0,"value":1},{"op":"counts"},{"op":"bits"}],"results":[{"ok":null},{"ok":[[0,63],[1,1]]},{"ok":1}],"run_dependent":[{"op":1,"any_of":[{"ok":[[0,63],[1,1]]},{"ok":[[1,1],[0,63]]}]}]}
"#;

#[test]
fn golden_snapshot_golden_keeps_every_result_of_a_run_dependent_op() {
    let recorded = Recorded::parse(GOLDEN, Path::new("t.json")).unwrap();
    assert!(recorded.results[1].is_run_dependent());
    let (case_text, snap_text) = Store::split(&recorded, "test", "t.json");
    assert!(!case_text.contains("run_dependent"), "{case_text}");
    let body: Vec<&str> = snap_text.split("\n---\n").nth(1).unwrap().lines().collect();
    assert_eq!(
        body,
        [
            r#"{"ok":null}"#,
            r#"{"any_of":[{"ok":[[0,63],[1,1]]},{"ok":[[1,1],[0,63]]}]}"#,
            r#"{"ok":1}"#
        ]
    );
    let snapshot = Snapshot::parse(&snap_text, Path::new("t.snap")).unwrap();
    let case = harness::case::Case::parse(&case_text, Path::new("t.json")).unwrap();
    let back = Store::join(case, snapshot).unwrap();
    assert_eq!(back.results, recorded.results);
    assert_eq!(back.to_text(), GOLDEN);

    // Either order of the counts agrees; a third answer does not.
    let ok = |v: serde_json::Value| Outcome::Ok(v);
    for counts in [
        serde_json::json!([[0, 63], [1, 1]]),
        serde_json::json!([[1, 1], [0, 63]]),
    ] {
        let actual = [ok(serde_json::Value::Null), ok(counts), ok(1.into())];
        assert_eq!(
            compare(&recorded.case, &recorded.results, &actual),
            Comparison::Same
        );
    }
    let wrong = [
        ok(serde_json::Value::Null),
        ok(serde_json::json!([[0, 64]])),
        ok(1.into()),
    ];
    assert!(matches!(
        compare(&recorded.case, &recorded.results, &wrong),
        Comparison::Differs(d) if d.op == 1
    ));
}
