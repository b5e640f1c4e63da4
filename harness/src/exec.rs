//! Something that runs a case and gives one result per op: the Rust
//! containers here, Minecraft's classes through the JVM elsewhere.

use std::fmt;

use crate::case::Case;
use crate::outcome::Outcome;

/// Runs cases. Implementations: [`crate::rust::RustExecutor`]; the JVM probe.
pub trait Executor {
    /// A short name for reports (`paletted`, `minecraft 26.3 (jvm)`).
    fn name(&self) -> String;
    /// Runs every op of `case` on a fresh subject, one result per op.
    fn run(&mut self, case: &Case) -> Result<Vec<Outcome>, ExecError>;

    /// [`run`](Self::run), with the executor's own cross-checks kept apart
    /// from the results, so that a failed one never hides a divergence: the
    /// results are compared with the recording first, and the findings
    /// reported after. An executor with no cross-checks of its own gives
    /// `run`'s results and none.
    fn run_checked(&mut self, case: &Case) -> Result<Checked, ExecError> {
        Ok(Checked {
            results: self.run(case)?,
            self_checks: Vec::new(),
        })
    }
}

/// What [`Executor::run_checked`] gave: a result per op (fewer when the
/// executor stopped at one, which a [`SelfCheck`] then names), and the
/// executor's cross-checks that failed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Checked {
    /// The results, in op order.
    pub results: Vec<Outcome>,
    /// The cross-checks that failed, in the order they were made.
    pub self_checks: Vec<SelfCheck>,
}

/// One of an executor's own cross-checks that failed (two of its entry
/// points disagree, a bulk build disagrees with the sets it stands for, it
/// panicked): a bug of the executor, not a result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelfCheck {
    /// The op it was made at (after), or `None` before the first.
    pub op: Option<usize>,
    /// What disagreed.
    pub message: String,
}

impl From<SelfCheck> for ExecError {
    fn from(s: SelfCheck) -> ExecError {
        ExecError::Internal {
            op: s.op,
            message: s.message,
        }
    }
}

/// Why an executor gave no results for a case. Never a result itself: a
/// case that cannot run is a failure of the run, not a divergence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExecError {
    /// The case asks for something Minecraft's API cannot be given (an id
    /// outside the registry, an int out of range, a negative size), so no
    /// recording could hold a result for it.
    Invalid {
        /// The op, when one is to blame.
        op: Option<usize>,
        /// What is wrong.
        reason: String,
    },
    /// A situation the executor does not model (what Minecraft does there
    /// is not known to it).
    Unsupported {
        /// The op.
        op: Option<usize>,
        /// What is not modelled.
        reason: String,
    },
    /// The executor itself failed: a panic caught, a JVM that would not start.
    Internal {
        /// The op, when known.
        op: Option<usize>,
        /// What happened.
        message: String,
    },
}

impl ExecError {
    /// The op the error is about, if any.
    pub fn op(&self) -> Option<usize> {
        match self {
            ExecError::Invalid { op, .. }
            | ExecError::Unsupported { op, .. }
            | ExecError::Internal { op, .. } => *op,
        }
    }
}

impl fmt::Display for ExecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (what, op, text) = match self {
            ExecError::Invalid { op, reason } => ("invalid case", op, reason),
            ExecError::Unsupported { op, reason } => ("not supported", op, reason),
            ExecError::Internal { op, message } => ("internal error", op, message),
        };
        match op {
            Some(i) => write!(f, "{what} at op {i}: {text}"),
            None => write!(f, "{what}: {text}"),
        }
    }
}

impl std::error::Error for ExecError {}
