//! The executor holds the strict API (the calls users make: `get`, `set`,
//! `read`, `counts`, ...) to the Minecraft-exact results op by op: a bug
//! planted in a strict fast path fails the cases that reach it, naming the
//! entry point, while the exact results alone would still pass.

use std::path::{Path, PathBuf};

use harness::case::ContainerOp;
use harness::compare::matches;
use harness::exec::{ExecError, Executor};
use harness::outcome::Outcome;
use harness::recorded::Recorded;
use harness::rust::RustExecutor;
use paletted::{PaletteKind, PalettedContainer};
use serde_json::Value;

fn golden_files() -> Vec<PathBuf> {
    let mut files =
        harness::store::json_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../cases/golden"));
    files.sort();
    files
}

/// Where the plant bites: a strict `get` in the upper half of a 4-bit
/// linear section answers the next palette entry, as a nibble fast path
/// that read the wrong half of a byte would.
fn bites(c: &PalettedContainer, op: &ContainerOp) -> Option<u32> {
    let &ContainerOp::Get { x, y, z } = op else {
        return None;
    };
    let i = c.strategy().java_index(x, y, z);
    let palette = c.try_palette().ok()?;
    let inside = (2048..c.strategy().size() as i64).contains(&i);
    if !inside || c.bits() != 4 || c.palette_kind() != PaletteKind::Linear || palette.len() < 2 {
        return None;
    }
    let id = c.storage().get(i as usize) as usize;
    palette.get((id + 1) % palette.len()).copied()
}

/// Results equal by the comparison rules (third-party messages by class).
fn agrees(actual: &[Outcome], recorded: &[Outcome]) -> bool {
    actual.len() == recorded.len() && recorded.iter().zip(actual).all(|(r, a)| matches(r, a))
}

fn plant(c: &PalettedContainer, op: &ContainerOp, v: &mut Value) {
    if let Some(wrong) = bites(c, op) {
        *v = wrong.into();
    }
}

#[test]
fn a_planted_strict_fast_path_bug_fails_the_cases_that_reach_it() {
    let (mut caught, mut clean) = (Vec::new(), 0);
    for path in golden_files() {
        let text = std::fs::read_to_string(&path).unwrap();
        let recorded = Recorded::parse(&text, &path).unwrap();
        // Unplanted, every recorded case runs and matches (golden.rs).
        let honest = RustExecutor::new().run(&recorded.case).unwrap();
        assert!(agrees(&honest, &recorded.results), "{}", path.display());
        match RustExecutor::with_strict_plant(plant).run(&recorded.case) {
            Ok(results) => {
                // The exact results are untouched by the plant.
                assert_eq!(results, honest);
                clean += 1;
            }
            Err(ExecError::Internal { op, message }) => {
                let op = op.expect("the failing op is named");
                assert!(
                    message.starts_with("the strict call") && message.contains("get ("),
                    "{message}"
                );
                assert_eq!(recorded.case.ops.kind(op), "get", "{message}");
                caught.push(recorded.case.name.clone());
            }
            Err(e) => panic!("{}: {e}", path.display()),
        }
    }
    // The random, read and unpack families get in the upper half of 4-bit
    // linear sections; the plant must be seen there.
    assert!(
        caught.len() >= 20,
        "only {} caught: {caught:?}",
        caught.len()
    );
    assert!(clean > 0);
    assert!(
        caught.iter().any(|n| n.starts_with("random/")),
        "{caught:?}"
    );
}
