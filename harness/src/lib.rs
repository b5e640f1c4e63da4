//! Runs conformance cases through an executor and diffs the results.
//!
//! A [`case::Case`] is a subject and a list of operations; a
//! [`recorded::Recorded`] adds the results something (Minecraft, ideally)
//! gave, in the golden format. An [`exec::Executor`] runs a case;
//! [`rust::RustExecutor`] runs it on the `paletted` crate. [`compare`] finds
//! the first divergence and reports it; [`known`] lists divergences that are
//! expected; [`snapshot`] reads and writes the recorded results kept beside
//! the cases, with their provenance; [`verdict`] puts these together.
//! [`adapter::AdapterExecutor`] runs cases through any other implementation
//! speaking the adapter protocol.
//!
//! ```
//! use std::path::Path;
//! use harness::case::Case;
//! use harness::compare::first_divergence;
//! use harness::exec::Executor;
//! use harness::outcome::Outcome;
//! use harness::rust::RustExecutor;
//!
//! let text = r#"{"name": "example", "subject": {"kind": "container",
//!   "strategy": "biomes", "registry": 65, "initial": 0},
//!   "ops": [{"op": "set", "x": 1, "y": 0, "z": 0, "value": 5}, {"op": "bits"}]}"#;
//! let case = Case::parse(text, Path::new("example.json")).unwrap();
//! let results = RustExecutor::new().run(&case).unwrap();
//! assert_eq!(results[1], Outcome::Ok(1.into()));
//!
//! // A recording that says 4 bits diverges at op 1.
//! let recorded = vec![Outcome::Ok(serde_json::Value::Null), Outcome::Ok(4.into())];
//! let divergence = first_divergence(&case, &recorded, &results).unwrap();
//! assert_eq!(divergence.op, 1);
//! ```
#![warn(missing_docs)]

pub mod adapter;
pub mod atomic;
pub mod case;
pub mod compare;
pub mod error;
pub mod exec;
pub mod hashdep;
pub mod known;
pub mod limits;
pub mod outcome;
pub mod recorded;
pub mod rust;
pub mod snapshot;
pub mod store;
pub mod trusted;
pub mod valid;
pub mod verdict;
