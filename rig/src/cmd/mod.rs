//! One module a command, each with `Args` (clap) and `run(Args) -> ExitCode`.

pub mod adapter;
pub mod add;
pub mod bench;
pub mod check;
pub mod conformance;
pub mod coverage;
pub mod diff;
pub mod export;
pub mod fuzz;
pub mod gen;
pub mod import;
pub mod jvm_cases;
pub mod minecraft;
pub mod probe_server;
pub mod record;
pub mod repro;
pub mod shrink;
pub mod world;
