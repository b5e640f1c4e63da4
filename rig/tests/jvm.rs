//! The JVM side end to end, against the test fixture (rig/tests/fixture, a stand-in, not
//! Minecraft): JVM start, probe compile, every op kind, planted differences found at the
//! right op, exceptions, a dying child, records refused as truth, and fuzzing.

mod jvm_support;

use std::collections::BTreeSet;
use std::path::Path;

use harness::outcome::Outcome;
use jvm_support::{divergences, fixture, fresh_dir, golden, golden_26, recorded_set_26, rig, run};
use serde_json::Value;

fn classpath(fx: &Path) -> String {
    fx.to_str().unwrap().to_string()
}

#[test]
fn the_fixture_compiles() {
    let Some(fx) = fixture() else { return };
    for class in [
        "net/minecraft/world/level/chunk/PalettedContainer.class",
        "net/minecraft/world/level/chunk/Strategy.class",
        "net/minecraft/world/level/chunk/PalettedContainerRO$PackedData.class",
        "net/minecraft/util/SimpleBitStorage$InitializationException.class",
        "net/minecraft/util/ZeroBitStorage.class",
        "net/minecraft/network/FriendlyByteBuf.class",
        "com/mojang/serialization/DataResult.class",
    ] {
        assert!(fx.join(class).is_file(), "{class}");
    }
}

#[test]
fn the_fixture_agrees_with_the_rust_containers_on_every_golden_case() {
    let Some(fx) = fixture() else { return };
    let (code, out, err) = run(rig()
        .arg("diff")
        .args(golden_26())
        .args(["--classpath", &classpath(&fx)]));
    assert_eq!(code, 0, "stdout:\n{out}\nstderr:\n{err}");
    let set = recorded_set_26();
    let (n, ops) = (set.cases, set.ops);
    assert!(out.contains(&format!("{n} cases, {ops} ops")), "{out}");
    assert!(
        out.contains(&format!("{n} agree, 0 diverge, 0 failed")),
        "{out}"
    );
    assert!(out.ends_with(&format!("\n{n} passed, 0 failed\n")), "{out}");
    assert!(divergences(&out).is_empty());
}

/// Every 26.3 golden file ([`golden_26`]), as (path, recording).
fn recordings_26() -> Vec<(std::path::PathBuf, harness::recorded::Recorded)> {
    golden_26().iter().flat_map(|d| recordings(d)).collect()
}

/// Every golden file under `dir`, as (path, recording).
fn recordings(dir: &Path) -> Vec<(std::path::PathBuf, harness::recorded::Recorded)> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "json") {
                let text = std::fs::read_to_string(&p).unwrap();
                found.push((
                    p.clone(),
                    harness::recorded::Recorded::parse(&text, &p).unwrap(),
                ));
            }
        }
    }
    found
}

/// Records `cases` (files or folders) from the fixture, with extra `options`, into a fresh
/// repository named `name`; gives the folder of golden-format recordings.
fn record_from_fixture(
    fx: &Path,
    name: &str,
    cases: &[std::path::PathBuf],
    options: &[&str],
) -> std::path::PathBuf {
    let root = fresh_dir(name);
    std::fs::create_dir_all(root.join("cases/ops")).unwrap();
    let out_dir = root.join("recorded");
    let (code, out, err) = run(rig()
        .arg("record")
        .args(cases)
        .args(["--classpath", &classpath(fx)])
        .arg("--root")
        .arg(&root)
        .arg("--golden")
        .arg(&out_dir)
        .args(options));
    assert_eq!(code, 0, "{out}\n{err}");
    out_dir
}

/// The first op of each golden case at which the recordings in `out_dir` differ from the
/// golden ones, compared as `rig check` compares: (case, op index, report).
fn differences_from_golden(out_dir: &Path) -> Vec<(String, usize, String)> {
    let golden_cases = recordings_26();
    assert_eq!(golden_cases.len(), recorded_set_26().cases);
    let mut wrong = Vec::new();
    for (path, want) in &golden_cases {
        let got_path = out_dir.join(format!("{}.json", want.case.name));
        let text = std::fs::read_to_string(&got_path)
            .unwrap_or_else(|e| panic!("{}: not recorded: {e}", got_path.display()));
        let got = harness::recorded::Recorded::parse(&text, &got_path).unwrap();
        assert_eq!(got.results.len(), want.results.len(), "{}", path.display());
        if let Some(d) = harness::compare::first_divergence(&want.case, &want.results, &got.results)
        {
            let report = d.report(&want.case, "recorded", "fixture");
            wrong.push((want.case.name.clone(), d.op, report));
        }
    }
    wrong
}

/// Held against the recordings themselves, not the Rust containers: the fixture stands in
/// for Minecraft only as far as it gives every recorded result (third-party message text
/// aside, as `rig check` compares).
#[test]
fn the_fixture_reproduces_every_golden_recording() {
    let Some(fx) = fixture() else { return };
    let out_dir = record_from_fixture(&fx, "reproduce-root", &golden_26(), &[]);
    let wrong = differences_from_golden(&out_dir);
    let reports: Vec<&str> = wrong.iter().map(|(_, _, r)| r.as_str()).collect();
    assert!(
        wrong.is_empty(),
        "{} cases differ:\n{}",
        wrong.len(),
        reports.join("\n")
    );
}

/// The plants show against the recordings exactly where documented, whatever state the Rust
/// containers are in.
#[test]
fn planted_differences_show_against_the_recordings_where_documented() {
    let Some(fx) = fixture() else { return };
    let plant = ["--jvm-option=-Dfixture.plant=no-length-check"];
    let out_dir = record_from_fixture(&fx, "plant-length-root", &golden_26(), &plant);
    let found: BTreeSet<(String, usize)> = differences_from_golden(&out_dir)
        .into_iter()
        .map(|(n, i, _)| (n, i))
        .collect();
    let want = too_many_longs();
    assert!(want.len() > 10);
    assert_eq!(found, want);

    let plant = ["--jvm-option=-Dfixture.plant=count-order"];
    let out_dir = record_from_fixture(&fx, "plant-order-root", &golden_26(), &plant);
    let found = differences_from_golden(&out_dir);
    assert!(found.iter().any(|(n, _, _)| n == "flat/bottom-section"));
    assert!(found.iter().any(|(n, _, _)| n.starts_with("counts-order/")));
    for (name, _, report) in &found {
        assert!(report.contains(" diverges: counts\n"), "{name}: {report}");
    }
}

/// Where Minecraft hands back null (never-written slots of a linear palette, left by a read
/// cut short inside a reused configuration), the probe reports null as a result: `{"ok":
/// null}` from `get`/`get_and_set`, a JSON null in the lists of `palette`, `get_all` and
/// `counts`. No recording holds one yet, so the fixture's answers are pinned here.
#[test]
fn null_palette_slots_are_results_not_probe_failures() {
    let Some(fx) = fixture() else { return };
    let case = fresh_dir("null-case").join("nulls.json");
    // Biomes, 1-bit linear: [5] over indices 0 and 1; then a read of count 2 into the same
    // configuration that ends after its first id: [6, null]. Then the same again from
    // count 0, and a new value: the resize keeps null as an entry of the bigger linear palette.
    std::fs::write(
        &case,
        r#"{"format":1,"name":"t/nulls","subject":{"kind":"container","strategy":"biomes","registry":65,"initial":0},"ops":[
{"op":"read","bytes":"0101052492492492492492"},{"op":"read","bytes":"010206"},
{"op":"get","x":1,"y":0,"z":0},{"op":"get","x":0,"y":0,"z":0},{"op":"palette"},{"op":"get_all"},
{"op":"counts"},{"op":"maybe_has","value":6},{"op":"write"},{"op":"get_and_set","x":1,"y":0,"z":0,"value":6},
{"op":"pack"},
{"op":"read","bytes":"0100aaaaaaaaaaaaaaaa"},{"op":"read","bytes":"0102"},
{"op":"set","x":0,"y":0,"z":0,"value":9},{"op":"palette"},{"op":"get","x":1,"y":0,"z":0},
{"op":"counts"},{"op":"get_all"},{"op":"pack"}]}"#,
    )
    .unwrap();
    let out_dir = record_from_fixture(&fx, "null-root", &[case], &[]);
    let got: Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("t/nulls.json")).unwrap())
            .unwrap();
    let ok = |i: usize| got["results"][i]["ok"].clone();
    let json = |t: &str| -> Value { serde_json::from_str(t).unwrap() };
    assert_eq!(got["results"][1]["throws"], "IndexOutOfBoundsException");
    assert_eq!(got["results"][2], json(r#"{"ok":null}"#));
    assert_eq!(ok(3), json("6"));
    assert_eq!(ok(4), json("[6,null]"));
    assert_eq!(ok(5), json("[6,null]"));
    assert_eq!(ok(6), json("[[6,43],[null,21]]"));
    assert_eq!(ok(7), json("true"));
    // A null has no registry id: it is written as VarInt -1.
    assert_eq!(ok(8), json(r#""010206ffffffff0f2492492492492492""#));
    assert_eq!(got["results"][9], json(r#"{"ok":null}"#));
    // The packing hash map gives null the id 0 and never lists it.
    assert_eq!(ok(10), json(r#"{"palette":[6],"data":null,"bits":0}"#));
    assert_eq!(ok(14), json("[6,null,9]"));
    assert_eq!(got["results"][15], json(r#"{"ok":null}"#));
    assert_eq!(ok(16), json("[[6,31],[9,1],[null,32]]"));
    assert_eq!(ok(17), json("[9,null,6]"));
    assert_eq!(
        ok(18),
        json(r#"{"palette":[9,6],"data":[6148914691236517204],"bits":1}"#)
    );
}

#[test]
fn a_planted_count_order_is_reported_at_counts_ops() {
    let Some(fx) = fixture() else { return };
    // The prediction is worked out while the rig runs: both take a while.
    let ((code, out, err), (want, unsure)) = std::thread::scope(|s| {
        let prediction = s.spawn(counts_out_of_palette_order);
        let diff = run(rig().arg("diff").args(golden_26()).args([
            "--classpath",
            &classpath(&fx),
            "--jvm-option=-Dfixture.plant=count-order",
        ]));
        (diff, prediction.join().unwrap())
    });
    assert_eq!(code, 1, "{err}");
    let found = divergences(&out);
    assert!(!found.is_empty());
    for (name, op, text) in &found {
        assert_eq!(text, "counts", "{name} op {op} is not a counts op");
    }
    let found: BTreeSet<(String, usize)> = found.into_iter().map(|(n, i, _)| (n, i)).collect();
    // Every predicted counts op is reported; beyond those, only ops of cases whose palette
    // order the prediction cannot see (a palette op that throws, or one listing a value
    // twice), where the plant's id order and the tally order may still differ.
    assert!(want.is_subset(&found), "{:?}", want.difference(&found));
    let extra: Vec<_> = found
        .difference(&want)
        .filter(|(n, i)| !unsure.contains(&(n.clone(), *i)))
        .collect();
    assert!(extra.is_empty(), "reported but not predicted: {extra:?}");
    // The behaviour notes' flat-world example: palette [0, 88, 10, 9], counted [0, 10, 88, 9].
    assert!(
        found.iter().any(|(n, _)| n == "flat/bottom-section"),
        "{out}"
    );
    assert!(
        out.contains("{\"ok\":[[0,3072],[88,256],[10,512],[9,256]]}"),
        "{out}"
    );
    // Listed in cases/known-divergences.toml, it counts as expected, as in rig check.
    let root = fresh_dir("known-root");
    std::fs::create_dir_all(root.join("cases/ops")).unwrap();
    std::fs::write(
        root.join("cases/known-divergences.toml"),
        "[[known]]\ncase = \"flat/bottom-section\"\nreason = \"planted count order (test)\"\n",
    )
    .unwrap();
    let (code, out, err) = run(rig()
        .arg("diff")
        .arg(golden().join("flat"))
        .args([
            "--classpath",
            &classpath(&fx),
            "--jvm-option=-Dfixture.plant=count-order",
        ])
        .current_dir(&root));
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains("as expected: planted count order (test)"),
        "{out}"
    );
    assert!(out.ends_with("\n0 passed, 0 failed, 1 expected\n"), "{out}");
}

/// The first `counts` op of each golden case whose recorded order is not palette order:
/// exactly where the `count-order` plant must show. The palette before each `counts` op
/// comes from the Rust containers (a `palette` op inserted there changes no state).
/// The first counts op of each golden case whose recorded pairs are not in palette order
/// (what the plant reports instead), and the counts ops whose palette order cannot be
/// seen from the Rust side's `palette` (it throws, or lists a value twice).
type CountsOps = BTreeSet<(String, usize)>;

fn counts_out_of_palette_order() -> (CountsOps, CountsOps) {
    use harness::case::{ContainerOp, Ops};
    use harness::exec::Executor;
    let mut want = BTreeSet::new();
    let mut unsure = BTreeSet::new();
    let mut rust = harness::rust::RustExecutor::new();
    for (_, rec) in recordings_26() {
        let Ops::Container(ops) = &rec.case.ops else {
            continue;
        };
        // A case with no counts op predicts nothing: not run.
        if !ops.contains(&ContainerOp::Counts) {
            continue;
        }
        let mut probed = Vec::new();
        for op in ops {
            if *op == ContainerOp::Counts {
                probed.push(ContainerOp::Palette);
            }
            probed.push(op.clone());
        }
        let mut case = rec.case.clone();
        case.ops = Ops::Container(probed);
        let results = rust.run(&case).unwrap();
        let mut at = 0;
        let mut blind = false;
        for (i, op) in ops.iter().enumerate() {
            if *op == ContainerOp::Counts {
                let palette = &results[at];
                at += 1;
                // A global palette lists the registry in id order (up to 2^21 ids): seen
                // by one scan, each id its own position, with no map of it per counts op.
                let identity = matches!(palette, Outcome::Ok(Value::Array(p))
                    if p.iter().enumerate().all(|(n, id)| id.as_u64() == Some(n as u64)));
                let seen = identity
                    || match palette {
                        // Ids, or null for a never-written slot (None).
                        Outcome::Ok(Value::Array(p)) => {
                            let distinct: std::collections::HashSet<Option<u64>> =
                                p.iter().map(Value::as_u64).collect();
                            distinct.len() == p.len()
                        }
                        _ => false,
                    };
                // Once one counts op is unsure, so is every later one of the case: the
                // first divergence may have been there.
                blind |= !seen;
                if blind {
                    unsure.insert((rec.case.name.clone(), i));
                    at += 1;
                    continue;
                }
                if let (Outcome::Ok(Value::Array(palette)), Outcome::Ok(Value::Array(pairs))) =
                    (palette, &rec.results[i])
                {
                    let mut index = std::collections::HashMap::new();
                    if !identity {
                        for (n, id) in palette.iter().enumerate() {
                            index.entry(id.as_u64()).or_insert(n);
                        }
                    }
                    let position = |pair: &Value| match pair[0].as_u64() {
                        Some(id) if identity => {
                            usize::try_from(id).ok().filter(|&n| n < palette.len())
                        }
                        id => index.get(&id).copied(),
                    };
                    let mut in_palette_order = pairs.clone();
                    in_palette_order.sort_by_key(position);
                    if in_palette_order != *pairs {
                        want.insert((rec.case.name.clone(), i));
                        break;
                    }
                }
            }
            at += 1;
        }
    }
    (want, unsure)
}

/// The first op of each golden case whose recorded result is a length error for one long
/// too many: exactly where the `no-length-check` plant must show.
fn too_many_longs() -> BTreeSet<(String, usize)> {
    let mut want = BTreeSet::new();
    for (_, rec) in recordings_26() {
        let first = rec.results.iter().map(Outcome::to_json).position(|r| {
            let msg = r["error"].as_str().or(r["message"].as_str()).unwrap_or("");
            let Some((_, rest)) = msg.split_once("got: ") else {
                return false;
            };
            let Some((got, expected)) = rest.split_once(" but expected: ") else {
                return false;
            };
            got.parse::<u64>().unwrap() > expected.parse::<u64>().unwrap()
        });
        if let Some(i) = first {
            want.insert((rec.case.name, i));
        }
    }
    want
}

#[test]
fn a_planted_missing_length_check_is_reported_exactly_where_it_shows() {
    let Some(fx) = fixture() else { return };
    let (code, out, err) = run(rig().arg("diff").args(golden_26()).args([
        "--classpath",
        &classpath(&fx),
        "--jvm-option=-Dfixture.plant=no-length-check",
    ]));
    assert_eq!(code, 1, "{err}");
    let found: BTreeSet<(String, usize)> = divergences(&out)
        .into_iter()
        .map(|(n, i, _)| (n, i))
        .collect();
    let want = too_many_longs();
    assert!(want.len() > 10);
    assert_eq!(found, want, "{out}");
    for (_, _, text) in divergences(&out) {
        assert!(
            text.starts_with("unpack") || text.starts_with("load"),
            "{text}"
        );
    }
}

#[test]
fn java_errors_become_results_and_unexpressible_ops_are_refused() {
    let Some(fx) = fixture() else { return };
    let dir = fresh_dir("probe-exceptions");
    // A value outside the registry: the probe cannot make an entry for it.
    let refused = dir.join("refused.json");
    std::fs::write(
        &refused,
        r#"{"format":1,"name":"t/refused","subject":{"kind":"container","strategy":"biomes","registry":4,"initial":0},"ops":[{"op":"bits"},{"op":"set","x":0,"y":0,"z":0,"value":9}]}"#,
    )
    .unwrap();
    let (code, out, err) = run(rig()
        .arg("diff")
        .arg(golden().join("ladder/biomes-r1.json"))
        .arg(&refused)
        .args([
            "--classpath",
            &classpath(&fx),
            "--jvm-option=-Dfixture.plant=overflow-in-bits",
        ]));
    assert_eq!(code, 1, "{err}");
    // StackOverflowError is an Error, not an Exception: the probe catches Throwable.
    assert!(
        out.contains(r#"{"throws":"StackOverflowError","message":null}"#),
        "{out}"
    );
    let found = divergences(&out);
    assert_eq!(found.len(), 1, "{out}");
    assert_eq!(found[0].2, "bits");
    assert!(
        out.contains("case t/refused")
            && out.contains("invalid case at op 1: value 9 is not below the registry size 4"),
        "{out}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn a_dying_jvm_is_reported_with_its_case_and_the_run_goes_on() {
    let Some(fx) = fixture() else { return };
    // flat and the biomes ladder call getSerializedSize (the plant halts the JVM there);
    // the storage case does not, and runs on a restarted child.
    let (code, out, err) = run(rig()
        .arg("diff")
        .arg(golden().join("flat/bottom-section.json"))
        .arg(golden().join("storage/bits-5.json"))
        .arg(golden().join("unpack/biomes-empty.json"))
        .args([
            "--classpath",
            &classpath(&fx),
            "--jvm-option=-Dfixture.plant=halt",
        ]));
    assert_eq!(code, 1, "{err}");
    assert!(
        out.contains("case flat/bottom-section")
            && out.contains("the JVM side died while running this case (exit code 86)"),
        "{out}"
    );
    assert!(out.contains("case unpack/biomes-empty"), "{out}");
    assert!(
        out.contains("1 agree, 0 diverge, 2 failed to run (2 JVM crashes, each restarted)"),
        "{out}"
    );

    // Killed by a signal, as the OS would: reported with the signal, and the run goes on.
    let (code, out, err) = run(rig()
        .arg("diff")
        .arg(golden().join("flat/bottom-section.json"))
        .arg(golden().join("storage/bits-5.json"))
        .args([
            "--classpath",
            &classpath(&fx),
            "--jvm-option=-Dfixture.plant=sigkill",
        ]));
    assert_eq!(code, 1, "{err}");
    assert!(
        out.contains("the JVM side died while running this case (signal 9)"),
        "{out}"
    );
    assert!(
        out.contains("1 agree, 0 diverge, 1 failed to run (1 JVM crashes, each restarted)"),
        "{out}"
    );
    // A hung JVM is killed after --case-timeout, and the run goes on.
    let (code, out, err) = run(rig()
        .arg("diff")
        .arg(golden().join("flat/bottom-section.json"))
        .arg(golden().join("storage/bits-5.json"))
        .args([
            "--classpath",
            &classpath(&fx),
            "--jvm-option=-Dfixture.plant=hang",
        ])
        .args(["--case-timeout", "5"]));
    assert_eq!(code, 1, "{err}");
    assert!(
        out.contains("the JVM side did not answer within 5s"),
        "{out}"
    );
    assert!(
        out.contains("1 agree, 0 diverge, 1 failed to run (1 JVM crashes, each restarted)"),
        "{out}"
    );
}

#[test]
fn no_jdk_says_what_was_tried_and_that_minecraft_needs_java_25() {
    let Some(fx) = fixture() else { return };
    let empty = fresh_dir("no-jdk");
    let (code, out, err) = run(rig()
        .arg("diff")
        .arg(golden().join("flat"))
        .args(["--classpath", &classpath(&fx)])
        .env("JAVA_HOME", empty.join("nowhere"))
        .env("RIG_JDK_DIR", &empty)
        .env("PATH", &empty));
    assert_eq!(code, 2, "{out}");
    assert!(err.contains("no JDK found"), "{err}");
    assert!(err.contains("JAVA_HOME="), "{err}");
    assert!(err.contains(&empty.display().to_string()), "{err}");
    assert!(err.contains("java on the PATH: no java on it"), "{err}");
    assert!(err.contains("Minecraft 26.x needs Java 25"), "{err}");
}

#[test]
fn a_jvm_that_will_not_start_stops_the_run_with_the_reason() {
    let Some(fx) = fixture() else { return };
    let (code, out, err) = run(rig()
        .arg("diff")
        .arg(golden().join("flat"))
        .arg(golden().join("storage"))
        .args([
            "--classpath",
            &classpath(&fx),
            "--jvm-option=-Xno-such-option",
        ]));
    assert_eq!(code, 2, "{out}\n{err}");
    assert!(
        err.contains("the JVM side cannot run: cannot start the JVM"),
        "{err}"
    );
    assert!(!out.contains("case storage/"), "the run went on: {out}");
}

#[test]
fn javac_failing_on_a_class_path_without_minecraft_is_explained() {
    if fixture().is_none() {
        return;
    }
    let empty = fresh_dir("empty-classpath");
    let (code, _out, err) = run(rig()
        .arg("diff")
        .arg(golden().join("flat"))
        .args(["--classpath", empty.to_str().unwrap()]));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("javac could not compile the probe"), "{err}");
    assert!(
        err.contains("net.minecraft.world.level.chunk does not exist"),
        "{err}"
    );
    assert!(err.contains("Minecraft.java"), "{err}");

    // The fixture less one library (DataResult's package): javac names what is missing.
    let Some(fx) = fixture() else { return };
    let partial = fresh_dir("partial-classpath");
    copy_tree(&fx, &partial);
    std::fs::remove_dir_all(partial.join("com/mojang")).unwrap();
    let (code, _out, err) = run(rig()
        .arg("diff")
        .arg(golden().join("flat"))
        .args(["--classpath", partial.to_str().unwrap()]));
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("package com.mojang.serialization does not exist"),
        "{err}"
    );
}

fn copy_tree(from: &Path, to: &Path) {
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_tree(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

#[test]
fn records_from_the_fixture_say_so_and_check_refuses_them() {
    let Some(fx) = fixture() else { return };
    let root = fresh_dir("record-root");
    std::fs::create_dir_all(root.join("cases/ops")).unwrap();
    // This repository's trusted sources, so the golden import below is truth there.
    std::fs::copy(
        golden().join("../trusted-sources.toml"),
        root.join("cases/trusted-sources.toml"),
    )
    .unwrap();
    let goldens = root.join("recorded");
    // Even a --source claiming Minecraft cannot pass the fixture off as Minecraft.
    let (code, out, err) = run(rig()
        .arg("record")
        .arg(golden().join("flat"))
        .arg(golden().join("storage/bits-5.json"))
        .args([
            "--classpath",
            &classpath(&fx),
            "--source",
            "Minecraft 26.3 (really)",
        ])
        .arg("--root")
        .arg(&root)
        .arg("--golden")
        .arg(&goldens));
    assert_eq!(code, 0, "{out}\n{err}");
    let snap_path = root.join("snapshots/flat/bottom-section.snap");
    let snap = std::fs::read_to_string(&snap_path).unwrap();
    assert!(snap.contains("test fixture — NOT a recording"), "{snap}");
    let loaded = harness::snapshot::Snapshot::load(&snap_path).unwrap();
    assert!(loaded.provenance.refusal().is_some());
    // The recorded results are the golden ones (the fixture agrees with them).
    let recorded: Value = serde_json::from_str(
        &std::fs::read_to_string(goldens.join("flat/bottom-section.json")).unwrap(),
    )
    .unwrap();
    let original: Value = serde_json::from_str(
        &std::fs::read_to_string(golden().join("flat/bottom-section.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(recorded["results"], original["results"]);
    assert!(recorded["source"]
        .as_str()
        .unwrap()
        .contains("test fixture"));

    // rig check, run in that repository, refuses both the snapshots and the recording.
    let (code, out, err) = run(rig().arg("check").current_dir(&root));
    assert_ne!(
        code, 0,
        "rig check accepted fixture snapshots:\n{out}\n{err}"
    );
    assert!(
        format!("{out}{err}").contains("not recorded from Minecraft"),
        "{out}\n{err}"
    );
    let (code, out, err) = run(rig()
        .arg("check")
        .arg(goldens.join("flat/bottom-section.json"))
        .current_dir(&root));
    assert_ne!(
        code, 0,
        "rig check accepted a fixture recording:\n{out}\n{err}"
    );

    // A real recording is never replaced by fixture results, --force or not.
    let real = golden().join("flat/bottom-section.json");
    let (code, out, err) = run(rig().arg("import").arg(&real).current_dir(&root));
    assert_eq!(code, 0, "{out}\n{err}");
    let imported = std::fs::read_to_string(&snap_path).unwrap();
    assert!(!imported.contains("test fixture"), "{imported}");
    for force in [false, true] {
        let mut cmd = rig();
        cmd.arg("record")
            .arg(&real)
            .args(["--classpath", &classpath(&fx)])
            .arg("--root")
            .arg(&root)
            .current_dir(&root);
        if force {
            cmd.arg("--force");
        }
        let (code, _, err) = run(&mut cmd);
        assert_eq!(code, 1, "{err}");
        assert!(
            err.contains("not replacing") && err.contains("a recording from Minecraft"),
            "{err}"
        );
        assert_eq!(std::fs::read_to_string(&snap_path).unwrap(), imported);
    }
}

/// `rig fuzz --seed 7` with the count-order plant, saving into the repository `root`.
fn fuzz_count_order(fx: &Path, root: &Path, args: &[&str]) -> (i32, String, String) {
    std::fs::create_dir_all(root.join("cases/ops")).unwrap();
    run(rig()
        .arg("fuzz")
        .args([
            "--classpath",
            &classpath(fx),
            "--jvm-option=-Dfixture.plant=count-order",
            "--seed",
            "7",
        ])
        .args(args)
        .arg("--root")
        .arg(root))
}

#[test]
fn fuzz_finds_and_shrinks_a_planted_difference_against_the_live_jvm() {
    let Some(fx) = fixture() else { return };
    let root = fresh_dir("fuzz-root");
    let (code, out, err) =
        fuzz_count_order(&fx, &root, &["--cases", "50", "--families", "flat,random"]);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(out.starts_with("rig fuzz: seed 7\n"), "{out}");
    assert!(
        out.contains("shrunk flat/bottom-section-s7 from 1035 to"),
        "{out}"
    );
    let case = root.join("cases/ops/regress/flat-bottom-section-s7-shrunk.json");
    let text = std::fs::read_to_string(&case).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    let ops = v["ops"].as_array().unwrap();
    assert!(ops.len() <= 4, "not shrunk: {text}");
    assert_eq!(ops.last().unwrap()["op"], "counts");
    let snap =
        std::fs::read_to_string(root.join("snapshots/regress/flat-bottom-section-s7-shrunk.snap"))
            .unwrap();
    assert!(snap.contains("test fixture — NOT a recording"), "{snap}");
    assert!(out.contains("replay live:  rig diff"), "{out}");

    // Replaying it live reproduces the divergence at the same op.
    let (code, out, _) = run(rig().arg("diff").arg(&case).args([
        "--classpath",
        &classpath(&fx),
        "--jvm-option=-Dfixture.plant=count-order",
    ]));
    assert_eq!(code, 1);
    assert_eq!(divergences(&out)[0].2, "counts");
}

#[test]
fn fuzz_without_a_difference_reports_its_rate_and_passes() {
    let Some(fx) = fixture() else { return };
    let root = fresh_dir("fuzz-clean");
    std::fs::create_dir_all(root.join("cases/ops")).unwrap();
    let (code, out, err) = run(rig()
        .arg("fuzz")
        .args([
            "--classpath",
            &classpath(&fx),
            "--seed",
            "3",
            "--cases",
            "40",
        ])
        .arg("--root")
        .arg(&root));
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.starts_with("rig fuzz: seed 3\n"), "{out}");
    assert!(out.contains("no divergence in 40 cases"), "{out}");
    assert!(out.contains("ops/s"), "{out}");
}

fn frame(w: &mut impl std::io::Write, text: &str) {
    w.write_all(&(text.len() as u32).to_be_bytes()).unwrap();
    w.write_all(text.as_bytes()).unwrap();
    w.flush().unwrap();
}

fn answer(r: &mut impl std::io::Read) -> Value {
    let mut len = [0u8; 4];
    r.read_exact(&mut len).unwrap();
    let mut buf = vec![0u8; u32::from_be_bytes(len) as usize];
    r.read_exact(&mut buf).unwrap();
    serde_json::from_slice(&buf).unwrap()
}

/// A probe server on the fixture, started by hand with these JVM options, and its pipes.
fn probe_server(
    fx: &Path,
    options: &[&str],
) -> (
    std::process::Child,
    std::process::ChildStdin,
    std::process::ChildStdout,
) {
    let jdk = jvm_support::jdk().unwrap();
    // A diff compiles the probe into this run's cache; the server is then driven by hand.
    let (code, out, err) = run(rig()
        .arg("diff")
        .arg(golden().join("storage/bits-5.json"))
        .args(["--classpath", &classpath(fx)]));
    assert_eq!(code, 0, "{out}\n{err}");
    let probe = std::fs::read_dir(jvm_support::scratch().join("cache/probe"))
        .unwrap()
        .flatten()
        .map(|e| e.path().join("classes"))
        .find(|c| c.join("paletted/probe/Probe.class").is_file())
        .expect("a compiled probe");
    let mut child = rig()
        .arg("probe-server")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let output = child.stdout.take().unwrap();
    let hello = serde_json::json!({
        "libjvm": jdk.join("lib/server/libjvm.so"),
        "version": 17,
        "classpath": format!("{}:{}", probe.display(), fx.display()),
        "options": options,
    });
    frame(&mut input, &hello.to_string());
    (child, input, output)
}

#[test]
fn the_probe_server_speaks_frames_and_refuses_what_it_cannot_run() {
    let Some(fx) = fixture() else { return };
    let (mut child, mut input, mut output) = probe_server(&fx, &[]);
    // A value outside the registry is refused, the next op still runs.
    let case = "container block_states 4 0\nset 1 2 3 9\nbits\nget 1 2\nwrite";
    frame(&mut input, &serde_json::json!({ "case": case }).to_string());
    let results = answer(&mut output);
    assert_eq!(results[0]["throws"], "ProbeRefusal", "{results}");
    assert_eq!(results[1], serde_json::json!({"ok": 0}));
    assert_eq!(results[2]["throws"], "ProbeRefusal", "{results}");
    assert_eq!(results[3], serde_json::json!({"ok": "0000"}));
    // An object that is not JSON, or a case that is not UTF-8: a fatal answer, and the
    // server goes on.
    frame(&mut input, "{not json");
    assert!(answer(&mut output)["fatal"]
        .as_str()
        .unwrap()
        .contains("bad request frame"));
    std::io::Write::write_all(&mut input, &[0, 0, 0, 2, b'x', 0xff]).unwrap();
    assert!(answer(&mut output)["fatal"]
        .as_str()
        .unwrap()
        .contains("bad request frame"));
    // An unknown subject: the probe's own error, not a result, in either form.
    frame(&mut input, r#"{"case": "nonsense 1"}"#);
    assert!(answer(&mut output)["probe_error"]
        .as_str()
        .unwrap()
        .contains("unknown subject"));
    frame(&mut input, "nonsense 1");
    assert!(answer(&mut output)["probe_error"]
        .as_str()
        .unwrap()
        .contains("unknown subject"));
    // A case's text as it is (the form the rig sends) answers as its JSON form does.
    frame(
        &mut input,
        &serde_json::json!({ "case": "storage 5 64\nset 3 31\nget 3" }).to_string(),
    );
    assert_eq!(
        answer(&mut output),
        serde_json::json!([{"ok": null}, {"ok": 31}])
    );
    frame(&mut input, "storage 5 64\nset 3 31\nget 3");
    assert_eq!(
        answer(&mut output),
        serde_json::json!([{"ok": null}, {"ok": 31}])
    );
    drop(input);
    assert!(child.wait().unwrap().success());
}

/// C2, once it has seen an exception thrown often at one place, throws a shared one with no
/// message there. The rig runs C1 alone, but `--jvm-option` may bring C2 back: the message
/// must stay, as it is part of the result. Compiling in the foreground makes the moment C2
/// takes over the same on every run; without the rig's option, most of these lose it.
#[test]
fn an_exception_thrown_again_and_again_keeps_its_message_under_c2() {
    let Some(fx) = fixture() else { return };
    let (mut child, mut input, mut output) =
        probe_server(&fx, &["-XX:-TieredCompilation", "-Xbatch"]);
    // A linear palette of 2 entries, then a section whose index 2 is past it, read 20,000
    // times: the fixture's array read fails each time at the same place.
    let mut case = String::from("container biomes 65 0\nset 1 0 0 1");
    for _ in 0..20_000 {
        case.push_str("\nread 01ffffffff07000102");
    }
    frame(&mut input, &case);
    let results = answer(&mut output);
    let results = results.as_array().expect("a results array");
    assert_eq!(results.len(), 20_001);
    for (i, r) in results.iter().enumerate().skip(1) {
        assert_eq!(
            r,
            &serde_json::json!({
                "throws": "ArrayIndexOutOfBoundsException",
                "message": "Index 2 out of bounds for length 2",
            }),
            "op {i}"
        );
    }
    drop(input);
    assert!(child.wait().unwrap().success());
}

/// A report with what changes from run to run taken out: the timings, the rates, and the
/// progress lines `rig fuzz` prints every few seconds.
fn untimed(out: &str) -> String {
    out.lines()
        .filter(|l| !l.starts_with("  time: ") && !l.contains("cases/s"))
        .map(
            |l| match (l.find(" through both sides in "), l.find("): ")) {
                (Some(a), Some(b)) if l.starts_with("rig diff: ") && a < b => {
                    format!("{} through both sides in ..{}", &l[..a], &l[b..])
                }
                _ => l.to_string(),
            },
        )
        .collect::<Vec<_>>()
        .join("\n")
}

/// `rig diff` on several JVM children reports exactly what one child does: every divergence
/// and failure, in the files' order, with the same counts and exit code.
#[test]
fn several_jvm_children_report_exactly_what_one_does() {
    let Some(fx) = fixture() else { return };
    let diff = |jobs: &str, extra: &[&str]| {
        run(rig()
            .arg("diff")
            .args(golden_26())
            .args(["--classpath", &classpath(&fx), "--jobs", jobs])
            .args(extra))
    };
    for plants in [
        &[][..],
        &["--jvm-option=-Dfixture.plant=count-order,no-length-check"][..],
    ] {
        let (code1, out1, err1) = diff("1", plants);
        let (code3, out3, err3) = diff("3", plants);
        assert_eq!(code1, code3, "{err1}\n{err3}");
        assert_eq!(untimed(&out1), untimed(&out3));
        let set = recorded_set_26();
        assert!(
            out1.contains(&format!("{} cases, {} ops", set.cases, set.ops)),
            "{out1}"
        );
        if plants.is_empty() {
            assert_eq!(code1, 0, "{err1}");
        } else {
            // Divergences of both plants, spread over the set: a wrong order shows.
            assert_eq!(code1, 1, "{err1}");
            let found = divergences(&out1);
            assert!(found.len() > 100, "{out1}");
            assert!(found.iter().any(|(_, _, t)| t == "counts"));
            assert!(found.iter().any(|(_, _, t)| t.starts_with("unpack")));
        }
    }
    // Children that die: each case that killed one is reported in its place, on the child
    // it ran on, and the others run on.
    let some: Vec<_> = ["flat", "storage", "unpack"]
        .iter()
        .map(|f| golden().join(f))
        .collect();
    let crash = |jobs: &str| {
        run(rig()
            .arg("diff")
            .args(&some)
            .args(["--classpath", &classpath(&fx), "--jobs", jobs])
            .arg("--jvm-option=-Dfixture.plant=halt"))
    };
    let (code1, out1, err1) = crash("1");
    let (code3, out3, _) = crash("3");
    assert_eq!((code1, code3), (1, 1), "{err1}");
    assert_eq!(untimed(&out1), untimed(&out3));
    // The plant halts the JVM in getSerializedSize: exactly the cases with that op die, each
    // charged to itself, though several cases go to a child at once.
    let died: BTreeSet<String> = out1
        .lines()
        .filter(|l| l.contains("the JVM side died while running this case"))
        .map(|l| l["case ".len()..l.find(" (").unwrap()].to_string())
        .collect();
    let mut want = BTreeSet::new();
    for dir in &some {
        for (_, recorded) in recordings(dir) {
            if recorded.case.to_json()["ops"]
                .as_array()
                .unwrap()
                .iter()
                .any(|op| op["op"] == "serialized_size")
            {
                want.insert(recorded.case.name.clone());
            }
        }
    }
    assert!(want.len() > 10);
    assert_eq!(died, want, "{out1}");
    assert!(
        out1.contains(&format!("({} JVM crashes, each restarted)", want.len())),
        "{out1}"
    );
}

/// `rig fuzz` with a seed finds, shrinks and saves the same first divergence whatever
/// --jobs is: cases are generated in one order and judged in it.
#[test]
fn fuzz_finds_the_same_first_divergence_at_any_jobs() {
    let Some(fx) = fixture() else { return };
    let fuzz = |jobs: &str| {
        let root = fresh_dir(&format!("fuzz-jobs-{jobs}"));
        // The ladder's first cases agree and many later ones diverge.
        let (code, out, err) = fuzz_count_order(
            &fx,
            &root,
            &["--cases", "100", "--families", "ladder", "--jobs", jobs],
        );
        let saved = root.join("cases/ops/regress/ladder-block_states-r17-s7-shrunk.json");
        let saved = std::fs::read_to_string(&saved).unwrap_or_else(|e| panic!("{e}\n{out}"));
        let out = out.replace(root.to_str().unwrap(), "ROOT");
        (code, untimed(&out), err, saved)
    };
    let (code1, out1, err1, saved1) = fuzz("1");
    let (code3, out3, err3, saved3) = fuzz("3");
    assert_eq!((code1, code3), (1, 1), "{err1}\n{err3}");
    assert!(
        out1.contains("case ladder/block_states-r17-s7: op 46 of 49 diverges: counts"),
        "{out1}"
    );
    assert_eq!(out1, out3);
    assert_eq!(saved1, saved3);
}

/// A case whose `set` meets an id listed twice in a crowded hash palette: 256 entries in
/// pairs, the first stored once, then set again elsewhere. Which of its two ids the set
/// gets is the fixture's identity-hash choice, so `counts` and `pack` depend on the run.
fn run_dependent_case(dir: &Path) -> std::path::PathBuf {
    let palette: Vec<u32> = (0..256).map(|i| 10 + i / 2).collect();
    let mut data = vec![0i64; 512];
    // Position (0,0,0) holds index 2, the first of the pair for 11.
    data[0] = 2;
    let case = serde_json::json!({
        "name": "rundep/pairs-set-twice",
        "subject": {"kind": "container", "strategy": "block_states", "registry": 300, "initial": 0},
        "ops": [
            {"op": "unpack", "palette": palette, "data": data, "bits": 8},
            {"op": "set", "x": 1, "y": 0, "z": 0, "value": 11},
            {"op": "counts"},
            {"op": "get", "x": 1, "y": 0, "z": 0},
            {"op": "bits"},
            {"op": "pack"}
        ]
    });
    let path = dir.join("pairs-set-twice.json");
    std::fs::write(&path, case.to_string()).unwrap();
    path
}

#[test]
fn a_run_dependent_result_is_kept_as_such_and_never_a_divergence() {
    let Some(fx) = fixture() else { return };
    let dir = fresh_dir("rundep-case");
    let case = run_dependent_case(&dir);
    let root = fresh_dir("rundep-root");
    std::fs::create_dir_all(root.join("cases/ops")).unwrap();
    let out_dir = root.join("recorded");
    let (code, out, err) = run(rig()
        .arg("record")
        .arg(&case)
        .args(["--classpath", &classpath(&fx)])
        .arg("--root")
        .arg(&root)
        .arg("--golden")
        .arg(&out_dir));
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("1 of 1 cases recorded"), "{out}");
    assert!(out.contains("; 1 run-dependent op "), "{out}");

    // The golden file: one plain result an op, and the one that depends on the run listed
    // with every result seen (`pack` makes a fresh palette, so it does not).
    let golden_path = out_dir.join("rundep/pairs-set-twice.json");
    let text = std::fs::read_to_string(&golden_path).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    let listed: Vec<u64> = v["run_dependent"]
        .as_array()
        .unwrap_or_else(|| panic!("no run_dependent key: {text}"))
        .iter()
        .map(|e| e["op"].as_u64().unwrap())
        .collect();
    assert_eq!(listed, [2], "{text}");
    let recorded = harness::recorded::Recorded::parse(&text, &golden_path).unwrap();
    let ok = |v: Value| Outcome::Ok(v);
    // The rest of the case is recorded as before: plain facts.
    assert_eq!(recorded.results[0], ok(Value::Null));
    assert_eq!(recorded.results[1], ok(Value::Null));
    assert_eq!(recorded.results[3], ok(11.into()));
    assert_eq!(recorded.results[4], ok(8.into()));
    let counts = recorded.results[2].alternatives();
    assert_eq!(counts.len(), 2, "{:?}", recorded.results[2]);
    assert!(
        counts.contains(&ok(serde_json::json!([[10, 4094], [11, 2]]))),
        "{counts:?}"
    );
    assert!(
        counts.contains(&ok(serde_json::json!([[10, 4094], [11, 1], [11, 1]]))),
        "{counts:?}"
    );
    assert!(!recorded.results[5].is_run_dependent());

    // The snapshot says the same, one line an op.
    let snap = std::fs::read_to_string(root.join("snapshots/rundep/pairs-set-twice.snap")).unwrap();
    let body: Vec<&str> = snap.split("\n---\n").nth(1).unwrap().lines().collect();
    assert_eq!(body.len(), 6, "{snap}");
    assert!(body[2].starts_with(r#"{"any_of":[{"ok":"#), "{snap}");
    assert_eq!(body[3], r#"{"ok":11}"#, "{snap}");

    // Recorded again, nothing flips: the same file, byte for byte.
    let again = fresh_dir("rundep-again");
    std::fs::create_dir_all(again.join("cases/ops")).unwrap();
    let (code, out, err) = run(rig()
        .arg("record")
        .arg(&case)
        .args(["--classpath", &classpath(&fx)])
        .arg("--root")
        .arg(&again)
        .arg("--golden")
        .arg(again.join("recorded")));
    assert_eq!(code, 0, "{out}\n{err}");
    assert_eq!(
        std::fs::read_to_string(again.join("recorded/rundep/pairs-set-twice.json")).unwrap(),
        text
    );

    // Live, the Rust containers' answer is one of those results: no divergence, and the
    // run-dependent ops are counted apart.
    let (code, out, err) = run(rig()
        .arg("diff")
        .arg(&case)
        .args(["--classpath", &classpath(&fx)]));
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(divergences(&out).is_empty(), "{out}");
    assert!(out.contains("1 agree, 0 diverge"), "{out}");
    assert!(out.contains("; 1 run-dependent op "), "{out}");
}

#[test]
fn fuzz_never_stops_on_a_run_dependent_op() {
    let Some(fx) = fixture() else { return };
    let root = fresh_dir("fuzz-rundep");
    std::fs::create_dir_all(root.join("cases/ops")).unwrap();
    let (code, out, err) = run(rig()
        .arg("fuzz")
        .args([
            "--classpath",
            &classpath(&fx),
            "--seed",
            "5",
            "--cases",
            "300",
            "--families",
            "unpack-dups",
        ])
        .arg("--root")
        .arg(&root));
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("no divergence in 300 cases"), "{out}");
    assert!(out.contains(" run-dependent op"), "{out}");
}
