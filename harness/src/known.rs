//! Known divergences: cases whose Rust results are known to differ from
//! their recording, each with the reason (`cases/known-divergences.toml`).
//!
//! Such a case is reported as expected rather than failed. One that starts
//! to match fails the run until its entry is removed, so the list never
//! hides a fix or outlives the bug.
//!
//! ```toml
//! [[known]]
//! case = "random/biomes-s3"
//! reason = "count order differs after a hash map resize (issue 12)"
//! ```

use std::path::Path;

use serde::Deserialize;

use crate::error::ParseError;

/// The file's place, relative to the repository root.
pub const PATH: &str = "cases/known-divergences.toml";

/// One listed case.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// The case's name.
    pub case: String,
    /// Why it diverges (and where that is tracked).
    pub reason: String,
}

/// The list of known divergences.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Known {
    entries: Vec<Entry>,
    /// Where each entry's case name is, as an error at that place (for
    /// entries found to name no case).
    places: Vec<ParseError>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    known: Vec<Entry>,
}

impl Known {
    /// No known divergences.
    pub fn none() -> Known {
        Known::default()
    }

    /// Reads the file; a missing file is an empty list.
    pub fn load(path: &Path) -> Result<Known, ParseError> {
        match std::fs::read_to_string(path) {
            Ok(text) => Known::parse(&text, path),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Known::none()),
            Err(e) => Err(ParseError::at(path, "", 0, "", e.to_string())),
        }
    }

    /// Parses the file's text; errors name the line and column.
    pub fn parse(text: &str, path: &Path) -> Result<Known, ParseError> {
        let file: File = toml::from_str(text).map_err(|e| {
            let offset = e.span().map_or(0, |s| s.start);
            ParseError::at(path, text, offset, "", e.message().to_string())
        })?;
        for (i, entry) in file.known.iter().enumerate() {
            let fail = |m: String| {
                ParseError::at(
                    path,
                    text,
                    find(text, &file.known, i),
                    format!("known[{i}]"),
                    m,
                )
            };
            if entry.reason.trim().is_empty() {
                return Err(fail(format!("`{}` needs a reason", entry.case)));
            }
            if file.known[..i].iter().any(|e| e.case == entry.case) {
                return Err(fail(format!("`{}` is listed twice", entry.case)));
            }
        }
        let places = file
            .known
            .iter()
            .enumerate()
            .map(|(i, e)| {
                ParseError::at(
                    path,
                    text,
                    find(text, &file.known, i),
                    format!("known[{i}]"),
                    format!("`{}` names no case (no cases/ops/{}.json)", e.case, e.case),
                )
            })
            .collect();
        Ok(Known {
            entries: file.known,
            places,
        })
    }

    /// Why `case` is known to diverge, if it is listed.
    pub fn reason(&self, case: &str) -> Option<&str> {
        self.entries
            .iter()
            .find(|e| e.case == case)
            .map(|e| e.reason.as_str())
    }

    /// Every entry.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The entries naming a case that does not exist, as errors at their
    /// place in the file: a stale entry hides nothing, so it fails the run.
    pub fn unknown_cases(&self, exists: impl Fn(&str) -> bool) -> Vec<ParseError> {
        self.entries
            .iter()
            .zip(&self.places)
            .filter(|(e, _)| !exists(&e.case))
            .map(|(_, p)| p.clone())
            .collect()
    }

    /// Whether nothing is listed.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// Where entry `i`'s case name is quoted in the file, for error positions
/// (the right one of several quotes of the same name).
fn find(text: &str, entries: &[Entry], i: usize) -> usize {
    let name = &entries[i].case;
    let nth = entries[..i].iter().filter(|e| e.case == *name).count();
    text.match_indices(&format!("\"{name}\""))
        .nth(nth)
        .map_or(0, |(at, _)| at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_need_reasons_and_are_unique() {
        let p = Path::new("k.toml");
        let k = Known::parse("[[known]]\ncase = \"a\"\nreason = \"r\"\n", p).unwrap();
        assert_eq!(k.reason("a"), Some("r"));
        assert_eq!(k.reason("b"), None);
        let e = Known::parse("[[known]]\ncase = \"a\"\nreason = \"\"\n", p).unwrap_err();
        assert_eq!(e.to_string(), "k.toml:2:8: known[0]: `a` needs a reason");
        let e = Known::parse("[[known]]\ncase = \"a\"\nreason = \"r\"\nwhy = 1\n", p).unwrap_err();
        assert_eq!((e.line, e.column), (4, 1), "{e}");
        assert!(Known::parse("", p).unwrap().is_empty());
        let k = Known::parse("[[known]]\ncase = \"a\"\nreason = \"r\"\n\n[[known]]\ncase = \"gone\"\nreason = \"r\"\n", p).unwrap();
        let stale = k.unknown_cases(|c| c == "a");
        assert_eq!(stale.len(), 1);
        assert_eq!(
            stale[0].to_string(),
            "k.toml:6:8: known[1]: `gone` names no case (no cases/ops/gone.json)"
        );
    }
}
