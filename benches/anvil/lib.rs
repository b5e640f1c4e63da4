//! Nothing here: the benchmark is benches/anvil.rs.
