//! `--jobs`: `rig check` and `rig world` give the same output, files and exit
//! code on one thread as on four, failures included: their order, and which
//! example a count names, are what a parallel run could get wrong.

mod world_build;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use paletted::{Kind, PalettedContainer, Strategy};
use world_build as build;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A fresh folder for one test, under cargo's temp folder for tests.
fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("jobs-{test}"));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// Exit code, stdout and stderr of `rig ARGS --jobs N` run in `dir`.
fn rig(dir: &Path, args: &[&str], jobs: usize) -> (Option<i32>, String, String) {
    let jobs = jobs.to_string();
    run(dir, &[args, &["--jobs", &jobs]].concat())
}

/// Exit code, stdout and stderr of `rig ARGS` run in `dir`.
fn run(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_rig"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Runs `rig ARGS` with `--jobs 1` and `--jobs 4`, asserts the same exit code,
/// stdout and stderr (after `mask`, for what is timed), and gives them.
fn same_on_1_and_4(
    dir: &Path,
    args: &[&str],
    mask: impl Fn(&str) -> String,
) -> (Option<i32>, String, String) {
    let (code, out, err) = rig(dir, args, 1);
    let (code4, out4, err4) = rig(dir, args, 4);
    let (out, err) = (mask(&out), mask(&err));
    assert_eq!(code, code4, "exit code of rig {args:?}");
    assert_eq!(out, mask(&out4), "stdout of rig {args:?}");
    assert_eq!(err, mask(&err4), "stderr of rig {args:?}");
    (code, out, err)
}

/// Every file under `dir`, by path, with its bytes.
fn tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(dir: &Path, root: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
        for entry in fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, root, out);
            } else {
                let bytes = fs::read(&path).unwrap();
                out.insert(path.strip_prefix(root).unwrap().to_path_buf(), bytes);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// Blanks the values of the attributes `names` (JUnit's times).
fn blank_attributes(text: &str, names: &[&str]) -> String {
    let mut out = text.to_string();
    for name in names {
        let key = format!(" {name}=\"");
        let mut done = String::new();
        let mut rest = out.as_str();
        while let Some(i) = rest.find(&key) {
            let start = i + key.len();
            let end = start + rest[start..].find('"').unwrap();
            done.push_str(&rest[..start]);
            rest = &rest[end..];
        }
        done.push_str(rest);
        out = done;
    }
    out
}

/// Changes the first integer result of a recording (`{"ok":12}` to
/// `{"ok":121}`): a divergence, as a Rust bug would give.
fn wrong_result(path: &Path) {
    let text = fs::read_to_string(path).unwrap();
    // A recording's results follow its ops; a snapshot holds only results.
    let mut at = text.find("\"results\":[").unwrap_or(0);
    loop {
        let i = at + text[at..].find("{\"ok\":").expect("an integer result") + 6;
        let digits = text[i..].bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && text[i + digits..].starts_with('}') {
            let changed = format!("{}1{}", &text[..i + digits], &text[i + digits..]);
            fs::write(path, changed).unwrap();
            return;
        }
        at = i;
    }
}

#[test]
fn check_gives_the_same_report_on_one_thread_and_on_four() {
    let dir = scratch("check");
    fs::create_dir_all(dir.join("cases/ops")).unwrap();
    fs::create_dir_all(dir.join("snapshots")).unwrap();
    fs::copy(
        repo().join("cases/trusted-sources.toml"),
        dir.join("cases/trusted-sources.toml"),
    )
    .unwrap();
    // Every fourth recording of the golden set, in every family.
    let golden = repo().join("cases/golden");
    // (Older versions' recordings sit one folder deeper, under `v1.18.2/` and the like.)
    let mut all = harness::store::json_files(&golden);
    all.sort();
    let mut given = Vec::new();
    for path in all.iter().step_by(4) {
        let to = dir.join("given").join(path.strip_prefix(&golden).unwrap());
        fs::create_dir_all(to.parent().unwrap()).unwrap();
        fs::copy(path, &to).unwrap();
        given.push(to);
    }
    assert!(given.len() > 250, "{}", given.len());
    // Failures early, in the middle and last: two divergences, a file cut short
    // (a parse error at its line), an unknown op.
    let n = given.len();
    let planted = [&given[3], &given[n / 3], &given[n / 2], &given[n - 1]];
    wrong_result(planted[0]);
    let text = fs::read_to_string(planted[1]).unwrap();
    fs::write(planted[1], &text[..text.len() / 2]).unwrap();
    let text = fs::read_to_string(planted[2]).unwrap();
    fs::write(
        planted[2],
        text.replacen("{\"op\":\"", "{\"op\":\"no_such_", 1),
    )
    .unwrap();
    wrong_result(planted[3]);

    let (code, out, _) = same_on_1_and_4(&dir, &["check", "given", "--junit", "j.xml"], |s| {
        s.to_string()
    });
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.ends_with(&format!("{} passed, 4 failed\n", n - 4)),
        "{out}"
    );
    // Reported in input order.
    let mut last = 0;
    for path in planted {
        let shown = path.strip_prefix(&dir).unwrap().display().to_string();
        let at = out[last..]
            .find(&shown)
            .unwrap_or_else(|| panic!("{shown} not reported after byte {last}:\n{out}"));
        last += at + shown.len();
    }
    assert!(out.contains("diverges"), "{out}");
    assert!(out.contains("no_such_"), "{out}");
    // The JUnit files too, but for the times.
    let junit = |jobs: usize| {
        let (code, _, _) = rig(&dir, &["check", "given", "--junit", "j.xml"], jobs);
        assert_eq!(code, Some(1));
        blank_attributes(
            &fs::read_to_string(dir.join("j.xml")).unwrap(),
            &["time", "timestamp"],
        )
    };
    let one = junit(1);
    assert!(one.contains("failures=\"4\""), "{one}");
    assert_eq!(one, junit(4));

    // The store's own cases, one awaiting recording, one snapshot wrong.
    for path in &given[4..12] {
        let (code, out, err) = run(&dir, &["import", path.to_str().unwrap()]);
        assert_eq!(code, Some(0), "{out}{err}");
    }
    // The first or the last file of a store folder, by path.
    let pick = |folder: &str, last: bool| {
        let files = tree(&dir.join(folder));
        let file = if last {
            files.keys().last()
        } else {
            files.keys().next()
        };
        dir.join(folder).join(file.unwrap())
    };
    wrong_result(&pick("snapshots", false));
    let case = pick("cases/ops", true);
    let text = fs::read_to_string(&case).unwrap();
    let name = text.split('"').nth(5).unwrap().to_string();
    let stem = case.file_stem().unwrap().to_str().unwrap();
    fs::write(
        case.with_file_name(format!("{stem}-awaiting.json")),
        text.replacen(&name, &format!("{name}-awaiting"), 1),
    )
    .unwrap();
    let (code, out, err) = same_on_1_and_4(&dir, &["check"], |s| s.to_string());
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.ends_with("7 passed, 1 failed\n"), "{out}");
    assert!(err.contains("1 awaiting recording, not counted"), "{err}");
}

/// Region `r.0.Z.mca`: `chunks` chunks in a row; the chunks at `odd` have a
/// block-state palette with an entry no position uses, those at `broken` a
/// payload that does not decompress.
fn region(z: i32, chunks: u8, odd: &[u8], broken: &[u8]) -> Vec<u8> {
    let biomes = || PalettedContainer::new(0, Strategy::biomes(100)).pack();
    let mut region = build::Region::new();
    for x in 0..chunks {
        if broken.contains(&x) {
            region.chunk(x, 0, 2, b"this is not zlib");
            continue;
        }
        let mut blocks = build::container(Kind::BlockStates, 5 + u32::from(x % 7), 0).pack();
        if odd.contains(&x) {
            blocks.palette.push(900 + u32::from(x));
        }
        let sections = vec![
            build::section_packed(0, blocks, biomes()),
            build::plain_section(1),
        ];
        region.good(x, 0, &build::chunk(i32::from(x), z * 32, sections));
    }
    region.bytes()
}

#[test]
fn world_gives_the_same_report_and_export_on_one_thread_and_on_four() {
    let dir = scratch("world");
    let built = dir.join("built/region");
    fs::create_dir_all(&built).unwrap();
    fs::write(built.join("r.0.0.mca"), region(0, 32, &[20, 30], &[7])).unwrap();
    fs::write(built.join("r.0.1.mca"), region(1, 32, &[2, 31], &[0, 25])).unwrap();
    fs::write(built.join("r.0.2.mca"), region(2, 32, &[], &[])).unwrap();
    // A real fixture cut short: its later chunks run past the end of the file.
    let fixtures = repo().join("rig/tests/worlds");
    let mut cut = fs::read(fixtures.join("prismarine-1.20.6-r.0.0.mca")).unwrap();
    cut.truncate(cut.len() / 2);
    fs::write(built.join("r.1.0.mca"), cut).unwrap();
    let fixtures = fixtures.to_str().unwrap();
    let throughput = |s: &str| {
        s.lines()
            .filter(|l| !l.starts_with("throughput: "))
            .map(|l| format!("{l}\n"))
            .collect()
    };

    let paths = [fixtures, "built", fixtures, "missing.mca"];
    let (code, out, _) = same_on_1_and_4(&dir, &[&["world"], &paths[..]].concat(), throughput);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("difference: unused palette entries: 4 containers; e.g. built/region/r.0.0.mca, chunk (20, 0)"), "{out}");
    assert!(
        out.contains("unreadable: built/region/r.0.1.mca, chunk (0, 32): "),
        "{out}"
    );
    assert!(
        out.contains("unreadable: missing.mca: cannot read"),
        "{out}"
    );
    assert!(out.contains("total: 18 files, "), "{out}");

    // The sample, and the export with and without it: the same files, the same ids.
    for args in [
        &["--sample", "40"][..],
        &["--sample", "40", "--export", "out"],
        &["--export", "out"],
    ] {
        let run = |jobs: usize| {
            let _ = fs::remove_dir_all(dir.join("out"));
            let all = [&["world"], args, &[fixtures, "built", fixtures]].concat();
            let (code, out, err) = rig(&dir, &all, jobs);
            let files = if dir.join("out").exists() {
                tree(&dir.join("out"))
            } else {
                BTreeMap::new()
            };
            (code, throughput(&out), err, files)
        };
        let one = run(1);
        assert_eq!(one.0, Some(1), "{}", one.1);
        assert!(args.len() == 2 || one.3.len() >= 40, "{args:?}: {}", one.1);
        assert!(one == run(4), "rig world {args:?}: --jobs 4 differs");
    }
}
