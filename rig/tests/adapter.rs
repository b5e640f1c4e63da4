//! The adapter protocol end to end: `rig adapter paletted` behind
//! `rig check --executor` gives plain `rig check`'s verdicts, and adapters
//! that answer wrong, crash, hang, garble their line or miscount fail only
//! the case they were running, named, and are restarted.

use std::path::{Path, PathBuf};
use std::process::Command;

const RIG: &str = env!("CARGO_BIN_EXE_rig");

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Runs rig in `dir`; (exit code, stdout, stderr).
fn rig_in(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let out = Command::new(RIG)
        .args(args)
        .envs(env.iter().copied())
        .current_dir(dir)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// A scratch store holding three recorded cases, run in this order.
const CASES: [&str; 3] = [
    "flat/bottom-section",
    "ladder/biomes-r1",
    "unpack/biomes-p9-badindex",
];

/// Under cargo's temp folder for tests (never the system's, where stores
/// would pile up), with the repository's trusted sources: without them
/// nothing imported is truth.
fn store(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("rig-adapter-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("cases/ops")).unwrap();
    std::fs::create_dir_all(dir.join("snapshots")).unwrap();
    std::fs::copy(
        repo().join("cases/trusted-sources.toml"),
        dir.join("cases/trusted-sources.toml"),
    )
    .unwrap();
    for name in CASES {
        let file = repo().join("cases/golden").join(format!("{name}.json"));
        let (code, out, err) = rig_in(&dir, &["import", file.to_str().unwrap()], &[]);
        assert_eq!(code, 0, "{out}{err}");
    }
    dir
}

fn toy(mode: &str) -> String {
    let script = repo().join("rig/tests/adapters/toy.py");
    format!("python3 {} {mode} {RIG}", script.display())
}

/// `rig check --executor` with the toy adapter misbehaving on the middle case.
fn check_toy(test: &str, mode: &str, extra: &[&str]) -> (i32, String, String) {
    let dir = store(test);
    let cmd = toy(mode);
    let mut args = vec!["check", "--executor", &cmd];
    args.extend_from_slice(extra);
    rig_in(&dir, &args, &[("TOY_CASE", CASES[1])])
}

/// Failed cases' names, in order, from check's reports.
fn failed_cases(out: &str) -> Vec<String> {
    out.lines()
        .filter_map(|l| l.strip_prefix("case "))
        .filter_map(|l| l.split(':').next())
        .map(String::from)
        .collect()
}

#[test]
fn paletted_as_an_adapter_gives_plain_checks_verdicts_on_the_recorded_set() {
    let (plain_code, plain, _) = rig_in(&repo(), &["check"], &[]);
    let cmd = format!("{RIG} adapter paletted");
    let (code, out, err) = rig_in(&repo(), &["check", "--executor", &cmd], &[]);
    assert_eq!(code, plain_code, "{err}");
    assert_eq!(failed_cases(&out), failed_cases(&plain));
    assert_eq!(out.lines().last(), plain.lines().last(), "{err}");
    let total: usize = plain
        .lines()
        .last()
        .unwrap()
        .split(", ")
        .map(|part| part.split(' ').next().unwrap().parse::<usize>().unwrap())
        .sum();
    let set = harness::store::Store::at(repo()).recorded_set();
    assert!(total >= set.cases, "{plain}");
}

#[test]
fn rig_adapter_paletted_runs_this_rig_with_no_rig_on_the_path() {
    let dir = store("no-path");
    let (code, out, err) = rig_in(
        &dir,
        &["check", "--executor", "rig adapter paletted"],
        &[("PATH", "/usr/bin:/bin")],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out, "3 passed, 0 failed\n", "{err}");
}

#[test]
fn a_wrong_adapter_fails_the_case_it_is_wrong_on() {
    let (code, out, err) = check_toy("wrong", "wrong", &[]);
    assert_eq!(code, 1, "{out}{err}");
    assert_eq!(failed_cases(&out), [CASES[1]]);
    assert!(out.contains("op 0 of 9 diverges: bits"), "{out}");
    assert!(out.contains(r#"{"ok":"toy"}"#), "{out}");
    assert!(out.ends_with("2 passed, 1 failed\n"), "{out}");
}

#[test]
fn a_crashing_adapter_fails_its_case_names_it_and_is_restarted() {
    let (code, out, err) = check_toy("crash", "crash", &[]);
    assert_eq!(code, 1, "{out}{err}");
    assert_eq!(failed_cases(&out), [CASES[1]]);
    assert!(out.contains("stdout ended while it ran this case"), "{out}");
    assert!(out.contains("| toy: crashing on ladder/biomes-r1"), "{out}");
    // The case after it ran on a fresh adapter.
    assert!(out.ends_with("2 passed, 1 failed\n"), "{out}");
    assert!(err.contains("restarted 1 time(s)"), "{err}");
}

#[test]
fn a_hanging_adapter_is_timed_out_killed_and_restarted() {
    let (code, out, err) = check_toy("hang", "hang", &["--case-timeout", "5"]);
    assert_eq!(code, 1, "{out}{err}");
    assert_eq!(failed_cases(&out), [CASES[1]]);
    assert!(
        out.contains("did not answer within 5s (--case-timeout)"),
        "{out}"
    );
    assert!(out.contains("it was killed and is restarted"), "{out}");
    assert!(out.ends_with("2 passed, 1 failed\n"), "{out}");
}

#[test]
fn an_adapter_that_never_shakes_hands_stops_the_run() {
    let dir = store("mute");
    let (code, out, err) = rig_in(
        &dir,
        &["check", "--executor", "sleep 1000", "--case-timeout", "1"],
        &[],
    );
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("adapter `sleep 1000`: no handshake within 1s"),
        "{err}"
    );
    let (code, _, err) = rig_in(
        &dir,
        &["check", "--executor", "echo '{\"protocol\":9}'"],
        &[],
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("speaks protocol 9; this rig speaks 1"),
        "{err}"
    );
}

#[test]
fn malformed_json_fails_its_case_and_the_run_goes_on() {
    let (code, out, err) = check_toy("malformed", "malformed", &[]);
    assert_eq!(code, 1, "{out}{err}");
    assert_eq!(failed_cases(&out), [CASES[1]]);
    assert!(out.contains("a line that is not JSON"), "{out}");
    assert!(out.contains(r#"{"results": [oops"#), "{out}");
    assert!(out.ends_with("2 passed, 1 failed\n"), "{out}");
}

#[test]
fn an_adapter_that_answers_twice_fails_the_case_it_answered_twice() {
    let (code, out, err) = check_toy("twice", "twice", &[]);
    assert_eq!(code, 1, "{out}{err}");
    assert_eq!(failed_cases(&out), [CASES[1]], "{out}");
    assert!(
        out.contains("the adapter answered this case twice"),
        "{out}"
    );
    assert!(out.ends_with("2 passed, 1 failed\n"), "{out}");
}

#[test]
fn fuzz_says_when_nothing_could_be_compared() {
    let dir = store("fuzz-none");
    // A storage-only adapter, fuzzed with container cases: nothing compares.
    let minimal = format!(
        "python3 {}",
        repo().join("adapters/kits/python/minimal.py").display()
    );
    let (code, out, err) = rig_in(
        &dir,
        &[
            "fuzz",
            "--executor",
            &minimal,
            "--reference",
            "paletted",
            "--seed",
            "3",
            "--cases",
            "5",
            "--families",
            "flat",
        ],
        &[],
    );
    assert_eq!(code, 2, "{out}{err}");
    assert!(!out.contains("no divergence"), "{out}");
    assert!(
        err.contains(
            "nothing compared: none of the 5 cases could be compared; 5 cases unsupported"
        ),
        "{err}"
    );
}

#[test]
fn a_wrong_number_of_results_fails_its_case() {
    let (code, out, err) = check_toy("count", "count", &[]);
    assert_eq!(code, 1, "{out}{err}");
    assert_eq!(failed_cases(&out), [CASES[1]]);
    assert!(out.contains("answered 8 results for the 9 ops"), "{out}");
    assert!(out.ends_with("2 passed, 1 failed\n"), "{out}");
}

#[test]
fn unsupported_cases_and_unlisted_ops_are_counted_apart() {
    let (code, out, err) = check_toy("unsupported", "unsupported", &[]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out, "2 passed, 0 failed, 1 unsupported\n");
    // Every case has a write; the toy crashes if asked for one. A write
    // changes no state, so it is left out of the request, skipped, and the
    // ops after it still asked for and compared.
    let (code, out, err) = check_toy("no-write", "no-write", &[]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out, "3 passed, 0 failed\n", "{err}");
    assert!(
        err.contains("4 op(s) the adapter does not support that change no state were skipped"),
        "{err}"
    );
}

#[test]
fn a_declined_read_only_op_is_skipped_and_the_ops_after_it_still_judge() {
    // The toy answers `palette` unsupported in every case, and on the middle
    // case its last op wrong: that case fails there, the others pass.
    let (code, out, err) = check_toy("decline", "decline-palette", &[]);
    assert_eq!(code, 1, "{out}{err}");
    assert_eq!(failed_cases(&out), [CASES[1]]);
    assert!(out.contains("op 8 of 9 diverges: serialized_size"), "{out}");
    assert!(out.ends_with("2 passed, 1 failed\n"), "{out}");
    assert!(
        err.contains("3 op(s) the adapter does not support that change no state were skipped"),
        "{err}"
    );
    // The replay line replays on the adapter, not the Rust containers.
    let replay = format!(
        "replay: rig repro {} --executor '{}'\n",
        CASES[1],
        toy("decline-palette")
    );
    assert!(out.contains(&replay), "{out}");
}

#[test]
fn an_unsupported_state_change_ends_the_comparison_but_not_the_verdict() {
    // The toy cannot set: a case that sets first is unsupported; one that
    // sets later is judged on the ops before its first set.
    let (code, out, err) = check_toy("decline-set", "decline-set", &[]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out, "2 passed, 0 failed, 1 unsupported\n", "{err}");
    assert!(
        err.contains("2 case(s) were compared only up to an unsupported op that changes state"),
        "{err}"
    );
}

#[test]
fn diff_repro_and_fuzz_take_an_adapter_as_one_side() {
    let dir = store("sides");
    let wrong = toy("wrong");
    let env = [("TOY_CASE", CASES[1])];
    // diff against the Rust containers standing in for Minecraft: no JVM.
    let (code, out, err) = rig_in(
        &dir,
        &[
            "diff",
            "cases/ops",
            "--executor",
            &wrong,
            "--reference",
            "paletted",
        ],
        &env,
    );
    assert_eq!(code, 1, "{out}{err}");
    assert_eq!(failed_cases(&out), [CASES[1]]);
    assert!(out.ends_with("2 passed, 1 failed\n"), "{out}");
    let (code, _, err) = rig_in(&dir, &["diff", "--reference", "paletted"], &[]);
    assert_eq!(code, 2);
    assert!(err.contains("give --executor CMD"), "{err}");
    // repro against the recording.
    let (code, out, _) = rig_in(&dir, &["repro", CASES[1], "--executor", &wrong], &env);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("op 0 of 9 diverges: bits"), "{out}");
    let (code, out, _) = rig_in(
        &dir,
        &["repro", CASES[1], "--executor", &toy("no-write")],
        &[],
    );
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(
            "all 8 compared ops match the recording; 1 unsupported op(s) that change no state skipped"
        ),
        "{out}"
    );
    // fuzz finds the bad write, shrinks it to one op and saves it with no snapshot.
    let (code, out, err) = rig_in(
        &dir,
        &[
            "fuzz",
            "--executor",
            &toy("bad-write"),
            "--reference",
            "paletted",
            "--seed",
            "3",
            "--cases",
            "50",
            "--families",
            "flat",
        ],
        &[],
    );
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("to 1 ops against paletted"), "{out}");
    assert!(out.contains("awaiting recording"), "{out}");
    let saved = dir.join("cases/ops/regress/flat-bottom-section-s3-shrunk.json");
    assert!(saved.is_file(), "{out}");
    assert!(
        !dir.join("snapshots/regress").exists(),
        "Rust results were saved as truth"
    );
}

#[test]
fn conformance_reports_each_implementation_with_minimal_repros_deterministically() {
    let dir = store("conformance");
    let paletted = format!("paletted={RIG} adapter paletted");
    let bad = format!("bad={}", toy("bad-write"));
    let crash = format!("crash={}", toy("crash"));
    let decline = format!("decline={}", toy("decline-palette"));
    let args = |out: &str| {
        vec![
            "conformance".to_string(),
            "--executor".into(),
            paletted.clone(),
            "--executor".into(),
            bad.clone(),
            "--executor".into(),
            crash.clone(),
            "--executor".into(),
            decline.clone(),
            "--out".into(),
            out.into(),
            "--json".into(),
            "report.json".into(),
        ]
    };
    let env = [("TOY_CASE", CASES[1])];
    let run = |a: Vec<String>| {
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        rig_in(&dir, &a, &env)
    };
    let (code, out, err) = run(args("one.md"));
    assert_eq!(code, 0, "{out}{err}");
    let md = std::fs::read_to_string(dir.join("one.md")).unwrap();
    let (code, _, err) = run(args("one.md"));
    assert_eq!(code, 0, "{err}");
    assert_eq!(md, std::fs::read_to_string(dir.join("one.md")).unwrap());
    // The summary table: every case of the three, per implementation.
    assert!(
        md.contains("| paletted | paletted 0.1.0 | 26.3 | 3 | 3 | 0 | 0 |"),
        "{md}"
    );
    assert!(
        md.contains("| bad | toy-bad-write 0.1.0 | 26.3 | 3 | 0 | 3 | 0 |"),
        "{md}"
    );
    assert!(
        md.contains("| crash | toy-crash 0.1.0 | 26.3 | 3 | 2 | 1 | 0 |"),
        "{md}"
    );
    // A declined `palette` is skipped: every case still gets a verdict, and
    // the ops compared and skipped are counted.
    assert!(
        md.contains("| decline | toy-decline-palette 0.1.0 | 26.3 | 3 | 2 | 1 | 0 | 1056 | 3 | 3 recorded at 26.3 |\n"),
        "{md}"
    );
    // One kind for the bad writes; the ops before the write only observe,
    // so the repro is the write alone, with its recorded result.
    assert!(
        md.contains("| container write: Minecraft ok, adapter ok | 3 | `ladder/biomes-r1` |"),
        "{md}"
    );
    assert!(
        md.contains(
            "From `ladder/biomes-r1` (9 ops) to 1 ops, shrunk against the recorded results"
        ),
        "{md}"
    );
    assert!(md.contains("- bad: `{\"ok\":\"00ff\"}`"), "{md}");
    assert!(md.contains("- `ladder/biomes-r1`: internal error: the adapter's stdout ended while it ran this case\n"), "{md}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    assert_eq!(json["implementations"][1]["total"]["failed"], 3);
    assert_eq!(
        json["implementations"][1]["divergences"][0]["repro"]["shrunk_against"],
        "recorded"
    );
    // --check: the same report passes; a stale one fails.
    let mut check = args("one.md");
    check.push("--check".into());
    assert_eq!(run(check.clone()).0, 0);
    // Output paths and --jobs are not part of the report compared.
    let mut elsewhere = check.clone();
    let json_at = elsewhere.iter().position(|a| a == "report.json").unwrap();
    elsewhere[json_at] = "other.json".into();
    elsewhere.extend(["--jobs".into(), "1".into()]);
    let (code, _, err) = run(elsewhere);
    assert_eq!(code, 0, "{err}");
    std::fs::write(
        dir.join("one.md"),
        md.replace("| 3 | 0 | 3 |", "| 4 | 0 | 3 |"),
    )
    .unwrap();
    let (code, _, err) = run(check);
    assert_eq!(code, 1);
    assert!(err.contains("one.md is stale"), "{err}");
    // With a diff of the stale lines.
    assert!(
        err.contains("\n-| bad | toy-bad-write 0.1.0 | 26.3 | 4 | 0 | 3 |"),
        "{err}"
    );
    assert!(
        err.contains("\n+| bad | toy-bad-write 0.1.0 | 26.3 | 3 | 0 | 3 |"),
        "{err}"
    );
}

/// One captured `map_chunk` packet of 1.20.1 where `rig conformance` and `rig repro` look for
/// them in a checkout: a single section, both containers single-valued (3 bytes each, the
/// long count 0), then the zero the too-large serialized size of 1.20.1 leaves.
fn capture(dir: &Path) {
    let at = dir.join("tests/packets/node_modules/minecraft-packets/minecraft-packets/data/pc/1.20.1/from-server/map_chunk");
    std::fs::create_dir_all(&at).unwrap();
    let data = [0, 3, 0, 9, 0, 0, 5, 0, 0];
    std::fs::write(
        at.join("1.json"),
        serde_json::json!({"chunkData": {"data": data}}).to_string(),
    )
    .unwrap();
}

#[test]
fn an_older_version_is_measured_against_the_packets_and_a_newer_one_against_the_recordings() {
    let dir = store("versions");
    let paletted = format!("paletted={RIG} adapter paletted");
    let old = format!("old={RIG} adapter paletted --minecraft 1.20.1");
    let bad = format!("bad={}", toy("bad-write"));
    let run = |executors: &[&str], env: &[(&str, &str)]| {
        let mut a = vec!["conformance"];
        for e in executors {
            a.extend(["--executor", e]);
        }
        a.extend(["--out", "c.md"]);
        let r = rig_in(&dir, &a, env);
        let md = std::fs::read_to_string(dir.join("c.md")).unwrap_or_default();
        (r, md)
    };
    // Without captures, an implementation of 1.20.1 has nothing to meet.
    let ((code, _, err), _) = run(&[&old], &[]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("old: nothing to measure it against at 1.20.1 (1.18 to 1.20.1): no recordings of its rules and no packets"),
        "{err}"
    );
    capture(&dir);
    let ((code, out, err), md) = run(&[&paletted, &old], &[]);
    assert_eq!(code, 0, "{out}{err}");
    // 26.3's column meets the recordings only; 1.20.1's the two containers sent only.
    assert!(
        md.contains("| paletted | paletted 0.1.0 | 26.3 | 3 | 3 | 0 | 0 | 1059 | 0 | 3 recorded at 26.3 |\n"),
        "{md}"
    );
    assert!(
        md.contains("| old | paletted 0.1.0 | 1.20.1 | 2 | 2 | 0 | 0 | 4 | 0 | 2 containers from vanilla 1.20.1 chunk packets |\n"),
        "{md}"
    );
    // A wrong write at 1.20.1 fails both; the smallest is named by its capture and section,
    // and replays by that name against the bytes sent.
    let ((code, out, err), md) = run(&[&bad], &[("TOY_MINECRAFT", "1.20.1")]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        md.contains("| bad | toy-bad-write 0.1.0 | 1.20.1 | 2 | 0 | 2 |"),
        "{md}"
    );
    let name = "packets/1.20.1/biomes-c1-s0";
    assert!(md.contains(&format!("From `{name}` (2 ops)")), "{md}");
    let (code, out, err) = rig_in(&dir, &["repro", name, "--executor", &toy("bad-write")], &[]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("op 1 of 2 diverges: write"), "{out}");
    let (code, out, err) = rig_in(&dir, &["repro", name], &[]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("all 2 ops match the recording"), "{out}");
    // A version whose rules the rig does not know is refused by name.
    let ((code, _, err), _) = run(&[&bad], &[("TOY_MINECRAFT", "1.17.1")]);
    assert_eq!(code, 2);
    assert!(
        err.contains("Minecraft \"1.17.1\", a version whose rules the rig does not know"),
        "{err}"
    );
    // 1.21.6's it knows; with no long count, the packets are no truth for it.
    let ((code, _, err), _) = run(&[&bad], &[("TOY_MINECRAFT", "1.21.6")]);
    assert_eq!(code, 2);
    assert!(
        err.contains("nothing to measure it against at 1.21.6 (1.21.5 to 1.21.8): no recordings of its rules"),
        "{err}"
    );
}

#[test]
fn the_minimal_adapter_in_protocol_md_passes_every_recorded_storage_case() {
    let script = std::fs::read_to_string(repo().join("adapters/kits/python/minimal.py")).unwrap();
    let doc = std::fs::read_to_string(repo().join("PROTOCOL.md")).unwrap();
    assert!(
        doc.contains(&format!("```python\n{script}```\n")),
        "PROTOCOL.md's minimal adapter differs from adapters/kits/python/minimal.py"
    );
    let cmd = format!(
        "python3 {}",
        repo().join("adapters/kits/python/minimal.py").display()
    );
    let (code, out, err) = rig_in(&repo(), &["check", "--executor", &cmd], &[]);
    assert_eq!(code, 0, "{out}{err}");
    let last = out.lines().last().unwrap();
    let (passed, rest) = last.split_once(" passed, 0 failed, ").expect(last);
    assert!(passed.parse::<usize>().unwrap() >= 111, "{last}");
    assert!(rest.ends_with(" unsupported"), "{last}");
}
