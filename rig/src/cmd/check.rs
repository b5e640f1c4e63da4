//! `rig check`: every recorded case through the Rust containers (or, with
//! `--executor`, through an adapter), compared with the recorded results.
//! Quiet on success; the last line is `N passed, M failed` (`, K expected`
//! when known divergences are listed, `, U unsupported` for an adapter's
//! unsupported cases).

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use harness::case::Case;
use harness::exec::Executor;
use harness::known::Known;
use harness::outcome::Outcome;
use harness::recorded::Recorded;
use harness::rust::RustExecutor;
use harness::snapshot::Snapshot;
use harness::store::{self, Store};
use harness::verdict::{judge, Verdict};

/// Arguments of `rig check`.
#[derive(clap::Args, Default)]
pub struct Args {
    /// Case files or folders: recordings (golden format) are checked against
    /// their own results, op lists against their snapshots. By default every
    /// case in `cases/ops` that has a snapshot.
    pub paths: Vec<PathBuf>,
    /// Also write the verdicts as JUnit XML to this file.
    #[arg(long)]
    pub junit: Option<PathBuf>,
    #[command(flatten)]
    pub adapter: super::adapter::AdapterArgs,
}

/// What to check: a recording, or an op list with its snapshot.
pub(crate) enum Item {
    Recording(PathBuf),
    WithSnapshot {
        case: PathBuf,
        snapshot: PathBuf,
    },
    /// A file found to be malformed while sorting the inputs.
    Broken {
        name: String,
        error: String,
    },
}

/// One case's outcome, for the summary and JUnit.
pub(crate) struct Row {
    pub(crate) name: String,
    pub(crate) verdict: Verdict,
}

/// Runs `rig check`.
pub fn run(args: Args) -> ExitCode {
    let store = Store::find();
    let mut rows = Vec::new();
    let known = match Known::load(&store.known_path()) {
        Ok(k) => k,
        Err(e) => {
            rows.push(Row {
                name: harness::known::PATH.into(),
                verdict: Verdict::Failed(format!("{e}\n")),
            });
            Known::none()
        }
    };
    let mut adapter = match args.adapter.start() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("rig check: {e}");
            return ExitCode::from(2);
        }
    };
    // The known divergences are paletted's: they hold for an adapter only
    // when it is paletted itself.
    let known = if super::adapter::is_paletted(adapter.as_ref()) {
        known
    } else {
        Known::none()
    };
    let (items, awaiting) = collect(&store, &args.paths);
    let bar = progress(items.len());
    let mut rust = RustExecutor::new();
    for item in items {
        let exec: &mut dyn Executor = match adapter.as_mut() {
            Some(a) => a,
            None => &mut rust,
        };
        let row = check_one(&store, exec, &known, item);
        if let Verdict::Failed(report) = &row.verdict {
            bar.suspend(|| println!("{report}"));
        }
        rows.push(row);
        bar.inc(1);
        if let Some(why) = adapter.as_ref().and_then(|a| a.unusable()) {
            bar.finish_and_clear();
            eprintln!("rig check: {why}");
            return ExitCode::from(2);
        }
    }
    bar.finish_and_clear();
    if let Some(a) = adapter.as_mut() {
        if a.restarts > 0 {
            eprintln!(
                "rig check: the adapter was restarted {} time(s), each after the case reported above",
                a.restarts
            );
        }
        if let Err(e) = a.finish() {
            eprintln!("rig check: warning: {e}");
        }
    }

    for row in &rows {
        if let Verdict::Expected { reason, summary } = &row.verdict {
            println!("expected: {} ({summary}): {reason}", row.name);
        }
    }
    if !awaiting.is_empty() {
        eprintln!(
            "{} case(s) await recording and are not counted: {}",
            awaiting.len(),
            awaiting.join(", ")
        );
    }
    let passed = rows.iter().filter(|r| r.verdict == Verdict::Passed).count();
    let failed = rows.iter().filter(|r| r.verdict.is_failure()).count();
    let unsupported = rows
        .iter()
        .filter(|r| matches!(r.verdict, Verdict::Unsupported { .. }))
        .count();
    let expected = rows.len() - passed - failed - unsupported;
    if let Some(path) = &args.junit {
        if let Err(e) = std::fs::write(path, junit(&rows)) {
            eprintln!("rig check: cannot write {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    }
    let unsupported = if unsupported > 0 {
        format!(", {unsupported} unsupported")
    } else {
        String::new()
    };
    if known.is_empty() && expected == 0 {
        println!("{passed} passed, {failed} failed{unsupported}");
    } else {
        println!("{passed} passed, {failed} failed, {expected} expected{unsupported}");
    }
    if failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn progress(n: usize) -> indicatif::ProgressBar {
    if std::io::stderr().is_terminal() && n > 20 {
        let bar = indicatif::ProgressBar::new(n as u64);
        if let Ok(style) = indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} {msg}") {
            bar.set_style(style);
        }
        bar
    } else {
        indicatif::ProgressBar::hidden()
    }
}

/// The items to check, and the names of op lists with no snapshot yet.
pub(crate) fn collect(store: &Store, paths: &[PathBuf]) -> (Vec<Item>, Vec<String>) {
    let mut items = Vec::new();
    let mut awaiting = Vec::new();
    if paths.is_empty() {
        for entry in store.entries() {
            match entry.snapshot {
                Some(snapshot) => items.push(Item::WithSnapshot {
                    case: entry.case,
                    snapshot,
                }),
                None => awaiting.push(entry.name),
            }
        }
        for orphan in store.orphan_snapshots() {
            let shown = store.relative(&orphan).display().to_string();
            items.push(Item::Broken {
                error: format!("{shown}: a snapshot with no op list in cases/ops\n"),
                name: shown,
            });
        }
        return (items, awaiting);
    }
    for path in paths {
        if !path.exists() {
            let shown = path.display().to_string();
            items.push(Item::Broken {
                error: format!("{shown}: no such file or folder\n"),
                name: shown,
            });
            continue;
        }
        for file in store::json_files(path) {
            let text = std::fs::read_to_string(&file).unwrap_or_default();
            if Recorded::has_results(&text) {
                items.push(Item::Recording(file));
                continue;
            }
            match Case::parse(&text, &file) {
                Ok(case) => {
                    let snapshot = store.snapshot_path(&case.name);
                    if snapshot.is_file() {
                        items.push(Item::WithSnapshot {
                            case: file,
                            snapshot,
                        });
                    } else {
                        awaiting.push(case.name);
                    }
                }
                Err(e) => items.push(Item::Broken {
                    name: file.display().to_string(),
                    error: format!("{e}\n"),
                }),
            }
        }
    }
    (items, awaiting)
}

fn failed(name: String, error: String) -> Row {
    Row {
        name,
        verdict: Verdict::Failed(format!("{error}\n")),
    }
}

fn check_one(store: &Store, exec: &mut dyn Executor, known: &Known, item: Item) -> Row {
    let (case, results) = match load(store, item) {
        Ok(x) => x,
        Err(row) => return row,
    };
    let verdict = judge(exec, &case, &results, known);
    Row {
        name: case.name,
        verdict,
    }
}

/// The case and its recorded results, or the failed row saying why not
/// (malformed, refused by the provenance gate, miscounted).
pub(crate) fn load(store: &Store, item: Item) -> Result<(Case, Vec<Outcome>), Row> {
    let failed = |name, error| Err(failed(name, error));
    let (case, results): (Case, Vec<Outcome>) = match item {
        Item::Broken { name, error } => {
            return Err(Row {
                name,
                verdict: Verdict::Failed(error),
            })
        }
        Item::Recording(path) => {
            let shown = store.relative(&path).to_path_buf();
            let parsed = store::read(&path).and_then(|t| Recorded::parse(&t, &shown));
            match parsed {
                Ok(r) => {
                    let provenance = Store::provenance(&r, "recording given to rig check", "");
                    if let Some(why) = provenance.refusal() {
                        return failed(r.case.name, format!("{}: refused: {why}", shown.display()));
                    }
                    (r.case, r.results)
                }
                Err(e) => return failed(shown.display().to_string(), e.to_string()),
            }
        }
        Item::WithSnapshot { case, snapshot } => {
            let case_shown = store.relative(&case).to_path_buf();
            let snap_shown = store.relative(&snapshot).to_path_buf();
            let case = match store::read(&case).and_then(|t| Case::parse(&t, &case_shown)) {
                Ok(c) => c,
                Err(e) => return failed(case_shown.display().to_string(), e.to_string()),
            };
            let snap = match store::read(&snapshot).and_then(|t| Snapshot::parse(&t, &snap_shown)) {
                Ok(s) => s,
                Err(e) => return failed(case.name, e.to_string()),
            };
            if let Some(why) = snap.provenance.refusal() {
                return failed(
                    case.name,
                    format!("{}: refused: {why}", snap_shown.display()),
                );
            }
            if snap.results.len() != case.ops.len() {
                let msg = format!(
                    "{}: {} results for the {} ops of {}",
                    snap_shown.display(),
                    snap.results.len(),
                    case.ops.len(),
                    case_shown.display()
                );
                return failed(case.name, msg);
            }
            (case, snap.results)
        }
    };
    Ok((case, results))
}

/// The verdicts as JUnit XML: one test case per case; known divergences
/// are skipped with their reason.
fn junit(rows: &[Row]) -> String {
    let failures = rows.iter().filter(|r| r.verdict.is_failure()).count();
    let skipped = rows
        .iter()
        .filter(|r| {
            matches!(
                r.verdict,
                Verdict::Expected { .. } | Verdict::Unsupported { .. }
            )
        })
        .count();
    let mut s = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    s.push_str(&format!(
        "<testsuites><testsuite name=\"rig check\" tests=\"{}\" failures=\"{failures}\" skipped=\"{skipped}\">\n",
        rows.len()
    ));
    for row in rows {
        let (class, name) = match row.name.rsplit_once('/') {
            Some((family, rest)) => (family, rest),
            None => ("cases", row.name.as_str()),
        };
        s.push_str(&format!(
            "  <testcase classname=\"{}\" name=\"{}\"",
            xml(class),
            xml(name)
        ));
        match &row.verdict {
            Verdict::Passed => s.push_str("/>\n"),
            Verdict::Failed(report) => {
                let first = report.lines().next().unwrap_or("");
                s.push_str(&format!(
                    "><failure message=\"{}\">{}</failure></testcase>\n",
                    xml(first),
                    xml(report)
                ));
            }
            Verdict::Expected { reason, summary } => s.push_str(&format!(
                "><skipped message=\"known divergence ({}): {}\"/></testcase>\n",
                xml(summary),
                xml(reason)
            )),
            Verdict::Unsupported { summary } => s.push_str(&format!(
                "><skipped message=\"unsupported ({})\"/></testcase>\n",
                xml(summary)
            )),
        }
    }
    s.push_str("</testsuite></testsuites>\n");
    s
}

/// Escapes text for XML attributes and content, dropping characters XML 1.0
/// cannot hold.
fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' | '\t' | '\r' => out.push(c),
            c if (c as u32) < 0x20 => {}
            c => out.push(c),
        }
    }
    out
}
