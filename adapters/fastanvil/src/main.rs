//! Conformance adapter for fastanvil 0.32 (PROTOCOL.md, "Adapters"): cases on stdin,
//! results on stdout. fastanvil reads saved chunks; it has no container to change, so a
//! subject is a section as a chunk saves it (`block_states` / `biomes`: a palette of names
//! and a `data` long array, absent for a one-entry palette), written with fastnbt and
//! deserialized into fastanvil's own types: `Section` (its `block_states`) for blocks, its
//! `BiomeData` for biomes. `unpack` is that deserialization of the case's palette and longs,
//! `get` is `at(x, y, z)`. Nothing else is there: no writing, no bit storage.
//!
//! Ids are names: id N is the block `paletted:sN` (a biome, `paletted:bN`), so they go in
//! and come out unchanged (fastanvil's `Biome` enum would turn every unknown name into
//! `Unknown`, so biomes are read as names through the same generic `BiomeData`).

#[allow(dead_code)] // the kit's hex helpers: fastanvil has no wire form
#[path = "../../shared/protocol.rs"]
mod protocol;

use fastanvil::{BiomeData, Section};
use fastnbt::LongArray;
use protocol::{int, ok, throws, unsupported, Outcome, Subject};
use serde::Serialize;
use serde_json::{json, Value};

const VERSION: &str = "0.32.0";

/// A palette entry of `block_states` as chunks save it.
#[derive(Serialize)]
struct SavedBlock {
    #[serde(rename = "Name")]
    name: String,
}

/// A saved container: `block_states` or `biomes` of a section.
#[derive(Serialize)]
struct Saved<T> {
    palette: Vec<T>,
    #[serde(skip_serializing_if = "Option::is_none")]
    data: Option<LongArray>,
}

/// A saved section holding only its block states.
#[derive(Serialize)]
struct SavedSection {
    #[serde(rename = "Y")]
    y: i8,
    block_states: Saved<SavedBlock>,
}

#[derive(Clone, Copy)]
enum Strategy {
    Blocks,
    Biomes,
}

/// What fastanvil read: a section's blocks or its biomes.
enum Read {
    Blocks(Box<Section>),
    Biomes(BiomeData<String>),
}

fn prefix(strategy: Strategy) -> &'static str {
    match strategy {
        Strategy::Blocks => "paletted:s",
        Strategy::Biomes => "paletted:b",
    }
}

/// The case's id back from the name it was given as.
fn id_of(strategy: Strategy, name: &str) -> Outcome {
    match name
        .strip_prefix(prefix(strategy))
        .and_then(|n| n.parse::<i64>().ok())
    {
        Some(id) => ok(id),
        None => throws(
            "NoRegistryId",
            format!("fastanvil gave {name}, which no id of the case names"),
        ),
    }
}

/// fastanvil's reading of a saved container: `palette` ids as names, `data` longs (or
/// absent). An NBT error is fastnbt's own (none is expected: the bytes are fastnbt's).
fn read(strategy: Strategy, palette: &[i64], data: Option<Vec<i64>>) -> Result<Read, Outcome> {
    let name = |v: &i64| format!("{}{v}", prefix(strategy));
    let data = data.map(LongArray::new);
    let nbt_error = |e: fastnbt::error::Error| throws("fastnbt::Error", e);
    Ok(match strategy {
        Strategy::Blocks => {
            let section = SavedSection {
                y: 0,
                block_states: Saved {
                    palette: palette
                        .iter()
                        .map(|v| SavedBlock { name: name(v) })
                        .collect(),
                    data,
                },
            };
            let bytes = fastnbt::to_bytes(&section).map_err(nbt_error)?;
            Read::Blocks(Box::new(fastnbt::from_bytes(&bytes).map_err(nbt_error)?))
        }
        Strategy::Biomes => {
            let saved = Saved {
                palette: palette.iter().map(name).collect(),
                data,
            };
            let bytes = fastnbt::to_bytes(&saved).map_err(nbt_error)?;
            Read::Biomes(fastnbt::from_bytes(&bytes).map_err(nbt_error)?)
        }
    })
}

fn coordinate(op: &Value, axis: &str) -> Result<usize, Outcome> {
    let v = int(op, axis)?;
    usize::try_from(v)
        .map_err(|_| unsupported(format!("negative {axis} {v}: fastanvil takes usize")))
}

struct Container {
    strategy: Strategy,
    read: Read,
}

impl Subject for Container {
    fn run(&mut self, op: &Value) -> Result<Outcome, Outcome> {
        Ok(match op["op"].as_str().unwrap_or("") {
            "get" => {
                let (x, y, z) = (
                    coordinate(op, "x")?,
                    coordinate(op, "y")?,
                    coordinate(op, "z")?,
                );
                // `at` returns None where it has no value to give: `null`.
                match &self.read {
                    Read::Blocks(section) => match section.block_states.at(x, y, z) {
                        Some(block) => id_of(self.strategy, block.name()),
                        None => ok(Value::Null),
                    },
                    // BiomeData::at takes block coordinates inside the section and divides
                    // them by 4: biome cell (x, y, z) is block (4x, 4y, 4z).
                    Read::Biomes(biomes) => {
                        let block = |c: usize| {
                            c.checked_mul(4).ok_or_else(|| {
                                unsupported(format!("coordinate {c} times 4 overflows"))
                            })
                        };
                        match biomes.at(block(x)?, block(y)?, block(z)?) {
                            Some(name) => id_of(self.strategy, name),
                            None => ok(Value::Null),
                        }
                    }
                }
            }
            "unpack" => {
                // A saved section has no declared width: `bits` cannot be passed.
                let palette = op["palette"]
                    .as_array()
                    .ok_or_else(|| unsupported("malformed case: no palette"))?
                    .iter()
                    .map(|v| {
                        v.as_i64()
                            .ok_or_else(|| unsupported("malformed case: a palette id"))
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                let data = match &op["data"] {
                    Value::Null => None,
                    Value::Array(longs) => Some(
                        longs
                            .iter()
                            .map(|l| {
                                l.as_i64()
                                    .ok_or_else(|| unsupported("malformed case: a long"))
                            })
                            .collect::<Result<Vec<_>, _>>()?,
                    ),
                    _ => return Err(unsupported("malformed case: data")),
                };
                match read(self.strategy, &palette, data) {
                    Ok(read) => {
                        self.read = read;
                        ok(Value::Null)
                    }
                    Err(e) => e,
                }
            }
            other => unsupported(format!(
                "fastanvil reads saved sections: it has no `{other}`"
            )),
        })
    }
}

struct Fastanvil;

impl protocol::Adapter for Fastanvil {
    fn handshake(&self) -> Value {
        json!({
            "protocol": 1,
            "implementation": "fastanvil",
            "version": VERSION,
            "minecraft": "26.3",
            "ops": { "container": ["get", "unpack"] },
            "notes": format!(
                "fastanvil {VERSION} (default features off): a saved section's container, its \
                 palette as names paletted:sN / paletted:bN and its data longs, written with \
                 fastnbt and deserialized into fastanvil's Section (block_states) or \
                 BiomeData<String> (biomes); unpack is that reading (it validates nothing and \
                 takes no declared width), get is at(x, y, z) (biomes at block coordinates 4x, \
                 4y, 4z), None as null. A subject is the saved form of a single-value container \
                 of its initial value (a one-entry palette, no data). fastanvil reads every \
                 1.18+ section alike (it has no version); it is measured at 26.3, the newest \
                 saved form. Negative coordinates are unsupported (usize). Panics are results."
            ),
        })
    }

    fn subject(&self, subject: &Value) -> Result<Box<dyn Subject>, Outcome> {
        if subject["kind"].as_str() != Some("container") {
            return Err(unsupported("fastanvil has no bit storage in its API"));
        }
        let strategy = match subject["strategy"].as_str() {
            Some("block_states") => Strategy::Blocks,
            Some("biomes") => Strategy::Biomes,
            other => return Err(unsupported(format!("strategy {other:?}"))),
        };
        let read = read(strategy, &[int(subject, "initial")?], None)?;
        Ok(Box::new(Container { strategy, read }))
    }
}

fn main() -> std::io::Result<()> {
    protocol::serve(&Fastanvil)
}
