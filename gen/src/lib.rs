//! `gen`: generates, shrinks and measures the coverage of paletted
//! conformance cases.
//!
//! - [`families`]: named, seeded families of operation lists (no results:
//!   results come only from Minecraft).
//! - [`shrink`]: delta debugging of a diverging case down to a few ops.
//! - [`coverage`]: which palette transitions, storage widths, op kinds and
//!   error kinds a set of cases reaches.

pub mod draft;
pub mod families;
pub mod rng;

pub use families::{default_cases, family, Family, DEFAULT, FAMILIES};
pub mod coverage;
pub mod shrink;

pub use coverage::Coverage;
pub use shrink::{shrink, Shrunk};
