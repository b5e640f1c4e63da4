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
}

/// Runs `rig world`: prints the report; fails on any difference in a
/// chunk the game saved normally, or any unreadable input.
pub fn run(args: Args) -> ExitCode {
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
    let options = Options {
        export: args.export.clone(),
        sample: args.sample,
        progress: true,
    };
    let (report, picked, exported) = world::run(&args.paths, &options);
    print!("{report}");
    if args.sample.is_some() && args.export.is_none() {
        for p in &picked {
            println!(
                "sample: {} ({} palette entries)",
                p.place,
                p.packed.palette.len()
            );
        }
    }
    if let Some(dir) = &args.export {
        println!("exported {exported} cases into {}", dir.display());
    }
    if report.total().failed() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
