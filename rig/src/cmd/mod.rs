//! One module a command, each with `Args` (clap) and `run(Args) -> ExitCode`.

pub mod add;
pub mod bench;
pub mod check;
pub mod export;
pub mod import;
pub mod repro;
pub mod coverage;
pub mod gen;
pub mod shrink;
pub mod diff;
pub mod fuzz;
pub mod jvm_cases;
pub mod minecraft;
pub mod probe_server;
pub mod record;
pub mod world;
