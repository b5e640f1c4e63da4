//! Conformance adapter for oxidized-chunks 0.1.0-dev (ADAPTER-PROTOCOL.md):
//! cases on stdin, results on stdout, every op through oxidized-chunks'
//! public API (`PalettedContainer::{new, get, set, get_and_set,
//! bits_per_entry, for_each_value, write_to_bytes, read_from_bytes,
//! to_nbt_data, from_nbt_data}`, `BitStorage::{new, from_raw, get, set,
//! get_and_set, iter, raw, bits, size}`).

#[path = "../../shared/protocol.rs"]
mod protocol;

use oxidized_chunks::bit_storage::{BitStorage, BitStorageError};
use oxidized_chunks::paletted_container::{PalettedContainer, PalettedContainerError, Strategy};
use protocol::{from_hex, hex, int, ok, throws, unsupported, Outcome, Subject};
use serde_json::{json, Value};

const VERSION: &str = "0.1.0-dev.t20260410200555.6b8d0ec";

/// oxidized's storage errors, as the Java exception Minecraft throws for the
/// same condition (Validate's range checks, SimpleBitStorage's length check).
fn storage_error(e: &BitStorageError) -> Outcome {
    let class = match e {
        BitStorageError::DataLengthMismatch { .. } => "InitializationException",
        _ => "IllegalArgumentException",
    };
    throws(class, format!("{e:?}: {e}"))
}

fn container_error(e: &PalettedContainerError) -> Outcome {
    let class = match e {
        PalettedContainerError::BitStorage(s) => return storage_error(s),
        PalettedContainerError::OutOfBounds { .. } => "IllegalArgumentException",
        PalettedContainerError::InsufficientData { .. } => "IndexOutOfBoundsException",
        PalettedContainerError::MalformedVarInt => "RuntimeException",
        _ => "PalettedContainerError",
    };
    throws(class, format!("{e:?}: {e}"))
}

fn usize_of(v: i64, what: &str) -> Result<usize, Outcome> {
    usize::try_from(v)
        .map_err(|_| unsupported(format!("negative {what} {v}: oxidized takes usize")))
}

fn u32_of(v: i64, what: &str) -> Result<u32, Outcome> {
    u32::try_from(v).map_err(|_| unsupported(format!("{what} {v} is not a u32")))
}

struct Container {
    strategy: Strategy,
    c: PalettedContainer,
}

impl Container {
    fn pos(op: &Value) -> Result<(usize, usize, usize), Outcome> {
        Ok((
            usize_of(int(op, "x")?, "x")?,
            usize_of(int(op, "y")?, "y")?,
            usize_of(int(op, "z")?, "z")?,
        ))
    }
}

impl Subject for Container {
    fn run(&mut self, op: &Value) -> Result<Outcome, Outcome> {
        let name = op["op"].as_str().unwrap_or("");
        let done = |r: Result<Value, PalettedContainerError>| match r {
            Ok(v) => ok(v),
            Err(e) => container_error(&e),
        };
        Ok(match name {
            "set" => {
                let ((x, y, z), v) = (Self::pos(op)?, u32_of(int(op, "value")?, "value")?);
                done(self.c.set(x, y, z, v).map(|()| Value::Null))
            }
            "get" => {
                let (x, y, z) = Self::pos(op)?;
                done(self.c.get(x, y, z).map(Value::from))
            }
            "get_and_set" => {
                let ((x, y, z), v) = (Self::pos(op)?, u32_of(int(op, "value")?, "value")?);
                done(self.c.get_and_set(x, y, z, v).map(Value::from))
            }
            "bits" => ok(self.c.bits_per_entry()),
            "get_all" => {
                // Minecraft's getAll: the distinct stored values, first appearance.
                let mut seen = Vec::new();
                self.c.for_each_value(|v| {
                    if !seen.contains(&v) {
                        seen.push(v);
                    }
                });
                ok(seen)
            }
            "write" => ok(hex(&self.c.write_to_bytes())),
            "read" => {
                let bytes = from_hex(op["bytes"].as_str().unwrap_or(""))?;
                let mut rest = &bytes[..];
                match PalettedContainer::read_from_bytes(self.strategy, &mut rest) {
                    Ok(c) => {
                        self.c = c;
                        ok(bytes.len() - rest.len())
                    }
                    Err(e) => container_error(&e),
                }
            }
            "pack" => {
                let (palette, longs) = self.c.to_nbt_data();
                // The disk form has no width field: give the width oxidized's own
                // from_nbt_data reads these longs at (from the palette's length).
                let n = palette.len();
                let bits = if n <= 1 {
                    0
                } else {
                    self.strategy
                        .storage_bits((usize::BITS - (n - 1).leading_zeros()) as u8)
                };
                let data = if longs.is_empty() {
                    Value::Null
                } else {
                    json!(longs)
                };
                ok(json!({ "palette": palette, "data": data, "bits": bits }))
            }
            "unpack" => {
                // from_nbt_data takes no declared width: `bits` cannot be passed.
                let palette = op["palette"]
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .map(|v| u32_of(v.as_i64().unwrap_or(-1), "palette id"))
                    })
                    .into_iter()
                    .flatten()
                    .collect::<Result<Vec<_>, _>>()?;
                let longs: Vec<i64> = op["data"]
                    .as_array()
                    .map(|a| a.iter().map(|l| l.as_i64().unwrap_or(0)).collect())
                    .unwrap_or_default();
                match PalettedContainer::from_nbt_data(self.strategy, palette, &longs) {
                    Ok(c) => {
                        self.c = c;
                        ok(Value::Null)
                    }
                    Err(e) => json!({ "error": format!("{e:?}: {e}") }),
                }
            }
            other => unsupported(format!("oxidized-chunks has no `{other}` on a container")),
        })
    }
}

/// oxidized has no zero-bit storage (its containers use a single-value
/// palette instead), so a 0-bit subject or load is unsupported.
fn zero_bits(bits: i64) -> Result<(), Outcome> {
    if bits == 0 {
        Err(unsupported("oxidized-chunks has no zero-bit storage"))
    } else {
        Ok(())
    }
}

fn bits_of(bits: i64) -> Result<u8, Outcome> {
    // A width that no u8 holds is as out of range as 33 is.
    Ok(u8::try_from(bits).unwrap_or(u8::MAX))
}

struct Storage {
    s: Result<BitStorage, Outcome>,
}

impl Subject for Storage {
    fn run(&mut self, op: &Value) -> Result<Outcome, Outcome> {
        let name = op["op"].as_str().unwrap_or("");
        let java = |v: u64| v as u32 as i32; // results are Java ints
        if name == "load" {
            let bits = int(op, "bits")?;
            zero_bits(bits)?;
            let size = usize_of(int(op, "size")?, "size")?;
            let longs: Vec<u64> = op["longs"]
                .as_array()
                .map(|a| a.iter().map(|l| l.as_i64().unwrap_or(0) as u64).collect())
                .unwrap_or_default();
            return Ok(match BitStorage::from_raw(bits_of(bits)?, size, longs) {
                Ok(s) => {
                    self.s = Ok(s);
                    ok(Value::Null)
                }
                Err(e) => storage_error(&e),
            });
        }
        let s = match &mut self.s {
            Ok(s) => s,
            Err(e) => return Ok(e.clone()),
        };
        let done = |r: Result<Value, BitStorageError>| match r {
            Ok(v) => ok(v),
            Err(e) => storage_error(&e),
        };
        let value = |op: &Value| {
            u64::try_from(int(op, "value")?).map_err(|_| {
                // A negative Java int is outside every storage's range.
                storage_error(&BitStorageError::ValueTooLarge {
                    value: u64::MAX,
                    max: 0,
                    bits: 0,
                })
            })
        };
        Ok(match name {
            "get" => done(
                s.get(usize_of(int(op, "index")?, "index")?)
                    .map(|v| java(v).into()),
            ),
            "set" => {
                let i = usize_of(int(op, "index")?, "index")?;
                done(s.set(i, value(op)?).map(|()| Value::Null))
            }
            "get_and_set" => {
                let i = usize_of(int(op, "index")?, "index")?;
                done(s.get_and_set(i, value(op)?).map(|v| java(v).into()))
            }
            "values" => ok(s.iter().map(java).collect::<Vec<_>>()),
            "longs" => ok(s.raw().iter().map(|&l| l as i64).collect::<Vec<_>>()),
            "bits" => ok(s.bits()),
            "size" => ok(s.size()),
            other => unsupported(format!("oxidized-chunks has no `{other}` on a BitStorage")),
        })
    }
}

struct Oxidized;

impl protocol::Adapter for Oxidized {
    fn handshake(&self) -> Value {
        json!({
            "protocol": 1,
            "implementation": "oxidized-chunks",
            "version": VERSION,
            "minecraft": "26.1",
            "ops": {
                "container": ["set", "get", "get_and_set", "bits", "get_all", "write", "read",
                              "pack", "unpack"],
                "storage": ["load", "get", "set", "get_and_set", "values", "longs", "bits", "size"],
            },
            "notes": format!(
                "oxidized-chunks {VERSION}. Its global palette width is fixed at 26.1's (15 bits \
                 for block states, 29,873 states; 7 for biomes): the case's registry size is not \
                 used. Positions are checked per axis. get_all is the distinct values of \
                 for_each_value, first appearance; pack is to_nbt_data, its `bits` the width its \
                 from_nbt_data reads them at; unpack is from_nbt_data, which takes no declared width. No \
                 zero-bit storage. Errors are named as the Java class for the same condition."
            ),
        })
    }

    fn subject(&self, subject: &Value) -> Result<Box<dyn Subject>, Outcome> {
        match subject["kind"].as_str() {
            Some("container") => {
                let strategy = match subject["strategy"].as_str() {
                    Some("block_states") => Strategy::BlockStates,
                    Some("biomes") => Strategy::Biomes,
                    other => return Err(unsupported(format!("strategy {other:?}"))),
                };
                let initial = u32_of(int(subject, "initial")?, "initial")?;
                Ok(Box::new(Container {
                    strategy,
                    c: PalettedContainer::new(strategy, initial),
                }))
            }
            Some("storage") => {
                let bits = int(subject, "bits")?;
                zero_bits(bits)?;
                let size = usize_of(int(subject, "size")?, "size")?;
                Ok(Box::new(Storage {
                    s: BitStorage::new(bits_of(bits)?, size).map_err(|e| storage_error(&e)),
                }))
            }
            other => Err(unsupported(format!("subject kind {other:?}"))),
        }
    }
}

fn main() -> std::io::Result<()> {
    protocol::serve(&Oxidized)
}
