//! `rig shrink`: cuts a diverging case down to a regression case.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use gen::plant::{Plant, Planted};
use gen::Shrunk;
use harness::recorded::Recorded;
use harness::rust::RustExecutor;

/// Arguments of `rig shrink`.
#[derive(clap::Args)]
pub struct Args {
    /// A case name (`ladder/biomes-r8`, its snapshot holding the results),
    /// or a recorded case file (golden format), on which the Rust containers
    /// disagree with the recording; with `--plant`, any case or op list.
    pub case: String,
    /// Write the shrunk op list to this folder (otherwise it is printed).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Shrink against a copy of the Rust executor with this planted bug
    /// instead (count-order, short-write, long-bit): proves the shrinker.
    #[arg(long)]
    pub plant: Option<String>,
}

/// Runs `rig shrink`.
///
/// Recorded results hold only for the recorded op list, so against a
/// recording the sound cuts leave the recorded state alone: the case ends at
/// the first op the Rust side disagrees on, and keeps every op before it
/// that changes the subject (observations go). A live-Minecraft predicate
/// (`gen::shrink::shrink` takes any) cuts further, as `--plant` shows.
pub fn run(args: Args) -> ExitCode {
    match shrink(&args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("rig shrink: {e}");
            ExitCode::FAILURE
        }
    }
}

fn shrink(args: &Args) -> Result<ExitCode, String> {
    let path = Path::new(&args.case);
    let (case, results) = super::repro::load(&super::store(), &args.case)?;
    let (shrunk, name, why) = if let Some(plant_name) = &args.plant {
        let names: Vec<&str> = Plant::ALL.iter().map(|(n, _)| *n).collect();
        let plant = Plant::named(plant_name)
            .ok_or_else(|| format!("no plant {plant_name:?} (one of {})", names.join(", ")))?;
        let (mut rust, mut planted) = (RustExecutor::new(), Planted::new(plant));
        let shrunk = gen::shrink(
            &case,
            gen::shrink::executors_differ(&mut rust, &mut planted),
        )
        .map_err(|e| format!("{}: {e}", path.display()))?;
        let why =
            format!("the Rust containers and a copy with the planted bug {plant_name} disagree");
        (shrunk, case.name, why)
    } else {
        let Some(results) = results else {
            return Err(format!(
                "{} holds no recorded results, so nothing to disagree with: record it, shrink it against a live Minecraft, or use --plant",
                path.display()
            ));
        };
        let recorded = Recorded {
            case,
            source: String::new(),
            results,
            format: harness::case::FORMAT,
        };
        let shrunk = gen::shrink::shrink_recorded(&recorded, &mut RustExecutor::new())
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let why =
            "the Rust containers disagree with the recorded result of the last op".to_string();
        (shrunk, recorded.case.name, why)
    };
    report(&shrunk, &name, args.plant.is_none());
    match &args.out {
        Some(dir) => {
            let written = gen::shrink::write_regression(&shrunk, &name, &why, Path::new(dir))?;
            eprintln!(
                "rig shrink: wrote {} (file it with `rig add`)",
                written.display()
            );
        }
        None => print!(
            "{}",
            gen::shrink::as_regression(&shrunk, &name, &why).to_text()
        ),
    }
    Ok(ExitCode::SUCCESS)
}

fn report(shrunk: &Shrunk, name: &str, recorded: bool) {
    let how = if recorded {
        ": the ops that change the subject, up to the first the Rust containers disagree on"
    } else {
        ""
    };
    eprintln!(
        "rig shrink: {name} from {} to {} ops ({} runs){how}",
        shrunk.from_ops,
        shrunk.case.ops.len(),
        shrunk.tests
    );
}
