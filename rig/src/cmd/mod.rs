//! One module a command, each with `Args` (clap) and `run(Args) -> ExitCode`.

pub mod check;
pub mod world;
