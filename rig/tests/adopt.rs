//! ADOPTING.md's CI recipe, step for step, from a scratch folder outside the
//! checkout, as another project's CI runs it: the recorded set fetched (a
//! checkout of this repository beside the project's own files, or
//! golden-format files copied on their own), an adapter of the project's own
//! (the Python kit, vendored), `rig check --executor ... --junit`, and the
//! exit code and JUnit file a CI job reads. On a few families, so it stays
//! short; the recipe runs the whole set.

use std::path::{Path, PathBuf};
use std::process::Command;

const RIG: &str = env!("CARGO_BIN_EXE_rig");

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .unwrap()
}

/// A folder under the system's temp folder (outside the checkout), removed
/// when dropped.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch() -> Scratch {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let dir = std::env::temp_dir().join(format!("paletted-adopt-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let dir = dir.canonicalize().unwrap();
    assert!(
        !dir.ancestors().any(|d| d.join("cases/ops").is_dir()),
        "{} is inside a checkout",
        dir.display()
    );
    Scratch(dir)
}

/// `rig ARGS` started through `bin/rig` (a link, as an installed rig would be)
/// in `dir`, with no rig on the PATH; (exit code, stdout, stderr).
fn rig_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(dir.join("bin/rig"))
        .args(args)
        .current_dir(dir)
        .env("PATH", "/usr/bin:/bin")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The JUnit file's suite counts and its test cases, read by a real XML parser
/// (Python's, as a CI's report step would): `[tests, failures, skipped,
/// testcases, failure elements, skipped elements]`.
fn junit_counts(file: &Path) -> [usize; 6] {
    let script = "import sys, xml.etree.ElementTree as E\n\
                  s = E.parse(sys.argv[1]).getroot().find('testsuite')\n\
                  c = s.findall('testcase')\n\
                  print(s.get('tests'), s.get('failures'), s.get('skipped'), len(c),\n\
                  sum(t.find('failure') is not None for t in c),\n\
                  sum(t.find('skipped') is not None for t in c))";
    let out = Command::new("python3")
        .args(["-c", script])
        .arg(file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{} does not parse: {}",
        file.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let n: Vec<usize> = text
        .split_whitespace()
        .map(|w| w.parse().unwrap())
        .collect();
    n.try_into().unwrap()
}

fn cases_in(dir: &Path) -> usize {
    harness::store::json_files(dir).len()
}

/// The project's folder: `bin/rig`, `paletted/` (the checkout of this
/// repository the recipe fetches; here a link to this one), and `adapter/`
/// (the Python kit's minimal storage adapter, vendored as a project would).
fn project() -> Scratch {
    let s = scratch();
    let dir = &s.0;
    std::fs::create_dir_all(dir.join("bin")).unwrap();
    std::os::unix::fs::symlink(RIG, dir.join("bin/rig")).unwrap();
    std::os::unix::fs::symlink(repo(), dir.join("paletted")).unwrap();
    std::fs::create_dir_all(dir.join("adapter")).unwrap();
    for file in ["paletted_adapter.py", "minimal.py"] {
        std::fs::copy(
            repo().join("adapters/kits/python").join(file),
            dir.join("adapter").join(file),
        )
        .unwrap();
    }
    s
}

#[test]
fn the_recipe_passes_from_a_folder_outside_the_checkout() {
    let s = project();
    let dir = &s.0;
    let storage = cases_in(&repo().join("cases/golden/storage"));
    // The recipe's step: the fetched checkout's recorded set, by a relative path.
    let (code, out, err) = rig_in(
        dir,
        &[
            "check",
            "--executor",
            "python3 adapter/minimal.py",
            "--junit",
            "rig-junit.xml",
            "paletted/cases/golden/storage",
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out, format!("{storage} passed, 0 failed\n"), "{err}");
    // The checkout holding the cases is the store: no note about another tree.
    assert_eq!(err, "", "{err}");
    assert_eq!(
        junit_counts(&dir.join("rig-junit.xml")),
        [storage, 0, 0, storage, 0, 0]
    );

    // Golden-format files fetched on their own, by an absolute path, through an
    // adapter script of the project's that runs `rig adapter paletted` (no rig
    // on the PATH: rig puts its own folder there).
    let golden = dir.join("golden");
    for family in ["ladder", "counts-order"] {
        copy_dir(
            &repo().join("cases/golden").join(family),
            &golden.join(family),
        );
    }
    std::fs::write(
        dir.join("adapter.sh"),
        "#!/bin/sh\nexec rig adapter paletted\n",
    )
    .unwrap();
    let n = cases_in(&golden);
    let junit = dir.join("j2.xml");
    let (code, out, err) = rig_in(
        dir,
        &[
            "check",
            "--executor",
            "sh adapter.sh",
            "--junit",
            junit.to_str().unwrap(),
            golden.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out, format!("{n} passed, 0 failed\n"), "{err}");
    assert_eq!(junit_counts(&junit), [n, 0, 0, n, 0, 0]);
}

#[test]
fn a_failing_adapter_exits_1_and_one_that_compares_nothing_exits_2() {
    let s = project();
    let dir = &s.0;
    // An adapter with a bug: the size of a 5-bit storage one too big.
    let minimal = std::fs::read_to_string(dir.join("adapter/minimal.py")).unwrap();
    let bug = "return getattr(self, kind)";
    assert!(minimal.contains(bug));
    let buggy = minimal.replace(
        bug,
        "return getattr(self, kind) + (kind == \"size\" and self.bits == 5)",
    );
    std::fs::write(dir.join("adapter/buggy.py"), buggy).unwrap();
    let (code, out, err) = rig_in(
        dir,
        &[
            "check",
            "--executor",
            "python3 adapter/buggy.py",
            "--junit",
            "rig-junit.xml",
            "paletted/cases/golden/storage",
        ],
    );
    assert_eq!(code, 1, "{out}{err}");
    let last = out.lines().last().unwrap();
    let (passed, failed) = last
        .split_once(" passed, ")
        .and_then(|(p, f)| Some((p.parse::<usize>().ok()?, f.strip_suffix(" failed")?)))
        .expect(last);
    let failed: usize = failed.parse().expect(last);
    assert!(failed > 0 && passed > 0, "{last}");
    assert!(
        out.contains("replay: rig repro paletted/cases/golden/storage/"),
        "{out}"
    );
    assert_eq!(
        junit_counts(&dir.join("rig-junit.xml")),
        [passed + failed, failed, 0, passed + failed, failed, 0]
    );
    // The first failure's replay line, as printed, run in the same folder.
    let replay = out
        .lines()
        .find_map(|l| l.strip_prefix("replay: "))
        .expect(&out);
    let path = format!("{}:/usr/bin:/bin", dir.join("bin").display());
    let shown = Command::new("sh")
        .args(["-c", replay])
        .current_dir(dir)
        .env("PATH", path)
        .output()
        .unwrap();
    let (shown_out, shown_err) = (
        String::from_utf8_lossy(&shown.stdout),
        String::from_utf8_lossy(&shown.stderr),
    );
    assert_eq!(shown.status.code(), Some(1), "{shown_out}{shown_err}");
    assert!(shown_out.contains(" diverges: size"), "{shown_out}");
    assert!(shown_out.contains("minimal-storage"), "{shown_out}");
    assert_eq!(shown_err, "", "{shown_err}");

    // A storage-only adapter on container cases: nothing compared, exit 2.
    let ladder = cases_in(&repo().join("cases/golden/ladder"));
    let (code, out, err) = rig_in(
        dir,
        &[
            "check",
            "--executor",
            "python3 adapter/minimal.py",
            "--junit",
            "rig-junit.xml",
            "paletted/cases/golden/ladder",
        ],
    );
    assert_eq!(code, 2, "{out}{err}");
    assert_eq!(out, format!("0 passed, 0 failed, {ladder} unsupported\n"));
    assert!(err.contains("rig check: nothing compared"), "{err}");
    assert_eq!(
        junit_counts(&dir.join("rig-junit.xml")),
        [ladder, 0, ladder, ladder, 0, ladder]
    );
    // An adapter that cannot start: exit 2.
    let (code, _, err) = rig_in(
        dir,
        &[
            "check",
            "--executor",
            "true",
            "paletted/cases/golden/ladder",
        ],
    );
    assert_eq!(code, 2, "{err}");
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}
