//! A recorded case: the golden file format (`shared/golden/FORMAT.md`),
//! read and written as it is, since it is how recorded results travel.

use std::path::Path;

use serde_json::Value;

use crate::case::{Case, Document};
use crate::error::{self, ParseError};
use crate::outcome::Outcome;

/// A case with the results something recorded for it, one per op.
#[derive(Clone, Debug, PartialEq)]
pub struct Recorded {
    /// The case; its `extra` holds the file's other top-level keys.
    pub case: Case,
    /// Who recorded the results, from what (free text).
    pub source: String,
    /// One result per op.
    pub results: Vec<Outcome>,
    /// The format version (1).
    pub format: u64,
}

impl Recorded {
    /// Parses a recorded (golden-format) file; errors name the path, line,
    /// column and part.
    pub fn parse(text: &str, path: &Path) -> Result<Recorded, ParseError> {
        let doc = Document::parse(text, path)?;
        let Some((source, _)) = doc.source else {
            return Err(ParseError::at(
                path,
                text,
                0,
                "",
                "missing key `source` (who recorded the results)",
            ));
        };
        let Some((raw, at)) = doc.results else {
            return Err(ParseError::at(path, text, 0, "", "missing key `results`"));
        };
        if raw.len() != doc.case.ops.len() {
            return Err(ParseError::at(
                path,
                text,
                at,
                "results",
                format!("{} results for {} ops", raw.len(), doc.case.ops.len()),
            ));
        }
        let mut results = Vec::with_capacity(raw.len());
        for (i, r) in raw.iter().enumerate() {
            let base = (r.get().as_ptr() as usize) - (text.as_ptr() as usize);
            let ctx = format!("results[{i}]");
            let v: Value = serde_json::from_str(r.get())
                .map_err(|e| error::from_json(path, text, base, r.get(), &ctx, &e))?;
            results
                .push(Outcome::from_json(v).map_err(|m| ParseError::at(path, text, base, ctx, m))?);
        }
        Ok(Recorded {
            case: doc.case,
            source,
            results,
            format: crate::case::FORMAT,
        })
    }

    /// Whether a file's JSON text holds results (a recording) rather than
    /// an op list alone; a cheap look at the top-level keys.
    pub fn has_results(text: &str) -> bool {
        #[derive(serde::Deserialize)]
        struct Probe<'a> {
            #[serde(borrow)]
            results: Option<&'a serde_json::value::RawValue>,
        }
        serde_json::from_str::<Probe>(text).is_ok_and(|p| p.results.is_some())
    }

    /// The golden layout: `format`, `name`, `source`, the extra keys in
    /// order, `subject`, `ops`, `results`.
    pub fn to_json(&self) -> Value {
        let results = Value::Array(self.results.iter().map(Outcome::to_json).collect());
        Value::Object(self.case.to_map(Some(&self.source), Some(results)))
    }

    /// The file's text: compact JSON and a newline, byte for byte as the
    /// golden files are written.
    pub fn to_text(&self) -> String {
        let mut s = self.to_json().to_string();
        s.push('\n');
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_count_must_match() {
        let text = r#"{"format":1,"name":"t","source":"s","subject":{"kind":"storage","bits":0,"size":1},"ops":[{"op":"bits"}],"results":[]}"#;
        let err = Recorded::parse(text, Path::new("x.json")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "x.json:1:116: results: 0 results for 1 ops"
        );
        assert!(Recorded::has_results(text));
    }
}
