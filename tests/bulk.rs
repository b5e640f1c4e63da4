//! Property tests of the bulk and iteration calls against the single-value
//! calls they stand for: `from_values` against `set`s in index order,
//! `set_many` against `set`s in order, the iterators against `get_at`, and
//! `from_wire` against `read`.

use paletted::{Kind, PalettedContainer, Strategy};

/// A tiny deterministic generator (splitmix64), so failures reproduce.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// The strategies the properties run on: 26.3's registries, small ones
/// whose global configuration is narrow or never reached, and ones past
/// 2^16 values (`from_values` hashes those rather than index a table by
/// the value).
fn strategies() -> Vec<Strategy> {
    let mut s = Vec::new();
    for registry in [
        1,
        2,
        3,
        5,
        16,
        17,
        33,
        256,
        257,
        300,
        4096,
        35723,
        65536,
        65537,
        1 << 24,
    ] {
        s.push(Strategy::block_states(registry));
    }
    for registry in [1, 2, 3, 4, 5, 8, 9, 65, 300, 65537] {
        s.push(Strategy::biomes(registry));
    }
    s
}

/// A section's values: `distinct` ids drawn from the registry, placed in
/// runs (as layers are), at random, or in layers, with a skew towards the
/// first.
fn section(rng: &mut Rng, strategy: Strategy) -> Vec<u32> {
    let registry = u64::from(strategy.registry_size());
    let size = strategy.size();
    let most = registry.min(size as u64 + 1);
    // Every palette size a ladder step can end on, and their neighbours.
    let distinct = match rng.below(4) {
        0 => rng.below(most) + 1,
        1 => [
            1u64, 2, 3, 4, 5, 8, 9, 15, 16, 17, 31, 32, 33, 64, 65, 128, 129, 256, 257, 300,
        ][rng.below(20) as usize]
            .min(most),
        2 => rng.below(20.min(most)) + 1,
        _ => rng.below(300.min(most)) + 1,
    };
    let ids: Vec<u32> = (0..distinct).map(|_| rng.below(registry) as u32).collect();
    let run = 1 + rng.below(64) as usize;
    let mut values = Vec::with_capacity(size);
    while values.len() < size {
        let id = match rng.below(3) {
            0 => ids[(rng.below(distinct)).min(rng.below(distinct)) as usize],
            _ => ids[rng.below(distinct) as usize],
        };
        for _ in 0..run.min(size - values.len()) {
            values.push(id);
        }
    }
    // Sometimes every id once, so the palette holds exactly `distinct`.
    if rng.below(2) == 0 {
        for (k, &id) in ids.iter().enumerate().take(size) {
            let at = rng.below(size as u64) as usize;
            values[at] = id;
            let _ = k;
        }
    }
    values
}

fn set_in_order(initial: u32, strategy: Strategy, values: &[u32]) -> PalettedContainer {
    let mut c = PalettedContainer::new(initial, strategy);
    for (i, &v) in values.iter().enumerate() {
        c.set_at(i, v);
    }
    c
}

/// `from_values_with(initial, ..)` against the sets it stands for.
fn same_as_sets(initial: u32, strategy: Strategy, values: &[u32], what: &str) {
    assert_same(
        &PalettedContainer::from_values_with(initial, strategy, values),
        &set_in_order(initial, strategy, values),
        what,
    );
}

fn assert_same(built: &PalettedContainer, set: &PalettedContainer, what: &str) {
    assert_eq!(built, set, "{what}");
    // `==` compares the observable state; these say what differs.
    assert_eq!(built.configuration(), set.configuration(), "{what}");
    assert_eq!(built.palette(), set.palette(), "{what}");
    assert_eq!(built.storage().longs(), set.storage().longs(), "{what}");
}

#[test]
fn from_values_is_the_sets_in_index_order() {
    let mut rng = Rng(24);
    for strategy in strategies() {
        for round in 0..60 {
            let values = section(&mut rng, strategy);
            let what = format!("{strategy:?}, round {round}");
            assert_same(
                &PalettedContainer::from_values(strategy, &values),
                &set_in_order(values[0], strategy, &values),
                &what,
            );
            // An initial value that appears first, later, or not at all.
            let registry = u64::from(strategy.registry_size());
            let initial = match rng.below(3) {
                0 => values[rng.below(values.len() as u64) as usize],
                _ => rng.below(registry) as u32,
            };
            same_as_sets(
                initial,
                strategy,
                &values,
                &format!("{what}, initial {initial}"),
            );
        }
    }
}

#[test]
fn from_values_on_every_palette_size_and_initial_position() {
    // n distinct values each first appearing in order, the initial one
    // among them at every place the last grow can see it.
    for strategy in [Strategy::block_states(35723), Strategy::biomes(65)] {
        let size = strategy.size();
        let top = match strategy.kind() {
            Kind::BlockStates => 300,
            Kind::Biomes => 12,
        };
        for n in 1..=top {
            let values: Vec<u32> = (0..size)
                .map(|i| (i % n) as u32 * 7 % 35723 % strategy.registry_size())
                .collect();
            let mut initials = vec![0, 1, (n / 2) as u32, (n - 1) as u32, 64, 1000];
            initials.retain(|&v| v < strategy.registry_size());
            for initial in initials {
                same_as_sets(
                    initial,
                    strategy,
                    &values,
                    &format!("{strategy:?}, {n} values, initial {initial}"),
                );
            }
        }
    }
}

#[test]
#[should_panic(expected = "value 35723 is not below the registry size 35723")]
fn from_values_refuses_a_value_past_the_registry() {
    let mut values = vec![1; 4096];
    values[9] = 35723;
    PalettedContainer::from_values(Strategy::block_states(35723), &values);
}

/// Sections in long runs (layers, slabs of one block), where the build
/// takes a run whole and the pack a long of equal indices at once, at every
/// width a run can reach.
#[test]
fn from_values_of_runs_at_every_width() {
    for strategy in [Strategy::block_states(35723), Strategy::biomes(65)] {
        let size = strategy.size();
        for run in [8, 20, 32, 33, 64, 256] {
            let most = (size / run).max(1);
            for n in
                (1..=most).filter(|n| *n <= 20 || n.is_power_of_two() || (n + 1).is_power_of_two())
            {
                // Runs of `run` values cycling through `n` ids, the last
                // run shortened so that every id appears.
                let values: Vec<u32> = (0..size)
                    .map(|i| ((i / run) % n) as u32 * 113 % strategy.registry_size())
                    .collect();
                for initial in [0, values[0], values[size - 1]] {
                    same_as_sets(
                        initial,
                        strategy,
                        &values,
                        &format!("{strategy:?}, runs of {run}, {n} values, initial {initial}"),
                    );
                }
            }
        }
    }
}

/// The value named is the first outside the registry in index order, as
/// the sets would stop there: on a list palette and past the largest one.
#[test]
fn from_values_names_the_first_value_past_the_registry() {
    let blocks = Strategy::block_states(35723);
    let message = |values: &[u32]| {
        let e = std::panic::catch_unwind(|| PalettedContainer::from_values(blocks, values))
            .expect_err("refused");
        e.downcast_ref::<String>().cloned().unwrap_or_default()
    };
    let mut values = vec![1; 4096];
    values[5] = 35724;
    values[9] = 40000;
    assert!(
        message(&values).contains("value 35724 is not"),
        "{}",
        message(&values)
    );
    // 300 distinct values first: the global palette's path checks the rest.
    let mut values: Vec<u32> = (0..4096).map(|i| i % 300).collect();
    values[3000] = 40000;
    values[3500] = 35800;
    assert!(
        message(&values).contains("value 40000 is not"),
        "{}",
        message(&values)
    );
}

fn refusal(strategy: Strategy, values: &[u32]) -> String {
    let e = std::panic::catch_unwind(|| PalettedContainer::from_values(strategy, values))
        .expect_err("refused");
    e.downcast_ref::<String>().cloned().unwrap_or_default()
}

/// At the registry's end: 2^16 values, each its own slot of the direct
/// table, where 2^16 itself would take value 0's; and one more, hashed.
#[test]
fn from_values_at_the_registry_end() {
    for registry in [65536u32, 65537] {
        let blocks = Strategy::block_states(registry);
        let last = registry - 1;
        let values: Vec<u32> = (0..4096).map(|i| [0, last, 1, last - 1][i % 4]).collect();
        assert_same(
            &PalettedContainer::from_values(blocks, &values),
            &set_in_order(values[0], blocks, &values),
            &format!("registry {registry}"),
        );
        let mut bad = values.clone();
        bad[100] = registry;
        bad[200] = registry + 7;
        let said = refusal(blocks, &bad);
        assert!(said.contains(&format!("value {registry} is not")), "{said}");
    }
    // Past 2^16, a value that is the last one's low 16 bits is its own.
    let blocks = Strategy::block_states(65537);
    let values: Vec<u32> = (0..4096).map(|i| [0, 65536, 1][i % 3]).collect();
    let c = PalettedContainer::from_values(blocks, &values);
    assert_eq!(c.palette(), [0, 65536, 1]);
}

/// Values that share a home slot in the hashed table (past 2^16 values):
/// each probes past the others, and is found there.
#[test]
fn from_values_with_hashed_values_that_share_a_home() {
    let blocks = Strategy::block_states(1 << 24);
    // The table's home slot: the golden-ratio hash's top 9 bits (512 slots).
    let home = |v: u32| v.wrapping_mul(0x9E37_79B9) >> 23;
    let shared: Vec<u32> = (70_000..)
        .filter(|&v| home(v) == home(70_000))
        .take(40)
        .collect();
    let others: Vec<u32> = (1..200).map(|k| k * 1009).collect();
    let mut rng = Rng(77);
    for round in 0..20 {
        let values: Vec<u32> = (0..4096)
            .map(|_| match rng.below(3) {
                0 => others[rng.below(others.len() as u64) as usize],
                _ => shared[rng.below(shared.len() as u64) as usize],
            })
            .collect();
        let initial = shared[round % shared.len()];
        same_as_sets(initial, blocks, &values, &format!("round {round}"));
    }
}

/// A thread's direct table keeps what its earlier calls wrote: a value this
/// call has not met may find a number in its slot, which must not stand for
/// it, not even for the initial value, whose number is its slot's first.
#[test]
fn from_values_after_other_sections_on_the_same_thread() {
    let blocks = Strategy::block_states(35723);
    // 256 values numbered in order: value 100 k gets number k + 1.
    let first: Vec<u32> = (0..4096).map(|i| (i % 255 + 1) as u32 * 100).collect();
    PalettedContainer::from_values_with(0, blocks, &first);
    // The same values in another order, others never seen, an initial
    // value met late or never: every slot still holds the first numbers.
    let orders: [fn(usize) -> u32; 3] = [
        |i| ((i * 7) % 40 + 1) as u32 * 100,
        |i| {
            if i < 3000 {
                300
            } else {
                (i % 20) as u32 * 100 + 50
            }
        },
        |i| ((4095 - i) % 300) as u32 * 100,
    ];
    for (k, order) in orders.iter().enumerate() {
        let values: Vec<u32> = (0..4096).map(order).collect();
        for initial in [100, 200, 2500, 5] {
            same_as_sets(
                initial,
                blocks,
                &values,
                &format!("order {k}, initial {initial}"),
            );
        }
    }
}

/// The grows the sets make, late in the section: the 17th value (the
/// 5-bit palette) and the 33rd met at its end, the initial value before,
/// between or after them; every number given before is renumbered.
#[test]
fn from_values_whose_palette_grows_late() {
    let blocks = Strategy::block_states(35723);
    for (grow, second) in [(4000, 4090), (100, 4095), (2047, 2048)] {
        let values: Vec<u32> = (0..4096)
            .map(|i| match i {
                i if i == second => 33 * 7,
                i if i > second => (i % 33) as u32 * 7 + 7,
                i if i >= grow => (i % 17) as u32 * 7 + 7,
                i => (i % 16) as u32 * 7 + 7,
            })
            .collect();
        for initial in [0, 7, 16 * 7, 17 * 7, 33 * 7, values[3000]] {
            same_as_sets(
                initial,
                blocks,
                &values,
                &format!("grow at {grow}, {second}, initial {initial}"),
            );
        }
    }
}

/// A biome run is numbered a value at a time: up to eight values a run,
/// the ninth making the container global, and the first value outside the
/// registry named, wherever the run meets it.
#[test]
fn from_values_of_biome_runs() {
    let biomes = Strategy::biomes(65);
    for distinct in 1..=12u32 {
        let values: Vec<u32> = (0..64u32).map(|i| (i * 5 + i / 7) % distinct * 3).collect();
        for initial in [0, 3, 30, 64] {
            same_as_sets(
                initial,
                biomes,
                &values,
                &format!("{distinct} values, initial {initial}"),
            );
        }
    }
    let mut values = vec![4; 64];
    values[10] = 1;
    values[20] = 70;
    values[30] = 65;
    values[40] = 1;
    let said = refusal(biomes, &values);
    assert!(said.contains("value 70 is not"), "{said}");
}

#[test]
#[should_panic(expected = "63 values for a container of 64")]
fn from_values_refuses_a_short_slice() {
    PalettedContainer::from_values(Strategy::biomes(65), &[0; 63]);
}

#[test]
fn set_many_is_the_sets_in_order() {
    let mut rng = Rng(2);
    for strategy in strategies() {
        for round in 0..20 {
            let values = section(&mut rng, strategy);
            let initial = values[rng.below(values.len() as u64) as usize];
            let sets: Vec<(usize, u32)> = (0..rng.below(6000) as usize)
                .map(|_| {
                    let i = rng.below(strategy.size() as u64) as usize;
                    (i, values[rng.below(values.len() as u64) as usize])
                })
                .collect();
            let mut one = PalettedContainer::new(initial, strategy);
            sets.iter().for_each(|&(i, v)| one.set_at(i, v));
            let mut many = PalettedContainer::new(initial, strategy);
            many.set_many(sets.iter().copied());
            assert_same(&many, &one, &format!("{strategy:?}, round {round}"));
        }
    }
}

#[test]
fn iteration_gives_get_at_for_every_index() {
    let mut rng = Rng(3);
    for strategy in strategies() {
        for round in 0..10 {
            let values = section(&mut rng, strategy);
            let c = PalettedContainer::from_values_with(
                rng.below(u64::from(strategy.registry_size())) as u32,
                strategy,
                &values,
            );
            let what = format!("{strategy:?}, round {round}");
            let want: Vec<(usize, u32)> = (0..strategy.size()).map(|i| (i, c.get_at(i))).collect();
            assert_eq!(c.iter().collect::<Vec<_>>(), want, "{what}");
            assert_eq!(c.iter().len(), strategy.size(), "{what}");
            let mut it = c.iter();
            it.nth(5);
            assert_eq!(it.len(), strategy.size() - 6, "{what}");
            // `fold` (a long at a time) from every start within the first longs.
            for skip in 0..70 {
                let mut it = c.iter();
                (0..skip).for_each(|_| {
                    it.next();
                });
                let folded = it.fold(Vec::new(), |mut v, p| {
                    v.push(p);
                    v
                });
                assert_eq!(folded, want[skip.min(want.len())..], "{what}, skip {skip}");
            }
            let n = strategy.axis_len();
            let mut at = Vec::new();
            for y in 0..n {
                for z in 0..n {
                    for x in 0..n {
                        at.push((x, y, z, c.get(x, y, z)));
                    }
                }
            }
            assert_eq!(c.positions().collect::<Vec<_>>(), at, "{what}");
        }
    }
}

#[test]
fn iteration_fails_where_get_at_fails() {
    // A 4-bit linear palette of two entries whose longs hold index 5 at 17.
    let blocks = Strategy::block_states(35723);
    let mut bytes = vec![4, 2, 1, 2];
    let mut longs = vec![0i64; 256];
    longs[1] = 5 << 4;
    for l in &longs {
        bytes.extend_from_slice(&l.to_be_bytes());
    }
    let mut c = PalettedContainer::new(0, blocks);
    c.read_lenient(&bytes).unwrap();
    let want = c.try_get_at(17).unwrap_err().to_string();
    let got = std::panic::catch_unwind(|| c.iter().count()).unwrap_err();
    assert_eq!(got.downcast_ref::<String>(), Some(&want));
    assert_eq!(c.iter().take(17).count(), 17);
    assert!(PalettedContainer::from_wire(blocks, &bytes).is_err());
}

#[test]
fn from_wire_is_read_into_a_fresh_container() {
    let mut rng = Rng(4);
    for strategy in strategies() {
        let values = section(&mut rng, strategy);
        let c = PalettedContainer::from_values(strategy, &values);
        let mut sent = Vec::new();
        c.write(&mut sent);
        sent.extend_from_slice(&[1, 2, 3]);
        let (read, used) = PalettedContainer::from_wire(strategy, &sent).unwrap();
        let mut fresh = PalettedContainer::new(0, strategy);
        assert_eq!(fresh.read(&sent), Ok(used));
        assert_eq!(read, fresh);
        assert_eq!(used, sent.len() - 3);
        assert!(PalettedContainer::from_wire(strategy, &sent[..used - 1]).is_err());
    }
}
