//! Run-dependence that cannot leak (issue 33, item 5), against the test fixture: an op the
//! Rust side's model (`harness::hashdep`) flags is marked whatever the identity-hash regimes
//! gave, and a regime disagreement it does not flag is a finding.
//!
//! `-Dfixture.identity-hash=1` is the fixture's own identity-hash choice (README.md there):
//! both regimes then see one hash and agree, on the result a long-lived JVM may give and the
//! Rust containers do not: the seed-777 find of the issue.

mod jvm_support;

use std::path::Path;

use harness::outcome::Outcome;
use jvm_support::{divergences, fixture, fresh_dir, rig, run};
use serde_json::Value;

const AGREEING: &str = "--jvm-option=-Dfixture.identity-hash=1";

fn classpath(fx: &Path) -> String {
    fx.display().to_string()
}

/// The shrunk seed-777 find: an unpack of 256 entries in pairs, all data 0, a `set` of the
/// value at ids 0 and 1, `counts`.
fn pairs_case(dir: &Path) -> std::path::PathBuf {
    let palette: Vec<u32> = (0..256).map(|i| 10 + i / 2).collect();
    let case = serde_json::json!({
        "name": "rundep/p256-pairs",
        "subject": {"kind": "container", "strategy": "block_states", "registry": 300, "initial": 0},
        "ops": [
            {"op": "unpack", "palette": palette, "data": vec![0; 512], "bits": 8},
            {"op": "set", "x": 1, "y": 0, "z": 0, "value": 10},
            {"op": "counts"},
            {"op": "get", "x": 1, "y": 0, "z": 0}
        ]
    });
    let path = dir.join("p256-pairs.json");
    std::fs::write(&path, case.to_string()).unwrap();
    path
}

#[test]
fn counts_after_a_set_of_a_value_held_twice_is_marked_when_the_regimes_agree() {
    let Some(fx) = fixture() else { return };
    let case = pairs_case(&fresh_dir("rundep-agree-case"));
    let (code, out, err) =
        run(rig()
            .arg("diff")
            .arg(&case)
            .args(["--classpath", &classpath(&fx), AGREEING]));
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(divergences(&out).is_empty(), "{out}");
    assert!(out.contains("1 agree, 0 diverge"), "{out}");
    assert!(out.contains("; 1 run-dependent op "), "{out}");

    // Recorded, `counts` is any of the one result seen, in the snapshot and the golden file;
    // the other ops are plain facts.
    let root = fresh_dir("rundep-agree-root");
    std::fs::create_dir_all(root.join("cases/ops")).unwrap();
    let (code, out, err) = run(rig()
        .arg("record")
        .arg(&case)
        .args(["--classpath", &classpath(&fx), AGREEING])
        .arg("--root")
        .arg(&root)
        .arg("--golden")
        .arg(root.join("recorded")));
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("; 1 run-dependent op "), "{out}");
    let snap = std::fs::read_to_string(root.join("snapshots/rundep/p256-pairs.snap")).unwrap();
    let body: Vec<&str> = snap.split("\n---\n").nth(1).unwrap().lines().collect();
    assert_eq!(
        body[2], r#"{"any_of":[{"ok":[[10,4095],[10,1]]}]}"#,
        "{snap}"
    );
    assert_eq!(body[3], r#"{"ok":10}"#, "{snap}");
    let golden = root.join("recorded/rundep/p256-pairs.json");
    let text = std::fs::read_to_string(&golden).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["run_dependent"][0]["op"], 2, "{text}");
    let recorded = harness::recorded::Recorded::parse(&text, &golden).unwrap();
    assert!(recorded.results[2].is_run_dependent());
    assert_eq!(recorded.results[3], Outcome::Ok(10.into()));
}

#[test]
fn fuzz_of_unpack_dups_does_not_stop_when_the_regimes_agree() {
    let Some(fx) = fixture() else { return };
    let root = fresh_dir("rundep-agree-fuzz");
    std::fs::create_dir_all(root.join("cases/ops")).unwrap();
    let (code, out, err) = run(rig()
        .arg("fuzz")
        .args(["--classpath", &classpath(&fx), AGREEING])
        .args([
            "--seed",
            "777",
            "--cases",
            "400",
            "--families",
            "unpack-dups",
        ])
        .arg("--root")
        .arg(&root));
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("no divergence in 400 cases"), "{out}");
    assert!(out.contains(" run-dependent op"), "{out}");
    assert!(!root.join("cases/ops/regress").exists(), "{out}");
}

#[test]
fn a_regime_disagreement_the_model_does_not_flag_is_a_finding() {
    let Some(fx) = fixture() else { return };
    let dir = fresh_dir("rundep-finding");
    let case = dir.join("bits.json");
    std::fs::write(
        &case,
        r#"{"name":"rundep/bits","subject":{"kind":"container","strategy":"biomes","registry":65,"initial":0},"ops":[{"op":"set","x":0,"y":0,"z":0,"value":3},{"op":"bits"}]}"#,
    )
    .unwrap();
    let plant = "--jvm-option=-Dfixture.plant=hash-bits";
    // No load: only --all-regimes (and `rig record`, always) runs it under both regimes.
    let (code, out, err) = run(rig().arg("diff").arg(&case).args([
        "--classpath",
        &classpath(&fx),
        plant,
        "--all-regimes",
    ]));
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(
        out.contains(
            "case rundep/bits: op 1 (bits) differs between the JVM's identity-hash regimes"
        ),
        "{out}"
    );
    assert!(out.contains("0 passed, 1 failed"), "{out}");

    let root = dir.join("root");
    std::fs::create_dir_all(root.join("cases/ops")).unwrap();
    let (code, out, err) = run(rig()
        .arg("record")
        .arg(&case)
        .args(["--classpath", &classpath(&fx), plant])
        .arg("--root")
        .arg(&root));
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(err.contains("a finding"), "{err}");
    assert!(!root.join("snapshots/rundep/bits.snap").exists());

    let (code, out, err) = run(rig()
        .arg("fuzz")
        .args(["--classpath", &classpath(&fx), plant, "--all-regimes"])
        .args(["--seed", "1", "--cases", "50", "--families", "ladder"])
        .arg("--root")
        .arg(&root));
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(out.contains("a finding"), "{out}");
    assert!(!root.join("cases/ops/regress").exists(), "{out}");
}

/// Issue 33, item 7: `longs` is about a count 26.x does not send; against 26.x classes it
/// is refused before any case is generated, saying why.
#[test]
fn a_family_that_means_nothing_at_the_classes_version_is_refused_at_once() {
    let Some(fx) = fixture() else { return };
    let root = fresh_dir("rundep-longs");
    std::fs::create_dir_all(root.join("cases/ops")).unwrap();
    let (code, out, err) = run(rig()
        .arg("fuzz")
        .args(["--classpath", &classpath(&fx)])
        .args(["--seed", "1", "--cases", "20", "--families", "ladder,longs"])
        .arg("--root")
        .arg(&root));
    assert_eq!(code, 2, "{out}\n{err}");
    assert!(
        err.contains("family longs means nothing at the classes' version: it runs at 1.18, "),
        "{err}"
    );
    // Every release that sends the long count, and none after.
    assert!(
        err.contains(", 1.21.4 (the probe runs 26.x classes"),
        "{err}"
    );
    assert!(!out.contains("cases/s"), "{out}");
}
