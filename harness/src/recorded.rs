//! A recorded case: the golden file format (`shared/golden/FORMAT.md`),
//! read and written as it is, since it is how recorded results travel.
//!
//! The format holds one plain result an op, so a run-dependent op
//! ([`Outcome::AnyOf`]) travels in the extension key [`RUN_DEPENDENT`]:
//! `"run_dependent": [{"op": I, "any_of": [R1, R2, ..]}]`, with `results[I]`
//! holding R1 for readers that do not know the key.

use std::path::Path;

use serde_json::Value;

use crate::case::{Case, Document};
use crate::error::{self, ParseError};
use crate::outcome::Outcome;

/// The top-level key listing a recording's run-dependent ops.
pub const RUN_DEPENDENT: &str = "run_dependent";

/// A case with the results something recorded for it, one per op.
#[derive(Clone, Debug, PartialEq)]
pub struct Recorded {
    /// The case; its `extra` holds the file's other top-level keys.
    pub case: Case,
    /// Who recorded the results, from what (free text).
    pub source: String,
    /// One result per op ([`Outcome::AnyOf`] for a run-dependent one).
    pub results: Vec<Outcome>,
    /// The format version (1).
    pub format: u64,
}

impl Recorded {
    /// Parses a recorded (golden-format) file; errors name the path, line,
    /// column and part.
    pub fn parse(text: &str, path: &Path) -> Result<Recorded, ParseError> {
        let mut doc = Document::parse(text, path)?;
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
            results.push(
                Outcome::from_golden_json(v)
                    .map_err(|m| ParseError::at(path, text, base, ctx, m))?,
            );
        }
        if let Some(list) = doc.case.extra.remove(RUN_DEPENDENT) {
            let at = text.find(&format!("\"{RUN_DEPENDENT}\"")).unwrap_or(0);
            fold_run_dependent(list, &mut results)
                .map_err(|m| ParseError::at(path, text, at, RUN_DEPENDENT, m))?;
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
    ///
    /// A run-dependent op's first result stands in `results`; all of them
    /// go in [`RUN_DEPENDENT`], after `results`.
    pub fn to_json(&self) -> Value {
        let results = Value::Array(
            self.results
                .iter()
                .map(|r| r.alternatives()[0].to_json())
                .collect(),
        );
        let mut m = self.case.to_map(Some(&self.source), Some(results));
        let run_dependent: Vec<Value> = self
            .results
            .iter()
            .enumerate()
            .filter(|(_, r)| r.is_run_dependent())
            .map(|(i, r)| {
                let mut entry = serde_json::Map::new();
                entry.insert("op".into(), i.into());
                entry.insert(
                    "any_of".into(),
                    Value::Array(r.alternatives().iter().map(Outcome::to_json).collect()),
                );
                Value::Object(entry)
            })
            .collect();
        if !run_dependent.is_empty() {
            m.insert(RUN_DEPENDENT.into(), Value::Array(run_dependent));
        }
        Value::Object(m)
    }

    /// The file's text: compact JSON and a newline, byte for byte as the
    /// golden files are written.
    pub fn to_text(&self) -> String {
        let mut s = self.to_json().to_string();
        s.push('\n');
        s
    }
}

/// Folds a [`RUN_DEPENDENT`] list into the results: each listed op becomes
/// [`Outcome::AnyOf`] of its `any_of`, which must hold the plain result
/// `results` gives it; ops are listed once each, in order.
fn fold_run_dependent(list: Value, results: &mut [Outcome]) -> Result<(), String> {
    let Value::Array(entries) = list else {
        return Err("a list of {\"op\": I, \"any_of\": [results]}".into());
    };
    let mut last: Option<usize> = None;
    for entry in entries {
        let Value::Object(mut m) = entry else {
            return Err("each entry is {\"op\": I, \"any_of\": [results]}".into());
        };
        let op = m
            .remove("op")
            .and_then(|v| v.as_u64())
            .and_then(|v| usize::try_from(v).ok())
            .ok_or("each entry names its `op` by index")?;
        let Some(Value::Array(items)) = m.remove("any_of") else {
            return Err(format!("op {op}: `any_of` is a list of results"));
        };
        if let Some(k) = m.keys().next() {
            return Err(format!("op {op}: unknown key `{k}`"));
        }
        if op >= results.len() {
            return Err(format!("op {op}: the case has {} ops", results.len()));
        }
        if last.is_some_and(|l| op <= l) {
            return Err(format!("op {op}: ops are listed once each, in order"));
        }
        last = Some(op);
        let all = Outcome::any_of(items).map_err(|e| format!("op {op}: {e}"))?;
        if !all.alternatives().contains(&results[op]) {
            return Err(format!(
                "op {op}: `results[{op}]` is {}, not one of its `any_of`",
                results[op]
            ));
        }
        results[op] = all;
    }
    Ok(())
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

    #[test]
    fn run_dependent_ops_travel_in_their_own_key() {
        let text = r#"{"format":1,"name":"t","source":"s","subject":{"kind":"storage","bits":0,"size":1},"ops":[{"op":"bits"},{"op":"size"}],"results":[{"ok":0},{"ok":1}],"run_dependent":[{"op":1,"any_of":[{"ok":1},{"ok":2}]}]}"#;
        let rec = Recorded::parse(text, Path::new("x.json")).unwrap();
        assert_eq!(rec.results[0], Outcome::Ok(0.into()));
        assert_eq!(
            rec.results[1],
            Outcome::AnyOf(vec![Outcome::Ok(1.into()), Outcome::Ok(2.into())])
        );
        assert!(rec.case.extra.is_empty());
        assert_eq!(rec.to_text(), format!("{text}\n"));
        // A reader that knows no extension key still finds one plain result an op.
        let plain: Value = serde_json::from_str(&rec.to_text()).unwrap();
        assert_eq!(plain["results"][1], serde_json::json!({"ok": 1}));
        for (bad, why) in [
            (r#"[{"op":1,"any_of":[{"ok":2},{"ok":3}]}]"#, "not one of"),
            (r#"[{"op":5,"any_of":[{"ok":1},{"ok":2}]}]"#, "has 2 ops"),
            (r#"[{"op":1,"any_of":[]}]"#, "one or more"),
            (r#"{"1":[]}"#, "a list"),
            (
                r#"[{"op":1,"any_of":[{"ok":1},{"ok":2}]},{"op":1,"any_of":[{"ok":1},{"ok":2}]}]"#,
                "once each",
            ),
        ] {
            let t = text.replace(r#"[{"op":1,"any_of":[{"ok":1},{"ok":2}]}]"#, bad);
            let e = Recorded::parse(&t, Path::new("x.json")).unwrap_err();
            assert!(e.to_string().contains(why), "{bad}: {e}");
        }
        // One result seen of an op that can depend on the run: listed all the same.
        let one = text.replace(
            r#"[{"op":1,"any_of":[{"ok":1},{"ok":2}]}]"#,
            r#"[{"op":1,"any_of":[{"ok":1}]}]"#,
        );
        let rec = Recorded::parse(&one, Path::new("x.json")).unwrap();
        assert_eq!(rec.results[1], Outcome::AnyOf(vec![Outcome::Ok(1.into())]));
        assert_eq!(rec.to_text(), format!("{one}\n"));
    }
}
