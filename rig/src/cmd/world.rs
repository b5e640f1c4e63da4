//! `rig world`: every section of real region files through unpack and pack,
//! back to its own palette and longs.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::world::{self, Options};

/// Arguments of `rig world`.
#[derive(clap::Args, Default)]
pub struct Args {
    /// World folders, `region/` folders, `.mca` region files or chunk `.nbt` files.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Write the containers as cases (ops only) into this folder, for `rig record`.
    #[arg(long, value_name = "DIR")]
    pub export: Option<PathBuf>,
    /// Pick this many containers spread over every palette size class (exported with --export, else listed).
    #[arg(long, value_name = "N")]
    pub sample: Option<usize>,
    /// Only read, decompress and parse every chunk with fastnbt (no check): the NBT crate's own time, for comparison.
    #[arg(long, conflicts_with_all = ["export", "sample"])]
    pub parse_only: bool,
    #[command(flatten)]
    pub jobs: super::Jobs,
}

/// Runs `rig world`: prints the report; fails on any difference in a
/// chunk the game saved normally, or any unreadable input.
pub fn run(args: Args) -> ExitCode {
    args.jobs.install(|| run_in_pool(args))
}

fn run_in_pool(args: Args) -> ExitCode {
    if args.parse_only {
        let (chunks, bytes, failed, elapsed) = world::parse_only(&args.paths);
        let secs = elapsed.as_secs_f64().max(1e-9);
        println!(
            "parse only: {chunks} chunks ({failed} unreadable), {:.2} MB in {secs:.3} s, {:.1} MB/s",
            bytes as f64 / 1e6,
            bytes as f64 / 1e6 / secs
        );
        return if failed == 0 {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        };
    }
    if args.sample == Some(0) {
        eprintln!("rig world: --sample 0 picks nothing; give a count of at least 1");
        return ExitCode::from(2);
    }
    let options = Options {
        export: args.export.clone(),
        sample: args.sample,
        progress: true,
    };
    let (report, outcome) = world::run(&args.paths, &options);
    if outcome.files == 0 {
        let given: Vec<String> = args.paths.iter().map(|p| p.display().to_string()).collect();
        print!("{report}");
        eprintln!(
            "rig world: no region files in {}: looked for .mca files in `region` folders below \
             it (a world's dimensions), and .mca or chunk .nbt files given directly or at the top \
             of a folder given",
            given.join(", ")
        );
        if !outcome.skipped.is_empty() {
            let shown: Vec<String> = outcome
                .skipped
                .iter()
                .take(3)
                .map(|p| p.display().to_string())
                .collect();
            eprintln!(
                "rig world: passed over {} .mca file(s) not in a `region` folder ({}{}); give them, or their folder, directly",
                outcome.skipped.len(),
                shown.join(", "),
                if outcome.skipped.len() > 3 { ", ..." } else { "" }
            );
        }
        return ExitCode::FAILURE;
    }
    print!("{report}");
    let picked = &outcome.picked;
    if args.sample.is_some() && args.export.is_none() {
        for p in picked {
            println!(
                "sample: {} ({} palette entries)",
                p.place,
                p.packed.palette.len()
            );
        }
    }
    if let Some(dir) = &args.export {
        println!(
            "exported {} cases into {}; {} containers identical to one already exported dropped",
            outcome.exported,
            dir.display(),
            outcome.dropped
        );
    }
    if report.total().failed() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
