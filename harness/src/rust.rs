//! The Rust side: runs a case on the `paletted` crate.
//!
//! It uses the Minecraft-exact calls (`unpack_lenient`, `read_lenient`, the
//! `try_` accessors), so Minecraft's deferred failures come out as the same
//! results with no special case in the comparator. Checks that the crate
//! leaves to a panic (a storage index or value out of range, a position
//! outside the container) are made here first and give Minecraft's result.

use std::panic::{self, AssertUnwindSafe};

use paletted::{BitStorage, Error, Packed, PalettedContainer, Strategy};
use serde_json::{json, Value};

use crate::case::{to_hex, Case, ContainerOp, Ops, StorageOp, Subject};
use crate::exec::{ExecError, Executor};
use crate::outcome::Outcome;

/// Most values a bit storage holds (the crate's limit, as exact as
/// Minecraft's index arithmetic is).
const MAX_SIZE: i64 = 1 << 26;

/// Runs cases on the Rust containers.
#[derive(Clone, Copy, Debug, Default)]
pub struct RustExecutor;

impl RustExecutor {
    /// A new executor (it holds no state between cases).
    pub fn new() -> RustExecutor {
        RustExecutor
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
        let run = panic::catch_unwind(AssertUnwindSafe(|| run_case(case, &mut at)));
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

fn run_case(case: &Case, at: &mut Option<usize>) -> Result<Vec<Outcome>, ExecError> {
    let mut results = Vec::with_capacity(case.ops.len());
    match (&case.subject, &case.ops) {
        (
            &Subject::Container {
                strategy,
                registry,
                initial,
            },
            Ops::Container(ops),
        ) => {
            let strategy = Strategy::with(strategy, registry);
            if initial >= registry {
                return Err(invalid(
                    None,
                    format!("initial {initial} is not below the registry size {registry}"),
                ));
            }
            let mut c = PalettedContainer::new(initial, strategy);
            for (i, op) in ops.iter().enumerate() {
                *at = Some(i);
                results.push(container_op(&mut c, op).map_err(|e| e.at(i))?);
            }
        }
        (&Subject::Storage { bits, size }, Ops::Storage(ops)) => {
            if bits > 32 || i64::from(size) > MAX_SIZE {
                return Err(invalid(
                    None,
                    format!("no storage of {size} values at {bits} bits"),
                ));
            }
            let mut s = BitStorage::new(bits, size as usize);
            for (i, op) in ops.iter().enumerate() {
                *at = Some(i);
                results.push(storage_op(&mut s, op).map_err(|e| e.at(i))?);
            }
        }
        _ => {
            return Err(invalid(
                None,
                "the ops are not of the subject's kind".into(),
            ))
        }
    }
    Ok(results)
}

fn invalid(op: Option<usize>, reason: String) -> ExecError {
    ExecError::Invalid { op, reason }
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

fn ok(v: impl Into<Value>) -> Result<Outcome, ExecError> {
    Ok(Outcome::Ok(v.into()))
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
        Error::NegativeLength { len } => {
            return Err(ExecError::Unsupported {
                op: None,
                reason: format!("a negative palette length ({len}) on the wire: Minecraft's reaction is not modelled"),
            })
        }
        other => {
            return Err(ExecError::Internal {
                op: None,
                message: format!("paletted gave an error the protocol does not map: {other:?} ({other})"),
            })
        }
    };
    Ok(Outcome::throws(class, e.to_string()))
}

/// An id (`entry(value)`), which must be one of the registry's.
fn id(value: i64, strategy: &Strategy) -> Result<u32, ExecError> {
    let registry = strategy.registry_size();
    match u32::try_from(value) {
        Ok(v) if v < registry => Ok(v),
        _ => Err(invalid(
            None,
            format!(
                "value {value} is not an id of the registry (0 to {})",
                registry - 1
            ),
        )),
    }
}

/// The index Minecraft computes for a position, in Java's int arithmetic:
/// only the final index is range-checked.
fn java_index(strategy: &Strategy, x: i32, y: i32, z: i32) -> i64 {
    let b = strategy.axis_bits();
    let i = (y.wrapping_shl(b) | z).wrapping_shl(b) | x;
    i64::from(i)
}

/// The index of a position, or Minecraft's exception for one outside.
fn index(c: &PalettedContainer, x: i32, y: i32, z: i32) -> Result<usize, Outcome> {
    let size = c.strategy().size() as i64;
    let i = java_index(&c.strategy(), x, y, z);
    if (0..size).contains(&i) {
        Ok(i as usize)
    } else {
        Err(out_of_range(i, 0, size - 1))
    }
}

/// A set at a position outside the container: Minecraft looks the value up
/// in the palette (growing it if new) before the index check throws. When
/// the value is already there nothing changes, and that is reproduced; a
/// new value would grow the palette, which the crate has no call for.
fn set_outside(c: &PalettedContainer, value: u32, thrown: Outcome) -> Result<Outcome, ExecError> {
    if value_is_in_palette(c, value) {
        return Ok(thrown);
    }
    Err(ExecError::Unsupported {
        op: None,
        reason: format!(
            "a set outside the container with value {value}, not in the palette: Minecraft grows the palette before its index check, which is not modelled"
        ),
    })
}

/// Whether `value` has a palette id now (global palettes hold every id).
fn value_is_in_palette(c: &PalettedContainer, value: u32) -> bool {
    matches!(c.palette_kind(), paletted::PaletteKind::Global)
        || c.try_palette().is_ok_and(|p| p.contains(&value))
}

fn container_op(c: &mut PalettedContainer, op: &ContainerOp) -> Result<Outcome, ExecError> {
    let strategy = c.strategy();
    match *op {
        ContainerOp::Set { x, y, z, value } => {
            let v = id(value, &strategy)?;
            match index(c, x, y, z) {
                Ok(i) => match c.try_set_at(i, v) {
                    Ok(()) => ok(Value::Null),
                    Err(e) => thrown(&e),
                },
                Err(t) => set_outside(c, v, t),
            }
        }
        ContainerOp::Get { x, y, z } => match index(c, x, y, z) {
            Ok(i) => match c.try_get_at(i) {
                Ok(v) => ok(v),
                Err(e) => thrown(&e),
            },
            Err(t) => Ok(t),
        },
        ContainerOp::GetAndSet { x, y, z, value } => {
            let v = id(value, &strategy)?;
            match index(c, x, y, z) {
                Ok(i) => match c.try_get_and_set_at(i, v) {
                    Ok(old) => ok(old),
                    Err(e) => thrown(&e),
                },
                Err(t) => set_outside(c, v, t),
            }
        }
        ContainerOp::Bits => ok(c.bits()),
        ContainerOp::Palette => match c.try_palette() {
            Ok(p) => ok(p),
            Err(e) => thrown(&e),
        },
        ContainerOp::Counts => match c.try_counts() {
            Ok(pairs) => ok(pairs
                .iter()
                .map(|&(v, n)| json!([v, n]))
                .collect::<Vec<_>>()),
            Err(e) => thrown(&e),
        },
        ContainerOp::GetAll => match c.try_distinct() {
            Ok(values) => ok(values),
            Err(e) => thrown(&e),
        },
        ContainerOp::MaybeHas { value } => {
            let v = id(value, &strategy)?;
            match c.try_maybe_has(v) {
                Ok(b) => ok(b),
                Err(e) => thrown(&e),
            }
        }
        ContainerOp::Write => {
            let mut out = Vec::new();
            match c.try_write(&mut out) {
                Ok(()) => ok(to_hex(&out)),
                Err(e) => thrown(&e),
            }
        }
        ContainerOp::SerializedSize => match c.try_serialized_size() {
            Ok(n) => ok(n),
            Err(e) => thrown(&e),
        },
        ContainerOp::Pack => match c.try_pack() {
            Ok(p) => ok(json!({"palette": p.palette, "data": p.data, "bits": p.bits})),
            Err(e) => thrown(&e),
        },
        ContainerOp::Unpack {
            ref palette,
            ref data,
            bits,
        } => {
            let palette = palette
                .iter()
                .map(|&v| id(v, &strategy))
                .collect::<Result<Vec<u32>, _>>()?;
            let packed = Packed {
                palette,
                data: data.clone(),
                bits,
            };
            match PalettedContainer::unpack_lenient(strategy, packed) {
                Ok(next) => {
                    *c = next;
                    ok(Value::Null)
                }
                // DataResult errors: a result, and the subject is unchanged.
                Err(e @ (Error::MissingData | Error::Length { .. } | Error::BitCount { .. })) => {
                    Ok(Outcome::Error(e.to_string()))
                }
                Err(e) => thrown(&e),
            }
        }
        ContainerOp::Read { ref bytes } => match c.read_lenient(bytes) {
            Ok(n) => ok(n),
            Err(e) => thrown(&e),
        },
    }
}

/// Java's `int` for a value the case gives wider.
fn int(value: i64) -> Result<i64, ExecError> {
    if i32::try_from(value).is_ok() {
        Ok(value)
    } else {
        Err(invalid(
            None,
            format!("value {value} does not fit Java's int"),
        ))
    }
}

/// The storage's index check, or its exception.
fn check_index(s: &BitStorage, index: i32) -> Result<usize, Outcome> {
    let size = s.len() as i64;
    if (0..size).contains(&i64::from(index)) {
        Ok(index as usize)
    } else {
        Err(out_of_range(i64::from(index), 0, size - 1))
    }
}

/// The storage's value check (against its mask), or its exception.
fn check_value(s: &BitStorage, value: i64) -> Result<u32, Outcome> {
    let max = i64::from(s.max_value());
    if (0..=max).contains(&value) {
        Ok(value as u32)
    } else {
        Err(out_of_range(value, 0, max))
    }
}

/// Minecraft's storages hand values out as Java ints.
fn as_java_int(v: u32) -> i32 {
    v as i32
}

fn storage_op(s: &mut BitStorage, op: &StorageOp) -> Result<Outcome, ExecError> {
    match *op {
        StorageOp::Load {
            bits,
            size,
            ref longs,
        } => {
            if bits != 0 && !(1..=32).contains(&bits) {
                return Ok(out_of_range(i64::from(bits), 1, 32));
            }
            if !(0..=MAX_SIZE).contains(&i64::from(size)) {
                return Err(invalid(
                    None,
                    format!("load of size {size}: sizes run from 0 to 2^26"),
                ));
            }
            if bits == 0 {
                // ZeroBitStorage(size): the longs are not looked at.
                *s = BitStorage::new(0, size as usize);
                return ok(Value::Null);
            }
            match BitStorage::from_longs(bits as u32, size as usize, longs.clone()) {
                Ok(next) => {
                    *s = next;
                    ok(Value::Null)
                }
                Err(e) => thrown(&e),
            }
        }
        StorageOp::Get { index } => match check_index(s, index) {
            Ok(i) => ok(as_java_int(s.get(i))),
            Err(t) => Ok(t),
        },
        StorageOp::Set { index, value } => {
            let value = int(value)?;
            let r = check_index(s, index).and_then(|i| Ok((i, check_value(s, value)?)));
            match r {
                Ok((i, v)) => {
                    s.set(i, v);
                    ok(Value::Null)
                }
                Err(t) => Ok(t),
            }
        }
        StorageOp::GetAndSet { index, value } => {
            let value = int(value)?;
            let r = check_index(s, index).and_then(|i| Ok((i, check_value(s, value)?)));
            match r {
                Ok((i, v)) => ok(as_java_int(s.get_and_set(i, v))),
                Err(t) => Ok(t),
            }
        }
        StorageOp::Fill { value } => {
            let value = int(value)?;
            match check_value(s, value) {
                Ok(v) => {
                    s.fill(v);
                    ok(Value::Null)
                }
                Err(t) => Ok(t),
            }
        }
        StorageOp::Values => ok(s.values().into_iter().map(as_java_int).collect::<Vec<_>>()),
        StorageOp::Longs => ok(s.longs().to_vec()),
        StorageOp::Bits => ok(s.bits()),
        StorageOp::Size => ok(s.len()),
    }
}
