//! `gen`: generates, shrinks and measures the coverage of paletted
//! conformance cases.
//!
//! - [`families`]: named, seeded families of operation lists. They hold no
//!   results: results come only from Minecraft (record them, then check).
//!   Randomness is the crate's own SplitMix64 ([`rng`]), so a seed gives the
//!   same bytes whatever the dependencies do.
//! - [`shrink`]: delta debugging of a diverging case down to a few ops, for
//!   any predicate. With a live Minecraft (the JVM executor) the predicate is
//!   [`shrink::executors_differ`]; against a recording it is
//!   [`shrink::disagrees_with_recording`].
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
