//! `rig add`: validates, names and files a new regression case under
//! `cases/ops/regress/`.
//!
//! Results are truth only when recorded from Minecraft, so `add` takes
//! either a recording (golden format, whose `source` passes the provenance
//! gate, or which `rig shrink` derived from a recording in the store and
//! which holds that parent's results) and files its op list and snapshot,
//! or a bare op list, which it files with no snapshot: "awaiting
//! recording", not counted by `rig check` until a recording of it is
//! imported.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use harness::case::Case;
use harness::known::Known;
use harness::recorded::Recorded;
use harness::rust::RustExecutor;
use harness::store::{self, Store};
use harness::verdict::{judge, Verdict};

/// Arguments of `rig add`.
#[derive(clap::Args)]
pub struct Args {
    /// A recording (golden format, with results from Minecraft) or an op
    /// list (no results).
    pub case: PathBuf,
    /// The name under `regress/`; by default the file's name.
    #[arg(long)]
    pub name: Option<String>,
    /// Replace an existing regression case of that name (its ops, or its
    /// recorded results: without it, each result that would change is named).
    #[arg(long)]
    pub force: bool,
}

/// Who `add` says filed a recording.
const RECORDER: &str = "rig add of a golden-format recording";

/// Runs `rig add`.
pub fn run(args: Args) -> ExitCode {
    match add(&args) {
        Ok(message) => {
            println!("{message}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("rig add: {e}");
            ExitCode::FAILURE
        }
    }
}

fn add(args: &Args) -> Result<String, String> {
    let store = super::store();
    let text = store::read(&args.case).map_err(|e| e.to_string())?;
    let stem = args
        .case
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    let slug = slug(args.name.as_deref().unwrap_or(&stem));
    let name = format!("regress/{slug}");
    store::check_name(&name)?;
    let case_path = store.case_path(&name);
    let from = args.case.display().to_string();
    let recorded = if Recorded::has_results(&text) {
        let mut recorded = Recorded::parse(&text, &args.case).map_err(|e| e.to_string())?;
        let trusted = store.trusted().map_err(|e| e.to_string())?;
        let provenance = Store::provenance(&recorded, RECORDER, &from);
        if let Some(why) = store.gate(&trusted, &recorded.case, &recorded.results, &provenance) {
            return Err(format!("{from}: refused: {why}"));
        }
        recorded.case.name = name.clone();
        let derivation = harness::store::Derivation::of(&provenance).and_then(Result::ok);
        Some((recorded, derivation))
    } else {
        None
    };
    let case = match &recorded {
        Some((r, _)) => r.case.clone(),
        None => {
            let mut case = Case::parse(&text, &args.case).map_err(|e| e.to_string())?;
            case.name = name.clone();
            case
        }
    };
    // The same ops filed under another name would be counted twice.
    if let Some(other) = store.same_as(&case, &name) {
        let state = if other.snapshot.is_some() {
            "recorded"
        } else {
            "awaiting recording"
        };
        return Err(format!(
            "{from} has the same subject and ops as {} ({state}); nothing filed",
            other.name
        ));
    }
    if case_path.exists() && !args.force {
        let same = store::read(&case_path)
            .ok()
            .and_then(|t| Case::parse(&t, &case_path).ok())
            .is_some_and(|old| store::same_ops(&old, &case));
        if !same {
            return Err(format!(
                "{} exists (--name picks another name, --force replaces it)",
                store.relative(&case_path).display()
            ));
        }
    }
    runnable(&case, &args.case, &text)?;
    if let Some((recorded, provenance)) = recorded {
        let verdict = judge(
            &mut RustExecutor::new(),
            &recorded.case,
            &recorded.results,
            &Known::none(),
        );
        let filed = store.import(&recorded, RECORDER, &from, args.force)?;
        if filed.unchanged() {
            return Ok(format!(
                "{name} is already filed with these ops and results; nothing written"
            ));
        }
        let state = match verdict {
            Verdict::Passed => "the Rust containers match it".to_string(),
            Verdict::Failed(report) => format!(
                "the Rust containers diverge (fix them, or list it in {}):\n{report}replay: rig repro {name}",
                harness::known::PATH
            ),
            Verdict::Expected { .. } => unreachable!("no known divergences were given"),
            Verdict::Unsupported { .. } => unreachable!("the Rust containers answer every op"),
        };
        let derived = match &provenance {
            Some(d) => format!(
                ", a recording derived from {} (its ops {})",
                d.parent,
                super::shrink::indices(&d.ops)
            ),
            None => String::new(),
        };
        Ok(format!(
            "filed {} and {}{derived}; {state}",
            store.relative(&store.case_path(&name)).display(),
            store.relative(&store.snapshot_path(&name)).display()
        ))
    } else {
        let filed = store.put(&case, None, args.force)?;
        if filed.unchanged() {
            return Ok(format!(
                "{name} is already filed with these ops; nothing written"
            ));
        }
        Ok(format!(
            "filed {} awaiting recording: it has no results from Minecraft yet, so rig check does not count it; record it from a Minecraft jar with `rig record {} --minecraft JAR`",
            store.relative(&case_path).display(),
            store.relative(&case_path).display()
        ))
    }
}

/// A case must be one Minecraft's API can be given (`harness::valid`: no id
/// outside the registry, no int out of range), decided without running it.
/// The error names the file, and the line and column of the op at fault.
fn runnable(case: &Case, path: &Path, text: &str) -> Result<(), String> {
    harness::valid::check(case).map_err(|e| {
        let (offset, part) = match e.op() {
            Some(i) => (op_offset(text, i).unwrap_or(0), format!("ops[{i}]")),
            None => (0, String::new()),
        };
        harness::error::ParseError::at(path, text, offset, part, format!("not a valid case: {e}"))
            .to_string()
    })
}

/// Where op `i` starts in the file's text.
fn op_offset(text: &str, i: usize) -> Option<usize> {
    #[derive(serde::Deserialize)]
    struct Ops<'a> {
        #[serde(borrow)]
        ops: Vec<&'a serde_json::value::RawValue>,
    }
    let ops: Ops = serde_json::from_str(text).ok()?;
    let raw = ops.ops.get(i)?.get();
    (raw.as_ptr() as usize).checked_sub(text.as_ptr() as usize)
}

/// A file-name-safe name: letters, digits, `-`, `_`, `.`; others become `-`.
fn slug(s: &str) -> String {
    let s: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '-'
            }
        })
        .collect();
    let s = s.trim_matches(|c| c == '-' || c == '.').to_string();
    if s.is_empty() {
        "case".into()
    } else {
        s
    }
}
