//! One case's verdict: run it, compare with its recording, and weigh the
//! known divergences.

use crate::case::Case;
use crate::compare::{measure, Comparison, Counts};
use crate::exec::Executor;
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
    judge_measured(exec, case, recorded, known).0
}

/// [`judge`], with how many ops were compared and skipped (none for a case
/// that could not run).
pub fn judge_measured(
    exec: &mut dyn Executor,
    case: &Case,
    recorded: &[Outcome],
    known: &Known,
) -> (Verdict, Counts) {
    let actual = match exec.run(case) {
        Ok(actual) => actual,
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
    let (comparison, counts) = measure(case, recorded, &actual);
    let divergence = match comparison {
        Comparison::Same => None,
        Comparison::Differs(d) => Some(d),
        Comparison::Unsupported {
            op,
            op_text,
            reason,
        } => {
            return (
                Verdict::Unsupported {
                    summary: format!("op {op}: {op_text}: {reason}"),
                },
                counts,
            )
        }
    };
    let verdict = match (divergence, known.reason(&case.name)) {
        (None, None) => Verdict::Passed,
        (None, Some(reason)) => Verdict::Failed(format!(
            "case {}: matches its recording now, but {} lists it as a known divergence ({reason}); remove the entry\n",
            case.label(),
            known::PATH
        )),
        (Some(d), None) => Verdict::Failed(d.report(case, "recorded", &exec.name())),
        (Some(d), Some(reason)) => Verdict::Expected {
            reason: reason.to_string(),
            summary: format!("op {}: {}", d.op, d.op_text),
        },
    };
    (verdict, counts)
}
