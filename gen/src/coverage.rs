//! Coverage of a set of cases: which palette transitions, storage widths, op
//! kinds and error kinds they reach.
//!
//! Measured by running each case: the ops on a `paletted` container, looking
//! at its palette kind before and after each op that can change it, and the
//! outcomes `harness::rust::RustExecutor` gives, for the error kinds. What a
//! case reaches is a property of its ops, so op lists without results count
//! as much as recorded files.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use harness::case::{Case, ContainerOp, Ops, StorageOp, Subject, CONTAINER_OPS, STORAGE_OPS};
use harness::exec::Executor;
use harness::outcome::Outcome;
use harness::rust::RustExecutor;
use paletted::{Kind, Packed, PaletteKind, PalettedContainer, Strategy};

/// How a container changed palette kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Via {
    /// A `set` or `get_and_set` that grew the palette.
    Grow,
    /// A `read` (bytes of one kind into a container of another, or the same).
    Read,
    /// A successful `unpack` (the subject becomes its result).
    Unpack,
}

/// One thing a set of cases can reach.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Item {
    /// The container's palette kind before and after an op: a change by a
    /// set, any successful read (same kind included: the in-place reuse), or
    /// a successful unpack (`from` is `None`: it replaces the container
    /// whatever it was).
    Transition {
        /// `block_states` or `biomes`.
        strategy: &'static str,
        /// The op that did it.
        via: Via,
        /// The kind before (`single`, `linear`, `hashmap`, `global`).
        from: Option<&'static str>,
        /// The kind after.
        to: &'static str,
    },
    /// A resize by a set: the palette and width before and after
    /// (`linear4`, `hashmap5`, `global`), one step of the growth ladder.
    Resize {
        /// `block_states` or `biomes`.
        strategy: &'static str,
        /// The rung before.
        from: String,
        /// The rung after.
        to: String,
    },
    /// A bit storage of this width ran ops.
    Width(u32),
    /// An op kind ran on a subject kind (`container set`, `storage fill`).
    Op {
        /// `container` or `storage`.
        subject: &'static str,
        /// The op's name in the case file.
        op: &'static str,
    },
    /// A kind of error or exception a result was.
    Error(String),
    /// A kind of untrusted input an op was given (a read whose palette count
    /// is beyond what its kind holds), or a result only such input gives.
    Input(&'static str),
    /// Cases of a Minecraft version other than 26.3 ran (not required: the
    /// recorded set is 26.3's).
    Version(&'static str),
}

impl std::fmt::Display for Item {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Item::Transition {
                strategy,
                via,
                from,
                to,
            } => {
                let via = match via {
                    Via::Grow => "grow",
                    Via::Read => "read",
                    Via::Unpack => "unpack",
                };
                match from {
                    Some(from) => write!(f, "{strategy} {via}: {from} -> {to}"),
                    None => write!(f, "{strategy} {via}: -> {to}"),
                }
            }
            Item::Resize { strategy, from, to } => write!(f, "{strategy} resize: {from} -> {to}"),
            Item::Width(b) => write!(f, "storage {b} bits"),
            Item::Op { subject, op } => write!(f, "{subject} {op}"),
            Item::Error(e) => write!(f, "{e}"),
            Item::Input(what) => write!(f, "{what}"),
            Item::Version(v) => write!(f, "at {v}"),
        }
    }
}

impl Item {
    /// The table group the item belongs to.
    pub fn group(&self) -> &'static str {
        match self {
            Item::Transition { .. } => "transition",
            Item::Resize { .. } => "resize",
            Item::Width(_) => "width",
            Item::Op { .. } => "op",
            Item::Error(_) => "error",
            Item::Input(_) => "input",
            Item::Version(_) => "version",
        }
    }
}

fn kind_label(k: PaletteKind) -> &'static str {
    match k {
        PaletteKind::Single => "single",
        PaletteKind::Linear => "linear",
        PaletteKind::HashMap => "hashmap",
        PaletteKind::Global => "global",
    }
}

fn strategy_name(k: Kind) -> &'static str {
    match k {
        Kind::BlockStates => "block_states",
        Kind::Biomes => "biomes",
    }
}

fn palette_kinds(k: Kind) -> &'static [PaletteKind] {
    match k {
        Kind::BlockStates => &[
            PaletteKind::Single,
            PaletteKind::Linear,
            PaletteKind::HashMap,
            PaletteKind::Global,
        ],
        Kind::Biomes => &[
            PaletteKind::Single,
            PaletteKind::Linear,
            PaletteKind::Global,
        ],
    }
}

/// The error kinds every conformance run must reach: each `DataResult`
/// error of unpack and each exception Minecraft's classes throw for the
/// documented inputs.
pub const REQUIRED_ERRORS: &[&str] = &[
    "error: Invalid bit count, calculated N, but container declared N",
    "error: Missing values for non-zero storage",
    "error: Failed to read PalettedContainer: Invalid length given for storage, got: N but expected: N",
    "throws MissingPaletteEntryException: Missing Palette entry for index N.",
    "throws IllegalStateException: Missing Palette entry for id N.",
    "throws IllegalStateException: Use of an uninitialized palette",
    "throws IndexOutOfBoundsException",
    "throws IllegalArgumentException",
    "throws InitializationException: Invalid length given for storage, got: N but expected: N",
    "throws ArrayIndexOutOfBoundsException: Index N out of bounds for length N",
    "throws RuntimeException: VarInt too big",
    // Third-party classes, told apart by which check threw (the message the
    // Rust executor gives; a recording's text is compared by class only).
    "throws IllegalArgumentException: No value with id N",
    "throws IllegalArgumentException: The value N is not in the specified inclusive range of 0 to N",
    "throws IllegalArgumentException: The value N is not in the specified inclusive range of 1 to 32",
];

/// Kinds of untrusted wire input every conformance run must give `read`.
pub const REQUIRED_INPUTS: &[&str] = &[
    "read: palette count beyond capacity",
    "read: palette count 0",
    "read: negative palette count",
    "read: bits byte off the ladder",
    "read: negative bits byte",
    "read: five-byte VarInt",
    "read: cut in the bits byte",
    "read: cut in the palette",
    "read: cut in the longs",
];

/// Reached when a result holds a `null` value (a never-written linear
/// palette slot). Not required: no recording holds one yet.
pub const NULL_RESULT: &str = "result: null value";
/// Reached by an unpack whose palette lists an id twice. Not required: the
/// default families keep to distinct ids (`unpack-dups` has them).
pub const REPEATED_IDS: &str = "unpack: repeated palette ids";
/// Reached by a `get`, `set` or `get_and_set` at a position outside the
/// container. Not required: the default families keep inside it
/// (`positions-out` goes outside).
pub const OUTSIDE: &str = "position outside the container";
/// Reached by a `set` or `get_and_set` that resizes a palette holding an
/// entry no position stores any more (Minecraft's resize drops it). Not
/// required: only the families that overwrite values reach it.
pub const STALE_RESIZE: &str = "resize: stale palette entries";
/// Reached by a `pack` of a container whose palette holds an entry no
/// position stores (Minecraft's pack leaves it out). Not required.
pub const STALE_PACK: &str = "pack: stale palette entries";

/// Every item a complete set of cases must reach.
pub fn required() -> Vec<Item> {
    let mut out = Vec::new();
    for k in [Kind::BlockStates, Kind::Biomes] {
        let s = strategy_name(k);
        let kinds = palette_kinds(k);
        for pair in kinds.windows(2) {
            out.push(Item::Transition {
                strategy: s,
                via: Via::Grow,
                from: Some(kind_label(pair[0])),
                to: kind_label(pair[1]),
            });
        }
        for &from in kinds {
            for &to in kinds {
                out.push(Item::Transition {
                    strategy: s,
                    via: Via::Read,
                    from: Some(kind_label(from)),
                    to: kind_label(to),
                });
            }
        }
        for &to in kinds {
            out.push(Item::Transition {
                strategy: s,
                via: Via::Unpack,
                from: None,
                to: kind_label(to),
            });
        }
    }
    let ladders: [(&str, &[&str]); 2] = [
        (
            "block_states",
            &[
                "single", "linear4", "hashmap5", "hashmap6", "hashmap7", "hashmap8", "global",
            ],
        ),
        (
            "biomes",
            &["single", "linear1", "linear2", "linear3", "global"],
        ),
    ];
    for (strategy, steps) in ladders {
        for pair in steps.windows(2) {
            out.push(Item::Resize {
                strategy,
                from: pair[0].to_string(),
                to: pair[1].to_string(),
            });
        }
    }
    out.extend((0..=32).map(Item::Width));
    out.extend(CONTAINER_OPS.iter().map(|&op| Item::Op {
        subject: "container",
        op,
    }));
    out.extend(STORAGE_OPS.iter().map(|&op| Item::Op {
        subject: "storage",
        op,
    }));
    out.extend(REQUIRED_ERRORS.iter().map(|e| Item::Error(e.to_string())));
    out.extend(REQUIRED_INPUTS.iter().map(|&i| Item::Input(i)));
    out.sort();
    out
}

/// The error kind of an outcome: its class and message with numbers made
/// `N`; class only where a third-party library wrote the message.
pub fn error_kind(outcome: &Outcome) -> Option<String> {
    match outcome {
        // Not an error of the containers (and never in a recording).
        Outcome::Ok(_) | Outcome::Unsupported(_) => None,
        // A run-dependent op reaches each kind among its results; the first stands for them.
        Outcome::AnyOf(v) => v.iter().find_map(error_kind),
        Outcome::Error(m) => Some(format!("error: {}", numbers_out(m))),
        Outcome::Throws { class, message } => {
            if matches!(
                class.as_str(),
                "IndexOutOfBoundsException" | "IllegalArgumentException"
            ) {
                return Some(format!("throws {class}"));
            }
            match message {
                Some(m) => Some(format!("throws {class}: {}", numbers_out(m))),
                None => Some(format!("throws {class}")),
            }
        }
    }
}

/// The error kind with the message, for the classes [`error_kind`] reports
/// by class alone (`IllegalArgumentException`), so that each check that
/// throws it counts; the bounds of a range check stay when they are fixed
/// (`0 to N` for an index or value, `1 to 32` for a storage's bits).
pub fn error_detail(outcome: &Outcome) -> Option<String> {
    let Outcome::Throws {
        class,
        message: Some(m),
    } = outcome
    else {
        return None;
    };
    if class != "IllegalArgumentException" {
        return None;
    }
    let text = match m.split_once(" range of ") {
        Some((head, "1 to 32")) => format!("{} range of 1 to 32", numbers_out(head)),
        Some((head, bounds)) if bounds.starts_with("0 to ") => {
            format!("{} range of 0 to N", numbers_out(head))
        }
        _ => numbers_out(m),
    };
    Some(format!("throws {class}: {text}"))
}

/// Whether a result holds a `null` value where an id would be.
fn holds_null(op: &ContainerOp, outcome: &Outcome) -> bool {
    let Outcome::Ok(v) = outcome else {
        return false;
    };
    match op {
        ContainerOp::Get { .. } | ContainerOp::GetAndSet { .. } => v.is_null(),
        ContainerOp::Palette | ContainerOp::GetAll => {
            v.as_array().is_some_and(|a| a.iter().any(|e| e.is_null()))
        }
        ContainerOp::Counts => v.as_array().is_some_and(|a| {
            a.iter()
                .any(|pair| pair.get(0).is_some_and(|id| id.is_null()))
        }),
        _ => false,
    }
}

/// A VarInt read from `bytes` at `*at`: its value and length, `Err(true)` if
/// the input ends inside it, `Err(false)` if it runs past five bytes.
fn varint(bytes: &[u8], at: &mut usize) -> Result<(i32, usize), bool> {
    let mut value = 0u32;
    for k in 0..5 {
        let &b = bytes.get(*at).ok_or(true)?;
        *at += 1;
        value |= u32::from(b & 0x7f) << (7 * k);
        if b & 0x80 == 0 {
            return Ok((value as i32, k + 1));
        }
    }
    Err(false)
}

/// The kinds of untrusted input in a read's bytes, for a container of
/// `strategy` (what the bytes say, whatever the container then does).
fn wire_inputs(strategy: &Strategy, bytes: &[u8]) -> Vec<&'static str> {
    let mut out = Vec::new();
    let Some(&byte) = bytes.first() else {
        out.push("read: cut in the bits byte");
        return out;
    };
    let config = strategy.configuration(u32::from(byte));
    // `write` sends the in-memory width: any other byte is off the ladder.
    if config.bits != u32::from(byte) {
        out.push("read: bits byte off the ladder");
    }
    if byte >= 128 {
        out.push("read: negative bits byte");
    }
    let mut at = 1;
    let mut five = false;
    let mut next = |at: &mut usize, out: &mut Vec<&'static str>| match varint(bytes, at) {
        Ok((v, len)) => {
            five |= len == 5;
            Some(v)
        }
        Err(cut) => {
            if cut {
                out.push("read: cut in the palette");
            }
            None
        }
    };
    let mut palette_read = true;
    match config.kind {
        PaletteKind::Single => palette_read = next(&mut at, &mut out).is_some(),
        PaletteKind::Linear | PaletteKind::HashMap => match next(&mut at, &mut out) {
            None => palette_read = false,
            Some(count) => {
                let capacity = 1i64 << config.bits;
                match i64::from(count) {
                    0 => out.push("read: palette count 0"),
                    c if c < 0 => out.push("read: negative palette count"),
                    c if c > capacity => out.push("read: palette count beyond capacity"),
                    _ => {}
                }
                // A linear palette throws at its array's end: no longs follow.
                if config.kind == PaletteKind::Linear && i64::from(count) > capacity {
                    palette_read = false;
                }
                for _ in 0..count.max(0) {
                    if next(&mut at, &mut out).is_none() {
                        palette_read = false;
                        break;
                    }
                }
            }
        },
        PaletteKind::Global => {}
    }
    if five {
        out.push("read: five-byte VarInt");
    }
    if palette_read && config.bits > 0 {
        let longs = strategy.size().div_ceil((64 / config.bits) as usize);
        if bytes.len() - at.min(bytes.len()) < 8 * longs {
            out.push("read: cut in the longs");
        }
    }
    out
}

fn numbers_out(m: &str) -> String {
    let mut out = String::with_capacity(m.len());
    let mut in_number = false;
    for c in m.chars() {
        if c.is_ascii_digit() {
            if !in_number {
                out.push('N');
                in_number = true;
            }
        } else {
            in_number = false;
            out.push(c);
        }
    }
    // A negative number is a number.
    out.replace("-N", "N")
}

/// What a set of cases reached, item by item, with how often.
#[derive(Clone, Debug, Default)]
pub struct Coverage {
    /// Reached items and how many times.
    pub reached: BTreeMap<Item, usize>,
    /// Cases measured.
    pub cases: usize,
    /// Cases that could not run, with why.
    pub failed: Vec<String>,
    /// With [`op_items`]: what each op of the one case measured reached.
    per_op: Option<Vec<Vec<Item>>>,
    /// The op being measured, for `per_op`.
    current: usize,
}

/// What each op of `case` reaches, op by op: the items [`Coverage::add`]
/// counts, each under the op that reached it (an op reaching nothing gets
/// an empty list). How `rig conformance` assigns its cases to behaviours.
pub fn op_items(case: &Case) -> Vec<Vec<Item>> {
    let mut cov = Coverage {
        per_op: Some(vec![Vec::new(); case.ops.len()]),
        ..Coverage::default()
    };
    cov.add(case);
    cov.per_op.unwrap_or_default()
}

impl Coverage {
    /// Nothing reached yet.
    pub fn new() -> Coverage {
        Coverage::default()
    }

    fn hit(&mut self, item: Item) {
        if let Some(slot) = self
            .per_op
            .as_mut()
            .and_then(|ops| ops.get_mut(self.current))
        {
            slot.push(item.clone());
        }
        *self.reached.entry(item).or_insert(0) += 1;
    }

    /// Runs `case` and counts what it reaches.
    pub fn add(&mut self, case: &Case) {
        self.cases += 1;
        let version = case.subject.version();
        if version != paletted::Version::V26_3 {
            // The case's, not one op's: counted apart from `per_op`.
            *self
                .reached
                .entry(Item::Version(version.name()))
                .or_insert(0) += 1;
        }
        match RustExecutor::new().run(case) {
            Ok(outcomes) => {
                for (i, o) in outcomes.iter().enumerate() {
                    self.current = i;
                    if let Some(e) = error_kind(o) {
                        self.hit(Item::Error(e));
                    }
                    if let Some(e) = error_detail(o) {
                        self.hit(Item::Error(e));
                    }
                    if let Ops::Container(ops) = &case.ops {
                        if holds_null(&ops[i], o) {
                            self.hit(Item::Input(NULL_RESULT));
                        }
                    }
                }
            }
            Err(e) => self.failed.push(format!("{}: {e}", case.name)),
        }
        match (&case.subject, &case.ops) {
            (
                &Subject::Container {
                    strategy,
                    registry,
                    initial,
                    version,
                },
                Ops::Container(ops),
            ) => self.container(strategy, registry, initial, version, ops),
            (&Subject::Storage { bits, .. }, Ops::Storage(ops)) => {
                if !ops.is_empty() {
                    self.current = 0;
                    self.hit(Item::Width(bits));
                }
                for (i, op) in ops.iter().enumerate() {
                    self.current = i;
                    if let StorageOp::Load { bits, size, longs } = op {
                        // Only widths 1..=32 have a length (and 64 / bits
                        // is 0 past 64).
                        let expected = if (1..=32).contains(bits) {
                            (*size as usize).div_ceil(64 / *bits as usize)
                        } else {
                            0
                        };
                        if (0..=32).contains(bits) && (*bits == 0 || longs.len() == expected) {
                            self.hit(Item::Width(*bits as u32));
                        }
                    }
                    self.hit(Item::Op {
                        subject: "storage",
                        op: op.kind(),
                    });
                }
            }
            _ => self
                .failed
                .push(format!("{}: ops do not match the subject", case.name)),
        }
    }

    fn container(
        &mut self,
        kind: Kind,
        registry: u32,
        initial: u32,
        version: paletted::Version,
        ops: &[ContainerOp],
    ) {
        let s = strategy_name(kind);
        if registry == 0 || initial >= registry {
            return;
        }
        // The version's rules: its reads take the long count.
        let strategy = Strategy::with(kind, registry).with_rules(version.rules());
        let mut c = PalettedContainer::new(initial, strategy);
        for (i, op) in ops.iter().enumerate() {
            self.current = i;
            let name = op.kind();
            self.hit(Item::Op {
                subject: "container",
                op: name,
            });
            if let ContainerOp::Set { x, y, z, .. }
            | ContainerOp::GetAndSet { x, y, z, .. }
            | ContainerOp::Get { x, y, z } = op
            {
                if index(&strategy, *x, *y, *z).is_none() {
                    self.hit(Item::Input(OUTSIDE));
                }
            }
            let before = c.palette_kind();
            let before_bits = c.bits();
            let via = match op {
                ContainerOp::Set { x, y, z, value } | ContainerOp::GetAndSet { x, y, z, value } => {
                    if let (Some(i), Ok(v)) = (index(&strategy, *x, *y, *z), u32::try_from(*value))
                    {
                        if v < registry {
                            let stale = full_with_stale(&c);
                            let _ = c.try_set_at(i, v);
                            if stale && c.bits() != before_bits {
                                self.hit(Item::Input(STALE_RESIZE));
                            }
                        }
                    }
                    Via::Grow
                }
                ContainerOp::Read { bytes } => {
                    for what in wire_inputs(&strategy, bytes) {
                        self.hit(Item::Input(what));
                    }
                    if c.read_lenient(bytes).is_err() {
                        continue;
                    }
                    Via::Read
                }
                ContainerOp::Unpack {
                    palette,
                    data,
                    bits,
                } => {
                    let Ok(palette) = palette
                        .iter()
                        .map(|&v| u32::try_from(v))
                        .collect::<Result<Vec<u32>, _>>()
                    else {
                        continue;
                    };
                    if palette.iter().any(|&v| v >= registry) {
                        continue;
                    }
                    let mut distinct = palette.clone();
                    distinct.sort_unstable();
                    distinct.dedup();
                    if distinct.len() < palette.len() {
                        self.hit(Item::Input(REPEATED_IDS));
                    }
                    let packed = Packed {
                        palette,
                        data: data.clone(),
                        bits: *bits,
                    };
                    if let Ok(next) = PalettedContainer::unpack_lenient(strategy, packed) {
                        c = next;
                        self.hit(Item::Transition {
                            strategy: s,
                            via: Via::Unpack,
                            from: None,
                            to: kind_label(c.palette_kind()),
                        });
                    }
                    continue;
                }
                ContainerOp::Pack => {
                    if holds_stale(&c) {
                        self.hit(Item::Input(STALE_PACK));
                    }
                    continue;
                }
                _ => continue,
            };
            let after = c.palette_kind();
            if via == Via::Grow && before_bits != c.bits() {
                self.hit(Item::Resize {
                    strategy: s,
                    from: step_label(before, before_bits),
                    to: step_label(after, c.bits()),
                });
            }
            if via == Via::Read || before != after {
                self.hit(Item::Transition {
                    strategy: s,
                    via,
                    from: Some(kind_label(before)),
                    to: kind_label(after),
                });
            }
        }
    }

    /// Required items not reached.
    pub fn missing(&self) -> Vec<Item> {
        required()
            .into_iter()
            .filter(|i| !self.reached.contains_key(i))
            .collect()
    }

    /// The table: every required item with its count (MISSING ones first), then
    /// reached items nobody requires, then the totals.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let req = required();
        let _ = writeln!(
            out,
            "reached: how many times the cases reach an item (ops of that kind, results with \
             that error, transitions taken, storages of that width), each case counted once"
        );
        // The item last, unpadded: error items are long.
        let _ = writeln!(
            out,
            "{:<8} {:<10} {:>8}  item",
            "status", "group", "reached"
        );
        // What is missing first, where it is seen; the order is otherwise the list's.
        let mut order: Vec<&Item> = req.iter().collect();
        order.sort_by_key(|item| self.reached.get(*item).copied().unwrap_or(0) > 0);
        for item in order {
            let n = self.reached.get(item).copied().unwrap_or(0);
            let status = if n > 0 { "ok" } else { "MISSING" };
            let _ = writeln!(out, "{status:<8} {:<10} {n:>8}  {item}", item.group());
        }
        for (item, n) in &self.reached {
            if !req.contains(item) {
                let _ = writeln!(out, "{:<8} {:<10} {n:>8}  {item}", "extra", item.group());
            }
        }
        let missing = self.missing().len();
        let _ = writeln!(
            out,
            "{} cases, {} of {} required items reached, {} missing{}",
            self.cases,
            req.len() - missing,
            req.len(),
            missing,
            if self.failed.is_empty() {
                String::new()
            } else {
                format!(", {} cases could not run", self.failed.len())
            }
        );
        out
    }
}

/// Whether `c`'s palette is full (its next new value resizes) and holds an
/// entry no position stores; only counted when full, so cheap on long cases.
fn full_with_stale(c: &PalettedContainer) -> bool {
    matches!(c.palette_kind(), PaletteKind::Linear | PaletteKind::HashMap)
        && c.try_palette().is_ok_and(|p| p.len() >= 1 << c.bits())
        && holds_stale(c)
}

/// Whether `c`'s (local) palette holds a value no position stores.
fn holds_stale(c: &PalettedContainer) -> bool {
    if !matches!(c.palette_kind(), PaletteKind::Linear | PaletteKind::HashMap) {
        return false;
    }
    let (Ok(mut palette), Ok(counts)) = (c.try_palette(), c.try_counts()) else {
        return false;
    };
    palette.sort_unstable();
    palette.dedup();
    palette.len() > counts.len()
}

/// A rung of the growth ladder: the kind, with its width where there are
/// several (`linear4`, `hashmap5`); `single` and `global` alone.
fn step_label(kind: PaletteKind, bits: u32) -> String {
    match kind {
        PaletteKind::Single | PaletteKind::Global => kind_label(kind).to_string(),
        _ => format!("{}{bits}", kind_label(kind)),
    }
}

/// The index Minecraft computes for a position, if inside the container.
fn index(strategy: &Strategy, x: i32, y: i32, z: i32) -> Option<usize> {
    let n = strategy.axis_len();
    let inside = |v: i32| (0..n).contains(&v);
    (inside(x) && inside(y) && inside(z)).then(|| strategy.index(x, y, z))
}
