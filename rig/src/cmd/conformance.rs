//! `rig conformance`: one or more adapters over the recorded set, and the report: per
//! implementation and family, cases passed, failed and unsupported and ops compared; per kind
//! of first divergence (op kind and result classes), one minimal repro with both results.
//!
//! A repro is shrunk against the recorded results first (the prefix ending at the divergence,
//! less the ops before it that only observe, so every kept result is still the recorded
//! one). Then it is shrunk further with the Rust containers standing in for Minecraft (they
//! pass the recorded case it came from, which is checked); the further cut is used only when
//! it is smaller, and the report says whose results it shows. The Markdown holds nothing
//! that changes between runs (no timings; a date only with `--date`), so CI can regenerate
//! and diff it.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use harness::adapter::AdapterExecutor;
use harness::case::Case;
use harness::compare::{compare, Comparison};
use harness::exec::Executor;
use harness::outcome::Outcome;
use harness::rust::RustExecutor;
use harness::store::Store;
use serde_json::{json, Value};

use super::adapter::start_adapter;
use super::check;

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
    /// With --out: do not write, fail (exit 1) if the file differs from the report.
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
}

/// A recorded case and its results.
struct Recorded {
    case: Case,
    results: Vec<Outcome>,
}

/// Counts for one family (or all).
#[derive(Default, Clone)]
struct Tally {
    cases: usize,
    passed: usize,
    failed: usize,
    unsupported: usize,
    ops: usize,
}

impl Tally {
    fn to_json(&self) -> Value {
        json!({"cases": self.cases, "passed": self.passed, "failed": self.failed,
               "unsupported": self.unsupported, "ops_compared": self.ops})
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
    let store = Store::find();
    let trusted = store.trusted().map_err(|e| e.to_string())?;
    let (items, _awaiting) = check::collect(&store, &args.paths);
    let mut set = Vec::new();
    for item in items {
        match check::load(&store, &trusted, item) {
            Ok(check::Loaded { case, results, .. }) => set.push(Recorded { case, results }),
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
    let mut reports = Vec::new();
    for spec in &args.executors {
        let (name, command) = spec
            .split_once('=')
            .filter(|(n, c)| !n.is_empty() && !c.is_empty())
            .ok_or_else(|| format!("--executor {spec:?}: give NAME=CMD"))?;
        let adapter = start_adapter(command, args.case_timeout)?;
        reports.push(run_one(name, adapter, &set)?);
    }
    let findings = match &args.findings {
        Some(path) => Some(
            std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?,
        ),
        None => None,
    };
    let markdown = markdown(&reports, args, set.len(), findings.as_deref());
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&to_json(&reports, args, set.len()))
            .map_err(|e| e.to_string())?;
        harness::atomic::write(path, text + "\n")?;
    }
    match &args.out {
        Some(path) if args.check => {
            let old = std::fs::read_to_string(path).unwrap_or_default();
            if old != markdown {
                eprintln!(
                    "rig conformance: {} is stale: regenerate it with the command it states",
                    path.display()
                );
                return Ok(ExitCode::FAILURE);
            }
        }
        Some(path) => harness::atomic::write(path, &markdown)?,
        None => print!("{markdown}"),
    }
    Ok(ExitCode::SUCCESS)
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

fn run_one(name: &str, mut adapter: AdapterExecutor, set: &[Recorded]) -> Result<Report, String> {
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
    };
    for (index, r) in set.iter().enumerate() {
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
            Ok(actual) => match compare(&r.case, &r.results, &actual) {
                Comparison::Same => {
                    tally.passed += 1;
                    tally.ops += r.case.ops.len();
                }
                Comparison::Unsupported { op, reason, .. } => {
                    tally.unsupported += 1;
                    tally.ops += op;
                    *report.unsupported.entry(reason).or_default() += 1;
                }
                Comparison::Differs(d) => {
                    tally.failed += 1;
                    tally.ops += d.op + 1;
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
            },
        }
        if let Some(why) = adapter.unusable() {
            return Err(format!("{name}: {why}"));
        }
    }
    for t in report.families.values() {
        report.total.cases += t.cases;
        report.total.passed += t.passed;
        report.total.failed += t.failed;
        report.total.unsupported += t.unsupported;
        report.total.ops += t.ops;
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
            from: "recorded",
            original: r.case.name.clone(),
            original_ops: r.case.ops.len(),
        });
    };
    let mut best = Repro {
        op: recorded_case.ops.len() - 1,
        case: recorded_case,
        expected,
        actual,
        from: "recorded",
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
    s
}

fn row(s: &mut String, label: &str, t: &Tally) {
    let _ = writeln!(
        s,
        "| {label} | {} | {} | {} | {} | {} |",
        t.cases, t.passed, t.failed, t.unsupported, t.ops
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

fn markdown(reports: &[Report], args: &Args, cases: usize, findings: Option<&str>) -> String {
    let mut s = String::from("# Conformance\n\n");
    let _ = writeln!(
        s,
        "Implementations of Minecraft's chunk containers run over the recorded set ({cases} cases recorded from Minecraft) through the adapter protocol (PROTOCOL.md, \"Adapters\"). Generated by:\n\n```sh\n{}\n```\n",
        command_line(args)
    );
    if let Some(d) = &args.date {
        let _ = writeln!(s, "Date: {d}.\n");
    }
    s.push_str("A case passes when every op matches the recording; it fails at the first op that differs; it is unsupported when an op the implementation cannot run comes before any difference (counted apart). Ops compared: up to and including the deciding op.\n\n");
    s.push_str("| implementation | version | Minecraft | cases | passed | failed | unsupported | ops compared |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n");
    for r in reports {
        let t = &r.total;
        let _ = writeln!(
            s,
            "| {} | {} {} | {} | {} | {} | {} | {} | {} |",
            r.name,
            r.handshake.implementation,
            r.handshake.version,
            r.handshake.minecraft,
            t.cases,
            t.passed,
            t.failed,
            t.unsupported,
            t.ops
        );
    }
    if let Some(text) = findings {
        let _ = write!(s, "\n## Findings\n\n{}", text.trim_start_matches('\n'));
        if !text.ends_with('\n') {
            s.push('\n');
        }
    }
    for r in reports {
        let _ = writeln!(s, "\n## {}\n", r.name);
        let _ = writeln!(
            s,
            "{} {}, targeting Minecraft {}, run as `{}`.",
            r.handshake.implementation, r.handshake.version, r.handshake.minecraft, r.command
        );
        if let Some(n) = &r.handshake.notes {
            let _ = writeln!(s, "Notes from the adapter: {n}");
        }
        if r.restarts > 0 {
            let _ = writeln!(s, "The adapter was restarted {} time(s).", r.restarts);
        }
        s.push_str("\n| family | cases | passed | failed | unsupported | ops compared |\n| --- | --- | --- | --- | --- | --- |\n");
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
                let _ = writeln!(s, "\n#### {k}\n");
                let how = match repro.from {
                    "recorded" => "shrunk against the recorded results (every result shown is Minecraft's)",
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
                let expected_from = if repro.from == "recorded" {
                    "Minecraft (recorded)"
                } else {
                    "paletted (stand-in)"
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
    s
}

fn to_json(reports: &[Report], args: &Args, cases: usize) -> Value {
    let implementations: Vec<Value> = reports
        .iter()
        .map(|r| {
            json!({
                "name": r.name,
                "command": r.command,
                "handshake": r.handshake.to_json(),
                "total": r.total.to_json(),
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
        "implementations": implementations,
    })
}
