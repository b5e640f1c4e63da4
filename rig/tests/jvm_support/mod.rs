//! Shared by the JVM-side tests: a JDK (or a loud failure on CI), the test fixture compiled
//! once per test binary, and the `rig` binary with a private cache.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// This test run's scratch folder. Each run's copies of the recorded set take about 200 MB,
/// so the first call removes the folders of earlier runs whose process has ended.
pub fn scratch() -> PathBuf {
    static SWEPT: OnceLock<()> = OnceLock::new();
    let root = Path::new(env!("CARGO_TARGET_TMPDIR"));
    SWEPT.get_or_init(|| {
        for e in std::fs::read_dir(root).into_iter().flatten().flatten() {
            let name = e.file_name();
            let pid = name.to_str().and_then(|n| n.strip_prefix("jvm-"));
            if pid.is_some_and(|p| !Path::new("/proc").join(p).exists()) {
                let _ = std::fs::remove_dir_all(e.path());
            }
        }
    });
    let dir = root.join(format!("jvm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A fresh, empty folder under the scratch folder.
pub fn fresh_dir(name: &str) -> PathBuf {
    let dir = scratch().join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn is_jdk(home: &Path) -> bool {
    home.join("bin/javac").is_file() && home.join("lib/server/libjvm.so").is_file()
}

fn major(home: &Path) -> u32 {
    std::fs::read_to_string(home.join("release"))
        .ok()
        .and_then(|t| {
            let v = t
                .lines()
                .find_map(|l| l.strip_prefix("JAVA_VERSION="))?
                .trim_matches('"')
                .to_string();
            let mut parts = v.split(['.', '_']);
            let first: u32 = parts.next()?.parse().ok()?;
            if first == 1 {
                parts.next()?.parse().ok()
            } else {
                Some(first)
            }
        })
        .unwrap_or(0)
}

/// How to get the JVM-side tests to run, or to skip them on purpose.
pub const NO_JDK: &str = "no JDK found (JAVA_HOME, /usr/lib/jvm, javac on PATH): the JVM-side \
    tests need one. Install one (Debian/Ubuntu: `apt-get install openjdk-17-jdk-headless`; \
    Java 17 is enough for the tests, Minecraft 26.x itself needs Java 25) or point JAVA_HOME \
    at one; or skip the JVM-side tests deliberately with RIG_SKIP_JVM_TESTS=1 (CI never does)";

/// Whether the JVM-side tests are skipped on purpose (`RIG_SKIP_JVM_TESTS=1`).
pub fn skipped_on_purpose() -> bool {
    std::env::var("RIG_SKIP_JVM_TESTS").is_ok_and(|v| v == "1")
}

/// The JDK the rig would find, the same way (JAVA_HOME, newest under /usr/lib/jvm, javac on
/// PATH), without the skip switch.
pub fn find_jdk() -> Option<PathBuf> {
    std::env::var_os("JAVA_HOME")
        .map(PathBuf::from)
        .filter(|h| is_jdk(h))
        .or_else(|| {
            let mut best: Option<PathBuf> = None;
            for e in std::fs::read_dir("/usr/lib/jvm")
                .into_iter()
                .flatten()
                .flatten()
            {
                let p = std::fs::canonicalize(e.path()).unwrap_or(e.path());
                if is_jdk(&p) && best.as_ref().is_none_or(|b| major(&p) > major(b)) {
                    best = Some(p);
                }
            }
            best
        })
        .or_else(|| {
            let path = std::env::var_os("PATH")?;
            std::env::split_paths(&path).find_map(|d| {
                let javac = std::fs::canonicalize(d.join("javac")).ok()?;
                let home = javac.parent()?.parent()?.to_path_buf();
                is_jdk(&home).then_some(home)
            })
        })
}

/// The JDK for a JVM-side test, or None to skip it: skipped on purpose, or no JDK (then one
/// test, `gate::a_jdk_is_found_or_the_jvm_tests_are_skipped_on_purpose`, fails with
/// [`NO_JDK`], so a missing JDK is never a quiet pass). On CI (CI=true) a missing JDK fails
/// every JVM-side test.
pub fn jdk() -> Option<PathBuf> {
    if skipped_on_purpose() {
        eprintln!("SKIPPED on purpose (RIG_SKIP_JVM_TESTS=1): a JVM-side test");
        return None;
    }
    let found = find_jdk();
    if found.is_none() && std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{NO_JDK}");
    }
    found
}

/// The fixture's classes (26.x's API shape, `rig/tests/fixture`), compiled once per test
/// binary; None (skip) without a JDK.
pub fn fixture() -> Option<PathBuf> {
    static FIXTURE: OnceLock<Option<PathBuf>> = OnceLock::new();
    FIXTURE
        .get_or_init(|| compile_fixture("fixture-classes", None))
        .clone()
}

/// The files of `rig/tests/fixture` that are 26.x's API layer: the nested shapes' fixtures
/// (`1.19-1.21`, `1.18`) are the rest of that folder (the shared behaviour) with their own
/// layer from `rig/tests/fixture-shapes/<shape>/` instead. A layer's file also replaces the
/// shared file of the same path (`1.21.9-26.2`'s `BitStorage`, without `fill`).
pub const LAYER_26: [&str; 3] = [
    "net/minecraft/world/level/chunk/PalettedContainer.java",
    "net/minecraft/world/level/chunk/PalettedContainerRO.java",
    "net/minecraft/world/level/chunk/Strategy.java",
];

/// An older API shape's fixture (`1.21.9-26.2`, `1.19-1.21` or `1.18`, a folder of
/// `rig/tests/fixture-shapes`), compiled once per test binary; None (skip) without a JDK.
pub fn shape_fixture(shape: &str) -> Option<PathBuf> {
    static FIXTURES: OnceLock<
        std::sync::Mutex<std::collections::HashMap<String, Option<PathBuf>>>,
    > = OnceLock::new();
    let mut done = FIXTURES.get_or_init(Default::default).lock().unwrap();
    done.entry(shape.to_string())
        .or_insert_with(|| compile_fixture(&format!("fixture-{shape}-classes"), Some(shape)))
        .clone()
}

fn compile_fixture(name: &str, shape: Option<&str>) -> Option<PathBuf> {
    let jdk = jdk()?;
    let out = fresh_dir(name);
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let shared = tests.join("fixture");
    let mut files = Vec::new();
    collect_java(&shared, &mut files);
    assert!(
        files.len() > 10,
        "fixture sources not found under {}",
        shared.display()
    );
    if let Some(shape) = shape {
        let layer = tests.join("fixture-shapes").join(shape);
        let mut own = Vec::new();
        collect_java(&layer, &mut own);
        assert!(!own.is_empty(), "no layer under {}", layer.display());
        // The shapes with a nested Strategy have none of 26.x's layer.
        let nested = matches!(shape, "1.18" | "1.19-1.21");
        files.retain(|f| {
            let path = f.strip_prefix(&shared).expect("under the fixture");
            let replaced = own
                .iter()
                .any(|o| o.strip_prefix(&layer).ok() == Some(path));
            let dropped = nested && LAYER_26.iter().any(|l| path.ends_with(l));
            !replaced && !dropped
        });
        files.extend(own);
    }
    let status = Command::new(jdk.join("bin/javac"))
        .arg("-nowarn")
        .arg("-d")
        .arg(&out)
        .args(&files)
        .status()
        .expect("javac runs");
    assert!(status.success(), "the fixture must compile");
    Some(out)
}

fn collect_java(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            collect_java(&p, out);
        } else if p.extension().is_some_and(|x| x == "java") {
            out.push(p);
        }
    }
}

/// The golden cases.
pub fn golden() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../cases/golden")
}

/// The folders of the 26.3 recordings: every top-level folder of the golden cases but the
/// older versions' (`v1.18.2/`, ...), which classes of the 26.x shape refuse by name
/// (`rig/tests/shapes.rs` runs each older shape's fixture at its versions).
pub fn golden_26() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(golden())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .filter(|p| !p.file_name().unwrap().to_string_lossy().starts_with('v'))
        .collect();
    dirs.sort();
    dirs
}

/// The size of the 26.3 recorded set ([`golden_26`]): what a run of the 26.x fixture over it
/// reports.
pub fn recorded_set_26() -> harness::store::RecordedSet {
    let mut set = harness::store::RecordedSet { cases: 0, ops: 0 };
    for dir in golden_26() {
        for file in harness::store::json_files(&dir) {
            let text = std::fs::read_to_string(&file).unwrap();
            let v: serde_json::Value = serde_json::from_str(&text).unwrap();
            assert!(v["subject"].get("version").is_none(), "{}", file.display());
            set.cases += 1;
            set.ops += v["ops"].as_array().map_or(0, Vec::len);
        }
    }
    set
}

/// The size of the recorded set on disk (the one number tests expect).
pub fn recorded_set() -> harness::store::RecordedSet {
    harness::store::Store::at(Path::new(env!("CARGO_MANIFEST_DIR")).join("..")).recorded_set()
}

/// `rig` with this run's probe cache.
pub fn rig() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_rig"));
    c.env("RIG_CACHE_DIR", scratch().join("cache"));
    c
}

/// Runs a command; gives (exit code, stdout, stderr).
pub fn run(c: &mut Command) -> (i32, String, String) {
    let Output {
        status,
        stdout,
        stderr,
    } = c.output().expect("rig runs");
    (
        status.code().unwrap_or(-1),
        String::from_utf8_lossy(&stdout).into_owned(),
        String::from_utf8_lossy(&stderr).into_owned(),
    )
}

/// (case name, op index, op text) of each divergence `rig diff` reported.
pub fn divergences(stdout: &str) -> Vec<(String, usize, String)> {
    stdout
        .lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("case ")?;
            let (name, rest) = rest.split_once(": op ")?;
            let (op, rest) = rest.split_once(" of ")?;
            let (_, text) = rest.split_once(" diverges: ")?;
            Some((name.to_string(), op.parse().ok()?, text.to_string()))
        })
        .collect()
}
