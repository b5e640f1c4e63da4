//! Nothing to link: the workloads are in `benches/peers.rs` (a package needs a
//! library or binary target to hold benchmarks).
