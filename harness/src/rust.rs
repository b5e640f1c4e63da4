//! The Rust side: runs a case on the `paletted` crate.
//!
//! It uses the Minecraft-exact calls (`unpack_lenient`, `read_lenient`, the
//! `try_` accessors), so Minecraft's deferred failures come out as the same
//! results with no special case in the comparator. Checks that the crate
//! leaves to a panic (a storage index or value out of range, a position
//! outside the container) are made here first and give Minecraft's result.

use std::panic::{self, AssertUnwindSafe};

use paletted::{BitStorage, Error, Packed, PalettedContainer, Strategy, NULL};
use serde_json::{json, Value};

use crate::case::{to_hex, Case, ContainerOp, Ops, StorageOp, Subject};
use crate::exec::{ExecError, Executor};
use crate::outcome::Outcome;
use crate::valid;

/// Runs cases on the Rust containers, every op through every entry point
/// that computes it: the Minecraft-exact calls, whose results are the
/// executor's, and the strict calls, which must agree with them.
#[derive(Clone, Copy, Debug, Default)]
pub struct RustExecutor {
    plant: Option<StrictPlant>,
}

/// A planted bug in the strict API's results, for tests that show the
/// executor catches one: given the container before the op, the op and the
/// strict call's value, it may change the value.
pub type StrictPlant = fn(&PalettedContainer, &ContainerOp, &mut Value);

impl RustExecutor {
    /// A new executor (it holds no state between cases).
    pub fn new() -> RustExecutor {
        RustExecutor::default()
    }

    /// An executor whose strict calls' values pass through `plant`: the
    /// stand-in for a fast-path bug in the strict API.
    pub fn with_strict_plant(plant: StrictPlant) -> RustExecutor {
        RustExecutor { plant: Some(plant) }
    }
}

impl Executor for RustExecutor {
    fn name(&self) -> String {
        "paletted (Rust)".to_string()
    }

    fn run(&mut self, case: &Case) -> Result<Vec<Outcome>, ExecError> {
        let mut at = None;
        // The crate must not panic on any case; if it does, that is a bug to
        // report, not a result to compare.
        let plant = self.plant;
        let run = panic::catch_unwind(AssertUnwindSafe(|| run_case(case, plant, &mut at)));
        match run {
            Ok(results) => results,
            Err(payload) => {
                let message = payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic without a message".to_string());
                Err(ExecError::Internal {
                    op: at,
                    message: format!("paletted panicked: {message}"),
                })
            }
        }
    }
}

fn run_case(
    case: &Case,
    plant: Option<StrictPlant>,
    at: &mut Option<usize>,
) -> Result<Vec<Outcome>, ExecError> {
    // What Minecraft's API cannot be given is refused before any op runs.
    valid::check(case)?;
    let mut results = Vec::with_capacity(case.ops.len());
    match (&case.subject, &case.ops) {
        (
            &Subject::Container {
                strategy,
                registry,
                initial,
                version,
            },
            Ops::Container(ops),
        ) => {
            // The subject's registry, under its version's rules.
            let strategy = Strategy::with(strategy, registry).with_rules(version.rules());
            check_strategy_serde(strategy)?;
            // Getters no op shows, held to their documented values as `==` is
            // held to the observable state: 16 or 4 a side, and Minecraft's
            // `Mth.ceillog2` of the registry.
            let ceillog2 = u32::BITS - registry.saturating_sub(1).leading_zeros();
            let axis = match strategy.kind() {
                paletted::Kind::BlockStates => 16,
                paletted::Kind::Biomes => 4,
            };
            if strategy.axis_len() != axis || strategy.size() != 1 << (3 * axis.ilog2()) {
                return Err(ExecError::Internal {
                    op: None,
                    message: format!(
                        "Strategy::axis_len gives {} and size {}, not {axis} and {axis}^3",
                        strategy.axis_len(),
                        strategy.size()
                    ),
                });
            }
            if strategy.global_bits() != ceillog2 {
                return Err(ExecError::Internal {
                    op: None,
                    message: format!(
                        "Strategy::global_bits gives {} for a registry of {registry}, not {ceillog2}",
                        strategy.global_bits()
                    ),
                });
            }
            let mut c = PalettedContainer::new(initial, strategy);
            let mut lead = Leading::new(initial);
            for (i, op) in ops.iter().enumerate() {
                *at = Some(i);
                let set = lead.set(&c, op);
                if set.is_none() {
                    lead.close(&c).map_err(|e| e.at(i))?;
                }
                // A value the palette lacks: the sets' palette changes here.
                let new = set.is_some_and(|(_, v)| c.try_maybe_has(v) == Ok(false));
                results.push(container_op(&mut c, op, plant).map_err(|e| e.at(i))?);
                if let Some(set) = set {
                    lead.push(&c, set, new).map_err(|e| e.at(i))?;
                }
                if matches!(op, ContainerOp::Read { .. } | ContainerOp::Unpack { .. }) {
                    check_iter(&c).map_err(|e| e.at(i))?;
                }
            }
            lead.close(&c)?;
            check_iter(&c)?;
            check_rebuilt(&c, initial)?;
        }
        (&Subject::Storage { bits, size, .. }, Ops::Storage(ops)) => {
            // The versions' storages differ only in `fill`, which
            // `valid::check` refuses where the version lacks it.
            let mut s = BitStorage::new(bits, size as usize);
            for (i, op) in ops.iter().enumerate() {
                *at = Some(i);
                results.push(storage_op(&mut s, op).map_err(|e| e.at(i))?);
            }
        }
        _ => unreachable!("valid::check refuses ops of another kind than the subject"),
    }
    Ok(results)
}

/// The run of sets a case's ops begin with, inside the axes, from
/// `new(initial)`: the bulk calls that stand for it must give the
/// container it gave. `set_many` of the run must equal it when the run
/// ends; while the run's indices only increase, the state is what `set`s
/// of its values in index order give (the indices skipped hold the initial
/// value, which such sets keep in the palette), so `from_values_with` of
/// the state must equal it too: checked wherever the palette took a new
/// value, and when the run ends.
struct Leading {
    initial: u32,
    sets: Vec<(usize, u32)>,
    increasing: bool,
    open: bool,
}

impl Leading {
    fn new(initial: u32) -> Leading {
        Leading {
            initial,
            sets: Vec::new(),
            increasing: true,
            open: true,
        }
    }

    /// The index and value of `op` if it continues the run.
    fn set(&self, c: &PalettedContainer, op: &ContainerOp) -> Option<(usize, u32)> {
        match *op {
            ContainerOp::Set { x, y, z, value } if self.open && in_axes(c, op) => {
                Some((c.strategy().index(x, y, z), value as u32))
            }
            _ => None,
        }
    }

    /// One more set of the run, made: `new` if its value was new to the
    /// palette.
    fn push(
        &mut self,
        c: &PalettedContainer,
        set: (usize, u32),
        new: bool,
    ) -> Result<(), ExecError> {
        self.increasing &= self.sets.last().is_none_or(|&(j, _)| j < set.0);
        self.sets.push(set);
        if self.increasing && (new || self.sets.len() == 1) {
            self.check_from_values(c)?;
        }
        Ok(())
    }

    /// The run is over (or the case): checks the state it left.
    fn close(&mut self, c: &PalettedContainer) -> Result<(), ExecError> {
        if !std::mem::replace(&mut self.open, false) || self.sets.is_empty() {
            return Ok(());
        }
        let mut many = PalettedContainer::new(self.initial, c.strategy());
        many.set_many(self.sets.iter().copied());
        if many != *c {
            return Err(bulk_disagrees("set_many of the leading sets", &many, c));
        }
        if self.increasing {
            self.check_from_values(c)?;
        }
        check_iter(c)
    }

    fn check_from_values(&self, c: &PalettedContainer) -> Result<(), ExecError> {
        let strategy = c.strategy();
        let values: Vec<u32> = (0..strategy.size())
            .map(|i| c.try_get_at(i))
            .collect::<Result<_, _>>()
            .map_err(|e| ExecError::Internal {
                op: None,
                message: format!("a container built by sets fails get_at: {e}"),
            })?;
        let built = PalettedContainer::from_values_with(self.initial, strategy, &values);
        if built != *c {
            return Err(bulk_disagrees("from_values_with of the state", &built, c));
        }
        if values[0] == self.initial {
            let built = PalettedContainer::from_values(strategy, &values);
            if built != *c {
                return Err(bulk_disagrees("from_values of the state", &built, c));
            }
        }
        Ok(())
    }
}

fn bulk_disagrees(what: &str, got: &PalettedContainer, sets: &PalettedContainer) -> ExecError {
    let palette = |c: &PalettedContainer| match c.palette_kind() {
        paletted::PaletteKind::Global => "global".to_string(),
        _ => format!("{:?}", c.try_palette()),
    };
    ExecError::Internal {
        op: None,
        message: format!(
            "{what} disagrees with the sets that built it: {:?} {} against {:?} {}",
            got.configuration(),
            palette(got),
            sets.configuration(),
            palette(sets)
        ),
    }
}

/// `iter` and `positions` against `try_get_at` and `try_get`: the same
/// values in the same order, and a panic with the first failure's message
/// where there is one, whether all are visited by their folds
/// (`for_each`) or some are taken one at a time first (the fold then
/// starts inside a long or a layer, or on the next).
fn check_iter(c: &PalettedContainer) -> Result<(), ExecError> {
    let strategy = c.strategy();
    let size = strategy.size();
    let want: Vec<Result<u32, Error>> = (0..size).map(|i| c.try_get_at(i)).collect();
    let fails = want.iter().position(Result::is_err);
    let good = fails.unwrap_or(size);
    let b = strategy.axis_bits();
    let index = |x: i32, y: i32, z: i32| ((((y as usize) << b) | z as usize) << b) | x as usize;
    for taken in [0, 1, 5, 40, 64, 256, 300]
        .into_iter()
        .filter(|&t| t < size)
    {
        let mut got = Vec::new();
        let run = quietly(|| {
            let mut it = c.iter();
            it.by_ref().take(taken).for_each(|p| got.push(p));
            it.for_each(|p| got.push(p));
        });
        let mut at = Vec::new();
        let run_at = quietly(|| {
            let mut it = c.positions();
            it.by_ref().take(taken).for_each(|p| at.push(p));
            it.for_each(|p| at.push(p));
        });
        let at: Vec<(usize, u32)> = at.iter().map(|&(x, y, z, v)| (index(x, y, z), v)).collect();
        for (what, got, run) in [("iter", &got, &run), ("positions", &at, &run_at)] {
            let same = got.len() == good
                && got
                    .iter()
                    .zip(&want)
                    .enumerate()
                    .all(|(k, (&(i, v), w))| i == k && w.as_ref().ok() == Some(&v))
                && match (run, fails) {
                    (Ok(()), None) => true,
                    (Err(message), Some(f)) => {
                        want[f].as_ref().err().map(Error::to_string).as_ref() == Some(message)
                    }
                    _ => false,
                };
            if !same {
                return Err(ExecError::Internal {
                    op: None,
                    message: format!(
                        "{what} after {taken} taken disagrees with try_get_at: {} values then {:?}, where try_get_at gives {good} then {:?}",
                        got.len(),
                        run.as_ref().err(),
                        fails.map(|f| want[f].as_ref().err().map(Error::to_string))
                    ),
                });
            }
        }
    }
    if fails.is_none() {
        if c.iter().len() != size || c.positions().len() != size {
            return Err(ExecError::Internal {
                op: None,
                message: format!("iter or positions says its length is not {size}"),
            });
        }
        for taken in [1, 5, 40] {
            let mut it = c.iter();
            it.by_ref().take(taken).for_each(drop);
            let mut pos = c.positions();
            pos.by_ref().take(taken).for_each(drop);
            if it.len() != size - taken || pos.len() != size - taken {
                return Err(ExecError::Internal {
                    op: None,
                    message: format!(
                        "iter or positions after {taken} says {} or {} are left, not {}",
                        it.len(),
                        pos.len(),
                        size - taken
                    ),
                });
            }
        }
        let n = strategy.axis_len();
        let mut at = Vec::with_capacity(size);
        for y in 0..n {
            for z in 0..n {
                for x in 0..n {
                    at.push((x, y, z, c.try_get(x, y, z).unwrap_or(NULL)));
                }
            }
        }
        if !c.positions().eq(at) {
            return Err(ExecError::Internal {
                op: None,
                message: "positions disagrees with try_get".to_string(),
            });
        }
    }
    Ok(())
}

/// `from_values_with(initial)` and `from_values` of the values a case ends
/// with, against the `set_at`s in index order they stand for, from
/// `new(initial)` and from `new(values[0])`: every recorded end state (random
/// sections, hash palettes, an initial value the values never meet), where
/// the leading sets cover only the runs cases make themselves. A state
/// holding a never-written slot, or failing a `get`, has no such values.
fn check_rebuilt(c: &PalettedContainer, initial: u32) -> Result<(), ExecError> {
    let strategy = c.strategy();
    let Ok(values) = (0..strategy.size())
        .map(|i| c.try_get_at(i))
        .collect::<Result<Vec<u32>, _>>()
    else {
        return Ok(());
    };
    if values.iter().any(|&v| v >= strategy.registry_size()) {
        return Ok(());
    }
    let starts = if values[0] == initial {
        &[initial][..]
    } else {
        &[initial, values[0]][..]
    };
    for &start in starts {
        let mut sets = PalettedContainer::new(start, strategy);
        for (i, &v) in values.iter().enumerate() {
            sets.set_at(i, v);
        }
        let built = PalettedContainer::from_values_with(start, strategy, &values);
        if built != sets {
            return Err(bulk_disagrees(
                "from_values_with of the end state",
                &built,
                &sets,
            ));
        }
        if start == values[0] {
            let built = PalettedContainer::from_values(strategy, &values);
            if built != sets {
                return Err(bulk_disagrees(
                    "from_values of the end state",
                    &built,
                    &sets,
                ));
            }
        }
    }
    Ok(())
}

/// The `serde` form of a `pack`'s result, which a server's NBT library
/// writes into a section: the disk form's `palette` and `data` keys holding
/// the palette and longs `pack` gave (no `data` for a palette of one entry),
/// read back as them with no declared width.
fn check_packed_serde(p: &Packed) -> Result<(), ExecError> {
    let mut want = serde_json::Map::new();
    want.insert("palette".to_string(), json!(p.palette));
    if let Some(data) = &p.data {
        want.insert("data".to_string(), json!(data));
    }
    let want = Value::Object(want);
    let got = serde_json::to_value(p);
    let back = got
        .as_ref()
        .ok()
        .and_then(|v| serde_json::from_value::<Packed>(v.clone()).ok());
    if got.as_ref().ok() != Some(&want)
        || back != Some(Packed::new(p.palette.clone(), p.data.clone()))
    {
        return Err(ExecError::Internal {
            op: None,
            message: format!("Packed's serde form is {got:?}, read back as {back:?}, not {want}"),
        });
    }
    Ok(())
}

/// The `serde` form of a case's strategy: its kind and registry size, and
/// its rules unless they are 26.x's, read back as the same strategy.
fn check_strategy_serde(strategy: Strategy) -> Result<(), ExecError> {
    let kind = match strategy.kind() {
        paletted::Kind::BlockStates => "block_states",
        paletted::Kind::Biomes => "biomes",
    };
    let mut want = json!({"kind": kind, "registry": strategy.registry_size()});
    use paletted::Rules;
    let name = match strategy.rules() {
        Rules::V1_18_2 => Some("1.18.2"),
        Rules::V1_20_2 => Some("1.20.2"),
        Rules::V1_21_5 => Some("1.21.5"),
        Rules::V1_21_9 => Some("1.21.9"),
        Rules::V26_1 => Some("26.1"),
        _ => None,
    };
    if let Some(name) = name {
        want["rules"] = name.into();
    }
    let got = serde_json::to_value(strategy);
    let back = got
        .as_ref()
        .ok()
        .and_then(|v| serde_json::from_value::<Strategy>(v.clone()).ok());
    if got.as_ref().ok() != Some(&want) || back != Some(strategy) {
        return Err(ExecError::Internal {
            op: None,
            message: format!("Strategy's serde form is {got:?}, read back as {back:?}, not {want}"),
        });
    }
    Ok(())
}

trait AtOp {
    fn at(self, i: usize) -> ExecError;
}

impl AtOp for ExecError {
    fn at(self, i: usize) -> ExecError {
        match self {
            ExecError::Invalid { reason, .. } => ExecError::Invalid {
                op: Some(i),
                reason,
            },
            ExecError::Unsupported { reason, .. } => ExecError::Unsupported {
                op: Some(i),
                reason,
            },
            ExecError::Internal { message, .. } => ExecError::Internal {
                op: Some(i),
                message,
            },
        }
    }
}

/// commons-lang3 `Validate.inclusiveBetween`'s exception, which Minecraft's
/// range checks throw.
fn out_of_range(value: i64, min: i64, max: i64) -> Outcome {
    Outcome::throws(
        "IllegalArgumentException",
        format!("The value {value} is not in the specified inclusive range of {min} to {max}"),
    )
}

/// What Minecraft throws where the crate reports `e`.
fn thrown(e: &Error) -> Result<Outcome, ExecError> {
    let class = match e {
        Error::Index { .. } => "MissingPaletteEntryException",
        Error::MissingPaletteValue | Error::Uninitialized => "IllegalStateException",
        Error::StorageLength { .. } => "InitializationException",
        // netty's buffer bounds check; the text is netty's, compared by class only.
        Error::Truncated { .. } => "IndexOutOfBoundsException",
        // Minecraft's VarInt reader.
        Error::VarIntTooBig { .. } => "RuntimeException",
        // `FriendlyByteBuf.readLongArray` before 1.21.5: netty's class,
        // Minecraft's text.
        Error::LongArrayTooBig { .. } => "DecoderException",
        // A linear palette's array overrun while reading (the JDK's text).
        Error::PaletteTooLong { capacity, .. } => {
            return Ok(Outcome::throws(
                "ArrayIndexOutOfBoundsException",
                format!("Index {capacity} out of bounds for length {capacity}"),
            ))
        }
        // A palette id outside the registry on the wire: Minecraft's palettes
        // look ids up with `IdMap.byIdOrThrow` (compared by class only).
        Error::Id { id, .. } => {
            return Ok(Outcome::throws(
                "IllegalArgumentException",
                format!("No value with id {id}"),
            ))
        }
        Error::ArrayIndex { .. } => "ArrayIndexOutOfBoundsException",
        // `new long[count]` of a negative long count on the wire, before
        // 1.21.5 (the JDK's text is the count).
        Error::NegativeLength { len } => {
            return Ok(Outcome::throws(
                "NegativeArraySizeException",
                len.to_string(),
            ))
        }
        // commons-lang3 `Validate`'s text, compared by class only.
        Error::OutOfRange { .. } => "IllegalArgumentException",
        other => {
            return Err(ExecError::Internal {
                op: None,
                message: format!(
                    "paletted gave an error the protocol does not map: {other:?} ({other})"
                ),
            })
        }
    };
    Ok(Outcome::throws(class, e.to_string()))
}

/// A value as a result: an id, or JSON `null` for Java's null.
fn value(v: u32) -> Value {
    if v == NULL {
        Value::Null
    } else {
        v.into()
    }
}

fn values(vs: &[u32]) -> Value {
    Value::Array(vs.iter().map(|&v| value(v)).collect())
}

/// The entry points one container op can be computed by: the
/// Minecraft-exact calls (`try_`, `_lenient`) and the strict calls, each in
/// both position forms. Every one is run, and they must agree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Api {
    /// `try_get(x, y, z)`, `read_lenient`, `unpack_lenient`: what is
    /// compared with the recording.
    Exact,
    /// `try_get_at(i)`, ...: positions as indices.
    ExactAt,
    /// `get(x, y, z)`, `read`, `unpack`, `counts()`, ...: the API users
    /// call; it panics where the exact calls fail, and refuses at load what
    /// Minecraft defers.
    Strict,
    /// `get_at(i)`, ...
    StrictAt,
}

impl Api {
    fn name(self) -> &'static str {
        match self {
            Api::Exact => "the Minecraft-exact call",
            Api::ExactAt => "the Minecraft-exact call by index",
            Api::Strict => "the strict call",
            Api::StrictAt => "the strict call by index",
        }
    }
}

/// What a container op gave, as the crate gives it: the four entry points'
/// results are compared in this form, and only the exact call's is encoded
/// as JSON (a live run makes four of these an op).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Got {
    /// Java's `void`, or an unpack's new container.
    Unit,
    /// A value, or [`NULL`].
    Id(u32),
    /// `bits`, `serialized_size`, a read's byte count.
    Count(usize),
    Bool(bool),
    /// The palette's entries, or the distinct values.
    Ids(Vec<u32>),
    Counts(Vec<(u32, usize)>),
    Bytes(Vec<u8>),
    Packed(Packed),
}

impl Got {
    /// The golden form's `ok` value.
    fn to_json(&self) -> Value {
        match self {
            Got::Unit => Value::Null,
            &Got::Id(v) => value(v),
            &Got::Count(n) => n.into(),
            &Got::Bool(b) => b.into(),
            Got::Ids(vs) => values(vs),
            Got::Counts(pairs) => pairs.iter().map(|&(v, n)| json!([value(v), n])).collect(),
            Got::Bytes(bytes) => to_hex(bytes).into(),
            Got::Packed(p) => {
                json!({"palette": values(&p.palette), "data": p.data, "bits": p.bits})
            }
        }
    }
}

impl std::fmt::Display for Got {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.to_json())
    }
}

/// What an op gave, before it is encoded: a value, or the crate's error.
type Res = Result<Got, Error>;

/// Runs `op` on `c` through `api`. A strict accessor panics where the
/// exact one fails; a strict load returns the strict error.
fn run_op(c: &mut PalettedContainer, op: &ContainerOp, api: Api) -> Res {
    let strategy = c.strategy();
    let strict = matches!(api, Api::Strict | Api::StrictAt);
    // An index form with a negative Java index is never run (see `forms`).
    let at = |x, y, z| strategy.java_index(x, y, z) as usize;
    match (op, api) {
        (&ContainerOp::Set { x, y, z, value }, _) => {
            let v = value as u32;
            match api {
                Api::Exact => c.try_set(x, y, z, v)?,
                Api::ExactAt => c.try_set_at(at(x, y, z), v)?,
                Api::Strict => c.set(x, y, z, v),
                Api::StrictAt => c.set_at(at(x, y, z), v),
            }
            Ok(Got::Unit)
        }
        (&ContainerOp::Get { x, y, z }, _) => Ok(Got::Id(match api {
            Api::Exact => c.try_get(x, y, z)?,
            Api::ExactAt => c.try_get_at(at(x, y, z))?,
            Api::Strict => c.get(x, y, z),
            Api::StrictAt => c.get_at(at(x, y, z)),
        })),
        (&ContainerOp::GetAndSet { x, y, z, value: v }, _) => {
            let v = v as u32;
            Ok(Got::Id(match api {
                Api::Exact => c.try_get_and_set(x, y, z, v)?,
                Api::ExactAt => c.try_get_and_set_at(at(x, y, z), v)?,
                Api::Strict => c.get_and_set(x, y, z, v),
                Api::StrictAt => c.get_and_set_at(at(x, y, z), v),
            }))
        }
        (&ContainerOp::Bits, _) => Ok(Got::Count(c.bits() as usize)),
        (&ContainerOp::Palette, _) if strict => Ok(Got::Ids(c.palette())),
        (&ContainerOp::Palette, _) => Ok(Got::Ids(c.try_palette()?)),
        (&ContainerOp::Counts, _) if strict => Ok(Got::Counts(c.counts())),
        (&ContainerOp::Counts, _) => Ok(Got::Counts(c.try_counts()?)),
        (&ContainerOp::GetAll, _) if strict => Ok(Got::Ids(c.distinct())),
        (&ContainerOp::GetAll, _) => Ok(Got::Ids(c.try_distinct()?)),
        (&ContainerOp::MaybeHas { value }, _) if strict => Ok(Got::Bool(c.maybe_has(value as u32))),
        (&ContainerOp::MaybeHas { value }, _) => Ok(Got::Bool(c.try_maybe_has(value as u32)?)),
        (&ContainerOp::Write, _) => {
            let mut out = Vec::new();
            if strict {
                c.write(&mut out);
            } else {
                c.try_write(&mut out)?;
            }
            Ok(Got::Bytes(out))
        }
        (&ContainerOp::SerializedSize, _) if strict => Ok(Got::Count(c.serialized_size())),
        (&ContainerOp::SerializedSize, _) => Ok(Got::Count(c.try_serialized_size()?)),
        (&ContainerOp::Pack, _) if strict => Ok(Got::Packed(c.pack())),
        (&ContainerOp::Pack, _) => Ok(Got::Packed(c.try_pack()?)),
        (
            &ContainerOp::Unpack {
                ref palette,
                ref data,
                bits,
            },
            _,
        ) => {
            let packed = Packed {
                palette: palette.iter().map(|&v| v as u32).collect(),
                data: data.clone(),
                bits,
            };
            *c = if strict {
                PalettedContainer::unpack(strategy, packed)?
            } else {
                PalettedContainer::unpack_lenient(strategy, packed)?
            };
            Ok(Got::Unit)
        }
        (ContainerOp::Read { bytes }, _) => {
            // The strict read is `from_wire`, which is `read` into a fresh
            // container.
            let n = if strict {
                let (next, n) = PalettedContainer::from_wire(strategy, bytes)?;
                *c = next;
                n
            } else {
                c.read_lenient(bytes)?
            };
            Ok(Got::Count(n))
        }
    }
}

/// Where an op names a position: its Java index.
fn position(c: &PalettedContainer, op: &ContainerOp) -> Option<i64> {
    match *op {
        ContainerOp::Set { x, y, z, .. }
        | ContainerOp::Get { x, y, z }
        | ContainerOp::GetAndSet { x, y, z, .. } => Some(c.strategy().java_index(x, y, z)),
        _ => None,
    }
}

/// What a strictly loaded container promises: Minecraft would throw nowhere
/// later. Every palette entry can be set, every stored index has a value
/// (no null), and every walk of the palette and the storage succeeds.
fn sound(c: &PalettedContainer) -> Result<(), Error> {
    // Every entry must be settable: its id fits the storage's bits (a hash
    // palette read overfull fails at `set` of its last values). A global
    // palette's entries are its registry's ids (not listed: it may hold
    // 2^31 of them).
    if c.palette_kind() != paletted::PaletteKind::Global {
        let entries = c.try_palette()?;
        let capacity = 1usize << c.bits();
        if c.palette_kind() != paletted::PaletteKind::Single && entries.len() > capacity {
            return Err(Error::PaletteTooLong {
                len: entries.len(),
                capacity,
            });
        }
    }
    c.try_serialized_size()?;
    c.try_counts()?;
    c.try_distinct()?;
    c.try_pack()?;
    for i in 0..c.strategy().size() {
        if c.try_get_at(i)? == NULL {
            return Err(Error::Index {
                at: i,
                index: c.storage().get(i),
            });
        }
    }
    Ok(())
}

/// The state an observer can tell apart, to hold `PartialEq` to: strategy,
/// configuration (before 26.x a global one has no bits byte to tell apart),
/// palette entries in order (a global palette's are its registry's, which
/// the strategy names) and the storage's longs.
fn observably_equal(a: &PalettedContainer, b: &PalettedContainer) -> bool {
    let entries = |c: &PalettedContainer| match c.palette_kind() {
        paletted::PaletteKind::Global => None,
        _ => Some(c.try_palette()),
    };
    a.strategy() == b.strategy()
        && a.strategy()
            .rules()
            .same_configuration(a.configuration(), b.configuration())
        && a.storage() == b.storage()
        && entries(a) == entries(b)
}

/// Whether every coordinate an op names is inside its axis.
fn in_axes(c: &PalettedContainer, op: &ContainerOp) -> bool {
    let n = c.strategy().axis_len();
    match *op {
        ContainerOp::Set { x, y, z, .. }
        | ContainerOp::Get { x, y, z }
        | ContainerOp::GetAndSet { x, y, z, .. } => [x, y, z].iter().all(|a| (0..n).contains(a)),
        _ => true,
    }
}

/// The errors the strict loads give where Minecraft loads and fails later
/// (or, for an id, where the crate checks what Minecraft's registry would).
fn strict_refusal(e: &Error) -> bool {
    matches!(
        e,
        Error::Empty
            | Error::Index { .. }
            | Error::Id { .. }
            | Error::PaletteTooLong { .. }
            | Error::NegativeLength { .. }
    )
}

/// The strict loads' refusals of input that is inconsistent in itself,
/// whatever container Minecraft made of it: a long count on the wire that
/// is not the storage's length (Minecraft drops the longs), and, where the
/// version's saves declare no bit count, a declared one that disagrees
/// with the palette (Minecraft does not look at it).
fn input_refusal(e: &Error, rules: paletted::Rules) -> bool {
    match e {
        Error::LongCount { .. } => true,
        Error::BitCount { .. } => !rules.declares_bits(),
        _ => false,
    }
}

/// A disagreement between two entry points: a bug in the crate, reported
/// as an internal error of the case.
fn disagree(op: &ContainerOp, api: Api, got: &str, exact: &Res) -> ExecError {
    let exact = match exact {
        Ok(v) => format!("gave {v}"),
        Err(e) => format!("failed: {e}"),
    };
    ExecError::Internal {
        op: None,
        message: format!(
            "{} disagrees with the Minecraft-exact call on {}: it {got}, while the exact call {exact}",
            api.name(),
            op
        ),
    }
}

/// Runs `op` through every entry point that computes it and checks that
/// they agree; gives the exact call's result (and leaves its state in `c`).
fn container_op_all_apis(
    c: &mut PalettedContainer,
    op: &ContainerOp,
    plant: Option<StrictPlant>,
) -> Result<Res, ExecError> {
    let before = c.clone();
    let exact = run_op(c, op, Api::Exact);
    // `==` (which the checks below rely on) must see exactly what an
    // observer sees.
    if (before == *c) != observably_equal(&before, c) {
        return Err(ExecError::Internal {
            op: None,
            message: format!("PartialEq disagrees with the observable state before and after {op}"),
        });
    }
    let pos = position(c, op);
    let size = c.strategy().size() as i64;
    for api in [Api::ExactAt, Api::Strict, Api::StrictAt] {
        // The strict calls refuse a position unless each coordinate is
        // inside its axis (by index: unless the index is inside).
        let inside = match api {
            Api::Strict => in_axes(c, op),
            _ => pos.is_none_or(|i| (0..size).contains(&i)),
        };
        let indexed = matches!(api, Api::ExactAt | Api::StrictAt);
        if indexed && pos.is_none_or(|i| i < 0) {
            continue; // no index form for this op or this position
        }
        let mut other = before.clone();
        let strict = matches!(api, Api::Strict | Api::StrictAt);
        let got = quietly(|| run_op(&mut other, op, api));
        match got {
            Ok(Ok(v)) => {
                // A planted bug works on the value as JSON.
                let planted = match (plant, strict) {
                    (Some(plant), true) => {
                        let mut json = v.to_json();
                        plant(&before, op, &mut json);
                        Some(json)
                    }
                    _ => None,
                };
                let same = match &planted {
                    Some(json) => exact.as_ref().ok().map(Got::to_json).as_ref() == Some(json),
                    None => exact.as_ref().ok() == Some(&v),
                };
                if !same {
                    let gave = planted.map_or_else(|| v.to_string(), |json| json.to_string());
                    return Err(disagree(op, api, &format!("gave {gave}"), &exact));
                }
                if other != *c {
                    return Err(disagree(op, api, "left another state", &exact));
                }
                let load = matches!(op, ContainerOp::Read { .. } | ContainerOp::Unpack { .. });
                // Only a strict load promises soundness (and the walk is
                // costly: it is not made for any other op).
                if strict && load {
                    if let Err(why) = sound(&other) {
                        return Err(disagree(
                            op,
                            api,
                            &format!(
                                "loaded a container on which Minecraft would fail later ({why})"
                            ),
                            &exact,
                        ));
                    }
                }
            }
            Ok(Err(e)) if !strict => {
                if exact.as_ref().err() != Some(&e) || other != *c {
                    return Err(disagree(op, api, &format!("failed: {e}"), &exact));
                }
            }
            // A strict load's refusal: documented, and nothing changed.
            Ok(Err(e)) => {
                let documented = strict_refusal(&e)
                    || input_refusal(&e, before.strategy().rules())
                    || exact.as_ref().err() == Some(&e);
                // A refusal of what Minecraft loaded must name what is wrong
                // with it: nothing, if every later walk succeeds; an index
                // past a list palette, or an id past a global one's registry
                // (Minecraft's read already refused ids the registry lacks).
                let misnamed = exact.is_ok()
                    && !input_refusal(&e, before.strategy().rules())
                    && (sound(c).is_ok()
                        || match (&e, c.palette_kind()) {
                            (Error::Index { .. }, paletted::PaletteKind::Global) => true,
                            (Error::Id { .. }, kind) => kind != paletted::PaletteKind::Global,
                            _ => false,
                        });
                if !documented || misnamed || other != before {
                    return Err(disagree(op, api, &format!("refused: {e}"), &exact));
                }
            }
            Err(message) if strict && !inside => {
                // A strict call refuses a position outside before changing
                // anything (Minecraft may grow the palette first).
                if other != before {
                    return Err(disagree(
                        op,
                        api,
                        "panicked and changed the container",
                        &exact,
                    ));
                }
                let _ = message;
            }
            Err(message) => {
                let same =
                    strict && exact.as_ref().err().map(Error::to_string) == Some(message.clone());
                if !same {
                    return Err(disagree(op, api, &format!("panicked: {message}"), &exact));
                }
            }
        }
    }
    Ok(exact)
}

thread_local! {
    static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f`, catching a panic as its message, without printing it: the
/// strict calls panic by design wherever the exact ones fail.
fn quietly<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !QUIET.with(|q| q.get()) {
                previous(info);
            }
        }));
    });
    QUIET.with(|q| q.set(true));
    let r = panic::catch_unwind(AssertUnwindSafe(f));
    QUIET.with(|q| q.set(false));
    r.map_err(|payload| panic_message(&*payload))
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_string())
}

fn container_op(
    c: &mut PalettedContainer,
    op: &ContainerOp,
    plant: Option<StrictPlant>,
) -> Result<Outcome, ExecError> {
    // Ids the registry lacks were refused before the run (`valid::check`).
    match container_op_all_apis(c, op, plant)? {
        Ok(v) => {
            if let Got::Packed(p) = &v {
                check_packed_serde(p)?;
            }
            Ok(Outcome::Ok(v.to_json()))
        }
        // DataResult errors: a result, and the subject is unchanged.
        Err(e @ (Error::MissingData | Error::Length { .. } | Error::BitCount { .. }))
            if matches!(op, ContainerOp::Unpack { .. }) =>
        {
            Ok(Outcome::Error(e.to_string()))
        }
        Err(e) => thrown(&e),
    }
}

/// Minecraft's storages hand values out as Java ints.
fn as_java_int(v: u32) -> i32 {
    v as i32
}

/// A storage op through the exact calls (`try_get`, ...), checked against
/// the strict ones (`get`, ...), which must give the same where the index
/// and value are in range and panic, changing nothing, where they are not.
fn storage_op(s: &mut BitStorage, op: &StorageOp) -> Result<Outcome, ExecError> {
    // Whether the index and value are in range of the storage before the op.
    let (len, max) = (s.len() as i64, i64::from(s.max_value()));
    let fits = |index: Option<i32>, value: Option<i64>| {
        index.is_none_or(|i| (0..len).contains(&i64::from(i)))
            && value.is_none_or(|v| (0..=max).contains(&v))
    };
    let (index, value) = match *op {
        StorageOp::Get { index } => (Some(index), None),
        StorageOp::Set { index, value } | StorageOp::GetAndSet { index, value } => {
            (Some(index), Some(value))
        }
        StorageOp::Fill { value } => (None, Some(value)),
        _ => (None, None),
    };
    // The strict call's copy of the storage before an op that changes it. Only those are
    // copied, once: a storage may hold 2^26 values.
    let changes = matches!(
        op,
        StorageOp::Set { .. } | StorageOp::GetAndSet { .. } | StorageOp::Fill { .. }
    );
    let mut other = changes.then(|| s.clone());
    let exact: Result<Value, Error> = match *op {
        StorageOp::Load {
            bits,
            size,
            ref longs,
        } => {
            if bits != 0 && !(1..=32).contains(&bits) {
                return Ok(out_of_range(i64::from(bits), 1, 32));
            }
            // A size outside 0..=2^26 was refused before the run (`valid::check`).
            // ZeroBitStorage(size) does not look at the longs.
            let longs = if bits == 0 { Vec::new() } else { longs.clone() };
            BitStorage::from_longs(bits as u32, size as usize, longs).map(|next| {
                *s = next;
                Value::Null
            })
        }
        StorageOp::Get { index } => s.try_get(index.into()).map(|v| as_java_int(v).into()),
        StorageOp::Set { index, value } => s.try_set(index.into(), value).map(|()| Value::Null),
        StorageOp::GetAndSet { index, value } => s
            .try_get_and_set(index.into(), value)
            .map(|v| as_java_int(v).into()),
        StorageOp::Fill { value } => s.try_fill(value).map(|()| Value::Null),
        StorageOp::Values => Ok(s.values().into_iter().map(as_java_int).collect()),
        StorageOp::Longs => Ok(s.longs().to_vec().into()),
        StorageOp::Bits => Ok(s.bits().into()),
        StorageOp::Size => {
            // A getter no op shows, held to its documented value (the
            // comparison clippy would rewrite is the point).
            #[allow(clippy::len_zero)]
            let empty = s.len() == 0;
            if s.is_empty() != empty {
                return Err(ExecError::Internal {
                    op: None,
                    message: format!("BitStorage::is_empty disagrees with len {}", s.len()),
                });
            }
            Ok(s.len().into())
        }
    };
    // The strict calls, on that copy; they take no negative index or value at all.
    let expressible = index.is_none_or(|i| i >= 0) && value.is_none_or(|v| v >= 0);
    let strict = quietly(|| -> Option<Value> {
        if !expressible {
            return None;
        }
        let (i, v) = (index.unwrap_or(0) as usize, value.unwrap_or(0) as u32);
        // A get changes nothing, so it runs on the storage as the exact call left it.
        let other = match (op, other.as_mut()) {
            (StorageOp::Get { .. }, _) => return Some(as_java_int(s.get(i)).into()),
            (_, Some(other)) => other,
            _ => return None,
        };
        Some(match *op {
            StorageOp::Set { .. } => {
                other.set(i, v);
                Value::Null
            }
            StorageOp::GetAndSet { .. } => as_java_int(other.get_and_set(i, v)).into(),
            StorageOp::Fill { .. } => {
                other.fill(v);
                Value::Null
            }
            _ => return None,
        })
    });
    let agree = match (&strict, &exact) {
        (Ok(None), _) => true,
        (Ok(Some(v)), Ok(w)) => {
            v == w && other.as_ref().is_none_or(|o| o == s) && fits(index, value)
        }
        // Neither call changed the storage: the exact one is held to that by the ops after
        // it, so the strict one's copy must still equal it.
        (Err(_), Err(_)) => other.as_ref().is_none_or(|o| o == s) && !fits(index, value),
        _ => false,
    };
    if !agree {
        return Err(ExecError::Internal {
            op: None,
            message: format!(
                "the strict storage call disagrees with the Minecraft-exact one on {}: {strict:?} against {exact:?}",
                op
            ),
        });
    }
    match exact {
        Ok(v) => Ok(Outcome::Ok(v)),
        Err(e) => thrown(&e),
    }
}
