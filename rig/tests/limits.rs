//! Bounded cost for any input (PROTOCOL.md, "Limits"): a case past a limit
//! is refused when it is read, naming the file, the op and the limit, with
//! nothing run; an adapter that floods its stdout is cut at the answer line
//! limit. None of these tests time anything: before the limits, each of
//! them took minutes and many GB, or was killed for memory.

use std::path::{Path, PathBuf};
use std::process::Command;

const RIG: &str = env!("CARGO_BIN_EXE_rig");

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A scratch store, removed when dropped.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A store under cargo's temp folder for tests with the repository's trusted
/// sources and the recorded `storage-limits/b5-size1`, so a check has a case.
fn store(test: &str) -> Scratch {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("rig-limits-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("cases/ops/regress")).unwrap();
    std::fs::create_dir_all(dir.join("snapshots")).unwrap();
    std::fs::copy(
        repo().join("cases/trusted-sources.toml"),
        dir.join("cases/trusted-sources.toml"),
    )
    .unwrap();
    let file = repo().join("cases/golden/storage-limits/b5-size1.json");
    let (code, out, err) = rig(&dir, &["import", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    Scratch(dir)
}

/// Runs rig in `dir`: (exit code, stdout, stderr).
fn rig(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(RIG)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The issue's reproducer: 140 bytes asking for a 2^26-value storage at 32
/// bits (256 MiB) and three lists of its 2^26 values (14 GB and 55 s when
/// `rig check` ran it to validate it).
const HUGE: &str = r#"{"name":"regress/huge-32bit","subject":{"kind":"storage","bits":32,"size":67108864},"ops":[{"op":"values"},{"op":"values"},{"op":"values"}]}"#;

/// One `values` of 2^26 numbers from a storage small enough to hold (5 GB
/// and 13 s before).
const WIDE: &str = r#"{"name":"regress/wide","subject":{"kind":"storage","bits":5,"size":67108864},"ops":[{"op":"get","index":0},{"op":"values"}]}"#;

#[test]
fn cases_past_a_limit_are_refused_unrun_naming_file_op_and_limit() {
    assert_eq!(HUGE.len(), 140);
    let dir = store("cases");
    let root = &dir.0;
    std::fs::write(root.join("cases/ops/regress/huge-32bit.json"), HUGE).unwrap();
    std::fs::write(root.join("cases/ops/regress/wide.json"), WIDE).unwrap();
    let huge =
        "cases/ops/regress/huge-32bit.json:1:40: subject: a 32-bit storage of 67108864 values \
                holds 33554432 longs, over the limit of 8388608 (2^23) longs in a storage \
                (PROTOCOL.md, \"Limits\"); nothing was run";
    let wide = "cases/ops/regress/wide.json:1:108: ops[1]: op `values` gives up to 67108864 \
                items, over the limit of 4194304 (2^22) items in one op's result \
                (PROTOCOL.md, \"Limits\"); nothing was run";
    // Awaiting recording, found by `rig check` or given to it.
    for args in [&["check"][..], &["check", "cases/ops/regress"][..]] {
        let (code, out, err) = rig(root, args);
        assert_eq!(code, 1, "{args:?}: {out}{err}");
        assert!(out.contains(huge), "{args:?}: {out}");
        assert!(out.contains(wide), "{args:?}: {out}");
    }
    // Every command that reads a case reads it so.
    for (args, says) in [
        (["repro", "regress/huge-32bit"], huge),
        (["repro", "cases/ops/regress/wide.json"], wide),
    ] {
        let (code, out, err) = rig(root, &args);
        assert_ne!(code, 0, "{args:?}: {out}{err}");
        assert!(err.contains(says), "{args:?}: {out}{err}");
    }
}

/// An adapter that shakes hands, then answers with bytes and no newline,
/// without end: the line is cut at the limit and the case failed for it.
#[test]
fn an_adapter_flooding_its_stdout_is_cut_at_the_answer_limit() {
    let dir = store("flood");
    let hello = r#"{"protocol":1,"implementation":"flood","version":"1","minecraft":"26.3","ops":{"storage":["load","get","set","get_and_set","fill","values","longs","bits","size"]}}"#;
    let script = dir.0.join("flood.sh");
    std::fs::write(
        &script,
        format!("echo '{hello}'\nread -r case\nyes | tr -d '\\n'\n"),
    )
    .unwrap();
    let command = format!("sh {}", script.display());
    let (code, out, err) = rig(&dir.0, &["check", "--executor", &command]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains(
            "the adapter wrote a line longer than 268435456 bytes, the limit of an answer line \
             (PROTOCOL.md, \"Limits\"); it was cut there and not read"
        ),
        "{out}{err}"
    );
    assert!(out.contains("storage-limits/b5-size1"), "{out}");
}
