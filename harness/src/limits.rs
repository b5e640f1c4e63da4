//! What one case may cost, decided from the case alone before anything runs
//! it, so that no file can make a command run out of memory or for minutes.
//!
//! The costs are upper bounds, counted in *items* (a number, an id or a
//! byte of a result; a long of a storage) as an executor meets them: the
//! longs a storage holds, the items one op's result can hold and all of a
//! case's results together, and the work a case asks for (every item an
//! op touches or gives). A case past a limit is refused when it is read
//! ([`crate::case::Case::parse`] and [`crate::case::Case::from_json`] call
//! [`check`]), naming the file, the op and the limit; PROTOCOL.md, "Limits",
//! documents each one. Every recorded case and every generator family is
//! well inside them.

use std::fmt;

use crate::case::{ContainerOp, Ops, StorageOp, Subject};

/// Bytes a case, recording or snapshot file may hold (the largest recorded
/// one is under 0.5 MiB).
pub const FILE_BYTES: u64 = 64 << 20;

/// Ops in one case (the longest recorded case has 4,116).
pub const OPS: u64 = 1 << 16;

/// Ids in a container's registry: the JVM probe makes one object for each
/// (a recorded case uses 2^26 + 2).
pub const REGISTRY_IDS: u64 = 1 << 27;

/// Longs a bit storage may hold, 64 MiB (a 2^26-value storage at 3 bits,
/// recorded, holds 3 Mi).
pub const STORAGE_LONGS: u64 = 1 << 23;

/// Items one op's result may hold: numbers in a list, bytes of a `write`
/// (a `values` of 2^22 numbers; a global palette of 2^21 ids is recorded).
pub const RESULT_ITEMS: u64 = 1 << 22;

/// Items all of a case's results may hold together (a recorded case's
/// hold 2^21 at most, a generated one's about 2^22: two global palettes).
pub const CASE_RESULT_ITEMS: u64 = 1 << 23;

/// Work units a case may ask for: each item an op reads, writes, copies or
/// gives counts one (the recorded cases ask for at most about 2^24).
pub const CASE_WORK: u64 = 1 << 28;

/// Bytes of one line an adapter answers, 256 MiB: more than any case within
/// the limits above gives (2^23 items of at most 21 bytes, a long and its
/// comma, and 2^16 ops' wrappings and messages).
pub const ANSWER_BYTES: usize = 256 << 20;

/// Where a case is past a limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum At {
    /// Its subject.
    Subject,
    /// Its op list as a whole.
    Ops,
    /// Op `i`.
    Op(usize),
}

/// A limit a case is past, and by how much.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exceeded {
    /// Where.
    pub at: At,
    /// What is counted, from the case (`op `values` gives up to 67108864
    /// numbers`).
    pub what: String,
    /// The limit's value.
    pub limit: u64,
    /// The limit's name in PROTOCOL.md (`items in one op's result`).
    pub name: &'static str,
}

impl fmt::Display for Exceeded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}, over the limit of {} {} (PROTOCOL.md, \"Limits\"); nothing was run",
            self.what,
            power(self.limit),
            self.name
        )
    }
}

impl std::error::Error for Exceeded {}

/// `1048576 (2^20)` for a power of two, else the number.
fn power(n: u64) -> String {
    if n.is_power_of_two() && n > 1024 {
        format!("{n} (2^{})", n.trailing_zeros())
    } else {
        n.to_string()
    }
}

/// Whether a case of `subject` and `ops` is within every limit: the first
/// limit it is past, in op order, if not.
pub fn check(subject: &Subject, ops: &Ops) -> Result<(), Exceeded> {
    let n = ops.len() as u64;
    if n > OPS {
        return Err(Exceeded {
            at: At::Ops,
            what: format!("{n} ops"),
            limit: OPS,
            name: "ops in a case",
        });
    }
    let mut tally = Tally::default();
    match (*subject, ops) {
        (Subject::Container { registry, .. }, Ops::Container(ops)) => {
            let registry = u64::from(registry);
            if registry > REGISTRY_IDS {
                return Err(Exceeded {
                    at: At::Subject,
                    what: format!("a registry of {registry} ids"),
                    limit: REGISTRY_IDS,
                    name: "ids in a registry",
                });
            }
            tally.work = registry;
            let mut container = Container::new(subject, registry);
            for (i, op) in ops.iter().enumerate() {
                let (touched, result) = container.op(op);
                tally.add(i, op.kind(), touched, result)?;
            }
        }
        (Subject::Storage { bits, size, .. }, Ops::Storage(ops)) => {
            let longs = longs(i64::from(bits), i64::from(size));
            if longs > STORAGE_LONGS {
                return Err(Exceeded {
                    at: At::Subject,
                    what: format!("a {bits}-bit storage of {size} values holds {longs} longs"),
                    limit: STORAGE_LONGS,
                    name: "longs in a storage",
                });
            }
            tally.work = longs;
            let mut storage = Storage {
                size: u64::from(size),
                longs,
            };
            for (i, op) in ops.iter().enumerate() {
                let (touched, result) = storage.op(op);
                tally.add(i, op.kind(), touched, result)?;
            }
        }
        // The parser gives ops of the subject's kind; nothing to count otherwise.
        _ => {}
    }
    Ok(())
}

/// Longs a `bits`-wide storage of `size` values holds (0 for 0 bits, and for
/// what no storage can be).
fn longs(bits: i64, size: i64) -> u64 {
    if !(1..=32).contains(&bits) || size <= 0 {
        return 0;
    }
    let per = 64 / bits as u64;
    (size as u64).div_ceil(per)
}

/// The work and result items counted so far.
#[derive(Default)]
struct Tally {
    work: u64,
    results: u64,
}

impl Tally {
    /// Counts op `i`, which touches `touched` items and gives up to `result`.
    fn add(&mut self, i: usize, kind: &str, touched: u64, result: u64) -> Result<(), Exceeded> {
        if result > RESULT_ITEMS {
            return Err(Exceeded {
                at: At::Op(i),
                what: format!("op `{kind}` gives up to {result} items"),
                limit: RESULT_ITEMS,
                name: "items in one op's result",
            });
        }
        self.results += result;
        if self.results > CASE_RESULT_ITEMS {
            return Err(Exceeded {
                at: At::Op(i),
                what: format!(
                    "the results up to op `{kind}` hold up to {} items",
                    self.results
                ),
                limit: CASE_RESULT_ITEMS,
                name: "items in a case's results",
            });
        }
        // Every op costs one at least; what it gives it also makes.
        self.work += 1 + touched + result;
        if self.work > CASE_WORK {
            return Err(Exceeded {
                at: At::Op(i),
                what: format!("the work up to op `{kind}` comes to {} units", self.work),
                limit: CASE_WORK,
                name: "work units in a case",
            });
        }
        Ok(())
    }
}

/// A bit storage's largest size and longs so far: a `load` may replace it
/// (whether it does is not counted, so the bound is the larger).
struct Storage {
    size: u64,
    longs: u64,
}

impl Storage {
    /// The items `op` touches, and its result's most items.
    fn op(&mut self, op: &StorageOp) -> (u64, u64) {
        match *op {
            StorageOp::Load {
                bits,
                size,
                ref longs,
            } => {
                // A zero-bit storage holds no longs; another holds those given.
                if (0..=32).contains(&bits) && size >= 0 {
                    self.size = self.size.max(size as u64);
                    if bits > 0 {
                        self.longs = self.longs.max(longs.len() as u64);
                    }
                }
                (longs.len() as u64, 1)
            }
            // The executor copies a storage before a change, to check one call by another.
            StorageOp::Set { .. } | StorageOp::GetAndSet { .. } | StorageOp::Fill { .. } => {
                (self.longs, 1)
            }
            StorageOp::Values => (self.longs, self.size),
            StorageOp::Longs => (self.longs, self.longs),
            StorageOp::Get { .. } | StorageOp::Bits | StorageOp::Size => (0, 1),
        }
    }
}

/// What bounds a container's results: its size, its registry (a global
/// palette lists every id) and the longest list an op gave it (a palette
/// read or unpacked).
struct Container {
    size: u64,
    registry: u64,
    given: u64,
}

/// Entries a linear or hash-map palette holds at most (8 bits).
const PALETTE_ENTRIES: u64 = 256;

impl Container {
    fn new(subject: &Subject, registry: u64) -> Container {
        let size = match subject {
            Subject::Container {
                strategy: paletted::Kind::Biomes,
                ..
            } => 64,
            _ => 4096,
        };
        Container {
            size,
            registry,
            given: 0,
        }
    }

    /// The items `op` touches, and its result's most items.
    fn op(&mut self, op: &ContainerOp) -> (u64, u64) {
        let input = match op {
            ContainerOp::Unpack { palette, data, .. } => {
                (palette.len() + data.as_ref().map_or(0, Vec::len)) as u64
            }
            ContainerOp::Read { bytes } => bytes.len() as u64,
            _ => 0,
        };
        self.given = self.given.max(input);
        // Entries a palette other than the global one can hold.
        let entries = PALETTE_ENTRIES.max(self.given);
        // Longs of data at 32 bits a value, the widest.
        let data = self.size / 2;
        let result = match op {
            ContainerOp::Palette => self.registry.max(entries),
            ContainerOp::Counts => 2 * self.size,
            ContainerOp::GetAll => self.size,
            // The bits byte, a palette of varints (5 bytes at most), the data's length and longs.
            ContainerOp::Write => 1 + 5 + 5 * entries + 5 + 8 * data,
            ContainerOp::Pack => entries.max(self.size) + data + 1,
            _ => 1,
        };
        // Every op may look at every value (the executor checks the whole
        // container after a read or unpack, and the bulk calls against sets).
        (self.size + input, result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use paletted::Kind;

    fn storage(bits: u32, size: u32, ops: Vec<StorageOp>) -> Result<(), Exceeded> {
        check(
            &Subject::Storage {
                bits,
                size,
                version: paletted::Version::V26_3,
            },
            &Ops::Storage(ops),
        )
    }

    #[test]
    fn a_storage_too_big_to_hold_is_refused_at_its_subject() {
        let e = storage(32, 1 << 26, vec![StorageOp::Values]).unwrap_err();
        assert_eq!(e.at, At::Subject);
        assert_eq!(
            e.to_string(),
            "a 32-bit storage of 67108864 values holds 33554432 longs, over the limit of \
             8388608 (2^23) longs in a storage (PROTOCOL.md, \"Limits\"); nothing was run"
        );
        // The largest recorded storage is within it.
        storage(3, 1 << 26, vec![StorageOp::Set { index: 0, value: 1 }; 4]).unwrap();
    }

    #[test]
    fn a_result_too_big_is_refused_at_its_op() {
        let ops = vec![StorageOp::Get { index: 0 }, StorageOp::Values];
        let e = storage(5, 1 << 26, ops).unwrap_err();
        assert_eq!(e.at, At::Op(1));
        assert!(e.to_string().starts_with("op `values` gives up to 67108864 items, over the limit of 4194304 (2^22) items in one op's result"), "{e}");
        // A zero-bit storage loaded at a huge size holds no longs, yet lists every value.
        let load = StorageOp::Load {
            bits: 0,
            size: 1 << 26,
            longs: vec![],
        };
        let e = storage(5, 64, vec![load, StorageOp::Values]).unwrap_err();
        assert_eq!(e.at, At::Op(1));
        storage(5, 1 << 22, vec![StorageOp::Values]).unwrap();
    }

    #[test]
    fn results_and_work_add_up_over_the_case() {
        let e = storage(5, 1 << 22, vec![StorageOp::Values; 3]).unwrap_err();
        assert_eq!(e.at, At::Op(2));
        assert!(e.to_string().contains("items in a case's results"), "{e}");
        let sets = vec![StorageOp::Set { index: 0, value: 1 }; 200];
        let e = storage(32, 1 << 24, sets).unwrap_err();
        assert!(e.to_string().contains("work units in a case"), "{e}");
        assert!(matches!(e.at, At::Op(i) if i > 10 && i < 100), "{e:?}");
    }

    #[test]
    fn containers_count_their_registry_and_ops() {
        let subject = |registry| Subject::Container {
            strategy: Kind::BlockStates,
            registry,
            initial: 0,
            version: paletted::Version::V26_3,
        };
        let e = check(&subject(u32::MAX), &Ops::Container(vec![])).unwrap_err();
        assert_eq!(e.at, At::Subject);
        let e = check(
            &subject(1 << 23),
            &Ops::Container(vec![ContainerOp::Palette]),
        )
        .unwrap_err();
        assert_eq!(e.at, At::Op(0));
        check(
            &subject(1 << 21),
            &Ops::Container(vec![ContainerOp::Palette]),
        )
        .unwrap();
        let many = Ops::Container(vec![ContainerOp::Bits; OPS as usize + 1]);
        assert_eq!(check(&subject(4), &many).unwrap_err().at, At::Ops);
    }
}
