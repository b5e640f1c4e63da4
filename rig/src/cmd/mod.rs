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
