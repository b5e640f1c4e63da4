//! The gate cannot be fooled: results from the test fixture, or from any class path named
//! with free `--source` text, are never Minecraft truth, however the fixture is given.

mod jvm_support;

use std::path::Path;

use jvm_support::{fixture, fresh_dir, golden, rig, run};

fn repo() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// A scratch repository that trusts what this one trusts.
fn repo_like(name: &str) -> std::path::PathBuf {
    let root = fresh_dir(name);
    std::fs::create_dir_all(root.join("cases/ops")).unwrap();
    std::fs::copy(
        repo().join("cases/trusted-sources.toml"),
        root.join("cases/trusted-sources.toml"),
    )
    .unwrap();
    root
}

#[test]
fn the_fixture_source_folder_with_a_minecraft_source_is_refused() {
    if fixture().is_none() {
        return;
    }
    let root = repo_like("gate-fixture-src");
    // The fixture's source folder, as the README once suggested: javac compiles it into the
    // probe's classes, so no Plants.class lies in the folder; the JVM still loads the marker.
    let src = repo().join("rig/tests/fixture");
    let (code, out, err) = run(rig()
        .arg("record")
        .arg(golden().join("ladder/biomes-r1.json"))
        .args(["--classpath", src.to_str().unwrap()])
        .args(["--source", "Minecraft 26.3 trust me"])
        .arg("--root")
        .arg(&root)
        .current_dir(&root));
    assert_eq!(code, 0, "{out}\n{err}");
    let snap = std::fs::read_to_string(root.join("snapshots/ladder/biomes-r1.snap")).unwrap();
    assert!(snap.contains("test fixture — NOT a recording"), "{snap}");
    assert!(
        err.contains("will not take these snapshots as truth"),
        "{err}"
    );
    let (code, out, err) = run(rig().arg("check").current_dir(&root));
    assert_ne!(code, 0, "rig check accepted fixture results:\n{out}\n{err}");
    assert!(
        out.contains("snapshots/ladder/biomes-r1.snap: refused:"),
        "{out}"
    );
    assert!(out.contains("Minecraft 26.3 trust me"), "{out}");
    assert!(out.ends_with("0 passed, 1 failed\n"), "{out}");
}

#[test]
fn free_source_text_never_makes_truth_even_the_trusted_text() {
    let Some(fx) = fixture() else { return };
    let root = repo_like("gate-free-source");
    let goldens = root.join("out");
    let trusted_text = harness::trusted::Trusted::load(&repo().join("cases/trusted-sources.toml"))
        .unwrap()
        .sources[0]
        .clone();
    let (code, out, err) = run(rig()
        .arg("record")
        .arg(golden().join("ladder/biomes-r1.json"))
        .args(["--classpath", fx.to_str().unwrap()])
        .args(["--source", &trusted_text])
        .arg("--root")
        .arg(&root)
        .arg("--golden")
        .arg(&goldens)
        .current_dir(&root));
    assert_eq!(code, 0, "{out}\n{err}");
    let (code, out, _) = run(rig().arg("check").current_dir(&root));
    assert_ne!(code, 0, "{out}");
    assert!(out.contains("refused"), "{out}");
    // The golden-format copy cannot be laundered through import either.
    let fresh = repo_like("gate-free-source-import");
    let (code, _, err) = run(rig()
        .arg("import")
        .arg(goldens.join("ladder/biomes-r1.json"))
        .current_dir(&fresh));
    assert_ne!(code, 0, "{err}");
    assert!(err.contains("not imported"), "{err}");
}

/// Runs a command line the rig printed for a user to copy, with this build's `rig` first on
/// the PATH; gives (exit code, stdout and stderr).
fn run_printed(line: &str, cwd: &Path) -> (i32, String) {
    let bin = Path::new(env!("CARGO_BIN_EXE_rig")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(line)
        .env("PATH", path)
        .env("RIG_CACHE_DIR", jvm_support::scratch().join("cache"))
        .current_dir(cwd)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

#[test]
fn every_replay_command_fuzz_prints_works_as_printed() {
    let Some(fx) = fixture() else { return };
    let root = repo_like("gate-fuzz-replay");
    let (code, out, err) = run(rig()
        .arg("fuzz")
        .args([
            "--classpath",
            fx.to_str().unwrap(),
            "--jvm-option=-Dfixture.plant=count-order",
        ])
        .args(["--seed", "7", "--cases", "50", "--families", "flat"])
        .arg("--root")
        .arg(&root));
    assert_eq!(code, 1, "{out}\n{err}");
    let printed: Vec<&str> = out
        .lines()
        .filter_map(|l| l.trim().strip_prefix("replay "))
        .map(|l| l.split_once(":  ").expect("`replay X:  COMMAND`").1)
        .collect();
    assert_eq!(printed.len(), 2, "{out}");
    // From elsewhere than the store, as a user would paste them.
    let elsewhere = fresh_dir("gate-fuzz-elsewhere");
    for line in printed {
        let (code, said) = run_printed(line, &elsewhere);
        assert_eq!(code, 1, "`{line}` should replay the divergence:\n{said}");
        assert!(said.contains("diverges: counts"), "`{line}`:\n{said}");
    }
}

#[test]
fn a_class_path_without_minecraft_says_so_first_and_leaves_no_temp_folders() {
    if fixture().is_none() {
        return;
    }
    let cache = fresh_dir("gate-javac-cache");
    // Any other jar: here one holding nothing but a manifest-less text file.
    let other = fresh_dir("gate-other-jar").join("other.jar");
    {
        let file = std::fs::File::create(&other).unwrap();
        let mut zip = zip::ZipWriter::new(file);
        zip.start_file("README.txt", zip::write::SimpleFileOptions::default())
            .unwrap();
        std::io::Write::write_all(&mut zip, b"not Minecraft").unwrap();
        zip.finish().unwrap();
    }
    let (code, _out, err) = run(rig()
        .env("RIG_CACHE_DIR", &cache)
        .arg("diff")
        .arg(golden().join("flat"))
        .args(["--classpath", other.to_str().unwrap()]));
    assert_eq!(code, 2, "{err}");
    let first = err.lines().next().unwrap_or("");
    assert!(
        first.contains("javac cannot find net.minecraft.world.level.chunk.PalettedContainer"),
        "first line: {first}\n{err}"
    );
    assert!(err.contains("error:"), "the details follow: {err}");
    let left: Vec<_> = std::fs::read_dir(cache.join("probe"))
        .map(|d| d.flatten().map(|e| e.file_name()).collect())
        .unwrap_or_default();
    assert!(
        left.iter().all(|n| !n.to_string_lossy().contains(".tmp")),
        "{left:?}"
    );
}

/// The one failure a machine without a JDK gets, saying how to install one or how to skip the
/// JVM-side tests on purpose; every other JVM-side test skips quietly then.
#[test]
fn a_jdk_is_found_or_the_jvm_tests_are_skipped_on_purpose() {
    if jvm_support::skipped_on_purpose() {
        return;
    }
    assert!(jvm_support::find_jdk().is_some(), "{}", jvm_support::NO_JDK);
}
