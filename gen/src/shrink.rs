//! The shrinker: cuts a diverging case down to a minimal one that still
//! diverges, for a regression case a person can read.
//!
//! Against a recording, with no Minecraft to ask, only cuts that leave the
//! kept ops' recorded results true are sound: [`against_recording`] keeps
//! the prefix to the divergence, less the ops before it that only observe,
//! and gives a [`Derived`] case holding the parent's results (`rig shrink`,
//! `rig conformance`).
//!
//! With a live Minecraft ([`shrink`], `rig fuzz`): first delta debugging over the operations (Zeller and Hildebrandt's
//! ddmin, which ends 1-minimal: no single op can go), then simpler values
//! (smaller ids, coordinates 0, fewer bytes, zeroed longs), then ddmin again,
//! until nothing changes. The predicate decides what "still diverges" means,
//! so the same function serves the Rust-versus-recorded check, a planted bug
//! in a test, and a live JVM.

use std::path::{Path, PathBuf};

use harness::case::{Case, ContainerOp, Ops, StorageOp, Subject};
use harness::exec::Executor;
use harness::outcome::Outcome;
use harness::recorded::Recorded;
use serde_json::json;

/// What the shrinker did.
#[derive(Clone, Debug)]
pub struct Shrunk {
    /// The minimal case.
    pub case: Case,
    /// Operations before.
    pub from_ops: usize,
    /// How many times the predicate ran.
    pub tests: usize,
}

/// Shrinks `case` while `diverges` holds; `diverges(case)` must hold at the
/// start. The result is 1-minimal over ops and has no op the value passes
/// could make simpler.
pub fn shrink(case: &Case, mut diverges: impl FnMut(&Case) -> bool) -> Result<Shrunk, String> {
    let mut tests = 0usize;
    let mut test = |c: &Case| {
        tests += 1;
        diverges(c)
    };
    if !test(case) {
        return Err(format!(
            "case {} does not diverge to begin with: nothing to shrink",
            case.name
        ));
    }
    let mut best = case.clone();
    for _round in 0..8 {
        let before = best.clone();
        best = ddmin_case(&best, &mut test);
        best = simplify(&best, &mut test);
        if best == before {
            break;
        }
    }
    Ok(Shrunk {
        case: best,
        from_ops: case.ops.len(),
        tests,
    })
}

/// `case` with other ops.
fn with_ops(case: &Case, ops: Ops) -> Case {
    Case {
        ops,
        ..case.clone()
    }
}

fn ddmin_case(case: &Case, test: &mut impl FnMut(&Case) -> bool) -> Case {
    match &case.ops {
        Ops::Container(ops) => {
            let kept = ddmin(ops.clone(), &mut |sub: &[ContainerOp]| {
                test(&with_ops(case, Ops::Container(sub.to_vec())))
            });
            with_ops(case, Ops::Container(kept))
        }
        Ops::Storage(ops) => {
            let kept = ddmin(ops.clone(), &mut |sub: &[StorageOp]| {
                test(&with_ops(case, Ops::Storage(sub.to_vec())))
            });
            with_ops(case, Ops::Storage(kept))
        }
    }
}

/// ddmin: the smallest sublist (in order) of `items` that `test` accepts,
/// 1-minimal. `test(items)` is assumed true.
pub fn ddmin<T: Clone>(mut items: Vec<T>, test: &mut impl FnMut(&[T]) -> bool) -> Vec<T> {
    if test(&[]) {
        return Vec::new();
    }
    let mut n = 2usize;
    while items.len() >= 2 {
        let len = items.len();
        let chunk = len.div_ceil(n);
        let starts: Vec<usize> = (0..len).step_by(chunk).collect();
        let mut reduced = false;
        // A chunk alone.
        for &s in &starts {
            let sub = &items[s..(s + chunk).min(len)];
            if sub.len() < len && test(sub) {
                items = sub.to_vec();
                n = 2;
                reduced = true;
                break;
            }
        }
        // Everything but a chunk.
        if !reduced {
            for &s in &starts {
                let mut rest = items[..s].to_vec();
                rest.extend_from_slice(&items[(s + chunk).min(len)..]);
                if test(&rest) {
                    items = rest;
                    n = (n - 1).max(2);
                    reduced = true;
                    break;
                }
            }
        }
        if !reduced {
            if n >= len {
                break;
            }
            n = (n * 2).min(len);
        }
    }
    items
}

/// Tries simpler values op by op (and a simpler subject), keeping each change
/// the predicate still accepts.
fn simplify(case: &Case, test: &mut impl FnMut(&Case) -> bool) -> Case {
    let mut best = case.clone();
    for candidate in simpler_subjects(&best) {
        if test(&candidate) {
            best = candidate;
            break;
        }
    }
    for i in 0..best.ops.len() {
        // Keep taking the first simpler form that still diverges.
        loop {
            let mut changed = false;
            for candidate in simpler_ops(&best, i) {
                if test(&candidate) {
                    best = candidate;
                    changed = true;
                    break;
                }
            }
            if !changed {
                break;
            }
        }
    }
    best
}

/// Smaller versions of an integer, simplest first: 0, half, one less.
fn smaller(v: i64) -> Vec<i64> {
    let mut out = Vec::new();
    if v > 0 {
        out.push(0);
        if v / 2 > 0 {
            out.push(v / 2);
        }
        if v - 1 > v / 2 {
            out.push(v - 1);
        }
    } else if v < 0 {
        out.push(0);
        if v < -1 {
            out.push(-1);
        }
    }
    out
}

/// Simpler coordinates: all zero, then one axis at a time.
fn simpler_pos(x: i32, y: i32, z: i32) -> Vec<(i32, i32, i32)> {
    let mut out = Vec::new();
    if (x, y, z) != (0, 0, 0) {
        out.push((0, 0, 0));
    }
    for p in [(0, y, z), (x, 0, z), (x, y, 0)] {
        if p != (x, y, z) && p != (0, 0, 0) {
            out.push(p);
        }
    }
    out
}

/// Zeroes halves, quarters... of `longs` (only where that changes them).
fn zeroed(longs: &[i64]) -> Vec<Vec<i64>> {
    let mut out = Vec::new();
    if longs.iter().any(|&l| l != 0) {
        out.push(vec![0; longs.len()]);
    }
    let mut width = longs.len() / 2;
    while width >= 1 && out.len() < 64 {
        for start in (0..longs.len()).step_by(width) {
            let end = (start + width).min(longs.len());
            if longs[start..end].iter().any(|&l| l != 0) {
                let mut v = longs.to_vec();
                v[start..end].iter_mut().for_each(|l| *l = 0);
                out.push(v);
            }
        }
        width /= 2;
    }
    out
}

fn simpler_ops(case: &Case, i: usize) -> Vec<Case> {
    let mut out = Vec::new();
    match &case.ops {
        Ops::Container(ops) => {
            for op in simpler_container_op(&ops[i]) {
                let mut v = ops.clone();
                v[i] = op;
                out.push(with_ops(case, Ops::Container(v)));
            }
        }
        Ops::Storage(ops) => {
            for op in simpler_storage_op(&ops[i]) {
                let mut v = ops.clone();
                v[i] = op;
                out.push(with_ops(case, Ops::Storage(v)));
            }
        }
    }
    out
}

fn simpler_container_op(op: &ContainerOp) -> Vec<ContainerOp> {
    use ContainerOp as C;
    let mut out = Vec::new();
    match op.clone() {
        C::Set { x, y, z, value } => {
            out.extend(
                smaller(value)
                    .into_iter()
                    .map(|value| C::Set { x, y, z, value }),
            );
            out.extend(
                simpler_pos(x, y, z)
                    .into_iter()
                    .map(|(x, y, z)| C::Set { x, y, z, value }),
            );
        }
        C::GetAndSet { x, y, z, value } => {
            out.push(C::Set { x, y, z, value });
            out.extend(
                smaller(value)
                    .into_iter()
                    .map(|value| C::GetAndSet { x, y, z, value }),
            );
            out.extend(
                simpler_pos(x, y, z)
                    .into_iter()
                    .map(|(x, y, z)| C::GetAndSet { x, y, z, value }),
            );
        }
        C::Get { x, y, z } => out.extend(
            simpler_pos(x, y, z)
                .into_iter()
                .map(|(x, y, z)| C::Get { x, y, z }),
        ),
        C::MaybeHas { value } => out.extend(
            smaller(value)
                .into_iter()
                .map(|value| C::MaybeHas { value }),
        ),
        C::Unpack {
            palette,
            data,
            bits,
        } => {
            // Ids 0, 1, 2... keep the entries distinct and below the registry.
            let plain: Vec<i64> = (0..palette.len() as i64).collect();
            if palette != plain && palette.iter().all(|&v| v >= 0) {
                out.push(C::Unpack {
                    palette: plain,
                    data: data.clone(),
                    bits,
                });
            }
            if bits != -1 {
                out.push(C::Unpack {
                    palette: palette.clone(),
                    data: data.clone(),
                    bits: -1,
                });
            }
            if let Some(longs) = &data {
                out.push(C::Unpack {
                    palette: palette.clone(),
                    data: None,
                    bits,
                });
                for z in zeroed(longs) {
                    out.push(C::Unpack {
                        palette: palette.clone(),
                        data: Some(z),
                        bits,
                    });
                }
            }
        }
        C::Read { bytes } => {
            // Fewer bytes: drop halves, quarters... of the end.
            let mut cut = bytes.len() / 2;
            while cut >= 1 {
                out.push(C::Read {
                    bytes: bytes[..bytes.len() - cut].to_vec(),
                });
                cut /= 2;
            }
        }
        _ => {}
    }
    out
}

fn simpler_storage_op(op: &StorageOp) -> Vec<StorageOp> {
    use StorageOp as S;
    let mut out = Vec::new();
    match op.clone() {
        S::Get { index } => out.extend(
            smaller(index.into())
                .into_iter()
                .map(|i| S::Get { index: i as i32 }),
        ),
        S::Set { index, value } => {
            out.extend(
                smaller(value)
                    .into_iter()
                    .map(|value| S::Set { index, value }),
            );
            out.extend(smaller(index.into()).into_iter().map(|i| S::Set {
                index: i as i32,
                value,
            }));
        }
        S::GetAndSet { index, value } => {
            out.push(S::Set { index, value });
            out.extend(
                smaller(value)
                    .into_iter()
                    .map(|value| S::GetAndSet { index, value }),
            );
            out.extend(smaller(index.into()).into_iter().map(|i| S::GetAndSet {
                index: i as i32,
                value,
            }));
        }
        S::Fill { value } => out.extend(smaller(value).into_iter().map(|value| S::Fill { value })),
        S::Load { bits, size, longs } => {
            out.extend(
                zeroed(&longs)
                    .into_iter()
                    .map(|longs| S::Load { bits, size, longs }),
            );
        }
        _ => {}
    }
    out
}

/// A simpler subject: initial value 0, then a registry just big enough;
/// always at the case's version (its rules are what the case is about).
fn simpler_subjects(case: &Case) -> Vec<Case> {
    let mut out = Vec::new();
    if let Subject::Container {
        strategy,
        registry,
        initial,
        version,
    } = case.subject
    {
        if initial != 0 {
            out.push(Case {
                subject: Subject::Container {
                    strategy,
                    registry,
                    initial: 0,
                    version,
                },
                ..case.clone()
            });
        }
        let needed = max_id(case).max(i64::from(initial)) + 1;
        if needed < i64::from(registry) && needed >= 1 {
            let registry = needed as u32;
            out.push(Case {
                subject: Subject::Container {
                    strategy,
                    registry,
                    initial,
                    version,
                },
                ..case.clone()
            });
        }
    }
    out
}

/// The largest id a container case's ops name (read bytes not parsed: a
/// registry change is tried only when there are none).
fn max_id(case: &Case) -> i64 {
    let Ops::Container(ops) = &case.ops else {
        return 0;
    };
    let mut max = 0;
    for op in ops {
        match op {
            ContainerOp::Set { value, .. }
            | ContainerOp::GetAndSet { value, .. }
            | ContainerOp::MaybeHas { value } => max = max.max(*value),
            ContainerOp::Unpack { palette, .. } => {
                max = max.max(palette.iter().copied().max().unwrap_or(0))
            }
            ContainerOp::Read { .. } => return i64::MAX - 1,
            _ => {}
        }
    }
    max
}

/// A predicate: the two executors give different results for the case
/// (a run that fails on either side is not a divergence).
pub fn executors_differ<'a>(
    a: &'a mut dyn Executor,
    b: &'a mut dyn Executor,
) -> impl FnMut(&Case) -> bool + 'a {
    // The results only: an executor's failed self-checks are its own bug, not a
    // difference between the two, and never stand in for one.
    move |case| match (a.run_checked(case), b.run_checked(case)) {
        (Ok(x), Ok(y)) => x.results != y.results,
        _ => false,
    }
}

/// The first index where two result lists differ (or where one stops).
pub fn first_difference(a: &[Outcome], b: &[Outcome]) -> Option<usize> {
    let n = a.len().min(b.len());
    (0..n)
        .find(|&i| a[i] != b[i])
        .or(if a.len() != b.len() { Some(n) } else { None })
}

/// The first op whose result is not the recorded one, as `rig check` compares
/// ([`harness::compare::matches`]: any of a run-dependent op's results will do),
/// or where one list stops.
pub fn first_disagreement(recorded: &[Outcome], actual: &[Outcome]) -> Option<usize> {
    let n = recorded.len().min(actual.len());
    (0..n)
        .find(|&i| !harness::compare::matches(&recorded[i], &actual[i]))
        .or(if recorded.len() != actual.len() {
            Some(n)
        } else {
            None
        })
}

/// Whether an op only looks: it changes nothing in Minecraft's object, so
/// the recorded results of the ops after it hold without it.
pub fn observes(ops: &Ops, i: usize) -> bool {
    !ops.changes_state(i)
}

fn same_op(a: &Ops, i: usize, b: &Ops, j: usize) -> bool {
    match (a, b) {
        (Ops::Container(a), Ops::Container(b)) => a[i] == b[j],
        (Ops::Storage(a), Ops::Storage(b)) => a[i] == b[j],
        _ => false,
    }
}

/// Where each op of `candidate` sits in `recorded`, if `candidate` is the
/// recorded list with only observing ops left out (so the recorded results
/// still hold for every op it keeps).
fn align(candidate: &Ops, recorded: &Ops) -> Option<Vec<usize>> {
    let mut at = Vec::with_capacity(candidate.len());
    let mut r = 0;
    for c in 0..candidate.len() {
        loop {
            if r >= recorded.len() {
                return None;
            }
            if same_op(candidate, c, recorded, r) {
                at.push(r);
                r += 1;
                break;
            }
            if !observes(recorded, r) {
                return None;
            }
            r += 1;
        }
    }
    Some(at)
}

/// The default predicate for a recorded file: the Rust containers disagree
/// with the recorded results.
///
/// Recorded results hold only for the recorded op list, so without a live
/// Minecraft the sound cuts are those that change no recorded state: ops
/// after the disagreement, and ops that only observe. The predicate refuses
/// any other candidate (one that drops a `set`, or changes a value); a
/// live-JVM predicate can cut further.
pub fn disagrees_with_recording<'a>(
    recorded: &'a Recorded,
    rust: &'a mut dyn Executor,
) -> impl FnMut(&Case) -> bool + 'a {
    move |case| {
        if case.subject != recorded.case.subject {
            return false;
        }
        let Some(at) = align(&case.ops, &recorded.case.ops) else {
            return false;
        };
        // Compared as `rig check` compares: a run-dependent op's recording takes any of its
        // results, so the shrinker never chases one. The results only, as with
        // `rig check`: failed self-checks are reported apart, never in their place.
        match rust.run_checked(case) {
            Ok(checked) => first_disagreement(
                &at.iter()
                    .map(|&i| recorded.results[i].clone())
                    .collect::<Vec<_>>(),
                &checked.results,
            )
            .is_some(),
            Err(_) => false,
        }
    }
}

/// A case cut from a recorded one without Minecraft: the parent's ops at
/// [`Derived::kept`], with the parent's recorded results for them.
///
/// Sound because every op left out before the last kept one only observes:
/// the kept ops see the states they saw in the parent, so the recorded
/// results still hold for them, and the case fails while the bug is in and
/// passes once it is fixed.
#[derive(Clone, Debug)]
pub struct Derived {
    /// The kept ops (the parent's name and subject).
    pub case: Case,
    /// Where each kept op sits in the parent, in order.
    pub kept: Vec<usize>,
    /// The parent's recorded results for the kept ops.
    pub results: Vec<Outcome>,
    /// Operations before.
    pub from_ops: usize,
    /// How many times the predicate ran.
    pub tests: usize,
}

/// The one shrinker against recorded results: cuts `case` (recorded as
/// `results`) to the prefix ending at op `at`, the divergence, less the
/// observing ops before it that `diverges` does without.
///
/// `diverges(candidate, expected)` gets each candidate with the recorded
/// results of its ops, and says whether it still diverges as the case did;
/// ddmin runs over the observing ops only, so every candidate is sound.
/// `rig shrink` and `rig conformance` call it; with a live Minecraft,
/// [`shrink`] may cut further.
pub fn against_recording(
    case: &Case,
    results: &[Outcome],
    at: usize,
    mut diverges: impl FnMut(&Case, &[Outcome]) -> bool,
) -> Derived {
    let at = at.min(case.ops.len().saturating_sub(1));
    let looks: Vec<usize> = (0..at).filter(|&i| observes(&case.ops, i)).collect();
    let chosen = |kept: &[usize]| -> Vec<usize> {
        (0..=at)
            .filter(|i| looks.binary_search(i).is_err() || kept.binary_search(i).is_ok())
            .collect()
    };
    let cut = |indices: &[usize]| -> (Case, Vec<Outcome>) {
        let results = indices.iter().map(|&i| results[i].clone()).collect();
        (select(case, indices), results)
    };
    let mut tests = 0;
    let kept = ddmin(looks.clone(), &mut |kept: &[usize]| {
        tests += 1;
        let (candidate, expected) = cut(&chosen(kept));
        diverges(&candidate, &expected)
    });
    let kept = chosen(&kept);
    let (cut_case, cut_results) = cut(&kept);
    Derived {
        case: cut_case,
        kept,
        results: cut_results,
        from_ops: case.ops.len(),
        tests,
    }
}

/// Shrinks a recorded case against its own recording with
/// [`against_recording`]: `exec` (the Rust containers, or a planted copy)
/// must still disagree with the recording, first at the last kept op.
///
/// Only the results decide ([`Executor::run_checked`]): a run whose
/// self-checks also fail still shrinks to its divergence, and a case whose
/// results all match is refused, its self-checks named (there is no
/// recorded result to keep for them).
pub fn shrink_recorded(recorded: &Recorded, exec: &mut dyn Executor) -> Result<Derived, String> {
    let checked = exec
        .run_checked(&recorded.case)
        .map_err(|e| format!("case {}: {e}", recorded.case.name))?;
    let Some(at) = first_disagreement(&recorded.results, &checked.results) else {
        let also = match checked.self_checks.first() {
            Some(c) => format!(
                " (its results all match, but {} self-check(s) of {} failed, the first {}: `rig repro {}` shows them)",
                checked.self_checks.len(),
                exec.name(),
                match c.op {
                    Some(i) => format!("at op {i}"),
                    None => "before the first op".into(),
                },
                recorded.case.name
            ),
            None => String::new(),
        };
        return Err(format!(
            "case {} does not diverge to begin with: nothing to shrink{also}",
            recorded.case.name
        ));
    };
    let mut derived = against_recording(
        &recorded.case,
        &recorded.results,
        at,
        |candidate, expected| {
            exec.run_checked(candidate).is_ok_and(|actual| {
                first_disagreement(expected, &actual.results) == Some(candidate.ops.len() - 1)
            })
        },
    );
    derived.tests += 1;
    Ok(derived)
}

impl Derived {
    /// The derived recording `rig shrink` writes and `rig add` files: named
    /// `regress/<parent>-shrunk`, with the parent's `source`, and a
    /// provenance ([`harness::store::Derivation`]) naming the parent, its
    /// fingerprint (`parent_results` are the parent's recorded results) and
    /// the kept ops.
    pub fn recording(&self, parent: &Recorded, why: &str) -> Recorded {
        let mut case = self.case.clone();
        case.name = format!("regress/{}-shrunk", stem(&parent.case.name));
        for key in [
            "generator",
            "seed",
            "notes",
            harness::recorded::RUN_DEPENDENT,
        ] {
            case.extra.remove(key);
        }
        case.extra.insert("generator".into(), json!("rig shrink"));
        case.extra.insert(
            "notes".into(),
            json!(format!(
                "shrunk from {} ({} ops) to {} ops: {why}; the kept ops' results are the parent's recorded results (every op left out before the last one only observes)",
                parent.case.name,
                self.from_ops,
                self.case.ops.len()
            )),
        );
        case.extra.insert(
            "recorder".into(),
            json!("rig shrink (derived from a recording)"),
        );
        harness::store::Derivation {
            parent: parent.case.name.clone(),
            sha256: harness::store::fingerprint(&parent.case, &parent.results),
            ops: self.kept.clone(),
        }
        .annotate(&mut case.extra);
        Recorded {
            case,
            source: parent.source.clone(),
            results: self.results.clone(),
            format: harness::case::FORMAT,
        }
    }
}

/// The ops of `case` at `indices`, in order.
pub fn select(case: &Case, indices: &[usize]) -> Case {
    with_ops(case, case.ops.select(indices))
}

/// The shrunk case as a regression case: named `regress/<original>-shrunk`,
/// its `generator` and `notes` saying where it came from and that it holds
/// no results.
pub fn as_regression(shrunk: &Shrunk, original: &str, why: &str) -> Case {
    let mut case = shrunk.case.clone();
    case.name = format!("regress/{}-shrunk", stem(original));
    case.extra.insert("generator".into(), json!("rig shrink"));
    case.extra.insert(
        "notes".into(),
        json!(format!(
            "shrunk from {original} ({} ops) to {} ops: {why}; operations only: results come only from Minecraft",
            shrunk.from_ops,
            shrunk.case.ops.len()
        )),
    );
    case
}

/// A case name as one file name part.
fn stem(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect()
}

/// Writes [`as_regression`] of a shrunk case (an op list, no results) to
/// `dir/<original>-shrunk.json`; gives the path written.
pub fn write_regression(
    shrunk: &Shrunk,
    original: &str,
    why: &str,
    dir: &Path,
) -> Result<PathBuf, String> {
    let case = as_regression(shrunk, original, why);
    let path = dir.join(format!("{}-shrunk.json", stem(original)));
    harness::atomic::write(&path, case.to_text())?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plant::{Plant, Planted};
    use harness::exec::{Checked, ExecError, SelfCheck};

    /// A planted executor whose own cross-checks also fail at every op, as
    /// the Rust containers' do with a resize-order bug: `run` gives only the
    /// first failed self-check, `run_checked` the results and the checks.
    struct SelfChecking<E>(E);

    impl<E: Executor> Executor for SelfChecking<E> {
        fn name(&self) -> String {
            "self-checking".into()
        }
        fn run(&mut self, case: &Case) -> Result<Vec<Outcome>, ExecError> {
            Err(self.run_checked(case)?.self_checks.remove(0).into())
        }
        fn run_checked(&mut self, case: &Case) -> Result<Checked, ExecError> {
            Ok(Checked {
                results: self.0.run(case)?,
                self_checks: (0..case.ops.len())
                    .map(|op| SelfCheck {
                        op: Some(op),
                        message: "from_values disagrees with the sets".into(),
                    })
                    .collect(),
            })
        }
    }

    fn golden(name: &str) -> Recorded {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../cases/golden")
            .join(format!("{name}.json"));
        Recorded::parse(&std::fs::read_to_string(&path).unwrap(), &path).unwrap()
    }

    /// Failed self-checks never stop a shrink, nor change what it keeps:
    /// only the first divergence from the recording decides.
    #[test]
    fn a_case_whose_self_checks_also_fail_shrinks_as_its_results_decide() {
        let parent = golden("ladder/biomes-r9");
        let plain = shrink_recorded(&parent, &mut Planted::new(Plant::CountOrder)).unwrap();
        let checking =
            shrink_recorded(&parent, &mut SelfChecking(Planted::new(Plant::CountOrder))).unwrap();
        assert_eq!(checking.kept, plain.kept);
        assert_eq!(checking.results, plain.results);
        assert!(checking.kept.len() < parent.case.ops.len());
        // With no divergence, the refusal names the self-checks.
        let err = shrink_recorded(
            &parent,
            &mut SelfChecking(harness::rust::RustExecutor::new()),
        )
        .unwrap_err();
        assert!(err.contains("does not diverge"), "{err}");
        assert!(
            err.contains("41 self-check(s) of self-checking failed, the first at op 0"),
            "{err}"
        );
    }
}
