//! `rig`: the paletted conformance rig's command line.
//!
//! Quiet on success, precise on failure: every command prints what failed and
//! where, and exits non-zero when anything did.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cmd;
mod jvm;
mod packets;
mod world;

#[derive(Parser)]
#[command(
    name = "rig",
    version,
    about = "Checks paletted's Rust containers against Minecraft 26.3's own results"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

// Each command lives in `cmd/<name>.rs` with an `Args` struct and a `run`.
#[derive(Subcommand)]
enum Command {
    /// Every recorded case through the Rust containers, compared with Minecraft's results (the default).
    Check(cmd::check::Args),
    /// Times the benchmark workloads through the Rust containers and, with --minecraft or
    /// --classpath, through the Java classes (timed inside the JVM by the probe).
    Bench(cmd::bench::Args),
    /// Runs one case and shows its first divergence in full, or one op's result.
    Repro(cmd::repro::Args),
    /// Splits recordings (golden format) into op lists and snapshots.
    Import(cmd::import::Args),
    /// Joins op lists and snapshots back into recordings (golden format).
    Export(cmd::export::Args),
    /// Validates, names and files a new regression case under cases/ops/regress/.
    Add(cmd::add::Args),
    /// Generated op lists (no results) from a family and a seed.
    Gen(cmd::gen::Args),
    /// Shrinks a diverging recorded case to a regression case.
    Shrink(cmd::shrink::Args),
    /// Which transitions, storage widths, op kinds and error kinds a set of cases reaches.
    Coverage(cmd::coverage::Args),
    /// Every section of real region files: unpack, pack, and back to the same palette and longs.
    World(cmd::world::Args),
    /// Every case through Minecraft's classes (JVM) and the Rust containers, live, compared.
    Diff(cmd::diff::Args),
    /// Records cases from Minecraft's classes (JVM) as snapshots with their provenance.
    Record(cmd::record::Args),
    /// Gets Minecraft's server jar: `rig minecraft fetch 26.3`.
    Minecraft(cmd::minecraft::Args),
    /// Generated cases through both sides, live; shrinks the first divergence.
    Fuzz(cmd::fuzz::Args),
    /// Adapters (--executor NAME=CMD) over the recorded set: per family passed, failed and
    /// unsupported, and a minimal repro per kind of divergence, as Markdown and JSON.
    Conformance(cmd::conformance::Args),
    /// The Rust containers as an adapter on stdin/stdout (`rig adapter paletted`), speaking the
    /// protocol `--executor` takes.
    Adapter(cmd::adapter::Args),
    /// Internal: the child process that holds the JVM for diff, record and fuzz.
    #[command(hide = true)]
    ProbeServer(cmd::probe_server::Args),
}

/// Puts this executable's folder first on PATH, so that an adapter command
/// naming `rig` (the README's `--executor "rig adapter paletted"`) runs this
/// rig however it was started (`cargo run`, a path, not installed at all).
fn rig_on_path() {
    let Some(dir) = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(std::path::Path::to_path_buf))
    else {
        return;
    };
    let mut dirs = vec![dir];
    if let Some(path) = std::env::var_os("PATH") {
        dirs.extend(std::env::split_paths(&path));
    }
    if let Ok(path) = std::env::join_paths(dirs) {
        // Before any thread is started.
        std::env::set_var("PATH", path);
    }
}

fn main() -> ExitCode {
    rig_on_path();
    let cli = Cli::parse();
    let command = cli
        .command
        .unwrap_or_else(|| Command::Check(cmd::check::Args::default()));
    match command {
        Command::Check(args) => cmd::check::run(args),
        Command::Bench(args) => cmd::bench::run(args),
        Command::Repro(args) => cmd::repro::run(args),
        Command::Import(args) => cmd::import::run(args),
        Command::Export(args) => cmd::export::run(args),
        Command::Add(args) => cmd::add::run(args),
        Command::Gen(args) => cmd::gen::run(args),
        Command::Shrink(args) => cmd::shrink::run(args),
        Command::Coverage(args) => cmd::coverage::run(args),
        Command::World(args) => cmd::world::run(args),
        Command::Diff(args) => cmd::diff::run(args),
        Command::Record(args) => cmd::record::run(args),
        Command::Minecraft(args) => cmd::minecraft::run(args),
        Command::Fuzz(args) => cmd::fuzz::run(args),
        Command::Conformance(args) => cmd::conformance::run(args),
        Command::Adapter(args) => cmd::adapter::run(args),
        Command::ProbeServer(args) => cmd::probe_server::run(args),
    }
}
