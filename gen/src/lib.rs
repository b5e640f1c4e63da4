//! `gen`: generates, shrinks and measures the coverage of paletted
//! conformance cases.
//!
//! - [`families`]: named, seeded families of operation lists. They hold no
//!   results: results come only from Minecraft (record them, then check).
//!   Randomness is the crate's own SplitMix64 ([`rng`]), so a seed gives the
//!   same bytes whatever the dependencies do.
//! - [`shrink`]: the one shrinker. Against a recording, with no Minecraft,
//!   [`shrink::against_recording`] keeps the prefix to the divergence less
//!   the ops before it that only observe, so the kept ops keep their recorded
//!   results ([`shrink::Derived`], a recording derived from its parent; `rig
//!   shrink`, `rig conformance`). With a live Minecraft (the JVM executor),
//!   [`shrink()`] also drops state-changing ops and simplifies values, for any
//!   predicate ([`shrink::executors_differ`]; `rig fuzz`).
//! - [`plant`]: the Rust executor with one planted bug, to prove the
//!   shrinker end to end.
//! - [`coverage`]: which palette transitions, resizes, storage widths, op
//!   kinds and error kinds a set of cases reaches.
//!
//! ```no_run
//! # use harness::exec::Executor;
//! # fn jvm() -> Box<dyn Executor> { unimplemented!() }
//! let case = gen::family("random").unwrap().cases(1, Some(1)).unwrap().remove(0);
//! let (mut minecraft, mut rust) = (jvm(), harness::rust::RustExecutor::new());
//! let shrunk = gen::shrink(&case, gen::shrink::executors_differ(&mut *minecraft, &mut rust));
//! ```

pub mod coverage;
pub mod draft;
pub mod families;
pub mod plant;
pub mod rng;
pub mod shrink;

pub use coverage::{op_items, Coverage};
pub use families::{default_cases, family, Family, DEFAULT, FAMILIES};
pub use shrink::{shrink, Shrunk};
