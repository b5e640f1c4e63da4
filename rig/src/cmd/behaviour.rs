//! Behaviours, the rows of `rig conformance`'s grid: what a maintainer asks of an
//! implementation ("is my resize order right, does my reader check the bits byte"), each op
//! of each case assigned to the behaviours it exercises.
//!
//! The assignment is mechanical: from the coverage items each op reaches
//! ([`gen::op_items`]: resizes, palette transitions, wire inputs, error kinds), the op's kind,
//! and what shaped the state it works on. An op observing state (`bits`, `palette`, `get`,
//! `write`, ...) after a `read` or `unpack` also counts for that read or unpack's behaviours;
//! `bits` counts for the resizes before it, `palette` for their order and the stale entries
//! they drop, and values while the palette is global for the global width. No case is
//! named: a new case gets its behaviours from its ops. What observes a container as a
//! read or unpack left it (`get`, `get_all`, `bits`, `palette`) counts for that read or
//! unpack alone.

use std::collections::BTreeSet;

use gen::coverage::{Item, OUTSIDE, STALE_PACK, STALE_RESIZE};
use harness::case::{Case, ContainerOp, Ops, StorageOp, Subject};
use paletted::Kind;

/// One row of the grid.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Behaviour {
    /// Where it goes in the grid.
    order: u16,
    /// Its anchor and JSON key (`resize-order`, `unpack-error-...`).
    pub id: String,
    /// What it says in the grid.
    pub name: String,
}

impl Behaviour {
    fn new(order: u16, id: &str, name: &str) -> Behaviour {
        Behaviour {
            order,
            id: id.to_string(),
            name: name.to_string(),
        }
    }
}

/// A case's behaviour as a whole: run to the end without the adapter crashing, hanging or
/// breaking the protocol.
pub fn runs() -> Behaviour {
    Behaviour::new(
        1,
        "runs",
        "runs each case to its end (no crash, hang or broken answer)",
    )
}

fn strategy_word(k: Kind) -> (&'static str, &'static str) {
    match k {
        Kind::BlockStates => ("block_states", "block"),
        Kind::Biomes => ("biomes", "biome"),
    }
}

fn ladder(k: Kind) -> Behaviour {
    let (id, word) = strategy_word(k);
    let order = if k == Kind::BlockStates { 20 } else { 21 };
    Behaviour::new(
        order,
        &format!("ladder-{id}"),
        &format!("{word} palette ladder and its widths"),
    )
}

fn global(k: Kind) -> Behaviour {
    let (id, word) = strategy_word(k);
    let order = if k == Kind::BlockStates { 22 } else { 23 };
    Behaviour::new(
        order,
        &format!("global-{id}"),
        &format!("{word} global width from the registry"),
    )
}

fn fixed(id: &str) -> Behaviour {
    let (order, name) = match id {
        "values" => (10, "values set and got back"),
        "outside" => (11, "positions outside the container"),
        "refused-id" => (12, "`set` of an id outside the registry"),
        "palette-order" => (24, "palette order without a resize"),
        "resize-order" => (25, "resize order (the palette after a resize)"),
        "stale" => (26, "stale entries dropped (resize, pack)"),
        "counts" => (27, "`counts` order"),
        "maybe-has" => (28, "`maybe_has`"),
        "null" => (29, "a never-written linear slot (`null`)"),
        "write" => (30, "wire write bytes"),
        "serialized-size" => (31, "wire serialized size"),
        "read-ok" => (40, "wire read of well-formed bytes"),
        "read-count" => (41, "wire read validation: palette count"),
        "read-bits" => (42, "wire read validation: bits byte"),
        "read-varint" => (43, "wire read validation: VarInt length"),
        "read-cut" => (44, "wire read validation: truncation"),
        "read-ids" => (45, "wire read validation: ids and other refusals"),
        "pack" => (50, "disk pack order and widths"),
        "unpack-ok" => (51, "disk unpack of valid data"),
        "unpack-dups" => (52, "disk unpack of repeated palette ids"),
        "storage-load" => (60, "storage load of valid longs"),
        "storage-load-refused" => (61, "storage load validation (length, width)"),
        "storage-values" => (62, "storage get and set"),
        "storage-bounds" => (63, "storage index and value checks"),
        "storage-fill" => (64, "storage `fill`"),
        "storage-layout" => (65, "storage longs, width and size"),
        _ => unreachable!("no behaviour {id}"),
    };
    Behaviour::new(order, id, name)
}

/// The behaviour of an unpack that fails with this error kind.
fn unpack_error(kind: &str) -> Behaviour {
    let id: String = kind
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect::<String>()
        .split('-')
        .filter(|w| !w.is_empty())
        .skip(1)
        .take(8)
        .collect::<Vec<_>>()
        .join("-");
    let name = match kind.strip_prefix("error: ") {
        Some(message) => format!("disk unpack error: {message}"),
        None => format!("disk unpack {kind}"),
    };
    Behaviour::new(53, &format!("unpack-error-{id}"), &name)
}

/// The read validation behaviour a wire input exercises.
fn read_input(what: &str) -> Option<&'static str> {
    Some(match what {
        "read: palette count beyond capacity"
        | "read: palette count 0"
        | "read: negative palette count" => "read-count",
        "read: bits byte off the ladder" | "read: negative bits byte" => "read-bits",
        "read: five-byte VarInt" => "read-varint",
        "read: cut in the bits byte" | "read: cut in the palette" | "read: cut in the longs" => {
            "read-cut"
        }
        _ => return None,
    })
}

/// The behaviours each op of `case` exercises, op by op.
pub fn of_ops(case: &Case) -> Vec<BTreeSet<Behaviour>> {
    let items = gen::op_items(case);
    match (&case.subject, &case.ops) {
        (
            &Subject::Container {
                strategy, registry, ..
            },
            Ops::Container(ops),
        ) => container(strategy, registry, ops, &items),
        (Subject::Storage { .. }, Ops::Storage(ops)) => storage(ops, &items),
        _ => vec![BTreeSet::new(); case.ops.len()],
    }
}

fn has_error(items: &[Item]) -> Option<&str> {
    items.iter().find_map(|i| match i {
        Item::Error(e) => Some(e.as_str()),
        _ => None,
    })
}

fn has_input(items: &[Item], what: &str) -> bool {
    items
        .iter()
        .any(|i| matches!(i, Item::Input(w) if *w == what))
}

fn container(
    strategy: Kind,
    registry: u32,
    ops: &[ContainerOp],
    items: &[Vec<Item>],
) -> Vec<BTreeSet<Behaviour>> {
    let mut out = Vec::with_capacity(ops.len());
    // What shaped the state: the last read or unpack's behaviours, whether a set resized
    // (and dropped stale entries) since, and whether the palette is global.
    let mut shaped: BTreeSet<Behaviour> = BTreeSet::new();
    let (mut resized, mut stale, mut is_global) = (false, false, false);
    let none = Vec::new();
    for (i, op) in ops.iter().enumerate() {
        let items = items.get(i).unwrap_or(&none);
        let mut rows = BTreeSet::new();
        for item in items {
            match item {
                Item::Resize { to, .. } => {
                    resized = true;
                    rows.insert(if to == "global" {
                        global(strategy)
                    } else {
                        ladder(strategy)
                    });
                }
                Item::Transition { to, .. } => is_global = *to == "global",
                Item::Input(w) if *w == STALE_RESIZE => stale = true,
                Item::Input(w) if *w == gen::coverage::NULL_RESULT => {
                    rows.insert(fixed("null"));
                }
                _ => {}
            }
        }
        // State a read or unpack made (no set resized it since): what observes it counts
        // for that read or unpack alone.
        let as_loaded = !shaped.is_empty() && !resized;
        let global_row = |rows: &mut BTreeSet<Behaviour>| {
            if is_global {
                rows.insert(global(strategy));
            }
        };
        match op {
            ContainerOp::Set { value, .. } | ContainerOp::GetAndSet { value, .. } => {
                if has_input(items, OUTSIDE) {
                    rows.insert(fixed("outside"));
                } else if !(0..i64::from(registry)).contains(value) {
                    rows.insert(fixed("refused-id"));
                } else {
                    rows.insert(fixed("values"));
                    global_row(&mut rows);
                }
            }
            ContainerOp::Get { .. } => {
                if has_input(items, OUTSIDE) {
                    rows.insert(fixed("outside"));
                } else if !as_loaded {
                    rows.insert(fixed("values"));
                    global_row(&mut rows);
                }
            }
            ContainerOp::GetAll => {
                if !as_loaded {
                    rows.insert(fixed("values"));
                    global_row(&mut rows);
                }
            }
            ContainerOp::Bits if as_loaded => {}
            ContainerOp::Palette if as_loaded => {}
            ContainerOp::Bits => {
                if is_global {
                    rows.insert(global(strategy));
                } else {
                    rows.insert(ladder(strategy));
                }
            }
            ContainerOp::Palette => {
                if is_global {
                    rows.insert(global(strategy));
                } else if resized && stale {
                    rows.insert(fixed("stale"));
                } else if resized {
                    rows.insert(fixed("resize-order"));
                } else {
                    rows.insert(fixed("palette-order"));
                }
            }
            ContainerOp::Counts => {
                rows.insert(fixed("counts"));
            }
            ContainerOp::MaybeHas { .. } => {
                rows.insert(fixed("maybe-has"));
            }
            ContainerOp::Write => {
                rows.insert(fixed("write"));
            }
            ContainerOp::SerializedSize => {
                rows.insert(fixed("serialized-size"));
            }
            ContainerOp::Pack => {
                rows.insert(fixed("pack"));
                if has_input(items, STALE_PACK) {
                    rows.insert(fixed("stale"));
                }
            }
            ContainerOp::Read { .. } => {
                let mut own: BTreeSet<Behaviour> = items
                    .iter()
                    .filter_map(|i| match i {
                        Item::Input(w) => read_input(w).map(fixed),
                        _ => None,
                    })
                    .collect();
                if own.is_empty() {
                    own.insert(fixed(if has_error(items).is_some() {
                        "read-ids"
                    } else {
                        "read-ok"
                    }));
                }
                rows.extend(own.iter().cloned());
                shaped = own;
                (resized, stale) = (false, false);
            }
            ContainerOp::Unpack { .. } => {
                let own = if let Some(e) = has_error(items) {
                    unpack_error(e)
                } else if has_input(items, gen::coverage::REPEATED_IDS) {
                    fixed("unpack-dups")
                } else {
                    fixed("unpack-ok")
                };
                rows.insert(own.clone());
                if has_error(items).is_none() {
                    shaped = BTreeSet::from([own]);
                    (resized, stale) = (false, false);
                }
            }
        }
        if !matches!(op, ContainerOp::Read { .. } | ContainerOp::Unpack { .. }) {
            rows.extend(shaped.iter().cloned());
        }
        out.push(rows);
    }
    out
}

fn storage(ops: &[StorageOp], items: &[Vec<Item>]) -> Vec<BTreeSet<Behaviour>> {
    let none = Vec::new();
    ops.iter()
        .enumerate()
        .map(|(i, op)| {
            let error = has_error(items.get(i).unwrap_or(&none)).is_some();
            let id = match op {
                StorageOp::Load { .. } if error => "storage-load-refused",
                StorageOp::Load { .. } => "storage-load",
                StorageOp::Get { .. } | StorageOp::Set { .. } | StorageOp::GetAndSet { .. }
                    if error =>
                {
                    "storage-bounds"
                }
                StorageOp::Get { .. }
                | StorageOp::Set { .. }
                | StorageOp::GetAndSet { .. }
                | StorageOp::Values => "storage-values",
                StorageOp::Fill { .. } => "storage-fill",
                StorageOp::Longs | StorageOp::Bits | StorageOp::Size => "storage-layout",
            };
            BTreeSet::from([fixed(id)])
        })
        .collect()
}
