//! One case's verdict: run it, compare with its recording, and weigh the
//! known divergences.

use crate::case::Case;
use crate::compare::{measure, Comparison, Counts};
use crate::exec::{Executor, SelfCheck};
use crate::known::{self, Known};
use crate::outcome::Outcome;

/// How one case came out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every result matched the recording.
    Passed,
    /// A divergence, a case that could not run, or a known divergence that
    /// now passes; the text says which, in full.
    Failed(String),
    /// A listed known divergence that still diverges.
    Expected {
        /// The listed reason.
        reason: String,
        /// Where it diverges, one line.
        summary: String,
    },
    /// An op the executor (an adapter) could not run, met before any
    /// difference: counted apart, neither a pass nor a failure.
    Unsupported {
        /// Where and why, one line.
        summary: String,
    },
}

impl Verdict {
    /// Whether this counts as a failure of the run.
    pub fn is_failure(&self) -> bool {
        matches!(self, Verdict::Failed(_))
    }
}

/// Runs `case` on `exec` and compares with `recorded`.
pub fn judge(exec: &mut dyn Executor, case: &Case, recorded: &[Outcome], known: &Known) -> Verdict {
    judge_measured(exec, case, recorded, known, false).0
}

/// [`judge`], with how many ops were compared and skipped (none for a case
/// that could not run). The results are compared with the recording first;
/// the executor's own checks that failed ([`SelfCheck`]) are reported after
/// the divergence, never instead of it. `full`: show whole results and every
/// self-check, not their first lines.
pub fn judge_measured(
    exec: &mut dyn Executor,
    case: &Case,
    recorded: &[Outcome],
    known: &Known,
    full: bool,
) -> (Verdict, Counts) {
    let checked = match exec.run_checked(case) {
        Ok(checked) => checked,
        Err(e) => {
            let op = e
                .op()
                .map(|i| format!(" ({})", case.ops.text(i)))
                .unwrap_or_default();
            return (
                Verdict::Failed(format!(
                    "case {}: could not run on {}: {e}{op}\n",
                    case.label(),
                    exec.name()
                )),
                Counts::default(),
            );
        }
    };
    let (comparison, counts) = measure(case, recorded, &checked.results);
    let checks = &checked.self_checks;
    let divergence = match comparison {
        Comparison::Same => None,
        Comparison::Differs(d) => Some(d),
        Comparison::Unsupported {
            op,
            op_text,
            reason,
        } if checks.is_empty() => {
            return (
                Verdict::Unsupported {
                    summary: format!("op {op}: {op_text}: {reason}"),
                },
                counts,
            )
        }
        Comparison::Unsupported { .. } => None,
    };
    let name = exec.name();
    let verdict = match (divergence, known.reason(&case.name)) {
        (None, _) if !checks.is_empty() => {
            let first = &checks[0];
            Verdict::Failed(format!(
                "case {}: {} self-check failed {}, though every result compared matches its recording\n{}",
                case.label(),
                name,
                at_op(case, first.op),
                self_check_report(case, &name, checks, full)
            ))
        }
        (None, None) => Verdict::Passed,
        (None, Some(reason)) => Verdict::Failed(format!(
            "case {}: matches its recording now, but {} lists it as a known divergence ({reason}); remove the entry\n",
            case.label(),
            known::PATH
        )),
        (Some(d), None) => Verdict::Failed(format!(
            "{}{}",
            d.report_with(case, "recorded", &name, full),
            self_check_report(case, &name, checks, full)
        )),
        (Some(d), Some(reason)) if !checks.is_empty() => Verdict::Failed(format!(
            "{}(a known divergence: {reason})\n{}",
            d.report_with(case, "recorded", &name, full),
            self_check_report(case, &name, checks, full)
        )),
        (Some(d), Some(reason)) => Verdict::Expected {
            reason: reason.to_string(),
            summary: format!("op {}: {}", d.op, d.op_text),
        },
    };
    (verdict, counts)
}

/// Self-checks shown in full before the rest are counted.
const SHOWN_CHECKS: usize = 3;
/// Characters of a self-check's message shown without `full`.
const CHECK_CHARS: usize = 300;

/// "at op 3 of 10 (set 1 0 0 = 5)", or "before the first op".
fn at_op(case: &Case, op: Option<usize>) -> String {
    match op {
        Some(i) => format!("at op {i} of {} ({})", case.ops.len(), case.ops.text(i)),
        None => "before the first op".to_string(),
    }
}

/// The executor's failed self-checks, a line each (the first few, and how
/// many more, unless `full`), under a heading that says they are the
/// executor's own checks and not a comparison with the recording. Empty
/// when there are none.
pub fn self_check_report(case: &Case, executor: &str, checks: &[SelfCheck], full: bool) -> String {
    if checks.is_empty() {
        return String::new();
    }
    let n = checks.len();
    let mut s = format!(
        "self-check: {n} failed cross-check{} of {executor} against itself (its entry points, bulk builds or folds disagree; not a comparison with the recording):\n",
        if n == 1 { "" } else { "s" }
    );
    let shown = if full { n } else { n.min(SHOWN_CHECKS) };
    for check in &checks[..shown] {
        let message = if full || check.message.chars().count() <= CHECK_CHARS {
            check.message.clone()
        } else {
            let cut: String = check.message.chars().take(CHECK_CHARS).collect();
            format!("{cut}… ({} chars)", check.message.len())
        };
        s.push_str(&format!("  {}: {message}\n", at_op(case, check.op)));
    }
    if shown < n {
        s.push_str(&format!("  ... {} more (--full shows them)\n", n - shown));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::ContainerOp;
    use crate::exec::{Checked, ExecError};
    use crate::recorded::Recorded;
    use crate::rust::RustExecutor;
    use paletted::PalettedContainer;
    use serde_json::Value;
    use std::path::Path;

    fn recorded(name: &str) -> Recorded {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../cases/golden")
            .join(format!("{name}.json"));
        Recorded::parse(&std::fs::read_to_string(&path).unwrap(), &path).unwrap()
    }

    /// A bug in the strict `bits` only: the exact results are untouched.
    fn bits_plant(_: &PalettedContainer, op: &ContainerOp, v: &mut Value) {
        if matches!(op, ContainerOp::Bits) {
            *v = 99.into();
        }
    }

    #[test]
    fn a_failed_self_check_fails_the_case_at_its_op_with_the_results_compared() {
        let r = recorded("ladder/biomes-r1");
        let mut exec = RustExecutor::with_strict_plant(bits_plant);
        let checked = exec.run_checked(&r.case).unwrap();
        assert_eq!(checked.results.len(), r.case.ops.len());
        let ops: Vec<Option<usize>> = checked.self_checks.iter().map(|c| c.op).collect();
        assert_eq!(ops, [Some(0), Some(6)], "{checked:?}");
        // `run` still gives the first as an internal error at its op.
        assert!(matches!(
            exec.run(&r.case),
            Err(ExecError::Internal { op: Some(0), .. })
        ));
        let Verdict::Failed(report) = judge(&mut exec, &r.case, &r.results, &Known::none()) else {
            panic!("a failed self-check passed");
        };
        assert!(
            report.starts_with("case ladder/biomes-r1: paletted (Rust) self-check failed at op 0 of 9 (bits), though every result compared matches its recording\n"),
            "{report}"
        );
        assert!(
            report.contains("\n  at op 6 of 9 (bits): the strict call disagrees"),
            "{report}"
        );
        assert!(!report.contains("could not run"), "{report}");
    }

    /// Results and self-checks given as they are.
    struct Stub(Checked);

    impl Executor for Stub {
        fn name(&self) -> String {
            "stub".into()
        }
        fn run(&mut self, _: &Case) -> Result<Vec<Outcome>, ExecError> {
            unreachable!("judged through run_checked")
        }
        fn run_checked(&mut self, _: &Case) -> Result<Checked, ExecError> {
            Ok(self.0.clone())
        }
    }

    #[test]
    fn the_divergence_is_reported_first_and_the_self_checks_after() {
        let r = recorded("ladder/biomes-r1");
        let mut results = r.results.clone();
        results[3] = Outcome::Ok("other".into());
        let mut stub = Stub(Checked {
            results,
            self_checks: vec![SelfCheck {
                op: Some(1),
                message: "two entry points disagree".into(),
            }],
        });
        let Verdict::Failed(report) = judge(&mut stub, &r.case, &r.results, &Known::none()) else {
            panic!("a divergence passed");
        };
        assert!(
            report.starts_with("case ladder/biomes-r1: op 3 of 9 diverges: pack\n  recorded  {\"ok\":{\"palette\":[0],"),
            "{report}"
        );
        assert!(
            report.contains("\n  stub      {\"ok\":\"other\"}\n"),
            "{report}"
        );
        let check = report
            .find("\nself-check: 1 failed cross-check of stub")
            .unwrap();
        assert!(report[check..].contains("\n  at op 1 of 9 (palette): two entry points disagree\n"));
        // A run stopped before an op (a panic): that op diverges with no result.
        let mut stub = Stub(Checked {
            results: r.results[..2].to_vec(),
            self_checks: vec![SelfCheck {
                op: Some(2),
                message: "paletted panicked: boom".into(),
            }],
        });
        let Verdict::Failed(report) = judge(&mut stub, &r.case, &r.results, &Known::none()) else {
            panic!("a stopped run passed");
        };
        assert!(
            report.starts_with("case ladder/biomes-r1: op 2 of 9 diverges: write\n"),
            "{report}"
        );
        assert!(
            report.contains("(no result)") && report.contains("(write): paletted panicked: boom"),
            "{report}"
        );
    }
}
