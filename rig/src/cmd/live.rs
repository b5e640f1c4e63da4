//! What `rig diff` and `rig fuzz` share: the two sides of a live comparison, several sets of
//! them (each with its own JVM child and adapter process) running cases at once, and the
//! results handed over in the cases' order, so a run's report does not depend on `--jobs`.

use std::collections::BTreeMap;
use std::sync::mpsc;
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use harness::adapter::AdapterExecutor;
use harness::case::Case;
use harness::exec::{ExecError, Executor, SelfCheck};
use harness::outcome::{golden_text, Outcome};
use harness::rust::RustExecutor;

use super::adapter::{Reference, SideArgs};
use crate::jvm::{Answer, JvmArgs, Regimes, Setup};

/// A case's result on one side.
pub type Run = Result<Vec<Outcome>, ExecError>;

/// One set of sides: the reference (the JVM, or the Rust containers standing in for it) and
/// the side under test (the Rust containers, or an adapter).
pub struct Sides {
    /// The JVM side, a child per identity-hash regime: its results mark the ops that differ
    /// between regimes as run-dependent.
    pub jvm: Option<Regimes>,
    pub rust: RustExecutor,
    pub adapter: Option<AdapterExecutor>,
}

/// A case run on both sides, with what the run learnt about the sides.
pub struct Ran {
    /// [`Answer::Same`] where the JVM's answer was, byte for byte, the tested side's results
    /// written as the probe writes them: the two agree, and the answer was not read.
    pub reference: Answer,
    pub tested: Run,
    /// The tested side's own cross-checks that failed, each at its op: reported after the
    /// comparison, never in its place (the results in `tested` are compared all the same).
    pub self_checks: Vec<SelfCheck>,
    pub reference_time: Duration,
    pub tested_time: Duration,
    /// Why the JVM side cannot run any further case, as known right after this one.
    pub jvm_unusable: Option<String>,
    /// Why the adapter cannot, likewise.
    pub adapter_unusable: Option<String>,
}

impl Ran {
    /// Why a side cannot run at all (the JVM side named first).
    pub fn unusable(&self) -> Option<String> {
        if let Some(why) = &self.jvm_unusable {
            return Some(format!("the JVM side cannot run: {why}"));
        }
        let why = self.adapter_unusable.as_ref()?;
        Some(format!("the adapter cannot run: {why}"))
    }
}

impl Sides {
    /// `jobs` sets of sides; the JVM side is asked once whether it loads the test fixture
    /// (every set has the same class path). The setup is `None` with `--reference paletted`.
    pub fn start(
        jvm: &JvmArgs,
        sides: &SideArgs,
        jobs: usize,
    ) -> Result<(Option<Setup>, Vec<Sides>), String> {
        let first_adapter = sides.start(jvm.case_timeout)?;
        let (setup, first_jvm) = match sides.reference {
            Reference::Minecraft => {
                let (setup, mut regimes) = jvm.start()?;
                regimes.every_case(jvm.all_regimes);
                (Some(setup), Some(regimes))
            }
            Reference::Paletted => (None, None),
        };
        let mut all = Vec::with_capacity(jobs);
        for _ in 1..jobs {
            all.push(Sides {
                jvm: first_jvm.as_ref().map(Regimes::sibling),
                rust: RustExecutor::new(),
                adapter: sides.start(jvm.case_timeout)?,
            });
        }
        all.insert(
            0,
            Sides {
                jvm: first_jvm,
                rust: RustExecutor::new(),
                adapter: first_adapter,
            },
        );
        Ok((setup, all))
    }

    /// Runs `case` on both sides.
    pub fn run(&mut self, case: &Case) -> Ran {
        self.run_batch(&[case]).pop().expect("one case, one result")
    }

    /// Runs cases on both sides, the JVM's at the same time as the other side's: they are
    /// sent to the JVM child first, and its answers read after the other side has run them.
    pub fn run_batch(&mut self, cases: &[&Case]) -> Vec<Ran> {
        let t = Instant::now();
        let sent = self.jvm.as_mut().map(|jvm| jvm.send(cases));
        let mut jvm_time = t.elapsed();
        let mut tested = Vec::with_capacity(cases.len());
        for case in cases {
            let t = Instant::now();
            let (run, self_checks) = match &mut self.adapter {
                Some(a) => a.run_checked(case),
                None => self.rust.run_checked(case),
            }
            .map_or_else(|e| (Err(e), Vec::new()), |c| (Ok(c.results), c.self_checks));
            let unusable = self
                .adapter
                .as_ref()
                .and_then(|a| a.unusable())
                .map(String::from);
            tested.push((run, self_checks, t.elapsed(), unusable));
        }
        let reference: Vec<(Answer, Duration, Option<String>)> = match (&mut self.jvm, sent) {
            (Some(jvm), Some(batch)) => {
                // Most answers are exactly the other side's results; those need no reading.
                let texts: Vec<Option<Vec<u8>>> = tested
                    .iter()
                    .map(|(run, ..)| run.as_ref().ok().map(|results| golden_text(results)))
                    .collect();
                let t = Instant::now();
                let answers = jvm.finish(batch, &texts);
                jvm_time += t.elapsed();
                // The child ran them back to back: each gets an even share of the time.
                let share = jvm_time / cases.len().max(1) as u32;
                answers
                    .into_iter()
                    .map(|(answer, unusable)| (answer, share, unusable))
                    .collect()
            }
            _ => cases
                .iter()
                .map(|case| {
                    let t = Instant::now();
                    (Answer::Run(self.rust.run(case)), t.elapsed(), None)
                })
                .collect(),
        };
        reference
            .into_iter()
            .zip(tested)
            .map(
                |(
                    (reference, reference_time, jvm_unusable),
                    (tested, self_checks, tested_time, adapter_unusable),
                )| Ran {
                    reference,
                    tested,
                    self_checks,
                    reference_time,
                    tested_time,
                    jvm_unusable,
                    adapter_unusable,
                },
            )
            .collect()
    }

    /// How many JVM children died or were killed.
    pub fn crashes(&self) -> usize {
        self.jvm.as_ref().map_or(0, Regimes::crashes)
    }

    /// How many adapter processes were lost and restarted.
    pub fn restarts(&self) -> usize {
        self.adapter.as_ref().map_or(0, |a| a.restarts)
    }
}

/// The reference side's results of a case as a live run holds them against the tested
/// side's (PROTOCOL.md, "Run-dependent results").
pub struct Judged {
    /// What the tested side is compared with: an op that can depend on the run
    /// ([`crate::jvm::regimes::mark`]) is not a fact, so whatever the tested side gave there
    /// stands in for it and never diverges; every other op as the reference gave it.
    pub expected: Vec<Outcome>,
    /// The reference's results with the run-dependent ops marked, for reports.
    pub marked: Vec<Outcome>,
    /// How many ops are run-dependent.
    pub run_dependent: usize,
    /// Ops the regimes disagreed on that the model does not flag: findings.
    pub unflagged: Vec<usize>,
}

/// Judges `reference` (the JVM side's merged results of `case`, or the Rust containers'
/// standing in for them) against `tested`.
pub fn judge(case: &Case, reference: Vec<Outcome>, tested: &[Outcome]) -> Judged {
    let marked = crate::jvm::regimes::mark(case, reference);
    let expected = marked
        .results
        .iter()
        .enumerate()
        .map(|(i, r)| match tested.get(i) {
            Some(t)
                if r.is_run_dependent()
                    && !marked.unflagged.contains(&i)
                    && !matches!(t, Outcome::Unsupported(_)) =>
            {
                t.clone()
            }
            _ => r.clone(),
        })
        .collect();
    Judged {
        expected,
        run_dependent: marked.run_dependent,
        unflagged: marked.unflagged,
        marked: marked.results,
    }
}

/// How far ahead of the case being reported the workers may run, per worker: bounds the
/// results held back while one worker is slow (a hanging case waits for --case-timeout).
const AHEAD_PER_WORKER: usize = 64;

struct Feed<I> {
    items: I,
    /// The index the next item pulled gets.
    next: usize,
    /// How many results `take` has had.
    taken: usize,
    stop: bool,
}

/// How many items a worker takes at once: the JVM child gets them in one go (see
/// [`Sides::run_batch`]), and the last batches still spread over the workers.
pub const BATCH: usize = 8;

/// Runs `work` on `items`, in batches of up to `batch` items, with one thread per worker, and
/// hands each item and its result to `take` in the items' order, whatever order they finish
/// in; `take` returning `false` stops the run (results past it are dropped). `work` gives
/// one result per item. One worker runs the items one batch after another, as a plain loop
/// would. Gives the workers back, for what follows (shrinking, totals).
pub fn in_order<W, T, R, I>(
    workers: Vec<W>,
    batch: usize,
    items: I,
    work: impl Fn(&mut W, &[T]) -> Vec<R> + Sync,
    mut take: impl FnMut(T, R) -> bool,
) -> Vec<W>
where
    W: Send,
    T: Send,
    R: Send,
    I: Iterator<Item = T> + Send,
{
    let ahead = AHEAD_PER_WORKER * workers.len();
    let feed = Mutex::new(Feed {
        items,
        next: 0,
        taken: 0,
        stop: false,
    });
    let moved = Condvar::new();
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<(usize, T, R)>();
        let handles: Vec<_> = workers
            .into_iter()
            .map(|mut worker| {
                let (tx, feed, moved, work) = (tx.clone(), &feed, &moved, &work);
                let batch_len = batch;
                scope.spawn(move || {
                    loop {
                        let (first, batch) = {
                            let mut f = feed.lock().expect("no worker panics holding the feed");
                            while !f.stop && f.next >= f.taken + ahead {
                                f = moved.wait(f).expect("no worker panics holding the feed");
                            }
                            if f.stop {
                                break;
                            }
                            let room = (f.taken + ahead - f.next).min(batch_len.max(1));
                            let items: Vec<T> = f.items.by_ref().take(room).collect();
                            f.next += items.len();
                            (f.next - items.len(), items)
                        };
                        if batch.is_empty() {
                            break;
                        }
                        let results = work(&mut worker, &batch);
                        assert_eq!(results.len(), batch.len(), "one result per item");
                        let sent = batch
                            .into_iter()
                            .zip(results)
                            .enumerate()
                            .try_for_each(|(k, (item, r))| tx.send((first + k, item, r)));
                        if sent.is_err() {
                            break;
                        }
                    }
                    worker
                })
            })
            .collect();
        drop(tx);
        let mut held = BTreeMap::new();
        let mut want = 0usize;
        'run: for (i, item, result) in rx.iter() {
            held.insert(i, (item, result));
            while let Some((item, result)) = held.remove(&want) {
                want += 1;
                let go_on = take(item, result);
                let mut f = feed.lock().expect("no worker panics holding the feed");
                f.taken = want;
                f.stop |= !go_on;
                moved.notify_all();
                if !go_on {
                    break 'run;
                }
            }
        }
        // Workers still running finish their item; the receiver is gone, so they stop.
        drop(rx);
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_in_the_items_order_and_a_stop_stops() {
        for workers in [1, 3] {
            let mut seen = Vec::new();
            let back = in_order(
                vec![0usize; workers],
                3,
                0..1000u64,
                |count, items| {
                    *count += items.len();
                    // Later items finish first now and then.
                    if items[0] % 7 == 0 {
                        std::thread::sleep(Duration::from_micros(200));
                    }
                    items.iter().map(|i| i * 2).collect()
                },
                |i, r| {
                    seen.push((i, r));
                    true
                },
            );
            assert_eq!(back.len(), workers);
            assert_eq!(back.iter().sum::<usize>(), 1000);
            assert_eq!(seen, (0..1000).map(|i| (i, i * 2)).collect::<Vec<_>>());

            let mut seen = Vec::new();
            in_order(
                vec![(); workers],
                3,
                0..u64::MAX,
                |(), items| items.to_vec(),
                |i, _| {
                    seen.push(i);
                    i < 500
                },
            );
            assert_eq!(seen, (0..=500).collect::<Vec<_>>());
        }
    }
}
