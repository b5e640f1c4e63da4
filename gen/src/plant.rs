//! Planted bugs: a copy of the Rust executor with one behaviour broken, to
//! prove the shrinker (and anything else that hunts divergences) end to end.
//! Never a source of results: it exists to be caught.

use harness::case::{Case, ContainerOp, Ops, StorageOp};
use harness::exec::{ExecError, Executor};
use harness::outcome::Outcome;
use harness::rust::RustExecutor;
use serde_json::Value;

/// One behaviour to break.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plant {
    /// `counts` reports its pairs in reverse order.
    CountOrder,
    /// `write` loses its last byte.
    ShortWrite,
    /// A storage's `longs` has its last long's low bit flipped.
    LongBit,
}

impl Plant {
    /// Every plant, with its command-line name.
    pub const ALL: &'static [(&'static str, Plant)] = &[
        ("count-order", Plant::CountOrder),
        ("short-write", Plant::ShortWrite),
        ("long-bit", Plant::LongBit),
    ];

    /// The plant called `name`.
    pub fn named(name: &str) -> Option<Plant> {
        Plant::ALL.iter().find(|(n, _)| *n == name).map(|&(_, p)| p)
    }
}

/// [`RustExecutor`] with a [`Plant`] applied to its results.
pub struct Planted {
    inner: RustExecutor,
    plant: Plant,
}

impl Planted {
    /// The Rust executor with `plant`.
    pub fn new(plant: Plant) -> Planted {
        Planted {
            inner: RustExecutor::new(),
            plant,
        }
    }
}

impl Executor for Planted {
    fn name(&self) -> String {
        format!("paletted with the planted bug {:?}", self.plant)
    }

    fn run(&mut self, case: &Case) -> Result<Vec<Outcome>, ExecError> {
        let mut out = self.inner.run(case)?;
        match &case.ops {
            Ops::Container(ops) => {
                for (op, o) in ops.iter().zip(out.iter_mut()) {
                    match (self.plant, op, o) {
                        (
                            Plant::CountOrder,
                            ContainerOp::Counts,
                            Outcome::Ok(Value::Array(pairs)),
                        ) => pairs.reverse(),
                        (
                            Plant::ShortWrite,
                            ContainerOp::Write,
                            Outcome::Ok(Value::String(hex)),
                        ) => hex.truncate(hex.len().saturating_sub(2)),
                        _ => {}
                    }
                }
            }
            Ops::Storage(ops) => {
                for (op, o) in ops.iter().zip(out.iter_mut()) {
                    if let (Plant::LongBit, StorageOp::Longs, Outcome::Ok(Value::Array(longs))) =
                        (self.plant, op, o)
                    {
                        if let Some(last) = longs.last_mut().and_then(|v| v.as_i64()) {
                            *longs.last_mut().expect("a last long") = Value::from(last ^ 1);
                        }
                    }
                }
            }
        }
        Ok(out)
    }
}
