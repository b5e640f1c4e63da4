//! Recorded results kept beside the cases: `snapshots/<name>.snap`, in
//! insta's format, one result per line, with their provenance in the
//! header's `info`.
//!
//! ```text
//! ---
//! source: harness/tests/snapshots.rs
//! info:
//!   source: "Minecraft 26.3 PalettedContainer, ..."
//!   recorder: rig import of a golden-format file
//!   imported_from: golden/flat/bottom-section.json
//! input_file: cases/ops/flat/bottom-section.json
//! ---
//! {"ok":null}
//! {"ok":4}
//! ```
//!
//! The provenance gate ([`Provenance::refusal`]) is what keeps Rust output
//! from becoming truth: a snapshot the insta test wrote (`cargo insta
//! accept`) carries [`RUST_SOURCE`] and is refused, as is one with no
//! provenance at all.

use std::path::{Path, PathBuf};

use yaml_rust2::yaml::Hash;
use yaml_rust2::{Yaml, YamlEmitter, YamlLoader};

use crate::error::{self, ParseError};
use crate::outcome::Outcome;

/// The provenance the insta test gives results it computed with the Rust
/// containers. The gate refuses it.
pub const RUST_SOURCE: &str = "paletted Rust containers — NOT a recording";

/// The provenance test fixtures give made-up results. The gate refuses it.
pub const FIXTURE_SOURCE: &str = "test fixture — NOT a recording";

/// Marks that say a snapshot's results were not recorded from Minecraft.
const REFUSED_MARKS: [&str; 4] = [
    "NOT a recording",
    "paletted Rust",
    "RustExecutor",
    "test fixture",
];

/// The insta test that asserts the snapshots; its path goes in the header
/// as insta would write it.
pub const TEST_SOURCE: &str = "harness/tests/snapshots.rs";

/// Where a snapshot's results came from: the header's `info` map
/// (`source`, `recorder`, and for a real jar `minecraft_version` and
/// `jar_sha1`; others are kept).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Provenance {
    /// The entries, in order; `None` when the header has no `info`.
    pub fields: Option<Vec<(String, String)>>,
}

impl Provenance {
    /// A provenance of a recording: its `source` text and who recorded it.
    pub fn recording(source: &str, recorder: &str) -> Provenance {
        Provenance {
            fields: Some(vec![
                ("source".into(), source.into()),
                ("recorder".into(), recorder.into()),
            ]),
        }
    }

    /// Adds (or replaces) an entry.
    pub fn with(mut self, key: &str, value: &str) -> Provenance {
        let fields = self.fields.get_or_insert_with(Vec::new);
        match fields.iter_mut().find(|(k, _)| k == key) {
            Some(entry) => entry.1 = value.into(),
            None => fields.push((key.into(), value.into())),
        }
        self
    }

    /// The value of an entry.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.fields
            .as_ref()?
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Why the gate refuses these results as truth, or `None` when they are
    /// a recording from Minecraft's classes.
    pub fn refusal(&self) -> Option<String> {
        let Some(fields) = &self.fields else {
            return Some("no provenance: the snapshot's `info` is missing".into());
        };
        if let Some((k, v)) = fields
            .iter()
            .find(|(_, v)| REFUSED_MARKS.iter().any(|m| v.contains(m)))
        {
            return Some(format!(
                "provenance `{k}: {v}` says these results were not recorded from Minecraft (results from our own code are never truth)"
            ));
        }
        let source = self.get("source").unwrap_or("").trim();
        if source.is_empty() {
            return Some(
                "provenance names no `source` (what the results were recorded from)".into(),
            );
        }
        if !source.contains("Minecraft") {
            return Some(format!(
                "provenance `source: {source}` does not name Minecraft"
            ));
        }
        if self.get("recorder").unwrap_or("").trim().is_empty() {
            return Some("provenance names no `recorder`".into());
        }
        if let Some(sha) = self.get("jar_sha1") {
            if sha.len() != 40 || !sha.chars().all(|c| c.is_ascii_hexdigit()) {
                return Some(format!("`jar_sha1: {sha}` is not a SHA-1"));
            }
        }
        None
    }
}

/// A snapshot file: provenance and one result per op.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    /// Where the results came from.
    pub provenance: Provenance,
    /// The results, in op order.
    pub results: Vec<Outcome>,
}

/// `snapshots/<name>.snap` under `root`.
pub fn path_for(root: &Path, name: &str) -> PathBuf {
    root.join("snapshots").join(format!("{name}.snap"))
}

/// `cases/ops/<name>.json` under `root`.
pub fn case_path(root: &Path, name: &str) -> PathBuf {
    root.join("cases").join("ops").join(format!("{name}.json"))
}

/// The body: one result a line, compact JSON (what the insta test asserts).
pub fn body(results: &[Outcome]) -> String {
    let mut s = String::new();
    for r in results {
        s.push_str(&r.to_string());
        s.push('\n');
    }
    s
}

impl Snapshot {
    /// The file's text, with the header insta itself would write for the
    /// snapshot test, so a rewrite by insta changes only what differs.
    pub fn to_text(&self, case_name: &str) -> String {
        let mut header = Hash::new();
        let s = |v: &str| Yaml::String(v.to_string());
        header.insert(s("source"), s(TEST_SOURCE));
        if let Some(fields) = &self.provenance.fields {
            let mut info = Hash::new();
            for (k, v) in fields {
                info.insert(s(k), s(v));
            }
            header.insert(s("info"), Yaml::Hash(info));
        }
        header.insert(s("input_file"), s(&format!("cases/ops/{case_name}.json")));
        let mut text = String::new();
        YamlEmitter::new(&mut text)
            .dump(&Yaml::Hash(header))
            .expect("a map of strings always emits");
        text.push_str("\n---\n");
        text.push_str(&body(&self.results));
        text
    }

    /// Parses a snapshot file; errors name the path, line and column.
    pub fn parse(text: &str, path: &Path) -> Result<Snapshot, ParseError> {
        let fail = |offset: usize, m: &str| ParseError::at(path, text, offset, "", m.to_string());
        let Some(rest) = text.strip_prefix("---\n") else {
            return Err(fail(
                0,
                "a snapshot starts with a `---` line (insta's header)",
            ));
        };
        let Some(end) = rest
            .find("\n---\n")
            .map(|i| i + 1)
            .or_else(|| rest.strip_prefix("---\n").map(|_| 0))
        else {
            return Err(fail(text.len(), "the header has no closing `---` line"));
        };
        let header_text = &rest[..end];
        let body_start = 4 + end + 4;
        let provenance = parse_header(header_text).map_err(|(line, column, m)| ParseError {
            path: path.to_path_buf(),
            line: line + 1,
            column,
            context: "header".into(),
            message: m,
        })?;
        let mut results = Vec::new();
        let body_text = &text[body_start.min(text.len())..];
        let lines: Vec<&str> = body_text.lines().collect();
        let last = lines
            .iter()
            .rposition(|l| !l.trim().is_empty())
            .map_or(0, |i| i + 1);
        let mut offset = body_start;
        for (i, line) in lines[..last].iter().enumerate() {
            let ctx = format!("results[{i}]");
            if line.trim().is_empty() {
                return Err(ParseError::at(
                    path,
                    text,
                    offset,
                    ctx,
                    "blank line among the results",
                ));
            }
            let r: Outcome = serde_json::from_str(line)
                .map_err(|e| error::from_json(path, text, offset, line, &ctx, &e))?;
            results.push(r);
            offset += line.len() + 1;
        }
        Ok(Snapshot {
            provenance,
            results,
        })
    }

    /// Reads and parses a snapshot file.
    pub fn load(path: &Path) -> Result<Snapshot, ParseError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| ParseError::at(path, "", 0, "", e.to_string()))?;
        Snapshot::parse(&text, path)
    }
}

/// The provenance in an insta header; errors as (header line, column, what).
fn parse_header(header: &str) -> Result<Provenance, (usize, usize, String)> {
    let docs = YamlLoader::load_from_str(header).map_err(|e| {
        (
            e.marker().line(),
            e.marker().col() + 1,
            format!("YAML: {}", e.info()),
        )
    })?;
    let Some(Yaml::Hash(map)) = docs.first() else {
        return Err((1, 1, "the header is not a YAML map".into()));
    };
    let info = match map.get(&Yaml::String("info".into())) {
        None | Some(Yaml::Null) => return Ok(Provenance { fields: None }),
        Some(Yaml::Hash(info)) => info,
        Some(_) => {
            let line = header
                .lines()
                .position(|l| l.starts_with("info:"))
                .unwrap_or(0)
                + 1;
            return Err((line, 1, "`info` is not a map".into()));
        }
    };
    let scalar = |y: &Yaml| match y {
        Yaml::String(s) | Yaml::Real(s) => Some(s.clone()),
        Yaml::Integer(i) => Some(i.to_string()),
        Yaml::Boolean(b) => Some(b.to_string()),
        _ => None,
    };
    let mut fields = Vec::new();
    for (k, v) in info {
        match (scalar(k), scalar(v)) {
            // Provenance is one line of text a reviewer reads: control
            // characters have no place in it (and YAML emitters do not all
            // write them back readably).
            (Some(k), Some(v))
                if v.chars().any(char::is_control)
                    || k.len() > 64
                    || !k
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c)) =>
            {
                let line = header
                    .lines()
                    .position(|l| l.trim_start().starts_with(&format!("{k}:")))
                    .unwrap_or(0)
                    + 1;
                return Err((
                    line,
                    1,
                    format!("`info.{k}`: keys are short names (letters, digits, `_-.`) and values hold no control characters"),
                ));
            }
            (Some(k), Some(v)) => fields.push((k, v)),
            (k, _) => {
                let k = k.unwrap_or_default();
                let line = header
                    .lines()
                    .position(|l| l.trim_start().starts_with(&format!("{k}:")))
                    .unwrap_or(0)
                    + 1;
                return Err((line, 1, format!("`info.{k}` is not a plain value")));
            }
        }
    }
    Ok(Provenance {
        fields: Some(fields),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn results() -> Vec<Outcome> {
        vec![
            Outcome::Ok(serde_json::Value::Null),
            Outcome::throws("IllegalStateException", "Missing Palette entry for id 0."),
        ]
    }

    #[test]
    fn round_trips_and_passes_the_gate() {
        let source = "Minecraft 26.3 PalettedContainer: \"quoted\", recompiled";
        let snap = Snapshot {
            provenance: Provenance::recording(source, "rig import")
                .with("jar_sha1", &"a".repeat(40)),
            results: results(),
        };
        let text = snap.to_text("flat/x");
        assert!(
            text.starts_with("---\nsource: harness/tests/snapshots.rs\ninfo:\n"),
            "{text}"
        );
        assert!(
            text.contains("input_file: cases/ops/flat/x.json\n---\n{\"ok\":null}\n"),
            "{text}"
        );
        let back = Snapshot::parse(&text, Path::new("s.snap")).unwrap();
        assert_eq!(back, snap);
        assert_eq!(back.provenance.refusal(), None);
    }

    #[test]
    fn gate_refuses_rust_fixture_and_missing_provenance() {
        let rust = Provenance::recording(RUST_SOURCE, TEST_SOURCE);
        assert!(rust.refusal().unwrap().contains("never truth"));
        let fixture = Provenance::recording(FIXTURE_SOURCE, "test");
        assert!(fixture.refusal().is_some());
        assert!(Provenance::default().refusal().unwrap().contains("missing"));
        let nameless = Provenance::recording("someone's laptop", "x");
        assert!(nameless
            .refusal()
            .unwrap()
            .contains("does not name Minecraft"));
        let bad_sha = Provenance::recording("Minecraft 26.3 jar", "probe").with("jar_sha1", "xyz");
        assert!(bad_sha.refusal().is_some());
    }

    #[test]
    fn what_insta_writes_is_read() {
        // The header as insta writes it for the snapshot test.
        let text = "---\nsource: harness/tests/snapshots.rs\ninfo:\n  source: paletted Rust containers — NOT a recording\n  recorder: harness/tests/snapshots.rs\ninput_file: cases/ops/a.json\n---\n{\"ok\":1}\n";
        let snap = Snapshot::parse(text, Path::new("a.snap")).unwrap();
        assert_eq!(snap.provenance.get("source"), Some(RUST_SOURCE));
        assert!(snap.provenance.refusal().is_some());
        let no_info = "---\nsource: x\n---\n{\"ok\":1}\n";
        assert!(Snapshot::parse(no_info, Path::new("a.snap"))
            .unwrap()
            .provenance
            .refusal()
            .is_some());
    }

    #[test]
    fn malformed_lines_are_located() {
        let text = "---\ninfo:\n  source: Minecraft\n---\n{\"ok\":1}\n{\"ok\":}\n";
        let e = Snapshot::parse(text, Path::new("a.snap")).unwrap_err();
        assert_eq!((e.line, e.context.as_str()), (6, "results[1]"), "{e}");
        let e = Snapshot::parse("---\ninfo: [\n---\n", Path::new("a.snap")).unwrap_err();
        assert_eq!(e.context, "header", "{e}");
    }
}
