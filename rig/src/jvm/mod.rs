//! The JVM side of the rig: Minecraft's own classes (or the test fixture) run the cases, in a
//! JVM started with JNI's invocation API inside a `rig probe-server` child process.
//!
//! - [`jdk`]: finding a JDK.
//! - [`minecraft`]: turning `--minecraft`/`--classpath` into a class path (bundler jars
//!   unpacked into the cache) and `rig minecraft fetch`.
//! - [`probe`]: the probe's Java source and its cached compilation.
//! - [`shape`]: [`Shape`], which of Minecraft's API shapes the classes have.
//! - [`protocol`]: the child's frames and the probe's request lines.
//! - [`server`]: the child, holding the JVM.
//! - [`executor`]: [`JvmExecutor`], the parent's handle on the child.
//! - [`regimes`]: [`Regimes`], a child per identity-hash regime, so that results that depend
//!   on the run are found and kept as such.

pub mod executor;
pub mod jdk;
pub mod minecraft;
pub mod probe;
pub mod protocol;
pub mod regimes;
pub mod server;
pub mod shape;

use std::env;
use std::path::PathBuf;

pub use executor::{Answer, ClassesVersion, JvmExecutor, Setup};
pub use regimes::Regimes;
pub use shape::Shape;

/// A class only the test fixture has (its switchboard of planted differences,
/// rig/tests/fixture/README.md). The JVM is asked whether it can load it, so
/// the fixture is recognised however it is given: compiled classes, a jar,
/// or its source folder (which javac compiles into the probe's classes).
pub const FIXTURE_MARK: &str = "net/minecraft/world/level/chunk/Plants";

/// Where compiled probes, unpacked bundler jars and downloads go: `RIG_CACHE_DIR`, else
/// `$XDG_CACHE_HOME/paletted`, else `~/.cache/paletted`, else `target/rig-cache`.
pub fn cache_dir() -> PathBuf {
    if let Some(dir) = env::var_os("RIG_CACHE_DIR").filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    if let Some(dir) = env::var_os("XDG_CACHE_HOME").filter(|d| !d.is_empty()) {
        return PathBuf::from(dir).join("paletted");
    }
    if let Some(home) = env::var_os("HOME").filter(|d| !d.is_empty()) {
        return PathBuf::from(home).join(".cache/paletted");
    }
    PathBuf::from("target/rig-cache")
}

/// The options every JVM-side command shares: where Minecraft is, and how to start the JVM.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct JvmArgs {
    /// Minecraft's server jar: the official bundler jar (unpacked into the cache), or a plain
    /// server jar (give its libraries with --classpath). Default: $MINECRAFT_JAR.
    #[arg(long, value_name = "JAR")]
    pub minecraft: Option<PathBuf>,
    /// Class path entries (A:B:...) holding Minecraft's classes and libraries, or the test
    /// fixture.
    #[arg(long, value_name = "A:B:...")]
    pub classpath: Option<String>,
    /// What the results came from, for records made from a --classpath (a jar names itself).
    #[arg(long, value_name = "TEXT")]
    pub source: Option<String>,
    /// An extra JVM option, such as -Xmx2g or -Dfixture.plant=count-order (repeatable).
    #[arg(long = "jvm-option", value_name = "OPTION", allow_hyphen_values = true)]
    pub jvm_options: Vec<String>,
    /// The Minecraft version the --classpath classes are (a jar names its own): cases of
    /// that version run, others are refused. Without it, classes of 26.x's API shape are taken
    /// to be 26.x; classes of an older shape (1.21.9 to 26.2, 1.19 to 1.21.8, 1.18) run no case
    /// until it is given.
    #[arg(long, value_name = "VERSION")]
    pub classes_version: Option<String>,
    /// Run every case under every identity-hash regime in `rig diff` and `rig fuzz` too (as
    /// `rig record` always does). By default the second regime runs only the cases whose
    /// results harness::hashdep cannot clear (a load that can give a hash-map palette an
    /// id twice): the model marks what the known mechanism can do either way, and this
    /// audits it for one nobody knows of, at half the speed.
    #[arg(long)]
    pub all_regimes: bool,
    /// Seconds one case may take on the JVM side before the child is killed and restarted.
    #[arg(long, value_name = "SECS", default_value_t = 120.0)]
    pub case_timeout: f64,
}

impl JvmArgs {
    /// The setup and a started JVM side (a child per identity-hash regime), asked whether it
    /// loads the test fixture's marker class: the fixture can never pass for Minecraft,
    /// whatever --source says.
    pub fn start(&self) -> Result<(Setup, Regimes), String> {
        let mut setup = self.setup()?;
        let mut jvm = Regimes::new(&setup)?;
        if jvm
            .loads_fixture()
            .map_err(|e| format!("the JVM side cannot run: {e}"))?
        {
            setup.mark_fixture();
        }
        Ok((setup, jvm))
    }

    /// The class path and provenance these options name.
    pub fn setup(&self) -> Result<Setup, String> {
        let cache = cache_dir();
        let minecraft = self.minecraft.clone().or_else(|| {
            env::var_os("MINECRAFT_JAR")
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        });
        // With nothing named, the jar `rig minecraft fetch` got last.
        let minecraft = match (minecraft, &self.classpath) {
            (None, None) => {
                let fetched = minecraft::last_fetched(&cache);
                if let Some(jar) = &fetched {
                    eprintln!(
                        "using {}, the jar `rig minecraft fetch` got last",
                        jar.display()
                    );
                }
                fetched
            }
            (named, _) => named,
        };
        let extra: Vec<PathBuf> = self
            .classpath
            .as_deref()
            .map(|cp| {
                cp.split(':')
                    .filter(|p| !p.is_empty())
                    .map(PathBuf::from)
                    .collect()
            })
            .unwrap_or_default();
        let (mut minecraft_version, mut jar_sha1) = (None, None);
        let (classpath, source) = match minecraft {
            Some(jar) => {
                let found = minecraft::resolve_jar(&jar, &cache)?;
                minecraft_version = found.version;
                jar_sha1 = Some(found.jar_sha1);
                let mut cp = found.classpath;
                cp.extend(extra);
                (cp, self.source.clone().unwrap_or(found.source))
            }
            None if !extra.is_empty() => {
                let source = self.source.clone().unwrap_or_else(|| {
                    format!(
                        "class path {} (no --source given)",
                        self.classpath.as_deref().unwrap_or("")
                    )
                });
                (extra, source)
            }
            None => {
                return Err(
                    "no Minecraft classes: give --minecraft JAR (or set MINECRAFT_JAR), or \
                            --classpath A:B:..., or run `rig minecraft fetch 26.3` first"
                        .into(),
                )
            }
        };
        for p in &classpath {
            if !p.exists() {
                return Err(format!("class path entry {} does not exist", p.display()));
            }
        }
        let shape = Shape::pick(
            minecraft_version.as_deref(),
            self.classes_version.as_deref(),
            &classpath,
        )?;
        let classes = ClassesVersion::new(
            self.classes_version.as_deref(),
            minecraft_version.as_deref(),
            shape,
        )?;
        Ok(Setup {
            classpath,
            jvm_options: self.jvm_options.clone(),
            source,
            cache,
            minecraft_version,
            jar_sha1,
            classes,
            fixture: false,
            case_timeout: std::time::Duration::try_from_secs_f64(self.case_timeout)
                .map_err(|e| format!("--case-timeout {}: {e}", self.case_timeout))?,
        })
    }
}
