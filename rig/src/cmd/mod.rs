//! One module a command, each with `Args` (clap) and `run(Args) -> ExitCode`.

pub mod adapter;
pub mod add;
pub mod bench;
pub mod check;
pub mod conformance;
pub mod coverage;
pub mod diff;
pub mod export;
pub mod fuzz;
pub mod gen;
pub mod import;
pub mod jvm_cases;
pub mod live;
pub mod minecraft;
pub mod probe_server;
pub mod record;
pub mod repro;
pub mod shrink;
pub mod world;

use harness::store::Store;

/// The case store of the checkout holding the current directory; outside
/// any checkout, the tree this rig was built from, and a note on stderr
/// saying which, so a run elsewhere never reads cases silently.
pub fn store() -> Store {
    let store = Store::find();
    let here = std::env::current_dir().unwrap_or_default();
    if !here
        .ancestors()
        .any(|d| d.join("cases").join("ops").is_dir())
    {
        let root = store
            .root()
            .canonicalize()
            .unwrap_or_else(|_| store.root().to_path_buf());
        eprintln!(
            "rig: not inside a checkout (no cases/ops above {}); using the tree rig was built from: {}",
            here.display(),
            root.display()
        );
    }
    store
}

/// `--jobs N`, shared by the commands that work on every core.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct Jobs {
    /// Threads to check on [default: the machine's available parallelism]. The output is
    /// the same for every N; `--jobs 1` checks one item after the other.
    #[arg(long, value_name = "N")]
    pub jobs: Option<std::num::NonZeroUsize>,
}

impl Jobs {
    /// Runs `f` in a thread pool of this many threads; rayon's parallel
    /// iterators inside it use that pool.
    pub fn install<T: Send>(self, f: impl FnOnce() -> T + Send) -> T {
        let threads = self
            .jobs
            .or_else(|| std::thread::available_parallelism().ok())
            .map_or(1, std::num::NonZeroUsize::get);
        match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool.install(f),
            // No pool of that size to be had: rayon's global one.
            Err(_) => f(),
        }
    }
}
