//! One module a command, each with `Args` (clap) and `run(Args) -> ExitCode`.

pub mod adapter;
pub mod add;
mod behaviour;
pub mod bench;
pub mod check;
pub mod conformance;
pub mod coverage;
pub mod diff;
pub mod export;
pub mod fuzz;
pub mod gen;
mod grid;
pub mod import;
pub mod jvm_cases;
pub mod live;
pub mod minecraft;
pub mod probe_server;
pub mod record;
pub mod repro;
pub mod shrink;
pub mod world;

use std::path::{Path, PathBuf};

use harness::store::Store;

/// The case store of the checkout holding the current directory; outside
/// any checkout, the tree this rig was built from, and a note on stderr
/// saying which, so a run elsewhere never reads cases silently.
pub fn store() -> Store {
    store_for(&[])
}

/// [`store`], for a command given case `paths`: outside any checkout, the
/// checkout holding the first of them that is in one (its trusted sources,
/// snapshots and known divergences go with the cases given), so another
/// project's CI can run a fetched checkout's recorded set from its own
/// folder. Only when none is in a checkout does the note name the tree rig
/// was built from.
pub fn store_for(paths: &[PathBuf]) -> Store {
    let here = std::env::current_dir().unwrap_or_default();
    if let Some(root) = checkout_holding(&here) {
        return Store::at(root);
    }
    if let Some(root) = paths
        .iter()
        .filter_map(|p| p.canonicalize().ok())
        .find_map(|p| checkout_holding(&p))
    {
        return Store::at(root);
    }
    let store = Store::find();
    let root = store
        .root()
        .canonicalize()
        .unwrap_or_else(|_| store.root().to_path_buf());
    eprintln!(
        "rig: not inside a checkout (no cases/ops above {}); using the tree rig was built from: {}",
        here.display(),
        root.display()
    );
    store
}

/// The nearest folder at or above `path` with `cases/ops`.
fn checkout_holding(path: &Path) -> Option<PathBuf> {
    path.ancestors()
        .find(|d| d.join("cases").join("ops").is_dir())
        .map(Path::to_path_buf)
}

/// `--jobs N`, shared by the commands that work on every core.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct Jobs {
    /// Items worked on at once: threads for `check` and `world`; for `diff` and `fuzz`, cases,
    /// each on its own JVM child (and adapter process). The output is the same for every N.
    /// Default: the available cores (at most 8 JVM children).
    #[arg(short = 'j', long, value_name = "N")]
    pub jobs: Option<std::num::NonZeroUsize>,
}

/// Each JVM child holds a JVM (a few hundred MB at most) and its compiler threads.
const MAX_DEFAULT_JVMS: usize = 8;

impl Jobs {
    fn cores() -> usize {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    }

    /// Runs `f` in a thread pool of this many threads; rayon's parallel
    /// iterators inside it use that pool.
    pub fn install<T: Send>(self, f: impl FnOnce() -> T + Send) -> T {
        let threads = self
            .jobs
            .map_or_else(Self::cores, std::num::NonZeroUsize::get);
        match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool.install(f),
            // No pool of that size to be had: rayon's global one.
            Err(_) => f(),
        }
    }

    /// The number of JVM children for `work` items (never more than there are).
    pub fn jvm_children(self, work: Option<usize>) -> usize {
        let n = self.jobs.map_or_else(
            || Self::cores().min(MAX_DEFAULT_JVMS),
            std::num::NonZeroUsize::get,
        );
        work.map_or(n, |w| n.min(w)).max(1)
    }
}
