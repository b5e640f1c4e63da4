//! The probe's older API shapes end to end, against their fixtures (rig/tests/fixture-shapes
//! over the shared rig/tests/fixture; stand-ins, not Minecraft): the shape is picked from the
//! classes, the shape's probe compiles and runs, and generated cases of the shape's versions
//! agree with the Rust containers at those versions.

mod jvm_support;

use std::path::{Path, PathBuf};

use jvm_support::{divergences, fresh_dir, jdk, rig, run, shape_fixture};

/// Every family `rig gen list` says builds at `version`, generated into a fresh folder.
fn cases_at(version: &str) -> PathBuf {
    let (code, list, err) = run(rig().args(["gen", "list"]));
    assert_eq!(code, 0, "{err}");
    let families: Vec<&str> = list
        .lines()
        .filter(|l| {
            l.split_once("(at ")
                .is_some_and(|(_, at)| at.split([',', ' ', ')']).any(|v| v == version))
        })
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(families.len() >= 10, "{list}");
    let dir = fresh_dir(&format!("cases-{version}"));
    for family in families {
        let (code, out, err) = run(rig()
            .args(["gen", family, "--version", version, "--out"])
            .arg(&dir));
        assert_eq!(code, 0, "rig gen {family}: {out}\n{err}");
    }
    dir
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `rig diff` of every generated case of `version` through the `shape` fixture, named as
/// that version: all agree.
fn agree_at(shape: &str, version: &str) {
    let Some(fx) = shape_fixture(shape) else {
        return;
    };
    let cases = cases_at(version);
    let (code, out, err) = run(rig().arg("diff").arg(&cases).args([
        "--classpath",
        path(&fx),
        "--classes-version",
        version,
    ]));
    assert_eq!(code, 0, "stdout:\n{out}\nstderr:\n{err}");
    // Each family writes its cases under a folder of the version (`v1.20.1/...`).
    let n: usize = out
        .split_once("rig diff: ")
        .and_then(|(_, rest)| rest.split_once(" cases"))
        .and_then(|(n, _)| n.parse().ok())
        .unwrap_or_else(|| panic!("{out}"));
    assert!(n >= 400, "only {n} cases: {out}");
    assert!(
        out.contains(&format!("{n} agree, 0 diverge, 0 failed")),
        "{out}\n{err}"
    );
    assert!(divergences(&out).is_empty());
}

#[test]
fn cases_at_1_20_1_agree_through_the_1_19_to_1_21_fixture() {
    agree_at("1.19-1.21", "1.20.1");
}

#[test]
fn cases_at_1_18_2_agree_through_the_1_18_fixture() {
    agree_at("1.18", "1.18.2");
}

#[test]
fn cases_at_1_21_11_agree_through_the_1_21_9_to_26_2_fixture() {
    agree_at("1.21.9-26.2", "1.21.11");
}

#[test]
fn cases_at_26_1_agree_through_the_1_21_9_to_26_2_fixture() {
    agree_at("1.21.9-26.2", "26.1");
}

/// `fill` is 26.3's: a `fill` op at 26.1 gets no result through classes without it, only
/// the reason (the case is invalid), never a made-up answer.
#[test]
fn fill_is_refused_by_classes_without_it() {
    let Some(fx) = shape_fixture("1.21.9-26.2") else {
        return;
    };
    let cases = fresh_dir("fill-at-26.1");
    std::fs::write(
        cases.join("fill.json"),
        r#"{"name":"fill","subject":{"kind":"storage","bits":5,"size":64,"version":"26.1"},"ops":[{"op":"set","index":0,"value":3},{"op":"fill","value":31},{"op":"longs"}]}"#,
    )
    .unwrap();
    let (code, out, err) = run(rig().arg("diff").arg(&cases).args([
        "--classpath",
        path(&fx),
        "--classes-version",
        "26.1",
    ]));
    let all = format!("{out}\n{err}");
    assert_ne!(code, 0, "{all}");
    assert!(all.contains("0 agree, 0 diverge, 1 failed"), "{all}");
    assert!(all.contains("fill does not exist in"), "{all}");
}

/// 26.3's probe calls `forEachInPalette` and `BitStorage.fill`, which classes of 1.21.9 to
/// 26.2 lack: with a top-level Strategy but no `fill`, the classes are of their own shape.
#[test]
fn classes_without_fill_are_not_26_3s_shape() {
    let Some(fx) = shape_fixture("1.21.9-26.2") else {
        return;
    };
    let cases = fresh_dir("not-26.3");
    let (code, out, err) = run(rig()
        .args(["gen", "flat", "--version", "26.3", "--out"])
        .arg(&cases));
    assert_eq!(code, 0, "{out}\n{err}");
    let (code, out, err) = run(rig().arg("diff").arg(&cases).args([
        "--classpath",
        path(&fx),
        "--classes-version",
        "26.3",
    ]));
    assert_ne!(code, 0, "{out}");
    assert!(
        err.contains(
            "--classes-version 26.3 is of the 26.3 API shape, but the classes on the class \
             path are of the 1.21.9 to 26.2 shape"
        ),
        "{err}"
    );
}

/// With no version named, the probe of the shape the classes have is compiled and started
/// (another shape's would not compile against them), and then refuses to run cases: the
/// shape spans versions of different rules.
#[test]
fn the_shape_is_picked_from_the_classes_and_their_version_must_be_named() {
    for (shape, version, span) in [
        ("1.21.9-26.2", "26.1", "1.21.9 to 26.2"),
        ("1.19-1.21", "1.20.1", "1.19 to 1.21.8"),
        ("1.18", "1.18.2", "1.18"),
    ] {
        let Some(fx) = shape_fixture(shape) else {
            return;
        };
        let cases = fresh_dir(&format!("unnamed-{shape}"));
        let (code, out, err) = run(rig()
            .args(["gen", "flat", "--version", version, "--out"])
            .arg(&cases));
        assert_eq!(code, 0, "{out}\n{err}");
        let (_, out, err) = run(rig()
            .arg("diff")
            .arg(&cases)
            .args(["--classpath", path(&fx)]));
        let all = format!("{out}\n{err}");
        assert!(
            all.contains(&format!("the classes are of the {span} API shape")),
            "{all}"
        );
        assert!(all.contains("--classes-version"), "{all}");
        assert!(!all.contains("javac could not compile"), "{all}");
    }
}

/// A version of another shape than the classes' is refused before anything runs.
#[test]
fn a_classes_version_of_another_shape_is_refused() {
    let Some(fx) = shape_fixture("1.19-1.21") else {
        return;
    };
    let cases = fresh_dir("other-shape");
    let (code, out, err) = run(rig()
        .args(["gen", "flat", "--version", "26.3", "--out"])
        .arg(&cases));
    assert_eq!(code, 0, "{out}\n{err}");
    let (code, out, err) = run(rig().arg("diff").arg(&cases).args([
        "--classpath",
        path(&fx),
        "--classes-version",
        "26.3",
    ]));
    assert_ne!(code, 0, "{out}");
    assert!(
        err.contains(
            "--classes-version 26.3 is of the 26.3 API shape, but the classes on the class \
             path are of the 1.19 to 1.21.8 shape"
        ),
        "{err}"
    );
}

/// A jar whose version.json names a version before 26.1 but which has no Mojang-named
/// PalettedContainer is an obfuscated one: refused, saying it must be remapped.
#[test]
fn an_obfuscated_jar_is_refused_with_the_remapping_it_needs() {
    let Some(jdk) = jdk() else { return };
    let dir = fresh_dir("obfuscated");
    std::fs::write(dir.join("version.json"), r#"{"id": "1.20.1"}"#).unwrap();
    std::fs::create_dir_all(dir.join("a")).unwrap();
    std::fs::write(dir.join("a/b.class"), b"not a class").unwrap();
    let jar = dir.join("server.jar");
    let status = std::process::Command::new(jdk.join("bin/jar"))
        .arg("cf")
        .arg(&jar)
        .args([
            "-C",
            path(&dir),
            "version.json",
            "-C",
            path(&dir),
            "a/b.class",
        ])
        .status()
        .unwrap();
    assert!(status.success());
    let cases = fresh_dir("obfuscated-cases");
    let (code, out, err) = run(rig()
        .args(["gen", "flat", "--version", "1.20.1", "--out"])
        .arg(&cases));
    assert_eq!(code, 0, "{out}\n{err}");
    let (code, out, err) = run(rig().arg("diff").arg(&cases).arg("--minecraft").arg(&jar));
    assert_ne!(code, 0, "{out}");
    assert!(
        err.contains("the jar is Minecraft 1.20.1, whose classes Mojang ships obfuscated"),
        "{err}"
    );
    assert!(
        err.contains("Remap the jar with Mojang's mappings"),
        "{err}"
    );
}
