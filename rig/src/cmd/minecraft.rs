//! `rig minecraft`: getting Minecraft's server jar. `fetch VERSION` downloads it as a launcher
//! does (version manifest, version JSON, `downloads.server`, SHA-1 checked) and unpacks the
//! bundler into the cache, then prints the jar's path for `--minecraft`.

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
    /// Downloads VERSION's server jar (checked against Mojang's SHA-1) and unpacks it.
    Fetch {
        /// A version id from the manifest, such as 26.3.
        version: String,
        /// The version manifest to start from.
        #[arg(long, default_value = minecraft::MANIFEST_URL)]
        manifest_url: String,
    },
}

/// Runs `rig minecraft`.
pub fn run(args: Args) -> ExitCode {
    match args.command {
        Sub::Fetch {
            version,
            manifest_url,
        } => {
            let cache = cache_dir();
            let result = minecraft::fetch(&version, &manifest_url, &cache)
                .and_then(|jar| minecraft::resolve_jar(&jar, &cache).map(|found| (jar, found)));
            match result {
                Ok((jar, found)) => {
                    println!("{}", jar.display());
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
                    ExitCode::FAILURE
                }
            }
        }
    }
}
