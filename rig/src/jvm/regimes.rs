//! [`Regimes`]: every case on the JVM side runs in one `rig probe-server` child per
//! identity-hash regime, and an op whose result differs between them is run-dependent
//! ([`Outcome::AnyOf`]): not a fact about Minecraft, so never recorded or compared as one.
//!
//! Children, not perturbation inside one JVM: `-XX:hashCode` decides every identity hash
//! the JVM hands out (the canonical registry entries', and those of objects Minecraft makes
//! itself), which nothing the probe allocates or reorders can, and it is how the
//! run-dependent results were found. The two regimes are the extremes of the choice: one
//! hash for every object, so every identity-hashed table is one cluster, and the object's
//! address, spread over the table. Both are deterministic in how they choose (the same value
//! for every object, or an even one), so a test stand-in can rely on them disagreeing.

use harness::case::Case;
use harness::exec::{ExecError, Executor};
use harness::outcome::{golden_list, Outcome};

use super::executor::{Answer, Batch, JvmExecutor, Setup};

/// The regimes, as (name, `-XX:hashCode` value): HotSpot's 4 hashes by address, 2 gives
/// every object the hash 1. The first regime's results stand first in a recording.
pub const REGIMES: [(&str, u32); 2] = [("address", 4), ("constant", 2)];

/// The JVM options that select a regime's identity hash; they go after the user's, so they
/// hold.
pub fn options(hash_code: u32) -> [String; 2] {
    [
        "-XX:+UnlockExperimentalVMOptions".to_string(),
        format!("-XX:hashCode={hash_code}"),
    ]
}

/// The JVM side: one child per regime. Each case runs in the first; in the others, every
/// case (`rig record`, `--all-regimes`) or only those the Rust side's model cannot clear
/// ([`harness::hashdep::can_flag`]: a load that may give a hash-map palette an entry twice).
pub struct Regimes {
    children: Vec<JvmExecutor>,
    every_case: bool,
}

/// A batch sent to the regimes' children: each child's batch, and which of the cases
/// (by index) went to the children past the first.
pub struct Batches(Vec<Batch>, Vec<usize>);

impl Regimes {
    /// Finds a JDK and compiles the probe (once: every regime uses the same classes).
    pub fn new(setup: &Setup) -> Result<Regimes, String> {
        let first = JvmExecutor::new(setup)?;
        let children = REGIMES
            .iter()
            .map(|&(_, hash_code)| first.sibling_with(&options(hash_code)))
            .collect();
        Ok(Regimes {
            children,
            every_case: true,
        })
    }

    /// Another set of children of the same setup (for running cases at once).
    pub fn sibling(&self) -> Regimes {
        Regimes {
            children: self.children.iter().map(JvmExecutor::sibling).collect(),
            every_case: self.every_case,
        }
    }

    /// Whether every case runs under every regime (the default), or the regimes past the
    /// first run only the cases the model cannot clear. Those are the cases where the known
    /// mechanism can act, so nothing it causes goes unmarked either way (the model marks
    /// it); what the other cases lose is the audit of the model against a mechanism nobody
    /// knows of, which `rig record` (every case, every regime) and `--all-regimes` keep.
    pub fn every_case(&mut self, every_case: bool) {
        self.every_case = every_case;
    }

    /// Whether the JVM side loads the test fixture's marker class (asked of the first
    /// regime's child).
    pub fn loads_fixture(&mut self) -> Result<bool, String> {
        self.children[0].loads_fixture()
    }

    /// Sends a batch to the regimes' children (see [`JvmExecutor::send`]): all of it to the
    /// first, and to the others what [`Regimes::every_case`] says.
    pub fn send(&mut self, cases: &[&Case]) -> Batches {
        let audited: Vec<usize> = (0..cases.len())
            .filter(|&i| self.every_case || harness::hashdep::can_flag(cases[i]))
            .collect();
        let some: Vec<&Case> = audited.iter().map(|&i| cases[i]).collect();
        let mut batches = Vec::with_capacity(self.children.len());
        for (k, child) in self.children.iter_mut().enumerate() {
            batches.push(match k {
                0 => child.send(cases),
                _ => child.send(&some),
            });
        }
        Batches(batches, audited)
    }

    /// The batch's results (see [`JvmExecutor::finish`]), the regimes' merged: an op whose
    /// results differ is [`Outcome::AnyOf`] of them. [`Answer::Same`] only when every regime
    /// answered `texts[i]`; a failure in any regime is the case's.
    pub fn finish(
        &mut self,
        batches: Batches,
        texts: &[Option<Vec<u8>>],
    ) -> Vec<(Answer, Option<String>)> {
        let audited = batches.1;
        let some_texts: Vec<Option<Vec<u8>>> = audited
            .iter()
            .map(|&i| texts.get(i).cloned().flatten())
            .collect();
        let per_regime: Vec<Vec<(Answer, Option<String>)>> = self
            .children
            .iter_mut()
            .zip(batches.0)
            .enumerate()
            .map(|(k, (child, batch))| match k {
                0 => child.finish(batch, texts),
                _ => child.finish(batch, &some_texts),
            })
            .collect();
        let cases = per_regime.first().map_or(0, Vec::len);
        let mut columns: Vec<_> = per_regime.into_iter().map(Vec::into_iter).collect();
        let mut next_audited = audited.iter().peekable();
        (0..cases)
            .map(|i| {
                let all = next_audited.next_if(|&&a| a == i).is_some();
                let answers: Vec<(Answer, Option<String>)> = columns
                    .iter_mut()
                    .enumerate()
                    .filter(|&(k, _)| k == 0 || all)
                    .map(|(_, c)| c.next().expect("one answer a case in each regime"))
                    .collect();
                let unusable = answers.iter().find_map(|(_, u)| u.clone());
                let text = texts.get(i).and_then(Option::as_deref);
                (merge(answers.into_iter().map(|(a, _)| a), text), unusable)
            })
            .collect()
    }

    /// Why no case can run (a regime's JVM would not start), once known.
    pub fn unusable(&self) -> Option<&str> {
        self.children.iter().find_map(JvmExecutor::unusable)
    }

    /// How many children of one regime died or were killed (the most of any regime): a case
    /// that kills its JVM kills it in every regime, and is one crash to the reader.
    pub fn crashes(&self) -> usize {
        self.children.iter().map(|c| c.crashes).max().unwrap_or(0)
    }
}

/// One case's answers from the regimes, as one answer.
fn merge(answers: impl Iterator<Item = Answer>, text: Option<&[u8]>) -> Answer {
    let answers: Vec<Answer> = answers.collect();
    if answers.iter().all(|a| matches!(a, Answer::Same)) {
        return Answer::Same;
    }
    let mut runs = Vec::with_capacity(answers.len());
    for answer in answers {
        let results = match answer {
            Answer::Run(Ok(results)) => results,
            Answer::Run(Err(e)) => return Answer::Run(Err(e)),
            // The tested side's results, as the regime that answered them exactly.
            Answer::Same => match text.and_then(golden_list) {
                Some(results) => results,
                None => {
                    return Answer::Run(Err(ExecError::Internal {
                        op: None,
                        message: "an answer said to be the other side's cannot be read".into(),
                    }))
                }
            },
        };
        runs.push(results);
    }
    Answer::Run(Ok(seen(runs)))
}

/// Each op's result over the regimes' runs (of one length each: the executor checks one
/// result an op): the one result, or [`Outcome::AnyOf`] of those seen.
pub fn seen(runs: Vec<Vec<Outcome>>) -> Vec<Outcome> {
    let mut runs = runs.into_iter();
    let Some(first) = runs.next() else {
        return Vec::new();
    };
    let mut columns: Vec<Vec<Outcome>> = first.into_iter().map(|o| vec![o]).collect();
    for run in runs {
        for (column, o) in columns.iter_mut().zip(run) {
            column.push(o);
        }
    }
    columns.into_iter().map(Outcome::seen).collect()
}

/// A case's merged results as they may be recorded, after the Rust side's model
/// ([`harness::hashdep`]) has had its say.
pub struct Marked {
    /// Each op the model flags is [`Outcome::AnyOf`] of what the regimes gave, one result
    /// or more: never a single plain result. The others as the regimes gave them.
    pub results: Vec<Outcome>,
    /// How many ops are run-dependent (flagged, or differing between the regimes).
    pub run_dependent: usize,
    /// Ops whose results differed between the regimes though the model does not flag them:
    /// a mechanism the model lacks, reported as a finding (see [`finding`]).
    pub unflagged: Vec<usize>,
}

/// Marks the ops of `case` that the model says can depend on the run in `results` (the
/// regimes' merged results, one an op).
pub fn mark(case: &Case, results: Vec<Outcome>) -> Marked {
    let flagged = harness::hashdep::flagged(case);
    let mut unflagged = Vec::new();
    let results: Vec<Outcome> = results
        .into_iter()
        .enumerate()
        .map(|(i, r)| match (flagged.binary_search(&i).is_ok(), r) {
            (true, Outcome::AnyOf(v)) => Outcome::AnyOf(v),
            (true, one) => Outcome::AnyOf(vec![one]),
            (false, r) => {
                if r.is_run_dependent() {
                    unflagged.push(i);
                }
                r
            }
        })
        .collect();
    let run_dependent = results.iter().filter(|r| r.is_run_dependent()).count();
    Marked {
        results,
        run_dependent,
        unflagged,
    }
}

/// The report of a regime disagreement at op `op` of `case` that the model does not flag:
/// the op, and each regime's result (each cut to a line).
pub fn finding(case: &Case, op: usize, results: &[Outcome]) -> String {
    let mut s = format!(
        "case {}: op {op} ({}) differs between the JVM's identity-hash regimes, but \
         harness::hashdep does not flag it as able to depend on the run: a finding (the model \
         lacks a mechanism; PROTOCOL.md, \"Run-dependent results\")",
        case.label(),
        case.ops.text(op)
    );
    for r in results.get(op).map_or(&[][..], Outcome::alternatives) {
        let text = r.to_string();
        let cut: String = text.chars().take(200).collect();
        let more = if cut.len() < text.len() { " .." } else { "" };
        s.push_str(&format!("\n  one regime gave: {cut}{more}"));
    }
    s.push('\n');
    s
}

impl Executor for Regimes {
    fn name(&self) -> String {
        self.children[0].name()
    }

    fn run(&mut self, case: &Case) -> Result<Vec<Outcome>, ExecError> {
        let batches = self.send(&[case]);
        match self
            .finish(batches, &[])
            .pop()
            .expect("one case, one result")
            .0
        {
            Answer::Run(run) => run,
            Answer::Same => unreachable!("no text to be the same as"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ops_that_differ_between_regimes_keep_every_result() {
        let ok = |v: serde_json::Value| Outcome::Ok(v);
        let a = vec![
            ok(json!(null)),
            ok(json!([[186, 1], [186, 1]])),
            ok(json!(8)),
        ];
        let b = vec![ok(json!(null)), ok(json!([[186, 2]])), ok(json!(8))];
        let merged = seen(vec![a.clone(), b.clone()]);
        assert_eq!(merged[0], a[0]);
        assert_eq!(merged[1], Outcome::AnyOf(vec![a[1].clone(), b[1].clone()]));
        assert_eq!(merged[2], a[2]);
        assert_eq!(seen(vec![a.clone(), a.clone()]), a);
        // One regime answering the other side's text exactly, the other not.
        let text = harness::outcome::golden_text(&a);
        match merge(
            [Answer::Same, Answer::Run(Ok(b.clone()))].into_iter(),
            Some(&text),
        ) {
            Answer::Run(Ok(r)) => assert_eq!(r, merged),
            _ => panic!("merged results"),
        }
        assert!(matches!(
            merge([Answer::Same, Answer::Same].into_iter(), Some(&text)),
            Answer::Same
        ));
    }
}
