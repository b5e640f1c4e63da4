//! `rig minecraft`: getting Minecraft's server jar. `fetch VERSION` downloads it as a launcher
//! does (version manifest, version JSON, `downloads.server`, SHA-1 checked; before 26.1 also
//! `downloads.server_mappings`, SHA-1 checked) and unpacks the bundler into the cache, then
//! prints the jar's path for `--minecraft`.

use std::process::ExitCode;

use crate::jvm::{cache_dir, minecraft};

/// Arguments of `rig minecraft`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub command: Sub,
}

/// What `rig minecraft` does.
#[derive(clap::Subcommand)]
pub enum Sub {
    /// Downloads VERSION's server jar (checked against Mojang's SHA-1) and unpacks it; before
    /// 26.1 also its server mappings (checked the same way), saved beside it.
    Fetch {
        /// A version id from the manifest, such as 26.3.
        version: String,
        /// The version manifest to start from.
        #[arg(long, default_value = minecraft::MANIFEST_URL)]
        manifest_url: String,
        /// Seconds to connect to a server.
        #[arg(long, value_name = "SECS", default_value_t = 30.0)]
        connect_timeout: f64,
        /// Seconds to wait for the next bytes of an answer.
        #[arg(long, value_name = "SECS", default_value_t = 60.0)]
        read_timeout: f64,
        /// Seconds one download may take in all.
        #[arg(long, value_name = "SECS", default_value_t = 900.0)]
        timeout: f64,
    },
}

/// Runs `rig minecraft`.
pub fn run(args: Args) -> ExitCode {
    match args.command {
        Sub::Fetch {
            version,
            manifest_url,
            connect_timeout,
            read_timeout,
            timeout,
        } => {
            let secs = |name: &str, v: f64| {
                std::time::Duration::try_from_secs_f64(v).map_err(|e| format!("--{name} {v}: {e}"))
            };
            let timeouts = match (
                secs("connect-timeout", connect_timeout),
                secs("read-timeout", read_timeout),
                secs("timeout", timeout),
            ) {
                (Ok(connect), Ok(read), Ok(overall)) => minecraft::Timeouts {
                    connect,
                    read,
                    overall,
                },
                (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => {
                    eprintln!("rig minecraft fetch: {e}");
                    return ExitCode::from(2);
                }
            };
            let cache = cache_dir();
            let result = minecraft::fetch(&version, &manifest_url, &cache, timeouts)
                .and_then(|jar| minecraft::resolve_jar(&jar, &cache).map(|found| (jar, found)));
            match result {
                Ok((jar, found)) => {
                    println!("{}", jar.display());
                    let mappings = minecraft::mappings_beside(&jar);
                    if mappings.is_file() {
                        eprintln!(
                            "rig minecraft fetch: Mojang's server mappings (SHA-1 checked): {}",
                            mappings.display()
                        );
                    }
                    eprintln!(
                        "rig minecraft fetch: {} ({} class path entries); run e.g.\n  rig diff --minecraft {}",
                        found.source,
                        found.classpath.len(),
                        jar.display()
                    );
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("rig minecraft fetch: {e}");
                    eprintln!(
                        "hint: with a server jar at hand, no download is needed: give it with \
                         --minecraft JAR (or MINECRAFT_JAR) to rig diff, record and fuzz"
                    );
                    ExitCode::FAILURE
                }
            }
        }
    }
}
