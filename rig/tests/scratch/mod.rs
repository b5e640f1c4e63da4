//! Scratch stores for the tests that run the `rig` binary on a store of
//! their own: removed when dropped (a failing test's panic drops them too),
//! under cargo's temp folder for tests, never the system's.

#![allow(dead_code)] // each test crate uses its own part

use std::path::{Path, PathBuf};

/// A golden recording of this repository, by name.
pub fn golden(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../cases/golden")
        .join(format!("{name}.json"))
}

/// A scratch store, removed when dropped.
pub struct Scratch(pub PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A fresh store (`cases/ops`, `snapshots`, and this repository's
/// `cases/trusted-sources.toml`) named after the test crate and the test.
pub fn store(suite: &str, test: &str) -> Scratch {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("rig-{suite}-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("cases/ops")).unwrap();
    std::fs::create_dir_all(dir.join("snapshots")).unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../cases/trusted-sources.toml"),
        dir.join("cases/trusted-sources.toml"),
    )
    .unwrap();
    Scratch(dir)
}
