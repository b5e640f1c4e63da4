//! `rig conformance`: one or more adapters over the recorded set, and the report: per
//! implementation and family, cases passed, failed and unsupported, ops compared and ops
//! skipped (unsupported ops that change no state; comparison goes on past them); per kind
//! of first divergence (op kind and result classes), one minimal repro with both results.
//! Above them, the behaviour grid ([`super::grid`]): a row per behaviour, a column per
//! implementation, each case's ops assigned to behaviours by [`super::behaviour`].
//!
//! A repro is shrunk against the recorded results first (the prefix ending at the divergence,
//! less the ops before it that only observe, so every kept result is still the recorded
//! one). Then it is shrunk further with the Rust containers standing in for Minecraft (they
//! pass the recorded case it came from, which is checked); the further cut is used only when
//! it is smaller, and the report says whose results it shows.
//!
//! Each implementation is measured against the truth of the version its handshake names
//! (`minecraft`): the recorded cases of that version's rules and, for a version before 26.x,
//! the containers vanilla servers sent in chunk packets ([`crate::packets`]), which are the
//! only truth there until recordings of that version come back. The Markdown holds nothing
//! that changes between runs (no timings; a date only with `--date`), so CI can regenerate
//! and diff it.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use harness::adapter::AdapterExecutor;
use harness::case::Case;
use harness::compare::{compare, measure, Comparison};
use harness::exec::Executor;
use harness::outcome::Outcome;
use harness::rust::RustExecutor;
use serde_json::{json, Value};

use super::adapter::start_adapter;
use super::behaviour::{self, Behaviour};
use super::check;
use super::grid::{self, Grid};

/// Arguments of `rig conformance`.
#[derive(clap::Args)]
pub struct Args {
    /// Case files or folders, as `rig check` takes them (default: every case in cases/ops
    /// that has a snapshot).
    pub paths: Vec<PathBuf>,
    /// An implementation to run: NAME=CMD, CMD an adapter run with `sh -c` (repeatable).
    #[arg(long = "executor", value_name = "NAME=CMD", required = true)]
    pub executors: Vec<String>,
    /// Write the Markdown report here (otherwise it is printed).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Write the report as JSON here.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// With --out: put the per-family tables, repros and failing cases in this Markdown file,
    /// which the grid links to, so the page opened first stays short (otherwise they follow
    /// the grid in --out).
    #[arg(long, value_name = "FILE", requires = "out")]
    pub details: Option<PathBuf>,
    /// Write the report as one static HTML page here: the grid, and a drill-down per
    /// implementation and behaviour with the failing cases and their replay commands.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// With --out: do not write, fail (exit 1) if --out, --details or --html differs from
    /// the report.
    #[arg(long, requires = "out")]
    pub check: bool,
    /// The date to state in the report (none by default, so that it is the same each run).
    #[arg(long)]
    pub date: Option<String>,
    /// Seconds one case may take in an adapter before it is killed and restarted.
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    pub case_timeout: f64,
    /// A Markdown file of findings in prose, put after the summary table (its text as it is).
    #[arg(long, value_name = "FILE")]
    pub findings: Option<PathBuf>,
    /// Implementations run at once, each on its own adapter process (default: the available
    /// cores). The report is the same for every N.
    #[arg(short = 'j', long, value_name = "N")]
    pub jobs: Option<std::num::NonZeroUsize>,
    /// The captured packets (`minecraft-packets`' `data/pc`), truth for implementations of a
    /// version before 26.x (default: where `tests/packets/install` puts them in the cases'
    /// checkout).
    #[arg(long, value_name = "DIR")]
    pub packets: Option<PathBuf>,
}

/// A case and its results, from one truth.
struct Recorded {
    case: Case,
    results: Vec<Outcome>,
    truth: Truth,
}

/// Where a case's results come from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Truth {
    /// Recorded from Minecraft's classes (the recorded set).
    Recorded,
    /// What a vanilla server sent in a chunk packet.
    Packets,
}

impl Truth {
    /// Its name in a repro (`Repro::from`).
    fn name(self) -> &'static str {
        match self {
            Truth::Recorded => "recorded",
            Truth::Packets => "packets",
        }
    }
}

/// The rules of a version an adapter names: a named version's, or, for another release
/// (26.3.1, 1.21.12), the run of releases it falls in; `None` before 1.18.
fn rules_of(name: &str) -> Option<paletted::Rules> {
    use paletted::Rules;
    if let Some(v) = paletted::Version::named(name) {
        return Some(v.rules());
    }
    let parts: Vec<u32> = name
        .split('.')
        .map(str::parse)
        .collect::<Result<_, _>>()
        .ok()?;
    let release = (
        parts.first().copied()?,
        parts.get(1).copied().unwrap_or(0),
        parts.get(2).copied().unwrap_or(0),
    );
    match release {
        (27.., _, _) | (26, 3.., _) => Some(Rules::V26_3),
        (26, _, _) => Some(Rules::V26_1),
        (1, 18, _) | (1, 19, _) | (1, 20, 0..=1) => Some(Rules::V1_18_2),
        (1, 20, 2..) | (1, 21, 0..=4) => Some(Rules::V1_20_2),
        (1, 21, 5..=8) => Some(Rules::V1_21_5),
        (1, 21, 9..) => Some(Rules::V1_21_9),
        _ => None,
    }
}

/// The cases of `set` an implementation of `minecraft` is measured on, and what they are, in
/// words: the recordings of its version's rules, and before 26.x the packets too (whose two
/// ops, `read` and `write`, behave alike in every version with the long count).
fn truth_for(set: &[Recorded], minecraft: &str) -> Result<(Vec<usize>, String), String> {
    use paletted::Rules;
    let rules = rules_of(minecraft).ok_or_else(|| {
        format!("its handshake names Minecraft {minecraft:?}, a version whose rules the rig does not know")
    })?;
    let old = rules.long_count();
    let chosen: Vec<usize> = (0..set.len())
        .filter(|&i| match set[i].truth {
            // 26.1's rules differ from 26.3's only in `fill`, which a 26.1 implementation
            // leaves unsupported: with no 26.1 recordings yet, 26.x meets 26.3's.
            Truth::Recorded => {
                let at = set[i].case.subject.version().rules();
                at == rules || (at >= Rules::V26_1 && rules >= Rules::V26_1)
            }
            Truth::Packets => old,
        })
        .collect();
    // How many cases of a truth were chosen, and the versions they are of.
    let of = |t: Truth| {
        let cases: Vec<usize> = chosen
            .iter()
            .copied()
            .filter(|&i| set[i].truth == t)
            .collect();
        let versions: BTreeSet<&str> = cases
            .iter()
            .map(|&i| set[i].case.subject.version().name())
            .collect();
        (
            cases.len(),
            versions.into_iter().collect::<Vec<_>>().join(", "),
        )
    };
    let mut said = Vec::new();
    if let (n @ 1.., versions) = of(Truth::Recorded) {
        said.push(format!("{n} recorded at {versions}"));
    }
    if let (n @ 1.., versions) = of(Truth::Packets) {
        said.push(format!(
            "{n} containers from vanilla {versions} chunk packets"
        ));
    }
    if chosen.is_empty() {
        let why = if old {
            "no recordings of its rules and no packets (run tests/packets/install, or give --packets)"
        } else {
            "no recordings of its rules"
        };
        return Err(format!(
            "nothing to measure it against at {minecraft} ({}): {why}",
            rules.span()
        ));
    }
    Ok((chosen, said.join("; ")))
}

/// Counts for one family (or all).
#[derive(Default, Clone)]
struct Tally {
    cases: usize,
    passed: usize,
    failed: usize,
    unsupported: usize,
    /// Ops compared.
    ops: usize,
    /// Unsupported ops that change no state, skipped.
    skipped: usize,
}

impl Tally {
    fn to_json(&self) -> Value {
        json!({"cases": self.cases, "passed": self.passed, "failed": self.failed,
               "unsupported": self.unsupported, "ops_compared": self.ops,
               "ops_skipped": self.skipped})
    }

    fn add(&mut self, t: &Tally) {
        self.cases += t.cases;
        self.passed += t.passed;
        self.failed += t.failed;
        self.unsupported += t.unsupported;
        self.ops += t.ops;
        self.skipped += t.skipped;
    }
}

/// One kind of first divergence, and its smallest case.
struct Kind {
    cases: usize,
    /// Index of the smallest case in the recorded set.
    smallest: usize,
    /// The diverging op there.
    op: usize,
}

/// The minimal repro of a kind.
struct Repro {
    case: Case,
    op: usize,
    expected: Outcome,
    actual: Option<Outcome>,
    /// `recorded` or `paletted`.
    from: &'static str,
    original: String,
    original_ops: usize,
}

struct Report {
    name: String,
    command: String,
    handshake: harness::adapter::Handshake,
    families: BTreeMap<String, Tally>,
    total: Tally,
    kinds: BTreeMap<String, Kind>,
    repros: BTreeMap<String, Repro>,
    /// Cases that could not run, by reason's first line.
    not_run: Vec<(String, String)>,
    unsupported: BTreeMap<String, usize>,
    restarts: usize,
    /// Per case of the set: the behaviours measured and those failed (none for a case of
    /// another truth).
    behaviours: Vec<CaseGrid>,
    /// What it was measured against, in words.
    truth: String,
}

/// One case's part of the grid, on one implementation.
#[derive(Default, Clone)]
struct CaseGrid {
    measured: BTreeSet<Behaviour>,
    failed: BTreeSet<Behaviour>,
}

/// Runs `rig conformance`.
pub fn run(args: Args) -> ExitCode {
    match conformance(&args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("rig conformance: {e}");
            ExitCode::from(2)
        }
    }
}

fn conformance(args: &Args) -> Result<ExitCode, String> {
    let store = super::store_for(&args.paths);
    let trusted = store.trusted().map_err(|e| e.to_string())?;
    let (items, _awaiting) = check::collect(&store, &args.paths);
    let mut set = Vec::new();
    for item in items {
        match check::load(&store, &trusted, item) {
            Ok(check::Loaded { case, results, .. }) => set.push(Recorded {
                case,
                results,
                truth: Truth::Recorded,
            }),
            Err(row) => {
                if let harness::verdict::Verdict::Failed(why) = row.verdict {
                    return Err(format!("the recorded set is not sound: {why}"));
                }
            }
        }
    }
    if set.is_empty() {
        return Err("no recorded cases to run".into());
    }
    let recorded = set.len();
    let packets = args
        .packets
        .clone()
        .unwrap_or_else(|| store.root().join(crate::packets::CAPTURES));
    // Loaded when there: only an implementation of an older version needs them, and says so.
    if args.packets.is_some() || packets.is_dir() {
        for p in crate::packets::cases(&packets)? {
            set.push(Recorded {
                case: p.case,
                results: p.results,
                truth: Truth::Packets,
            });
        }
    }
    let mut specs = Vec::new();
    for spec in &args.executors {
        let (name, command) = spec
            .split_once('=')
            .filter(|(n, c)| !n.is_empty() && !c.is_empty())
            .ok_or_else(|| format!("--executor {spec:?}: give NAME=CMD"))?;
        specs.push((name, command));
    }
    let jobs = args
        .jobs
        .map_or_else(
            || std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get),
            std::num::NonZeroUsize::get,
        )
        .min(specs.len());
    let behaviours: Vec<Vec<BTreeSet<Behaviour>>> =
        set.iter().map(|r| behaviour::of_ops(&r.case)).collect();
    let reports = in_parallel(&specs, jobs, |&(name, command)| {
        let adapter = start_adapter(command, args.case_timeout)?;
        let (chosen, truth) =
            truth_for(&set, &adapter.handshake().minecraft).map_err(|e| format!("{name}: {e}"))?;
        run_one(name, adapter, &set, &chosen, truth, &behaviours)
    })
    .into_iter()
    .collect::<Result<Vec<_>, String>>()?;
    let findings = match &args.findings {
        Some(path) => Some(
            std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?,
        ),
        None => None,
    };
    let grid = grid_of(&reports, &set, &behaviours);
    let details_link = match (&args.out, &args.details) {
        (Some(out), Some(details)) => relative(out, details),
        _ => String::new(),
    };
    let (mut markdown, details) = markdown(
        &reports,
        &grid,
        args,
        recorded,
        findings.as_deref(),
        &details_link,
    );
    if args.details.is_none() {
        markdown.push_str(&details);
    }
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&to_json(&reports, &grid, args, recorded))
            .map_err(|e| e.to_string())?;
        harness::atomic::write(path, text + "\n")?;
    }
    let html = args.html.as_ref().map(|path| {
        let summary = summary_rows(&reports);
        let command = command_line(args);
        let page = grid::Page {
            intro: &intro(recorded),
            command: &command,
            date: args.date.as_deref(),
            rule: RULE,
            summary: &summary,
        };
        (path, grid.html(&page))
    });
    let mut outputs: Vec<(&PathBuf, String)> = Vec::new();
    if let Some(path) = &args.out {
        outputs.push((path, markdown.clone()));
        if let Some(d) = &args.details {
            outputs.push((d, format!("# Conformance: details\n{details}")));
        }
    }
    outputs.extend(html);
    if args.check {
        let mut fresh = true;
        for (path, text) in &outputs {
            let old = std::fs::read_to_string(path).unwrap_or_default();
            if let Some(diff) = stale(&old, text) {
                eprintln!(
                    "rig conformance: {} is stale: regenerate it with the command CONFORMANCE.md states\n{diff}",
                    path.display()
                );
                fresh = false;
            }
        }
        return Ok(if fresh {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        });
    }
    if args.out.is_none() {
        print!("{markdown}");
    }
    for (path, text) in &outputs {
        harness::atomic::write(path, text)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `to` as a link from the file `from`: its file name when both share a folder.
fn relative(from: &std::path::Path, to: &std::path::Path) -> String {
    let dir = |p: &std::path::Path| p.parent().map(std::path::Path::to_path_buf);
    match (dir(from), to.file_name()) {
        (Some(a), Some(name)) if Some(&a) == dir(to).as_ref() => {
            name.to_string_lossy().into_owned()
        }
        _ => to.display().to_string(),
    }
}

/// The grid of the reports: every behaviour some case of the set exercises (and `runs`),
/// a column per report.
fn grid_of(reports: &[Report], set: &[Recorded], behaviours: &[Vec<BTreeSet<Behaviour>>]) -> Grid {
    let mut rows: BTreeSet<Behaviour> = behaviours.iter().flatten().flatten().cloned().collect();
    rows.insert(behaviour::runs());
    let rows: Vec<Behaviour> = rows.into_iter().collect();
    // Smallest first: fewest ops, then name.
    let mut order: Vec<usize> = (0..set.len()).collect();
    order.sort_by(|&a, &b| {
        (set[a].case.ops.len(), &set[a].case.name).cmp(&(set[b].case.ops.len(), &set[b].case.name))
    });
    let cells = rows
        .iter()
        .map(|row| {
            reports
                .iter()
                .map(|r| {
                    let mut cell = grid::Cell::default();
                    for &i in &order {
                        let g = &r.behaviours[i];
                        if g.measured.contains(row) {
                            cell.measured += 1;
                        }
                        if g.failed.contains(row) {
                            cell.failed
                                .push((set[i].case.name.clone(), set[i].case.ops.len()));
                        }
                    }
                    cell
                })
                .collect()
        })
        .collect();
    Grid {
        rows,
        columns: reports
            .iter()
            .map(|r| grid::Column {
                name: r.name.clone(),
                command: r.command.clone(),
            })
            .collect(),
        cells,
    }
}

/// What a case measured and failed on an implementation: the behaviours of its compared ops,
/// and those of the op that differed (if one did).
fn case_grid(
    r: &Recorded,
    actual: &[Outcome],
    behaviours: &[BTreeSet<Behaviour>],
    comparison: &Comparison,
    counts: &harness::compare::Counts,
) -> CaseGrid {
    let mut g = CaseGrid::default();
    g.measured.insert(behaviour::runs());
    let end = match comparison {
        Comparison::Differs(d) => d.op + 1,
        Comparison::Unsupported { .. } => 0,
        Comparison::Same => counts.ended.as_ref().map_or(r.case.ops.len(), |(i, _)| *i),
    };
    let unsupported = |o: Option<&Outcome>| matches!(o, Some(Outcome::Unsupported(_)));
    for (i, rows) in behaviours.iter().enumerate().take(end) {
        if unsupported(r.results.get(i)) || unsupported(actual.get(i)) {
            continue;
        }
        g.measured.extend(rows.iter().cloned());
    }
    if let Comparison::Differs(d) = comparison {
        if let Some(b) = behaviours.get(d.op) {
            g.failed.extend(b.iter().cloned());
        }
    }
    g
}

/// `work`'s results in its order, at most `jobs` items worked on at once.
fn in_parallel<T: Sync, R: Send>(work: &[T], jobs: usize, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let done = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(item) = work.get(i) else { return };
                let r = f(item);
                done.lock().unwrap_or_else(|e| e.into_inner()).push((i, r));
            });
        }
    });
    let mut done = done.into_inner().unwrap_or_else(|e| e.into_inner());
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

/// The line stating the command that made a report (in the Markdown after "Generated by:",
/// in the HTML page its `<pre id="command">`): it names output paths and options that do
/// not change the report, so `--check` leaves it out of what it compares.
fn without_command(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len());
    let mut lines = markdown.split_inclusive('\n');
    let mut done = false;
    while let Some(line) = lines.next() {
        // The HTML page's command.
        if line.starts_with("<pre id=\"command\">") {
            out.push_str("(the command)\n");
            continue;
        }
        out.push_str(line);
        if !done && line.ends_with("Generated by:\n") {
            // A blank line, the fence, the command, the fence.
            for _ in 0..2 {
                if let Some(l) = lines.next() {
                    out.push_str(l);
                }
            }
            if lines.next().is_some() {
                out.push_str("(the command)\n");
            }
            done = true;
        }
    }
    out
}

/// Lines of a stale report's diff shown at most.
const DIFF_LINES: usize = 40;

/// `None` when `old` is `new` but for the command line; else a short unified diff from `old`
/// to `new`.
fn stale(old: &str, new: &str) -> Option<String> {
    let (old, new) = (without_command(old), without_command(new));
    if old == new {
        return None;
    }
    let diff = similar::TextDiff::from_lines(&old, &new)
        .unified_diff()
        .context_radius(1)
        .header("the file", "the report now")
        .to_string();
    let lines: Vec<&str> = diff.lines().collect();
    let mut shown = lines[..lines.len().min(DIFF_LINES)].join("\n");
    if lines.len() > DIFF_LINES {
        shown.push_str(&format!(
            "\n... {} more diff lines",
            lines.len() - DIFF_LINES
        ));
    }
    Some(shown)
}

/// The family of a case: its name's first segment.
fn family(name: &str) -> &str {
    name.split('/').next().unwrap_or(name)
}

/// A result's class: `ok`, `error`, `throws Class`, `unsupported`, `no result`.
fn class(o: Option<&Outcome>) -> String {
    match o {
        Some(Outcome::Ok(_)) => "ok".into(),
        Some(Outcome::Error(_)) => "error".into(),
        Some(Outcome::Throws { class, .. }) => format!("throws {class}"),
        Some(Outcome::Unsupported(_)) => "unsupported".into(),
        Some(Outcome::AnyOf(v)) => format!("any of {} (run-dependent)", v.len()),
        None => "no result".into(),
    }
}

/// The kind of a first divergence: the op kind and both results' classes.
fn kind_of(case: &Case, op: usize, expected: &Outcome, actual: Option<&Outcome>) -> String {
    format!(
        "{} {}: Minecraft {}, adapter {}",
        case.subject.kind(),
        case.ops.kind(op),
        class(Some(expected)),
        class(actual)
    )
}

fn run_one(
    name: &str,
    mut adapter: AdapterExecutor,
    set: &[Recorded],
    chosen: &[usize],
    truth: String,
    behaviours: &[Vec<BTreeSet<Behaviour>>],
) -> Result<Report, String> {
    let mut report = Report {
        name: name.to_string(),
        command: adapter.command().to_string(),
        handshake: adapter.handshake().clone(),
        families: BTreeMap::new(),
        total: Tally::default(),
        kinds: BTreeMap::new(),
        repros: BTreeMap::new(),
        not_run: Vec::new(),
        unsupported: BTreeMap::new(),
        restarts: 0,
        behaviours: vec![CaseGrid::default(); set.len()],
        truth,
    };
    // Each case's verdict so far: passed, failed, or unsupported with its reason.
    let mut verdicts: Vec<Result<bool, String>> = vec![Ok(false); set.len()];
    for &index in chosen {
        let r = &set[index];
        // A case that does not run fails `runs` (and measures nothing else).
        report.behaviours[index] = CaseGrid {
            measured: BTreeSet::from([behaviour::runs()]),
            failed: BTreeSet::from([behaviour::runs()]),
        };
        let tally = report
            .families
            .entry(family(&r.case.name).to_string())
            .or_default();
        tally.cases += 1;
        match adapter.run(&r.case) {
            Err(e) => {
                tally.failed += 1;
                report.not_run.push((r.case.name.clone(), e.to_string()));
            }
            Ok(actual) => {
                let measured = measure(&r.case, &r.results, &actual);
                report.behaviours[index] =
                    case_grid(r, &actual, &behaviours[index], &measured.0, &measured.1);
                match measured {
                    (Comparison::Same, counts) => {
                        verdicts[index] = Ok(true);
                        tally.passed += 1;
                        tally.ops += counts.compared;
                        tally.skipped += counts.skipped;
                    }
                    (Comparison::Unsupported { reason, .. }, counts) => {
                        verdicts[index] = Err(reason.clone());
                        tally.unsupported += 1;
                        tally.skipped += counts.skipped;
                        *report.unsupported.entry(reason).or_default() += 1;
                    }
                    (Comparison::Differs(d), counts) => {
                        tally.failed += 1;
                        tally.ops += counts.compared;
                        tally.skipped += counts.skipped;
                        let key = kind_of(&r.case, d.op, &d.expected, d.actual.as_ref());
                        let n = r.case.ops.len();
                        let kind = report.kinds.entry(key).or_insert(Kind {
                            cases: 0,
                            smallest: index,
                            op: d.op,
                        });
                        kind.cases += 1;
                        let best = &set[kind.smallest].case;
                        if (n, &r.case.name) < (best.ops.len(), &best.name) {
                            kind.smallest = index;
                            kind.op = d.op;
                        }
                    }
                }
            }
        }
        // A case found to have broken the protocol after it was judged (answered twice)
        // fails, not the case whose answer the extra one took.
        for (case, why) in adapter.take_late_failures() {
            let Some(i) = chosen.iter().copied().find(|&i| set[i].case.name == case) else {
                continue;
            };
            let tally = report
                .families
                .entry(family(&case).to_string())
                .or_default();
            match std::mem::replace(&mut verdicts[i], Ok(false)) {
                Ok(true) => tally.passed -= 1,
                Err(reason) => {
                    tally.unsupported -= 1;
                    if let Some(n) = report.unsupported.get_mut(&reason) {
                        *n -= 1;
                        if *n == 0 {
                            report.unsupported.remove(&reason);
                        }
                    }
                }
                Ok(false) => continue,
            }
            tally.failed += 1;
            report.behaviours[i].failed.insert(behaviour::runs());
            report
                .not_run
                .push((case, format!("internal error: {why}")));
        }
        if let Some(why) = adapter.unusable() {
            return Err(format!("{name}: {why}"));
        }
    }
    for t in report.families.values() {
        report.total.add(t);
    }
    let keys: Vec<(String, usize, usize)> = report
        .kinds
        .iter()
        .map(|(k, v)| (k.clone(), v.smallest, v.op))
        .collect();
    for (key, index, op) in keys {
        let repro = minimal(&mut adapter, &set[index], op, &key)?;
        report.repros.insert(key, repro);
    }
    report.restarts = adapter.restarts;
    if let Err(e) = adapter.finish() {
        eprintln!("rig conformance: {name}: warning: {e}");
    }
    Ok(report)
}

/// Whether `case` diverges on `adapter` against `expected`, at its last op, of kind `key`.
fn diverges_last(
    adapter: &mut AdapterExecutor,
    case: &Case,
    expected: &[Outcome],
    key: &str,
) -> Option<(Outcome, Option<Outcome>)> {
    let actual = adapter.run(case).ok()?;
    match compare(case, expected, &actual) {
        Comparison::Differs(d)
            if d.op + 1 == case.ops.len()
                && kind_of(case, d.op, &d.expected, d.actual.as_ref()) == key =>
        {
            Some((d.expected, d.actual))
        }
        _ => None,
    }
}

/// The minimal repro of a divergence at op `op` of `r`.
fn minimal(
    adapter: &mut AdapterExecutor,
    r: &Recorded,
    op: usize,
    key: &str,
) -> Result<Repro, String> {
    // Against the recording: the prefix up to the divergence, less observing ops before it.
    let prefix: Vec<usize> = (0..=op).collect();
    let looks: Vec<usize> = (0..op)
        .filter(|&i| gen::shrink::observes(&r.case.ops, i))
        .collect();
    let chosen = |kept: &[usize]| -> Vec<usize> {
        prefix
            .iter()
            .copied()
            .filter(|i| !looks.contains(i) || kept.contains(i))
            .collect()
    };
    let expected_for = |indices: &[usize]| -> Vec<Outcome> {
        indices.iter().map(|&i| r.results[i].clone()).collect()
    };
    let kept = gen::shrink::ddmin(looks.clone(), &mut |kept: &[usize]| {
        let indices = chosen(kept);
        let case = gen::shrink::select(&r.case, &indices);
        diverges_last(adapter, &case, &expected_for(&indices), key).is_some()
    });
    let indices = chosen(&kept);
    let recorded_case = gen::shrink::select(&r.case, &indices);
    let recorded_expected = expected_for(&indices);
    let Some((expected, actual)) = diverges_last(adapter, &recorded_case, &recorded_expected, key)
    else {
        // The adapter does not repeat itself: show the whole case as it ran.
        return Ok(Repro {
            case: r.case.clone(),
            op,
            expected: r.results[op].clone(),
            actual: adapter.run(&r.case).ok().and_then(|a| a.get(op).cloned()),
            from: r.truth.name(),
            original: r.case.name.clone(),
            original_ops: r.case.ops.len(),
        });
    };
    let mut best = Repro {
        op: recorded_case.ops.len() - 1,
        case: recorded_case,
        expected,
        actual,
        from: r.truth.name(),
        original: r.case.name.clone(),
        original_ops: r.case.ops.len(),
    };
    // Further, with the Rust containers as Minecraft's stand-in, where they pass this case.
    let mut rust = RustExecutor::new();
    if !rust
        .run(&r.case)
        .is_ok_and(|a| compare(&r.case, &r.results, &a) == Comparison::Same)
    {
        return Ok(best);
    }
    let predicate = |c: &Case| match rust.run(c) {
        Ok(e) => diverges_last(adapter, c, &e, key).is_some(),
        Err(_) => false,
    };
    if let Ok(shrunk) = gen::shrink(&best.case, predicate) {
        if shrunk.case.ops.len() < best.case.ops.len() {
            let expected = rust.run(&shrunk.case).map_err(|e| e.to_string())?;
            if let Some((e, a)) = diverges_last(adapter, &shrunk.case, &expected, key) {
                best = Repro {
                    op: shrunk.case.ops.len() - 1,
                    case: shrunk.case,
                    expected: e,
                    actual: a,
                    from: "paletted",
                    ..best
                };
            }
        }
    }
    Ok(best)
}

/// The command line that made the report, for readers to rerun.
fn command_line(args: &Args) -> String {
    let mut s = String::from("rig conformance");
    for p in &args.paths {
        s.push_str(&format!(" {}", p.display()));
    }
    for e in &args.executors {
        s.push_str(&format!(" --executor '{e}'"));
    }
    if let Some(d) = &args.date {
        s.push_str(&format!(" --date {d}"));
    }
    if let Some(f) = &args.findings {
        s.push_str(&format!(" --findings {}", f.display()));
    }
    if let Some(o) = &args.out {
        s.push_str(&format!(" --out {}", o.display()));
    }
    if let Some(j) = &args.json {
        s.push_str(&format!(" --json {}", j.display()));
    }
    if let Some(d) = &args.details {
        s.push_str(&format!(" --details {}", d.display()));
    }
    if let Some(h) = &args.html {
        s.push_str(&format!(" --html {}", h.display()));
    }
    s
}

fn row(s: &mut String, label: &str, t: &Tally) {
    let _ = writeln!(
        s,
        "| {label} | {} | {} | {} | {} | {} | {} |",
        t.cases, t.passed, t.failed, t.unsupported, t.ops, t.skipped
    );
}

/// A result for a Markdown table cell or line, long ones cut.
fn shown(o: Option<&Outcome>) -> String {
    const MAX: usize = 120;
    let s = o.map_or_else(|| "(no result)".to_string(), |o| o.to_string());
    if s.chars().count() > MAX {
        format!(
            "{}… ({} chars)",
            s.chars().take(MAX).collect::<String>(),
            s.len()
        )
    } else {
        s
    }
}

/// The report's opening sentence (the command follows it).
fn intro(cases: usize) -> String {
    format!("Implementations of Minecraft's chunk containers run over the recorded set ({cases} cases recorded from Minecraft) through the adapter protocol (PROTOCOL.md, \"Adapters\"). Each is measured at the version its handshake names: against the recordings of that version's rules and, before 26.x, where there are none yet, against the containers vanilla servers sent in chunk packets (`minecraft-packets`: `read` takes exactly the bytes sent, `write` gives them back). The summary's last column says which truth each column met. Generated by:")
}

/// How cases are counted.
const RULE: &str = "Ops compare in order. An op the implementation cannot run that changes no state is skipped (ops skipped) and comparison goes on; one that changes state (`set`, `get_and_set`, `read`, `unpack`, `load`, `fill`) ends what can be compared. A case passes when every compared op matches the recording and fails at the first that differs; it is unsupported (counted apart) only when no op before its first unsupported state change could be compared. Ops compared: up to and including the deciding op.";

/// The summary table: a header, then a row per implementation.
fn summary_rows(reports: &[Report]) -> Vec<Vec<String>> {
    let mut rows = vec![[
        "implementation",
        "version",
        "Minecraft",
        "cases",
        "passed",
        "failed",
        "unsupported",
        "ops compared",
        "ops skipped",
        "measured against",
    ]
    .map(String::from)
    .to_vec()];
    for r in reports {
        let t = &r.total;
        rows.push(vec![
            r.name.clone(),
            format!("{} {}", r.handshake.implementation, r.handshake.version),
            r.handshake.minecraft.clone(),
            t.cases.to_string(),
            t.passed.to_string(),
            t.failed.to_string(),
            t.unsupported.to_string(),
            t.ops.to_string(),
            t.skipped.to_string(),
            r.truth.clone(),
        ]);
    }
    rows
}

/// The anchor of a first-divergence kind's repro.
fn kind_anchor(name: &str, kind: &str) -> String {
    let mut a = format!("{name} {kind}")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect::<String>();
    while a.contains("--") {
        a = a.replace("--", "-");
    }
    format!("kind-{}", a.trim_matches('-'))
}

/// The page opened first (title, command, grid, summary, findings), and the details (the
/// failing cells' cases, then per implementation its families, first divergences and
/// repros), which `details_link` names (empty: they follow on the same page).
fn markdown(
    reports: &[Report],
    grid: &Grid,
    args: &Args,
    cases: usize,
    findings: Option<&str>,
    details_link: &str,
) -> (String, String) {
    let mut s = String::from("# Conformance\n\n");
    let _ = writeln!(
        s,
        "{}\n\n```sh\n{}\n```\n",
        intro(cases),
        command_line(args)
    );
    if let Some(d) = &args.date {
        let _ = writeln!(s, "Date: {d}.\n");
    }
    let _ = writeln!(s, "## Behaviours\n\n{}\n{}\n", grid::ASSIGNED, grid::LEGEND);
    s.push_str(&grid.markdown(details_link));
    let _ = writeln!(s, "\n## Implementations\n\n{RULE}\n");
    let rows = summary_rows(reports);
    for (i, r) in rows.iter().enumerate() {
        let _ = writeln!(s, "| {} |", r.join(" | "));
        if i == 0 {
            let _ = writeln!(s, "|{}", " --- |".repeat(r.len()));
        }
    }
    if let Some(text) = findings {
        let _ = write!(s, "\n## Findings\n\n{}", text.trim_start_matches('\n'));
        if !text.ends_with('\n') {
            s.push('\n');
        }
    }
    let where_ = if details_link.is_empty() {
        "below".to_string()
    } else {
        format!("in [{details_link}]({details_link})")
    };
    let _ = writeln!(
        s,
        "\nEach failing cell's cases, and per implementation its families, first divergences and shrunk repros, are {where_}."
    );
    let mut d = String::from("\n## Failing behaviours\n");
    d.push_str(&grid.failures_markdown());
    let mut s2 = std::mem::take(&mut s);
    std::mem::swap(&mut s, &mut d);
    for r in reports {
        let _ = writeln!(s, "\n## {}\n", r.name);
        let _ = writeln!(
            s,
            "{} {}, targeting Minecraft {}, run as `{}`; measured against {}.",
            r.handshake.implementation,
            r.handshake.version,
            r.handshake.minecraft,
            r.command,
            r.truth
        );
        if let Some(n) = &r.handshake.notes {
            let _ = writeln!(s, "Notes from the adapter: {n}");
        }
        if r.restarts > 0 {
            let _ = writeln!(s, "The adapter was restarted {} time(s).", r.restarts);
        }
        s.push_str("\n| family | cases | passed | failed | unsupported | ops compared | ops skipped |\n| --- | --- | --- | --- | --- | --- | --- |\n");
        for (f, t) in &r.families {
            row(&mut s, f, t);
        }
        row(&mut s, "**all**", &r.total);
        if !r.kinds.is_empty() {
            s.push_str("\n### First divergences, by kind\n\n| kind | cases | smallest case |\n| --- | --- | --- |\n");
            for (k, v) in &r.kinds {
                let _ = writeln!(s, "| {k} | {} | `{}` |", v.cases, r.repros[k].original);
            }
            for (k, repro) in &r.repros {
                let _ = writeln!(
                    s,
                    "\n<a id=\"{}\"></a>\n\n#### {k}\n",
                    kind_anchor(&r.name, k)
                );
                let how = match repro.from {
                    "recorded" => "shrunk against the recorded results (every result shown is Minecraft's)",
                    "packets" => "shrunk against what a vanilla server sent (every expected result shown is the packet's)",
                    _ => "shrunk with the paletted Rust containers standing in for Minecraft (they pass the recorded case; the expected result is theirs)",
                };
                let _ = writeln!(
                    s,
                    "From `{}` ({} ops) to {} ops, {how}:\n\n```json\n{}\n```\n",
                    repro.original,
                    repro.original_ops,
                    repro.case.ops.len(),
                    json!({"subject": repro.case.subject.to_json(),
                           "ops": (0..repro.case.ops.len()).map(|i| repro.case.ops.to_json(i)).collect::<Vec<_>>()})
                );
                let expected_from = match repro.from {
                    "recorded" => "Minecraft (recorded)",
                    "packets" => "vanilla server (its packet)",
                    _ => "paletted (stand-in)",
                };
                let _ = writeln!(
                    s,
                    "op {} (`{}`):\n\n- {expected_from}: `{}`\n- {}: `{}`",
                    repro.op,
                    repro.case.ops.text(repro.op),
                    shown(Some(&repro.expected)),
                    r.name,
                    shown(repro.actual.as_ref())
                );
            }
        }
        if !r.not_run.is_empty() {
            let _ = writeln!(
                s,
                "\n### Cases the adapter could not run ({})\n",
                r.not_run.len()
            );
            for (case, why) in &r.not_run {
                // What happened, not how the process ended (exited or killed
                // can race), so the report is the same each run.
                let what = why.lines().next().unwrap_or("");
                let what = what.split("; ").next().unwrap_or(what);
                let _ = writeln!(s, "- `{case}`: {what}");
            }
        }
        if !r.unsupported.is_empty() {
            s.push_str("\n### Unsupported, by reason\n\n| reason | cases |\n| --- | --- |\n");
            for (why, n) in &r.unsupported {
                let _ = writeln!(s, "| {} | {n} |", why.replace('|', "\\|"));
            }
        }
    }
    std::mem::swap(&mut s, &mut s2);
    (s, s2)
}

fn to_json(reports: &[Report], grid: &Grid, args: &Args, cases: usize) -> Value {
    let implementations: Vec<Value> = reports
        .iter()
        .map(|r| {
            json!({
                "name": r.name,
                "command": r.command,
                "handshake": r.handshake.to_json(),
                "total": r.total.to_json(),
                "measured_against": r.truth,
                "families": r.families.iter().map(|(f, t)| {
                    let mut v = t.to_json();
                    v["family"] = json!(f);
                    v
                }).collect::<Vec<_>>(),
                "divergences": r.repros.iter().map(|(k, p)| json!({
                    "kind": k,
                    "cases": r.kinds[k].cases,
                    "smallest_case": p.original,
                    "repro": {
                        "shrunk_against": p.from,
                        "from_ops": p.original_ops,
                        "case": p.case.to_json(),
                        "op": p.op,
                        "expected": p.expected.to_json(),
                        "actual": p.actual.as_ref().map(Outcome::to_json),
                    },
                })).collect::<Vec<_>>(),
                "not_run": r.not_run.iter().map(|(c, why)| json!({"case": c, "why": why})).collect::<Vec<_>>(),
                "unsupported": r.unsupported.iter().map(|(why, n)| json!({"reason": why, "cases": n})).collect::<Vec<_>>(),
                "restarts": r.restarts,
            })
        })
        .collect();
    json!({
        "command": command_line(args),
        "date": args.date,
        "cases": cases,
        "behaviours": grid.to_json(),
        "implementations": implementations,
    })
}
