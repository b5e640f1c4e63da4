//! Runs conformance cases through an executor and diffs the results.
//!
//! A [`case::Case`] is a subject and a list of operations; a
//! [`recorded::Recorded`] adds the results something (Minecraft, ideally)
//! gave, in the golden format. An [`exec::Executor`] runs a case;
//! [`rust::RustExecutor`] runs it on the `paletted` crate. [`compare`] finds
//! the first divergence and reports it; [`known`] lists divergences that are
//! expected; [`snapshot`] reads and writes the recorded results kept beside
//! the cases, with their provenance; [`verdict`] puts these together.
#![warn(missing_docs)]

pub mod case;
pub mod compare;
pub mod error;
pub mod exec;
pub mod known;
pub mod outcome;
pub mod recorded;
pub mod rust;
pub mod snapshot;
pub mod store;
pub mod verdict;
