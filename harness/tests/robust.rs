//! Untrusted cases never make the executor or the parser panic: random op
//! lists with values at and past every edge, random bytes to `read`, random
//! longs to `unpack` and `load`, and every prefix of a golden file.

use std::path::Path;

use harness::case::{Case, ContainerOp, Ops, StorageOp, Subject};
use harness::exec::{ExecError, Executor};
use harness::outcome::Outcome;
use harness::recorded::Recorded;
use harness::rust::RustExecutor;
use paletted::Kind;

/// SplitMix64: small, seedable, good enough to pick edges.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn pick<T: Clone>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize].clone()
    }
}

const EDGE_I32: [i32; 9] = [-1, 0, 1, 3, 4, 15, 16, 4095, i32::MAX];
const EDGE_I64: [i64; 10] = [-1, 0, 1, 2, 15, 16, 255, 256, 4095, i32::MAX as i64];

fn container_op(r: &mut Rng, registry: u32, axis: u64) -> ContainerOp {
    let coord = |r: &mut Rng| {
        if r.below(500) == 0 {
            r.pick(&EDGE_I32)
        } else {
            r.below(axis) as i32
        }
    };
    let value = |r: &mut Rng| {
        if r.below(400) == 0 {
            r.pick(&EDGE_I64)
        } else {
            r.below(u64::from(registry).min(300)) as i64
        }
    };
    match r.below(13) {
        0..=2 => ContainerOp::Set {
            x: coord(r),
            y: coord(r),
            z: coord(r),
            value: value(r),
        },
        3 => ContainerOp::Get {
            x: coord(r),
            y: coord(r),
            z: coord(r),
        },
        4 => ContainerOp::GetAndSet {
            x: coord(r),
            y: coord(r),
            z: coord(r),
            value: value(r),
        },
        5 => ContainerOp::Bits,
        6 => r.pick(&[
            ContainerOp::Palette,
            ContainerOp::Counts,
            ContainerOp::GetAll,
        ]),
        7 => ContainerOp::MaybeHas { value: value(r) },
        8 => r.pick(&[
            ContainerOp::Write,
            ContainerOp::SerializedSize,
            ContainerOp::Pack,
        ]),
        9 | 10 => {
            let n = r.below(20) as usize;
            let palette = (0..n).map(|_| value(r)).collect();
            let data = if r.below(4) == 0 {
                None
            } else {
                let longs = r.pick(&[0usize, 1, 4, 16, 64, 256, 257]);
                Some((0..longs).map(|_| r.next() as i64).collect())
            };
            let bits = r.pick(&[-1, 0, 1, 4, 5, 9, 16, 33]);
            ContainerOp::Unpack {
                palette,
                data,
                bits,
            }
        }
        _ => {
            let n = r.below(64) as usize;
            let mut bytes: Vec<u8> = (0..n).map(|_| r.next() as u8).collect();
            if let Some(b) = bytes.first_mut() {
                *b %= 20;
            }
            ContainerOp::Read { bytes }
        }
    }
}

fn storage_op(r: &mut Rng) -> StorageOp {
    let index = |r: &mut Rng| {
        if r.below(5) == 0 {
            r.pick(&EDGE_I32)
        } else {
            r.below(64) as i32
        }
    };
    let value = |r: &mut Rng| {
        if r.below(3) == 0 {
            r.pick(&EDGE_I64)
        } else {
            r.below(40) as i64
        }
    };
    match r.below(9) {
        0 => {
            let bits = r.pick(&[-1, 0, 1, 5, 31, 32, 33]);
            let size = if r.below(20) == 0 {
                -1
            } else {
                r.pick(&[0, 1, 64, 300])
            };
            let longs = (0..r.below(80)).map(|_| r.next() as i64).collect();
            StorageOp::Load { bits, size, longs }
        }
        1 => StorageOp::Get { index: index(r) },
        2 => StorageOp::Set {
            index: index(r),
            value: value(r),
        },
        3 => StorageOp::GetAndSet {
            index: index(r),
            value: value(r),
        },
        4 => StorageOp::Fill { value: value(r) },
        5 => StorageOp::Values,
        6 => StorageOp::Longs,
        7 => StorageOp::Bits,
        _ => StorageOp::Size,
    }
}

#[test]
fn random_cases_never_make_the_executor_fail_internally() {
    let mut r = Rng(0x5eed);
    let mut exec = RustExecutor::new();
    let (mut ran, mut refused) = (0, 0);
    // Every version's rules, in turn: the newest release of each run.
    let versions = paletted::Rules::ALL.map(|rules| {
        let mut all = paletted::Version::ALL.into_iter();
        all.rfind(|v| v.rules() == rules).unwrap()
    });
    for n in 0..1500 {
        let version = versions[n % versions.len()];
        let case = if n % 3 == 2 {
            let bits = r.below(33) as u32;
            Case {
                name: format!("robust/{n}"),
                subject: Subject::Storage {
                    bits,
                    size: r.pick(&[0, 1, 64, 300]),
                    version,
                },
                ops: Ops::Storage((0..r.below(40)).map(|_| storage_op(&mut r)).collect()),
                extra: Default::default(),
            }
        } else {
            let registry = r.pick(&[1u32, 2, 5, 17, 65, 300, 35723]);
            let (strategy, axis) = if n % 2 == 0 {
                (Kind::BlockStates, 16)
            } else {
                (Kind::Biomes, 4)
            };
            Case {
                name: format!("robust/{n}"),
                subject: Subject::Container {
                    strategy,
                    registry,
                    initial: r.below(u64::from(registry)) as u32,
                    version,
                },
                ops: Ops::Container(
                    (0..r.below(60))
                        .map(|_| container_op(&mut r, registry, axis))
                        .collect(),
                ),
                extra: Default::default(),
            }
        };
        match exec.run(&case) {
            Ok(results) => {
                assert_eq!(results.len(), case.ops.len());
                ran += 1;
            }
            Err(e @ ExecError::Internal { .. }) => panic!("{e}\n{}", case.to_text()),
            Err(e) => {
                refused += 1;
                if std::env::var_os("ROBUST_VERBOSE").is_some() {
                    eprintln!("{e}");
                }
            }
        }
    }
    // Most cases must run to the end, or the test proves little.
    assert!(ran > 4 * refused, "{ran} ran, {refused} refused");
}

#[test]
fn every_prefix_of_a_golden_file_parses_or_errs() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../cases/golden/unpack/biomes-p9-badindex.json");
    let text = std::fs::read_to_string(&path).unwrap();
    for end in 0..text.len() {
        let prefix = &text[..end];
        let _ = Case::parse(prefix, &path);
        let _ = Recorded::parse(prefix, &path);
    }
}

/// A linear palette read in place from bytes whose ids are outside the
/// registry, then a set of a new value. This once panicked in the core
/// crate; Minecraft looks every id up as it reads it and throws then
/// (IllegalArgumentException, compared by class). The read has already set
/// the palette's size to the count (13,331, past its array of 8), so adding
/// a value then throws at the array's end, as the recordings
/// `read-overfull/biome-lin3-c9-inplace-badid` and `-set_new` show.
#[test]
fn read_of_ids_outside_the_registry_then_a_resize() {
    let text = r#"{"name":"robust/read-ids","subject":{"kind":"container","strategy":"biomes","registry":35723,"initial":22434},"ops":[{"op":"set","x":3,"y":2,"z":2,"value":121},{"op":"set","x":0,"y":1,"z":1,"value":110},{"op":"set","x":2,"y":1,"z":1,"value":24},{"op":"set","x":3,"y":1,"z":2,"value":155},{"op":"read","bytes":"039368fad9ff12d79d7853adcb4a9a1236ed58faa5a2caca8e5d8e81fcc2444b2e"},{"op":"set","x":1,"y":2,"z":0,"value":217}]}"#;
    let case = Case::parse(text, Path::new("robust.json")).unwrap();
    let results = RustExecutor::new().run(&case).unwrap();
    assert_eq!(
        results[4],
        Outcome::Throws {
            class: "IllegalArgumentException".into(),
            message: Some("No value with id 39841018".into()),
        }
    );
    assert_eq!(
        results[5],
        Outcome::Throws {
            class: "ArrayIndexOutOfBoundsException".into(),
            message: Some("Index 8 out of bounds for length 8".into()),
        }
    );
}
