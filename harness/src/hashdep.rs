//! Which ops of a case may give a result that depends on the run: the Rust side's model of
//! Minecraft's one run-dependent mechanism (PROTOCOL.md, "Run-dependent results"), so a
//! live run marks those ops whatever the JVM's identity-hash regimes happened to give.
//!
//! The mechanism: a hash-map palette hashes its entries by identity, and a palette loaded
//! from a saved or sent list (`unpack`, `read`) may hold one entry at two ids. A lookup of
//! that value (`set`, `get_and_set`) gets either id, as the identity hashes fall. The two ids
//! stand for one value, so what reads values (`get`, `get_and_set`'s old value, `palette`,
//! `pack`, a resize, which re-encodes values into a fresh palette) cannot tell; what reads the
//! stored ids can: `counts` and `get_all` (one entry per stored id) and `write` (the ids
//! themselves). An id past the storage's width makes the lookup's own op throw or not.
//!
//! The model follows the case on the Rust containers (whose palettes, resizes and loads are
//! Minecraft's: the recordings say so) and is conservative where that is cheap: a stored id
//! stays in doubt until a load replaces the whole state, or a resize re-encodes it; and a
//! load that fails part-way over stored ids in doubt (a read in place cut short keeps the old
//! storage under a new palette) puts every later result in doubt.

use std::panic::{self, AssertUnwindSafe};

use paletted::{Packed, PaletteKind, PalettedContainer, Strategy};

use crate::case::{Case, ContainerOp, Ops, Subject};

/// Whether [`flagged`] can flag anything in `case`, decided from its ops alone: a block-state
/// container (biomes have no hash map) with an `unpack` that lists an id twice, or a `read`
/// whose bits byte may pick a hash map and whose palette ids repeat. A case without one never
/// gives a hash-map palette an entry twice.
pub fn can_flag(case: &Case) -> bool {
    match (&case.subject, &case.ops) {
        (
            Subject::Container {
                strategy: paletted::Kind::BlockStates,
                ..
            },
            Ops::Container(ops),
        ) => ops.iter().any(repeats_an_id),
        _ => false,
    }
}

/// The ops of `case` whose results may depend on identity hashes, in op order. Empty for
/// every case whose loads never give a hash-map palette an entry twice.
pub fn flagged(case: &Case) -> Vec<usize> {
    let (
        &Subject::Container {
            strategy,
            registry,
            initial,
            version,
        },
        Ops::Container(ops),
    ) = (&case.subject, &case.ops)
    else {
        return Vec::new();
    };
    // Only a load gives a palette an entry twice; a case without one is done here.
    if !can_flag(case) || crate::valid::check(case).is_err() {
        return Vec::new();
    }
    let strategy = Strategy::with(strategy, registry).with_rules(version.rules());
    let mut model = Model::default();
    let mut c = PalettedContainer::new(initial, strategy);
    let mut at = 0;
    let run = panic::catch_unwind(AssertUnwindSafe(|| {
        for (i, op) in ops.iter().enumerate() {
            at = i;
            if model.step(&mut c, op) {
                model.flagged.push(i);
            }
        }
    }));
    if run.is_err() {
        // The containers failed where the model cannot follow: everything from there is
        // in doubt (the executor reports the failure itself).
        model.flagged.retain(|&i| i < at);
        model.flagged.extend(at..ops.len());
    }
    model.flagged
}

/// Whether `op` is an `unpack` whose palette lists an id twice, or a `read` that may give a
/// hash map a repeated id: its bits byte is one a hash map has (5 to 8; or past 127, which a
/// signed read would see otherwise), and the VarInt ids after its count, as far as the bytes
/// go, repeat one.
fn repeats_an_id(op: &ContainerOp) -> bool {
    let ids: Vec<i64> = match op {
        ContainerOp::Unpack { palette, .. } => palette.clone(),
        ContainerOp::Read { bytes } => match bytes.first() {
            Some(5..=8 | 128..) => {
                let mut at = 1;
                let mut varint = || {
                    let mut v = 0i64;
                    for shift in 0..5 {
                        let b = *bytes.get(at)?;
                        at += 1;
                        v |= i64::from(b & 0x7f) << (7 * shift);
                        if b & 0x80 == 0 {
                            return Some(v);
                        }
                    }
                    None
                };
                let n = varint().unwrap_or(0).clamp(0, bytes.len() as i64);
                (0..n).map_while(|_| varint()).collect()
            }
            _ => return false,
        },
        _ => return false,
    };
    let mut seen = ids;
    seen.sort_unstable();
    seen.windows(2).any(|w| w[0] == w[1])
}

/// What the model knows so far.
#[derive(Default)]
struct Model {
    /// Some stored id may be either of two ids of one value.
    ids_in_doubt: bool,
    /// Some stored id may stand for another value than on the Rust side.
    values_in_doubt: bool,
    flagged: Vec<usize>,
}

impl Model {
    /// Runs `op` on `c`; whether its result may depend on the run.
    fn step(&mut self, c: &mut PalettedContainer, op: &ContainerOp) -> bool {
        let flag = self.values_in_doubt
            || match op {
                ContainerOp::Counts | ContainerOp::GetAll | ContainerOp::Write => self.ids_in_doubt,
                _ => false,
            };
        match *op {
            ContainerOp::Set { x, y, z, value } | ContainerOp::GetAndSet { x, y, z, value } => {
                let value = value as u32;
                let ids = ids_of(c, value);
                let width = c.storage().bits();
                let set = match op {
                    ContainerOp::Set { .. } => c.try_set(x, y, z, value).map(drop),
                    _ => c.try_get_and_set(x, y, z, value).map(drop),
                };
                if ids.len() > 1 {
                    self.ids_in_doubt = true;
                    // An id past the storage's width throws where the other does not.
                    if ids.iter().any(|&id| width < 32 && id >> width != 0) {
                        return true;
                    }
                } else if set.is_ok() && c.storage().bits() != width && !self.values_in_doubt {
                    // A resize re-encoded every stored value into a fresh palette.
                    self.ids_in_doubt = false;
                }
                flag
            }
            ContainerOp::Unpack {
                ref palette,
                ref data,
                bits,
            } => {
                let packed = Packed {
                    palette: palette.iter().map(|&v| v as u32).collect(),
                    data: data.clone(),
                    bits,
                };
                // A failed unpack leaves the container as it was.
                if let Ok(next) = PalettedContainer::unpack_lenient(c.strategy(), packed) {
                    *c = next;
                    self.ids_in_doubt = false;
                    self.values_in_doubt = false;
                }
                flag
            }
            ContainerOp::Read { ref bytes } => {
                if c.read_lenient(bytes).is_ok() {
                    self.ids_in_doubt = false;
                    self.values_in_doubt = false;
                } else if self.ids_in_doubt {
                    self.values_in_doubt = true;
                }
                flag
            }
            _ => flag,
        }
    }
}

/// The ids a hash-map palette holds `value` at (none for the other kinds, whose lookups do
/// not hash by identity).
fn ids_of(c: &PalettedContainer, value: u32) -> Vec<u32> {
    if c.palette_kind() != PaletteKind::HashMap {
        return Vec::new();
    }
    c.try_palette()
        .unwrap_or_default()
        .iter()
        .enumerate()
        .filter(|&(_, &v)| v == value)
        .map(|(id, _)| id as u32)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::path::Path;

    fn case(ops: serde_json::Value) -> Case {
        let text = json!({
            "name": "t",
            "subject": {"kind": "container", "strategy": "block_states", "registry": 300, "initial": 0},
            "ops": ops,
        });
        Case::parse(&text.to_string(), Path::new("t.json")).unwrap()
    }

    fn pairs() -> serde_json::Value {
        let palette: Vec<u32> = (0..256).map(|i| 10 + i / 2).collect();
        json!({"op": "unpack", "palette": palette, "data": vec![0; 512], "bits": 8})
    }

    #[test]
    fn a_set_of_a_value_held_twice_puts_what_reads_ids_in_doubt() {
        let c = case(json!([
            pairs(),
            {"op": "set", "x": 1, "y": 0, "z": 0, "value": 10},
            {"op": "counts"},
            {"op": "get", "x": 1, "y": 0, "z": 0},
            {"op": "get_all"},
            {"op": "palette"},
            {"op": "pack"},
            {"op": "write"},
            {"op": "bits"},
        ]));
        assert_eq!(flagged(&c), [2, 4, 7]);
    }

    #[test]
    fn without_a_lookup_of_a_value_held_twice_nothing_is_in_doubt() {
        // The duplicate is loaded and read, but no set looks it up.
        let c = case(json!([
            pairs(),
            {"op": "set", "x": 1, "y": 0, "z": 0, "value": 200},
            {"op": "counts"},
            {"op": "write"},
        ]));
        assert_eq!(flagged(&c), Vec::<usize>::new());
        // A linear palette scans in order: its first id, always.
        let c = case(json!([
            {"op": "unpack", "palette": [5, 5, 6], "data": vec![0; 256], "bits": 4},
            {"op": "set", "x": 1, "y": 0, "z": 0, "value": 5},
            {"op": "counts"},
        ]));
        assert_eq!(flagged(&c), Vec::<usize>::new());
    }

    #[test]
    fn a_new_load_ends_the_doubt_and_a_load_cut_short_spreads_it() {
        let mut ops = vec![
            pairs(),
            json!({"op": "set", "x": 1, "y": 0, "z": 0, "value": 10}),
        ];
        ops.push(json!({"op": "unpack", "palette": [1, 2], "data": vec![0; 256], "bits": 4}));
        ops.push(json!({"op": "counts"}));
        assert_eq!(flagged(&case(json!(ops))), Vec::<usize>::new());
        // A read in place cut short (an 8-bit hash map, count 2, one id) keeps the storage.
        let mut ops = ops[..2].to_vec();
        ops.push(json!({"op": "read", "bytes": "080205"}));
        ops.push(json!({"op": "bits"}));
        ops.push(json!({"op": "get", "x": 0, "y": 0, "z": 0}));
        assert_eq!(flagged(&case(json!(ops))), [3, 4]);
    }

    #[test]
    fn only_a_load_that_can_give_a_hash_map_a_repeat_is_followed() {
        let read = |hex: &str| case(json!([{"op": "read", "bytes": hex}, {"op": "counts"}]));
        // 8 bits (a hash map), count 3: ids 5, 6, 5.
        assert!(can_flag(&read("0803050605")));
        // No repeat, a linear palette's repeat (4 bits), a global palette's (9 bits).
        for hex in ["0803050607", "0403050605", "0903050605", "08", "08ff"] {
            assert!(!can_flag(&read(hex)), "{hex}");
        }
        assert!(can_flag(&case(json!([pairs()]))));
        let biomes = Case::parse(
            &json!({"name": "b", "subject": {"kind": "container", "strategy": "biomes",
                "registry": 65, "initial": 0}, "ops": [{"op": "unpack", "palette": [1, 1],
                "data": [0], "bits": 1}]})
            .to_string(),
            Path::new("b.json"),
        )
        .unwrap();
        assert!(!can_flag(&biomes));
    }

    #[test]
    fn a_resize_re_encodes_values() {
        // 5 bits: 32 entries in pairs, full; a new value resizes.
        let palette: Vec<u32> = (0..32).map(|i| 10 + i / 2).collect();
        let c = case(json!([
            {"op": "unpack", "palette": palette, "data": vec![0; 342], "bits": 5},
            {"op": "set", "x": 1, "y": 0, "z": 0, "value": 10},
            {"op": "write"},
            {"op": "set", "x": 2, "y": 0, "z": 0, "value": 250},
            {"op": "counts"},
        ]));
        assert_eq!(flagged(&c), [2]);
    }

    /// Whether a load of `case` lists an id twice: an `unpack`'s palette, or a `read`'s
    /// palette ids (the bits byte, a VarInt count, the VarInt ids), read here on their own.
    fn loads_a_repeat(case: &Case) -> bool {
        let Ops::Container(ops) = &case.ops else {
            return false;
        };
        ops.iter().any(|op| match op {
            ContainerOp::Read { bytes } => {
                let mut at = 1;
                let mut varint = || {
                    let mut v = 0u64;
                    for shift in 0..5 {
                        let b = *bytes.get(at)?;
                        at += 1;
                        v |= u64::from(b & 0x7f) << (7 * shift);
                        if b & 0x80 == 0 {
                            return Some(v);
                        }
                    }
                    None
                };
                let n = varint().unwrap_or(0).min(bytes.len() as u64);
                let mut ids: Vec<u64> = (0..n).map_while(|_| varint()).collect();
                ids.sort_unstable();
                ids.windows(2).any(|w| w[0] == w[1])
            }
            op => repeats_an_id(op),
        })
    }

    /// The model against every recording: each op recorded as run-dependent is flagged,
    /// and a case none of whose loads lists an id twice has nothing flagged.
    #[test]
    fn the_model_covers_every_recording() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let store = crate::store::Store::at(&root);
        let mut recorded = Vec::new();
        for f in crate::store::json_files(&root.join("cases/golden")) {
            let text = std::fs::read_to_string(&f).unwrap();
            let r = crate::recorded::Recorded::parse(&text, &f).unwrap();
            recorded.push((r.case, r.results));
        }
        for e in store.entries() {
            let Some(snap) = e.snapshot else { continue };
            let text = std::fs::read_to_string(&e.case).unwrap();
            let case = Case::parse(&text, &e.case).unwrap();
            let snap = crate::snapshot::Snapshot::load(&snap).unwrap();
            recorded.push((case, snap.results));
        }
        assert!(recorded.len() > 1000, "{} recordings", recorded.len());
        let (mut repeats, mut with_flags) = (0, 0);
        for (case, results) in &recorded {
            let flags = flagged(case);
            for (i, r) in results.iter().enumerate() {
                assert!(
                    !r.is_run_dependent() || flags.contains(&i),
                    "{}: op {i} is recorded as run-dependent, the model does not flag it",
                    case.name
                );
            }
            if loads_a_repeat(case) {
                repeats += 1;
                with_flags += usize::from(!flags.is_empty());
            } else {
                assert_eq!(
                    flags,
                    Vec::<usize>::new(),
                    "{}: no load repeats an id",
                    case.name
                );
            }
        }
        // The recordings do hold loads that list an id twice.
        assert!(repeats > 0);
        eprintln!("{repeats} recordings load an id twice; {with_flags} have ops flagged");
    }
}
