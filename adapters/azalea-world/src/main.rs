//! Conformance adapter for azalea-world 0.16 (ADAPTER-PROTOCOL.md): cases
//! on stdin, results on stdout, every op through azalea-world's public API
//! (`PalettedContainer::{new, read, get, set, get_and_set, write}`,
//! `BitStorage::{new, get, set, get_and_set, iter, size}`); fields are only
//! read, never written.

#[path = "../../shared/protocol.rs"]
mod protocol;

use std::io::Cursor;

use azalea_block::BlockState;
use azalea_buf::BufReadError;
use azalea_registry::data::Biome;
use azalea_world::palette::{Palette, PalettedContainer, PalletedContainerKind, SectionPos};
use azalea_world::BitStorage;
use protocol::{from_hex, hex, int, ok, throws, unsupported, Outcome, Subject};
use serde_json::{json, Value};

const VERSION: &str = "0.16.0+mc26.1";

/// The case's registry id as azalea's value type, if it has one.
trait Id: PalletedContainerKind {
    fn make(id: i64) -> Result<Self, Outcome>;
}

impl Id for BlockState {
    fn make(id: i64) -> Result<Self, Outcome> {
        // BlockState::try_from(u32) truncates to u16 first, so check the range here.
        if (0..=i64::from(BlockState::MAX_STATE)).contains(&id) {
            BlockState::try_from(id as u32)
                .map_err(|()| unsupported(format!("block state {id} refused")))
        } else {
            Err(unsupported(format!(
                "{id} is not a block state of azalea's 26.1 registry (0..={})",
                BlockState::MAX_STATE
            )))
        }
    }
}

impl Id for Biome {
    fn make(id: i64) -> Result<Self, Outcome> {
        u32::try_from(id)
            .map(Biome::from)
            .map_err(|_| unsupported(format!("{id} is not a biome id")))
    }
}

/// azalea's read errors, as the Java exception Minecraft throws for the
/// same condition where there is one.
fn read_error(e: &BufReadError) -> Outcome {
    let class = match e {
        BufReadError::UnexpectedEof { .. } | BufReadError::CouldNotReadBytes => {
            "IndexOutOfBoundsException"
        }
        BufReadError::Io { source } if source.kind() == std::io::ErrorKind::UnexpectedEof => {
            "IndexOutOfBoundsException"
        }
        BufReadError::InvalidVarInt => "RuntimeException",
        _ => "BufReadError",
    };
    throws(class, format!("{e:?}: {e}"))
}

struct Container<S: Id> {
    c: PalettedContainer<S>,
}

impl<S: Id> Container<S> {
    fn new(initial: i64) -> Result<Self, Outcome> {
        let value = S::make(initial)?;
        if value == S::default() {
            return Ok(Self {
                c: PalettedContainer::new(),
            });
        }
        // No constructor takes a value: read a single-value section holding it.
        let mut bytes = vec![0u8];
        let mut v: u32 = value.into();
        loop {
            let byte = (v & 0x7f) as u8;
            v >>= 7;
            bytes.push(if v == 0 { byte } else { byte | 0x80 });
            if v == 0 {
                break;
            }
        }
        let c = PalettedContainer::read(&mut Cursor::new(&bytes[..]))
            .map_err(|e| unsupported(format!("initial value {initial}: {e}")))?;
        Ok(Self { c })
    }

    /// azalea's positions hold u8 coordinates; its index arithmetic then
    /// matches Minecraft's for every u8 (16 on an axis reaches index 4096).
    fn pos(op: &Value) -> Result<S::SectionPos, Outcome> {
        let [x, y, z] = ["x", "y", "z"].map(|f| int(op, f));
        let (x, y, z) = (x?, y?, z?);
        if [x, y, z].iter().all(|c| (0..=255).contains(c)) {
            Ok(S::SectionPos::new(x as usize, y as usize, z as usize))
        } else {
            Err(unsupported(format!(
                "position ({x}, {y}, {z}): azalea's section positions are u8"
            )))
        }
    }
}

impl<S: Id> Subject for Container<S> {
    fn run(&mut self, op: &Value) -> Result<Outcome, Outcome> {
        let name = op["op"].as_str().unwrap_or("");
        Ok(match name {
            "set" => {
                let (pos, v) = (Self::pos(op)?, S::make(int(op, "value")?)?);
                self.c.set(pos, v);
                ok(Value::Null)
            }
            "get" => ok(self.c.get(Self::pos(op)?).into()),
            "get_and_set" => {
                let (pos, v) = (Self::pos(op)?, S::make(int(op, "value")?)?);
                ok(self.c.get_and_set(pos, v).into())
            }
            "bits" => ok(self.c.bits_per_entry),
            "palette" => match &self.c.palette {
                Palette::SingleValue(v) => ok(json!([Into::<u32>::into(*v)])),
                Palette::Linear(vs) | Palette::Hashmap(vs) => {
                    ok(vs.iter().map(|v| Into::<u32>::into(*v)).collect::<Vec<_>>())
                }
                Palette::Global => unsupported("azalea's global palette has no entries to list"),
            },
            "write" => {
                let mut out = Vec::new();
                match self.c.write(&mut out) {
                    Ok(()) => ok(hex(&out)),
                    Err(e) => throws("IOException", e),
                }
            }
            "read" => {
                let bytes = from_hex(op["bytes"].as_str().unwrap_or(""))?;
                let mut cursor = Cursor::new(&bytes[..]);
                match PalettedContainer::<S>::read(&mut cursor) {
                    Ok(c) => {
                        self.c = c;
                        ok(cursor.position())
                    }
                    Err(e) => read_error(&e),
                }
            }
            other => unsupported(format!("azalea-world has no `{other}` on a container")),
        })
    }
}

/// A `SimpleBitStorage` subject: azalea's `BitStorage` (a zero-bit one is
/// `BitStorage::new(0, size, Some([]))`, as azalea's own containers make it).
struct Storage {
    s: Result<BitStorage, Outcome>,
}

fn usize_of(v: i64, what: &str) -> Result<usize, Outcome> {
    usize::try_from(v).map_err(|_| unsupported(format!("negative {what} {v}: azalea takes usize")))
}

fn u64_of(v: i64) -> Result<u64, Outcome> {
    u64::try_from(v).map_err(|_| unsupported(format!("negative value {v}: azalea takes u64")))
}

fn storage(bits: usize, size: usize, data: Option<Box<[u64]>>) -> Result<BitStorage, Outcome> {
    BitStorage::new(bits, size, data).map_err(|e| throws("InitializationException", e))
}

impl Subject for Storage {
    fn run(&mut self, op: &Value) -> Result<Outcome, Outcome> {
        let name = op["op"].as_str().unwrap_or("");
        if name == "load" {
            let (bits, size) = (
                usize_of(int(op, "bits")?, "bits")?,
                usize_of(int(op, "size")?, "size")?,
            );
            let longs: Box<[u64]> = op["longs"]
                .as_array()
                .map(|a| a.iter().map(|l| l.as_i64().unwrap_or(0) as u64).collect())
                .unwrap_or_default();
            return Ok(match storage(bits, size, Some(longs)) {
                Ok(s) => {
                    self.s = Ok(s);
                    ok(Value::Null)
                }
                Err(e) => e,
            });
        }
        let s = match &mut self.s {
            Ok(s) => s,
            Err(e) => return Ok(e.clone()),
        };
        // Results are Java ints: a 32-bit value comes out negative past 2^31 - 1.
        let java = |v: u64| v as u32 as i32;
        Ok(match name {
            "get" => ok(java(s.get(usize_of(int(op, "index")?, "index")?))),
            "set" => {
                let i = usize_of(int(op, "index")?, "index")?;
                s.set(i, u64_of(int(op, "value")?)?);
                ok(Value::Null)
            }
            "get_and_set" => {
                let i = usize_of(int(op, "index")?, "index")?;
                ok(java(s.get_and_set(i, u64_of(int(op, "value")?)?)))
            }
            "values" => ok(s.iter().map(java).collect::<Vec<_>>()),
            "longs" => ok(s.data.iter().map(|&l| l as i64).collect::<Vec<_>>()),
            "size" => ok(s.size()),
            "bits" => unsupported("azalea's BitStorage does not expose its bits"),
            "fill" => unsupported("azalea's BitStorage has no fill"),
            other => unsupported(format!("azalea-world has no `{other}` on a BitStorage")),
        })
    }
}

struct Azalea;

impl protocol::Adapter for Azalea {
    fn handshake(&self) -> Value {
        json!({
            "protocol": 1,
            "implementation": "azalea-world",
            "version": VERSION,
            "minecraft": "26.1",
            "ops": {
                "container": ["set", "get", "get_and_set", "bits", "palette", "write", "read"],
                "storage": ["load", "get", "set", "get_and_set", "values", "longs", "size"],
            },
            "notes": format!(
                "azalea-world {VERSION}, built with debug assertions off (release semantics). \
                 azalea has no registry: the case's registry size is not used; block state ids \
                 must be 0..={} (its 26.1 registry), biome ids any u32. Positions are u8 \
                 coordinates. A subject with a non-zero initial value is made by reading a \
                 single-value section. Errors are named as the Java class for the same \
                 condition; panics are reported as `panic`.",
                BlockState::MAX_STATE
            ),
        })
    }

    fn subject(&self, subject: &Value) -> Result<Box<dyn Subject>, Outcome> {
        match subject["kind"].as_str() {
            Some("container") => {
                let initial = int(subject, "initial")?;
                match subject["strategy"].as_str() {
                    Some("block_states") => Ok(Box::new(Container::<BlockState>::new(initial)?)),
                    Some("biomes") => Ok(Box::new(Container::<Biome>::new(initial)?)),
                    other => Err(unsupported(format!("strategy {other:?}"))),
                }
            }
            Some("storage") => {
                let bits = usize_of(int(subject, "bits")?, "bits")?;
                let size = usize_of(int(subject, "size")?, "size")?;
                let data = (bits == 0).then(|| Box::<[u64]>::from([]));
                Ok(Box::new(Storage {
                    s: storage(bits, size, data),
                }))
            }
            other => Err(unsupported(format!("subject kind {other:?}"))),
        }
    }
}

fn main() -> std::io::Result<()> {
    protocol::serve(&Azalea)
}
