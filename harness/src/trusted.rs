//! The provenances the repository trusts as Minecraft's truth
//! (`cases/trusted-sources.toml`), and the gate that holds snapshots to
//! them.
//!
//! Free text can never make truth on its own: anyone can type
//! `--source "Minecraft 26.3"`. So a snapshot is truth only when its
//! provenance matches an entry of this committed file, and adding an entry
//! is a reviewed one-line diff.
//!
//! ```toml
//! # exact `source` texts of imported recordings (golden-format files)
//! sources = [
//!   "Minecraft 26.3 PalettedContainer, ...",
//! ]
//! # jars `rig record --minecraft JAR` recorded from, by version and SHA-1
//! jars = [
//!   { version = "26.3", sha1 = "<the server jar's SHA-1>" },
//! ]
//! ```

use std::path::Path;

use serde::Deserialize;

use crate::error::ParseError;
use crate::snapshot::Provenance;

/// The file's place, relative to the repository root.
pub const PATH: &str = "cases/trusted-sources.toml";

/// A jar identified by its Minecraft version and SHA-1.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Jar {
    /// The Minecraft version the jar is (`26.3`).
    pub version: String,
    /// The jar's SHA-1, 40 hex digits.
    pub sha1: String,
}

/// The trusted provenances.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Trusted {
    /// Exact `source` texts of recordings imported from golden-format files.
    #[serde(default)]
    pub sources: Vec<String>,
    /// Jars recorded from with `rig record --minecraft JAR`.
    #[serde(default)]
    pub jars: Vec<Jar>,
}

/// The recorder names of the rig's own JVM-side commands: their `source`
/// is whatever `--source` said, so only a listed jar makes them truth.
const JVM_RECORDERS: [&str; 2] = ["rig record", "rig fuzz"];

impl Trusted {
    /// Nothing trusted.
    pub fn none() -> Trusted {
        Trusted::default()
    }

    /// Reads the file; a missing file trusts nothing.
    pub fn load(path: &Path) -> Result<Trusted, ParseError> {
        match std::fs::read_to_string(path) {
            Ok(text) => Trusted::parse(&text, path),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Trusted::none()),
            Err(e) => Err(ParseError::at(path, "", 0, "", e.to_string())),
        }
    }

    /// Parses the file's text; errors name the line and column.
    pub fn parse(text: &str, path: &Path) -> Result<Trusted, ParseError> {
        let trusted: Trusted = toml::from_str(text).map_err(|e| {
            let offset = e.span().map_or(0, |s| s.start);
            ParseError::at(path, text, offset, "", e.message().to_string())
        })?;
        for (i, jar) in trusted.jars.iter().enumerate() {
            if !is_sha1(&jar.sha1) {
                let offset = text.find(&jar.sha1).unwrap_or(0);
                return Err(ParseError::at(
                    path,
                    text,
                    offset,
                    format!("jars[{i}]"),
                    format!("`{}` is not a SHA-1 (40 hex digits)", jar.sha1),
                ));
            }
        }
        Ok(trusted)
    }

    /// Why the gate refuses these results as truth, or `None` when their
    /// provenance is well formed and listed here.
    pub fn refusal(&self, provenance: &Provenance) -> Option<String> {
        if let Some(why) = provenance.refusal() {
            return Some(why);
        }
        if let Some(parent) = provenance.get(crate::store::DERIVED_FROM) {
            return Some(format!(
                "derived from `{parent}`: its results are truth only once checked against the \
                 parent's (harness::store::Store::gate), never by its source"
            ));
        }
        let source = provenance.get("source").unwrap_or("").trim();
        if let Some(sha) = provenance.get("jar_sha1") {
            let version = provenance.get("minecraft_version").unwrap_or("");
            let listed = self
                .jars
                .iter()
                .any(|j| j.version == version && j.sha1.eq_ignore_ascii_case(sha));
            return (!listed).then(|| {
                format!(
                    "the jar (minecraft_version `{version}`, jar_sha1 `{sha}`) is not listed in {PATH}; \
                     a reviewed entry `{{ version = \"{version}\", sha1 = \"{sha}\" }}` under `jars` makes it truth"
                )
            });
        }
        let recorder = provenance.get("recorder").unwrap_or("");
        if JVM_RECORDERS.iter().any(|r| recorder.starts_with(r)) {
            return Some(format!(
                "recorded by `{recorder}` from a class path, not a jar: its source `{source}` is free \
                 text (--source); only a jar listed in {PATH} by version and SHA-1 \
                 (`rig record --minecraft JAR`) makes such results truth"
            ));
        }
        if self.sources.iter().any(|s| s == source) {
            return None;
        }
        Some(format!(
            "source `{source}` is not listed in {PATH} (only a reviewed entry under `sources` makes it truth)"
        ))
    }
}

fn is_sha1(s: &str) -> bool {
    s.len() == 40 && s.chars().all(|c| c.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOLDEN: &str = "Minecraft 26.3 PalettedContainer (recompiled)";

    fn trusted() -> Trusted {
        let text = format!(
            "sources = [\"{GOLDEN}\"]\njars = [{{ version = \"26.3\", sha1 = \"{}\" }}]\n",
            "ab".repeat(20)
        );
        Trusted::parse(&text, Path::new("t.toml")).unwrap()
    }

    #[test]
    fn only_listed_sources_and_jars_are_truth() {
        let t = trusted();
        let import = Provenance::recording(GOLDEN, "rig import of a golden-format file");
        assert_eq!(t.refusal(&import), None);
        let free = Provenance::recording("Minecraft 26.3 trust me", "rig import");
        let why = t.refusal(&free).unwrap();
        assert!(
            why.contains("`Minecraft 26.3 trust me` is not listed"),
            "{why}"
        );
        // Free --source text, even the trusted one, through rig record.
        let recorded = Provenance::recording(GOLDEN, "rig record (JVM probe)");
        assert!(t.refusal(&recorded).unwrap().contains("not a jar"));
        let jar = Provenance::recording("anything naming Minecraft", "rig record (JVM probe)")
            .with("minecraft_version", "26.3")
            .with("jar_sha1", &"AB".repeat(20));
        assert_eq!(t.refusal(&jar), None);
        let other = jar.clone().with("jar_sha1", &"cd".repeat(20));
        assert!(t.refusal(&other).unwrap().contains("is not listed"));
        let version = jar.with("minecraft_version", "26.2");
        assert!(t.refusal(&version).is_some());
        // The structural gate still comes first.
        let rust = Provenance::recording(crate::snapshot::RUST_SOURCE, "x");
        assert!(t.refusal(&rust).unwrap().contains("never truth"));
        assert!(Trusted::none().refusal(&import).is_some());
        // A derived recording names a listed source, yet only its parent makes it truth.
        let derived = import.with(crate::store::DERIVED_FROM, "ladder/biomes-r9");
        assert!(t.refusal(&derived).unwrap().contains("checked against"));
    }

    #[test]
    fn malformed_files_are_located() {
        let p = Path::new("t.toml");
        let e = Trusted::parse("jars = [{ version = \"26.3\", sha1 = \"xyz\" }]\n", p).unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.toml:1:37: jars[0]: `xyz` is not a SHA-1 (40 hex digits)"
        );
        let e = Trusted::parse("sources = [\n  \"a\",\n  oops\n]\n", p).unwrap_err();
        assert_eq!(e.line, 3, "{e}");
        assert!(Trusted::parse("source = []\n", p).is_err());
    }
}
