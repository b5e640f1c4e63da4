//! `rig gen`: writes generated op lists (no results: those come only from
//! Minecraft).

use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `rig gen`.
#[derive(clap::Args)]
pub struct Args {
    /// A family (`rig gen list` names them all, the untrusted-input ones such
    /// as `wire-count` included), `default` for one sweep of every default
    /// family, or `list` to list them.
    pub family: String,
    /// The seed: same seed and count, same bytes.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// How many cases (default: one sweep of the family's variants).
    #[arg(long)]
    pub count: Option<usize>,
    /// The Minecraft version to build at (its registries, rules and wire
    /// form; cases named `v<VERSION>/...`). Default: each family's own
    /// (26.3; 1.21.4 for `longs`). With `default`, the families that mean
    /// something at the version.
    #[arg(long, value_name = "VERSION")]
    pub version: Option<String>,
    /// Write one file a case under this folder (`DIR/<name>.json`); otherwise
    /// print one case a line.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Runs `rig gen`.
pub fn run(args: Args) -> ExitCode {
    if args.family == "list" {
        for f in gen::FAMILIES {
            let default = if gen::DEFAULT.contains(&f.name) {
                " (default)"
            } else {
                ""
            };
            let at: Vec<&str> = paletted::Version::ALL
                .iter()
                .filter(|&&v| f.means_something_at(v))
                .map(|v| v.name())
                .collect();
            println!(
                "{:<13} {} variants{default} (at {}): {}",
                f.name,
                (f.variants)().len(),
                at.join(", "),
                f.about
            );
        }
        return ExitCode::SUCCESS;
    }
    let version = match args.version.as_deref().map(harness::case::parse_version) {
        None => None,
        Some(Ok(v)) => Some(v),
        Some(Err(e)) => {
            eprintln!("rig gen: --version: {e}");
            return ExitCode::FAILURE;
        }
    };
    let names: Vec<&str> = if args.family == "default" {
        gen::DEFAULT
            .iter()
            .copied()
            .filter(|name| {
                version.is_none_or(|v| gen::family(name).is_some_and(|f| f.means_something_at(v)))
            })
            .collect()
    } else {
        vec![args.family.as_str()]
    };
    let mut cases = Vec::new();
    for name in names {
        let Some(family) = gen::family(name) else {
            eprintln!("rig gen: no family {name:?} (try `rig gen list`)");
            return ExitCode::FAILURE;
        };
        let made = match version {
            Some(v) => family.cases_at(args.seed, args.count, v),
            None => family.cases(args.seed, args.count),
        };
        match made {
            Ok(c) => cases.extend(c),
            Err(e) => {
                eprintln!("rig gen: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    match &args.out {
        None => {
            use std::io::Write as _;
            let mut out = std::io::stdout().lock();
            for case in &cases {
                match out.write_all(case.to_text().as_bytes()) {
                    Ok(()) => {}
                    // A reader that stopped early (`| head`) is not a failure.
                    Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                        return ExitCode::SUCCESS
                    }
                    Err(e) => {
                        eprintln!("rig gen: cannot write: {e}");
                        return ExitCode::FAILURE;
                    }
                }
            }
        }
        Some(dir) => {
            for case in &cases {
                let path = dir.join(format!("{}.json", case.name));
                if let Err(e) = harness::atomic::write(&path, case.to_text()) {
                    eprintln!("rig gen: {e}");
                    return ExitCode::FAILURE;
                }
            }
            eprintln!(
                "rig gen: wrote {} cases under {}",
                cases.len(),
                dir.display()
            );
        }
    }
    ExitCode::SUCCESS
}
