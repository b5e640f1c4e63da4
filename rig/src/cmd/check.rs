//! `rig check`: every recorded case through the Rust containers (or, with
//! `--executor`, through an adapter), compared with the recorded results.
//! Quiet on success; the last line is `N passed, M failed` (`, K expected`
//! when known divergences are listed, `, U unsupported` for an adapter's
//! unsupported cases). Exit codes, for CI: 0 every case compared passed, 1 a
//! failure, 2 the run proved nothing (no case checked, none compared, an
//! adapter that cannot start, a report not written) or a usage error.
//! The first few failures are reported in full, the rest a line each
//! (`--full`: all in full, with whole diffs).

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
use harness::trusted::Trusted;
use harness::verdict::{judge_measured, Verdict};
use rayon::prelude::*;

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
    /// Exit 0 even when no case was checked, or none compared (every one
    /// unsupported by the adapter); by default that exits 2: a gate that
    /// compared nothing proves nothing.
    #[arg(long)]
    pub allow_empty: bool,
    /// Name the cases awaiting recording (by default only their count).
    #[arg(short, long)]
    pub verbose: bool,
    /// Report every failure in full, with whole results and diffs (by
    /// default the first few are in full, their lists cut to the first
    /// differences, and the rest a line each).
    #[arg(long)]
    pub full: bool,
    #[command(flatten)]
    pub adapter: super::adapter::AdapterArgs,
    #[command(flatten)]
    pub jobs: super::Jobs,
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
    /// The file the case came from (its op list or recording), for JUnit.
    pub(crate) file: String,
    /// Seconds the check took.
    pub(crate) seconds: f64,
    /// Unsupported ops that change no state, skipped.
    pub(crate) skipped: usize,
    /// Whether comparison ended early, at an unsupported state change, after
    /// some ops were compared.
    pub(crate) cut: bool,
    /// Run-dependent ops: recorded with every result seen, any of which passes.
    pub(crate) run_dependent: u32,
}

/// Runs `rig check`.
pub fn run(args: Args) -> ExitCode {
    args.jobs.install(|| run_in_pool(args))
}

fn run_in_pool(args: Args) -> ExitCode {
    let store = super::store_for(&args.paths);
    let started = std::time::SystemTime::now();
    let mut rows = Vec::new();
    let known = match Known::load(&store.known_path()) {
        Ok(k) => k,
        Err(mut e) => {
            e.path = store.relative(&e.path).to_path_buf();
            rows.push(failed(harness::known::PATH.into(), e.to_string()));
            Known::none()
        }
    };
    let trusted = match store.trusted() {
        Ok(t) => t,
        Err(mut e) => {
            e.path = store.relative(&e.path).to_path_buf();
            rows.push(failed(harness::trusted::PATH.into(), e.to_string()));
            Trusted::none()
        }
    };
    let mut shown = Shown::new(args.full);
    for row in &rows {
        if let Verdict::Failed(report) = &row.verdict {
            println!("{}", shown.next(report));
        }
    }
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
    let setup_rows = rows.len();
    let (items, awaiting) = collect(&store, &args.paths);
    let bar = progress(items.len());
    let mut names = std::collections::HashSet::new();
    // Cases are checked a batch at a time, in parallel on the Rust side (an adapter is
    // one process, so one case at a time there), and reported in input order.
    let batch = if adapter.is_some() {
        1
    } else {
        16 * rayon::current_num_threads()
    };
    let mut items = items.into_iter().peekable();
    while items.peek().is_some() {
        let batch: Vec<Item> = items.by_ref().take(batch).collect();
        let command = adapter.as_ref().map(|a| a.command().to_string());
        let timed = |exec: &mut dyn Executor, item| {
            let clock = std::time::Instant::now();
            let mut row = check_one(
                &store,
                exec,
                command.as_deref(),
                &known,
                &trusted,
                item,
                args.full,
            );
            row.seconds = clock.elapsed().as_secs_f64();
            row
        };
        let checked: Vec<Row> = match adapter.as_mut() {
            Some(a) => batch.into_iter().map(|item| timed(a, item)).collect(),
            None => batch
                .into_par_iter()
                .map(|item| timed(&mut RustExecutor::new(), item))
                .collect(),
        };
        for row in checked {
            if let Verdict::Failed(report) = &row.verdict {
                let shown = shown.next(report);
                bar.suspend(|| println!("{shown}"));
            }
            names.insert(row.name.clone());
            rows.push(row);
            bar.inc(1);
        }
        // A case found to have broken the protocol after it was judged (an
        // extra answer) fails, not the case whose answer the extra one took.
        for (name, why) in adapter
            .as_mut()
            .map(|a| a.take_late_failures())
            .unwrap_or_default()
        {
            if let Some(row) = rows.iter_mut().rev().find(|r| r.name == name) {
                let report = format!("case {name}: {why}\n");
                let line = shown.next(&report);
                bar.suspend(|| println!("{line}"));
                if !row.verdict.is_failure() {
                    row.verdict = Verdict::Failed(report);
                }
            }
        }
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
        let skipped: usize = rows.iter().map(|r| r.skipped).sum();
        let cut = rows.iter().filter(|r| r.cut).count();
        if skipped > 0 || cut > 0 {
            eprintln!(
                "rig check: {skipped} op(s) the adapter does not support that change no state were skipped; \
                 {cut} case(s) were compared only up to an unsupported op that changes state"
            );
        }
    }
    let checked = rows.len() - setup_rows;
    for mut e in known.unknown_cases(|name| names.contains(name) || store.case_path(name).is_file())
    {
        e.path = store.relative(&e.path).to_path_buf();
        println!("{}", shown.next(&format!("{e}\n")));
        rows.push(failed(harness::known::PATH.into(), e.to_string()));
    }
    warn_new_snapshots(&store);
    if let Some(note) = shown.note() {
        eprintln!("{note}");
    }

    for row in &rows {
        if let Verdict::Expected { reason, summary } = &row.verdict {
            println!("expected: {} ({summary}): {reason}", row.name);
        }
    }
    if !awaiting.is_empty() && args.verbose {
        eprintln!(
            "{} awaiting recording, not counted: {}",
            awaiting.len(),
            awaiting.join(", ")
        );
    } else if !awaiting.is_empty() {
        eprintln!(
            "{} awaiting recording, not counted (--verbose names them)",
            awaiting.len()
        );
    }
    // Counted apart: such an op agreed with one of several results, not with a fact.
    let run_dependent: usize = rows.iter().map(|r| r.run_dependent as usize).sum();
    if run_dependent > 0 {
        eprintln!(
            "{} (recorded with every result seen; any of them passes)",
            harness::compare::run_dependent_count(run_dependent)
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
        if let Err(e) = harness::atomic::write(path, junit(&rows, started)) {
            eprintln!("rig check: {e}");
            return ExitCode::from(2);
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
    // A gate that compared nothing proves nothing: exit 2, apart from a failure's 1.
    if checked == 0 && !args.allow_empty {
        let looked = if args.paths.is_empty() {
            format!(
                "{} (op lists with a snapshot in {})",
                store.root().join("cases/ops").display(),
                store.root().join("snapshots").display()
            )
        } else {
            args.paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        eprintln!("rig check: no case was checked: nothing recorded in {looked}; --allow-empty accepts that");
        return ExitCode::from(2);
    }
    if failed == 0 && passed == 0 && expected == 0 && checked > 0 && !args.allow_empty {
        eprintln!(
            "rig check: nothing compared: the adapter supports no op of the {checked} case(s) checked; --allow-empty accepts that"
        );
        return ExitCode::from(2);
    }
    if failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Failures reported in full before the rest are reported a line each.
pub(crate) const IN_FULL: usize = 5;

/// How failures are printed: the first [`IN_FULL`] in full (or all, with
/// `--full`), then one line each (the report's first line: case, op and
/// what failed), so a run of many failures stays readable.
pub(crate) struct Shown {
    full: bool,
    count: usize,
}

impl Shown {
    pub(crate) fn new(full: bool) -> Shown {
        Shown { full, count: 0 }
    }

    /// What to print for the next failure's `report`.
    pub(crate) fn next(&mut self, report: &str) -> String {
        self.count += 1;
        if self.full || self.count <= IN_FULL {
            return report.to_string();
        }
        let mut lines = report.lines();
        let mut line = lines.next().unwrap_or("").to_string();
        // A divergence's two results follow its first line: both, short.
        if line.contains(" diverges: ") {
            let results: Vec<String> = lines.take(2).map(|l| cut(l.trim(), 60)).collect();
            if let [recorded, actual] = &results[..] {
                if recorded.starts_with("recorded ") {
                    let squeeze = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
                    line = format!("{line}: {}; {}", squeeze(recorded), squeeze(actual));
                }
            }
        }
        cut(&line, 240)
    }

    /// The closing note when some failures were shortened.
    pub(crate) fn note(&self) -> Option<String> {
        (!self.full && self.count > IN_FULL).then(|| {
            format!(
                "rig check: {} failures; the first {IN_FULL} are shown in full, the rest a line each \
                 (`rig repro NAME` shows one in full, --full shows all)",
                self.count
            )
        })
    }
}

/// `s`, cut after `max` characters.
fn cut(s: &str, max: usize) -> String {
    if s.chars().count() > max {
        format!("{}…", s.chars().take(max).collect::<String>())
    } else {
        s.to_string()
    }
}

/// `.snap.new` files are what the insta test leaves when a case diverges:
/// Rust results, never truth. They are easy to forget, so say so.
fn warn_new_snapshots(store: &Store) {
    for path in store.pending_snapshots() {
        let shown = store.relative(&path).display().to_string();
        let name = shown
            .trim_start_matches("snapshots/")
            .trim_end_matches(".snap.new");
        eprintln!(
            "warning: {shown}: left by the insta test (the Rust results of a diverging case, not a recording); \
             compare with `rig repro {name}`, fix the Rust code, then delete it; never accept it (PROTOCOL.md)"
        );
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
/// Files are read and sorted in parallel, the results kept in input order.
pub(crate) fn collect(store: &Store, paths: &[PathBuf]) -> (Vec<Item>, Vec<String>) {
    let mut items = Vec::new();
    let mut awaiting = Vec::new();
    let mut sort = |sorted: Vec<Sorted>| {
        for s in sorted {
            match s {
                Sorted::Check(item) => items.push(item),
                Sorted::Awaiting(name) => awaiting.push(name),
            }
        }
    };
    if paths.is_empty() {
        let sorted = store
            .entries()
            .into_par_iter()
            .map(|entry| match entry.snapshot {
                Some(snapshot) => Sorted::Check(Item::WithSnapshot {
                    case: entry.case,
                    snapshot,
                }),
                None => match awaiting_case(store, &entry.case) {
                    Ok(name) => Sorted::Awaiting(name),
                    Err(error) => Sorted::Check(Item::Broken {
                        name: entry.name,
                        error,
                    }),
                },
            })
            .collect();
        sort(sorted);
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
            sort(vec![Sorted::Check(Item::Broken {
                error: format!("{shown}: no such file or folder\n"),
                name: shown,
            })]);
            continue;
        }
        let sorted = store::json_files(path)
            .into_par_iter()
            .map(|file| sort_file(store, file))
            .collect();
        sort(sorted);
    }
    (items, awaiting)
}

/// Where a file given to `rig check` goes.
enum Sorted {
    Check(Item),
    /// The name of an op list awaiting recording.
    Awaiting(String),
}

/// Sorts one file given to `rig check`.
fn sort_file(store: &Store, file: PathBuf) -> Sorted {
    let text = match store::read(&file) {
        Ok(text) => text,
        Err(e) => {
            return Sorted::Check(Item::Broken {
                name: file.display().to_string(),
                error: format!("{e}\n"),
            })
        }
    };
    if Recorded::has_results(&text) {
        return Sorted::Check(Item::Recording(file));
    }
    match Case::parse(&text, &file) {
        Ok(case) => {
            let snapshot = store.snapshot_path(&case.name);
            if snapshot.is_file() {
                Sorted::Check(Item::WithSnapshot {
                    case: file,
                    snapshot,
                })
            } else {
                match awaiting_case(store, &file) {
                    Ok(name) => Sorted::Awaiting(name),
                    Err(error) => Sorted::Check(Item::Broken {
                        name: case.name,
                        error,
                    }),
                }
            }
        }
        Err(e) => Sorted::Check(Item::Broken {
            name: file.display().to_string(),
            error: format!("{e}\n"),
        }),
    }
}

/// An op list awaiting recording must still be a case Minecraft can be
/// given: it parses within the limits, and it is valid (no value above the
/// registry, no int out of range). Checked from the case alone: no op is
/// run. Gives its name, or the report of what is wrong.
fn awaiting_case(store: &Store, path: &std::path::Path) -> Result<String, String> {
    let shown = store.relative(path);
    let case = store::read(path)
        .and_then(|t| Case::parse(&t, shown))
        .map_err(|e| format!("{e}\n"))?;
    match harness::valid::check(&case) {
        Err(e) => {
            let op = e
                .op()
                .map(|i| format!(" ({})", case.ops.text(i)))
                .unwrap_or_default();
            Err(format!(
                "{}: awaiting recording, but not a valid case: {e}{op}\n",
                shown.display()
            ))
        }
        Ok(()) => Ok(case.name),
    }
}

fn failed(name: String, error: String) -> Row {
    Row {
        file: name.clone(),
        name,
        verdict: Verdict::Failed(format!("{error}\n")),
        seconds: 0.0,
        skipped: 0,
        cut: false,
        run_dependent: 0,
    }
}

/// `command`: the adapter's, if `exec` is one, for the replay line.
fn check_one(
    store: &Store,
    exec: &mut dyn Executor,
    command: Option<&str>,
    known: &Known,
    trusted: &Trusted,
    item: Item,
    full: bool,
) -> Row {
    let Loaded {
        case,
        results,
        file,
        replay,
    } = match load(store, trusted, item) {
        Ok(x) => x,
        Err(row) => return row,
    };
    let (verdict, counts) = judge_measured(exec, &case, &results, known, full);
    let run_dependent =
        u32::try_from(harness::compare::run_dependent_ops(&results)).unwrap_or(u32::MAX);
    let verdict = match verdict {
        Verdict::Failed(report) => {
            // The replay line ends with `rig repro CASE`; an adapter's failure replays on it.
            let executor = command
                .map(|c| format!(" --executor {}", super::adapter::shell_quote(c)))
                .unwrap_or_default();
            Verdict::Failed(format!("{report}{replay}{executor}\n"))
        }
        v => v,
    };
    Row {
        name: case.name,
        verdict,
        file,
        seconds: 0.0,
        skipped: counts.skipped,
        cut: counts.ended.is_some() && counts.compared > 0,
        run_dependent,
    }
}

/// A case to check, with its recorded results, the file it came from and
/// the lines that say how to replay it.
pub(crate) struct Loaded {
    pub(crate) case: Case,
    pub(crate) results: Vec<Outcome>,
    file: String,
    replay: String,
}

/// The case and its recorded results, or the failed row saying why not
/// (malformed, refused by the provenance gate, miscounted).
pub(crate) fn load(store: &Store, trusted: &Trusted, item: Item) -> Result<Loaded, Row> {
    let failed = |name, error| Err(failed(name, error));
    let file;
    let replay;
    let (case, results): (Case, Vec<Outcome>) = match item {
        Item::Broken { name, error } => {
            return Err(Row {
                file: name.clone(),
                name,
                verdict: Verdict::Failed(error),
                seconds: 0.0,
                skipped: 0,
                cut: false,
                run_dependent: 0,
            })
        }
        Item::Recording(path) => {
            let shown = store.relative(&path).to_path_buf();
            file = shown.display().to_string();
            replay = format!("recording: {file}\nreplay: rig repro {}", path.display());
            let parsed = store::read(&path).and_then(|t| Recorded::parse(&t, &shown));
            match parsed {
                Ok(r) => {
                    let provenance = Store::provenance(&r, "recording given to rig check", "");
                    if let Some(why) = store.gate(trusted, &r.case, &r.results, &provenance) {
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
            file = case_shown.display().to_string();
            let case = match store::read(&case).and_then(|t| Case::parse(&t, &case_shown)) {
                Ok(c) => c,
                Err(e) => return failed(case_shown.display().to_string(), e.to_string()),
            };
            let snap = match store::read(&snapshot).and_then(|t| Snapshot::parse(&t, &snap_shown)) {
                Ok(s) => s,
                Err(e) => return failed(case.name, e.to_string()),
            };
            replay = format!(
                "snapshot: {}\nreplay: rig repro {}",
                snap_shown.display(),
                case.name
            );
            // A derived snapshot is checked against its parent's recorded results.
            if let Some(why) = store.gate(trusted, &case, &snap.results, &snap.provenance) {
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
    Ok(Loaded {
        case,
        results,
        file,
        replay,
    })
}

/// The verdicts as JUnit XML: one test case per case, named by its full
/// path; known divergences are skipped with their reason.
fn junit(rows: &[Row], started: std::time::SystemTime) -> String {
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
    let total: f64 = rows.iter().map(|r| r.seconds).sum();
    let mut s = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    s.push_str(&format!(
        "<testsuites><testsuite name=\"rig check\" tests=\"{}\" failures=\"{failures}\" skipped=\"{skipped}\" time=\"{total:.6}\" timestamp=\"{}\">\n",
        rows.len(),
        timestamp(started)
    ));
    for row in rows {
        let class = row
            .name
            .rsplit_once('/')
            .map_or("cases", |(family, _)| family);
        s.push_str(&format!(
            "  <testcase classname=\"{}\" name=\"{}\" file=\"{}\" time=\"{:.6}\"",
            xml(class),
            xml(&row.name),
            xml(&row.file),
            row.seconds
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

/// `YYYY-MM-DDTHH:MM:SS` (UTC), as JUnit's `timestamp` wants it.
fn timestamp(t: std::time::SystemTime) -> String {
    let secs = t
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Howard Hinnant's days-to-civil.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
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
