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
